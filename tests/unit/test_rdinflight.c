// SPDX-License-Identifier: MIT
/*
 * Reads and atomics in flight (issue 40 item 1), on the fake provider:
 * read_bw and atomic_bw keep -t WRs queued, as perftest does, and leave
 * the HCA to hold max_rd_atomic (-o) of them on the wire.  A queue capped
 * at rd_atom drained at every signal: the loop waited for the one
 * completion that covered the whole queue, with nothing left posted, a
 * round trip lost every rd_atom WRs.
 *
 * The checks count from the fake's side (its own count of the WRs a QP
 * holds, read at each ibv_poll_cq), not from the engine's bookkeeping.
 */
#include <errno.h>
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

#include "fake_verbs.h"
#include "core/sweep.h"
#include "engine/run.h"
#include "wire/plan.h"

/* What the QP held each time the loop polled while WRs were still to post. */
static struct {
	struct fake *f;
	int (*poll)(struct ibv_cq *cq, int num, struct ibv_wc *wc);
	uint64_t to_post;   /* WRs the phase posts in all */
	uint32_t min_held;  /* the fewest WRs held at such a poll */
	uint64_t polls_low; /* such polls with fewer than the queue's depth held */
	uint32_t depth;
} seen;

static int poll_watch(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	uint32_t held = seen.f->in_flight[0];

	if (seen.f->nwrs < seen.to_post) {
		if (held < seen.min_held)
			seen.min_held = held;
		if (held < seen.depth)
			seen.polls_low++;
	}
	return seen.poll(cq, num, wc);
}

struct rf {
	struct fake *f;
	struct rb_params p;
	struct rb_run r;
	struct rb_oob oob, peer;
};

/* @test at -t @depth -Q @signal -o @outs, one QP, -l 1, -n @iters, no warm-up. */
static void rf_start(struct rf *x, const char *test, uint32_t depth, uint32_t signal, uint32_t outs,
		     uint64_t iters)
{
	char err[256];
	int sv[2];

	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
	rb_axis_set1(&x->p.qps, 1);
	rb_axis_set1(&x->p.batch, 1);
	rb_axis_set1(&x->p.signal, signal);
	rb_axis_set1(&x->p.tx_depth, depth);
	x->p.outstanding = outs;
	x->p.iters = iters;
	x->p.warmup = 0;
	if (rb_plan_validate(&x->p, 0, err, sizeof(err)))
		fail_msg("%s: plan refused: %s", test, err);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	x->f = fake_new(1, depth);
	fake_run_init(x->f, &x->r, rb_bench_find(test), RB_ROLE_CLIENT, &x->p, &x->oob, sv[0],
		      2000);
	x->peer.fd = sv[1];
	/* Completions show two polls after their WR, as a wire's round trip. */
	x->f->delay = 2;
	memset(&seen, 0, sizeof(seen));
	seen.f = x->f;
	seen.poll = x->f->ctx.ops.poll_cq;
	seen.to_post = iters;
	seen.min_held = UINT32_MAX;
	seen.depth = depth;
	x->f->ctx.ops.poll_cq = poll_watch;
}

static void rf_end(struct rf *x)
{
	fake_run_free(&x->r);
	fake_free(x->f);
	rb_oob_close(&x->oob);
	rb_oob_close(&x->peer);
}

/* Every WR posted was covered by a completion, and the queue ended empty. */
static void rf_covered(const struct rf *x, uint64_t iters)
{
	assert_int_equal(x->f->nwrs, iters);
	assert_int_equal(x->f->covered, iters);
	assert_int_equal(x->f->retired, iters);
	assert_int_equal(x->f->in_flight[0], 0);
	assert_int_equal(x->f->overflows, 0);
	assert_int_equal(x->f->wr_id_errors, 0);
	assert_int_equal(x->r.ops, iters);
}

/*
 * read_bw -o 16 -t 128 -Q 64 (rxe's rd_atom is 128; -o 16 is mlx5's):
 * 128 reads queued, the signal every 64 as asked, and the loop polls
 * only with the queue full while reads are left to post: the completion
 * of the 64th comes while 64 more are queued.  Before issue 40 the queue
 * was 16 deep and -Q clamped to 16: at most 16 held, the queue drained
 * at each signal.
 */
static void reads_keep_queue_full(void **state)
{
	const char *tests[] = { "read_bw", "atomic_bw" };
	struct rf x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		rf_start(&x, tests[i], 128, 64, 16, 4096);
		assert_int_equal(x.r.c.rd_atom, 16);
		assert_int_equal(rb_run_stream(&x.r), 0);
		rf_covered(&x, 4096);
		if (x.f->max_in_flight[0] != 128)
			fail_msg("%s -o 16 -t 128: %u WRs posted and not completed at most, "
				 "not -t's 128",
				 tests[i], x.f->max_in_flight[0]);
		/* -Q as asked: 4096 / 64 signaled WRs. */
		assert_int_equal(x.r.pt.signal, 64);
		assert_int_equal(x.r.qclamp.asked, 0);
		assert_int_equal(x.f->signaled, 4096 / 64);
		if (seen.polls_low)
			fail_msg("%s -o 16 -t 128: %llu polls while reads were left to post found "
				 "the queue below -t (the fewest held: %u)",
				 tests[i], (unsigned long long)seen.polls_low, seen.min_held);
		rf_end(&x);
	}
}

/*
 * -o above -t: the queue is -t deep either way, and -o 1 (one read on
 * the wire at a time) keeps -t queued too.
 */
static void reads_depth_is_tx_depth(void **state)
{
	const uint32_t outs[] = { 1, 4, 64 };
	struct rf x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		rf_start(&x, "read_bw", 32, 8, outs[i], 1000);
		assert_int_equal(x.r.sq[0].depth, 32);
		assert_int_equal(rb_run_stream(&x.r), 0);
		rf_covered(&x, 1000);
		assert_int_equal(x.f->max_in_flight[0], 32);
		assert_int_equal(seen.polls_low, 0);
		rf_end(&x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_keep_queue_full),
		cmocka_unit_test(reads_depth_is_tx_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
