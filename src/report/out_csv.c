// SPDX-License-Identifier: MIT
/*
 * The CSV writer: one header, then a row per point (and per --interval
 * slice or traffic-shape slice), every cell through csv.c (RFC 4180).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cqmod.h"
#include "core/csv.h"
#include "core/metrics.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/counters.h"
#include "report/out_int.h"
#include "wire/plan.h"

/* The columns before and after the metrics' (rb_metrics[], in its order). */
static const char csv_head[] = "test,op,device,host,size,batch,signal,qps,tx_depth,iterations,"
			       "duration_s";
static const char csv_tail[] = ",device_numa_node,cpus,mem_node,local,interval,interval_start_s,"
			       "bw_min_interval_gbps,rate_target_gbps,rate_target_mpps,"
			       "rate_deviation_pct";

/* A text cell after its separator (csv.c quotes it when it must). */
static void csv_str(FILE *f, const char *s)
{
	fputc(',', f);
	rb_csv_str(f, s);
}

/* A figure after its separator; an empty cell when the metric does not apply. */
static void csv_dbl(FILE *f, bool has, double v)
{
	fputc(',', f);
	if (has)
		rb_csv_num(f, v);
}

static void csv_int(FILE *f, int v)
{
	fputc(',', f);
	if (v >= 0)
		fprintf(f, "%d", v);
}

/* Every metric's cell, in rb_metrics[]'s order: empty where it does not apply. */
static void csv_metrics(FILE *f, const struct rb_result *res)
{
	const struct rb_metric *m;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		csv_dbl(f, rb_metric_has(m, res), rb_metric_value(m, res));
}

static void csv_place(FILE *f, const struct rb_placement *p)
{
	csv_int(f, p->device_numa_node);
	csv_str(f, p->cpus);
	csv_int(f, p->mem_node);
	fprintf(f, ",%s", p->local < 0 ? "" : p->local ? "true" : "false");
}

/* -b: each direction's columns, after the common ones (empty on a server). */
static const char csv_bidir_header[] = ",c2s_bw_avg_gbps,c2s_msg_rate_mpps,"
				       "s2c_bw_avg_gbps,s2c_msg_rate_mpps";

/* The header's columns up to the placement's (rb_csv_header()'s text). */
void rb_csv_header_put(FILE *f)
{
	const struct rb_metric *m;

	fputs(csv_head, f);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		fprintf(f, ",%s", m->name);
	fputs(csv_tail, f);
}

/* -d LIST: a column naming each thread's rail (the table's and threads[]'s). */
static bool rails(const struct rb_doc *r)
{
	return rb_out_by_thread(r) && r->rail_width;
}

/*
 * The same columns whatever the test, driver and options (doc/output.md):
 * what does not apply is an empty cell.  Only --csv-counters adds more.
 */
static int csv_begin(struct rb_writer *w, const struct rb_doc *r)
{
	rb_csv_header_put(w->f);
	fputs(",poll,cqe_poll,thread,rail", w->f);
	fputs(csv_bidir_header, w->f);
	fputs(",lock,hold_us,cq_moderation", w->f);
	if (r->csv_counters && r->has_counters)
		rb_counters_csv_header(w->f, "ctr_", (enum rb_prov_id)r->driver_id);
	if (r->csv_counters && r->has_peer_counters)
		rb_counters_csv_header(w->f, "peer_ctr_", (enum rb_prov_id)r->peer_driver_id);
	fputc('\n', w->f);
	return file_status(w->f);
}

static void csv_counters(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	json_t *d = res->diag;

	if (!r->csv_counters)
		return;
	if (r->has_counters)
		rb_counters_csv_json(f, (enum rb_prov_id)r->driver_id,
				     json_object_get(d, "counters"),
				     json_object_get(d, "counters_derived"));
	if (r->has_peer_counters)
		rb_counters_csv_json(f, (enum rb_prov_id)r->peer_driver_id,
				     json_object_get(d, "peer_counters"),
				     json_object_get(d, "peer_counters_derived"));
}

static void csv_bidir(FILE *f, const struct rb_result *res)
{
	int d;

	for (d = RB_DIR_C2S; d <= RB_DIR_S2C; d++) {
		csv_dbl(f, res->has_bidir, res->dir[d].bw_avg_gbps);
		csv_dbl(f, res->has_bidir, res->dir[d].msg_rate_mpps);
	}
}

/* The shape columns: slice @idx (1-based; 0 for the point's own row). */
static void csv_shape(FILE *f, const struct rb_result *res, size_t idx, double start_s)
{
	fputc(',', f);
	if (idx)
		fprintf(f, "%zu", idx);
	csv_dbl(f, idx, start_s);
	csv_dbl(f, res->has_bw_min_iv, res->bw_min_iv_gbps);
	csv_dbl(f, res->has_rate && !res->rate_pps, res->rate_target);
	csv_dbl(f, res->has_rate && res->rate_pps, res->rate_target);
	csv_dbl(f, res->has_rate, res->rate_dev_pct);
}

/* How the point waited for completions; empty where nothing waits (tcp_*). */
static void wait_cells(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	if (!r->params || r->params->poll.n == 0 || !res->pt.cqe_poll) {
		fputs(",,", f);
		return;
	}
	fprintf(f, ",%s,%u", res->pt.poll == RB_POLL_EVENT ? "event" : "busy", res->pt.cqe_poll);
}

/* issue 42/40: the point's lock and hold (a lock test), its CQ moderation (when given). */
static void axes42_cells(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	char buf[24];

	if (rb_out_lock(r))
		fprintf(f, ",%s,%u",
			rb_out_lock_algo(r) ? rb_out_lock_word(res->pt.lock, buf, sizeof(buf)) : "",
			res->pt.hold_us);
	else
		fputs(",,", f);
	fputc(',', f);
	if (r->params && r->params->cq_mod.n)
		fputs(rb_cqmod_str(res->pt.cq_mod, buf, sizeof(buf)), f);
}

static int csv_line(FILE *f, const struct rb_doc *r, const struct rb_result *res, size_t idx,
		    double start_s)
{
	char th[16];

	/* csv_str() writes the separator first: not before the row's first cell. */
	rb_csv_str(f, r->test);
	csv_str(f, r->op);
	csv_str(f, r->device);
	csv_str(f, r->host);
	fprintf(f, ",%llu,%u,%u,%u,%u,%llu", (unsigned long long)res->pt.size, res->pt.batch,
		res->pt.signal, res->pt.qps, res->pt.tx_depth, (unsigned long long)res->iters);
	csv_dbl(f, true, res->duration_s);
	csv_metrics(f, res);
	csv_place(f, res->thread_place ? res->thread_place : &r->place);
	csv_shape(f, res, idx, start_s);
	wait_cells(f, r, res);
	if (rb_out_by_thread(r))
		csv_str(f, rb_out_thread_cell(res, th, sizeof(th)));
	else
		fputc(',', f);
	if (rails(r))
		csv_str(f, res->rail); /* empty on the run's row, the rails' sum */
	else
		fputc(',', f);
	csv_bidir(f, res);
	axes42_cells(f, r, res);
	csv_counters(f, r, res);
	fputc('\n', f);
	return file_status(f);
}

/* A point's slices (interval 1, 2, ...), then its own row (interval empty). */
static int csv_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	struct rb_result x;
	size_t i;
	int ret;

	for (i = 0; i < res->niv; i++) {
		x = rb_out_iv_result(&res->pt, &res->iv[i]);
		/* A thread's slices are that thread's, on its rail. */
		x.thread_row = res->thread_row;
		x.thread_place = res->thread_place;
		x.rail = res->rail;
		ret = csv_line(w->f, r, &x, i + 1, res->iv[i].start_s);
		if (ret)
			return ret;
	}
	return csv_line(w->f, r, res, 0, 0);
}

static int csv_end(struct rb_writer *w, const struct rb_doc *r)
{
	(void)r;
	fflush(w->f);
	return file_status(w->f);
}

const struct rb_writer_ops rb_csv_ops = { .begin = csv_begin, .row = csv_row, .end = csv_end };
