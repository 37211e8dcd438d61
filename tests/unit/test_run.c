// SPDX-License-Identifier: MIT
/*
 * Unit tests for the run's life as the session drives it (engine/run.c):
 * rb_point_begin() puts a run at a point's start from the connection the
 * session built and the point it names, and resets what the last point
 * left (what session.c's point_start() once reset field by field);
 * rb_point_end() gives the point's --verify status first.  And what the
 * engine alone does once connected and at a point's start and end (issue
 * 39, step 1), steps the session once called itself: rb_run_conn() runs
 * the row's .setup; rb_point_begin() makes a verbs row's receive plan and
 * WR templates (rb_rx_plan(), rb_wrs_prepare()), then runs the row's
 * .prepare; a socket row gets no templates; rb_point_cut() ends a point
 * ^C stopped, with its last --interval slice.  And the run's layout: the
 * fields the loops touch every message lead struct rb_run and its
 * connection, in its first cache lines.  The fake's QPs only take
 * receives.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "core/sweep.h"
#include "engine/run.h"

struct rx {
	struct fake *f; /* its QPs take the receives the test's .prepare posts */
	struct rb_params p;
	struct ibv_qp *qp[2];
	/* The MR and buffer rb_point_begin()'s WR templates name. */
	struct ibv_mr mr, *mrs[1];
	uint8_t buf[2 * 4096];
	struct rb_conn c;
	struct rb_run *r;
};

/* @x->p (@test's), with @nqp QPs of @region bytes, -r @rx_depth: a run made. */
static void rx_make(struct rx *x, const char *test, uint32_t nqp, uint64_t region,
		    uint32_t rx_depth)
{
	const struct rb_run_cfg cfg = { .bench = rb_bench_find(test),
					.role = RB_ROLE_CLIENT,
					.p = &x->p,
					.timeout_ns = 1000000000ULL };
	uint32_t i;

	x->f = fake_new(nqp, 64);
	for (i = 0; i < nqp; i++)
		x->qp[i] = fake_qp(x->f, i);
	x->mr.lkey = 0x77;
	x->mrs[0] = &x->mr;
	x->c.nqp = nqp;
	x->c.nmr = 1;
	x->c.qp = x->qp;
	x->c.mr = x->mrs;
	x->c.buf = x->buf;
	x->c.region = region;
	x->c.cq = (struct ibv_cq *)(uintptr_t)0x3000;
	x->c.rx_depth = rx_depth;
	x->c.data_fd = -1;
	x->r = rb_run_new();
	assert_non_null(x->r);
	rb_run_init(x->r, &cfg);
}

/* 2 QPs, -t 8, -Q 16 (above the depth: clamped), -r 7, an event channel. */
static void rx_start(struct rx *x, const char *test)
{
	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
	rb_axis_set1(&x->p.qps, 2);
	rb_axis_set1(&x->p.tx_depth, 8);
	rb_axis_set1(&x->p.signal, 16);
	x->c.channel = (struct ibv_comp_channel *)(uintptr_t)0x4000;
	rx_make(x, test, 2, 64, 7);
}

/* One QP, -s 64,1024 -n 1000, -r 100, 4 KiB regions. */
static void bx_start(struct rx *x, const char *test)
{
	char err[128];

	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
	assert_int_equal(rb_axis_parse("64,1024", true, &x->p.size, err, sizeof(err)), 0);
	x->p.iters = 1000;
	rx_make(x, test, 1, 4096, 100);
}

static void bx_point(struct rx *x, uint32_t i)
{
	struct rb_point_at at = { .index = i, .role = RB_ROLE_CLIENT };

	rb_plan_point(&x->p, i, &at.pt);
	assert_int_equal(rb_point_begin(x->r, &x->c, &at), 0);
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

/* A verbs row: each point's templates (its size, this MR, its buffer) and receive plan. */
static void point_begin_builds_wrs(void **state)
{
	struct rx x;
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
	struct rx x;
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
	struct rx x;

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
	struct rx x;

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
	struct rx x;

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
	struct rx x;
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
		cmocka_unit_test(point_begin_resets),	  cmocka_unit_test(point_begin_reads_conn),
		cmocka_unit_test(point_begin_no_qps),	  cmocka_unit_test(point_end_verify_first),
		cmocka_unit_test(point_begin_builds_wrs), cmocka_unit_test(point_begin_prepares),
		cmocka_unit_test(point_begin_rx_forever), cmocka_unit_test(point_begin_tcp_none),
		cmocka_unit_test(point_cut_ends_slice),	  cmocka_unit_test(run_conn_sets_up),
		cmocka_unit_test(hot_fields_first),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
