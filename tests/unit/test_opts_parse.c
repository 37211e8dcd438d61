// SPDX-License-Identifier: MIT
/*
 * Unit tests for the command line: axes, the errors of getopt and of
 * positional arguments and the option names they carry, the per-test
 * defaults and combination checks of rb_cli_finish(), and rb_cli_given().
 */
#include "opts_fx.h"

/* ---- axes ---------------------------------------------------------------- */

static void test_axes(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64,4K,1M"), err);
	CHECK_AXIS(&c.p.size, 64, 4096, 1048576);

	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--size", "2..8M:x2"), err);
	assert_int_equal(c.p.size.n, 23);
	for (i = 0; i < c.p.size.n; i++)
		assert_int_equal(c.p.size.v[i], 2ULL << i);
	assert_int_equal(c.p.size.v[22], 8 * MiB);

	CHECK_OK(PARSE(&c, T_SEND_BW, err, "-l", "1..64:+8"), err);
	CHECK_AXIS(&c.p.batch, 1, 9, 17, 25, 33, 41, 49, 57);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "-t", "16..64:x2", "-q", "1..4:+1", "-Q", "1,8"), err);
	CHECK_AXIS(&c.p.tx_depth, 16, 32, 64);
	CHECK_AXIS(&c.p.qps, 1, 2, 3, 4);
	CHECK_AXIS(&c.p.signal, 1, 8);
	/* an option given twice is a usage error, not "the last wins" */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64", "-s", "128"), err,
		  "-s/--size given twice");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--s", "64"), err,
		  "option --s is ambiguous: --size, --samples, --signal");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "-1"), err, "-s/--size: '-1'");

	/* grammar errors carry the option and the axis rule */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..8"), err, "-s/--size", "'1..8'",
		  "a range needs an end and a step");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "8..2:x2"), err, "-s/--size",
		  "does not step upwards");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64,,128"), err, "-s/--size");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..65:+1"), err, "-s/--size", "64");
	/* a range reaching past the row's bound names the value */
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-q", "1..32768:x2"), err, "-q/--qps",
		  "32768 is out of range (1..16384)");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..2G:x2"), err, "-s/--size",
		  "2147483648 is out of range");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-l", "0..8:+4"), err, "-l/--batch",
		  "0 is out of range");
}

/* ---- errors from getopt and positional arguments ----------------------- */

static void test_bad_command_lines(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--bogus"), err, "unknown option --bogus", "send_lat");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Y"), err, "unknown option -Y", "send_lat");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64", "--bogus", "1"), err, "--bogus");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s"), err, "-s needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--size"), err, "--size needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--warmup"), err, "--warmup needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-n", "10", "-D"), err, "-D needs an argument");

	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "host1", "host2"), err, "unexpected argument 'host2'");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "host1", "-s", "64", "host2"), err,
		  "unexpected argument 'host2'");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "host1"), err,
		  "server takes no host argument ('host1')");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "host1"), err, "topo takes no host argument");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-p", "7000", "host1"), err, "server", "host1");

	/* one host is the client's server; options may come after it */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "host1"), err);
	assert_non_null(c.l.host);
	assert_string_equal(c.l.host, "host1");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "host1", "-s", "64"), err);
	assert_string_equal(c.l.host, "host1");
	CHECK_AXIS(&c.p.size, 64);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64"), err);
	assert_null(c.l.host);
	/* "--" ends the options */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--", "-host"), err);
	assert_string_equal(c.l.host, "-host");
	CHECK_OK(PARSE(&c, T_SERVER, err, "-p", "7000"), err);
	assert_int_equal(c.l.tcp_port, 7000);
	assert_null(c.l.host);
}

/* ---- defaults ------------------------------------------------------------ */

static void test_init(void **state)
{
	struct rb_cli c;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	rb_cli_init(&c);
	assert_int_equal(given_rows(&c), 0);
	assert_int_equal(c.l.ib_port, 0); /* 0: the port holding the address */
	assert_int_equal(c.l.gid_index, -1);
	assert_int_equal(c.l.tcp_port, RB_DEFAULT_PORT);
	assert_int_equal(c.l.timeout_s, 30);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(c.p.rx_depth, 512);
	assert_string_equal(c.l.cpu, "auto");
	assert_string_equal(c.l.numa, "auto");
	assert_string_equal(c.l.device, "");
	assert_null(c.l.host);
	assert_int_equal(c.p.size.n, 0);
	assert_int_equal(c.p.mtu, 0);
	assert_int_equal(c.p.verify, 0);
}

static void test_defaults_lat(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "send_lat");
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.duration_s, 0);
	assert_int_equal(c.p.inline_size, RB_INLINE_AUTO); /* issue 40 */
	CHECK_AXIS(&c.p.tx_depth, 128);
	CHECK_AXIS(&c.p.signal, 1); /* latency tests signal every WR */
	CHECK_AXIS(&c.p.batch, 1);
	CHECK_AXIS(&c.p.qps, 1);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(c.p.rx_depth, 512);
	/* defaults are not "given" */
	assert_false(given_name(&c, "size"));
	assert_false(given_name(&c, "tx-depth"));
	assert_int_equal(given_rows(&c), 0);

	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "write_lat");
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, RB_INLINE_AUTO); /* issue 40 */

	CHECK_OK(FINISH(&c, T_READ_LAT, err, NULL), err);
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, 0);

	/* what the command line says wins */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-I", "0", "-n", "77", "-s", "64", "-t", "256",
			"--warmup", "0"),
		 err);
	assert_int_equal(c.p.warmup, 0);
	assert_int_equal(c.p.inline_size, 0);
	assert_int_equal(c.p.iters, 77);
	CHECK_AXIS(&c.p.size, 64);
	CHECK_AXIS(&c.p.tx_depth, 256);
	CHECK_AXIS(&c.p.signal, 1);
	assert_int_equal(c.p.warmup, 0);
	/* --warmup takes a number, K/M/G, or the default's name */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--warmup", "1K"), err);
	assert_int_equal(c.p.warmup, 1024);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--warmup", "auto"), err);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(PARSE(&c, T_SEND_LAT, err, "--warmup", "often"), -EINVAL);
	assert_string_equal(err, "--warmup 'often' is not a number (K/M/G suffixes allowed) or "
				 "auto");
}

static void test_defaults_bw(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, NULL), err);
	assert_string_equal(c.p.test, "send_bw");
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);
	assert_int_equal(c.p.inline_size, 0);
	CHECK_AXIS(&c.p.tx_depth, 128);
	CHECK_AXIS(&c.p.signal, 64);
	CHECK_AXIS(&c.p.batch, 1);
	CHECK_AXIS(&c.p.qps, 1);

	CHECK_OK(FINISH(&c, T_WRITE_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);
	assert_int_equal(c.p.inline_size, 0);
	CHECK_OK(FINISH(&c, T_READ_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);

	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-I", "64"), err);
	assert_int_equal(c.p.inline_size, 64);
}

static void test_defaults_atomic(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "atomic_lat");
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, 0);
	assert_int_equal(c.p.atomic_op, RB_OP_FADD);

	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 5000);

	/* the "atomic" command: --mode picks the row, --op reaches the params */
	CHECK_OK(FINISH(&c, T_ATOMIC, err, "--op", "cswap", "--mode", "bw"), err);
	assert_string_equal(c.p.test, "atomic_bw");
	assert_int_equal(c.p.atomic_op, RB_OP_CSWAP);
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 5000);
	/* "-s 8" is what atomics are anyway */
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, "-s", "8"), err);
	CHECK_AXIS(&c.p.size, 8);
}

static void test_defaults_all_duration(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-a"), err);
	assert_int_equal(c.all, 1);
	assert_int_equal(c.p.size.n, 23);
	for (i = 0; i < c.p.size.n; i++)
		assert_int_equal(c.p.size.v[i], 2ULL << i);
	CHECK_OK(FINISH(&c, T_READ_BW, err, "--all"), err);
	assert_int_equal(c.p.size.n, 23);
	assert_int_equal(c.p.size.v[0], 2);
	assert_int_equal(c.p.size.v[22], 8 * MiB);

	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-D", "5"), err);
	assert_int_equal(c.p.duration_s, 5);
	assert_int_equal(c.p.iters, 0);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--duration", "5"), err);
	assert_int_equal(c.p.iters, 0);
}

/* -D 0, --interval and --rate (and perftest's --rate_limit) into the plan. */
static void test_shape_options(void **state)
{
	const struct rb_bench *wb = rb_bench_find("write_bw");
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-D", "0", "--interval", "0.5"), err);
	assert_int_equal(c.p.forever, 1);
	assert_int_equal(c.p.duration_s, 0);
	assert_int_equal(c.p.iters, 0);
	assert_int_equal(c.p.interval_ms, 500);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-D", "3", "--interval", "1"), err);
	assert_int_equal(c.p.forever, 0);
	assert_int_equal(c.p.interval_ms, 1000);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-n", "100", "--interval", "2"), err);
	assert_int_equal(c.p.interval_ms, 2000);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--rate", "200Kpps"), err);
	assert_int_equal(c.p.rate, 200000);
	assert_int_equal(c.p.rate_unit, RB_RATE_PPS);
	assert_int_equal(c.p.interval_ms, 0);
	/* perftest's spelling; a bare number is its default unit, Gb/s. */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--rate_limit", "10"), err);
	assert_int_equal(c.p.rate, 10000000000ULL);
	assert_int_equal(c.p.rate_unit, RB_RATE_BPS);
	assert_true(given_name(&c, "rate"));

	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "0", "-s", "64,128"), err, "-D 0",
		  "this sweep has 2");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "2", "--interval", "2.5"), err, "--interval",
		  "longer than -D/--duration 2 s");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "0", "-n", "5"), err, "-n/--iters",
		  "-D/--duration");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--rate", "1Gbps"), err, "--rate",
		  "does not apply to send_lat");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--interval", "1m"), err, "--interval '1m'");

	/* rdmabench matrix keeps one row per pair: no slices, no pace. */
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--interval", "1"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--interval does not apply to matrix"));
	/* Its pattern says which rank of a pair sends: --reversed is not for it. */
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--reversed"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--reversed does not apply to matrix"));
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--reversed"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb), err, sizeof(err)), 0);
}

/* ---- combinations ------------------------------------------------------- */

static void test_combinations(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-n", "10", "-D", "5"), err, "-n/--iters",
		  "-D/--duration");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-a", "-s", "64"), err, "-a/--all", "-s/--size");
	CHECK_ERR(FINISH(&c, T_ATOMIC_LAT, err, "-s", "64"), err, "-s/--size", "atomic", "8 bytes");
	CHECK_ERR(FINISH(&c, T_ATOMIC_BW, err, "-s", "8,16"), err, "-s/--size", "atomic");

	/* signal against depth: every pairing */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-Q", "256"), err, "-Q/--signal 256",
		  "-t/--tx-depth 128");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Q", "16"), err, "-Q/--signal", "send_lat");
	/* a chain longer than the queue could never be posted */
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-l", "256"), err, "-l/--batch 256",
		  "-t/--tx-depth 128");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-l", "32", "-t", "16,64"), err, "-l/--batch 32",
		  "-t/--tx-depth 16");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "64,256", "-Q", "128"), err, "-Q/--signal 128",
		  "-t/--tx-depth 64");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "256,64", "-Q", "128"), err, "-Q/--signal 128",
		  "-t/--tx-depth 64");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "256", "-Q", "16,512"), err, "-Q/--signal 512",
		  "-t/--tx-depth 256");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "256", "-Q", "256"), err);
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "64,256", "-Q", "1..64:x2"), err);

	/* --recommend needs something to choose from */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "--recommend"), err, "--recommend", "-l/--batch",
		  "-Q/--signal");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "--recommend", "-s", "64,128", "-q", "1,2"), err,
		  "--recommend");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend", "-l", "1,2"), err);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--recommend", "-Q", "16,32"), err);
	assert_int_equal(c.l.recommend, 1);
	assert_string_equal(c.l.recommend_bound, "");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-Q", "16,32"), err);
	assert_int_equal(c.l.recommend, 0);

	/* A bound, in --expect's syntax: given apart (a word with < > or =),
	 * or after '='; the host is not taken for one. */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--recommend", "p99<=20us", "--poll", "busy,event",
			"host"),
		 err);
	assert_int_equal(c.l.recommend, 1);
	assert_string_equal(c.l.recommend_bound, "p99<=20us");
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend=rate>=1Mpps", "--cqe-poll", "1,16"), err);
	assert_string_equal(c.l.recommend_bound, "rate>=1Mpps");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend", "host", "-l", "1,2"), err);
	assert_string_equal(c.l.recommend_bound, "");
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--recommend", "bw >= 1Gbps", "-Q", "16,32"), err);
	/* A bound needs a sweep, and one the test measures; a latency test one. */
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend"), err,
		  "--recommend on send_lat needs a bound");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "p99<=20us"), err,
		  "needs a sweep to choose from: --poll busy,event");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "--recommend", "p99<=20us", "--poll", "busy,event"),
		  err, "--recommend 'p99<=20us': a latency, which write_bw does not measure");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "rate>=1Mpps", "--poll", "busy,event"),
		  err, "a bandwidth figure, which send_lat does not measure");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "retrans==0", "--poll", "busy,event"),
		  err, "not a counter");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "--recommend", "bw>=90%link", "--poll", "busy,event"),
		  err, "share of the link");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--recommend", "p99<=fast"), err,
		  "--recommend 'p99<=fast'");
}

static void test_plan_limit(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	/* 64 sizes x 64 batches x 4 signals = 16384 points */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-s", "1..64:+1", "-l", "1..64:+1", "-Q", "1..4:+1",
			 "-t", "4096"),
		  err, "16384", "10000");
	/* exactly the limit is fine */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-s", "1..50:+1", "-l", "1..50:+1", "-Q", "1..4:+1"),
		 err);
	assert_int_equal(rb_plan_count(&c.p), RB_MAX_POINTS);
	/* just over it: 63 x 40 x 4 */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-s", "1..63:+1", "-l", "1..40:+1", "-Q", "1..4:+1"),
		  err, "10080", "10000");
}

/* ---- rb_cli_given ------------------------------------------------------- */

/*
 * rb_cli_given() takes a row's id: each id is on exactly one row, so that
 * no id asks about nothing (a row that lost its .id) or about two rows.
 */
static void test_opt_ids(void **state)
{
	int id, rows;
	size_t i;
	struct rb_cli c;
	char err[256];

	(void)state;
	for (id = RB_O_NONE + 1; id < RB_O_N; id++) {
		for (rows = 0, i = 0; i < rb_nopts; i++)
			rows += rb_opts[i].id == (enum rb_opt_id)id;
		if (rows != 1) {
			print_error("id %d is on %d rows, want 1\n", id, rows);
			fail();
		}
	}
	assert_null(rb_opt_by_id(RB_O_NONE));
	assert_string_equal(rb_opt_by_id(RB_O_TX_DEPTH)->lname, "tx-depth");
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--tx-depth", "64", "host"), err);
	assert_true(rb_cli_given(&c, RB_O_TX_DEPTH));
	assert_false(rb_cli_given(&c, RB_O_SIZE));
}

/* A one-shot server names the plan options it ignores, and only those. */
static void test_client_only(void **state)
{
	struct rb_cli c;
	char err[256], buf[256];

	(void)state;
	CHECK_OK(PARSE(&c, T_ATOMIC, err, "-n", "50", "--op", "cswap", "-d", "rxe0", "--json",
		       "x.json", "-R", "--mode", "bw"),
		 err);
	rb_cli_client_only(&c, buf, sizeof(buf));
	assert_string_equal(buf, "-n/--iters, -A/--op, --mode, -R/--rdma-cm");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-d", "rxe0", "--cpu", "1", "-p", "4000"), err);
	rb_cli_client_only(&c, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* perftest's --report_gbits, also by a unique prefix as getopt_long allows. */
static void test_report_gbits(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--report_gbits", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--report_gbit", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	/* a perftest alias by prefix: --rdma_c is --rdma_cm */
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--rdma_c", "host"), err);
	assert_true(given_name(&c, "rdma-cm"));
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--report", "host"), err, "--report is ambiguous",
		  "--report_gbits", "--counters");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--units", "MB/s", "--report_gbits", "host"), err,
		  "--units and --report_gbits exclude each other");
	/* perftest's latency tests take it, with no effect */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--report_gbits", "host"), err);
	/* A server is never finished (rb_cli_finish()): the rule holds there too. */
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--units", "MB/s", "--report_gbits"), err,
		  "--units and --report_gbits exclude each other");
}

/* The table's default unit is Gb/s; perftest's report keeps its MB/sec (MiB/s). */
static void test_units_default(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	CHECK_OK(PARSE(&c, T_SERVER, err, "-p", "4000"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--units", "GB/s", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBYTES);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--units", "MiB/s", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_MIBS);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--format", "perftest", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_MIBS);
	/* perftest's -w is in its MB/sec unless --report_gbits, whatever the default */
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-w", "100", "host"), err);
	assert_string_equal(c.l.expect.v[0], "bw>=100MiB/s");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--units", "Mb/s", "host"), err, "--units");
}

/*
 * --post-api, and perftest's --use_old_post_send for its "post"; the
 * default auto.  --disable-pcie-relaxed also in perftest's spelling.
 * Both are each side's own: a server takes them.
 */
static void test_post_api(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_AUTO);
	assert_int_equal(c.l.no_relaxed, 0);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--post-api", "wr", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_WR);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "--post-api=post", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--use_old_post_send", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	CHECK_OK(PARSE(&c, T_SERVER, err, "--use_old_post_send", "--disable_pcie_relaxed"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	assert_int_equal(c.l.no_relaxed, 1);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "--disable-pcie-relaxed", "host"), err);
	assert_int_equal(c.l.no_relaxed, 1);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post-api", "ex", "host"), err, "--post-api",
		  "auto|post|wr");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post-api", "wr", "--use_old_post_send", "host"), err,
		  "--post-api and --use_old_post_send exclude each other");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "--post-api", "wr"), err, "does not apply");
}

/*
 * --poll busy|event, perftest's -e/--events for event; -X/--vector, each
 * side's own.  write_lat's receiver polls its buffer: --poll event is
 * refused there, naming why, unless --write-with-imm.
 */
static void test_poll(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY);
	assert_int_equal(c.l.comp_vector, RB_VECTOR_SPREAD); /* issue 40: not given */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--poll", "event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "-e", "-X", "3", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	assert_int_equal(c.l.comp_vector, 3);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--events", "--vector=1", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--poll=busy", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY);
	CHECK_OK(PARSE(&c, T_SERVER, err, "-X", "2"), err);
	assert_int_equal(c.l.comp_vector, 2);
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--poll", "event"), err, "does not apply");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "sleep", "host"), err, "--poll",
		  "busy|event");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-X", "1024", "host"), err, "--vector");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "--poll", "event", "host"), err,
		  "--poll event does not apply to write_lat", "polls the last byte");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "-e", "host"), err, "write_lat");
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-e", "--write-with-imm", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	/* An axis: both ways, each point; -e with it, event wins only alone. */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--poll", "busy,event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--poll=event,busy,event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT, RB_POLL_BUSY, RB_POLL_EVENT);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "busy,", "host"), err, "--poll ''");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "busy,sleep", "host"), err,
		  "--poll 'sleep' is not one of busy|event");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "--poll", "busy,event", "host"), err,
		  "--poll event does not apply to write_lat");
}

/*
 * --cqe-poll N (perftest's --cqe_poll): completions per ibv_poll_cq, an
 * axis on every test, 32 by default (what the loops asked before it).
 */
static void test_cqe_poll(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, RB_CQE_POLL_DEFAULT);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, RB_CQE_POLL_DEFAULT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--cqe-poll", "1,16,64", "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, 1, 16, 64);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--cqe_poll", "1", "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, 1);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--cqe-poll=1..4096:x2", "host"), err);
	assert_int_equal(c.p.cqe_poll.n, 13);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--cqe-poll", "0", "host"), err,
		  "--cqe-poll 0 is out of range (1..4096)");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--cqe-poll", "4097", "host"), err, "--cqe-poll");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--cqe-poll", "8"), err, "does not apply");
}

/* perftest's --out_json is a switch: "--out_json HOST" is a client of HOST. */
static void test_out_json(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json", "host"), err);
	assert_string_equal(c.l.host, "host");
	assert_string_equal(c.l.json_path, "perftest_out.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json", "--out_json_file=r.json", "host"), err);
	assert_string_equal(c.l.host, "host");
	assert_string_equal(c.l.json_path, "r.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json_file", "r.json", "host"), err);
	assert_string_equal(c.l.json_path, "r.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_string_equal(c.l.json_path, "");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--out_json=x"), err, "--out_json takes no argument");
	/* A server writes it too: it never calls rb_cli_finish(). */
	CHECK_OK(PARSE(&c, T_SERVER, err, "--out_json"), err);
	assert_string_equal(c.l.json_path, "perftest_out.json");
}

/* perftest's -H, -U and -C, and --samples: latency tests' own reports. */
static void test_lat_reports(void **state)
{
	const struct rb_bench *sl = rb_bench_find("send_lat");
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "-C", "host"), err);
	assert_int_equal(c.l.histogram, 1);
	assert_int_equal(c.l.cycles, 1);
	assert_string_equal(c.l.samples_path, "");
	/* -U is a switch: the samples go to a file of ours unless --samples names one. */
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "-U", "host"), err);
	assert_int_equal(c.l.unsorted, 1);
	assert_string_equal(c.l.samples_path, RB_SAMPLES_DEFAULT);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-U", "--samples", "s.csv", "host"), err);
	assert_string_equal(c.l.samples_path, "s.csv");
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, "--samples=t.csv", "--report-histogram", "host"),
		 err);
	assert_string_equal(c.l.samples_path, "t.csv");
	assert_int_equal(c.l.unsorted, 0);
	assert_int_equal(c.l.histogram, 1);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--report-unsorted", "--report-cycles", "host"), err);
	assert_int_equal(c.l.cycles, 1);
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-U", "x.csv", "host"), err, "unexpected argument");
	/* Bandwidth tests: exit 2 naming the rule. */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "-H"), err,
		  "-H/--report-histogram does not apply to write_bw (latency tests only)");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-U"), err,
		  "-U/--report-unsorted does not apply to send_bw (latency tests only)");
	CHECK_ERR(PARSE(&c, T_READ_BW, err, "-C"), err, "-C/--report-cycles does not apply");
	CHECK_ERR(PARSE(&c, T_ATOMIC_BW, err, "--samples", "x"), err,
		  "--samples does not apply to atomic_bw");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-H"), err, "does not apply to server");
	/* The family command takes them, then --mode bw refuses them. */
	CHECK_ERR(FINISH(&c, T_ATOMIC, err, "--mode", "bw", "-H", "host"), err,
		  "-H/--report-histogram does not apply to atomic_bw (latency tests only)");
	/* Combinations. */
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-C", "--interval", "1", "-D", "2", "host"), err,
		  "-C/--report-cycles and --interval exclude each other");
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "--interval", "1", "-D", "2", "host"), err);
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-U", "--threads", "2", "host"), err,
		  "--samples (-U) does not apply to --threads runs");
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "--threads", "2", "host"), err);
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-H"), err);
	assert_int_equal(rb_cli_finish(&c, sl, rb_bench_scope(sl) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "-H/--report-histogram does not apply to matrix"));
}

static void test_given(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "-s", "64", "--warmup", "5", "-v", "--units", "Gb/s"),
		 err);
	assert_true(rb_cli_given(&c, RB_O_SIZE));
	assert_true(given_name(&c, "warmup"));
	assert_true(given_name(&c, "verbose"));
	assert_true(given_name(&c, "units"));
	assert_false(given_name(&c, "iters"));
	assert_false(given_name(&c, "tx-depth"));
	assert_false(given_name(&c, "quiet"));
	assert_int_equal(rb_opt_index("no-such-option"), -1);
	assert_int_equal(given_rows(&c), 4);
	/* rb_cli_finish() fills defaults without marking them given */
	CHECK_OK(rb_cli_finish(&c, &rb_bench_send_bw, scope_of(T_SEND_BW), err, sizeof(err)), err);
	assert_false(given_name(&c, "tx-depth"));
	assert_false(given_name(&c, "iters"));
	assert_true(given_name(&c, "size"));

	/* a value equal to the default still counts as given */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--warmup", "100"), err);
	assert_true(given_name(&c, "warmup"));
	/* a failed option is not marked */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-n", "0"), err, "-n/--iters");
	assert_false(given_name(&c, "iters"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axes),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_defaults_lat),
		cmocka_unit_test(test_defaults_bw),
		cmocka_unit_test(test_defaults_atomic),
		cmocka_unit_test(test_defaults_all_duration),
		cmocka_unit_test(test_shape_options),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_plan_limit),
		cmocka_unit_test(test_report_gbits),
		cmocka_unit_test(test_units_default),
		cmocka_unit_test(test_post_api),
		cmocka_unit_test(test_poll),
		cmocka_unit_test(test_cqe_poll),
		cmocka_unit_test(test_out_json),
		cmocka_unit_test(test_lat_reports),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_opt_ids),
		cmocka_unit_test(test_client_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
