// SPDX-License-Identifier: MIT
/*
 * Unit tests for what the engine alone does once connected and at a
 * point's start and end (issue 39, step 1): rb_run_conn() runs the
 * row's .setup; rb_point_begin() makes a verbs row's receive plan and
 * WR templates, which the session once asked for through its path's
 * .point (rb_rx_plan(), rb_wrs_prepare(), now private to src/engine/),
 * then runs the row's .prepare; a socket row gets no templates;
 * rb_point_cut() ends a point ^C stopped, with its last --interval
 * slice.  The session called each of these steps itself.  And the run's
 * layout: the fields the loops touch every message lead struct rb_run
 * and its connection, in its first cache lines.  The fake's QPs only
 * take receives here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "core/sweep.h"
#include "engine/run.h"

struct bx {
	struct fake *f; /* its QP takes the receives the test's .prepare posts */
	struct rb_params p;
	struct ibv_qp *qp[1];
	struct ibv_mr mr, *mrs[1];
	uint8_t buf[2 * 4096];
	struct rb_conn c;
	struct rb_run *r;
};

/* @test's default plan with -s 64,1024 -n 1000, one QP, a run made. */
static void bx_start(struct bx *x, const char *test)
{
	const struct rb_run_cfg cfg = { .bench = rb_bench_find(test),
					.role = RB_ROLE_CLIENT,
					.p = &x->p,
					.timeout_ns = 1000000000ULL };
	char err[128];

	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
	assert_int_equal(rb_axis_parse("64,1024", true, &x->p.size, err, sizeof(err)), 0);
	x->p.iters = 1000;
	x->f = fake_new(1, 64);
	x->qp[0] = fake_qp(x->f, 0);
	x->mr.lkey = 0x77;
	x->mrs[0] = &x->mr;
	x->c.nqp = 1;
	x->c.nmr = 1;
	x->c.qp = x->qp;
	x->c.mr = x->mrs;
	x->c.buf = x->buf;
	x->c.region = 4096;
	x->c.cq = (struct ibv_cq *)(uintptr_t)0x3000;
	x->c.rx_depth = 100;
	x->c.data_fd = -1;
	x->r = rb_run_new();
	assert_non_null(x->r);
	rb_run_init(x->r, &cfg);
}

static void bx_point(struct bx *x, uint32_t i)
{
	struct rb_point_at at = { .index = i, .role = RB_ROLE_CLIENT };

	rb_plan_point(&x->p, i, &at.pt);
	assert_int_equal(rb_point_begin(x->r, &x->c, &at), 0);
}

/* A verbs row: each point's templates (its size, this MR, its buffer) and receive plan. */
static void point_begin_builds_wrs(void **state)
{
	struct bx x;
	struct rb_run *r;

	(void)state;
	bx_start(&x, "send_bw");
	r = x.r;
	bx_point(&x, 0);
	assert_non_null(r->wr);
	assert_int_equal(r->nwr, rb_axis_max(&x.p.batch));
	assert_ptr_equal(r->wr[0].sg_list, &r->sge[0]);
	assert_int_equal(r->sge[0].length, 64);
	assert_int_equal(r->sge[0].lkey, 0x77);
	assert_int_equal(r->sge[0].addr, (uintptr_t)(x.buf + 4096)); /* the tx region */
	assert_int_equal(r->wr[0].opcode, IBV_WR_SEND);
	assert_true(r->hb.every > 0);
	/* -n 1000 after the warmup: the last rx_depth receives are not reposted. */
	assert_int_equal(r->rx_count, 0);
	assert_int_equal(r->rx_full, r->pt.warmup + 1000 - 100);
	/* The row's .prepare: send_bw's receive queue topped up. */
	assert_int_equal(r->sq[0].posted_recv, 100);
	/* The next point's templates are its own, without the session's help. */
	r->rx_count = 5;
	bx_point(&x, 1);
	assert_int_equal(r->sge[0].length, 1024);
	assert_int_equal(r->rx_count, 0);
	rb_run_free(r);
	fake_free(x.f);
}

/* The row's .prepare, after the templates: write_bw zeroes the point's rx region. */
static void point_begin_prepares(void **state)
{
	struct bx x;
	size_t i;

	(void)state;
	bx_start(&x, "write_bw");
	memset(x.buf, 0xaa, sizeof(x.buf));
	bx_point(&x, 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(x.buf[i], 0);
	assert_int_equal(x.buf[64], 0xaa);
	assert_int_equal(x.r->sge[0].length, 64);
	rb_run_free(x.r);
	fake_free(x.f);
}

/* rb_run_conn(): the test's .setup once connected (send's first receives), none for write. */
static void run_conn_sets_up(void **state)
{
	struct bx x;

	(void)state;
	bx_start(&x, "send_lat");
	assert_int_equal(rb_run_conn(x.r, &x.c), 0);
	assert_non_null(x.r->sq);
	assert_int_equal(x.r->sq[0].posted_recv, 100);
	rb_run_free(x.r);
	fake_free(x.f);
	bx_start(&x, "write_lat");
	assert_int_equal(rb_run_conn(x.r, &x.c), 0);
	assert_int_equal(x.r->sq[0].posted_recv, 0);
	rb_run_free(x.r);
	fake_free(x.f);
}

/* -D (no -n): every receive is reposted, however many come. */
static void point_begin_rx_forever(void **state)
{
	struct bx x;

	(void)state;
	bx_start(&x, "send_lat");
	x.p.iters = 0;
	x.p.duration_s = 1;
	bx_point(&x, 0);
	assert_int_equal(x.r->rx_full, UINT64_MAX);
	assert_non_null(x.r->wr);
	rb_run_free(x.r);
	fake_free(x.f);
}

/* A socket row: no QPs, no MRs, and no templates made for it. */
static void point_begin_tcp_none(void **state)
{
	struct bx x;

	(void)state;
	bx_start(&x, "tcp_lat");
	memset(&x.c, 0, sizeof(x.c));
	x.c.data_fd = 5;
	bx_point(&x, 0);
	assert_null(x.r->wr);
	assert_null(x.r->sge);
	rb_run_free(x.r);
	fake_free(x.f);
}

/*
 * A loop ^C stopped: rb_point_cut() ends what was measured and its last
 * --interval slice (the session once called rb_run_cut() and
 * rb_iv_finish() in turn); nothing measured, nothing ended.
 */
static void point_cut_ends_slice(void **state)
{
	struct bx x;
	struct rb_run *r;

	(void)state;
	bx_start(&x, "send_lat");
	r = x.r;
	bx_point(&x, 0);
	r->iv.next = 0; /* --interval, its first slice open */
	r->iv.len = 1000000000ULL;
	assert_int_equal(rb_point_cut(r), 0); /* still in the warmup */
	assert_int_equal(rb_run_intervals(r), 0);
	r->t0 = r->iv.t0 = 1000;
	r->t1 = 2000;
	r->ops = 5;
	assert_int_equal(rb_point_cut(r), 1);
	assert_int_equal(rb_run_intervals(r), 1);
	assert_int_equal(r->iv.list[0].ops, 5);
	assert_int_equal(rb_point_cut(r), 1); /* the slice ended once */
	assert_int_equal(rb_run_intervals(r), 1);
	rb_run_free(r);
	fake_free(x.f);
}

#define HOT_END	   256 /* bytes: the run's first four cache lines */
#define HOT(field) assert_in_range(offsetof(struct rb_run, field), 0, HOT_END - 8)

/*
 * What the loops touch every message: the run's own fields first, then
 * the connection's hot ones (qp, post_send, srq), which lead struct
 * rb_conn; a feature's state, the device and the peer's CONN after.
 */
static void hot_fields_first(void **state)
{
	(void)state;
	HOT(sq);
	HOT(wr);
	HOT(p);
	HOT(bench);
	HOT(cq);
	HOT(on_recv);
	HOT(ops);
	HOT(total);
	HOT(next_clock);
	HOT(rx_count);
	HOT(rx_full);
	HOT(hb.posts);
	HOT(hb.every);
	HOT(nwr);
	HOT(wr_stride);
	HOT(wr_flags);
	HOT(reap_slow);
	HOT(pt.signal);
	HOT(pt.batch);
	HOT(c.qp);
	HOT(c.post_send);
	HOT(c.srq);
	assert_true(offsetof(struct rb_conn, dev) > offsetof(struct rb_conn, lock_share));
	assert_true(offsetof(struct rb_run, cpq) > offsetof(struct rb_run, c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_begin_builds_wrs), cmocka_unit_test(point_begin_prepares),
		cmocka_unit_test(point_begin_rx_forever), cmocka_unit_test(point_begin_tcp_none),
		cmocka_unit_test(point_cut_ends_slice),	  cmocka_unit_test(run_conn_sets_up),
		cmocka_unit_test(hot_fields_first),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
