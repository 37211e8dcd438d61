// SPDX-License-Identifier: MIT
/* Keyed message bodies: wire_keyed.h says the format. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wire/wire.h"
#include "wire/wire_keyed.h"

/* Calls @fn on each field of @s, the set's outside ones first; stops at a nonzero return. */
static int each(const struct rb_wset *s, int (*fn)(const struct rb_wfield *f, void *arg), void *arg)
{
	size_t i;
	int ret = s->each_more ? s->each_more(fn, arg) : 0;

	for (i = 0; !ret && i < s->nrows; i++)
		ret = fn(&s->rows[i], arg);
	return ret;
}

static size_t width(enum rb_wk k)
{
	return k == RB_WK_U64 || k == RB_WK_F64 ? 8 : k == RB_WK_U32 ? 4 : 1;
}

static uint64_t scalar_get(const void *p, enum rb_wk k)
{
	uint64_t v;

	if (k == RB_WK_U64 || k == RB_WK_F64) {
		memcpy(&v, p, 8);
		return v;
	}
	if (k == RB_WK_U32)
		return *(const uint32_t *)p;
	return *(const uint8_t *)p;
}

static void scalar_set(void *p, enum rb_wk k, uint64_t v)
{
	if (k == RB_WK_U64 || k == RB_WK_F64)
		memcpy(p, &v, 8);
	else if (k == RB_WK_U32)
		*(uint32_t *)p = (uint32_t)v;
	else
		*(uint8_t *)p = (uint8_t)v;
}

/* Whether @f is sent: not at zero. */
static bool sent(const struct rb_wfield *f, const void *m)
{
	const uint8_t *p = (const uint8_t *)m + f->off;
	size_t i;

	switch (f->kind) {
	case RB_WK_AXIS:
		return ((const struct rb_axis *)p)->n != 0;
	case RB_WK_STR:
		return p[0] != 0;
	case RB_WK_BYTES:
		for (i = 0; i < f->size; i++)
			if (p[i])
				return true;
		return false;
	case RB_WK_CUSTOM:
		return f->ops->sent(m);
	default:
		return scalar_get(p, f->kind) != 0;
	}
}

static void put_value(const struct rb_wfield *f, const void *m, struct cur *c)
{
	const uint8_t *p = (const uint8_t *)m + f->off;
	const struct rb_axis *a = (const void *)p;
	size_t i, n;

	switch (f->kind) {
	case RB_WK_AXIS:
		if (a->n > RB_MAX_AXIS)
			c->err = 1;
		for (i = 0; !c->err && i < a->n; i++)
			put_be(c, a->v[i], 8);
		return;
	case RB_WK_STR:
		n = strnlen((const char *)p, f->size);
		if (n >= f->size)
			c->err = 1; /* unterminated in its field */
		put_bytes(c, p, n);
		return;
	case RB_WK_BYTES:
		put_bytes(c, p, f->size);
		return;
	case RB_WK_CUSTOM:
		f->ops->put(c, m);
		return;
	default:
		put_be(c, scalar_get(p, f->kind), width(f->kind));
	}
}

struct wpack {
	const void *m;
	struct cur c;
	size_t count;
};

static int put_field(const struct rb_wfield *f, void *arg)
{
	struct wpack *w = arg;
	struct cur *c = &w->c, head;
	size_t at;

	if (!sent(f, w->m))
		return 0;
	w->count++;
	put_be(c, f->tag | (f->optional ? 0 : RB_WIRE_MUST), 2);
	head = *c;
	put_be(c, 0, 2); /* the length, once known */
	at = c->off;
	put_value(f, w->m, c);
	if (c->off - at > UINT16_MAX)
		c->err = 1;
	if (!c->err)
		put_be(&head, c->off - at, 2);
	return 0;
}

int rb_wkeyed_pack(const struct rb_wset *s, const void *m, uint8_t *buf, size_t cap)
{
	struct wpack w = { .m = m, .c = wcur(buf, cap) };
	struct cur head = wcur(buf, cap);

	put_be(&w.c, 0, 2); /* the count, once known */
	each(s, put_field, &w);
	if (!w.c.err)
		put_be(&head, w.count, 2);
	return wdone(&w.c);
}

/* A value of @n bytes into field @f, when its length fits the field's kind. */
static int get_value(const struct rb_wfield *f, struct cur *c, size_t n, void *m)
{
	uint8_t *p = (uint8_t *)m + f->off;
	struct rb_axis *a = (void *)p;
	size_t i;

	switch (f->kind) {
	case RB_WK_AXIS:
		if (n % 8 || n / 8 > RB_MAX_AXIS)
			return -EBADMSG;
		for (a->n = (uint32_t)(n / 8), i = 0; i < a->n; i++)
			a->v[i] = get_be(c, 8);
		return 0;
	case RB_WK_STR:
		if (n >= f->size || (n && memchr(c->r + c->off, '\0', n)))
			return -EBADMSG;
		get_bytes(c, p, n);
		p[n] = '\0';
		return 0;
	case RB_WK_BYTES:
		if (n != f->size)
			return -EBADMSG;
		get_bytes(c, p, n);
		return 0;
	case RB_WK_CUSTOM:
		return f->ops->get(c, n, m);
	default:
		if (n != width(f->kind))
			return -EBADMSG;
		scalar_set(p, f->kind, get_be(c, n));
		return 0;
	}
}

struct rfield {
	uint16_t tag;
	struct cur *c; /* the value's bytes */
	void *m;
	bool found;
	int ret;
};

static int match_field(const struct rb_wfield *f, void *arg)
{
	struct rfield *r = arg;

	if (f->tag != r->tag)
		return 0;
	r->found = true;
	r->ret = get_value(f, r->c, r->c->cap - r->c->off, r->m);
	return 1;
}

/* One field of @n bytes at @c, tag @tag as sent: 0 or -errno, said in @err. */
static int get_field(const struct rb_wset *s, struct cur *c, uint16_t tag, size_t n, void *m,
		     char *err, size_t errlen)
{
	struct cur v = rcur(c->r + c->off, n);
	struct rfield r = { .tag = tag & RB_WIRE_TAG_MAX, .c = &v, .m = m };

	each(s, match_field, &r);
	c->off += n;
	if (r.found && (r.ret || rdone(&v)))
		return rb_set_err(err, errlen, -EBADMSG, "%s field %u has a bad length (%zu)",
				  s->what, r.tag, n);
	if (!r.found && (tag & RB_WIRE_MUST))
		return rb_set_err(err, errlen, -ENOTSUP,
				  "%s field %u is one this build does not know and must "
				  "understand: the peer runs a newer rdmabench with a feature "
				  "this one lacks",
				  s->what, r.tag);
	return 0;
}

int rb_wkeyed_unpack(const struct rb_wset *s, const uint8_t *buf, size_t len, void *m, char *err,
		     size_t errlen)
{
	struct cur c = rcur(buf, len);
	uint8_t seen[(RB_WIRE_TAG_MAX + 1) / 8] = { 0 };
	uint16_t tag, t;
	size_t n, count;
	int ret;

	for (count = (size_t)get_be(&c, 2); !c.err && count; count--) {
		tag = (uint16_t)get_be(&c, 2);
		n = (size_t)get_be(&c, 2);
		if (!room(&c, n))
			break;
		t = tag & RB_WIRE_TAG_MAX;
		if (seen[t / 8] & (1u << (t % 8)))
			return rb_set_err(err, errlen, -EBADMSG, "%s field %u given twice", s->what,
					  t);
		seen[t / 8] |= (uint8_t)(1u << (t % 8));
		ret = get_field(s, &c, tag, n, m, err, errlen);
		if (ret)
			return ret;
	}
	if (rdone(&c))
		return rb_set_err(err, errlen, -EBADMSG, "%s of %zu bytes: %s", s->what, len,
				  c.err ? "truncated" : "bytes after its last field");
	return 0;
}

struct wlist {
	FILE *f;
	const char *prefix;
};

static int list_field(const struct rb_wfield *f, void *arg)
{
	static const char *const kinds[] = { "u8", "u32", "u64", "f64", "axis", "str", "bytes" };
	const struct wlist *l = arg;

	fprintf(l->f, "%s%s%u\t%s\t%s\t%s\n", l->prefix ? l->prefix : "", l->prefix ? "\t" : "",
		f->tag, f->optional ? "optional" : "must",
		f->kind == RB_WK_CUSTOM ? f->ops->kind : kinds[f->kind], f->name);
	return 0;
}

void rb_wkeyed_list(const struct rb_wset *s, FILE *f, const char *prefix)
{
	struct wlist l = { f, prefix };

	each(s, list_field, &l);
}
