// SPDX-License-Identifier: MIT
/*
 * SEND/RECV: send_lat (ping-pong of SENDs, one-way latency = half the
 * round trip, as perftest) and send_bw (the client streams, the server
 * keeps its receive queues full and counts; with -b both do both).
 */
#include <endian.h>
#include <errno.h>

#include "core/clock.h"
#include "engine/run.h"

/* --send-with-imm: the SENDs carry the point's immediate (rb_imm_check()). */
static void send_prep(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi)
{
	wr->opcode = r->p->imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	wr->imm_data = r->p->imm ? htobe32(RB_IMM(r->point)) : 0;
}

static int send_setup(struct rb_run *r)
{
	return rb_fill_recv_queues(r);
}

static int send_prepare(struct rb_run *r)
{
	uint32_t mi;
	int ret = 0;

	for (mi = 0; mi < r->c.nmr && r->p->verify && !ret; mi++)
		ret = rb_fill_pattern(r, rb_tx_of(r, mi), r->pt.size);
	/* The last point may have left its last receives unposted. */
	return ret ? ret : rb_fill_recv_queues(r);
}

static int send_lat_run(struct rb_run *r)
{
	return rb_run_pingpong_recv(r);
}

/* -b: each side streams and counts (and verifies) the peer's SENDs. */
static int send_bw_run(struct rb_run *r)
{
	if (r->bidir)
		return rb_run_bidir(r, rb_pp_recv);
	return r->role == RB_ROLE_SERVER ? rb_run_server_recv(r) : rb_run_stream(r);
}

const struct rb_bench rb_bench_send_lat = {
	.name = "send_lat",
	.desc = "SEND ping-pong; one-way latency (half the round trip)",
	.mode = RB_MODE_LAT,
	.wr_name = "SEND",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_UC) | RB_TR_BIT(RB_TR_UD) |
		      RB_TR_BIT(RB_TR_SRD),
	.needs_recv = true,
	.odp_caps = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV,
	.send_ops = IBV_QP_EX_WITH_SEND,
	.imm_ops = IBV_QP_EX_WITH_SEND_WITH_IMM,
	.inline_ok = true,
	.default_size = 2,
	.default_inline = RB_INLINE_AUTO,
	.lat_scale = 0.5,
	.setup = send_setup,
	.prepare = send_prepare,
	.run = send_lat_run,
	.result = rb_result_generic,
	.prep_wr = send_prep,
};

const struct rb_bench rb_bench_send_bw = {
	.name = "send_bw",
	.desc = "SEND stream; bandwidth and message rate on both sides",
	.mode = RB_MODE_BW,
	.wr_name = "SEND",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_UC) | RB_TR_BIT(RB_TR_UD) |
		      RB_TR_BIT(RB_TR_SRD) | RB_TR_BIT(RB_TR_DC),
	.needs_recv = true,
	.odp_caps = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV,
	.send_ops = IBV_QP_EX_WITH_SEND,
	.imm_ops = IBV_QP_EX_WITH_SEND_WITH_IMM,
	.inline_ok = true,
	.bidir_ok = true,
	.default_size = 65536,
	.lat_scale = 1.0,
	.setup = send_setup,
	.prepare = send_prepare,
	.run = send_bw_run,
	.result = rb_result_generic,
	.prep_wr = send_prep,
};
