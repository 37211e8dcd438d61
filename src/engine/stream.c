// SPDX-License-Identifier: MIT
/*
 * Streaming (the bandwidth tests): chains of WRs kept in flight under
 * the signal policy, paced by --rate or a traffic shape, and the server's
 * side: waiting for STOP, counting receives, -b's own stream.
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

/* What stream_post() did, besides -errno: 0 (STREAM_FULL) when the QP had no room. */
enum { STREAM_FULL = 0, STREAM_POSTED = 1, STREAM_HELD = 2 };

/* State of one streaming phase (warmup or measured). */
struct stream {
	uint64_t count; /* WRs to post; 0: until the duration is over */
	uint64_t posted, done;
	uint64_t chains;    /* chains posted, for the round-robin */
	uint64_t last_from; /* chains from this one on are their QP's last */
	bool measure;
	bool plain; /* stream_burst() may post (worked out once per phase) */
};

/*
 * The first chain number that is the last its QP gets (count mode; else
 * none), worked out once per phase, not per chain.
 */
static uint64_t first_last_chain(const struct rb_run *r, const struct stream *s)
{
	uint64_t total = (s->count + r->pt.batch - 1) / r->pt.batch;

	if (!s->count)
		return UINT64_MAX;
	return total > r->pt.qps ? total - r->pt.qps : 0;
}

/*
 * --poll event: the heartbeat, then sleep until --rate has a chain's
 * tokens (the pace runs in ns), a slice at most; the CQ keeps what
 * completes meanwhile.
 */
static __attribute__((noinline)) int pace_sleep(struct rb_run *r)
{
	uint32_t k = r->pt.batch < r->sq[0].depth ? r->pt.batch : r->sq[0].depth;
	uint64_t ns = rb_pace_due(&r->rate.pace, k), cap = RB_EVENT_SLICE_MS * 1000000ULL;
	struct timespec ts;
	int ret = rb_heartbeat_send(r);

	if (ret)
		return ret;

	if (ns > cap)
		ns = cap;
	ts.tv_sec = (time_t)(ns / 1000000000ULL);
	ts.tv_nsec = (long)(ns % 1000000000ULL);
	nanosleep(&ts, NULL); /* a signal ends it early: the loop looks at rb_interrupted */
	return 0;
}

/*
 * Waiting for --rate's tokens is progress, not idleness; the server still
 * hears from a client whose posts are too sparse to carry the heartbeat.
 * Returns 2 (nothing posted, but not stuck) or -errno.
 */
static int pace_wait(struct rb_run *r)
{
	int ret = r->ev.chan ? pace_sleep(r) : rb_heartbeat_send(r);

	return ret ? ret : STREAM_HELD;
}

/*
 * Post the next chain if its QP has room: STREAM_POSTED when it did,
 * STREAM_HELD when --rate held it.  @cr (a constant where it inlines):
 * send credits, no more SENDs than the peer's receives posted (a shorter
 * chain when fewer are left; none: STREAM_FULL, the reap looks again).
 */
static inline __attribute__((always_inline)) int stream_post(struct rb_run *r, struct stream *s,
							     bool cr)
{
	uint32_t qi = r->pt.qps > 1 ? (uint32_t)(s->chains % r->pt.qps) : 0, k = r->pt.batch;
	struct rb_sq *q = &r->sq[qi];
	int ret;

	if (k > q->depth)
		k = q->depth; /* reads: no more than the reads in flight */
	if (s->count && s->count - s->posted < k)
		k = (uint32_t)(s->count - s->posted);
	if (q->depth - q->used < k)
		return STREAM_FULL;
	if (cr) {
		uint64_t have = rb_credit_avail(r, qi);

		if (!have)
			return STREAM_FULL;
		if (have < k)
			k = (uint32_t)have;
	}
	if (r->rate.on && s->measure && !rb_pace_take(&r->rate.pace, rb_now_ns(), k))
		return pace_wait(r);
	if (r->wl)
		ret = rb_wrlat_post(r, qi, k, r->total + s->posted, s->chains >= s->last_from);
	else
		ret = post_chain(r, qi, k, r->total + s->posted, s->chains >= s->last_from);
	if (ret)
		return ret;
	if (cr)
		r->cr->q[qi].sent += k;
	s->posted += k;
	s->chains++;
	return STREAM_POSTED;
}

/* Send credits: reap until QP @qi may send one more SEND. */
static int credit_wait(struct rb_run *r, uint32_t qi, struct stream *s)
{
	struct rb_idle idle = { 0 };
	int n;

	while (!rb_credit_avail(r, qi))
		if ((n = rb_poll_step(r, &idle, &s->done, NULL, "the receiver's send credits")) < 0)
			return n;
	r->cr->q[qi].sent++;
	return 0;
}

/*
 * A duration ends at any chain: every QP whose last WRs went unsignaled
 * gets one more, signaled WR so that a completion covers them.
 */
static int stream_cover_tails(struct rb_run *r, struct stream *s)
{
	uint32_t qi;
	int ret;

	for (qi = 0; qi < r->pt.qps; qi++) {
		if (!r->sq[qi].unsig)
			continue;
		ret = rb_wait_room(r, qi, 1, &s->done);
		if (!ret && r->cr)
			ret = credit_wait(r, qi, s);
		if (!ret)
			ret = r->wl ? rb_wrlat_post(r, qi, 1, r->total + s->posted, true)
				    : rb_post_chain(r, qi, 1, r->total + s->posted, true);
		if (ret)
			return ret;
		s->posted++;
	}
	return 0;
}

/*
 * The common case, one QP posting -n in full chains of the templates as
 * they are (no --rate, no -b SENDs, no per-WR change, chains that end a
 * signal group: stream_plain()): what stream_post() would do for each of
 * them, with only the checks that change from chain to chain (count and
 * room) in the loop.  Returns the chains posted, or -errno.
 */
static inline __attribute__((always_inline)) int stream_burst(struct rb_run *r, struct stream *s)
{
	struct rb_sq *q = &r->sq[0];
	const uint32_t k = r->pt.batch;
	uint64_t posted = s->posted, left = s->count - posted;
	int ret = 0, n = 0;

	/* A group begun by the last chain: stream_post() sets the signals. */
	if (q->unsig)
		return 0;
	while (left >= k && q->depth - q->used >= k) {
		ret = post_wrs(r, 0, k);
		if (!ret)
			ret = rb_heartbeat(r);
		if (ret)
			break;
		left -= k;
		n++;
	}
	s->posted = s->count - left;
	s->chains += (uint64_t)n;
	return ret ? ret : n;
}

/* Whether stream_burst() may post this phase's chains. */
static bool stream_plain(const struct rb_run *r, const struct stream *s)
{
	return r->pt.qps == 1 && s->count && r->pt.batch <= r->sq[0].depth &&
	       r->pt.batch % r->pt.signal == 0 && !r->bench->iter_wr && !r->on_recv &&
	       !(r->rate.on && s->measure) && !r->wl && !r->cr;
}

static bool stream_more(struct rb_run *r, const struct stream *s)
{
	if (s->count)
		return s->posted < s->count;
	return !rb_point_ended(r, r->pt.warmup + 1 + s->chains);
}

/*
 * Nothing came back: an interval ends on time even while completions
 * stall (a flaky link shows as a slice with little in it), then the idle
 * checks.  Without --interval the clock is not read here.
 */
static int stream_idle(struct rb_run *r, struct stream *s, struct rb_idle *idle)
{
	int ret;

	if (r->iv.next != UINT64_MAX && s->measure && (ret = rb_iv_tick(r, rb_ticks(), s->done)))
		return ret;
	return rb_idle_check(r, idle, "completions");
}

/* A phase's loop; @cr (a constant: stream_phase() picks the copy once a phase): send credits. */
static inline __attribute__((always_inline)) int stream_loop(struct rb_run *r, struct stream *s,
							     bool cr)
{
	struct rb_idle idle = { 0 };
	bool more = true;
	uint64_t before;
	int n, posted, ret;

	while (more || s->done < s->posted) {
		if (rb_interrupted)
			return -EINTR;
		/* Post chains while there is room, then poll once, as perftest
		 * does: the poll reaps what completed meanwhile, where a poll
		 * after each chain would find a completion each. */
		posted = 0;
		n = 0;
		if (s->plain && more && (n = stream_burst(r, s)) > 0) {
			posted = 1;
			more = s->posted < s->count;
		}
		while (n >= 0 && more && (n = stream_post(r, s, cr)) > 0) {
			posted = 1;
			more = stream_more(r, s);
			/* --rate holds the next chain (STREAM_HELD): poll meanwhile. -b
			 * with SENDs: a poll after each chain, whose receives
			 * repost there; the peer must not run out of them. */
			if (n == STREAM_HELD || r->on_recv)
				break;
		}
		if (n < 0)
			return n;
		if (posted && !more && !s->count && (n = stream_cover_tails(r, s)))
			return n;
		before = s->done;
		n = rb_reap(r, &s->done, NULL);
		if (n < 0)
			return n;
		if (s->done != before && s->measure) {
			uint64_t k = rb_ticks();

			rb_bw_window_mark(&r->win, k, s->done * r->pt.size);
			if ((ret = rb_iv_tick(r, k, s->done)))
				return ret;
		}
		if (n || posted)
			rb_idle_reset(&idle);
		else if ((n = stream_idle(r, s, &idle)))
			return n;
	}
	return 0;
}

static __attribute__((noinline)) int stream_loop_credits(struct rb_run *r, struct stream *s)
{
	return stream_loop(r, s, true);
}

static int stream_phase(struct rb_run *r, struct stream *s)
{
	s->last_from = first_last_chain(r, s);
	s->plain = stream_plain(r, s);
	if (r->wl)
		rb_wrlat_phase(r, s->measure);
	return r->cr ? stream_loop_credits(r, s) : stream_loop(r, s, false);
}

int rb_run_stream(struct rb_run *r)
{
	struct stream warm = { .count = r->pt.warmup },
		      meas = { .count = r->p->iters, .measure = true };
	int ret = 0;

	if (r->p->reg_mode == RB_REG_PER_MSG)
		return rb_run_stream_per_msg(r);
	if (r->p->reg_mode == RB_REG_CACHE)
		return rb_run_stream_cache(r);

	if (warm.count)
		ret = stream_phase(r, &warm);
	if (ret)
		return ret;
	r->total = warm.posted;
	rb_mark_start(r);
	rb_bw_window_init(&r->win, r->k0, (uint64_t)r->pt.qps * r->pt.tx_depth * r->pt.size);
	r->rate.on = r->p->rate_unit && r->role == RB_ROLE_CLIENT;
	if (r->rate.on)
		rb_pace_init(&r->rate.pace,
			     rb_rate_msgs_per_s(r->p->rate, r->p->rate_unit, r->pt.size), 1e9,
			     r->pt.tx_depth, r->t0);
	ret = stream_phase(r, &meas);
	rb_mark_end(r);
	r->ops = meas.done;
	r->total += meas.posted;
	return ret;
}

/*
 * Wait for the peer's STOP, sleeping in the control channel: this side's
 * CPU use is part of the result.  The peer's heartbeats say it is alive;
 * silence for the timeout means it is not (frozen, or its host is gone).
 */
static int wait_stop(struct rb_run *r)
{
	int ret;

	r->hb.heard = rb_now_ns();
	while (!r->stopped) {
		if (rb_interrupted)
			return -EINTR;
		ret = rb_check_peer(r, 200);
		if (ret)
			return ret;
		if (!r->stopped && rb_now_ns() - r->hb.heard > r->timeout_ns) {
			rb_err("%s %s sent nothing for %.3g s during point %u (no heartbeat, "
			       "no STOP): is it alive?",
			       r->ctl->role == RB_ROLE_SERVER ? "client" : "server", r->ctl->peer,
			       (double)r->timeout_ns / 1e9, r->point);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* Server of a test where it only serves memory: wait for the STOP. */
int rb_run_server_wait(struct rb_run *r)
{
	int ret;

	rb_mark_start(r);
	ret = wait_stop(r);
	if (ret)
		return ret;
	rb_mark_end(r);
	/* What the client did to this memory in the measured interval. */
	r->total = r->stop_count;
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return 0;
}

static int count_recv(struct rb_run *r, uint32_t qi)
{
	int ret = 0;

	if (r->p->verify)
		ret = rb_verify_bytes(r, rb_recv_buf(r, qi) + r->c.rx_off, r->pt.size, r->total);
	/* Bandwidth counts from the end of the last warmup message. */
	if (++r->total == r->pt.warmup)
		rb_mark_start(r);
	/* The queue stays full, topped up in chains. */
	return ret ? ret : rb_refill_recv(r, qi, UINT64_MAX);
}

/*
 * UC and UD drop a message that finds no receive posted (RC retries it):
 * once the client's STOP is in, the messages still to come arrive within
 * moments or never.  True when none came for LOSSY_GRACE_NS.
 */
#define LOSSY_GRACE_NS 200000000ULL

static bool lossy_over(struct rb_run *r, int n, uint64_t *quiet)
{
	uint64_t now;

	if (!r->c.lossy || !r->stopped || n > 0) {
		*quiet = 0;
		return false;
	}
	now = rb_now_ns();
	if (!*quiet)
		*quiet = now;
	return now - *quiet > LOSSY_GRACE_NS;
}

static void report_lost(const struct rb_run *r, uint64_t got, uint64_t sent)
{
	rb_info("%s point %u: %llu of %llu messages lost: over %s, a message that finds no "
		"receive posted is dropped (a deeper -r/--rx-depth may help)",
		r->bench->name, r->point, (unsigned long long)(sent - got),
		(unsigned long long)sent, rb_transport_name(r->p->transport));
}

/* count_recv(), then the send credits' count of QP @qi's receives. */
static int count_recv_credits(struct rb_run *r, uint32_t qi)
{
	int ret = count_recv(r, qi);

	return ret ? ret : rb_credit_received(r, qi);
}

/*
 * Server of send_bw: keep the receive queues full and count arrivals.
 * @cr (a constant where it inlines): send credits, announced at the
 * start, as receives come, and after a poll freed the room they waited for.
 */
static inline __attribute__((always_inline)) int server_recv(struct rb_run *r, bool cr)
{
	struct rb_idle idle = { 0 };
	uint64_t dummy = 0, quiet = 0;
	int n, ret;

	r->k_last = 0;
	if (!r->pt.warmup)
		rb_mark_start(r);
	if (cr && (n = rb_credit_start(r)))
		return n;
	while (!r->stopped || r->total < r->stop_count) {
		n = rb_poll_step(r, &idle, &dummy, cr ? count_recv_credits : count_recv,
				 "messages");
		if (cr && n >= 0 && (ret = rb_credit_flush(r)))
			return ret;
		if (n < 0)
			return n;
		/* Once a poll, not once a message: the end of its batch. */
		if (n > 0)
			r->k_last = rb_ticks();
		if (lossy_over(r, n, &quiet))
			break;
	}
	rb_mark_end(r);
	rb_end_at_last(r);
	if (r->total < r->stop_count)
		report_lost(r, r->total, r->stop_count);
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return 0;
}

static __attribute__((noinline)) int server_recv_credits(struct rb_run *r)
{
	return server_recv(r, true);
}

int rb_run_server_recv(struct rb_run *r)
{
	return r->cr ? server_recv_credits(r) : server_recv(r, false);
}

/* -b: the peer's STOP, then (SENDs) every message it counted in it. */
static int wait_peer_msgs(struct rb_run *r)
{
	struct rb_idle idle = { 0 };
	uint64_t done = 0, quiet = 0;
	int n;

	while (!r->stopped || r->rx_count < r->stop_count) {
		if ((n = rb_poll_step(r, &idle, &done, NULL, "the peer's SENDs")) < 0)
			return n;
		/* UC, UD: the one-way server's grace for what was lost. */
		if (lossy_over(r, n, &quiet)) {
			report_lost(r, r->rx_count, r->stop_count);
			break;
		}
	}
	return 0;
}

int rb_run_bidir(struct rb_run *r, int (*on_recv)(struct rb_run *, uint32_t qi))
{
	int ret;

	/* Receives reaped anywhere in the stream (room waits too) count. */
	r->on_recv = on_recv;
	ret = rb_run_stream(r);
	if (!ret)
		ret = r->ctl->ops->stop(r->ctl, r->point, r->total);
	r->stop_sent = !ret;
	/* The peer's messages keep landing after ours: keep receiving. */
	if (!ret)
		ret = on_recv ? wait_peer_msgs(r) : wait_stop(r);
	r->on_recv = NULL;
	return ret;
}
