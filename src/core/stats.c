// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

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

size_t rb_hist_index(uint64_t v)
{
	unsigned int shift;

	if (v < 2 * RB_HIST_SUB)
		return (size_t)v;
	/* The top RB_HIST_BITS + 1 bits of v, after a row per power of two. */
	shift = 63 - (unsigned int)__builtin_clzll(v) - RB_HIST_BITS;
	return (size_t)shift * RB_HIST_SUB + (size_t)(v >> shift);
}

uint64_t rb_hist_lower(size_t i)
{
	if (i < 2 * RB_HIST_SUB)
		return i;
	return (uint64_t)(i % RB_HIST_SUB + RB_HIST_SUB) << (i / RB_HIST_SUB - 1);
}

uint64_t rb_hist_width(size_t i)
{
	return i < 2 * RB_HIST_SUB ? 1 : 1ULL << (i / RB_HIST_SUB - 1);
}

void rb_hist_reset(struct rb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void rb_hist_add(struct rb_hist *h, uint64_t v)
{
	double d;

	if (!h->n) {
		h->min = h->max = v;
		h->ref = (double)v;
	}
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	d = (double)v - h->ref;
	h->s1 += d;
	h->s2 += d * d;
	h->count[rb_hist_index(v)]++;
	h->n++;
}

/* The reported percentiles of @n samples, @at(@c, rank) the sample of a 1-based rank. */
static void percentiles(struct rb_lat_summary *out, double k,
			double (*at)(const void *c, size_t rank), const void *c, size_t n)
{
	out->p50 = at(c, rb_percentile_rank(50, n)) * k;
	out->p90 = at(c, rb_percentile_rank(90, n)) * k;
	out->p99 = at(c, rb_percentile_rank(99, n)) * k;
	out->p999 = at(c, rb_percentile_rank(99.9, n)) * k;
}

/* The value of bucket @i: its midpoint, within min..max. */
static double hist_mid(const struct rb_hist *h, size_t i)
{
	double mid = (double)rb_hist_lower(i) + (double)(rb_hist_width(i) - 1) / 2;

	if (mid < (double)h->min)
		return (double)h->min;
	return mid > (double)h->max ? (double)h->max : mid;
}

/* The sample of 1-based @rank: its bucket's value. */
static double hist_at_rank(const void *c, size_t rank)
{
	const struct rb_hist *h = c;
	uint64_t seen = 0;
	size_t i;

	for (i = 0; i < RB_HIST_BUCKETS - 1; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	return hist_mid(h, i);
}

int rb_hist_summarize(const struct rb_hist *h, double scale, struct rb_lat_summary *out)
{
	double k = scale / 1000.0, n = (double)h->n, m, var;

	if (!h->n)
		return -EINVAL;
	m = h->s1 / n;
	var = h->s2 / n - m * m;
	out->min = (double)h->min * k;
	out->max = (double)h->max * k;
	out->avg = (h->ref + m) * k;
	out->stdev = sqrt(var > 0 ? var : 0) * k;
	percentiles(out, k, hist_at_rank, h, h->n);
	out->bucketed = true;
	return 0;
}

/* Every sample kept so far into the buckets, the slice's into its own. */
static int to_buckets(struct rb_samples *s)
{
	size_t i;

	s->h = calloc(2, sizeof(*s->h));
	if (!s->h)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		rb_hist_add(&s->h[0], s->v[i]);
	for (i = s->mark; s->marked && i < s->n; i++)
		rb_hist_add(&s->h[1], s->v[i]);
	free(s->v);
	s->v = NULL;
	s->cap = 0;
	return 0;
}

int rb_samples_grow_push(struct rb_samples *s, uint64_t v)
{
	size_t max = s->max ? s->max : RB_SAMPLES_EXACT_MAX;
	size_t want = s->cap ? s->cap * 2 : 4096;
	int ret;

	if (!s->h && s->n < max) {
		ret = rb_samples_reserve(s, want < max ? want : max);
		if (ret)
			return ret;
		s->v[s->n++] = v;
		return 0;
	}
	if (!s->h) {
		ret = to_buckets(s);
		if (ret)
			return ret;
	}
	rb_hist_add(&s->h[0], v);
	if (s->marked)
		rb_hist_add(&s->h[1], v);
	s->n++;
	return 0;
}

void rb_samples_reset(struct rb_samples *s)
{
	free(s->h);
	s->h = NULL;
	s->n = s->mark = 0;
	s->marked = false;
}

void rb_samples_free(struct rb_samples *s)
{
	free(s->v);
	free(s->h);
	free(s->tmp);
	memset(s, 0, sizeof(*s));
}

void rb_samples_mark(struct rb_samples *s)
{
	s->mark = s->n;
	s->marked = true;
	if (s->h)
		rb_hist_reset(&s->h[1]);
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

static double sorted_at_rank(const void *c, size_t rank)
{
	return (double)((const uint64_t *)c)[rank - 1];
}

/* Exact statistics over the @n samples at @v, sorted in place. */
static int exact_summary(uint64_t *v, size_t n, double scale, struct rb_lat_summary *out)
{
	double sum = 0, sq = 0, mean, k = scale / 1000.0;
	size_t i;

	if (!n)
		return -EINVAL;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)v[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += ((double)v[i] - mean) * ((double)v[i] - mean);
	out->min = (double)v[0] * k;
	out->max = (double)v[n - 1] * k;
	out->avg = mean * k;
	out->stdev = sqrt(sq / (double)n) * k;
	percentiles(out, k, sorted_at_rank, v, n);
	out->bucketed = false;
	return 0;
}

/*
 * perftest's print_report_lat() (perftest_parameters.c), step by step on
 * ticks as it works on cycles: m = n - 2 samples kept (LAT_MEASURE_TAIL);
 * get_median() averages the middle two in integer cycles when m is even;
 * each deviation from the mean is truncated to an int of microseconds and
 * squared as an int; the percentiles are delta[ceil(m * q)], 0-based, and
 * t_max is delta[m].
 */
int rb_lat_perftest(const uint64_t *v, size_t n, double scale, double add_us, struct rb_pt_lat *out)
{
	const double k = scale / 1000.0;
	double sum = 0, sq = 0;
	size_t m, i;
	uint64_t median;

	if (n < 3)
		return -EINVAL;
	m = n - 2;
	median = (m - 1) % 2 ? (v[m / 2] + v[m / 2 - 1]) / 2 : v[m / 2];
	for (i = 0; i < m; i++)
		sum += (double)v[i] * k + add_us;
	out->avg = sum / (double)m;
	for (i = 0; i < m; i++) {
		long long d = (long long)(out->avg - ((double)v[i] * k + add_us));

		sq += (double)(d * d);
	}
	out->stdev = sqrt(sq / (double)m);
	out->min = (double)v[0] * k + add_us;
	out->max = (double)v[m] * k + add_us;
	out->typical = (double)median * k + add_us;
	out->p99 = (double)v[(size_t)ceil((double)m * 0.99)] * k + add_us;
	out->p999 = (double)v[(size_t)ceil((double)m * 0.999)] * k + add_us;
	return 0;
}

int rb_lat_summarize(struct rb_samples *s, double scale, struct rb_lat_summary *out)
{
	if (s->h)
		return rb_hist_summarize(&s->h[0], scale, out);
	return exact_summary(s->v, s->n, scale, out);
}

int rb_lat_summarize_slice(struct rb_samples *s, double scale, struct rb_lat_summary *out)
{
	size_t n = s->n - s->mark;
	uint64_t *t;

	/* Unmarked, the slice is every sample. */
	if (s->h)
		return rb_hist_summarize(&s->h[s->marked ? 1 : 0], scale, out);
	if (!n)
		return -EINVAL;
	if (n > s->tmp_cap) {
		t = realloc(s->tmp, n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		s->tmp = t;
		s->tmp_cap = n;
	}
	memcpy(s->tmp, s->v + s->mark, n * sizeof(*s->tmp));
	return exact_summary(s->tmp, n, scale, out);
}

/* The edges of @b from lo, the p99.9 sample hi and the maximum. */
static void bucket_edges(struct rb_lat_buckets *b, uint64_t lo, uint64_t hi, uint64_t max)
{
	uint64_t span = hi - lo + 1;
	uint32_t i;

	memset(b, 0, sizeof(*b));
	b->body = span < RB_LAT_HIST_BODY ? (uint32_t)span : RB_LAT_HIST_BODY;
	b->width = (span + b->body - 1) / b->body;
	for (i = 0; i <= b->body; i++)
		b->edge[i] = lo + i * b->width;
	b->tail = max >= b->edge[b->body];
	b->n = b->body + b->tail;
	if (b->tail)
		b->edge[b->n] = max + 1;
}

static void bucket_add(struct rb_lat_buckets *b, uint64_t v, uint64_t count)
{
	uint64_t i = (v - b->edge[0]) / b->width;

	b->count[i < b->body ? i : b->body] += count;
}

static bool is_sorted(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < v[i - 1])
			return false;
	return true;
}

int rb_lat_buckets(struct rb_samples *s, struct rb_lat_buckets *out)
{
	size_t rank = rb_percentile_rank(99.9, s->n), i;
	const struct rb_hist *h = s->h;

	if (!s->n)
		return -EINVAL;
	if (h) {
		bucket_edges(out, h->min, (uint64_t)hist_at_rank(h, rank), h->max);
		for (i = 0; i < RB_HIST_BUCKETS; i++)
			if (h->count[i])
				bucket_add(out, (uint64_t)hist_mid(h, i), h->count[i]);
		return 0;
	}
	if (!is_sorted(s->v, s->n))
		qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	bucket_edges(out, s->v[0], s->v[rank - 1], s->v[s->n - 1]);
	for (i = 0; i < s->n; i++)
		bucket_add(out, s->v[i], 1);
	return 0;
}

void rb_lat_hist_fill(const struct rb_lat_buckets *b, double us_per_unit, double ticks_per_unit,
		      struct rb_lat_hist *h)
{
	uint32_t i;

	memset(h, 0, sizeof(*h));
	h->n = b->n;
	h->tail = b->tail;
	for (i = 0; i <= b->n; i++) {
		h->edge_us[i] = (double)b->edge[i] * us_per_unit;
		h->edge_ticks[i] = (double)b->edge[i] * ticks_per_unit;
	}
	memcpy(h->count, b->count, sizeof(h->count));
}

double rb_gbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8.0 / (double)ns : 0.0;
}

void rb_bw_window_init(struct rb_bw_window *w, uint64_t t0_ns, uint64_t inflight)
{
	memset(w, 0, sizeof(*w));
	w->t[0] = t0_ns;
	w->t0 = t0_ns;
	w->n = 1;
	w->head = 1 % RB_BW_WINDOW;
	w->step = inflight / RB_BW_WINDOW_STEPS;
}

void rb_bw_window_mark(struct rb_bw_window *w, uint64_t t_ns, uint64_t total_bytes)
{
	/* The oldest mark is the one the new mark is about to replace
	 * once the ring is full, or the first one until then. */
	unsigned int oldest = w->n < RB_BW_WINDOW ? 0 : w->head;
	unsigned int newest = (w->head + RB_BW_WINDOW - 1) % RB_BW_WINDOW;
	uint64_t dt = t_ns - w->t[oldest];
	double g;

	if (total_bytes - w->bytes[newest] < w->step)
		return;

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

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double rb_median(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(*c)), m;

	if (!c || !n) {
		free(c);
		return 0;
	}
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n & 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

bool rb_out_of_line(double v, double median, double tol, enum rb_mode mode)
{
	if (mode == RB_MODE_BW)
		return v < median * (1 - tol);
	return v > median * (1 + tol);
}
