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

#endif
