/* SPDX-License-Identifier: MIT */
/*
 * --reg-mode cache: an application's registration cache, pure (no verbs).
 *
 * The application has --buffers N buffers and picks one per message by
 * its --reuse pattern (struct rb_reuse: uniform, zipf:S or seq, seeded);
 * the cache (struct rb_rcache) keeps at most --reg-cache entries, each a
 * buffer's MR (opaque here), in least-recently-used order.  A hit reuses
 * the entry's MR; a miss takes a free entry or evicts the least recently
 * used one that no WR in flight holds (its MR is the caller's to
 * deregister), and the caller registers the buffer.  An entry is pinned
 * from its message's post until a completion covers it.
 */
#ifndef RB_CORE_REGCACHE_H
#define RB_CORE_REGCACHE_H

#include <stddef.h>
#include <stdint.h>

/* --reuse: the choices' order, "uniform|zipf:S|seq". */
enum rb_reuse_kind { RB_REUSE_UNIFORM, RB_REUSE_ZIPF, RB_REUSE_SEQ };

/* --reuse zipf:S, S in thousandths: 0.001 .. 10. */
#define RB_ZIPF_MILLI_MAX 10000
/* --buffers, --reg-cache: at most this many. */
#define RB_RCACHE_MAX (1u << 20)
/* --buffers x -s: at most this many bytes of the client's memory. */
#define RB_RCACHE_BYTES_MAX (64ULL << 30)

/*
 * rb_reuse_parse() - --reuse @arg into @kind and @zipf_milli (S x 1000, 0
 * unless zipf); 0, or -EINVAL with the cause in @err.
 */
int rb_reuse_parse(const char *arg, uint8_t *kind, uint32_t *zipf_milli, char *err, size_t len);

/* rb_reuse_str() - --reuse as typed back ("zipf:0.99"), into @buf. */
const char *rb_reuse_str(uint8_t kind, uint32_t zipf_milli, char *buf, size_t len);

struct rb_reuse {
	uint8_t kind;
	uint32_t n;
	uint64_t state; /* the generator's (splitmix64) */
	uint64_t next;	/* seq's next buffer */
	double *cdf;	/* zipf: cdf[i] = P(buffer <= i), cdf[n - 1] = 1 */
};

/* rb_reuse_init() - @n buffers picked by @kind, seeded by @seed; 0 or -errno. */
int rb_reuse_init(struct rb_reuse *u, uint8_t kind, uint32_t zipf_milli, uint32_t n, uint64_t seed);
/* rb_reuse_next() - the next message's buffer, 0 .. n-1 (zipf: 0 the most popular). */
uint32_t rb_reuse_next(struct rb_reuse *u);
void rb_reuse_free(struct rb_reuse *u);

struct rb_rcache_entry {
	void *mr;	     /* the caller's registration of the buffer */
	uint32_t buf;	     /* which buffer */
	uint32_t pins;	     /* WRs in flight that use it */
	uint32_t prev, next; /* LRU list: head the most recent */
};

struct rb_rcache {
	uint32_t cap, used, nbuf;
	uint32_t head, tail; /* RB_RCACHE_NIL when empty */
	uint32_t fresh;	     /* entries fresh.. were never used */
	uint32_t freelist;   /* dropped entries, linked by .next */
	struct rb_rcache_entry *e;
	uint32_t *slot_of; /* per buffer: its entry, or RB_RCACHE_NIL */
	uint64_t hits, misses, evictions;
};

#define RB_RCACHE_NIL UINT32_MAX

/* rb_rcache_init() - @cap entries over @nbuf buffers; 0 or -ENOMEM. */
int rb_rcache_init(struct rb_rcache *c, uint32_t cap, uint32_t nbuf);
void rb_rcache_free(struct rb_rcache *c);

/*
 * rb_rcache_get() - the entry of buffer @buf, pinned and made the most
 * recent, in *@slot.  1: a hit (e[*slot].mr is its MR); 0: a miss, the
 * caller registers the buffer into e[*slot].mr, and *@evicted is the MR
 * of the entry it replaced (NULL: a free entry), which the caller
 * deregisters; -EBUSY: the cache is full and every entry is pinned
 * (nothing counted, nothing changed).
 */
int rb_rcache_get(struct rb_rcache *c, uint32_t buf, uint32_t *slot, void **evicted);

/* rb_rcache_unpin() - a completion covered a WR that used entry @slot. */
void rb_rcache_unpin(struct rb_rcache *c, uint32_t slot);

/* rb_rcache_drop() - forget entry @slot (its registration failed): free again. */
void rb_rcache_drop(struct rb_rcache *c, uint32_t slot);

#endif
