// SPDX-License-Identifier: MIT
/* The fake provider's extended CQ (issue 40; fake_verbs.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "rdma/cqx.h"

static struct fake *of_cqx(struct ibv_cq_ex *cq)
{
	return (struct fake *)((char *)cq - offsetof(struct fake, cqx));
}

/* The completion taken into the CQ's fields, as a provider sets them. */
static int took(struct ibv_cq_ex *cq, int n)
{
	struct fake *f = of_cqx(cq);

	if (!n)
		return ENOENT;
	cq->wr_id = f->cqx_wc.wr_id;
	cq->status = f->cqx_wc.status;
	return 0;
}

static int fake_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	struct fake *f = of_cqx(cq);

	assert_int_equal(attr->comp_mask, 0);
	f->cqx_starts++;
	return took(cq, f->ctx.ops.poll_cq(ibv_cq_ex_to_cq(cq), 1, &f->cqx_wc));
}

/* The next completion at the same tick of the fake's clock, and no peer SEND. */
static int fake_next_poll(struct ibv_cq_ex *cq)
{
	struct fake *f = of_cqx(cq);
	uint64_t peer = f->peer_sends;
	int n;

	f->cqx_nexts++;
	f->polls--;
	f->peer_sends = 0;
	n = f->ctx.ops.poll_cq(ibv_cq_ex_to_cq(cq), 1, &f->cqx_wc);
	f->peer_sends = peer;
	return took(cq, n);
}

static void fake_end_poll(struct ibv_cq_ex *cq)
{
	of_cqx(cq)->cqx_ends++;
}

static enum ibv_wc_opcode fake_read_opcode(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.opcode;
}

static uint32_t fake_read_vendor_err(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.vendor_err;
}

static uint32_t fake_read_byte_len(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.byte_len;
}

static __be32 fake_read_imm_data(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.imm_data;
}

static uint32_t fake_read_qp_num(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.qp_num;
}

static unsigned int fake_read_wc_flags(struct ibv_cq_ex *cq)
{
	return of_cqx(cq)->cqx_wc.wc_flags;
}

static struct ibv_cq_ex *fake_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a)
{
	struct fake *f = (struct fake *)((char *)ctx - offsetof(struct fake, ctx));

	f->cqx_made++;
	f->cqx_attr = *a;
	return &f->cqx;
}

static int fake_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *a)
{
	struct fake *f = of_cqx((struct ibv_cq_ex *)(void *)cq);

	f->cqx_mods++;
	f->cqx_mod = *a;
	return 0;
}

void fake_cqex(struct fake *f, struct rb_run *r, bool moderate)
{
	f->cqx.start_poll = fake_start_poll;
	f->cqx.next_poll = fake_next_poll;
	f->cqx.end_poll = fake_end_poll;
	f->cqx.read_opcode = fake_read_opcode;
	f->cqx.read_vendor_err = fake_read_vendor_err;
	f->cqx.read_byte_len = fake_read_byte_len;
	f->cqx.read_imm_data = fake_read_imm_data;
	f->cqx.read_qp_num = fake_read_qp_num;
	f->cqx.read_wc_flags = fake_read_wc_flags;
	f->vctx.create_cq_ex = fake_create_cq_ex;
	f->vctx.modify_cq = moderate ? fake_modify_cq : NULL;
	if (r)
		r->c.cq_ex = RB_CQX_BATCH;
}
