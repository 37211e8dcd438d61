/* SPDX-License-Identifier: MIT */
/*
 * Keyed message bodies (wire v19: PARAMS, HELLO, CONN), one codec for all
 * three (wire_keyed.c): a count of fields (u16), then per field
 *
 *	tag u16 (bit 15, RB_WIRE_MUST: the reader must understand it),
 *	length u16, the value (big-endian)
 *
 * in any order, each tag at most once.  A field at zero is left out and a
 * field left out reads as zero.  A reader skips a tag it does not know
 * unless it is marked must-understand, and then refuses the message
 * naming the message and the tag.  So two builds that differ only by
 * added fields talk, and a field added to any of the three costs no
 * version step.
 *
 * Internal to src/wire/: a message is a set of rows (struct rb_wfield)
 * over its struct; the plan's set adds the option table's rows.
 */
#ifndef RB_WIRE_KEYED_H
#define RB_WIRE_KEYED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cursor.h"

enum rb_wk {
	RB_WK_U8,
	RB_WK_U32, /* int or uint32_t: the same four bytes */
	RB_WK_U64,
	RB_WK_F64,   /* a double's bits */
	RB_WK_AXIS,  /* struct rb_axis: its values as u64s */
	RB_WK_STR,   /* a char array of .size: the bytes, no NUL, fewer than .size */
	RB_WK_BYTES, /* a byte array of .size, all of it */
	RB_WK_CUSTOM /* .ops */
};

/* A field whose value is more than one member of its struct (a list). */
struct rb_wops {
	const char *kind;	     /* its kind in the listing */
	bool (*sent)(const void *m); /* the message has it */
	void (*put)(struct cur *c, const void *m);
	/* The value's @n bytes from @c into @m: 0 or -EBADMSG. */
	int (*get)(struct cur *c, size_t n, void *m);
};

struct rb_wfield {
	uint16_t tag; /* 1..RB_WIRE_TAG_MAX, never reused */
	enum rb_wk kind;
	size_t off;    /* in the message's struct */
	size_t size;   /* RB_WK_STR, RB_WK_BYTES: the array's */
	bool optional; /* a reader that does not know it may skip it */
	const char *name;
	const struct rb_wops *ops; /* RB_WK_CUSTOM */
};

struct rb_wset {
	const char *what; /* "plan", "HELLO", "CONN": in messages */
	/* Fields from elsewhere (the plan's option rows), walked first. */
	int (*each_more)(int (*fn)(const struct rb_wfield *f, void *arg), void *arg);
	const struct rb_wfield *rows;
	size_t nrows;
};

/* @m's fields into @buf: the body's length, or -EMSGSIZE. */
int rb_wkeyed_pack(const struct rb_wset *s, const void *m, uint8_t *buf, size_t cap);

/*
 * rb_wkeyed_unpack() - @len bytes into @m (zeroed by the caller): 0,
 * -EBADMSG (truncated, bytes after the last field, a tag twice, a known
 * field at a wrong length) or -ENOTSUP (a tag this build does not know,
 * marked must-understand), with why in @err.
 */
int rb_wkeyed_unpack(const struct rb_wset *s, const uint8_t *buf, size_t len, void *m, char *err,
		     size_t errlen);

/* One line a field: "[PREFIX<TAB>]TAG<TAB>must|optional<TAB>KIND<TAB>NAME". */
void rb_wkeyed_list(const struct rb_wset *s, FILE *f, const char *prefix);

/* The plan's fields so (wire_plan.c), for rb_wire_list()'s PARAMS lines. */
void rb_wire_plan_list_as(FILE *f, const char *prefix);

#endif
