/* SPDX-License-Identifier: MIT */
/*
 * Latency summaries and bandwidth windows.  Pure: no I/O, no clocks.
 */
#ifndef RB_STATS_H
#define RB_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "rdmabench.h"

/*
 * A growable array of samples, in whatever unit the caller measures (the
 * loops push TSC ticks: clock.h); every sample is kept.
 */
struct rb_samples {
	uint64_t *v;
	size_t n, cap;
};

/* rb_samples_reserve() - make room for @cap samples; 0 or -ENOMEM. */
int rb_samples_reserve(struct rb_samples *s, size_t cap);
/* rb_samples_grow_push() - rb_samples_push() when the array is full. */
int rb_samples_grow_push(struct rb_samples *s, uint64_t v);

/*
 * rb_samples_push() - append one sample, growing as needed; 0 or -ENOMEM.
 * Inline: a ping-pong pushes one per round trip.
 */
static inline int rb_samples_push(struct rb_samples *s, uint64_t v)
{
	if (s->n == s->cap)
		return rb_samples_grow_push(s, v);
	s->v[s->n++] = v;
	return 0;
}
void rb_samples_free(struct rb_samples *s);

/*
 * rb_lat_summarize() - exact statistics over all @s samples (sorted in
 * place), times @scale to make nanoseconds (the tick length, halved for
 * one-way latency from round trips), reported in microseconds.  Percentiles are nearest-rank: the p-th
 * percentile is the sample of rank ceil(p/100 * n).  stdev is the
 * population standard deviation.  Returns -EINVAL when there is no sample.
 */
int rb_lat_summarize(struct rb_samples *s, double scale, struct rb_lat_summary *out);

/* rb_percentile_rank() - 1-based nearest rank of percentile @p of @n. */
size_t rb_percentile_rank(double p, size_t n);

#define RB_BW_WINDOW 64

/*
 * Peak bandwidth over a sliding window of the last RB_BW_WINDOW completion
 * marks, in constant memory whatever the number of iterations.
 */
struct rb_bw_window {
	uint64_t t[RB_BW_WINDOW];
	uint64_t bytes[RB_BW_WINDOW]; /* cumulative bytes at t */
	unsigned int n, head;
	uint64_t t0;
	double peak_gbps;
};

void rb_bw_window_init(struct rb_bw_window *w, uint64_t t0_ns);
/* rb_bw_window_mark() - @total_bytes completed by time @t_ns. */
void rb_bw_window_mark(struct rb_bw_window *w, uint64_t t_ns, uint64_t total_bytes);

/*
 * rb_bw_window_peak() - the best window's Gb/s; when the run had too few
 * marks to fill one window, the whole run is the only window.
 */
double rb_bw_window_peak(const struct rb_bw_window *w, uint64_t total_bytes, uint64_t t_end_ns);

/* Gb/s for @bytes in @ns nanoseconds (10^9 bits per second). */
double rb_gbps(uint64_t bytes, uint64_t ns);

#endif
