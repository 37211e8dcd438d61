// SPDX-License-Identifier: MIT
/*
 * The matrix coordinator's messages (matrix_wire.h), through the cursor
 * wire.c uses (cursor.h): the first overrun sets err and every later
 * access is a no-op, so each packer checks once at the end.
 */
#include <errno.h>
#include <string.h>

#include "core/cursor.h"
#include "wire/matrix_wire.h"
#include "core/metrics.h"

/* A flag is 0 or 1 on the wire: anything else is refused. */
static bool get_bool(struct cur *c)
{
	uint64_t v = get_be(c, 1);

	if (v > 1)
		c->err = 1;
	return v == 1;
}

int rb_mx_pack_join(const struct rb_mx_join *m, uint8_t *buf, size_t cap)
{
	struct cur c = { .w = buf, .cap = cap };

	put_be(&c, m->proto, 2);
	put_be(&c, m->rank, 4);
	put_be(&c, m->nranks, 4);
	put_be(&c, m->local, 4);
	PUT_STR(&c, m->tool_version);
	PUT_STR(&c, m->test);
	PUT_STR(&c, m->host);
	PUT_STR(&c, m->device);
	PUT_STR(&c, m->addr);
	put_be(&c, m->auth, 1);
	put_bytes(&c, m->nonce, sizeof(m->nonce));
	return wdone(&c);
}

int rb_mx_unpack_join(const uint8_t *buf, size_t len, struct rb_mx_join *m)
{
	struct cur c = { .r = buf, .cap = len };

	m->auth = 0;
	memset(m->nonce, 0, sizeof(m->nonce));
	m->proto = (uint16_t)get_be(&c, 2);
	m->rank = (uint32_t)get_be(&c, 4);
	m->nranks = (uint32_t)get_be(&c, 4);
	m->local = (uint32_t)get_be(&c, 4);
	GET_STR(&c, m->tool_version);
	GET_STR(&c, m->test);
	GET_STR(&c, m->host);
	GET_STR(&c, m->device);
	GET_STR(&c, m->addr);
	if (m->proto != RB_MX_PROTO)
		return c.err ? -EBADMSG : 0; /* refused by its version, named */
	m->auth = get_bool(&c);
	get_bytes(&c, m->nonce, sizeof(m->nonce));
	return rdone(&c);
}

int rb_mx_pack_round(const struct rb_mx_round *m, uint8_t *buf, size_t cap)
{
	struct cur c = { .w = buf, .cap = cap };
	uint32_t i;

	if (m->ntasks > RB_MX_WIRE_TASKS)
		return -EMSGSIZE;
	put_be(&c, m->round, 4);
	put_be(&c, m->ntasks, 2);
	for (i = 0; i < m->ntasks; i++) {
		const struct rb_mx_task *t = &m->task[i];

		put_be(&c, t->pair, 4);
		put_be(&c, t->role, 1);
		put_be(&c, t->peer, 4);
		put_be(&c, t->port, 2);
		PUT_STR(&c, t->addr);
	}
	return wdone(&c);
}

int rb_mx_unpack_round(const uint8_t *buf, size_t len, struct rb_mx_round *m)
{
	struct cur c = { .r = buf, .cap = len };
	uint32_t i;

	m->round = (uint32_t)get_be(&c, 4);
	m->ntasks = (uint32_t)get_be(&c, 2);
	if (m->ntasks > RB_MX_WIRE_TASKS)
		return -EBADMSG;
	for (i = 0; i < m->ntasks && !c.err; i++) {
		struct rb_mx_task *t = &m->task[i];

		t->pair = (uint32_t)get_be(&c, 4);
		t->role = (uint8_t)get_be(&c, 1);
		t->peer = (uint32_t)get_be(&c, 4);
		t->port = (uint16_t)get_be(&c, 2);
		GET_STR(&c, t->addr);
		if (t->role > RB_MX_RUN)
			c.err = 1;
	}
	return rdone(&c);
}

int rb_mx_pack_tick(const struct rb_mx_tick *m, uint8_t *buf, size_t cap)
{
	struct cur c = { .w = buf, .cap = cap };

	put_be(&c, m->round, 4);
	put_be(&c, m->pair, 4);
	return wdone(&c);
}

int rb_mx_unpack_tick(const uint8_t *buf, size_t len, struct rb_mx_tick *m)
{
	struct cur c = { .r = buf, .cap = len };

	m->round = (uint32_t)get_be(&c, 4);
	m->pair = (uint32_t)get_be(&c, 4);
	return rdone(&c);
}

/*
 * A result's figures: the metric table's, group by group (its has_* flag,
 * then its stored rows in table order; derived rows travel as their
 * source).  A row added to the table changes this layout: step
 * RB_MX_PROTO with it.
 */
static void put_metrics(struct cur *c, const struct rb_result *r)
{
	const struct rb_metric *m;
	int g;

	for (g = 0; g < RB_MG_COUNT; g++) {
		put_be(c, rb_metric_group_has((enum rb_metric_group)g, r), 1);
		for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
			if (m->group == (enum rb_metric_group)g && !m->derive)
				put_double(c, rb_metric_value(m, r));
	}
}

static void get_metrics(struct cur *c, struct rb_result *r)
{
	const struct rb_metric *m;
	int g;

	for (g = 0; g < RB_MG_COUNT; g++) {
		rb_metric_group_set((enum rb_metric_group)g, r, get_bool(c));
		for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
			if (m->group == (enum rb_metric_group)g && !m->derive)
				rb_metric_set(m, r, get_double(c));
	}
}

static void put_res(struct cur *c, const struct rb_result *r)
{
	put_be(c, r->pt.size, 8);
	put_be(c, r->pt.batch, 4);
	put_be(c, r->pt.signal, 4);
	put_be(c, r->pt.qps, 4);
	put_be(c, r->pt.tx_depth, 4);
	put_be(c, r->pt.cqe_poll, 4); /* v3 */
	put_be(c, r->pt.poll, 1);
	put_be(c, r->pt.lock, 1); /* v9 */
	put_be(c, r->pt.hold_us, 4);
	put_be(c, r->pt.cq_mod, 4);
	put_be(c, r->iters, 8);
	put_double(c, r->duration_s);
	put_metrics(c, r);
}

static void get_res(struct cur *c, struct rb_result *r)
{
	r->pt.size = get_be(c, 8);
	r->pt.batch = (uint32_t)get_be(c, 4);
	r->pt.signal = (uint32_t)get_be(c, 4);
	r->pt.qps = (uint32_t)get_be(c, 4);
	r->pt.tx_depth = (uint32_t)get_be(c, 4);
	r->pt.cqe_poll = (uint32_t)get_be(c, 4);
	r->pt.poll = (uint8_t)get_be(c, 1);
	r->pt.lock = (uint8_t)get_be(c, 1);
	r->pt.hold_us = (uint32_t)get_be(c, 4);
	r->pt.cq_mod = (uint32_t)get_be(c, 4);
	r->iters = get_be(c, 8);
	r->duration_s = get_double(c);
	get_metrics(c, r);
}

int rb_mx_pack_report(const struct rb_mx_report *m, uint8_t *buf, size_t cap)
{
	struct cur c = { .w = buf, .cap = cap };

	put_be(&c, m->round, 4);
	put_be(&c, m->pair, 4);
	put_be(&c, m->role, 1);
	put_be(&c, (uint32_t)m->status, 4);
	PUT_STR(&c, m->reason);
	PUT_STR(&c, m->device);
	put_be(&c, m->port, 1);
	put_be(&c, (uint16_t)(m->gid_index + 1), 2); /* 0: none */
	PUT_STR(&c, m->gid);
	put_place(&c, &m->place);
	put_be(&c, m->has_res, 1);
	if (m->has_res)
		put_res(&c, &m->res);
	return wdone(&c);
}

int rb_mx_unpack_report(const uint8_t *buf, size_t len, struct rb_mx_report *m)
{
	struct cur c = { .r = buf, .cap = len };

	memset(&m->res, 0, sizeof(m->res));
	m->round = (uint32_t)get_be(&c, 4);
	m->pair = (uint32_t)get_be(&c, 4);
	m->role = (uint8_t)get_be(&c, 1);
	m->status = (int32_t)get_be(&c, 4);
	GET_STR(&c, m->reason);
	GET_STR(&c, m->device);
	m->port = (uint8_t)get_be(&c, 1);
	m->gid_index = (int16_t)((int)get_be(&c, 2) - 1);
	GET_STR(&c, m->gid);
	get_place(&c, &m->place);
	m->has_res = get_bool(&c);
	if (m->has_res)
		get_res(&c, &m->res);
	/* A GID index is 0..4095 (-x's range), as the option table has it. */
	if (m->role > RB_MX_RUN || m->gid_index > 4095)
		c.err = 1;
	return rdone(&c);
}

const char *rb_mx_msg_name(uint16_t type)
{
	static const char *const names[] = { "JOIN",   "WELCOME", "ROUND", "READY", "GO",
					     "RESULT", "OVER",	  "DONE",  "BEAT",  "END" };

	if (type < RB_MX_MSG_JOIN || type > RB_MX_MSG_END)
		return NULL;
	return names[type - RB_MX_MSG_JOIN];
}
