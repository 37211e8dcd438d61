// SPDX-License-Identifier: MIT
/*
 * The wire tests' fixture (test_wire_*.c): a byte writer for expected
 * encodings, the unpackers behind one signature, exact-size copies (ASan
 * catches a read past @len), sample messages and their comparisons.
 */
#ifndef WIRE_FX_H
#define WIRE_FX_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/cursor.h"
#include "wire/plan.h"
#include "wire/wire.h"

#define BUFSZ 8192

/* ---- helpers ----------------------------------------------------------- */

/* A hand-rolled big-endian writer, independent of the code under test. */
struct wb {
	uint8_t b[RB_WIRE_MAX_BODY];
	size_t n;
};

typedef int (*unpack_fn)(const uint8_t *buf, size_t len, void *m);

/* Big enough for any message struct. */
union any_msg {
	struct rb_msg_hello hello;
	struct rb_params params;
	struct rb_msg_conn conn;
	struct rb_msg_sync sync;
	struct rb_msg_result result;
	struct rb_msg_text text;
};

/* Packing into every capacity below the body length must fail cleanly. */
#define CHECK_SMALL_CAP(packfn, msg, len)                           \
	do {                                                        \
		size_t cap_;                                        \
		for (cap_ = 0; cap_ <= (size_t)(len); cap_++) {     \
			uint8_t *q_ = malloc(cap_ ? cap_ : 1);      \
			int ret_;                                   \
			assert_non_null(q_);                        \
			ret_ = packfn((msg), q_, cap_);             \
			free(q_);                                   \
			if (cap_ < (size_t)(len))                   \
				assert_int_equal(ret_, -EMSGSIZE);  \
			else                                        \
				assert_int_equal(ret_, (int)(len)); \
		}                                                   \
	} while (0)

void wb_be(struct wb *w, uint64_t v, size_t n);
void wb_bytes(struct wb *w, const void *p, size_t n);
void wb_str(struct wb *w, const char *s);
/* v19: a keyed field's head: @tag, marked must-understand unless @optional, and @len. */
void wb_key(struct wb *w, uint16_t tag, bool optional, size_t len);
/*
 * kfield() - the value of the field @tag (bit 15 as sent) in the keyed
 * body @b of @len bytes, and its length in *@n; NULL when the body has
 * none.  A reader of its own, apart from the code under test.
 */
const uint8_t *kfield(const uint8_t *b, size_t len, uint16_t tag, size_t *n);
/* A heap copy of exactly @len bytes, so ASan flags reads past the end. */
uint8_t *dup_exact(const uint8_t *p, size_t len);
int up_hello(const uint8_t *b, size_t l, void *m);
int up_params(const uint8_t *b, size_t l, void *m);
int up_conn(const uint8_t *b, size_t l, void *m);
int up_sync(const uint8_t *b, size_t l, void *m);
int up_result(const uint8_t *b, size_t l, void *m);
int up_text(const uint8_t *b, size_t l, void *m);
/* Unpack @len bytes of @p through an exact-size heap copy. */
int unpack_exact(unpack_fn fn, const uint8_t *p, size_t len);
/* Every proper prefix of a valid body must be refused with -EBADMSG. */
void check_truncations(unpack_fn fn, const uint8_t *body, size_t len, const char *what);
/* A valid body followed by any extra byte must be refused. */
void check_trailing(unpack_fn fn, const uint8_t *body, size_t len);
void fill_axis(struct rb_axis *a, uint32_t n, uint64_t first, uint64_t step);
void sample_params(struct rb_params *p);
/*
 * v18: a count, then a (tag, length) head and the value of each field not
 * at zero: the seven axes (8 bytes a value), the test's name, the flow
 * labels (4 bytes each), and the scalars at their width, counted here
 * from the struct by hand (the packer walks the option rows).
 */
size_t params_len(const struct rb_params *p);
void assert_axis_equal(const struct rb_axis *a, const struct rb_axis *b);
void assert_params_equal(const struct rb_params *a, const struct rb_params *b);
void sample_conn(struct rb_msg_conn *c, uint32_t nqp);
/*
 * v19: HELLO and CONN as keyed fields, counted here from the struct by
 * hand: a field not at zero is a 4-byte head and its value (a string its
 * bytes, a list its count and first RB_CONN_CHUNK entries, a QP 26 bytes).
 */
size_t hello_len(const struct rb_msg_hello *h);
size_t conn_len(const struct rb_msg_conn *c);
void assert_conn_equal(const struct rb_msg_conn *a, const struct rb_msg_conn *b);
/* Exact doubles: the wire carries the bit pattern. */
void assert_double_bits(double got, double want);

#endif
