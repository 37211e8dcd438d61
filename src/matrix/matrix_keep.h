/* SPDX-License-Identifier: MIT */
/*
 * What the coordinator keeps of each pair, compactly: a million pairs
 * (--pattern pairs at 1024 ranks) kept as whole struct rb_result and
 * placements cost 2 KiB each.  A side of a pair (device, port, GID,
 * placement) is the same for most pairs of a rank, so each distinct one
 * is kept once in a pool and a pair holds its id; a result keeps the
 * figures its RESULT carried, packed, and only the metric groups that
 * are not all zero.  Unpacking gives back exactly what
 * rb_mx_unpack_report() gave, so the writers print the same bytes.
 * Pure: tests/unit/test_mxscale.c round-trips it.
 */
#ifndef RB_MATRIX_KEEP_H
#define RB_MATRIX_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rdmabench.h"
#include "wire/matrix_wire.h"

/* Byte strings in one growing buffer; the interned ones once each. */
struct rb_mx_pool {
	uint8_t *bytes; /* each entry: u16 length, then its bytes */
	size_t used, cap;
	size_t *off; /* interned id -> offset in bytes */
	uint32_t n, ncap;
	uint32_t *slot; /* open addressing: id + 1, 0 free */
	size_t nslot;
};

/* One side of a pair as its RESULT told it. */
struct rb_mx_side {
	uint8_t port;	   /* 0: not known */
	int16_t gid_index; /* -1: none */
	char dev[RB_MX_STR];
	char gid[RB_MX_STR];
	struct rb_placement place;
};

/* The side id of a pair no RESULT told of: no port, GID index -1, nothing else. */
#define RB_MX_SIDE_NONE 0
/* The result offset of a pair that measured nothing. */
#define RB_MX_RES_NONE 0

/*
 * rb_mx_pool_init() - an empty pool holding RB_MX_SIDE_NONE and nothing at
 * RB_MX_RES_NONE.  Returns 0 or -ENOMEM.  Free with rb_mx_pool_free().
 */
int rb_mx_pool_init(struct rb_mx_pool *p);
void rb_mx_pool_free(struct rb_mx_pool *p);

/* rb_mx_keep_side() - the id of side @s, added when new.  0 or -ENOMEM. */
int rb_mx_keep_side(struct rb_mx_pool *p, const struct rb_mx_side *s, uint32_t *id);

/* rb_mx_side_of() - side @id back. */
void rb_mx_side_of(const struct rb_mx_pool *p, uint32_t id, struct rb_mx_side *s);

/*
 * rb_mx_keep_result() - result @r, as rb_mx_unpack_report() fills it,
 * packed into @p; its offset in @off.  0 or -ENOMEM.
 */
int rb_mx_keep_result(struct rb_mx_pool *p, const struct rb_result *r, size_t *off);

/* rb_mx_result_of() - the result at @off back, as it was unpacked. */
void rb_mx_result_of(const struct rb_mx_pool *p, size_t off, struct rb_result *r);

#endif
