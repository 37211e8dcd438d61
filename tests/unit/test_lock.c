// SPDX-License-Identifier: MIT
/*
 * Unit tests of rdmabench lock (issue 42): the pure fairness figures and
 * --backoff's syntax (core/lockstat.c); the lock's contenders on the fake
 * provider in loopback, whose atomics really act on its memory (spin and
 * ticket, several contenders on one and on several locks, the counters
 * and marks under the lock); broken locks (the CAS's result ignored, a
 * release skipped) that --verify catches; the server's own check; and
 * the plan's refusals.
 */
#include <errno.h>
#include <math.h>
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

#include "core/lockstat.h"
#include "core/opts_row.h"
#include "core/sweep.h"
#include "engine/lock.h"
#include "fake_verbs.h"
#include "lock_fx.h"
#include "report/output.h"
#include "wire/plan.h"

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

/* ---- pure parts -------------------------------------------------------- */

static void jain_known_counts(void **state)
{
	const uint64_t even[] = { 5, 5, 5, 5 }, one[] = { 10, 0, 0, 0 }, mix[] = { 1, 2, 3 };
	const uint64_t none[] = { 0, 0 };

	(void)state;
	assert_float_equal(rb_lock_jain(even, 4), 1.0, 1e-12);
	assert_float_equal(rb_lock_jain(one, 4), 0.25, 1e-12);
	/* (1+2+3)^2 / (3 * (1+4+9)) = 36/42 */
	assert_float_equal(rb_lock_jain(mix, 3), 36.0 / 42.0, 1e-12);
	assert_float_equal(rb_lock_jain(none, 2), 0, 0);
	assert_float_equal(rb_lock_jain(even, 0), 0, 0);
}

static void shares_known_counts(void **state)
{
	const uint64_t x[] = { 1, 3, 4 }, z[] = { 0, 0 };
	double s[3];

	(void)state;
	assert_float_equal(rb_lock_shares(x, 3, s), 0.125, 1e-12);
	assert_float_equal(s[0], 0.125, 1e-12);
	assert_float_equal(s[1], 0.375, 1e-12);
	assert_float_equal(s[2], 0.5, 1e-12);
	assert_float_equal(rb_lock_shares(z, 2, s), 0, 0);
	assert_float_equal(s[1], 0, 0);
}

static void backoff_syntax(void **state)
{
	const char *bad[] = { "exp:1000..100", "exp:0..5",	    "exp:5",	"foo", "exp:5..6x",
			      "exp:..5",       "exp:5..2000000000", "exp:-1..5" };
	uint32_t lo = 7, hi = 7;
	char err[200];
	size_t i;

	(void)state;
	assert_int_equal(rb_lock_backoff_parse("none", &lo, &hi, err, sizeof(err)), 0);
	assert_true(lo == 0 && hi == 0);
	assert_int_equal(rb_lock_backoff_parse("exp:100..1000", &lo, &hi, err, sizeof(err)), 0);
	assert_true(lo == 100 && hi == 1000);
	assert_int_equal(rb_lock_backoff_parse("exp:5..5", &lo, &hi, err, sizeof(err)), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (rb_lock_backoff_parse(bad[i], &lo, &hi, err, sizeof(err)) != -EINVAL)
			fail_msg("--backoff %s accepted", bad[i]);
		assert_has(err, "--backoff");
		assert_has(err, "exp:MIN..MAX");
	}
}

/* --lock's choices are the algorithms' rows, in order. */
static void lock_choices_are_rows(void **state)
{
	char want[64] = "";
	size_t i;

	(void)state;
	for (i = 0; i < RB_LOCK_ALGO_COUNT; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? "|" : "",
			 rb_lock_algos[i].name);
	for (i = 0; i < rb_nopts; i++)
		if (!strcmp(rb_opts[i].lname, "lock")) {
			assert_string_equal(rb_opts[i].choices, want);
			return;
		}
	fail_msg("no --lock row");
}

/* ---- the fake ---------------------------------------------------------- */

/* The fake's atomics act on its memory: FADD adds, CAS swaps only on a match. */
static void fake_atomics_execute(void **state)
{
	struct rb_params p = fake_plan("lock");
	struct rb_lock_run lk;
	struct rb_oob oob;
	struct rb_run r;
	struct fake *f = fake_new(1, 8);
	struct ibv_wc wc;
	uint64_t *word;
	int sv[2], n;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	fake_run_init(f, &r, rb_bench_find("lock"), RB_ROLE_CLIENT, &p, &oob, sv[0], 1000);
	f->loopback = true;
	memset(&lk, 0, sizeof(lk));
	lk.r = &r;
	lk.n = 1;
	struct rb_lock_cont c = { .qi = 0, .scr = rb_tx_of(&r, 0) };
	word = (uint64_t *)(void *)rb_rx_of(&r, 0);
	*word = 41;
	assert_int_equal(rb_lock_post(&lk, &c, IBV_WR_ATOMIC_FETCH_AND_ADD, c.scr, 8, 0, 1, 0), 0);
	assert_int_equal(*word, 42);
	assert_int_equal(rb_lock_fetched(&c), 41);
	assert_int_equal(rb_lock_post(&lk, &c, IBV_WR_ATOMIC_CMP_AND_SWP, c.scr, 8, 0, 0, 9), 0);
	assert_int_equal(*word, 42); /* no match: unchanged */
	assert_int_equal(rb_lock_fetched(&c), 42);
	assert_int_equal(rb_lock_post(&lk, &c, IBV_WR_ATOMIC_CMP_AND_SWP, c.scr, 8, 0, 42, 9), 0);
	assert_int_equal(*word, 9);
	for (n = 0; n < 3;)
		n += ibv_poll_cq(r.cq, 1, &wc);
	fake_run_free(&r);
	fake_free(f);
	close(sv[0]);
	close(sv[1]);
}

/* Lock @k's counter in the "server's" memory (loopback: this side's rx region). */
static uint64_t counter(struct lx *x, uint32_t k)
{
	uint64_t v;

	memcpy(&v, rb_rx_of(&x->r, 0) + x->l.data_off + k * x->l.stride, 8);
	return v;
}

static void run_algo(enum rb_lock_algo_id algo, uint32_t contenders, uint32_t locks)
{
	struct rb_result res;
	uint64_t sum = 0, shares = 0;
	struct lx x;
	uint32_t k, i;

	lx_start(&x, algo, contenders, locks, 40, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[algo], &x.lk), 0);
	assert_int_equal(x.r.total, 320);
	assert_int_equal(x.r.ops, 300);
	for (k = 0; k < locks; k++)
		sum += counter(&x, k);
	assert_int_equal(sum, 320);
	for (i = 0; i < contenders; i++)
		shares += x.lk.c[i].acquired;
	assert_int_equal(shares, 300);
	/* Contention was real: with more contenders than locks, attempts failed. */
	if (contenders > locks)
		assert_true(x.lk.attempts > 300 + (algo == RB_LOCK_TICKET ? 300 : 0));
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	rb_lock_result(&x.lk, &res);
	assert_true(res.has_lock);
	assert_true(res.lock_attempts >= 1.0);
	assert_true(res.lock_jain > 0 && res.lock_jain <= 1.0 + 1e-12);
	assert_true(res.lock_share_min >= 0 && res.lock_share_min <= 1.0 / contenders + 1e-12);
	assert_true(res.has_lat && x.r.lat.n == 300);
	rb_result_free(&res); /* the result took the point's slices */
	assert_int_equal(x.f->access_errors, 0);
	/* The server's own check agrees. */
	x.r.role = RB_ROLE_SERVER;
	assert_int_equal(rb_lock_server_check(&x.r, 320), 0);
	assert_int_equal(rb_lock_server_check(&x.r, 321), -EILSEQ);
	lx_end(&x);
}

static void spin_one(void **state)
{
	(void)state;
	run_algo(RB_LOCK_SPIN, 1, 1);
}

static void spin_contended(void **state)
{
	(void)state;
	run_algo(RB_LOCK_SPIN, 4, 1);
	run_algo(RB_LOCK_SPIN, 4, 3);
}

static void ticket_contended(void **state)
{
	(void)state;
	run_algo(RB_LOCK_TICKET, 1, 1);
	run_algo(RB_LOCK_TICKET, 4, 1);
	run_algo(RB_LOCK_TICKET, 4, 2);
}

/* Backoff and hold run through too (the loop waits on the clock); polls take --cqe-poll. */
static void spin_backoff_hold(void **state)
{
	struct lx x;

	(void)state;
	lx_start(&x, RB_LOCK_SPIN, 3, 1, 8, 5000);
	x.p.backoff_min_ns = 200;
	x.p.backoff_max_ns = 3000;
	x.r.pt.hold_us = 2; /* --hold 2: the point's */
	x.p.iters = 60;
	x.r.pt.cqe_poll = 2; /* --cqe-poll 2, as the point would have it */
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	assert_int_equal(counter(&x, 0), 80);
	assert_int_equal(x.lk.backoff_max, 3000);
	assert_int_equal(x.f->poll_max_asked, 2);
	lx_end(&x);
}

/* ---- broken locks that --verify must catch ------------------------------ */

/* A spin lock that ignores its CAS's result: everybody "owns" it. */
static int cas_ignored(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	(void)lk;
	(void)c;
	return 1;
}

/* A release that leaves the word held: the WR reads it instead of writing 0. */
static int release_skipped(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	return rb_lock_post(lk, c, IBV_WR_RDMA_READ, c->scr, 8, (uint64_t)c->lock * 64, 0, 0);
}

/* Only the point's last release is skipped: nobody waits for it. */
static int last_release_skipped(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	if (c->seq + 1 == lk->end)
		return release_skipped(lk, c);
	return rb_lock_algos[RB_LOCK_SPIN].release(lk, c);
}

static void broken_cas_ignored(void **state)
{
	struct rb_lock_algo bad = rb_lock_algos[RB_LOCK_SPIN];
	uint64_t sum;
	struct lx x;

	(void)state;
	bad.acquired = cas_ignored;
	lx_start(&x, RB_LOCK_SPIN, 4, 1, 16, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &bad, &x.lk), -EILSEQ);
	assert_has(rb_last_error, "mutual exclusion is broken");
	assert_has(rb_last_error, "changed under its holder");
	lx_end(&x);

	/* Without --verify the run "succeeds", and the counter shows lost updates. */
	lx_start(&x, RB_LOCK_SPIN, 4, 1, 16, 5000);
	x.p.verify = 0;
	assert_int_equal(rb_run_lock_with(&x.r, &bad, &x.lk), 0);
	sum = counter(&x, 0);
	assert_true(sum < 320);
	/* The server's check (its --verify) catches it too. */
	assert_int_equal(rb_lock_server_check(&x.r, 320), -EILSEQ);
	lx_end(&x);
}

static void broken_last_release(void **state)
{
	struct rb_lock_algo bad = rb_lock_algos[RB_LOCK_SPIN];
	struct lx x;

	(void)state;
	bad.release = last_release_skipped;
	lx_start(&x, RB_LOCK_SPIN, 1, 1, 0, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &bad, &x.lk), -EILSEQ);
	assert_has(rb_last_error, "still held after the point");
	lx_end(&x);
}

/*
 * Every release skipped: the contenders spin for ever, each attempt
 * completing, and the lock's own timeout (acquisitions, not completions)
 * ends it, naming the lock.  The peer reads the heartbeats, as a server
 * does, so that nothing else ends it.
 */
static void broken_release_hangs(void **state)
{
	struct rb_lock_algo bad = rb_lock_algos[RB_LOCK_SPIN];
	struct lx x;
	int a;

	(void)state;
	for (a = 0; a < RB_LOCK_ALGO_COUNT; a++) {
		bad = rb_lock_algos[a];
		bad.release = release_skipped;
		lx_start(&x, (enum rb_lock_algo_id)a, 2, 1, 0, 300);
		x.oob.timeout_ms = 5000;
		assert_int_equal(rb_run_lock_with(&x.r, &bad, &x.lk), -ETIMEDOUT);
		assert_has(rb_last_error, "never released");
		assert_has(rb_last_error, "lock 0");
		lx_end(&x);
	}
}

/* ---- the output ---------------------------------------------------------- */

/* A table of one row of test @test's: lock's columns only in a lock run. */
static char *table_of(const char *test, const struct rb_result *res)
{
	static struct rb_params p;
	struct rb_doc r = { .test = test,
			    .mode = RB_MODE_LAT,
			    .role = "client",
			    .device = "rxe0",
			    .port = 1,
			    .params = &p };
	struct rb_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	p = fake_plan(test);
	rb_writer_init(&w, RB_FMT_TABLE, f);
	assert_int_equal(w.ops->begin(&w, &r), 0);
	assert_int_equal(w.ops->row(&w, &r, res), 0);
	assert_int_equal(w.ops->end(&w, &r), 0);
	fclose(f);
	return buf;
}

/* A lock run's figures reach the JSON and the table (the lock's columns, its test only). */
static void lock_output(void **state)
{
	struct rb_result res;
	json_t *o;
	char *t;
	struct lx x;

	(void)state;
	lx_start(&x, RB_LOCK_TICKET, 3, 1, 8, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_TICKET], &x.lk), 0);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	rb_lock_result(&x.lk, &res);
	o = rb_json_result(&res);
	assert_non_null(o);
	assert_true(json_real_value(json_object_get(o, "lock_acq_per_s")) > 0);
	assert_true(json_real_value(json_object_get(o, "lock_attempts")) >= 1);
	assert_float_equal(json_real_value(json_object_get(o, "lock_jain")), res.lock_jain, 1e-9);
	assert_non_null(json_object_get(json_object_get(o, "lat_us"), "p50"));
	json_decref(o);
	t = table_of("lock", &res);
	assert_has(t, " jain[index]");
	assert_has(t, " acq_rate[/s]");
	free(t);
	t = table_of("send_lat", &res);
	assert_null(strstr(t, "jain["));
	free(t);
	rb_result_free(&res);
	lx_end(&x);
}

/* ---- the plan ----------------------------------------------------------- */

static void plan_refusals(void **state)
{
	struct rb_params p;
	char err[300];

	(void)state;
	p = fake_plan("lock");
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p.threads = 2;
	p.run_id = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_has(err, "--threads");
	p = fake_plan("lock");
	p.mr_per_qp = 1;
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--mr-per-qp");
	p = fake_plan("lock");
	rb_axis_set1(&p.lock_algo, RB_LOCK_ALGO_COUNT);
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p = fake_plan("lock");
	p.backoff_min_ns = 10;
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--backoff");
	p = fake_plan("write_bw");
	rb_axis_set1(&p.lock_algo, RB_LOCK_TICKET);
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--lock");
	p = fake_plan("write_bw");
	p.locks = 2;
	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, "--locks");
}

/* The region holds the server's words and data, and every contender's scratch. */
static void region_fits_layout(void **state)
{
	struct rb_params p = fake_plan("lock");
	struct rb_lock_layout l;

	(void)state;
	rb_axis_set1(&p.qps, 8);
	p.locks = 5;
	p.cs_bytes = 100;
	rb_lock_layout(&p, 8, &l);
	assert_int_equal(l.stride, 128);
	assert_int_equal(l.data_off, 320);
	assert_int_equal(l.server_bytes, 320 + 5 * 128);
	assert_true(rb_plan_region(&p) >= l.server_bytes);
	assert_true(rb_plan_region(&p) >= 8 * l.scratch);
	assert_true(rb_plan_mem(&p) >= 2 * rb_plan_region(&p));
}

/*
 * lock_handoff_us is a lock changing hands: a release's completion to
 * the next acquisition of that lock by another contender.  One contender
 * never hands its lock over (null); several contenders on one lock do,
 * but not at every acquisition (the releaser re-takes it at times).
 */
static void handoff_other_owner(void **state)
{
	struct rb_result res;
	struct lx x;

	(void)state;
	lx_start(&x, RB_LOCK_SPIN, 1, 1, 8, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	rb_lock_result(&x.lk, &res);
	assert_int_equal(x.lk.handoffs, 0);
	assert_float_equal(res.lock_handoff_us, 0, 0);
	rb_result_free(&res);
	lx_end(&x);
	lx_start(&x, RB_LOCK_SPIN, 4, 1, 8, 5000);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	assert_true(x.lk.handoffs > 0 && x.lk.handoffs <= x.r.ops);
	lx_end(&x);
}

/*
 * --cq-api ex: device.cq_api says the extended CQ polled, so the lock's
 * loop must poll through it (ibv_start_poll), not ibv_poll_cq.
 */
static void lock_polls_extended_cq(void **state)
{
	struct lx x;

	(void)state;
	lx_start(&x, RB_LOCK_TICKET, 3, 1, 8, 5000);
	fake_cqex(x.f, &x.r, false);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_TICKET], &x.lk), 0);
	assert_int_equal(x.r.ops, 300);
	assert_true(x.f->cqx_starts > 0);
	lx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* pure */
		cmocka_unit_test(jain_known_counts),
		cmocka_unit_test(shares_known_counts),
		cmocka_unit_test(backoff_syntax),
		cmocka_unit_test(lock_choices_are_rows),
		/* on the fake */
		cmocka_unit_test(fake_atomics_execute),
		cmocka_unit_test(spin_one),
		cmocka_unit_test(spin_contended),
		cmocka_unit_test(ticket_contended),
		cmocka_unit_test(spin_backoff_hold),
		cmocka_unit_test(handoff_other_owner),
		cmocka_unit_test(lock_polls_extended_cq),
		/* broken locks */
		cmocka_unit_test(broken_cas_ignored),
		cmocka_unit_test(broken_last_release),
		cmocka_unit_test(broken_release_hangs),
		/* output and plan */
		cmocka_unit_test(lock_output),
		cmocka_unit_test(plan_refusals),
		cmocka_unit_test(region_fits_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
