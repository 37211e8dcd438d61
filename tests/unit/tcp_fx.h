/* SPDX-License-Identifier: MIT */
/*
 * A pair of socket-test sides (src/engine/sock.c, tcplock.c) over a real
 * TCP connection on the loopback, each side in its thread, with a fake
 * control channel that carries the STOPs between them (test_tcp,
 * test_tcplock).
 */
#ifndef RB_TCP_FX_H
#define RB_TCP_FX_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/run.h"

/* Each side's STOP, for the other side's poll. */
struct fctl {
	pthread_mutex_t m;
	bool stop[2];
	uint64_t count[2];
};

struct side {
	struct rb_run r;
	struct rb_ctl ctl;
	struct rb_result res;
	int ret;
};

struct pair {
	struct rb_params p;
	struct fctl f;
	struct side s[2]; /* client, server */
};

/* A connected pair of TCP sockets on the loopback, with 10 ms timeouts as the session sets. */
void connect_pair(int fd[2]);

/* Both sides of test @test, -s @size, -n @iters, 10 warm-up, -b @bidir. */
void pair_init(struct pair *x, const char *test, uint32_t size, uint64_t iters, bool bidir);
void pair_free(struct pair *x);

/* One side's point, its STOP (the client's, as the session sends it) and result. */
void *run_side(void *arg);

/* The server's side in a thread, the client's here. */
void run_pair(struct pair *x);

#endif
