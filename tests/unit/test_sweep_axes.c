// SPDX-License-Identifier: MIT
/*
 * --lock, --hold (issue 42) and --cq-moderation (issue 40) as sweep axes:
 *
 *  - the command line makes each an axis of the plan, the points span
 *    them in sweep.h's order, and they travel keyed (tags 50, 51, 52) so
 *    that the server counts the same points; a plan without them sends
 *    none of the three (an older peer reads it as before);
 *  - bad lists are refused naming the option and the rule, on the command
 *    line and in a peer's plan;
 *  - each point's values reach the engine on the fake provider: a lock
 *    point's algorithm (attempts per acquisition: spin 1, ticket 2, one
 *    contender) and its hold (the point lasts at least its holds), and
 *    each point's moderation in ibv_modify_cq on the CQ;
 *  - the writers record each point's lock, hold and moderation (JSON
 *    point, CSV cells), and the table shows a column only for an axis
 *    that varies.
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
#include <jansson.h>

#include "cli/opts.h"
#include "core/cqmod.h"
#include "core/sweep.h"
#include "engine/lock.h"
#include "fake_verbs.h"
#include "output_fx.h" /* write_mem() */
#include "report/output.h"
#include "wire/plan.h"
#include "wire/wire.h"

#define assert_has(hay, needle)                                              \
	do {                                                                 \
		if (!strstr((hay), (needle)))                                \
			fail_msg("'%s' not found in '%s'", (needle), (hay)); \
	} while (0)

/* @argv (NULL-terminated, argv[0] the test) into @c: rb_cli_parse(), then finish. */
static int cli(struct rb_cli *c, char *err, size_t len, const char *const *argv)
{
	const struct rb_bench *b = rb_bench_find(argv[0]);
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	rb_cli_init(c);
	ret = rb_cli_parse(c, argv[0], rb_bench_scope(b), argc, (char **)argv, err, len);
	if (!ret)
		ret = rb_cli_finish(c, b, rb_bench_scope(b), err, len);
	return ret;
}

#define CLI(c, err, ...) cli(c, err, sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

/* The tags a packed plan carries (count u16, then tag u16, length u16, value). */
static void tags_of(const uint8_t *buf, int len, bool *seen)
{
	int off = 2, n = (buf[0] << 8) | buf[1];

	memset(seen, 0, 64 * sizeof(*seen));
	while (n-- > 0 && off + 4 <= len) {
		unsigned int tag = ((unsigned int)(buf[off] << 8) | buf[off + 1]) & 0x7fff;
		unsigned int l = ((unsigned int)buf[off + 2] << 8) | buf[off + 3];

		if (tag < 64)
			seen[tag] = true;
		off += 4 + (int)l;
	}
}

static void axes_in_the_plan(void **state)
{
	uint8_t buf[4096];
	struct rb_params back;
	struct rb_point pt;
	struct rb_cli c;
	char err[256];
	bool seen[64];
	int n;

	(void)state;
	assert_int_equal(CLI(&c, err, "lock", "--lock", "spin,ticket", "--hold", "0,10,100", "-q",
			     "1,2"),
			 0);
	assert_int_equal(c.p.lock_algo.n, 2);
	assert_int_equal(c.p.lock_algo.v[1], RB_LOCK_TICKET);
	assert_int_equal(c.p.hold_us.n, 3);
	assert_int_equal(c.p.hold_us.v[2], 100);
	assert_int_equal(rb_plan_validate(&c.p, 0, err, sizeof(err)), 0);
	/* 2 locks x 3 holds x 2 -q: lock outermost, then hold, then -q. */
	assert_int_equal(rb_plan_count(&c.p), 12);
	rb_plan_point(&c.p, 0, &pt);
	assert_int_equal(pt.lock, RB_LOCK_SPIN);
	assert_int_equal(pt.hold_us, 0);
	assert_int_equal(pt.qps, 1);
	rb_plan_point(&c.p, 3, &pt);
	assert_int_equal(pt.lock, RB_LOCK_SPIN);
	assert_int_equal(pt.hold_us, 10);
	assert_int_equal(pt.qps, 2);
	rb_plan_point(&c.p, 11, &pt);
	assert_int_equal(pt.lock, RB_LOCK_TICKET);
	assert_int_equal(pt.hold_us, 100);
	assert_int_equal(pt.qps, 2);
	/* The server learns the same points from the wire. */
	n = rb_pack_params(&c.p, buf, sizeof(buf));
	assert_true(n > 0);
	tags_of(buf, n, seen);
	assert_true(seen[50] && seen[51]);
	assert_false(seen[52] || seen[43]);
	assert_int_equal(rb_unpack_params(buf, (size_t)n, &back), 0);
	assert_int_equal(rb_plan_validate(&back, 0, err, sizeof(err)), 0);
	assert_int_equal(rb_plan_count(&back), 12);
	rb_plan_point(&back, 11, &pt);
	assert_int_equal(pt.lock, RB_LOCK_TICKET);
	assert_int_equal(pt.hold_us, 100);

	/* --cq-moderation: an axis of COUNT[/USEC], the innermost but -s and --poll. */
	assert_int_equal(
		CLI(&c, err, "write_bw", "--cq-moderation", "1,16/10,64/50", "-s", "64,4K"), 0);
	assert_int_equal(c.p.cq_mod.n, 3);
	assert_int_equal(c.p.cq_mod.v[0], RB_CQMOD(1, 0));
	assert_int_equal(c.p.cq_mod.v[1], RB_CQMOD(16, 10));
	assert_int_equal(c.p.cq_mod.v[2], RB_CQMOD(64, 50));
	assert_int_equal(rb_plan_count(&c.p), 6);
	rb_plan_point(&c.p, 3, &pt);
	assert_int_equal(pt.cq_mod, RB_CQMOD(16, 10));
	assert_int_equal(pt.size, 4096);
	n = rb_pack_params(&c.p, buf, sizeof(buf));
	tags_of(buf, n, seen);
	assert_true(seen[52]);
	assert_int_equal(rb_unpack_params(buf, (size_t)n, &back), 0);
	assert_int_equal(rb_plan_count(&back), 6);
	rb_plan_point(&back, 5, &pt);
	assert_int_equal(pt.cq_mod, RB_CQMOD(64, 50));

	/* None given: one point, nothing of the three on the wire. */
	assert_int_equal(CLI(&c, err, "write_bw", "-s", "64"), 0);
	assert_int_equal(rb_plan_count(&c.p), 1);
	n = rb_pack_params(&c.p, buf, sizeof(buf));
	tags_of(buf, n, seen);
	assert_false(seen[50] || seen[51] || seen[52]);
	assert_int_equal(CLI(&c, err, "lock"), 0);
	rb_plan_point(&c.p, 0, &pt);
	assert_int_equal(pt.lock, RB_LOCK_SPIN);
	assert_int_equal(pt.hold_us, 0);
	assert_int_equal(pt.cq_mod, 0);
}

static void bad_lists_refused(void **state)
{
	/* test, option, its list, what the refusal says */
	static const char *const bad[][4] = {
		{ "lock", "--lock", "spin,fast", "--lock 'fast' is not one of spin|ticket" },
		{ "lock", "--hold", "0,2000000", "--hold 2000000 is out of range (0..1000000)" },
		{ "lock", "--hold", "0,x", "--hold" },
		{ "write_bw", "--hold", "5", "--hold does not apply to write_bw" },
		{ "write_bw", "--cq-moderation", "1,16/70000", "--cq-moderation '16/70000': want" },
		{ "write_bw", "--cq-moderation", "1,,16", "--cq-moderation: an empty item" },
		{ "write_bw", "--cq-moderation", "0", "COUNT 1 to 65535" },
		{ "tcp_bw", "--cq-moderation", "16", "--cq-moderation does not apply to tcp_bw" },
	};
	struct rb_params p;
	struct rb_cli c;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (cli(&c, err, sizeof(err),
			(const char *const[]){ bad[i][0], bad[i][1], bad[i][2], NULL }) != -EINVAL)
			fail_msg("%s %s %s: accepted", bad[i][0], bad[i][1], bad[i][2]);
		assert_has(err, bad[i][3]);
	}

	/* A peer's plan: what the command line cannot make is refused too. */
	assert_int_equal(CLI(&c, err, "write_bw", "-s", "64"), 0);
	p = c.p;
	rb_axis_set1(&p.cq_mod, 5); /* COUNT 0 */
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_has(err, "--cq-moderation");
	p = c.p;
	rb_axis_set1(&p.hold_us, 5); /* not a lock */
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_has(err, "--hold does not apply to write_bw");
	assert_int_equal(CLI(&c, err, "lock"), 0);
	p = c.p;
	p.lock_algo.n = 2;
	p.lock_algo.v[0] = RB_LOCK_SPIN;
	p.lock_algo.v[1] = RB_LOCK_ALGO_COUNT;
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--lock");
	p = c.p;
	p.hold_us.n = 2;
	p.hold_us.v[0] = 0;
	p.hold_us.v[1] = 1000001;
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--hold");
}

/* ---- the engine, on the fake -------------------------------------------- */

struct ax {
	struct fake *f;
	struct rb_cli c;
	struct rb_run r;
	struct rb_conn conn; /* the connection as the session would hand it */
	struct rb_oob oob;
	int peer_fd;
};

/* @argv's plan (argv[0] the test, one QP) run on the fake from point 0, as the session would. */
static void ax_start(struct ax *x, const char *const *argv)
{
	char err[256];
	int sv[2];

	memset(x, 0, sizeof(*x));
	if (cli(&x->c, err, sizeof(err), argv) || rb_plan_validate(&x->c.p, 0, err, sizeof(err)))
		fail_msg("%s: %s", argv[0], err);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	x->f = fake_new(1, 64);
	fake_run_init(x->f, &x->r, rb_bench_find(argv[0]), RB_ROLE_CLIENT, &x->c.p, &x->oob, sv[0],
		      5000);
	x->peer_fd = sv[1];
	x->f->loopback = true;
	x->conn = x->r.c;
	x->conn.cq = &x->f->cq; /* fake_run_init() sets the run's, not the connection's */
}

#define AX_START(x, ...) ax_start(x, (const char *const[]){ __VA_ARGS__, NULL })

static void ax_end(struct ax *x)
{
	fake_run_free(&x->r);
	fake_free(x->f);
	rb_oob_close(&x->oob);
	close(x->peer_fd);
}

/* Point @i of the plan begun as the session begins it. */
static int ax_point(struct ax *x, size_t i, struct rb_point *pt)
{
	struct rb_point_at at = { .index = (uint32_t)i, .role = RB_ROLE_CLIENT };

	rb_plan_point(&x->c.p, i, &at.pt);
	*pt = at.pt;
	return rb_point_begin(&x->r, &x->conn, &at);
}

#define HOLD_US 3000

/*
 * Each point runs the lock it names and holds as long as it says: one
 * contender takes a spin lock in one attempt (its CAS) and a ticket lock
 * in two (its FADD, then the READ that finds its turn); a point of
 * --hold H lasts at least its acquisitions times H, and one of --hold 0
 * far less (the fake answers in microseconds).
 */
static void lock_points_reach_engine(void **state)
{
	const struct rb_bench *b = rb_bench_find("lock");
	struct rb_lock_layout l;
	struct rb_result res;
	struct rb_point pt;
	struct ax x;
	size_t i;

	(void)state;
	AX_START(&x, "lock", "--lock", "spin,ticket", "--hold", "0,3000", "-n", "20", "--warmup",
		 "2", "--verify");
	assert_int_equal(rb_plan_count(&x.c.p), 4);
	x.f->delay = 3;
	rb_lock_layout(&x.c.p, 1, &l);
	for (i = 0; i < 4; i++) {
		assert_int_equal(ax_point(&x, i, &pt), 0);
		/* The "server's" words and data, free and 0 (loopback: our rx region). */
		memset(rb_rx_of(&x.r, 0), 0, l.server_bytes);
		assert_int_equal(b->run(&x.r), 0);
		memset(&res, 0, sizeof(res));
		assert_int_equal(b->result(&x.r, &res), 0);
		assert_true(res.has_lock);
		assert_int_equal(res.pt.lock, pt.lock);
		assert_int_equal(res.pt.hold_us, pt.hold_us);
		assert_int_equal(x.r.ops, 20);
		if (res.lock_attempts != (pt.lock == RB_LOCK_TICKET ? 2.0 : 1.0))
			fail_msg("point %zu (%s): %.3f attempts per acquisition", i,
				 pt.lock == RB_LOCK_TICKET ? "ticket" : "spin", res.lock_attempts);
		if (pt.hold_us)
			assert_true(res.duration_s >= 20 * HOLD_US * 1e-6);
		else if (res.duration_s >= 20 * HOLD_US * 1e-6 / 4)
			fail_msg("point %zu: --hold 0 took %.6f s for 20 acquisitions", i,
				 res.duration_s);
		rb_result_free(&res);
	}
	assert_int_equal(x.f->access_errors, 0);
	ax_end(&x);
}

/* Each point moderates the CQ to its own value before it runs. */
static void cqmod_per_point(void **state)
{
	const uint32_t want[] = { RB_CQMOD(1, 0), RB_CQMOD(16, 10), RB_CQMOD(64, 50) };
	struct rb_point pt;
	struct ax x;
	size_t i;

	(void)state;
	AX_START(&x, "write_bw", "--cq-moderation", "1,16/10,64/50", "--poll", "event", "-s", "64");
	fake_cqex(x.f, NULL, true); /* a provider with ibv_modify_cq */
	for (i = 0; i < 3; i++) {
		assert_int_equal(ax_point(&x, i, &pt), 0);
		assert_int_equal(pt.cq_mod, want[i]);
		assert_int_equal(x.f->cqx_mods, i + 1);
		assert_int_equal(x.f->cqx_mod.attr_mask, IBV_CQ_ATTR_MODERATE);
		assert_int_equal(x.f->cqx_mod.moderate.cq_count, RB_CQMOD_COUNT(want[i]));
		assert_int_equal(x.f->cqx_mod.moderate.cq_period, RB_CQMOD_USEC(want[i]));
	}
	/* A provider without it: the point is refused, naming the device. */
	fake_cqex(x.f, NULL, false);
	assert_int_equal(ax_point(&x, 0, &pt), -EOPNOTSUPP);
	assert_has(rb_last_error, "--cq-moderation 1/0: ");
	assert_has(rb_last_error, "cannot moderate a CQ");
	ax_end(&x);

	/* No --cq-moderation: no call at all. */
	AX_START(&x, "write_bw", "-s", "64");
	fake_cqex(x.f, NULL, true);
	assert_int_equal(ax_point(&x, 0, &pt), 0);
	assert_int_equal(x.f->cqx_mods, 0);
	ax_end(&x);
}

/* ---- the writers ---------------------------------------------------------- */

/* A lock run's rows from @argv's plan: each point's result with its own axes. */
static size_t lock_doc(struct rb_cli *c, struct rb_doc *d, struct rb_result *res, size_t max)
{
	size_t i, n = rb_plan_count(&c->p);

	assert_true(n <= max);
	memset(d, 0, sizeof(*d));
	d->test = c->p.test;
	d->mode = RB_MODE_LAT;
	d->role = "client";
	d->params = &c->p;
	for (i = 0; i < n; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		rb_plan_point(&c->p, i, &res[i].pt);
		res[i].iters = 100;
		res[i].duration_s = 0.5;
		res[i].has_lat = true;
		res[i].lat.p50 = 10.0 + (double)i;
	}
	return n;
}

static void writers_record_each_point(void **state)
{
	struct rb_result res[8];
	struct rb_doc d;
	struct rb_cli c;
	json_t *doc, *pt;
	json_error_t jerr;
	char err[256], *got;
	size_t n;

	(void)state;
	assert_int_equal(CLI(&c, err, "lock", "--lock", "spin,ticket", "--hold", "0,50"), 0);
	n = lock_doc(&c, &d, res, 8);
	assert_int_equal(n, 4);
	got = write_mem(RB_FMT_JSON, &d, res, n);
	doc = json_loads(got, 0, &jerr);
	assert_non_null(doc);
	pt = json_array_get(json_object_get(doc, "results"), 3);
	assert_string_equal(json_string_value(json_object_get(pt, "lock")), "ticket");
	assert_int_equal(json_integer_value(json_object_get(pt, "hold_us")), 50);
	pt = json_array_get(json_object_get(doc, "results"), 1);
	assert_string_equal(json_string_value(json_object_get(pt, "lock")), "spin");
	assert_int_equal(json_integer_value(json_object_get(pt, "hold_us")), 50);
	assert_null(json_object_get(pt, "cq_moderation"));
	pt = json_object_get(doc, "params");
	assert_string_equal(json_string_value(json_array_get(json_object_get(pt, "lock"), 1)), "tic"
											       "ke"
											       "t");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(pt, "hold_us"), 1)), 50);
	json_decref(doc);
	free(got);

	got = write_mem(RB_FMT_CSV, &d, res, n);
	assert_has(got, ",s2c_msg_rate_mpps,lock,hold_us,cq_moderation\n");
	assert_has(got, ",spin,0,\n");
	assert_has(got, ",spin,50,\n");
	assert_has(got, ",ticket,0,\n");
	assert_has(got, ",ticket,50,\n");
	free(got);

	/* The table: a column for each axis that varies, none for one that does not. */
	got = write_mem(RB_FMT_TABLE, &d, res, n);
	assert_has(got, " lock hold[us]");
	assert_has(got, " ticket       50");
	free(got);
	assert_int_equal(CLI(&c, err, "lock", "--lock", "ticket", "--hold", "0,50"), 0);
	n = lock_doc(&c, &d, res, 8);
	got = write_mem(RB_FMT_TABLE, &d, res, n);
	assert_has(got, "      iters hold[us] t_min[us]"); /* no lock column between */
	free(got);
	got = write_mem(RB_FMT_CSV, &d, res, n);
	assert_has(got, ",ticket,50,\n");
	free(got);

	/* --cq-moderation: each point's in the JSON, the CSV and (varying) the table. */
	assert_int_equal(CLI(&c, err, "send_lat", "--cq-moderation", "1,16/10", "--poll", "event"),
			 0);
	n = lock_doc(&c, &d, res, 8);
	assert_int_equal(n, 2);
	got = write_mem(RB_FMT_JSON, &d, res, n);
	doc = json_loads(got, 0, &jerr);
	assert_non_null(doc);
	pt = json_array_get(json_object_get(doc, "results"), 1);
	assert_string_equal(json_string_value(json_object_get(pt, "cq_moderation")), "16/10");
	assert_null(json_object_get(pt, "lock"));
	pt = json_object_get(json_object_get(doc, "params"), "cq_moderation");
	assert_string_equal(json_string_value(json_array_get(pt, 0)), "1");
	json_decref(doc);
	free(got);
	got = write_mem(RB_FMT_CSV, &d, res, n);
	assert_has(got, ",,,1\n");
	assert_has(got, ",,,16/10\n");
	free(got);
	got = write_mem(RB_FMT_TABLE, &d, res, n);
	assert_has(got, "cqmod");
	assert_has(got, "16/10");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(axes_in_the_plan),	     cmocka_unit_test(bad_lists_refused),
		cmocka_unit_test(lock_points_reach_engine),  cmocka_unit_test(cqmod_per_point),
		cmocka_unit_test(writers_record_each_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
