// SPDX-License-Identifier: MIT
/*
 * --reg-mode per-msg: the stream of a bandwidth test as an application
 * that registers each message's buffer has it.  Every WR is preceded by
 * its own ibv_reg_mr() of the message's buffer and, once its completion
 * is reaped, followed by ibv_dereg_mr(); up to -t/--tx-depth are in
 * flight, each signaled.  The point against --reg-mode pool (the
 * default: buffers registered once) is what registering costs.  Not the
 * hot path of the pool: rb_run_stream() comes here once per point.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "engine/loop.h"

struct regmsg {
	struct ibv_mr **mr; /* one per slot of the send queue, NULL when free */
	uint32_t depth;
	uint64_t count, posted, done;
	bool measure;
};

/* ibv_reg_mr() of the message's buffer (logged by rb_mr_reg()). */
static int reg_one(struct rb_run *r, struct ibv_mr **mr)
{
	return rb_mr_reg(&r->dev, (void *)(uintptr_t)r->sge[0].addr, r->pt.size,
			 IBV_ACCESS_LOCAL_WRITE, mr);
}

/* Register, then post the next message (its own MR) from slot @slot, signaled. */
static int post_one(struct rb_run *r, struct regmsg *m, uint32_t slot)
{
	struct ibv_send_wr wr = r->wr[0], *bad;
	struct ibv_sge sge = r->sge[0];
	int ret = reg_one(r, &m->mr[slot]);

	if (ret)
		return ret;
	sge.lkey = m->mr[slot]->lkey;
	wr.sg_list = &sge;
	wr.next = NULL;
	wr.wr_id = slot;
	wr.send_flags = (wr.send_flags & ~IBV_SEND_INLINE) | IBV_SEND_SIGNALED;
	ret = r->post_send(r->qp[0], &wr, &bad);
	if (ret)
		return rb_post_failed(r, 0, 1, ret);
	m->posted++;
	return 0;
}

static int dereg_one(struct rb_run *r, struct regmsg *m, uint64_t slot)
{
	int ret;

	if (slot >= m->depth || !m->mr[slot]) {
		rb_err("%s qp 0x%x: a completion for WR %llu, which is not in flight", r->dev.name,
		       r->qp[0]->qp_num, (unsigned long long)slot);
		return -EPROTO;
	}
	ret = ibv_dereg_mr(m->mr[slot]);
	m->mr[slot] = NULL;
	if (ret) {
		rb_err("%s: ibv_dereg_mr: %s", r->dev.name, strerror(ret));
		return -ret;
	}
	m->done++;
	return 0;
}

/* Reap what completed; each completion's MR goes. */
static int reap(struct rb_run *r, struct regmsg *m)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(r->cq, 16, wc), i, ret;

	if (n < 0)
		return rb_poll_failed(r);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return rb_wc_error(r, &wc[i]);
		ret = dereg_one(r, m, wc[i].wr_id);
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

/* A free slot; the caller knows one is (fewer than depth in flight). */
static uint32_t free_slot(const struct regmsg *m)
{
	uint32_t s = 0;

	while (m->mr[s])
		s++;
	return s;
}

static int phase(struct rb_run *r, struct regmsg *m)
{
	struct rb_idle idle = { 0 };
	bool go = true;
	int n, ret;

	while (go || m->done < m->posted) {
		if (rb_interrupted)
			return -EINTR;
		go = go && more(r, m);
		if (go && m->posted - m->done < m->depth) {
			ret = post_one(r, m, free_slot(m));
			if (!ret)
				ret = rb_heartbeat(r);
			if (ret)
				return ret;
		}
		n = reap(r, m);
		if (n < 0)
			return n;
		if (n || (go && m->posted - m->done < m->depth))
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
