// SPDX-License-Identifier: MIT
/*
 * The data-path tests' fixture (test_xfer_*.c): a plan on the fake
 * provider (fake_verbs.h), and the checks every run must pass.  The fake
 * keeps its own count of the WRs each QP holds and refuses a post that
 * would overflow a queue, so the library's bookkeeping is checked against
 * an independent one.
 */
#ifndef XFER_FX_H
#define XFER_FX_H

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "core/clock.h"
#include "fake_verbs.h"
#include "report/output.h"
#include "wire/plan.h"
#include "core/sweep.h"
#include "engine/run.h"

#define SIGNALED(w) (((w)->flags & IBV_SEND_SIGNALED) != 0)

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

struct fx {
	struct fake *f;
	struct rb_params p; /* shaped by the test before fx_start() */
	struct rb_run r;
	struct rb_oob oob;
	struct rb_oob peer; /* the other end of the control channel */
};

/*
 * A control channel whose STOP (for @count operations) comes only at
 * @at_ns: a client that reads its counters, or is slow to say it is done,
 * after its last operation.  @stop_ns: when the loop was handed it.
 */
struct late_ctl {
	struct rb_ctl ctl;
	uint64_t at_ns, count, stop_ns;
};

#define expect_eq(got, want)                                                      \
	do {                                                                      \
		unsigned long long g_ = (unsigned long long)(got);                \
		unsigned long long w_ = (unsigned long long)(want);               \
		if (g_ != w_)                                                     \
			fail_msg("%s: %s is %llu, want %llu", ctx, #got, g_, w_); \
	} while (0)

struct shape {
	uint32_t qps, batch, signal, depth;
	uint64_t iters, warmup;
	unsigned int delay;
};

/* The case being checked, for messages. */
extern char ctx[160];
void fx_plan(struct fx *x, const char *test);
/* One value per axis; signal only where the test takes it. */
void fx_shape(struct fx *x, uint32_t qps, uint32_t batch, uint32_t signal, uint32_t depth);
/* Fake QPs as deep as the plan's deepest queue; the plan must be valid. */
void fx_start(struct fx *x, enum rb_role role, unsigned int timeout_ms);
/* A client of @test in one shape, started at a 1 s timeout: fx_plan(), fx_shape(), fx_start(). */
void fx_client(struct fx *x, const char *test, uint32_t qps, uint32_t batch, uint32_t signal,
	       uint32_t depth);
/* A write_bw plan of @s's shape, its -n and --warmup, not started. */
void fx_plan_shape(struct fx *x, const struct shape *s);
/* @s's stream on the started @x, the fake's completions @s->delay late: each WR covered, -n counted. */
void fx_stream_shape(struct fx *x, const struct shape *s);
/* send_lat's plan: -t 4, a receive queue of 8, -n 200, --warmup 10 (210 messages), not started. */
void fx_send_lat_plan(struct fx *x);
/* send_lat's three stages over a QP that receives its own SENDs, completions 6 polls late. */
void fx_send_lat_loopback(struct fx *x);
void fx_end(struct fx *x);
/* The peer says @what about point @point on the control channel. */
void peer_sync(struct fx *x, uint32_t point, uint32_t what, uint64_t count);
uint64_t ms_since(uint64_t t0);
/* @x's control channel: the peer's STOP for @count comes @ms from now. */
void late_stop(struct fx *x, struct late_ctl *l, uint64_t ms, uint64_t count);
/* What is written to stderr between stderr_begin() and stderr_end(). */
void stderr_begin(void);
void stderr_end(char *buf, size_t len);
/*
 * What every finished run must leave: each WR the fake saw is covered by
 * a later signaled WR of its QP, whose wr_id is (QP index << 32 | WRs
 * covered); no QP ever had pt.signal unsignaled WRs in a row; the fake
 * retired every WR; both bookkeepings say the queues are empty.
 */
void check_covered(const struct fx *x);
/* Counts that batch, signal and the QPs do not divide. */
extern const struct shape shapes[];
extern const size_t nshapes;

#endif
