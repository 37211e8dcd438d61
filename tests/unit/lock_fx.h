/* SPDX-License-Identifier: MIT */
/*
 * The lock's unit tests' fixture (test_lock, test_lockhosts): a client
 * lock run on the fake provider in loopback, its "server memory" its own
 * rx region, the fake's atomics acting on it.
 */
#ifndef RB_TEST_LOCK_FX_H
#define RB_TEST_LOCK_FX_H

#include "engine/lock.h"
#include "fake_verbs.h"

struct lx {
	struct fake *f;
	struct rb_params p;
	struct rb_run r;
	struct rb_oob oob;
	int peer_fd;
	struct rb_lock_run lk;
	struct rb_lock_layout l;
};

/*
 * lx_start() - @contenders on @locks locks with --cs-bytes @cs, algorithm
 * @algo, -n 300 after 20 warm-up acquisitions, --verify, a @timeout_ms
 * control channel; completions lag 3 polls, so that the contenders' WRs
 * interleave at the word.  lx_end() - all of it freed.
 */
void lx_start(struct lx *x, enum rb_lock_algo_id algo, uint32_t contenders, uint32_t locks,
	      uint32_t cs, unsigned int timeout_ms);
void lx_end(struct lx *x);

/*
 * One client host of a --run-id run, in a process of its own: a client on
 * the fake whose "server memory" (loopback: its rx region) starts with
 * the run's shared words, mapped as the server maps them (attached for
 * it through sess_lockshare_attach() on the table lock @lock_fd).
 * lx_host_open(): 0, or a code saying which step failed (10 to 12).
 * lx_host_close(): freed, detached from the run.
 */
struct sess_lockshare;
struct lx_host {
	struct sess_lockshare *ls;
	struct fake *f;
	struct rb_run r;
	struct rb_oob oob;
	uint8_t *buf;
	int lock_fd;
};
int lx_host_open(struct lx_host *h, struct rb_params *p, int lock_fd);
void lx_host_close(struct lx_host *h);

#endif
