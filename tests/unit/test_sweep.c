// SPDX-License-Identifier: MIT
/*
 * Unit tests for sweep axes and plans (src/sweep.c): the axis grammar, its
 * error messages, the plan's size and order, and size formatting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/sweep.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * 1024 * 1024)

/* Parse @s (suffixes allowed) and compare with the @n values of @want. */
static void check_axis(const char *s, const uint64_t *want, uint32_t n)
{
	struct rb_axis a;
	char err[256] = "";
	uint32_t i;
	int ret;

	memset(&a, 0xa5, sizeof(a));
	ret = rb_axis_parse(s, true, &a, err, sizeof(err));
	if (ret) {
		print_error("'%s': %d (%s)\n", s, ret, err);
		fail();
	}
	if (a.n != n) {
		print_error("'%s': %u values, want %u\n", s, a.n, n);
		fail();
	}
	for (i = 0; i < n; i++) {
		if (a.v[i] != want[i]) {
			print_error("'%s'[%u] = %llu, want %llu\n", s, i,
				    (unsigned long long)a.v[i], (unsigned long long)want[i]);
			fail();
		}
	}
}

#define CHECK_AXIS(s, ...)                                       \
	do {                                                     \
		static const uint64_t w_[] = { __VA_ARGS__ };    \
		check_axis((s), w_, sizeof(w_) / sizeof(w_[0])); \
	} while (0)

/*
 * @s must be refused with @want and a non-empty message; when @needle is
 * set, the message must contain it.
 */
static void check_bad(const char *s, bool suffix, int want, const char *needle)
{
	struct rb_axis a;
	char err[256];
	int ret;

	memset(err, 0, sizeof(err));
	ret = rb_axis_parse(s, suffix, &a, err, sizeof(err));
	if (ret != want) {
		print_error("'%s': returned %d, want %d (err '%s')\n", s, ret, want, err);
		fail();
	}
	if (!err[0]) {
		print_error("'%s': empty error message\n", s);
		fail();
	}
	if (needle && !strstr(err, needle)) {
		print_error("'%s': error '%s' does not name '%s'\n", s, err, needle);
		fail();
	}
}

/* ---- grammar ----------------------------------------------------------- */

static void test_single(void **state)
{
	(void)state;
	CHECK_AXIS("64", 64);
	CHECK_AXIS("0", 0);
	CHECK_AXIS("1", 1);
	CHECK_AXIS("18446744073709551615", UINT64_MAX);
}

static void test_list(void **state)
{
	(void)state;
	CHECK_AXIS("64,4096,1M", 64, 4096, 1048576);
	/* Order and duplicates are kept as written. */
	CHECK_AXIS("4096,64,64", 4096, 64, 64);
}

static void test_suffixes(void **state)
{
	(void)state;
	CHECK_AXIS("4K", 4096);
	CHECK_AXIS("1M", 1048576);
	CHECK_AXIS("1G", 1073741824);
	CHECK_AXIS("3G", 3 * GiB);
	CHECK_AXIS("1536K", 1536 * KiB);
	CHECK_AXIS("0K", 0);
	/* The largest that fits, and one more does not (below). */
	CHECK_AXIS("17179869183G", 17179869183ULL * GiB);
}

static void test_range_doubling(void **state)
{
	struct rb_axis a;
	char err[256] = "";
	uint32_t i;

	(void)state;
	/* 2^1 .. 2^23: twenty-three values, both ends included. */
	assert_int_equal(rb_axis_parse("2..8M:x2", true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 23);
	for (i = 0; i < a.n; i++)
		assert_int_equal(a.v[i], 2ULL << i);
	assert_int_equal(a.v[0], 2);
	assert_int_equal(a.v[22], 8388608);

	CHECK_AXIS("1..8:x2", 1, 2, 4, 8);
	/* The end need not be on the progression. */
	CHECK_AXIS("3..20:x2", 3, 6, 12);
	CHECK_AXIS("1..100:x10", 1, 10, 100);
	CHECK_AXIS("4K..1M:x4", 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB);
	CHECK_AXIS("5..5:x2", 5);
	/* Up to the top of u64 without wrapping or looping forever. */
	assert_int_equal(rb_axis_parse("1..18446744073709551615:x2", true, &a, err, sizeof(err)),
			 0);
	assert_int_equal(a.n, 64);
	assert_int_equal(a.v[63], 1ULL << 63);
}

static void test_range_adding(void **state)
{
	(void)state;
	CHECK_AXIS("1..64:+8", 1, 9, 17, 25, 33, 41, 49, 57);
	CHECK_AXIS("1..10:+4", 1, 5, 9);
	CHECK_AXIS("0..3:+1", 0, 1, 2, 3);
	CHECK_AXIS("1K..4K:+1K", 1024, 2048, 3072, 4096);
	CHECK_AXIS("7..7:+100", 7);
	CHECK_AXIS("18446744073709551614..18446744073709551615:+1", UINT64_MAX - 1, UINT64_MAX);
	CHECK_AXIS("18446744073709551610..18446744073709551615:+4", UINT64_MAX - 5, UINT64_MAX - 1);
}

static void test_mixed(void **state)
{
	(void)state;
	CHECK_AXIS("1,4..16:x2,100", 1, 4, 8, 16, 100);
	CHECK_AXIS("1..3:+1,2..8:x2", 1, 2, 3, 2, 4, 8);
	CHECK_AXIS("64,1K..4K:x2,1M,2..4:+2", 64, 1024, 2048, 4096, 1048576, 2, 4);
}

static void test_max_values(void **state)
{
	struct rb_axis a;
	char err[256] = "";
	char list[1024];
	size_t off = 0;
	int i;

	(void)state;
	assert_int_equal(rb_axis_parse("1..64:+1", true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, RB_MAX_AXIS);
	assert_int_equal(a.v[63], 64);

	/* One more than RB_MAX_AXIS, from a range, a list, or both. */
	check_bad("1..65:+1", true, -ERANGE, "64");
	check_bad("0..64:+1", true, -ERANGE, "64");
	check_bad("100,1..64:+1", true, -ERANGE, "64");
	for (i = 0; i < RB_MAX_AXIS; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%d,", i);
	snprintf(list + off - 1, sizeof(list) - off + 1, "%s", "");
	assert_int_equal(rb_axis_parse(list, true, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, RB_MAX_AXIS);
	snprintf(list + off - 1, sizeof(list) - off + 1, ",%d", 64);
	check_bad(list, true, -ERANGE, "64");
}

static void test_parse_u64(void **state)
{
	const char *s = "4K,5", *end = NULL;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(rb_parse_u64(s, true, &v, &end), 0);
	assert_int_equal(v, 4096);
	assert_ptr_equal(end, s + 2);
	assert_int_equal(rb_parse_u64(s, false, &v, &end), 0);
	assert_int_equal(v, 4);
	assert_ptr_equal(end, s + 1);
	assert_int_equal(rb_parse_u64("x", true, &v, &end), -EINVAL);
	assert_int_equal(rb_parse_u64("", true, &v, &end), -EINVAL);
	assert_int_equal(rb_parse_u64("-1", true, &v, &end), -EINVAL);
	assert_int_equal(rb_parse_u64(" 1", true, &v, &end), -EINVAL);
	assert_int_equal(rb_parse_u64("18446744073709551615", true, &v, &end), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(rb_parse_u64("18446744073709551616", true, &v, &end), -ERANGE);
	assert_int_equal(rb_parse_u64("99999999999999999999", true, &v, &end), -ERANGE);
	assert_int_equal(rb_parse_u64("17179869184G", true, &v, &end), -ERANGE);
	assert_int_equal(rb_parse_u64("16777216T", true, &v, &end), 0);
	assert_int_equal(v, 16777216);
	assert_int_equal(*end, 'T');
	/* 4KiB and 4KB are 4K: sizes are powers of 1024. */
	assert_int_equal(rb_parse_u64("4KiB,", true, &v, &end), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(*end, ',');
	assert_int_equal(rb_parse_u64("2MB", true, &v, &end), 0);
	assert_int_equal(v, 2 << 20);
	assert_int_equal(*end, '\0');
	assert_int_equal(rb_parse_u64("4B", true, &v, &end), 0); /* no prefix: B left over */
	assert_int_equal(*end, 'B');
}

static void test_parse_secs(void **state)
{
	const char *end = NULL;
	uint64_t v = 0;

	(void)state;
	assert_int_equal(rb_parse_secs("90", &v, &end), 0);
	assert_int_equal(v, 90);
	assert_int_equal(rb_parse_secs("90s", &v, &end), 0);
	assert_int_equal(v, 90);
	assert_int_equal(*end, '\0');
	assert_int_equal(rb_parse_secs("2m", &v, &end), 0);
	assert_int_equal(v, 120);
	assert_int_equal(rb_parse_secs("1h", &v, &end), 0);
	assert_int_equal(v, 3600);
	assert_int_equal(rb_parse_secs("2ms", &v, &end), 0); /* "s" left: the caller refuses */
	assert_int_equal(*end, 's');
	assert_int_equal(rb_parse_secs("1.5", &v, &end), 0);
	assert_int_equal(*end, '.');
	assert_int_equal(rb_parse_secs("m", &v, &end), -EINVAL);
	assert_int_equal(rb_parse_secs("5124095576030432h", &v, &end), -ERANGE);
}

/* ---- errors ------------------------------------------------------------ */

static void test_errors(void **state)
{
	(void)state;
	check_bad("", true, -EINVAL, NULL);
	check_bad("abc", true, -EINVAL, "abc");
	check_bad("1..", true, -EINVAL, NULL);
	check_bad("1..8", true, -EINVAL, NULL);
	check_bad("1..8:x1", true, -EINVAL, "1..8");
	check_bad("1..8:x0", true, -EINVAL, "1..8");
	check_bad("1..8:+0", true, -EINVAL, "1..8");
	check_bad("8..1:x2", true, -EINVAL, "8..1");
	check_bad("8..1:+1", true, -EINVAL, "8..1");
	check_bad("0..8:x2", true, -EINVAL, "0..8");
	check_bad("1..8:*2", true, -EINVAL, NULL);
	check_bad("1..8:x", true, -EINVAL, NULL);
	check_bad("1..8:", true, -EINVAL, NULL);
	check_bad("1...8:x2", true, -EINVAL, NULL);
	check_bad("5,", true, -EINVAL, NULL);
	check_bad(",5", true, -EINVAL, NULL);
	check_bad("5,,6", true, -EINVAL, NULL);
	check_bad("1K5", true, -EINVAL, "5");
	check_bad("4Kb", true, -EINVAL, "b"); /* bits are not a size */
	check_bad("4KiBB", true, -EINVAL, "B");
	check_bad("64 ", true, -EINVAL, NULL);
	check_bad("-1", true, -EINVAL, "-1");
	check_bad("1..8:x2junk", true, -EINVAL, "junk");
	check_bad("99999999999999999999", true, -ERANGE, "99999999999999999999");
	check_bad("18446744073709551616", true, -ERANGE, "18446744073709551616");
	check_bad("17179869184G", true, -ERANGE, "17179869184G");
	check_bad("64,99999999999999999999", true, -ERANGE, "99999999999999999999");
}

/*
 * Range syntax errors name the item, as rb_axis_parse() promises, so a
 * user can find it in a long list.
 */
static void test_errors_name_range_item(void **state)
{
	(void)state;
	check_bad("64,7..,4K", true, -EINVAL, "7..");
	check_bad("64,7..9,4K", true, -EINVAL, "7..9");
	check_bad("64,7..9:*2,4K", true, -EINVAL, "7..9:*2");
	check_bad("64,7..9:x,4K", true, -EINVAL, "7..9:x");
}

static void test_no_suffix(void **state)
{
	struct rb_axis a;
	char err[256] = "";

	(void)state;
	check_bad("4K", false, -EINVAL, "K");
	check_bad("1M", false, -EINVAL, "M");
	check_bad("1..8K:x2", false, -EINVAL, NULL);
	check_bad("1..8:+1K", false, -EINVAL, NULL);
	assert_int_equal(rb_axis_parse("4096,1..8:x2", false, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.v[0], 4096);
	assert_int_equal(a.v[4], 8);
}

static void test_axis_helpers(void **state)
{
	struct rb_axis a;
	char err[256] = "";

	(void)state;
	memset(&a, 0xa5, sizeof(a));
	rb_axis_set1(&a, 12345);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.v[0], 12345);
	assert_int_equal(rb_axis_max(&a), 12345);
	assert_int_equal(rb_axis_parse("64,1M,4096,1K", true, &a, err, sizeof(err)), 0);
	assert_int_equal(rb_axis_max(&a), MiB);
	a.n = 0;
	assert_int_equal(rb_axis_max(&a), 0);
}

/* ---- plans ------------------------------------------------------------- */

static void set_axis(struct rb_axis *a, const uint64_t *v, uint32_t n)
{
	a->n = n;
	memcpy(a->v, v, n * sizeof(*v));
}

static void test_plan_count(void **state)
{
	static const uint64_t sizes[] = { 64, 4096, 1048576 }, batches[] = { 1, 8 },
			      signals[] = { 1, 16 }, one[] = { 1 };
	struct rb_params p;
	struct rb_axis *ax[7];
	int i;

	(void)state;
	memset(&p, 0, sizeof(p));
	set_axis(&p.size, sizes, 3);
	set_axis(&p.batch, batches, 2);
	set_axis(&p.signal, signals, 2);
	set_axis(&p.qps, one, 1);
	set_axis(&p.tx_depth, one, 1);
	set_axis(&p.poll, (const uint64_t[]){ RB_POLL_BUSY }, 1);
	set_axis(&p.cqe_poll, one, 1);
	assert_int_equal(rb_plan_count(&p), 12);

	/* Any empty axis empties the plan. */
	ax[0] = &p.size;
	ax[1] = &p.batch;
	ax[2] = &p.signal;
	ax[3] = &p.qps;
	ax[4] = &p.tx_depth;
	ax[5] = &p.poll;
	ax[6] = &p.cqe_poll;
	for (i = 0; i < 7; i++) {
		uint32_t n = ax[i]->n;

		ax[i]->n = 0;
		assert_int_equal(rb_plan_count(&p), 0);
		ax[i]->n = n;
	}
	assert_int_equal(rb_plan_count(&p), 12);

	/* Full axes: 64^5 points, far above RB_MAX_POINTS, counted exactly;
	 * 64^7 with the wait axes, still exactly (64 bits hold it). */
	for (i = 0; i < 5; i++)
		ax[i]->n = RB_MAX_AXIS;
	assert_int_equal(rb_plan_count(&p), 1073741824ULL);
	assert_true(rb_plan_count(&p) > RB_MAX_POINTS);
	ax[5]->n = ax[6]->n = RB_MAX_AXIS;
	assert_int_equal(rb_plan_count(&p), 1ULL << 42);
}

static void test_plan_order(void **state)
{
	static const uint64_t sizes[] = { 64, 4096, 1048576 }, batches[] = { 1, 8 },
			      signals[] = { 1, 16 }, qps[] = { 2 }, txd[] = { 128 };
	/* size fastest, then signal, then batch. */
	static const struct rb_point want[12] = {
		{ .size = 64, .signal = 1, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 4096, .signal = 1, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 1048576, .signal = 1, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 64, .signal = 16, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 4096, .signal = 16, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 1048576, .signal = 16, .batch = 1, .qps = 2, .tx_depth = 128 },
		{ .size = 64, .signal = 1, .batch = 8, .qps = 2, .tx_depth = 128 },
		{ .size = 4096, .signal = 1, .batch = 8, .qps = 2, .tx_depth = 128 },
		{ .size = 1048576, .signal = 1, .batch = 8, .qps = 2, .tx_depth = 128 },
		{ .size = 64, .signal = 16, .batch = 8, .qps = 2, .tx_depth = 128 },
		{ .size = 4096, .signal = 16, .batch = 8, .qps = 2, .tx_depth = 128 },
		{ .size = 1048576, .signal = 16, .batch = 8, .qps = 2, .tx_depth = 128 },
	};
	struct rb_params p;
	struct rb_point pt;
	size_t i;

	(void)state;
	memset(&p, 0, sizeof(p));
	set_axis(&p.size, sizes, 3);
	set_axis(&p.batch, batches, 2);
	set_axis(&p.signal, signals, 2);
	set_axis(&p.qps, qps, 1);
	set_axis(&p.tx_depth, txd, 1);
	set_axis(&p.poll, (const uint64_t[]){ RB_POLL_EVENT }, 1);
	set_axis(&p.cqe_poll, (const uint64_t[]){ 16 }, 1);
	assert_int_equal(rb_plan_count(&p), 12);
	for (i = 0; i < 12; i++) {
		memset(&pt, 0xa5, sizeof(pt));
		rb_plan_point(&p, i, &pt);
		if (pt.size != want[i].size || pt.signal != want[i].signal ||
		    pt.batch != want[i].batch || pt.qps != want[i].qps ||
		    pt.tx_depth != want[i].tx_depth || pt.poll != RB_POLL_EVENT ||
		    pt.cqe_poll != 16) {
			print_error("point %zu: size %llu signal %u batch %u qps %u tx_depth %u\n",
				    i, (unsigned long long)pt.size, pt.signal, pt.batch, pt.qps,
				    pt.tx_depth);
			fail();
		}
	}
}

static void test_plan_order_all_axes(void **state)
{
	static const uint64_t sizes[] = { 10, 11 }, signals[] = { 20, 21 }, batches[] = { 30, 31 },
			      txd[] = { 40, 41 }, qps[] = { 50, 51 }, polls[] = { 0, 1 },
			      cqes[] = { 60, 61 };
	struct rb_params p;
	struct rb_point pt;
	size_t i;

	(void)state;
	memset(&p, 0, sizeof(p));
	set_axis(&p.size, sizes, 2);
	set_axis(&p.signal, signals, 2);
	set_axis(&p.batch, batches, 2);
	set_axis(&p.tx_depth, txd, 2);
	set_axis(&p.qps, qps, 2);
	set_axis(&p.poll, polls, 2);
	set_axis(&p.cqe_poll, cqes, 2);
	assert_int_equal(rb_plan_count(&p), 128);
	/* Point i, in binary, is qps tx_depth batch signal cqe_poll poll size:
	 * size is bit 0, each size swept busy then event. */
	for (i = 0; i < 128; i++) {
		rb_plan_point(&p, i, &pt);
		assert_int_equal(pt.size, 10 + (i & 1));
		assert_int_equal(pt.poll, i >> 1 & 1);
		assert_int_equal(pt.cqe_poll, 60 + (i >> 2 & 1));
		assert_int_equal(pt.signal, 20 + (i >> 3 & 1));
		assert_int_equal(pt.batch, 30 + (i >> 4 & 1));
		assert_int_equal(pt.tx_depth, 40 + (i >> 5 & 1));
		assert_int_equal(pt.qps, 50 + (i >> 6 & 1));
	}
	/* The plan starts and ends where it should. */
	rb_plan_point(&p, 127, &pt);
	assert_int_equal(pt.size, 11);
	assert_int_equal(pt.poll, RB_POLL_EVENT);
	assert_int_equal(pt.qps, 51);
}

/* ---- warm-up -------------------------------------------------------------- */

/* auto: 100 messages up to 10 KiB, then a MiB's worth, one at least. */
static void test_point_warmup(void **state)
{
	static const uint64_t auto_of[][2] = {
		{ 0, 100 },	{ 2, 100 },	   { 10485, 100 },	 { 10486, 99 },
		{ 65536, 16 },	{ 1 << 19, 2 },	   { (1 << 20) - 1, 1 }, { 1 << 20, 1 },
		{ 8 << 20, 1 }, { 1ULL << 40, 1 },
	};
	struct rb_params p;
	struct rb_point pt;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(auto_of) / sizeof(auto_of[0]); i++)
		assert_int_equal(rb_point_warmup(RB_WARMUP_AUTO, auto_of[i][0]), auto_of[i][1]);
	/* A number given is kept at every size, 0 included. */
	assert_int_equal(rb_point_warmup(0, 8 << 20), 0);
	assert_int_equal(rb_point_warmup(500, 8 << 20), 500);
	assert_int_equal(rb_point_warmup(7, 2), 7);
	/* Each point of a sweep gets its own. */
	memset(&p, 0, sizeof(p));
	set_axis(&p.size, (const uint64_t[]){ 64, 1 << 18, 4 << 20 }, 3);
	set_axis(&p.batch, (const uint64_t[]){ 1 }, 1);
	set_axis(&p.signal, (const uint64_t[]){ 1 }, 1);
	set_axis(&p.qps, (const uint64_t[]){ 1 }, 1);
	set_axis(&p.tx_depth, (const uint64_t[]){ 128 }, 1);
	set_axis(&p.poll, (const uint64_t[]){ 0 }, 1);
	set_axis(&p.cqe_poll, (const uint64_t[]){ 32 }, 1);
	p.warmup = RB_WARMUP_AUTO;
	rb_plan_point(&p, 0, &pt);
	assert_int_equal(pt.warmup, 100);
	rb_plan_point(&p, 1, &pt);
	assert_int_equal(pt.warmup, 4);
	rb_plan_point(&p, 2, &pt);
	assert_int_equal(pt.warmup, 1);
	p.warmup = 3;
	rb_plan_point(&p, 2, &pt);
	assert_int_equal(pt.warmup, 3);
}

/* ---- size strings ------------------------------------------------------ */

static void check_size_str(uint64_t v, const char *want)
{
	char buf[32];
	const char *got;

	memset(buf, 'z', sizeof(buf));
	got = rb_size_str(v, buf, sizeof(buf));
	assert_ptr_equal(got, buf);
	assert_string_equal(got, want);
}

static void test_size_str(void **state)
{
	static const uint64_t round[] = { 0,	   1,	       64,	1000,	   1023,
					  1024,	   1536,       4096,	1048576,   1572864,
					  3 * GiB, 1ULL << 40, MiB + 1, UINT64_MAX };
	char buf[32];
	size_t i;

	(void)state;
	check_size_str(64, "64");
	check_size_str(4096, "4K");
	check_size_str(1048576, "1M");
	check_size_str(1536, "1536");
	check_size_str(1ULL << 30, "1G");
	check_size_str(3ULL << 30, "3G");
	check_size_str(0, "0");
	check_size_str(1024, "1K");
	check_size_str(1023, "1023");
	check_size_str(1536 * KiB, "1536K");
	check_size_str(8 * MiB, "8M");
	check_size_str(1ULL << 40, "1024G");
	check_size_str(UINT64_MAX, "18446744073709551615");

	/* A short buffer is truncated, not overrun. */
	memset(buf, 'z', sizeof(buf));
	assert_string_equal(rb_size_str(1048576, buf, 2), "1");
	assert_int_equal(buf[2], 'z');

	/* Whatever is printed parses back to the same value. */
	for (i = 0; i < sizeof(round) / sizeof(round[0]); i++) {
		const char *end;
		uint64_t v;

		rb_size_str(round[i], buf, sizeof(buf));
		assert_int_equal(rb_parse_u64(buf, true, &v, &end), 0);
		assert_int_equal(*end, '\0');
		assert_int_equal(v, round[i]);
	}
}

static struct rb_result rate(uint64_t size, uint32_t batch, uint32_t signal, double mpps)
{
	struct rb_result r = { .pt = { .size = size, .batch = batch, .signal = signal, .qps = 1 },
			       .has_bw = true,
			       .msg_rate_mpps = mpps };
	return r;
}

/*
 * Known data: at 64 B the best is 10.0 at batch 16 signal 64; batch 4
 * signal 16 (9.6) and signal 64 (9.7) are within 5%, batch 1 (5.0) is not:
 * the cheapest close setting is batch 4 with the larger signal, 64.
 * At 4 KiB every batch reaches the best within 5%: batch 1, and of its
 * signals the largest, 64, even though signal 16 is the faster one.
 */
static void test_recommend_known(void **state)
{
	struct rb_result res[] = {
		rate(64, 1, 16, 5.0),	  rate(4096, 1, 16, 2.0), rate(64, 1, 64, 4.9),
		rate(4096, 1, 64, 1.95),  rate(64, 4, 16, 9.6),	  rate(4096, 4, 16, 2.01),
		rate(64, 4, 64, 9.7),	  rate(4096, 4, 64, 2.0), rate(64, 16, 16, 9.0),
		rate(4096, 16, 16, 1.99), rate(64, 16, 64, 10.0), rate(4096, 16, 64, 1.98),
	};
	struct rb_reco out[4];
	size_t n = rb_recommend(res, sizeof(res) / sizeof(res[0]), out, 4);

	(void)state;
	assert_int_equal(n, 2);
	assert_int_equal(out[0].size, 64);
	assert_int_equal(out[0].batch, 4);
	assert_int_equal(out[0].signal, 64);
	assert_true(out[0].msg_rate_mpps == 9.7);
	assert_true(out[0].best_msg_rate_mpps == 10.0);
	assert_int_equal(out[0].best_batch, 16);
	assert_int_equal(out[0].best_signal, 64);
	assert_int_equal(out[1].size, 4096);
	assert_int_equal(out[1].batch, 1);
	assert_int_equal(out[1].signal, 64);
	assert_int_equal(out[1].best_batch, 4);
	assert_int_equal(out[1].best_signal, 16);
}

/* Latency points carry no rate; the output is bounded by @max. */
static void test_recommend_edges(void **state)
{
	struct rb_result res[] = { rate(64, 1, 1, 1.0), rate(128, 1, 1, 1.0),
				   rate(256, 1, 1, 1.0) };
	struct rb_reco out[2];

	(void)state;
	res[0].has_bw = false;
	assert_int_equal(rb_recommend(res, 3, out, 2), 2);
	assert_int_equal(out[0].size, 128);
	assert_int_equal(rb_recommend(res, 0, out, 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_range_doubling),
		cmocka_unit_test(test_range_adding),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_max_values),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_secs),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_errors_name_range_item),
		cmocka_unit_test(test_no_suffix),
		cmocka_unit_test(test_axis_helpers),
		cmocka_unit_test(test_plan_count),
		cmocka_unit_test(test_plan_order),
		cmocka_unit_test(test_plan_order_all_axes),
		cmocka_unit_test(test_point_warmup),
		cmocka_unit_test(test_size_str),
		cmocka_unit_test(test_recommend_known),
		cmocka_unit_test(test_recommend_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
