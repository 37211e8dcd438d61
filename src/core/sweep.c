// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/sweep.h"

int rb_parse_u64(const char *s, bool suffix, uint64_t *out, const char **end)
{
	uint64_t v = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (suffix && *p && strchr("kKmMgG", *p)) {
		mult = 1ULL << (10 * ((strchr("kKmMgG", *p) - "kKmMgG") / 2 + 1));
		p++;
		/* 4KiB and 4KB spell 4K too: sizes are powers of 1024 here. */
		if (!strncmp(p, "iB", 2))
			p += 2;
		else if (*p == 'B')
			p++;
	}
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	*end = p;
	return 0;
}

int rb_parse_secs(const char *s, uint64_t *out, const char **end)
{
	static const char units[] = "smh";
	static const uint64_t mult[] = { 1, 60, 3600 };
	const char *u;
	int ret = rb_parse_u64(s, false, out, end);

	if (ret || !**end || !(u = strchr(units, **end)))
		return ret;
	if (*out > UINT64_MAX / mult[u - units])
		return -ERANGE;
	*out *= mult[u - units];
	(*end)++;
	return 0;
}

static int axis_add(struct rb_axis *a, uint64_t v, char *err, size_t errlen)
{
	if (a->n == RB_MAX_AXIS) {
		snprintf(err, errlen, "more than %d values", RB_MAX_AXIS);
		return -ERANGE;
	}
	a->v[a->n++] = v;
	return 0;
}

/* Expand "lo..hi:xK" or "lo..hi:+K"; @p points just past "..". */
static int axis_range(struct rb_axis *a, const char *item, uint64_t lo, const char *p, bool suffix,
		      const char **end, char *err, size_t errlen)
{
	int ilen = (int)strcspn(item, ","), ret;
	uint64_t hi, step, v;
	char op;

	if (rb_parse_u64(p, suffix, &hi, &p) || *p != ':' || (p[1] != 'x' && p[1] != '+')) {
		snprintf(err, errlen,
			 "'%.*s': a range needs an end and a step, as 2..8M:x2 or 1..64:+8", ilen,
			 item);
		return -EINVAL;
	}
	op = p[1];
	if (rb_parse_u64(p + 2, suffix, &step, end)) {
		snprintf(err, errlen, "'%.*s': bad step after ':%c'", ilen, item, op);
		return -EINVAL;
	}
	if (hi < lo || (op == 'x' && (step < 2 || lo == 0)) || (op == '+' && step == 0)) {
		snprintf(err, errlen, "range %llu..%llu:%c%llu does not step upwards",
			 (unsigned long long)lo, (unsigned long long)hi, op,
			 (unsigned long long)step);
		return -EINVAL;
	}
	for (v = lo; v <= hi;) {
		ret = axis_add(a, v, err, errlen);
		if (ret)
			return ret;
		if (op == 'x' ? v > UINT64_MAX / step : v > UINT64_MAX - step)
			break;
		v = op == 'x' ? v * step : v + step;
	}
	return 0;
}

int rb_axis_parse(const char *s, bool suffix, struct rb_axis *out, char *err, size_t errlen)
{
	const char *p = s;
	uint64_t v;
	int ret;

	out->n = 0;
	for (;;) {
		const char *item = p;

		ret = rb_parse_u64(p, suffix, &v, &p);
		if (ret) {
			snprintf(err, errlen, "'%.*s' is not a %s", (int)strcspn(item, ","), item,
				 ret == -ERANGE ? "number in range" : "number");
			return ret == -ERANGE ? -ERANGE : -EINVAL;
		}
		if (p[0] == '.' && p[1] == '.')
			ret = axis_range(out, item, v, p + 2, suffix, &p, err, errlen);
		else
			ret = axis_add(out, v, err, errlen);
		if (ret)
			return ret;
		if (*p == '\0')
			return 0;
		if (*p != ',') {
			snprintf(err, errlen, "unexpected '%s'", p);
			return -EINVAL;
		}
		p++;
	}
}

void rb_axis_set1(struct rb_axis *a, uint64_t v)
{
	a->n = 1;
	a->v[0] = v;
}

bool rb_axis_has(const struct rb_axis *a, uint64_t v)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] == v)
			return true;
	return false;
}

uint64_t rb_axis_max(const struct rb_axis *a)
{
	uint64_t m = 0;
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] > m)
			m = a->v[i];
	return m;
}

/* Values of an axis that may be empty (--lock, --hold, --cq-moderation): one, 0, when it is. */
static uint32_t opt_n(const struct rb_axis *a)
{
	return a->n ? a->n : 1;
}

/* Value @i (mod the count) of such an axis, and @i past it. */
static uint64_t opt_take(const struct rb_axis *a, size_t *i)
{
	uint64_t v = a->n ? a->v[*i % a->n] : 0;

	*i /= opt_n(a);
	return v;
}

size_t rb_plan_count(const struct rb_params *p)
{
	const struct rb_axis *ax[] = { &p->qps,	     &p->tx_depth, &p->batch, &p->signal,
				       &p->cqe_poll, &p->poll,	   &p->size };
	const struct rb_axis *opt[] = { &p->lock_algo, &p->hold_us, &p->cq_mod };
	size_t n = 1, i;

	for (i = 0; i < sizeof(ax) / sizeof(ax[0]); i++) {
		if (!ax[i]->n)
			return 0;
		/* Saturate rather than overflow: callers compare with a bound. */
		n = n > SIZE_MAX / ax[i]->n ? SIZE_MAX : n * ax[i]->n;
	}
	for (i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
		n = n > SIZE_MAX / opt_n(opt[i]) ? SIZE_MAX : n * opt_n(opt[i]);
	return n;
}

uint64_t rb_point_warmup(uint64_t warmup, uint64_t size)
{
	uint64_t n;

	if (warmup != RB_WARMUP_AUTO)
		return warmup;
	n = size ? RB_WARMUP_BYTES / size : RB_WARMUP_MAX;
	return n < 1 ? 1 : n > RB_WARMUP_MAX ? RB_WARMUP_MAX : n;
}

void rb_plan_point(const struct rb_params *p, size_t i, struct rb_point *pt)
{
	pt->size = p->size.v[i % p->size.n];
	i /= p->size.n;
	pt->poll = (uint8_t)p->poll.v[i % p->poll.n];
	i /= p->poll.n;
	pt->cq_mod = (uint32_t)opt_take(&p->cq_mod, &i);
	pt->cqe_poll = (uint32_t)p->cqe_poll.v[i % p->cqe_poll.n];
	i /= p->cqe_poll.n;
	pt->signal = (uint32_t)p->signal.v[i % p->signal.n];
	i /= p->signal.n;
	pt->batch = (uint32_t)p->batch.v[i % p->batch.n];
	i /= p->batch.n;
	pt->tx_depth = (uint32_t)p->tx_depth.v[i % p->tx_depth.n];
	i /= p->tx_depth.n;
	pt->qps = (uint32_t)p->qps.v[i % p->qps.n];
	i /= p->qps.n;
	pt->hold_us = (uint32_t)opt_take(&p->hold_us, &i);
	pt->lock = (uint8_t)opt_take(&p->lock_algo, &i);
	pt->warmup = rb_point_warmup(p->warmup, pt->size);
}

const char *rb_size_str(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "KMG";
	int i = -1;

	while (v && v % 1024 == 0 && i < 2) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, sfx[i]);
	return buf;
}

/* Is @r a better recommendation than @cur: smaller batch, then larger signal. */
static bool cheaper(const struct rb_result *r, const struct rb_reco *cur)
{
	return r->pt.batch < cur->batch ||
	       (r->pt.batch == cur->batch && r->pt.signal > cur->signal);
}

/* Fill @o for size @size from every point of that size. */
static void recommend_size(const struct rb_result *res, size_t n, uint64_t size, struct rb_reco *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->size = size;
	for (i = 0; i < n; i++)
		if (res[i].pt.size == size && res[i].has_bw &&
		    res[i].msg_rate_mpps > o->best_msg_rate_mpps) {
			o->best_msg_rate_mpps = res[i].msg_rate_mpps;
			o->best_batch = res[i].pt.batch;
			o->best_signal = res[i].pt.signal;
		}
	o->batch = UINT32_MAX;
	for (i = 0; i < n; i++)
		if (res[i].pt.size == size && res[i].has_bw &&
		    res[i].msg_rate_mpps >= 0.95 * o->best_msg_rate_mpps && cheaper(&res[i], o)) {
			o->batch = res[i].pt.batch;
			o->signal = res[i].pt.signal;
			o->pt = res[i].pt;
			o->msg_rate_mpps = res[i].msg_rate_mpps;
		}
}

size_t rb_recommend(const struct rb_result *res, size_t n, struct rb_reco *out, size_t max)
{
	size_t i, j, k = 0;

	for (i = 0; i < n && k < max; i++) {
		for (j = 0; j < k && out[j].size != res[i].pt.size; j++)
			;
		if (j < k || !res[i].has_bw)
			continue;
		recommend_size(res, n, res[i].pt.size, &out[k++]);
	}
	return k;
}
