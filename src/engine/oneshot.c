// SPDX-License-Identifier: MIT
/*
 * One operation at a time (read_lat, atomic latency): post one WR, wait
 * for its completion, time it.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"

/*
 * Wait for operation @it's own completion, the only one due: a poll of
 * one (perftest's), the idle state set up only when a poll finds nothing.
 * The generic reap_until() and an out-of-line post cost 57 instructions
 * an operation more (scripts/cost, read_lat: loop 449.2, then 392.2;
 * 395.3 in the committed table, with after_poll()).
 */
static inline __attribute__((always_inline)) int oneshot_wait(struct rb_run *r, uint64_t *done,
							      uint64_t it)
{
	struct rb_idle idle;
	bool idling = false;
	int n;

	while (*done <= it) {
		if (rb_interrupted)
			return -EINTR;
		if (__builtin_expect(r->c.srq != NULL, 0))
			n = rb_reap_srq(r, done, NULL);
		else
			n = rb_reap_poll(r, done, NULL, false, false, 1);
		if ((n = after_poll(r, &idle, &idling, n, "a completion")))
			return n;
	}
	return 0;
}

/*
 * The one-at-a-time loop's plain case: QP 0 alone on its CQ, no receives,
 * every WR signaled, one template, no per-iteration change and no check.
 * Each iteration then posts the template as it is and reaps one
 * completion; the send-queue count, +1 and -1 in the same iteration, is
 * left alone.  Worked out once per point.  (One QP means one set of
 * templates, and signal 1 leaves no unsignaled WR behind: neither needs
 * a test of its own.)
 */
static bool oneshot_is_plain(const struct rb_run *r, int (*check)(struct rb_run *, uint64_t it))
{
	return !check && !r->bench->iter_wr && !r->c.srq && r->c.nqp == 1 && !r->c.rx_depth &&
	       r->nwr == 1 && r->pt.signal == 1;
}

/* The plain case's post: the template, then maybe a heartbeat. */
static inline __attribute__((always_inline)) int post_one(struct rb_run *r, rb_post_fn post,
							  struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int ret = post(qp, wr, &bad);

	return ret ? rb_post_failed(r, 0, 1, ret) : rb_heartbeat(r);
}

/* The plain case's wait: its completion is the only one the CQ can hold. */
static inline __attribute__((always_inline)) int wait_one(struct rb_run *r, struct ibv_cq *cq)
{
	struct rb_idle idle;
	bool idling = false;
	struct ibv_wc wc;
	int n;

	for (;;) {
		if (rb_interrupted)
			return -EINTR;
		n = r->c.cq_ex ? rb_cqx_poll(cq, 1, &wc, r->c.cq_ex) : ibv_poll_cq(cq, 1, &wc);
		if (n > 0)
			return wc.status == IBV_WC_SUCCESS ? 0 : rb_wc_error(r, &wc);
		if (n < 0)
			return rb_poll_failed(r);
		if ((n = after_poll(r, &idle, &idling, 0, "a completion")))
			return n;
	}
}

/* What the one-at-a-time loop keeps at hand (the plain case's in registers). */
struct oneshot {
	rb_post_fn post;
	struct ibv_qp *qp;
	struct ibv_send_wr *wr;
	struct ibv_cq *cq;
	uint64_t done; /* operations completed */
};

/* Operation @it, posted and completed: 0, or what ends the loop. */
static inline __attribute__((always_inline)) int oneshot_op(struct rb_run *r, struct oneshot *o,
							    uint64_t it, bool plain)
{
	int ret = plain ? post_one(r, o->post, o->qp, o->wr) : post_chain(r, 0, 1, it, true);

	if (ret)
		return ret;
	return plain ? wait_one(r, o->cq) : oneshot_wait(r, &o->done, it);
}

/*
 * Client: one operation at a time, each a full round trip (read, atomic).
 * @check, when not NULL, verifies each completed operation.  @plain (see
 * oneshot_is_plain()) is a constant where this inlines: the plain loop
 * has none of the general one's tests.  The warmup has a loop of its own,
 * so the measured one tests nothing for it.  scripts/cost, read_lat:
 * 395.3 instructions an operation before the plain loop and the split,
 * 321.9 after (perftest 310.0).  @gap: as pingpong_client()'s, in the
 * general loop only (a gapped loop is not the one whose cost counts).
 */
static inline __attribute__((always_inline)) int
oneshot(struct rb_run *r, int (*check)(struct rb_run *, uint64_t it), bool plain, uint64_t gap)
{
	const uint64_t warmup = r->pt.warmup, end = r->p->iters ? warmup + r->p->iters : 0;
	struct oneshot o = { .post = r->c.post_send, .qp = r->c.qp[0], .wr = r->wr, .cq = r->cq };
	uint64_t it, t;
	int ret;

	for (it = 0; it < warmup; it++) {
		ret = oneshot_op(r, &o, it, plain);
		if (!plain && !ret && check)
			ret = check(r, it);
		if (ret)
			return ret;
	}
	rb_mark_start(r);
	for (; end ? it < end : !rb_duration_over(r, it); it++) {
		t = rb_ticks();
		if (gap)
			t = gap_wait(gap);
		ret = oneshot_op(r, &o, it, plain);
		if (!ret)
			ret = lat_sample(r, t);
		if (!plain && !ret && check)
			ret = check(r, it);
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	r->total = it;
	r->ops = it - warmup;
	return 0;
}

int rb_run_oneshot(struct rb_run *r, int (*check)(struct rb_run *, uint64_t it))
{
	if (r->p->latency_gap_us)
		return oneshot(r, check, false, rb_gap_ns(r));
	return oneshot_is_plain(r, check) ? oneshot(r, NULL, true, 0) : oneshot(r, check, false, 0);
}
