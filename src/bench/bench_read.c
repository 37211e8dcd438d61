// SPDX-License-Identifier: MIT
/*
 * RDMA READ: read_lat (one read outstanding, the full round trip per
 * sample) and read_bw (a stream with -o reads in flight per QP).  The
 * server only lends memory: the client reads the server's tx region.
 */
#include <errno.h>
#include <string.h>

#include "engine/run.h"

static void read_prep(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi)
{
	wr->opcode = IBV_WR_RDMA_READ;
	wr->sg_list->addr = (uintptr_t)rb_rx_of(r, qi); /* the data lands here */
	wr->wr.rdma.remote_addr = rb_remote_addr(r, qi) + r->c.region;
	wr->wr.rdma.rkey = rb_remote_rkey(r, qi);
}

/* With -b each side is read from (its tx) and reads (into its rx). */
static int read_prepare(struct rb_run *r)
{
	uint32_t mi;
	int ret = 0;

	for (mi = 0; mi < r->c.nmr && !ret; mi++) {
		if (r->role == RB_ROLE_SERVER || r->bidir)
			ret = rb_fill_pattern(r, rb_tx_of(r, mi), r->pt.size);
		if (!ret && (r->role == RB_ROLE_CLIENT || r->bidir))
			ret = rb_buf_zero(r, rb_rx_of(r, mi), r->pt.size);
	}
	return ret;
}

static int read_check(struct rb_run *r, uint64_t it)
{
	return rb_verify_bytes(r, rb_rx(r), r->pt.size, it);
}

/* After a stream: every buffer a read landed in holds the server's bytes. */
static int read_check_all(struct rb_run *r)
{
	uint32_t qi;
	int ret = 0;

	for (qi = 0; !ret && qi < rb_buffers_used(r, r->total); qi++)
		ret = rb_verify_bytes(r, rb_rx_of(r, qi), r->pt.size, r->total - 1);
	return ret;
}

static int read_lat_run(struct rb_run *r)
{
	if (r->role == RB_ROLE_SERVER)
		return rb_run_server_wait(r);
	return rb_run_oneshot(r, r->p->verify ? read_check : NULL);
}

/* The last read's bytes are checked by the side that read them. */
static int read_bw_run(struct rb_run *r)
{
	int ret;

	if (r->bidir)
		ret = rb_run_bidir(r, NULL);
	else if (r->role == RB_ROLE_SERVER)
		return rb_run_server_wait(r);
	else
		ret = rb_run_stream(r);
	if (!ret && r->p->verify && r->total)
		r->verify.status = read_check_all(r);
	return ret;
}

const struct rb_bench rb_bench_read_lat = {
	.name = "read_lat",
	.desc = "RDMA READ, one outstanding; full round-trip latency",
	.mode = RB_MODE_LAT,
	.wr_name = "RDMA READ",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_SRD),
	.bounded_by_rd_atom = true,
	.payload_from_server = true,
	.default_size = 2,
	.server_access = IBV_ACCESS_REMOTE_READ,
	.odp_caps = IBV_ODP_SUPPORT_READ,
	.send_ops = IBV_QP_EX_WITH_RDMA_READ,
	.lat_scale = 1.0,
	.prepare = read_prepare,
	.run = read_lat_run,
	.result = rb_result_generic,
	.prep_wr = read_prep,
};

const struct rb_bench rb_bench_read_bw = {
	.name = "read_bw",
	.desc = "RDMA READ stream, -o in flight; bandwidth at the client",
	.mode = RB_MODE_BW,
	.wr_name = "RDMA READ",
	.transports = RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_SRD) | RB_TR_BIT(RB_TR_DC),
	.bounded_by_rd_atom = true,
	.payload_from_server = true,
	.bidir_ok = true,
	.default_size = 65536,
	.server_access = IBV_ACCESS_REMOTE_READ,
	.odp_caps = IBV_ODP_SUPPORT_READ,
	.send_ops = IBV_QP_EX_WITH_RDMA_READ,
	.lat_scale = 1.0,
	.prepare = read_prepare,
	.run = read_bw_run,
	.result = rb_result_generic,
	.prep_wr = read_prep,
};
