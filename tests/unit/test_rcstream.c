// SPDX-License-Identifier: MIT
/*
 * --reg-mode cache's stream (src/engine/regcache_stream.c) on the fake
 * provider, whose key checks fail a WR whose address lies outside its
 * lkey's MR: ibv_reg_mr and ibv_dereg_mr are this test's own (linked
 * with --wrap), counting and holding the live MRs for those checks.  The
 * counts are worked out by hand from --reuse seq's order.
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
#include "xfer_fx.h"
#include "core/regcache.h"
#include "wire/plan.h"
#include "core/sweep.h"
#include "engine/run.h"

/* write_bw, -q 1 -l 1 -Q 1 -t @depth, --reg-mode cache over @nbuf buffers in @cap entries, seq. */
static void rc_start(struct fx *x, uint32_t depth, uint32_t cap, uint32_t nbuf, uint64_t iters,
		     uint64_t warmup)
{
	memset(&fake_mrs, 0, sizeof(fake_mrs));
	fx_plan(x, "write_bw");
	fx_shape(x, 1, 1, 1, depth);
	x->p.iters = iters;
	x->p.warmup = warmup;
	x->p.reg_mode = RB_REG_CACHE;
	x->p.reg_cache = cap;
	x->p.buffers = nbuf;
	x->p.reuse = RB_REUSE_SEQ;
	fx_start(x, RB_ROLE_CLIENT, 1000);
	fake_mrs.f = x->f;
	assert_int_equal(x->r.bench->prepare(&x->r), 0);
}

static void rc_end(struct fx *x)
{
	fake_mrs.f = NULL;
	fx_end(x);
}

/* WR i used buffer i % nbuf (seq): its address, and a key of an MR that holds it. */
static void check_wrs(const struct fx *x, uint32_t nbuf, size_t nwrs)
{
	const struct fake_wr *w = x->f->wrs;
	size_t i;

	assert_int_equal(x->f->nwrs, nwrs);
	for (i = 0; i < nwrs; i++) {
		assert_int_equal(w[i].addr - w[0].addr, (i % nbuf) * x->r.pt.size);
		assert_int_equal(w[i].length, x->r.pt.size);
		assert_true(w[i].lkey >= 0x7000);
	}
}

/* A cache as large as the buffers: a miss each until all are in, then hits. */
static void test_all_fit(void **state)
{
	struct rb_result res;
	struct fx x;

	(void)state;
	rc_start(&x, 8, 4, 4, 50, 2);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 50);
	/* warm-up: buffers 0, 1 (misses); measured: 2, 3 miss, 48 hits, nothing evicted */
	assert_int_equal(x.r.rc.hits, 48);
	assert_int_equal(x.r.rc.misses, 2);
	assert_int_equal(x.r.rc.evictions, 0);
	assert_int_equal(fake_mrs.regs, 4);
	assert_int_equal(fake_mrs.deregs, 4); /* the point's end */
	assert_int_equal(fake_mrs.live, 0);
	check_wrs(&x, 4, 52);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	assert_true(res.has_rcache);
	assert_true(res.rcache_hit_pct == 96.0);
	assert_true(res.regs_per_s > 0 && res.deregs_per_s == 0);
	assert_true(res.regs_per_s * res.duration_s > 1.999 &&
		    res.regs_per_s * res.duration_s < 2.001);
	rc_end(&x);
}

/* seq over more buffers than entries: every message misses and evicts (LRU's worst case). */
static void test_seq_thrashes(void **state)
{
	struct rb_result res;
	struct fx x;

	(void)state;
	rc_start(&x, 8, 4, 16, 50, 2);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.rc.hits, 0);
	assert_int_equal(x.r.rc.misses, 50);
	/* 2 entries free after the warm-up, then one eviction per miss */
	assert_int_equal(x.r.rc.evictions, 48);
	assert_int_equal(fake_mrs.regs, 52);
	assert_int_equal(fake_mrs.deregs, 52);
	assert_int_equal(fake_mrs.live, 0);
	assert_true(fake_mrs.max_live <= 4);
	check_wrs(&x, 16, 52);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	assert_true(res.rcache_hit_pct == 0);
	assert_true(res.deregs_per_s * res.duration_s > 47.99 &&
		    res.deregs_per_s * res.duration_s < 48.01);
	rc_end(&x);
}

/* The warm-up fills the cache and is not counted: 4 misses and 2 hits there, 50 hits after. */
static void test_warmup_not_counted(void **state)
{
	struct fx x;

	(void)state;
	rc_start(&x, 8, 4, 4, 50, 6);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.rc.hits, 50);
	assert_int_equal(x.r.rc.misses, 0);
	assert_int_equal(x.r.rc.evictions, 0);
	assert_int_equal(fake_mrs.regs, 4);
	rc_end(&x);
}

/*
 * Two entries, a queue of 8, completions showing 3 polls late (WRs pile
 * up in flight): at most 2 in flight, else a third WR would find both
 * entries held; the MRs never more than 2.
 */
static void test_small_cache_depth(void **state)
{
	struct fx x;

	(void)state;
	rc_start(&x, 8, 2, 5, 40, 0);
	x.f->delay = 3;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 40);
	assert_int_equal(x.r.rc.misses, 40);
	assert_int_equal(x.r.rc.evictions, 38);
	assert_int_equal(fake_mrs.max_live, 2);
	assert_int_equal(fake_mrs.live, 0);
	check_wrs(&x, 5, 40);
	rc_end(&x);
}

/* --cq-api ex: the cache's stream polls the extended CQ (device.cq_api's). */
static void test_extended_cq(void **state)
{
	struct fx x;

	(void)state;
	rc_start(&x, 8, 4, 4, 50, 2);
	fake_cqex(x.f, &x.r, false);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 50);
	assert_int_equal(x.r.rc.hits, 48);
	assert_true(x.f->cqx_starts > 0);
	rc_end(&x);
	/* --reg-mode per-msg's stream (regmsg.c) too. */
	rc_start(&x, 8, 4, 4, 50, 2);
	x.p.reg_mode = RB_REG_PER_MSG;
	fake_cqex(x.f, &x.r, false);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 50);
	assert_true(x.f->cqx_starts > 0);
	rc_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fit),
		cmocka_unit_test(test_seq_thrashes),
		cmocka_unit_test(test_warmup_not_counted),
		cmocka_unit_test(test_small_cache_depth),
		cmocka_unit_test(test_extended_cq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
