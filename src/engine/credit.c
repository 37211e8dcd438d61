// SPDX-License-Identifier: MIT
/*
 * Send credits (issue 45; the rule and its words: wire/plan_credits.c).
 * The receiver counts, per QP, the receives it posted since the
 * connection began and announces the count by an RDMA WRITE into the
 * sender's credit word of the QP; the sender counts its SENDs and posts
 * none beyond the count it last read (stream.c).  Counts, never reset
 * between points: a receive posted at one point serves the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/rdmabench.h"
#include "engine/loop.h"
#include "wire/plan.h"

int rb_credit_open(struct rb_run *r)
{
	if (!r->p->credits || r->cr || !r->c.nqp)
		return 0;
	r->cr = calloc(1, sizeof(*r->cr) + r->c.nqp * sizeof(r->cr->q[0]));
	if (!r->cr) {
		rb_err("no memory for the send credits of %u QPs", r->c.nqp);
		return -ENOMEM;
	}
	r->cr->nqp = r->c.nqp;
	r->cr->off = r->c.region - rb_plan_credit_block(r->p);
	return 0;
}

void rb_credit_close(struct rb_run *r)
{
	free(r->cr);
	r->cr = NULL;
}

/* The receives QP @qi was given since the connection began. */
static uint64_t posted_total(const struct rb_run *r, uint32_t qi)
{
	return r->cr->q[qi].recvd + r->sq[qi].posted_recv;
}

/*
 * Announce QP @qi's count: its source word (this side's tx region) to the
 * peer's credit word (its rx region), a signaled WRITE (wr_id as a send
 * chain of one: rb_reap() frees its room).  With the send queue full, it
 * waits (pending) for rb_credit_flush().
 */
static int announce(struct rb_run *r, uint32_t qi)
{
	struct rb_credit_qp *q = &r->cr->q[qi];
	uint64_t *src = (uint64_t *)(rb_tx_of(r, qi) + r->cr->off) + qi, v = posted_total(r, qi);
	struct ibv_sge sge = { .addr = (uintptr_t)src,
			       .length = sizeof(*src),
			       .lkey = r->c.mr[rb_mri(r, qi)]->lkey };
	struct ibv_send_wr wr = { .wr_id = (uint64_t)qi << 32 | 1,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	if (v == q->announced)
		return 0;
	if (r->sq[qi].used >= r->sq[qi].depth) {
		q->pending = true;
		return 0;
	}
	wr.wr.rdma.remote_addr = rb_remote_addr(r, qi) + r->cr->off + qi * sizeof(*src);
	wr.wr.rdma.rkey = rb_remote_rkey(r, qi);
	/* Only ever a count of receives already posted: a WRITE that reads
	 * it after a later announce changed it carries a count as true. */
	*src = v;
	ret = ibv_post_send(r->c.qp[qi], &wr, &bad);
	if (ret) {
		rb_err("%s qp 0x%x: the send credits' RDMA WRITE (%llu receives posted): %s",
		       r->c.dev.name, r->c.qp[qi]->qp_num, (unsigned long long)v, strerror(ret));
		return -ret;
	}
	r->sq[qi].used++;
	q->announced = v;
	q->pending = false;
	return 0;
}

int rb_credit_start(struct rb_run *r)
{
	uint32_t qi;
	int ret = 0;

	for (qi = 0; qi < r->pt.qps && !ret; qi++)
		ret = announce(r, qi);
	return ret;
}

int rb_credit_flush(struct rb_run *r)
{
	uint32_t qi;
	int ret = 0;

	for (qi = 0; qi < r->cr->nqp && !ret; qi++)
		if (r->cr->q[qi].pending)
			ret = announce(r, qi);
	return ret;
}

int rb_credit_received(struct rb_run *r, uint32_t qi)
{
	struct rb_credit_qp *q = &r->cr->q[qi];
	uint64_t step = r->c.rx_depth / 4 > r->recv_batch ? r->c.rx_depth / 4 : r->recv_batch;

	q->recvd++;
	/* Every step receives posted, and at once when the sender has used
	 * every credit it was given (it waits for this one). */
	if (posted_total(r, qi) - q->announced >= step || q->recvd == q->announced)
		return announce(r, qi);
	return 0;
}
