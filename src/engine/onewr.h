/* SPDX-License-Identifier: MIT */
/*
 * One WR at a time on QP 0, each with a memory region of its own for as
 * long as it is in flight: the streams of --reg-mode per-msg (regmsg.c)
 * and --reg-mode cache (regcache_stream.c).  The stream owns the
 * signaling (-Q, the last of a counted phase, one that fills the queue,
 * a duration's tail), the polls (--cqe-poll), the completions' order
 * check, the bandwidth window and --interval; the mode owns what a WR
 * holds: @take gets the MR of WR @w->posted into @sge, @put lets go of
 * what WR @i held once a completion covers it.  Not the pool's hot path:
 * rb_run_stream() comes here once per point.
 */
#ifndef RB_ENGINE_ONEWR_H
#define RB_ENGINE_ONEWR_H

#include "engine/run.h"

struct rb_onewr {
	uint32_t depth; /* WRs in flight at most: done..posted-1 */
	uint32_t unsig; /* posted since the last signaled WR */
	uint64_t count; /* the phase's WRs; 0: until -D says */
	uint64_t posted, done;
	/* The point's WRs before this phase (the warm-up's): -D counts the
	 * point's from its first, as every loop does (rb_duration_over()). */
	uint64_t base;
	bool measure; /* the measured phase: window and --interval */
	int (*take)(struct rb_run *r, struct rb_onewr *w, struct ibv_sge *sge);
	int (*put)(struct rb_run *r, struct rb_onewr *w, uint64_t i);
	/* The WR @take prepared was not posted: let it go (NULL: nothing to do). */
	void (*untake)(struct rb_run *r, struct rb_onewr *w);
};

/* rb_onewr_phase() - post and reap until the phase's WRs are all covered; 0 or -errno. */
int rb_onewr_phase(struct rb_run *r, struct rb_onewr *w);

#endif
