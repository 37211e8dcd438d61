/* SPDX-License-Identifier: MIT */
/*
 * The byte cursor every packer shares (wire.c, counters_wire.c,
 * matrix_wire.c): big-endian fields into or out of a bounded buffer.  The
 * first overrun sets err and makes every later access a no-op, so a packer
 * or an unpacker checks once, at the end (wdone(), rdone()).  Internal to
 * those files: short names, static inline.
 */
#ifndef RB_CURSOR_H
#define RB_CURSOR_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cur {
	uint8_t *w;
	const uint8_t *r;
	size_t cap, off;
	int err;
};

static inline bool room(struct cur *c, size_t n)
{
	if (c->err || n > c->cap - c->off) {
		c->err = 1;
		return false;
	}
	return true;
}

static inline void put_be(struct cur *c, uint64_t v, size_t n)
{
	size_t i;

	if (!room(c, n))
		return;
	for (i = 0; i < n; i++)
		c->w[c->off + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	c->off += n;
}

static inline uint64_t get_be(struct cur *c, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (!room(c, n))
		return 0;
	for (i = 0; i < n; i++)
		v = v << 8 | c->r[c->off + i];
	c->off += n;
	return v;
}

static inline void put_bytes(struct cur *c, const void *p, size_t n)
{
	if (!room(c, n))
		return;
	memcpy(c->w + c->off, p, n);
	c->off += n;
}

static inline void get_bytes(struct cur *c, void *p, size_t n)
{
	if (!room(c, n))
		return;
	memcpy(p, c->r + c->off, n);
	c->off += n;
}

static inline void put_double(struct cur *c, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_be(c, v, 8);
}

static inline double get_double(struct cur *c)
{
	uint64_t v = get_be(c, 8);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static inline struct cur wcur(uint8_t *buf, size_t cap)
{
	return (struct cur){ .w = buf, .cap = cap };
}

static inline struct cur rcur(const uint8_t *buf, size_t len)
{
	return (struct cur){ .r = buf, .cap = len };
}

/* The length packed, or -EMSGSIZE when it did not fit. */
static inline int wdone(struct cur *c)
{
	return c->err ? -EMSGSIZE : (int)c->off;
}

/* A body must be consumed exactly: trailing bytes mean a confused peer. */
static inline int rdone(struct cur *c)
{
	return c->err || c->off != c->cap ? -EBADMSG : 0;
}

#endif
