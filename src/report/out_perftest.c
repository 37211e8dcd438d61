// SPDX-License-Identifier: MIT
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "core/metrics.h"
#include "report/out_perftest.h"

#define RULE                                                                                      \
	"---------------------------------------------------------------------------------------" \
	"\n"

/* perftest's programs, and the tests that are theirs here. */
static const char *const programs[][2] = {
	{ "ib_send_lat", "send_lat" },	   { "ib_send_bw", "send_bw" },
	{ "ib_write_lat", "write_lat" },   { "ib_write_bw", "write_bw" },
	{ "ib_read_lat", "read_lat" },	   { "ib_read_bw", "read_bw" },
	{ "ib_atomic_lat", "atomic_lat" }, { "ib_atomic_bw", "atomic_bw" },
};

const char *rb_perftest_cmd(const char *prog)
{
	size_t i;

	for (i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		if (!strcmp(prog, programs[i][0]))
			return programs[i][1];
	return NULL;
}

/* "RDMA_Write BW Test": the verb as perftest names it, then the mode. */
static const char *verb_title(const char *test)
{
	static const char *const verbs[][2] = {
		{ "send", "Send" },	{ "write", "RDMA_Write" }, { "read", "RDMA_Read" },
		{ "atomic", "Atomic" }, { "tcp", "TCP" }, /* not perftest's: qperf's tcp_lat, tcp_bw */
	};
	size_t i;

	for (i = 0; test && i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strncmp(test, verbs[i][0], strlen(verbs[i][0])))
			return verbs[i][1];
	return "?";
}

static const char *on_off(int v)
{
	return v ? "ON" : "OFF";
}

/* tcp_lat, tcp_bw: a socket, not a QP transport. */
static bool tcp_test(const struct rb_doc *r)
{
	const struct rb_bench *b = r->test ? rb_bench_find(r->test) : NULL;

	return b && b->path == RB_PATH_TCP;
}

static void settings(FILE *f, const struct rb_doc *r)
{
	const struct rb_params *p = r->params;

	fprintf(f, " Device         : %s\n", r->device ? r->device : "-");
	fprintf(f, " Number of qps  : %u\n", p && p->qps.n ? (unsigned int)p->qps.v[0] : 1);
	fprintf(f, " Connection type: %s\n",
		!p	      ? "-"
		: tcp_test(r) ? "TCP"
			      : rb_transport_name(p->transport));
	fprintf(f, " Using SRQ      : %s\n", on_off(p && p->srq));
	fprintf(f, " TX depth       : %u\n",
		p && p->tx_depth.n ? (unsigned int)p->tx_depth.v[0] : 0);
	fprintf(f, " Mtu            : %u[B]\n", r->path_mtu);
	fprintf(f, " Link type      : %s\n", r->link_layer ? r->link_layer : "-");
	if (r->gid_index >= 0)
		fprintf(f, " GID index      : %d\n", r->gid_index);
	fprintf(f, " Max inline data: %u[B]\n", p ? p->inline_size : 0);
	fprintf(f, " rdma_cm QPs    : %s\n", on_off(p && p->use_cm));
	fprintf(f, " Data ex. method: rdmabench's TCP control channel\n");
}

static bool gbits(const struct rb_doc *r)
{
	return r->units == RB_UNITS_GBITS;
}

static int pt_begin(struct rb_writer *w, const struct rb_doc *r)
{
	FILE *f = w->f;

	fputs(RULE, f);
	fprintf(f, " rdmabench %s in perftest's format: both sides must be rdmabench\n",
		PACKAGE_VERSION);
	fprintf(f, "                    %s %s%s%s Test\n", verb_title(r->test), r->op ? r->op : "",
		r->op ? " " : "", r->mode == RB_MODE_LAT ? "Latency" : "BW");
	settings(f, r);
	fputs(RULE, f);
	if (r->mode == RB_MODE_LAT)
		fputs(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
		      "t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% "
		      "percentile[usec] \n",
		      f);
	else
		fprintf(f,
			" #bytes     #iterations    BW peak[%s]    BW average[%s]   "
			"MsgRate[Mpps]\n",
			gbits(r) ? "Gb/sec" : "MB/sec", gbits(r) ? "Gb/sec" : "MB/sec");
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/* A bandwidth in the table's unit: perftest's MB/sec is MiB/s. */
static double bw(const struct rb_doc *r, double gbps)
{
	return gbits(r) ? gbps : rb_gbps_to_mibps(gbps);
}

static int pt_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	FILE *f = w->f;
	const struct rb_lat_summary *l = &res->lat;

	if (r->mode == RB_MODE_LAT && res->has_lat)
		fprintf(f,
			" %-7llu %-10llu     %-7.2f        %-7.2f      %-7.2f          %-7.2f"
			"        %-7.2f          %-7.2f                %-7.2f \n",
			(unsigned long long)res->pt.size, (unsigned long long)res->iters, l->min,
			l->max, l->p50, l->avg, l->stdev, l->p99, l->p999);
	else if (res->has_bw)
		/* BW peak: the point's best window (rb_bw_window_peak()), the server's average */
		fprintf(f, " %-7llu    %-10llu       %-.2f            %-.2f            %-.6f\n",
			(unsigned long long)res->pt.size, (unsigned long long)res->iters,
			bw(r, res->bw_peak_gbps > 0 ? res->bw_peak_gbps : res->bw_avg_gbps),
			bw(r, res->bw_avg_gbps), res->msg_rate_mpps);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

static int pt_end(struct rb_writer *w, const struct rb_doc *r)
{
	(void)r;
	fputs(RULE, w->f);
	fflush(w->f);
	return ferror(w->f) ? -EIO : 0;
}

const struct rb_writer_ops rb_perftest_writer = { pt_begin, pt_row, pt_end, NULL };

static int value_edge(struct rb_writer *w, const struct rb_doc *r)
{
	(void)r;
	fflush(w->f);
	return ferror(w->f) ? -EIO : 0;
}

static int value_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	if (r->output == RB_OUTPUT_LATENCY && res->has_lat)
		fprintf(w->f, "%.2f\n", res->lat.avg);
	else if (r->output == RB_OUTPUT_MSG_RATE && res->has_bw)
		fprintf(w->f, "%.6f\n", res->msg_rate_mpps);
	else if (r->output == RB_OUTPUT_BANDWIDTH && res->has_bw)
		fprintf(w->f, "%.2f\n", bw(r, res->bw_avg_gbps));
	return value_edge(w, r);
}

const struct rb_writer_ops rb_value_writer = { value_edge, value_row, value_edge, NULL };
