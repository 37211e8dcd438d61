// SPDX-License-Identifier: MIT
/*
 * --threads without threads: the run's figures from its threads' (sums,
 * the longest duration, no latency), their placements merged, the JSON
 * "threads" array, and the CPU each thread takes of an explicit --cpu list.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/output.h"
#include "session/session.h"
#include "session/threads.h"

/* cmocka's float assertions round to float: doubles here. */
#define assert_near(got, want, tol) assert_true(fabs((double)(got) - (double)(want)) <= (tol))

static struct rb_result bw(double gbps, double peak, double mpps, double dur, double cpu, double ns)
{
	struct rb_result r = { .pt = { 65536, 1, 64, 1, 128 }, .iters = 1000 };

	r.duration_s = dur;
	r.has_bw = r.has_cpu = r.has_peer = true;
	r.bw_avg_gbps = gbps;
	r.bw_peak_gbps = peak;
	r.msg_rate_mpps = mpps;
	r.cpu_util_pct = cpu;
	r.cpu_ns_per_msg = ns;
	r.peer_cpu_util_pct = cpu / 2;
	r.peer_bw_avg_gbps = gbps;
	return r;
}

static void test_aggregate_bw(void **state)
{
	struct rb_result per[3], agg;

	(void)state;
	/* Iterations as the rates over the durations make them. */
	per[0] = bw(10, 12, 2, 1.0, 100, 500);
	per[0].iters = 2000000;
	per[1] = bw(20, 25, 4, 2.0, 50, 100);
	per[1].iters = 8000000;
	per[2] = bw(5, 6, 1, 0.5, 10, 1000);
	per[2].iters = 500000;
	rb_threads_aggregate(per, 3, &agg);
	assert_int_equal(agg.pt.size, 65536);
	assert_int_equal(agg.pt.tx_depth, 128);
	assert_int_equal(agg.iters, 10500000);
	assert_true(agg.has_bw && agg.has_cpu && agg.has_peer);
	assert_false(agg.has_lat);
	assert_near(agg.duration_s, 2.0, 1e-12);
	assert_near(agg.bw_avg_gbps, 35, 1e-12);
	assert_near(agg.bw_peak_gbps, 43, 1e-12);
	assert_near(agg.msg_rate_mpps, 7, 1e-12);
	assert_near(agg.cpu_util_pct, 160, 1e-12);
	assert_near(agg.peer_cpu_util_pct, 80, 1e-12);
	assert_near(agg.peer_bw_avg_gbps, 35, 1e-12);
	/* ns per message over all messages: (2e6*500 + 8e6*100 + 0.5e6*1000) / 10.5e6 */
	assert_near(agg.cpu_ns_per_msg, 2.3e9 / 10.5e6, 1e-9);
	assert_null(agg.diag);
	assert_int_equal(agg.thread_row, 0);

	/* One thread: its own figures. */
	rb_threads_aggregate(per, 1, &agg);
	assert_near(agg.bw_avg_gbps, 10, 1e-12);
	assert_near(agg.cpu_ns_per_msg, 500, 1e-12);
}

/*
 * A thread whose peer measured nothing sent NaN figures: the peer's total
 * is unknown and says why; a run measures nothing only if no thread did.
 */
static void test_aggregate_nothing(void **state)
{
	struct rb_result per[2], agg;

	(void)state;
	per[0] = bw(10, 12, 2, 1.0, 100, 500);
	per[1] = bw(20, 25, 4, 2.0, 50, 100);
	per[1].peer_nothing_measured = true;
	per[1].peer_bw_avg_gbps = per[1].peer_cpu_util_pct = NAN;
	rb_threads_aggregate(per, 2, &agg);
	assert_true(agg.peer_nothing_measured);
	assert_true(isnan(agg.peer_bw_avg_gbps));
	assert_false(agg.nothing_measured);
	assert_near(agg.bw_avg_gbps, 30, 1e-12);

	per[0].nothing_measured = per[1].nothing_measured = true;
	per[0].duration_s = per[1].duration_s = NAN;
	per[0].iters = per[1].iters = 0;
	rb_threads_aggregate(per, 2, &agg);
	assert_true(agg.nothing_measured);
	assert_true(isnan(agg.duration_s));
}

/* --probe: one thread probed (thread 0); the run's row has its summaries whole. */
static void test_aggregate_probe(void **state)
{
	struct rb_result per[2], agg;

	(void)state;
	per[0] = bw(10, 12, 2, 1.0, 100, 500);
	per[1] = bw(20, 25, 4, 2.0, 50, 100);
	per[0].has_probe = true;
	per[0].probe_idle = (struct rb_lat_summary){ .min = 1, .p50 = 2, .p99 = 3, .max = 4 };
	per[0].probe_loaded = (struct rb_lat_summary){ .min = 5, .p50 = 6, .p99 = 7, .max = 8 };
	per[0].probe_idle_n = 200;
	per[0].probe_loaded_n = 3000;
	rb_threads_aggregate(per, 2, &agg);
	assert_true(agg.has_probe);
	assert_near(agg.probe_idle.p50, 2, 0);
	assert_near(agg.probe_loaded.max, 8, 0);
	assert_int_equal(agg.probe_idle_n, 200);
	assert_int_equal(agg.probe_loaded_n, 3000);
	per[0].has_probe = false;
	rb_threads_aggregate(per, 2, &agg);
	assert_false(agg.has_probe);
	assert_int_equal(agg.probe_loaded_n, 0);
}

/*
 * The run's setup (issue 37 item 11): not thread 0's alone.  The QPs of
 * every thread add up, each time is the longest thread's (they set up at
 * once), the destroy time is there when every thread measured it, and a
 * time one thread lacks makes the run's unknown.
 */
static void test_setup(void **state)
{
	struct rb_setup per[3] = {
		{ .on = true,
		  .qps = 4,
		  .create_ms = 2,
		  .connect_ms = 9,
		  .destroy_ms = 1,
		  .peer_on = true,
		  .peer_qps = 4,
		  .peer_create_ms = 3,
		  .peer_connect_ms = 1 },
		{ .on = true,
		  .qps = 4,
		  .create_ms = 5,
		  .connect_ms = 3,
		  .destroy_ms = 0.5,
		  .peer_on = true,
		  .peer_qps = 4,
		  .peer_create_ms = 1,
		  .peer_connect_ms = 7 },
		{ .on = true,
		  .qps = 4,
		  .create_ms = 1,
		  .connect_ms = 4,
		  .destroy_ms = 2.5,
		  .peer_on = true,
		  .peer_qps = 4,
		  .peer_create_ms = 2,
		  .peer_connect_ms = 2 },
	};
	struct rb_setup su;

	(void)state;
	rb_threads_setup(per, 3, &su);
	assert_true(su.on && su.peer_on);
	assert_int_equal(su.qps, 12);
	assert_int_equal(su.peer_qps, 12);
	assert_near(su.create_ms, 5, 0);
	assert_near(su.connect_ms, 9, 0);
	assert_near(su.destroy_ms, 2.5, 0);
	assert_near(su.peer_create_ms, 3, 0);
	assert_near(su.peer_connect_ms, 7, 0);
	/* A thread still running (no destroy yet), a server that said nothing. */
	per[1].destroy_ms = -1;
	per[2].peer_on = false;
	rb_threads_setup(per, 3, &su);
	assert_true(su.destroy_ms < 0);
	assert_near(su.connect_ms, 9, 0);
	assert_false(su.peer_on);
}

/* Where @want first comes in @st (@n steps) at or after @from; @n when not. */
static size_t step_at(const enum rb_point_step *st, size_t n, size_t from, enum rb_point_step want)
{
	while (from < n && st[from] != want)
		from++;
	return from;
}

static size_t count_of(const enum rb_point_step *st, size_t n, enum rb_point_step want)
{
	size_t k, c = 0;

	for (k = 0; k < n; k++)
		c += st[k] == want;
	return c;
}

/*
 * --threads N --probe (issue 37 item 1): thread 0's idle pings come after
 * a barrier of every thread and before another, which every thread's
 * START follows: no thread streams while they run, and the streams start
 * together.  Every thread meets at as many barriers (or the run hangs).
 */
static void test_point_steps(void **state)
{
	enum rb_point_step t0[RB_POINT_STEPS_MAX], t1[RB_POINT_STEPS_MAX];
	size_t n0, n1, idle, start;

	(void)state;
	n0 = rb_point_steps(true, true, true, t0);
	n1 = rb_point_steps(true, true, false, t1);
	idle = step_at(t0, n0, 0, RB_STEP_IDLE);
	assert_true(idle < n0);
	assert_true(step_at(t0, n0, 0, RB_STEP_THREADS) < idle);
	start = step_at(t0, n0, idle, RB_STEP_START);
	assert_true(start < n0);
	if (step_at(t0, n0, idle, RB_STEP_THREADS) > start)
		fail_msg("thread 0's idle pings are not followed by a barrier of the threads "
			 "before its START: the other threads stream during them");
	assert_true(step_at(t0, n0, start, RB_STEP_LOADED) < n0);
	assert_int_equal(count_of(t0, n0, RB_STEP_THREADS), count_of(t1, n1, RB_STEP_THREADS));
	assert_int_equal(count_of(t1, n1, RB_STEP_IDLE) + count_of(t1, n1, RB_STEP_LOADED), 0);
	/* Thread 1 passes its last barrier just before its START. */
	assert_int_equal(t1[n1 - 1], RB_STEP_START);
	assert_int_equal(t1[n1 - 2], RB_STEP_THREADS);
	/* Without threads: idle, START, loaded; without --probe: one barrier. */
	n0 = rb_point_steps(false, true, true, t0);
	assert_int_equal(n0, 3);
	assert_int_equal(t0[0], RB_STEP_IDLE);
	assert_int_equal(t0[1], RB_STEP_START);
	assert_int_equal(t0[2], RB_STEP_LOADED);
	n0 = rb_point_steps(true, false, false, t0);
	assert_int_equal(n0, 2);
	assert_int_equal(t0[0], RB_STEP_THREADS);
	assert_int_equal(t0[1], RB_STEP_START);
}

/*
 * Latency does not add: the run's row has none.  A latency test has no
 * message rate, yet its CPU per operation is the threads' weighed by
 * their operations (it was 0, weighed by a rate of 0).
 */
static void test_aggregate_lat(void **state)
{
	struct rb_result per[2] = { { .iters = 100, .duration_s = 0.25, .has_lat = true },
				    { .iters = 120, .duration_s = 0.5, .has_lat = true } };
	struct rb_result agg;

	(void)state;
	per[0].lat.p50 = 5;
	per[1].lat.p50 = 9;
	per[0].has_cpu = per[1].has_cpu = true;
	per[0].cpu_util_pct = 80;
	per[0].cpu_ns_per_msg = 2000;
	per[1].cpu_util_pct = 24;
	per[1].cpu_ns_per_msg = 1000;
	rb_threads_aggregate(per, 2, &agg);
	assert_false(agg.has_lat);
	assert_false(agg.has_bw);
	assert_true(agg.has_cpu);
	assert_int_equal(agg.iters, 220);
	assert_near(agg.duration_s, 0.5, 1e-12);
	assert_near(agg.lat.p50, 0, 0);
	assert_near(agg.msg_rate_mpps, 0, 0);
	assert_near(agg.cpu_util_pct, 104, 1e-12);
	/* (100 * 2000 + 120 * 1000) ns over 220 operations */
	assert_near(agg.cpu_ns_per_msg, 320000.0 / 220, 1e-9);
	assert_false(agg.has_wakeups);
	/* --poll event: the threads' wake-ups over their operations. */
	per[0].has_wakeups = per[1].has_wakeups = true;
	per[0].wakeups = 90;
	per[0].wakeups_per_msg = 90.0 / 100;
	per[1].wakeups = 130;
	per[1].wakeups_per_msg = 130.0 / 120;
	rb_threads_aggregate(per, 2, &agg);
	assert_true(agg.has_wakeups);
	assert_int_equal(agg.wakeups, 220);
	assert_near(agg.wakeups_per_msg, 1.0, 1e-12);
	/* No operations: nothing to weigh, 0. */
	per[0].iters = per[1].iters = 0;
	rb_threads_aggregate(per, 2, &agg);
	assert_near(agg.cpu_ns_per_msg, 0, 0);
	rb_threads_aggregate(per, 0, &agg);
	assert_int_equal(agg.iters, 0);
}

static void test_place_merge(void **state)
{
	struct rb_placement pl[3] = {
		{ .device_numa_node = 1, .cpus = "2", .mem_node = 1, .local = 1 },
		{ .device_numa_node = 1, .cpus = "3", .mem_node = 1, .local = 1 },
		{ .device_numa_node = 1, .cpus = "0", .mem_node = 1, .local = 0 },
	};
	struct rb_placement out;

	(void)state;
	rb_threads_place_merge(pl, 2, &out);
	assert_string_equal(out.cpus, "2-3");
	assert_int_equal(out.local, 1);
	assert_int_equal(out.device_numa_node, 1);
	assert_int_equal(out.mem_node, 1);
	rb_threads_place_merge(pl, 3, &out);
	assert_string_equal(out.cpus, "0 2-3");
	assert_int_equal(out.local, 0);
	/* Unknown wins over local, remote over unknown. */
	pl[1].local = -1;
	rb_threads_place_merge(pl, 2, &out);
	assert_int_equal(out.local, -1);
	rb_threads_place_merge(pl, 3, &out);
	assert_int_equal(out.local, 0);
	/* Into the first (hook_placed(): the CPUs so far, then this
	 * thread's): every thread's CPUs go to HELLO, not the last one's. */
	rb_threads_place_merge(pl, 3, &pl[0]);
	assert_string_equal(pl[0].cpus, "0 2-3");
	/* Unbound threads: no CPUs. */
	pl[0].cpus[0] = pl[1].cpus[0] = '\0';
	rb_threads_place_merge(pl, 2, &out);
	assert_string_equal(out.cpus, "");
}

static void test_json(void **state)
{
	struct rb_result per[2] = { bw(10, 12, 2, 1, 100, 500), bw(20, 25, 4, 2, 50, 100) };
	struct rb_placement pl[2] = { { .device_numa_node = 1, .cpus = "2", .local = 1 },
				      { .device_numa_node = 1, .cpus = "3", .local = 1 } };
	struct rb_placement peer[2] = { { .device_numa_node = 1, .cpus = "0", .local = 0 },
					{ .device_numa_node = 1, .cpus = "1", .local = 0 } };
	json_t *a = rb_threads_json(per, pl, peer, 2), *t;

	(void)state;
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 2);
	t = json_array_get(a, 1);
	assert_int_equal(json_integer_value(json_object_get(t, "thread")), 1);
	assert_near(json_real_value(json_object_get(t, "bw_avg_gbps")), 20, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(t, "size")), 65536);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(t, "placement"), "cpus")), "3");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(t, "peer_placement"), "cpus")),
		"1");
	assert_true(json_is_false(json_object_get(json_object_get(t, "peer_placement"), "local")));
	json_decref(a);
}

static void test_cpu_list(void **state)
{
	char cpu[16], err[256];

	(void)state;
	assert_int_equal(rb_threads_cpu("2,5-6", 0, 3, cpu, sizeof(cpu), err, sizeof(err)), 0);
	assert_string_equal(cpu, "2");
	assert_int_equal(rb_threads_cpu("2,5-6", 2, 3, cpu, sizeof(cpu), err, sizeof(err)), 0);
	assert_string_equal(cpu, "6");
	assert_int_equal(rb_threads_cpu("2,5", 0, 3, cpu, sizeof(cpu), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--cpu 2,5: --threads 3 needs a CPU per thread"));
	assert_int_equal(rb_threads_cpu("x", 0, 1, cpu, sizeof(cpu), err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggregate_bw),	cmocka_unit_test(test_aggregate_nothing),
		cmocka_unit_test(test_aggregate_lat),	cmocka_unit_test(test_place_merge),
		cmocka_unit_test(test_aggregate_probe), cmocka_unit_test(test_json),
		cmocka_unit_test(test_cpu_list),	cmocka_unit_test(test_setup),
		cmocka_unit_test(test_point_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
