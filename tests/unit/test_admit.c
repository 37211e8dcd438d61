// SPDX-License-Identifier: MIT
/*
 * The generic server's table of admitted connections: a run of threads
 * joins through its thread 0, every entry's memory counts against the
 * budget, and connections claiming to be threads of a run the server does
 * not serve are refused and hold nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "session/admit.h"
#include "core/rdmabench.h"

#define MIB (1ULL << 20)

static char err[512];

static struct rb_admit_entry conn(int32_t pid, uint64_t run, uint32_t thread, uint32_t threads,
				  uint64_t share, const char *client)
{
	struct rb_admit_entry e = { .pid = pid, .run_id = run, .thread = thread };

	e.threads = threads;
	e.share = share;
	snprintf(e.client, sizeof(e.client), "%s", client);
	return e;
}

/* Tables of @max entries, unmapped when the group ends. */
static struct rb_admit *tables[16];
static size_t ntables;

static struct rb_admit *table(uint32_t max)
{
	struct rb_admit *a = rb_admit_map(max);

	assert_non_null(a);
	assert_true(ntables < sizeof(tables) / sizeof(tables[0]));
	tables[ntables++] = a;
	return a;
}

static int unmap_all(void **state)
{
	(void)state;
	while (ntables)
		rb_admit_unmap(tables[--ntables]);
	return 0;
}

static int try(struct rb_admit *a, struct rb_admit_entry e, uint64_t budget)
{
	err[0] = '\0';
	return rb_admit_try(a, &e, budget, err, sizeof(err));
}

/* Thread 0 holds its run's memory; each thread that joins takes a share. */
static void test_run_joins(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	assert_int_equal(try(a, conn(100, 0xabc, 0, 3, 32 * MIB, "10.0.0.2"), 1024 * MIB), 0);
	assert_int_equal(rb_admit_held(a), 96 * MIB);
	assert_int_equal(try(a, conn(101, 0xabc, 2, 3, 32 * MIB, "10.0.0.2"), 1024 * MIB), 0);
	assert_int_equal(try(a, conn(102, 0xabc, 1, 3, 30 * MIB, "10.0.0.2"), 1024 * MIB), 0);
	/* Taken from thread 0: what the run holds is unchanged. */
	assert_int_equal(rb_admit_held(a), 96 * MIB);
	/* A thread of the run connected already. */
	assert_int_equal(try(a, conn(103, 0xabc, 1, 3, 32 * MIB, "10.0.0.2"), 1024 * MIB), -EEXIST);
	assert_non_null(strstr(err, "thread 1 of run_id 0x0000000000000abc"));
	assert_non_null(strstr(err, "connected already"));
	/* Thread 0 ends first: its share is free, its threads' are not. */
	rb_admit_release(a, 100);
	assert_int_equal(rb_admit_held(a), 64 * MIB);
	rb_admit_release(a, 101);
	rb_admit_release(a, 102);
	assert_int_equal(rb_admit_held(a), 0);
	rb_admit_release(a, 0); /* free entries stay free */
	assert_int_equal(rb_admit_held(a), 0);
}

/* A thread that ended cannot join again: its share is not given twice. */
static void test_rejoin_after_end(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	assert_int_equal(try(a, conn(300, 0x55, 0, 2, 8 * MIB, "10.0.0.2"), 0), 0);
	assert_int_equal(try(a, conn(301, 0x55, 1, 2, 8 * MIB, "10.0.0.2"), 0), 0);
	rb_admit_release(a, 301);
	assert_int_equal(rb_admit_held(a), 8 * MIB);
	assert_int_equal(try(a, conn(302, 0x55, 1, 2, 8 * MIB, "10.0.0.2"), 0), -EEXIST);
	assert_non_null(strstr(err, "every thread of that run has joined once already"));
	/* Nothing wrapped: thread 0 still holds its own share. */
	assert_int_equal(rb_admit_held(a), 8 * MIB);
	rb_admit_release(a, 300);
	assert_int_equal(rb_admit_held(a), 0);
}

/* A thread k > 0 names a run the server serves, or waits. */
static void test_join_needs_thread0(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	assert_int_equal(try(a, conn(200, 0x77, 1, 2, MIB, "10.0.0.2"), 0), -EAGAIN);
	assert_non_null(strstr(err, "PARAMS run_id 0x0000000000000077 (thread 1 of 2, from "
				    "10.0.0.2): no thread 0 of that run is being served"));
	assert_int_equal(try(a, conn(201, 0x77, 0, 2, MIB, "10.0.0.2"), 0), 0);
	/* Another run id, another thread count: not this run. */
	assert_int_equal(try(a, conn(202, 0x78, 1, 2, MIB, "10.0.0.2"), 0), -EAGAIN);
	assert_int_equal(try(a, conn(202, 0x77, 1, 3, MIB, "10.0.0.2"), 0), -EAGAIN);
	/* More memory than its thread 0 was admitted for, per thread. */
	assert_int_equal(try(a, conn(202, 0x77, 1, 2, 2 * MIB, "10.0.0.2"), 0), -ENOMEM);
	assert_non_null(strstr(err, "needs about 2048 KiB, more than the 1024 KiB per thread"));
	assert_int_equal(try(a, conn(202, 0x77, 1, 2, MIB, "10.0.0.2"), 0), 0);
	/* A second run with the same id while the first is served. */
	assert_int_equal(try(a, conn(203, 0x77, 0, 2, MIB, "10.0.0.2"), 0), -EEXIST);
	assert_non_null(strstr(err, "run_id 0x0000000000000077: a run with that id is in "
				    "progress"));
	/* Thread 0 gone: its run takes no one more. */
	rb_admit_release(a, 201);
	rb_admit_release(a, 202);
	assert_int_equal(try(a, conn(204, 0x77, 1, 2, MIB, "10.0.0.2"), 0), -EAGAIN);
}

/* -d LIST: a run's threads come from the client host's address on each rail. */
static void test_join_other_rail(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	assert_int_equal(try(a, conn(300, 0x99, 0, 2, MIB, "10.0.0.1"), 0), 0);
	assert_int_equal(try(a, conn(301, 0x99, 1, 2, MIB, "10.0.1.1"), 0), 0);
	assert_int_equal(rb_admit_held(a), 2 * MIB);
}

/* The budget counts what connections in progress hold, not the plan alone. */
static void test_budget_counts_held(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	assert_int_equal(try(a, conn(300, 0, 0, 1, 600 * MIB, "10.0.0.2"), 1000 * MIB), 0);
	assert_int_equal(try(a, conn(301, 0, 0, 1, 500 * MIB, "10.0.0.3"), 1000 * MIB), -ENOMEM);
	assert_non_null(strstr(err, "the plan needs about 500 MiB (1 thread(s)); this host can "
				    "give 1000 MiB, of which connections in progress hold 600 "
				    "MiB"));
	assert_int_equal(try(a, conn(301, 0, 0, 1, 400 * MIB, "10.0.0.3"), 1000 * MIB), 0);
	assert_int_equal(rb_admit_held(a), 1000 * MIB);
	/* A run of threads needs all of them at once. */
	rb_admit_release(a, 300);
	assert_int_equal(try(a, conn(302, 9, 0, 2, 400 * MIB, "10.0.0.2"), 1000 * MIB), -ENOMEM);
	assert_non_null(strstr(err, "needs about 800 MiB (2 thread(s))"));
	assert_int_equal(try(a, conn(302, 9, 0, 2, 300 * MIB, "10.0.0.2"), 1000 * MIB), 0);
	/* A plan alone over the budget, and no budget at all. */
	rb_admit_release(a, 301);
	rb_admit_release(a, 302);
	assert_int_equal(try(a, conn(303, 0, 0, 1, 2000 * MIB, "10.0.0.2"), 1000 * MIB), -ENOMEM);
	assert_int_equal(try(a, conn(303, 0, 0, 1, 2000 * MIB, "10.0.0.2"), 0), 0);
}

/*
 * --max-client-mem 500M: one client's plans together, beside the host's
 * budget; another client is not charged with them.
 */
static void test_client_mem(void **state)
{
	struct rb_admit *a = table(32);

	(void)state;
	a->client_mem = 500 * MIB;
	assert_int_equal(try(a, conn(400, 0, 0, 1, 300 * MIB, "10.0.0.2"), 2000 * MIB), 0);
	assert_int_equal(try(a, conn(401, 0, 0, 1, 300 * MIB, "10.0.0.2"), 2000 * MIB), -EDQUOT);
	assert_string_equal(err, "the plan needs about 300 MiB (1 thread(s)), and client 10.0.0.2 "
				 "holds 300 MiB already; one client may hold 500 MiB (rdmabench "
				 "server --max-client-mem)");
	assert_int_equal(try(a, conn(401, 0, 0, 1, 200 * MIB, "10.0.0.2"), 2000 * MIB), 0);
	assert_int_equal(try(a, conn(402, 0, 0, 1, 300 * MIB, "10.0.0.3"), 2000 * MIB), 0);
	/* A run of threads: all of its memory counts at its thread 0. */
	rb_admit_release(a, 400);
	rb_admit_release(a, 401);
	assert_int_equal(try(a, conn(403, 7, 0, 2, 300 * MIB, "10.0.0.2"), 2000 * MIB), -EDQUOT);
	assert_non_null(strstr(err, "needs about 600 MiB (2 thread(s)), and client 10.0.0.2 "
				    "holds 0 MiB already"));
	assert_int_equal(try(a, conn(403, 7, 0, 2, 250 * MIB, "10.0.0.2"), 2000 * MIB), 0);
}

/*
 * The lab's finding: 28 connections at once, each "thread 1 of 2" with 32
 * MiB, were all served.  Without their thread 0 each is refused and none
 * holds anything or an entry.
 */
static void test_fake_threads_hold_nothing(void **state)
{
	struct rb_admit *a = table(32);
	int i;

	(void)state;
	for (i = 0; i < 28; i++)
		assert_int_equal(
			try(a, conn(400 + i, 0x1000 + (uint64_t)i, 1, 2, 32 * MIB, "10.0.0.66"),
			    64 * MIB),
			-EAGAIN);
	assert_int_equal(rb_admit_held(a), 0);
	for (i = 0; i < (int)a->max; i++)
		assert_int_equal(a->e[i].pid, 0);
	/* No run id at all, and a thread past the run's. */
	assert_int_equal(try(a, conn(500, 0, 1, 2, MIB, "10.0.0.66"), 0), -EINVAL);
	assert_non_null(strstr(err, "PARAMS run_id 0: thread 1 of a run of 2 threads names no "
				    "run"));
	assert_int_equal(try(a, conn(500, 0, 0, 2, MIB, "10.0.0.66"), 0), -EINVAL);
	assert_int_equal(try(a, conn(500, 5, 2, 2, MIB, "10.0.0.66"), 0), -EINVAL);
	assert_int_equal(rb_admit_held(a), 0);
}

/* A table of a run-time size: full, it refuses naming its size and the option. */
static void test_table_full(void **state)
{
	struct rb_admit *a = table(5);
	int i;

	(void)state;
	assert_int_equal(a->max, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(try(a, conn(600 + i, 0, 0, 1, MIB, "10.0.0.2"), 0), 0);
	assert_int_equal(try(a, conn(700, 0, 0, 1, MIB, "10.0.0.2"), 0), -ENOSPC);
	assert_non_null(strstr(err, "5 connections are being served already"));
	assert_non_null(strstr(err, "--max-conns 5"));
	assert_int_equal(rb_admit_held(a), 5 * MIB);
	rb_admit_release(a, 603);
	assert_int_equal(try(a, conn(700, 0, 0, 1, MIB, "10.0.0.2"), 0), 0);
	assert_int_equal(rb_admit_held(a), 5 * MIB);
	/* Out of range: no table. */
	assert_null(rb_admit_map(0));
	assert_null(rb_admit_map(RB_MAX_CONNS + 1));
}

/* Every thread of a run of @n (run id @run) from pid @pid0 on; the last result. */
static int run_of(struct rb_admit *a, uint32_t n, uint64_t run, int32_t pid0)
{
	uint32_t k;
	int ret = 0;

	for (k = 0; k < n && !ret; k++)
		ret = try(a, conn(pid0 + (int32_t)k, run, k, n, MIB, "10.0.0.2"), 0);
	return ret;
}

/* 40 threads: admitted by a table of 64, refused by one of 32, naming it. */
static void test_run_over_limit(void **state)
{
	struct rb_admit *big = table(64), *small = table(32);

	(void)state;
	assert_int_equal(run_of(big, 40, 0x40, 1000), 0);
	assert_int_equal(rb_admit_held(big), 40 * MIB);
	assert_int_equal(big->e[0].to_join, 0);
	/* Thread 0 first, or any other thread: refused before anything is held. */
	assert_int_equal(run_of(small, 40, 0x41, 2000), -ENOSPC);
	assert_non_null(strstr(err, "--threads 40 needs 40 connections at once; this server "
				    "serves at most 32 (rdmabench server --max-conns 32): start "
				    "it with --max-conns 40 or more"));
	assert_int_equal(try(small, conn(2005, 0x41, 5, 40, MIB, "10.0.0.2"), 0), -ENOSPC);
	assert_non_null(strstr(err, "--max-conns 32"));
	assert_int_equal(rb_admit_held(small), 0);
	/* Exactly the limit fits. */
	assert_int_equal(run_of(small, 32, 0x42, 3000), 0);
}

/*
 * A thread 0 keeps entries for its threads to come: a run that fits only
 * in entries another run has kept waits (-ENOSPC, try again), and the
 * threads of the first run still find theirs.
 */
static void test_run_reserves(void **state)
{
	struct rb_admit *a = table(8);
	uint32_t k;

	(void)state;
	assert_int_equal(try(a, conn(100, 0x50, 0, 6, MIB, "10.0.0.2"), 0), 0);
	/* 1 entry taken, 5 kept: 2 free. */
	assert_int_equal(try(a, conn(200, 0x51, 0, 3, MIB, "10.0.0.3"), 0), -ENOSPC);
	assert_non_null(strstr(err, "--threads 3: 3 connection(s) needed, 2 of this server's 8 "
				    "free"));
	assert_non_null(strstr(err, "--max-conns 8"));
	assert_int_equal(try(a, conn(300, 0, 0, 1, MIB, "10.0.0.4"), 0), 0);
	assert_int_equal(try(a, conn(301, 0, 0, 1, MIB, "10.0.0.4"), 0), 0);
	assert_int_equal(try(a, conn(302, 0, 0, 1, MIB, "10.0.0.4"), 0), -ENOSPC);
	for (k = 1; k < 6; k++)
		assert_int_equal(try(a, conn(100 + (int32_t)k, 0x50, k, 6, MIB, "10.0.0.2"), 0), 0);
	/* Thread 0 ended: what it kept for threads is free with it. */
	rb_admit_release(a, 300);
	assert_int_equal(try(a, conn(400, 0x52, 0, 2, MIB, "10.0.0.5"), 0), -ENOSPC);
	rb_admit_release(a, 301);
	assert_int_equal(try(a, conn(400, 0x52, 0, 2, MIB, "10.0.0.5"), 0), 0);
	rb_admit_release(a, 400);
	assert_int_equal(try(a, conn(500, 0x53, 0, 3, MIB, "10.0.0.6"), 0), -ENOSPC);
	rb_admit_release(a, 100);
	assert_int_equal(try(a, conn(500, 0x53, 0, 3, MIB, "10.0.0.6"), 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_joins),
		cmocka_unit_test(test_join_needs_thread0),
		cmocka_unit_test(test_join_other_rail),
		cmocka_unit_test(test_rejoin_after_end),
		cmocka_unit_test(test_budget_counts_held),
		cmocka_unit_test(test_fake_threads_hold_nothing),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_run_over_limit),
		cmocka_unit_test(test_run_reserves),
		cmocka_unit_test(test_client_mem),
	};

	return cmocka_run_group_tests(tests, NULL, unmap_all);
}
