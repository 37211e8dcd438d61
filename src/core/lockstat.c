// SPDX-License-Identifier: MIT
/*
 * The lock test's pure parts (lockstat.h): fairness and --backoff.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lockstat.h"

double rb_lock_jain(const uint64_t *x, uint32_t n)
{
	double sum = 0, sq = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		sum += (double)x[i];
		sq += (double)x[i] * (double)x[i];
	}
	if (!n || sq == 0)
		return 0;
	return sum * sum / ((double)n * sq);
}

double rb_lock_shares(const uint64_t *x, uint32_t n, double *share)
{
	double sum = 0, min = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		sum += (double)x[i];
	for (i = 0; i < n; i++) {
		share[i] = sum > 0 ? (double)x[i] / sum : 0;
		if (!i || share[i] < min)
			min = share[i];
	}
	return min;
}

/* A decimal number of @s up to @end, within 1..RB_LOCK_BACKOFF_MAX. */
static int backoff_num(const char *s, char **end, uint32_t *v)
{
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, end, 10);
	if (errno || !n || n > RB_LOCK_BACKOFF_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

int rb_lock_backoff_parse(const char *s, uint32_t *min_ns, uint32_t *max_ns, char *err, size_t len)
{
	char *end = NULL;

	*min_ns = *max_ns = 0;
	if (!*s || !strcmp(s, "none"))
		return 0;
	if (strncmp(s, "exp:", 4) || backoff_num(s + 4, &end, min_ns) || strncmp(end, "..", 2) ||
	    backoff_num(end + 2, &end, max_ns) || *end || *min_ns > *max_ns) {
		snprintf(err, len,
			 "--backoff: '%s' is not none or exp:MIN..MAX (nanoseconds, 1 <= MIN <= "
			 "MAX <= %u), e.g. exp:100..10000",
			 s, RB_LOCK_BACKOFF_MAX);
		*min_ns = *max_ns = 0;
		return -EINVAL;
	}
	return 0;
}

int rb_lock_backoff_check(const char *arg, char *err, size_t len)
{
	uint32_t lo, hi;

	return rb_lock_backoff_parse(arg, &lo, &hi, err, len);
}
