// SPDX-License-Identifier: MIT
/*
 * --reg-mode per-msg: the stream of a bandwidth test as an application
 * that registers each message's buffer has it.  Every WR is preceded by
 * its own ibv_reg_mr() of the message's buffer and, once a completion
 * covers it, followed by ibv_dereg_mr(); up to -t/--tx-depth are in
 * flight.  -Q and --cqe-poll are the point's, as in the pool's stream:
 * every -Q-th WR is signaled (and the last of a phase, and one that fills
 * the queue), its completion covering the WRs before it on the one QP,
 * and each poll asks for --cqe-poll completions.  The point against
 * --reg-mode pool (the default: buffers registered once) is what
 * registering costs.  Not the hot path of the pool: rb_run_stream() comes
 * here once per point.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/loop.h"
#include "engine/onewr.h"

struct regmsg {
	struct rb_onewr w; /* first: the stream's callbacks get it */
	/* WR i's MR in slot i % depth, from its registration until a
	 * completion covers it. */
	struct ibv_mr **mr;
};

/* ibv_reg_mr() of the message's buffer (logged by rb_mr_reg()) for WR w->posted. */
static int take(struct rb_run *r, struct rb_onewr *w, struct ibv_sge *sge)
{
	struct regmsg *m = (struct regmsg *)w;
	struct ibv_mr **mr = &m->mr[w->posted % w->depth];
	int ret = rb_mr_reg(&r->c.dev, (void *)(uintptr_t)r->sge[0].addr, r->pt.size,
			    IBV_ACCESS_LOCAL_WRITE, mr);

	if (!ret)
		sge->lkey = (*mr)->lkey;
	return ret;
}

/* A completion covered WR @i: its MR goes. */
static int put(struct rb_run *r, struct rb_onewr *w, uint64_t i)
{
	struct ibv_mr **mr = &((struct regmsg *)w)->mr[i % w->depth];
	int ret = ibv_dereg_mr(*mr);

	*mr = NULL;
	if (ret) {
		rb_err("%s: ibv_dereg_mr: %s", r->c.dev.name, strerror(ret));
		return -ret;
	}
	return 0;
}

/* What is still registered when a phase ended early. */
static void release(struct regmsg *m)
{
	uint32_t s;

	for (s = 0; s < m->w.depth; s++)
		if (m->mr[s])
			ibv_dereg_mr(m->mr[s]);
	free(m->mr);
}

int rb_run_stream_per_msg(struct rb_run *r)
{
	struct regmsg warm = { .w = { .count = r->pt.warmup, .take = take, .put = put } },
		      meas = { .w = { .count = r->p->iters, .take = take, .put = put } };
	uint32_t depth = r->sq[0].depth;
	int ret = 0;

	warm.mr = calloc(depth, sizeof(*warm.mr));
	meas.mr = calloc(depth, sizeof(*meas.mr));
	warm.w.depth = meas.w.depth = depth;
	meas.w.measure = true;
	if (!warm.mr || !meas.mr)
		ret = -ENOMEM;
	if (!ret && warm.w.count)
		ret = rb_onewr_phase(r, &warm.w);
	r->total = warm.w.posted;
	meas.w.base = warm.w.posted;
	if (!ret) {
		rb_mark_start(r);
		rb_bw_window_init(&r->win, r->k0, 0);
		ret = rb_onewr_phase(r, &meas.w);
		rb_mark_end(r);
	}
	r->ops = meas.w.done;
	r->total += meas.w.posted;
	release(&warm);
	release(&meas);
	return ret;
}
