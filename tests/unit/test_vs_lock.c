// SPDX-License-Identifier: MIT
/*
 * compare --vs-tcp lock.json tcp_lock.json (issue 42,
 * src/report/vs_tcp_lock.c): two documents made by the real JSON writer
 * (rb_json_doc()) from a lock run's and a tcp_lock run's results, paired
 * point by point on -q, each of lock's figures with the ratio TCP/RDMA
 * and the better side, worked out by hand; what does not pair is refused
 * with the reason.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "report/compare.h"
#include "report/output.h"
#include "compare_fx.h"

static char *text;
static size_t text_len;
static char err[512];

/* A point at -q @qps: acquire p50 and p99, acquisitions/s, handoff (0: none). */
struct fig {
	uint32_t qps;
	double p50, p99, acq, handoff;
	uint32_t lock; /* the point's --lock (0 spin, 1 ticket) */
};

static void params(struct rb_params *p, const char *test, uint32_t cs)
{
	static const uint64_t qps[] = { 1, 2 };
	uint32_t i;

	memset(p, 0, sizeof(*p));
	snprintf(p->test, sizeof(p->test), "%s", test);
	rb_axis_set1(&p->size, 8);
	rb_axis_set1(&p->batch, 1);
	rb_axis_set1(&p->signal, 1);
	p->qps.n = 2;
	for (i = 0; i < 2; i++)
		p->qps.v[i] = qps[i];
	rb_axis_set1(&p->tx_depth, 128);
	rb_axis_set1(&p->poll, RB_POLL_BUSY);
	rb_axis_set1(&p->cqe_poll, RB_CQE_POLL_DEFAULT);
	p->iters = 150;
	p->warmup = 10;
	p->locks = 1;
	p->cs_bytes = cs;
	p->verify = 1;
}

/* The writer's document of test @test with the points @f. */
static json_t *doc(const char *test, const struct rb_params *p, const struct fig *f, size_t n)
{
	struct rb_result res[4];
	struct rb_doc d;
	json_t *j;
	size_t i;

	assert_true(n <= 4);
	memset(&d, 0, sizeof(d));
	memset(res, 0, sizeof(res));
	d.test = test;
	d.mode = RB_MODE_LAT;
	d.role = "client";
	d.host = "h2";
	d.peer = "192.0.2.1:18515";
	snprintf(d.timestamp, sizeof(d.timestamp), "2026-01-02T03:04:05Z");
	d.params = p;
	d.gid_index = -1;
	for (i = 0; i < n; i++) {
		struct rb_result *r = &res[i];

		r->pt = (struct rb_point){ .size = 8,
					   .batch = 1,
					   .signal = 1,
					   .qps = f[i].qps,
					   .tx_depth = 128,
					   .lock = f[i].lock };
		r->iters = 150;
		r->duration_s = 150 / f[i].acq;
		r->has_lat = true;
		r->lat = (struct rb_lat_summary){ .min = f[i].p50 / 2,
						  .p50 = f[i].p50,
						  .avg = f[i].p50,
						  .p90 = f[i].p99,
						  .p99 = f[i].p99,
						  .p999 = f[i].p99,
						  .max = f[i].p99 };
		r->has_lock = true;
		r->lock_acq_per_s = f[i].acq;
		r->lock_release_us = 10;
		r->lock_handoff_us = f[i].handoff;
		r->lock_attempts = 1;
		r->lock_jain = 1;
		r->lock_share_min = 1.0 / f[i].qps;
	}
	j = rb_json_doc(&d, res, n);
	assert_non_null(j);
	return j;
}

static int run_vs(json_t *rdma, json_t *tcp)
{
	return vs_tcp_text(rdma, tcp, &text, &text_len, err, sizeof(err));
}

static const struct fig rdma_figs[] = { { 1, 168, 400, 285, 0, 0 }, { 2, 1000, 2000, 100, 50, 0 } };
static const struct fig tcp_figs[] = { { 1, 336, 500, 570, 0, 0 }, { 2, 500, 2000, 100, 5, 0 } };

/* lock's document with --cs-bytes @rcs, tcp_lock's with @tcs, the figures above. */
static void docs(uint32_t rcs, uint32_t tcs, json_t **r, json_t **t)
{
	struct rb_params rp, tp;

	params(&rp, "lock", rcs);
	params(&tp, "tcp_lock", tcs);
	*r = doc("lock", &rp, rdma_figs, 2);
	*t = doc("tcp_lock", &tp, tcp_figs, 2);
}

static void pairs_points(void **state)
{
	json_t *r, *t;

	(void)state;
	docs(32, 32, &r, &t);
	/* --lock is lock's algorithm; tcp_lock's is its server's FIFO: its
	 * file names none (params or points), where --hold is both's. */
	assert_non_null(json_object_get(json_object_get(r, "params"), "lock"));
	assert_null(json_object_get(json_object_get(t, "params"), "lock"));
	assert_null(json_object_get(json_array_get(json_object_get(t, "results"), 0), "lock"));
	assert_non_null(json_object_get(json_array_get(json_object_get(t, "results"), 0), "hold_"
											  "us"));
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "# lock (RDMA) against tcp_lock (TCP), point by point"));
	assert_non_null(strstr(text, "     qps hold_us  lock    figure                 rdma        "
				     " tcp  tcp/rdma  "
				     "better\n"));
	/* -q 1: TCP twice the acquire time but twice the acquisitions/s; no handoff. */
	assert_non_null(strstr(text, "       1       0  spin    acquire_p50_us          168        "
				     " 336      2.00  "
				     "rdma\n"
				     "       1       0  spin    acquire_p99_us          400        "
				     " 500      1.25  "
				     "rdma\n"
				     "       1       0  spin    acq_per_s               285        "
				     " 570      2.00  "
				     "tcp\n"
				     "       1       0  spin    handoff_us                -        "
				     "   -         -  "
				     "-\n"));
	assert_non_null(strstr(text, "       2       0  spin    acquire_p50_us         1000        "
				     " 500      0.50  "
				     "tcp\n"
				     "       2       0  spin    acquire_p99_us         2000        "
				     "2000      1.00  "
				     "same\n"
				     "       2       0  spin    acq_per_s               100        "
				     " 100      1.00  "
				     "same\n"
				     "       2       0  spin    handoff_us               50        "
				     "   5      0.10  "
				     "tcp\n"));
	json_decref(r);
	json_decref(t);
}

/* --lock spin,ticket: each algorithm's point against the one tcp_lock
 * point of its -q, each labelled (none left out as a duplicate). */
static void sweep_each_lock(void **state)
{
	static const struct fig both[] = { { 1, 168, 400, 285, 0, 0 }, { 1, 300, 600, 200, 0, 1 } };
	struct rb_params rp, tp;
	json_t *r, *t;

	(void)state;
	params(&rp, "lock", 32);
	rp.lock_algo.n = 2;
	rp.lock_algo.v[0] = RB_LOCK_SPIN;
	rp.lock_algo.v[1] = RB_LOCK_TICKET;
	params(&tp, "tcp_lock", 32);
	r = doc("lock", &rp, both, 2);
	t = doc("tcp_lock", &tp, tcp_figs, 1);
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "       1       0  spin    acquire_p50_us          168        "
				     " "
				     "336      2.00  rdma\n"));
	assert_non_null(strstr(text, "       1       0  ticket  acquire_p50_us          300        "
				     " "
				     "336      1.12  rdma\n"));
	/* A run of several hosts had more contenders than its -q: refused. */
	json_object_set_new(json_object_get(r, "params"), "lock_hosts", json_integer(2));
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "--run-hosts"));
	json_decref(r);
	json_decref(t);
}

static void refuses(void **state)
{
	struct rb_params tp;
	json_t *r, *t, *x;

	(void)state;
	docs(32, 64, &r, &t);
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "--vs-tcp: different cs_bytes (--cs-bytes): the RDMA file 32, the "
				 "TCP file 64; their figures do not compare");
	json_decref(t);
	/* No -q in common. */
	params(&tp, "tcp_lock", 32);
	t = doc("tcp_lock", &tp, (const struct fig[]){ { 4, 1, 2, 3, 4, 0 } }, 1);
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "--vs-tcp: lock and tcp_lock share no point (the same -q and "
				 "--hold)");
	/* lock with tcp_lat, send_lat with tcp_lock: no pairs. */
	x = json_deep_copy(t);
	json_object_set_new(x, "test", json_string("tcp_lat"));
	assert_int_equal(run_vs(r, x), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "--vs-tcp: lock and tcp_lat are no pair: lock goes with tcp_lock, "
				 "the other RDMA tests with tcp_lat or tcp_bw");
	json_object_set_new(r, "test", json_string("send_lat"));
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "send_lat and tcp_lock are no pair"));
	/* The wrong way round. */
	assert_int_equal(run_vs(t, r), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "the first file must be an RDMA test's"));
	json_decref(x);
	json_decref(r);
	json_decref(t);
	free(text);
	text = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairs_points),
		cmocka_unit_test(sweep_each_lock),
		cmocka_unit_test(refuses),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
