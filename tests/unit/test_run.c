// SPDX-License-Identifier: MIT
/*
 * Unit tests for the run's life as the session drives it (engine/run.c):
 * rb_point_begin() puts a run at a point's start from the connection the
 * session built and the point it names, and resets what the last point
 * left (what session.c's point_start() once reset field by field);
 * rb_point_end() gives the point's --verify status first.  No verbs: the
 * connection's objects are never called here.
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

struct rx {
	struct fake *f; /* its QPs take the receives the test's .prepare posts */
	struct rb_params p;
	struct ibv_qp *qp[2];
	/* The MR and buffer rb_point_begin()'s WR templates name (never used). */
	struct ibv_mr mr, *mrs[1];
	uint8_t buf[2 * 64];
	struct rb_conn c;
	struct rb_run *r;
};

/* send_bw, 2 QPs, -t 8, -Q 16 (above the depth: clamped), a run made. */
static void rx_start(struct rx *x, const char *test)
{
	const struct rb_run_cfg cfg = { .bench = rb_bench_find(test),
					.role = RB_ROLE_CLIENT,
					.p = &x->p,
					.timeout_ns = 1000000000ULL };

	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
	rb_axis_set1(&x->p.qps, 2);
	rb_axis_set1(&x->p.tx_depth, 8);
	rb_axis_set1(&x->p.signal, 16);
	x->f = fake_new(2, 64);
	x->qp[0] = fake_qp(x->f, 0);
	x->qp[1] = fake_qp(x->f, 1);
	x->c.nqp = 2;
	x->c.nmr = 1;
	x->mrs[0] = &x->mr;
	x->c.mr = x->mrs;
	x->c.buf = x->buf;
	x->c.region = 64;
	x->c.qp = x->qp;
	x->c.cq = (struct ibv_cq *)(uintptr_t)0x3000;
	x->c.channel = (struct ibv_comp_channel *)(uintptr_t)0x4000;
	x->c.rx_depth = 7;
	x->c.data_fd = -1;
	x->r = rb_run_new();
	assert_non_null(x->r);
	rb_run_init(x->r, &cfg);
}

/* What a point leaves behind: counts, STOPs, a verify failure, intervals. */
static void rx_dirty(struct rb_run *r)
{
	r->ops = 5;
	r->total = 6;
	r->t0 = r->t1 = r->cpu0 = r->cpu1 = 7;
	r->stopped = r->stop_sent = true;
	r->stop_count = 8;
	r->rx_count = 9;
	r->verify.status = -EILSEQ;
	r->iv.list = calloc(1, sizeof(*r->iv.list));
	r->iv.n = r->iv.cap = 1;
	r->sq[0].used = 3;
	r->sq[1].unsig = 2;
	r->sq_done[1] = 4;
}

static void point_begin_resets(void **state)
{
	struct rb_point_at at = { .index = 3, .role = RB_ROLE_SERVER };
	struct rx x;
	struct rb_run *r;

	(void)state;
	rx_start(&x, "send_bw");
	r = x.r;
	x.p.bidir = true;
	rb_plan_point(&x.p, 0, &at.pt);
	assert_int_equal(rb_point_begin(r, &x.c, &at), 0);
	rx_dirty(r);
	assert_int_equal(rb_point_begin(r, &x.c, &at), 0);
	/* The connection, as the session built it. */
	assert_ptr_equal(r->c.qp, x.qp);
	assert_int_equal(r->c.nqp, 2);
	assert_int_equal(r->c.rx_depth, 7);
	assert_ptr_equal(r->cq, x.c.cq);
	/* The point, and this side's role and -b. */
	assert_int_equal(r->point, 3);
	assert_int_equal(r->role, RB_ROLE_SERVER);
	assert_true(r->bidir);
	assert_null(r->ev.chan); /* busy polling */
	/* -Q 16 above -t 8: clamped, the asked one kept for the label. */
	assert_int_equal(r->pt.signal, 8);
	assert_int_equal(r->qclamp.asked, 16);
	assert_int_equal(rb_run_signal_asked(r), 16);
	assert_int_equal(rb_run_point(r)->signal, 8);
	assert_int_equal(r->sq[0].depth, 8);
	assert_int_equal(r->sq[1].depth, 8);
	assert_int_equal(r->sq[1].unsig, 0);
	assert_int_equal(r->sq_done[1], 0);
	/* Nothing of the last point left. */
	assert_int_equal(r->ops, 0);
	assert_int_equal(r->total, 0);
	assert_int_equal(r->t0 + r->t1 + r->cpu0 + r->cpu1, 0);
	assert_false(r->stopped);
	assert_false(r->stop_sent);
	assert_int_equal(r->stop_count, 0);
	assert_int_equal(r->rx_count, 0);
	assert_int_equal(r->verify.status, 0);
	assert_null(r->iv.list);
	assert_int_equal(rb_run_intervals(r), 0);
	rb_run_free(r);
	fake_free(x.f);
}

/* A point that waits on events takes the channel; a connection rebuilt is read anew. */
static void point_begin_reads_conn(void **state)
{
	struct rb_point_at at = { .index = 1, .role = RB_ROLE_CLIENT };
	struct ibv_qp *other[2];
	struct rx x;

	(void)state;
	rx_start(&x, "send_bw");
	other[0] = x.qp[1];
	other[1] = x.qp[0];
	rb_plan_point(&x.p, 0, &at.pt);
	at.pt.poll = RB_POLL_EVENT;
	assert_int_equal(rb_point_begin(x.r, &x.c, &at), 0);
	assert_ptr_equal(x.r->ev.chan, x.c.channel);
	x.c.qp = other;
	at.pt.poll = RB_POLL_BUSY;
	assert_int_equal(rb_point_begin(x.r, &x.c, &at), 0);
	assert_ptr_equal(x.r->c.qp, other);
	assert_null(x.r->ev.chan);
	rb_run_free(x.r);
	fake_free(x.f);
}

/* A socket test's connection has no QPs: no per-QP state, nothing refused. */
static void point_begin_no_qps(void **state)
{
	struct rb_point_at at = { .index = 0, .role = RB_ROLE_CLIENT };
	struct rx x;

	(void)state;
	rx_start(&x, "tcp_lat");
	memset(&x.c, 0, sizeof(x.c));
	x.c.data_fd = 5;
	rb_plan_point(&x.p, 0, &at.pt);
	assert_int_equal(rb_point_begin(x.r, &x.c, &at), 0);
	assert_int_equal(x.r->c.data_fd, 5);
	assert_null(x.r->sq);
	rb_run_free(x.r);
	fake_free(x.f);
}

/* rb_point_end(): the --verify status comes first; none, the intervals' end (0 here). */
static void point_end_verify_first(void **state)
{
	struct rb_point_at at = { .index = 0, .role = RB_ROLE_CLIENT };
	struct rx x;

	(void)state;
	rx_start(&x, "send_bw");
	rb_plan_point(&x.p, 0, &at.pt);
	assert_int_equal(rb_point_begin(x.r, &x.c, &at), 0);
	assert_int_equal(rb_point_end(x.r), 0);
	x.r->verify.status = -EILSEQ;
	assert_int_equal(rb_point_end(x.r), -EILSEQ);
	assert_int_equal(rb_run_verify_status(x.r), -EILSEQ);
	rb_run_free(x.r);
	fake_free(x.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_begin_resets),
		cmocka_unit_test(point_begin_reads_conn),
		cmocka_unit_test(point_begin_no_qps),
		cmocka_unit_test(point_end_verify_first),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
