// SPDX-License-Identifier: MIT
/*
 * expect.c: every metric and unit, the operators, errors with their
 * positions, the checks against a run, and verdicts on points (pass, fail,
 * n/a) with the JSON and the table's text.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report/expect.h"
#include "report/reco.h"

static char err[512];

static struct rb_expect parse_ok(const char *s)
{
	struct rb_expect e;

	if (rb_expect_parse(s, &e, err, sizeof(err)))
		fail_msg("'%s' refused: %s", s, err);
	return e;
}

static void parse_bad(const char *s, const char *want)
{
	struct rb_expect e;

	assert_int_equal(rb_expect_parse(s, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want))
		fail_msg("%.12g != %.12g", got, want);
}

/* ---- parsing -------------------------------------------------------------- */

static void test_parse_metrics(void **state)
{
	/* Each name --expect takes, and the metric table's row it means. */
	static const struct {
		const char *expr, *row;
	} names[] = {
		{ "bw_peak>1Gb/s", "bw_peak_gbps" }, { "bw_avg>1Gb/s", "bw_avg_gbps" },
		{ "rate>=10Mpps", "msg_rate_mpps" }, { "msg_rate>=10Mpps", "msg_rate_mpps" },
		{ "min<1us", "lat_min_us" },	     { "p50<=3us", "lat_p50_us" },
		{ "avg<=3us", "lat_avg_us" },	     { "p90<=3us", "lat_p90_us" },
		{ "p99<=10us", "lat_p99_us" },	     { "p999<=10us", "lat_p999_us" },
		{ "p99.9<=10us", "lat_p999_us" },    { "lat_p99<=10us", "lat_p99_us" },
		{ "max<100ms", "lat_max_us" },
	};
	struct rb_expect e;
	size_t i;

	(void)state;
	e = parse_ok("bw>=20Gbps");
	assert_int_equal(e.metric, RB_EXP_METRIC);
	assert_string_equal(e.row->name, "bw_avg_gbps");
	assert_int_equal(e.op, RB_EXP_GE);
	assert_near(e.value, 20);
	assert_false(e.of_link);
	assert_string_equal(e.text, "bw>=20Gbps");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(parse_ok(names[i].expr).row->name, names[i].row);
	e = parse_ok("retrans==0");
	assert_int_equal(e.metric, RB_EXP_RETRANS);
	assert_int_equal(e.op, RB_EXP_EQ);
	assert_false(e.per_mpkt);
	e = parse_ok("retrans<=10ppm");
	assert_true(e.per_mpkt);
	assert_near(e.value, 10);
	e = parse_ok("rcvd_seq_err==0");
	assert_int_equal(e.metric, RB_EXP_COUNTER);
	assert_string_equal(e.counter, "rcvd_seq_err");
	/* "lat_" only goes in front of a latency: else it is a counter. */
	e = parse_ok("lat_bw<1");
	assert_int_equal(e.metric, RB_EXP_COUNTER);
	assert_string_equal(e.counter, "lat_bw");
	/* Blanks between the parts. */
	e = parse_ok("  p99 <= 2.5 us ");
	assert_int_equal(e.op, RB_EXP_LE);
	assert_near(e.value, 2.5);
}

static void test_parse_units(void **state)
{
	static const struct {
		const char *s;
		double v;
	} t[] = {
		{ "bw>=20Gbps", 20 },
		{ "bw>=20Gb/s", 20 },
		{ "bw>=500Mbps", 0.5 },
		{ "bw>=500Mb/s", 0.5 },
		{ "bw>=2GB/s", 16 },
		{ "bw>=125MB/s", 1 },
		{ "bw>=1GiB/s", 8.589934592 },
		{ "bw>=1024MiB/s", 8.589934592 },
		{ "rate>=10Mpps", 10 },
		{ "rate>=500Kpps", 0.5 },
		{ "rate>=2000pps", 0.002 },
		{ "p50<=1500ns", 1.5 },
		{ "p50<=3us", 3 },
		{ "p50<=2ms", 2000 },
		{ "p50<=1s", 1e6 },
		{ "p50<=0.5us", 0.5 },
	};
	struct rb_expect e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		e = parse_ok(t[i].s);
		assert_near(e.value, t[i].v);
	}
	e = parse_ok("bw>=90%link");
	assert_true(e.of_link);
	assert_near(e.value, 0.9);
	e = parse_ok("bw>=100%link");
	assert_near(e.value, 1.0);
}

static void test_parse_errors(void **state)
{
	struct rb_expect e;
	char longer[RB_EXPECT_TEXT + 8];

	(void)state;
	parse_bad("bw>=9x0Gbps", "--expect 'bw>=9x0Gbps': at 6: unknown unit \"x0Gbps\" for bw "
				 "(Gbps, Gb/s, "
				 "Mbps, Mb/s, GB/s, MB/s, GiB/s, MiB/s, %link)");
	parse_bad("", "--expect '': at 1: a metric is expected (bw, rate, p50, p99, retrans, a "
		      "counter)");
	parse_bad(">=3", "--expect '>=3': at 1: a metric is expected (bw, rate, p50, p99, "
			 "retrans, a counter)");
	parse_bad("bw", "--expect 'bw': at 3: an operator is expected (>=, <=, >, <, ==)");
	parse_bad("bw=20Gbps", "--expect 'bw=20Gbps': at 3: an operator is expected (>=, <=, >, <, "
			       "==)");
	parse_bad("bw!=20Gbps", "--expect 'bw!=20Gbps': at 3: an operator is expected (>=, <=, >, "
				"<, ==)");
	parse_bad("bw>=Gbps", "--expect 'bw>=Gbps': at 5: a number is expected");
	parse_bad("bw>=-1Gbps", "--expect 'bw>=-1Gbps': at 5: a number is expected");
	parse_bad("bw>=1e3Gbps", "--expect 'bw>=1e3Gbps': at 6: unknown unit \"e3Gbps\" for bw "
				 "(Gbps, Gb/s, Mbps, Mb/s, GB/s, MB/s, GiB/s, MiB/s, %link)");
	parse_bad("p99<=1.us", "--expect 'p99<=1.us': at 8: a digit is expected after '.'");
	parse_bad("bw>=20", "--expect 'bw>=20': at 7: bw needs a unit (Gbps, Gb/s, Mbps, Mb/s, "
			    "GB/s, MB/s, GiB/s, MiB/s, %link)");
	parse_bad("p99<=10", "--expect 'p99<=10': at 8: p99 needs a unit (ns, us, ms, s)");
	parse_bad("rate>=10Gbps", "--expect 'rate>=10Gbps': at 9: unknown unit \"Gbps\" for rate "
				  "(Mpps, Kpps, pps)");
	parse_bad("p99<=10gbps", "--expect 'p99<=10gbps': at 8: unknown unit \"gbps\" for p99 "
				 "(ns, us, ms, s)");
	parse_bad("retrans==0us", "--expect 'retrans==0us': at 11: unknown unit \"us\" for retrans "
				  "(ppm)");
	parse_bad("bww>=1Gbps", "--expect 'bww>=1Gbps': at 7: \"bww\" is no metric (min, p50, "
				"avg, p90, p99, p999, max, bw, bw_peak, rate, wakeups, loaded_p50, "
				"loaded_p99, idle_p50, idle_p99, wr_p50, wr_p99, hit_pct, "
				"acq_rate, jain, "
				"retrans), and a "
				"counter takes no "
				"unit");
	parse_bad("bw>=101%link", "--expect 'bw>=101%link': at 5: a link carries at most 100% of "
				  "its rate");
	parse_bad("p99<=10us us", "--expect 'p99<=10us us': at 11: unexpected 'u' after the "
				  "expression");
	parse_bad("p99<=1 0us", "--expect 'p99<=1 0us': at 8: unknown unit \"0us\" for p99 (ns, "
				"us, ms, s)");
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(rb_expect_parse(longer, &e, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--expect: longer than 127 characters");
	memset(longer, 'a', RB_CTR_NAME_MAX);
	snprintf(longer + RB_CTR_NAME_MAX, sizeof(longer) - RB_CTR_NAME_MAX, "==0");
	assert_int_equal(rb_expect_parse(longer, &e, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at 1: no metric, and too long for a counter name"));
	assert_int_equal(rb_expect_parse(NULL, &e, err, sizeof(err)), -EINVAL);
}

/* ---- checks against the run ------------------------------------------------ */

static struct rb_counter_set avail;

static void add_counter(struct rb_counter_set *s, const char *name, uint64_t v)
{
	struct rb_counter *c = &s->c[s->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->value = v;
	c->kind = (uint8_t)rb_counters_kind(name);
	c->scale = 1;
}

static void rxe_set(struct rb_counter_set *s)
{
	memset(s, 0, offsetof(struct rb_counter_set, c));
	s->driver = RB_PROV_RXE;
	snprintf(s->device, sizeof(s->device), "rxe0");
	s->port = 1;
	add_counter(s, "sent_pkts", 1000);
	add_counter(s, "completer_retry_err", 2);
	add_counter(s, "rcvd_seq_err", 0);
}

static int check(const char *s, const struct rb_expect_env *env)
{
	struct rb_expect e = parse_ok(s);

	return rb_expect_check(&e, env, err, sizeof(err));
}

static void test_check(void **state)
{
	struct rb_expect_env lat = { "send_lat", RB_MODE_LAT, 100, &avail };
	struct rb_expect_env bw = { "write_bw", RB_MODE_BW, 0, NULL };

	(void)state;
	rxe_set(&avail);
	assert_int_equal(check("p99<=10us", &lat), 0);
	assert_int_equal(check("retrans==0", &lat), 0);
	assert_int_equal(check("rcvd_seq_err==0", &lat), 0);
	assert_int_equal(check("bw>=1Gbps", &lat), -EINVAL);
	assert_string_equal(err, "--expect 'bw>=1Gbps': bw is a bandwidth figure, which send_lat "
				 "does not measure");
	assert_int_equal(check("rate>=1Mpps", &lat), -EINVAL);
	assert_int_equal(check("nosuch==0", &lat), -EINVAL);
	assert_string_equal(err, "--expect 'nosuch==0': rxe0 port 1 has no counter \"nosuch\"");

	assert_int_equal(check("bw>=1Gbps", &bw), 0);
	assert_int_equal(check("rate>=1Mpps", &bw), 0);
	assert_int_equal(check("p50<=3us", &bw), -EINVAL);
	assert_string_equal(err, "--expect 'p50<=3us': p50 is a latency, which write_bw does not "
				 "measure");
	assert_int_equal(check("bw>=90%link", &bw), -EINVAL);
	assert_string_equal(err, "--expect 'bw>=90%link': %link needs the port's rate, which "
				 "sysfs does not give");
	assert_int_equal(check("retrans==0", &bw), -EINVAL);
	assert_string_equal(err, "--expect 'retrans==0': retrans needs device counters, and "
				 "--counters is none");
	assert_int_equal(check("rcvd_seq_err==0", &bw), -EINVAL);
	assert_string_equal(err, "--expect 'rcvd_seq_err==0': counter rcvd_seq_err needs device "
				 "counters, and --counters is none");
	bw.link_gbps = 100;
	assert_int_equal(check("bw>=90%link", &bw), 0);

	/* A driver without retransmission counters rdmabench knows. */
	avail.driver = RB_PROV_GENERIC;
	bw.avail = &avail;
	assert_int_equal(check("retrans==0", &bw), -EINVAL);
	assert_string_equal(err, "--expect 'retrans==0': rxe0 has no retransmission counter "
				 "rdmabench knows (generic driver)");
}

/* ---- verdicts ----------------------------------------------------------------- */

static const struct rb_result bw_point = {
	.pt = { .size = 65536, .batch = 1, .signal = 1, .qps = 1, .tx_depth = 128 },
	.iters = 1000,
	.has_bw = true,
	.bw_avg_gbps = 92.5,
	.bw_peak_gbps = 97.0,
	.msg_rate_mpps = 0.1764,
};

static const struct rb_result lat_point = {
	.pt = { .size = 2, .batch = 1, .signal = 1, .qps = 1, .tx_depth = 128 },
	.iters = 1000,
	.has_lat = true,
	.lat = { 0.95, 1.05, 1.09, 1.17, 1.5, 2.95, 9.25, 0.08 },
};

static enum rb_verdict eval(const char *s, const struct rb_expect_ctx *ctx)
{
	struct rb_expect e = parse_ok(s);

	return rb_expect_eval(&e, ctx, NULL, NULL);
}

static void test_eval_bw(void **state)
{
	struct rb_expect_ctx x = { .res = &bw_point, .link_gbps = 100 };
	struct rb_expect e;
	double m, l;

	(void)state;
	assert_int_equal(eval("bw>=90%link", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw>=93%link", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("bw>=92.5Gbps", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw>92.5Gbps", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("bw<92.5Gbps", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("bw<=92.5Gbps", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw==92.5Gbps", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw_peak>=96Gbps", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw>=11GB/s", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw>=12GB/s", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("rate>=170Kpps", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("rate>=10Mpps", &x), RB_VERDICT_FAIL);
	/* Nothing to judge: no latency here, no rate of the link. */
	assert_int_equal(eval("p99<=10us", &x), RB_VERDICT_NA);
	x.link_gbps = 0;
	e = parse_ok("bw>=90%link");
	assert_int_equal(rb_expect_eval(&e, &x, &m, &l), RB_VERDICT_NA);
	assert_near(m, 92.5);
	assert_true(isnan(l));
	x.link_gbps = 100;
	assert_int_equal(rb_expect_eval(&e, &x, &m, &l), RB_VERDICT_PASS);
	assert_near(l, 90);
	assert_string_equal(rb_expect_unit(&e), "Gb/s");
}

static void test_eval_lat(void **state)
{
	struct rb_expect_ctx x = { .res = &lat_point };
	struct rb_result nan_point = lat_point, empty = { .iters = 0 };

	(void)state;
	assert_int_equal(eval("p50<=3us", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("p50<=1us", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("p50<=1050ns", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("p99<=1.4us", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("p999<3us", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("min>=0.95us", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("avg<1.1us", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("p90<1.1us", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("max<=10us", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("bw>=1Gbps", &x), RB_VERDICT_NA);
	/* A point without samples, and a figure that is not a number. */
	x.res = &empty;
	assert_int_equal(eval("p50<=3us", &x), RB_VERDICT_NA);
	nan_point.lat.p99 = NAN;
	x.res = &nan_point;
	assert_int_equal(eval("p99<=3us", &x), RB_VERDICT_NA);
	x.res = NULL;
	assert_int_equal(eval("p99<=3us", &x), RB_VERDICT_NA);
}

static void test_eval_counters(void **state)
{
	struct rb_counter_derived d;
	struct rb_expect_ctx x = { .res = &bw_point };

	(void)state;
	/* Counters off: n/a. */
	assert_int_equal(eval("retrans==0", &x), RB_VERDICT_NA);
	assert_int_equal(eval("rcvd_seq_err==0", &x), RB_VERDICT_NA);
	rxe_set(&avail);
	rb_counters_derive(&avail, 0, false, &d);
	x.delta = &avail;
	x.der = &d;
	assert_int_equal(eval("retrans==0", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("retrans<=2", &x), RB_VERDICT_PASS);
	/* 2 in 1000 packets: 2000 per million. */
	assert_int_equal(eval("retrans<=2000ppm", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("retrans<1999.5ppm", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("rcvd_seq_err==0", &x), RB_VERDICT_PASS);
	assert_int_equal(eval("completer_retry_err<1", &x), RB_VERDICT_FAIL);
	assert_int_equal(eval("nosuch==0", &x), RB_VERDICT_NA);
}

static void test_point(void **state)
{
	struct rb_expect e[4];
	struct rb_expect_ctx x = { .res = &bw_point, .link_gbps = 100 };
	char failed[64];
	json_t *j, *o;

	(void)state;
	e[0] = parse_ok("bw>=90%link");
	e[1] = parse_ok("rate>=10Mpps");
	e[2] = parse_ok("retrans==0");
	e[3] = parse_ok("bw>=100Gbps");
	assert_int_equal(rb_expect_point(e, 4, &x, &j, failed, sizeof(failed)), 2);
	assert_string_equal(failed, "rate>=10Mpps,bw>=100Gbps");
	assert_int_equal(json_array_size(j), 4);
	o = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(o, "expr")), "bw>=90%link");
	assert_string_equal(json_string_value(json_object_get(o, "result")), "pass");
	assert_near(json_real_value(json_object_get(o, "value")), 92.5);
	assert_near(json_real_value(json_object_get(o, "limit")), 90);
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "Gb/s");
	o = json_array_get(j, 1);
	assert_string_equal(json_string_value(json_object_get(o, "result")), "fail");
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "Mpps");
	o = json_array_get(j, 2);
	assert_string_equal(json_string_value(json_object_get(o, "result")), "n/a");
	assert_true(json_is_null(json_object_get(o, "value")));
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "events");
	json_decref(j);

	/* No JSON wanted; a short buffer cuts the list. */
	assert_int_equal(rb_expect_point(e, 4, &x, NULL, failed, 16), 2);
	assert_string_equal(failed, "rate>=10Mpps...");
	assert_int_equal(rb_expect_point(e, 4, &x, NULL, failed, 8), 2);
	assert_string_equal(failed, "rate...");
	assert_int_equal(rb_expect_point(e, 4, &x, NULL, NULL, 0), 2);
	/* None failed. */
	assert_int_equal(rb_expect_point(e, 1, &x, &j, failed, sizeof(failed)), 0);
	assert_string_equal(failed, "");
	json_decref(j);
	assert_string_equal(rb_verdict_name(RB_VERDICT_NA), "n/a");
	assert_int_equal(RB_EXIT_EXPECT, 3);
}

/* ---- --recommend BOUND ------------------------------------------------ */

static struct rb_result reco_point(uint64_t size, uint8_t poll, uint32_t cqe, double p99,
				   double cpu_ns)
{
	struct rb_result r;

	memset(&r, 0, sizeof(r));
	r.pt.size = size;
	r.pt.poll = poll;
	r.pt.cqe_poll = cqe;
	r.pt.batch = r.pt.signal = 1;
	r.has_lat = true;
	r.lat.p99 = p99;
	r.has_cpu = cpu_ns > 0;
	r.cpu_ns_per_msg = cpu_ns;
	return r;
}

/*
 * Per size, the point cheapest in CPU among those within the bound: at
 * 64 B event is within and cheaper; at 4 KiB only busy is within; at 1 MiB
 * none is; a point without a CPU figure is not counted.
 */
static void test_recommend_bound(void **state)
{
	struct rb_result res[] = {
		reco_point(64, RB_POLL_BUSY, 32, 8.0, 900),
		reco_point(4096, RB_POLL_BUSY, 32, 12.0, 1000),
		reco_point(1 << 20, RB_POLL_BUSY, 32, 300.0, 5000),
		reco_point(64, RB_POLL_EVENT, 32, 15.0, 400),
		reco_point(4096, RB_POLL_EVENT, 32, 35.0, 300),
		reco_point(1 << 20, RB_POLL_EVENT, 32, 400.0, 1000),
		reco_point(64, RB_POLL_EVENT, 1, 19.0, 0),
	};
	struct rb_reco_bound o[4];
	struct rb_expect e;
	char msg[256];

	(void)state;
	assert_int_equal(rb_expect_parse("p99<=20us", &e, msg, sizeof(msg)), 0);
	assert_int_equal(rb_reco_bound_check(&e, "send_lat", RB_MODE_LAT, msg, sizeof(msg)), 0);
	assert_int_equal(rb_recommend_bound(res, 7, &e, NULL, o, 4), 3);
	assert_int_equal(o[0].size, 64);
	assert_true(o[0].found);
	assert_int_equal(o[0].pt.poll, RB_POLL_EVENT);
	assert_int_equal(o[0].pt.cqe_poll, 32);
	assert_true(o[0].cpu_ns_per_msg == 400 && o[0].value == 15.0);
	assert_int_equal(o[0].points, 2);
	assert_int_equal(o[0].within, 2);
	assert_int_equal(o[1].size, 4096);
	assert_true(o[1].found);
	assert_int_equal(o[1].pt.poll, RB_POLL_BUSY);
	assert_int_equal(o[1].within, 1);
	assert_int_equal(o[2].size, 1 << 20);
	assert_false(o[2].found);
	assert_int_equal(o[2].points, 2);
	assert_int_equal(o[2].within, 0);
	/* At most @max sizes. */
	assert_int_equal(rb_recommend_bound(res, 7, &e, NULL, o, 1), 1);

	/* A bound the test does not measure, or no figure of a point. */
	assert_int_equal(rb_reco_bound_check(&e, "write_bw", RB_MODE_BW, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "a latency, which write_bw does not measure"));
	assert_int_equal(rb_expect_parse("retrans==0", &e, msg, sizeof(msg)), 0);
	assert_int_equal(rb_reco_bound_check(&e, "write_bw", RB_MODE_BW, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "not a counter"));
}

/*
 * Issue 37 item 9: the chosen point's line and JSON member name every axis
 * the run swept (-q and -t too), so that the printed options with the rest
 * of the command line measure that point; JSON keeps every axis.
 */
static void test_recommend_bound_report(void **state)
{
	struct rb_result res[] = {
		reco_point(4096, RB_POLL_BUSY, 32, 8.0, 900),
		reco_point(4096, RB_POLL_EVENT, 32, 9.0, 700),
		reco_point(4096, RB_POLL_EVENT, 32, 9.5, 500),
		reco_point(4096, RB_POLL_EVENT, 32, 30.0, 100),
	};
	struct rb_params p;
	struct rb_reco_bound o;
	struct rb_expect e;
	char msg[256], *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.size.n = 1;
	p.poll.n = 2;
	p.cqe_poll.n = p.batch.n = p.signal.n = 1;
	p.qps.n = 2;
	p.tx_depth.n = 2;
	res[0].pt.qps = res[1].pt.qps = 1;
	res[2].pt.qps = res[3].pt.qps = 2;
	res[0].pt.tx_depth = res[1].pt.tx_depth = res[3].pt.tx_depth = 128;
	res[2].pt.tx_depth = 64;
	assert_int_equal(rb_expect_parse("p99<=20us", &e, msg, sizeof(msg)), 0);
	assert_int_equal(rb_recommend_bound(res, 4, &e, &p, &o, 1), 1);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	j = rb_reco_bound_report(f, &o, &p, e.text, rb_expect_unit(&e));
	fclose(f);
	assert_string_equal(text, "# size 4K: --poll event -q 2 -t 64 -> 500 ns/msg of CPU, 9.5 us "
				  "(3 of 4 points within)\n");
	assert_int_equal(json_integer_value(json_object_get(j, "qps")), 2);
	assert_int_equal(json_integer_value(json_object_get(j, "tx_depth")), 64);
	assert_int_equal(json_integer_value(json_object_get(j, "batch")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "poll")), "event");
	assert_string_equal(json_string_value(json_object_get(j, "args")), "--poll event -q 2 -t "
									   "64");
	json_decref(j);
	free(text);
	/* --recommend without a bound: batch and signal, then the other swept axes. */
	{
		struct rb_reco r[1];

		for (size_t i = 0; i < 4; i++) {
			res[i].has_bw = true;
			res[i].pt.batch = i < 2 ? 1 : 4;
			res[i].pt.signal = 16;
			res[i].msg_rate_mpps = i == 2 ? 2.0 : 1.0;
		}
		p.poll.n = 1;
		p.batch.n = 2;
		assert_int_equal(rb_recommend(res, 4, r, 1), 1);
		text = NULL;
		f = open_memstream(&text, &len);
		assert_non_null(f);
		j = rb_reco_report(f, &r[0], &p);
		fclose(f);
		assert_string_equal(text, "# size 4K: batch 4 signal 16 at -q 2 -t 64 -> 2 Mpps "
					  "(best "
					  "2 Mpps at batch 4 signal 16)\n");
		assert_int_equal(json_integer_value(json_object_get(j, "qps")), 2);
		assert_int_equal(json_integer_value(json_object_get(j, "tx_depth")), 64);
		assert_string_equal(json_string_value(json_object_get(j, "args")), "-l 4 -q 2 -t "
										   "64");
		json_decref(j);
		free(text);
	}
	/* Without a plan, every axis. */
	assert_string_equal(rb_reco_args(&o.pt, NULL, msg, sizeof(msg)), "-s 4K --poll event "
									 "--cqe-poll 32 -l 1 -Q 1 "
									 "-q 2 -t 64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_metrics),
		cmocka_unit_test(test_parse_units),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_eval_bw),
		cmocka_unit_test(test_eval_lat),
		cmocka_unit_test(test_eval_counters),
		cmocka_unit_test(test_point),
		cmocka_unit_test(test_recommend_bound),
		cmocka_unit_test(test_recommend_bound_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
