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
	/* -I auto: what the QPs took (the provider's most). */
	fprintf(f, " Max inline data: %u[B]\n",
		!p				   ? 0
		: p->inline_size == RB_INLINE_AUTO ? r->inline_used
						   : p->inline_size);
	fprintf(f, " rdma_cm QPs    : %s\n", on_off(p && p->use_cm));
	fprintf(f, " Data ex. method: rdmabench's TCP control channel\n");
}

static bool gbits(const struct rb_doc *r)
{
	return r->units == RB_UNITS_GBITS;
}

/* -D on a latency test: perftest's print_report_lat_duration(), no sample statistics. */
static bool lat_duration(const struct rb_doc *r)
{
	return r->mode == RB_MODE_LAT && r->params && r->params->duration_s;
}

/* One-way latency from a round trip (0.5) or the round trip (1): perftest's rtt_factor. */
static double lat_scale(const struct rb_doc *r)
{
	const struct rb_bench *b = r->test ? rb_bench_find(r->test) : NULL;

	return b ? b->lat_scale : 1;
}

/*
 * perftest's headers and data lines (perftest_parameters.h): RESULT_FMT_*
 * above the points, REPORT_FMT_* a point, with perftest's spacing (tabs
 * included), so that a parser that splits on anything finds its fields.
 */
#define HDR_LAT                                                                                 \
	" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    " \
	"t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
#define HDR_LAT_DUR " #bytes        #iterations       t_avg[usec]    tps average\n"
#define FMT_LAT                                                                        \
	" %-7llu %llu          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     " \
	"\t%-7.2f\t\t%-7.2f \t\t%-7.2f\n"
#define FMT_LAT_DUR " %-7llu       %llu            %-7.2f        %-7.2f\n"
#define FMT_BW	    " %-7llu    %-10llu       %-7.2f            %-7.2f\t\t     %-7.6f\n"
/* print_full_bw_report()'s inc_accuracy: Gb/s under 0.1, six decimals */
#define FMT_BW_EXT " %-7llu    %llu           %-7.6f            %-7.6f            %-7.6f\n"

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
	if (lat_duration(r))
		fputs(HDR_LAT_DUR, f);
	else if (r->mode == RB_MODE_LAT)
		fputs(HDR_LAT, f);
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

/* print_full_bw_report(): six decimals when the Gb/s average is under 0.1. */
static void bw_line(FILE *f, const struct rb_doc *r, uint64_t size, uint64_t iters, double peak,
		    double avg, double mpps)
{
	fprintf(f, gbits(r) && avg < 0.1 ? FMT_BW_EXT : FMT_BW, (unsigned long long)size,
		(unsigned long long)iters, peak, avg, mpps);
}

/*
 * print_report_lat(): perftest's statistics of the samples (rb_pt_lat,
 * with the --latency_gap perftest's samples hold); -D:
 * print_report_lat_duration(), the measured time / rtt_factor / iterations
 * and iterations a second.
 */
static void lat_line(FILE *f, const struct rb_doc *r, const struct rb_result *res)
{
	const struct rb_pt_lat *l = &res->pt_lat;
	unsigned long long size = res->pt.size, n = res->iters;

	if (lat_duration(r))
		fprintf(f, FMT_LAT_DUR, size, n,
			res->duration_s * 1e6 * lat_scale(r) / (double)res->iters,
			(double)res->iters / res->duration_s);
	else if (res->has_pt_lat)
		fprintf(f, FMT_LAT, size, n, l->min, l->max, l->typical, l->avg, l->stdev, l->p99,
			l->p999);
	else
		fprintf(f,
			" %-7llu %llu  (no perftest statistics: they need 3 samples or more, "
			"every one kept; --format json has this point's)\n",
			size, n);
}

static int pt_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	FILE *f = w->f;

	if (r->mode == RB_MODE_LAT && res->has_lat && res->iters)
		lat_line(f, r, res);
	else if (res->has_bw)
		/* BW peak: the point's best window (rb_bw_window_peak()), the server's average */
		bw_line(f, r, res->pt.size, res->iters,
			bw(r, res->bw_peak_gbps > 0 ? res->bw_peak_gbps : res->bw_avg_gbps),
			bw(r, res->bw_avg_gbps), res->msg_rate_mpps);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/*
 * A slice (--run_infinitely's -D SEC, or --interval), live, as perftest's
 * run_infinitely prints one every -D seconds (print_bw_infinite_mode() ->
 * print_report_bw()): the slice's messages and averages; BW peak 0, as
 * perftest's run_infinitely forces --noPeak (peak_up is then 0).  The
 * point's row follows as ever (after ^C: what it measured until then).
 */
static int pt_interval(struct rb_writer *w, const struct rb_doc *r, const struct rb_point *pt,
		       const struct rb_interval *iv, size_t idx)
{
	const double len_s = r->params ? r->params->interval_ms / 1000.0 : 0;

	/* Every -D seconds, never the part of one that ^C cut (rb_iv_finish()):
	 * a slice ends at its due time or after, on the schedule from the start
	 * (whole ns, less a microsecond for the doubles' rounding). */
	if (r->mode != RB_MODE_BW ||
	    iv->start_s + iv->duration_s < (double)(idx + 1) * len_s - 1e-6)
		return 0;
	bw_line(w->f, r, pt->size, iv->ops, 0, bw(r, iv->bw_gbps), iv->msg_rate_mpps);
	fflush(w->f);
	return ferror(w->f) ? -EIO : 0;
}

static int pt_end(struct rb_writer *w, const struct rb_doc *r)
{
	(void)r;
	fputs(RULE, w->f);
	fflush(w->f);
	return ferror(w->f) ? -EIO : 0;
}

const struct rb_writer_ops rb_perftest_writer = { pt_begin, pt_row, pt_end, pt_interval };

static int value_edge(struct rb_writer *w, const struct rb_doc *r)
{
	(void)r;
	fflush(w->f);
	return ferror(w->f) ? -EIO : 0;
}

/*
 * --output: perftest's one figure, "%lf" (print_report_lat(): the average
 * of its statistics; print_report_lat_duration(): t_avg;
 * print_full_bw_report(): bw_avg, msgRate_avg).
 */
static int value_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	if (r->output == RB_OUTPUT_LATENCY && res->has_lat && lat_duration(r) && res->iters)
		fprintf(w->f, "%f\n", res->duration_s * 1e6 * lat_scale(r) / (double)res->iters);
	else if (r->output == RB_OUTPUT_LATENCY && res->has_pt_lat)
		fprintf(w->f, "%f\n", res->pt_lat.avg);
	else if (r->output == RB_OUTPUT_MSG_RATE && res->has_bw)
		fprintf(w->f, "%f\n", res->msg_rate_mpps);
	else if (r->output == RB_OUTPUT_BANDWIDTH && res->has_bw)
		fprintf(w->f, "%f\n", bw(r, res->bw_avg_gbps));
	return value_edge(w, r);
}

const struct rb_writer_ops rb_value_writer = { value_edge, value_row, value_edge, NULL };
