/* SPDX-License-Identifier: MIT */
/*
 * Sweep axes and the plan they span.  Pure: no I/O.
 *
 * An axis is a comma-separated list of items; an item is a value or a
 * range with a step: "64,4096,1M", "2..8M:x2" (doubling), "1..64:+8"
 * (adding).  With suffixes allowed, K/M/G are powers of 1024.
 *
 * The plan is the cartesian product of the lock, hold, qps, tx_depth,
 * batch, signal, cqe_poll, cq_mod, poll and size axes, in that order, size
 * varying fastest: one size sweep per (lock, hold, qps, tx_depth, batch,
 * signal, cqe_poll, cq_mod, poll) combination.  lock, hold and cq_mod
 * (--lock, --hold, --cq-moderation) may be empty: one value, 0, then.
 */
#ifndef RB_SWEEP_H
#define RB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "core/rdmabench.h"

/*
 * rb_parse_secs() - a whole number of seconds, optionally with one unit
 * letter: s, m (60 s) or h (3600 s): "90", "90s", "2m".  As rb_parse_u64().
 */
int rb_parse_secs(const char *s, uint64_t *out, const char **end);

/*
 * rb_parse_u64() - one unsigned number, with a K/M/G suffix when @suffix.
 * Stops at @*end; returns 0, -EINVAL (no digits, bad suffix) or -ERANGE.
 */
int rb_parse_u64(const char *s, bool suffix, uint64_t *out, const char **end);

/*
 * rb_axis_parse() - parse @s into @out.  On error returns -EINVAL or
 * -ERANGE and writes a message naming the offending item into @err.
 */
int rb_axis_parse(const char *s, bool suffix, struct rb_axis *out, char *err, size_t errlen);

/* rb_axis_set1() - an axis holding the single value @v. */
void rb_axis_set1(struct rb_axis *a, uint64_t v);

/* rb_axis_has() - whether @v is one of @a's values. */
bool rb_axis_has(const struct rb_axis *a, uint64_t v);

/* rb_axis_max() - the largest value of @a (0 when empty). */
uint64_t rb_axis_max(const struct rb_axis *a);

/* rb_plan_count() - points in the plan of @p; 0 when an axis is empty. */
size_t rb_plan_count(const struct rb_params *p);

/*
 * rb_point_warmup() - warm-up messages of a point of @size bytes: @warmup
 * itself, or for RB_WARMUP_AUTO as many as fit in RB_WARMUP_BYTES, within
 * 1..RB_WARMUP_MAX.
 */
uint64_t rb_point_warmup(uint64_t warmup, uint64_t size);

/* rb_plan_point() - the @i-th point of @p's plan, in the documented order. */
void rb_plan_point(const struct rb_params *p, size_t i, struct rb_point *pt);

/* One size's recommendation (--recommend). */
struct rb_reco {
	uint64_t size;
	uint32_t batch, signal; /* the cheapest setting that is close enough */
	struct rb_point pt;	/* that point, every axis (-q, -t, --poll ...) */
	double msg_rate_mpps;
	uint32_t best_batch, best_signal; /* where the best rate was measured */
	double best_msg_rate_mpps;
};

/*
 * rb_recommend() - per size in @res (first-seen order), the smallest batch,
 * then the largest signal interval, whose message rate is within 5% of the
 * best measured at that size.  Points without a rate are ignored.  Writes
 * at most @max entries to @out and returns how many.
 */
size_t rb_recommend(const struct rb_result *res, size_t n, struct rb_reco *out, size_t max);

/*
 * rb_size_str() - @v bytes as the shortest exact form ("64", "4K", "8M")
 * into @buf.  Returns @buf.
 */
const char *rb_size_str(uint64_t v, char *buf, size_t len);

#endif
