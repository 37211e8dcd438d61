// SPDX-License-Identifier: MIT
/*
 * The socket tests' loops (src/engine/sock.c) over a real TCP connection
 * on the loopback, each side in its thread, with a fake control channel
 * that carries the STOPs between them: what only the lab reached before.
 *
 * - tcp_lat: as many round trips as -n on both sides, positive one-way
 *   latencies, the server's samples as many as the client's;
 * - tcp_bw: the server counts every message the client sent, both report
 *   bandwidth; -b: each side sends its -n and receives the peer's;
 * - a peer that closes the connection ends the point with ECONNRESET, and
 *   a silent one with ETIMEDOUT after the timeout.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "engine/run.h"
#include "tcp_fx.h"

static void tcp_lat_pingpong(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_lat", 64, 300, false);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		const struct rb_result *r = &x.s[i].res;

		assert_int_equal(x.s[i].ret, 0);
		assert_int_equal(r->iters, 300);
		assert_true(r->has_lat);
		assert_true(r->lat.min > 0 && r->lat.min <= r->lat.p50 && r->lat.p50 <= r->lat.max);
		assert_true(r->has_cpu && r->cpu_ns_per_msg > 0);
		assert_false(r->has_bw);
	}
	assert_int_equal(x.s[0].r.total, 310);
	pair_free(&x);
}

static void tcp_bw_stream(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_bw", 4096, 2000, false);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		const struct rb_result *r = &x.s[i].res;

		assert_int_equal(x.s[i].ret, 0);
		assert_int_equal(r->iters, 2000);
		assert_true(r->has_bw && r->bw_avg_gbps > 0 && r->msg_rate_mpps > 0);
		assert_true(r->bw_peak_gbps >= r->bw_avg_gbps * 0.999);
		assert_false(r->has_lat);
	}
	/* Every byte the client counted arrived. */
	assert_int_equal(x.s[1].r.total, x.s[0].r.total);
	pair_free(&x);
}

static void tcp_bw_bidir(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_bw", 65536, 500, true);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		assert_int_equal(x.s[i].ret, 0);
		assert_true(x.s[i].r.stop_sent);
		assert_int_equal(x.s[i].res.iters, 500);
		assert_true(x.s[i].res.has_bw && x.s[i].res.bw_avg_gbps > 0);
	}
	pair_free(&x);
}

/* The server's peer goes away mid-point: named, ECONNRESET. */
static void tcp_peer_closes(void **state)
{
	struct pair x;

	(void)state;
	pair_init(&x, "tcp_lat", 64, 300, false);
	close(x.s[0].r.c.data_fd);
	x.s[0].r.c.data_fd = -1;
	assert_int_equal(x.s[1].r.bench->run(&x.s[1].r), -ECONNRESET);
	pair_free(&x);
}

/* A client that sends nothing: the server gives up after the timeout. */
static void tcp_silent_peer(void **state)
{
	struct pair x;

	(void)state;
	pair_init(&x, "tcp_bw", 4096, 100, false);
	x.s[1].r.timeout_ns = 200000000ULL;
	assert_int_equal(x.s[1].r.bench->run(&x.s[1].r), -ETIMEDOUT);
	pair_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tcp_lat_pingpong), cmocka_unit_test(tcp_bw_stream),
		cmocka_unit_test(tcp_bw_bidir),	    cmocka_unit_test(tcp_peer_closes),
		cmocka_unit_test(tcp_silent_peer),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
