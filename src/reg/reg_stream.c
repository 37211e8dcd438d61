// SPDX-License-Identifier: MIT
/*
 * reg --regions' stream (issue 42): RDMA WRITEs from a QP connected to
 * itself, each from the next region and page (rb_reg_rgn_src()) with
 * that region's lkey, or the one region's, at most -t in flight, every
 * WR signaled.  Only ibv_post_send() and ibv_poll_cq(): the unit test
 * runs it on the fake provider (test_reg_rgn).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core/clock.h"
#include "core/rdmabench.h"
#include "reg/reg.h"

#define POLL_BATCH 16

/* WR @j of @s, posted; 0 or -errno, logged. */
static int post_one(const struct rb_reg_stream *s, uint64_t j)
{
	uint32_t region;
	uint64_t off = rb_reg_rgn_src(j, s->n, s->size, s->page, &region);
	struct ibv_sge sge = { .addr = (uintptr_t)(s->base + off),
			       .length = s->msg,
			       .lkey = s->lkey[s->one ? 0 : region] };
	struct ibv_send_wr wr = { .wr_id = j,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	wr.wr.rdma.remote_addr = s->raddr + (j % s->depth) * s->msg;
	wr.wr.rdma.rkey = s->rkey;
	ret = ibv_post_send(s->qp, &wr, &bad);
	if (ret)
		rb_err("reg: %s: ibv_post_send of WR %" PRIu64 " (region %u): %s", s->what, j,
		       region, strerror(ret));
	return -ret;
}

/* Completions reaped into *@done; 0, or -errno logged (a failed WR, a stall). */
static int reap(const struct rb_reg_stream *s, uint64_t *done, uint64_t *last)
{
	struct ibv_wc wc[POLL_BATCH];
	int n = ibv_poll_cq(s->cq, POLL_BATCH, wc), i;

	if (n < 0) {
		rb_err("reg: %s: ibv_poll_cq failed (%d)", s->what, n);
		return -EIO;
	}
	for (i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS) {
			rb_err("reg: %s: WR %" PRIu64 " completed with %s", s->what, wc[i].wr_id,
			       ibv_wc_status_str(wc[i].status));
			return -EIO;
		}
	*done += (uint64_t)n;
	if (n) {
		*last = rb_now_ns();
		return 0;
	}
	if (rb_now_ns() - *last > RB_REG_RGN_TIMEOUT_NS) {
		rb_err("reg: %s: no completion for %llu s, after %" PRIu64 " of them", s->what,
		       RB_REG_RGN_TIMEOUT_NS / 1000000000ULL, *done);
		return -ETIMEDOUT;
	}
	return 0;
}

/* WRs [@from, @to): posted with at most depth in flight, all reaped. */
static int run_range(const struct rb_reg_stream *s, uint64_t from, uint64_t to)
{
	uint64_t posted = from, done = from, last = rb_now_ns();
	int ret = 0;

	while (!ret && done < to && !rb_interrupted) {
		while (!ret && posted < to && posted - done < s->depth)
			ret = post_one(s, posted++);
		if (!ret)
			ret = reap(s, &done, &last);
	}
	if (!ret && done < to)
		ret = -EINTR;
	return ret;
}

int rb_reg_stream_run(const struct rb_reg_stream *s, struct rb_reg_pass *p)
{
	int ret = run_range(s, 0, s->warmup);

	memset(p, 0, sizeof(*p));
	if (ret)
		return ret;
	p->t0 = rb_now_ns();
	ret = run_range(s, s->warmup, s->warmup + s->wrs);
	p->t1 = rb_now_ns();
	if (ret)
		return ret;
	p->wrs = s->wrs;
	p->mpps = p->t1 > p->t0 ? (double)p->wrs / (double)(p->t1 - p->t0) * 1e3 : 0;
	return 0;
}
