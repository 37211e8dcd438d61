// SPDX-License-Identifier: MIT
/*
 * --reg-mode cache's pure part (regcache.h): the buffer pattern and the
 * LRU cache, with its hit accounting.  test_regcache checks both.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/regcache.h"

int rb_reuse_parse(const char *arg, uint8_t *kind, uint32_t *zipf_milli, char *err, size_t len)
{
	const char *s;
	char *end;
	double v;

	*zipf_milli = 0;
	if (!strcmp(arg, "uniform") || !strcmp(arg, "seq")) {
		*kind = arg[0] == 'u' ? RB_REUSE_UNIFORM : RB_REUSE_SEQ;
		return 0;
	}
	if (strncmp(arg, "zipf:", 5)) {
		snprintf(err, len, "--reuse %s: not one of uniform, zipf:S or seq", arg);
		return -EINVAL;
	}
	s = arg + 5;
	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= 0.001 && v <= RB_ZIPF_MILLI_MAX / 1000.0)) {
		snprintf(err, len,
			 "--reuse %s: zipf's exponent S is a number from 0.001 to %g (zipf:0.99)",
			 arg, RB_ZIPF_MILLI_MAX / 1000.0);
		return -EINVAL;
	}
	*kind = RB_REUSE_ZIPF;
	*zipf_milli = (uint32_t)lround(v * 1000);
	return 0;
}

const char *rb_reuse_str(uint8_t kind, uint32_t zipf_milli, char *buf, size_t len)
{
	if (kind == RB_REUSE_ZIPF)
		snprintf(buf, len, "zipf:%g", zipf_milli / 1000.0);
	else
		snprintf(buf, len, "%s", kind == RB_REUSE_SEQ ? "seq" : "uniform");
	return buf;
}

/* splitmix64: a seeded generator with no bad seeds. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* zipf: P(buffer i) proportional to 1 / (i + 1)^S, as a cumulative table. */
static int zipf_table(struct rb_reuse *u, double s)
{
	double sum = 0;
	uint32_t i;

	u->cdf = malloc(u->n * sizeof(*u->cdf));
	if (!u->cdf)
		return -ENOMEM;
	for (i = 0; i < u->n; i++) {
		sum += pow((double)i + 1, -s);
		u->cdf[i] = sum;
	}
	for (i = 0; i < u->n; i++)
		u->cdf[i] /= sum;
	u->cdf[u->n - 1] = 1.0;
	return 0;
}

int rb_reuse_init(struct rb_reuse *u, uint8_t kind, uint32_t zipf_milli, uint32_t n, uint64_t seed)
{
	memset(u, 0, sizeof(*u));
	if (!n || kind > RB_REUSE_SEQ || (kind == RB_REUSE_ZIPF && !zipf_milli))
		return -EINVAL;
	u->kind = kind;
	u->n = n;
	u->state = seed;
	return kind == RB_REUSE_ZIPF ? zipf_table(u, zipf_milli / 1000.0) : 0;
}

/* The first i whose cdf[i] exceeds @x (x < 1 = cdf[n - 1]). */
static uint32_t zipf_search(const struct rb_reuse *u, double x)
{
	uint32_t lo = 0, hi = u->n - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u->cdf[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

uint32_t rb_reuse_next(struct rb_reuse *u)
{
	uint64_t x;

	if (u->kind == RB_REUSE_SEQ)
		return (uint32_t)(u->next++ % u->n);
	x = rng_next(&u->state);
	if (u->kind == RB_REUSE_UNIFORM) /* Lemire's: x * n / 2^64, no modulo bias to speak of */
		return (uint32_t)(((unsigned __int128)x * u->n) >> 64);
	return zipf_search(u, (double)(x >> 11) * 0x1p-53);
}

void rb_reuse_free(struct rb_reuse *u)
{
	free(u->cdf);
	u->cdf = NULL;
}

int rb_rcache_init(struct rb_rcache *c, uint32_t cap, uint32_t nbuf)
{
	uint32_t i;

	memset(c, 0, sizeof(*c));
	if (!cap || !nbuf)
		return -EINVAL;
	c->e = calloc(cap, sizeof(*c->e));
	c->slot_of = malloc(nbuf * sizeof(*c->slot_of));
	if (!c->e || !c->slot_of) {
		rb_rcache_free(c);
		return -ENOMEM;
	}
	for (i = 0; i < nbuf; i++)
		c->slot_of[i] = RB_RCACHE_NIL;
	for (i = 0; i < cap; i++)
		c->e[i].buf = RB_RCACHE_NIL;
	c->fresh = 0;
	c->cap = cap;
	c->nbuf = nbuf;
	c->head = c->tail = c->freelist = RB_RCACHE_NIL;
	return 0;
}

void rb_rcache_free(struct rb_rcache *c)
{
	free(c->e);
	free(c->slot_of);
	c->e = NULL;
	c->slot_of = NULL;
}

static void lru_unlink(struct rb_rcache *c, uint32_t s)
{
	struct rb_rcache_entry *e = &c->e[s];

	if (e->prev != RB_RCACHE_NIL)
		c->e[e->prev].next = e->next;
	else
		c->head = e->next;
	if (e->next != RB_RCACHE_NIL)
		c->e[e->next].prev = e->prev;
	else
		c->tail = e->prev;
}

static void lru_push_head(struct rb_rcache *c, uint32_t s)
{
	c->e[s].prev = RB_RCACHE_NIL;
	c->e[s].next = c->head;
	if (c->head != RB_RCACHE_NIL)
		c->e[c->head].prev = s;
	c->head = s;
	if (c->tail == RB_RCACHE_NIL)
		c->tail = s;
}

/* A free entry, else the least recent unpinned one (unlinked); NIL: none. */
static uint32_t victim(struct rb_rcache *c)
{
	uint32_t s;

	if (c->freelist != RB_RCACHE_NIL) {
		s = c->freelist;
		c->freelist = c->e[s].next;
		c->used++;
		return s;
	}
	if (c->fresh < c->cap) {
		c->used++;
		return c->fresh++;
	}
	for (s = c->tail; s != RB_RCACHE_NIL && c->e[s].pins; s = c->e[s].prev)
		;
	if (s != RB_RCACHE_NIL) {
		lru_unlink(c, s);
		c->slot_of[c->e[s].buf] = RB_RCACHE_NIL;
		c->evictions++;
	}
	return s;
}

int rb_rcache_get(struct rb_rcache *c, uint32_t buf, uint32_t *slot, void **evicted)
{
	uint32_t s = c->slot_of[buf];

	*evicted = NULL;
	if (s != RB_RCACHE_NIL) {
		lru_unlink(c, s);
		lru_push_head(c, s);
		c->e[s].pins++;
		c->hits++;
		*slot = s;
		return 1;
	}
	s = victim(c);
	if (s == RB_RCACHE_NIL)
		return -EBUSY;
	*evicted = c->e[s].mr;
	c->e[s] = (struct rb_rcache_entry){ .buf = buf, .pins = 1 };
	c->slot_of[buf] = s;
	lru_push_head(c, s);
	c->misses++;
	*slot = s;
	return 0;
}

void rb_rcache_unpin(struct rb_rcache *c, uint32_t slot)
{
	if (c->e[slot].pins)
		c->e[slot].pins--;
}

void rb_rcache_drop(struct rb_rcache *c, uint32_t slot)
{
	lru_unlink(c, slot);
	c->slot_of[c->e[slot].buf] = RB_RCACHE_NIL;
	c->e[slot] = (struct rb_rcache_entry){ .buf = RB_RCACHE_NIL, .next = c->freelist };
	c->freelist = slot;
	c->used--;
}
