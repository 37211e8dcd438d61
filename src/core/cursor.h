/* SPDX-License-Identifier: MIT */
/*
 * The byte cursor every packer shares (wire.c, counters_wire.c,
 * matrix_wire.c): big-endian fields into or out of a bounded buffer.  The
 * first overrun sets err and makes every later access a no-op, so a packer
 * or an unpacker checks once, at the end (wdone(), rdone()).  Also the
 * field groups more than one message carries: strings, a placement.
 * Internal to those files: short names, static inline.
 */
#ifndef RB_CURSOR_H
#define RB_CURSOR_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "core/rdmabench.h"

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

/*
 * Strings: u16 length, then the bytes, no NUL.  One rule both ways: a
 * string travels only whole, in at most @size - 1 bytes, so that it fits
 * its field of @size with its NUL on the other side.  Packing one that does
 * not fit (or is unterminated in its field) fails the packer (-EMSGSIZE);
 * unpacking one that does not fit, holds a NUL or runs past the body fails
 * the unpacker (-EBADMSG), with @s empty.  Never truncated.  @s of
 * PUT_STR()/GET_STR() must be an array: its size is the field's.
 */
static inline void put_str(struct cur *c, const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	if (n >= size || n > UINT16_MAX) {
		c->err = 1;
		return;
	}
	put_be(c, n, 2);
	put_bytes(c, s, n);
}

static inline void get_str(struct cur *c, char *s, size_t size)
{
	size_t n = (size_t)get_be(c, 2);

	s[0] = '\0';
	if (c->err || n >= size || !room(c, n) || memchr(c->r + c->off, '\0', n)) {
		c->err = 1;
		return;
	}
	get_bytes(c, s, n);
	s[n] = '\0';
}

/* sizeof(@a), refused at compile time when @a is a pointer. */
#define FIELD_SIZE(a)                                                                          \
	(sizeof(a) +                                                                           \
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])) ? -1 \
											  : 1]))
#define PUT_STR(c, f) put_str(c, f, FIELD_SIZE(f))
#define GET_STR(c, f) get_str(c, f, FIELD_SIZE(f))

/* Where a side ran: its NUMA facts, its CPUs and the measuring CPU's clock. */
static inline void put_place(struct cur *c, const struct rb_placement *p)
{
	put_be(c, (uint32_t)p->device_numa_node, 4);
	PUT_STR(c, p->cpus);
	put_be(c, (uint32_t)p->mem_node, 4);
	put_be(c, (uint32_t)p->local, 4);
	put_be(c, (uint32_t)p->freq_cpu, 4);
	PUT_STR(c, p->governor);
	put_be(c, p->cpu_mhz, 4);
}

static inline void get_place(struct cur *c, struct rb_placement *p)
{
	p->device_numa_node = (int32_t)get_be(c, 4);
	GET_STR(c, p->cpus);
	p->mem_node = (int32_t)get_be(c, 4);
	p->local = (int32_t)get_be(c, 4);
	p->freq_cpu = (int32_t)get_be(c, 4);
	GET_STR(c, p->governor);
	p->cpu_mhz = (uint32_t)get_be(c, 4);
}

/* A latency summary: its eight figures, in microseconds, in struct order. */
static inline void put_lat(struct cur *c, const struct rb_lat_summary *l)
{
	const double v[] = { l->min, l->p50, l->avg, l->p90, l->p99, l->p999, l->max, l->stdev };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		put_double(c, v[i]);
}

static inline void get_lat(struct cur *c, struct rb_lat_summary *l)
{
	double *v[] = { &l->min, &l->p50, &l->avg, &l->p90, &l->p99, &l->p999, &l->max, &l->stdev };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = get_double(c);
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
