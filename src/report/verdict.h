/* SPDX-License-Identifier: MIT */
/*
 * The verdict after the table: what the points' "!" lines said, counted
 * per kind with a plain sentence each, and a one-line summary.  Kinds:
 * retransmissions (a counter of the driver's retransmission set moved,
 * provider.c's ctr_retrans), other error counters, and failed --expect
 * gates.  Pure: it reads each point's diagnostics JSON (report/diag.c);
 * the raw counter names stay in the JSON.
 */
#ifndef RB_VERDICT_H
#define RB_VERDICT_H

#include <stdint.h>
#include <stdio.h>

struct rb_doc;
struct rb_result;

struct rb_tally {
	uint32_t points;      /* the run's rows seen */
	uint32_t flagged;     /* of which a "!" line */
	uint32_t retrans_pts; /* points whose retransmission counters moved */
	uint64_t retrans;     /* retransmission events, both sides */
	uint32_t error_pts;   /* points where another error counter moved */
	char errors[128];     /* those counters' names, each once ("peer " for the peer's) */
	uint32_t expect_pts;  /* points that failed an --expect */
};

/* rb_tally_point() - add point @res of run @r (a thread's own row is not counted). */
void rb_tally_point(struct rb_tally *t, const struct rb_doc *r, const struct rb_result *res);

/*
 * rb_tally_print() - the verdict lines: one per kind that occurred, then
 * "verdict: ..."; nothing when the run neither read counters nor had a
 * gate (@r), so that no verdict claims what was not looked at.
 */
void rb_tally_print(FILE *f, const struct rb_doc *r, const struct rb_tally *t);

#endif
