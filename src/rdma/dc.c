// SPDX-License-Identifier: MIT
/*
 * mlx5's DC QPs (dc.h): DCIs and DCTs through mlx5dv_create_qp(), their
 * state moves, and posting to a DCI.  Built without mlx5dv, creating one
 * is refused naming the build.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef HAVE_MLX5DV
#include <infiniband/mlx5dv.h>
#endif

#include "rdma/dc.h"

bool rb_dc_built(void)
{
#ifdef HAVE_MLX5DV
	return true;
#else
	return false;
#endif
}

#ifdef HAVE_MLX5DV
/* A DCT has no send queue and receives from its SRQ; a DCI sends only. */
static struct ibv_qp *dc_make(struct rb_dev *d, struct ibv_cq *cq, bool dct, uint64_t key,
			      const struct rb_qp_caps *caps, struct ibv_qp_init_attr_ex *a)
{
	struct mlx5dv_qp_init_attr dv = { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC };

	*a = (struct ibv_qp_init_attr_ex){ .send_cq = cq,
					   .recv_cq = cq,
					   .qp_type = IBV_QPT_DRIVER,
					   .comp_mask = IBV_QP_INIT_ATTR_PD,
					   .pd = d->pd };
	if (dct) {
		a->srq = caps->srq;
		dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCT;
		dv.dc_init_attr.dct_access_key = key;
	} else {
		a->cap = (struct ibv_qp_cap){ .max_send_wr = caps->send_wr,
					      .max_send_sge = 1,
					      .max_inline_data =
						      rb_inline_ask(d, caps->inline_size) };
		a->comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a->send_ops_flags = caps->send_ops;
		dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCI;
		/* As perftest: completions never carry scattered data. */
		dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
		dv.create_flags = MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE;
	}
	return mlx5dv_create_qp(d->ctx, a, &dv);
}
#endif

int rb_dc_create(struct rb_dev *d, struct ibv_cq *cq, bool dct, uint64_t key,
		 struct rb_qp_caps *caps, struct ibv_qp **qp)
{
#ifdef HAVE_MLX5DV
	struct ibv_qp_init_attr_ex a;
	int ret;

	caps->ex = false;
	*qp = NULL;
	if (dct && !caps->srq) {
		rb_err("%s: a DCT receives from an SRQ, and none was made", d->name);
		return -EINVAL;
	}
	errno = 0;
	*qp = dc_make(d, cq, dct, key, caps, &a);
	if (!*qp) {
		ret = errno ? -errno : -EOPNOTSUPP;
		rb_err("%s: mlx5dv_create_qp(%s, send %u, inline %u): %s", d->name,
		       dct ? "DCT" : "DCI", dct ? 0 : caps->send_wr,
		       dct ? 0 : rb_inline_ask(d, caps->inline_size),
		       errno ? strerror(errno) : "refused, and no errno set");
		return ret;
	}
	caps->ex = !dct;
	caps->recv_wr = 0; /* the SRQ's */
	if (!dct) {
		caps->send_wr = a.cap.max_send_wr;
		if (a.cap.max_inline_data < caps->inline_size ||
		    caps->inline_size == RB_INLINE_AUTO)
			caps->inline_size = a.cap.max_inline_data;
	}
	return 0;
#else
	(void)cq;
	(void)dct;
	(void)key;
	(void)caps;
	*qp = NULL;
	rb_err("-c DC: %s: this rdmabench was built without mlx5dv (configure found no libmlx5 "
	       "and infiniband/mlx5dv.h)",
	       d->name);
	return -EOPNOTSUPP;
#endif
}

static int dc_modify(struct rb_dev *d, struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		     const char *what)
{
	int ret = ibv_modify_qp(qp, a, mask);

	if (ret)
		rb_err("%s %s 0x%x: cannot move to %s: %s", d->name, what, qp->qp_num,
		       a->qp_state == IBV_QPS_INIT  ? "INIT"
		       : a->qp_state == IBV_QPS_RTR ? "RTR"
						    : "RTS",
		       strerror(ret));
	return -ret;
}

int rb_dc_connect(struct rb_dev *d, struct ibv_qp *qp, bool dct, int access, uint32_t local_psn,
		  const struct rb_qp_info *remote, enum ibv_mtu mtu, uint8_t rd_atom,
		  const struct rb_av *av, struct rb_qp_peer *peer)
{
	const char *what = dct ? "DCT" : "DCI";
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = d->port,
				 .pkey_index = (uint16_t)av->qp.pkey_index,
				 .qp_access_flags = (unsigned int)access };
	int ret;

	ret = dc_modify(d, qp, &a,
			IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				(dct ? IBV_QP_ACCESS_FLAGS : 0),
			what);
	if (ret)
		return ret;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR, .path_mtu = mtu, .min_rnr_timer = 12 };
	rb_ah_attr_fill(d, remote, av, &a.ah_attr);
	ret = dc_modify(d, qp, &a,
			IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				(dct ? IBV_QP_MIN_RNR_TIMER : 0),
			what);
	if (ret || dct)
		return ret;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS,
				  .timeout = (uint8_t)av->qp.timeout,
				  .retry_cnt = (uint8_t)av->qp.retry_count,
				  .rnr_retry = 7,
				  .sq_psn = local_psn & 0xffffff,
				  .max_rd_atomic = rd_atom };
	ret = dc_modify(d, qp, &a,
			IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
			what);
	if (ret)
		return ret;
#ifdef HAVE_MLX5DV
	peer->mqp = mlx5dv_qp_ex_from_ibv_qp_ex(ibv_qp_to_qp_ex(qp));
#endif
	peer->qpn = remote->qpn;
	qp->qp_context = peer;
	return 0;
}
