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

#include "core/clock.h"
#include "engine/loop.h"

struct regmsg {
	/* WR i's MR in slot i % depth, from its registration until a
	 * completion covers it; WRs done..posted-1 are in flight. */
	struct ibv_mr **mr;
	uint32_t depth;
	uint32_t unsig; /* posted since the last signaled WR */
	uint64_t count, posted, done;
	bool measure;
};

/* ibv_reg_mr() of the message's buffer (logged by rb_mr_reg()). */
static int reg_one(struct rb_run *r, struct ibv_mr **mr)
{
	return rb_mr_reg(&r->c.dev, (void *)(uintptr_t)r->sge[0].addr, r->pt.size,
			 IBV_ACCESS_LOCAL_WRITE, mr);
}

/*
 * Whether the next WR is signaled: every pt.signal-th, the last of a
 * counted phase, one that fills the queue (only a completion makes room),
 * and @force (a duration's tail).
 */
static bool signal_next(const struct rb_run *r, const struct regmsg *m, bool force)
{
	return force || m->unsig + 1 >= r->pt.signal || (m->count && m->posted + 1 == m->count) ||
	       m->posted + 1 - m->done >= m->depth;
}

/* Register, then post WR m->posted (its own MR), its wr_id its index. */
static int post_one(struct rb_run *r, struct regmsg *m, bool force)
{
	struct ibv_send_wr wr = r->wr[0], *bad;
	struct ibv_sge sge = r->sge[0];
	struct ibv_mr **mr = &m->mr[m->posted % m->depth];
	bool sig = signal_next(r, m, force);
	int ret = reg_one(r, mr);

	if (ret)
		return ret;
	sge.lkey = (*mr)->lkey;
	wr.sg_list = &sge;
	wr.next = NULL;
	wr.wr_id = m->posted;
	wr.send_flags = wr.send_flags & ~(IBV_SEND_INLINE | IBV_SEND_SIGNALED);
	if (sig)
		wr.send_flags |= IBV_SEND_SIGNALED;
	ret = r->c.post_send(r->c.qp[0], &wr, &bad);
	if (ret)
		return rb_post_failed(r, 0, 1, ret);
	m->posted++;
	m->unsig = sig ? 0 : m->unsig + 1;
	return 0;
}

/* The completion of WR @id covers it and every WR before it: their MRs go. */
static int dereg_upto(struct rb_run *r, struct regmsg *m, uint64_t id)
{
	struct ibv_mr **mr;
	int ret;

	if (id < m->done || id >= m->posted) {
		rb_err("%s qp 0x%x: a completion for WR %llu, which is not in flight",
		       r->c.dev.name, r->c.qp[0]->qp_num, (unsigned long long)id);
		return -EPROTO;
	}
	for (; m->done <= id; m->done++) {
		mr = &m->mr[m->done % m->depth];
		ret = ibv_dereg_mr(*mr);
		*mr = NULL;
		if (ret) {
			rb_err("%s: ibv_dereg_mr: %s", r->c.dev.name, strerror(ret));
			m->done++;
			return -ret;
		}
	}
	return 0;
}

/* Reap up to --cqe-poll completions; the MRs they cover go. */
static int reap(struct rb_run *r, struct regmsg *m)
{
	struct ibv_wc stack[RB_REAP_STACK], *wc = stack;
	int max = rb_cqe_poll(r), n, i, ret;

	if (r->pt.cqe_poll > RB_REAP_STACK && r->wcs) {
		wc = r->wcs;
		max = (int)r->pt.cqe_poll;
	}
	n = rb_poll_ids(r, r->cq, max, wc);
	if (n < 0)
		return rb_poll_failed(r);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return rb_wc_error(r, &wc[i]);
		ret = dereg_upto(r, m, wc[i].wr_id);
		if (ret)
			return ret;
	}
	if (n && m->measure) {
		uint64_t k = rb_ticks();

		rb_bw_window_mark(&r->win, k, m->done * r->pt.size);
		ret = rb_iv_tick(r, k, m->done);
		if (ret)
			return ret;
	}
	return n;
}

static bool more(struct rb_run *r, const struct regmsg *m)
{
	if (m->count)
		return m->posted < m->count;
	return !rb_duration_over(r, m->posted);
}

static int phase(struct rb_run *r, struct regmsg *m)
{
	struct rb_idle idle = { 0 };
	bool go = true, room;
	int n, ret;

	while (go || m->done < m->posted) {
		if (rb_interrupted)
			return -EINTR;
		go = go && more(r, m);
		room = m->posted - m->done < m->depth;
		/* A duration's end leaves unsignaled WRs: one more, signaled, covers them. */
		if (room && (go || m->unsig)) {
			ret = post_one(r, m, !go);
			if (!ret)
				ret = rb_heartbeat(r);
			if (ret)
				return ret;
		}
		n = reap(r, m);
		if (n < 0)
			return n;
		if (n || (room && (go || m->unsig)))
			rb_idle_reset(&idle);
		else if ((ret = rb_idle_check(r, &idle, "completions")))
			return ret;
	}
	return 0;
}

/* What is still registered when a phase ended early. */
static void release(struct regmsg *m)
{
	uint32_t s;

	for (s = 0; s < m->depth; s++)
		if (m->mr[s])
			ibv_dereg_mr(m->mr[s]);
	free(m->mr);
}

int rb_run_stream_per_msg(struct rb_run *r)
{
	struct regmsg warm = { .count = r->pt.warmup }, meas = { .count = r->p->iters };
	uint32_t depth = r->sq[0].depth;
	int ret = 0;

	warm.mr = calloc(depth, sizeof(*warm.mr));
	meas.mr = calloc(depth, sizeof(*meas.mr));
	warm.depth = meas.depth = depth;
	meas.measure = true;
	if (!warm.mr || !meas.mr)
		ret = -ENOMEM;
	if (!ret && warm.count)
		ret = phase(r, &warm);
	r->total = warm.posted;
	if (!ret) {
		rb_mark_start(r);
		rb_bw_window_init(&r->win, r->k0, 0);
		ret = phase(r, &meas);
		rb_mark_end(r);
	}
	r->ops = meas.done;
	r->total += meas.posted;
	release(&warm);
	release(&meas);
	return ret;
}
