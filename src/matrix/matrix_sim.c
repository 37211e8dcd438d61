// SPDX-License-Identifier: MIT
/*
 * rdmabench matrix at scale, the pure part (matrix.h): --simulate's
 * spelling and synthetic figures, the suspects:K pattern's rings, its
 * suspects and the pairs around them, and the bad-rank rule every
 * pattern's verdict ends with.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix.h"

/* ---- --simulate ---------------------------------------------------------- */

/* "NAME=N" at @s (up to a ',' or the end) into @v; -EINVAL otherwise. */
static int sim_field(const char *s, size_t n, const char *name, uint32_t *v)
{
	size_t l = strlen(name);
	unsigned long x;
	char *end;

	if (n <= l + 1 || strncmp(s, name, l) || s[l] != '=' || !isdigit((unsigned char)s[l + 1]))
		return -EINVAL;
	errno = 0;
	x = strtoul(s + l + 1, &end, 10);
	if (errno || (size_t)(end - s) != n || x > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

int rb_mx_sim_parse(const char *s, uint32_t seed, struct rb_mx_sim *sim, char *err, size_t len)
{
	const char *p = s;
	bool has_outlier = false;
	size_t n;

	*sim = (struct rb_mx_sim){ .on = true, .seed = seed, .outlier = RB_MX_SIM_NONE, .slow = 50 };
	if (!strcmp(s, "none"))
		return 0;
	while (*p) {
		n = strcspn(p, ",");
		if (!sim_field(p, n, "outlier", &sim->outlier))
			has_outlier = true;
		else if (sim_field(p, n, "slow", &sim->slow) || sim->slow < 1 || sim->slow > 90)
			return rb_set_err(err, len, -EINVAL,
					  "--simulate '%s': '%.*s' is not outlier=RANK or slow=PCT "
					  "(1..90); or say none",
					  s, (int)n, p);
		p += n + (p[n] == ',');
	}
	if (!has_outlier)
		return rb_set_err(err, len, -EINVAL,
				  "--simulate '%s': name the slow rank (outlier=RANK), or say none",
				  s);
	return 0;
}

/* splitmix64: a well-mixed 64-bit value from any input, no state. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A factor in [1 - 2%, 1 + 2%]: well inside any --tolerance (1% or more
 * flags some, as it should: the spread then is the tolerance's size). */
static double jitter(const struct rb_mx_sim *sim, uint32_t src, uint32_t dst, uint32_t round)
{
	uint64_t h = mix(mix(mix(sim->seed) ^ src) ^ ((uint64_t)dst << 20)) ^ round;

	return 1.0 + ((double)(mix(h) >> 11) / (double)(1ULL << 53) - 0.5) * 0.04;
}

static void sim_lat(struct rb_result *r, double p50)
{
	r->has_lat = true;
	r->lat = (struct rb_lat_summary){ .min = p50 * 0.95,
					  .p50 = p50,
					  .avg = p50 * 1.02,
					  .p90 = p50 * 1.1,
					  .p99 = p50 * 1.3,
					  .p999 = p50 * 1.6,
					  .max = p50 * 2,
					  .stdev = p50 * 0.05 };
	r->iters = 1000;
	r->duration_s = p50 * 2e-6 * (double)r->iters;
}

static void sim_bw(struct rb_result *r, double gbps, uint64_t size)
{
	r->has_bw = true;
	r->bw_avg_gbps = gbps;
	r->bw_peak_gbps = gbps * 1.01;
	r->msg_rate_mpps = gbps * 1e3 / 8 / (double)(size ? size : 1);
	r->duration_s = 1;
	r->iters = (uint64_t)(r->msg_rate_mpps * 1e6);
}

void rb_mx_sim_result(const struct rb_mx_sim *sim, enum rb_mode mode, uint64_t size, uint32_t src,
		      uint32_t dst, uint32_t round, struct rb_result *r)
{
	double f = jitter(sim, src, dst, round), slow = sim->slow / 100.0;
	bool bad = sim->outlier == src || sim->outlier == dst;

	memset(r, 0, sizeof(*r));
	r->pt.size = size;
	r->pt.qps = 1;
	if (mode == RB_MODE_BW)
		sim_bw(r, RB_MX_SIM_GBPS * f * (bad ? 1 - slow : 1), size);
	else
		sim_lat(r, RB_MX_SIM_P50_US * f * (bad ? 1 + slow : 1));
}

/* ---- suspects:K ------------------------------------------------------------ */

size_t rb_mx_rank_rule(const struct rb_mx_sched *s, const bool *flagged, uint32_t n, uint32_t *out,
		       size_t cap)
{
	uint32_t *in = calloc(n, sizeof(*in)), *hit = calloc(n, sizeof(*hit)), i;
	size_t k, m = 0;

	if (!in || !hit) {
		free(in);
		free(hit);
		return 0;
	}
	for (k = 0; k < s->n; k++) {
		in[s->pairs[k].src]++;
		in[s->pairs[k].dst]++;
		hit[s->pairs[k].src] += flagged[k];
		hit[s->pairs[k].dst] += flagged[k];
	}
	for (i = 0; i < n; i++)
		if (hit[i] && 2 * hit[i] > in[i] && m < cap)
			out[m++] = i;
	free(in);
	free(hit);
	return m;
}

static bool listed(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Both ways between @a and @b, in the first rounds after the schedule's. */
static void add_both(struct rb_mx_sched *s, size_t first, uint32_t from, uint32_t a, uint32_t b)
{
	uint32_t r;

	if (!rb_mx_has_pair(s, a, b)) {
		r = rb_mx_first_fit(s, first, from, a, b);
		s->pairs[s->n++] = (struct rb_mx_pair){ .src = a, .dst = b, .round = r };
	}
	if (!rb_mx_has_pair(s, b, a)) {
		r = rb_mx_first_fit(s, first, from, a, b);
		s->pairs[s->n++] = (struct rb_mx_pair){ .src = b, .dst = a, .round = r };
	}
}

/*
 * @k others for suspect @x, spread over the job (x + n/(k+1), x +
 * 2n/(k+1), ...), each moved on to the next rank that is no suspect.
 */
static size_t others_of(uint32_t x, uint32_t k, uint32_t n, const uint32_t *sus, size_t ns,
			uint32_t *out)
{
	size_t m = 0;
	uint32_t j, o, tries;

	for (j = 1; j <= k; j++) {
		o = (uint32_t)((x + (uint64_t)j * n / (k + 1)) % n);
		for (tries = 0; tries < n && (o == x || listed(sus, ns, o) || listed(out, m, o));
		     tries++)
			o = (o + 1) % n;
		if (tries < n)
			out[m++] = o;
	}
	return m;
}

int rb_mx_suspect_pairs(struct rb_mx_sched *s, uint32_t k, uint32_t n, const uint32_t *sus,
			size_t ns)
{
	size_t first = s->n, i, j, m, need = ns * (2 * (size_t)k + 2 * ns);
	uint32_t from = s->nrounds, *o = calloc(k ? k : 1, sizeof(*o));
	struct rb_mx_pair *grown = realloc(s->pairs, (s->n + need + 1) * sizeof(*s->pairs));

	if (!grown || !o) {
		free(o);
		if (grown)
			s->pairs = grown;
		return -ENOMEM;
	}
	s->pairs = grown;
	for (i = 0; i < ns; i++) {
		m = others_of(sus[i], k, n, sus, ns, o);
		for (j = 0; j < m; j++)
			add_both(s, first, from, sus[i], o[j]);
		for (j = i + 1; j < ns; j++)
			add_both(s, first, from, sus[i], sus[j]);
	}
	free(o);
	for (i = first; i < s->n; i++)
		if (s->pairs[i].round + 1 > s->nrounds)
			s->nrounds = s->pairs[i].round + 1;
	rb_mx_sched_sort(s, first);
	return 0;
}
