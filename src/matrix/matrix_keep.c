// SPDX-License-Identifier: MIT
/*
 * The coordinator's per-pair keep (matrix_keep.h): a pool of byte strings,
 * sides and points interned in it, results packed into it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "core/hash.h"
#include "core/metrics.h"
#include "matrix/matrix_keep.h"

#define ENTRY_MAX 1024 /* a side is under 300 bytes, a result under 1024 */

/* Room for @n more bytes in the buffer. */
static int grow_bytes(struct rb_mx_pool *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 4096;
	uint8_t *b;

	if (p->used + n <= p->cap)
		return 0;
	while (cap < p->used + n)
		cap *= 2;
	b = realloc(p->bytes, cap);
	if (!b)
		return -ENOMEM;
	p->bytes = b;
	p->cap = cap;
	return 0;
}

/* @len bytes @b appended as an entry; its offset in @off. */
static int append(struct rb_mx_pool *p, const uint8_t *b, size_t len, size_t *off)
{
	if (len > UINT16_MAX || grow_bytes(p, len + 2))
		return -ENOMEM;
	*off = p->used;
	p->bytes[p->used] = (uint8_t)(len >> 8);
	p->bytes[p->used + 1] = (uint8_t)len;
	memcpy(p->bytes + p->used + 2, b, len);
	p->used += len + 2;
	return 0;
}

static const uint8_t *entry(const struct rb_mx_pool *p, size_t off, size_t *len)
{
	*len = (size_t)p->bytes[off] << 8 | p->bytes[off + 1];
	return p->bytes + off + 2;
}

/* The slot of @b: the one holding it, or the free one where it goes. */
static size_t find(const struct rb_mx_pool *p, const uint8_t *b, size_t len)
{
	size_t k = rb_fnv1a(RB_FNV1A_SEED, b, len) & (p->nslot - 1), elen;
	const uint8_t *e;

	for (; p->slot[k]; k = (k + 1) & (p->nslot - 1)) {
		e = entry(p, p->off[p->slot[k] - 1], &elen);
		if (elen == len && !memcmp(e, b, len))
			break;
	}
	return k;
}

/* The hash table twice as large, every id placed again. */
static int rehash(struct rb_mx_pool *p)
{
	size_t nslot = p->nslot ? p->nslot * 2 : 64, len;
	uint32_t *old = p->slot, id;
	const uint8_t *e;

	p->slot = calloc(nslot, sizeof(*p->slot));
	if (!p->slot) {
		p->slot = old;
		return -ENOMEM;
	}
	p->nslot = nslot;
	for (id = 0; id < p->n; id++) {
		e = entry(p, p->off[id], &len);
		p->slot[find(p, e, len)] = id + 1;
	}
	free(old);
	return 0;
}

static int intern(struct rb_mx_pool *p, const uint8_t *b, size_t len, uint32_t *id)
{
	size_t k, *off;

	if ((p->n + 1) * 2 > p->nslot && rehash(p))
		return -ENOMEM;
	k = find(p, b, len);
	if (p->slot[k]) {
		*id = p->slot[k] - 1;
		return 0;
	}
	if (p->n == p->ncap) {
		off = realloc(p->off, (p->ncap ? p->ncap * 2 : 64) * sizeof(*off));
		if (!off)
			return -ENOMEM;
		p->off = off;
		p->ncap = p->ncap ? p->ncap * 2 : 64;
	}
	if (append(p, b, len, &p->off[p->n]))
		return -ENOMEM;
	p->slot[k] = p->n + 1;
	*id = p->n++;
	return 0;
}

int rb_mx_pool_init(struct rb_mx_pool *p)
{
	const struct rb_mx_side none = { .gid_index = -1 };
	const uint8_t nothing = 0;
	size_t off;
	uint32_t id;

	memset(p, 0, sizeof(*p));
	if (append(p, &nothing, 0, &off) || rb_mx_keep_side(p, &none, &id)) {
		rb_mx_pool_free(p);
		return -ENOMEM;
	}
	return 0;
}

void rb_mx_pool_free(struct rb_mx_pool *p)
{
	free(p->bytes);
	free(p->off);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}

/* ---- sides ------------------------------------------------------------------ */

int rb_mx_keep_side(struct rb_mx_pool *p, const struct rb_mx_side *s, uint32_t *id)
{
	uint8_t b[ENTRY_MAX];
	struct cur c = { .w = b, .cap = sizeof(b) };

	put_be(&c, s->port, 1);
	put_be(&c, (uint16_t)s->gid_index, 2);
	PUT_STR(&c, s->dev);
	PUT_STR(&c, s->gid);
	put_place(&c, &s->place);
	return c.err ? -EINVAL : intern(p, b, c.off, id);
}

void rb_mx_side_of(const struct rb_mx_pool *p, uint32_t id, struct rb_mx_side *s)
{
	struct cur c = { 0 };

	memset(s, 0, sizeof(*s));
	c.r = entry(p, p->off[id], &c.cap);
	s->port = (uint8_t)get_be(&c, 1);
	s->gid_index = (int16_t)get_be(&c, 2);
	GET_STR(&c, s->dev);
	GET_STR(&c, s->gid);
	get_place(&c, &s->place);
}

/* ---- results ------------------------------------------------------------------ */

/* The point, interned: the same for every pair of most jobs. */
static int keep_point(struct rb_mx_pool *p, const struct rb_point *pt, uint32_t *id)
{
	uint8_t b[64];
	struct cur c = { .w = b, .cap = sizeof(b) };

	put_be(&c, pt->size, 8);
	put_be(&c, pt->batch, 4);
	put_be(&c, pt->signal, 4);
	put_be(&c, pt->qps, 4);
	put_be(&c, pt->tx_depth, 4);
	put_be(&c, pt->cqe_poll, 4);
	put_be(&c, pt->poll, 1);
	put_be(&c, pt->lock, 1);
	put_be(&c, pt->hold_us, 4);
	put_be(&c, pt->cq_mod, 4);
	return intern(p, b, c.off, id);
}

static void point_of(const struct rb_mx_pool *p, uint32_t id, struct rb_point *pt)
{
	struct cur c = { 0 };

	c.r = entry(p, p->off[id], &c.cap);
	pt->size = get_be(&c, 8);
	pt->batch = (uint32_t)get_be(&c, 4);
	pt->signal = (uint32_t)get_be(&c, 4);
	pt->qps = (uint32_t)get_be(&c, 4);
	pt->tx_depth = (uint32_t)get_be(&c, 4);
	pt->cqe_poll = (uint32_t)get_be(&c, 4);
	pt->poll = (uint8_t)get_be(&c, 1);
	pt->lock = (uint8_t)get_be(&c, 1);
	pt->hold_us = (uint32_t)get_be(&c, 4);
	pt->cq_mod = (uint32_t)get_be(&c, 4);
}

static bool in_group(const struct rb_metric *m, int g)
{
	return m->group == (enum rb_metric_group)g && !m->derive;
}

/* Whether every figure of group @g in @r is +0.0: then none is kept. */
static bool all_zero(const struct rb_result *r, int g)
{
	const struct rb_metric *m;
	double v;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++) {
		v = in_group(m, g) ? rb_metric_value(m, r) : 0.0;
		if (memcmp(&v, &(double){ 0.0 }, sizeof(v)))
			return false;
	}
	return true;
}

/*
 * Bits per group: has_* (low half) and figures kept (high half), then the
 * kept groups' figures in metric table order, as the wire has them.
 */
_Static_assert(RB_MG_COUNT <= 16, "matrix_keep.c: a group's two bits fit a u32");

int rb_mx_keep_result(struct rb_mx_pool *p, const struct rb_result *r, size_t *off)
{
	uint8_t b[ENTRY_MAX];
	struct cur c = { .w = b, .cap = sizeof(b) };
	const struct rb_metric *m;
	uint32_t bits = 0;
	uint32_t pt;
	int g;

	for (g = 0; g < RB_MG_COUNT; g++)
		bits |= (uint32_t)rb_metric_group_has((enum rb_metric_group)g, r) << g |
			(uint32_t)!all_zero(r, g) << (16 + g);
	if (keep_point(p, &r->pt, &pt))
		return -ENOMEM;
	put_be(&c, pt, 4);
	put_be(&c, r->iters, 8);
	put_double(&c, r->duration_s);
	put_be(&c, bits, 4);
	for (g = 0; g < RB_MG_COUNT; g++)
		for (m = rb_metrics; bits >> (16 + g) & 1 && m < rb_metrics + rb_nmetrics; m++)
			if (in_group(m, g))
				put_double(&c, rb_metric_value(m, r));
	return c.err ? -EMSGSIZE : append(p, b, c.off, off);
}

void rb_mx_result_of(const struct rb_mx_pool *p, size_t off, struct rb_result *r)
{
	struct cur c = { 0 };
	const struct rb_metric *m;
	uint32_t bits;
	int g;

	memset(r, 0, sizeof(*r));
	c.r = entry(p, off, &c.cap);
	point_of(p, (uint32_t)get_be(&c, 4), &r->pt);
	r->iters = get_be(&c, 8);
	r->duration_s = get_double(&c);
	bits = (uint32_t)get_be(&c, 4);
	for (g = 0; g < RB_MG_COUNT; g++) {
		rb_metric_group_set((enum rb_metric_group)g, r, bits >> g & 1);
		for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
			if (in_group(m, g))
				rb_metric_set(m, r, bits >> (16 + g) & 1 ? get_double(&c) : 0.0);
	}
}
