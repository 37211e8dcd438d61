// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/core/regcache.c (--reg-mode cache): the LRU cache
 * and its hit accounting on sequences worked out by hand, pinned entries,
 * --reuse's syntax, and the patterns' distributions against bounds set by
 * the sample size (binomial standard deviations, a chi-square quantile),
 * from probabilities this file computes itself.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/regcache.h"

/* Buffer @buf through the cache: 1 hit, 0 miss (MR = buffer + 1), -EBUSY; left pinned. */
static int use(struct rb_rcache *c, uint32_t buf, uint32_t *slot, uintptr_t *evicted)
{
	void *ev = NULL;
	int ret = rb_rcache_get(c, buf, slot, &ev);

	if (ret == 0)
		c->e[*slot].mr = (void *)(uintptr_t)(buf + 1);
	*evicted = (uintptr_t)ev;
	return ret;
}

/* Use and release at once (the WR completed). */
static int touch(struct rb_rcache *c, uint32_t buf, uintptr_t *evicted)
{
	uint32_t slot;
	int ret = use(c, buf, &slot, evicted);

	if (ret >= 0)
		rb_rcache_unpin(c, slot);
	return ret;
}

/* LRU: the least recently used entry goes, whatever the order of arrival. */
static void test_lru_order(void **state)
{
	struct rb_rcache c;
	uintptr_t ev;

	(void)state;
	assert_int_equal(rb_rcache_init(&c, 3, 8), 0);
	assert_int_equal(touch(&c, 0, &ev), 0);
	assert_int_equal(ev, 0);
	assert_int_equal(touch(&c, 1, &ev), 0);
	assert_int_equal(touch(&c, 2, &ev), 0);
	assert_int_equal(ev, 0);		/* three free entries: no eviction */
	assert_int_equal(touch(&c, 0, &ev), 1); /* 0 the most recent: 1, 2, 0 */
	assert_int_equal(touch(&c, 3, &ev), 0);
	assert_int_equal(ev, 1 + 1); /* buffer 1's MR went */
	assert_int_equal(touch(&c, 1, &ev), 0);
	assert_int_equal(ev, 2 + 1); /* then 2's */
	assert_int_equal(touch(&c, 0, &ev), 1);
	assert_int_equal(touch(&c, 3, &ev), 1);
	assert_int_equal(touch(&c, 2, &ev), 0);
	assert_int_equal(ev, 1 + 1); /* order was 1, 0, 3: 1 the least recent */
	assert_int_equal(c.used, 3);
	rb_rcache_free(&c);
}

/* Hits, misses and evictions on a sequence counted by hand. */
static void test_accounting(void **state)
{
	/* cap 2: 0 m, 1 m, 0 h, 2 m (evicts 1), 1 m (evicts 0), 2 h, 1 h, 0 m (evicts 2), 0 h */
	static const uint32_t seq[] = { 0, 1, 0, 2, 1, 2, 1, 0, 0 };
	static const int want[] = { 0, 0, 1, 0, 0, 1, 1, 0, 1 };
	struct rb_rcache c;
	uintptr_t ev;
	size_t i;

	(void)state;
	assert_int_equal(rb_rcache_init(&c, 2, 3), 0);
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		assert_int_equal(touch(&c, seq[i], &ev), want[i]);
	assert_int_equal(c.hits, 4);
	assert_int_equal(c.misses, 5);
	assert_int_equal(c.evictions, 3);
	rb_rcache_free(&c);

	/* seq over 4 buffers in a cache of 3: LRU misses every time. */
	assert_int_equal(rb_rcache_init(&c, 3, 4), 0);
	for (i = 0; i < 40; i++)
		assert_int_equal(touch(&c, (uint32_t)(i % 4), &ev), 0);
	assert_int_equal(c.hits, 0);
	assert_int_equal(c.misses, 40);
	assert_int_equal(c.evictions, 37);
	rb_rcache_free(&c);
}

/* An entry a WR in flight holds is never evicted; all held: -EBUSY, nothing counted. */
static void test_pins(void **state)
{
	struct rb_rcache c;
	uint32_t s0, s1, s2;
	uintptr_t ev;

	(void)state;
	assert_int_equal(rb_rcache_init(&c, 2, 4), 0);
	assert_int_equal(use(&c, 0, &s0, &ev), 0); /* held */
	assert_int_equal(touch(&c, 1, &ev), 0);
	assert_int_equal(use(&c, 2, &s2, &ev), 0); /* 0 is the least recent, but held */
	assert_int_equal(ev, 1 + 1);
	assert_int_equal(use(&c, 3, &s1, &ev), -EBUSY);
	assert_int_equal(c.misses, 3);
	assert_int_equal(c.evictions, 1);
	assert_int_equal(c.hits, 0);
	assert_int_equal(use(&c, 0, &s1, &ev), 1); /* a hit on a held entry: held twice */
	assert_int_equal(s1, s0);
	rb_rcache_unpin(&c, s0);
	assert_int_equal(use(&c, 3, &s1, &ev), -EBUSY); /* still held once */
	rb_rcache_unpin(&c, s0);
	assert_int_equal(use(&c, 3, &s1, &ev), 0);
	assert_int_equal(ev, 0 + 1);
	assert_int_equal(s1, s0);
	/* A failed registration gives its entry back. */
	rb_rcache_unpin(&c, s2);
	rb_rcache_drop(&c, s2);
	assert_int_equal(c.used, 1);
	assert_int_equal(use(&c, 1, &s1, &ev), 0);
	assert_int_equal(ev, 0); /* the dropped entry, free: nothing evicted */
	assert_int_equal(s1, s2);
	rb_rcache_free(&c);
}

static void reuse_ok(const char *arg, uint8_t kind, uint32_t milli)
{
	char err[256] = "", back[32];
	uint32_t m = 1;
	uint8_t k = 9;

	if (rb_reuse_parse(arg, &k, &m, err, sizeof(err)))
		fail_msg("--reuse %s: %s", arg, err);
	assert_int_equal(k, kind);
	assert_int_equal(m, milli);
	assert_string_equal(rb_reuse_str(k, m, back, sizeof(back)), arg);
}

static void reuse_bad(const char *arg, const char *why)
{
	char err[256] = "";
	uint32_t m;
	uint8_t k;

	assert_int_equal(rb_reuse_parse(arg, &k, &m, err, sizeof(err)), -EINVAL);
	if (!strstr(err, why))
		fail_msg("--reuse %s: \"%s\" does not say \"%s\"", arg, err, why);
}

static void test_reuse_parse(void **state)
{
	(void)state;
	reuse_ok("uniform", RB_REUSE_UNIFORM, 0);
	reuse_ok("seq", RB_REUSE_SEQ, 0);
	reuse_ok("zipf:0.99", RB_REUSE_ZIPF, 990);
	reuse_ok("zipf:1.5", RB_REUSE_ZIPF, 1500);
	reuse_ok("zipf:10", RB_REUSE_ZIPF, 10000);
	reuse_bad("zipf", "not one of uniform, zipf:S or seq");
	reuse_bad("lru", "not one of uniform, zipf:S or seq");
	reuse_bad("zipf:", "from 0.001 to 10");
	reuse_bad("zipf:0", "from 0.001 to 10");
	reuse_bad("zipf:10.5", "from 0.001 to 10");
	reuse_bad("zipf:1x", "from 0.001 to 10");
	reuse_bad("zipf:-1", "from 0.001 to 10");
}

static void test_seq(void **state)
{
	struct rb_reuse u;
	uint32_t i;

	(void)state;
	assert_int_equal(rb_reuse_init(&u, RB_REUSE_SEQ, 0, 5, 1), 0);
	for (i = 0; i < 23; i++)
		assert_int_equal(rb_reuse_next(&u), i % 5);
	rb_reuse_free(&u);
	assert_int_equal(rb_reuse_init(&u, RB_REUSE_ZIPF, 0, 5, 1), -EINVAL);
	assert_int_equal(rb_reuse_init(&u, RB_REUSE_UNIFORM, 0, 0, 1), -EINVAL);
}

/*
 * @n draws of @u against probabilities @p: each buffer's count within 5
 * binomial standard deviations of n p (a false alarm about 1 in 1.7
 * million per buffer), and Pearson's chi-square below @chi_max.
 */
static void check_freq(struct rb_reuse *u, const double *p, uint32_t nbuf, uint32_t n,
		       double chi_max)
{
	uint32_t *cnt = calloc(nbuf, sizeof(*cnt)), i, b;
	double chi = 0, want, sd;

	assert_non_null(cnt);
	for (i = 0; i < n; i++) {
		b = rb_reuse_next(u);
		assert_true(b < nbuf);
		cnt[b]++;
	}
	for (b = 0; b < nbuf; b++) {
		want = n * p[b];
		sd = sqrt(n * p[b] * (1 - p[b]));
		if (fabs(cnt[b] - want) > 5 * sd)
			fail_msg("buffer %u: %u draws of %u, want %.1f +- %.1f", b, cnt[b], n, want,
				 5 * sd);
		chi += (cnt[b] - want) * (cnt[b] - want) / want;
	}
	if (chi > chi_max)
		fail_msg("chi-square %.1f over %u buffers, above %.1f", chi, nbuf, chi_max);
	free(cnt);
}

static void test_uniform(void **state)
{
	double p[10];
	struct rb_reuse u;
	uint32_t i;

	(void)state;
	for (i = 0; i < 10; i++)
		p[i] = 0.1;
	assert_int_equal(rb_reuse_init(&u, RB_REUSE_UNIFORM, 0, 10, 42), 0);
	/* chi-square, 9 degrees of freedom: 39.3 is its 1e-5 quantile */
	check_freq(&u, p, 10, 100000, 39.3);
	rb_reuse_free(&u);
}

/* zipf:S over n buffers: buffer i with 1/(i+1)^S over the harmonic number. */
static void zipf_case(uint32_t milli, uint32_t nbuf, uint64_t seed, double chi_max)
{
	double *p = calloc(nbuf, sizeof(*p)), h = 0;
	struct rb_reuse u;
	uint32_t i;

	assert_non_null(p);
	for (i = 1; i <= nbuf; i++)
		h += 1.0 / pow(i, milli / 1000.0);
	for (i = 0; i < nbuf; i++)
		p[i] = 1.0 / pow(i + 1, milli / 1000.0) / h;
	assert_int_equal(rb_reuse_init(&u, RB_REUSE_ZIPF, milli, nbuf, seed), 0);
	check_freq(&u, p, nbuf, 200000, chi_max);
	rb_reuse_free(&u);
	free(p);
}

static void test_zipf(void **state)
{
	(void)state;
	/* S = 1, 100 buffers: the top one 1/H(100) = 19.28% of the draws, +-0.44%
	 * (5 sd of 200000); chi-square, 99 degrees of freedom: 1e-5 quantile 170.8 */
	zipf_case(1000, 100, 7, 170.8);
	/* S = 0.99 (the issue's), 1000 buffers: many rare ones; 999 degrees of freedom:
	 * 1e-5 quantile about 1201 */
	zipf_case(990, 1000, 11, 1201.0);
	/* A steep one: S = 2, 10 buffers (top 64.5%) */
	zipf_case(2000, 10, 3, 39.3);
}

/* Seeded: one seed, one sequence; another seed, another. */
static void test_seeded(void **state)
{
	struct rb_reuse a, b, c;
	uint32_t i, same = 0;

	(void)state;
	assert_int_equal(rb_reuse_init(&a, RB_REUSE_ZIPF, 990, 1000, 5), 0);
	assert_int_equal(rb_reuse_init(&b, RB_REUSE_ZIPF, 990, 1000, 5), 0);
	assert_int_equal(rb_reuse_init(&c, RB_REUSE_ZIPF, 990, 1000, 6), 0);
	for (i = 0; i < 1000; i++) {
		uint32_t x = rb_reuse_next(&a);

		assert_int_equal(x, rb_reuse_next(&b));
		same += x == rb_reuse_next(&c);
	}
	assert_true(same < 500);
	rb_reuse_free(&a);
	rb_reuse_free(&b);
	rb_reuse_free(&c);
}

/* A bigger cache never hits less on the same zipf draws (LRU is a stack algorithm). */
static void test_hit_rate_rises(void **state)
{
	static const uint32_t caps[] = { 8, 64, 512 };
	uint64_t hits[3];
	struct rb_rcache c;
	struct rb_reuse u;
	uintptr_t ev;
	uint32_t k, i;

	(void)state;
	for (k = 0; k < 3; k++) {
		assert_int_equal(rb_reuse_init(&u, RB_REUSE_ZIPF, 990, 1024, 9), 0);
		assert_int_equal(rb_rcache_init(&c, caps[k], 1024), 0);
		for (i = 0; i < 20000; i++)
			assert_true(touch(&c, rb_reuse_next(&u), &ev) >= 0);
		assert_int_equal(c.hits + c.misses, 20000);
		assert_int_equal(c.evictions, c.misses - caps[k]);
		hits[k] = c.hits;
		rb_rcache_free(&c);
		rb_reuse_free(&u);
	}
	assert_true(hits[0] < hits[1] && hits[1] < hits[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_pins),
		cmocka_unit_test(test_reuse_parse),
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_zipf),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_hit_rate_rises),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
