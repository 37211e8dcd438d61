// SPDX-License-Identifier: MIT
/*
 * TCP on the same path, for RDMA to be judged against (qperf's names):
 * tcp_lat (ping-pong of -s bytes with TCP_NODELAY, one-way latency = half
 * the round trip, as send_lat) and tcp_bw (the client streams -s byte
 * messages, the server counts what arrives).  Their data crosses a TCP
 * connection of their own (.path): no device, no QP.
 */
#include "engine/run.h"

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
