/* SPDX-License-Identifier: MIT */
/*
 * FNV-1a, 32 bits: a small, well-known hash for tables and marks that
 * need no resistance to a chosen input (matrix's pool of kept results,
 * a lock holder's host mark).  Pure.
 */
#ifndef RB_HASH_H
#define RB_HASH_H

#include <stddef.h>
#include <stdint.h>

#define RB_FNV1A_SEED 2166136261u

/* rb_fnv1a() - @n bytes at @b folded into @h (RB_FNV1A_SEED to start). */
static inline uint32_t rb_fnv1a(uint32_t h, const void *b, size_t n)
{
	const uint8_t *p = b;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

#endif
