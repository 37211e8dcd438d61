// SPDX-License-Identifier: MIT
/*
 * Completions and waiting: what a failed completion means, immediates,
 * SRQ receives, the idle checks of a wait (peer, deadline, ^C), the
 * completion channel of --poll event, and the polling step every loop
 * shares.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"

volatile sig_atomic_t rb_interrupted;
volatile sig_atomic_t rb_stop_armed, rb_stop_asked;
bool rb_hook_bad_verify;

/* What an error status usually means, for the person reading it. */
static const char *wc_cause(enum ibv_wc_status st)
{
	switch (st) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer did not acknowledge: it is gone, or the path to it is down "
		       "(link, switch, GID or route)";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive posted (RNR)";
	case IBV_WC_REM_ACCESS_ERR:
		return "the peer refused the access: rkey, address or size do not match its "
		       "memory region";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the peer found the request invalid: a size over its limits, or an "
		       "operation its QP does not allow";
	case IBV_WC_LOC_LEN_ERR:
		return "a message longer than the receive buffer";
	case IBV_WC_LOC_PROT_ERR:
		return "the local memory region does not cover the buffer";
	case IBV_WC_REM_OP_ERR:
		return "the peer could not complete the operation";
	case IBV_WC_WR_FLUSH_ERR:
		return "flushed: an earlier error moved the QP to the error state";
	default:
		return NULL;
	}
}

/* An error completion's opcode is undefined: its wr_id says what it was. */
int rb_wc_error(struct rb_run *r, const struct ibv_wc *wc)
{
	const char *cause = wc_cause(wc->status);

	rb_err("%s qp 0x%x: %s completion error: %s (status %d, vendor error 0x%x)%s%s",
	       r->c.dev.name, wc->qp_num, wc->wr_id & RB_WRID_RECV ? "receive" : r->bench->wr_name,
	       ibv_wc_status_str(wc->status), wc->status, wc->vendor_err, cause ? ": " : "",
	       cause ? cause : "");
	return -EIO;
}

int rb_imm_check(struct rb_run *r, const struct ibv_wc *wc)
{
	uint32_t want = RB_IMM(r->point), got = be32toh(wc->imm_data);

	if ((wc->wc_flags & IBV_WC_WITH_IMM) && got == want)
		return 0;
	if (wc->wc_flags & IBV_WC_WITH_IMM)
		rb_err("%s qp 0x%x: a message of point %u carried immediate 0x%08x, expected "
		       "0x%08x (--send-with-imm/--write-with-imm)",
		       r->c.dev.name, wc->qp_num, r->point, got, want);
	else
		rb_err("%s qp 0x%x: a message of point %u came without an immediate "
		       "(--send-with-imm/--write-with-imm)",
		       r->c.dev.name, wc->qp_num, r->point);
	return -EPROTO;
}

int rb_srq_recv_qi(struct rb_run *r, const struct ibv_wc *wc)
{
	uint32_t qi;

	r->srq.posted--;
	for (qi = 0; qi < r->c.nqp; qi++)
		if (r->c.qp[qi]->qp_num == wc->qp_num)
			return (int)qi;
	rb_err("%s: a receive on the SRQ completed for qp 0x%x, none of this run's", r->c.dev.name,
	       wc->qp_num);
	return -EPROTO;
}

int rb_reap_srq(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi))
{
	struct ibv_wc stack[RB_REAP_STACK], *wc = stack;
	int max = rb_cqe_poll(r), n;

	rb_next_cq(r);
	if (r->pt.cqe_poll > RB_REAP_STACK && r->wcs) {
		wc = r->wcs;
		max = (int)r->pt.cqe_poll;
	}
	n = r->c.cq_ex ? rb_cqx_poll_full(r->cq, max, wc, r->c.cq_ex) : ibv_poll_cq(r->cq, max, wc);
	if (n < 0)
		return rb_poll_failed(r);
	n = rb_reap_wcs(r, wc, n, done, on_recv ? on_recv : r->on_recv, r->c.srq != NULL, false);
	/* --wr-lat: the completions' send WRs, timed once reaped. */
	return n > 0 && r->wl ? rb_wrlat_stamp(r, wc, n) : n;
}

int rb_poll_failed(struct rb_run *r)
{
	rb_err("%s: ibv_poll_cq failed", r->c.dev.name);
	return -EIO;
}

/*
 * What the peer said during a point, waiting up to @wait_ms: for the
 * server, the client's heartbeats and its STOP; for the client, only an
 * ERROR from the server.
 */
int rb_check_peer(struct rb_run *r, int wait_ms)
{
	uint64_t count = 0;
	int ret;

	if (r->stopped)
		return 0;
	ret = r->ctl->ops->poll(r->ctl, r->point, wait_ms, &count);
	if (ret <= RB_CTL_NOTHING)
		return ret;
	r->hb.heard = rb_now_ns();
	if (ret == RB_CTL_STOP) {
		r->stopped = true;
		r->stop_count = count;
	}
	return 0;
}

/*
 * Ticks in about a millisecond, measured once: the idle checks (a poll()
 * and a clock read, microseconds each in a VM) are paced by time, so that
 * a tight wait of a few microseconds never pays for one.
 */
uint64_t rb_ticks_per_ms(void)
{
	static uint64_t tpm;
	uint64_t t0, k0, t1;

	if (!tpm) {
		t0 = rb_now_ns();
		k0 = rb_ticks();
		do
			t1 = rb_now_ns();
		while (t1 - t0 < 2000000);
		/* Over the time that passed: a preemption must not inflate it
		 * (--interval and --rate count on it). */
		tpm = (rb_ticks() - k0) * 1000000 / (t1 - t0);
		if (!tpm)
			tpm = 1;
	}
	return tpm;
}

/* What an idle wait checks about once a millisecond (rb_idle_check()). */
static int idle_checks_now(struct rb_run *r, struct rb_idle *s, const char *what)
{
	uint64_t now;
	int ret;

	if (rb_interrupted)
		return -EINTR;
	/* Ended as the threads the group wakes with SIGUSR1 are (-EINTR):
	 * the failed thread names the cause. */
	if (rb_run_canceled(r))
		return -EINTR;
	/* A client stuck on its own completions is alive: the server must
	 * hear so, and this side's timeout below names what it waits for
	 * (not the server's "sent nothing", which points at the wrong host).
	 * Never after this side's STOP (-b): the peer then reads RESULT. */
	ret = (r->role == RB_ROLE_CLIENT || r->bidir) && !r->stop_sent ? rb_heartbeat_send(r) : 0;
	if (!ret)
		ret = rb_check_peer(r, 0);
	if (ret)
		return ret;
	now = rb_now_ns();
	if (!s->since)
		s->since = now;
	if (now - s->since <= r->timeout_ns)
		return 0;
	rb_err("%s: no progress for %.3g s while waiting for %s at point %u%s; peer %s: is it "
	       "alive?",
	       r->c.dev.name, (double)r->timeout_ns / 1e9, what, r->point,
	       r->ev.chan ? " (--poll event: no completion event came, nor a completion)" : "",
	       r->ctl->peer);
	return -ETIMEDOUT;
}

/* The idle checks when a millisecond has passed since the last (by ticks). */
static inline int idle_checks(struct rb_run *r, struct rb_idle *s, const char *what)
{
	uint64_t k = rb_ticks(), ms = rb_ticks_per_ms();

	if (!rb_ticks_due(k, r->idle_next, ms))
		return 0;
	r->idle_next = k + ms;
	return idle_checks_now(r, s, what);
}

void rb_events_ack(struct rb_run *r)
{
	if (r->ev.unacked)
		ibv_ack_cq_events(r->cq, r->ev.unacked);
	r->ev.unacked = 0;
}

/*
 * The event that woke the channel, into @cq, counted (r->ev.events): 1; 0
 * when there was none after all (the fd does not block); -EIO, logged.
 */
static int event_get(struct rb_run *r, struct ibv_cq **cq)
{
	void *ctx;

	if (ibv_get_cq_event(r->ev.chan, cq, &ctx)) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		rb_err("%s: ibv_get_cq_event: %m", r->c.dev.name);
		return -EIO;
	}
	r->ev.events++;
	return 1;
}

/* The one CQ's event: taken (r->ev.armed off), acked by the batch. */
static int event_take(struct rb_run *r)
{
	struct ibv_cq *cq;
	int ret = event_get(r, &cq);

	if (ret <= 0)
		return ret;
	r->ev.armed = false;
	if (++r->ev.unacked >= RB_EVENT_ACK_BATCH)
		rb_events_ack(r);
	return 0;
}

/* Arm @cq (QP @c's with --cq-per-qp, else UINT32_MAX); 0 or -EIO, logged. */
static int cq_arm(struct rb_run *r, struct ibv_cq *cq, uint32_t c)
{
	char which[32] = "";
	int ret = ibv_req_notify_cq(cq, 0);

	if (!ret)
		return 0;
	if (c != UINT32_MAX)
		snprintf(which, sizeof(which), " (CQ of QP %u)", c);
	rb_err("%s: ibv_req_notify_cq%s: %s", r->c.dev.name, which, strerror(ret));
	return -EIO;
}

/* Sleep on the channel a slice at most, and @take the event if one came. */
static int channel_sleep(struct rb_run *r, int (*take)(struct rb_run *r))
{
	struct pollfd pfd = { .fd = r->ev.chan->fd, .events = POLLIN };
	int ret = poll(&pfd, 1, RB_EVENT_SLICE_MS);

	if (ret < 0 && errno != EINTR) {
		rb_err("%s: poll on the completion channel (fd %d): %m", r->c.dev.name, pfd.fd);
		return -EIO;
	}
	return ret > 0 ? take(r) : 0;
}

/*
 * --poll event, an empty poll: arm the CQ, or (armed, and the caller's
 * poll since found nothing) sleep on the channel's fd, a slice at most.
 * Out of line, apart from the busy loops' path.
 */
static __attribute__((noinline)) int event_wait(struct rb_run *r, struct rb_idle *s,
						const char *what)
{
	int ret;

	if (rb_interrupted)
		return -EINTR;
	if (!r->ev.armed) {
		ret = cq_arm(r, r->cq, UINT32_MAX);
		if (ret)
			return ret;
		/* The caller polls again before any sleep: a completion that
		 * came between its empty poll and the arm raised no event. */
		r->ev.armed = true;
		return 0;
	}
	ret = channel_sleep(r, event_take);
	if (ret)
		return ret;
	/* Woken or not, the caller polls: a slice that ends without an event
	 * still looks at the CQ (an event lost costs a slice, not the run). */
	return idle_checks(r, s, what);
}

/* The index of @cq among every QP's CQ (--cq-per-qp), or nqp when none. */
static uint32_t cq_index(const struct rb_run *r, const struct ibv_cq *cq)
{
	uint32_t i;

	for (i = 0; i < r->c.nqp && r->c.cqs[i] != cq; i++)
		;
	return i;
}

void rb_cqs_point(struct rb_run *r)
{
	uint32_t c;

	if (!r->c.cqs)
		return;
	r->cpq.n = r->pt.qps < r->c.nqp ? r->pt.qps : r->c.nqp;
	r->cpq.next = 0;
	r->cq = r->c.cqs[0];
	r->cpq.ready = 0;
	for (c = 0; r->cpq.state && c < r->cpq.n; c++)
		r->cpq.ready += r->cpq.state[c] == RB_CQ_READY;
}

/*
 * --cq-per-qp: the event of one of the CQs, acked at once (acks count
 * per CQ); that CQ is IDLE again and polled next, to be armed when a
 * poll finds it empty.  One event per wake, as with one CQ: r->ev.events
 * stays the wake-ups.
 */
static int cqs_event_take(struct rb_run *r)
{
	struct ibv_cq *cq;
	uint32_t c;
	int ret = event_get(r, &cq);

	if (ret <= 0)
		return ret;
	ibv_ack_cq_events(cq, 1);
	c = cq_index(r, cq);
	if (c == r->c.nqp) {
		rb_err("%s: a completion event for a CQ that is none of the QPs' (--cq-per-qp)",
		       r->c.dev.name);
		return -EPROTO;
	}
	/* A CQ past this point's QPs: an earlier point's late event, its
	 * CQ disarmed by it; this point neither counts nor polls it. */
	if (r->cpq.state[c] == RB_CQ_READY && c < r->cpq.n)
		r->cpq.ready--;
	r->cpq.state[c] = RB_CQ_IDLE;
	if (c < r->cpq.n)
		r->cpq.next = c;
	return 0;
}

/* The first CQ after @c that is not READY (the caller knows one is). */
static uint32_t cqs_unready(const struct rb_run *r, uint32_t c)
{
	do
		c = c + 1 == r->cpq.n ? 0 : c + 1;
	while (r->cpq.state[c] == RB_CQ_READY);
	return c;
}

/*
 * --poll event with --cq-per-qp, after an empty poll of CQ c (the one
 * before cpq.next, rb_next_cq()): IDLE, arm it and poll it again; ARMED,
 * it is READY now.  While some CQ is not READY, that one is polled
 * next; when all are, a completion on any raises an event: sleep on the
 * shared channel, a slice at most, and take the event that came.
 */
static __attribute__((noinline)) int cqs_event_wait(struct rb_run *r, struct rb_idle *s,
						    const char *what)
{
	uint32_t c = r->cpq.next ? r->cpq.next - 1 : r->cpq.n - 1;
	int ret;

	if (rb_interrupted)
		return -EINTR;
	if (r->cpq.state[c] == RB_CQ_IDLE) {
		ret = cq_arm(r, r->c.cqs[c], c);
		if (ret)
			return ret;
		r->cpq.state[c] = RB_CQ_ARMED;
		r->cpq.next = c;
		return 0;
	}
	if (r->cpq.state[c] == RB_CQ_ARMED) {
		r->cpq.state[c] = RB_CQ_READY;
		r->cpq.ready++;
	}
	if (r->cpq.ready < r->cpq.n) {
		r->cpq.next = cqs_unready(r, c);
		return 0;
	}
	ret = channel_sleep(r, cqs_event_take);
	return ret ? ret : idle_checks(r, s, what);
}

/* Out of line, as it always was: the loops' code around the call stays as it is. */
__attribute__((noinline)) int rb_idle_check(struct rb_run *r, struct rb_idle *s, const char *what)
{
	if (__builtin_expect(r->ev.chan != NULL, 0))
		return r->cpq.state ? cqs_event_wait(r, s, what) : event_wait(r, s, what);
	if (++s->spins % 64)
		return 0;
	return idle_checks(r, s, what);
}

int rb_poll_step(struct rb_run *r, struct rb_idle *idle, uint64_t *done,
		 int (*on_recv)(struct rb_run *, uint32_t qi), const char *what)
{
	int n;

	/* A volatile read per poll: ^C must stop a point that never idles. */
	if (rb_interrupted)
		return -EINTR;
	n = rb_reap(r, done, on_recv);
	if (n > 0)
		rb_idle_reset(idle);
	else if (!n)
		n = rb_idle_check(r, idle, what);
	return n;
}

bool rb_duration_over(struct rb_run *r, uint64_t it)
{
	if (r->p->forever)
		return it > r->pt.warmup && rb_stop_asked;
	if (it < r->next_clock)
		return false;
	/* Paced, iterations are slow: -D must not overshoot by 64 of them. */
	r->next_clock = it + (r->rate.on ? 1 : 64);
	/* Ended early, the point is dropped: the next barrier ends the run. */
	if (rb_run_canceled(r))
		return true;
	return it > r->pt.warmup &&
	       rb_now_ns() - r->t0 >= (uint64_t)r->p->duration_s * 1000000000ULL;
}

int rb_wait_room_poll(struct rb_run *r, uint32_t qi, uint32_t k, uint64_t *done)
{
	struct rb_idle idle;
	int n;

	rb_idle_reset(&idle);
	while (r->sq[qi].depth - r->sq[qi].used < k)
		if ((n = rb_poll_step(r, &idle, done, NULL, "send queue room")) < 0)
			return n;
	return 0;
}
