// SPDX-License-Identifier: MIT
/*
 * Unit tests for --probe's pure parts (src/engine/probe.c): how many idle
 * round trips a point takes, the pace of the pings, and the summary of a
 * phase's round trips from ticks.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "engine/probe.h"

static void idle_count(void **state)
{
	(void)state;
	/* 0.2 s worth, 20..200. */
	assert_int_equal(rb_probe_idle_count(10), RB_PROBE_IDLE_MIN);
	assert_int_equal(rb_probe_idle_count(100), RB_PROBE_IDLE_MIN);
	assert_int_equal(rb_probe_idle_count(500), 100);
	assert_int_equal(rb_probe_idle_count(1000), RB_PROBE_IDLE_MAX);
	assert_int_equal(rb_probe_idle_count(0), RB_PROBE_IDLE_MAX); /* the default, 1 kHz */
	assert_int_equal(rb_probe_idle_count(100000), RB_PROBE_IDLE_MAX);
}

static void pace(void **state)
{
	(void)state;
	assert_int_equal(rb_probe_period_ns(1000), 1000000);
	assert_int_equal(rb_probe_period_ns(0), 1000000);
	assert_int_equal(rb_probe_period_ns(10), 100000000);
	assert_int_equal(rb_probe_period_ns(100000), 10000);
	/* On time: a period later, whatever the round trip took within it. */
	assert_int_equal(rb_probe_next(5000, 5300, 1000), 6000);
	/* Late by less than a period: still the schedule (it catches up). */
	assert_int_equal(rb_probe_next(5000, 6900, 1000), 6000);
	/* Late by more: now, no burst of pings to catch up. */
	assert_int_equal(rb_probe_next(5000, 7001, 1000), 7001);
}

static void summary(void **state)
{
	struct rb_samples s = { 0 };
	struct rb_lat_summary l;
	uint64_t i;

	(void)state;
	assert_int_equal(rb_probe_summary(&s, 1000, 1000, &l), -EINVAL);
	/* Round trips of 10..109 ticks at 2 ticks a nanosecond. */
	for (i = 0; i < 100; i++)
		assert_int_equal(rb_samples_push(&s, 10 + (i * 37) % 100), 0);
	assert_int_equal(rb_probe_summary(&s, 2000, 0, &l), -EINVAL);
	assert_int_equal(rb_probe_summary(&s, 0, 1000, &l), -EINVAL);
	assert_int_equal(rb_probe_summary(&s, 2000000, 1000000, &l), 0);
	assert_float_equal(l.min, 0.005, 1e-9);
	assert_float_equal(l.max, 0.0545, 1e-9);
	assert_float_equal(l.p50, 0.0295, 1e-9); /* rank 50: 59 ticks */
	assert_float_equal(l.p99, 0.054, 1e-9);	 /* rank 99: 108 ticks */
	assert_false(l.bucketed);
	rb_samples_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(idle_count),
		cmocka_unit_test(pace),
		cmocka_unit_test(summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
