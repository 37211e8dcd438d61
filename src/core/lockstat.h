/* SPDX-License-Identifier: MIT */
/*
 * The lock test's pure parts (issue 42): how evenly contenders shared a
 * lock (each one's share, Jain's fairness index) and --backoff's syntax.
 * No verbs, no clock: unit-tested on known counts (tests/unit/test_lock).
 */
#ifndef RB_LOCKSTAT_H
#define RB_LOCKSTAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * rb_lock_jain() - Jain's fairness index of @n contenders' acquisition
 * counts @x: (sum x)^2 / (n * sum x^2), 1 when all took the same, 1/n
 * when one took everything.  0 when @n is 0 or nobody acquired.
 */
double rb_lock_jain(const uint64_t *x, uint32_t n);

/*
 * rb_lock_shares() - each contender's share of the acquisitions, x[i] /
 * sum x, into @share (n entries); all 0 when nobody acquired.  The
 * smallest share is returned.
 */
double rb_lock_shares(const uint64_t *x, uint32_t n, double *share);

/*
 * --backoff: "none", or "exp:MIN..MAX" in nanoseconds (MIN >= 1, MIN <=
 * MAX <= RB_LOCK_BACKOFF_MAX): after a failed attempt a contender waits
 * MIN, doubling up to MAX, before its next.  rb_lock_backoff_parse()
 * reads @s into *@min_ns and *@max_ns (0 and 0 for none); 0, or -EINVAL
 * with a message naming the option and the fix in @err.
 */
#define RB_LOCK_BACKOFF_MAX 1000000000u
int rb_lock_backoff_parse(const char *s, uint32_t *min_ns, uint32_t *max_ns, char *err, size_t len);

/* rb_lock_backoff_check() - the option row's .check: the syntax alone. */
int rb_lock_backoff_check(const char *arg, char *err, size_t len);

#endif
