// SPDX-License-Identifier: MIT
/*
 * -D in the one-WR streams (--reg-mode per-msg and cache, engine/onewr.c):
 * the measured phase asks rb_duration_over() with the point's count of
 * WRs, warm-up included, as every other loop does.  It was given the
 * phase's own count, which restarts at 0, and rb_duration_over() says
 * nothing before the count passes the warm-up: so a measured phase could
 * not end before it had posted more than the warm-up's messages, however
 * long -D had run.
 *
 * The proof uses -D 0 (forever), whose end is rb_stop_asked (SIGINT) once
 * the count is past the warm-up: with the stop already asked, the
 * measured phase must end after its first WR or two (the tail's signaled
 * one covering the rest), not after the warm-up's 400.  On the fake
 * provider, the MRs registered per message through fake_mrwrap.c.
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

#include "fake_mrwrap.h"
#include "core/regcache.h"
#include "wire/plan.h"
#include "core/sweep.h"
#include "engine/run.h"

#define WARMUP 400

/* write_bw -D 0 --warmup 400 -t 16, one QP, in @mode; the stop already asked. */
static void run_forever(uint8_t mode)
{
	struct rb_params p = fake_plan("write_bw");
	struct rb_oob oob;
	struct rb_run r;
	struct fake *f;
	char err[256];
	int sv[2];

	rb_axis_set1(&p.qps, 1);
	rb_axis_set1(&p.tx_depth, 16);
	rb_axis_set1(&p.signal, 4);
	p.iters = 0;
	p.forever = 1;
	p.warmup = WARMUP;
	p.reg_mode = mode;
	if (mode == RB_REG_CACHE) {
		p.reg_cache = 8;
		p.buffers = 32;
		p.reuse = RB_REUSE_SEQ;
	}
	if (rb_plan_validate(&p, 0, err, sizeof(err)))
		fail_msg("the test's plan is invalid: %s", err);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	memset(&r, 0, sizeof(r));
	f = fake_new(1, 16);
	fake_run_init(f, &r, rb_bench_find("write_bw"), RB_ROLE_CLIENT, &p, &oob, sv[0], 2000);
	memset(&fake_mrs, 0, sizeof(fake_mrs));
	fake_mrs.f = f;
	assert_int_equal(r.bench->prepare(&r), 0);
	rb_stop_asked = 1; /* ^C before the point: it ends as soon as -D 0 may */
	assert_int_equal(rb_run_stream(&r), 0);
	rb_stop_asked = 0;
	assert_int_equal(r.pt.warmup, WARMUP);
	/* The warm-up ran whole; the measured phase ended at once (its first
	 * WR, and the signaled one that covers the tail). */
	if (r.ops < 1 || r.ops > 2)
		fail_msg("--reg-mode %s -D 0, stop asked: %llu measured WRs, want 1 or 2 (the "
			 "warm-up is %d)",
			 mode == RB_REG_CACHE ? "cache" : "per-msg", (unsigned long long)r.ops,
			 WARMUP);
	assert_int_equal(r.total, WARMUP + r.ops);
	assert_int_equal(f->access_errors, 0);
	fake_mrs.f = NULL;
	fake_run_free(&r);
	fake_free(f);
	rb_oob_close(&oob);
	close(sv[1]);
}

static void per_msg_ends_past_warmup(void **state)
{
	(void)state;
	run_forever(RB_REG_PER_MSG);
}

static void cache_ends_past_warmup(void **state)
{
	(void)state;
	run_forever(RB_REG_CACHE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(per_msg_ends_past_warmup),
		cmocka_unit_test(cache_ends_past_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
