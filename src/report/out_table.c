// SPDX-License-Identifier: MIT
/*
 * The table, for people: a title with the placement, one line per
 * point (columns from the metric table), --interval slices live, the
 * latency histogram and the traffic shape's slices under their point.
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
#include "core/bench.h"
#include "core/metrics.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/counters.h"
#include "report/out_int.h"
#include "wire/plan.h"

/* the point's 5, lock, hold and cqmod, the metrics, the wait's 4, thread and rail, -b's 4 */
#define TABLE_MAX_COLS (5 + 3 + RB_METRICS_MAX + 4 + 2 + 4)
#define TABLE_CELL     32

/* A right-aligned column, as wide as its name (tcol_add()'s @minw at least). */
struct tcol {
	char name[TABLE_CELL];
	int width;
};

static void tcol_add(struct tcol *c, int *n, const char *name, int minw)
{
	struct tcol *t = &c[(*n)++];
	int len = (int)strlen(name);

	snprintf(t->name, sizeof(t->name), "%s", name);
	t->width = len > minw ? len : minw;
}

static const char *units_name(enum rb_units u)
{
	switch (u) {
	case RB_UNITS_GBITS:
		return "Gb/s";
	case RB_UNITS_MBS:
		return "MB/s";
	case RB_UNITS_GBYTES:
		return "GB/s";
	default:
		return "MiB/s";
	}
}

static double units_value(enum rb_units u, double gbps)
{
	switch (u) {
	case RB_UNITS_GBITS:
		return gbps;
	case RB_UNITS_MBS:
		return gbps * 1e9 / 8 / 1e6;
	case RB_UNITS_GBYTES:
		return gbps / 8;
	default:
		return rb_gbps_to_mibps(gbps);
	}
}

/* issue 42: whether @r's test is a lock (its row says), whose group the table shows. */
static bool table_lock(const struct rb_doc *r)
{
	return rb_out_lock(r);
}

/* issue 42/40: the axes --lock, --hold, --cq-moderation have a column where they vary. */
enum { AX_LOCK, AX_HOLD, AX_CQMOD, AX_N };

static bool axis_col(const struct rb_doc *r, int ax)
{
	const struct rb_params *p = r->params;

	if (!p)
		return false;
	return (ax == AX_LOCK ? p->lock_algo.n : ax == AX_HOLD ? p->hold_us.n : p->cq_mod.n) > 1;
}

static void axis_cell(const struct rb_result *res, int ax, char *cell)
{
	if (ax == AX_LOCK)
		rb_out_lock_word(res->pt.lock, cell, TABLE_CELL);
	else if (ax == AX_HOLD)
		snprintf(cell, TABLE_CELL, "%u", res->pt.hold_us);
	else
		rb_cqmod_str(res->pt.cq_mod, cell, TABLE_CELL);
}

/*
 * Whether the table shows metric @m in a run of @r's mode: latency or the
 * rest; --probe's and --wr-lat's columns only in a run that asked.
 */
static bool table_shows(const struct rb_doc *r, const struct rb_metric *m)
{
	if (m->group == RB_MG_PROBE && !(r->params && r->params->probe))
		return false;
	if (m->group == RB_MG_WRLAT && !(r->params && r->params->wr_lat))
		return false;
	if (m->group == RB_MG_RCACHE && !(r->params && r->params->reg_mode == RB_REG_CACHE))
		return false;
	if (m->group == RB_MG_LOCK) /* issue 42: a lock test's columns, beside its latency */
		return m->table && table_lock(r);
	return m->table && (m->group == RB_MG_LAT) == (r->mode == RB_MODE_LAT);
}

/* The unit in @m's column: -C's ticks for latency, --units for bandwidth. */
static const char *table_unit(const struct rb_doc *r, const struct rb_metric *m)
{
	if (m->group == RB_MG_LAT)
		return r->tick_clock ? "ticks" : m->unit;
	return strcmp(m->unit, "Gb/s") ? m->unit : units_name(r->units);
}

static int table_columns(const struct rb_doc *r, struct tcol *c)
{
	const struct rb_metric *m;
	char name[TABLE_CELL];
	int n = 0, ax;

	tcol_add(c, &n, "size", 7);
	tcol_add(c, &n, "batch", 5);
	tcol_add(c, &n, "signal", 6);
	tcol_add(c, &n, "qps", 4);
	tcol_add(c, &n, "iters", 10);
	for (ax = 0; ax < AX_N; ax++)
		if (axis_col(r, ax))
			tcol_add(c, &n,
				 ax == AX_LOCK	 ? "lock"
				 : ax == AX_HOLD ? "hold[us]"
						 : "cqmod",
				 ax == AX_CQMOD ? 11 : 6);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++) {
		if (!table_shows(r, m))
			continue;
		snprintf(name, sizeof(name), "%s[%s]", m->table, table_unit(r, m));
		tcol_add(c, &n, name, m->table_width);
	}
	if (rb_out_wait_cols(r)) {
		tcol_add(c, &n, "poll", 5);
		tcol_add(c, &n, "cqe", 4);
		tcol_add(c, &n, "cpu[ns/msg]", 11);
		tcol_add(c, &n, "wakeups/msg", 11);
	}
	if (rb_out_by_thread(r))
		tcol_add(c, &n, "thread", 6);
	if (rb_out_by_thread(r) && r->rail_width)
		tcol_add(c, &n, "rail", r->rail_width);
	if (r->mode == RB_MODE_LAT || !rb_out_bidir_cols(r))
		return n;
	snprintf(name, sizeof(name), "c2s[%s]", units_name(r->units));
	tcol_add(c, &n, name, 10);
	snprintf(name, sizeof(name), "s2c[%s]", units_name(r->units));
	tcol_add(c, &n, name, 10);
	tcol_add(c, &n, "c2s[Mpps]", 9);
	tcol_add(c, &n, "s2c[Mpps]", 9);
	return n;
}

static void cell_dbl(char *cell, bool has, int prec, double v)
{
	if (has && isfinite(v))
		snprintf(cell, TABLE_CELL, "%.*f", prec, v);
	else
		snprintf(cell, TABLE_CELL, "-");
}

/* Four significant digits: message rates span 0.0007 to 200 Mpps. */
static void cell_sig(char *cell, bool has, double v)
{
	if (has && isfinite(v))
		snprintf(cell, TABLE_CELL, "%.4g", v);
	else
		snprintf(cell, TABLE_CELL, "-");
}

/* The last cell of a --threads run's row: whose it is. */
static void thread_cell_at(const struct rb_doc *r, const struct rb_result *res, char *cell)
{
	char th[16];

	if (rb_out_by_thread(r))
		snprintf(cell, TABLE_CELL, "%s", rb_out_thread_cell(res, th, sizeof(th)));
}

/* @m's cell: in --units for bandwidth, from lat_ticks under -C. */
static void metric_cell(const struct rb_doc *r, const struct rb_result *res,
			const struct rb_metric *m, char *cell)
{
	bool has = rb_metric_has(m, res);
	double v;

	if (m->group == RB_MG_LAT && r->tick_clock) {
		has = has && res->has_ticks;
		v = rb_metric_lat(m, &res->lat_ticks);
	} else {
		v = rb_metric_value(m, res);
	}
	if (!strcmp(m->unit, "Gb/s"))
		v = units_value(r->units, v);
	if (m->fmt == RB_MF_SIG4)
		cell_sig(cell, has, v);
	else
		cell_dbl(cell, has, 2, v);
}

/* The cells of @res, in the order of table_columns(). */
static void table_cells(const struct rb_doc *r, const struct rb_result *res,
			char (*cell)[TABLE_CELL])
{
	const struct rb_metric *m;
	int k = 5, ax;

	rb_size_str(res->pt.size, cell[0], TABLE_CELL);
	snprintf(cell[1], TABLE_CELL, "%u", res->pt.batch);
	snprintf(cell[2], TABLE_CELL, "%u", res->pt.signal);
	snprintf(cell[3], TABLE_CELL, "%u", res->pt.qps);
	snprintf(cell[4], TABLE_CELL, "%llu", (unsigned long long)res->iters);
	for (ax = 0; ax < AX_N; ax++)
		if (axis_col(r, ax))
			axis_cell(res, ax, cell[k++]);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if (table_shows(r, m))
			metric_cell(r, res, m, cell[k++]);
	if (rb_out_wait_cols(r)) {
		snprintf(cell[k++], TABLE_CELL, "%s",
			 res->pt.poll == RB_POLL_EVENT ? "event" : "busy");
		snprintf(cell[k++], TABLE_CELL, "%u", res->pt.cqe_poll);
		cell_sig(cell[k++], res->has_cpu, res->cpu_ns_per_msg);
		cell_sig(cell[k++], res->has_wakeups, res->wakeups_per_msg);
	}
	if (rb_out_by_thread(r))
		thread_cell_at(r, res, cell[k++]);
	if (rb_out_by_thread(r) && r->rail_width)
		snprintf(cell[k++], TABLE_CELL, "%s", res->rail ? res->rail : "-");
	if (r->mode == RB_MODE_LAT || !rb_out_bidir_cols(r))
		return;
	cell_dbl(cell[k++], res->has_bidir, 2,
		 units_value(r->units, res->dir[RB_DIR_C2S].bw_avg_gbps));
	cell_dbl(cell[k++], res->has_bidir, 2,
		 units_value(r->units, res->dir[RB_DIR_S2C].bw_avg_gbps));
	cell_sig(cell[k++], res->has_bidir, res->dir[RB_DIR_C2S].msg_rate_mpps);
	cell_sig(cell[k], res->has_bidir, res->dir[RB_DIR_S2C].msg_rate_mpps);
}

/* The cells, aligned, then @tail and the line's end. */
static void table_line(FILE *f, const struct tcol *c, int n, char (*cell)[TABLE_CELL],
		       const char *tail)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%*s", i ? " " : "", c[i].width, cell[i]);
	fprintf(f, "%s\n", tail);
}

static const char *local_name(int local)
{
	if (local < 0)
		return "unknown";
	return local ? "local" : "remote";
}

/* The measuring CPU's clock, and the warning perftest gives unless -F. */
static void table_freq(FILE *f, const char *what, const struct rb_placement *p, bool quiet)
{
	char gov[4 * sizeof(p->governor)], mhz[24] = "";

	if (!p->governor[0] && !p->cpu_mhz)
		return;
	rb_escape(p->governor, gov, sizeof(gov));
	if (p->cpu_mhz)
		snprintf(mhz, sizeof(mhz), " at %u MHz", p->cpu_mhz);
	fprintf(f, "# %s cpu %d: governor %s%s\n", what, p->freq_cpu, str_or(gov, "unknown"), mhz);
	if (!quiet && rb_freq_varies(p))
		fprintf(f,
			"# warning: %s cpu %d runs the %s governor, not performance: its clock "
			"follows its load, and latencies with it (-F/--cpu-freq silences this)\n",
			what, p->freq_cpu, gov);
}

/* A peer's placement is the peer's text: printed escaped (rb_escape()). */
static void table_place(FILE *f, const char *what, const struct rb_placement *p, bool quiet)
{
	char node[16] = "unknown", mem[16] = "any", cpus[4 * sizeof(p->cpus)];

	if (p->device_numa_node >= 0)
		snprintf(node, sizeof(node), "%d", p->device_numa_node);
	if (p->mem_node >= 0)
		snprintf(mem, sizeof(mem), "%d", p->mem_node);
	fprintf(f, "# %s: device NUMA node %s, cpus %s, memory node %s (%s)\n", what, node,
		str_or(rb_escape(p->cpus, cpus, sizeof(cpus)), "any"), mem, local_name(p->local));
	table_freq(f, what, p, quiet);
}

static void table_device(FILE *f, const struct rb_doc *r)
{
	fprintf(f, "# device %s port %d", str_or(r->device, "-"), r->port);
	if (r->gid_index >= 0)
		fprintf(f, " gid %d", r->gid_index);
	fprintf(f, " (%s)  MTU active %u, path %u\n", str_or(r->link_layer, "-"), r->active_mtu,
		r->path_mtu);
}

static void table_title(FILE *f, const struct rb_doc *r)
{
	fprintf(f, "# %s %s %s%s%s %s  %s -> %s\n", RB_TOOL, PACKAGE_VERSION, str_or(r->test, "-"),
		r->op ? " " : "", r->op ? r->op : "", str_or(r->role, "-"), str_or(r->host, "-"),
		str_or(r->peer, "-"));
	if (r->sock.on)
		fprintf(f,
			"# TCP %s -> %s via %s: SO_SNDBUF %d, SO_RCVBUF %d (peer's %d, %d), MSS "
			"%d%s\n",
			str_or(r->sock.local, "-"), str_or(r->sock.peer, "-"),
			str_or(r->device, "-"), r->sock.sndbuf, r->sock.rcvbuf, r->sock.peer_sndbuf,
			r->sock.peer_rcvbuf, r->sock.mss, r->sock.nodelay ? ", TCP_NODELAY" : "");
	else
		table_device(f, r);
	table_place(f, "placement", &r->place, r->freq_quiet);
	if (r->has_peer_place)
		table_place(f, "peer placement", &r->peer_place, r->freq_quiet);
	if (r->samples_path)
		fprintf(f, "# samples: every latency sample, in measurement order, in %s\n",
			r->samples_path);
	if (r->tick_clock)
		fprintf(f,
			"# latency in ticks of the %s clock (-C); the JSON has microseconds too\n",
			r->tick_clock);
	if (r->params && r->params->latency_gap_us)
		fprintf(f,
			"# latency_gap: %u us before each post, outside every latency sample "
			"(perftest's samples hold it: --format perftest adds it)\n",
			r->params->latency_gap_us);
	if (r->params && r->params->reversed)
		fprintf(f, "# reversed: the server sent and timed each point; a client's row shows "
			   "the server's figures, its peer columns the client's\n");
	if (rb_out_bidir_cols(r))
		fprintf(f, "# bidirectional: the client's BW and MsgRate are the sums of c2s "
			   "(client to server) and s2c; a server's rows show only its own "
			   "stream\n");
}

static int table_begin(struct rb_writer *w, const struct rb_doc *r)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int i, n, len = 0;

	table_title(w->f, r);
	n = table_columns(r, c);
	for (i = 0; i < n; i++) {
		memcpy(cell[i], c[i].name, TABLE_CELL);
		len += c[i].width + (i ? 1 : 0);
	}
	table_line(w->f, c, n, cell, "");
	for (i = 0; i < len; i++)
		fputc('-', w->f);
	fputc('\n', w->f);
	fflush(w->f);
	return file_status(w->f);
}

/* One line per point, flushed: rows appear as points finish. */
/* Under a point: its lowest slice, its rate, that it was cut short or measured nothing. */
static void table_shape(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	if (res->has_bw_min_iv)
		fprintf(f, "  # lowest interval bandwidth %.2f %s over %zu interval(s)\n",
			units_value(r->units, res->bw_min_iv_gbps), units_name(r->units), res->niv);
	if (res->has_rate)
		fprintf(f, "  # rate: target %.4g %s, achieved %.4g %s (%+.1f%%)\n",
			res->rate_target, res->rate_pps ? "Mpps" : "Gb/s", res->rate_achieved,
			res->rate_pps ? "Mpps" : "Gb/s", res->rate_dev_pct);
	if (res->cut)
		fprintf(f, "  # interrupted: what the point measured until the signal\n");
	if (res->has_lat && res->lat.bucketed)
		fprintf(f, "  # percentiles from buckets (within 0.4%%): more than %zu samples\n",
			RB_SAMPLES_EXACT_MAX);
	if (res->nothing_measured)
		fprintf(f, "  # nothing measured: no operation completed here after the warm-up\n");
	if (res->peer_nothing_measured)
		fprintf(f, "  # the peer measured nothing: no operation completed there after the "
			   "warm-up\n");
}

/* -H: a bar per bucket under the point, the longest HIST_BAR wide. */
#define HIST_BAR 40

static void table_hist(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	const struct rb_lat_hist *h = &res->hist;
	const double *e = r->tick_clock && res->has_ticks ? h->edge_ticks : h->edge_us;
	const char *unit = e == h->edge_ticks ? "ticks" : "us";
	uint64_t most = 0;
	uint32_t i;
	int bar;

	for (i = 0; i < h->n; i++)
		if (h->count[i] > most)
			most = h->count[i];
	fprintf(f, "  # histogram [%s]: %u buckets from the minimum to p99.9%s\n", unit, h->n,
		h->tail ? ", the last one the tail to the maximum" : "");
	for (i = 0; i < h->n && most; i++) {
		bar = (int)((h->count[i] * HIST_BAR + most - 1) / most);
		fprintf(f, "  # %10.2f - %10.2f %10llu%s%.*s\n", e[i], e[i + 1],
			(unsigned long long)h->count[i], bar ? " " : "", bar,
			"########################################");
	}
}

static int table_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int n = table_columns(r, c);

	table_cells(r, res, cell);
	table_line(w->f, c, n, cell, "");
	table_shape(w->f, r, res);
	if (res->has_lat && res->has_hist)
		table_hist(w->f, r, res);
	/* Under the point: the error counters that moved, the gates it failed. */
	if (res->flag[0])
		fprintf(w->f, "  ! %s\n", res->flag);
	rb_tally_point(&w->tally, r, res);
	fflush(w->f);
	return file_status(w->f);
}

/* A slice, live, in the columns of its point, with when it was. */
static int table_interval(struct rb_writer *w, const struct rb_doc *r, const struct rb_point *pt,
			  const struct rb_interval *iv, size_t idx)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int n = table_columns(r, c);
	struct rb_result x = rb_out_iv_result(pt, iv);
	char tail[64];

	table_cells(r, &x, cell);
	snprintf(tail, sizeof(tail), "  [interval %zu: %.2f-%.2f s]", idx + 1, iv->start_s,
		 iv->start_s + iv->duration_s);
	table_line(w->f, c, n, cell, tail);
	fflush(w->f);
	return file_status(w->f);
}

/*
 * "setup: 1024 QPs: create 12.3 ms, connect 45.6 ms (56.7 us a QP), destroy 7.8 ms"
 * and on the client the server's, "server setup: 1024 QPs: create ...".
 */
static void setup_line(FILE *f, const char *who, uint32_t qps, double create_ms, double connect_ms,
		       double destroy_ms)
{
	fprintf(f, "%ssetup: %u QP%s: create %.1f ms, connect %.1f ms (%.1f us a QP)", who, qps,
		qps == 1 ? "" : "s", create_ms, connect_ms, (create_ms + connect_ms) * 1e3 / qps);
	if (destroy_ms >= 0)
		fprintf(f, ", destroy %.1f ms", destroy_ms);
	fprintf(f, "\n");
}

static void table_setup(FILE *f, const struct rb_setup *su)
{
	if (!su->on || su->connect_ms < 0)
		return;
	setup_line(f, "", su->qps, su->create_ms, su->connect_ms, su->destroy_ms);
	if (su->peer_on)
		setup_line(f, "server ", su->peer_qps, su->peer_create_ms, su->peer_connect_ms, -1);
}

static int table_end(struct rb_writer *w, const struct rb_doc *r)
{
	rb_tally_print(w->f, r, &w->tally);
	table_setup(w->f, &r->setup);
	fflush(w->f);
	return file_status(w->f);
}

const struct rb_writer_ops rb_table_ops = { table_begin, table_row, table_end, table_interval };
