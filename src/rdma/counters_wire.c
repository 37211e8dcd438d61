// SPDX-License-Identifier: MIT
/*
 * The wire form of a counter set (see counters.h), for the peer's deltas.
 * Same conventions as wire.c: big-endian fields through a cursor whose
 * first overrun makes every later access a no-op, checked once at the end.
 * What arrives is untrusted: every field is checked before it is used.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/cursor.h"
#include "rdma/counters.h"

static bool name_char(uint8_t ch)
{
	return isalnum(ch) || ch == '_' || ch == '-' || ch == '.';
}

/* A name: a string (cursor.h) of 1..RB_CTR_NAME_MAX-1 name characters. */
static void put_name(struct cur *c, const char *s)
{
	if (!s[0])
		c->err = 1;
	put_str(c, s, RB_CTR_NAME_MAX);
}

static void get_name(struct cur *c, char *s)
{
	size_t i;

	get_str(c, s, RB_CTR_NAME_MAX);
	if (!s[0])
		c->err = 1;
	for (i = 0; s[i]; i++)
		if (!name_char((uint8_t)s[i]))
			c->err = 1;
	if (c->err)
		s[0] = '\0';
}

int rb_counters_pack(const struct rb_counter_set *s, uint8_t *buf, size_t cap)
{
	struct cur c = { .w = buf, .cap = cap };
	const struct rb_counter *k;
	uint32_t i;

	if (s->n > RB_CTR_MAX)
		return -EMSGSIZE;
	put_be(&c, s->driver, 1);
	put_be(&c, s->n, 2);
	for (i = 0; i < s->n; i++) {
		k = &s->c[i];
		put_name(&c, k->name);
		put_be(&c, k->value, 8);
		put_be(&c, k->src, 1);
		put_be(&c, k->kind, 1);
		put_be(&c, k->scale, 1);
		put_be(&c, k->flags, 1);
	}
	return c.err ? -EMSGSIZE : (int)c.off;
}

/* Fields a peer could get wrong, or lie about. */
static bool counter_ok(const struct rb_counter_set *s, const struct rb_counter *k)
{
	uint32_t i;

	if (k->src > RB_CTR_SRC_NETDEV || k->kind > RB_CTR_CONGESTION || !k->scale ||
	    k->flags & ~(RB_CTRF_WRAPPED | RB_CTRF_SATURATED))
		return false;
	/* A duplicate would make a JSON object with two equal keys. */
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, k->name))
			return false;
	return true;
}

static void get_counter(struct cur *c, struct rb_counter *k)
{
	get_name(c, k->name);
	k->value = get_be(c, 8);
	k->src = (uint8_t)get_be(c, 1);
	k->kind = (uint8_t)get_be(c, 1);
	k->scale = (uint8_t)get_be(c, 1);
	k->flags = (uint8_t)get_be(c, 1);
}

int rb_counters_unpack(const uint8_t *buf, size_t len, struct rb_counter_set *s)
{
	struct cur c = { .r = buf, .cap = len };
	uint32_t i, n;

	memset(s, 0, offsetof(struct rb_counter_set, c));
	s->driver = (uint8_t)get_be(&c, 1);
	n = (uint32_t)get_be(&c, 2);
	if (c.err || s->driver >= RB_PROV_COUNT || n > RB_CTR_MAX)
		goto bad;
	s->netdev_rdma = rb_counters_netdev_rdma((enum rb_prov_id)s->driver);
	for (i = 0; i < n; i++) {
		get_counter(&c, &s->c[s->n]);
		if (c.err || !counter_ok(s, &s->c[s->n]))
			goto bad;
		s->n++;
	}
	if (c.off != len)
		goto bad;
	return 0;

bad:
	memset(s, 0, offsetof(struct rb_counter_set, c));
	return -EBADMSG;
}
