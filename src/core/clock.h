/* SPDX-License-Identifier: MIT */
/*
 * Clocks.
 *
 * Samples are taken with the CPU's cycle counter (x86 TSC, ARM generic
 * timer): one instruction, ~10 ns, and cheap even in VMs whose kernel
 * clocksource is emulated (there clock_gettime() can cost microseconds).
 * Ticks become nanoseconds through a ratio calibrated against
 * CLOCK_MONOTONIC_RAW over each measured point, so no tick frequency is
 * assumed; it needs a constant-rate counter, which every x86 CPU with
 * constant_tsc and every ARMv8 generic timer has.
 * rb_now_ns() is for timeouts, durations and the calibration itself.
 */
#ifndef RB_CLOCK_H
#define RB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t rb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rb_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return rb_now_ns();
#endif
}

/*
 * rb_ticks_due() - whether tick @k has reached @next, a deadline set
 * @period ticks ahead of an earlier reading.  A @k more than @period
 * behind it counts as due: an unpinned thread moved to a CPU whose TSC
 * reads behind (a kernel that marked the TSC unstable: a 40-vCPU guest
 * under TCG does), and a gate on ticks must not hold it past its period.
 */
static inline bool rb_ticks_due(uint64_t k, uint64_t next, uint64_t period)
{
	return k >= next || next - k > period;
}

/* What rb_ticks() counts, as the JSON's tick_clock names it (-C). */
static inline const char *rb_tick_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return "tsc";
#elif defined(__aarch64__)
	return "cntvct";
#else
	return "ns";
#endif
}

/* CPU time consumed by the calling thread, in ns. */
static inline uint64_t rb_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
