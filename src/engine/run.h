/* SPDX-License-Identifier: MIT */
/*
 * The run: the state of one connection's measuring, and the loops' hot
 * helpers.  Private to src/engine/ and the test rows over it
 * (src/bench/); the session sees only engine/xfer.h, which makes and
 * drives a run without writing any of its fields.
 */
#ifndef RB_RUN_H
#define RB_RUN_H

#include <signal.h>
#include <infiniband/verbs.h>

#include "engine/xfer.h"
#include "rdma/cqx.h"

#define RB_MAX_BATCH 4096
/* Receives reposted in one chain, at most. */
#define RB_RECV_CHAIN 64
/* Receive wr_ids carry this bit; send wr_ids are (QP index << 32 | WRs covered). */
#define RB_WRID_RECV (1ULL << 63)

/* Send-queue accounting for one QP. */
struct rb_sq {
	uint32_t depth; /* WRs allowed in flight at this point */
	uint32_t used;	/* posted, not yet covered by a completion */
	uint32_t unsig; /* posted since the last signaled WR */
	uint32_t posted_recv;
};

/* Send credits (credit.c), per QP: what this side counted and announced. */
struct rb_credit_qp {
	uint64_t recvd;	    /* receiver: receives completed */
	uint64_t announced; /* receiver: the count the peer was last sent */
	uint64_t sent;	    /* sender: SENDs posted */
	bool pending;	    /* receiver: an announce waits for send-queue room */
};

struct rb_credit {
	uint32_t nqp;
	uint64_t off; /* the credit words' offset in a region (wire/plan.h) */
	struct rb_credit_qp q[];
};

struct rb_run {
	/*
	 * The hot block, first: what the loops read or write every message
	 * (a post, a reap, the heartbeat's count, the clock's look), in the
	 * run's first two cache lines; the point's axes follow, then the
	 * connection, whose hot fields lead it (engine/conn.h).  A feature's
	 * state is a block of its own further down.  The layout:
	 * gdb -batch -ex 'ptype /o struct rb_run' build/src/engine/run.o
	 */
	struct rb_sq *sq;	/* c.nqp entries */
	struct ibv_send_wr *wr; /* WR templates, built once per point */
	const struct rb_params *p;
	const struct rb_bench *bench;
	struct ibv_cq *cq; /* the CQ the next poll takes: c.cq, or c.cqs[cpq.next] */
	/* Receives rb_reap() is not told what to do with: NULL reposts them. */
	int (*on_recv)(struct rb_run *r, uint32_t qi);
	uint64_t ops;	     /* measured operations */
	uint64_t total;	     /* all operations incl. warmup */
	uint64_t next_clock; /* iteration at which to look at the clock */
	uint64_t rx_count;   /* receives seen (ping-pong, -b) */
	uint64_t rx_full;    /* up to this rx_count a receive is reposted as if more were to come */
	/* Heartbeats: the client tells the server it is alive (rb_heartbeat()). */
	struct {
		uint32_t posts; /* client: chains posted since the last clock look */
		uint32_t every; /* chains between clock looks (rb_wrs_prepare) */
		uint64_t next;	/* ticks: when the next heartbeat is due */
		uint64_t heard; /* server: when the client was last heard, ns */
	} hb;
	uint32_t nwr;
	uint32_t wr_stride;    /* templates between QPs: nwr with --mr-per-qp, else 0 */
	unsigned int wr_flags; /* IBV_SEND_INLINE or 0 */
	uint32_t recv_batch;   /* receives reposted in one chain */
	enum rb_role role;
	bool bidir; /* -b: this side streams too, whatever its role */
	/* --srq, --wr-lat or --cq-per-qp: rb_reap() takes rb_reap_srq() (set per point). */
	bool reap_slow;

	/* The point being measured. */
	uint32_t point;
	struct rb_point pt;
	/* Ticks: no idle check before then.  Kept here, not per wait: a
	 * ping-pong waits once a round trip, and a fresh deadline each time
	 * cost two system calls a round trip (poll, clock_gettime). */
	uint64_t idle_next;
	uint64_t k_last; /* servers: ticks of the last receive (the interval's end) */

	/* The connection, as the session built it: the engine's copy
	 * (rb_point_begin()), read only. */
	struct rb_conn c;

	struct ibv_sge *sge;
	/* --cqe-poll above RB_REAP_STACK: where a poll's completions go
	 * (rb_wrs_prepare() sizes it to the plan's largest). */
	struct ibv_wc *wcs;
	/* Per QP, the send WRs completions covered at this point, warmup in
	 * (JSON qp_wrs); apart from sq, whose 16-byte rows the hot path
	 * indexes with a shift. */
	uint64_t *sq_done;
	struct rb_samples lat; /* round trips, in ticks (clock.h); bounded */
	uint64_t t0, t1;       /* measured interval, ns */
	uint64_t k0, k1;       /* the same in ticks, to calibrate them */
	uint64_t cpu0, cpu1;
	bool stopped;			       /* the peer's STOP arrived (server; both with -b) */
	bool stop_sent;			       /* -b: this side's STOP went out from its loop */
	uint64_t stop_count;		       /* the peer's total operations */
	struct ibv_recv_wr rwr[RB_RECV_CHAIN]; /* receive WRs, built on first use */
	struct ibv_sge rsge;
	struct rb_bw_window win;

	/* What the run is given once (rb_run_init()). */
	uint64_t timeout_ns;
	/* Told of each client heartbeat, about once a second (the session's
	 * status line), with iv.ctx; NULL: none.  Off the loops' hot path. */
	void (*on_beat)(void *ctx, const struct rb_run *r);
	struct rb_ctl *ctl; /* the peer, for barriers, heartbeats and STOP */

	/* The features' state, a block each. */
	/* --threads: the run's group, read and written atomically; NULL alone. */
	struct {
		const bool *cancel;    /* another thread failed */
		uint64_t *progress_ns; /* refreshed with each heartbeat */
	} threads;
	/* -Q above the WRs a QP may have in flight (-t; the plan refuses
	 * such a -Q): pt.signal is clamped to them (rb_point_queues()), what
	 * ran; asked, the point's label.  0: pt.signal as asked. */
	struct {
		uint32_t asked;
	} qclamp;
	/* --srq: receives posted on the SRQ. */
	struct {
		uint32_t posted;
	} srq;
	/* --verify, the server's: the first failure of the point's check. */
	struct {
		int status;
	} verify;
	/* --cq-per-qp: a point polls the first n of c.cqs, its own QPs'
	 * (rb_cqs_point()), round robin (rb_next_cq()); n 0 without.  With
	 * --poll event each CQ's state (RB_CQ_*, c.nqp of them; NULL
	 * otherwise), and how many of the point's are RB_CQ_READY. */
	struct {
		uint32_t n, next;
		uint8_t *state;
		uint32_t ready;
	} cpq;
	struct rb_wrlat *wl; /* --wr-lat (engine/wrlat.c); NULL without */
	/* --reg-mode cache (regcache_stream.c): the measured phase's counts. */
	struct {
		bool on;
		uint64_t hits, misses, evictions;
	} rc;
	/* --interval (client only): the slice being measured (its first
	 * latency sample: lat's mark), and the slices ended. */
	struct {
		uint64_t next; /* ticks: the next look at the clock; UINT64_MAX: none */
		uint64_t step; /* ticks between looks */
		uint64_t len;  /* ns per interval */
		uint64_t due;  /* ns: when the slice ends */
		uint64_t k0, t0, ops0;
		struct rb_interval *list;
		size_t n, cap;
		/* Told of each interval as it ends (the session prints it), or NULL. */
		void (*on_end)(void *ctx, const struct rb_run *r, const struct rb_interval *iv);
		void *ctx;
	} iv;
	/*
	 * --poll event: the CQ's completion channel (NULL: busy polling).  An
	 * empty poll arms the CQ, the loop polls again, and only a poll still
	 * empty sleeps on the channel (rb_idle_check()).  Events are acked in
	 * batches of RB_EVENT_ACK_BATCH; those left (unacked) before the CQ goes.
	 * With --cq-per-qp each CQ's state is cpq's.
	 */
	struct {
		struct ibv_comp_channel *chan; /* c.channel at a point that waits on events */
		bool armed;	      /* ibv_req_notify_cq() done, its event not yet taken */
		unsigned int unacked; /* events taken, not yet acked */
		uint64_t events;      /* events taken (wake-ups) over the connection */
		uint64_t ev0, ev1;    /* events at the measured interval's start and end */
	} ev;
	/* --rate (client, streaming loops): on, the pace of the posts, on
	 * CLOCK_MONOTONIC_RAW: read only while pacing, never calibrated. */
	struct {
		bool on;
		struct rb_pace pace;
	} rate;
	/* Send credits (plan's credits; NULL without): the loops that honour
	 * them are chosen once a point (stream.c), never tested per message. */
	struct rb_credit *cr;
};

/* The MR (and buffer) QP @qi uses: its own with --mr-per-qp, else the one. */
static inline uint32_t rb_mri(const struct rb_run *r, uint32_t qi)
{
	return r->c.nmr > 1 ? qi : 0;
}

/* QP @qi's regions: what arrives, and what it sends. */
static inline uint8_t *rb_rx_of(struct rb_run *r, uint32_t qi)
{
	return r->c.buf + (size_t)rb_mri(r, qi) * 2 * r->c.region;
}

static inline uint8_t *rb_tx_of(struct rb_run *r, uint32_t qi)
{
	return rb_rx_of(r, qi) + r->c.region;
}

/* Where a message to this side lands (a UD receive's payload follows the GRH). */
static inline uint8_t *rb_rx(struct rb_run *r)
{
	return rb_rx_of(r, 0) + r->c.rx_off;
}

static inline uint8_t *rb_tx(struct rb_run *r)
{
	return rb_tx_of(r, 0);
}

/* Where receives for QP @qi land: the SRQ's receives all use MR 0. */
static inline uint8_t *rb_recv_buf(struct rb_run *r, uint32_t qi)
{
	return rb_rx_of(r, r->c.srq ? 0 : qi);
}

/* The peer's memory behind its QP @qi (rx region; + region: its tx). */
static inline uint64_t rb_remote_addr(const struct rb_run *r, uint32_t qi)
{
	return r->c.remote.nmr > 1 ? r->c.remote.mr[qi].addr : r->c.remote.addr;
}

static inline uint32_t rb_remote_rkey(const struct rb_run *r, uint32_t qi)
{
	return r->c.remote.nmr > 1 ? r->c.remote.mr[qi].rkey : r->c.remote.rkey;
}

/*
 * rb_buffers_used() - how many buffers @count WRs of a stream reached:
 * chains go round-robin from QP 0, pt.batch WRs each, so with
 * --mr-per-qp the QPs that carried one; else the one buffer (0 for no
 * WR).  What --verify checks after a stream, from buffer 0 on.
 */
uint32_t rb_buffers_used(const struct rb_run *r, uint64_t count);

/* The byte at @off of every message of point @point (--verify). */
static inline uint8_t rb_pattern(uint32_t point, uint64_t off)
{
	return (uint8_t)(off * 31 + point * 7 + 1);
}

/*
 * rb_verify_bytes() - check @len bytes at @p against the pattern of the
 * current point; a mismatch is logged naming size, offset and iteration.
 * Returns 0 or -EILSEQ.
 */
int rb_verify_bytes(struct rb_run *r, const uint8_t *p, uint64_t len, uint64_t it);

/*
 * rb_fill_pattern() - write the point's pattern into @len bytes at @p
 * (copied in with --use-cuda).  0 or -errno, logged.
 */
int rb_fill_pattern(struct rb_run *r, uint8_t *p, uint64_t len);

/* rb_buf_zero() - @len bytes at @p of the buffers to 0, in GPU memory too. */
int rb_buf_zero(struct rb_run *r, uint8_t *p, uint64_t len);

/* rb_buf_read() - @len bytes at @p of the buffers into @dst, from GPU memory too. */
int rb_buf_read(struct rb_run *r, void *dst, const uint8_t *p, uint64_t len);

/*
 * rb_post_recv() - one receive of a whole region (GRH space included) for
 * QP @qi: on its receive queue, or on the SRQ (--srq).
 */
int rb_post_recv(struct rb_run *r, uint32_t qi);

/* rb_fill_recv_queues() - top every QP's receive queue (or the SRQ) up to rx_depth. */
int rb_fill_recv_queues(struct rb_run *r);

int rb_refill_recv_post(struct rb_run *r, uint32_t qi, uint32_t want);

/*
 * rb_refill_recv() - after a receive on QP @qi: repost, in a chain once
 * recv_batch receives are missing, and no more than the @left messages
 * still to come need (UINT64_MAX: unknown); with fewer to come than the
 * queue holds, at once (a receive short then would leave a message
 * without one).  Inline: most calls post nothing.
 */
static inline int rb_refill_recv(struct rb_run *r, uint32_t qi, uint64_t left)
{
	uint32_t posted;

	if (__builtin_expect(r->c.srq != NULL, 0))
		posted = r->srq.posted;
	else
		posted = r->sq[qi].posted_recv;
	if (left >= r->c.rx_depth)
		return r->c.rx_depth - posted < r->recv_batch
			       ? 0
			       : rb_refill_recv_post(r, qi, r->c.rx_depth);
	return posted >= left ? 0 : rb_refill_recv_post(r, qi, (uint32_t)left);
}

/*
 * rb_iv_finish() - after the point's end (t1, k1, ops set): the last
 * slice, however short, when it holds operations.  Idempotent.
 */
int rb_iv_finish(struct rb_run *r);

/*
 * rb_run_cut() - a client loop that returned early (-EINTR): end the
 * measured interval where it stopped, with the operations whose
 * completions arrived, so that what was measured can be reported.
 * Returns whether anything was measured.
 */
bool rb_run_cut(struct rb_run *r);

void rb_wrs_free(struct rb_run *r);

/* rb_rx_plan() - at a point's start: no receive seen, and r->rx_full. */
void rb_rx_plan(struct rb_run *r);

/*
 * rb_wrs_prepare() - build the WR templates of the current point (sge,
 * inline, the verb's fields, and the signals of a chain of QP 0 that
 * begins a group: every pt.signal-th WR), up to the plan's largest batch,
 * so that the common chain is posted as it is.  Returns 0 or -ENOMEM.
 */
int rb_wrs_prepare(struct rb_run *r);

/*
 * rb_point_queues() - the send queues at the start of point r->pt: each
 * QP's depth (-t, reads and atomics too: the HCA holds them to rd_atom),
 * none used or completed yet, and which reap r's layout needs
 * (reap_slow: an SRQ, --wr-lat or more than one CQ; the session calls it
 * after r->c.srq, r->wl and r->cpq.n are set).  A -Q above that depth would
 * only signal where the queue fills: pt.signal is clamped to it, and
 * r->qclamp.asked keeps the -Q (the point's label; 0 when not clamped).
 * True when clamped.
 */
bool rb_point_queues(struct rb_run *r);

/*
 * rb_heartbeat() - the client tells the server, about once a second, that
 * it is alive: a server that only lends its memory (write, read, atomic)
 * sees nothing else of it during a point.  Cheap enough for every chain.
 */
int rb_heartbeat_send(struct rb_run *r);

static inline int rb_heartbeat(struct rb_run *r)
{
	if (++r->hb.posts < r->hb.every)
		return 0;
	r->hb.posts = 0;
	/* With -b the server streams too: the waiting client hears it. */
	return r->role == RB_ROLE_CLIENT || r->bidir ? rb_heartbeat_send(r) : 0;
}

/*
 * rb_post_chain() - post @n WRs from the templates (r->bench->iter_wr adjusts
 * each for its iteration) on QP @qi as one chain.  Every pt.signal-th WR is signaled; so is the last of the
 * chain when @force or when the queue could otherwise fill with WRs no
 * completion will ever cover.  Returns 0 or -errno (logged).
 */
int rb_post_chain(struct rb_run *r, uint32_t qi, uint32_t n, uint64_t it0, bool force);

/* rb_wc_error() - log error completion @wc: the verb, status, likely cause; -EIO. */
int rb_wc_error(struct rb_run *r, const struct ibv_wc *wc);

/*
 * rb_srq_recv_qi() - which QP a receive of the SRQ came to (any QP may
 * consume one): the completion's qp_num says.  Its index, or -EPROTO
 * (logged).
 */
int rb_srq_recv_qi(struct rb_run *r, const struct ibv_wc *wc);

/*
 * The immediate every message of point @point carries (--send-with-imm,
 * --write-with-imm): "RB" and the point, so that one of another point,
 * or one the wire changed, is seen.  One for all QPs: they may share
 * their WR templates.
 */
#define RB_IMM(point) (0x52420000u | ((point)&0xffffu))

/*
 * rb_imm_check() - with immediates, receive completion @wc must carry
 * RB_IMM(r->point): 0, or -EPROTO (logged, naming the QP and the message)
 * for one without an immediate or with another.
 */
int rb_imm_check(struct rb_run *r, const struct ibv_wc *wc);

/*
 * rb_reap() - poll the CQ once (up to the point's --cqe-poll entries).
 * Send completions free send-queue room and add to *@done the WRs they
 * cover, and to the QP's r->sq_done[] (qp_wrs); @done NULL (a constant
 * where this inlines: a ping-pong's wait, whose point reports no qp_wrs,
 * a stream's figure) keeps neither count, 2 instructions a completion
 * less on the latency path.  Each receive (its QP found by
 * rb_srq_recv_qi() with --srq) is passed to @on_recv (NULL: to
 * r->on_recv, or reposted when that is NULL).  An error completion is
 * logged with ibv_wc_status_str() and the QP, and returns
 * -EIO.  With --send-with-imm each receive's immediate is checked
 * (rb_imm_check()), unless @plain: the caller's point runs without
 * --send-with-imm, known before it started, and the hot loop is spared
 * the test.  Returns the number of completions seen.  Inline: each wait
 * gets its own, with its @on_recv called directly.
 */
static inline __attribute__((always_inline)) int
rb_reap_wcs_as(struct rb_run *r, struct ibv_wc *wc, int n, uint64_t *done,
	       int (*on_recv)(struct rb_run *, uint32_t qi), bool srq, bool plain, bool checked)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		uint32_t qi = (uint32_t)(wc[i].wr_id >> 32), covered = (uint32_t)wc[i].wr_id;

		if (checked && wc[i].status != IBV_WC_SUCCESS)
			return rb_wc_error(r, &wc[i]);
		if (wc[i].wr_id & RB_WRID_RECV) {
			if (!srq) {
				qi = (uint32_t)wc[i].wr_id;
				r->sq[qi].posted_recv--;
			} else if ((ret = rb_srq_recv_qi(r, &wc[i])) < 0) {
				return ret;
			} else {
				qi = (uint32_t)ret;
			}
			if (!plain && __builtin_expect(r->p->imm, 0) &&
			    (ret = rb_imm_check(r, &wc[i])))
				return ret;
			ret = on_recv ? on_recv(r, qi) : rb_post_recv(r, qi);
			if (ret)
				return ret;
			continue;
		}
		r->sq[qi].used -= covered;
		if (done) {
			r->sq_done[qi] += covered;
			*done += covered;
		}
	}
	return n;
}

static inline __attribute__((always_inline)) int
rb_reap_wcs(struct rb_run *r, struct ibv_wc *wc, int n, uint64_t *done,
	    int (*on_recv)(struct rb_run *, uint32_t qi), bool srq, bool plain)
{
	return rb_reap_wcs_as(r, wc, n, done, on_recv, srq, plain, true);
}

/*
 * rb_cqs_point() - --cq-per-qp, at a point's start (r->pt set): the point
 * polls and arms only its own QPs' CQs, the first pt.qps; a sweep's point
 * with fewer QPs leaves the others alone.  Nothing without --cq-per-qp.
 */
void rb_cqs_point(struct rb_run *r);

/*
 * rb_cqmod_point() - --cq-moderation (issue 40), at a point's start (r->pt
 * set): every CQ of the connection moderated to the point's cq_mod
 * (engine/cqmod_point.c); 0 when the plan has none, or rb_cq_moderate()'s
 * error (-EOPNOTSUPP: the provider has none, logged naming the device).
 */
int rb_cqmod_point(struct rb_run *r);

/* rb_poll_failed() - ibv_poll_cq() failed: logged; -EIO. */
int rb_poll_failed(struct rb_run *r);

/*
 * rb_poll_ids() - one poll of @cq for up to @max completions' wr_id and
 * status (a failed one's vendor_err and qp_num too), through the API the
 * connection's CQs were made for (--cq-api, JSON device.cq_api): the
 * hand-made loops' (lock, --reg-mode per-msg and cache).
 */
static inline int rb_poll_ids(const struct rb_run *r, struct ibv_cq *cq, int max, struct ibv_wc *wc)
{
	return r->c.cq_ex ? rb_cqx_poll(cq, max, wc, r->c.cq_ex) : ibv_poll_cq(cq, max, wc);
}

/* Completions one poll takes into the stack; --cqe-poll above: r->wcs. */
#define RB_REAP_STACK 32

/*
 * One poll of up to @max (1 to RB_REAP_STACK) completions; @srq is a
 * constant where this inlines, @max mostly one too.  A wait that knows
 * how many completions can be due asks for no more: rxe's poll looks at
 * one more slot of the queue when it finds fewer than it was asked for.
 */
/*
 * --cq-per-qp: each poll takes the next QP's CQ.  On the slow path only
 * (rb_reap_srq(): reap_slow); the latency loops poll QP 0's CQ, r->cq.
 */
static inline void rb_next_cq(struct rb_run *r)
{
	if (__builtin_expect(!r->cpq.n, 1))
		return;
	r->cq = r->c.cqs[r->cpq.next];
	if (++r->cpq.next == r->cpq.n)
		r->cpq.next = 0;
}

/* How a reap polls: the connection's CQ kind tested per poll, or known
 * (RB_POLL_EX: the extended CQ in batches, RB_CQX_BATCH). */
enum rb_poll_api { RB_POLL_ANY, RB_POLL_CLASSIC, RB_POLL_EX };

/*
 * The batched extended CQ's poll (rb_cqx_poll_ok()): the reap tests no
 * status; one that failed ends the poll, reaped after those before it.
 */
static inline __attribute__((always_inline)) int
rb_reap_cqx_ok(struct rb_run *r, struct ibv_wc *wc, int max, uint64_t *done,
	       int (*on_recv)(struct rb_run *, uint32_t qi), bool srq, bool plain)
{
	int n = rb_cqx_poll_ok(r->cq, max, wc), ret;

	if (__builtin_expect(n < 0, 0))
		return rb_poll_failed(r);
	if (__builtin_expect(!(n & RB_CQX_FAILED), 1))
		return rb_reap_wcs_as(r, wc, n, done, on_recv, srq, plain, false);
	n &= ~RB_CQX_FAILED;
	ret = rb_reap_wcs_as(r, wc, n, done, on_recv, srq, plain, false);
	return ret < 0 ? ret : rb_wc_error(r, &wc[n]);
}

/*
 * rb_reap_poll_as() - one poll of the CQ and the reap of what it found.
 * @api RB_POLL_ANY tests the connection's --cq-api per poll (a branch a
 * poll, none a completion); a loop that spins on empty polls (the
 * ping-pong's wait) picks RB_POLL_CLASSIC or RB_POLL_EX once per point
 * and has no test at all.  Immediates need the full read (a cold call).
 */
static inline __attribute__((always_inline)) int
rb_reap_poll_as(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi),
		bool srq, bool plain, int max, enum rb_poll_api api)
{
	struct ibv_wc wc[RB_REAP_STACK];
	int n;

	if (!on_recv)
		on_recv = r->on_recv;
	if (api == RB_POLL_CLASSIC || (api == RB_POLL_ANY && !r->c.cq_ex))
		n = ibv_poll_cq(r->cq, max, wc);
	else if (!plain && __builtin_expect(r->p->imm, 0))
		n = rb_cqx_poll_full(r->cq, max, wc, r->c.cq_ex);
	else if (api == RB_POLL_ANY && __builtin_expect(r->c.cq_ex == RB_CQX_ONE, 0))
		n = rb_cqx_poll_one(r->cq, max, wc, false);
	else
		return rb_reap_cqx_ok(r, wc, max, done, on_recv, srq, plain);
	if (n < 0)
		return rb_poll_failed(r);
	return rb_reap_wcs(r, wc, n, done, on_recv, srq, plain);
}

static inline __attribute__((always_inline)) int
rb_reap_poll(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi),
	     bool srq, bool plain, int max)
{
	return rb_reap_poll_as(r, done, on_recv, srq, plain, max, RB_POLL_ANY);
}

/*
 * rb_reap() with --srq or --wr-lat, or with --cqe-poll above
 * RB_REAP_STACK (into r->wcs): out of line, the common case does without.
 */
int rb_reap_srq(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi));

/* The point's --cqe-poll, for a poll that takes it into the stack. */
static inline int rb_cqe_poll(const struct rb_run *r)
{
	return r->pt.cqe_poll < RB_REAP_STACK ? (int)r->pt.cqe_poll : RB_REAP_STACK;
}

static inline __attribute__((always_inline)) int
rb_reap(struct rb_run *r, uint64_t *done, int (*on_recv)(struct rb_run *, uint32_t qi))
{
	if (__builtin_expect(r->reap_slow || r->pt.cqe_poll > RB_REAP_STACK, 0))
		return rb_reap_srq(r, done, on_recv);
	return rb_reap_poll(r, done, on_recv, false, false, (int)r->pt.cqe_poll);
}

/*
 * --cq-per-qp with --poll event: the CQs share the one channel.  A CQ is
 * IDLE (not armed, or its event taken), ARMED (armed, not polled since),
 * or READY (armed, and a poll since found it empty: any completion now
 * raises an event).  The loop sleeps only when every CQ is READY.
 */
enum { RB_CQ_IDLE, RB_CQ_ARMED, RB_CQ_READY };

/* --poll event: events taken between acks (ibv_ack_cq_events()). */
#define RB_EVENT_ACK_BATCH 64
/* --poll event: the longest sleep on the channel, ms (^C, --timeout, heartbeats). */
#define RB_EVENT_SLICE_MS 10

/*
 * Busy loops call rb_idle_check() on every empty poll and rb_idle_reset()
 * on progress; the clock is read only every so many empty polls, never on
 * the fast path.  It returns -EINTR on ^C, -ETIMEDOUT (logged, naming
 * @what) after the timeout without progress, and polls the control
 * channel: the server for the client's STOP, the client for the server's
 * ERROR (and with -b, its heartbeats and STOP).
 */
struct rb_idle {
	unsigned int spins;
	uint64_t since;
};

/* --threads: another thread failed; always false for a single session. */
static inline bool rb_run_canceled(const struct rb_run *r)
{
	return r->threads.cancel && __atomic_load_n(r->threads.cancel, __ATOMIC_RELAXED);
}

static inline void rb_idle_reset(struct rb_idle *s)
{
	s->spins = 0;
	s->since = 0;
}

/*
 * With --poll event (r->ev.chan), rb_idle_check() waits instead: not armed,
 * it arms the CQ and returns 0, so that the caller polls again (a
 * completion that landed before the arm raises no event: the poll finds
 * it); armed, it sleeps on the channel's fd for RB_EVENT_SLICE_MS at
 * most, takes the event if one came (r->ev.events; acks batched), and
 * returns 0 for the caller to poll, after the same checks as above.
 */
int rb_idle_check(struct rb_run *r, struct rb_idle *s, const char *what);

/* rb_events_ack() - ack every event taken and not yet acked (before the CQ is destroyed). */
void rb_events_ack(struct rb_run *r);

/*
 * rb_poll_step() - one rb_reap() with the idle bookkeeping: the building
 * block of every wait.  Returns completions seen (>= 0) or -errno.
 */
int rb_poll_step(struct rb_run *r, struct rb_idle *idle, uint64_t *done,
		 int (*on_recv)(struct rb_run *, uint32_t qi), const char *what);

int rb_wait_room_poll(struct rb_run *r, uint32_t qi, uint32_t k, uint64_t *done);

/*
 * rb_wait_room() - reap until QP @qi has room for @k more WRs.  Inline:
 * the common case, room already there, is a compare on every post.
 */
static inline int rb_wait_room(struct rb_run *r, uint32_t qi, uint32_t k, uint64_t *done)
{
	if (r->sq[qi].depth - r->sq[qi].used >= k)
		return 0;
	return rb_wait_room_poll(r, qi, k, done);
}

/*
 * Shared loops (one file per shape: pingpong.c, oneshot.c, stream.c).
 * Each returns 0 or -errno, logged.  A ping-pong's @wait for message @it
 * returns 0, -errno, or RB_WAIT_STOPPED: the client has stopped, this
 * side's part of the point is over.
 */
enum { RB_WAIT_STOPPED = 1 };
int rb_run_pingpong(struct rb_run *r, int (*wait)(struct rb_run *, uint64_t it));

/*
 * rb_run_pingpong_recv() - a ping-pong of SENDs: each side waits for the
 * peer's message as a receive completion (send_lat).  Its wait is inline
 * in the client's loop: one call less and its set-up once a point, not
 * once a message.
 */
int rb_run_pingpong_recv(struct rb_run *r);

/*
 * rb_pp_recv() - a SEND from the peer received on QP @qi (ping-pong, -b):
 * --verify, count it in r->rx_count, top the receive queue up.
 */
int rb_pp_recv(struct rb_run *r, uint32_t qi);

int rb_run_oneshot(struct rb_run *r, int (*check)(struct rb_run *, uint64_t it));
int rb_run_stream(struct rb_run *r);
/*
 * --wr-lat (wrlat.c): rb_wrlat_open() makes the per-QP records when the
 * plan asks (0 or -ENOMEM), rb_wrlat_close() frees them; a stream phase
 * starts with rb_wrlat_phase() (samples only when @measure), posts with
 * rb_wrlat_post() (rb_post_chain() and the chain's tick); rb_reap_srq()
 * gives rb_wrlat_stamp() the @n completions it reaped (returns @n or
 * -errno); rb_wrlat_result() summarizes the point's samples.
 */
struct rb_wrlat;
int rb_wrlat_open(struct rb_run *r);
void rb_wrlat_close(struct rb_run *r);
void rb_wrlat_phase(struct rb_run *r, bool measure);
int rb_wrlat_post(struct rb_run *r, uint32_t qi, uint32_t n, uint64_t it0, bool force);
int rb_wrlat_stamp(struct rb_run *r, const struct ibv_wc *wc, int n);
int rb_wrlat_result(struct rb_run *r, struct rb_result *res);

/*
 * Send credits (credit.c): rb_credit_open() makes the per-QP counts once a
 * connection when the plan asks (0 or -ENOMEM), rb_credit_close() frees
 * them.  The receiver: rb_credit_start() announces each of the point's
 * QPs' receives posted (its loop's start), rb_credit_received() counts a
 * receive on QP @qi (reposted already) and announces every so many,
 * rb_credit_flush() the announces that waited for send-queue room.  The
 * sender: rb_credit_avail() below.  Each returns 0 or -errno, logged.
 */
int rb_credit_open(struct rb_run *r);
void rb_credit_close(struct rb_run *r);
int rb_credit_start(struct rb_run *r);
int rb_credit_received(struct rb_run *r, uint32_t qi);
int rb_credit_flush(struct rb_run *r);

/* The SENDs QP @qi may post now: the peer's last count, less those sent. */
static inline uint64_t rb_credit_avail(const struct rb_run *r, uint32_t qi)
{
	const uint64_t *w = (const uint64_t *)(rb_rx_of((struct rb_run *)r, qi) + r->cr->off) + qi;

	/* The NIC writes it: read it anew each time, and what follows after. */
	return __atomic_load_n(w, __ATOMIC_ACQUIRE) - r->cr->q[qi].sent;
}

/* rb_run_stream_per_msg() - rb_run_stream() of --reg-mode per-msg (regmsg.c). */
int rb_run_stream_per_msg(struct rb_run *r);
/* rb_run_stream_cache() - rb_run_stream() of --reg-mode cache (regcache_stream.c). */
int rb_run_stream_cache(struct rb_run *r);
/* rb_rcache_result() - --reg-mode cache's figures over the measured @ns, into @res. */
void rb_rcache_result(const struct rb_run *r, struct rb_result *res, uint64_t ns);
int rb_run_server_wait(struct rb_run *r);
int rb_run_server_recv(struct rb_run *r);

/*
 * rb_run_bidir() - -b, on both sides alike: stream this side's -n (or -D
 * by its own clock) while the peer streams to it, send STOP with this
 * side's count, then wait for the peer's STOP, and with @on_recv (the
 * peer SENDs; it counts r->rx_count and reposts) for every message the
 * peer counted.  Every wait is bounded by the timeout.
 */
int rb_run_bidir(struct rb_run *r, int (*on_recv)(struct rb_run *, uint32_t qi));

/*
 * Socket tests (sock.c), over r->c.data_fd: rb_run_tcp_pingpong(), round
 * trips of -s bytes each way timed by the client, echoed by the server;
 * rb_run_tcp_stream(), the client sends -s byte messages until -n or -D
 * and the peer acknowledged them all, the server counts what arrived.
 */
int rb_run_tcp_pingpong(struct rb_run *r);
int rb_run_tcp_stream(struct rb_run *r);

/* rb_result_generic() - result of the point from samples and counters. */
int rb_result_generic(struct rb_run *r, struct rb_result *res);

bool rb_duration_over(struct rb_run *r, uint64_t it);

/*
 * rb_point_ended() - whether the client's loop is over after @it
 * iterations: -n counted, or -D elapsed (the clock is read every 64).
 * Inline: it is asked once per iteration.
 */
static inline bool rb_point_ended(struct rb_run *r, uint64_t it)
{
	if (r->p->iters)
		return it >= r->pt.warmup + r->p->iters;
	return it >= r->pt.warmup && rb_duration_over(r, it);
}

/*
 * Intervals.  The loops call rb_iv_tick() where they read the clock anyway
 * (a completion, a latency sample), with the measured operations so far;
 * without --interval it is one comparison against UINT64_MAX.
 * rb_iv_close() reads the wall clock and, when the slice is due, ends it:
 * its figures (latency percentiles over the slice's samples, stats.c) go
 * to r->iv.list[] and r->iv.on_end.  Returns 0 or -ENOMEM.
 */
int rb_iv_close(struct rb_run *r, uint64_t k, uint64_t ops);

static inline int rb_iv_tick(struct rb_run *r, uint64_t k, uint64_t ops)
{
	return k < r->iv.next ? 0 : rb_iv_close(r, k, ops);
}

/* rb_iv_free() - the point's intervals, when nobody took them. */
void rb_iv_free(struct rb_run *r);

#endif
