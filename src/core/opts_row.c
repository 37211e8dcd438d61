// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/opts_row.h"

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

bool rb_opt_applies(const struct rb_opt *o, unsigned int scope)
{
	if (scope & RB_S_OWN)
		return false;
	return (scope & o->need) == o->need && (!o->any || (scope & o->any));
}

/* "-s/--size" or "--warmup": how messages name an option. */
const struct rb_opt *rb_opt_by_id(enum rb_opt_id id)
{
	size_t i;

	for (i = 0; id != RB_O_NONE && i < rb_nopts; i++)
		if (rb_opts[i].id == id)
			return &rb_opts[i];
	return NULL;
}

const char *rb_opt_name(const struct rb_opt *o, char *buf, size_t len)
{
	if (o->sname)
		snprintf(buf, len, "-%c/--%s", o->sname, o->lname);
	else
		snprintf(buf, len, "--%s", o->lname);
	return buf;
}

int rb_opt_check_range(const struct rb_opt *o, uint64_t v, char *err, size_t len)
{
	char n[40];

	if (o->autov && v == o->autov)
		return 0;
	if (v < o->min || v > o->max)
		return fail(err, len, "%s %llu is out of range (%llu..%llu)",
			    rb_opt_name(o, n, sizeof(n)), (unsigned long long)v,
			    (unsigned long long)o->min, (unsigned long long)o->max);
	if (o->pow2 && (v & (v - 1)))
		return fail(err, len, "%s %llu is not a power of two", rb_opt_name(o, n, sizeof(n)),
			    (unsigned long long)v);
	return 0;
}

bool rb_opt_axis_twin(const struct rb_opt *o)
{
	size_t i;

	if (o->type == RB_OPT_AXIS)
		return false;
	for (i = 0; i < rb_nopts; i++)
		if (rb_opts[i].off == o->off && rb_opts[i].type == RB_OPT_AXIS)
			return true;
	return false;
}
