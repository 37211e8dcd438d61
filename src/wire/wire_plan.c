// SPDX-License-Identifier: MIT
/*
 * PARAMS, the plan, as keyed fields (wire v18): each field is
 *
 *	tag u16 (bit 15: the reader must understand it), length u16, value
 *
 * after a count of them (u16, so that a body cut at a field's end is
 * still refused), in any order, each tag at most once; a field at zero (an empty axis,
 * an empty name) is left out, and a field left out reads as zero.  A
 * value is big-endian at its field's width (u8, u32, u64), an axis its
 * values as u64s, a list of flow labels u32s, the test's name its bytes.
 *
 * The fields are the option table's plan rows (.wire, core/opts_row.h)
 * and the few of the plan that no option sets (plan_extra[] below).  A
 * reader skips a tag it does not know unless the sender marked it must
 * understand; then it refuses the plan naming the tag.  So two builds
 * that differ only by added fields talk: a new field is sent only when
 * it is not zero, that is, when the run uses the feature.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/cursor.h"
#include "core/opts_row.h"
#include "wire/wire.h"

enum wkind { WK_U8, WK_U32, WK_U64, WK_AXIS, WK_NAME, WK_FLOWS };

struct wfield {
	uint16_t tag;
	enum wkind kind;
	size_t off; /* in struct rb_params */
	bool optional;
	const char *name; /* its member in the JSON's "params" */
};

#define PLAN(f) offsetof(struct rb_params, f)

/* The plan's fields that no option row sets (tags beside the rows'). */
static const struct wfield plan_extra[] = {
	{ 1, WK_NAME, PLAN(test), false, "test" },
	{ 14, WK_U8, PLAN(atomic_op), false, "atomic_op" },
	{ 20, WK_FLOWS, PLAN(flow_label), false, "flow_label" },
	{ 26, WK_U32, PLAN(thread), false, "thread" },
	{ 28, WK_U32, PLAN(interval_ms), false, "interval_ms" },
	{ 29, WK_U8, PLAN(forever), false, "forever" },
	{ 30, WK_U8, PLAN(rate_unit), false, "rate_unit" },
	{ 31, WK_U64, PLAN(rate), false, "rate" },
	{ 32, WK_U64, PLAN(run_id), false, "run_id" },
	{ 42, WK_U8, PLAN(credits), false, "credits" }, /* issue 45: send credits (iWARP) */
};

#define NEXTRA (sizeof(plan_extra) / sizeof(plan_extra[0]))

static enum wkind kind_of(const struct rb_opt *o)
{
	switch (o->type) {
	case RB_OPT_AXIS:
		return WK_AXIS;
	case RB_OPT_U64:
		return WK_U64;
	case RB_OPT_U32:
	case RB_OPT_I32:
		return WK_U32;
	default:
		return WK_U8;
	}
}

/* Calls @fn on each field, the rows with a tag first; stops at a nonzero return. */
static int each_field(int (*fn)(const struct wfield *f, void *arg), void *arg)
{
	const struct rb_opt *o;
	struct wfield f;
	size_t i;
	int ret;

	for (i = 0; i < rb_nopts; i++) {
		o = &rb_opts[i];
		if (!o->wire)
			continue;
		f = (struct wfield){ o->wire, kind_of(o), o->off - RB_OPT_PLAN_BEGIN,
				     o->wire_optional, o->json };
		ret = fn(&f, arg);
		if (ret)
			return ret;
	}
	for (i = 0; i < NEXTRA; i++) {
		ret = fn(&plan_extra[i], arg);
		if (ret)
			return ret;
	}
	return 0;
}

static uint64_t scalar_get(const void *p, enum wkind k)
{
	if (k == WK_U64)
		return *(const uint64_t *)p;
	if (k == WK_U32)
		return *(const uint32_t *)p;
	return *(const uint8_t *)p;
}

static void scalar_set(void *p, enum wkind k, uint64_t v)
{
	if (k == WK_U64)
		*(uint64_t *)p = v;
	else if (k == WK_U32)
		*(uint32_t *)p = (uint32_t)v;
	else
		*(uint8_t *)p = (uint8_t)v;
}

static size_t width(enum wkind k)
{
	return k == WK_U64 ? 8 : k == WK_U32 ? 4 : 1;
}

/* The value's length on the wire; 0: left out (zero). */
static size_t value_len(const struct rb_params *m, const struct wfield *f, struct cur *c)
{
	const void *p = (const char *)m + f->off;
	const struct rb_axis *a = p;

	switch (f->kind) {
	case WK_AXIS:
		if (a->n > RB_MAX_AXIS)
			c->err = 1; /* rb_pack_params() then returns -EMSGSIZE */
		return a->n > RB_MAX_AXIS ? 0 : a->n * 8;
	case WK_NAME:
		return strnlen(m->test, sizeof(m->test) - 1);
	case WK_FLOWS:
		if (m->nflow > RB_FLOW_MAX)
			c->err = 1;
		return m->nflow > RB_FLOW_MAX ? 0 : m->nflow * 4;
	default:
		return scalar_get(p, f->kind) ? width(f->kind) : 0;
	}
}

struct wpack {
	const struct rb_params *m;
	struct cur c;
	size_t count;
};

static int put_field(const struct wfield *f, void *arg)
{
	struct wpack *w = arg;
	const struct rb_params *m = w->m;
	struct cur *c = &w->c;
	const void *p = (const char *)m + f->off;
	size_t n = value_len(m, f, c), i;

	if (!n)
		return 0;
	w->count++;
	put_be(c, f->tag | (f->optional ? 0 : RB_WIRE_MUST), 2);
	put_be(c, n, 2);
	if (f->kind == WK_AXIS)
		for (i = 0; i < n / 8; i++)
			put_be(c, ((const struct rb_axis *)p)->v[i], 8);
	else if (f->kind == WK_NAME)
		put_bytes(c, m->test, n);
	else if (f->kind == WK_FLOWS)
		for (i = 0; i < n / 4; i++)
			put_be(c, m->flow_label[i], 4);
	else
		put_be(c, scalar_get(p, f->kind), n);
	return 0;
}

int rb_pack_params(const struct rb_params *m, uint8_t *buf, size_t cap)
{
	struct wpack w = { .m = m, .c = wcur(buf, cap) };
	struct cur head = wcur(buf, cap);

	put_be(&w.c, 0, 2); /* the count, once known */
	each_field(put_field, &w);
	put_be(&head, w.count, 2);
	return wdone(&w.c);
}

struct rfield {
	uint16_t tag;
	struct cur *c; /* the value's bytes */
	struct rb_params *m;
	bool found;
	int ret;
};

/* A value of @n bytes into field @f, when its length fits the field's kind. */
static int get_value(const struct wfield *f, struct cur *c, size_t n, struct rb_params *m)
{
	void *p = (char *)m + f->off;
	struct rb_axis *a = p;
	size_t i;

	switch (f->kind) {
	case WK_AXIS:
		if (n % 8 || n / 8 > RB_MAX_AXIS)
			return -EBADMSG;
		for (a->n = (uint32_t)(n / 8), i = 0; i < a->n; i++)
			a->v[i] = get_be(c, 8);
		return 0;
	case WK_NAME:
		if (n >= sizeof(m->test) || (n && memchr(c->r, '\0', n)))
			return -EBADMSG;
		get_bytes(c, m->test, n);
		m->test[n] = '\0';
		return 0;
	case WK_FLOWS:
		if (n % 4 || n / 4 > RB_FLOW_MAX)
			return -EBADMSG;
		for (m->nflow = (uint32_t)(n / 4), i = 0; i < m->nflow; i++)
			m->flow_label[i] = (uint32_t)get_be(c, 4);
		return 0;
	default:
		if (n != width(f->kind))
			return -EBADMSG;
		scalar_set(p, f->kind, get_be(c, n));
		return 0;
	}
}

static int match_field(const struct wfield *f, void *arg)
{
	struct rfield *r = arg;

	if (f->tag != r->tag)
		return 0;
	r->found = true;
	r->ret = get_value(f, r->c, r->c->cap - r->c->off, r->m);
	return 1;
}

int rb_unpack_params_why(const uint8_t *buf, size_t len, struct rb_params *m, char *err,
			 size_t errlen)
{
	struct cur c = rcur(buf, len), v;
	uint8_t seen[(RB_WIRE_TAG_MAX + 1) / 8] = { 0 };
	struct rfield r = { .m = m };
	uint16_t tag;
	size_t n, count;

	memset(m, 0, sizeof(*m));
	for (count = (size_t)get_be(&c, 2); !c.err && count; count--) {
		tag = (uint16_t)get_be(&c, 2);
		n = (size_t)get_be(&c, 2);
		if (!room(&c, n))
			break;
		if (seen[(tag & RB_WIRE_TAG_MAX) / 8] & (1u << (tag % 8))) {
			rb_set_err(err, errlen, -EBADMSG, "plan field %u given twice",
				   tag & RB_WIRE_TAG_MAX);
			return -EBADMSG;
		}
		seen[(tag & RB_WIRE_TAG_MAX) / 8] |= (uint8_t)(1u << (tag % 8));
		v = rcur(c.r + c.off, n);
		r = (struct rfield){ .tag = tag & RB_WIRE_TAG_MAX, .c = &v, .m = m };
		each_field(match_field, &r);
		c.off += n;
		if (r.found && (r.ret || rdone(&v))) {
			rb_set_err(err, errlen, -EBADMSG, "plan field %u has a bad length (%zu)",
				   r.tag, n);
			return -EBADMSG;
		}
		if (!r.found && (tag & RB_WIRE_MUST)) {
			rb_set_err(err, errlen, -ENOTSUP,
				   "plan field %u is one this build does not know and must "
				   "understand: the peer runs a newer rdmabench with a feature "
				   "this "
				   "one lacks",
				   r.tag);
			return -ENOTSUP;
		}
	}
	if (rdone(&c))
		return rb_set_err(err, errlen, -EBADMSG, "plan of %zu bytes: %s", len,
				  c.err ? "truncated" : "bytes after its last field");
	return 0;
}

int rb_unpack_params(const uint8_t *buf, size_t len, struct rb_params *m)
{
	return rb_unpack_params_why(buf, len, m, NULL, 0);
}

static int list_field(const struct wfield *f, void *arg)
{
	static const char *const kinds[] = { "u8", "u32", "u64", "axis", "name", "flows" };

	fprintf(arg, "%u\t%s\t%s\t%s\n", f->tag, f->optional ? "optional" : "must", kinds[f->kind],
		f->name);
	return 0;
}

void rb_wire_plan_list(FILE *f)
{
	each_field(list_field, f);
}
