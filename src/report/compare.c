// SPDX-License-Identifier: MIT
/*
 * rdmabench compare: two JSON results of one test, point by point (see
 * compare.h for the rules and the exit codes).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts_row.h"
#include "report/compare.h"
#include "core/cqmod.h"
#include "report/out_int.h"
#include "core/metrics.h"
#include "core/rdmabench.h"
#include "core/sweep.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The metrics are rb_metrics[]'s rows with .compare; o->metrics holds row numbers. */
/* What matches two points. */
static const char *const key_names[] = { "size", "batch", "signal", "qps", "tx_depth" };
#define NAXIS NELEM(key_names)
/* ... and how the point waited (--cqe-poll, --poll): absent, the defaults. */
/* then cqe_poll, poll, and (issue 42/40) lock, hold_us, cq_moderation: absent reads as 0 */
#define NKEY (NAXIS + 5)

#define incomparable(err, len, ...) rb_set_err(err, len, RB_CMP_INCOMPARABLE, __VA_ARGS__)

void rb_compare_opts_init(struct rb_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tolerance = RB_CMP_DEFAULT_TOL;
}

int rb_compare_tolerance_parse(const char *arg, double *tol, char *err, size_t len)
{
	char *end;
	double v;

	if (!arg || !arg[0] || arg[0] == '-' || arg[0] == '+' || arg[0] == ' ')
		return rb_set_err(err, len, -EINVAL,
				  "--tolerance '%s': give a percentage, e.g. 5%%", arg ? arg : "");
	v = strtod(arg, &end);
	/* "5%" or "5", as matrix's --tolerance; "0.05" could mean 5%: refused. */
	if (!*end && end != arg && v < 1 && v != 0)
		return rb_set_err(err, len, -EINVAL,
				  "--tolerance '%s': a bare number is a percentage: write '%g%%' "
				  "for a fraction of %s, or '%s%%'",
				  arg, v * 100, arg, arg);
	if (end == arg || (*end && strcmp(end, "%")) || !isfinite(v) || v > 1000)
		return rb_set_err(err, len, -EINVAL,
				  "--tolerance '%s': give a percentage from 0%% to 1000%%, e.g. "
				  "5%%",
				  arg);
	*tol = v / 100;
	return 0;
}

static int metric_index(const char *name, size_t n)
{
	const struct rb_metric *m = rb_metric_find(name, n, true);

	return m && m->compare ? rb_metric_index(m) : -1;
}

/* "name, ...; or alias, ...": what --metric takes, into @buf. */
static const char *metric_list(char *buf, size_t len)
{
	const struct rb_metric *m;
	const char *sep = "";
	size_t off = 0;

	buf[0] = '\0';
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics && off < len; m++, sep = ", ")
		if (m->compare)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, m->name);
	for (sep = "; or ", m = rb_metrics; m < rb_metrics + rb_nmetrics && off < len; m++)
		if (m->compare && m->alias) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, m->alias);
			sep = ", ";
		}
	return buf;
}

static bool has_metric(const struct rb_compare_opts *o, int m)
{
	size_t i;

	for (i = 0; i < o->nmetrics; i++)
		if (o->metrics[i] == m)
			return true;
	return false;
}

int rb_compare_metrics_parse(const char *arg, struct rb_compare_opts *o, char *err, size_t len)
{
	const char *p = arg ? arg : "", *comma;
	char names[512];
	size_t n;
	int m;

	for (;; p = comma + 1) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		m = metric_index(p, n);
		if (m < 0)
			return rb_set_err(err, len, -EINVAL, "--metric: unknown metric '%.*s' (%s)",
					  (int)(n > 64 ? 64 : n), p,
					  metric_list(names, sizeof(names)));
		if (!has_metric(o, m)) {
			if (o->nmetrics >= RB_CMP_MAX_METRICS)
				return rb_set_err(err, len, -EINVAL,
						  "--metric: more than %d metrics",
						  RB_CMP_MAX_METRICS);
			o->metrics[o->nmetrics++] = m;
		}
		if (!comma)
			return 0;
	}
}

/* ---- the documents ------------------------------------------------------ */

static int check_doc(json_t *d, const char *who, char *err, size_t len)
{
	json_t *v = json_object_get(d, "schema_version");

	if (!json_is_object(d) || !json_is_integer(v) ||
	    !json_is_string(json_object_get(d, "test")) ||
	    !json_is_array(json_object_get(d, "results")))
		return incomparable(err, len,
				    "%s is not rdmabench JSON (it needs schema_version, test and "
				    "results)",
				    who);
	if (json_integer_value(v) < 1 || json_integer_value(v) > RB_SCHEMA_VERSION)
		return incomparable(err, len,
				    "%s has schema_version %lld; this rdmabench reads 1 to %d", who,
				    (long long)json_integer_value(v), RB_SCHEMA_VERSION);
	return 0;
}

static const char *str_of(json_t *d, const char *key)
{
	const char *s = json_string_value(json_object_get(d, key));

	return s ? s : "";
}

/* -b: a bidirectional file's totals are two streams; absent (older) is one. */
static bool is_bidir(json_t *d)
{
	return json_is_true(json_object_get(json_object_get(d, "params"), "bidirectional"));
}

static const char *dir_name(json_t *d)
{
	return is_bidir(d) ? "bidirectional (-b)" : "one-way";
}

/* Same test, for atomics the same operation, and the same directions. */
static int check_same_test(json_t *b, json_t *n, const char *bn, const char *nn, char *err,
			   size_t len)
{
	if (strcmp(str_of(b, "test"), str_of(n, "test")))
		return incomparable(err, len, "different tests: %s is %s, %s is %s", bn,
				    str_of(b, "test"), nn, str_of(n, "test"));
	if (strcmp(str_of(b, "op"), str_of(n, "op")))
		return incomparable(err, len, "different atomic operations: %s is %s, %s is %s", bn,
				    str_of(b, "op"), nn, str_of(n, "op"));
	if (is_bidir(b) != is_bidir(n))
		return incomparable(err, len, "%s is %s, %s is %s: their bandwidths do not compare",
				    bn, dir_name(b), nn, dir_name(n));
	return 0;
}

/* ---- what must be equal for points to match ------------------------------ */

/*
 * What changes a run's figures besides the five swept axes (matched per
 * point): the test, the atomic operation and the direction (above), the
 * side that wrote the file (each side times its own work), the path MTU
 * the QPs used (device.path_mtu: the ports' MTU, whatever -m said), and
 * every member of params.  The measurement's length and warm-up count too
 * (a p999 over 1000 samples is nearly their max; a short point carries its
 * start-up), as do --verify and --interval, which add work to the timed
 * loop.  @absent is what a file of an earlier version without the member
 * meant (doc/json-schema.md), as JSON text; NULL: absent is "none".  A
 * member this table does not know (a later version's) must be equal too.
 */
struct cparam {
	const char *key, *absent;
	char opt[64];
};

/* The members of params that are no option row's field as they are written. */
static const struct {
	const char *key, *opt, *absent;
} cparams_extra[] = {
	{ "interval_s", "--interval", NULL },
	{ "rate", "--rate", NULL },
	{ "flow_label", "--flow-label", "0" },
};

/*
 * What this side ran with outside params that changes a figure: where its
 * buffers were (host memory, or --use-cuda's kind: gpu.memory), the path
 * that registered them (gpu.reg_path; params.reg_mode and params.odp are
 * above), how it posted its WRs (device.post_api) and the bytes a WR
 * carried inline (device.inline_size, -I as the QPs took it), how it
 * polled and moderated its CQs (device.cq_api, device.cq_poll,
 * device.cq_moderation).  @absent:
 * what a file without the object meant (host memory, registered by
 * ibv_reg_mr: no GPU path), as JSON text; NULL: unknown (a file of before
 * the member), not checked.
 */
static const struct cside {
	const char *obj, *key, *opt, *absent;
} csides[] = {
	{ "gpu", "memory", "--use-cuda/--cuda-mem", "\"host\"" },
	{ "gpu", "reg_path", "--cuda-reg", "null" },
	{ "device", "post_api", "--post-api", NULL },
	{ "device", "inline_size", "-I", NULL },
	/* issue 40: how this side polled, and its CQs' moderation */
	{ "device", "cq_api", "--cq-api", NULL },
	/* batches or one a start_poll: the provider's library decides */
	{ "device", "cq_poll", "--cq-api", NULL },
	{ "device", "cq_moderation", "--cq-moderation", NULL },
};

/* What two files differ in, as one message: "what (opt) BASE x, NEW y; ...". */
struct diffs {
	char buf[768];
	size_t used;
	const char *bn, *nn;
};

static bool is_axis(const char *key)
{
	size_t i;

	for (i = 0; i < NAXIS; i++)
		if (!strcmp(key, key_names[i]))
			return true;
	return false;
}

/* "-n", "--send-with-imm/--write-with-imm": row @o and its twins over one field. */
static void row_opts(const struct rb_opt *o, char *buf, size_t len)
{
	size_t i, used;

	if (o->sname)
		used = (size_t)snprintf(buf, len, "-%c", o->sname);
	else
		used = (size_t)snprintf(buf, len, "--%s", o->lname);
	for (i = 0; i < rb_nopts && used < len; i++)
		if (rb_opts[i].off == o->off && &rb_opts[i] != o && !rb_opts[i].json &&
		    !rb_opt_axis_twin(&rb_opts[i]))
			used += (size_t)snprintf(buf + used, len - used, "/--%s", rb_opts[i].lname);
}

/*
 * The @i-th member of params compared: the option rows' members (their
 * .json; the five axes aside, matched per point), then cparams_extra[].
 */
static bool cparam_at(size_t i, struct cparam *c)
{
	size_t k;

	for (k = 0; k < rb_nopts; k++) {
		const struct rb_opt *o = &rb_opts[k];

		if (!o->json || is_axis(o->json) || i--)
			continue;
		c->key = o->json;
		c->absent = o->json_absent;
		row_opts(o, c->opt, sizeof(c->opt));
		return true;
	}
	if (i >= NELEM(cparams_extra))
		return false;
	c->key = cparams_extra[i].key;
	c->absent = cparams_extra[i].absent;
	snprintf(c->opt, sizeof(c->opt), "%s", cparams_extra[i].opt);
	return true;
}

static bool cparam_of(const char *key, struct cparam *c)
{
	size_t i;

	for (i = 0; cparam_at(i, c); i++)
		if (!strcmp(key, c->key))
			return true;
	return false;
}

/* A value as the message shows it: strings bare, null or absent as "none". */
static void val_text(json_t *v, char *buf, size_t len)
{
	size_t n;

	if (!v || json_is_null(v)) {
		snprintf(buf, len, "none");
	} else if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
	} else {
		/* Past @len the bytes are undefined: say so instead. */
		n = json_dumpb(v, buf, len - 1, JSON_ENCODE_ANY | JSON_COMPACT);
		if (n && n < len)
			buf[n] = '\0';
		else
			snprintf(buf, len, "(a value too long to show)");
	}
}

static void diff_add(struct diffs *d, const char *what, const char *opt, json_t *b, json_t *n)
{
	char bs[64], ns[64];
	int w;

	if (d->used >= sizeof(d->buf))
		return;
	val_text(b, bs, sizeof(bs));
	val_text(n, ns, sizeof(ns));
	w = snprintf(d->buf + d->used, sizeof(d->buf) - d->used, "%s%s%s%s%s %s %s, %s %s",
		     d->used ? "; " : "", what, opt ? " (" : "", opt ? opt : "", opt ? ")" : "",
		     d->bn, bs, d->nn, ns);
	d->used += w > 0 ? (size_t)w : 0;
}

/* Whether values @b and @n are the same; NULL (absent) is null. */
static bool same_value(json_t *b, json_t *n)
{
	return json_equal(b ? b : json_null(), n ? n : json_null());
}

/* A member of the documents themselves. */
static void diff_top(struct diffs *d, const char *key, json_t *b, json_t *n)
{
	json_t *bv = json_object_get(b, key), *nv = json_object_get(n, key);

	if (!same_value(bv, nv))
		diff_add(d, key, NULL, bv, nv);
}

/* params.@key of @b and @n, an absent member taken as what it meant. */
static void diff_param(struct diffs *d, json_t *bp, json_t *np, const char *key)
{
	struct cparam c;
	bool known = cparam_of(key, &c);
	json_t *dflt = known && c.absent ? json_loads(c.absent, JSON_DECODE_ANY, NULL) : NULL;
	json_t *b = json_object_get(bp, key), *n = json_object_get(np, key);

	b = b ? b : dflt;
	n = n ? n : dflt;
	if (!same_value(b, n))
		diff_add(d, key, known ? c.opt : NULL, b, n);
	json_decref(dflt);
}

/* Every member of either params but the axes; the table's first, in its order. */
static void diff_params(struct diffs *d, json_t *bp, json_t *np)
{
	const char *key;
	void *it;
	size_t i;

	struct cparam c;

	for (i = 0; cparam_at(i, &c); i++)
		diff_param(d, bp, np, c.key);
	for (it = json_object_iter(bp); it; it = json_object_iter_next(bp, it)) {
		key = json_object_iter_key(it);
		if (!is_axis(key) && !cparam_of(key, &c))
			diff_param(d, bp, np, key);
	}
	for (it = json_object_iter(np); it; it = json_object_iter_next(np, it)) {
		key = json_object_iter_key(it);
		if (!is_axis(key) && !cparam_of(key, &c) && !json_object_get(bp, key))
			diff_param(d, bp, np, key);
	}
}

/* device.path_mtu: 0 when the run ended before the ports met (unknown). */
static void diff_path_mtu(struct diffs *d, json_t *b, json_t *n)
{
	json_t *bm = json_object_get(json_object_get(b, "device"), "path_mtu");
	json_t *nm = json_object_get(json_object_get(n, "device"), "path_mtu");

	if (json_integer_value(bm) > 0 && json_integer_value(nm) > 0 && !json_equal(bm, nm))
		diff_add(d, "device.path_mtu", NULL, bm, nm);
}

/* One of csides[] of @b and @n. */
static void diff_side(struct diffs *d, const struct cside *c, json_t *b, json_t *n)
{
	json_t *bo = json_object_get(b, c->obj), *no = json_object_get(n, c->obj);
	json_t *dflt = c->absent ? json_loads(c->absent, JSON_DECODE_ANY, NULL) : NULL;
	json_t *bv = bo ? json_object_get(bo, c->key) : dflt;
	json_t *nv = no ? json_object_get(no, c->key) : dflt;
	char what[48];

	/* Unknown on either side (an earlier file, no QP yet): not checked. */
	if (!c->absent && (!bv || !nv || json_is_null(bv) || json_is_null(nv)))
		bv = nv;
	if (!same_value(bv, nv)) {
		snprintf(what, sizeof(what), "%s.%s", c->obj, c->key);
		diff_add(d, what, c->opt, bv, nv);
	}
	json_decref(dflt);
}

/* The side, the path MTU and the plan: equal, or 2 naming each that is not. */
static int check_same_run(json_t *b, json_t *n, const char *bn, const char *nn, char *err,
			  size_t len)
{
	json_t *bp = json_object_get(b, "params"), *np = json_object_get(n, "params");
	struct diffs d = { .bn = bn, .nn = nn };
	size_t i;

	if (json_is_object(bp) != json_is_object(np))
		return incomparable(err, len, "%s has no params (the run ended before its plan)",
				    json_is_object(bp) ? nn : bn);
	diff_top(&d, "role", b, n);
	diff_path_mtu(&d, b, n);
	for (i = 0; i < NELEM(csides); i++)
		diff_side(&d, &csides[i], b, n);
	diff_params(&d, bp, np);
	if (d.used)
		return incomparable(
			err, len, "different parameters, whose figures do not compare: %s", d.buf);
	return 0;
}

/*
 * issue 42/40: a point's lock (the word's index in --lock's choices), its
 * hold_us and its cq_moderation (RB_CQMOD()); absent: 0, as before them.
 */
static bool point_key42(json_t *pt, json_int_t *k)
{
	json_t *v = json_object_get(pt, "lock");
	const char *c = RB_LOCK_CHOICES, *w = json_string_value(v);
	uint64_t m = 0;
	char err[8];
	size_t l;

	for (k[0] = 0; w; k[0]++, c += l + 1) {
		l = strcspn(c, "|");
		if (strlen(w) == l && !strncmp(c, w, l))
			break;
		if (!c[l])
			return false; /* not a word of --lock's */
	}
	v = json_object_get(pt, "hold_us");
	k[1] = json_is_integer(v) ? json_integer_value(v) : 0;
	w = json_string_value(json_object_get(pt, "cq_moderation"));
	if (w && strcmp(w, "none") && rb_cqmod_item(w, &m, err, sizeof(err)))
		return false;
	k[2] = (json_int_t)m;
	return true;
}

/* The point's axis values; false when one is missing or not an integer. */
static bool point_key(json_t *pt, json_int_t *k)
{
	size_t i;

	json_t *v;

	for (i = 0; i < NAXIS; i++) {
		v = json_object_get(pt, key_names[i]);
		if (!json_is_integer(v))
			return false;
		k[i] = json_integer_value(v);
	}
	v = json_object_get(pt, "cqe_poll");
	k[NAXIS] = json_is_integer(v) ? json_integer_value(v) : RB_CQE_POLL_DEFAULT;
	v = json_object_get(pt, "poll");
	k[NAXIS + 1] = json_is_string(v) && !strcmp(json_string_value(v), "event");
	return point_key42(pt, k + NAXIS + 2);
}

/* The index of the first point of @arr with key @k, or -1. */
static long find_point(json_t *arr, const json_int_t *k)
{
	json_int_t pk[NKEY];
	size_t i;

	for (i = 0; i < json_array_size(arr); i++)
		if (point_key(json_array_get(arr, i), pk) && !memcmp(pk, k, sizeof(pk)))
			return (long)i;
	return -1;
}

double rb_compare_point_value(json_t *pt, const struct rb_metric *m)
{
	json_t *o = m->group == RB_MG_LAT ? json_object_get(pt, "lat_us") : pt;
	json_t *v = json_object_get(o, m->group == RB_MG_LAT ? m->json_key : m->name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- the walk ---------------------------------------------------------- */

/*
 * What two points with the same axes must share besides the run's plan:
 * their own warm-up count (--warmup auto gives each size its own, and
 * versions may count it differently).  Absent on either side (files of
 * earlier versions): not known, not checked.
 */
static const char *const point_params[] = { "warmup" };

struct cmp {
	json_t *bres, *nres;
	const struct rb_compare_opts *o;
	const int *metrics;
	size_t nmetrics;
	int defaults[RB_METRICS_MAX]; /* without --metric: the rows' .compare_default */
	FILE *out;
	size_t matched, judged, regressions, improved;
	struct diffs pd; /* the first matched pair that differs in point_params */
	json_int_t pd_key[NKEY];
};

/* The walk's passes: check the pairs, print their rows, name their regressions. */
enum pass { P_CHECK, P_ROWS, P_SUMMARY };

enum judgement {
	J_NONE = RB_CMP_V_NONE,
	J_SAME = RB_CMP_V_SAME,
	J_WORSE = RB_CMP_V_WORSE,
	J_BETTER = RB_CMP_V_BETTER
};

static enum judgement judge(const struct rb_metric *m, double b, double n, double tol,
			    double *ratio)
{
	*ratio = NAN;
	if (!isfinite(b) || !isfinite(n) || b <= 0)
		return J_NONE;
	*ratio = n / b;
	if (m->better == RB_BETTER_HIGHER)
		return *ratio < 1 - tol ? J_WORSE : *ratio > 1 + tol ? J_BETTER : J_SAME;
	return *ratio > 1 + tol ? J_WORSE : *ratio < 1 - tol ? J_BETTER : J_SAME;
}

/* issue 42/40: " lock ticket hold 10", " cqmod 16/10" where the point has them. */
static void point_text42(const json_int_t *k, char *buf, size_t len, int n)
{
	char w[24], m[24];

	if (n > 0 && (size_t)n < len && (k[NAXIS + 2] || k[NAXIS + 3]))
		n += snprintf(buf + n, len - (size_t)n, " lock %s hold %lld",
			      rb_out_lock_word((uint64_t)k[NAXIS + 2], w, sizeof(w)),
			      (long long)k[NAXIS + 3]);
	if (n > 0 && (size_t)n < len && k[NAXIS + 4])
		snprintf(buf + n, len - (size_t)n, " cqmod %s",
			 rb_cqmod_str((uint64_t)k[NAXIS + 4], m, sizeof(m)));
}

static void point_text(const json_int_t *k, char *buf, size_t len)
{
	char sz[24];

	int n = snprintf(buf, len, "%7s %5lld %6lld %4lld %5lld",
			 rb_size_str((uint64_t)k[0], sz, sizeof(sz)), (long long)k[1],
			 (long long)k[2], (long long)k[3], (long long)k[4]);

	/* A point that waited otherwise than by default says how. */
	if (n > 0 && (size_t)n < len && (k[NAXIS] != RB_CQE_POLL_DEFAULT || k[NAXIS + 1]))
		n += snprintf(buf + n, len - (size_t)n, " %s/%lld", k[NAXIS + 1] ? "event" : "busy",
			      (long long)k[NAXIS]);
	point_text42(k, buf, len, n);
}

static void num_text(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "-");
}

static void print_row(struct cmp *c, const json_int_t *k, const struct rb_metric *m, double b,
		      double n, double ratio, enum judgement j)
{
	static const char *const marks[] = { "", "", "REGRESSION", "improved" };
	char pt[96], bs[32], ns[32], rs[32];

	point_text(k, pt, sizeof(pt));
	num_text(b, bs, sizeof(bs));
	num_text(n, ns, sizeof(ns));
	if (isfinite(ratio))
		snprintf(rs, sizeof(rs), "%.3f", ratio);
	else
		snprintf(rs, sizeof(rs), "-");
	fprintf(c->out, "%s  %-14s %12s %12s %7s%s%s\n", pt, m->name, bs, ns, rs,
		*marks[j] ? "  " : "", marks[j]);
}

/* "size 64 batch 4 signal 16 qps 2 tx_depth 256" */
static void point_name(const json_int_t *k, char *buf, size_t len)
{
	char sz[24];

	int n = snprintf(buf, len, "size %s batch %lld signal %lld qps %lld tx_depth %lld",
			 rb_size_str((uint64_t)k[0], sz, sizeof(sz)), (long long)k[1],
			 (long long)k[2], (long long)k[3], (long long)k[4]);

	if (n > 0 && (size_t)n < len && (k[NAXIS] != RB_CQE_POLL_DEFAULT || k[NAXIS + 1]))
		n += snprintf(buf + n, len - (size_t)n, " poll %s cqe_poll %lld",
			      k[NAXIS + 1] ? "event" : "busy", (long long)k[NAXIS]);
	point_text42(k, buf, len, n);
}

static void print_regression(struct cmp *c, const json_int_t *k, const struct rb_metric *m,
			     double b, double n, double ratio)
{
	char pt[128];

	point_name(k, pt, sizeof(pt));
	fprintf(c->out, "# regression: %s: %s %.6g -> %.6g (x%.3f, %s is better)\n", pt, m->name, b,
		n, ratio, m->better == RB_BETTER_HIGHER ? "higher" : "lower");
}

/* P_CHECK: the first pair that differs in a point parameter is kept in c->pd. */
static void check_pair(struct cmp *c, json_t *bp, json_t *np, const json_int_t *k)
{
	json_t *b, *n;
	size_t i;

	if (c->pd.used)
		return;
	for (i = 0; i < NELEM(point_params); i++) {
		b = json_object_get(bp, point_params[i]);
		n = json_object_get(np, point_params[i]);
		if (b && n && !json_equal(b, n))
			diff_add(&c->pd, point_params[i], NULL, b, n);
	}
	if (c->pd.used)
		memcpy(c->pd_key, k, sizeof(c->pd_key));
}

/* One matched pair: a row per metric either side has (@summary: regressions only). */
static void cmp_point(struct cmp *c, json_t *bp, json_t *np, const json_int_t *k, bool summary)
{
	const struct rb_metric *m;
	enum judgement j;
	double b, n, ratio;
	size_t i;

	for (i = 0; i < c->nmetrics; i++) {
		m = &rb_metrics[c->metrics[i]];
		b = rb_compare_point_value(bp, m);
		n = rb_compare_point_value(np, m);
		if (isnan(b) && isnan(n))
			continue;
		j = judge(m, b, n, c->o->tolerance, &ratio);
		if (summary) {
			if (j == J_WORSE)
				print_regression(c, k, m, b, n, ratio);
			continue;
		}
		print_row(c, k, m, b, n, ratio, j);
		if (c->o->seen)
			c->o->seen(c->o->seen_arg, k, m, b, n, (enum rb_cmp_verdict)j);
		c->judged += j != J_NONE;
		c->regressions += j == J_WORSE;
		c->improved += j == J_BETTER;
	}
}

static void walk(struct cmp *c, enum pass pass)
{
	json_int_t k[NKEY];
	json_t *bp, *np;
	size_t i;
	long j;

	for (i = 0; i < json_array_size(c->bres); i++) {
		bp = json_array_get(c->bres, i);
		/* A later point equal to an earlier one was matched already. */
		if (!point_key(bp, k) || find_point(c->bres, k) != (long)i)
			continue;
		j = find_point(c->nres, k);
		if (j < 0)
			continue;
		np = json_array_get(c->nres, (size_t)j);
		if (pass == P_CHECK) {
			check_pair(c, bp, np, k);
			continue;
		}
		c->matched += pass == P_ROWS;
		cmp_point(c, bp, np, k, pass == P_SUMMARY);
	}
}

/* Points of @a that @b lacks, one line each. */
static size_t only_in(FILE *out, json_t *a, json_t *b, const char *name)
{
	json_int_t k[NKEY];
	char pt[96];
	size_t i, n = 0;

	for (i = 0; i < json_array_size(a); i++) {
		if (!point_key(json_array_get(a, i), k) || find_point(b, k) >= 0)
			continue;
		point_text(k, pt, sizeof(pt));
		fprintf(out, "# only in %s: %s\n", name, pt);
		n++;
	}
	return n;
}

static void print_head(struct cmp *c, json_t *b, json_t *n, const char *bn, const char *nn)
{
	fprintf(c->out, "# compare %s: BASE %s, NEW %s, tolerance %g%%\n", str_of(b, "test"), bn,
		nn, c->o->tolerance * 100);
	if (json_is_false(json_object_get(b, "complete")))
		fprintf(c->out, "# BASE is incomplete: %s\n", str_of(b, "reason"));
	if (json_is_false(json_object_get(n, "complete")))
		fprintf(c->out, "# NEW is incomplete: %s\n", str_of(n, "reason"));
	fprintf(c->out, "%7s %5s %6s %4s %5s  %-14s %12s %12s %7s\n", "size", "batch", "signal",
		"qps", "depth", "metric", "base", "new", "ratio");
}

static void cmp_init(struct cmp *c, json_t *b, json_t *n, const struct rb_compare_opts *o,
		     FILE *out, const char *bn, const char *nn)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->pd.bn = bn;
	c->pd.nn = nn;
	c->bres = json_object_get(b, "results");
	c->nres = json_object_get(n, "results");
	c->o = o;
	c->metrics = o->nmetrics ? o->metrics : c->defaults;
	c->nmetrics = o->nmetrics;
	for (i = 0; !o->nmetrics && i < rb_nmetrics; i++)
		if (rb_metrics[i].compare_default)
			c->defaults[c->nmetrics++] = (int)i;
	c->out = out;
}

int rb_compare(json_t *base, json_t *cur, const struct rb_compare_opts *o, FILE *out, char *err,
	       size_t len)
{
	const char *bn = o->base_name ? o->base_name : "BASE";
	const char *nn = o->new_name ? o->new_name : "NEW";
	char pt[128];
	struct cmp c;
	int ret;

	if (len)
		err[0] = '\0';
	ret = check_doc(base, bn, err, len);
	if (!ret)
		ret = check_doc(cur, nn, err, len);
	if (!ret)
		ret = check_same_test(base, cur, bn, nn, err, len);
	if (!ret)
		ret = check_same_run(base, cur, bn, nn, err, len);
	if (ret)
		return ret;
	cmp_init(&c, base, cur, o, out, bn, nn);
	walk(&c, P_CHECK);
	if (c.pd.used) {
		point_name(c.pd_key, pt, sizeof(pt));
		return incomparable(err, len, "point %s differs, its figures do not compare: %s",
				    pt, c.pd.buf);
	}
	print_head(&c, base, cur, bn, nn);
	walk(&c, P_ROWS);
	only_in(out, c.bres, c.nres, "BASE");
	only_in(out, c.nres, c.bres, "NEW");
	if (!c.matched)
		return incomparable(err, len,
				    "no common points: %s has %zu, %s %zu, and none has the size, "
				    "batch, signal, qps and tx_depth of one in the other",
				    bn, json_array_size(c.bres), nn, json_array_size(c.nres));
	if (!c.judged)
		return incomparable(err, len,
				    "no metric to compare: the common points share none "
				    "of those asked for with a value above 0");
	walk(&c, P_SUMMARY);
	fprintf(out,
		"# %zu point(s), %zu comparison(s): %zu regression(s), %zu improved, beyond %g%%\n",
		c.matched, c.judged, c.regressions, c.improved, o->tolerance * 100);
	return c.regressions ? RB_CMP_REGRESSION : RB_CMP_SAME;
}

/* ---- the subcommand --------------------------------------------------------- */

static int compare_fail(const char *msg)
{
	fprintf(stderr, "rdmabench compare: %s\n", msg);
	return RB_CMP_INCOMPARABLE;
}

/* compare's command line, through its own option table (core/opts_row.h). */
struct compare_args {
	char tolerance[64];
	struct rb_strlist metric;
	uint8_t vs_tcp;
	uint8_t help;
};

#define CA(f) offsetof(struct compare_args, f)

static const struct rb_opt compare_rows[] = {
	{ .lname = "tolerance",
	  .sname = 't',
	  .type = RB_OPT_STR,
	  .off = CA(tolerance),
	  .size = sizeof(((struct compare_args *)0)->tolerance),
	  .argname = "PCT",
	  .def = "5%",
	  .help = "a percentage" },
	{ .lname = "metric",
	  .sname = 'm',
	  .type = RB_OPT_LIST,
	  .off = CA(metric),
	  .argname = "LIST",
	  .def = "bw_avg_gbps,msg_rate_mpps,lat_p50_us,lat_p99_us",
	  .help = "metrics, comma-separated, repeatable: also bw_peak_gbps, lat_min_us ... "
		  "lat_max_us, cpu_ns_per_msg, or bw, bw_peak, rate, min, p50, avg, p90, p99, "
		  "p999, max" },
	{ .lname = "vs-tcp",
	  .type = RB_OPT_FLAG,
	  .off = CA(vs_tcp),
	  .max = 1,
	  .help = "RDMA.json TCP.json: an RDMA test against tcp_lat or tcp_bw of the same "
		  "kind, size by size: throughput (or latency) ratio, CPU per byte (or "
		  "message) on each side; latencies on one basis (round trips when one test "
		  "reports half of one); not across -b, --threads or --reversed; lock against "
		  "tcp_lock point by point (same -q and --hold, each --lock on its own line; "
		  "same --locks, --cs-bytes, --verify; not a --run-id run of several hosts): "
		  "acquire p50/p99, acquisitions/s, handoff, better side" },
	RB_OPT_HELP_ROW(CA(help)),
};

const struct rb_opt_table rb_compare_table = { "compare", compare_rows, NELEM(compare_rows) };

/* --help: what compare does, its rows (rb_opt_help()), its exit status. */
void rb_compare_usage(FILE *f)
{
	fputs("usage: rdmabench compare BASE.json NEW.json [--tolerance PCT] [--metric LIST]\n\n"
	      "Matches the points of two JSON results of one test (size, batch, signal, qps,\n"
	      "tx_depth) and prints each metric's ratio NEW/BASE.  A metric that moved the\n"
	      "wrong way by more than the tolerance is a regression; lower latency and higher\n"
	      "bandwidth never are.  The files must agree on all else that changes a figure:\n"
	      "the side (role), the path MTU, the buffers' memory (host or --use-cuda's) and\n"
	      "registration path, the post API, the bytes sent inline, and every parameter\n"
	      "but the swept axes (-n, -D, --interval, --rate, --warmup, -r, -I, -o, -m,\n"
	      "--verify, -R, -c, --sl, --tclass, --flow-label, --hugepages, --odp,\n"
	      "--mr-per-qp, --srq, --threads, -b, --latency_gap, --recv-post-list,\n"
	      "--reversed, --poll, --reg-mode, --cqe-poll, --probe, --wr-lat, --cq-per-qp).\n\n",
	      f);
	rb_opt_help(f, &rb_compare_table, 23);
	fputs("\nExit status: 0 no regression, 1 a regression, 2 nothing comparable (each\n"
	      "parameter that differs is named with both values) or a usage error (the reason\n"
	      "on stderr).\n",
	      f);
}

/* The options; 0 to go on, else the exit code (-1 when --help said all). */
static int compare_opts(int argc, char **argv, struct rb_compare_opts *o)
{
	static struct compare_args a;
	uint8_t given[NELEM(compare_rows)];
	char err[512];
	uint32_t i;
	int first;

	memset(&a, 0, sizeof(a));
	first = rb_opt_parse(&rb_compare_table, &a, given, argc, argv, err, sizeof(err));
	if (a.help)
		return -1;
	if (first < 0)
		return compare_fail(err);
	if (a.tolerance[0] &&
	    rb_compare_tolerance_parse(a.tolerance, &o->tolerance, err, sizeof(err)))
		return compare_fail(err);
	for (i = 0; i < a.metric.n; i++)
		if (rb_compare_metrics_parse(a.metric.v[i], o, err, sizeof(err)))
			return compare_fail(err);
	o->vs_tcp = a.vs_tcp;
	if (argc - first != 2)
		return compare_fail("two files are needed: BASE.json NEW.json (see --help)");
	o->base_name = argv[first];
	o->new_name = argv[first + 1];
	return 0;
}

static json_t *load(const char *path)
{
	char msg[512];
	json_error_t je;
	json_t *d;

	errno = 0;
	d = json_load_file(path, 0, &je);
	if (d)
		return d;
	/* jansson's text names the file again and its own terms: say it plainly. */
	if (json_error_code(&je) == json_error_cannot_open_file)
		snprintf(msg, sizeof(msg), "%s: cannot read it: %s", path,
			 errno ? strerror(errno) : je.text);
	else if (je.line > 0)
		snprintf(msg, sizeof(msg),
			 "%s, line %d, column %d: not valid JSON (%s); give a file that "
			 "rdmabench --json wrote",
			 path, je.line, je.column, je.text);
	else
		snprintf(msg, sizeof(msg), "%s: not valid JSON (%s)", path, je.text);
	compare_fail(msg);
	return NULL;
}

int rb_compare_main(int argc, char **argv)
{
	struct rb_compare_opts o;
	json_t *b = NULL, *n = NULL;
	char err[1024];
	int ret;

	rb_compare_opts_init(&o);
	ret = compare_opts(argc, argv, &o);
	if (ret) {
		if (ret < 0)
			rb_compare_usage(stdout);
		return ret < 0 ? RB_EXIT_OK : ret;
	}
	b = load(o.base_name);
	n = b ? load(o.new_name) : NULL;
	ret = RB_CMP_INCOMPARABLE;
	if (b && n)
		ret = o.vs_tcp ? rb_compare_vs_tcp(b, n, stdout, err, sizeof(err))
			       : rb_compare(b, n, &o, stdout, err, sizeof(err));
	if (b && n && ret == RB_CMP_INCOMPARABLE)
		compare_fail(err);
	json_decref(b);
	json_decref(n);
	return ret;
}

void rb_compare_list_options(FILE *f)
{
	rb_opt_list(f, &rb_compare_table);
}
