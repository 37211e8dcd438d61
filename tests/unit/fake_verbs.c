// SPDX-License-Identifier: MIT
/* The fake verbs provider (fake_verbs.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "opts.h"
#include "sweep.h"

static struct fake *of_ctx(struct ibv_context *ctx)
{
	return (struct fake *)((char *)ctx - offsetof(struct fake, ctx));
}

uint32_t fake_qi(const struct fake *f, const struct ibv_qp *qp)
{
	assert_true(qp >= f->qp && qp < f->qp + f->nqp);
	return (uint32_t)(qp - f->qp);
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

/*
 * A message arrives on QP @qi: it fills the oldest posted receive, whose
 * completion can be polled from poll number @due.
 */
static bool deliver(struct fake *f, uint32_t qi, const void *data, uint32_t len, uint64_t due)
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
	if (data)
		memcpy((void *)(uintptr_t)rv->addr, data, len < rv->length ? len : rv->length);
	wc.wr_id = rv->wr_id;
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = IBV_WC_RECV;
	wc.byte_len = len;
	wc.qp_num = f->qp[qi].qp_num;
	cq_push(f, &wc, due, 0);
	return true;
}

/* Loopback: carry out @wr as the QP's peer (itself) would see it. */
static void execute(struct fake *f, uint32_t qi, const struct ibv_send_wr *wr)
{
	uint8_t *remote = (uint8_t *)(uintptr_t)wr->wr.rdma.remote_addr;
	uint8_t msg[8192];
	uint32_t off = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		void *local = (void *)(uintptr_t)wr->sg_list[i].addr;
		uint32_t len = wr->sg_list[i].length;

		if (wr->opcode == IBV_WR_RDMA_WRITE)
			memmove(remote + off, local, len);
		else if (wr->opcode == IBV_WR_RDMA_READ)
			memmove(local, remote + off, len);
		else if (wr->opcode == IBV_WR_SEND && off + len <= sizeof(msg))
			memcpy(msg + off, local, len);
		off += len;
	}
	if (wr->opcode != IBV_WR_SEND)
		return;
	if (++f->loop_sends == f->drop_nth)
		f->dropped++;
	else
		deliver(f, qi, off <= sizeof(msg) ? msg : NULL, off, f->polls + 1);
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
	} else if (wr->opcode != IBV_WR_SEND) {
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

/* Record @wr and, when signaled, queue the completion that retires it. */
static void accept_wr(struct fake *f, uint32_t qi, const struct ibv_send_wr *wr)
{
	struct ibv_wc wc = { 0 };
	uint32_t len = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	log_wr(f, qi, wr, len);
	if (++f->in_flight[qi] > f->max_in_flight[qi])
		f->max_in_flight[qi] = f->in_flight[qi];
	f->since_signal[qi]++;
	if (f->loopback)
		execute(f, qi, wr);
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
	wc.qp_num = f->qp[qi].qp_num;
	if (!f->stuck)
		cq_push(f, &wc, f->polls + 1 + f->delay, f->since_signal[qi]);
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
			deliver(f, qi, NULL, 0, f->polls);
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
	peer_send(f);
	for (i = 0; i < f->cq_n; i++) {
		e = &f->cqes[i];
		if (n == num || e->due > f->polls) {
			f->cqes[keep++] = *e;
			continue;
		}
		qi = e->wc.qp_num - FAKE_QPN_BASE;
		/* The WRs a successful send completion covers leave the queue. */
		if (e->covers && e->wc.status == IBV_WC_SUCCESS && qi < f->nqp) {
			f->in_flight[qi] -= e->covers;
			f->retired += e->covers;
		}
		wc[n++] = e->wc;
	}
	f->cq_n = keep;
	return n;
}

struct fake *fake_new(uint32_t nqp, uint32_t sq_cap)
{
	struct fake *f = calloc(1, sizeof(*f));
	uint32_t i;

	assert_non_null(f);
	assert_true(nqp <= RB_MAX_QPS);
	f->nqp = nqp;
	f->ctx.ops.post_send = fake_post_send;
	f->ctx.ops.post_recv = fake_post_recv;
	f->ctx.ops.post_srq_recv = fake_post_srq_recv;
	f->srq.context = &f->ctx;
	f->ctx.ops.poll_cq = fake_poll_cq;
	f->ctx.num_comp_vectors = 1;
	f->cq.context = &f->ctx;
	f->cq.cqe = 4096;
	f->mr.context = &f->ctx;
	f->mr.lkey = FAKE_LKEY;
	f->mr.rkey = FAKE_RKEY;
	for (i = 0; i < nqp; i++) {
		f->qp[i].context = &f->ctx;
		f->qp[i].qp_num = FAKE_QPN_BASE + i;
		f->qp[i].send_cq = &f->cq;
		f->qp[i].recv_cq = &f->cq;
		f->qp[i].qp_type = IBV_QPT_RC;
		f->qp[i].state = IBV_QPS_RTS;
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
	bool reads = t->bounded_by_rd_atom;
	uint64_t size = rb_axis_max(&p->size);
	uint32_t qi;

	memset(r, 0, sizeof(*r));
	memset(oob, 0, sizeof(*oob));
	oob->fd = oob_fd;
	oob->timeout_ms = (int)timeout_ms;
	snprintf(oob->peer, sizeof(oob->peer), "fake-peer:1");
	r->t = t;
	r->role = role;
	r->p = p;
	rb_ctl_oob_init(&f->ctl, oob, role);
	r->ctl = &f->ctl;
	r->timeout_ns = (uint64_t)timeout_ms * 1000000ULL;
	snprintf(r->dev.name, sizeof(r->dev.name), "fake0");
	r->dev.port = 1;
	r->cq = &f->cq;
	r->nqp = (uint32_t)rb_axis_max(&p->qps);
	assert_true(r->nqp >= 1 && r->nqp <= f->nqp);
	r->rx_depth = t->needs_recv ? p->rx_depth : 0;
	r->inline_max = p->inline_size;
	r->rd_atom = (uint8_t)(p->outstanding ? p->outstanding : 16);
	r->mem_node = -1;
	r->region = (size_t)(((size < 64 ? 64 : size) + 63) & ~63ULL);
	r->buf = calloc(2, r->region);
	assert_non_null(r->buf);
	f->mr.addr = r->buf;
	f->mr.length = 2 * r->region;
	r->mr[0] = &f->mr;
	r->nmr = 1;
	r->remote.addr = (uintptr_t)r->buf;
	r->remote.rkey = FAKE_RKEY;
	r->remote.len = 2 * r->region;
	r->remote.nqp = r->nqp;
	r->path_mtu = IBV_MTU_1024;
	rb_plan_point(p, 0, &r->pt);
	for (qi = 0; qi < r->nqp; qi++) {
		r->qp[qi] = &f->qp[qi];
		r->sq[qi].depth = reads && r->rd_atom < r->pt.tx_depth ? r->rd_atom
								       : r->pt.tx_depth;
	}
	assert_int_equal(rb_wrs_prepare(r), 0);
}

void fake_mr_per_qp(struct fake *f, struct rb_run *r)
{
	uint32_t i;

	free(r->buf);
	r->nmr = r->nqp;
	r->buf = calloc(2 * r->nmr, r->region);
	assert_non_null(r->buf);
	r->remote.nmr = r->nmr;
	for (i = 0; i < r->nmr; i++) {
		f->mrs[i] = f->mr;
		f->mrs[i].addr = rb_rx_of(r, i);
		f->mrs[i].length = 2 * r->region;
		f->mrs[i].lkey = FAKE_LKEY + i;
		f->mrs[i].rkey = FAKE_RKEY + i;
		r->mr[i] = &f->mrs[i];
		r->remote.mr[i] = (struct rb_mr_info){ (uintptr_t)rb_rx_of(r, i), FAKE_RKEY + i };
	}
	r->remote.addr = r->remote.mr[0].addr;
	r->remote.rkey = r->remote.mr[0].rkey;
	rb_wrs_free(r);
	assert_int_equal(rb_wrs_prepare(r), 0);
}

void fake_run_free(struct rb_run *r)
{
	rb_wrs_free(r);
	rb_samples_free(&r->lat);
	rb_iv_free(r);
	free(r->buf);
	r->buf = NULL;
}
