/* SPDX-License-Identifier: MIT */
/*
 * What the loop files of src/engine/ share, and nothing outside them
 * includes: the hot helpers, always inline so that each loop compiles
 * with its own copy (scripts/cost counts their instructions per message),
 * and the functions behind them, off the common path.
 */
#ifndef RB_ENGINE_LOOP_H
#define RB_ENGINE_LOOP_H

#include <string.h>
#include "core/clock.h"
#include "engine/run.h"

/* post.c: ibv_post_send() of @n WRs on QP @qi said @err: logged; -@err. */
__attribute__((noinline, cold)) int rb_post_failed(struct rb_run *r, uint32_t qi, uint32_t n,
						   int err);
/* post.c: a chain whose signals are not the templates' (post_chain()). */
__attribute__((noinline)) int rb_post_chain_signals(struct rb_run *r, uint32_t qi, uint32_t n,
						    uint64_t it0, bool force);
/* complete.c: a message from the peer, waiting up to @wait_ms. */
int rb_check_peer(struct rb_run *r, int wait_ms);
/* interval.c: the measured interval's marks. */
void rb_mark_start(struct rb_run *r);
void rb_mark_end(struct rb_run *r);
void rb_end_at_last(struct rb_run *r);
/* pingpong.c: --latency_gap in ns, 0 without it. */
uint64_t rb_gap_ns(const struct rb_run *r);

/* Post the first @n WRs of QP @qi's templates as they are. */
static inline int post_wrs(struct rb_run *r, uint32_t qi, uint32_t n)
{
	struct ibv_send_wr *wr = r->wr + (size_t)qi * r->wr_stride, *bad;
	int ret;

	if (n < r->nwr)
		wr[n - 1].next = NULL; /* a short chain ends early */
	ret = r->c.post_send(r->c.qp[qi], wr, &bad);
	if (n < r->nwr)
		wr[n - 1].next = &wr[n];
	if (ret)
		return rb_post_failed(r, qi, n, ret);
	r->sq[qi].used += n;
	return 0;
}

/*
 * rb_post_chain(), inline in the loops of this file (always: with the
 * other features' branches the compiler's own choice kept it out of line
 * on the ping-pong's path, 40 instructions a message).
 */
static inline __attribute__((always_inline)) int post_chain(struct rb_run *r, uint32_t qi,
							    uint32_t n, uint64_t it0, bool force)
{
	struct rb_sq *q = &r->sq[qi];
	uint32_t rem = n % r->pt.signal;
	bool common = !q->unsig && !qi && !r->bench->iter_wr;
	int ret;

	/* With less room left than another chain needs, only a completion
	 * can make room: make sure one is coming.  A common chain that ends
	 * a group (rem 0) signals its last WR anyway: not worked out there. */
	if (!common || rem)
		force = force || q->depth - (q->used + n) < n;
	/* The templates carry the signals of a chain of QP 0 that starts a
	 * group (rb_wrs_prepare): the common chain is posted as it is (one
	 * that ends a group signals its last WR as forced). */
	if (!common || (rem && force)) {
		ret = rb_post_chain_signals(r, qi, n, it0, force);
	} else {
		q->unsig = rem;
		ret = post_wrs(r, qi, n);
	}
	return ret ? ret : rb_heartbeat(r);
}

/*
 * Spin @gap_ns of real time (--latency_gap); the tick count when it ends.
 * On the clock, not in ticks: a tick rate calibrated over 2 ms (a VM under
 * load) was seen 15% off, and the gap with it.
 */
static inline uint64_t gap_wait(uint64_t gap_ns)
{
	const uint64_t n0 = rb_now_ns();

	while (rb_now_ns() - n0 < gap_ns)
		;
	return rb_ticks();
}

/* One round trip that began at @t: its sample, and maybe an interval's end. */
static inline int lat_sample(struct rb_run *r, uint64_t t)
{
	uint64_t k = rb_ticks();
	int ret = rb_samples_push(&r->lat, k - t);

	return ret ? ret : rb_iv_tick(r, k, r->lat.n);
}

/*
 * What a hand-made wait does after one poll that returned @n: progress
 * (> 0) starts the idle count over; an empty poll (0) sets the idle state
 * up at the first, not for every message, and checks it.  0: poll again;
 * else what ends the wait (an error, ^C, a timeout).
 */
static inline __attribute__((always_inline)) int after_poll(struct rb_run *r, struct rb_idle *idle,
							    bool *idling, int n, const char *what)
{
	if (n > 0) {
		*idling = false;
		return 0;
	}
	if (n < 0)
		return n;
	if (!*idling) {
		rb_idle_reset(idle);
		*idling = true;
	}
	return rb_idle_check(r, idle, what);
}

#endif
