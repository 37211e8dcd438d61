// SPDX-License-Identifier: MIT
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/xfer.h"

volatile sig_atomic_t rb_interrupted;
volatile sig_atomic_t rb_stop_armed, rb_stop_asked;
bool rb_hook_bad_verify;

int rb_verify_bytes(struct rb_run *r, const uint8_t *p, uint64_t len, uint64_t it)
{
	uint64_t off;

	for (off = 0; off < len; off++) {
		if (p[off] == rb_pattern(r->point, off) && !rb_hook_bad_verify)
			continue;
		rb_err("verify: %s size %llu: byte at offset %llu of iteration %llu is 0x%02x, "
		       "expected 0x%02x",
		       r->t->name, (unsigned long long)r->pt.size, (unsigned long long)off,
		       (unsigned long long)it, p[off], rb_pattern(r->point, off));
		return -EILSEQ;
	}
	return 0;
}

void rb_fill_pattern(struct rb_run *r, uint8_t *p, uint64_t len)
{
	uint64_t off;

	for (off = 0; off < len; off++)
		p[off] = rb_pattern(r->point, off);
}

/* The receive WRs, built once and chained: a repost sets only wr_ids. */
_Static_assert(RB_RECV_CHAIN == 64, "--recv-post-list's maximum in opts.c");

static void recv_wrs_build(struct rb_run *r)
{
	uint32_t k;

	/* --recv_post_list, else a quarter of the queue, RB_RECV_CHAIN at most, one at least; one
	 * when lossy (UC, UD): a receive short there drops a message; one
	 * with -b: a peer that finds no receive waits out an RNR (a 4 KiB
	 * -b send_bw failed in the lab under load with batched reposts;
	 * the cause was not established). */
	k = r->p->recv_post_list   ? r->p->recv_post_list
	    : r->lossy || r->bidir ? 1
				   : r->rx_depth / 4;
	r->recv_batch = k < 1 ? 1 : k > RB_RECV_CHAIN ? RB_RECV_CHAIN : k;
	/* The SRQ's receives (and those of one MR) all land in MR 0's rx
	 * region; with --mr-per-qp, post_recvs() points them at the QP's. */
	r->rsge = (struct ibv_sge){ .addr = (uintptr_t)rb_recv_buf(r, 0),
				    .length = (uint32_t)r->region,
				    .lkey = r->mr[0]->lkey };
	for (k = 0; k < RB_RECV_CHAIN; k++)
		r->rwr[k] = (struct ibv_recv_wr){
			.sg_list = &r->rsge,
			.num_sge = 1,
			.next = k + 1 < RB_RECV_CHAIN ? &r->rwr[k + 1] : NULL,
		};
}

/* Post the chain @wr on QP @qi's receive queue, or on the SRQ. */
static int recv_chain_post(struct rb_run *r, uint32_t qi, struct ibv_recv_wr *wr, uint32_t k)
{
	struct ibv_recv_wr *bad;
	int ret;

	if (r->srq) {
		ret = ibv_post_srq_recv(r->srq, wr, &bad);
		if (ret) {
			rb_err("%s: ibv_post_srq_recv of %u receives: %s", r->dev.name, k,
			       strerror(ret));
			return -ret;
		}
		r->srq_posted += k;
		return 0;
	}
	ret = ibv_post_recv(r->qp[qi], wr, &bad);
	if (ret) {
		rb_err("%s qp 0x%x: ibv_post_recv of %u receives: %s", r->dev.name,
		       r->qp[qi]->qp_num, k, strerror(ret));
		return -ret;
	}
	r->sq[qi].posted_recv += k;
	return 0;
}

/*
 * Post @k (1 to RB_RECV_CHAIN) receives for QP @qi, as one chain: on its
 * receive queue, or (--srq) on the SRQ.
 */
static int post_recvs(struct rb_run *r, uint32_t qi, uint32_t k)
{
	struct ibv_recv_wr *wr = r->rwr;
	uint32_t i;
	int ret;

	if (!wr[0].sg_list)
		recv_wrs_build(r);
	if (r->nmr > 1 && !r->srq) {
		r->rsge.addr = (uintptr_t)rb_recv_buf(r, qi);
		r->rsge.lkey = r->mr[rb_mri(r, qi)]->lkey;
	}
	for (i = 0; i < k; i++)
		wr[i].wr_id = RB_WRID_RECV | qi;
	wr[k - 1].next = NULL;
	ret = recv_chain_post(r, qi, wr, k);
	wr[k - 1].next = k < RB_RECV_CHAIN ? &wr[k] : NULL;
	return ret;
}

int rb_post_recv(struct rb_run *r, uint32_t qi)
{
	return post_recvs(r, qi, 1);
}

int rb_fill_recv_queues(struct rb_run *r)
{
	uint32_t qi, k;
	int ret;

	recv_wrs_build(r); /* the buffer and its MR are those of this run */
	while (r->srq && r->srq_posted < r->rx_depth) {
		k = r->rx_depth - r->srq_posted;
		ret = post_recvs(r, 0, k < RB_RECV_CHAIN ? k : RB_RECV_CHAIN);
		if (ret)
			return ret;
	}
	for (qi = 0; qi < r->nqp && !r->srq; qi++)
		while (r->sq[qi].posted_recv < r->rx_depth) {
			k = r->rx_depth - r->sq[qi].posted_recv;
			ret = post_recvs(r, qi, k < RB_RECV_CHAIN ? k : RB_RECV_CHAIN);
			if (ret)
				return ret;
		}
	return 0;
}

int rb_refill_recv_post(struct rb_run *r, uint32_t qi, uint32_t want)
{
	uint32_t posted, k;
	int ret;

	for (posted = r->srq ? r->srq_posted : r->sq[qi].posted_recv; posted < want; posted += k) {
		k = want - posted < RB_RECV_CHAIN ? want - posted : RB_RECV_CHAIN;
		ret = post_recvs(r, qi, k);
		if (ret)
			return ret;
	}
	return 0;
}

/* Signal @wr with wr_id @id, or (@id 0) not. */
static inline void set_signal(struct ibv_send_wr *wr, uint64_t id, unsigned int flags)
{
	wr->send_flags = id ? flags | IBV_SEND_SIGNALED : flags;
	wr->wr_id = id;
}

/*
 * The templates' signals: those of a chain of QP 0 that begins a group,
 * every @signal-th WR signaled (rb_post_chain posts such a chain as it
 * is).  Sets WR @k's.
 */
static inline void template_signal(struct ibv_send_wr *wr, uint32_t k, uint32_t signal,
				   unsigned int flags)
{
	set_signal(&wr[k], (k + 1) % signal ? 0 : signal, flags);
}

/* Put the templates' signals back on WRs k0, k0 + signal, ... below @n. */
static void reset_signals(struct ibv_send_wr *wr, uint32_t n, uint32_t k0, uint32_t signal,
			  unsigned int flags)
{
	uint32_t k;

	for (k = k0; k < n; k += signal)
		template_signal(wr, k, signal, flags);
}

uint32_t rb_buffers_used(const struct rb_run *r, uint64_t count)
{
	uint64_t warm = count < r->pt.warmup ? count : r->pt.warmup, meas = count - warm;
	uint64_t k = r->pt.batch < r->sq[0].depth ? r->pt.batch : r->sq[0].depth;
	uint64_t chains = ((meas > warm ? meas : warm) + k - 1) / (k ? k : 1);
	uint32_t qps = chains < r->pt.qps ? (uint32_t)chains : r->pt.qps;

	return r->nmr > 1 || !qps ? qps : 1;
}

/* The sge and flags every verb shares; prep_wr adds the verb's own. */
static void base_wr(struct rb_run *r, struct ibv_send_wr *wr, struct ibv_sge *sge, uint32_t qi)
{
	sge->addr = (uintptr_t)rb_tx_of(r, qi);
	sge->length = (uint32_t)r->pt.size;
	sge->lkey = r->mr[rb_mri(r, qi)]->lkey;
	memset(wr, 0, sizeof(*wr));
	wr->sg_list = sge;
	wr->num_sge = 1;
}

/* UD: the WRs @wr (n of them) go to QP @qi's peer. */
static void ud_dest(struct rb_run *r, uint32_t qi, struct ibv_send_wr *wr, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++) {
		wr[k].wr.ud.ah = r->ah[qi];
		wr[k].wr.ud.remote_qpn = r->remote.qp[qi].qpn;
		wr[k].wr.ud.remote_qkey = RB_UD_QKEY;
	}
}

/*
 * rb_heartbeat() looks at the clock every HB_CHAINS chains, or after each
 * HB_BYTES posted if that comes first: with 4 MiB messages at 20 MiB/s,
 * 256 chains took 50 s, longer than the server's --timeout (a write_bw -a
 * stream was given up on at 4M).
 */
#define HB_CHAINS 256u
#define HB_BYTES  (1u << 20)

static uint32_t hb_every(const struct rb_run *r)
{
	uint64_t chain = (uint64_t)r->pt.batch * r->pt.size;

	if (!chain || chain >= HB_BYTES)
		return 1;
	return HB_BYTES / chain < HB_CHAINS ? (uint32_t)(HB_BYTES / chain) : HB_CHAINS;
}

/* One set of templates for all QPs, or (--mr-per-qp) one per QP and its keys. */

int rb_wrs_prepare(struct rb_run *r)
{
	uint32_t k, qi, sets = r->nmr > 1 ? r->nqp : 1;
	struct ibv_send_wr *wr;

	if (!r->wr) {
		r->nwr = (uint32_t)rb_axis_max(&r->p->batch);
		r->wr = calloc((size_t)r->nwr * sets, sizeof(*r->wr));
		r->sge = calloc((size_t)r->nwr * sets, sizeof(*r->sge));
		if (!r->wr || !r->sge)
			return -ENOMEM;
		r->wr_stride = sets > 1 ? r->nwr : 0;
	}
	r->wr_flags = r->pt.size <= r->inline_max && r->t->inline_ok ? IBV_SEND_INLINE : 0;
	r->hb_every = hb_every(r);
	for (qi = 0; qi < sets; qi++) {
		wr = r->wr + (size_t)qi * r->nwr;
		for (k = 0; k < r->nwr; k++) {
			base_wr(r, &wr[k], &r->sge[(size_t)qi * r->nwr + k], qi);
			r->t->prep_wr(r, &wr[k], qi);
			wr[k].next = k + 1 < r->nwr ? &wr[k + 1] : NULL;
			template_signal(wr, k, r->pt.signal, r->wr_flags);
		}
		/* Shared templates go to QP 0's peer; post_chain_signals()
		 * redirects a chain of another QP and puts them back. */
		if (r->ud)
			ud_dest(r, qi, wr, r->nwr);
	}
	return 0;
}

void rb_wrs_free(struct rb_run *r)
{
	free(r->wr);
	free(r->sge);
	r->wr = NULL;
	r->sge = NULL;
}

/* ibv_post_send() of @n WRs on QP @qi said @err: logged; -@err. */
static __attribute__((noinline, cold)) int post_failed(struct rb_run *r, uint32_t qi, uint32_t n,
						       int err)
{
	rb_err("%s qp 0x%x: %s of %u WRs: %s", r->dev.name, r->qp[qi]->qp_num,
	       r->post_send == rb_post_send_ex ? "ibv_wr_complete" : "ibv_post_send", n,
	       strerror(err));
	return -err;
}

/* Post the first @n WRs of QP @qi's templates as they are. */
static inline int post_wrs(struct rb_run *r, uint32_t qi, uint32_t n)
{
	struct ibv_send_wr *wr = r->wr + (size_t)qi * r->wr_stride, *bad;
	int ret;

	if (n < r->nwr)
		wr[n - 1].next = NULL; /* a short chain ends early */
	ret = r->post_send(r->qp[qi], wr, &bad);
	if (n < r->nwr)
		wr[n - 1].next = &wr[n];
	if (ret)
		return post_failed(r, qi, n, ret);
	r->sq[qi].used += n;
	return 0;
}

/*
 * A chain whose signals are not the templates' (another QP, or a group
 * begun by the last chain, or a forced last WR): set them, post, and put
 * the templates' back; only the WRs that signal in either are touched.
 * Out of line: the common chain does without.
 */
static __attribute__((noinline)) int post_chain_signals(struct rb_run *r, uint32_t qi, uint32_t n,
							uint64_t it0, bool force)
{
	void (*iter_wr)(struct rb_run *, struct ibv_send_wr *, uint64_t) = r->t->iter_wr;
	struct ibv_send_wr *wr = r->wr + (size_t)qi * r->wr_stride;
	struct rb_sq *q = &r->sq[qi];
	bool redirect = r->ud && qi && !r->wr_stride;
	uint32_t k, signal = r->pt.signal, first = signal - q->unsig - 1, unsig;
	uint64_t qid = (uint64_t)qi << 32;
	unsigned int flags = r->wr_flags;
	int ret;

	/* The verb's own changes (they touch neither flags nor wr_id). */
	if (iter_wr)
		for (k = 0; k < n; k++)
			iter_wr(r, &wr[k], it0 + k);
	if (redirect)
		ud_dest(r, qi, wr, n);
	for (k = signal - 1; k < n; k += signal)
		set_signal(&wr[k], 0, flags);
	/* unsig < signal: every WR that completes a group of @signal
	 * signals, covering its group. */
	for (k = first; k < n; k += signal)
		set_signal(&wr[k], qid | signal, flags);
	/* The last signaled WR was k - signal; with none, k is first. */
	unsig = n + signal - 1 - k;
	if (force && unsig) {
		set_signal(&wr[n - 1], qid | unsig, flags);
		unsig = 0;
	}
	q->unsig = unsig;
	ret = post_wrs(r, qi, n);
	reset_signals(wr, n, first, signal, flags);
	reset_signals(wr, n, signal - 1, signal, flags);
	reset_signals(wr, n, n - 1, signal, flags);
	if (redirect)
		ud_dest(r, 0, wr, n);
	return ret;
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
	bool common = !q->unsig && !qi && !r->t->iter_wr;
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
		ret = post_chain_signals(r, qi, n, it0, force);
	} else {
		q->unsig = rem;
		ret = post_wrs(r, qi, n);
	}
	return ret ? ret : rb_heartbeat(r);
}

int rb_post_chain(struct rb_run *r, uint32_t qi, uint32_t n, uint64_t it0, bool force)
{
	return post_chain(r, qi, n, it0, force);
}

int rb_heartbeat_send(struct rb_run *r)
{
	uint64_t k = rb_ticks();

	if (k < r->hb_next)
		return 0;
	r->hb_next = k + 1000 * rb_ticks_per_ms();
	/* --threads: the threads that wait for this one know it measures. */
	if (r->progress_ns)
		__atomic_store_n(r->progress_ns, rb_now_ns(), __ATOMIC_RELAXED);
	return r->ctl->ops->alive(r->ctl, r->point);
}

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
	       r->dev.name, wc->qp_num, wc->wr_id & RB_WRID_RECV ? "receive" : r->t->wr_name,
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
		       r->dev.name, wc->qp_num, r->point, got, want);
	else
		rb_err("%s qp 0x%x: a message of point %u came without an immediate "
		       "(--send-with-imm/--write-with-imm)",
		       r->dev.name, wc->qp_num, r->point);
	return -EPROTO;
}

int rb_srq_recv_qi(struct rb_run *r, const struct ibv_wc *wc)
{
	uint32_t qi;

	r->srq_posted--;
	for (qi = 0; qi < r->nqp; qi++)
		if (r->qp[qi]->qp_num == wc->qp_num)
			return (int)qi;
	rb_err("%s: a receive on the SRQ completed for qp 0x%x, none of this run's", r->dev.name,
	       wc->qp_num);
	return -EPROTO;
}

int rb_reap_srq(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi))
{
	return rb_reap_poll(r, done, on_recv, true, false, 32);
}

int rb_poll_failed(struct rb_run *r)
{
	rb_err("%s: ibv_poll_cq failed", r->dev.name);
	return -EIO;
}

/*
 * What the peer said during a point, waiting up to @wait_ms: for the
 * server, the client's heartbeats and its STOP; for the client, only an
 * ERROR from the server.
 */
static int check_peer(struct rb_run *r, int wait_ms)
{
	uint64_t count = 0;
	int ret;

	if (r->stopped)
		return 0;
	ret = r->ctl->ops->poll(r->ctl, r->point, wait_ms, &count);
	if (ret <= RB_CTL_NOTHING)
		return ret;
	r->heard = rb_now_ns();
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
static int idle_checks(struct rb_run *r, struct rb_idle *s, const char *what)
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
		ret = check_peer(r, 0);
	if (ret)
		return ret;
	now = rb_now_ns();
	if (!s->since)
		s->since = now;
	if (now - s->since <= r->timeout_ns)
		return 0;
	rb_err("%s: no progress for %.3g s while waiting for %s at point %u%s; peer %s: is it "
	       "alive?",
	       r->dev.name, (double)r->timeout_ns / 1e9, what, r->point,
	       r->chan ? " (--poll event: no completion event came, nor a completion)" : "",
	       r->ctl->peer);
	return -ETIMEDOUT;
}

void rb_events_ack(struct rb_run *r)
{
	if (r->unacked)
		ibv_ack_cq_events(r->cq, r->unacked);
	r->unacked = 0;
}

/* The event that woke the channel: taken (r->armed off), counted, acked by the batch. */
static int event_take(struct rb_run *r)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(r->chan, &cq, &ctx)) {
		if (errno == EAGAIN || errno == EINTR)
			return 0; /* the fd does not block: nothing after all */
		rb_err("%s: ibv_get_cq_event: %m", r->dev.name);
		return -EIO;
	}
	r->armed = false;
	r->events++;
	if (++r->unacked >= RB_EVENT_ACK_BATCH)
		rb_events_ack(r);
	return 0;
}

/*
 * --poll event, an empty poll: arm the CQ, or (armed, and the caller's
 * poll since found nothing) sleep on the channel's fd, a slice at most.
 * Out of line, apart from the busy loops' path.
 */
static __attribute__((noinline)) int event_wait(struct rb_run *r, struct rb_idle *s,
						const char *what)
{
	struct pollfd pfd = { .fd = r->chan->fd, .events = POLLIN };
	uint64_t k;
	int ret;

	if (rb_interrupted)
		return -EINTR;
	if (!r->armed) {
		ret = ibv_req_notify_cq(r->cq, 0);
		if (ret) {
			rb_err("%s: ibv_req_notify_cq: %s", r->dev.name, strerror(ret));
			return -EIO;
		}
		/* The caller polls again before any sleep: a completion that
		 * came between its empty poll and the arm raised no event. */
		r->armed = true;
		return 0;
	}
	ret = poll(&pfd, 1, RB_EVENT_SLICE_MS);
	if (ret < 0 && errno != EINTR) {
		rb_err("%s: poll on the completion channel (fd %d): %m", r->dev.name, pfd.fd);
		return -EIO;
	}
	if (ret > 0 && (ret = event_take(r)))
		return ret;
	/* Woken or not, the caller polls: a slice that ends without an event
	 * still looks at the CQ (an event lost costs a slice, not the run). */
	k = rb_ticks();
	if (k < r->idle_next)
		return 0;
	r->idle_next = k + rb_ticks_per_ms();
	return idle_checks(r, s, what);
}

/* Out of line, as it always was: the loops' code around the call stays as it is. */
__attribute__((noinline)) int rb_idle_check(struct rb_run *r, struct rb_idle *s, const char *what)
{
	uint64_t k;

	if (__builtin_expect(r->chan != NULL, 0))
		return event_wait(r, s, what);
	if (++s->spins % 64)
		return 0;
	k = rb_ticks();
	if (k < r->idle_next)
		return 0;
	r->idle_next = k + rb_ticks_per_ms();
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
	r->next_clock = it + (r->paced ? 1 : 64);
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

/*
 * The first interval starts with the measured interval (client only).
 * Slices are due on CLOCK_MONOTONIC_RAW; the ticks only say when to look
 * at it, about 16 times a slice, so that a tick rate misjudged over the
 * 2 ms calibration (a VM, a preempted start) moves no boundary.
 */
static void iv_start(struct rb_run *r)
{
	r->iv_next = UINT64_MAX;
	if (!r->p->interval_ms || r->role != RB_ROLE_CLIENT)
		return;
	r->iv_len = r->p->interval_ms * 1000000ULL;
	r->iv_step = r->p->interval_ms * rb_ticks_per_ms() / 16;
	r->iv_due = r->t0 + r->iv_len;
	r->iv_k0 = r->k0;
	r->iv_t0 = r->t0;
	r->iv_ops0 = 0;
	rb_samples_mark(&r->lat);
	r->iv_next = r->k0 + r->iv_step;
}

/* CPU time is read inside the wall-clock interval, never around it. */
static void mark_start(struct rb_run *r)
{
	r->t0 = rb_now_ns();
	r->k0 = rb_ticks();
	r->cpu0 = rb_thread_cpu_ns();
	r->ev0 = r->events;
	r->next_clock = 0;
	iv_start(r);
}

/* Keep slice @iv of the point, and tell the session. */
static int iv_keep(struct rb_run *r, const struct rb_interval *iv)
{
	struct rb_interval *n;

	if (r->niv == r->iv_cap) {
		n = realloc(r->iv, (r->iv_cap ? r->iv_cap * 2 : 16) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->iv = n;
		r->iv_cap = r->iv_cap ? r->iv_cap * 2 : 16;
	}
	r->iv[r->niv++] = *iv;
	if (r->on_interval)
		r->on_interval(r->iv_ctx, r, iv);
	return 0;
}

/* The slice from the last close to (@k ticks, @t ns, @ops operations). */
static int iv_make(struct rb_run *r, uint64_t k, uint64_t t, uint64_t ops)
{
	struct rb_interval iv = { 0 };
	uint64_t ns = t > r->iv_t0 ? t - r->iv_t0 : 0;
	int ret = 0;

	iv.start_s = (double)(r->iv_t0 - r->t0) / 1e9;
	iv.duration_s = (double)ns / 1e9;
	iv.ops = ops - r->iv_ops0;
	iv.bw_gbps = rb_gbps(iv.ops * r->pt.size, ns);
	iv.msg_rate_mpps = ns ? (double)iv.ops * 1e3 / (double)ns : 0;
	/* Percentiles of this slice only: sorting it in place loses nothing;
	 * once the point is bucketed, the slice has buckets of its own. */
	if (rb_samples_slice_n(&r->lat) && k > r->iv_k0) {
		ret = rb_lat_summarize_slice(
			&r->lat, r->t->lat_scale * (double)ns / (double)(k - r->iv_k0), &iv.lat);
		iv.has_lat = !ret;
	}
	return ret ? ret : iv_keep(r, &iv);
}

int rb_iv_close(struct rb_run *r, uint64_t k, uint64_t ops)
{
	uint64_t t = rb_now_ns();
	int ret;

	r->iv_next = k + r->iv_step;
	if (t < r->iv_due)
		return 0;
	ret = iv_make(r, k, t, ops);
	/* Look 16 times a slice at the rate the ticks really went. */
	if (k > r->iv_k0 && t > r->iv_t0)
		r->iv_step = (uint64_t)((double)(k - r->iv_k0) / (double)(t - r->iv_t0) *
					(double)r->iv_len / 16) +
			     1;
	r->iv_next = k + r->iv_step;
	r->iv_k0 = k;
	r->iv_t0 = t;
	r->iv_ops0 = ops;
	rb_samples_mark(&r->lat);
	/* On the schedule, unless a stall passed it: no burst of empty slices. */
	r->iv_due += r->iv_len;
	if (r->iv_due <= t)
		r->iv_due = t + r->iv_len;
	return ret;
}

int rb_iv_finish(struct rb_run *r)
{
	int ret = 0;

	if (r->iv_next == UINT64_MAX)
		return 0;
	r->iv_next = UINT64_MAX;
	/* The remainder, unless it is an empty sliver. */
	if (r->t1 > r->iv_t0 && (r->ops > r->iv_ops0 || (r->t1 - r->iv_t0) * 2 >= r->iv_len))
		ret = iv_make(r, r->k1, r->t1, r->ops);
	return ret;
}

void rb_iv_free(struct rb_run *r)
{
	free(r->iv);
	r->iv = NULL;
	r->niv = r->iv_cap = 0;
}

static void mark_end(struct rb_run *r)
{
	r->cpu1 = rb_thread_cpu_ns();
	r->ev1 = r->events;
	r->k1 = rb_ticks();
	r->t1 = rb_now_ns();
}

double rb_ns_per_tick(const struct rb_run *r)
{
	if (r->k1 <= r->k0 || r->t1 <= r->t0)
		return 1.0;
	return (double)(r->t1 - r->t0) / (double)(r->k1 - r->k0);
}

/*
 * The measured interval ends at this side's last receive (@r->k_last), not
 * when the loop learnt that it was over: the peer's STOP is a control
 * message that comes after its own last completion and its bookkeeping,
 * and lost messages add the wait for the rest.  The CPU time (busy polling
 * throughout) shrinks in proportion.
 */
static void end_at_last(struct rb_run *r)
{
	double ns_tick = rb_ns_per_tick(r), was = (double)(r->t1 - r->t0), now;

	/* Nothing measured (all lost in the warmup): nothing to move. */
	if (!r->t0 || r->k_last <= r->k0 || r->k_last >= r->k1 || was <= 0)
		return;
	r->t1 = r->t0 + (uint64_t)((double)(r->k_last - r->k0) * ns_tick);
	r->k1 = r->k_last;
	now = (double)(r->t1 - r->t0);
	r->cpu1 = r->cpu0 + (uint64_t)((double)(r->cpu1 - r->cpu0) * now / was);
}

bool rb_run_cut(struct rb_run *r)
{
	if (!r->t0)
		return false; /* still in the warmup */
	if (!r->t1) {
		/* A one-at-a-time loop: each sample is one finished operation. */
		mark_end(r);
		r->ops = r->lat.n;
	}
	return r->ops > 0;
}

/* --latency_gap in ticks, 0 without it. */
static uint64_t gap_ticks(const struct rb_run *r)
{
	return r->p->latency_gap_us * rb_ticks_per_ms() / 1000;
}

/* Spin @gap ticks from @t (--latency_gap); the clock when it ends. */
static inline uint64_t gap_wait(uint64_t t, uint64_t gap)
{
	const uint64_t g0 = t;

	while ((t = rb_ticks()) - g0 < gap)
		;
	return t;
}

/* One round trip that began at @t: its sample, and maybe an interval's end. */
static inline int lat_sample(struct rb_run *r, uint64_t t)
{
	uint64_t k = rb_ticks();
	int ret = rb_samples_push(&r->lat, k - t);

	return ret ? ret : rb_iv_tick(r, k, r->lat.n);
}

/*
 * Client side of a ping-pong: post, wait for the echo, time the round
 * trip.  @wait reaps send completions as it goes.  With @gap (ticks,
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
			mark_start(r);
		ret = rb_wait_room(r, 0, 1, &done);
		t = rb_ticks();
		if (gap)
			t = gap_wait(t, gap);
		if (!ret)
			ret = post_chain(r, 0, 1, it, true);
		if (!ret)
			ret = wait(r, it);
		if (!ret && it >= warmup)
			ret = lat_sample(r, t);
		if (ret)
			return ret < 0 ? ret : -EPROTO;
	}
	mark_end(r);
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
		if (ret == 1)
			break;
		now = rb_ticks();
		if (!ret && it > start)
			ret = rb_samples_push(&r->lat, now - t);
		if (ret)
			return ret;
		if (it == start)
			mark_start(r);
		t = now;
		ret = rb_wait_room(r, 0, 1, &done);
		if (!ret)
			ret = rb_post_chain(r, 0, 1, it, true);
		if (ret)
			return ret;
	}
	mark_end(r);
	r->k_last = t;
	end_at_last(r);
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
		ret = pingpong_client(r, wait, gap_ticks(r));
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
		ret = rb_verify_bytes(r, rb_recv_buf(r, qi) + r->rx_off, r->pt.size, r->rx_count);
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
		r->rx_full = end > r->rx_depth ? end - r->rx_depth : 0;
}

int rb_pp_recv(struct rb_run *r, uint32_t qi)
{
	return pp_recv(r, qi);
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

/*
 * Wait for the peer's SEND @it of the ping-pong; 1 when the client has
 * stopped.  @plain: no --srq and no --verify, known before the point
 * starts; the loop then has neither their tests nor their calls (whose
 * registers the compiler otherwise kept on the stack: 16 instructions a
 * round trip).
 */
static inline __attribute__((always_inline)) int recv_wait_as(struct rb_run *r, uint64_t it,
							      bool plain)
{
	struct rb_idle idle;
	bool idling = false; /* idle counts from the first empty poll since progress */
	uint64_t done = 0;
	int n;

	/* rb_poll_step() by hand, one call less on the ping-pong's path; the
	 * idle state is set up only when a poll finds nothing, not for every
	 * message. */
	while (r->rx_count <= it) {
		if (r->stopped && it >= r->stop_count)
			return 1;
		if (rb_interrupted)
			return -EINTR;
		/* Usually this message's send and its echo are all that is
		 * due: asked for two, rxe does not look for a third (perftest
		 * asks for one a poll); anything more comes with the next. */
		if (plain)
			n = rb_reap_poll(r, &done, pp_recv_plain, false, true, 2);
		else if (__builtin_expect(r->srq != NULL, 0))
			n = rb_reap_srq(r, &done, pp_recv);
		else
			n = rb_reap_poll(r, &done, pp_recv, false, false, 2);
		if ((n = after_poll(r, &idle, &idling, n, "a SEND from the peer")))
			return n;
	}
	return 0;
}

static inline __attribute__((always_inline)) int recv_wait(struct rb_run *r, uint64_t it)
{
	return recv_wait_as(r, it, false);
}

static inline __attribute__((always_inline)) int recv_wait_plain(struct rb_run *r, uint64_t it)
{
	return recv_wait_as(r, it, true);
}

int rb_run_pingpong_recv(struct rb_run *r)
{
	r->rx_count = 0;
	if (!r->srq && !r->p->verify && !r->p->imm)
		return pingpong(r, recv_wait_plain);
	return pingpong(r, recv_wait);
}

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
		if (__builtin_expect(r->srq != NULL, 0))
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
	return !check && !r->t->iter_wr && !r->srq && r->nqp == 1 && !r->rx_depth && r->nwr == 1 &&
	       r->pt.signal == 1;
}

/* The plain case's post: the template, then maybe a heartbeat. */
static inline __attribute__((always_inline)) int post_one(struct rb_run *r, rb_post_fn post,
							  struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int ret = post(qp, wr, &bad);

	return ret ? post_failed(r, 0, 1, ret) : rb_heartbeat(r);
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
		n = ibv_poll_cq(cq, 1, &wc);
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
	struct oneshot o = { .post = r->post_send, .qp = r->qp[0], .wr = r->wr, .cq = r->cq };
	uint64_t it, t;
	int ret;

	for (it = 0; it < warmup; it++) {
		ret = oneshot_op(r, &o, it, plain);
		if (!plain && !ret && check)
			ret = check(r, it);
		if (ret)
			return ret;
	}
	mark_start(r);
	for (; end ? it < end : !rb_duration_over(r, it); it++) {
		t = rb_ticks();
		if (gap)
			t = gap_wait(t, gap);
		ret = oneshot_op(r, &o, it, plain);
		if (!ret)
			ret = lat_sample(r, t);
		if (!plain && !ret && check)
			ret = check(r, it);
		if (ret)
			return ret;
	}
	mark_end(r);
	r->total = it;
	r->ops = it - warmup;
	return 0;
}

int rb_run_oneshot(struct rb_run *r, int (*check)(struct rb_run *, uint64_t it))
{
	if (r->p->latency_gap_us)
		return oneshot(r, check, false, gap_ticks(r));
	return oneshot_is_plain(r, check) ? oneshot(r, NULL, true, 0) : oneshot(r, check, false, 0);
}

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
	uint64_t ns = rb_pace_due(&r->pace, k), cap = RB_EVENT_SLICE_MS * 1000000ULL;
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
	int ret = r->chan ? pace_sleep(r) : rb_heartbeat_send(r);

	return ret ? ret : 2;
}

/* Post the next chain if its QP has room; returns 1 when it did, 2 when --rate held it. */
static int stream_post(struct rb_run *r, struct stream *s)
{
	uint32_t qi = r->pt.qps > 1 ? (uint32_t)(s->chains % r->pt.qps) : 0, k = r->pt.batch;
	struct rb_sq *q = &r->sq[qi];
	int ret;

	if (k > q->depth)
		k = q->depth; /* reads: no more than the reads in flight */
	if (s->count && s->count - s->posted < k)
		k = (uint32_t)(s->count - s->posted);
	if (q->depth - q->used < k)
		return 0;
	if (r->paced && s->measure && !rb_pace_take(&r->pace, rb_now_ns(), k))
		return pace_wait(r);
	ret = post_chain(r, qi, k, r->total + s->posted, s->chains >= s->last_from);
	if (ret)
		return ret;
	s->posted += k;
	s->chains++;
	return 1;
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
		if (!ret)
			ret = rb_post_chain(r, qi, 1, r->total + s->posted, true);
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
	       r->pt.batch % r->pt.signal == 0 && !r->t->iter_wr && !r->on_recv &&
	       !(r->paced && s->measure);
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

	if (r->iv_next != UINT64_MAX && s->measure && (ret = rb_iv_tick(r, rb_ticks(), s->done)))
		return ret;
	return rb_idle_check(r, idle, "completions");
}

static int stream_phase(struct rb_run *r, struct stream *s)
{
	struct rb_idle idle = { 0 };
	bool more = true;
	uint64_t before;
	int n, posted, ret;

	s->last_from = first_last_chain(r, s);
	s->plain = stream_plain(r, s);
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
		while (n >= 0 && more && (n = stream_post(r, s)) > 0) {
			posted = 1;
			more = stream_more(r, s);
			/* --rate holds the next chain (2): poll meanwhile. -b
			 * with SENDs: a poll after each chain, whose receives
			 * repost there; the peer must not run out of them. */
			if (n == 2 || r->on_recv)
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

int rb_run_stream(struct rb_run *r)
{
	struct stream warm = { .count = r->pt.warmup },
		      meas = { .count = r->p->iters, .measure = true };
	int ret = 0;

	if (warm.count)
		ret = stream_phase(r, &warm);
	if (ret)
		return ret;
	r->total = warm.posted;
	mark_start(r);
	rb_bw_window_init(&r->win, r->k0);
	r->paced = r->p->rate_unit && r->role == RB_ROLE_CLIENT;
	if (r->paced)
		rb_pace_init(&r->pace, rb_rate_msgs_per_s(r->p->rate, r->p->rate_unit, r->pt.size),
			     1e9, r->pt.tx_depth, r->t0);
	ret = stream_phase(r, &meas);
	mark_end(r);
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

	r->heard = rb_now_ns();
	while (!r->stopped) {
		if (rb_interrupted)
			return -EINTR;
		ret = check_peer(r, 200);
		if (ret)
			return ret;
		if (!r->stopped && rb_now_ns() - r->heard > r->timeout_ns) {
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

	mark_start(r);
	ret = wait_stop(r);
	if (ret)
		return ret;
	mark_end(r);
	/* What the client did to this memory in the measured interval. */
	r->total = r->stop_count;
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return 0;
}

static int count_recv(struct rb_run *r, uint32_t qi)
{
	int ret = 0;

	if (r->p->verify)
		ret = rb_verify_bytes(r, rb_recv_buf(r, qi) + r->rx_off, r->pt.size, r->total);
	/* Bandwidth counts from the end of the last warmup message. */
	if (++r->total == r->pt.warmup)
		mark_start(r);
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

	if (!r->lossy || !r->stopped || n > 0) {
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
		r->t->name, r->point, (unsigned long long)(sent - got), (unsigned long long)sent,
		rb_transport_name(r->p->transport));
}

/* Server of send_bw: keep the receive queues full and count arrivals. */
int rb_run_server_recv(struct rb_run *r)
{
	struct rb_idle idle = { 0 };
	uint64_t dummy = 0, quiet = 0;
	int n;

	r->k_last = 0;
	if (!r->pt.warmup)
		mark_start(r);
	while (!r->stopped || r->total < r->stop_count) {
		n = rb_poll_step(r, &idle, &dummy, count_recv, "messages");
		if (n < 0)
			return n;
		/* Once a poll, not once a message: the end of its batch. */
		if (n > 0)
			r->k_last = rb_ticks();
		if (lossy_over(r, n, &quiet))
			break;
	}
	mark_end(r);
	end_at_last(r);
	if (r->total < r->stop_count)
		report_lost(r, r->total, r->stop_count);
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return 0;
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

static void report_bw(struct rb_run *r, struct rb_result *res, uint64_t ns)
{
	uint64_t bytes = r->ops * r->pt.size;

	res->has_bw = true;
	res->bw_avg_gbps = rb_gbps(bytes, ns);
	/* The window runs in ticks: Gb per tick over ns per tick. */
	res->bw_peak_gbps = r->role == RB_ROLE_CLIENT || r->bidir
				    ? rb_bw_window_peak(&r->win, bytes, r->k1) / rb_ns_per_tick(r)
				    : res->bw_avg_gbps;
	res->msg_rate_mpps = ns ? (double)r->ops * 1e3 / (double)ns : 0;
}

/* The client's intervals (the result takes them) and the rate reached. */
static void report_shape(struct rb_run *r, struct rb_result *res)
{
	res->iv = r->iv;
	res->niv = r->niv;
	r->iv = NULL;
	r->niv = r->iv_cap = 0;
	rb_bw_min_interval(res, r->p->interval_ms);
	rb_rate_report(res, r->p->rate, r->p->rate_unit);
}

int rb_report_generic(struct rb_run *r, struct rb_result *res)
{
	uint64_t ns = r->t1 > r->t0 ? r->t1 - r->t0 : 0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->pt = r->pt;
	res->iters = r->ops;
	/* No operation, no interval: nothing to divide by (and t0 may be 0). */
	if (!r->ops) {
		res->nothing_measured = true;
		res->duration_s = NAN;
		return 0;
	}
	res->duration_s = (double)ns / 1e9;
	if (r->lat.n) {
		ret = rb_lat_summarize(&r->lat, r->t->lat_scale * rb_ns_per_tick(r), &res->lat);
		if (ret)
			return ret;
		res->has_lat = true;
	}
	/* The server of a one-sided stream sees no messages: no bandwidth;
	 * with -b it has its own stream. */
	if (r->t->mode == RB_MODE_BW &&
	    (r->role == RB_ROLE_CLIENT || r->bidir || rb_bench_receives(r->t, r->p)))
		report_bw(r, res, ns);
	if (r->role == RB_ROLE_CLIENT)
		report_shape(r, res);
	res->has_cpu = ns > 0;
	res->cpu_util_pct = ns ? (double)(r->cpu1 - r->cpu0) * 100.0 / (double)ns : 0;
	res->cpu_ns_per_msg = r->ops ? (double)(r->cpu1 - r->cpu0) / (double)r->ops : 0;
	res->has_wakeups = r->chan != NULL;
	res->wakeups = r->ev1 - r->ev0;
	res->wakeups_per_msg = (double)res->wakeups / (double)r->ops;
	return 0;
}
