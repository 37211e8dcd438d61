// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/shape.c: the syntax of --rate and --interval, the
 * token bucket on a fake clock, the rate report and the lowest interval.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/shape.h"

static void rate_ok(const char *arg, uint64_t want, uint8_t unit)
{
	char err[256] = "";
	uint64_t rate = 0;
	uint8_t u = 0;

	if (rb_rate_parse("--rate", arg, &rate, &u, err, sizeof(err)))
		fail_msg("--rate %s: %s", arg, err);
	if (rate != want || u != unit)
		fail_msg("--rate %s: %llu unit %u, want %llu unit %u", arg,
			 (unsigned long long)rate, u, (unsigned long long)want, unit);
}

static void rate_bad(const char *arg, const char *why)
{
	char err[256] = "";
	uint64_t rate = 0;
	uint8_t u = 0;

	if (rb_rate_parse("--rate", arg, &rate, &u, err, sizeof(err)) != -EINVAL)
		fail_msg("--rate %s: accepted", arg);
	if (!strstr(err, why) || !strstr(err, "--rate"))
		fail_msg("--rate %s: '%s' does not say '%s'", arg, err, why);
}

static void test_rate_parse(void **state)
{
	(void)state;
	rate_ok("10Gbps", 10000000000ULL, RB_RATE_BPS);
	rate_ok("500Mbps", 500000000ULL, RB_RATE_BPS);
	rate_ok("2.5Gb/s", 2500000000ULL, RB_RATE_BPS);
	rate_ok("512Kbps", 512000, RB_RATE_BPS);
	rate_ok("512kbps", 512000, RB_RATE_BPS);
	rate_ok("1Mpps", 1000000, RB_RATE_PPS);
	rate_ok("200Kpps", 200000, RB_RATE_PPS);
	rate_ok("40pps", 40, RB_RATE_PPS);
	rate_ok("1Tbps", 1000000000000ULL, RB_RATE_BPS);
	/* perftest's --rate_limit: a bare number is Gb/s. */
	rate_ok("10", 10000000000ULL, RB_RATE_BPS);
	rate_ok("0.5", 500000000ULL, RB_RATE_BPS);

	rate_bad("10GBps", "bytes per second are not taken");
	rate_bad("10Gbit", "not one of bps");
	rate_bad("10mbps", "not one of bps"); /* milli is not a thing here */
	rate_bad("", "not a rate");
	rate_bad("fast", "not a rate");
	rate_bad("-1Gbps", "not a rate");
	rate_bad("0", "not a rate");
	rate_bad("nan", "not a rate");
	rate_bad("inf", "not a rate");
	rate_bad("100bps", "out of range");
	rate_bad("11Tbps", "out of range");
	rate_bad("20Gpps", "out of range");
	rate_bad("1e30Gbps", "out of range");
}

static void test_rate_check_and_str(void **state)
{
	char err[256], buf[32];

	(void)state;
	assert_int_equal(rb_rate_check(0, RB_RATE_NONE, err, sizeof(err)), 0);
	assert_int_equal(rb_rate_check(5, RB_RATE_NONE, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_rate_check(5, 3, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown unit 3"));
	assert_int_equal(rb_rate_check(0, RB_RATE_PPS, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_rate_check(RB_RATE_BPS_MAX, RB_RATE_BPS, err, sizeof(err)), 0);
	assert_int_equal(rb_rate_check(RB_RATE_BPS_MAX + 1, RB_RATE_BPS, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(rb_rate_str(10000000000ULL, RB_RATE_BPS, buf, sizeof(buf)), "10Gbps");
	assert_string_equal(rb_rate_str(512000, RB_RATE_BPS, buf, sizeof(buf)), "512Kbps");
	assert_string_equal(rb_rate_str(1500000, RB_RATE_PPS, buf, sizeof(buf)), "1.5Mpps");
	assert_string_equal(rb_rate_str(40, RB_RATE_PPS, buf, sizeof(buf)), "40pps");
	assert_string_equal(rb_rate_str(RB_RATE_BPS_MAX, RB_RATE_BPS, buf, sizeof(buf)), "10Tbps");
	/* Messages per second: bits over 8 x size, or packets as they are. */
	assert_true(fabs(rb_rate_msgs_per_s(8192000, RB_RATE_BPS, 1024) - 1000) < 1e-9);
	assert_true(fabs(rb_rate_msgs_per_s(1000, RB_RATE_PPS, 1024) - 1000) < 1e-9);
	assert_true(rb_rate_msgs_per_s(1000, RB_RATE_BPS, 0) == 0);
}

static void iv_ok(const char *arg, uint32_t want)
{
	char err[256] = "";
	uint32_t ms = 0;

	if (rb_interval_parse("--interval", arg, &ms, err, sizeof(err)))
		fail_msg("--interval %s: %s", arg, err);
	if (ms != want)
		fail_msg("--interval %s: %u ms, want %u", arg, ms, want);
}

static void iv_bad(const char *arg, const char *why)
{
	char err[256] = "";
	uint32_t ms = 0;

	if (rb_interval_parse("--interval", arg, &ms, err, sizeof(err)) != -EINVAL)
		fail_msg("--interval %s: accepted", arg);
	if (!strstr(err, why) || !strstr(err, "--interval"))
		fail_msg("--interval %s: '%s' does not say '%s'", arg, err, why);
}

static void test_interval_parse(void **state)
{
	(void)state;
	iv_ok("1", 1000);
	iv_ok("0.5", 500);
	iv_ok(".25", 250);
	iv_ok("2.125", 2125);
	iv_ok("0.1", 100);
	iv_ok("86400", 86400000);
	iv_bad("0", "out of range");
	iv_bad("0.05", "out of range");
	iv_bad("86401", "out of range");
	iv_bad("99999999999999", "not a number of seconds");
	iv_bad("1.2345", "not a number of seconds");
	iv_bad("1s", "not a number of seconds");
	iv_bad("", "not a number of seconds");
	iv_bad(".", "not a number of seconds");
	iv_bad("-1", "not a number of seconds");
	iv_bad("1e3", "not a number of seconds");
}

/* The bucket on a fake clock of 1000 ticks per second. */
static void test_pace(void **state)
{
	struct rb_pace p;
	uint64_t k, n = 0;

	(void)state;
	/* 100 messages/s, a bucket of 4: empty at start, no burst. */
	rb_pace_init(&p, 100, 1000, 4, 0);
	assert_true(p.cap == 4);
	assert_false(rb_pace_take(&p, 0, 1));
	/* 4 messages take 40 ticks to earn. */
	assert_false(rb_pace_take(&p, 39, 4));
	assert_true(rb_pace_take(&p, 40, 4));
	/* A clock that goes back earns nothing. */
	assert_false(rb_pace_take(&p, 10, 1));
	/* Over 10 s, polled every tick: the rate exactly. */
	for (k = 41; k <= 10040; k++)
		n += rb_pace_take(&p, k, 4) ? 4 : 0;
	assert_int_equal(n, 1000);
	/* A stall of 5 s: at most one bucket afterwards, no flood. */
	n = 0;
	for (k = 15040; k <= 15041; k++)
		while (rb_pace_take(&p, k, 1))
			n++;
	assert_int_equal(n, 4);

	/* 100000/s: the bucket holds RB_PACE_BURST_MS of the rate. */
	rb_pace_init(&p, 100000, 1000, 4, 0);
	assert_true(p.cap == 100000.0 * RB_PACE_BURST_MS / 1000);
	/* Polled every 7 ticks with chains of 3: no token lost or made. */
	rb_pace_init(&p, 3000, 1000, 3, 0);
	n = 0;
	for (k = 0; k <= 7000; k += 7)
		while (rb_pace_take(&p, k, 3))
			n += 3;
	assert_true(n >= 21000 - 3 && n <= 21000);
}

static void test_rate_report(void **state)
{
	struct rb_result res = { .has_bw = true, .bw_avg_gbps = 9, .msg_rate_mpps = 2 };

	(void)state;
	rb_rate_report(&res, 10000000000ULL, RB_RATE_BPS);
	assert_true(res.has_rate && !res.rate_pps);
	assert_true(res.rate_target == 10 && res.rate_achieved == 9);
	assert_true(fabs(res.rate_dev_pct + 10) < 1e-9);
	rb_rate_report(&res, 1000000, RB_RATE_PPS);
	assert_true(res.rate_pps && res.rate_target == 1 && res.rate_achieved == 2);
	assert_true(fabs(res.rate_dev_pct - 100) < 1e-9);
	/* Without a rate, or a bandwidth: nothing. */
	memset(&res, 0, sizeof(res));
	res.has_bw = true;
	rb_rate_report(&res, 0, RB_RATE_NONE);
	assert_false(res.has_rate);
	res.has_bw = false;
	rb_rate_report(&res, 1000, RB_RATE_PPS);
	assert_false(res.has_rate);
}

static void test_bw_min_interval(void **state)
{
	struct rb_interval iv[4] = {
		{ .duration_s = 1.0, .bw_gbps = 5 },
		{ .duration_s = 1.01, .bw_gbps = 2 },
		{ .duration_s = 0.9, .bw_gbps = 7 },
		{ .duration_s = 0.1, .bw_gbps = 0.5 }, /* a short remainder: not a dip */
	};
	struct rb_result res = { 0 };

	(void)state;
	res.iv = malloc(sizeof(iv));
	assert_non_null(res.iv);
	memcpy(res.iv, iv, sizeof(iv));
	res.niv = 4;
	rb_bw_min_interval(&res, 1000);
	assert_true(res.has_bw_min_iv);
	assert_true(res.bw_min_iv_gbps == 2);
	/* Only the remainder: no minimum. */
	res.has_bw_min_iv = false;
	res.iv[0] = res.iv[3];
	res.niv = 1;
	rb_bw_min_interval(&res, 1000);
	assert_false(res.has_bw_min_iv);
	rb_result_free(&res);
	assert_null(res.iv);
	assert_int_equal(res.niv, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_parse),     cmocka_unit_test(test_rate_check_and_str),
		cmocka_unit_test(test_interval_parse), cmocka_unit_test(test_pace),
		cmocka_unit_test(test_rate_report),    cmocka_unit_test(test_bw_min_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
