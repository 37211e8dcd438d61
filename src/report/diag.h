/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics around each point: the device's counters on this side (and
 * the peer's, which the server sends), and the --expect gates.  session.c
 * calls these at fixed places of a point; they know nothing of the wire.
 */
#ifndef RB_DIAG_H
#define RB_DIAG_H

#include "core/bench.h"
#include "rdma/counters.h"
#include "report/expect.h"
#include "report/output.h"
#include "rdma/verbs.h"

struct rb_diag {
	const struct rb_dev *dev;
	const struct rb_bench *bench;
	bool server;
	bool reversed; /* --reversed: the data moves as if the roles were swapped */
	struct rb_counter_spec spec;
	bool on; /* this side's counters are read */
	char netdev[64];
	struct rb_counter_set before, after, delta;
	struct rb_counter_set peer; /* client: the server's delta, filled by the caller */
	uint64_t before_ns;
	struct rb_expect expect[RB_LIST_MAX];
	size_t nexpect;
	bool failed; /* a point failed an expectation */
};

/*
 * rb_diag_setup() - once the device @d is open: which counters (@l's
 * --counters), whether sysfs has them, the port's rate, and (client) the
 * --expect expressions, each checked against what the run can measure.
 * Fills @rep's counters fields.  A device without readable counters runs
 * without them, said once; @d NULL (a test without one) runs without any.  Returns 0, or -EINVAL (logged) for a usage
 * error: a counter name the device lacks, an expression that cannot apply.
 */
int rb_diag_setup(struct rb_diag *g, const struct rb_dev *d, const struct rb_bench *t,
		  enum rb_role role, const struct rb_local *l, struct rb_doc *rep);

/* rb_diag_before() - before a point, outside the measured interval. */
void rb_diag_before(struct rb_diag *g);

/*
 * rb_diag_after() - after it, into g->delta (empty without counters); waits
 * until the kernel's hw_counters lifespan has passed since the first
 * reading, or the second would repeat it.
 */
void rb_diag_after(struct rb_diag *g);

/* rb_diag_peer() - client: g->peer arrived; the first one names the peer's driver. */
void rb_diag_peer(struct rb_diag *g, struct rb_doc *rep);

/*
 * rb_diag_point() - the counters and verdicts of measured point @res, whose
 * side moved @ops operations between the readings: res->diag gets the
 * JSON members, res->flag what the table marks.  A failed expression sets
 * g->failed.
 */
void rb_diag_point(struct rb_diag *g, const struct rb_doc *rep, struct rb_result *res,
		   uint64_t ops);

#endif
