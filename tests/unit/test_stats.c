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

#include "stats.h"

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

static void push_all(struct rb_samples *s, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(rb_samples_push(s, v[i]), 0);
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
	assert_near(l.min, 1, 0);
	assert_near(l.p50, 50, 0);
	assert_near(l.p90, 90, 0);
	assert_near(l.p99, 99, 0);
	assert_near(l.p999, 100, 0);
	assert_near(l.max, 100, 0);
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
	assert_near(l.min, 1.0, 1e-12);
	assert_near(l.p50, 2.0, 1e-12);
	assert_near(l.avg, 2.0, 1e-12);
	assert_near(l.p90, 3.0, 1e-12);
	assert_near(l.p99, 3.0, 1e-12);
	assert_near(l.p999, 3.0, 1e-12);
	assert_near(l.max, 3.0, 1e-12);
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
	assert_near(l.min, 0.5, 1e-12);
	assert_near(l.p50, 1.0, 1e-12);
	assert_near(l.avg, 1.25, 1e-12);
	assert_near(l.p90, 2.0, 1e-12);
	assert_near(l.p99, 2.0, 1e-12);
	assert_near(l.p999, 2.0, 1e-12);
	assert_near(l.max, 2.0, 1e-12);
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
	assert_near(l.min, 1, 0);
	assert_near(l.p50, 50, 0);
	assert_near(l.p90, 90, 0);
	assert_near(l.p99, 99, 0);
	assert_near(l.p999, 100, 0);
	assert_near(l.max, 100, 0);
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
	assert_near(l.min, 1.234, 1e-12);
	assert_near(l.p50, 1.234, 1e-12);
	assert_near(l.avg, 1.234, 1e-12);
	assert_near(l.p90, 1.234, 1e-12);
	assert_near(l.p99, 1.234, 1e-12);
	assert_near(l.p999, 1.234, 1e-12);
	assert_near(l.max, 1.234, 1e-12);
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

static void test_bw_steady(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	double peak;
	int i;

	(void)state;
	rb_bw_window_init(&w, T0);
	for (i = 0; i < 1000; i++) {
		t += 1000;
		bytes += MSG;
		rb_bw_window_mark(&w, t, bytes);
	}
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
	rb_bw_window_init(&w, T0);
	/*
	 * 4 KiB every 1000 ns on average, but every 250 ns for marks
	 * 300..499.  Completions jitter (500/1500, then 100/400 ns), so only
	 * a window of RB_BW_WINDOW intervals sees the smooth rate: a single
	 * 100 ns gap would read 327 Gb/s.
	 */
	for (i = 0; i < 1000; i++) {
		if (i >= 300 && i < 500)
			t += i % 2 ? 400 : 100;
		else
			t += i % 2 ? 1500 : 500;
		bytes += MSG;
		rb_bw_window_mark(&w, t, bytes);
	}
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
	rb_bw_window_init(&w, T0);
	for (i = 0; i < 1000; i++) {
		t += i == 500 ? 2000000 : 1000;
		bytes += MSG;
		rb_bw_window_mark(&w, t, bytes);
	}
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
	rb_bw_window_init(&w, T0);
	for (i = 0; i < 1000; i++) {
		t += i < 3 ? 10 : 1000;
		bytes += MSG;
		rb_bw_window_mark(&w, t, bytes);
	}
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
	rb_bw_window_init(&w, T0);
	for (i = 0; i < 10; i++) {
		t += i < 5 ? 100 : 1000;
		bytes += MSG;
		rb_bw_window_mark(&w, t, bytes);
	}
	peak = rb_bw_window_peak(&w, bytes, t);
	assert_rel(peak, rb_gbps(bytes, t - T0), 1e-12);
	assert_rel(peak, 40960.0 * 8 / 5500, 1e-12);

	/* The run may end after the last mark: the whole run still counts. */
	peak = rb_bw_window_peak(&w, bytes, t + 4500);
	assert_rel(peak, 40960.0 * 8 / 10000, 1e-12);

	/* No mark at all. */
	rb_bw_window_init(&w, T0);
	peak = rb_bw_window_peak(&w, 8192, T0 + 2000);
	assert_rel(peak, 8192.0 * 8 / 2000, 1e-12);
}

static void test_bw_constant_memory(void **state)
{
	struct rb_bw_window w;
	uint64_t t = T0, bytes = 0;
	long i;

	(void)state;
	assert_true(sizeof(struct rb_bw_window) < 2048);
	rb_bw_window_init(&w, T0);
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
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_bw_steady),
		cmocka_unit_test(test_bw_burst),
		cmocka_unit_test(test_bw_dip),
		cmocka_unit_test(test_bw_early_burst),
		cmocka_unit_test(test_bw_few_marks),
		cmocka_unit_test(test_bw_constant_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
