/* SPDX-License-Identifier: MIT */
/*
 * --expect EXPR (issue 12): pass/fail gates checked on every point.
 *
 *   EXPR   := METRIC OP NUMBER [UNIT]        blanks allowed between them
 *   METRIC := bw | bw_peak | rate | min | p50 | avg | p90 | p99 | p999
 *             | p99.9 | max (also lat_p99 ...) | retrans | a counter name
 *             (the names are the metric table's .expect, metrics.h)
 *   OP     := >= | <= | > | < | ==
 *   NUMBER := digits [. digits]
 *
 *   metric          unit (required unless said)            compared with
 *   bw, bw_peak     Gbps Gb/s Mbps Mb/s GB/s MB/s GiB/s MiB/s  bw_avg_gbps / bw_peak_gbps
 *                   %link: percent of the port's active rate
 *   rate            Mpps Kpps pps                          msg_rate_mpps
 *   min ... max     ns us ms s                             lat_us.*
 *   retrans         none: events; ppm: per million packets  counters' derived retrans
 *   a counter       none                                   its delta over the point
 *
 * A verdict is pass, fail or n/a: n/a when the point does not carry the
 * metric (a point that produced no samples, a link rate sysfs does not
 * give, counters a driver lacks), and n/a is no failure.  An expression
 * that can never apply to the run (a latency on a bandwidth test, a
 * counter the device lacks, retrans with --counters none) is refused
 * before anything is measured: rb_expect_check().  The client, whose
 * figures are the reference, evaluates; a point that fails any
 * expression makes the run exit RB_EXIT_EXPECT.
 *
 * Pure: no I/O, no logging.
 */
#ifndef RB_EXPECT_H
#define RB_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "rdma/counters.h"
#include "core/metrics.h"
#include "core/rdmabench.h"

#define RB_EXPECT_MAX  32 /* --expect options per run */
#define RB_EXPECT_TEXT 128

enum rb_exp_metric {
	RB_EXP_METRIC,	/* a row of the metric table (metrics.h): rb_expect.row */
	RB_EXP_RETRANS, /* the counters' derived retransmissions */
	RB_EXP_COUNTER, /* a device counter by name */
};

enum rb_exp_op { RB_EXP_GE, RB_EXP_LE, RB_EXP_GT, RB_EXP_LT, RB_EXP_EQ };

enum rb_verdict { RB_VERDICT_NA, RB_VERDICT_PASS, RB_VERDICT_FAIL };

struct rb_expect {
	char text[RB_EXPECT_TEXT]; /* as given, for messages and the JSON */
	enum rb_exp_metric metric;
	const struct rb_metric *row; /* RB_EXP_METRIC */
	enum rb_exp_op op;
	/*
	 * In the metric's unit: Gb/s, Mpps, microseconds, events; a fraction
	 * of the link rate with of_link (90%link: 0.9); per million packets
	 * with per_mpkt.
	 */
	double value;
	bool of_link;
	bool per_mpkt;
	char counter[RB_CTR_NAME_MAX]; /* RB_EXP_COUNTER */
};

/* What the run is, for rb_expect_check(). */
struct rb_expect_env {
	const char *test;		    /* "write_bw" */
	enum rb_mode mode;		    /* latency tests report latency only, bw tests bw */
	double link_gbps;		    /* the port's active rate, 0 unknown */
	const struct rb_counter_set *avail; /* the device's counters; NULL: --counters none */
};

/* What one point measured, for rb_expect_eval(). */
struct rb_expect_ctx {
	const struct rb_result *res;
	double link_gbps;		      /* 0: unknown */
	const struct rb_counter_set *delta;   /* the whole delta of this side; NULL: none */
	const struct rb_counter_derived *der; /* derived from it; NULL: none */
};

/*
 * rb_expect_parse() - one --expect argument into @e.  Returns 0, or
 * -EINVAL with "--expect 'TEXT': at N: why" in @err, N the 1-based
 * position of the first character that is wrong.
 */
int rb_expect_parse(const char *arg, struct rb_expect *e, char *err, size_t len);

/*
 * rb_expect_check() - whether @e can ever apply to the run @env: the test
 * measures its metric, %link has a rate, retrans and counters have
 * counters.  Returns 0 or -EINVAL with the reason in @err.
 */
int rb_expect_check(const struct rb_expect *e, const struct rb_expect_env *env, char *err,
		    size_t len);

/*
 * rb_expect_eval() - the verdict of @e on one point; *@measured and
 * *@limit (either may be NULL) get the two sides of the comparison in the
 * metric's unit (NAN for n/a).
 */
enum rb_verdict rb_expect_eval(const struct rb_expect *e, const struct rb_expect_ctx *ctx,
			       double *measured, double *limit);

/* "pass", "fail", "n/a". */
const char *rb_verdict_name(enum rb_verdict v);

/* The unit of @e's measured value and limit: "Gb/s", "Mpps", "us", "events", "per Mpkt". */
const char *rb_expect_unit(const struct rb_expect *e);

/*
 * rb_expect_point() - evaluate @n expressions on one point: *@json (when
 * not NULL) gets the point's "expect" array, [{"expr", "result", "value",
 * "limit", "unit"}] (a new reference, NULL on ENOMEM), and @failed the
 * failed expressions as "p99<=10us,bw>=20Gbps" for the table ("" when
 * none; cut with "..." when it does not fit).  Returns how many failed.
 */
size_t rb_expect_point(const struct rb_expect *e, size_t n, const struct rb_expect_ctx *ctx,
		       json_t **json, char *failed, size_t len);

#endif
