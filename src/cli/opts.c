// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmd.h"
#include "core/lockstat.h"
#include "rdma/counters.h"
#include "report/expect.h"
#include "report/reco.h"
#include "cli/opts_int.h"
#include "cli/opts_perftest.h"
#include "core/opts_parser.h"
#include "session/rails.h"
#include "wire/plan.h"
#include "core/regcache.h"
#include "core/shape.h"
#include "core/sweep.h"

_Static_assert(offsetof(struct rb_cli, p) == RB_OPT_PLAN_BEGIN, "the plan first (opts_row.h)");

int rb_opt_index_of(enum rb_opt_id id)
{
	const struct rb_opt *o = rb_opt_by_id(id);

	return o ? (int)(o - rb_opts) : -1;
}

bool rb_cli_given(const struct rb_cli *c, enum rb_opt_id id)
{
	int i = rb_opt_index_of(id);

	return i >= 0 && c->given[i];
}

bool rb_cli_given_row(const struct rb_cli *c, const struct rb_opt *o)
{
	size_t i;

	for (i = 0; i < rb_opt_rows() && i < RB_OPTS_MAX; i++)
		if (rb_opt_row(i) == o)
			return c->given[i];
	return false;
}

void rb_cli_init(struct rb_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->l.gid_index = -1;
	c->l.comp_vector = RB_VECTOR_SPREAD;
	c->l.qp = (struct rb_qp_attrs){ .timeout = RB_QP_TIMEOUT_DEFAULT,
					.retry_count = RB_RETRY_DEFAULT,
					.hop_limit = RB_HOP_LIMIT_DEFAULT };
	c->l.tcp_port = RB_DEFAULT_PORT;
	c->l.timeout_s = 30;
	c->p.warmup = RB_WARMUP_AUTO;
	c->p.rx_depth = 512;
	c->p.threads = 1;
	c->l.max_conns = RB_CONNS_DEFAULT;
	strcpy(c->l.cpu, "auto");
	strcpy(c->l.numa, "auto");
}

/* The groups a hint names, by the scope bits every test of the group has. */
static const struct {
	unsigned int bits;
	const char *name;
} hint_groups[] = {
	{ RB_S_VERBS, "RDMA tests" },
	{ RB_S_LAT, "latency tests" },
	{ RB_S_BW, "bandwidth tests" },
	{ RB_S_VERBS | RB_S_LAT, "RDMA latency tests" },
	{ RB_S_VERBS | RB_S_BW, "RDMA bandwidth tests" },
};

/*
 * Where row @o does apply, from the command table: " (RDMA bandwidth
 * tests only)" when that is exactly the set, else the tests by name
 * (" (it applies to: send_lat, send_bw)"), or "" when to no test.
 */
static const char *scope_hint(const struct rb_opt *o, char *buf, size_t size)
{
	uint64_t set = 0, group[sizeof(hint_groups) / sizeof(hint_groups[0])] = { 0 };
	struct rb_cmd cmd;
	size_t i, g, used = 0;

	buf[0] = '\0';
	for (i = 0; rb_cmd_at(i, &cmd) && i < 64; i++) {
		if (cmd.kind != RB_CMD_TEST)
			continue;
		set |= (uint64_t)rb_opt_applies(o, cmd.scope) << i;
		for (g = 0; g < sizeof(group) / sizeof(group[0]); g++)
			if ((cmd.scope & hint_groups[g].bits) == hint_groups[g].bits)
				group[g] |= 1ULL << i;
	}
	for (g = 0; set && g < sizeof(group) / sizeof(group[0]); g++)
		if (set == group[g]) {
			snprintf(buf, size, " (%s only)", hint_groups[g].name);
			return buf;
		}
	for (i = 0; rb_cmd_at(i, &cmd) && i < 64 && used < size; i++)
		if (set >> i & 1)
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? ", " : " (it applies to: ", cmd.name);
	if (used && used + 1 < size)
		strcat(buf, ")");
	return buf;
}

int rb_cli_take(struct rb_cli *c, int row, const char *cmd, unsigned int scope, const char *arg,
		char *err, size_t len)
{
	const struct rb_opt_table *own;
	const struct rb_opt *o;
	char n[40], where[200];

	if (row < 0 || row >= RB_OPTS_MAX)
		return fail(err, len, "%s: no such option (a bug)", cmd);
	o = rb_opt_row((size_t)row);
	own = rb_opt_row_table((size_t)row);
	if (!rb_opt_applies(o, scope) || (own && own != c->own))
		return fail(err, len, "%s does not apply to %s%s", rb_opt_name(o, n, sizeof(n)),
			    cmd, scope_hint(o, where, sizeof(where)));
	return rb_opt_take(o, &c->given[row], own ? c->own_base : (void *)c, arg, rb_cli_check, err,
			   len);
}

static void axis_default(struct rb_cli *c, enum rb_opt_id id, struct rb_axis *a, uint64_t v)
{
	if (!rb_cli_given(c, id))
		rb_axis_set1(a, v);
}

/* The smallest value of @a, and at most @cap. */
static uint64_t smallest(const struct rb_axis *a, uint64_t cap)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] < cap)
			cap = a->v[i];
	return cap;
}

/* Test-dependent defaults, as perftest users expect them. */
static void apply_defaults(struct rb_cli *c, const struct rb_bench *b)
{
	bool lat = b->mode == RB_MODE_LAT, verbs = b->path == RB_PATH_VERBS;

	if (c->all)
		rb_axis_parse("2..8M:x2", true, &c->p.size, (char[8]){ 0 }, 8);
	else
		axis_default(c, RB_O_SIZE, &c->p.size, b->default_size);
	/* A socket test has no queues: its axes stay at 1, unset. */
	axis_default(c, RB_O_TX_DEPTH, &c->p.tx_depth, verbs ? 128 : 1);
	axis_default(c, RB_O_BATCH, &c->p.batch, 1);
	axis_default(c, RB_O_QPS, &c->p.qps, 1);
	axis_default(c, RB_O_CQE_POLL, &c->p.cqe_poll, RB_CQE_POLL_DEFAULT);
	if (!rb_cli_given(c, RB_O_EVENTS))
		axis_default(c, RB_O_POLL, &c->p.poll, RB_POLL_BUSY);
	/* Bandwidth: mostly unsignaled, as perftest; never more than the
	 * smallest depth, which the user may have lowered.  Latency tests
	 * signal every WR but reap lazily, so no post waits for an ACK. */
	axis_default(c, RB_O_SIGNAL, &c->p.signal, lat ? 1 : smallest(&c->p.tx_depth, 64));
	if (!rb_cli_given(c, RB_O_ITERS) && !rb_cli_given(c, RB_O_DURATION))
		c->p.iters = lat ? DEF_ITERS_LAT : DEF_ITERS_BW;
	if (!rb_cli_given(c, RB_O_INLINE))
		c->p.inline_size = b->default_inline;
	c->p.atomic_op = c->op;
	c->l.transport_auto = verbs && !rb_cli_given(c, RB_O_TRANSPORT);
}

/*
 * --recommend: without a bound, a bandwidth test's batch/signal sweep
 * (rb_recommend()); with one, a bound the test measures and a sweep of
 * the strategies to choose from (rb_recommend_bound()).
 */
static int check_recommend(struct rb_cli *c, const struct rb_bench *b, char *err, size_t len)
{
	const struct rb_params *p = &c->p;
	struct rb_expect e;

	c->l.recommend = rb_cli_given(c, RB_O_RECOMMEND);
	if (!c->l.recommend)
		return 0;
	if (!c->l.recommend_bound[0]) {
		if (b->mode != RB_MODE_BW)
			return fail(err, len,
				    "--recommend on %s needs a bound, e.g. --recommend p99<=20us, "
				    "and a sweep of --poll or --cqe-poll",
				    b->name);
		if (p->batch.n < 2 && p->signal.n < 2)
			return fail(err, len,
				    "--recommend needs a sweep over -l/--batch or -Q/--signal (or "
				    "a bound, e.g. --recommend rate>=1Mpps, over --poll or "
				    "--cqe-poll)");
		return 0;
	}
	if (rb_expect_parse(c->l.recommend_bound, &e, err, len) ||
	    rb_reco_bound_check(&e, b->name, b->mode, err, len))
		return -EINVAL;
	if (p->poll.n < 2 && p->cqe_poll.n < 2 && p->batch.n < 2 && p->signal.n < 2 &&
	    p->lock_algo.n < 2 && p->cq_mod.n < 2)
		return fail(err, len,
			    "--recommend %s needs a sweep to choose from: --poll busy,event, "
			    "--cqe-poll, -l/--batch, -Q/--signal, --lock or --cq-moderation",
			    c->l.recommend_bound);
	return 0;
}

/* Combinations of what was typed; the plan's own rules are plan.c's. */
static int check_combinations(const struct rb_cli *c, char *err, size_t len)
{
	if (rb_cli_given(c, RB_O_ITERS) && rb_cli_given(c, RB_O_DURATION))
		return fail(err, len, "-n/--iters and -D/--duration exclude each other");
	/* perftest lets -a win over -s (its size becomes MAX_SIZE, the sweep 2..8M). */
	if (c->all && rb_cli_given(c, RB_O_SIZE) && !c->perftest_only)
		return fail(err, len, "-a/--all and -s/--size exclude each other");
	if (c->l.ipv6 && c->p.use_cm)
		return fail(err, len,
			    "--ipv6 with -R: the CM takes the GID of the address given; "
			    "give an IPv6 address instead");
	return 0;
}

/*
 * --samples, -H, -C: a client's own files and rows; matrix and --threads
 * runs keep their results elsewhere.
 */
/* --output: a figure the test has, as perftest checks. */
static int check_output(struct rb_cli *c, const struct rb_bench *b, char *err, size_t len)
{
	static const char *const what[] = { "bandwidth", "message_rate", "latency" };
	bool lat = c->l.output == RB_OUTPUT_LATENCY;

	/* --json -: the JSON document is stdout, as --format json makes it. */
	if (!strcmp(c->l.json_path, "-")) {
		if ((rb_cli_given(c, RB_O_FORMAT) && c->l.format != RB_FMT_JSON) ||
		    rb_cli_given(c, RB_O_OUTPUT))
			return fail(err, len,
				    "--json - writes the JSON document to stdout, which --%s would "
				    "also write to: give --json a file name, or leave --%s out",
				    rb_cli_given(c, RB_O_OUTPUT) ? "output" : "format",
				    rb_cli_given(c, RB_O_OUTPUT) ? "output" : "format");
		c->l.format = RB_FMT_JSON;
		c->l.json_path[0] = '\0';
	}
	if (c->l.json_stream[0] && c->p.threads > 1 && strcmp(c->l.json_stream, "-"))
		return fail(err, len,
			    "--json-stream FILE with --threads: the threads' points come together "
			    "on stdout only (--json-stream -)");
	/* --json-stream -: JSON lines are stdout, instead of the table. */
	if (!strcmp(c->l.json_stream, "-")) {
		if (rb_cli_given(c, RB_O_FORMAT) || rb_cli_given(c, RB_O_OUTPUT) ||
		    c->l.format == RB_FMT_JSON)
			return fail(err, len,
				    "--json-stream - writes JSON lines to stdout, which %s would "
				    "also write to: give --json-stream a file name",
				    rb_cli_given(c, RB_O_OUTPUT)   ? "--output"
				    : rb_cli_given(c, RB_O_FORMAT) ? "--format"
								   : "--json -");
		c->l.format = RB_FMT_JSONL;
		c->l.json_stream[0] = '\0';
	}
	if (!rb_cli_given(c, RB_O_OUTPUT) || lat == (b->mode == RB_MODE_LAT))
		return 0;
	return fail(err, len, "--output %s is for %s tests, and %s is a %s test",
		    what[c->l.output % 3], lat ? "latency" : "bandwidth", b->name,
		    lat ? "bandwidth" : "latency");
}

static int check_lat_reports(const struct rb_cli *c, unsigned int scope, char *err, size_t len)
{
	const char *o = c->l.samples_path[0] ? "--samples"
			: c->l.histogram     ? "-H/--report-histogram"
			: c->l.cycles	     ? "-C/--report-cycles"
					     : NULL;

	if (o && (scope & RB_S_MATRIX))
		return fail(err, len, "%s does not apply to matrix", o);
	/* The samples stay with the side that timed them. */
	if (o && c->p.reversed)
		return fail(err, len,
			    "%s and --reversed: the server times the operations, and its RESULT "
			    "carries their summary, not the samples",
			    o);
	if (c->l.samples_path[0] && c->p.threads > 1)
		return fail(err, len, "--samples (-U) does not apply to --threads runs");
	if (c->l.cycles && rb_cli_given(c, RB_O_INTERVAL))
		return fail(err, len, "-C/--report-cycles and --interval exclude each other");
	return 0;
}

/* -D 0, --interval and --rate into the plan (their syntax was checked). */
static int apply_shape(struct rb_cli *c, unsigned int scope, char *err, size_t len)
{
	bool iv = rb_cli_given(c, RB_O_INTERVAL), rate = rb_cli_given(c, RB_O_RATE);
	int ret = 0;

	if (c->p.reversed && (scope & RB_S_MATRIX))
		return fail(err, len,
			    "--reversed does not apply to matrix: its pattern (or "
			    "--pairs-file) says which rank of a pair sends");
	if ((iv || rate) && (scope & RB_S_MATRIX))
		return fail(err, len, "--%s does not apply to matrix", iv ? "interval" : "rate");
	c->p.forever = rb_cli_given(c, RB_O_DURATION) && !c->p.duration_s;
	if (iv)
		ret = rb_interval_parse("--interval", c->interval_arg, &c->p.interval_ms, err, len);
	if (!ret && rate)
		ret = rb_rate_parse("--rate", c->rate_arg, &c->p.rate, &c->p.rate_unit, err, len);
	/* issue 42: --backoff into the plan (the row checked its syntax). */
	if (!ret && c->backoff_arg[0])
		ret = rb_lock_backoff_parse(c->backoff_arg, &c->p.backoff_min_ns,
					    &c->p.backoff_max_ns, err, len);
	return ret;
}

/*
 * --reg-mode cache (issue 42): --reuse into the plan, and the cache's
 * defaults; --reg-cache and --buffers without it are plan.c's to refuse.
 */
static int apply_reg_cache(struct rb_cli *c, char *err, size_t len)
{
	const char *reuse = c->reuse_arg[0] ? c->reuse_arg : "zipf:0.99";

	if (c->p.reg_mode != RB_REG_CACHE)
		return c->reuse_arg[0] ? fail(err, len, "--reuse needs --reg-mode cache") : 0;
	if (!c->p.reg_cache)
		c->p.reg_cache = 64;
	if (!c->p.buffers)
		c->p.buffers = 1024;
	return rb_reuse_parse(reuse, &c->p.reuse, &c->p.reuse_zipf, err, len);
}

/* -d LIST or all: a thread per rail (session/rails.h); all of one device is that device. */
static int apply_rails(struct rb_cli *c, char *err, size_t len)
{
	struct rb_rails r;
	int ret = rb_rails_parse(&c->l, &r, err, len);

	if (ret || !r.n)
		return ret;
	if (r.left_out[0])
		rb_warn("-d all: left out, not ACTIVE: %s", r.left_out);
	if (r.n == 1) {
		snprintf(c->l.device, sizeof(c->l.device), "%s", r.dev[0]);
		if (r.port[0])
			c->l.ib_port = r.port[0];
		return 0;
	}
	if (rb_cli_given(c, RB_O_THREADS) && c->p.threads != r.n)
		return fail(err, len, "--threads %u with -d's %u rails: one thread per rail",
			    c->p.threads, r.n);
	c->p.threads = r.n;
	return 0;
}

int rb_cli_finish(struct rb_cli *c, const struct rb_bench *b, unsigned int scope, char *err,
		  size_t errlen)
{
	unsigned int mine = rb_bench_scope(b) | (scope & (RB_S_FAMILY | RB_S_MATRIX));
	char n[40], where[200];
	uint32_t i;
	int ret;

	/* A family command took the options of all its rows; --mode chose one. */
	for (i = 0; i < rb_nopts; i++)
		if (c->given[i] && !rb_opt_applies(&rb_opts[i], mine))
			return fail(err, errlen, "%s does not apply to %s%s",
				    rb_opt_name(&rb_opts[i], n, sizeof(n)), b->name,
				    scope_hint(&rb_opts[i], where, sizeof(where)));
	snprintf(c->p.test, sizeof(c->p.test), "%s", b->name);
	c->p.lock_layout = b->lock ? RB_LOCK_LAYOUT : 0;
	apply_defaults(c, b);
	if (rb_pt_iters(c, err, errlen))
		return -EINVAL;
	if (rb_cli_given(c, RB_O_FLOW_LABEL) &&
	    rb_flows_parse(c->flow_arg, c->p.flow_label, &c->p.nflow, err, errlen))
		return -EINVAL;
	ret = check_combinations(c, err, errlen);
	if (!ret)
		ret = check_recommend(c, b, err, errlen);
	if (!ret)
		ret = check_lat_reports(c, scope, err, errlen);
	if (!ret)
		ret = check_output(c, b, err, errlen);
	if (!ret)
		ret = apply_shape(c, scope, err, errlen);
	if (!ret)
		ret = apply_reg_cache(c, err, errlen);
	if (!ret && c->l.host)
		ret = apply_rails(c, err, errlen);
	/* The rest is what a server checks in a plan from the wire too. */
	return ret ? ret : rb_plan_validate(&c->p, 0, err, errlen);
}

/* The plan's fields, and the flags that shape it, are the client's. */
static bool client_only(const struct rb_opt *o)
{
	size_t p = offsetof(struct rb_cli, p);

	return (o->off >= p && o->off < p + sizeof(struct rb_params)) || o->off == OFF(all) ||
	       o->off == OFF(op) || o->off == OFF(mode) || o->off == LOC(recommend_bound) ||
	       o->off == LOC(expect) || o->off == OFF(interval_arg) || o->off == OFF(rate_arg) ||
	       o->off == OFF(reuse_arg) || o->off == OFF(backoff_arg) ||
	       o->off == LOC(samples_path) || o->off == LOC(unsorted) || o->off == LOC(histogram) ||
	       o->off == LOC(cycles) || o->off == OFF(flow_arg) || o->off == LOC(dualport);
}

void rb_cli_client_only(const struct rb_cli *c, char *buf, size_t len)
{
	size_t i, used = 0;
	char n[40];

	buf[0] = '\0';
	for (i = 0; i < rb_nopts && used < len; i++)
		if (c->given[i] && client_only(&rb_opts[i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 rb_opt_name(&rb_opts[i], n, sizeof(n)));
}

/*
 * Escape what troff would take as markup: '-' and '\\'; a path may break
 * after its '/' (\: marks where), so no long path overruns a table cell.
 */
void rb_man_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
		if (*s == '/' && s[1] && s[1] != ' ' && s[1] != '-')
			fputs("\\:", f);
	}
}

/*
 * The subcommands an option applies to, for the man page: nothing when it
 * applies to all, "every test" rather than the list of them.
 */
static void man_tests(FILE *f, const struct rb_opt *o)
{
	size_t i, n = 0, hits = 0, tests = 0, test_hits = 0;
	const char *sep = " Applies to: ";
	struct rb_cmd cmd;
	bool every;

	for (i = 0; rb_cmd_at(i, &cmd); i++) {
		bool hit = rb_opt_applies(o, cmd.scope);

		if (cmd.scope & RB_S_OWN)
			continue;
		n++;
		hits += hit;
		tests += !!(cmd.scope & RB_S_TEST);
		test_hits += hit && (cmd.scope & RB_S_TEST);
	}
	if (hits == n)
		return;
	every = test_hits == tests;
	if (every) {
		fprintf(f, "%severy test", sep);
		sep = ", ";
	}
	for (i = 0; rb_cmd_at(i, &cmd); i++)
		if (rb_opt_applies(o, cmd.scope) && !(every && (cmd.scope & RB_S_TEST))) {
			fputs(sep, f);
			rb_man_text(f, cmd.name);
			sep = ", ";
		}
	fputs(".", f);
}

/* Row @o as the man page's OPTIONS has it, but for where it applies. */
static void man_row(FILE *f, const struct rb_opt *o)
{
	fputs(".TP\n", f);
	if (o->sname)
		fprintf(f, "\\fB\\-%c\\fR, ", o->sname);
	fputs("\\fB\\-\\-", f);
	rb_man_text(f, o->lname);
	fputs("\\fR", f);
	if (o->argname) {
		fputs(" \\fI", f);
		rb_man_text(f, o->argname);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	rb_man_text(f, o->help);
	fputc('.', f);
	if (o->def) {
		fputs(" Default: ", f);
		rb_man_text(f, o->def);
		fputc('.', f);
	}
}

void rb_man_options(FILE *f)
{
	size_t i;

	for (i = 0; i < rb_opt_rows(); i++) {
		man_row(f, rb_opt_row(i));
		man_tests(f, rb_opt_row(i));
		fputc('\n', f);
	}
}

void rb_man_rows(FILE *f, const struct rb_opt_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		man_row(f, &t->rows[i]);
		fputc('\n', f);
	}
}

void rb_list_options(FILE *f, unsigned int scope)
{
	size_t i;

	for (i = 0; i < rb_opt_rows(); i++) {
		const struct rb_opt *o = rb_opt_row(i);

		if (!rb_opt_applies(o, scope))
			continue;
		fprintf(f, "--%s\t", o->lname);
		if (o->sname)
			fprintf(f, "-%c", o->sname);
		fprintf(f, "\t%s\t%s\n", o->argname ? o->argname : "",
			o->choices ? o->choices : "");
	}
}
