// SPDX-License-Identifier: MIT
/* The fake verbs provider's extended post API, ibv_qp_ex (fake_verbs.h). */
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

/* ---- the extended post API (ibv_qp_ex) ---- */

static struct fake *of_qpx(struct ibv_qp_ex *x)
{
	return fake_of_ctx(x->qp_base.context);
}

static void wr_misuse(struct fake *f, const char *what)
{
	if (!f->wr_misuse++)
		snprintf(f->first_wr_misuse, sizeof(f->first_wr_misuse), "%s (WR %u of a chain)",
			 what, f->npend);
}

static void fake_wr_start(struct ibv_qp_ex *x)
{
	struct fake *f = of_qpx(x);

	if (f->building)
		wr_misuse(f, "ibv_wr_start inside a chain");
	f->building = (int)fake_qi(f, &x->qp_base) + 1;
	f->npend = 0;
}

/* The next WR of the chain: wr_id and flags as they are now. */
static struct ibv_send_wr *wr_new(struct ibv_qp_ex *x, enum ibv_wr_opcode op)
{
	struct fake *f = of_qpx(x);
	struct ibv_send_wr *w;

	if (!f->building || f->npend >= RB_MAX_BATCH) {
		wr_misuse(f, f->building ? "too many WRs" : "a verb outside ibv_wr_start");
		return NULL;
	}
	if (f->npend && !f->pend[f->npend - 1].num_sge)
		wr_misuse(f, "a WR without SGE or inline data");
	w = &f->pend[f->npend];
	memset(w, 0, sizeof(*w));
	w->wr_id = x->wr_id;
	w->send_flags = x->wr_flags;
	w->opcode = op;
	w->sg_list = &f->pend_sge[f->npend++];
	return w;
}

static void fake_wr_send(struct ibv_qp_ex *x)
{
	wr_new(x, IBV_WR_SEND);
}

static void fake_wr_rdma(struct ibv_qp_ex *x, enum ibv_wr_opcode op, uint32_t rkey, uint64_t raddr)
{
	struct ibv_send_wr *w = wr_new(x, op);

	if (w) {
		w->wr.rdma.rkey = rkey;
		w->wr.rdma.remote_addr = raddr;
	}
}

static void fake_wr_rdma_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t raddr)
{
	fake_wr_rdma(x, IBV_WR_RDMA_WRITE, rkey, raddr);
}

static void fake_wr_send_imm(struct ibv_qp_ex *x, __be32 imm)
{
	struct ibv_send_wr *w = wr_new(x, IBV_WR_SEND_WITH_IMM);

	if (w)
		w->imm_data = imm;
}

static void fake_wr_rdma_write_imm(struct ibv_qp_ex *x, uint32_t rkey, uint64_t raddr, __be32 imm)
{
	fake_wr_rdma(x, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, raddr);
	if (of_qpx(x)->npend)
		of_qpx(x)->pend[of_qpx(x)->npend - 1].imm_data = imm;
}

static void fake_wr_rdma_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t raddr)
{
	fake_wr_rdma(x, IBV_WR_RDMA_READ, rkey, raddr);
}

static void fake_wr_atomic(struct ibv_qp_ex *x, enum ibv_wr_opcode op, uint32_t rkey,
			   uint64_t raddr, uint64_t compare_add, uint64_t swap)
{
	struct ibv_send_wr *w = wr_new(x, op);

	if (w) {
		w->wr.atomic.rkey = rkey;
		w->wr.atomic.remote_addr = raddr;
		w->wr.atomic.compare_add = compare_add;
		w->wr.atomic.swap = swap;
	}
}

static void fake_wr_cmp_swp(struct ibv_qp_ex *x, uint32_t rkey, uint64_t raddr, uint64_t compare,
			    uint64_t swap)
{
	fake_wr_atomic(x, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, raddr, compare, swap);
}

static void fake_wr_fetch_add(struct ibv_qp_ex *x, uint32_t rkey, uint64_t raddr, uint64_t add)
{
	fake_wr_atomic(x, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, raddr, add, 0);
}

/* The WR being built, for its address and data; NULL (misuse) when none. */
static struct ibv_send_wr *wr_cur(struct ibv_qp_ex *x, const char *what)
{
	struct fake *f = of_qpx(x);

	if (f->building && f->npend)
		return &f->pend[f->npend - 1];
	wr_misuse(f, what);
	return NULL;
}

static void fake_wr_set_ud_addr(struct ibv_qp_ex *x, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
	struct ibv_send_wr *w = wr_cur(x, "ibv_wr_set_ud_addr before a verb");

	/* Kept apart as well: a provider's WQE has a field of its own for the
	 * address (EFA: the AH and QP number beside the RDMA fields). */
	if (w) {
		of_qpx(x)->ud_ah = ah;
		of_qpx(x)->ud_qpn = qpn;
		of_qpx(x)->ud_qkey = qkey;
		if (w->opcode == IBV_WR_SEND || w->opcode == IBV_WR_SEND_WITH_IMM) {
			w->wr.ud.ah = ah;
			w->wr.ud.remote_qpn = qpn;
			w->wr.ud.remote_qkey = qkey;
		}
	}
}

static void wr_data(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr, uint32_t len, bool inl)
{
	struct ibv_send_wr *w = wr_cur(x, "SGE or inline data before a verb");

	if (!w)
		return;
	if (w->num_sge)
		wr_misuse(of_qpx(x), "two SGEs for one WR");
	if (inl != !!(w->send_flags & IBV_SEND_INLINE))
		wr_misuse(of_qpx(x), "inline data without IBV_SEND_INLINE, or the reverse");
	w->sg_list[0] = (struct ibv_sge){ .addr = addr, .length = len, .lkey = lkey };
	w->num_sge = 1;
}

static void fake_wr_set_sge(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr, uint32_t len)
{
	wr_data(x, lkey, addr, len, false);
}

static void fake_wr_set_inline_data(struct ibv_qp_ex *x, void *addr, size_t len)
{
	wr_data(x, 0, (uintptr_t)addr, (uint32_t)len, true);
}

/* As ibv_post_send() of the chain built: the same checks and records. */
static int fake_wr_complete(struct ibv_qp_ex *x)
{
	struct fake *f = of_qpx(x);
	struct ibv_send_wr *bad;
	uint32_t k;

	if (!f->building || !f->npend)
		wr_misuse(f, "ibv_wr_complete without WRs");
	else if (!f->pend[f->npend - 1].num_sge)
		wr_misuse(f, "a WR without SGE or inline data");
	f->building = 0;
	if (!f->npend)
		return EINVAL;
	for (k = 0; k + 1 < f->npend; k++)
		f->pend[k].next = &f->pend[k + 1];
	f->pend[f->npend - 1].next = NULL;
	f->wr_chains++;
	return f->ctx.ops.post_send(&x->qp_base, f->pend, &bad);
}

static void fake_wr_abort(struct ibv_qp_ex *x)
{
	of_qpx(x)->building = 0;
}

void fake_qpx_init(struct ibv_qp_ex *x)
{
	x->wr_start = fake_wr_start;
	x->wr_complete = fake_wr_complete;
	x->wr_abort = fake_wr_abort;
	x->wr_send = fake_wr_send;
	x->wr_rdma_write = fake_wr_rdma_write;
	x->wr_send_imm = fake_wr_send_imm;
	x->wr_rdma_write_imm = fake_wr_rdma_write_imm;
	x->wr_rdma_read = fake_wr_rdma_read;
	x->wr_atomic_cmp_swp = fake_wr_cmp_swp;
	x->wr_atomic_fetch_add = fake_wr_fetch_add;
	x->wr_set_ud_addr = fake_wr_set_ud_addr;
	x->wr_set_sge = fake_wr_set_sge;
	x->wr_set_inline_data = fake_wr_set_inline_data;
}
