// SPDX-License-Identifier: MIT
/*
 * A row's value from its argument (opts_row.h's rb_opt_set()): a flag, a
 * number in the row's range, a word of its choices, an axis, a string or
 * one more value of a list, into the field at the row's .off.  Every
 * command's rows take their values here: the tests' (cli/), and those of
 * commands with a table of their own (compare, doctor).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/opts_parser.h"
#include "core/opts_row.h"
#include "core/rdmabench.h"
#include "core/sweep.h"

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

/* @arg's index among "a|b|c", or -1. */
static int choice_of(const char *p, const char *arg, uint8_t *out)
{
	uint8_t i;

	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		if (strlen(arg) == l && !strncmp(p, arg, l)) {
			*out = i;
			return 0;
		}
		p += l + (p[l] == '|');
	}
	return -1;
}

static int parse_choice(const struct rb_opt *o, const char *arg, uint8_t *out, char *err,
			size_t len)
{
	char n[40];

	if (!choice_of(o->choices, arg, out) ||
	    (o->pt_choices && !choice_of(o->pt_choices, arg, out)))
		return 0;
	return fail(err, len, "%s '%s' is not one of %s", rb_opt_name(o, n, sizeof(n)), arg,
		    o->choices);
}

static int parse_number(const struct rb_opt *o, const char *arg, uint64_t *v, char *err, size_t len)
{
	const char *end;
	char n[40];
	int ret;

	if (o->autov && !strcmp(arg, "auto")) {
		*v = o->autov;
		return 0;
	}
	ret = o->secs ? rb_parse_secs(arg, v, &end) : rb_parse_u64(arg, o->suffix, v, &end);
	if (!ret && o->pct && !strcmp(end, "%"))
		end++;
	if (ret || *end)
		return fail(err, len, "%s '%s' is not %s%s", rb_opt_name(o, n, sizeof(n)), arg,
			    ret == -ERANGE ? "in range"
			    : o->suffix	   ? "a number (K/M/G suffixes allowed)"
			    : o->secs	   ? "a number of seconds (90, 90s, 2m, 1h)"
					   : "a number",
			    ret != -ERANGE && o->autov ? " or auto" : "");
	return rb_opt_check_range(o, *v, err, len);
}

/* One item of a list axis: a word of the row's choices, or in its .item grammar. */
static int axis_item(const struct rb_opt *o, const char *item, uint64_t *v, char *err, size_t len)
{
	char n[40];
	uint8_t c;
	int ret;

	if (o->item) {
		ret = o->item(item, v, err, len);
		return ret ? ret : rb_opt_check_range(o, *v, err, len);
	}
	if (parse_choice(o, item, &c, err, len))
		return fail(err, len, "%s '%s' is not one of %s", rb_opt_name(o, n, sizeof(n)),
			    item, o->choices);
	*v = c;
	return 0;
}

/*
 * An axis of choices (--poll busy,event) or of items in the row's own
 * grammar (--cq-moderation 1,16/10): each item by axis_item().
 */
static int parse_list_axis(const struct rb_opt *o, const char *arg, struct rb_axis *a, char *err,
			   size_t len)
{
	char item[40], n[40];
	const char *p = arg;
	size_t l;
	int ret;

	for (a->n = 0;; p += l + 1) {
		l = strcspn(p, ",");
		if (a->n == RB_MAX_AXIS)
			return fail(err, len, "%s: more than %d values",
				    rb_opt_name(o, n, sizeof(n)), RB_MAX_AXIS);
		if (l >= sizeof(item))
			return fail(err, len, "%s '%.*s' is %s%s", rb_opt_name(o, n, sizeof(n)),
				    (int)l, p, o->item ? "too long" : "not one of ",
				    o->item ? "" : o->choices);
		snprintf(item, sizeof(item), "%.*s", (int)l, p);
		ret = axis_item(o, item, &a->v[a->n++], err, len);
		if (ret || !p[l])
			return ret;
	}
}

static int parse_axis(const struct rb_opt *o, const char *arg, struct rb_axis *a, char *err,
		      size_t len)
{
	char msg[160], n[40];
	uint32_t i;
	int ret;

	if (o->choices || o->item)
		return parse_list_axis(o, arg, a, err, len);
	ret = rb_axis_parse(arg, o->suffix, a, msg, sizeof(msg));
	if (ret)
		return fail(err, len, "%s: %s", rb_opt_name(o, n, sizeof(n)), msg);
	for (i = 0; i < a->n; i++) {
		ret = rb_opt_check_range(o, a->v[i], err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* A repeatable option: one more value, checked. */
static int add_to_list(const struct rb_opt *o, struct rb_strlist *l, const char *arg,
		       rb_opt_check_fn *check, char *err, size_t len)
{
	char n[40];
	int ret;

	if (l->n == RB_LIST_MAX)
		return fail(err, len, "%s: more than %d given", rb_opt_name(o, n, sizeof(n)),
			    RB_LIST_MAX);
	if (strlen(arg) >= RB_LIST_TEXT)
		return fail(err, len, "%s: '%s' is longer than %d characters",
			    rb_opt_name(o, n, sizeof(n)), arg, RB_LIST_TEXT - 1);
	ret = check(o, arg, err, len);
	if (!ret)
		strcpy(l->v[l->n++], arg);
	return ret;
}

/* Whether @o is a row of the tests' table (rb_opts[]), where twins live. */
static bool tests_row(const struct rb_opt *o)
{
	uintptr_t p = (uintptr_t)o, a = (uintptr_t)rb_opts;

	return p >= a && p < a + rb_nopts * sizeof(*o);
}

int rb_opt_set(const struct rb_opt *o, void *base, const char *arg, rb_opt_check_fn *check,
	       char *err, size_t len)
{
	char *field = (char *)base + o->off, n[40];
	uint64_t v = 0;
	int ret = 0;

	switch (o->type) {
	case RB_OPT_FLAG:
		/* A flag over an axis (-e: --poll event) sets it to its .max. */
		if (tests_row(o) && rb_opt_axis_twin(o))
			rb_axis_set1((struct rb_axis *)field, o->max);
		else
			*(uint8_t *)field = 1;
		return 0;
	case RB_OPT_STR:
		if (strlen(arg) >= o->size)
			return fail(err, len, "%s: '%s' is longer than %zu characters",
				    rb_opt_name(o, n, sizeof(n)), arg, o->size - 1);
		ret = check(o, arg, err, len);
		if (!ret)
			strcpy(field, arg);
		return ret;
	case RB_OPT_LIST:
		return add_to_list(o, (struct rb_strlist *)field, arg, check, err, len);
	case RB_OPT_CHOICE:
		return parse_choice(o, arg, (uint8_t *)field, err, len);
	case RB_OPT_AXIS:
		return parse_axis(o, arg, (struct rb_axis *)field, err, len);
	default:
		ret = parse_number(o, arg, &v, err, len);
		break;
	}
	if (ret)
		return ret;
	if (o->type == RB_OPT_U64)
		*(uint64_t *)field = v;
	else if (o->type == RB_OPT_U32)
		*(uint32_t *)field = (uint32_t)v;
	else
		*(int32_t *)field = (int32_t)v;
	return 0;
}

/* A command's own table: core's one parser (opts_getopt.c) over its rows. */
int rb_opt_parse(const struct rb_opt_table *t, void *base, uint8_t *given, int argc, char **argv,
		 char *err, size_t len)
{
	const struct rb_opt_parser p = { .cmd = t->cmd, .table = t, .base = base, .given = given };

	if (t->n > RB_OWN_MAX)
		return fail(err, len, "%s: more than %d options (a bug)", t->cmd, RB_OWN_MAX);
	memset(given, 0, t->n);
	return rb_opt_getopt(&p, argc, argv, err, len);
}

void rb_opt_list(FILE *f, const struct rb_opt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct rb_opt *o = &t->rows[i];

		fprintf(f, "--%s\t", o->lname);
		if (o->sname)
			fprintf(f, "-%c", o->sname);
		fprintf(f, "\t%s\t%s\n", o->argname ? o->argname : "",
			o->choices ? o->choices : "");
	}
}
