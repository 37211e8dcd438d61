// SPDX-License-Identifier: MIT
/*
 * Output writers: table (for people), CSV and JSON (for programs), one
 * file each (out_table.c, out_csv.c, out_json.c); here, what they share
 * and the entry points.  Each writer only formats what stats.c computed;
 * all data goes to the writer's FILE, diagnostics to stderr.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bench.h"
#include "core/csv.h"
#include "core/metrics.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/counters.h"
#include "report/out_int.h"
#include "wire/plan.h"

/* A --threads run's rows: a column says whose (a thread's, or "all"). */
bool rb_out_by_thread(const struct rb_doc *r)
{
	return r->params && r->params->threads > 1;
}

const char *rb_out_thread_cell(const struct rb_result *res, char *buf, size_t len)
{
	if (!res->thread_row)
		return "all";
	snprintf(buf, len, "%u", res->thread_row - 1);
	return buf;
}

bool rb_out_bidir_cols(const struct rb_doc *r)
{
	return r->params && r->params->bidir;
}

bool rb_out_wait_cols(const struct rb_doc *r)
{
	const struct rb_params *p = r->params;

	return p && (p->poll.n > 1 || p->cqe_poll.n > 1 ||
		     (p->cqe_poll.n == 1 && p->cqe_poll.v[0] != RB_CQE_POLL_DEFAULT));
}

bool rb_plan_lock(const struct rb_params *p)
{
	const struct rb_bench *b = p ? rb_bench_find(p->test) : NULL;

	return b && b->lock;
}

/* A lock test whose algorithm is --lock's (tcp_lock's is its server's FIFO). */
bool rb_plan_lock_algo(const struct rb_params *p)
{
	const struct rb_bench *b = p ? rb_bench_find(p->test) : NULL;

	return b && b->lock && b->path == RB_PATH_VERBS;
}

bool rb_out_lock(const struct rb_doc *r)
{
	return rb_plan_lock(r->params);
}

bool rb_out_lock_algo(const struct rb_doc *r)
{
	return rb_plan_lock_algo(r->params);
}

const char *rb_out_lock_word(uint64_t v, char *buf, size_t len)
{
	const char *c = RB_LOCK_CHOICES;
	uint64_t i;

	for (i = v; i && c; i--)
		c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL;
	if (c)
		snprintf(buf, len, "%.*s", (int)strcspn(c, "|"), c);
	else /* out of range: rb_plan_validate() refuses it */
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/*
 * A slice as a result of its own: its point's axes, its figures, nothing
 * it does not have (peak, CPU, peer, counters).
 */
struct rb_result rb_out_iv_result(const struct rb_point *pt, const struct rb_interval *iv)
{
	struct rb_result x = { .pt = *pt, .iters = iv->ops, .duration_s = iv->duration_s };

	x.has_lat = iv->has_lat;
	x.lat = iv->lat;
	x.has_bw = true;
	x.bw_avg_gbps = iv->bw_gbps;
	x.bw_peak_gbps = NAN;
	x.msg_rate_mpps = iv->msg_rate_mpps;
	return x;
}

static const struct rb_writer_ops *const writer_ops[] = {
	[RB_FMT_TABLE] = &rb_table_ops,
	[RB_FMT_CSV] = &rb_csv_ops,
	[RB_FMT_JSON] = &rb_json_ops,
};

const struct rb_writer_ops *rb_std_writer_ops(enum rb_format fmt)
{
	if (fmt == RB_FMT_JSONL)
		return &rb_jsonl_ops;
	return writer_ops[fmt <= RB_FMT_JSON ? fmt : RB_FMT_TABLE];
}

static void std_init(struct rb_writer *w, enum rb_format fmt, FILE *f)
{
	w->ops = rb_std_writer_ops(fmt);
	w->f = f;
	w->doc = NULL;
	memset(&w->tally, 0, sizeof(w->tally));
}

const char *rb_csv_header(char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	if (!len)
		return "";
	buf[0] = '\0';
	if (!f)
		return buf;
	rb_csv_header_put(f);
	fclose(f);
	buf[len - 1] = '\0';
	return buf;
}

json_t *rb_json_doc(const struct rb_doc *r, const struct rb_result *res, size_t n)
{
	struct rb_writer w;
	size_t i;

	std_init(&w, RB_FMT_JSON, NULL);
	if (rb_json_ops.begin(&w, r))
		return NULL;
	for (i = 0; i < n; i++)
		if (rb_json_ops.row(&w, r, &res[i]))
			goto err_doc;
	if (rb_json_finish(w.doc, r))
		goto err_doc;
	return w.doc;

err_doc:
	json_decref(w.doc);
	return NULL;
}

static int write_all(FILE *f, enum rb_format fmt, const struct rb_doc *r,
		     const struct rb_result *res, size_t n)
{
	struct rb_writer w;
	size_t i;
	int ret;

	std_init(&w, fmt, f);
	ret = w.ops->begin(&w, r);
	for (i = 0; !ret && i < n; i++)
		ret = w.ops->row(&w, r, &res[i]);
	if (!ret)
		ret = w.ops->end(&w, r);
	json_decref(w.doc); /* left over when a step failed */
	return ret;
}

int rb_write_file(const char *path, enum rb_format fmt, const struct rb_doc *r,
		  const struct rb_result *res, size_t n)
{
	struct rb_afile af;
	FILE *f;
	int ret;

	ret = rb_afile_open(&af, path, &f);
	if (!ret)
		ret = rb_afile_close(&af, f, write_all(f, fmt, r, res, n));
	if (ret)
		rb_err("cannot write %s: %s", path, strerror(-ret));
	return ret;
}

void rb_timestamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!len)
		return;
	if (!gmtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}
