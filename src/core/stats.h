/* SPDX-License-Identifier: MIT */
/*
 * Latency summaries and bandwidth windows.  Pure: no I/O, no clocks.
 */
#ifndef RB_STATS_H
#define RB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rdmabench.h"

/*
 * Log-linear buckets (as HdrHistogram's): values below 2^(RB_HIST_BITS+1)
 * each have a bucket of their own; above, every power of two is cut into
 * 2^RB_HIST_BITS buckets of equal width, so a bucket is at most 2^-7 of
 * its lower bound wide.  A bucket's value is its midpoint, within 2^-8
 * (0.39%) of any sample in it.  min, max and the sums for avg and stdev
 * are exact.
 */
#define RB_HIST_BITS	7
#define RB_HIST_SUB	(1U << RB_HIST_BITS)
#define RB_HIST_BUCKETS ((65 - RB_HIST_BITS) * RB_HIST_SUB)

struct rb_hist {
	uint64_t count[RB_HIST_BUCKETS];
	uint64_t n, min, max;
	/* Sums of (sample - ref) and of its square, ref the first sample:
	 * shifted, so that stdev does not cancel out in doubles. */
	double ref, s1, s2;
};

/* rb_hist_index() - the bucket of value @v. */
size_t rb_hist_index(uint64_t v);
/* rb_hist_lower() - the smallest value in bucket @i; rb_hist_width(): how many. */
uint64_t rb_hist_lower(size_t i);
uint64_t rb_hist_width(size_t i);
void rb_hist_reset(struct rb_hist *h);
void rb_hist_add(struct rb_hist *h, uint64_t v);
/* rb_hist_summarize() - as rb_lat_summarize(), from the buckets. */
int rb_hist_summarize(const struct rb_hist *h, double scale, struct rb_lat_summary *out);

/*
 * Samples kept exactly at most (32 MiB of them): beyond, the samples of
 * the point go to buckets (rb_hist), in constant memory however long -D
 * runs; its percentiles are then within 2^-8 of the exact ones.
 */
#define RB_SAMPLES_EXACT_MAX ((size_t)1 << 22)

/*
 * The samples of one point, in whatever unit the caller measures (the
 * loops push TSC ticks: clock.h): a growable array of every sample up to
 * @max, then buckets.  A slice of them (--interval) starts at a mark.
 */
struct rb_samples {
	uint64_t *v;
	size_t n, cap;	   /* samples recorded; room in v (0 once bucketed) */
	size_t max;	   /* samples kept exactly at most; 0: RB_SAMPLES_EXACT_MAX */
	size_t mark;	   /* the slice's first sample */
	bool marked;	   /* a slice is kept: h[1] follows it once bucketed */
	struct rb_hist *h; /* NULL while exact; else [0] every sample, [1] the slice's */
	/* A slice is summarized on a copy here, so that v stays in
	 * measurement order until the point's own summary (--samples). */
	uint64_t *tmp;
	size_t tmp_cap;
};

/* rb_samples_reserve() - make room for @cap samples; 0 or -ENOMEM. */
int rb_samples_reserve(struct rb_samples *s, size_t cap);
/*
 * rb_samples_grow_push() - rb_samples_push() when the array is full: it
 * grows up to @max samples, then every sample goes to the buckets.
 */
int rb_samples_grow_push(struct rb_samples *s, uint64_t v);

/*
 * rb_samples_push() - record one sample, growing as needed; 0 or -ENOMEM.
 * Inline: a ping-pong pushes one per round trip.
 */
static inline int rb_samples_push(struct rb_samples *s, uint64_t v)
{
	if (s->n >= s->cap)
		return rb_samples_grow_push(s, v);
	s->v[s->n++] = v;
	return 0;
}
/* rb_samples_reset() - no sample, exact again (a new point); keeps the array. */
void rb_samples_reset(struct rb_samples *s);
void rb_samples_free(struct rb_samples *s);

/* rb_samples_mark() - a new slice starts with the next sample. */
void rb_samples_mark(struct rb_samples *s);

/* Samples recorded since the mark. */
static inline size_t rb_samples_slice_n(const struct rb_samples *s)
{
	return s->n - s->mark;
}

/*
 * rb_lat_summarize() - statistics over all @s samples, times @scale to
 * make nanoseconds (the tick length, halved for one-way latency from
 * round trips), reported in microseconds.  Percentiles are nearest-rank:
 * the p-th percentile is the sample of rank ceil(p/100 * n); exact while
 * every sample is kept (sorted in place), else the bucket's value
 * (@out->bucketed).  stdev is the population standard deviation.
 * Returns -EINVAL when there is no sample.
 */
int rb_lat_summarize(struct rb_samples *s, double scale, struct rb_lat_summary *out);

/*
 * rb_lat_summarize_slice() - the same over the samples since the mark,
 * sorted in a copy: the samples keep their order.  0, -EINVAL (none) or
 * -ENOMEM.
 */
int rb_lat_summarize_slice(struct rb_samples *s, double scale, struct rb_lat_summary *out);

/*
 * -H: the histogram of a point's samples, in the samples' unit (ticks).
 * From the minimum lo to p99.9 hi (nearest rank), min(RB_LAT_HIST_BODY,
 * hi - lo + 1) buckets of one width w = ceil((hi - lo + 1) / buckets),
 * the smallest whole width that covers hi; then, when some sample is at
 * or past the body's end, one tail bucket up to the maximum.  Bucket i
 * holds v with edge[i] <= v < edge[i+1]; every sample is in one.
 */
struct rb_lat_buckets {
	uint32_t n;    /* buckets: the body's, and one more with a tail */
	uint32_t body; /* equal-width buckets */
	bool tail;
	uint64_t width; /* of a body bucket */
	uint64_t edge[RB_LAT_HIST_MAX + 1];
	uint64_t count[RB_LAT_HIST_MAX];
};

/*
 * rb_lat_buckets() - @out from every sample of @s: exact while the
 * samples are kept (sorted in place first, as rb_lat_summarize() leaves
 * them), else from the buckets of rb_hist, each counted at its value (its
 * midpoint within min..max).  -EINVAL when there is no sample.
 */
int rb_lat_buckets(struct rb_samples *s, struct rb_lat_buckets *out);

/*
 * rb_lat_hist_fill() - @b as the result carries it: edges times
 * @us_per_unit (microseconds) and @ticks_per_unit (reported ticks).
 */
void rb_lat_hist_fill(const struct rb_lat_buckets *b, double us_per_unit, double ticks_per_unit,
		      struct rb_lat_hist *h);

/*
 * rb_lat_perftest() - perftest's latency statistics (struct rb_pt_lat,
 * print_report_lat() in perftest_parameters.c) over the @n samples at @v,
 * sorted ascending, in ticks: a sample is v[i] * @scale / 1000 + @add_us
 * microseconds (@scale as rb_lat_summarize()'s; @add_us what perftest's
 * sample holds and ours does not: --latency_gap, one-way as the sample).
 * -EINVAL with fewer than 3 samples (perftest drops the top two).
 */
int rb_lat_perftest(const uint64_t *v, size_t n, double scale, double add_us,
		    struct rb_pt_lat *out);

/* rb_percentile_rank() - 1-based nearest rank of percentile @p of @n. */
size_t rb_percentile_rank(double p, size_t n);

#define RB_BW_WINDOW 64

/*
 * Peak bandwidth over a sliding window of the last RB_BW_WINDOW completion
 * marks, in constant memory whatever the number of iterations.  A mark is
 * kept once @step more bytes completed since the last kept one: with a
 * step of what can be in flight over RB_BW_WINDOW_STEPS, a window holds
 * four queues' worth, so a queue whose completions are reaped at once (a
 * burst of work done long before) is never read as a peak.
 */
#define RB_BW_WINDOW_STEPS 16
struct rb_bw_window {
	uint64_t t[RB_BW_WINDOW];
	uint64_t bytes[RB_BW_WINDOW]; /* cumulative bytes at t */
	unsigned int n, head;
	uint64_t t0;
	uint64_t step; /* bytes at least between kept marks */
	double peak_gbps;
};

/*
 * rb_bw_window_init() - a window from @t0_ns, for a loop that can have
 * @inflight bytes posted and not completed (0: marks are kept each).
 */
void rb_bw_window_init(struct rb_bw_window *w, uint64_t t0_ns, uint64_t inflight);
/* rb_bw_window_mark() - @total_bytes completed by time @t_ns. */
void rb_bw_window_mark(struct rb_bw_window *w, uint64_t t_ns, uint64_t total_bytes);

/*
 * rb_bw_window_peak() - the best window's Gb/s; when the run had too few
 * marks to fill one window, the whole run is the only window.
 */
double rb_bw_window_peak(const struct rb_bw_window *w, uint64_t total_bytes, uint64_t t_end_ns);

/* Gb/s for @bytes in @ns nanoseconds (10^9 bits per second). */
double rb_gbps(uint64_t bytes, uint64_t ns);

/* rb_median() - the median of @n values (n >= 1), @v untouched; 0 when out of memory. */
double rb_median(const double *v, size_t n);

/*
 * rb_out_of_line() - whether @v is out of line against @median with @tol
 * (0.10 for 10%): a bandwidth (@mode RB_MODE_BW) below median * (1 - tol),
 * a latency above median * (1 + tol).  matrix's pairs, -d's rails.
 */
bool rb_out_of_line(double v, double median, double tol, enum rb_mode mode);

#endif
