// SPDX-License-Identifier: MIT
/*
 * Unit tests of issue 42's sweep axes where the review found them
 * missing: --recommend names --lock, --hold and --cq-moderation (its line
 * and its JSON); matrix's RESULT and what its coordinator keeps carry
 * each point's lock, hold and moderation into its JSON; one helper says
 * whether a plan's points have a lock and a hold (the JSON's params and
 * points alike).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "core/cli.h"
#include "core/cqmod.h"
#include "core/sweep.h"
#include "fake_verbs.h"
#include "matrix/matrix_out.h"
#include "matrix/matrix_state.h"
#include "report/output.h"
#include "report/reco.h"
#include "wire/matrix_wire.h"
#include "wire/plan.h"
#include "wire/wire.h"

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

/* ---- the lock's data layout travels, and an older client's is refused ---- */

/* The u8 value of plan tag @tag as packed (*@must: marked must-understand); -2: not sent. */
static int packed_tag(const struct rb_params *p, uint16_t tag, bool *must)
{
	uint8_t buf[8192];
	int n = rb_pack_params(p, buf, sizeof(buf)), off = 2, k;

	assert_true(n > 2);
	for (k = 0; k < (buf[0] << 8 | buf[1]); k++) {
		uint16_t t = (uint16_t)(buf[off] << 8 | buf[off + 1]);
		uint16_t l = (uint16_t)(buf[off + 2] << 8 | buf[off + 3]);

		if ((t & ~RB_WIRE_MUST) == tag) {
			*must = t & RB_WIRE_MUST;
			return l == 1 ? buf[off + 4] : -1;
		}
		off += 4 + l;
	}
	return -2;
}

static void lock_layout_travels(void **state)
{
	struct rb_params lock = fake_plan("lock"), tcp = fake_plan("tcp_lock"),
			 bw = fake_plan("write_bw"), back;
	char err[256] = "";
	bool must = false;

	(void)state;
	/* A lock plan says its layout, as a field an older server must refuse. */
	assert_int_equal(packed_tag(&lock, 53, &must), RB_LOCK_LAYOUT);
	assert_true(must);
	assert_int_equal(packed_tag(&tcp, 53, &must), RB_LOCK_LAYOUT);
	assert_int_equal(packed_tag(&bw, 53, &must), -2); /* not sent */
	/* A client of before the mark sent none: refused, naming both layouts. */
	back = lock;
	back.lock_layout = 0;
	assert_int_equal(rb_plan_validate(&back, 0, err, sizeof(err)), -EINVAL);
	assert_has(err, "layout 0, this one as 2");
	back = tcp;
	back.lock_layout = 1;
	assert_int_equal(rb_plan_validate(&back, 0, err, sizeof(err)), -EINVAL);
	assert_has(err, "tcp_lock");
	bw.lock_layout = RB_LOCK_LAYOUT;
	assert_int_equal(rb_plan_validate(&bw, 0, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_plan_validate(&lock, 0, err, sizeof(err)), 0);
}

/* ---- one helper for the params and the points ---------------------------- */

static void plan_lock_helpers(void **state)
{
	struct rb_params lock = fake_plan("lock"), tcp = fake_plan("tcp_lock"),
			 bw = fake_plan("write_bw");
	json_t *o;

	(void)state;
	assert_true(rb_plan_lock(&lock) && rb_plan_lock_algo(&lock));
	assert_true(rb_plan_lock(&tcp));
	assert_false(rb_plan_lock_algo(&tcp)); /* its server's FIFO */
	assert_false(rb_plan_lock(&bw) || rb_plan_lock_algo(&bw));
	assert_false(rb_plan_lock(NULL) || rb_plan_lock_algo(NULL));
	/* The params say what the points say. */
	o = rb_json_params(&tcp);
	assert_null(json_object_get(o, "lock"));
	assert_non_null(json_object_get(o, "hold_us"));
	json_decref(o);
	o = rb_json_params(&lock);
	assert_string_equal(json_string_value(json_object_get(o, "lock")), "spin");
	json_decref(o);
}

/* ---- --recommend -------------------------------------------------------- */

/*
 * --lock spin,ticket --hold 0,10 at -q 2: each hold is a workload of its
 * own, and the line names it.  spin at hold 10 is the cheapest point of
 * all, but at hold 0 ticket is the cheaper: the choice is between the
 * algorithms, never across holds.
 */
static void reco_names_lock_axes(void **state)
{
	struct rb_params p = fake_plan("lock");
	const double cpu[4] = { 900, 600, 300, 700 }; /* spin 0, ticket 0, spin 10, ticket 10 */
	struct rb_result res[4];
	struct rb_reco_bound o[4];
	struct rb_expect e;
	char msg[256], *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;
	int i;

	(void)state;
	p.lock_algo.n = p.hold_us.n = 2;
	p.lock_algo.v[0] = RB_LOCK_SPIN;
	p.lock_algo.v[1] = RB_LOCK_TICKET;
	p.hold_us.v[0] = 0;
	p.hold_us.v[1] = 10;
	memset(res, 0, sizeof(res));
	for (i = 0; i < 4; i++) {
		res[i].pt.size = 8;
		res[i].pt.qps = 2;
		res[i].pt.lock = (uint8_t)p.lock_algo.v[i % 2];
		res[i].pt.hold_us = (uint32_t)p.hold_us.v[i / 2];
		res[i].has_lat = res[i].has_cpu = true;
		res[i].lat.p99 = 5;
		res[i].cpu_ns_per_msg = cpu[i];
	}
	assert_int_equal(rb_expect_parse("p99<=20us", &e, msg, sizeof(msg)), 0);
	assert_int_equal(rb_recommend_bound(res, 4, &e, &p, o, 4), 2);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	j = rb_reco_bound_report(f, &o[0], &p, e.text, rb_expect_unit(&e));
	fclose(f);
	assert_has(text, "# size 8 -q 2 --hold 0: --lock ticket -> 600 ns/msg");
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "args")), "--lock ticket --hold "
									   "0");
	assert_string_equal(json_string_value(json_object_get(j, "workload")), "-s 8 -q 2 --hold "
									       "0");
	assert_string_equal(json_string_value(json_object_get(j, "lock")), "ticket");
	assert_int_equal(json_integer_value(json_object_get(j, "hold_us")), 0);
	assert_null(json_object_get(j, "cq_moderation"));
	json_decref(j);
	free(text);
	assert_int_equal(o[1].hold_us, 10);
	assert_int_equal(o[1].pt.lock, RB_LOCK_SPIN);
	/* Without a plan: the lock's axes where the point has a value (spin is 0). */
	assert_string_equal(rb_reco_args(&o[1].pt, NULL, msg, sizeof(msg)), "-s 8 --poll busy "
									    "--cqe-poll 0 -l 0 -Q "
									    "0 "
									    "-q 2 -t 0 --hold 10");
}

/* A bandwidth sweep over -l and --cq-moderation: the line and the JSON name the moderation. */
static void reco_names_cq_moderation(void **state)
{
	struct rb_params p = fake_plan("write_bw");
	struct rb_result res[4];
	struct rb_reco r;
	char *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;
	int i;

	(void)state;
	p.batch.n = p.cq_mod.n = 2;
	p.batch.v[0] = 1;
	p.batch.v[1] = 4;
	p.cq_mod.v[0] = RB_CQMOD(1, 0);
	p.cq_mod.v[1] = RB_CQMOD(16, 10);
	memset(res, 0, sizeof(res));
	for (i = 0; i < 4; i++) {
		res[i].pt.size = 4096;
		res[i].pt.batch = (uint32_t)p.batch.v[i / 2];
		res[i].pt.signal = 16;
		res[i].pt.cq_mod = (uint32_t)p.cq_mod.v[i % 2];
		res[i].has_bw = true;
		res[i].msg_rate_mpps = i == 3 ? 2.0 : 1.0;
	}
	assert_int_equal(rb_recommend(res, 4, &r, 1), 1);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	j = rb_reco_report(f, &r, &p);
	fclose(f);
	assert_has(text, "batch 4 signal 16 at --cq-moderation 16/10 ->");
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "cq_moderation")), "16/10");
	assert_has(json_string_value(json_object_get(j, "args")), "--cq-moderation 16/10");
	json_decref(j);
	free(text);
}

/* ---- matrix: RESULT, what the coordinator keeps, its JSON --------------- */

/* A lock client's RESULT at --lock ticket --hold 10 --cq-moderation 16/10, through the wire. */
static void wire_lock_result(struct rb_result *out)
{
	static uint8_t buf[RB_WIRE_MAX_BODY];
	struct rb_mx_report m = { .role = RB_MX_RUN, .has_res = 1, .gid_index = -1 }, back;
	int n;

	m.res.pt = (struct rb_point){ .size = 8,
				      .qps = 2,
				      .lock = RB_LOCK_TICKET,
				      .hold_us = 10,
				      .cq_mod = RB_CQMOD(16, 10) };
	m.res.iters = 100;
	m.res.duration_s = 0.5;
	m.res.has_lat = true;
	m.res.lat.p50 = m.res.lat.avg = 12.5;
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &back), 0);
	*out = back.res;
}

static void mx_result_keeps_axes(void **state)
{
	struct rb_result got, back;
	struct rb_mx_pool pool;
	size_t off;

	(void)state;
	wire_lock_result(&got);
	assert_int_equal(got.pt.lock, RB_LOCK_TICKET);
	assert_int_equal(got.pt.hold_us, 10);
	assert_int_equal(got.pt.cq_mod, RB_CQMOD(16, 10));
	assert_int_equal(rb_mx_pool_init(&pool), 0);
	assert_int_equal(rb_mx_keep_result(&pool, &got, &off), 0);
	rb_mx_result_of(&pool, off, &back);
	assert_int_equal(back.pt.lock, RB_LOCK_TICKET);
	assert_int_equal(back.pt.hold_us, 10);
	assert_int_equal(back.pt.cq_mod, RB_CQMOD(16, 10));
	rb_mx_pool_free(&pool);
}

/* The point of pair 0's run in the matrix's JSON at @path. */
static json_t *pair_point(const char *path, json_t **doc)
{
	json_error_t je;
	json_t *pairs, *res;

	*doc = json_load_file(path, 0, &je);
	if (!*doc)
		fail_msg("%s: %s", path, je.text);
	pairs = json_object_get(*doc, "pairs");
	assert_int_equal(json_array_size(pairs), 1);
	res = json_object_get(json_object_get(json_array_get(pairs, 0), "run"), "results");
	assert_int_equal(json_array_size(res), 1);
	return json_array_get(res, 0);
}

/*
 * A two-rank lock job of one pair, its client's RESULT through the wire
 * and the coordinator's pool, written as matrix writes --json: the pair's
 * point says the lock, hold and moderation it ran.
 */
static void mx_json_point_axes(void **state)
{
	struct rb_cli cli;
	struct rb_mx_job job;
	struct rb_mx_rank rk[2];
	struct rb_mx_pair pair = { .src = 0, .dst = 1, .round = 0 };
	struct rb_mx_outcome *out = calloc(1, sizeof(*out));
	struct rb_mx_side side;
	struct rb_mx_coord c;
	struct rb_result res;
	char path[] = "/tmp/rb-mxaxes-XXXXXX";
	json_t *doc, *pt;
	int fd, i;

	(void)state;
	memset(&cli, 0, sizeof(cli));
	memset(&job, 0, sizeof(job));
	memset(rk, 0, sizeof(rk));
	assert_non_null(out);
	memset(&side, 0, sizeof(side));
	memset(&c, 0, sizeof(c));
	cli.p = fake_plan("lock");
	rb_axis_set1(&cli.p.lock_algo, RB_LOCK_TICKET);
	rb_axis_set1(&cli.p.hold_us, 10);
	rb_axis_set1(&cli.p.cq_mod, RB_CQMOD(16, 10));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cli.l.json_path, sizeof(cli.l.json_path), "%s", path);
	job.b = rb_bench_find("lock");
	job.test = "lock";
	job.c = &cli;
	job.m.tolerance = 20;
	job.found = "test";
	for (i = 0; i < 2; i++) {
		rk[i].o.fd = -1;
		rk[i].joined = true;
		snprintf(rk[i].host, sizeof(rk[i].host), "h%d", i);
		snprintf(rk[i].addr, sizeof(rk[i].addr), "10.0.0.%d", i + 1);
	}
	c.j = &job;
	c.lfd = -1;
	c.r = rk;
	c.n = c.njoined = 2;
	c.s.pairs = &pair;
	c.s.n = c.s.nrounds = 1;
	c.out = out; /* the coordinator's, freed with its pool */
	assert_int_equal(rb_mx_pool_init(&c.pool), 0);
	side.gid_index = -1;
	assert_int_equal(rb_mx_keep_side(&c.pool, &side, &out->side[0]), 0);
	assert_int_equal(rb_mx_keep_side(&c.pool, &side, &out->side[1]), 0);
	wire_lock_result(&res);
	assert_int_equal(rb_mx_keep_result(&c.pool, &res, &out->res), 0);
	out->st = RB_MX_OK;
	out->metric = 12.5;
	rb_mx_verdict_out(&c, 0);
	pt = pair_point(path, &doc);
	assert_string_equal(json_string_value(json_object_get(pt, "lock")), "ticket");
	assert_int_equal(json_integer_value(json_object_get(pt, "hold_us")), 10);
	assert_string_equal(json_string_value(json_object_get(pt, "cq_moderation")), "16/10");
	json_decref(doc);
	rb_mx_free_outcomes(&c);
	free(c.bad_ranks); /* count()'s, as the coordinator's teardown frees it */
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_lock_helpers),	    cmocka_unit_test(reco_names_lock_axes),
		cmocka_unit_test(reco_names_cq_moderation), cmocka_unit_test(mx_result_keeps_axes),
		cmocka_unit_test(mx_json_point_axes),	    cmocka_unit_test(lock_layout_travels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
