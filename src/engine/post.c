// SPDX-License-Identifier: MIT
/*
 * Posting: the data pattern and its check, receive queues and their
 * refills, the WR templates and their signals, chains of WRs and the
 * client's heartbeat.  The hot part of a chain's post is inline in
 * loop.h; what is here runs once a point or off the common path.
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

/* Where @p lies in the GPU buffer. */
static size_t gpu_off(const struct rb_run *r, const uint8_t *p)
{
	return (size_t)(p - r->c.buf);
}

int rb_buf_zero(struct rb_run *r, uint8_t *p, uint64_t len)
{
	if (r->c.gpu)
		return rb_cuda_set(r->c.gpu, gpu_off(r, p), 0, len);
	memset(p, 0, len);
	return 0;
}

int rb_buf_read(struct rb_run *r, void *dst, const uint8_t *p, uint64_t len)
{
	if (r->c.gpu)
		return rb_cuda_get(r->c.gpu, gpu_off(r, p), dst, len);
	memcpy(dst, p, len);
	return 0;
}

int rb_verify_bytes(struct rb_run *r, const uint8_t *p, uint64_t len, uint64_t it)
{
	uint64_t off;

	/* GPU memory is checked in a host copy (len is at most a region). */
	if (r->c.gpu) {
		int ret = rb_buf_read(r, r->c.scratch, p, len);

		if (ret)
			return ret;
		p = r->c.scratch;
	}
	for (off = 0; off < len; off++) {
		if (p[off] == rb_pattern(r->point, off) && !rb_hook_bad_verify)
			continue;
		rb_err("verify: %s size %llu: byte at offset %llu of iteration %llu is 0x%02x, "
		       "expected 0x%02x",
		       r->bench->name, (unsigned long long)r->pt.size, (unsigned long long)off,
		       (unsigned long long)it, p[off], rb_pattern(r->point, off));
		return -EILSEQ;
	}
	return 0;
}

int rb_fill_pattern(struct rb_run *r, uint8_t *p, uint64_t len)
{
	uint8_t *to = r->c.gpu ? r->c.scratch : p;
	uint64_t off;

	for (off = 0; off < len; off++)
		to[off] = rb_pattern(r->point, off);
	return r->c.gpu ? rb_cuda_put(r->c.gpu, gpu_off(r, p), to, len) : 0;
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
	k = r->p->recv_post_list     ? r->p->recv_post_list
	    : r->c.lossy || r->bidir ? 1
				     : r->c.rx_depth / 4;
	r->recv_batch = k < 1 ? 1 : k > RB_RECV_CHAIN ? RB_RECV_CHAIN : k;
	/* The SRQ's receives (and those of one MR) all land in MR 0's rx
	 * region; with --mr-per-qp, post_recvs() points them at the QP's. */
	r->rsge = (struct ibv_sge){ .addr = (uintptr_t)rb_recv_buf(r, 0),
				    .length = (uint32_t)r->c.region,
				    .lkey = r->c.mr[0]->lkey };
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

	if (r->c.srq) {
		ret = ibv_post_srq_recv(r->c.srq, wr, &bad);
		if (ret) {
			rb_err("%s: ibv_post_srq_recv of %u receives: %s", r->c.dev.name, k,
			       strerror(ret));
			return -ret;
		}
		r->srq.posted += k;
		return 0;
	}
	ret = ibv_post_recv(r->c.qp[qi], wr, &bad);
	if (ret) {
		rb_err("%s qp 0x%x: ibv_post_recv of %u receives: %s", r->c.dev.name,
		       r->c.qp[qi]->qp_num, k, strerror(ret));
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
	if (r->c.nmr > 1 && !r->c.srq) {
		r->rsge.addr = (uintptr_t)rb_recv_buf(r, qi);
		r->rsge.lkey = r->c.mr[rb_mri(r, qi)]->lkey;
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
	while (r->c.srq && r->srq.posted < r->c.rx_depth) {
		k = r->c.rx_depth - r->srq.posted;
		ret = post_recvs(r, 0, k < RB_RECV_CHAIN ? k : RB_RECV_CHAIN);
		if (ret)
			return ret;
	}
	for (qi = 0; qi < r->c.nqp && !r->c.srq; qi++)
		while (r->sq[qi].posted_recv < r->c.rx_depth) {
			k = r->c.rx_depth - r->sq[qi].posted_recv;
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

	for (posted = r->c.srq ? r->srq.posted : r->sq[qi].posted_recv; posted < want;
	     posted += k) {
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

	return r->c.nmr > 1 || !qps ? qps : 1;
}

/* The sge and flags every verb shares; prep_wr adds the verb's own. */
static void base_wr(struct rb_run *r, struct ibv_send_wr *wr, struct ibv_sge *sge, uint32_t qi)
{
	sge->addr = (uintptr_t)rb_tx_of(r, qi);
	sge->length = (uint32_t)r->pt.size;
	sge->lkey = r->c.mr[rb_mri(r, qi)]->lkey;
	memset(wr, 0, sizeof(*wr));
	wr->sg_list = sge;
	wr->num_sge = 1;
}

/* UD: the WRs @wr (n of them) go to QP @qi's peer. */
static void ud_dest(struct rb_run *r, uint32_t qi, struct ibv_send_wr *wr, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++) {
		wr[k].wr.ud.ah = r->c.ah[qi];
		wr[k].wr.ud.remote_qpn = r->c.remote.qp[qi].qpn;
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
	uint32_t k, qi, sets = r->c.nmr > 1 ? r->c.nqp : 1;
	struct ibv_send_wr *wr;

	if (!r->wr) {
		r->nwr = (uint32_t)rb_axis_max(&r->p->batch);
		r->wr = calloc((size_t)r->nwr * sets, sizeof(*r->wr));
		r->sge = calloc((size_t)r->nwr * sets, sizeof(*r->sge));
		if (!r->wr || !r->sge)
			return -ENOMEM;
		r->wr_stride = sets > 1 ? r->nwr : 0;
	}
	if (!r->wcs && rb_axis_max(&r->p->cqe_poll) > RB_REAP_STACK) {
		r->wcs = calloc(rb_axis_max(&r->p->cqe_poll), sizeof(*r->wcs));
		if (!r->wcs)
			return -ENOMEM;
	}
	r->wr_flags = r->pt.size <= r->c.inline_max && r->bench->inline_ok ? IBV_SEND_INLINE : 0;
	r->hb.every = hb_every(r);
	for (qi = 0; qi < sets; qi++) {
		wr = r->wr + (size_t)qi * r->nwr;
		for (k = 0; k < r->nwr; k++) {
			base_wr(r, &wr[k], &r->sge[(size_t)qi * r->nwr + k], qi);
			r->bench->prep_wr(r, &wr[k], qi);
			wr[k].next = k + 1 < r->nwr ? &wr[k + 1] : NULL;
			template_signal(wr, k, r->pt.signal, r->wr_flags);
		}
		/* Shared templates go to QP 0's peer; rb_post_chain_signals()
		 * redirects a chain of another QP and puts them back. */
		if (r->c.ud)
			ud_dest(r, qi, wr, r->nwr);
	}
	return 0;
}

void rb_wrs_free(struct rb_run *r)
{
	free(r->wr);
	free(r->sge);
	free(r->wcs);
	r->wr = NULL;
	r->sge = NULL;
	r->wcs = NULL;
}

/* ibv_post_send() of @n WRs on QP @qi said @err: logged; -@err. */
__attribute__((noinline, cold)) int rb_post_failed(struct rb_run *r, uint32_t qi, uint32_t n,
						   int err)
{
	rb_err("%s qp 0x%x: %s of %u WRs: %s", r->c.dev.name, r->c.qp[qi]->qp_num,
	       r->c.post_send == rb_post_send_ex ? "ibv_wr_complete" : "ibv_post_send", n,
	       strerror(err));
	return -err;
}

/*
 * A chain whose signals are not the templates' (another QP, or a group
 * begun by the last chain, or a forced last WR): set them, post, and put
 * the templates' back; only the WRs that signal in either are touched.
 * Out of line: the common chain does without.
 */
__attribute__((noinline)) int rb_post_chain_signals(struct rb_run *r, uint32_t qi, uint32_t n,
						    uint64_t it0, bool force)
{
	void (*iter_wr)(struct rb_run *, struct ibv_send_wr *, uint64_t) = r->bench->iter_wr;
	struct ibv_send_wr *wr = r->wr + (size_t)qi * r->wr_stride;
	struct rb_sq *q = &r->sq[qi];
	bool redirect = r->c.ud && qi && !r->wr_stride;
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

int rb_post_chain(struct rb_run *r, uint32_t qi, uint32_t n, uint64_t it0, bool force)
{
	return post_chain(r, qi, n, it0, force);
}

int rb_heartbeat_send(struct rb_run *r)
{
	uint64_t k = rb_ticks(), period = 1000 * rb_ticks_per_ms();

	if (!rb_ticks_due(k, r->hb.next, period))
		return 0;
	r->hb.next = k + period;
	/* --threads: the threads that wait for this one know it measures. */
	if (r->threads.progress_ns)
		__atomic_store_n(r->threads.progress_ns, rb_now_ns(), __ATOMIC_RELAXED);
	if (r->on_beat)
		r->on_beat(r->iv.ctx, r);
	return r->ctl->ops->alive(r->ctl, r->point);
}

bool rb_point_queues(struct rb_run *r)
{
	uint32_t depth = r->pt.tx_depth, qi;

	/* Reads and atomics too: -t of them stay queued and the HCA keeps
	 * max_rd_atomic (-o) of them on the wire; a queue only rd_atom deep
	 * drained at each signal, a round trip lost every rd_atom WRs (issue 40). */
	r->reap_slow = r->c.srq || r->wl || r->cpq.n > 1;
	for (qi = 0; qi < r->c.nqp; qi++) {
		r->sq[qi].depth = depth;
		r->sq[qi].unsig = 0;
	}
	if (r->sq_done) /* none before the lists (the socket tests have no QPs) */
		memset(r->sq_done, 0, r->c.nqp * sizeof(*r->sq_done));
	r->qclamp.asked = 0;
	if (r->pt.signal <= depth)
		return false;
	r->qclamp.asked = r->pt.signal;
	r->pt.signal = depth;
	return true;
}
