// SPDX-License-Identifier: MIT
/*
 * The server's bounded waits that a unit can reach without a device
 * (doc/server.md lists them all): the barrier of a --threads run, over a
 * socketpair against a client that keeps saying it is alive (issue 41's
 * first slot hold).  The TCP path's wait for the data connection is
 * test_session's tcp_hangup_frees_slot.
 *
 * The client is a thread that sleeps between its frames: on a loaded
 * machine each sleep overshoots, so what a test asserts is an order (the
 * barrier ended while the client still spoke, or only after its START)
 * or a bound the barrier's own clock guarantees (no sooner than the bound;
 * sooner than a bound counted from elsewhere could end), never how long
 * the client took.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "engine/ctl.h"

#define MS 1000000ULL

struct beat {
	int fd;
	uint32_t point;
	uint64_t for_ns; /* ALIVE every 100 ms for this long ... */
	bool start;	 /* ... then START (else nothing more) */
	bool cut;	 /* set: a frame found the server gone */
	uint64_t adm_ms; /* set: the barrier's end, from the admission */
};

static bool frame(int fd, uint32_t point, uint32_t what)
{
	struct rb_msg_sync m = { .point = point, .what = what };
	uint8_t b[RB_WIRE_HDR_LEN + 64];
	int n = rb_pack_sync(&m, b + RB_WIRE_HDR_LEN, sizeof(b) - RB_WIRE_HDR_LEN);

	rb_hdr_pack(b, RB_MSG_SYNC, (uint32_t)n);
	/* The server may have hung up already: that is what some tests want. */
	return send(fd, b, RB_WIRE_HDR_LEN + (size_t)n, MSG_NOSIGNAL) > 0;
}

static void *client(void *arg)
{
	struct beat *b = arg;
	uint64_t until = rb_now_ns() + b->for_ns;

	b->cut = false;
	while (rb_now_ns() < until) {
		if (!frame(b->fd, b->point, RB_SYNC_ALIVE)) {
			b->cut = true; /* the server hung up */
			return NULL;
		}
		usleep(100000);
	}
	if (b->start)
		frame(b->fd, b->point, RB_SYNC_START);
	return NULL;
}

/* The server's barrier for @b's point; its result, and its time in *@ms. */
static int barrier(struct beat *b, bool threads, uint64_t alive_ms, uint64_t since_ago_ms,
		   uint64_t *ms)
{
	struct rb_oob o = { .timeout_ms = 2000 };
	struct rb_ctl c;
	pthread_t th;
	uint64_t t0;
	int sv[2], ret;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	o.fd = sv[0];
	snprintf(o.peer, sizeof(o.peer), "10.1.1.1:99");
	b->fd = sv[1];
	rb_ctl_oob_init(&c, &o, RB_ROLE_SERVER);
	c.threads = threads;
	c.alive_ns = alive_ms * MS;
	c.since_ns = rb_now_ns() - since_ago_ms * MS;
	assert_int_equal(pthread_create(&th, NULL, client, b), 0);
	t0 = rb_now_ns();
	ret = c.ops->barrier(&c, b->point);
	*ms = (rb_now_ns() - t0) / MS;
	b->adm_ms = (rb_now_ns() - c.since_ns) / MS;
	close(sv[0]);
	pthread_join(th, NULL);
	close(sv[1]);
	return ret;
}

/*
 * Thread 0 of a --threads run whose other threads never come, saying it
 * is alive every 100 ms for 3 s: the barrier of point 0 ends 1 s
 * (alive_ns) after admission, whatever ALIVEs arrive: no sooner, and while
 * they still come (the client finds the server gone).  Before the bound
 * it lasted until the ALIVEs stopped and then a --timeout more (5 s).
 */
static void test_alive_bounded_from_admission(void **state)
{
	struct beat b = { .point = 0, .for_ns = 3000 * MS, .start = false };
	uint64_t ms;

	(void)state;
	assert_int_equal(barrier(&b, true, 1000, 0, &ms), -ETIMEDOUT);
	assert_true(b.adm_ms >= 1000);
	assert_true(b.cut);
	assert_string_equal(rb_last_error, "client 10.1.1.1:99: a --threads run that kept point 0 "
					   "waiting for its "
					   "other threads over 1 s (--timeout), saying it was "
					   "alive: its slot is "
					   "freed");
	/*
	 * Admitted 1.9 s ago at a bound of 2 s: 100 ms are left, and the
	 * barrier ends sooner than a bound counted from its own start could
	 * (2 s by its own clock), though ALIVEs come.
	 */
	assert_int_equal(barrier(&b, true, 2000, 1900, &ms), -ETIMEDOUT);
	assert_true(b.adm_ms >= 2000);
	if (ms >= 2000)
		fail_msg("the barrier lasted %llu ms: its bound counted from its start, not from "
			 "the admission 1.9 s before",
			 (unsigned long long)ms);
	assert_true(b.cut);
}

/*
 * Threads that come within the bound: START ends the barrier as before,
 * not an ALIVE (it ends no sooner than the client's ALIVEs, 500 ms of its
 * clock).  The bound (30 s) is one no stall of the client reaches.
 */
static void test_alive_then_start(void **state)
{
	struct beat b = { .point = 0, .for_ns = 500 * MS, .start = true };
	uint64_t ms;

	(void)state;
	assert_int_equal(barrier(&b, true, 30000, 0, &ms), 0);
	assert_true(ms >= 400);
	assert_false(b.cut);
}

/*
 * A later point: a thread may end its point far behind the others (the
 * lab's "apart" case, 8 s at --timeout 4): ALIVEs past the bound are
 * still taken there, and START ends it past the bound.
 */
static void test_later_point_not_cut(void **state)
{
	struct beat b = { .point = 1, .for_ns = 1500 * MS, .start = true };
	uint64_t ms;

	(void)state;
	assert_int_equal(barrier(&b, true, 1000, 0, &ms), 0);
	assert_true(b.adm_ms >= 1000);
	assert_false(b.cut);
}

/* A client of one thread may not say it is alive at all: refused at its first. */
static void test_alive_single_thread(void **state)
{
	struct beat b = { .point = 0, .for_ns = 3000 * MS, .start = false };
	uint64_t ms;

	(void)state;
	assert_int_equal(barrier(&b, false, 1000, 0, &ms), -EPROTO);
	assert_true(b.cut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alive_bounded_from_admission),
		cmocka_unit_test(test_alive_then_start),
		cmocka_unit_test(test_later_point_not_cut),
		cmocka_unit_test(test_alive_single_thread),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
