// SPDX-License-Identifier: MIT
/*
 * TCP on the same path, for RDMA to be judged against (qperf's names):
 * tcp_lat (ping-pong of -s bytes with TCP_NODELAY, one-way latency = half
 * the round trip, as send_lat) and tcp_bw (the client streams -s byte
 * messages, the server counts what arrives), and tcp_lock (issue 42: lock's
 * workload through a lock server).  Their data crosses a TCP connection
 * of their own (.path): no device, no QP.
 */
#include "engine/tcplock.h"

const struct rb_bench rb_bench_tcp_lat = {
	.name = "tcp_lat",
	.desc = "TCP ping-pong (TCP_NODELAY); one-way latency (half the round trip)",
	.mode = RB_MODE_LAT,
	.path = RB_PATH_TCP,
	.wr_name = "TCP message",
	.default_size = 2,
	.lat_scale = 0.5,
	.run = rb_run_tcp_pingpong,
	.result = rb_result_generic,
};

const struct rb_bench rb_bench_tcp_bw = {
	.name = "tcp_bw",
	.desc = "TCP stream; bandwidth and message rate on both sides",
	.mode = RB_MODE_BW,
	.path = RB_PATH_TCP,
	.wr_name = "TCP message",
	/* The server sees the messages: its own bandwidth, as send_bw's. */
	.needs_recv = true,
	/* -b: both stream on the one connection, each timing its own. */
	.bidir_ok = true,
	.default_size = 65536,
	.lat_scale = 1.0,
	.run = rb_run_tcp_stream,
	.result = rb_result_generic,
};

/* The server's data starts at 0 at every point (lock.h's layout). */
static int tcp_lock_prepare(struct rb_run *r)
{
	struct rb_lock_layout l;

	rb_lock_layout(r->p, 1, &l);
	return r->role == RB_ROLE_SERVER ? rb_buf_zero(r, rb_rx_of(r, 0), l.server_bytes) : 0;
}

/*
 * issue 42: lock's workload through a lock server over TCP (engine/
 * tcplock.h): the server queues waiters FIFO, the -q contenders share the
 * data connection; lock's figures.
 */
const struct rb_bench rb_bench_tcp_lock = {
	.name = "tcp_lock",
	.desc = "a lock server over TCP (FIFO grants), -q contenders; acquisitions/s",
	.mode = RB_MODE_LAT,
	.path = RB_PATH_TCP,
	.wr_name = "lock message",
	.lock = true,
	.fixed_size = 8,
	.default_size = 8,
	.lat_scale = 1.0,
	.region = rb_lock_region,
	.prepare = tcp_lock_prepare,
	.run = rb_run_tcp_lock,
	.result = rb_result_tcp_lock,
};
