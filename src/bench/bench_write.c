// SPDX-License-Identifier: MIT
/*
 * RDMA WRITE: write_lat (each side polls the last byte of its buffer for
 * the peer's write, then writes back; one-way latency = half the round
 * trip, as perftest) and write_bw (the client streams writes; the server
 * only lends memory).  With --write-with-imm each WRITE carries the
 * point's immediate and consumes a receive: the receiver learns of arrival from
 * its receive completion, as a SEND's, and checks the immediate there.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "core/clock.h"
#include "engine/run.h"

/* Iteration @it's mark in the last byte: never 0, never twice in a row. */
static uint8_t flag_of(uint64_t it)
{
	return (uint8_t)(it % 255 + 1);
}

static void write_prep(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi)
{
	wr->opcode = r->p->imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	wr->imm_data = r->p->imm ? htobe32(RB_IMM(r->point)) : 0;
	wr->wr.rdma.remote_addr = rb_remote_addr(r, qi);
	wr->wr.rdma.rkey = rb_remote_rkey(r, qi);
}

/* The mark goes in before the post: inline WRs copy the buffer then.
 * With immediates the receive completion is the mark: the bytes stay
 * the pattern, all of them checked. */
static void write_lat_iter(struct rb_run *r, struct ibv_send_wr *wr, uint64_t it)
{
	if (!r->p->imm)
		rb_tx(r)[r->pt.size - 1] = flag_of(it);
}

static int write_prepare(struct rb_run *r)
{
	uint32_t mi;
	int ret = 0;

	for (mi = 0; mi < r->c.nmr && !ret; mi++) {
		/* A stale mark from the last point must not pass for a new one. */
		ret = rb_buf_zero(r, rb_rx_of(r, mi), r->pt.size);
		if (!ret && r->p->verify)
			ret = rb_fill_pattern(r, rb_tx_of(r, mi), r->pt.size);
	}
	/* --write-with-imm: each WRITE consumes a receive (none posted without). */
	return ret ? ret : rb_fill_recv_queues(r);
}

/*
 * Wait until the peer's write @it lands; RB_WAIT_STOPPED when the client
 * has stopped.
 * A tight loop on the mark alone, as perftest: send completions are reaped
 * before each post (rb_wait_room), not here, so that the poll of the CQ
 * does not stretch the time to see the mark.
 */
static int write_wait(struct rb_run *r, uint64_t it)
{
	volatile uint8_t *mark = rb_rx(r) + r->pt.size - 1;
	struct rb_idle idle = { 0 };
	int n;

	while (*mark != flag_of(it)) {
		if (r->stopped && it >= r->stop_count)
			return RB_WAIT_STOPPED;
		if (rb_interrupted)
			return -EINTR;
		n = rb_idle_check(r, &idle, "an RDMA WRITE from the peer");
		if (n)
			return n;
	}
	/* HCAs place a WRITE's bytes in order in practice (perftest relies on
	 * it too; the spec does not promise it): the rest is there. */
	return r->p->verify ? rb_verify_bytes(r, rb_rx(r), r->pt.size - 1, it) : 0;
}

/* With immediates the receive completion says the WRITE is in, as a SEND's. */
static int write_lat_run(struct rb_run *r)
{
	return r->p->imm ? rb_run_pingpong_recv(r) : rb_run_pingpong(r, write_wait);
}

/*
 * With -b both sides stream and both lend memory.  A side that received
 * writes checks its buffer once the peer's STOP says they all landed; with
 * immediates it counts (and checks) each one as it lands, as send_bw.
 */
static int write_bw_run(struct rb_run *r)
{
	bool imm = r->p->imm;
	uint32_t qi, n;
	int ret;

	if (r->bidir)
		ret = rb_run_bidir(r, imm ? rb_pp_recv : NULL);
	else if (r->role == RB_ROLE_CLIENT)
		return rb_run_stream(r);
	else if (imm)
		return rb_run_server_recv(r);
	else
		ret = rb_run_server_wait(r);
	/* Every write carried the same bytes: each buffer written must hold them. */
	n = ret || !r->p->verify || imm ? 0 : rb_buffers_used(r, r->stop_count);
	for (qi = 0; qi < n && !r->verify.status; qi++)
		r->verify.status =
			rb_verify_bytes(r, rb_rx_of(r, qi), r->pt.size, r->stop_count - 1);
	return ret;
}

const struct rb_bench rb_bench_write_lat = {
	.name = "write_lat",
	.desc = "RDMA WRITE ping-pong; one-way latency (half the round trip)",
	.mode = RB_MODE_LAT,
	.wr_name = "RDMA WRITE",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_UC) | RB_TR_BIT(RB_TR_SRD),
	.inline_ok = true,
	.default_size = 2,
	.default_inline = RB_INLINE_AUTO,
	.client_access = IBV_ACCESS_REMOTE_WRITE,
	.server_access = IBV_ACCESS_REMOTE_WRITE,
	.odp_caps = IBV_ODP_SUPPORT_WRITE,
	.send_ops = IBV_QP_EX_WITH_RDMA_WRITE,
	.imm_ops = IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
	.polls_buffer = true,
	.lat_scale = 0.5,
	.prepare = write_prepare,
	.run = write_lat_run,
	.result = rb_result_generic,
	.prep_wr = write_prep,
	.iter_wr = write_lat_iter,
};

const struct rb_bench rb_bench_write_bw = {
	.name = "write_bw",
	.desc = "RDMA WRITE stream; bandwidth and message rate at the client",
	.mode = RB_MODE_BW,
	.wr_name = "RDMA WRITE",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_UC) | RB_TR_BIT(RB_TR_SRD) |
		      RB_TR_BIT(RB_TR_DC),
	.inline_ok = true,
	.bidir_ok = true,
	.default_size = 65536,
	.server_access = IBV_ACCESS_REMOTE_WRITE,
	.odp_caps = IBV_ODP_SUPPORT_WRITE,
	.send_ops = IBV_QP_EX_WITH_RDMA_WRITE,
	.imm_ops = IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
	.lat_scale = 1.0,
	.prepare = write_prepare,
	.run = write_bw_run,
	.result = rb_result_generic,
	.prep_wr = write_prep,
};
