// SPDX-License-Identifier: MIT
/*
 * --reg-mode cache (issue 42): the stream of a bandwidth test as an
 * application with a registration cache has it.  The client has
 * --buffers buffers of the point's size; each message picks one by
 * --reuse (core/regcache.h, seeded by the point's number).  A hit posts
 * with the cached MR; a miss registers the buffer first, after
 * deregistering the least recently used MR no WR in flight holds when
 * the cache is full.  An entry is held from its WR's post until a
 * completion covers it, so at most min(-t, --reg-cache) WRs are in
 * flight: at a post fewer than --reg-cache are, so a free or unheld
 * entry is always there to take.  -Q and
 * --cqe-poll as in per-msg's stream (regmsg.c).  The measured phase's
 * hits, registrations and deregistrations go to the point's result
 * (rcache_hit_pct, regs_per_s, deregs_per_s); the warm-up fills the
 * cache, and what is left registered at the end is not counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/regcache.h"
#include "engine/loop.h"
#include "engine/onewr.h"

struct cstream {
	struct rb_onewr w; /* first: the stream's callbacks get it */
	struct rb_rcache *cache;
	struct rb_reuse *reuse;
	uint8_t *bufs;
	uint32_t *slot; /* WR i's entry in slot[i % depth], while in flight */
};

/* The MR of buffer @b through the cache, held; its entry in *@slot. */
static int cache_mr(struct rb_run *r, struct cstream *m, uint32_t b, uint32_t *slot)
{
	struct rb_rcache_entry *e;
	void *old = NULL;
	int ret = rb_rcache_get(m->cache, b, slot, &old);

	if (ret == -EBUSY) { /* the depth rule makes this impossible */
		rb_err("%s: --reg-mode cache: every one of its %u entries is held by a WR in "
		       "flight",
		       r->c.dev.name, m->cache->cap);
		return -EPROTO;
	}
	if (ret == 1)
		return 0;
	if (old && (ret = ibv_dereg_mr(old))) {
		rb_err("%s: ibv_dereg_mr of an evicted buffer: %s", r->c.dev.name, strerror(ret));
		rb_rcache_drop(m->cache, *slot);
		return -ret;
	}
	e = &m->cache->e[*slot];
	ret = rb_mr_reg(&r->c.dev, m->bufs + (size_t)b * r->pt.size, r->pt.size,
			IBV_ACCESS_LOCAL_WRITE, (struct ibv_mr **)&e->mr);
	if (ret)
		rb_rcache_drop(m->cache, *slot);
	return ret;
}

/* Pick a buffer for WR w->posted and get its MR through the cache, held. */
static int take(struct rb_run *r, struct rb_onewr *w, struct ibv_sge *sge)
{
	struct cstream *m = (struct cstream *)w;
	uint32_t b = rb_reuse_next(m->reuse), *slot = &m->slot[w->posted % w->depth];
	int ret = cache_mr(r, m, b, slot);

	if (ret)
		return ret;
	sge->addr = (uintptr_t)(m->bufs + (size_t)b * r->pt.size);
	sge->lkey = ((struct ibv_mr *)m->cache->e[*slot].mr)->lkey;
	return 0;
}

/* The WR was not posted: its entry is no longer held. */
static void untake(struct rb_run *r, struct rb_onewr *w)
{
	struct cstream *m = (struct cstream *)w;

	(void)r;
	rb_rcache_unpin(m->cache, m->slot[w->posted % w->depth]);
}

/* A completion covered WR @i: its entry is free to go. */
static int put(struct rb_run *r, struct rb_onewr *w, uint64_t i)
{
	struct cstream *m = (struct cstream *)w;

	(void)r;
	rb_rcache_unpin(m->cache, m->slot[i % w->depth]);
	return 0;
}

/* Deregister what the cache holds; the buffers and tables go. */
static void release(struct rb_rcache *c, struct rb_reuse *u, uint8_t *bufs, uint32_t *slot)
{
	uint32_t s;

	for (s = 0; c->e && s < c->cap; s++)
		if (c->e[s].mr)
			ibv_dereg_mr(c->e[s].mr);
	rb_rcache_free(c);
	rb_reuse_free(u);
	free(bufs);
	free(slot);
}

/* The cache, the pattern and the buffers of a point (touched: no page faults in the loop). */
static int setup(struct rb_run *r, struct cstream *m, uint32_t depth)
{
	size_t len = (size_t)r->p->buffers * r->pt.size;
	void *bufs = NULL;
	int ret = rb_rcache_init(m->cache, r->p->reg_cache, r->p->buffers);

	if (!ret)
		ret = rb_reuse_init(m->reuse, r->p->reuse, r->p->reuse_zipf, r->p->buffers,
				    0x42ULL << 32 | (uint64_t)r->p->thread << 16 | r->point);
	if (!ret && posix_memalign(&bufs, 4096, len ? len : 1))
		ret = -ENOMEM;
	m->slot = calloc(depth, sizeof(*m->slot));
	if (!ret && !m->slot)
		ret = -ENOMEM;
	if (ret)
		rb_err("--reg-mode cache: %u entries over %u buffers of %llu bytes: %s",
		       r->p->reg_cache, r->p->buffers, (unsigned long long)r->pt.size,
		       strerror(-ret));
	m->bufs = bufs;
	if (bufs)
		memset(bufs, 0, len);
	return ret;
}

int rb_run_stream_cache(struct rb_run *r)
{
	struct rb_rcache cache = { 0 };
	struct rb_reuse reuse = { 0 };
	uint32_t depth = r->sq[0].depth < r->p->reg_cache ? r->sq[0].depth : r->p->reg_cache;
	struct cstream m = {
		.w = { .count = r->pt.warmup, .take = take, .put = put, .untake = untake },
		.cache = &cache,
		.reuse = &reuse
	};
	uint64_t hits = 0, misses = 0, evictions = 0;
	int ret;

	r->rc.on = false;
	m.w.depth = depth ? depth : 1;
	ret = setup(r, &m, m.w.depth);
	if (!ret && m.w.count)
		ret = rb_onewr_phase(r, &m.w);
	r->total = m.w.posted;
	if (!ret) {
		hits = cache.hits;
		misses = cache.misses;
		evictions = cache.evictions;
		m.w.count = r->p->iters;
		m.w.base = m.w.posted;
		m.w.posted = m.w.done = 0;
		m.w.unsig = 0;
		m.w.measure = true;
		rb_mark_start(r);
		rb_bw_window_init(&r->win, r->k0, 0);
		ret = rb_onewr_phase(r, &m.w);
		rb_mark_end(r);
		r->ops = m.w.done;
		r->total += m.w.posted;
	}
	r->rc.on = !ret;
	r->rc.hits = cache.hits - hits;
	r->rc.misses = cache.misses - misses;
	r->rc.evictions = cache.evictions - evictions;
	release(&cache, &reuse, m.bufs, m.slot);
	return ret;
}

void rb_rcache_result(const struct rb_run *r, struct rb_result *res, uint64_t ns)
{
	uint64_t uses = r->rc.hits + r->rc.misses;

	if (!r->rc.on || !ns || !uses)
		return;
	res->has_rcache = true;
	res->rcache_hit_pct = (double)r->rc.hits * 100.0 / (double)uses;
	res->regs_per_s = (double)r->rc.misses * 1e9 / (double)ns;
	res->deregs_per_s = (double)r->rc.evictions * 1e9 / (double)ns;
}
