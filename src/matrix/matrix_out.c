// SPDX-License-Identifier: MIT
/*
 * The coordinator's schedule, rounds and verdict: run every round of the
 * schedule, retest alone each pair out of line with the median, flag the
 * ones that still are, and write the matrix (stdout), --csv and --json.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "matrix/matrix_out.h"
#include "core/metrics.h"
#include "core/stats.h"
#include "report/output.h"

#define PAIRS_FILE_MAX (1 << 20)

/* ---- the schedule ----------------------------------------------------------- */

static int read_pairs_file(const char *path, char **text, char *err, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return rb_set_err(err, len, -errno, "--pairs-file %s: %s", path, strerror(errno));
	*text = malloc(PAIRS_FILE_MAX + 1);
	n = *text ? fread(*text, 1, PAIRS_FILE_MAX + 1, f) : 0;
	fclose(f);
	if (!*text)
		return rb_set_err(err, len, -ENOMEM, "--pairs-file %s: no memory", path);
	if (n > PAIRS_FILE_MAX)
		return rb_set_err(err, len, -EFBIG, "--pairs-file %s: larger than %d bytes", path,
				  PAIRS_FILE_MAX);
	(*text)[n] = '\0';
	return 0;
}

int rb_mx_job_schedule(const struct rb_mx_job *j, struct rb_mx_sched *s, char *err, size_t len)
{
	const struct rb_matrix_opts *m = &j->m;
	enum rb_mx_pattern pat;
	char *text = NULL, why[256];
	uint32_t k;
	int ret;

	if (!m->pairs_file[0]) {
		ret = rb_mx_pattern_parse(m->pattern, &pat, &k, err, len);
		return ret ? ret : rb_mx_schedule(pat, k, j->id.nranks, s, err, len);
	}
	ret = read_pairs_file(m->pairs_file, &text, err, len);
	if (!ret && rb_mx_pairs_parse(text, j->id.nranks, s, why, sizeof(why)))
		ret = rb_set_err(err, len, -EINVAL, "--pairs-file %s: %s", m->pairs_file, why);
	free(text);
	return ret;
}

int rb_mx_check_outputs(const struct rb_mx_job *j)
{
	const struct rb_local *l = &j->c->l;
	char err[RB_TEXT_MAX];

	if (l->csv_path[0] && l->json_path[0] && rb_output_same(l->csv_path, l->json_path)) {
		rb_err("--csv and --json name the same file (%s)", l->csv_path);
		return RB_EXIT_USAGE;
	}
	if (l->csv_path[0] && rb_output_check(l->csv_path, err, sizeof(err))) {
		rb_err("--csv %s", err);
		return RB_EXIT_USAGE;
	}
	if (l->json_path[0] && rb_output_check(l->json_path, err, sizeof(err))) {
		rb_err("--json %s", err);
		return RB_EXIT_USAGE;
	}
	return 0;
}

/* ---- rounds and retests ------------------------------------------------------- */

static void progress(const struct rb_mx_coord *c, uint32_t r, const char *what)
{
	double el = (double)(rb_now_ns() - c->t0) / 1e9;

	if (!rb_quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K%s %u/%u  %.0f s elapsed", what, r + 1, c->s.nrounds, el);
	else if (rb_verbose)
		rb_info("%s %u/%u done, %.0f s elapsed", what, r + 1, c->s.nrounds, el);
}

static bool is_bw(const struct rb_mx_coord *c)
{
	return c->j->b->mode == RB_MODE_BW;
}

/* The figure a pair is judged by: the metric table's .matrix_rank row. */
double rb_mx_metric(const struct rb_mx_coord *c, const struct rb_result *res)
{
	return rb_metric_value(rb_metric_rank(!is_bw(c)), res);
}

void rb_mx_set_reason(struct rb_mx_outcome *o, const char *why)
{
	free(o->reason);
	o->reason = why[0] ? strdup(why) : NULL;
}

static const char *reason_of(const struct rb_mx_outcome *o)
{
	return o->reason ? o->reason : "";
}

void rb_mx_free_outcomes(struct rb_mx_coord *c)
{
	size_t i;

	for (i = 0; c->out && i < c->s.n; i++)
		free(c->out[i].reason);
	free(c->out);
	c->out = NULL;
	rb_mx_pool_free(&c->pool);
}

/* What the writers read of pair @i, unpacked from the pool. */
struct kept {
	struct rb_mx_side side[2]; /* src, dst */
	struct rb_result res;	   /* zero: it measured nothing */
};

static void unkeep(const struct rb_mx_coord *c, size_t i, struct kept *k)
{
	const struct rb_mx_outcome *o = &c->out[i];

	rb_mx_side_of(&c->pool, o->side[0], &k->side[0]);
	rb_mx_side_of(&c->pool, o->side[1], &k->side[1]);
	if (o->res != RB_MX_RES_NONE)
		rb_mx_result_of(&c->pool, o->res, &k->res);
	else
		memset(&k->res, 0, sizeof(k->res));
}

static const char *metric_name(const struct rb_mx_coord *c)
{
	return rb_metric_rank(!is_bw(c))->name;
}

/* A figure for people: 4 significant digits, no exponent below 10^9. */
static const char *fig(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "none");
	else if (fabs(v) >= 10000 && fabs(v) < 1e9)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

static double median_ok(struct rb_mx_coord *c)
{
	double *v = malloc((c->s.n ? c->s.n : 1) * sizeof(*v)), m;
	size_t i, n = 0;

	if (!v)
		return NAN;
	for (i = 0; i < c->s.n; i++)
		if (c->out[i].st == RB_MX_OK)
			v[n++] = c->out[i].metric;
	m = n ? rb_median(v, n) : NAN;
	free(v);
	return m;
}

static bool out_of_line(const struct rb_mx_coord *c, size_t pi)
{
	return c->out[pi].st == RB_MX_OK &&
	       rb_out_of_line(c->out[pi].metric, c->median, c->j->m.tolerance / 100.0,
			      c->j->b->mode);
}

/* Pair @pi alone; still out of line against the same median: bad. */
static int retest(struct rb_mx_coord *c, rb_mx_round_fn *run_round, size_t pi)
{
	struct rb_mx_outcome *o = &c->out[pi];
	double first = o->metric;
	char a[32], b[32], m[32], why[RB_MX_REASON];
	int ret;

	o->retested = true;
	ret = run_round(c, &pi, 1);
	if (ret || !out_of_line(c, pi))
		return ret;
	o->bad = true;
	snprintf(why, sizeof(why), "%s %s, then %s alone, against a median of %s (tolerance %u%%)",
		 metric_name(c), fig(first, a, sizeof(a)), fig(o->metric, b, sizeof(b)),
		 fig(c->median, m, sizeof(m)), c->j->m.tolerance);
	rb_mx_set_reason(o, why);
	return 0;
}

/* The rounds from @r on, whose pairs start at index @i of the schedule. */
static int run_rounds(struct rb_mx_coord *c, rb_mx_round_fn *run_round, uint32_t r, size_t i)
{
	size_t n;
	int ret = 0;

	for (; r < c->s.nrounds && !ret; r++, i += n) {
		size_t idx[RB_MX_MAX_RANKS * 2];

		for (n = 0; i + n < c->s.n && c->s.pairs[i + n].round == r &&
			    n < sizeof(idx) / sizeof(idx[0]);
		     n++)
			idx[n] = i + n;
		ret = run_round(c, idx, n);
		progress(c, r, "round");
	}
	return ret;
}

static bool out_of_line(const struct rb_mx_coord *c, size_t pi);

/*
 * suspects:K, after its rings: the ranks more than half of whose pairs
 * are out of line meet others and each other, in rounds of their own.
 */
static int hunt(struct rb_mx_coord *c, rb_mx_round_fn *run_round, uint32_t k)
{
	size_t first = c->s.n, i;
	uint32_t from = c->s.nrounds;
	struct rb_mx_outcome *grown;
	bool *flag = calloc(c->s.n, sizeof(*flag));
	int ret = -ENOMEM;

	c->suspects = calloc(RB_MX_SUSPECTS_MAX + 1, sizeof(*c->suspects));
	if (!flag || !c->suspects)
		goto out;
	c->median = median_ok(c);
	for (i = 0; i < c->s.n; i++)
		flag[i] = out_of_line(c, i);
	c->nsuspects =
		(uint32_t)rb_mx_rank_rule(&c->s, flag, c->n, c->suspects, RB_MX_SUSPECTS_MAX + 1);
	ret = 0;
	if (c->nsuspects > RB_MX_SUSPECTS_MAX) {
		rb_warn("suspects: over %u ranks have most of their ring pairs out of line: no "
			"few bad ranks to close in on (--pattern pairs tests them all)",
			RB_MX_SUSPECTS_MAX);
		goto out;
	}
	if (!c->nsuspects)
		goto out;
	ret = rb_mx_suspect_pairs(&c->s, k, c->n, c->suspects, c->nsuspects);
	if (ret)
		goto out;
	grown = realloc(c->out, c->s.n * sizeof(*c->out));
	if (!grown) {
		c->s.n = first; /* the rings alone */
		c->s.nrounds = from;
		ret = -ENOMEM;
		goto out;
	}
	c->out = grown;
	memset(c->out + first, 0, (c->s.n - first) * sizeof(*c->out));
	ret = run_rounds(c, run_round, from, first);
out:
	if (ret == -ENOMEM)
		rb_err("suspects: no memory for the pairs around the suspects");
	free(flag);
	return ret == -ENOMEM ? 0 : ret;
}

int rb_mx_run_all(struct rb_mx_coord *c, rb_mx_round_fn *run_round)
{
	enum rb_mx_pattern pat = RB_MX_FILE;
	uint32_t kk = 0;
	size_t k;
	int ret;

	char err[160];

	if (!c->j->m.pairs_file[0])
		rb_mx_pattern_parse(c->j->m.pattern, &pat, &kk, err, sizeof(err));
	ret = run_rounds(c, run_round, 0, 0);
	if (!ret && pat == RB_MX_SUSPECTS)
		ret = hunt(c, run_round, kk);
	c->median = median_ok(c);
	for (k = 0; k < c->s.n && !ret; k++)
		if (out_of_line(c, k))
			ret = retest(c, run_round, k);
	if (!rb_quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	return ret;
}

/* ---- the verdict -------------------------------------------------------------- */

static const char *status_of(const struct rb_mx_outcome *o)
{
	if (o->st == RB_MX_OK)
		return o->bad ? "bad" : "ok";
	return "failed";
}

static const char *dev_of(const struct rb_mx_coord *c, const char *seen, uint32_t rank)
{
	return seen[0] ? seen : c->r[rank].device;
}

/* The bad pairs, and the ranks over half of whose pairs are bad. */
static void count(struct rb_mx_coord *c)
{
	bool *flag = calloc(c->s.n ? c->s.n : 1, sizeof(*flag));
	size_t i;

	c->nbad = c->nfailed = 0;
	for (i = 0; i < c->s.n; i++) {
		c->nbad += c->out[i].st == RB_MX_OK && c->out[i].bad;
		c->nfailed += c->out[i].st != RB_MX_OK;
		if (flag)
			flag[i] = c->out[i].st == RB_MX_OK && c->out[i].bad;
	}
	c->bad_ranks = calloc(c->n, sizeof(*c->bad_ranks));
	if (flag && c->bad_ranks)
		c->nbad_ranks = (uint32_t)rb_mx_rank_rule(&c->s, flag, c->n, c->bad_ranks, c->n);
	free(flag);
}

/* The coordinator's own cost: time by phase, CPU and peak memory. */
struct cost {
	double join_s, rounds_s, cpu_s;
	long maxrss_kib;
};

static struct cost cost_of(const struct rb_mx_coord *c)
{
	struct rusage ru = { 0 };

	getrusage(RUSAGE_SELF, &ru);
	return (struct cost){
		.join_s = (double)(c->t_joined - c->t0) / 1e9,
		.rounds_s = (double)(c->t_rounds - c->t_joined) / 1e9,
		.cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		.maxrss_kib = ru.ru_maxrss,
	};
}

static void print_ranks(FILE *f, const char *what, const struct rb_mx_coord *c, const uint32_t *v,
			uint32_t n)
{
	uint32_t i;

	fprintf(f, "# %s:", what);
	for (i = 0; i < n; i++)
		fprintf(f, " %u (%s)", v[i], c->r[v[i]].host);
	fprintf(f, "%s\n", n ? "" : " none");
}

static void print_cost(FILE *f, const struct rb_mx_coord *c)
{
	struct cost k = cost_of(c);

	fprintf(f,
		"# coordinator: joins %.2f s, rounds %.2f s, CPU %.2f s, max RSS %ld KiB (%.1f "
		"KiB per rank)\n",
		k.join_s, k.rounds_s, k.cpu_s, k.maxrss_kib, (double)k.maxrss_kib / c->n);
	if (c->j->sim.on)
		fprintf(f, "# simulated (--simulate %s --seed %u): no pair measured anything\n",
			c->j->m.simulate, c->j->sim.seed);
}

/* The matrix itself, for a job small enough to read: rows src, columns dst. */
static void print_grid(FILE *f, const struct rb_mx_coord *c)
{
	char v[32];
	uint32_t s, d;
	size_t i;

	if (c->n > 32)
		return;
	fprintf(f, "# %s by pair: rows src rank, columns dst rank; * bad, x failed\n",
		metric_name(c));
	fprintf(f, "%5s", "");
	for (d = 0; d < c->n; d++)
		fprintf(f, " %10u", d);
	fputc('\n', f);
	for (s = 0; s < c->n; s++) {
		fprintf(f, "%5u", s);
		for (d = 0; d < c->n; d++) {
			for (i = 0; i < c->s.n; i++)
				if (c->s.pairs[i].src == s && c->s.pairs[i].dst == d)
					break;
			if (i == c->s.n)
				fprintf(f, " %10s", "-");
			else if (c->out[i].st != RB_MX_OK)
				fprintf(f, " %10s", "x");
			else
				fprintf(f, " %9s%c", fig(c->out[i].metric, v, sizeof(v)),
					c->out[i].bad ? '*' : ' ');
		}
		fputc('\n', f);
	}
}

static void print_bad(FILE *f, const struct rb_mx_coord *c)
{
	const struct rb_mx_pair *p;
	struct rb_mx_side src, dst;
	size_t i;

	if (!c->nbad && !c->nfailed)
		return;
	fprintf(f, "%4s %-16s %-10s %4s %-16s %-10s %-7s %s\n", "src", "host", "device", "dst",
		"host", "device", "status", "why");
	for (i = 0; i < c->s.n; i++) {
		const struct rb_mx_outcome *o = &c->out[i];

		if (o->st == RB_MX_OK && !o->bad)
			continue;
		p = &c->s.pairs[i];
		rb_mx_side_of(&c->pool, o->side[0], &src);
		rb_mx_side_of(&c->pool, o->side[1], &dst);
		fprintf(f, "%4u %-16s %-10s %4u %-16s %-10s %-7s %s\n", p->src, c->r[p->src].host,
			dev_of(c, src.dev, p->src), p->dst, c->r[p->dst].host,
			dev_of(c, dst.dev, p->dst), status_of(o), reason_of(o));
	}
}

static void print_verdict(FILE *f, const struct rb_mx_coord *c)
{
	const struct rb_mx_job *j = c->j;
	char m[32];

	fprintf(f, "# rdmabench %s matrix %s: %u ranks, %zu pairs in %u rounds, %.0f s\n",
		PACKAGE_VERSION, j->b->name, c->n, c->s.n, c->s.nrounds,
		(double)(rb_now_ns() - c->t0) / 1e9);
	print_grid(f, c);
	fprintf(f, "# median %s %s, tolerance %u%%: %zu bad, %zu failed\n", metric_name(c),
		fig(c->median, m, sizeof(m)), j->m.tolerance, c->nbad, c->nfailed);
	print_bad(f, c);
	if (c->suspects)
		print_ranks(f, "suspects (the rings' ranks over half out of line)", c, c->suspects,
			    c->nsuspects > RB_MX_SUSPECTS_MAX ? 0 : c->nsuspects);
	print_ranks(f, "bad ranks (over half their pairs bad)", c, c->bad_ranks, c->nbad_ranks);
	print_cost(f, c);
	fflush(f);
}

static void csv_rows(FILE *f, const struct rb_mx_coord *c)
{
	static struct kept k;
	size_t i;

	rb_mx_csv_header(f);
	for (i = 0; i < c->s.n; i++) {
		const struct rb_mx_outcome *o = &c->out[i];
		const struct rb_mx_pair *p = &c->s.pairs[i];
		struct rb_mx_row row;

		unkeep(c, i, &k);
		row = (struct rb_mx_row){
			.src = p->src,
			.dst = p->dst,
			.src_host = c->r[p->src].host,
			.src_dev = dev_of(c, k.side[0].dev, p->src),
			.dst_host = c->r[p->dst].host,
			.dst_dev = dev_of(c, k.side[1].dev, p->dst),
			.test = c->j->b->name,
			.size = c->j->c->p.size.v[0],
			.res = o->st == RB_MX_OK ? &k.res : NULL,
			.status = status_of(o),
			.retested = o->retested,
			.reason = reason_of(o),
		};
		rb_mx_csv_row(f, &row);
	}
}

/* One pair as today's run document: its client's view, placement of both. */
static json_t *pair_run(const struct rb_mx_coord *c, size_t i, const struct kept *k)
{
	const struct rb_mx_outcome *o = &c->out[i];
	const struct rb_mx_pair *p = &c->s.pairs[i];
	const struct rb_bench *b = c->j->b;
	struct rb_doc rep = {
		.test = b->name,
		.mode = b->mode,
		.op = b->atomic ? rb_op_name(c->j->c->p.atomic_op) : NULL,
		.role = "client",
		.host = c->r[p->src].host,
		.peer = c->r[p->dst].addr,
		.device = dev_of(c, k->side[0].dev, p->src),
		.port = k->side[0].port,
		.gid_index = k->side[0].gid_index,
		.gid = k->side[0].gid,
		.params = &c->j->c->p,
		.place = k->side[0].place,
		.has_peer_place = o->st == RB_MX_OK,
		.peer_place = k->side[1].place,
		.incomplete = o->st != RB_MX_OK,
		.reason = reason_of(o),
	};

	rb_timestamp(rep.timestamp, sizeof(rep.timestamp));
	return rb_json_doc(&rep, &k->res, o->st == RB_MX_OK);
}

/* A side's port, GID index and GID as PREFIX_port ...: null where not known. */
static void json_side(json_t *o, const char *prefix, const struct rb_mx_side *s)
{
	char k[32];

	snprintf(k, sizeof(k), "%s_port", prefix);
	json_object_set_new(o, k, s->port ? json_integer(s->port) : json_null());
	snprintf(k, sizeof(k), "%s_gid_index", prefix);
	json_object_set_new(o, k, s->gid_index >= 0 ? json_integer(s->gid_index) : json_null());
	snprintf(k, sizeof(k), "%s_gid", prefix);
	json_object_set_new(o, k, s->gid[0] ? json_string(s->gid) : json_null());
}

/* Pair @i's object, with its run document; NULL without memory. */
static json_t *json_pair(const struct rb_mx_coord *c, size_t i, struct kept *k)
{
	const struct rb_mx_outcome *out = &c->out[i];
	const struct rb_mx_pair *p = &c->s.pairs[i];
	json_t *o;

	unkeep(c, i, k);
	o = json_pack("{sI sI ss ss ss ss sI ss sb ss so?}", "src", (json_int_t)p->src, "dst",
		      (json_int_t)p->dst, "src_host", c->r[p->src].host, "dst_host",
		      c->r[p->dst].host, "src_device", dev_of(c, k->side[0].dev, p->src),
		      "dst_device", dev_of(c, k->side[1].dev, p->dst), "round",
		      (json_int_t)p->round, "status", status_of(out), "retested", out->retested,
		      "reason", reason_of(out), "run", pair_run(c, i, k));
	if (o) {
		json_side(o, "src", &k->side[0]);
		json_side(o, "dst", &k->side[1]);
	}
	return o;
}

static json_t *json_ranks(const struct rb_mx_coord *c)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; arr && i < c->n; i++)
		json_array_append_new(arr, json_pack("{sI ss ss ss sb ss}", "rank", (json_int_t)i,
						     "host", c->r[i].host, "device", c->r[i].device,
						     "address", c->r[i].addr, "dead", c->r[i].dead,
						     "why", c->r[i].why));
	return arr;
}

static json_t *json_u32s(const uint32_t *v, uint32_t n)
{
	json_t *arr = json_array();
	uint32_t i;

	for (i = 0; arr && i < n; i++)
		json_array_append_new(arr, json_integer(v[i]));
	return arr;
}

/* The coordinator's cost, and what --simulate made up, beside the verdict. */
static void json_scale(json_t *mx, const struct rb_mx_coord *c)
{
	struct cost k = cost_of(c);
	const struct rb_mx_sim *sim = &c->j->sim;

	json_object_set_new(mx, "pairs_run", json_integer((json_int_t)c->s.n));
	json_object_set_new(mx, "coordinator_found", json_string(c->j->found));
	json_object_set_new(mx, "bad_ranks", json_u32s(c->bad_ranks, c->nbad_ranks));
	if (c->suspects)
		json_object_set_new(mx, "suspects", json_u32s(c->suspects, c->nsuspects));
	json_object_set_new(mx, "coordinator",
			    json_pack("{sf sf sf sI}", "join_s", k.join_s, "rounds_s", k.rounds_s,
				      "cpu_s", k.cpu_s, "maxrss_kib", (json_int_t)k.maxrss_kib));
	if (sim->on)
		json_object_set_new(mx, "simulated",
				    sim->outlier == RB_MX_SIM_NONE
					    ? json_pack("{sI sn sI}", "seed", (json_int_t)sim->seed,
							"outlier", "slow_pct",
							(json_int_t)sim->slow)
					    : json_pack("{sI sI sI}", "seed", (json_int_t)sim->seed,
							"outlier", (json_int_t)sim->outlier,
							"slow_pct", (json_int_t)sim->slow));
}

/* All but the pairs: "pairs", printed last, is an empty array here. */
static json_t *json_head(const struct rb_mx_coord *c)
{
	const struct rb_mx_job *j = c->j;
	json_t *mx = json_pack("{ss sI sI sI ss sf sI sI}", "test", j->b->name, "nranks",
			       (json_int_t)c->n, "rounds", (json_int_t)c->s.nrounds,
			       "tolerance_pct", (json_int_t)j->m.tolerance, "metric",
			       metric_name(c), "median", isfinite(c->median) ? c->median : 0.0,
			       "bad", (json_int_t)c->nbad, "failed", (json_int_t)c->nfailed);

	if (mx)
		json_scale(mx, c);
	return json_pack("{si ss ss ss so so s[]}", "schema_version", RB_SCHEMA_VERSION, "tool",
			 RB_TOOL, "tool_version", PACKAGE_VERSION, "command", "matrix", "matrix",
			 mx, "ranks", json_ranks(c), "pairs");
}

/*
 * The document is printed as json_dumpf(RB_JSON_DUMP) would print it
 * whole, but never held whole: a million pairs would take gigabytes. The
 * head is printed with "pairs" empty, then each pair's object alone, moved
 * in to its depth, and freed before the next.
 */
#define PAIR_INDENT "    "  /* an element of "pairs": depth 2 */
#define HEAD_TAIL   "[]\n}" /* how the head ends: "pairs" last, empty */

/* json_dump_callback()'s sink for one pair: a newline is only ever
 * indentation, since JSON strings escape theirs. */
static int indented(const char *buf, size_t size, void *data)
{
	FILE *f = data;
	const char *nl;
	size_t n;

	while ((nl = memchr(buf, '\n', size))) {
		n = (size_t)(nl - buf) + 1;
		if (fwrite(buf, 1, n, f) != n || fputs(PAIR_INDENT, f) == EOF)
			return -1;
		buf += n;
		size -= n;
	}
	return size && fwrite(buf, 1, size, f) != size ? -1 : 0;
}

static int json_stream_pairs(FILE *f, const struct rb_mx_coord *c)
{
	static struct kept k;
	json_t *o;
	size_t i;
	int ret = 0;

	for (i = 0; i < c->s.n && !ret; i++) {
		o = json_pair(c, i, &k);
		if (!o)
			return -ENOMEM;
		ret = fputs(i ? ",\n" PAIR_INDENT : "\n" PAIR_INDENT, f) == EOF ||
				      json_dump_callback(o, indented, f, RB_JSON_DUMP)
			      ? -EIO
			      : 0;
		json_decref(o);
	}
	return ret;
}

static int json_write(FILE *f, const struct rb_mx_coord *c)
{
	json_t *doc = json_head(c);
	char *head = doc ? json_dumps(doc, RB_JSON_DUMP) : NULL;
	size_t n = head ? strlen(head) : 0, keep;
	int ret = -ENOMEM;

	json_decref(doc);
	if (!head)
		goto out;
	/* Not jansson's layout any more: refuse rather than print a broken file. */
	ret = -EPROTO;
	if (n < sizeof(HEAD_TAIL) || strcmp(head + n - (sizeof(HEAD_TAIL) - 1), HEAD_TAIL)) {
		rb_err("--json: jansson %s printed the document's head in an unknown layout",
		       JANSSON_VERSION);
		goto out;
	}
	keep = n - (sizeof(HEAD_TAIL) - 2); /* up to "[" */
	ret = fwrite(head, 1, keep, f) != keep ? -EIO : json_stream_pairs(f, c);
	if (!ret && fputs(c->s.n ? "\n  ]\n}\n" : "]\n}\n", f) == EOF)
		ret = -EIO;
out:
	free(head);
	return ret;
}

/* @path written whole (atomic_file.h). */
static int write_out(const char *path, const struct rb_mx_coord *c, bool json)
{
	struct rb_afile af;
	FILE *f;
	int ret;

	ret = rb_afile_open(&af, path, &f);
	if (!ret && json) {
		ret = json_write(f, c);
	} else if (!ret) {
		csv_rows(f, c);
		ret = ferror(f) ? -EIO : 0;
	}
	ret = rb_afile_close(&af, f, ret);
	if (ret)
		rb_err("cannot write %s: %s", path, strerror(-ret));
	return ret;
}

int rb_mx_verdict_out(struct rb_mx_coord *c, int ret)
{
	const struct rb_local *l = &c->j->c->l;
	int wret = 0;

	count(c);
	print_verdict(stdout, c);
	if (l->csv_path[0])
		wret = write_out(l->csv_path, c, false);
	if (l->json_path[0] && write_out(l->json_path, c, true))
		wret = -EIO;
	if (ret == -EINTR || rb_interrupted)
		return rb_interrupted ? 128 + rb_interrupted : RB_EXIT_INTR;
	return wret || c->nbad || c->nfailed ? RB_EXIT_FAIL : RB_EXIT_OK;
}
