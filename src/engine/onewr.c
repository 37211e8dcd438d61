// SPDX-License-Identifier: MIT
/* One WR at a time, each with its own MR: the stream under --reg-mode per-msg and cache (onewr.h). */
#include <errno.h>

#include "engine/loop.h"
#include "engine/onewr.h"

/*
 * Whether the next WR is signaled: every pt.signal-th, the last of a
 * counted phase, one that fills the queue (only a completion makes room),
 * and @force (a duration's tail).
 */
static bool signal_next(const struct rb_run *r, const struct rb_onewr *w, bool force)
{
	return force || w->unsig + 1 >= r->pt.signal || (w->count && w->posted + 1 == w->count) ||
	       w->posted + 1 - w->done >= w->depth;
}

/* Post WR w->posted (wr_id its index) with the MR @take gives it. */
static int post_one(struct rb_run *r, struct rb_onewr *w, bool force)
{
	struct ibv_send_wr wr = r->wr[0], *bad;
	struct ibv_sge sge = r->sge[0];
	bool sig = signal_next(r, w, force);
	int ret = w->take(r, w, &sge);

	if (ret)
		return ret;
	wr.sg_list = &sge;
	wr.next = NULL;
	wr.wr_id = w->posted;
	wr.send_flags = wr.send_flags & ~(IBV_SEND_INLINE | IBV_SEND_SIGNALED);
	if (sig)
		wr.send_flags |= IBV_SEND_SIGNALED;
	ret = r->c.post_send(r->c.qp[0], &wr, &bad);
	if (ret) {
		if (w->untake)
			w->untake(r, w);
		return rb_post_failed(r, 0, 1, ret);
	}
	w->posted++;
	w->unsig = sig ? 0 : w->unsig + 1;
	return 0;
}

/* The completion of WR @id covers it and every WR before it: what they held goes. */
static int cover_upto(struct rb_run *r, struct rb_onewr *w, uint64_t id)
{
	int ret;

	if (id < w->done || id >= w->posted) {
		rb_err("%s qp 0x%x: a completion for WR %llu, which is not in flight",
		       r->c.dev.name, r->c.qp[0]->qp_num, (unsigned long long)id);
		return -EPROTO;
	}
	for (; w->done <= id; w->done++) {
		ret = w->put(r, w, w->done);
		if (ret) {
			w->done++;
			return ret;
		}
	}
	return 0;
}

/* Reap up to --cqe-poll completions; what they cover goes. */
static int reap(struct rb_run *r, struct rb_onewr *w)
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
		ret = cover_upto(r, w, wc[i].wr_id);
		if (ret)
			return ret;
	}
	if (n && w->measure) {
		uint64_t k = rb_ticks();

		rb_bw_window_mark(&r->win, k, w->done * r->pt.size);
		ret = rb_iv_tick(r, k, w->done);
		if (ret)
			return ret;
	}
	return n;
}

static bool more(struct rb_run *r, const struct rb_onewr *w)
{
	if (w->count)
		return w->posted < w->count;
	return !rb_duration_over(r, w->base + w->posted);
}

int rb_onewr_phase(struct rb_run *r, struct rb_onewr *w)
{
	struct rb_idle idle = { 0 };
	bool go = true, room;
	int n, ret;

	while (go || w->done < w->posted) {
		if (rb_interrupted)
			return -EINTR;
		go = go && more(r, w);
		room = w->posted - w->done < w->depth;
		/* A duration's end leaves unsignaled WRs: one more, signaled, covers them. */
		if (room && (go || w->unsig)) {
			ret = post_one(r, w, !go);
			if (!ret)
				ret = rb_heartbeat(r);
			if (ret)
				return ret;
		}
		n = reap(r, w);
		if (n < 0)
			return n;
		if (n || (room && (go || w->unsig)))
			rb_idle_reset(&idle);
		else if ((ret = rb_idle_check(r, &idle, "completions")))
			return ret;
	}
	return 0;
}
