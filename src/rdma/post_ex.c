// SPDX-License-Identifier: MIT
/*
 * The extended post API (ibv_wr_*) for a chain of ordinary send WRs, and
 * the function that posts to a QP (verbs.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#ifdef HAVE_MLX5DV
#include <infiniband/mlx5dv.h>
#endif

#include "rdma/dc.h"
#include "rdma/verbs.h"

/* ibv_qp_ex begins with its ibv_qp (qp_base): rb_qp_create() checked it. */
static struct ibv_qp_ex *qp_ex_of(struct ibv_qp *qp)
{
	return (struct ibv_qp_ex *)((char *)qp - offsetof(struct ibv_qp_ex, qp_base));
}

/* The verb of @wr, on @x; false for one the extended API is not asked for here. */
static bool wr_verb(struct ibv_qp_ex *x, const struct ibv_send_wr *wr)
{
	switch (wr->opcode) {
	case IBV_WR_SEND:
		ibv_wr_send(x);
		return true;
	case IBV_WR_SEND_WITH_IMM:
		ibv_wr_send_imm(x, wr->imm_data);
		return true;
	case IBV_WR_RDMA_WRITE:
		ibv_wr_rdma_write(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
		return true;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		ibv_wr_rdma_write_imm(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr, wr->imm_data);
		return true;
	case IBV_WR_RDMA_READ:
		ibv_wr_rdma_read(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
		return true;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		ibv_wr_atomic_cmp_swp(x, wr->wr.atomic.rkey, wr->wr.atomic.remote_addr,
				      wr->wr.atomic.compare_add, wr->wr.atomic.swap);
		return true;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		ibv_wr_atomic_fetch_add(x, wr->wr.atomic.rkey, wr->wr.atomic.remote_addr,
					wr->wr.atomic.compare_add);
		return true;
	default:
		return false;
	}
}

/* One SGE, or its bytes inline: the loops' templates never have more. */
static void wr_data(struct ibv_qp_ex *x, const struct ibv_send_wr *w)
{
	if (w->send_flags & IBV_SEND_INLINE)
		ibv_wr_set_inline_data(x, (void *)(uintptr_t)w->sg_list->addr, w->sg_list->length);
	else
		ibv_wr_set_sge(x, w->sg_list->lkey, w->sg_list->addr, w->sg_list->length);
}

/*
 * A WR's address on a QP whose peer is its own (@peer, qp_context): an
 * SRD QP's (ibv_wr_set_ud_addr()) or a DCI's (its DCT, mlx5dv's); NULL:
 * a UD WR carries its own (@ud), a connected QP's needs none.
 */
static inline void wr_addr(struct ibv_qp_ex *x, const struct rb_qp_peer *peer, bool ud,
			   const struct ibv_send_wr *w)
{
	if (peer) {
#ifdef HAVE_MLX5DV
		if (peer->mqp) {
			mlx5dv_wr_set_dc_addr(peer->mqp, peer->ah, peer->qpn, peer->dc_key);
			return;
		}
#endif
		ibv_wr_set_ud_addr(x, peer->ah, peer->qpn, peer->qkey);
	} else if (ud) {
		ibv_wr_set_ud_addr(x, w->wr.ud.ah, w->wr.ud.remote_qpn, w->wr.ud.remote_qkey);
	}
}

/* The chain @wr through ibv_wr_*: one start, a verb, its address and data per WR, one complete. */
static int post_chain_ex(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad,
			 const struct rb_qp_peer *peer)
{
	struct ibv_qp_ex *x = qp_ex_of(qp);
	struct ibv_send_wr *w;
	bool ud = qp->qp_type == IBV_QPT_UD;

	*bad = wr;
	ibv_wr_start(x);
	for (w = wr; w; w = w->next) {
		x->wr_id = w->wr_id;
		x->wr_flags = w->send_flags;
		if (!wr_verb(x, w)) {
			ibv_wr_abort(x);
			*bad = w;
			return EINVAL;
		}
		wr_addr(x, peer, ud, w);
		wr_data(x, w);
	}
	return ibv_wr_complete(x);
}

int rb_post_send_dc(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
#ifdef HAVE_MLX5DV
	return post_chain_ex(qp, wr, bad, qp->qp_context);
#else
	(void)qp;
	*bad = wr;
	return EOPNOTSUPP; /* rb_dc_create() made no DCI */
#endif
}

int rb_post_send_ex(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	/* SRD (a driver QP): its peer in qp_context, whatever the verb. */
	return post_chain_ex(qp, wr, bad, qp->qp_type == IBV_QPT_DRIVER ? qp->qp_context : NULL);
}

rb_post_fn rb_qp_post_fn(struct ibv_qp *qp, bool ex)
{
	return ex ? rb_post_send_ex : qp->context->ops.post_send;
}
