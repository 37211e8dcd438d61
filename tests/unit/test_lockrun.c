// SPDX-License-Identifier: MIT
/*
 * Unit tests of a --run-id lock run's review findings (issue 42): a
 * holder's mark names its host and QP, so that a second host's holder
 * trampling the first's critical section is caught at the acquisition
 * that saw it, naming both; the points are aligned point by point, and
 * a host that left the run (or whose server process died) ends the
 * others' waits at once, naming it; a run whose server processes were
 * all killed is made anew by the next attach.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
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

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/lock.h"
#include "engine/lockshare.h"
#include "fake_verbs.h"
#include "lock_fx.h"
#include "session/lockshare.h"

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

static struct rb_params run_plan(uint64_t id)
{
	struct rb_params p = fake_plan("lock");

	p.lock_run_id = id;
	p.lock_hosts = 2;
	p.verify = 1;
	return p;
}

static int lock_file(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	return dup(fileno(f));
}

/* ---- a holder's mark: host and QP ------------------------------------- */

/* What each forked host saw, in memory both share with the test. */
struct seen {
	int ret[2];
	uint32_t mark[2];
	char err[2][1024];
};

/* A lock that ignores its CAS's result: every host's contender "owns" it. */
static int cas_ignored(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	(void)lk;
	(void)c;
	return 1;
}

enum { MARK_ITERS = 6, MARK_HOLD_US = 100000 };

/*
 * Host @i: one contender (-q 1, so that no two of its own overlap),
 * each holding the broken lock 100 ms: the other host's holder writes
 * inside that hold.  The two hosts' fills are alike (the same
 * acquisition numbers and QP): the mark tells them apart.  --cs-bytes
 * 4096 puts the words and data in pages of their own, apart from each
 * host's scratch.
 */
static int mark_host(int i, int lock_fd, struct seen *s)
{
	struct rb_params p = run_plan(0x3a);
	struct rb_lock_algo bad = rb_lock_algos[RB_LOCK_SPIN];
	struct rb_lock_run lk;
	struct lx_host h;
	int ret;

	bad.acquired = cas_ignored;
	p.iters = MARK_ITERS;
	p.warmup = 0;
	p.cs_bytes = 4096;
	ret = lx_host_open(&h, &p, lock_fd);
	if (ret)
		return ret;
	h.r.pt.hold_us = MARK_HOLD_US;
	memset(&lk, 0, sizeof(lk));
	if (rb_lockshare_begin(h.ls->sh, h.ls->host, 0, h.buf, 10000000000ULL))
		return 13;
	s->ret[i] = rb_run_lock_with(&h.r, &bad, &lk);
	s->mark[i] = lk.host;
	snprintf(s->err[i], sizeof(s->err[i]), "%s", rb_last_error);
	rb_lock_run_free(&lk);
	lx_host_close(&h);
	return 0;
}

static void marks_name_both_hosts(void **state)
{
	struct seen *s =
		mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fd = lock_file(), st, i, caught = 0;
	char want[64];
	pid_t pid[2];

	(void)state;
	assert_true(s != MAP_FAILED);
	memset(s, 0, sizeof(*s));
	sess_lockshare_server(getpid());
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (!pid[i])
			_exit(mark_host(i, fd, s));
	}
	for (i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	assert_int_not_equal(s->mark[0], s->mark[1]);
	for (i = 0; i < 2; i++) {
		if (s->ret[i] != -EILSEQ)
			continue;
		caught++;
		/* This holder, and the other host's holder whose write it found. */
		snprintf(want, sizeof(want), "mark 0x%08x, QP 0", s->mark[i]);
		assert_has(s->err[i], want);
		snprintf(want, sizeof(want), "the mark of host 0x%08x's QP 0", s->mark[!i]);
		assert_has(s->err[i], want);
		assert_has(s->err[i], "acquisition");
	}
	if (!caught)
		fail_msg("two hosts held a broken lock at once and neither holder saw it: %d, %d",
			 s->ret[0], s->ret[1]);
	munmap(s, sizeof(*s));
	close(fd);
}

/* The mark is in the data whatever --cs-bytes: the layout's room for it. */
static void mark_in_layout(void **state)
{
	struct rb_params p = fake_plan("lock");
	struct rb_lock_layout l;
	uint32_t m = 0;

	(void)state;
	p.cs_bytes = 0;
	assert_int_equal(rb_lock_data_len(&p), 8 + RB_LOCK_MARK_BYTES);
	p.cs_bytes = 100;
	rb_lock_layout(&p, 1, &l);
	assert_int_equal(rb_lock_data_len(&p), 8 + RB_LOCK_MARK_BYTES + 100);
	assert_true(l.stride >= rb_lock_data_len(&p));
	assert_int_equal(rb_lock_host_mark(&m), 0);
	assert_int_not_equal(m, 0);
}

/* ---- points aligned point by point ------------------------------------- */

static struct rb_lock_share *share_of_two(struct rb_params *p, uint8_t **mem)
{
	struct rb_lock_share *sh = calloc(1, sizeof(*sh));

	assert_non_null(sh);
	rb_lockshare_init(sh, p, 3, 4096);
	*mem = calloc(1, sh->bytes);
	assert_non_null(*mem);
	assert_int_equal(rb_lockshare_add(sh, getpid(), "10.0.0.1:4000"), 0);
	assert_int_equal(rb_lockshare_add(sh, getpid(), "10.0.0.2:4001"), 1);
	return sh;
}

enum { PATIENT_NS = 3000000000ULL };

/*
 * Host 1 did point 0 and left (its client failed, its connection ended):
 * host 0's next point fails at once, naming it, instead of waiting out
 * --timeout (which arrivals counted over the run made every later point
 * do).
 */
static void host_left_fails_fast(void **state)
{
	struct rb_params p = run_plan(0x11);
	uint64_t total = 0, t0;
	struct rb_lock_share *sh;
	uint8_t *mem;

	(void)state;
	sh = share_of_two(&p, &mem);
	/* Host 1 reached and ended point 0 (its process is another's). */
	sh->host[1].reached = 1;
	sh->host[1].ended = 1;
	sh->host[1].acq = 7;
	assert_int_equal(rb_lockshare_begin(sh, 0, 0, mem, PATIENT_NS), 0);
	assert_int_equal(sh->started, 1);
	assert_int_equal(rb_lockshare_end(sh, 0, 0, 5, true, PATIENT_NS, &total), 0);
	assert_int_equal(total, 12);
	/* Host 1 leaves after point 0: host 0 is the only one here. */
	assert_int_equal(rb_lockshare_leave(sh, 1), 1);
	t0 = rb_now_ns();
	assert_int_equal(rb_lockshare_begin(sh, 0, 1, mem, PATIENT_NS), -ENOTCONN);
	if (rb_now_ns() - t0 >= PATIENT_NS)
		fail_msg("point 1 waited out the timeout for a host that had left");
	assert_has(rb_last_error, "10.0.0.2:4001");
	assert_has(rb_last_error, "left the run before it reached point 1");
	assert_has(rb_last_error, "--run-id 17");
	free(mem);
	free(sh);
}

/*
 * A host that left after reaching a point but before stopping it holds
 * up that point's end: the others' --verify wait fails at once too.  One
 * that stopped it first does not.
 */
static void host_left_mid_point(void **state)
{
	struct rb_params p = run_plan(0x12);
	uint64_t total = 0;
	struct rb_lock_share *sh;
	uint8_t *mem;

	(void)state;
	sh = share_of_two(&p, &mem);
	sh->host[1].reached = 1;
	assert_int_equal(rb_lockshare_begin(sh, 0, 0, mem, PATIENT_NS), 0);
	rb_lockshare_leave(sh, 1);
	assert_int_equal(rb_lockshare_end(sh, 0, 0, 5, true, PATIENT_NS, &total), -ENOTCONN);
	assert_has(rb_last_error, "before it ended point 0");
	free(mem);
	free(sh);

	sh = share_of_two(&p, &mem);
	sh->host[1].reached = 1;
	sh->host[1].ended = 1;
	sh->host[1].acq = 3;
	rb_lockshare_leave(sh, 1);
	assert_int_equal(rb_lockshare_begin(sh, 0, 0, mem, PATIENT_NS), 0);
	assert_int_equal(rb_lockshare_end(sh, 0, 0, 5, true, PATIENT_NS, &total), 0);
	assert_int_equal(total, 8);
	free(mem);
	free(sh);
}

/* Host 0's start of point 0 in @sh ends at a 20 ms timeout, the error saying @says; all freed. */
static void begins_late(struct rb_lock_share *sh, uint8_t *mem, const char *says)
{
	assert_int_equal(rb_lockshare_begin(sh, 0, 0, mem, 20000000ULL), -ETIMEDOUT);
	assert_has(rb_last_error, says);
	free(mem);
	free(sh);
}

/*
 * A place being filled (a host attaching: counted, not yet here) is no
 * host that left: the wait goes on to its timeout.
 */
static void joining_host_not_gone(void **state)
{
	struct rb_params p = run_plan(0x14);
	struct rb_lock_share *sh;
	uint8_t *mem;

	(void)state;
	sh = share_of_two(&p, &mem);
	sh->host[1].state = RB_LKH_FREE;
	begins_late(sh, mem, "1 of the 2 hosts reached point 0");
}

/*
 * The host that zeroes a point's words died in the memset: the others'
 * start of the point ends at the timeout, saying so, never a hang.
 */
static void zeroer_died(void **state)
{
	struct rb_params p = run_plan(0x13);
	struct rb_lock_share *sh;
	uint8_t *mem;

	(void)state;
	sh = share_of_two(&p, &mem);
	sh->host[1].reached = 1;
	sh->started = UINT32_MAX; /* host 1 took the zeroing, and no more */
	begins_late(sh, mem, "point 0's words were not zeroed");
}

/* ---- a server process killed ------------------------------------------- */

/* A server process that attaches for one host, says so, and waits to be killed. */
static pid_t attached_child(const struct rb_params *p, int lock_fd)
{
	struct sess_lockshare *ls;
	int pfd[2];
	char c = 0;
	pid_t pid;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(pfd[0]);
		c = sess_lockshare_attach(p, lock_fd, "10.0.0.9:5000", &ls) ? 'n' : 'y';
		if (write(pfd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &c, 1), 1);
	close(pfd[0]);
	assert_int_equal(c, 'y');
	return pid;
}

static void killed(pid_t pid)
{
	int st;

	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
}

/*
 * The run's only process is killed before it could leave: its segment
 * keeps it attached, so the run id stayed taken (a new run's second host
 * was refused as a third) until the server restarted.  The next attach
 * finds its pid gone and makes the run anew.
 */
static void killed_alone_recovers(void **state)
{
	struct rb_params p = run_plan(0x21);
	struct sess_lockshare *a, *b;
	int fd = lock_file();

	(void)state;
	sess_lockshare_server(getpid());
	killed(attached_child(&p, fd));
	assert_int_equal(sess_lockshare_attach(&p, fd, "10.0.0.1:4000", &a), 0);
	assert_true(a->first);
	assert_int_equal(a->sh->attached, 1);
	assert_int_equal(a->host, 0);
	assert_int_equal(sess_lockshare_attach(&p, fd, "10.0.0.2:4000", &b), 0);
	assert_false(b->first);
	assert_int_equal(b->host, 1);
	assert_int_equal(a->sh->attached, 2);
	sess_lockshare_detach(a, fd);
	sess_lockshare_detach(b, fd);
	close(fd);
}

/*
 * A host's server process is killed in the middle of the run: the other
 * host's next point fails at once, naming it as dead, and its place no
 * longer counts as attached.
 */
static void killed_mid_run(void **state)
{
	struct rb_params p = run_plan(0x22);
	struct sess_lockshare *a;
	int fd = lock_file();
	uint8_t *mem;
	uint64_t t0;
	pid_t pid;

	(void)state;
	sess_lockshare_server(getpid());
	pid = attached_child(&p, fd);
	assert_int_equal(sess_lockshare_attach(&p, fd, "10.0.0.1:4000", &a), 0);
	assert_false(a->first);
	assert_int_equal(a->sh->attached, 2);
	mem = calloc(1, a->sh->bytes);
	assert_non_null(mem);
	killed(pid);
	t0 = rb_now_ns();
	assert_int_equal(rb_lockshare_begin(a->sh, a->host, 0, mem, PATIENT_NS), -ENOTCONN);
	if (rb_now_ns() - t0 >= PATIENT_NS)
		fail_msg("point 0 waited out the timeout for a host whose process had died");
	assert_has(rb_last_error, "10.0.0.9:5000");
	assert_has(rb_last_error, "died before it reached point 0");
	assert_int_equal(a->sh->attached, 1);
	assert_int_equal(a->sh->host[0].state, RB_LKH_DEAD);
	sess_lockshare_detach(a, fd);
	free(mem);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(marks_name_both_hosts), cmocka_unit_test(mark_in_layout),
		cmocka_unit_test(host_left_fails_fast),	 cmocka_unit_test(host_left_mid_point),
		cmocka_unit_test(joining_host_not_gone), cmocka_unit_test(zeroer_died),
		cmocka_unit_test(killed_alone_recovers), cmocka_unit_test(killed_mid_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
