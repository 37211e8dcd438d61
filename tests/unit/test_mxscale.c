// SPDX-License-Identifier: MIT
/*
 * Unit tests for rdmabench matrix at scale (src/matrix/matrix_sim.c,
 * src/matrix/matrix_pmix.c): suspects:K's rings and the pairs around its
 * suspects, the bad-rank rule, --simulate's spelling and figures, the
 * hunt for one seeded bad rank among 256 and 1024 as the coordinator runs
 * it, and the value rank 0 publishes through PMIx.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/stats.h"
#include "matrix/matrix.h"
#include "core/metrics.h"
#include "matrix/matrix_keep.h"
#include "matrix/matrix_pmix.h"
#include "wire/matrix_wire.h"
#include "wire/wire.h"
#include "mx_fx.h"

/* ---- suspects:K and the bad-rank rule ---------------------------------------- */

/* No ordered pair twice in @s. */
static void check_unique(const struct rb_mx_sched *s, uint32_t n)
{
	uint8_t *seen = calloc((size_t)n * n, 1);
	size_t i;

	assert_non_null(seen);
	for (i = 0; i < s->n; i++) {
		assert_true(s->pairs[i].src != s->pairs[i].dst);
		assert_int_equal(seen[s->pairs[i].src * n + s->pairs[i].dst]++, 0);
		if (i)
			assert_true(s->pairs[i - 1].round <= s->pairs[i].round);
	}
	free(seen);
}

static void test_suspects_rings(void **state)
{
	struct rb_mx_sched s;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 3, 10, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 30);
	assert_int_equal(s.nrounds, 3);
	check_unique(&s, 10);
	for (i = 0; i < s.n; i++) /* round j-1: i to i+j */
		assert_int_equal(s.pairs[i].dst, (s.pairs[i].src + s.pairs[i].round + 1) % 10);
	rb_mx_sched_free(&s);
	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 4, 4, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "suspects:4 needs more than 4 ranks"));
	/* Two ranks, one ring: both ways. */
	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 1, 2, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	rb_mx_sched_free(&s);
}

/* The flags of @s's pairs that have rank @bad (or @bad2; UINT32_MAX: none). */
static bool *flags_of(const struct rb_mx_sched *s, uint32_t bad, uint32_t bad2)
{
	bool *f = calloc(s->n, sizeof(*f));
	size_t i;

	assert_non_null(f);
	for (i = 0; i < s->n; i++)
		f[i] = s->pairs[i].src == bad || s->pairs[i].dst == bad ||
		       s->pairs[i].src == bad2 || s->pairs[i].dst == bad2;
	return f;
}

static void test_rank_rule(void **state)
{
	enum rb_mx_pattern pats[] = { RB_MX_SUSPECTS, RB_MX_PAIRS };
	struct rb_mx_sched s;
	uint32_t out[8], k, n, p;
	char err[256];
	bool *f;

	(void)state;
	for (p = 0; p < 2; p++)
		for (n = 3; n <= 12; n++)
			for (k = 1; k <= 3 && k < n; k++) {
				assert_int_equal(
					rb_mx_schedule(pats[p], k, n, &s, err, sizeof(err)), 0);
				f = flags_of(&s, n / 2, UINT32_MAX);
				/* The bad rank alone: its neighbours have one flagged pair. */
				assert_int_equal(rb_mx_rank_rule(&s, f, n, out, 8), 1);
				assert_int_equal(out[0], n / 2);
				free(f);
				f = flags_of(&s, UINT32_MAX, UINT32_MAX);
				assert_int_equal(rb_mx_rank_rule(&s, f, n, out, 8), 0);
				free(f);
				rb_mx_sched_free(&s);
			}
	/* Two bad ranks far apart on three rings: both, and the cap holds. */
	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 3, 20, &s, err, sizeof(err)), 0);
	f = flags_of(&s, 2, 12);
	assert_int_equal(rb_mx_rank_rule(&s, f, 20, out, 8), 2);
	assert_int_equal(out[0], 2);
	assert_int_equal(out[1], 12);
	assert_int_equal(rb_mx_rank_rule(&s, f, 20, out, 1), 1);
	free(f);
	rb_mx_sched_free(&s);
}

/* Added pairs: each has a suspect, none twice, rounds after the rings, disjoint. */
static void check_added(const struct rb_mx_sched *s, size_t first, uint32_t rings, uint32_t n,
			const uint32_t *sus, size_t ns)
{
	struct rb_mx_sched tail = { .pairs = s->pairs + first, .n = s->n - first };
	size_t i, j;

	check_unique(s, n);
	for (i = first; i < s->n; i++) {
		bool has = false;

		for (j = 0; j < ns; j++)
			has |= s->pairs[i].src == sus[j] || s->pairs[i].dst == sus[j];
		assert_true(has);
		assert_true(s->pairs[i].round >= rings);
		tail.nrounds = s->pairs[i].round + 1 > tail.nrounds ? s->pairs[i].round + 1
								    : tail.nrounds;
	}
	check_disjoint(&tail, n);
}

static void test_suspect_pairs(void **state)
{
	uint32_t one[] = { 5 }, two[] = { 5, 9 };
	struct rb_mx_sched s;
	char err[256];
	size_t first;

	(void)state;
	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 3, 16, &s, err, sizeof(err)), 0);
	first = s.n;
	assert_int_equal(rb_mx_suspect_pairs(&s, 3, 16, one, 1), 0);
	/* 5 with 9, 13 and 1 (16/4 apart), both ways; none is in a ring yet. */
	assert_int_equal(s.n - first, 6);
	check_added(&s, first, 3, 16, one, 1);
	assert_int_equal(s.nrounds, 3 + 6); /* rank 5 is in every one */
	rb_mx_sched_free(&s);

	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 3, 16, &s, err, sizeof(err)), 0);
	first = s.n;
	assert_int_equal(rb_mx_suspect_pairs(&s, 3, 16, two, 2), 0);
	/*
	 * 3 others each (9 is a suspect: 5 meets 10, 9 meets 6 instead), both
	 * ways, and 5 with 9; 6 -> 9 is ring 3's already.
	 */
	assert_int_equal(s.n - first, 3 * 2 * 2 + 2 - 1);
	check_added(&s, first, 3, 16, two, 2);
	rb_mx_sched_free(&s);
}

/* ---- PMIx: rank 0's address ---------------------------------------------------- */

static void test_pmix_value(void **state)
{
	char *pm[] = { "PMIX_RANK=3", "PMIX_NAMESPACE=1940258817", NULL };
	char *half[] = { "PMIX_RANK=3", NULL };
	char v[64], host[32];
	uint16_t port;

	(void)state;
	assert_true(rb_mx_pmix_job(pm));
	assert_false(rb_mx_pmix_job(half));
	assert_int_equal(rb_mx_pmix_format("192.0.2.1", 18515, v, sizeof(v)), 0);
	assert_string_equal(v, "18515 192.0.2.1");
	assert_int_equal(rb_mx_pmix_parse(v, host, sizeof(host), &port), 0);
	assert_string_equal(host, "192.0.2.1");
	assert_int_equal(port, 18515);
	assert_int_equal(rb_mx_pmix_format("fe80::1%eth0", 1, v, sizeof(v)), 0);
	assert_int_equal(rb_mx_pmix_parse(v, host, sizeof(host), &port), 0);
	assert_string_equal(host, "fe80::1%eth0");
	assert_int_equal(rb_mx_pmix_format("", 1, v, sizeof(v)), -EINVAL);
	assert_int_equal(rb_mx_pmix_format("a b", 1, v, sizeof(v)), -EINVAL);
	assert_int_equal(rb_mx_pmix_format("node01", 1, v, 8), -ENAMETOOLONG);
	assert_int_equal(rb_mx_pmix_parse("0 node", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rb_mx_pmix_parse("65536 node", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rb_mx_pmix_parse("1 ", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rb_mx_pmix_parse("node", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rb_mx_pmix_parse("1 a b", host, sizeof(host), &port), -EINVAL);
	assert_int_equal(rb_mx_pmix_parse("1 0123456789012345678901234567890123", host,
					  sizeof(host), &port),
			 -EINVAL);
}

/* ---- --simulate ---------------------------------------------------------------- */

static void test_sim_parse(void **state)
{
	struct rb_mx_sim sim;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_sim_parse("outlier=17", 9, &sim, err, sizeof(err)), 0);
	assert_true(sim.on);
	assert_int_equal(sim.outlier, 17);
	assert_int_equal(sim.seed, 9);
	assert_int_equal(sim.slow, 50);
	assert_int_equal(rb_mx_sim_parse("slow=20,outlier=0", 1, &sim, err, sizeof(err)), 0);
	assert_int_equal(sim.outlier, 0);
	assert_int_equal(sim.slow, 20);
	assert_int_equal(rb_mx_sim_parse("none", 1, &sim, err, sizeof(err)), 0);
	assert_int_equal(sim.outlier, RB_MX_SIM_NONE);
	assert_int_equal(rb_mx_sim_parse("slow=20", 1, &sim, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "name the slow rank"));
	assert_int_equal(rb_mx_sim_parse("outlier=3,slow=91", 1, &sim, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'slow=91' is not outlier=RANK or slow=PCT"));
	assert_int_equal(rb_mx_sim_parse("outlier=x", 1, &sim, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_sim_parse("outlier=3,", 1, &sim, err, sizeof(err)), 0);
	assert_int_equal(rb_mx_sim_parse("outlier=3,,x", 1, &sim, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_sim_parse("outlier=99999999999", 1, &sim, err, sizeof(err)),
			 -EINVAL);
}

static void test_sim_result(void **state)
{
	struct rb_mx_sim sim = { .on = true, .seed = 4, .outlier = 3, .slow = 50 };
	struct rb_result a, b;

	(void)state;
	rb_mx_sim_result(&sim, RB_MODE_LAT, 8, 0, 1, 7, &a);
	rb_mx_sim_result(&sim, RB_MODE_LAT, 8, 0, 1, 7, &b);
	assert_true(a.has_lat && !a.has_bw);
	assert_true(a.lat.p50 == b.lat.p50); /* the same seed, pair and round */
	assert_true(fabs(a.lat.p50 / RB_MX_SIM_P50_US - 1) <= 0.02);
	rb_mx_sim_result(&sim, RB_MODE_LAT, 8, 0, 1, 8, &b);
	assert_true(a.lat.p50 != b.lat.p50); /* another round */
	rb_mx_sim_result(&sim, RB_MODE_LAT, 8, 3, 1, 7, &b);
	assert_true(b.lat.p50 >= RB_MX_SIM_P50_US * 1.5 * 0.98);
	rb_mx_sim_result(&sim, RB_MODE_BW, 65536, 1, 3, 7, &b);
	assert_true(b.has_bw && !b.has_lat);
	assert_true(b.bw_avg_gbps <= RB_MX_SIM_GBPS * 0.5 * 1.02);
	sim.seed = 5;
	rb_mx_sim_result(&sim, RB_MODE_LAT, 8, 0, 1, 7, &b);
	assert_true(a.lat.p50 != b.lat.p50);
}

/*
 * suspects:3 over @n simulated ranks, as the coordinator runs it (without
 * its retests): the rings' out-of-line pairs name the seeded rank alone,
 * and with the pairs around it the verdict's rule does too, in a sliver
 * of the pairs pattern's n(n-1) pairs.
 */
static void hunt_one(uint32_t n, uint32_t bad, enum rb_mode mode)
{
	struct rb_mx_sim sim = { .on = true, .seed = 11, .outlier = bad, .slow = 30 };
	struct rb_mx_sched s;
	struct rb_result r;
	uint32_t sus[RB_MX_SUSPECTS_MAX + 1];
	double *v, med;
	bool *flag;
	char err[256];
	size_t i, ns;

	assert_int_equal(rb_mx_schedule(RB_MX_SUSPECTS, 3, n, &s, err, sizeof(err)), 0);
	assert_int_equal(rb_mx_suspect_pairs(&s, 3, n, &bad, 1), 0);
	v = calloc(s.n, sizeof(*v));
	flag = calloc(s.n, sizeof(*flag));
	assert_non_null(v);
	assert_non_null(flag);
	for (i = 0; i < s.n; i++) {
		rb_mx_sim_result(&sim, mode, 65536, s.pairs[i].src, s.pairs[i].dst, (uint32_t)i,
				 &r);
		v[i] = mode == RB_MODE_BW ? r.bw_avg_gbps : r.lat.p50;
	}
	med = rb_median(v, s.n);
	for (i = 0; i < s.n; i++)
		flag[i] = rb_out_of_line(v[i], med, 0.10, mode);
	ns = rb_mx_rank_rule(&s, flag, n, sus, RB_MX_SUSPECTS_MAX + 1);
	assert_int_equal(ns, 1);
	assert_int_equal(sus[0], bad);
	assert_int_equal(s.n, 3 * (size_t)n + 6);
	assert_true(s.n * 50 < (size_t)n * (n - 1));
	free(v);
	free(flag);
	rb_mx_sched_free(&s);
}

static void test_sim_hunt(void **state)
{
	(void)state;
	hunt_one(256, 17, RB_MODE_BW);
	hunt_one(256, 255, RB_MODE_LAT);
	hunt_one(1024, 700, RB_MODE_LAT);
	hunt_one(1024, 0, RB_MODE_BW);
}

/* ---- what the coordinator keeps per pair (matrix_keep.c) --------------------- */

/* A client's RESULT with figures in every other group, through the wire. */
static void wire_result(int seed, struct rb_result *out)
{
	static uint8_t buf[RB_WIRE_MAX_BODY];
	struct rb_mx_report m = { .role = RB_MX_RUN, .has_res = 1, .gid_index = -1 }, back;
	const struct rb_metric *k;
	int n;

	m.res.pt = (struct rb_point){ .size = 4096u << seed,
				      .batch = 2,
				      .signal = 8,
				      .qps = 3,
				      .tx_depth = 128,
				      .cqe_poll = 16,
				      .poll = 1 };
	m.res.iters = 1000003u * (unsigned)seed;
	m.res.duration_s = 1.0 / (seed + 3);
	for (k = rb_metrics; k < rb_metrics + rb_nmetrics; k++) {
		if (k->derive || (k->group + seed) % 2)
			continue;
		rb_metric_group_set(k->group, &m.res, true);
		rb_metric_set(k, &m.res, (k - rb_metrics) * 1.25 + seed / 7.0);
	}
	m.res.lat.min = -0.0; /* kept as itself, not as +0 */
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &back), 0);
	*out = back.res;
}

static void test_keep_result(void **state)
{
	struct rb_result want, got;
	struct rb_mx_pool p;
	size_t off[6], nfig;
	int i;

	(void)state;
	assert_int_equal(rb_mx_pool_init(&p), 0);
	for (i = 0; i < 6; i++) {
		wire_result(i, &want);
		assert_int_equal(rb_mx_keep_result(&p, &want, &off[i]), 0);
		assert_true(off[i] != RB_MX_RES_NONE);
	}
	for (i = 0; i < 6; i++) { /* each back as the wire gave it, byte for byte */
		wire_result(i, &want);
		rb_mx_result_of(&p, off[i], &got);
		assert_memory_equal(&got, &want, sizeof(got));
	}
	/* Seed 0's entry holds only what was set: a length (2 bytes), the point's
	 * index (4), iters and duration (8 + 8), the groups' bits (4) and the
	 * figures of its groups (8 each), never a whole struct rb_result; seed 1's
	 * point entry (under 48 bytes: 38 and its length) follows it in the pool. */
	for (i = 0, nfig = 0; i < (int)rb_nmetrics; i++)
		nfig += !rb_metrics[i].derive && rb_metrics[i].group % 2 == 0;
	assert_in_range(off[1] - off[0], 2 + 4 + 8 + 8 + 4 + 8 * nfig,
			2 + 4 + 8 + 8 + 4 + 8 * nfig + 48);
	assert_true(off[1] - off[0] < sizeof(struct rb_result) / 2);
	rb_mx_pool_free(&p);
}

static void test_keep_side(void **state)
{
	struct rb_mx_side s = { .port = 2, .gid_index = 3 }, back, none;
	struct rb_mx_pool p;
	uint32_t id, again, i;

	(void)state;
	assert_int_equal(rb_mx_pool_init(&p), 0);
	rb_mx_side_of(&p, RB_MX_SIDE_NONE, &none);
	assert_int_equal(none.gid_index, -1);
	assert_int_equal(none.port, 0);
	assert_string_equal(none.dev, "");
	snprintf(s.dev, sizeof(s.dev), "mlx5_0");
	snprintf(s.gid, sizeof(s.gid), "2001:db8::1");
	snprintf(s.place.cpus, sizeof(s.place.cpus), "0-3 8");
	snprintf(s.place.governor, sizeof(s.place.governor), "performance");
	s.place.device_numa_node = s.place.freq_cpu = -1;
	s.place.cpu_mhz = 3100;
	assert_int_equal(rb_mx_keep_side(&p, &s, &id), 0);
	assert_int_equal(rb_mx_keep_side(&p, &s, &again), 0);
	assert_int_equal(id, again); /* the same side is kept once */
	assert_true(id != RB_MX_SIDE_NONE);
	rb_mx_side_of(&p, id, &back);
	assert_memory_equal(&back, &s, sizeof(s));
	for (i = 0; i < 5000; i++) { /* past several rehashes */
		snprintf(s.gid, sizeof(s.gid), "fe80::%x", i);
		assert_int_equal(rb_mx_keep_side(&p, &s, &id), 0);
		assert_int_equal(id, i + 2);
	}
	for (i = 0; i < 5000; i += 499) {
		snprintf(s.gid, sizeof(s.gid), "fe80::%x", i);
		assert_int_equal(rb_mx_keep_side(&p, &s, &id), 0);
		assert_int_equal(id, i + 2);
		rb_mx_side_of(&p, id, &back);
		assert_string_equal(back.gid, s.gid);
	}
	rb_mx_pool_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suspects_rings), cmocka_unit_test(test_rank_rule),
		cmocka_unit_test(test_suspect_pairs),  cmocka_unit_test(test_pmix_value),
		cmocka_unit_test(test_sim_parse),      cmocka_unit_test(test_sim_result),
		cmocka_unit_test(test_sim_hunt),       cmocka_unit_test(test_keep_result),
		cmocka_unit_test(test_keep_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
