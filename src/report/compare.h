/* SPDX-License-Identifier: MIT */
/*
 * rdmabench compare BASE.json NEW.json (issue 12): match the points of two
 * runs of one test and say, per metric, whether NEW regressed beyond a
 * tolerance.
 *
 * Two files compare only when everything that changes their figures but
 * the swept axes is equal: the test, the atomic operation, the side that
 * wrote them (role), the path MTU the QPs used (device.path_mtu), the
 * buffers' memory and registration path (gpu.memory, gpu.reg_path: host
 * memory without gpu), the post API and the bytes sent inline
 * (device.post_api, device.inline_size, where both files give them), and
 * every member of params but the axes (-n, -D, --interval, --rate,
 * --warmup, -r, -I, -o, -m, --verify, -R, -c, --sl, --tclass,
 * --flow-label, --hugepages, --odp, --mr-per-qp, --srq, --threads, -b,
 * and any a later version adds); a member an earlier version did not
 * write counts as the value it meant.  Points then match on size, batch,
 * signal, qps and tx_depth (the first of equal points counts), so a file
 * of fewer sizes compares with one of more; two that match must also
 * have the same warmup where both give it.  Per matched point and metric,
 * ratio = NEW/BASE;
 * a metric where higher is better (bandwidth, message rate) regressed when
 * ratio < 1 - tolerance, one where lower is better (latency, CPU per
 * message) when ratio > 1 + tolerance.  Moving the good way is never a
 * regression.  A metric missing on either side, or a BASE of 0, is shown
 * and not judged.
 *
 * Exit codes (rb_compare(), rb_compare_main()):
 *   0  no regression
 *   1  at least one regression
 *   2  nothing comparable (different tests or atomic ops, parameters
 *      that differ, each named with both values, no common point, no
 *      metric in both, a schema_version this rdmabench does not read, not
 *      rdmabench JSON), or a usage error: the reason in @err / on stderr
 */
#ifndef RB_COMPARE_H
#define RB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#define RB_CMP_MAX_METRICS 16
#define RB_CMP_DEFAULT_TOL 0.05

enum { RB_CMP_SAME = 0, RB_CMP_REGRESSION = 1, RB_CMP_INCOMPARABLE = 2 };

struct rb_metric;

/* What rb_compare() made of one metric of one matched point. */
enum rb_cmp_verdict { RB_CMP_V_NONE, RB_CMP_V_SAME, RB_CMP_V_WORSE, RB_CMP_V_BETTER };

/*
 * Told of each metric of each matched point, as its table row is printed:
 * the point's size, batch, signal, qps and tx_depth in @axes, the figures
 * (NAN: absent) and the verdict (RB_CMP_V_WORSE: a regression).
 * `rdmabench report` marks regressions on its plots through it.
 */
typedef void rb_compare_seen_fn(void *arg, const json_int_t *axes, const struct rb_metric *m,
				double base, double cur, enum rb_cmp_verdict v);

struct rb_compare_opts {
	double tolerance; /* a fraction: 0.05 is 5% */
	size_t nmetrics;  /* 0: the defaults (bw_avg_gbps, msg_rate_mpps, lat_p50_us, lat_p99_us) */
	int metrics[RB_CMP_MAX_METRICS]; /* from rb_compare_metrics_parse() */
	const char *base_name;		 /* for the title; NULL: "BASE" */
	const char *new_name;		 /* NULL: "NEW" */
	bool vs_tcp;			 /* --vs-tcp: rb_compare_vs_tcp() */
	rb_compare_seen_fn *seen;	 /* NULL: none */
	void *seen_arg;
};

/* rb_compare_opts_init() - tolerance 5%, the default metrics. */
void rb_compare_opts_init(struct rb_compare_opts *o);

/*
 * rb_compare_tolerance_parse() - "5%" or "0.5%": a percentage from 0 to
 * 1000, the '%' required (a bare "0.05" would read as either 5% or
 * 0.05%).  Returns 0 or -EINVAL with the reason in @err.
 */
int rb_compare_tolerance_parse(const char *arg, double *tol, char *err, size_t len);

/*
 * rb_compare_metrics_parse() - a comma-separated list of metrics, added
 * to @o's: the CSV names (bw_avg_gbps, bw_peak_gbps, msg_rate_mpps,
 * lat_min_us ... lat_max_us, cpu_ns_per_msg), or bw, bw_peak, rate, min,
 * p50, avg, p90, p99, p999, max.  Returns 0 or -EINVAL naming the
 * unknown one and the known ones.
 */
int rb_compare_metrics_parse(const char *arg, struct rb_compare_opts *o, char *err, size_t len);

/*
 * rb_compare() - compare documents @base and @cur (as output.c writes
 * them) and print the table to @out: one line per matched point and
 * metric (size, batch, signal, qps, depth, metric, base, new, ratio,
 * and REGRESSION or improved beyond the tolerance), points found on one
 * side only, then a summary naming each regression.  Returns the exit
 * code above; 2 with the reason in @err.  Pure but for writing to @out.
 */
int rb_compare(json_t *base, json_t *cur, const struct rb_compare_opts *o, FILE *out, char *err,
	       size_t len);

/*
 * rb_compare_main() - the `rdmabench compare` subcommand: @argv[0] is the
 * command's name, then BASE.json NEW.json and the options --tolerance
 * PCT (-t), --metric LIST (-m, repeatable), --help (-h).  Prints the
 * table to stdout, errors to stderr; returns the exit code above.
 */
int rb_compare_main(int argc, char **argv);

/*
 * rb_compare_vs_tcp() - --vs-tcp: RDMA test @rdma's points against TCP
 * test @tcp's (tcp_lat, tcp_bw: of the same kind, the same side) size by
 * size onto @out: bandwidth tests their throughput ratio and CPU ns per
 * byte on each side, latency tests their p50/p99 ratio and CPU per
 * message, on one basis (each row's lat_scale: round trips when the two
 * differ).  Files that differ in -b, --threads or --reversed are refused;
 * lock pairs with tcp_lock (rb_compare_vs_tcp_lock()), the others with
 * tcp_lat or tcp_bw.
 * RB_CMP_SAME, or RB_CMP_INCOMPARABLE with why in @err.
 */
int rb_compare_vs_tcp(json_t *rdma, json_t *tcp, FILE *out, char *err, size_t len);

/*
 * rb_compare_vs_tcp_lock() - --vs-tcp for a lock run @rdma and a tcp_lock
 * run @tcp whose plans rb_compare_vs_tcp() found alike: point by point
 * (the same -q), lock's figures (acquire p50 and p99, acquisitions/s,
 * handoff) with the ratio TCP/RDMA and the better side.  RB_CMP_SAME, or
 * RB_CMP_INCOMPARABLE with why in @err (no common point).
 */
int rb_compare_vs_tcp_lock(json_t *rdma, json_t *tcp, FILE *out, char *err, size_t len);

/* rb_compare_point_value() - metric @m of point @pt (lat_us's member for a
 * latency row); NAN when absent or not a number. */
double rb_compare_point_value(json_t *pt, const struct rb_metric *m);

/* rb_compare_list_options() - its options, as rb_list_options() prints them. */
void rb_compare_list_options(FILE *f);

/* compare's option rows (they parse its line, and make its --help's options). */
struct rb_opt_table;
extern const struct rb_opt_table rb_compare_table;

/* rb_compare_usage() - compare's --help. */
void rb_compare_usage(FILE *f);

#endif
