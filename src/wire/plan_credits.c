// SPDX-License-Identifier: MIT
/*
 * Send credits (issue 45), the plan's part: when a run needs them, where
 * their words sit in a buffer, and what they cannot run with.  Pure.
 *
 * iWARP has no RNR retry: a SEND that finds no receive posted breaks the
 * connection ("local QP operation error" at the sender, siw in the lab).
 * So on such a transport the receiver announces, by an RDMA WRITE of a
 * 64-bit count into the sender's credit word of that QP, how many
 * receives it has posted on the QP since the connection began; the sender
 * keeps its own count of SENDs and never passes the announced one
 * (engine/credit.c).  A WRITE, not a SEND: a SEND credit would itself
 * need a receive posted at the sender (the very rule it serves), and
 * iWARP carries no immediate data; a count, not an increment, so that a
 * later WRITE holds every earlier one.
 */
#include <errno.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/sweep.h"
#include "wire/plan.h"

uint64_t rb_plan_credit_block(const struct rb_params *p)
{
	if (!p->credits)
		return 0;
	return (rb_axis_max(&p->qps) * sizeof(uint64_t) + 63) & ~63ULL;
}

bool rb_plan_credits_apply(const struct rb_bench *t, const struct rb_params *p)
{
	return t->mode == RB_MODE_BW && rb_bench_receives(t, p);
}

/* What credits cannot run with, in words; NULL: nothing. */
static const char *credits_refuse(const struct rb_params *p)
{
	if (p->bidir)
		return "-b/--bidirectional: both sides' SENDs would need credits each way, "
		       "which are not built";
	if (p->srq)
		return "--srq: credits count each QP's receives, and an SRQ's serve any QP";
	if (p->reg_mode == RB_REG_PER_MSG)
		return "--reg-mode per-msg: its stream posts outside the credit count";
	if (p->reg_mode == RB_REG_CACHE)
		return "--reg-mode cache: its stream posts outside the credit count";
	return NULL;
}

int rb_plan_credits_check(const struct rb_params *p, const struct rb_bench *t, char *err,
			  size_t len)
{
	const char *why;

	if (!p->credits)
		return 0;
	if (p->credits > 1) {
		snprintf(err, len, "credits: bad flag %u", p->credits);
		return -EINVAL;
	}
	if (!rb_plan_credits_apply(t, p)) {
		snprintf(err, len, "send credits do not apply to %s: it streams no SENDs", t->name);
		return -EINVAL;
	}
	why = credits_refuse(p);
	if (!why)
		return 0;
	snprintf(err, len, "send credits (a transport without RNR retry) do not run with %s", why);
	return -EINVAL;
}

int rb_plan_credits_need(struct rb_params *p, const struct rb_bench *t, bool no_rnr,
			 const char *dev, const char *xport, char *err, size_t len)
{
	const char *why;

	if (!no_rnr || !rb_plan_credits_apply(t, p))
		return 0;
	why = credits_refuse(p);
	if (why) {
		snprintf(err, len,
			 "%s is %s, which has no RNR retry: %s's SENDs are held to the "
			 "receiver's posted receives by send credits, which do not run with %s",
			 dev, xport, t->name, why);
		return -EINVAL;
	}
	p->credits = 1;
	return 0;
}
