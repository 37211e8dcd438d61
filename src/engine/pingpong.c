// SPDX-License-Identifier: MIT
/*
 * The ping-pong loops (send_lat, write_lat): the client times round
 * trips, the server echoes; with --latency_gap, the pause before each.
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

/* --latency_gap in ns, 0 without it. */
uint64_t rb_gap_ns(const struct rb_run *r)
{
	return (uint64_t)r->p->latency_gap_us * 1000;
}

/*
 * Client side of a ping-pong: post, wait for the echo, time the round
 * trip.  @wait reaps send completions as it goes.  With @gap (ns,
 * --latency_gap), each ping waits that long after the previous round trip
 * (as perftest: before every post), outside the sample but inside the
 * point's duration.  Inline with @gap 0 as a constant, the loop has no test
 * of it.
 */
static inline __attribute__((always_inline)) int
pingpong_client(struct rb_run *r, int (*wait)(struct rb_run *, uint64_t it), uint64_t gap)
{
	/* rb_point_ended() with the plan's counts in registers, not read
	 * through r->p after every call of the loop. */
	const uint64_t warmup = r->pt.warmup, end = r->p->iters ? warmup + r->p->iters : 0;
	uint64_t it, t, done = 0;
	int ret;

	for (it = 0; end ? it < end : it < warmup || !rb_duration_over(r, it); it++) {
		if (it == warmup)
			rb_mark_start(r);
		ret = rb_wait_room(r, 0, 1, &done);
		t = rb_ticks();
		if (gap)
			t = gap_wait(gap);
		if (!ret)
			ret = post_chain(r, 0, 1, it, true);
		if (!ret)
			ret = wait(r, it);
		if (!ret && it >= warmup)
			ret = lat_sample(r, t);
		if (ret)
			return ret < 0 ? ret : -EPROTO;
	}
	rb_mark_end(r);
	r->total = it;
	return 0;
}

/*
 * Server side: wait for ping @it, echo it.  The time from one echo to the
 * next ping is a round trip seen from here: the measured interval starts
 * at the last warm-up echo (the first sample is ping pt.warmup's round
 * trip, so the samples are as many as the client's pings) and ends at the
 * last ping, not at the STOP after it.  With --warmup 0 the first ping has
 * no echo before it: one sample, and one operation, fewer.  Ends when the
 * client's STOP has arrived and every ping it sent was echoed.
 */
static int pingpong_server(struct rb_run *r, int (*wait)(struct rb_run *, uint64_t it))
{
	const uint64_t start = r->pt.warmup ? r->pt.warmup - 1 : 0;
	uint64_t it, t = 0, now, done = 0;
	int ret;

	for (it = 0;; it++) {
		ret = wait(r, it);
		if (ret == RB_WAIT_STOPPED)
			break;
		now = rb_ticks();
		if (!ret && it > start)
			ret = rb_samples_push(&r->lat, now - t);
		if (ret)
			return ret;
		if (it == start)
			rb_mark_start(r);
		t = now;
		ret = rb_wait_room(r, 0, 1, &done);
		if (!ret)
			ret = rb_post_chain(r, 0, 1, it, true);
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	r->k_last = t;
	rb_end_at_last(r);
	r->total = it;
	return 0;
}

/*
 * Every ping-pong send is signaled, but reaped only when room runs out,
 * so nobody waits for an ACK; at the end of the point the queue drains,
 * so that the next point starts with all of its room.
 */
static inline __attribute__((always_inline)) int pingpong(struct rb_run *r,
							  int (*wait)(struct rb_run *, uint64_t it))
{
	uint64_t done = 0;
	int ret;

	if (r->role == RB_ROLE_SERVER)
		ret = pingpong_server(r, wait);
	else if (r->p->latency_gap_us)
		ret = pingpong_client(r, wait, rb_gap_ns(r));
	else
		ret = pingpong_client(r, wait, 0);

	if (!ret)
		ret = rb_wait_room(r, 0, r->sq[0].depth, &done);
	/* The server's operations are the round trips it timed. */
	if (r->role == RB_ROLE_SERVER)
		r->ops = r->lat.n;
	else
		r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return ret;
}

int rb_run_pingpong(struct rb_run *r, int (*wait)(struct rb_run *, uint64_t it))
{
	return pingpong(r, wait);
}

/*
 * A SEND received on QP @qi; with @verify false, --verify is known to be
 * off (recv_wait_as()).  Inline in the wait: -b also calls it, through a
 * pointer.
 */
static inline __attribute__((always_inline)) int pp_recv_as(struct rb_run *r, uint32_t qi,
							    bool verify)
{
	uint64_t end;
	int ret = 0;

	if (verify && r->p->verify)
		ret = rb_verify_bytes(r, rb_recv_buf(r, qi) + r->c.rx_off, r->pt.size, r->rx_count);
	r->rx_count++;
	if (ret)
		return ret;
	/* With -n, no receive is posted that the point will not use
	 * (perftest, too, stops reposting for the last ones); until the
	 * last rx_depth messages, that is no limit (rb_rx_plan()). */
	if (r->rx_count <= r->rx_full)
		return rb_refill_recv(r, qi, UINT64_MAX);
	end = r->pt.warmup + r->p->iters;
	return rb_refill_recv(r, qi,
			      !r->p->iters	  ? UINT64_MAX
			      : end > r->rx_count ? end - r->rx_count
						  : 0);
}

static inline __attribute__((always_inline)) int pp_recv(struct rb_run *r, uint32_t qi)
{
	return pp_recv_as(r, qi, true);
}

static inline __attribute__((always_inline)) int pp_recv_plain(struct rb_run *r, uint32_t qi)
{
	return pp_recv_as(r, qi, false);
}

void rb_rx_plan(struct rb_run *r)
{
	uint64_t end = r->pt.warmup + r->p->iters;

	r->rx_count = 0;
	if (!r->p->iters)
		r->rx_full = UINT64_MAX;
	else
		r->rx_full = end > r->c.rx_depth ? end - r->c.rx_depth : 0;
}

int rb_pp_recv(struct rb_run *r, uint32_t qi)
{
	return pp_recv(r, qi);
}

/*
 * Wait for the peer's SEND @it of the ping-pong; RB_WAIT_STOPPED when the client has
 * stopped.  @plain: no --srq, no --verify, no --send-with-imm and a
 * --cqe-poll of 2 or more, known before the point starts; the loop then
 * has neither their tests nor their calls (whose registers the compiler
 * otherwise kept on the stack: 16 instructions a round trip), and asks
 * for two completions a poll without reading --cqe-poll for every
 * message (4 instructions).  The sends' completions only free room: a
 * ping-pong reports no qp_wrs, so the reap keeps no count of them
 * (rb_reap_wcs() with @done NULL).
 */
static inline __attribute__((always_inline)) int recv_wait_as(struct rb_run *r, uint64_t it,
							      bool plain, enum rb_poll_api api)
{
	struct rb_idle idle;
	bool idling = false; /* idle counts from the first empty poll since progress */
	uint64_t done = 0;
	/* --cqe-poll 1: one a poll (never plain) */
	int n, max = plain || r->pt.cqe_poll >= 2 ? 2 : 1;

	/* rb_poll_step() by hand, one call less on the ping-pong's path; the
	 * idle state is set up only when a poll finds nothing, not for every
	 * message. */
	while (r->rx_count <= it) {
		if (r->stopped && it >= r->stop_count)
			return RB_WAIT_STOPPED;
		if (rb_interrupted)
			return -EINTR;
		/* Usually this message's send and its echo are all that is
		 * due: asked for two, rxe does not look for a third (perftest
		 * asks for one a poll); anything more comes with the next. */
		if (plain)
			n = rb_reap_poll_as(r, NULL, pp_recv_plain, false, true, max, api);
		else if (__builtin_expect(r->c.srq != NULL, 0))
			n = rb_reap_srq(r, &done, pp_recv);
		else
			n = rb_reap_poll(r, NULL, pp_recv, false, false, max);
		if ((n = after_poll(r, &idle, &idling, n, "a SEND from the peer")))
			return n;
	}
	return 0;
}

static inline __attribute__((always_inline)) int recv_wait(struct rb_run *r, uint64_t it)
{
	return recv_wait_as(r, it, false, RB_POLL_ANY);
}

/* The plain wait, its CQ's kind known for the point (--cq-api): no test a poll. */
static inline __attribute__((always_inline)) int recv_wait_plain(struct rb_run *r, uint64_t it)
{
	return recv_wait_as(r, it, true, RB_POLL_CLASSIC);
}

static inline __attribute__((always_inline)) int recv_wait_plain_ex(struct rb_run *r, uint64_t it)
{
	return recv_wait_as(r, it, true, RB_POLL_EX);
}

int rb_run_pingpong_recv(struct rb_run *r)
{
	r->rx_count = 0;
	if (!r->c.srq && !r->p->verify && !r->p->imm && r->pt.cqe_poll >= 2)
		return r->c.cq_ex == RB_CQX_BATCH ? pingpong(r, recv_wait_plain_ex)
		       : r->c.cq_ex		  ? pingpong(r, recv_wait)
						  : pingpong(r, recv_wait_plain);
	return pingpong(r, recv_wait);
}
