// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int rb_samples_reserve(struct rb_samples *s, size_t cap)
{
	uint64_t *v;

	if (cap <= s->cap)
		return 0;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->cap = cap;
	return 0;
}

int rb_samples_grow_push(struct rb_samples *s, uint64_t v)
{
	int ret = rb_samples_reserve(s, s->cap ? s->cap * 2 : 4096);

	if (ret)
		return ret;
	s->v[s->n++] = v;
	return 0;
}

void rb_samples_free(struct rb_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t rb_percentile_rank(double p, size_t n)
{
	unsigned long long ppm, r;

	if (!n)
		return 0;
	if (p <= 0)
		return 1;
	if (p >= 100)
		return n;
	/* Round up in integers: p/100 in parts per million is exact for the
	 * percentiles we report, where ceil() of a double product is not. */
	ppm = (unsigned long long)llround(p * 10000.0);
	r = ((unsigned long long)n * ppm + 999999) / 1000000;
	return r ? (size_t)r : 1;
}

int rb_lat_summarize(struct rb_samples *s, double scale, struct rb_lat_summary *out)
{
	double sum = 0, sq = 0, mean, k = scale / 1000.0;
	size_t i, n = s->n;

	if (!n)
		return -EINVAL;
	qsort(s->v, n, sizeof(*s->v), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)s->v[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += ((double)s->v[i] - mean) * ((double)s->v[i] - mean);
	out->min = (double)s->v[0] * k;
	out->max = (double)s->v[n - 1] * k;
	out->avg = mean * k;
	out->stdev = sqrt(sq / (double)n) * k;
	out->p50 = (double)s->v[rb_percentile_rank(50, n) - 1] * k;
	out->p90 = (double)s->v[rb_percentile_rank(90, n) - 1] * k;
	out->p99 = (double)s->v[rb_percentile_rank(99, n) - 1] * k;
	out->p999 = (double)s->v[rb_percentile_rank(99.9, n) - 1] * k;
	return 0;
}

double rb_gbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8.0 / (double)ns : 0.0;
}

void rb_bw_window_init(struct rb_bw_window *w, uint64_t t0_ns)
{
	memset(w, 0, sizeof(*w));
	w->t[0] = t0_ns;
	w->t0 = t0_ns;
	w->n = 1;
	w->head = 1 % RB_BW_WINDOW;
}

void rb_bw_window_mark(struct rb_bw_window *w, uint64_t t_ns, uint64_t total_bytes)
{
	/* The oldest mark is the one the new mark is about to replace
	 * once the ring is full, or the first one until then. */
	unsigned int oldest = w->n < RB_BW_WINDOW ? 0 : w->head;
	uint64_t dt = t_ns - w->t[oldest];
	double g;

	if (dt) {
		g = rb_gbps(total_bytes - w->bytes[oldest], dt);
		/* Needs a full window: a single early burst is not a peak. */
		if (w->n >= RB_BW_WINDOW && g > w->peak_gbps)
			w->peak_gbps = g;
	}
	w->t[w->head] = t_ns;
	w->bytes[w->head] = total_bytes;
	w->head = (w->head + 1) % RB_BW_WINDOW;
	if (w->n < RB_BW_WINDOW)
		w->n++;
}

double rb_bw_window_peak(const struct rb_bw_window *w, uint64_t total_bytes, uint64_t t_end_ns)
{
	double whole = rb_gbps(total_bytes, t_end_ns - w->t0);

	if (w->n < RB_BW_WINDOW || w->peak_gbps < whole)
		return whole;
	return w->peak_gbps;
}
