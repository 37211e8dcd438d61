/* SPDX-License-Identifier: MIT */
/*
 * The test table: each measurement is a row of ops.  Latency and
 * bandwidth are modes of one verb family (test_send.c, test_write.c,
 * test_read.c, test_atomic.c); the loops they share live in xfer.c.
 */
#ifndef RB_TESTS_H
#define RB_TESTS_H

#include "rdmabench.h"

struct rb_run;
struct ibv_send_wr;
struct ibv_sge;

struct rb_test {
	const char *name;
	const char *desc;
	enum rb_verb verb;
	enum rb_mode mode;
	unsigned int bit;  /* RB_T_* */
	int client_access; /* remote rights on each side's MR */
	int server_access;
	double lat_scale; /* 0.5: one-way from a round trip; 1: round trip */
	/* Checks that need the device (limits); message names the option. */
	int (*validate)(struct rb_run *r, char *err, size_t len);
	/* Once per connection, after the QPs reached RTS. */
	int (*setup)(struct rb_run *r);
	/* Before a point: fill patterns, reset counters (both sides). */
	int (*prepare)(struct rb_run *r);
	/* One point, on this side's role. */
	int (*run)(struct rb_run *r);
	/* After a point: compute this side's result. */
	int (*report)(struct rb_run *r, struct rb_result *res);
	/* Once per connection, before the QPs are destroyed. */
	void (*teardown)(struct rb_run *r);
	/* Fill the verb's part of a WR template, once per point. */
	void (*prep_wr)(struct rb_run *r, struct ibv_send_wr *wr);
	/* Optional: what changes with each iteration @it, at post time. */
	void (*iter_wr)(struct rb_run *r, struct ibv_send_wr *wr, uint64_t it);
};

extern const struct rb_test rb_test_send_lat, rb_test_send_bw;
extern const struct rb_test rb_test_write_lat, rb_test_write_bw;
extern const struct rb_test rb_test_read_lat, rb_test_read_bw;
extern const struct rb_test rb_test_atomic_lat, rb_test_atomic_bw;

/* rb_test_find() - the row named @name ("atomic_lat", ...), or NULL. */
const struct rb_test *rb_test_find(const char *name);

/* rb_test_of_bit() - the row whose RB_T_* bit is @bit, or NULL. */
const struct rb_test *rb_test_of_bit(unsigned int bit);

/* rb_tests[] - every row, NULL-terminated, in help order. */
extern const struct rb_test *const rb_tests[];

#endif
