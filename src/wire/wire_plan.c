// SPDX-License-Identifier: MIT
/*
 * PARAMS, the plan, as keyed fields (since wire v18; the codec, shared
 * with HELLO and CONN, is wire_keyed.c): a field at zero (an empty axis,
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

#include "core/opts_row.h"
#include "wire/wire.h"
#include "wire/wire_keyed.h"

#define PLAN(f) offsetof(struct rb_params, f)

/* The flow labels: nflow u32s. */
static bool flows_sent(const void *m)
{
	return ((const struct rb_params *)m)->nflow != 0;
}

static void flows_put(struct cur *c, const void *m)
{
	const struct rb_params *p = m;
	uint32_t i;

	if (p->nflow > RB_FLOW_MAX)
		c->err = 1; /* rb_pack_params() then returns -EMSGSIZE */
	for (i = 0; !c->err && i < p->nflow; i++)
		put_be(c, p->flow_label[i], 4);
}

static int flows_get(struct cur *c, size_t n, void *m)
{
	struct rb_params *p = m;
	uint32_t i;

	if (n % 4 || n / 4 > RB_FLOW_MAX)
		return -EBADMSG;
	for (p->nflow = (uint32_t)(n / 4), i = 0; i < p->nflow; i++)
		p->flow_label[i] = (uint32_t)get_be(c, 4);
	return 0;
}

static const struct rb_wops flows = { "flows", flows_sent, flows_put, flows_get };

/* The plan's fields that no option row sets (tags beside the rows'). */
static const struct rb_wfield plan_extra[] = {
	{ 1, RB_WK_STR, PLAN(test), sizeof(((struct rb_params *)0)->test), false, "test", NULL },
	{ 14, RB_WK_U8, PLAN(atomic_op), 0, false, "atomic_op", NULL },
	{ 20, RB_WK_CUSTOM, 0, 0, false, "flow_label", &flows },
	{ 26, RB_WK_U32, PLAN(thread), 0, false, "thread", NULL },
	{ 28, RB_WK_U32, PLAN(interval_ms), 0, false, "interval_ms", NULL },
	{ 29, RB_WK_U8, PLAN(forever), 0, false, "forever", NULL },
	{ 30, RB_WK_U8, PLAN(rate_unit), 0, false, "rate_unit", NULL },
	{ 31, RB_WK_U64, PLAN(rate), 0, false, "rate", NULL },
	{ 32, RB_WK_U64, PLAN(run_id), 0, false, "run_id", NULL },
	{ 42, RB_WK_U8, PLAN(credits), 0, false, "credits",
	  NULL }, /* issue 45: send credits (iWARP) */
	{ 53, RB_WK_U8, PLAN(lock_layout), 0, false, "lock_layout", NULL },
};

static enum rb_wk kind_of(const struct rb_opt *o)
{
	switch (o->type) {
	case RB_OPT_AXIS:
		return RB_WK_AXIS;
	case RB_OPT_U64:
		return RB_WK_U64;
	case RB_OPT_U32:
	case RB_OPT_I32:
		return RB_WK_U32;
	default:
		return RB_WK_U8;
	}
}

/* The option table's plan rows, as fields. */
static int each_row(int (*fn)(const struct rb_wfield *f, void *arg), void *arg)
{
	const struct rb_opt *o;
	struct rb_wfield f;
	size_t i;
	int ret;

	for (i = 0; i < rb_nopts; i++) {
		o = &rb_opts[i];
		if (!o->wire)
			continue;
		f = (struct rb_wfield){ o->wire, kind_of(o),	   o->off - RB_OPT_PLAN_BEGIN,
					0,	 o->wire_optional, o->json,
					NULL };
		ret = fn(&f, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct rb_wset plan = { "plan", each_row, plan_extra,
				     sizeof(plan_extra) / sizeof(plan_extra[0]) };

int rb_pack_params(const struct rb_params *m, uint8_t *buf, size_t cap)
{
	return rb_wkeyed_pack(&plan, m, buf, cap);
}

int rb_unpack_params_why(const uint8_t *buf, size_t len, struct rb_params *m, char *err,
			 size_t errlen)
{
	memset(m, 0, sizeof(*m));
	return rb_wkeyed_unpack(&plan, buf, len, m, err, errlen);
}

int rb_unpack_params(const uint8_t *buf, size_t len, struct rb_params *m)
{
	return rb_unpack_params_why(buf, len, m, NULL, 0);
}

void rb_wire_plan_list_as(FILE *f, const char *prefix)
{
	rb_wkeyed_list(&plan, f, prefix);
}

void rb_wire_plan_list(FILE *f)
{
	rb_wire_plan_list_as(f, NULL);
}
