// SPDX-License-Identifier: MIT
/*
 * Unit tests for the pure part of rdmabench matrix (src/matrix.c) and its
 * coordinator messages (src/matrix_wire.c): the schedules (every ordered
 * pair exactly once, rounds of disjoint pairs, N-1 rounds each way), ring,
 * incast:K, pairs files and their line-numbered errors, the median and the
 * outlier rule, %r/%R/%l/%L expansion, rank and size from a launcher's
 * environment, Slurm node lists, the CSV row, and the messages: round
 * trips, truncations, trailing bytes, hostile counts and flags.
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
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/stats.h"
#include "matrix/matrix.h"
#include "mx_fx.h"
#include "wire/matrix_wire.h"
#include "wire/oob.h"
#include "wire/wire.h"

/* ---- schedules ------------------------------------------------------------ */

static void check_all_pairs(const struct rb_mx_sched *s, uint32_t n)
{
	uint8_t *seen = calloc((size_t)n * n, 1);
	size_t i;

	assert_non_null(seen);
	assert_int_equal(s->n, (size_t)n * (n - 1));
	for (i = 0; i < s->n; i++)
		assert_int_equal(seen[s->pairs[i].src * n + s->pairs[i].dst]++, 0);
	free(seen);
}

static void test_pairs_tournament(void **state)
{
	struct rb_mx_sched s;
	char err[256];
	uint32_t n;

	(void)state;
	for (n = 2; n <= 33; n++) {
		assert_int_equal(rb_mx_schedule(RB_MX_PAIRS, 0, n, &s, err, sizeof(err)), 0);
		check_all_pairs(&s, n);
		check_disjoint(&s, n);
		/* N-1 rounds each way, N when N is odd (one rank rests). */
		assert_int_equal(s.nrounds, n & 1 ? 2 * n : 2 * (n - 1));
		rb_mx_sched_free(&s);
	}
}

/* Even N: every rank is busy in every round. */
static void test_pairs_everyone_busy(void **state)
{
	struct rb_mx_sched s;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_schedule(RB_MX_PAIRS, 0, 8, &s, err, sizeof(err)), 0);
	for (size_t i = 0; i < s.n; i += 4) {
		assert_int_equal(s.pairs[i].round, s.pairs[i + 3].round);
		if (i + 4 < s.n)
			assert_int_not_equal(s.pairs[i].round, s.pairs[i + 4].round);
	}
	/* The way back of a round comes N-1 rounds later. */
	assert_int_equal(s.pairs[0].round, 0);
	assert_int_equal(s.nrounds, 14);
	rb_mx_sched_free(&s);
}

static void test_ring(void **state)
{
	struct rb_mx_sched s;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_schedule(RB_MX_RING, 0, 4, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.nrounds, 1);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(s.pairs[i].src, i);
		assert_int_equal(s.pairs[i].dst, (i + 1) % 4);
	}
	rb_mx_sched_free(&s);
}

static void test_incast(void **state)
{
	struct rb_mx_sched s;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(rb_mx_schedule(RB_MX_INCAST, 2, 5, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 10);
	assert_int_equal(s.nrounds, 5);
	for (i = 0; i < s.n; i++) {
		const struct rb_mx_pair *p = &s.pairs[i];

		assert_int_equal(p->dst, p->round); /* receiver r in round r */
		assert_true(p->src == (p->round + 1) % 5 || p->src == (p->round + 2) % 5);
	}
	rb_mx_sched_free(&s);
	assert_int_equal(rb_mx_schedule(RB_MX_INCAST, 5, 5, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "incast:5 needs more than 5 ranks"));
	assert_int_equal(rb_mx_schedule(RB_MX_PAIRS, 0, 1, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_schedule(RB_MX_PAIRS, 0, RB_MX_MAX_RANKS + 1, &s, err, sizeof(err)),
			 -EINVAL);
}

static void test_pattern_parse(void **state)
{
	enum rb_mx_pattern p;
	char err[256];
	uint32_t k;

	(void)state;
	assert_int_equal(rb_mx_pattern_parse("", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_PAIRS);
	assert_int_equal(rb_mx_pattern_parse("pairs", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_PAIRS);
	assert_int_equal(rb_mx_pattern_parse("ring", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_RING);
	assert_int_equal(rb_mx_pattern_parse("incast:7", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_INCAST);
	assert_int_equal(k, 7);
	assert_int_equal(rb_mx_pattern_parse("incast:0", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("incast:", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("incast:-1", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("incast:2x", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("suspects", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_SUSPECTS);
	assert_int_equal(k, RB_MX_SUSPECTS_K);
	assert_int_equal(rb_mx_pattern_parse("suspects:5", &p, &k, err, sizeof(err)), 0);
	assert_int_equal(p, RB_MX_SUSPECTS);
	assert_int_equal(k, 5);
	assert_int_equal(rb_mx_pattern_parse("suspects:0", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("suspects:", &p, &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_pattern_parse("mesh", &p, &k, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--pattern 'mesh' is not pairs, ring, incast:K"));
	assert_non_null(strstr(err, "suspects[:K]"));
}

/* ---- pairs files ------------------------------------------------------------ */

static void test_pairs_file(void **state)
{
	const char *text = "# a comment\n0 1\n\n  1 0   # back\n2\t3\n0 2\n1 2\r\n";
	struct rb_mx_sched s;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_pairs_parse(text, 4, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 5);
	check_disjoint(&s, 4);
	/* First fit, in file order: 0-1 and 2-3 share round 0. */
	assert_int_equal(s.pairs[0].round, 0);
	assert_int_equal(s.pairs[1].round, 0);
	assert_int_equal(s.nrounds, 4);
	rb_mx_sched_free(&s);
}

static void pairs_err(const char *text, uint32_t n, const char *want)
{
	struct rb_mx_sched s;
	char err[256] = "";

	assert_int_equal(rb_mx_pairs_parse(text, n, &s, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want)) {
		print_error("'%s': got '%s', want '%s'\n", text, err, want);
		fail();
	}
	assert_null(s.pairs);
}

static void test_pairs_file_errors(void **state)
{
	(void)state;
	pairs_err("0 1\n0\n", 4, "line 2: expected 'SRC DST' (two ranks)");
	pairs_err("0 1\n1 2 3\n", 4, "line 2: expected 'SRC DST'");
	pairs_err("a b\n", 4, "line 1: expected 'SRC DST'");
	pairs_err("-1 2\n", 4, "line 1: expected");
	pairs_err("\n\n0 4\n", 4, "line 3: rank 4 is out of range (0..3)");
	pairs_err("9 0\n", 4, "line 1: rank 9 is out of range");
	pairs_err("2 2\n", 4, "line 1: rank 2 paired with itself");
	pairs_err("0 1\n# x\n0 1\n", 4, "line 3: pair 0 1 given twice");
	pairs_err("# nothing\n\n", 4, "no pairs in the file");
	pairs_err("99999999999 1\n", 4, "line 1: expected");
}

/* ---- the outlier rule -------------------------------------------------------- */

static void test_median(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	(void)state;
	assert_true(rb_median(odd, 3) == 3);
	assert_true(rb_median(even, 4) == 2.5);
	assert_true(rb_median(one, 1) == 7);
	assert_true(odd[0] == 5); /* untouched */
}

static void test_out_of_line(void **state)
{
	(void)state;
	/* Bandwidth: below median * (1 - tol). */
	assert_false(rb_out_of_line(90.0, 100, 0.10, RB_MODE_BW));
	assert_true(rb_out_of_line(89.9, 100, 0.10, RB_MODE_BW));
	assert_false(rb_out_of_line(500, 100, 0.10, RB_MODE_BW)); /* faster is fine */
	/* Latency: above median * (1 + tol). */
	assert_false(rb_out_of_line(110.0, 100, 0.10, RB_MODE_LAT));
	assert_true(rb_out_of_line(110.1, 100, 0.10, RB_MODE_LAT));
	assert_false(rb_out_of_line(1, 100, 0.10, RB_MODE_LAT));
	assert_true(rb_out_of_line(151, 100, 0.50, RB_MODE_LAT));
}

/* ---- %r, %l ---------------------------------------------------------------- */

static void expand_ok(const char *fmt, uint32_t r, uint32_t l, const char *want)
{
	char out[64], err[128];

	assert_int_equal(rb_mx_expand(fmt, r, l, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, want);
}

static void test_expand(void **state)
{
	char out[8], err[128];

	(void)state;
	expand_ok("mlx5_%l", 9, 3, "mlx5_3");
	expand_ok("rxe%r", 2, 0, "rxe2");
	expand_ok("192.0.2.%R", 2, 0, "192.0.2.3");
	expand_ok("10.%L.0.%r", 17, 1, "10.2.0.17");
	expand_ok("100%%", 0, 0, "100%");
	expand_ok("", 1, 1, "");
	expand_ok("plain", 1, 1, "plain");
	assert_int_equal(rb_mx_expand("a%x", 0, 0, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'%x' is not %r, %R, %l, %L or %%"));
	assert_int_equal(rb_mx_expand("a%", 0, 0, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_mx_expand("1234567", 0, 0, out, sizeof(out), err, sizeof(err)), 0);
	assert_int_equal(rb_mx_expand("12345678", 0, 0, out, sizeof(out), err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_int_equal(rb_mx_expand("dev%r", 12345, 0, out, sizeof(out), err, sizeof(err)),
			 -ENAMETOOLONG);
}

/* ---- the launcher's environment ---------------------------------------------- */

static void test_env_ompi(void **state)
{
	char *env[] = { "PATH=/bin",
			"OMPI_COMM_WORLD_RANK=5",
			"OMPI_COMM_WORLD_SIZE=8",
			"OMPI_COMM_WORLD_LOCAL_RANK=1",
			"SLURM_PROCID=0",
			"SLURM_NTASKS=99",
			NULL };
	struct rb_mx_id id;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_env_id(env, &id, err, sizeof(err)), 0);
	assert_int_equal(id.rank, 5);
	assert_int_equal(id.nranks, 8);
	assert_int_equal(id.local, 1);
	assert_string_equal(id.launcher, "Open MPI");
}

static void test_env_slurm_pmi(void **state)
{
	char *slurm[] = { "SLURM_PROCID=3", "SLURM_NTASKS=4", "SLURM_LOCALID=2", NULL };
	char *pmi[] = { "PMI_RANK=1", "PMI_SIZE=2", NULL };
	char *pmix[] = { "PMIX_RANK=6", "SLURM_NTASKS=7", "SLURM_PROCID=6", NULL };
	struct rb_mx_id id;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_env_id(slurm, &id, err, sizeof(err)), 0);
	assert_int_equal(id.rank, 3);
	assert_int_equal(id.nranks, 4);
	assert_int_equal(id.local, 2);
	assert_string_equal(id.launcher, "Slurm");
	assert_int_equal(rb_mx_env_id(pmi, &id, err, sizeof(err)), 0);
	assert_int_equal(id.rank, 1);
	assert_int_equal(id.local, 0); /* not said: one per host */
	assert_string_equal(id.launcher, "PMI");
	assert_int_equal(rb_mx_env_id(pmix, &id, err, sizeof(err)), 0);
	assert_int_equal(id.rank, 6);
	assert_int_equal(id.nranks, 7);
	assert_string_equal(id.launcher, "PMIx");
}

static void test_env_errors(void **state)
{
	char *none[] = { "HOME=/root", "OMPI_COMM_WORLD_RANKX=1", NULL };
	char *nosize[] = { "PMI_RANK=1", NULL };
	char *bad[] = { "SLURM_PROCID=x", "SLURM_NTASKS=4", NULL };
	char *over[] = { "SLURM_PROCID=4", "SLURM_NTASKS=4", NULL };
	char *badlocal[] = { "SLURM_PROCID=1", "SLURM_NTASKS=4", "SLURM_LOCALID=-", NULL };
	struct rb_mx_id id;
	char err[256];

	(void)state;
	assert_int_equal(rb_mx_env_id(none, &id, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "give --rank and --nranks"));
	assert_int_equal(rb_mx_env_id(nosize, &id, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "PMI_RANK is set but PMI_SIZE is not"));
	assert_int_equal(rb_mx_env_id(bad, &id, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SLURM_PROCID='x' is not a number"));
	assert_int_equal(rb_mx_env_id(over, &id, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SLURM_PROCID=4 is not below SLURM_NTASKS=4"));
	assert_int_equal(rb_mx_env_id(badlocal, &id, err, sizeof(err)), -EINVAL);
	assert_null(rb_mx_env_get(none, "OMPI_COMM_WORLD_RANK"));
	assert_string_equal(rb_mx_env_get(none, "HOME"), "/root");
}

/* ---- Slurm node lists ------------------------------------------------------------ */

static void first_is(const char *list, const char *want, int count)
{
	char out[64];

	assert_int_equal(rb_mx_nodelist_first(list, out, sizeof(out)), 0);
	assert_string_equal(out, want);
	assert_int_equal(rb_mx_nodelist_count(list), count);
}

static void test_nodelist(void **state)
{
	char out[64];

	(void)state;
	first_is("node01", "node01", 1);
	first_is("node[01-04,07]", "node01", 5);
	first_is("node[07,01-04]", "node07", 5);
	first_is("gpu[3-4],cpu[10-12]", "gpu3", 5);
	first_is("a,b,c", "a", 3);
	first_is("rack[1-2]-n[01-03]", "rack1-n01", 6);
	first_is("n[009-011]", "n009", 3);
	assert_int_equal(rb_mx_nodelist_first("node[01-", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("node[4-1]", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("node[]", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("node[1,]", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("node]", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("a,,b", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_first("x[a-b]", out, sizeof(out)), -EINVAL);
	assert_int_equal(rb_mx_nodelist_count("n[1-100002]"), -EINVAL);
}

/* ---- CSV ---------------------------------------------------------------------- */

static char *csv_of(const struct rb_mx_row *r)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	rb_mx_csv_row(f, r);
	fclose(f);
	return buf;
}

static void test_csv(void **state)
{
	struct rb_result bw = { .has_bw = true, .bw_avg_gbps = 97.5, .msg_rate_mpps = 0.0116 };
	struct rb_result lat = { .has_lat = true, .lat = { .p50 = 1.25, .p99 = 3.5 } };
	struct rb_mx_row r = { .src = 0,
			       .dst = 3,
			       .src_host = "node01",
			       .src_dev = "mlx5_0",
			       .dst_host = "node04",
			       .dst_dev = "mlx5_1",
			       .test = "write_bw",
			       .size = 1048576,
			       .res = &bw,
			       .status = "ok" };
	char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	rb_mx_csv_header(f);
	fclose(f);
	assert_string_equal(buf, "src_rank,src_host,src_device,dst_rank,dst_host,dst_device,test,"
				 "size,bw_avg_gbps,msg_rate_mpps,lat_p50_us,lat_p99_us,status,"
				 "retested,reason\n");
	assert_string_equal(csv_of(&r), "0,node01,mlx5_0,3,node04,mlx5_1,write_bw,1048576,97.5,0."
					"0116,,,ok,0,\n");
	r.res = &lat;
	r.test = "send_lat";
	r.size = 2;
	r.status = "bad";
	r.retested = true;
	r.reason = "p50 \"high\", twice";
	assert_string_equal(csv_of(&r), "0,node01,mlx5_0,3,node04,mlx5_1,send_lat,2,,,1.25,3.5,bad,"
					"1,\"p50 \"\"high\"\", twice\"\n");
	r.res = NULL;
	r.status = "failed";
	r.retested = false;
	r.reason = "rank 3 (node04) died";
	r.dst_host = "odd,host";
	assert_string_equal(csv_of(&r), "0,node01,mlx5_0,3,\"odd,host\",mlx5_1,send_lat,2,,,,,"
					"failed,0,rank 3 (node04) died\n");
}

/* ---- the coordinator's messages ------------------------------------------------ */

static uint8_t buf[RB_WIRE_MAX_BODY];

/* An exact-length heap copy, so that ASan sees any read past @n. */
static uint8_t *exact(const uint8_t *b, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	assert_non_null(p);
	memcpy(p, b, n);
	return p;
}

static void test_join_roundtrip(void **state)
{
	struct rb_mx_join m = { .proto = RB_MX_PROTO, .rank = 3, .nranks = 64, .local = 7 }, got;
	uint8_t *b;
	int n;

	(void)state;
	strcpy(m.tool_version, "0.1.0");
	strcpy(m.test, "write_bw");
	strcpy(m.host, "node04");
	strcpy(m.device, "mlx5_7");
	strcpy(m.addr, "10.0.0.4");
	n = rb_mx_pack_join(&m, buf, sizeof(buf));
	assert_true(n > 0);
	/* proto, rank, nranks, local: big-endian at the start. */
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], RB_MX_PROTO);
	assert_int_equal(buf[5], 3);
	assert_int_equal(buf[9], 64);
	b = exact(buf, (size_t)n);
	assert_int_equal(rb_mx_unpack_join(b, (size_t)n, &got), 0);
	assert_int_equal(got.proto, m.proto);
	assert_int_equal(got.rank, 3);
	assert_int_equal(got.nranks, 64);
	assert_int_equal(got.local, 7);
	assert_string_equal(got.tool_version, "0.1.0");
	assert_string_equal(got.test, "write_bw");
	assert_string_equal(got.host, "node04");
	assert_string_equal(got.device, "mlx5_7");
	assert_string_equal(got.addr, "10.0.0.4");
	/* Every truncation, and a trailing byte, is refused. */
	for (int k = 0; k < n; k++)
		assert_int_equal(rb_mx_unpack_join(b, (size_t)k, &got), -EBADMSG);
	free(b);
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n + 1, &got), -EBADMSG);
	assert_int_equal(rb_mx_pack_join(&m, buf, (size_t)n - 1), -EMSGSIZE);
}

static void test_round_roundtrip(void **state)
{
	static struct rb_mx_round m, got;
	uint8_t *b;
	int n;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.round = 9;
	m.ntasks = 2;
	m.task[0] =
		(struct rb_mx_task){ .pair = 12, .role = RB_MX_SERVE, .peer = 1, .port = 18516 };
	m.task[1] = (struct rb_mx_task){ .pair = 13, .role = RB_MX_RUN, .peer = 2, .port = 18517 };
	strcpy(m.task[1].addr, "192.0.2.3");
	n = rb_mx_pack_round(&m, buf, sizeof(buf));
	assert_true(n > 0);
	b = exact(buf, (size_t)n);
	memset(&got, 0, sizeof(got));
	assert_int_equal(rb_mx_unpack_round(b, (size_t)n, &got), 0);
	assert_int_equal(got.round, 9);
	assert_int_equal(got.ntasks, 2);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(got.task[k].pair, m.task[k].pair);
		assert_int_equal(got.task[k].role, m.task[k].role);
		assert_int_equal(got.task[k].peer, m.task[k].peer);
		assert_int_equal(got.task[k].port, m.task[k].port);
		assert_string_equal(got.task[k].addr, m.task[k].addr);
	}
	for (int k = 0; k < n; k++)
		assert_int_equal(rb_mx_unpack_round(b, (size_t)k, &got), -EBADMSG);
	free(b);
	/* A role that is neither, a count over the cap. */
	buf[4 + 2 + 4] = 2;
	assert_int_equal(rb_mx_unpack_round(buf, (size_t)n, &got), -EBADMSG);
	buf[4] = 0xff;
	buf[5] = 0xff;
	assert_int_equal(rb_mx_unpack_round(buf, (size_t)n, &got), -EBADMSG);
	m.ntasks = RB_MX_WIRE_TASKS + 1;
	assert_int_equal(rb_mx_pack_round(&m, buf, sizeof(buf)), -EMSGSIZE);
	/* The largest round fits a frame. */
	m.ntasks = RB_MX_WIRE_TASKS;
	for (uint32_t i = 0; i < m.ntasks; i++)
		memset(m.task[i].addr, 'a', sizeof(m.task[i].addr) - 1);
	assert_true(rb_mx_pack_round(&m, buf, sizeof(buf)) > 0);
}

static void test_tick_roundtrip(void **state)
{
	struct rb_mx_tick t = { .round = 0x01020304, .pair = 77 }, got;
	const uint8_t want[] = { 1, 2, 3, 4, 0, 0, 0, 77 };

	(void)state;
	assert_int_equal(rb_mx_pack_tick(&t, buf, sizeof(buf)), 8);
	assert_memory_equal(buf, want, 8);
	assert_int_equal(rb_mx_unpack_tick(want, 8, &got), 0);
	assert_int_equal(got.round, t.round);
	assert_int_equal(got.pair, 77);
	assert_int_equal(rb_mx_unpack_tick(want, 7, &got), -EBADMSG);
	assert_int_equal(rb_mx_unpack_tick(buf, 9, &got), -EBADMSG);
}

static void test_report_roundtrip(void **state)
{
	struct rb_mx_report m = { .round = 2, .pair = 5, .role = RB_MX_RUN, .status = 0 }, got;
	uint8_t *b;
	int n;

	(void)state;
	memset(&m.res, 0, sizeof(m.res));
	m.has_res = 1;
	m.res = (struct rb_result){ .pt = { 65536, 1, 64, 1, 128 },
				    .iters = 5000,
				    .duration_s = 0.25,
				    .has_bw = true,
				    .bw_avg_gbps = 12.5,
				    .bw_peak_gbps = 13,
				    .msg_rate_mpps = 0.02,
				    .has_lat = true,
				    .lat = { 1, 2, 3, 4, 5, 6, 7, NAN },
				    .has_cpu = true,
				    .cpu_util_pct = 99 };
	strcpy(m.device, "rxe1");
	m.port = 1;
	m.gid_index = 4095;
	strcpy(m.gid, "fe80::5054:ff:fe12:3456");
	strcpy(m.place.cpus, "0-3");
	m.place.device_numa_node = -1;
	m.place.mem_node = 1;
	m.place.local = -1;
	m.place.freq_cpu = 2;
	strcpy(m.place.governor, "powersave");
	m.place.cpu_mhz = 2400;
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_true(n > 0);
	b = exact(buf, (size_t)n);
	assert_int_equal(rb_mx_unpack_report(b, (size_t)n, &got), 0);
	assert_int_equal(got.pair, 5);
	assert_string_equal(got.device, "rxe1");
	/* v6: the side's port, GID index and GID. */
	assert_int_equal(got.port, 1);
	assert_int_equal(got.gid_index, 4095);
	assert_string_equal(got.gid, "fe80::5054:ff:fe12:3456");
	assert_int_equal(got.place.device_numa_node, -1);
	assert_string_equal(got.place.cpus, "0-3");
	/* v2: the measuring CPU's clock travels too (cursor.h's placement, as CONN's). */
	assert_int_equal(got.place.freq_cpu, 2);
	assert_string_equal(got.place.governor, "powersave");
	assert_int_equal(got.place.cpu_mhz, 2400);
	assert_true(got.res.bw_avg_gbps == 12.5 && got.res.pt.size == 65536);
	assert_true(isnan(got.res.lat.stdev));
	for (int k = 0; k < n; k++)
		assert_int_equal(rb_mx_unpack_report(b, (size_t)k, &got), -EBADMSG);
	free(b);
	/* No GID (-1 travels as 0); past 4095 is no GID index. */
	m.gid_index = -1;
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &got), 0);
	assert_int_equal(got.gid_index, -1);
	m.gid_index = 4096;
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &got), -EBADMSG);
	m.gid_index = 0;
	/* A failed side: no result, a reason. */
	m.has_res = 0;
	m.status = 1;
	strcpy(m.reason, "no route");
	n = rb_mx_pack_report(&m, buf, sizeof(buf));
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &got), 0);
	assert_int_equal(got.status, 1);
	assert_string_equal(got.reason, "no route");
	assert_false(got.has_res);
	/* has_res must be 0 or 1. */
	buf[n - 1] = 2;
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &got), -EBADMSG);
}

static void test_hostile_strings(void **state)
{
	struct rb_mx_join m = { .proto = 1 }, got;
	int n;

	(void)state;
	n = rb_mx_pack_join(&m, buf, sizeof(buf));
	/* The first string (tool version) claims more than its field holds. */
	buf[14] = 0x01;
	buf[15] = 0x00;
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n, &got), -EBADMSG);
	/* A NUL inside a string. */
	n = rb_mx_pack_join(&m, buf, sizeof(buf));
	buf[15] = 1;
	memmove(buf + 17, buf + 16, (size_t)n - 16);
	buf[16] = '\0';
	assert_int_equal(rb_mx_unpack_join(buf, (size_t)n + 1, &got), -EBADMSG);
	assert_string_equal(rb_mx_msg_name(RB_MX_MSG_JOIN), "JOIN");
	assert_string_equal(rb_mx_msg_name(RB_MX_MSG_END), "END");
	assert_null(rb_mx_msg_name(RB_MX_MSG_END + 1));
	assert_null(rb_mx_msg_name(1));
}

/* Issue 21: messages about matrix messages said "no complete unknown received". */
static void test_msg_names(void **state)
{
	static const char *const names[] = { "JOIN",   "WELCOME", "ROUND", "READY", "GO",
					     "RESULT", "OVER",	  "DONE",  "BEAT",  "END" };
	uint8_t frame[RB_WIRE_HDR_LEN], body[64];
	struct rb_oob o = { .timeout_ms = 1000, .peer = "coord:1" };
	char tn[24];
	uint32_t len;
	int sv[2];
	uint16_t t;

	(void)state;
	for (t = RB_MX_MSG_JOIN; t <= RB_MX_MSG_END; t++) {
		assert_string_equal(rb_msg_name(t), names[t - RB_MX_MSG_JOIN]);
		assert_string_equal(rb_msg_type_str(t, tn, sizeof(tn)), names[t - RB_MX_MSG_JOIN]);
	}
	assert_string_equal(rb_msg_type_str(RB_MSG_ERROR, tn, sizeof(tn)), "ERROR");
	assert_string_equal(rb_msg_type_str(RB_MX_MSG_END + 1, tn, sizeof(tn)), "message type 42");
	assert_string_equal(rb_msg_type_str(0, tn, sizeof(tn)), "message type 0");

	/* Through the connection: a JOIN that never comes, an unknown type. */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	o.fd = sv[0];
	assert_int_equal(rb_oob_expect(&o, RB_MX_MSG_JOIN, body, sizeof(body), &len), -ETIMEDOUT);
	assert_string_equal(rb_last_error, "peer coord:1: no complete JOIN received within 1 s "
					   "(--timeout): is it alive?");
	rb_hdr_pack(frame, 77, 0);
	assert_int_equal(write(sv[1], frame, sizeof(frame)), (ssize_t)sizeof(frame));
	assert_int_equal(rb_oob_expect(&o, RB_MX_MSG_WELCOME, body, sizeof(body), &len), -EPROTO);
	assert_string_equal(rb_last_error, "peer coord:1 sent message type 77 where WELCOME was "
					   "expected");
	rb_hdr_pack(frame, RB_MX_MSG_ROUND, 8);
	assert_int_equal(write(sv[1], frame, sizeof(frame)), (ssize_t)sizeof(frame));
	assert_int_equal(rb_oob_recv(&o, &t, body, sizeof(body), &len), -ETIMEDOUT);
	assert_string_equal(rb_last_error, "peer coord:1: no complete ROUND received within 1 s "
					   "(--timeout): is it alive?");
	close(sv[0]);
	close(sv[1]);
}

/* Random bodies: no crash, and whatever decodes encodes back the same. */
static void test_random_bodies(void **state)
{
	static struct rb_mx_round r;
	struct rb_mx_report rep;
	struct rb_mx_join j;
	uint8_t in[512], out[RB_WIRE_MAX_BODY];
	int i, n;

	(void)state;
	srand(7);
	for (i = 0; i < 20000; i++) {
		size_t len = (size_t)(rand() % (int)sizeof(in));

		for (size_t k = 0; k < len; k++)
			in[k] = (uint8_t)(rand() % 4 ? rand() % 8 : rand());
		if (!rb_mx_unpack_join(in, len, &j)) {
			n = rb_mx_pack_join(&j, out, sizeof(out));
			assert_true(n == (int)len && !memcmp(in, out, len));
		}
		if (!rb_mx_unpack_round(in, len, &r)) {
			n = rb_mx_pack_round(&r, out, sizeof(out));
			assert_true(n == (int)len && !memcmp(in, out, len));
		}
		if (!rb_mx_unpack_report(in, len, &rep)) {
			n = rb_mx_pack_report(&rep, out, sizeof(out));
			assert_true(n == (int)len && !memcmp(in, out, len));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_tournament),
		cmocka_unit_test(test_pairs_everyone_busy),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_incast),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_pairs_file),
		cmocka_unit_test(test_pairs_file_errors),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_out_of_line),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_env_ompi),
		cmocka_unit_test(test_env_slurm_pmi),
		cmocka_unit_test(test_env_errors),
		cmocka_unit_test(test_nodelist),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_join_roundtrip),
		cmocka_unit_test(test_round_roundtrip),
		cmocka_unit_test(test_tick_roundtrip),
		cmocka_unit_test(test_report_roundtrip),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_random_bodies),
		cmocka_unit_test(test_msg_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
