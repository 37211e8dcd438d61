/* SPDX-License-Identifier: MIT */
/*
 * What a connection is made of, as the session builds it: the device,
 * the CQs and QPs, the buffers and their MRs, the SRQ, the address
 * handles, the peer's keys, or a socket test's data connection.  The
 * session owns and tears it down; the engine only reads it, through the
 * copy rb_point_begin() takes at each point's start (engine/xfer.h), so
 * that the measuring loops find it at a fixed place in their run, as
 * before, with no pointer more to follow.
 */
#ifndef RB_CONN_H
#define RB_CONN_H

#include <infiniband/verbs.h>

#include "rdma/verbs.h"
#include "rdma/cuda.h"
#include "wire/wire.h"

struct rb_lock_share;

struct rb_conn {
	/* What the loops read every message first (struct rb_run holds its
	 * copy right after its own hot block); the device and the peer's
	 * CONN, read when a point starts or fails, last. */
	/* qp and ah: nqp entries; mr: nmr (rb_conn_lists_alloc()). */
	struct ibv_qp **qp;
	/* Posts every send chain: the provider's post_send (what
	 * ibv_post_send() calls), or rb_post_send_ex() (--post-api), chosen
	 * once when the QPs are made, so no post tests which. */
	rb_post_fn post_send;
	struct ibv_srq *srq; /* --srq: every QP's receives; NULL: per QP */
	struct ibv_cq *cq;   /* the one CQ; with --cq-per-qp, cqs[0] */
	/* --cq-per-qp: a CQ per QP (nqp of them); NULL without. */
	struct ibv_cq **cqs;
	/* --cq-api: every CQ above is an extended one (rdma/cqx.h), polled
	 * through ibv_start_poll() (RB_CQX_BATCH or RB_CQX_ONE); RB_CQX_OFF:
	 * ibv_poll_cq(). */
	uint8_t cq_ex;
	uint32_t nqp;
	uint32_t rx_depth;   /* receives kept posted per QP */
	uint32_t inline_max; /* granted by the QPs */
	uint8_t rd_atom;     /* reads/atomics in flight, both ends agree */
	uint8_t *buf;	     /* per MR: rx region, then tx region */
	/* --use-cuda: buf is this GPU memory, which the CPU never touches:
	 * the pattern, its check and the atomics' words go through copies
	 * (rb_buf_*()) by way of @scratch, a region's bytes.  NULL: host. */
	const struct rb_cuda_buf *gpu;
	uint8_t *scratch;
	size_t region; /* bytes per region */
	uint32_t nmr;  /* 1, or one per QP (--mr-per-qp) */
	struct ibv_mr **mr;
	/* UD: each WR names its peer, the address handle of its QP's peer. */
	bool ud;
	struct ibv_ah **ah;
	uint32_t rx_off; /* where a receive's payload lands: after the GRH on UD */
	bool lossy;	 /* UC, UD: a message that finds no receive is dropped */
	/* The completion channel, made when any point waits on events
	 * (--poll event); NULL otherwise. */
	struct ibv_comp_channel *channel;
	/* Socket tests (.path RB_PATH_TCP): the data connection, and the
	 * bytes at buf (rx region, tx region, and room for a stream's reads). */
	int data_fd;
	size_t data_len;
	/* Server, lock --run-id (issue 42): the run's shared header
	 * (engine/lockshare.h), its words mapped over buf; NULL otherwise. */
	struct rb_lock_share *lock_share;
	uint32_t lock_host; /* this connection's host's place in it */
	enum ibv_mtu path_mtu;
	struct rb_msg_conn remote;
	struct rb_dev dev;
};

/* The buffer of QP @qi (its rx region; + region: its tx): its own with --mr-per-qp. */
static inline uint8_t *rb_conn_rx_of(const struct rb_conn *c, uint32_t qi)
{
	return c->buf + (size_t)(c->nmr > 1 ? qi : 0) * 2 * c->region;
}

/*
 * rb_conn_lists_alloc() - @c's per-QP lists (qp, ah: nqp entries; mr:
 * nmr), zeroed; 0 or -ENOMEM (logged).  rb_conn_lists_free() releases
 * them and the peer's CONN lists (c->remote).
 */
int rb_conn_lists_alloc(struct rb_conn *c);
void rb_conn_lists_free(struct rb_conn *c);

#endif
