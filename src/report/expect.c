// SPDX-License-Identifier: MIT
/*
 * --expect: parse, check against the run, evaluate on each point (see
 * expect.h for the grammar and the verdicts).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/expect.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

enum mclass { MC_BW, MC_RATE, MC_LAT, MC_RETRANS, MC_COUNTER, MC_OTHER };

struct unit {
	const char *name;
	double mult; /* to the metric's unit */
};

static const struct unit bw_units[] = {
	{ "Gbps", 1 },
	{ "Gb/s", 1 },
	{ "Mbps", 1e-3 },
	{ "Mb/s", 1e-3 },
	{ "GB/s", 8 },
	{ "MB/s", 8e-3 },
	{ "GiB/s", 8.0 * 1073741824 / 1e9 },
	{ "MiB/s", 8.0 * 1048576 / 1e9 },
	{ "%link", 0.01 },
	{ NULL, 0 },
};
static const struct unit rate_units[] = {
	{ "Mpps", 1 },
	{ "Kpps", 1e-3 },
	{ "pps", 1e-6 },
	{ NULL, 0 },
};
static const struct unit lat_units[] = {
	{ "ns", 1e-3 }, { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { NULL, 0 },
};
static const struct unit retrans_units[] = { { "ppm", 1 }, { NULL, 0 } };
static const struct unit no_units[] = { { NULL, 0 } };

/* The class of @e's metric: a table row's by its group and unit. */
static enum mclass class_of(const struct rb_expect *e)
{
	if (e->metric == RB_EXP_RETRANS)
		return MC_RETRANS;
	if (e->metric == RB_EXP_COUNTER)
		return MC_COUNTER;
	if (e->row->group == RB_MG_LAT)
		return MC_LAT;
	if (!strcmp(e->row->unit, "Gb/s"))
		return MC_BW;
	if (!strcmp(e->row->unit, "Mpps"))
		return MC_RATE;
	return MC_OTHER;
}

/* The units @e takes; a row of another unit takes just its own (@own). */
static const struct unit *units_of(const struct rb_expect *e, struct unit own[2])
{
	static const struct unit *const t[] = { bw_units, rate_units, lat_units, retrans_units,
						no_units };
	enum mclass c = class_of(e);

	if (c != MC_OTHER)
		return t[c];
	own[0] = (struct unit){ e->row->unit, 1 };
	own[1] = (struct unit){ NULL, 0 };
	return own;
}

/* ---- parsing ---------------------------------------------------------- */

struct pcur {
	const char *arg;
	size_t i;
	char *err;
	size_t len;
};

/* "--expect 'TEXT': at N: ..." with @at 0-based. */
__attribute__((format(printf, 3, 4))) static int perr(struct pcur *p, size_t at, const char *fmt,
						      ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rb_set_err(p->err, p->len, -EINVAL, "--expect '%s': at %zu: %s", p->arg, at + 1,
			  msg);
}

static void blanks(struct pcur *p)
{
	while (p->arg[p->i] == ' ' || p->arg[p->i] == '\t')
		p->i++;
}

static bool name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-';
}

/* A metric name, else a counter's ("lat_p99" is "p99"). */
static int parse_metric(struct pcur *p, struct rb_expect *e)
{
	const struct rb_metric *m;
	size_t start = p->i, n, k;
	const char *s;

	while (name_char(p->arg[p->i]))
		p->i++;
	n = p->i - start;
	if (!n)
		return perr(p, start,
			    "a metric is expected (bw, rate, p50, p99, retrans, a counter)");
	s = p->arg + start;
	if (n > 4 && !strncmp(s, "lat_", 4)) {
		s += 4;
		n -= 4;
	}
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++) {
		for (k = 0; k < NELEM(m->expect) && m->expect[k]; k++)
			if (strlen(m->expect[k]) == n && !strncmp(m->expect[k], s, n) &&
			    (s == p->arg + start || m->group == RB_MG_LAT))
				break;
		if (k < NELEM(m->expect) && m->expect[k]) {
			e->metric = RB_EXP_METRIC;
			e->row = m;
			return 0;
		}
	}
	if (n == 7 && !strncmp(s, "retrans", n) && s == p->arg + start) {
		e->metric = RB_EXP_RETRANS;
		return 0;
	}
	n = p->i - start;
	if (n >= RB_CTR_NAME_MAX)
		return perr(p, start, "no metric, and too long for a counter name");
	e->metric = RB_EXP_COUNTER;
	memcpy(e->counter, p->arg + start, n);
	e->counter[n] = '\0';
	return 0;
}

static int parse_op(struct pcur *p, struct rb_expect *e)
{
	static const struct {
		const char *s;
		enum rb_exp_op op;
	} ops[] = { { ">=", RB_EXP_GE },
		    { "<=", RB_EXP_LE },
		    { "==", RB_EXP_EQ },
		    { ">", RB_EXP_GT },
		    { "<", RB_EXP_LT } };
	size_t k;

	for (k = 0; k < NELEM(ops); k++) {
		if (!strncmp(p->arg + p->i, ops[k].s, strlen(ops[k].s))) {
			e->op = ops[k].op;
			p->i += strlen(ops[k].s);
			return 0;
		}
	}
	return perr(p, p->i, "an operator is expected (>=, <=, >, <, ==)");
}

/* digits [. digits]: no sign, exponent, hex, inf or nan. */
static int parse_number(struct pcur *p, double *v)
{
	size_t start = p->i;
	char buf[64];

	if (!isdigit((unsigned char)p->arg[p->i]))
		return perr(p, p->i, "a number is expected");
	while (isdigit((unsigned char)p->arg[p->i]))
		p->i++;
	if (p->arg[p->i] == '.') {
		p->i++;
		if (!isdigit((unsigned char)p->arg[p->i]))
			return perr(p, p->i, "a digit is expected after '.'");
		while (isdigit((unsigned char)p->arg[p->i]))
			p->i++;
	}
	if (p->i - start >= sizeof(buf))
		return perr(p, start, "too many digits");
	memcpy(buf, p->arg + start, p->i - start);
	buf[p->i - start] = '\0';
	*v = strtod(buf, NULL);
	return 0;
}

static void unit_list(const struct unit *u, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; u->name && off < len; u++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", u->name);
}

/* "p99", "counter rcvd_seq_err": the metric in messages. */
static const char *metric_text(const struct rb_expect *e, char *buf, size_t len)
{
	if (e->metric == RB_EXP_METRIC)
		return e->row->expect[0];
	if (e->metric == RB_EXP_RETRANS)
		return "retrans";
	snprintf(buf, len, "counter %s", e->counter);
	return buf;
}

/* "bw, bw_peak, rate, ..., retrans": the metrics --expect knows, into @buf. */
static const char *metric_list(char *buf, size_t len)
{
	const struct rb_metric *m;
	size_t off = 0;

	buf[0] = '\0';
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics && off < len; m++)
		if (m->expect[0])
			off += (size_t)snprintf(buf + off, len - off, "%s, ", m->expect[0]);
	if (off < len)
		snprintf(buf + off, len - off, "retrans");
	return buf;
}

/* The unit: the rest of the word after the number, checked against the metric's. */
static int parse_unit(struct pcur *p, struct rb_expect *e, double v, size_t numpos)
{
	struct unit own[2];
	const struct unit *u = units_of(e, own);
	char list[128], buf[RB_CTR_NAME_MAX + 16], names[256];
	const char *mt = metric_text(e, buf, sizeof(buf));
	size_t start = p->i, n;

	while (p->arg[p->i] && p->arg[p->i] != ' ' && p->arg[p->i] != '\t')
		p->i++;
	n = p->i - start;
	unit_list(u, list, sizeof(list));
	if (!n && u->name && class_of(e) != MC_RETRANS)
		return perr(p, start, "%s needs a unit (%s)", mt, list);
	if (n && !u->name)
		return perr(p, start, "\"%s\" is no metric (%s), and a counter takes no unit",
			    e->counter, metric_list(names, sizeof(names)));
	if (!n) {
		e->value = v;
		return 0;
	}
	for (; u->name; u++)
		if (strlen(u->name) == n && !strncmp(u->name, p->arg + start, n))
			break;
	if (!u->name)
		return perr(p, start, "unknown unit \"%.*s\" for %s (%s)", (int)n, p->arg + start,
			    mt, list);
	e->of_link = !strcmp(u->name, "%link");
	e->per_mpkt = !strcmp(u->name, "ppm");
	if (e->of_link && v > 100)
		return perr(p, numpos, "a link carries at most 100%% of its rate");
	e->value = v * u->mult;
	return 0;
}

int rb_expect_parse(const char *arg, struct rb_expect *e, char *err, size_t len)
{
	struct pcur p = { .arg = arg ? arg : "", .err = err, .len = len };
	size_t numpos = 0;
	double v = 0;
	int ret;

	memset(e, 0, sizeof(*e));
	if (strlen(p.arg) >= RB_EXPECT_TEXT)
		return rb_set_err(err, len, -EINVAL, "--expect: longer than %d characters",
				  RB_EXPECT_TEXT - 1);
	snprintf(e->text, sizeof(e->text), "%s", p.arg);
	blanks(&p);
	ret = parse_metric(&p, e);
	if (!ret) {
		blanks(&p);
		ret = parse_op(&p, e);
	}
	if (!ret) {
		blanks(&p);
		numpos = p.i;
		ret = parse_number(&p, &v);
	}
	if (!ret) {
		blanks(&p);
		ret = parse_unit(&p, e, v, numpos);
	}
	if (!ret) {
		blanks(&p);
		if (p.arg[p.i])
			ret = perr(&p, p.i, "unexpected '%c' after the expression", p.arg[p.i]);
	}
	return ret;
}

/* ---- checking against the run ------------------------------------------ */

/* "--expect 'TEXT': why". */
__attribute__((format(printf, 4, 5))) static int
cfail(char *err, size_t len, const struct rb_expect *e, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return rb_set_err(err, len, -EINVAL, "--expect '%s': %s", e->text, why);
}

static bool has_retrans_counter(const struct rb_counter_set *s)
{
	const char *const *n;

	for (n = rb_counters_retrans(s->driver); *n; n++)
		if (rb_counters_find(s, *n))
			return true;
	return false;
}

int rb_expect_check(const struct rb_expect *e, const struct rb_expect_env *env, char *err,
		    size_t len)
{
	const struct rb_counter_set *a = env->avail;
	enum mclass c = class_of(e);
	char buf[RB_CTR_NAME_MAX + 16];
	const char *mt = metric_text(e, buf, sizeof(buf));
	const char *test = env->test ? env->test : "this test";

	if (c == MC_LAT && env->mode != RB_MODE_LAT)
		return cfail(err, len, e, "%s is a latency, which %s does not measure", mt, test);
	if (e->metric == RB_EXP_METRIC && e->row->group == RB_MG_BW && env->mode != RB_MODE_BW)
		return cfail(err, len, e, "%s is a bandwidth figure, which %s does not measure", mt,
			     test);
	if (e->of_link && !(env->link_gbps > 0))
		return cfail(err, len, e,
			     "%%link needs the port's rate, which sysfs does not give");
	if ((c == MC_RETRANS || c == MC_COUNTER) && !a)
		return cfail(err, len, e, "%s needs device counters, and --counters is none", mt);
	if (c == MC_RETRANS && !has_retrans_counter(a))
		return cfail(err, len, e,
			     "%s has no retransmission counter rdmabench knows (%s driver)",
			     a->device[0] ? a->device : "the device",
			     rb_counters_driver_name(a->driver));
	if (c == MC_COUNTER && !rb_counters_find(a, e->counter))
		return cfail(err, len, e, "%s port %d has no counter \"%s\"",
			     a->device[0] ? a->device : "the device", a->port, e->counter);
	return 0;
}

/* ---- evaluation --------------------------------------------------------- */

/* The point's figure for @e's metric; NAN when it has none. */
static double measured_of(const struct rb_expect *e, const struct rb_expect_ctx *x)
{
	const struct rb_result *r = x->res;
	const struct rb_counter *c;

	switch (e->metric) {
	case RB_EXP_METRIC:
		return r && rb_metric_has(e->row, r) ? rb_metric_value(e->row, r) : NAN;
	case RB_EXP_RETRANS:
		if (!x->der || !x->der->has_retrans)
			return NAN;
		return e->per_mpkt ? x->der->retrans_per_mpkt : (double)x->der->retrans;
	default:
		c = x->delta ? rb_counters_find(x->delta, e->counter) : NULL;
		return c ? (double)c->value : NAN;
	}
}

static bool holds(double m, enum rb_exp_op op, double l)
{
	switch (op) {
	case RB_EXP_GE:
		return m >= l;
	case RB_EXP_LE:
		return m <= l;
	case RB_EXP_GT:
		return m > l;
	case RB_EXP_LT:
		return m < l;
	default:
		return m == l;
	}
}

enum rb_verdict rb_expect_eval(const struct rb_expect *e, const struct rb_expect_ctx *ctx,
			       double *measured, double *limit)
{
	double m = measured_of(e, ctx), l = e->value;

	if (e->of_link)
		l = ctx->link_gbps > 0 ? e->value * ctx->link_gbps : NAN;
	if (measured)
		*measured = m;
	if (limit)
		*limit = l;
	if (!isfinite(m) || !isfinite(l))
		return RB_VERDICT_NA;
	return holds(m, e->op, l) ? RB_VERDICT_PASS : RB_VERDICT_FAIL;
}

const char *rb_verdict_name(enum rb_verdict v)
{
	return v == RB_VERDICT_PASS ? "pass" : v == RB_VERDICT_FAIL ? "fail" : "n/a";
}

const char *rb_expect_unit(const struct rb_expect *e)
{
	if (e->per_mpkt)
		return "per Mpkt";
	return e->metric == RB_EXP_METRIC ? e->row->unit : "events";
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *verdict_json(const struct rb_expect *e, enum rb_verdict v, double m, double l)
{
	return json_pack("{s:s, s:s, s:o, s:o, s:s}", "expr", e->text, "result", rb_verdict_name(v),
			 "value", jnum(m), "limit", jnum(l), "unit", rb_expect_unit(e));
}

/* @text appended to the list in @buf, cut with "..." when it does not fit. */
static void append(char *buf, size_t len, const char *text)
{
	size_t off = strlen(buf);
	int n;

	if (off + 4 > len || (off >= 3 && !strcmp(buf + off - 3, "...")))
		return;
	n = snprintf(buf + off, len - off, "%s%s", off ? "," : "", text);
	if (n < 0 || (size_t)n >= len - off)
		snprintf(buf + len - 4, 4, "...");
}

size_t rb_expect_point(const struct rb_expect *e, size_t n, const struct rb_expect_ctx *ctx,
		       json_t **json, char *failed, size_t len)
{
	json_t *arr = json ? json_array() : NULL;
	size_t i, nfail = 0;
	enum rb_verdict v;
	double m, l;
	int bad = json && !arr;

	if (len)
		failed[0] = '\0';
	for (i = 0; i < n; i++) {
		v = rb_expect_eval(&e[i], ctx, &m, &l);
		if (v == RB_VERDICT_FAIL) {
			nfail++;
			if (len)
				append(failed, len, e[i].text);
		}
		if (arr)
			bad |= json_array_append_new(arr, verdict_json(&e[i], v, m, l));
	}
	if (json) {
		if (bad)
			json_decref(arr);
		*json = bad ? NULL : arr;
	}
	return nfail;
}
