/* SPDX-License-Identifier: MIT */
/*
 * --recommend BOUND: per workload, the point cheapest in CPU whose figures
 * stay within a bound in --expect's syntax (p99<=20us, rate>=1Mpps): of
 * the strategies a sweep measured (--poll busy,event, --cqe-poll, -l, -Q,
 * --lock, --cq-moderation), the one to run.  A workload is a size and,
 * in a test whose -q counts contenders (a lock test, the row's .lock),
 * its -q and --hold: what is measured, never chosen between.  Without a bound --recommend is rb_recommend()'s
 * (sweep.h: batch and signal by message rate).  Pure.
 */
#ifndef RB_RECO_H
#define RB_RECO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "core/rdmabench.h"
#include "core/sweep.h"
#include "report/expect.h"

/* One workload's recommendation under a bound. */
struct rb_reco_bound {
	uint64_t size;	       /* the workload: its size, */
	bool contenders;       /* and, a lock test's, */
	uint32_t qps, hold_us; /* its contenders and hold */
	bool found;	       /* some point of the workload stayed within the bound */
	struct rb_point pt;    /* the cheapest of them (found) */
	double cpu_ns_per_msg; /* its CPU per message */
	double value;	       /* its figure that the bound names, in the bound's unit */
	size_t points, within; /* points of the workload with a CPU figure; those within */
};

/*
 * rb_recommend_bound() - per workload in @res (first-seen order: a size;
 * where plan @p is a lock test's, rb_plan_lock(), a size, -q and --hold;
 * @p NULL: a size), the point with the lowest cpu_ns_per_msg among those
 * whose verdict on @bound is pass; points without a CPU figure are
 * ignored, and so is a point where @bound does not apply (n/a).  Writes
 * at most @max entries to @out and returns how many.
 */
size_t rb_recommend_bound(const struct rb_result *res, size_t n, const struct rb_expect *bound,
			  const struct rb_params *p, struct rb_reco_bound *out, size_t max);

/* rb_reco_groups() - what a workload is for plan @p, in words ("size, -q and --hold"). */
const char *rb_reco_groups(const struct rb_params *p);

/*
 * rb_reco_args() - the options that measure point @pt again, one per axis
 * plan @p swept ("-s 4K --poll event -q 2 --lock ticket"; every axis when
 * @p is NULL, --lock, --hold and --cq-moderation where not 0),
 * into @buf: with the rest of the command line as it was, the line runs
 * that point and no other.  Returns @buf.
 */
#define RB_RECO_ARGS 256 /* room for every axis */
const char *rb_reco_args(const struct rb_point *pt, const struct rb_params *p, char *buf,
			 size_t len);

/*
 * rb_reco_bound_report() - one workload's recommendation @o under @bound
 * (its figure in @unit) as a comment line onto @f ("# size 8 -q 2 --hold
 * 50: --lock ticket -> ..."), the workload, then the chosen point's other
 * swept axes as options (rb_reco_args()), and as the JSON
 * recommendation[] member it is (new reference; "workload" as options,
 * every axis of the point, and "args": every swept axis, the workload's
 * too, so that with the rest of the command line they measure it).
 */
json_t *rb_reco_bound_report(FILE *f, const struct rb_reco_bound *o, const struct rb_params *p,
			     const char *bound, const char *unit);

/*
 * rb_reco_report() - --recommend without a bound: one size's batch and
 * signal @o (rb_recommend()) as a comment line onto @f, with the other
 * axes plan @p swept at that point's values (-q, -t ...), and as its JSON
 * recommendation[] member (new reference: every axis, and "args").
 */
json_t *rb_reco_report(FILE *f, const struct rb_reco *o, const struct rb_params *p);

/*
 * rb_reco_bound_check() - whether @bound can choose among the points of
 * @test (@mode): a figure of the metric table that the test measures (not
 * a counter, not retrans, not %link).  0 or -EINVAL with the reason in
 * @err.
 */
int rb_reco_bound_check(const struct rb_expect *bound, const char *test, enum rb_mode mode,
			char *err, size_t len);

#endif
