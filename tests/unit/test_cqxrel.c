// SPDX-License-Identifier: MIT
/*
 * Issue 40: whether the extended CQ polls in batches is a fact of the
 * provider and of the rdma-core release its library comes from (rxe's is
 * broken before 61: provider row's cqx_batch_from), never of the provider
 * alone:
 *  - rb_cqx_kind_for() on rxe's row: one a start_poll before 61 and when
 *    the release cannot be told, batches from 61 on; batches on a
 *    provider without the fault;
 *  - on the fake provider, each kind is what runs: a batch is one
 *    start_poll and next_polls, one a start_poll never calls next_poll;
 *    the engine's reap polls as the kind says;
 *  - JSON device.cq_poll records it, and compare refuses to compare a
 *    batched run with a one-a-start_poll one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "xfer_fx.h"
#include "output_fx.h"
#include "core/provider.h"
#include "core/sweep.h"
#include "engine/run.h"
#include "rdma/cqx.h"
#include "report/compare.h"
#include "wire/plan.h"

static const struct rb_provider *rxe(void)
{
	return rb_prov_identify("rdma_rxe", "rxe0", 0);
}

static void kind_by_release(void **state)
{
	static const struct {
		const char *rel;
		uint8_t kind;
	} rows[] = {
		{ "44.0", RB_CQX_ONE },	   { "55.0", RB_CQX_ONE }, /* the index fixed, not the lock */
		{ "60.1", RB_CQX_ONE },	   { "61.0", RB_CQX_BATCH }, { "64.0", RB_CQX_BATCH },
		{ "100.2", RB_CQX_BATCH }, { "", RB_CQX_ONE },	     { "x.1", RB_CQX_ONE },
	};
	size_t i;

	(void)state;
	assert_int_equal(rxe()->cqx_batch_from, 61);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rb_cqx_kind_for(rxe(), rows[i].rel) != rows[i].kind)
			fail_msg("rxe with rdma-core \"%s\": kind %u, want %u", rows[i].rel,
				 rb_cqx_kind_for(rxe(), rows[i].rel), rows[i].kind);
	assert_int_equal(rb_cqx_kind_for(rxe(), NULL), RB_CQX_ONE);
	/* A provider without the fault: batches with any library. */
	assert_int_equal(rb_cqx_kind_for(rb_prov_identify("mlx5_core", "mlx5_0", 0), "44.0"),
			 RB_CQX_BATCH);
	assert_int_equal(rb_cqx_kind_for(rb_prov_identify("mlx5_core", "mlx5_0", 0), NULL),
			 RB_CQX_BATCH);
	assert_int_equal(rb_cqx_kind_for(NULL, NULL), RB_CQX_BATCH);
}

/* write_bw -l 4 -Q 4 -t 32 -n 400 --warmup 8, loopback, through the extended CQ polled as @kind. */
static void cqxrel_start(struct fx *x, uint8_t kind)
{
	fx_plan(x, "write_bw");
	rb_axis_set1(&x->p.batch, 4);
	rb_axis_set1(&x->p.signal, 4);
	rb_axis_set1(&x->p.tx_depth, 32);
	x->p.iters = 400;
	x->p.warmup = 8;
	fx_start(x, RB_ROLE_CLIENT, 2000);
	x->f->loopback = true;
	fake_cqex(x->f, &x->r, false);
	x->r.c.cq_ex = kind;
}

/* Three completions due, polled as rdma-core @rel's rxe is: the calls made. */
static void poll_three(const char *rel, uint64_t *starts, uint64_t *nexts, uint64_t *ends)
{
	struct ibv_wc in = { .status = IBV_WC_SUCCESS, .opcode = IBV_WC_RDMA_WRITE }, out[8];
	struct fx x;
	int i;

	cqxrel_start(&x, rb_cqx_kind_for(rxe(), rel));
	for (i = 0; i < 3; i++) {
		in.wr_id = (uint64_t)i;
		fake_push_wc(x.f, &in);
	}
	x.f->cqx_starts = x.f->cqx_nexts = x.f->cqx_ends = 0;
	assert_int_equal(rb_cqx_poll(&x.f->cq, 8, out, x.r.c.cq_ex), 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(out[i].wr_id, (uint64_t)i);
	*starts = x.f->cqx_starts;
	*nexts = x.f->cqx_nexts;
	*ends = x.f->cqx_ends;
	fx_end(&x);
}

static void both_kinds_polled(void **state)
{
	uint64_t s, n, e;

	(void)state;
	/* rdma-core 44: a start_poll each (and one that finds nothing), no next_poll. */
	poll_three("44.0", &s, &n, &e);
	assert_int_equal(n, 0);
	assert_int_equal(e, 3);
	assert_int_equal(s, 4);
	/* rdma-core 64: one start_poll, the rest by next_poll, one end. */
	poll_three("64.0", &s, &n, &e);
	assert_int_equal(s, 1);
	assert_int_equal(n, 3); /* two found, the third finds nothing */
	assert_int_equal(e, 1);
}

/*
 * write_bw -l 4 -Q 4, completions late by 2 polls (several a poll), the
 * stream's CQ polled as rdma-core @rel's rxe is: next_poll only when
 * batched, the same operations either way.
 */
static void engine_reaps_by_kind(void **state)
{
	const char *rels[] = { "44.0", "64.0" };
	uint64_t starts[2];
	struct fx x;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		cqxrel_start(&x, rb_cqx_kind_for(rxe(), rels[i]));
		x.f->delay = 2;
		assert_int_equal(x.r.bench->prepare(&x.r), 0);
		if (rb_run_stream(&x.r))
			fail_msg("rdma-core %s: %s", rels[i], rb_last_error);
		assert_int_equal(x.f->retired, x.f->nwrs);
		assert_int_equal(x.r.ops, 400);
		starts[i] = x.f->cqx_starts;
		if (i == 0)
			assert_int_equal(x.f->cqx_nexts, 0);
		else
			assert_true(x.f->cqx_nexts > 0);
		fx_end(&x);
	}
	assert_true(starts[1] < starts[0]); /* batches: fewer start_polls */
}

/*
 * The batched poll that checks the status itself (rb_cqx_poll_ok()): only
 * successes counted, a failed completion ends the poll whole at wc[n]
 * with RB_CQX_FAILED; never more than @max, and no next_poll after it.
 */
static void poll_ok_stops_at_failure(void **state)
{
	struct ibv_wc in = { .status = IBV_WC_SUCCESS, .opcode = IBV_WC_RDMA_WRITE }, out[8];
	struct fx x;
	int i;

	(void)state;
	cqxrel_start(&x, RB_CQX_BATCH);
	for (i = 0; i < 4; i++) {
		in.wr_id = 10 + (uint64_t)i;
		in.status = i == 2 ? IBV_WC_REM_ACCESS_ERR : IBV_WC_SUCCESS;
		in.vendor_err = i == 2 ? 0x88 : 0;
		in.qp_num = FAKE_QPN_BASE;
		fake_push_wc(x.f, &in);
	}
	x.f->cqx_ends = 0;
	assert_int_equal(rb_cqx_poll_ok(&x.f->cq, 8, out), 2 | RB_CQX_FAILED);
	assert_int_equal(out[0].wr_id, 10);
	assert_int_equal(out[1].wr_id, 11);
	assert_int_equal(out[2].wr_id, 12);
	assert_int_equal(out[2].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(out[2].vendor_err, 0x88);
	assert_int_equal(out[2].qp_num, FAKE_QPN_BASE);
	assert_int_equal(x.f->cqx_ends, 1);
	assert_int_equal(rb_cqx_poll_ok(&x.f->cq, 8, out), 1);
	assert_int_equal(out[0].wr_id, 13);
	assert_int_equal(rb_cqx_poll_ok(&x.f->cq, 8, out), 0);
	/* @max: two of three, and no next_poll past the second. */
	in.status = IBV_WC_SUCCESS;
	for (i = 0; i < 3; i++)
		fake_push_wc(x.f, &in);
	x.f->cqx_nexts = 0;
	assert_int_equal(rb_cqx_poll_ok(&x.f->cq, 2, out), 2);
	assert_int_equal(x.f->cqx_nexts, 1);
	assert_int_equal(rb_cqx_poll_ok(&x.f->cq, 2, out), 1);
	fx_end(&x);
}

/*
 * The engine's reap on it: a WR that fails second of four is named, and
 * the first, completed before it in the same poll, is counted.
 */
static void reap_ok_counts_before_failure(void **state)
{
	uint64_t done = 0;
	char want[96];
	struct fx x;

	(void)state;
	cqxrel_start(&x, RB_CQX_BATCH);
	x.f->fail_nth = 2;
	x.f->fail_status = IBV_WC_RETRY_EXC_ERR;
	for (int i = 0; i < 4; i++)
		assert_int_equal(rb_post_chain(&x.r, 0, 1, 0, true), 0);
	x.f->delay = 0;
	assert_int_equal(rb_reap(&x.r, &done, NULL), -EIO);
	assert_int_equal(done, 1);
	snprintf(want, sizeof(want), "fake0 qp 0x%x: RDMA WRITE completion error: %s",
		 FAKE_QPN_BASE, ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR));
	if (!strstr(rb_last_error, want))
		fail_msg("'%s' lacks '%s'", rb_last_error, want);
	assert_true(x.f->cqx_nexts > 0); /* the batch went on past the first */
	fx_end(&x);
}

/* JSON device.cq_poll: "batch" or "one" with the extended CQ, null with classic. */
static void json_and_compare(void **state)
{
	struct rb_compare_opts o;
	struct rb_doc r;
	struct rb_result res = bw_res[0];
	json_t *b, *n;
	char err[512];
	FILE *f;

	(void)state;
	bw_report(&r);
	r.post_api = "post";
	r.cq_api = "ex";
	r.cq_poll = "batch";
	b = json_doc(&r, &res, 1);
	assert_jstr(jget(b, "device"), "cq_poll", "batch");
	r.cq_poll = "one";
	n = json_doc(&r, &res, 1);
	assert_jstr(jget(n, "device"), "cq_poll", "one");
	rb_compare_opts_init(&o);
	f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(rb_compare(b, n, &o, f, err, sizeof(err)), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "device.cq_poll (--cq-api) BASE batch, NEW one"));
	json_decref(n);
	r.cq_poll = "batch";
	n = json_doc(&r, &res, 1);
	assert_int_equal(rb_compare(b, n, &o, f, err, sizeof(err)), RB_CMP_SAME);
	json_decref(n);
	r.cq_api = "classic";
	r.cq_poll = NULL;
	n = json_doc(&r, &res, 1);
	assert_jnull(jget(n, "device"), "cq_poll");
	json_decref(n);
	json_decref(b);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kind_by_release),
		cmocka_unit_test(both_kinds_polled),
		cmocka_unit_test(engine_reaps_by_kind),
		cmocka_unit_test(poll_ok_stops_at_failure),
		cmocka_unit_test(reap_ok_counts_before_failure),
		cmocka_unit_test_setup_teardown(json_and_compare, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
