// SPDX-License-Identifier: MIT
/*
 * Unit tests of the round-6 review of lock (issue 42): identical hosts
 * (one host name, one pid) still mark differently, so that one's trample of the
 * other's critical section is caught; a place the listener's reaper
 * marked dead ends the others' wait at once even when its pid is alive
 * again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/lock.h"
#include "engine/lockshare.h"
#include "fake_verbs.h"
#include "session/lockshare.h"

#define assert_has(hay, needle)                                                  \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

/* ---- the holder's mark: identical hosts -------------------------------- */

/* The mark a forked process with host name "twin" and pid 42 draws. */
static uint32_t twin_mark(void)
{
	uint32_t m = 0;
	int fd[2], st;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fd[0]);
		_exit(rb_lock_host_mark_of("twin", 42, &m) || write(fd[1], &m, 4) != 4);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], &m, 4), 4);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && !WEXITSTATUS(st));
	return m;
}

/*
 * Two identical containers (one host name, one pid) mark differently, and
 * one's holder finding the other's write over its own (the same counter,
 * QP and acquisition) is caught; one process keeps one mark.
 */
static void mark_twins_differ(void **state)
{
	struct rb_params p = fake_plan("lock");
	struct rb_run r = { .p = &p };
	struct rb_lock_run a = { .r = &r }, b = { .r = &r };
	struct rb_lock_cont c = { .qi = 0, .seq = 7 };
	uint8_t wr[64], rd[64];
	char who[32];
	uint32_t m1, m2;

	(void)state;
	a.host = twin_mark();
	b.host = twin_mark();
	assert_int_not_equal(a.host, 0);
	assert_int_not_equal(a.host, b.host);
	assert_int_equal(rb_lock_host_mark_of("twin", 42, &m1), 0);
	assert_int_equal(rb_lock_host_mark_of("twin", 42, &m2), 0);
	assert_int_equal(m1, m2);
	/* a wrote counter 5 and its mark; b's holder wrote the same counter over it. */
	p.cs_bytes = 8;
	memset(wr, 0, sizeof(wr));
	memset(rd, 0, sizeof(rd));
	wr[7] = rd[7] = 5;
	rb_lock_mark(&a, &c, wr + 8);
	rb_lock_mark(&b, &c, rd + 8);
	assert_int_equal(rb_lock_mark_check(&a, &c, rd, wr, 5, 5, "lock"), -EILSEQ);
	snprintf(who, sizeof(who), "host 0x%08x", b.host);
	assert_has(rb_last_error, who);
	assert_int_equal(rb_lock_mark_check(&a, &c, wr, wr, 5, 5, "lock"), 0);
}

/* ---- the reaper's dead place ------------------------------------------- */

static int lock_file(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	return dup(fileno(f));
}

/*
 * Host b's server process died and the listener reaped it, but its pid
 * is alive again (here: the test's parent): a's wait for point 0 ends at
 * once, naming b as died, instead of at --timeout.
 */
static void reaped_place_ends_wait(void **state)
{
	struct rb_params p = fake_plan("lock");
	struct sess_lockshare *a, *b;
	int fd = lock_file();
	uint64_t t0;
	uint8_t *mem;

	(void)state;
	p.lock_run_id = 0x4ea9;
	p.lock_hosts = 2;
	sess_lockshare_server(getpid());
	assert_int_equal(sess_lockshare_attach(&p, fd, "10.0.0.1:4000", &a), 0);
	assert_int_equal(sess_lockshare_attach(&p, fd, "10.0.0.2:4001", &b), 0);
	b->sh->host[b->host].pid = (int32_t)getppid(); /* a pid used again: kill(pid, 0) is 0 */
	mem = calloc(1, a->sh->bytes);
	assert_non_null(mem);
	sess_lockshare_reaped(12345678); /* no place of its own: nothing changes */
	assert_int_equal(a->sh->attached, 2);
	sess_lockshare_reaped(getppid());
	t0 = rb_now_ns();
	assert_int_equal(rb_lockshare_begin(a->sh, a->host, 0, mem, 3000000000ULL), -ENOTCONN);
	assert_true(rb_now_ns() - t0 < 1000000000ULL);
	assert_has(rb_last_error, "host 10.0.0.2:4001");
	assert_has(rb_last_error, "died before it reached point 0");
	assert_int_equal(a->sh->host[b->host].state, RB_LKH_DEAD);
	assert_int_equal(a->sh->host[a->host].state, RB_LKH_HERE);
	free(mem);
	sess_lockshare_detach(b, fd);
	sess_lockshare_detach(a, fd);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mark_twins_differ),
		cmocka_unit_test(reaped_place_ends_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
