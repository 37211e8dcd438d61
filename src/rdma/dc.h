/* SPDX-License-Identifier: MIT */
/*
 * mlx5's Dynamically Connected transport (-c DC) through mlx5dv, when
 * configure found libmlx5 (HAVE_MLX5DV).  The QPs are asymmetric, as in
 * perftest's one-way bandwidth tests: the sender's are DC initiators
 * (DCIs: a send queue that reaches any DCT, each WR naming its target by
 * address handle, DCT number and access key, mlx5dv_wr_set_dc_addr()),
 * the receiver's DC targets (DCTs: no send queue, receives from an SRQ,
 * reached by whoever knows their number and key).  Read in perftest's
 * src/perftest_resources.c and rdma-core's providers/mlx5 (mlx5dv.h,
 * verbs.c: a DCT moves RESET->INIT (port, rights)->RTR (path, RNR timer);
 * a DCI RESET->INIT (port)->RTR (path)->RTS (retries, reads in flight)).
 *
 * Built and unit-tested against the fake provider's stand-ins for
 * mlx5dv_create_qp() and mlx5dv_qp_ex_from_ibv_qp_ex() (tests/unit/);
 * not run on an mlx5.
 */
#ifndef RB_DC_H
#define RB_DC_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma/verbs.h"

/* The key a DCT is created with and a DCI names; the CONN carries it. */
#define RB_DC_KEY 0x7264626eull /* "rdbn" */

/* rb_dc_built() - whether configure found libmlx5 (HAVE_MLX5DV). */
bool rb_dc_built(void);

/*
 * rb_dc_create() - a DCT (@dct: receives from @caps->srq, which it needs;
 * created with access key @key) or a DCI (send queue of @caps->send_wr,
 * taking @caps->send_ops through ibv_wr_*) on @cq.  @caps updated as
 * rb_qp_create() does.  Refused with -EOPNOTSUPP, naming the build, in a
 * build without mlx5dv; a provider's refusal names the call.  0 or -errno,
 * logged.
 */
int rb_dc_create(struct rb_dev *d, struct ibv_cq *cq, bool dct, uint64_t key,
		 struct rb_qp_caps *caps, struct ibv_qp **qp);

/*
 * rb_dc_connect() - a DCT to RTR (remote rights @access, the path towards
 * @remote with @mtu and @av), or a DCI to RTS (the same path, PSN
 * @local_psn, @rd_atom reads in flight, @av's retries) aimed at @remote's
 * DCT through @peer, whose address handle the caller made
 * (rb_ah_create()); @peer lives as long as @qp.  0 or -errno, logged.
 */
int rb_dc_connect(struct rb_dev *d, struct ibv_qp *qp, bool dct, int access, uint32_t local_psn,
		  const struct rb_qp_info *remote, enum ibv_mtu mtu, uint8_t rd_atom,
		  const struct rb_av *av, struct rb_qp_peer *peer);

/*
 * rb_post_send_dc() - ibv_post_send()'s contract for a DCI: the chain
 * @wr through ibv_wr_*, each WR sent to the DCT in the DCI's
 * struct rb_qp_peer (mlx5dv_wr_set_dc_addr()).
 */
int rb_post_send_dc(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);

#endif
