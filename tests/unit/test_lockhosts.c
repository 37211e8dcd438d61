// SPDX-License-Identifier: MIT
/*
 * Unit tests of issue 42's lock from several client hosts and the review
 * findings on lock's figures: --run-id/--run-hosts in the plan and on the
 * wire; the server's segment (made, joined, refused, unlinked); the
 * points aligned across processes; two processes playing two hosts on
 * one shared lock word with --verify (the counters add up to the sum of
 * both hosts' acquisitions); each contender's count in the JSON;
 * lock_handoff_us whatever the order the CQ gives completions in; and
 * the first --interval slice holding only measured acquisitions.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "core/sweep.h"
#include "engine/lock.h"
#include "engine/lockshare.h"
#include "fake_verbs.h"
#include "lock_fx.h"
#include "report/output.h"
#include "session/lockshare.h"
#include "wire/plan.h"
#include "wire/wire.h"

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

static struct rb_params run_plan(uint64_t id, uint32_t hosts)
{
	struct rb_params p = fake_plan("lock");

	p.lock_run_id = id;
	p.lock_hosts = hosts;
	p.verify = 1;
	return p;
}

/* ---- the plan and the wire --------------------------------------------- */

/* Plan @p is refused, the message naming @what. */
static void refused(struct rb_params p, const char *what)
{
	char err[300];

	assert_int_not_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_has(err, what);
}

static void plan_run_id(void **state)
{
	struct rb_params p = run_plan(7, 2), q;
	uint8_t buf[4096];
	const uint8_t id_tag[] = { 0x80, 48, 0, 8 }, hosts_tag[] = { 0x80, 49, 0, 4 };
	char err[300];
	int n;

	(void)state;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	/* Both travel, must-understand: an older server refuses the run. */
	n = rb_pack_params(&p, buf, sizeof(buf));
	assert_true(n > 0);
	assert_non_null(memmem(buf, (size_t)n, id_tag, 4));
	assert_non_null(memmem(buf, (size_t)n, hosts_tag, 4));
	assert_int_equal(rb_unpack_params(buf, (size_t)n, &q), 0);
	assert_int_equal(q.lock_run_id, 7);
	assert_int_equal(q.lock_hosts, 2);
	refused(run_plan(7, 0), "--run-hosts");
	refused(run_plan(0, 2), "--run-id");
	p = run_plan(7, 2);
	p.hugepages = 1;
	refused(p, "--hugepages");
	p = fake_plan("write_bw");
	p.lock_run_id = 7;
	refused(p, "--run-id");
}

/* ---- the server's segment ---------------------------------------------- */

static int lock_file(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	return dup(fileno(f)); /* the FILE may go; the lock is on the fd */
}

static void segment_join_refuse_unlink(void **state)
{
	struct rb_params p = run_plan(0x5eed, 2), other = p;
	struct sess_lockshare *a, *b, *c;
	char name[64];
	int fd = lock_file(), o;

	(void)state;
	assert_int_equal(sess_lockshare_attach(&p, fd, "h", &a), -ENOTSUP); /* no server yet */
	assert_has(rb_last_error, "rdmabench server");
	sess_lockshare_server(getpid());
	assert_int_equal(sess_lockshare_attach(&p, fd, "h", &a), 0);
	assert_true(a->first);
	assert_int_equal(a->sh->hosts, 2);
	snprintf(name, sizeof(name), "%s", a->name);
	assert_has(name, "/rdmabench.lock.");
	/* Another plan of the same run id: refused, naming what differs. */
	other.locks = 4;
	assert_int_equal(sess_lockshare_attach(&other, fd, "h", &c), -EINVAL);
	assert_has(rb_last_error, "--locks 4");
	assert_null(c);
	/* A list (--hold's) is compared whole, and named without values. */
	other.locks = p.locks;
	rb_axis_set1(&other.hold_us, 50);
	assert_int_equal(sess_lockshare_attach(&other, fd, "h", &c), -EINVAL);
	assert_has(rb_last_error, "--hold differs from the run's first host's");
	assert_null(c);
	assert_int_equal(sess_lockshare_attach(&p, fd, "h", &b), 0);
	assert_false(b->first);
	assert_ptr_not_equal(b->sh, a->sh);
	b->sh->started = 5; /* one segment, two mappings */
	assert_int_equal(a->sh->started, 5);
	assert_int_equal(a->sh->attached, 2);
	/* A third host of a run of two. */
	assert_int_equal(sess_lockshare_attach(&p, fd, "h", &c), -EINVAL);
	assert_has(rb_last_error, "joined already");
	sess_lockshare_detach(a, fd);
	o = shm_open(name, O_RDWR, 0600);
	assert_true(o >= 0); /* b still maps it */
	close(o);
	sess_lockshare_detach(b, fd);
	assert_int_equal(shm_open(name, O_RDWR, 0600), -1);
	assert_int_equal(errno, ENOENT);
	close(fd);
}

/* A host that never comes: the other's point ends at the timeout, saying so. */
static void point_waits_for_hosts(void **state)
{
	struct rb_params p = run_plan(3, 2);
	struct rb_lock_share *sh = calloc(1, sizeof(*sh));
	uint8_t mem[4096];
	uint64_t total = 0;

	(void)state;
	assert_non_null(sh);
	rb_lockshare_init(sh, &p, 1, 4096);
	assert_int_equal(rb_lockshare_add(sh, getpid(), "a"), 0);
	assert_int_equal(rb_lockshare_add(sh, getpid(), "b"), 1);
	assert_int_equal(rb_lockshare_begin(sh, 0, 0, mem, 20000000ULL), -ETIMEDOUT);
	assert_has(rb_last_error, "1 of the 2 hosts reached point 0");
	assert_has(rb_last_error, "--run-id 3");
	/* The second arrives: it starts the point, zeroing the memory. */
	memset(mem, 0xff, sizeof(mem));
	assert_int_equal(rb_lockshare_begin(sh, 1, 0, mem, 20000000ULL), 0);
	assert_int_equal(sh->started, 1);
	assert_int_equal(mem[sh->bytes - 1], 0);
	assert_int_equal(rb_lockshare_end(sh, 0, 0, 11, true, 20000000ULL, &total), -ETIMEDOUT);
	assert_has(rb_last_error, "1 of the 2 hosts ended point 0");
	assert_int_equal(rb_lockshare_end(sh, 1, 0, 31, true, 20000000ULL, &total), 0);
	assert_int_equal(total, 42);
	free(sh);
}

/* ---- two hosts on one lock: two processes ------------------------------ */

enum { HOST_ITERS = 150, HOST_WARMUP = 10, HOST_POINTS = 2 };

/* One "host" of the run (lock_fx.h), -q 2,2 on one lock word. */
static int host_run(enum rb_lock_algo_id algo, uint64_t id, int lock_fd)
{
	struct rb_params p = run_plan(id, 2);
	struct rb_lock_run lk;
	struct lx_host h;
	uint64_t total = 0;
	uint32_t k;
	int ret;

	p.qps.n = HOST_POINTS; /* -q 2,2: two points of two contenders */
	p.qps.v[0] = p.qps.v[1] = 2;
	rb_axis_set1(&p.lock_algo, algo);
	p.cs_bytes = 4096; /* the words and data fill pages of their own */
	p.iters = HOST_ITERS;
	p.warmup = HOST_WARMUP;
	ret = lx_host_open(&h, &p, lock_fd);
	memset(&lk, 0, sizeof(lk));
	for (k = 0; k < HOST_POINTS && !ret; k++) {
		ret = rb_lockshare_begin(h.ls->sh, h.ls->host, k, h.buf, 10000000000ULL) ? 13 : 0;
		rb_lock_run_free(&lk);
		if (!ret && rb_run_lock_with(&h.r, &rb_lock_algos[algo], &lk))
			ret = 14; /* a holder's read-back found another's write */
		if (!ret && rb_lockshare_end(h.ls->sh, h.ls->host, k, h.r.total, true,
					     10000000000ULL, &total))
			ret = 15;
		/* Every host's acquisitions, in the words both mapped. */
		if (!ret && total != 2 * (HOST_ITERS + HOST_WARMUP))
			ret = 16;
		h.r.role = RB_ROLE_SERVER;
		if (!ret && rb_lock_server_check(&h.r, total))
			ret = 17;
		h.r.role = RB_ROLE_CLIENT;
	}
	rb_lock_run_free(&lk);
	lx_host_close(&h);
	return ret;
}

static void two_hosts(enum rb_lock_algo_id algo, uint64_t id)
{
	int fd = lock_file(), st, i, code[2];
	pid_t pid[2];

	sess_lockshare_server(getpid());
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (!pid[i])
			_exit(host_run(algo, id, fd));
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		code[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
	}
	if (code[0] || code[1])
		fail_msg("hosts of %s ended %d and %d", rb_lock_algos[algo].name, code[0], code[1]);
	close(fd);
}

static void two_hosts_spin(void **state)
{
	(void)state;
	two_hosts(RB_LOCK_SPIN, 0x51);
}

static void two_hosts_ticket(void **state)
{
	(void)state;
	two_hosts(RB_LOCK_TICKET, 0x71);
}

/* ---- the client's figures ----------------------------------------------- */

/* lx_start() with the run of @run_id (--run-hosts 2), or none (0). */
static void lx_run(struct lx *x, enum rb_lock_algo_id algo, uint32_t contenders, uint32_t locks,
		   uint64_t run_id)
{
	lx_start(x, algo, contenders, locks, 8, 5000);
	x->p.lock_run_id = run_id;
	x->p.lock_hosts = run_id ? 2 : 0;
}

/*
 * Each contender's count reaches the JSON with its host, and which check
 * ran: with --run-id the client leaves the memory's check to the server
 * (a lock left held by this host is then not the client's to find).
 */
static void contenders_in_json(void **state)
{
	struct rb_result res;
	char host[64] = "";
	json_t *o, *c, *a;
	uint64_t sum = 0;
	struct lx x;
	size_t i;

	(void)state;
	gethostname(host, sizeof(host) - 1);
	lx_run(&x, RB_LOCK_TICKET, 3, 1, 0);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_TICKET], &x.lk), 0);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	rb_lock_result(&x.lk, &res);
	o = rb_json_result(&res);
	c = json_object_get(o, "lock_contenders");
	a = json_object_get(c, "acquisitions");
	assert_int_equal(json_array_size(a), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(json_integer_value(json_array_get(a, i)), x.lk.c[i].acquired);
		sum += (uint64_t)json_integer_value(json_array_get(a, i));
	}
	assert_int_equal(sum, 300);
	assert_string_equal(json_string_value(json_object_get(c, "host")), host);
	assert_string_equal(json_string_value(json_object_get(o, "lock_verify")), "point");
	json_decref(o);
	rb_result_free(&res);
	lx_end(&x);

	/*
	 * --run-id: another host's 5 acquisitions are in the counter too, so
	 * this host's count cannot match it: the client leaves the check to
	 * the server, which has every host's count.
	 */
	lx_run(&x, RB_LOCK_SPIN, 2, 1, 9);
	*(uint64_t *)(void *)(rb_rx_of(&x.r, 0) + x.l.data_off) = 5;
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	assert_int_equal(*(uint64_t *)(void *)(rb_rx_of(&x.r, 0) + x.l.data_off), 5 + 320);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	rb_lock_result(&x.lk, &res);
	assert_int_equal(res.lock_verify, RB_LOCK_VERIFY_RUN);
	o = rb_json_result(&res);
	assert_string_equal(json_string_value(json_object_get(o, "lock_verify")), "run");
	json_decref(o);
	rb_result_free(&res);
	lx_end(&x);
}

/* ---- review findings ---------------------------------------------------- */

/*
 * lock_handoff_us whatever the reap order: RDMA WRITEs (the spin lock's
 * release) complete late, so the new owner's CAS completion is reaped
 * before the releaser's.  Two contenders on one lock then alternate (the
 * releaser waits for its release's completion, the other spins): every
 * measured acquisition but the first is a handoff, and each counts from
 * its release's post.
 */
static void handoff_reap_order(void **state)
{
	struct lx x;

	(void)state;
	lx_run(&x, RB_LOCK_SPIN, 2, 1, 0);
	x.f->delay_write = 40;
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	assert_int_equal(x.r.ops, 300);
	if (x.lk.handoffs < x.r.ops - 1)
		fail_msg("%llu handoffs in %llu acquisitions that alternate",
			 (unsigned long long)x.lk.handoffs, (unsigned long long)x.r.ops);
	assert_true(x.lk.handoffs <= x.r.ops);
	lx_end(&x);
}

/* --interval: each slice's count is the acquisitions whose latency it holds. */
struct slices {
	uint32_t n, bad;
	uint64_t ops;
	size_t samples;
};

static void on_slice(void *ctx, const struct rb_run *r, const struct rb_interval *iv)
{
	struct slices *s = ctx;

	s->n++;
	s->ops += iv->ops;
	if (iv->ops != rb_samples_slice_n(&r->lat) && !s->bad) {
		s->bad = s->n;
		s->samples = rb_samples_slice_n(&r->lat);
	}
}

/*
 * A measured acquisition may not finish before rb_mark_start(): the
 * first slice (and the point's rate) would count it outside its time.
 */
static void first_slice_measured(void **state)
{
	struct slices s = { 0 };
	struct lx x;

	(void)state;
	/* Acquisitions of the other locks overtake the warm-up's last. */
	lx_run(&x, RB_LOCK_SPIN, 4, 3, 0);
	x.p.interval_ms = 1;
	x.r.iv.on_end = on_slice;
	x.r.iv.ctx = &s;
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	x.r.ops = x.r.lat.n;
	assert_int_equal(rb_iv_finish(&x.r), 0);
	assert_true(s.n >= 1);
	if (s.bad)
		fail_msg("slice %u counts acquisitions its latencies do not hold (%zu)", s.bad,
			 s.samples);
	assert_int_equal(s.ops, 300);
	lx_end(&x);
}

/*
 * A handoff is the lock passing to a contender that was already waiting:
 * one that came after the release found the lock free (its first CAS
 * won) and is none.  The fake runs each CAS at its post, on one thread,
 * so a spin acquirer that waited made a failed attempt first: the
 * handoffs are at most the failed attempts.  Two contenders on --locks 3
 * take each lock in turn, most often free.
 */
static void handoff_only_to_waiters(void **state)
{
	struct lx x;

	(void)state;
	lx_run(&x, RB_LOCK_SPIN, 2, 3, 0);
	assert_int_equal(rb_run_lock_with(&x.r, &rb_lock_algos[RB_LOCK_SPIN], &x.lk), 0);
	if (x.lk.handoffs > x.lk.attempts - x.p.iters)
		fail_msg("%llu handoffs, %llu failed attempts: a free lock's take counted as one",
			 (unsigned long long)x.lk.handoffs,
			 (unsigned long long)(x.lk.attempts - x.p.iters));
	lx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_run_id),
		cmocka_unit_test(segment_join_refuse_unlink),
		cmocka_unit_test(point_waits_for_hosts),
		cmocka_unit_test(two_hosts_spin),
		cmocka_unit_test(two_hosts_ticket),
		cmocka_unit_test(contenders_in_json),
		cmocka_unit_test(handoff_reap_order),
		cmocka_unit_test(first_slice_measured),
		cmocka_unit_test(handoff_only_to_waiters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
