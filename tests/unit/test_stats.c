// SPDX-License-Identifier: MIT
/*
 * Unit tests for latency summaries and bandwidth windows (src/stats.c).
 *
 * rb_lat_summarize() turns nanoseconds into microseconds and multiplies by
 * the scale, so a scale of 1000 makes the summary read in nanoseconds:
 * handy for checking ranks against small integer samples.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/stats.h"

#define NS 1000.0 /* scale: summary values equal the samples in ns */

#define assert_near(got, want, tol)                                                         \
	do {                                                                                \
		double g_ = (got), w_ = (want), t_ = (tol);                                 \
		if (!(fabs(g_ - w_) <= t_)) {                                               \
			print_error("%s = %.17g, want %.17g (tol %g)\n", #got, g_, w_, t_); \
			fail();                                                             \
		}                                                                           \
	} while (0)

/* Relative tolerance, for bandwidth figures. */
#define assert_rel(got, want, rel) assert_near(got, want, fabs((double)(want)) * (rel))

/* A summary's order statistics, min to max, each within @tol. */
#define assert_order(l, min_, p50_, p90_, p99_, p999_, max_, tol) \
	do {                                                      \
		assert_near((l).min, min_, tol);                  \
		assert_near((l).p50, p50_, tol);                  \
		assert_near((l).p90, p90_, tol);                  \
		assert_near((l).p99, p99_, tol);                  \
		assert_near((l).p999, p999_, tol);                \
		assert_near((l).max, max_, tol);                  \
	} while (0)

static void push_all(struct rb_samples *s, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(rb_samples_push(s, v[i]), 0);
}

/* ---- perftest's statistics (print_report_lat(), perftest_parameters.c) -- */

/*
 * Twelve samples, by hand from print_report_lat(): sorted, the top two
 * (50, 100) are dropped (LAT_MEASURE_TAIL 2): m = 10.  t_min delta[0] 1;
 * t_max delta[m] = 50, the second largest; t_typical get_median(10):
 * (10 - 1) % 2 so (delta[5] + delta[4]) / 2 in integer cycles, (5 + 4) / 2
 * = 4, not 4.5; t_avg 48 / 10 = 4.8; t_stdev: int(4.8 - x) for each x is
 * 3 2 1 1 0 0 -1 -2 -3 -4, squares 45, sqrt(45 / 10) = 2.1213; 99% and
 * 99.9%: delta[ceil(10 * 0.99)] = delta[ceil(9.99)] = delta[10] = 50.
 * rdmabench's own summary of the same is max 100, p50 5, avg 17.33.
 */
static void test_perftest_twelve(void **state)
{
	const uint64_t v[] = { 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 50, 100 };
	struct rb_pt_lat l;

	(void)state;
	assert_int_equal(rb_lat_perftest(v, 12, NS, 0, &l), 0);
	assert_near(l.min, 1, 0);
	assert_near(l.max, 50, 0);
	assert_near(l.typical, 4, 0);
	assert_near(l.avg, 4.8, 1e-12);
	assert_near(l.stdev, sqrt(4.5), 1e-12);
	assert_near(l.p99, 50, 0);
	assert_near(l.p999, 50, 0);
	/* perftest's sample holds the gap (run_iter_lat(): the spin is
	 * between two tposted[]): one more microsecond each, stdev as is */
	assert_int_equal(rb_lat_perftest(v, 12, NS, 1.0, &l), 0);
	assert_near(l.min, 2, 0);
	assert_near(l.max, 51, 0);
	assert_near(l.typical, 5, 0);
	assert_near(l.avg, 5.8, 1e-12);
	assert_near(l.stdev, sqrt(4.5), 1e-12);
	assert_near(l.p99, 51, 0);
	/* scale: 2000 ns a tick, halved (one-way): a tick is a microsecond */
	assert_int_equal(rb_lat_perftest(v, 12, 0.5 * 2000, 0, &l), 0);
	assert_near(l.max, 50, 0);
	/* fewer than three samples: nothing left once the top two go */
	assert_int_equal(rb_lat_perftest(v, 2, NS, 0, &l), -EINVAL);
	assert_int_equal(rb_lat_perftest(v, 3, NS, 0, &l), 0);
	/* m = 1: t_max delta[1]; get_median(1) delta[0]; ceil(0.99) = 1: delta[1] */
	assert_near(l.min, 1, 0);
	assert_near(l.max, 2, 0);
	assert_near(l.typical, 1, 0);
	assert_near(l.p99, 2, 0);
}

/*
 * 1..1000: m = 998; t_typical (delta[499] + delta[498]) / 2 = (500 + 499) / 2
 * = 499 (integer); t_avg 499.5; t_max delta[998] = 999; 99%:
 * delta[ceil(988.02)] = delta[989] = 990; 99.9%: delta[ceil(997.002)] =
 * delta[998] = 999; t_stdev: int(499.5 - x) is 498..0 for x = 1..499 and
 * 0..-498 for 500..998, squares 2 * (498 * 499 * 997 / 6) = 82585498,
 * sqrt(82585498 / 998) = 287.6647 (the exact population stdev of 1..998
 * is 288.097).
 */
static void test_perftest_thousand(void **state)
{
	uint64_t v[1000], i;
	struct rb_pt_lat l;

	(void)state;
	for (i = 0; i < 1000; i++)
		v[i] = i + 1;
	assert_int_equal(rb_lat_perftest(v, 1000, NS, 0, &l), 0);
	assert_near(l.min, 1, 0);
	assert_near(l.max, 999, 0);
	assert_near(l.typical, 499, 0);
	assert_near(l.avg, 499.5, 1e-9);
	assert_near(l.stdev, sqrt(82585498.0 / 998), 1e-9);
	assert_near(l.p99, 990, 0);
	assert_near(l.p999, 999, 0);
}

/* ---- latency summaries ------------------------------------------------- */

static void test_summary_1_to_100(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	uint64_t i;

	(void)state;
	for (i = 1; i <= 100; i++)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_order(l, 1, 50, 90, 99, 100, 100, 0);
	assert_near(l.avg, 50.5, 1e-12);
	/* Population stdev of 1..n is sqrt((n^2 - 1) / 12). */
	assert_near(l.stdev, sqrt((100.0 * 100.0 - 1) / 12), 1e-9);
	rb_samples_free(&s);
}

static void test_summary_units(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	static const uint64_t v[] = { 3000, 1000, 2000 };

	(void)state;
	/* Scale 1: nanoseconds in, microseconds out. */
	push_all(&s, v, 3);
	assert_int_equal(rb_lat_summarize(&s, 1.0, &l), 0);
	assert_order(l, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 1e-12);
	assert_near(l.avg, 2.0, 1e-12);
	assert_near(l.stdev, sqrt(2.0 / 3.0), 1e-12);
	rb_samples_free(&s);
}

static void test_summary_one_way(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	static const uint64_t v[] = { 2000, 4000, 1000, 3000 };

	(void)state;
	/* Round trips halved: 1000 ns round trip is 0.5 us one way. */
	push_all(&s, v, 4);
	assert_int_equal(rb_lat_summarize(&s, 0.5, &l), 0);
	assert_order(l, 0.5, 1.0, 2.0, 2.0, 2.0, 2.0, 1e-12);
	assert_near(l.avg, 1.25, 1e-12);
	/* Population stdev of {1000..4000} is 1118.03 ns, halved, in us. */
	assert_near(l.stdev, sqrt(1250000.0) * 0.5 / 1000.0, 1e-12);
	rb_samples_free(&s);
}

static void test_summary_unsorted(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	uint64_t i;

	(void)state;
	/* 1..100 in a scrambled order: 37 generates the group mod 101. */
	for (i = 1; i <= 100; i++)
		assert_int_equal(rb_samples_push(&s, i * 37 % 101), 0);
	assert_true(s.v[0] != 1 && s.v[99] != 100);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_order(l, 1, 50, 90, 99, 100, 100, 0);
	assert_near(l.avg, 50.5, 1e-12);
	/* Documented: the samples are sorted in place, and all kept. */
	assert_int_equal(s.n, 100);
	for (i = 0; i < 100; i++)
		assert_int_equal(s.v[i], i + 1);

	/* Duplicates and a descending run. */
	rb_samples_free(&s);
	for (i = 0; i < 10; i++)
		assert_int_equal(rb_samples_push(&s, 10 - i), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(rb_samples_push(&s, 5), 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	/* Sorted: 1 2 3 4 5 5 5 5 5 5 5 5 5 5 5 6 7 8 9 10 */
	assert_near(l.min, 1, 0);
	assert_near(l.p50, 5, 0);
	assert_near(l.p90, 8, 0);
	assert_near(l.p99, 10, 0);
	assert_near(l.max, 10, 0);
	rb_samples_free(&s);
}

static void test_summary_single(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;

	(void)state;
	assert_int_equal(rb_samples_push(&s, 1234), 0);
	assert_int_equal(rb_lat_summarize(&s, 1.0, &l), 0);
	assert_order(l, 1.234, 1.234, 1.234, 1.234, 1.234, 1.234, 1e-12);
	assert_near(l.avg, 1.234, 1e-12);
	assert_near(l.stdev, 0, 0);
	rb_samples_free(&s);
}

static void test_summary_1000(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	uint64_t i;

	(void)state;
	for (i = 1000; i >= 1; i--)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_near(l.min, 1, 0);
	assert_near(l.p50, 500, 0);
	assert_near(l.p90, 900, 0);
	assert_near(l.p99, 990, 0);
	/* 99.9% of 1000 is rank 999, not 1000. */
	assert_near(l.p999, 999, 0);
	assert_near(l.max, 1000, 0);
	rb_samples_free(&s);

	/* One more sample and p99.9 moves to rank ceil(999.999) = 1000. */
	for (i = 1; i <= 1001; i++)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_near(l.p999, 1000, 0);
	assert_near(l.p50, 501, 0);
	rb_samples_free(&s);
}

static void test_summary_stdev(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	(void)state;
	push_all(&s, v, 8);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_near(l.avg, 5, 1e-12);
	/* Population (divide by n), not sample (n - 1, which gives 2.138). */
	assert_near(l.stdev, 2, 1e-12);
	rb_samples_free(&s);

	/* Large values close together: no catastrophic cancellation. */
	{
		static const uint64_t w[] = { 1000000000002ULL, 1000000000004ULL, 1000000000004ULL,
					      1000000000004ULL, 1000000000005ULL, 1000000000005ULL,
					      1000000000007ULL, 1000000000009ULL };

		push_all(&s, w, 8);
		assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
		assert_near(l.stdev, 2, 1e-6);
		rb_samples_free(&s);
	}
}

static void test_summary_empty(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;

	(void)state;
	assert_int_equal(rb_lat_summarize(&s, 1.0, &l), -EINVAL);
	/* Reserved but empty is still empty. */
	assert_int_equal(rb_samples_reserve(&s, 16), 0);
	assert_int_equal(rb_lat_summarize(&s, 1.0, &l), -EINVAL);
	rb_samples_free(&s);
}

static void test_percentile_rank(void **state)
{
	(void)state;
	assert_int_equal(rb_percentile_rank(50, 1), 1);
	assert_int_equal(rb_percentile_rank(99.9, 1), 1);
	assert_int_equal(rb_percentile_rank(50, 2), 1);
	assert_int_equal(rb_percentile_rank(50, 3), 2);
	assert_int_equal(rb_percentile_rank(50, 100), 50);
	assert_int_equal(rb_percentile_rank(50, 101), 51);
	assert_int_equal(rb_percentile_rank(90, 10), 9);
	assert_int_equal(rb_percentile_rank(90, 100), 90);
	assert_int_equal(rb_percentile_rank(99, 100), 99);
	assert_int_equal(rb_percentile_rank(99, 101), 100);
	assert_int_equal(rb_percentile_rank(99.9, 100), 100);
	assert_int_equal(rb_percentile_rank(99.9, 999), 999);
	assert_int_equal(rb_percentile_rank(99.9, 1000), 999);
	assert_int_equal(rb_percentile_rank(99.9, 1001), 1000);
	assert_int_equal(rb_percentile_rank(99.9, 10000), 9990);
	assert_int_equal(rb_percentile_rank(99, 1000000), 990000);
	assert_int_equal(rb_percentile_rank(99.9, 1000000), 999000);
	assert_int_equal(rb_percentile_rank(0.1, 1000), 1);
	assert_int_equal(rb_percentile_rank(0.1, 1001), 2);
	/* Clamped to [1, n]. */
	assert_int_equal(rb_percentile_rank(0, 10), 1);
	assert_int_equal(rb_percentile_rank(-5, 10), 1);
	assert_int_equal(rb_percentile_rank(100, 10), 10);
	assert_int_equal(rb_percentile_rank(150, 10), 10);
}

/*
 * ceil(p/100 * n) for the ranks rdmabench reports, at iteration counts a
 * long run reaches.  A fixed absolute epsilon stops covering the rounding
 * error of p/100 * n once n is in the tens of millions.
 */
static void test_percentile_rank_large_n(void **state)
{
	(void)state;
	assert_int_equal(rb_percentile_rank(50, 100000000), 50000000);
	assert_int_equal(rb_percentile_rank(99, 100000000), 99000000);
	assert_int_equal(rb_percentile_rank(99.9, 10000000), 9990000);
	assert_int_equal(rb_percentile_rank(99.9, 30000000), 29970000);
	assert_int_equal(rb_percentile_rank(99.9, 100000000), 99900000);
	assert_int_equal(rb_percentile_rank(99.9, 1000000000), 999000000);
	/* Not an exact multiple: the rank still rounds up. */
	assert_int_equal(rb_percentile_rank(99.9, 100000001), 99900001);
}

/*
 * Issue 21 item 11: a -D latency point records far more samples than it
 * may keep.  Past 2^22 (RB_SAMPLES_EXACT_MAX) the room stops growing.
 */
static void test_samples_bounded(void **state)
{
	const size_t cap = (size_t)1 << 22, n = cap + 5000;
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	size_t i;

	(void)state;
	for (i = 0; i < n; i++)
		assert_int_equal(rb_samples_push(&s, 1000 + i % 1000), 0);
	assert_int_equal(s.n, n);
	assert_true(s.cap <= cap);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_near(l.min, 1000, 0);
	assert_near(l.max, 1999, 0);
	assert_true(l.bucketed);
	rb_samples_free(&s);
}

/* ---- buckets ----------------------------------------------------------- */

/* A value's bucket holds it, and a bucket's lower bound is in it. */
static void hist_round_trip(uint64_t v)
{
	size_t i = rb_hist_index(v);
	uint64_t lo = rb_hist_lower(i), w = rb_hist_width(i);

	if (i >= RB_HIST_BUCKETS || v < lo || v - lo >= w || rb_hist_index(lo) != i)
		fail_msg("value %llu: bucket %zu [%llu, +%llu)", (unsigned long long)v, i,
			 (unsigned long long)lo, (unsigned long long)w);
}

static void test_hist_buckets(void **state)
{
	uint64_t v, x = 88172645463325252ULL;
	size_t i;

	(void)state;
	for (v = 0; v < (1 << 18); v++)
		hist_round_trip(v);
	for (i = 0; i < 200000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
		hist_round_trip(x >> (i % 64));
	}
	hist_round_trip(UINT64_MAX);
	assert_int_equal(rb_hist_index(UINT64_MAX), RB_HIST_BUCKETS - 1);
	/* Contiguous, each at most 2^-7 of its lower bound wide (but the
	 * first 256, one value each). */
	for (i = 0; i + 1 < RB_HIST_BUCKETS; i++) {
		assert_int_equal(rb_hist_lower(i + 1), rb_hist_lower(i) + rb_hist_width(i));
		if (i >= 2 * RB_HIST_SUB)
			assert_true(rb_hist_width(i) << RB_HIST_BITS <= rb_hist_lower(i));
		else
			assert_int_equal(rb_hist_width(i), 1);
	}
}

/* A bucket's value (its midpoint) is within 2^-8 of every sample in it. */
static void test_hist_relative_error(void **state)
{
	static const uint64_t v[] = { 255,	     256,    257,	 511,
				      512,	     1000,   4095,	 4097,
				      123457,	     999999, 1ULL << 40, (1ULL << 40) + 12345,
				      UINT64_MAX / 3 };
	struct rb_lat_summary l;
	struct rb_hist h;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		/* Two samples in the same bucket: min and max are exact, the
		 * p50 (rank 1) is the bucket's midpoint. */
		uint64_t lo = rb_hist_lower(rb_hist_index(v[i]));

		rb_hist_reset(&h);
		rb_hist_add(&h, v[i]);
		rb_hist_add(&h, lo);
		assert_int_equal(rb_hist_summarize(&h, NS, &l), 0);
		assert_true(l.bucketed);
		assert_near(l.min, (double)lo, 0);
		assert_near(l.max, (double)v[i], 0);
		assert_rel(l.p50, (double)v[i], 1.0 / 256);
		assert_rel(l.p50, (double)lo, 1.0 / 256);
	}
	/* Values below 256 are exact. */
	rb_hist_reset(&h);
	for (i = 1; i <= 100; i++)
		rb_hist_add(&h, i);
	assert_int_equal(rb_hist_summarize(&h, NS, &l), 0);
	assert_near(l.p50, 50, 0);
	assert_near(l.p99, 99, 0);
	assert_near(l.avg, 50.5, 1e-12);
	assert_near(l.stdev, sqrt((100.0 * 100.0 - 1) / 12), 1e-9);
	rb_hist_reset(&h);
	assert_int_equal(rb_hist_summarize(&h, NS, &l), -EINVAL);
}

/* A long-tailed sample set: exact and bucketed summaries agree within 2^-8. */
static void test_hist_vs_exact(void **state)
{
	struct rb_samples e = { 0 }, b = { .max = 1000 };
	struct rb_lat_summary le, lb;
	uint64_t x = 2463534242ULL, v;
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* Mostly 2000..2999 ticks, one in 64 up to 64 times that. */
		v = 2000 + x % 1000;
		if (!(x >> 58))
			v *= 1 + (x >> 20) % 64;
		assert_int_equal(rb_samples_push(&e, v), 0);
		assert_int_equal(rb_samples_push(&b, v), 0);
	}
	assert_int_equal(rb_lat_summarize(&e, NS, &le), 0);
	assert_int_equal(rb_lat_summarize(&b, NS, &lb), 0);
	assert_false(le.bucketed);
	assert_true(lb.bucketed);
	assert_near(lb.min, le.min, 0);
	assert_near(lb.max, le.max, 0);
	assert_rel(lb.avg, le.avg, 1e-9);
	assert_rel(lb.stdev, le.stdev, 1e-6);
	assert_rel(lb.p50, le.p50, 1.0 / 256);
	assert_rel(lb.p90, le.p90, 1.0 / 256);
	assert_rel(lb.p99, le.p99, 1.0 / 256);
	assert_rel(lb.p999, le.p999, 1.0 / 256);
	rb_samples_free(&e);
	rb_samples_free(&b);
}

/* Exact up to max samples; the next one switches to buckets, for good. */
static void test_samples_switch(void **state)
{
	struct rb_samples s = { .max = 1000 };
	struct rb_lat_summary l;
	size_t i;

	(void)state;
	for (i = 1; i <= 1000; i++)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_null(s.h);
	assert_int_equal(s.cap, 1000);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_false(l.bucketed);
	assert_int_equal(rb_samples_push(&s, 1001), 0);
	assert_non_null(s.h);
	assert_null(s.v); /* the array is given back */
	for (i = 1002; i <= 5000; i++)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(s.n, 5000);
	assert_int_equal(s.h[0].n, 5000);
	assert_int_equal(s.cap, 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_true(l.bucketed);
	assert_near(l.min, 1, 0);
	assert_near(l.max, 5000, 0);
	assert_rel(l.p50, 2500, 1.0 / 256);
	assert_near(l.avg, 2500.5, 1e-9);
	/* A new point starts exact again, with the same bound. */
	rb_samples_reset(&s);
	assert_null(s.h);
	assert_int_equal(s.n, 0);
	for (i = 1; i <= 10; i++)
		assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_false(l.bucketed);
	assert_near(l.p50, 5, 0);
	assert_int_equal(s.max, 1000);
	rb_samples_free(&s);
}

/* ---- -H: rb_lat_buckets() -------------------------------------------- */

static uint64_t sum_counts(const struct rb_lat_buckets *b)
{
	uint64_t t = 0;
	uint32_t i;

	for (i = 0; i < b->n; i++)
		t += b->count[i];
	return t;
}

/* 1..1000 pushed backwards: p99.9 is 999, 20 buckets of 50, no tail. */
static void test_buckets_even(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_buckets b;
	uint64_t v;
	uint32_t i;

	(void)state;
	for (v = 1000; v >= 1; v--)
		assert_int_equal(rb_samples_push(&s, v), 0);
	assert_int_equal(rb_lat_buckets(&s, &b), 0);
	assert_int_equal(b.n, 20);
	assert_int_equal(b.body, 20);
	assert_false(b.tail);
	assert_int_equal(b.width, 50);
	for (i = 0; i < 20; i++) {
		assert_int_equal(b.edge[i], 1 + 50 * i);
		assert_int_equal(b.count[i], 50);
	}
	assert_int_equal(b.edge[20], 1001);
	rb_samples_free(&s);
}

/* 100..199 ten times each and one outlier: width 5, and a tail of one. */
static void test_buckets_tail(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_buckets b;
	struct rb_lat_hist h;
	uint32_t i, k;

	(void)state;
	assert_int_equal(rb_samples_push(&s, 1000), 0);
	for (k = 0; k < 10; k++)
		for (i = 100; i < 200; i++)
			assert_int_equal(rb_samples_push(&s, i), 0);
	assert_int_equal(rb_lat_buckets(&s, &b), 0);
	assert_int_equal(b.body, 20);
	assert_true(b.tail);
	assert_int_equal(b.n, 21);
	assert_int_equal(b.width, 5);
	for (i = 0; i < 20; i++)
		assert_int_equal(b.count[i], 50);
	assert_int_equal(b.edge[20], 200);
	assert_int_equal(b.edge[21], 1001);
	assert_int_equal(b.count[20], 1);
	/* As the result carries it: one-way microseconds of 2 ns ticks, half ticks. */
	rb_lat_hist_fill(&b, 0.5 * 2 / 1000, 0.5, &h);
	assert_int_equal(h.n, 21);
	assert_true(h.tail);
	assert_near(h.edge_us[0], 0.1, 1e-12);
	assert_near(h.edge_us[21], 1.001, 1e-12);
	assert_near(h.edge_ticks[1], 52.5, 0);
	assert_int_equal(h.count[20], 1);
	rb_samples_free(&s);
}

/* Fewer distinct values than buckets: a bucket per value. */
static void test_buckets_narrow(void **state)
{
	const uint64_t v[] = { 12, 10, 12, 11 };
	struct rb_samples s = { 0 };
	struct rb_lat_buckets b;
	uint32_t i;

	(void)state;
	push_all(&s, v, 4);
	assert_int_equal(rb_lat_buckets(&s, &b), 0);
	assert_int_equal(b.n, 3);
	assert_int_equal(b.width, 1);
	assert_false(b.tail);
	assert_int_equal(b.edge[0], 10);
	assert_int_equal(b.edge[3], 13);
	assert_int_equal(b.count[0], 1);
	assert_int_equal(b.count[1], 1);
	assert_int_equal(b.count[2], 2);
	rb_samples_reset(&s);
	for (i = 0; i < 5; i++)
		assert_int_equal(rb_samples_push(&s, 7), 0);
	assert_int_equal(rb_lat_buckets(&s, &b), 0);
	assert_int_equal(b.n, 1);
	assert_int_equal(b.count[0], 5);
	assert_int_equal(b.edge[1], 8);
	rb_samples_reset(&s);
	assert_int_equal(rb_lat_buckets(&s, &b), -EINVAL);
	rb_samples_free(&s);
}

/* Past the exact bound: from rb_hist's buckets, every sample still counted once. */
static void test_buckets_bucketed(void **state)
{
	struct rb_samples s = { .max = 1000 };
	struct rb_lat_buckets b;
	uint64_t v;

	(void)state;
	for (v = 1; v <= 5000; v++)
		assert_int_equal(rb_samples_push(&s, v), 0);
	assert_non_null(s.h);
	assert_int_equal(rb_lat_buckets(&s, &b), 0);
	assert_int_equal(b.edge[0], 1);
	assert_int_equal(b.body, 20);
	assert_int_equal(sum_counts(&b), 5000);
	/* p99.9 (4995) within the buckets' 2^-8: about 250 wide. */
	assert_rel((double)b.width, 250, 0.01);
	assert_rel((double)b.count[0], 250, 0.02);
	rb_samples_free(&s);
}

/* --samples writes the samples after the slices: those leave them in order. */
static void test_slice_keeps_order(void **state)
{
	const uint64_t v[] = { 5, 3, 9, 1, 7 };
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;

	(void)state;
	push_all(&s, v, 2);
	rb_samples_mark(&s);
	push_all(&s, v + 2, 3);
	assert_int_equal(rb_lat_summarize_slice(&s, NS, &l), 0);
	assert_near(l.min, 1, 0);
	assert_near(l.max, 9, 0);
	assert_memory_equal(s.v, v, sizeof(v));
	rb_samples_free(&s);
}

/* --interval: a slice's figures are its own samples', before and after the switch. */
static void test_samples_slices(void **state)
{
	struct rb_samples s = { .max = 1000 };
	struct rb_lat_summary l;
	size_t i;

	(void)state;
	rb_samples_mark(&s);
	for (i = 0; i < 600; i++)
		assert_int_equal(rb_samples_push(&s, 100 + i), 0);
	assert_int_equal(rb_lat_summarize_slice(&s, NS, &l), 0);
	assert_false(l.bucketed);
	assert_near(l.min, 100, 0);
	assert_near(l.max, 699, 0);
	/* The next slice spans the switch at 1000. */
	rb_samples_mark(&s);
	for (i = 0; i < 600; i++)
		assert_int_equal(rb_samples_push(&s, 5000 + i), 0);
	assert_int_equal(rb_samples_slice_n(&s), 600);
	assert_int_equal(s.h[1].n, 600);
	assert_int_equal(rb_lat_summarize_slice(&s, NS, &l), 0);
	assert_true(l.bucketed);
	assert_near(l.min, 5000, 0);
	assert_near(l.max, 5599, 0);
	assert_rel(l.p50, 5299, 1.0 / 256);
	/* One after it, wholly bucketed. */
	rb_samples_mark(&s);
	for (i = 0; i < 10; i++)
		assert_int_equal(rb_samples_push(&s, 70000 + i), 0);
	assert_int_equal(rb_samples_slice_n(&s), 10);
	assert_int_equal(rb_lat_summarize_slice(&s, NS, &l), 0);
	assert_near(l.min, 70000, 0);
	assert_near(l.max, 70009, 0);
	assert_near(l.avg, 70004.5, 1e-9);
	/* The point's summary has every sample. */
	assert_int_equal(rb_lat_summarize(&s, NS, &l), 0);
	assert_int_equal(s.n, 1210);
	assert_near(l.min, 100, 0);
	assert_near(l.max, 70009, 0);
	rb_samples_free(&s);
}

static void test_samples_growth(void **state)
{
	struct rb_samples s = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 10000; i++)
		assert_int_equal(rb_samples_push(&s, i * 7919 + 3), 0);
	assert_int_equal(s.n, 10000);
	assert_true(s.cap >= 10000);
	for (i = 0; i < 10000; i++)
		assert_int_equal(s.v[i], i * 7919 + 3);
	rb_samples_free(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.cap, 0);

	/* Reserve up front, then keep pushing past it. */
	assert_int_equal(rb_samples_reserve(&s, 5000), 0);
	assert_int_equal(s.cap, 5000);
	assert_int_equal(s.n, 0);
	/* Reserving less never shrinks. */
	assert_int_equal(rb_samples_reserve(&s, 10), 0);
	assert_int_equal(s.cap, 5000);
	for (i = 0; i < 12345; i++)
		assert_int_equal(rb_samples_push(&s, UINT64_MAX - i), 0);
	assert_int_equal(s.n, 12345);
	for (i = 0; i < 12345; i++)
		assert_int_equal(s.v[i], UINT64_MAX - i);
	rb_samples_free(&s);
}

static void test_gbps(void **state)
{
	(void)state;
	assert_near(rb_gbps(1000000000, 1000000000), 8.0, 0);
	assert_near(rb_gbps(4096, 1000), 32.768, 1e-12);
	assert_near(rb_gbps(125, 1), 1000.0, 0);
	assert_near(rb_gbps(0, 1000), 0.0, 0);
	/* No time elapsed: no figure rather than a division by zero. */
	assert_near(rb_gbps(4096, 0), 0.0, 0);
}

/* ---- bandwidth windows ------------------------------------------------- */

#define T0  1000000000ULL
#define MSG 4096ULL

/* One more MSG bytes done, @gap ns after the last: marked on @w. */
static void step(struct rb_bw_window *w, uint64_t *t, uint64_t *bytes, uint64_t gap)
{
	*t += gap;
	*bytes += MSG;
	rb_bw_window_mark(w, *t, *bytes);
}

static void test_bw_steady(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak;
	int i;

	(void)state;
	rb_bw_window_init(&w, T0, 0);
	for (i = 0; i < 1000; i++)
		step(&w, &t, &bytes, 1000);
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_rel(peak, rb_gbps(bytes, t - T0), 1e-9);
	assert_rel(peak, 32.768, 1e-9);
	/* The window's own best matches the average too. */
	assert_rel(w.peak_gbps, 32.768, 1e-9);
}

static void test_bw_burst(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak, avg;
	int i;

	(void)state;
	rb_bw_window_init(&w, T0, 0);
	/*
	 * 4 KiB every 1000 ns on average, but every 250 ns for marks
	 * 300..499.  Completions jitter (500/1500, then 100/400 ns), so only
	 * a window of RB_BW_WINDOW intervals sees the smooth rate: a single
	 * 100 ns gap would read 327 Gb/s.
	 */
	for (i = 0; i < 1000; i++)
		step(&w, &t, &bytes,
		     i >= 300 && i < 500 ? (i % 2 ? 400 : 100) : (i % 2 ? 1500 : 500));
	avg = rb_gbps(bytes, t - T0);
	assert_rel(avg, 4096000.0 * 8 / 850000, 1e-12);
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_true(peak > avg * 3);
	/* Windows lie wholly inside the burst: exactly 4x the steady rate. */
	assert_rel(peak, 131.072, 1e-9);
}

static void test_bw_dip(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak;
	int i;

	(void)state;
	/* A stall in the middle lowers the average, not the peak. */
	rb_bw_window_init(&w, T0, 0);
	for (i = 0; i < 1000; i++)
		step(&w, &t, &bytes, i == 500 ? 2000000 : 1000);
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_rel(peak, 32.768, 1e-9);
	assert_true(rb_gbps(bytes, t - T0) < peak / 2);
}

static void test_bw_early_burst(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak;
	int i;

	(void)state;
	/*
	 * Three completions 10 ns apart right at the start (one CQ poll
	 * reaping a batch), then a steady 4 KiB per us.  A burst shorter
	 * than a window is diluted by the window, not reported as 3 Tb/s.
	 */
	rb_bw_window_init(&w, T0, 0);
	for (i = 0; i < 1000; i++)
		step(&w, &t, &bytes, i < 3 ? 10 : 1000);
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_true(peak >= 32.768 * (1 - 1e-9));
	assert_true(peak < 32.768 * 1.1);
}

static void test_bw_few_marks(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak;
	int i;

	(void)state;
	/* Ten marks, the first five fast: no window fills, so the run counts. */
	rb_bw_window_init(&w, T0, 0);
	for (i = 0; i < 10; i++)
		step(&w, &t, &bytes, i < 5 ? 100 : 1000);
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_rel(peak, rb_gbps(bytes, t - T0), 1e-12);
	assert_rel(peak, 40960.0 * 8 / 5500, 1e-12);

	/* The run may end after the last mark: the whole run still counts. */
	peak = rb_bw_window_peak(&w, bytes, t + 4500);
	assert_rel(peak, 40960.0 * 8 / 10000, 1e-12);

	/* No mark at all. */
	rb_bw_window_init(&w, T0, 0);
	peak = rb_bw_window_peak(&w, 8192, T0 + 2000);
	assert_rel(peak, 8192.0 * 8 / 2000, 1e-12);
}

/*
 * Thousands of QPs: as much can be in flight as the run is long, and the
 * completions of work done long before come in one burst of polls.  With
 * a mark per poll a window of them read that burst as 100x the average;
 * marks a sixteenth of the in-flight bytes apart keep four queues' worth
 * in a window, and a run that never fills one is its own peak.
 */
static void test_bw_queue_drain(void **state)
{
	const uint64_t inflight = 4096ULL * 4 * 64; /* -q 4096 -t 4 -s 64 */
	struct rb_bw_window w, each;
	uint64_t t = T0, bytes = 0;
	double avg;
	int i;

	(void)state;
	rb_bw_window_init(&w, T0, inflight);
	rb_bw_window_init(&each, T0, 0);
	/* 20000 messages of 64 B: 1 ms a signaled chain of 64 ... */
	for (i = 0; i < 200; i++) {
		t += 1000000;
		bytes += 64 * 64;
		rb_bw_window_mark(&w, t, bytes);
		rb_bw_window_mark(&each, t, bytes);
	}
	/* ... then the rest reaped 100 ns a poll. */
	for (i = 0; i < 112; i++) {
		t += 100;
		bytes += 64 * 64;
		rb_bw_window_mark(&w, t, bytes);
		rb_bw_window_mark(&each, t, bytes);
	}
	avg = rb_gbps(bytes, t - T0);
	assert_true(rb_bw_window_peak(&each, bytes, t) > 100 * avg);
	assert_rel(rb_bw_window_peak(&w, bytes, t), avg, 1e-12);
	assert_true(w.n < RB_BW_WINDOW);

	/* A steady run long enough fills windows of 1/16 steps: its rate. */
	rb_bw_window_init(&w, T0, 16 * MSG);
	t = T0;
	bytes = 0;
	for (i = 0; i < 10000; i++)
		step(&w, &t, &bytes, 1000);
	assert_int_equal(w.n, RB_BW_WINDOW);
	assert_rel(rb_bw_window_peak(&w, bytes, t), 32.768, 1e-9);
}

static void test_bw_constant_memory(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	long i;

	(void)state;
	assert_true(sizeof(struct rb_bw_window) < 2048);
	rb_bw_window_init(&w, T0, 0);
	for (i = 0; i < 1000000; i++) {
		t += 500;
		bytes += 64;
		rb_bw_window_mark(&w, t, bytes);
	}
	assert_true(w.n <= RB_BW_WINDOW);
	assert_true(w.head < RB_BW_WINDOW);
	assert_rel(rb_bw_window_peak(&w, bytes, t), 64.0 * 8 / 500, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perftest_twelve),
		cmocka_unit_test(test_perftest_thousand),
		cmocka_unit_test(test_summary_1_to_100),
		cmocka_unit_test(test_summary_units),
		cmocka_unit_test(test_summary_one_way),
		cmocka_unit_test(test_summary_unsorted),
		cmocka_unit_test(test_summary_single),
		cmocka_unit_test(test_summary_1000),
		cmocka_unit_test(test_summary_stdev),
		cmocka_unit_test(test_summary_empty),
		cmocka_unit_test(test_percentile_rank),
		cmocka_unit_test(test_percentile_rank_large_n),
		cmocka_unit_test(test_samples_growth),
		cmocka_unit_test(test_samples_bounded),
		cmocka_unit_test(test_hist_buckets),
		cmocka_unit_test(test_hist_relative_error),
		cmocka_unit_test(test_hist_vs_exact),
		cmocka_unit_test(test_samples_switch),
		cmocka_unit_test(test_samples_slices),
		cmocka_unit_test(test_buckets_even),
		cmocka_unit_test(test_buckets_tail),
		cmocka_unit_test(test_buckets_narrow),
		cmocka_unit_test(test_buckets_bucketed),
		cmocka_unit_test(test_slice_keeps_order),
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_bw_steady),
		cmocka_unit_test(test_bw_burst),
		cmocka_unit_test(test_bw_dip),
		cmocka_unit_test(test_bw_queue_drain),
		cmocka_unit_test(test_bw_early_burst),
		cmocka_unit_test(test_bw_few_marks),
		cmocka_unit_test(test_bw_constant_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
