// SPDX-License-Identifier: MIT
/*
 * Unit tests of the data path on the fake provider: --interval slices,
 * --rate pacing on the test's clock, -D 0 and a loop cut short.
 */
#include "xfer_fx.h"

/* ---- intervals and pace ------------------------------------------------ */

/*
 * The slices of a point partition it: contiguous, none ended before its
 * place in the schedule (slice i at (i + 1) x @iv_s) but the last, their
 * operations adding up to the point's, and its time but for an empty
 * sliver at the end.  How late one ends depends on the host's load: not
 * checked.
 */
static void check_slices(const struct rb_run *r, double iv_s, bool lat)
{
	double point_s = (double)(r->t1 - r->t0) / 1e9, t = 0;
	uint64_t sum = 0;
	size_t i;

	if (r->iv.n < 1 || (double)r->iv.n > point_s / iv_s + 2)
		fail_msg("%zu slices in %.3f s of %.3f s each", r->iv.n, point_s, iv_s);
	for (i = 0; i < r->iv.n; i++) {
		const struct rb_interval *v = &r->iv.list[i];

		sum += v->ops;
		assert_true(fabs(v->start_s - t) < 1e-6);
		t += v->duration_s;
		if (i + 1 < r->iv.n && t < (double)(i + 1) * iv_s - 1e-6)
			fail_msg("slice %zu ended early: at %.6f s", i, t);
		assert_int_equal(v->has_lat, lat && v->ops);
		if (v->has_lat)
			assert_true(v->lat.min <= v->lat.p50 && v->lat.p50 <= v->lat.max);
	}
	expect_eq(sum, r->ops);
	/* All of the point's time, but an empty sliver at its end. */
	assert_true(t <= point_s + 1e-6 && point_s - t < iv_s / 2 + 1e-6);
}

static size_t shown;

static void count_shown(void *c, const struct rb_run *r, const struct rb_interval *iv)
{
	(void)c;
	(void)iv;
	assert_true(r->iv.n == shown + 1);
	shown++;
}

/* -D 1 --interval 0.2: five slices (one more for the remainder), shown live. */
static void stream_intervals(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 2, 4, 8, 32);
	x.p.iters = 0;
	x.p.duration_s = 1;
	x.p.interval_ms = 200;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 2;
	x.r.iv.on_end = count_shown;
	shown = 0;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(rb_iv_finish(&x.r), 0);
	assert_int_equal(rb_iv_finish(&x.r), 0); /* idempotent */
	check_covered(&x);
	check_slices(&x.r, 0.2, false);
	assert_int_equal(shown, x.r.iv.n);
	fx_end(&x);
}

/* Without --interval: no slice, and the loop never looks. */
static void stream_no_intervals(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	x.p.iters = 500;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.iv.next, UINT64_MAX);
	assert_int_equal(rb_iv_finish(&x.r), 0);
	assert_int_equal(x.r.iv.n, 0);
	fx_end(&x);
}

/*
 * send_lat -D 1 --interval @ms, run to its end (slices not finished),
 * keeping @max samples exactly (0: RB_SAMPLES_EXACT_MAX).
 */
static void lat_slices_run(struct fx *x, uint32_t ms, size_t max)
{
	fx_plan(x, "send_lat");
	x->p.iters = 0;
	x->p.duration_s = 1;
	x->p.interval_ms = ms;
	fx_start(x, RB_ROLE_CLIENT, 2000);
	x->r.lat.max = max;
	x->f->loopback = true;
	x->f->delay = 1;
	assert_false(rb_run_cut(&x->r)); /* nothing measured yet */
	assert_int_equal(x->r.bench->setup(&x->r), 0);
	assert_int_equal(x->r.bench->prepare(&x->r), 0);
	assert_int_equal(x->r.bench->run(&x->r), 0);
}

/* send_lat's slices carry the percentiles of their own samples. */
static void pingpong_intervals(void **state)
{
	struct fx x;

	(void)state;
	lat_slices_run(&x, 250, 0);
	assert_int_equal(rb_iv_finish(&x.r), 0);
	check_slices(&x.r, 0.25, true);
	expect_eq(x.r.lat.n, x.r.ops);
	fx_end(&x);
}

/*
 * Issue 21 item 11: a -D ping-pong past the samples it may keep goes on in
 * bounded memory, its point and slices from buckets, and says so.
 */
static void pingpong_bucketed(void **state)
{
	struct rb_result res;
	struct fx x;
	size_t i;

	(void)state;
	lat_slices_run(&x, 250, 100);
	assert_int_equal(rb_iv_finish(&x.r), 0);
	if (x.r.lat.n <= 200)
		fail_msg("only %zu round trips in 1 s", x.r.lat.n);
	assert_true(x.r.lat.cap <= 100);
	assert_non_null(x.r.lat.h);
	check_slices(&x.r, 0.25, true);
	expect_eq(x.r.lat.n, x.r.ops);
	/* The first slice switched, or came before the switch; the rest are
	 * bucketed. */
	for (i = 1; i < x.r.iv.n; i++)
		assert_true(x.r.iv.list[i].lat.bucketed);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	assert_true(res.has_lat);
	assert_true(res.lat.bucketed);
	assert_true(res.lat.min <= res.lat.p50 && res.lat.p50 <= res.lat.p99 &&
		    res.lat.p99 <= res.lat.max);
	rb_result_free(&res);
	fx_end(&x);
}

/*
 * --rate 5Kpps over -D 1: never more than the rate and one bucket (10 ms
 * of the rate or one send queue, 64); the lower bound is loose, as a
 * loaded host preempts the loop (test_shape checks the arithmetic).
 */
/*
 * The test's clock: clock_gettime() is wrapped (-Wl,--wrap), and while
 * vclock.on CLOCK_MONOTONIC_RAW, which rb_now_ns() reads for durations
 * and --rate's pace, is a counter that each read moves on by vclock.step
 * ns: the loop's time is then the fake's, whatever the host's load.
 */
static struct {
	bool on;
	uint64_t now, step;
} vclock;

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	if (!vclock.on || id != CLOCK_MONOTONIC_RAW)
		return __real_clock_gettime(id, ts);
	vclock.now += vclock.step;
	ts->tv_sec = (time_t)(vclock.now / 1000000000ULL);
	ts->tv_nsec = (long)(vclock.now % 1000000000ULL);
	return 0;
}

/*
 * --rate RATE for -D 1 on the test's clock: the messages measured are the
 * target over the point's duration, within a send queue's worth (the
 * bucket holds -t 64, and starts empty), both ways: a pacer that falls
 * short of its target fails here as one that exceeds it does.
 */
static void paced_one(uint64_t rate, uint8_t unit, uint64_t size)
{
	double want, got;
	struct fx x;

	fx_plan(&x, "write_bw");
	fx_shape(&x, 1, 4, 16, 64);
	rb_axis_set1(&x.p.size, size);
	x.p.iters = 0;
	x.p.duration_s = 1;
	x.p.warmup = 0;
	x.p.rate = rate;
	x.p.rate_unit = unit;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	vclock = (typeof(vclock)){ .on = true, .now = 1000000000ULL, .step = 1000 };
	assert_int_equal(rb_run_stream(&x.r), 0);
	vclock.on = false;
	check_covered(&x);
	want = rb_rate_msgs_per_s(rate, unit, size) * (double)(x.r.t1 - x.r.t0) / 1e9;
	got = (double)x.r.ops;
	if (x.r.t1 - x.r.t0 < 1000000000ULL || got < want - 64 || got > want + 64)
		fail_msg("--rate %llu%s -s %llu: %.0f messages in %.3f s, want %.0f (+-64)",
			 (unsigned long long)rate, unit == RB_RATE_PPS ? "pps" : "bps",
			 (unsigned long long)size, got, (double)(x.r.t1 - x.r.t0) / 1e9, want);
	fx_end(&x);
}

static void stream_paced(void **state)
{
	(void)state;
	/* Calibrated on the host's clock once, before the test's runs. */
	assert_true(rb_ticks_per_ms() > 0);
	paced_one(5000, RB_RATE_PPS, 64);
	paced_one(20000, RB_RATE_PPS, 4096);
	/* 64 B at 2.56 Mb/s: 5000 messages a second. */
	paced_one(2560000, RB_RATE_BPS, 64);
}

/* -D 0: the loop runs until the stop the first signal asks for. */
static void stream_forever_stops(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	x.p.iters = 0;
	x.p.forever = 1;
	x.p.warmup = 5;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	rb_stop_asked = SIGINT;
	assert_int_equal(rb_run_stream(&x.r), 0);
	rb_stop_asked = 0;
	check_covered(&x);
	assert_true(x.r.ops > 0);
	fx_end(&x);
}

/* A loop cut short: what completed is the point, its slices kept. */
static void pingpong_cut(void **state)
{
	struct fx x;

	(void)state;
	lat_slices_run(&x, 100, 0);
	/* As if the run had stopped at once: t1 unset, samples kept. */
	x.r.t1 = 0;
	x.r.ops = 0;
	assert_true(rb_run_cut(&x.r));
	expect_eq(x.r.ops, x.r.lat.n);
	assert_int_equal(rb_iv_finish(&x.r), 0);
	check_slices(&x.r, 0.1, true);
	fx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stream_intervals),   cmocka_unit_test(stream_no_intervals),
		cmocka_unit_test(pingpong_intervals), cmocka_unit_test(pingpong_bucketed),
		cmocka_unit_test(stream_paced),	      cmocka_unit_test(stream_forever_stops),
		cmocka_unit_test(pingpong_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
