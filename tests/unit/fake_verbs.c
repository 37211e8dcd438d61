// SPDX-License-Identifier: MIT
/* The fake verbs provider (fake_verbs.h). */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_cma.h>

#include "fake_verbs.h"
#include "cli/opts.h"
#include "core/sweep.h"
#include "wire/plan.h" /* issue 42: rb_plan_region() */

static struct fake *of_ctx(struct ibv_context *ctx)
{
	return (struct fake *)((char *)ctx - offsetof(struct fake, ctx));
}

struct fake *fake_of_ctx(struct ibv_context *ctx)
{
	return of_ctx(ctx);
}

uint32_t fake_qi(const struct fake *f, const struct ibv_qp *qp)
{
	const struct ibv_qp_ex *x =
		(const struct ibv_qp_ex *)((const char *)qp - offsetof(struct ibv_qp_ex, qp_base));

	assert_true(x >= f->qpx && x < f->qpx + f->nqp);
	return (uint32_t)(x - f->qpx);
}

static void event_write(struct fake *f, struct ibv_cq *cq);

/* The CQ QP @qi completes on: its own (fake_cq_per_qp()), or the one. */
static struct ibv_cq *cq_of(struct fake *f, uint32_t qi)
{
	return f->cq_per_qp && qi < f->nqp ? &f->cqs[qi] : &f->cq;
}

/* A completion's CQ, by its QP. */
static struct ibv_cq *wc_cq(struct fake *f, const struct ibv_wc *wc)
{
	return cq_of(f, wc->qp_num - FAKE_QPN_BASE);
}

/* Whether @cq is armed: each CQ's flag with fake_cq_per_qp(), else f->armed. */
static bool *armed_of(struct fake *f, const struct ibv_cq *cq)
{
	return cq == &f->cq ? &f->armed : &f->cq_armed[cq - f->cqs];
}

static void cq_push(struct fake *f, const struct ibv_wc *wc, uint64_t due, uint32_t covers)
{
	struct fake_cqe *e;

	if (f->cq_n == f->cq_cap) {
		f->cq_cap = f->cq_cap ? 2 * f->cq_cap : 1024;
		f->cqes = realloc(f->cqes, f->cq_cap * sizeof(*f->cqes));
		assert_non_null(f->cqes);
	}
	e = &f->cqes[f->cq_n++];
	e->wc = *wc;
	e->due = due;
	e->covers = covers;
	/* Armed, the loop sleeps: the poll clock stands still, and this
	 * completion lands while it does, raising the event. */
	if (*armed_of(f, wc_cq(f, wc))) {
		if (e->due > f->polls)
			e->due = f->polls;
		event_write(f, wc_cq(f, wc));
	}
}

void fake_push_wc(struct fake *f, const struct ibv_wc *wc)
{
	cq_push(f, wc, f->polls + 1, 0);
}

static enum ibv_wc_opcode wc_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_WC_RDMA_WRITE;
	case IBV_WR_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return IBV_WC_COMP_SWAP;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return IBV_WC_FETCH_ADD;
	default:
		return IBV_WC_SEND;
	}
}

/* What a receive completion says of a message with immediate @imm (bit 32: one came). */
static void wc_imm(struct ibv_wc *wc, uint64_t imm)
{
	if (!(imm >> 32))
		return;
	wc->wc_flags |= IBV_WC_WITH_IMM;
	wc->imm_data = htobe32((uint32_t)imm);
}

static const struct ibv_mr *mr_covering(const struct fake *f, uint32_t key, bool remote,
					uint64_t addr, uint64_t len);

/*
 * A message arrives on QP @qi: it fills the oldest posted receive, whose
 * completion can be polled from poll number @due.  A WRITE with immediate
 * (@data NULL, @write) consumes the receive without filling it.
 */
static bool deliver_imm(struct fake *f, uint32_t qi, const void *data, uint32_t len, uint64_t due,
			uint64_t imm, bool write)
{
	struct fake_recv *rv;
	struct ibv_wc wc = { 0 };

	if (!f->rq_n[qi]) {
		f->rnr++;
		return false;
	}
	rv = &f->rq[qi][f->rq_head[qi]];
	f->rq_head[qi] = (f->rq_head[qi] + 1) % FAKE_RQ_MAX;
	f->rq_n[qi]--;
	/* A receive whose lkey or bounds no MR holds fails when data lands. */
	if (rv->length && !mr_covering(f, rv->lkey, false, rv->addr, rv->length))
		wc.status = IBV_WC_LOC_PROT_ERR;
	if (wc.status != IBV_WC_SUCCESS && !f->access_errors++)
		f->first_access_error = wc.status;
	if (data && wc.status == IBV_WC_SUCCESS)
		memcpy((void *)(uintptr_t)rv->addr, data, len < rv->length ? len : rv->length);
	wc.wr_id = rv->wr_id;
	wc.opcode = write ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
	wc.byte_len = len;
	wc.qp_num = fake_qp(f, qi)->qp_num;
	wc_imm(&wc, imm);
	cq_push(f, &wc, due, 0);
	return true;
}

static bool is_send(enum ibv_wr_opcode op)
{
	return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM;
}

/*
 * issue 42: an atomic carried out on the word at remote_addr, as a NIC's:
 * the old value fetched into the first SGE, the word added to (FADD) or
 * swapped when it equals compare_add (CAS), host order.
 */
static void execute_atomic(const struct ibv_send_wr *wr)
{
	uint64_t *word = (uint64_t *)(uintptr_t)wr->wr.atomic.remote_addr,
		 old = wr->wr.atomic.compare_add;

	/* Atomic in memory too: processes sharing it contend (test_lockhosts). */
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
		old = __atomic_fetch_add(word, wr->wr.atomic.compare_add, __ATOMIC_SEQ_CST);
	else
		__atomic_compare_exchange_n(word, &old, wr->wr.atomic.swap, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	if (wr->num_sge)
		memcpy((void *)(uintptr_t)wr->sg_list[0].addr, &old, sizeof(old));
}

/* Loopback: carry out @wr as the QP's peer (itself) would see it. */
static void execute(struct fake *f, uint32_t qi, const struct ibv_send_wr *wr)
{
	uint8_t *remote = (uint8_t *)(uintptr_t)wr->wr.rdma.remote_addr;
	uint8_t msg[8192];
	uint32_t off = 0;
	uint64_t imm;
	int i;

	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
		execute_atomic(wr);
		return;
	}
	for (i = 0; i < wr->num_sge; i++) {
		void *local = (void *)(uintptr_t)wr->sg_list[i].addr;
		uint32_t len = wr->sg_list[i].length;

		if (wr->opcode == IBV_WR_RDMA_WRITE || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
			memmove(remote + off, local, len);
		else if (wr->opcode == IBV_WR_RDMA_READ)
			memmove(local, remote + off, len);
		else if (is_send(wr->opcode) && off + len <= sizeof(msg))
			memcpy(msg + off, local, len);
		off += len;
	}
	if (!is_send(wr->opcode) && wr->opcode != IBV_WR_RDMA_WRITE_WITH_IMM)
		return;
	imm = wr->opcode == IBV_WR_SEND ? 0 : 1ULL << 32 | be32toh(wr->imm_data);
	if (++f->loop_sends == f->drop_nth)
		f->dropped++;
	else if (wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
		deliver_imm(f, qi, NULL, off, f->polls + 1, imm, true);
	else
		deliver_imm(f, qi, off <= sizeof(msg) ? msg : NULL, off, f->polls + 1, imm, false);
}

static void log_wr(struct fake *f, uint32_t qi, const struct ibv_send_wr *wr, uint32_t len)
{
	struct fake_wr *w;

	if (f->nwrs >= FAKE_LOG_MAX)
		return;
	if (!f->wrs) {
		f->wrs = calloc(FAKE_LOG_MAX, sizeof(*f->wrs));
		assert_non_null(f->wrs);
	}
	w = &f->wrs[f->nwrs];
	w->qi = qi;
	w->chain = f->chains;
	w->wr_id = wr->wr_id;
	w->flags = wr->send_flags;
	w->opcode = wr->opcode;
	w->length = len;
	w->addr = wr->num_sge ? wr->sg_list[0].addr : 0;
	w->lkey = wr->num_sge ? wr->sg_list[0].lkey : 0;
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
		w->remote_addr = wr->wr.atomic.remote_addr;
		w->rkey = wr->wr.atomic.rkey;
	} else if (!is_send(wr->opcode)) {
		w->remote_addr = wr->wr.rdma.remote_addr;
		w->rkey = wr->wr.rdma.rkey;
	}
}

/* What a signaled WR's wr_id must say: the WRs it covers on its QP. */
static void check_wr_id(struct fake *f, uint32_t qi, uint64_t wr_id)
{
	uint64_t want = (uint64_t)qi << 32 | f->since_signal[qi];

	if (wr_id == want)
		return;
	if (!f->wr_id_errors++)
		snprintf(f->first_wr_id_error, sizeof(f->first_wr_id_error),
			 "WR %zu on QP %u: wr_id 0x%llx, want 0x%llx", f->nwrs, qi,
			 (unsigned long long)wr_id, (unsigned long long)want);
}

/*
 * The registered region whose lkey (@remote: rkey) is @key and which
 * holds [@addr, @addr + @len); NULL when none: the MRs fake_run_init()
 * and fake_mr_per_qp() made, and those fake_mr_add() holds.
 */
static const struct ibv_mr *mr_covering(const struct fake *f, uint32_t key, bool remote,
					uint64_t addr, uint64_t len)
{
	const struct ibv_mr *m;
	uint32_t i;

	for (i = 0; i <= FAKE_MAX_QPS + f->nreg; i++) {
		m = !i ? &f->mr : i <= FAKE_MAX_QPS ? &f->mrs[i - 1] : f->reg[i - 1 - FAKE_MAX_QPS];
		if (!m->length || (remote ? m->rkey : m->lkey) != key)
			continue;
		if (addr >= (uintptr_t)m->addr && len <= m->length &&
		    addr - (uintptr_t)m->addr <= m->length - len)
			return m;
	}
	return NULL;
}

void fake_mr_add(struct fake *f, const struct ibv_mr *mr)
{
	assert_true(f->nreg < FAKE_REG_MAX);
	f->reg[f->nreg++] = mr;
}

void fake_mr_del(struct fake *f, const struct ibv_mr *mr)
{
	uint32_t i;

	for (i = 0; i < f->nreg; i++)
		if (f->reg[i] == mr) {
			f->reg[i] = f->reg[--f->nreg];
			return;
		}
	fail_msg("fake_mr_del: an MR the fake does not hold");
}

/* The bytes @wr touches at the peer: RDMA and atomic WRs; 0 for SENDs. */
static uint64_t remote_len(const struct ibv_send_wr *wr, uint32_t len)
{
	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
		return 8;
	return is_send(wr->opcode) ? 0 : len;
}

/*
 * What a NIC says of @wr's keys and bounds: every SGE (inline data
 * aside) inside the MR of its lkey, else IBV_WC_LOC_PROT_ERR; an RDMA
 * or atomic WR's remote range inside the MR of its rkey, else the peer
 * refuses it, IBV_WC_REM_ACCESS_ERR.  Loopback: the peer's MRs are ours.
 */
static enum ibv_wc_status wr_access(struct fake *f, const struct ibv_send_wr *wr, uint32_t len)
{
	uint64_t raddr = wr->wr.rdma.remote_addr, rlen = remote_len(wr, len);
	uint32_t rkey = wr->wr.rdma.rkey;
	int i;

	if (wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP) {
		raddr = wr->wr.atomic.remote_addr;
		rkey = wr->wr.atomic.rkey;
	}
	for (i = 0; !(wr->send_flags & IBV_SEND_INLINE) && i < wr->num_sge; i++)
		if (!mr_covering(f, wr->sg_list[i].lkey, false, wr->sg_list[i].addr,
				 wr->sg_list[i].length))
			return IBV_WC_LOC_PROT_ERR;
	if (rlen && !mr_covering(f, rkey, true, raddr, rlen))
		return IBV_WC_REM_ACCESS_ERR;
	return IBV_WC_SUCCESS;
}

/*
 * Record @wr and, when signaled, queue the completion that retires it.
 * A WR the keys or bounds refuse is not carried out; its error
 * completion comes, signaled or not, as a NIC's does.
 */
static void accept_wr(struct fake *f, uint32_t qi, const struct ibv_send_wr *wr)
{
	enum ibv_wc_status access;
	struct ibv_wc wc = { 0 };
	uint32_t len = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	log_wr(f, qi, wr, len);
	if (++f->in_flight[qi] > f->max_in_flight[qi])
		f->max_in_flight[qi] = f->in_flight[qi];
	f->since_signal[qi]++;
	access = wr_access(f, wr, len);
	if (access != IBV_WC_SUCCESS && !f->access_errors++)
		f->first_access_error = access;
	if (f->no_rnr && f->loopback && access == IBV_WC_SUCCESS && is_send(wr->opcode) &&
	    !f->rq_n[qi] && ++f->no_recv)
		access = IBV_WC_LOC_QP_OP_ERR;
	if (f->loopback && access == IBV_WC_SUCCESS)
		execute(f, qi, wr);
	if (access != IBV_WC_SUCCESS) {
		wc = (struct ibv_wc){ .wr_id = wr->wr_id,
				      .status = access,
				      .opcode = wc_opcode(wr->opcode),
				      .qp_num = fake_qp(f, qi)->qp_num };
		cq_push(f, &wc, f->polls + 1, 0);
		f->since_signal[qi] = 0;
		f->nwrs++;
		return;
	}
	if (!(wr->send_flags & IBV_SEND_SIGNALED)) {
		if (f->since_signal[qi] > f->max_unsig_run[qi])
			f->max_unsig_run[qi] = f->since_signal[qi];
		f->nwrs++;
		return;
	}
	check_wr_id(f, qi, wr->wr_id);
	f->signaled++;
	f->covered += f->since_signal[qi];
	wc.wr_id = wr->wr_id;
	wc.status = f->signaled == f->fail_nth ? f->fail_status : IBV_WC_SUCCESS;
	wc.opcode = wc_opcode(wr->opcode);
	wc.byte_len = len;
	wc.qp_num = fake_qp(f, qi)->qp_num;
	if (!f->stuck)
		cq_push(f, &wc,
			f->polls + 1 + f->delay +
				(wr->opcode == IBV_WR_RDMA_WRITE ? f->delay_write : 0),
			f->since_signal[qi]);
	f->since_signal[qi] = 0;
	f->nwrs++;
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct fake *f = of_ctx(qp->context);
	uint32_t qi = fake_qi(f, qp), n = 0;
	const struct ibv_send_wr *w;
	int ret;

	for (w = wr; w; w = w->next)
		n++;
	if (f->post_send_ret) {
		ret = f->post_send_ret;
		f->post_send_ret = 0;
		*bad = wr;
		return ret;
	}
	if (f->in_flight[qi] + n > f->sq_cap[qi]) {
		f->overflows++;
		*bad = wr;
		return ENOMEM;
	}
	for (w = wr; w; w = w->next)
		accept_wr(f, qi, w);
	f->chains++;
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct fake *f = of_ctx(qp->context);
	uint32_t qi = fake_qi(f, qp);
	struct fake_recv *rv;

	f->recv_calls++;
	for (; wr; wr = wr->next) {
		if (f->rq_n[qi] == FAKE_RQ_MAX || wr->num_sge != 1) {
			*bad = wr;
			return ENOMEM;
		}
		rv = &f->rq[qi][(f->rq_head[qi] + f->rq_n[qi]) % FAKE_RQ_MAX];
		rv->wr_id = wr->wr_id;
		rv->addr = wr->sg_list[0].addr;
		rv->length = wr->sg_list[0].length;
		rv->lkey = wr->sg_list[0].lkey;
		f->rq_n[qi]++;
		f->recvs_posted++;
	}
	return 0;
}

static int fake_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct fake *f = of_ctx(srq->context);

	for (; wr; wr = wr->next) {
		if (wr->num_sge != 1) {
			*bad = wr;
			return EINVAL;
		}
		f->srq_recvs++;
	}
	return 0;
}

/* A silent peer's SENDs: one per poll, round-robin over the QPs. */
static void peer_send(struct fake *f)
{
	uint32_t k, qi;

	if (!f->peer_sends)
		return;
	for (k = 0; k < f->nqp; k++) {
		qi = f->peer_next_qp++ % f->nqp;
		if (f->rq_n[qi]) {
			deliver_imm(f, qi, NULL, 0, f->polls, f->peer_imm, false);
			f->peer_sends--;
			return;
		}
	}
}

/*
 * Completions come out in the order they became due: a receive that
 * arrived at once passes a send completion still delayed.
 */
static int fake_poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	struct fake *f = of_ctx(cq->context);
	struct fake_cqe *e;
	size_t i, keep = 0;
	uint32_t qi;
	int n = 0;

	f->polls++;
	if (cq != &f->cq)
		f->cq_polls[cq - f->cqs]++;
	if (num > f->poll_max_asked)
		f->poll_max_asked = num;
	peer_send(f);
	for (i = 0; i < f->cq_n; i++) {
		e = &f->cqes[i];
		if (n == num || e->due > f->polls || wc_cq(f, &e->wc) != cq) {
			f->cqes[keep++] = *e;
			continue;
		}
		qi = e->wc.qp_num - FAKE_QPN_BASE;
		/* The WRs a successful send completion covers leave the queue. */
		if (e->covers && e->wc.status == IBV_WC_SUCCESS && qi < f->nqp) {
			f->in_flight[qi] -= e->covers;
			f->retired += e->covers;
			f->retired_qp[qi] += e->covers;
		}
		wc[n++] = e->wc;
	}
	f->cq_n = keep;
	if (n > f->poll_max_got)
		f->poll_max_got = n;
	return n;
}

/* ---- completion events (--poll event) ---- */

/* The event the kernel would queue on the channel: the CQ, as libibverbs reads it. */
static void event_write(struct fake *f, struct ibv_cq *cq)
{
	struct ib_uverbs_comp_event_desc ev = { .cq_handle = (uintptr_t)cq };

	*armed_of(f, cq) = false;
	if (f->notify_lost)
		return;
	assert_int_equal(write(f->chan_wfd, &ev, sizeof(ev)), (ssize_t)sizeof(ev));
	f->events_written++;
}

/*
 * Arm the CQ.  With events the loop sleeps instead of polling, so the
 * fake's clock (its polls) stands still: what is still to come lands
 * now, after the arm (an event), or with land_before_arm just before it
 * (none: a poll after the arm must find it).
 */
static int fake_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct fake *f = of_ctx(cq->context);
	bool landed = false;
	size_t i;

	(void)solicited_only;
	f->arms++;
	for (i = 0; i < f->cq_n; i++)
		if (f->cqes[i].due > f->polls && wc_cq(f, &f->cqes[i].wc) == cq) {
			f->cqes[i].due = f->polls;
			landed = true;
		}
	*armed_of(f, cq) = true;
	if (landed && f->land_before_arm)
		f->races++; /* no event for them; the CQ stays armed */
	else if (landed)
		event_write(f, cq);
	else if (f->peer_sends)
		peer_send(f); /* its cq_push() writes the event */
	return 0;
}

/* The provider's cq_event op, which ibv_get_cq_event() calls. */
static void fake_cq_event(struct ibv_cq *cq)
{
	of_ctx(cq->context)->cq_event_calls++;
}

/* --cq-per-qp with --poll event: each CQ's state, as session_res.c makes it. */
static void cq_events_state(struct rb_run *r)
{
	if (!r->ev.chan || r->cpq.n < 2 || r->cpq.state)
		return;
	r->cpq.state = calloc(r->cpq.n, sizeof(*r->cpq.state));
	assert_non_null(r->cpq.state);
}

void fake_events(struct fake *f, struct rb_run *r)
{
	int fd[2];
	size_t i;

	assert_int_equal(pipe2(fd, O_NONBLOCK | O_CLOEXEC), 0);
	f->chan = calloc(1, sizeof(*f->chan));
	assert_non_null(f->chan);
	f->chan->context = &f->ctx;
	f->chan->fd = fd[0];
	f->chan->refcnt = 1;
	f->chan_wfd = fd[1];
	f->cq.channel = f->chan;
	for (i = 0; i < FAKE_MAX_QPS; i++)
		f->cqs[i].channel = f->chan;
	f->ctx.ops.req_notify_cq = fake_req_notify_cq;
	/* libibverbs finds the provider's ops in its private part of the
	 * context (get_ops()), a layout of its own: every slot of ours is
	 * cq_event, the one op ibv_get_cq_event() calls. */
	for (i = 0; i < sizeof(f->priv_ops) / sizeof(f->priv_ops[0]); i++)
		f->priv_ops[i] = (void (*)(void))fake_cq_event;
	f->vctx.priv = (struct verbs_ex_private *)(void *)f->priv_ops;
	r->ev.chan = f->chan;
	r->c.channel = f->chan;
	cq_events_state(r);
}

void fake_cq_per_qp(struct fake *f, struct rb_run *r)
{
	uint32_t i;

	f->cq_per_qp = true;
	r->c.cqs = calloc(r->c.nqp, sizeof(*r->c.cqs));
	assert_non_null(r->c.cqs);
	r->cpq.n = r->c.nqp;
	for (i = 0; i < r->c.nqp; i++) {
		r->c.cqs[i] = &f->cqs[i];
		fake_qp(f, i)->send_cq = &f->cqs[i];
		fake_qp(f, i)->recv_cq = &f->cqs[i];
	}
	r->cq = r->c.cqs[0];
	r->cpq.next = 0;
	rb_point_queues(r);
	cq_events_state(r);
}

static struct ibv_qp *make_qp(struct fake *f, struct ibv_qp_init_attr_ex *a, bool ex)
{
	struct ibv_qp *qp;
	/* IBV_QPT_DRIVER (0xff, SRD) has no bit: a personality never refuses it. */
	uint32_t bit = a->qp_type < 32 ? 1u << a->qp_type : 0;

	f->creates++;
	if (f->qpt_silent & bit)
		return NULL;
	if (f->qpt_refused & bit) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (f->inline_limit && a->cap.max_inline_data > f->inline_limit) {
		errno = EINVAL;
		return NULL;
	}
	if (f->made >= f->nqp) {
		errno = ENOMEM;
		return NULL;
	}
	f->made_attr = *a;
	f->made_ex[f->made] = ex;
	f->qp_inline[f->made] =
		a->cap.max_inline_data && f->inline_ovh
			? ((a->cap.max_inline_data + f->inline_ovh + 63) & ~63u) - f->inline_ovh
			: a->cap.max_inline_data;
	qp = fake_qp(f, f->made++);
	qp->qp_type = a->qp_type;
	qp->srq = a->srq;
	return qp;
}

static struct ibv_qp *fake_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a)
{
	struct fake *f = of_ctx(ctx);
	bool ex = a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;

	if (ex && f->no_ex) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return make_qp(f, a, ex);
}

struct ibv_qp *fake_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	struct ibv_qp_init_attr_ex ax = { 0 };

	memcpy(&ax, a, sizeof(*a));
	ax.comp_mask = IBV_QP_INIT_ATTR_PD;
	ax.pd = pd;
	return make_qp(of_ctx(pd->context), &ax, false);
}

struct ibv_qp_ex *fake_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct fake *f = of_ctx(qp->context);
	uint32_t qi = fake_qi(f, qp);

	return f->made_ex[qi] ? &f->qpx[qi] : NULL;
}

void fake_persona(struct fake *f, enum fake_persona p, struct fake_view *v)
{
	static const struct fake_view views[] = {
		[FAKE_EFA] = { "rdmap0s31", 0x1d0f, IBV_LINK_LAYER_UNSPECIFIED, 1 },
		[FAKE_BNXT_RE] = { "bnxt_re0", 0x14e4, IBV_LINK_LAYER_ETHERNET, 1 },
		[FAKE_MLX5] = { "mlx5_0", 0x15b3, IBV_LINK_LAYER_INFINIBAND, 1 },
	};

	*v = views[p];
	f->qpt_silent = p == FAKE_BNXT_RE ? 1u << IBV_QPT_UC : 0;
	f->qpt_refused = p == FAKE_EFA ? 1u << IBV_QPT_RC | 1u << IBV_QPT_UC : 0;
	f->inline_limit = p == FAKE_EFA ? 32 : p == FAKE_BNXT_RE ? 96 : 492;
	f->inline_ovh = p == FAKE_MLX5 ? 20 : 0;
}

/* What the QP took (issue 40); only IBV_QP_CAP is answered. */
int __wrap_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
			struct ibv_qp_init_attr *init);
int __wrap_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
			struct ibv_qp_init_attr *init)
{
	struct fake *f = of_ctx(qp->context);

	f->queries++;
	if (mask != IBV_QP_CAP)
		return EINVAL;
	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	attr->cap.max_inline_data = f->qp_inline[fake_qi(f, qp)];
	init->cap = attr->cap;
	return 0;
}

struct fake *fake_new(uint32_t nqp, uint32_t sq_cap)
{
	struct fake *f = calloc(1, sizeof(*f));
	uint32_t i;

	assert_non_null(f);
	assert_true(nqp <= FAKE_MAX_QPS);
	f->nqp = nqp;
	f->ctx.ops.post_send = fake_post_send;
	f->ctx.ops.post_recv = fake_post_recv;
	f->ctx.ops.post_srq_recv = fake_post_srq_recv;
	f->srq.context = &f->ctx;
	f->ctx.ops.poll_cq = fake_poll_cq;
	f->ctx.num_comp_vectors = 1;
	f->cq.context = &f->ctx;
	f->cq.cqe = 4096;
	for (i = 0; i < FAKE_MAX_QPS; i++) {
		f->cqs[i].context = &f->ctx;
		f->cqs[i].cqe = 4096;
	}
	f->mr.context = &f->ctx;
	f->mr.lkey = FAKE_LKEY;
	f->mr.rkey = FAKE_RKEY;
	f->ctx.abi_compat = __VERBS_ABI_IS_EXTENDED;
	f->vctx.sz = sizeof(f->vctx);
	f->vctx.create_qp_ex = fake_create_qp_ex;
	f->pend = calloc(RB_MAX_BATCH, sizeof(*f->pend));
	f->pend_sge = calloc(RB_MAX_BATCH, sizeof(*f->pend_sge));
	assert_non_null(f->pend);
	assert_non_null(f->pend_sge);
	for (i = 0; i < nqp; i++) {
		struct ibv_qp *qp = fake_qp(f, i);

		qp->context = &f->ctx;
		qp->qp_num = FAKE_QPN_BASE + i;
		qp->send_cq = &f->cq;
		qp->recv_cq = &f->cq;
		qp->qp_type = IBV_QPT_RC;
		qp->state = IBV_QPS_RTS;
		fake_qpx_init(&f->qpx[i]);
		f->made_ex[i] = true; /* fake_run_init()'s QPs take either API */
		f->sq_cap[i] = sq_cap;
	}
	return f;
}

void fake_free(struct fake *f)
{
	if (!f)
		return;
	free(f->wrs);
	free(f->cqes);
	free(f->pend);
	free(f->pend_sge);
	if (f->chan) {
		close(f->chan->fd);
		close(f->chan_wfd);
		free(f->chan);
	}
	free(f);
}

struct rb_params fake_plan(const char *test)
{
	const struct rb_bench *t = rb_bench_find(test);
	struct rb_cli c;
	char err[256];

	assert_non_null(t);
	rb_cli_init(&c);
	if (rb_cli_finish(&c, t, rb_bench_scope(t), err, sizeof(err)))
		fail_msg("default plan of %s refused: %s", test, err);
	return c.p;
}

void fake_run_init(struct fake *f, struct rb_run *r, const struct rb_bench *t, enum rb_role role,
		   const struct rb_params *p, struct rb_oob *oob, int oob_fd,
		   unsigned int timeout_ms)
{
	uint64_t size = rb_axis_max(&p->size);
	uint32_t qi;

	memset(r, 0, sizeof(*r));
	memset(oob, 0, sizeof(*oob));
	oob->fd = oob_fd;
	oob->timeout_ms = (int)timeout_ms;
	snprintf(oob->peer, sizeof(oob->peer), "fake-peer:1");
	r->bench = t;
	r->role = role;
	r->p = p;
	rb_ctl_oob_init(&f->ctl, oob, role);
	r->ctl = &f->ctl;
	r->timeout_ns = (uint64_t)timeout_ms * 1000000ULL;
	snprintf(r->c.dev.name, sizeof(r->c.dev.name), "fake0");
	r->c.dev.port = 1;
	r->cq = &f->cq;
	r->c.nqp = (uint32_t)rb_axis_max(&p->qps);
	assert_true(r->c.nqp >= 1 && r->c.nqp <= f->nqp);
	/* Lists long enough for fake_mr_per_qp() too. */
	r->c.nmr = r->c.nqp;
	assert_int_equal(rb_conn_lists_alloc(&r->c), 0);
	/* The engine's own per-QP state, as rb_run_conn() makes it. */
	r->sq = calloc(r->c.nqp, sizeof(*r->sq));
	r->sq_done = calloc(r->c.nqp, sizeof(*r->sq_done));
	assert_true(r->sq && r->sq_done);
	assert_int_equal(rb_conn_alloc(&r->c.remote, r->c.nqp, r->c.nqp), 0);
	r->c.rx_depth = rb_bench_receives(t, p) ? p->rx_depth : 0;
	/* What the QPs took: -I auto gets 220 on the fake's (issue 40). */
	r->c.inline_max = p->inline_size == RB_INLINE_AUTO ? 220 : p->inline_size;
	r->c.rd_atom = (uint8_t)(p->outstanding ? p->outstanding : 16);
	r->c.region = (size_t)(((size < 64 ? 64 : size) + 63) & ~63ULL) + rb_plan_credit_block(p);
	if (t->region) /* issue 42: the lock's words, data and scratch, as the plan says */
		r->c.region = (size_t)rb_plan_region(p);
	r->c.buf = calloc(2, r->c.region);
	assert_non_null(r->c.buf);
	f->mr.addr = r->c.buf;
	f->mr.length = 2 * r->c.region;
	r->c.mr[0] = &f->mr;
	r->c.nmr = 1;
	r->c.remote.addr = (uintptr_t)r->c.buf;
	r->c.remote.rkey = FAKE_RKEY;
	r->c.remote.len = 2 * r->c.region;
	r->c.remote.nmr = 1;
	r->c.path_mtu = IBV_MTU_1024;
	rb_plan_point(p, 0, &r->pt);
	for (qi = 0; qi < r->c.nqp; qi++)
		r->c.qp[qi] = fake_qp(f, qi);
	/* The engine's rule, as rb_point_begin() applies it. */
	rb_point_queues(r);
	r->c.post_send = rb_qp_post_fn(r->c.qp[0], f->wr_api);
	assert_int_equal(rb_wrs_prepare(r), 0);
}

void fake_mr_per_qp(struct fake *f, struct rb_run *r)
{
	uint32_t i;

	free(r->c.buf);
	r->c.nmr = r->c.nqp;
	r->c.buf = calloc(2 * r->c.nmr, r->c.region);
	assert_non_null(r->c.buf);
	r->c.remote.nmr = r->c.nmr;
	for (i = 0; i < r->c.nmr; i++) {
		f->mrs[i] = f->mr;
		f->mrs[i].addr = rb_rx_of(r, i);
		f->mrs[i].length = 2 * r->c.region;
		f->mrs[i].lkey = FAKE_LKEY + i;
		f->mrs[i].rkey = FAKE_RKEY + i;
		r->c.mr[i] = &f->mrs[i];
		r->c.remote.mr[i] = (struct rb_mr_info){ (uintptr_t)rb_rx_of(r, i), FAKE_RKEY + i };
	}
	r->c.remote.addr = r->c.remote.mr[0].addr;
	r->c.remote.rkey = r->c.remote.mr[0].rkey;
	rb_wrs_free(r);
	assert_int_equal(rb_wrs_prepare(r), 0);
}

void fake_run_free(struct rb_run *r)
{
	rb_wrs_free(r);
	rb_samples_free(&r->lat);
	rb_iv_free(r);
	free(r->c.buf);
	r->c.buf = NULL;
	free(r->c.cqs);
	r->c.cqs = NULL;
	free(r->cpq.state);
	r->cpq.state = NULL;
	free(r->sq);
	free(r->sq_done);
	r->sq = NULL;
	r->sq_done = NULL;
	rb_conn_lists_free(&r->c);
}

/* ---- personalities ------------------------------------------------------ */

static const struct fake_xport_persona personas[] = {
	[FAKE_ROCE] = { .name = "rxe0",
			.transport = IBV_TRANSPORT_IB,
			.node_type = IBV_NODE_CA,
			.atomic_cap = IBV_ATOMIC_HCA,
			.connect_event = RDMA_CM_EVENT_CONNECT_RESPONSE,
			.cm_last_state = IBV_QPS_RTS,
			.first_qpn = 0x11 },
	[FAKE_IWARP] = { .name = "siw0",
			 .transport = IBV_TRANSPORT_IWARP,
			 .node_type = IBV_NODE_RNIC,
			 .atomic_cap = IBV_ATOMIC_NONE,
			 .connect_event = RDMA_CM_EVENT_ESTABLISHED,
			 .cm_last_state = IBV_QPS_RTR,
			 .first_qpn = 1 },
};

const struct fake_xport_persona *fake_xport(enum fake_personality p)
{
	return &personas[p];
}

void fake_xport_device(enum fake_personality p, struct ibv_device *d, struct ibv_device_attr *a,
		       struct ibv_port_attr *pa)
{
	const struct fake_xport_persona *x = &personas[p];

	snprintf(d->name, sizeof(d->name), "%s", x->name);
	d->transport_type = x->transport;
	d->node_type = x->node_type;
	a->atomic_cap = x->atomic_cap;
	a->phys_port_cnt = 1;
	a->max_qp_rd_atom = a->max_qp_init_rd_atom = 16;
	pa->state = IBV_PORT_ACTIVE;
	pa->link_layer = IBV_LINK_LAYER_ETHERNET;
	pa->active_mtu = IBV_MTU_1024;
	pa->gid_tbl_len = 4;
}
