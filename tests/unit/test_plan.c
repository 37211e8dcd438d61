// SPDX-License-Identifier: MIT
/*
 * Unit tests for the plan validator (src/wire/plan.c): the checks a server
 * applies to a plan from the wire, exactly as the command line gets them.
 * Each hostile plan found in the lab (batch 0, qps 0, ...) is refused
 * with a message naming the option.
 */
#include "plan_fx.h"

static void defaults_pass(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		struct rb_params p = plan_of(rb_benches[i]->name);

		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
	}
}

/* The holes of the hostile-peer report, one by one. */
static void zeros_refused(void **state)
{
	struct rb_params base = plan_of("send_bw"), p;

	(void)state;
	p = base;
	rb_axis_set1(&p.batch, 0);
	REFUSED(p, 0, "-l/--batch 0 is out of range (1..4096)");
	p = base;
	rb_axis_set1(&p.qps, 0);
	REFUSED(p, 0, "-q/--qps 0 is out of range");
	p = base;
	rb_axis_set1(&p.size, 0);
	REFUSED(p, 0, "-s/--size 0 is out of range");
	p = base;
	rb_axis_set1(&p.tx_depth, 0);
	REFUSED(p, 0, "-t/--tx-depth 0 is out of range");
	p = base;
	rb_axis_set1(&p.signal, 0);
	REFUSED(p, 0, "-Q/--signal 0 is out of range");
	p = base;
	p.rx_depth = 0;
	REFUSED(p, 0, "-r/--rx-depth 0 is out of range");
	p = base;
	p.qps.n = 0;
	REFUSED(p, 0, "-q/--qps has 0 values");
}

/* -D 0, --interval and --rate as a peer may send them. */
static void shape_rules(void **state)
{
	struct rb_params base = plan_of("write_bw"), p;
	char err[256];

	(void)state;
	/* What the command line makes: -D 0 --interval 0.5 --rate 10Gbps. */
	p = base;
	p.iters = 0;
	p.forever = 1;
	p.interval_ms = 500;
	p.rate = 10000000000ULL;
	p.rate_unit = RB_RATE_BPS;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	/* -D 0 is one point: a sweep would never get past the first. */
	rb_axis_parse("64,128", true, &p.size, err, sizeof(err));
	REFUSED(p, 0, "-D 0 measures one point until it is stopped; this sweep has 2");
	p = base;
	p.forever = 1;
	REFUSED(p, 0, "-n/--iters and -D/--duration exclude each other");
	p = base;
	p.iters = 0;
	p.forever = 2;
	REFUSED(p, 0, "-D 0: bad flag 2");
	p = base;
	p.interval_ms = 99;
	REFUSED(p, 0, "--interval 99 ms is out of range");
	p = base;
	p.interval_ms = 86400001;
	REFUSED(p, 0, "--interval 86400001 ms is out of range");
	p = base;
	p.iters = 0;
	p.duration_s = 2;
	p.interval_ms = 2001;
	REFUSED(p, 0, "--interval 2 s is longer than -D/--duration 2 s");
	p.interval_ms = 2000;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	/* A rate needs its unit, and a unit its rate, in range. */
	p = base;
	p.rate = 1000;
	REFUSED(p, 0, "--rate 1000 has no unit");
	p.rate_unit = 9;
	REFUSED(p, 0, "--rate: unknown unit 9");
	p.rate_unit = RB_RATE_PPS;
	p.rate = 0;
	REFUSED(p, 0, "--rate 0pps is out of range");
	p.rate = UINT64_MAX;
	REFUSED(p, 0, "is out of range (1pps..10Gpps)");
	p.rate_unit = RB_RATE_BPS;
	p.rate = 999;
	REFUSED(p, 0, "is out of range (1Kbps..10Tbps)");
	/* Latency tests take one message at a time: no pace. */
	p = plan_of("send_lat");
	p.rate = 1000000;
	p.rate_unit = RB_RATE_PPS;
	REFUSED(p, 0, "--rate paces bandwidth tests; send_lat measures one message at a time");
	p = plan_of("send_lat");
	p.interval_ms = 1000;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
}

static void odd_values_refused(void **state)
{
	struct rb_params base = plan_of("write_bw"), p;

	(void)state;
	p = base;
	p.mtu = 3;
	REFUSED(p, 0, "--mtu 3 is out of range");
	p = base;
	p.mtu = 1500;
	REFUSED(p, 0, "--mtu 1500 is not a power of two");
	p = base;
	p.warmup = (1ULL << 32) + 1;
	REFUSED(p, 0, "--warmup 4294967297 is out of range");
	p = base;
	p.warmup = RB_WARMUP_AUTO - 1;
	REFUSED(p, 0, "--warmup 18446744073709551614 is out of range");
	p = base;
	p.atomic_op = 7;
	REFUSED(p, 0, "--op 7 is not one of fadd|cswap");
	p = base;
	p.atomic_op = 1;
	REFUSED(p, 0, "--op does not apply to write_bw");
	p = base;
	p.duration_s = 5;
	REFUSED(p, 0, "-n/--iters and -D/--duration exclude each other");
	p = base;
	p.iters = 0;
	REFUSED(p, 0, "one of them is needed");
	p = base;
	rb_axis_set1(&p.qps, 16385);
	REFUSED(p, 0, "-q/--qps 16385 is out of range (1..16384)");
	p = base;
	snprintf(p.test, sizeof(p.test), "rm_rf");
	REFUSED(p, 0, "unknown test");
	p = base;
	memset(p.test, 'x', sizeof(p.test)); /* no terminator */
	REFUSED(p, 0, "unknown test");
}

/* Options a test does not take stay at their defaults. */
static void unused_options_refused(void **state)
{
	struct rb_params p = plan_of("send_lat");
	struct rb_params r = plan_of("read_bw");

	(void)state;
	rb_axis_set1(&p.batch, 8);
	REFUSED(p, 0, "-l/--batch does not apply to send_lat");
	r.inline_size = 64;
	REFUSED(r, 0, "--inline does not apply to read_bw");
}

/* A peer's -c, --sl, --tclass and --flow-label, as the CLI gets them. */
static void transport_from_peer(void **state)
{
	struct rb_params w = plan_of("write_bw"), s = plan_of("send_bw"), p;
	char err[256];
	size_t i;

	(void)state;
	/* Every verbs row runs over RC: the default must pass for each; a
	 * socket row has no transport to choose. */
	for (i = 0; rb_benches[i]; i++)
		assert_true(rb_benches[i]->path != RB_PATH_VERBS ||
			    rb_benches[i]->transports & RB_TR_BIT(RB_TR_RC));
	p = plan_of("tcp_bw");
	assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
	p.transport = RB_TR_UC;
	REFUSED(p, 0, "-c/--transport does not apply to tcp_bw");
	p = w;
	p.transport = RB_TR_UD;
	REFUSED(p, 0, "-c UD does not apply to write_bw: it runs over RC, UC, SRD");
	p = plan_of("atomic_bw");
	p.transport = RB_TR_UC;
	REFUSED(p, 0, "-c UC does not apply to atomic_bw: it runs over RC");
	p = w;
	p.transport = 5;
	REFUSED(p, 0, "-c/--transport 5 is out of range (0..4)");
	p = w;
	p.transport = 255;
	REFUSED(p, 0, "-c/--transport 255 is out of range");
	p = s;
	p.sl = 16;
	REFUSED(p, 0, "-S/--sl 16 is out of range (0..15)");
	p = s;
	p.tclass = 256;
	REFUSED(p, 0, "--tclass 256 is out of range (0..255)");
	p = s;
	p.recv_post_list = 65;
	REFUSED(p, 0, "--recv-post-list 65 is out of range (1..64)");
	p = s;
	p.rx_depth = 16;
	p.recv_post_list = 32;
	REFUSED(p, 0, "--recv-post-list 32 exceeds -r/--rx-depth 16");
	p = s;
	p.nflow = 2;
	p.flow_label[1] = 0x100000;
	REFUSED(p, 0, "--flow-label 1048576 is out of range (0..1048575)");
	p = s;
	p.transport = RB_TR_UD;
	p.use_cm = 1;
	REFUSED(p, 0, "-R/--rdma-cm does not apply to -c UD");
	p = s;
	p.transport = RB_TR_UD;
	p.mtu = 256;
	REFUSED(p, 0, "-s/--size 65536 exceeds -m/--mtu 256");
	rb_axis_set1(&p.size, 256);
	p.sl = 15;
	p.tclass = 255;
	p.nflow = RB_FLOW_MAX;
	p.flow_label[RB_FLOW_MAX - 1] = 0xfffff;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
}

static void cross_rules(void **state)
{
	struct rb_params p = plan_of("write_bw"), q;
	struct rb_params a = plan_of("atomic_lat");

	(void)state;
	q = p;
	rb_axis_set1(&q.signal, 256);
	REFUSED(q, 0, "-Q/--signal 256 exceeds -t/--tx-depth 128");
	q = p;
	rb_axis_set1(&q.batch, 256);
	q.signal.v[0] = 64;
	REFUSED(q, 0, "-l/--batch 256 exceeds -t/--tx-depth 128");
	rb_axis_set1(&a.size, 64);
	REFUSED(a, 0, "atomic_lat messages are 8 bytes");
}

/* -q 64 -t 32768 got a 1 GiB host OOM-killed: refused with the figure. */
static void memory_budget(void **state)
{
	struct rb_params p = plan_of("write_bw");
	char err[512];

	(void)state;
	rb_axis_set1(&p.qps, 64);
	rb_axis_set1(&p.tx_depth, 32768);
	assert_true(rb_plan_mem(&p) > (512ULL << 20));
	REFUSED(p, 768ULL << 20, "this host can give 768 MiB");
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_int_equal(rb_plan_validate(&p, 64ULL << 30, err, sizeof(err)), 0);
	/* The default plan is small. */
	p = plan_of("write_bw");
	assert_true(rb_plan_mem(&p) < (8ULL << 20));
	/* -n of a latency test keeps its samples... */
	p = plan_of("send_lat");
	p.iters = 4ULL << 20;
	assert_true(rb_plan_mem(&p) >= (4ULL << 20) * 8);
	REFUSED(p, 32ULL << 20, "lower");
}

/*
 * Issue 28 item 5: a bandwidth test keeps no sample, so -n 1T (the top of
 * its range) needs what -n 1000 needs; a latency test keeps at most
 * RB_SAMPLES_EXACT_MAX of them, then buckets, so -n 1T and -D fit too.
 */
static void memory_samples_bounded(void **state)
{
	struct rb_params p = plan_of("write_bw"), q;
	uint64_t cap = (uint64_t)RB_SAMPLES_EXACT_MAX * 8 * 2 + (1ULL << 20);
	char err[512];

	(void)state;
	q = p;
	q.iters = 1ULL << 40;
	assert_int_equal(rb_plan_mem(&q), rb_plan_mem(&p));
	assert_int_equal(rb_plan_validate(&q, 256ULL << 20, err, sizeof(err)), 0);
	q.iters = 0;
	q.duration_s = 10;
	assert_int_equal(rb_plan_mem(&q), rb_plan_mem(&p));

	p = plan_of("send_lat");
	q = p;
	q.iters = 1ULL << 40;
	assert_true(rb_plan_mem(&q) < rb_plan_mem(&p) + cap);
	assert_int_equal(rb_plan_validate(&q, 256ULL << 20, err, sizeof(err)), 0);
	q.iters = 0;
	q.duration_s = 10;
	assert_true(rb_plan_mem(&q) > (uint64_t)RB_SAMPLES_EXACT_MAX * 8);
	assert_true(rb_plan_mem(&q) < rb_plan_mem(&p) + cap);
	assert_int_equal(rb_plan_validate(&q, 256ULL << 20, err, sizeof(err)), 0);
	/* --interval sorts each slice in a copy: one more sample array. */
	q = p;
	q.iters = 1000;
	p.iters = 1000;
	q.interval_ms = 100;
	assert_int_equal(rb_plan_mem(&q), rb_plan_mem(&p) + 1000 * 8);
}

/* The memory flags from a peer: flags are 0 or 1; --srq only where receives are. */
static void memory_flags(void **state)
{
	const char *tests[] = { "send_lat", "send_bw", "write_bw", "read_bw", "atomic_bw" };
	static const struct {
		const char *test;
		size_t off;
		uint8_t v;
		const char *want;
	} bad[] = {
		{ "write_bw", offsetof(struct rb_params, srq), 1,
		  "--srq does not apply to write_bw" },
		{ "read_lat", offsetof(struct rb_params, srq), 1,
		  "--srq does not apply to read_lat" },
		{ "send_bw", offsetof(struct rb_params, hugepages), 2,
		  "--hugepages 2 is out of range (0..1)" },
		{ "send_bw", offsetof(struct rb_params, odp), 0xff, "--odp 255 is out of range" },
		{ "send_bw", offsetof(struct rb_params, mr_per_qp), 7,
		  "--mr-per-qp 7 is out of range" },
		{ "send_lat", offsetof(struct rb_params, srq), 2, "--srq 2 is out of range" },
	};
	struct rb_params p;
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		p = plan_of(tests[i]);
		p.hugepages = p.odp = p.mr_per_qp = 1;
		p.srq = rb_bench_find(tests[i])->needs_recv;
		assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = plan_of(bad[i].test);
		*(uint8_t *)((char *)&p + bad[i].off) = bad[i].v;
		REFUSED(p, 0, bad[i].want);
	}
}

/* --mr-per-qp: one buffer pair per QP counts against the budget. */
static void mr_per_qp_memory(void **state)
{
	struct rb_params p = plan_of("write_bw");
	uint64_t one;

	(void)state;
	rb_axis_set1(&p.qps, 64);
	rb_axis_set1(&p.size, 16ULL << 20);
	one = rb_plan_mem(&p);
	p.mr_per_qp = 1;
	assert_true(rb_plan_mem(&p) >= one + 63 * 2 * (16ULL << 20));
	REFUSED(p, 1ULL << 30, "the plan needs about");
}

/* --threads from a peer: the count in range, the thread one of them. */
static void threads_checked(void **state)
{
	struct rb_params p = plan_of("write_bw");
	uint64_t one;
	char err[512];

	(void)state;
	one = rb_plan_mem(&p);
	p.threads = 4;
	p.thread = 3;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	/* A plan built by hand (threads 0) is one thread. */
	p.threads = 0;
	p.thread = 0;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p.thread = 1;
	REFUSED(p, 0, "thread 1 of a run of 0 thread(s)");
	p.threads = 4;
	p.thread = 4;
	REFUSED(p, 0, "thread 4 of a run of 4 thread(s)");
	p.thread = 0;
	p.threads = RB_MAX_THREADS + 1;
	REFUSED(p, 0, "--threads 1025 is out of range (1..1024)");
	/* Every thread holds the whole plan: the budget counts them all. */
	p.threads = 8;
	REFUSED(p, one * 8 - 1, "per thread");
	assert_int_equal(rb_plan_validate(&p, one * 8, err, sizeof(err)), 0);
	/* A run id (wire v5) names a run of threads; a run of one has none. */
	p.run_id = 0xfeed;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p.threads = 1;
	REFUSED(p, 0, "run_id 0x000000000000feed: only a run of threads has a run id");
}

/*
 * -b: a capability of the row (send_bw, write_bw, read_bw), refused by
 * name for every other test, and a flag, not a number, from the wire.
 */
static void bidir_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		struct rb_params p = plan_of(rb_benches[i]->name);
		char want[96];

		p.bidir = 1;
		if (rb_benches[i]->bidir_ok) {
			assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
			p.bidir = 2;
			REFUSED(p, 0, "-b/--bidirectional 2 is out of range (0..1)");
			continue;
		}
		snprintf(want, sizeof(want), "-b/--bidirectional does not apply to %s",
			 rb_benches[i]->name);
		REFUSED(p, 0, want);
	}
	assert_true(rb_bench_find("send_bw")->bidir_ok);
	assert_true(rb_bench_find("write_bw")->bidir_ok);
	assert_true(rb_bench_find("read_bw")->bidir_ok);
	assert_false(rb_bench_find("atomic_bw")->bidir_ok);
}

/*
 * --probe from a peer: bandwidth tests only, its rate 10..100000 Hz (0:
 * the default) and only with --probe; with -R and --threads; with
 * --reversed wherever the test takes --reversed.
 */
static void probe_rows(void **state)
{
	char err[256];
	size_t i;
	int ret;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		struct rb_params p = plan_of(b->name);

		p.probe = 1;
		if (b->mode != RB_MODE_BW || b->path != RB_PATH_VERBS) {
			REFUSED(p, 0, "--probe does not apply to");
			continue;
		}
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.probe_rate = 100000;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.probe_rate = 100001;
		REFUSED(p, 0, "--probe-rate 100001 is out of range (10..100000)");
		p.probe_rate = 9;
		REFUSED(p, 0, "--probe-rate 9 is out of range");
		p.probe_rate = 10;
		p.probe = 2;
		REFUSED(p, 0, "--probe 2 is out of range (0..1)");
		p.probe = 0;
		REFUSED(p, 0, "--probe-rate needs --probe");
		p.probe = 1;
		p.use_cm = 1;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.use_cm = 0;
		p.threads = 2;
		p.run_id = 7;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.threads = 1;
		p.run_id = 0;
		p.reversed = 1;
		p.probe = 0;
		p.probe_rate = 0;
		ret = rb_plan_validate(&p, 1ULL << 30, err, sizeof(err));
		p.probe = 1;
		if (rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)) != ret)
			fail_msg("%s --reversed: %d without --probe, with it: %s", b->name, ret,
				 err);
	}
}

/* @p as it is and with --cq-per-qp: the same verdict (0 or the same error). */
static void same_with_cq_per_qp(struct rb_params p, const char *what)
{
	char err0[256] = "", err1[256] = "";
	int r0, r1;

	p.cq_per_qp = 0;
	r0 = rb_plan_validate(&p, 1ULL << 30, err0, sizeof(err0));
	p.cq_per_qp = 1;
	r1 = rb_plan_validate(&p, 1ULL << 30, err1, sizeof(err1));
	if (r0 != r1 || strcmp(err0, err1))
		fail_msg("%s: without --cq-per-qp %d (%s), with it %d (%s)", what, r0, err0, r1,
			 err1);
}

/*
 * --cq-per-qp from a peer: bandwidth tests of the verbs only, a flag; with
 * --poll event, --wr-lat, --probe and --reg-mode per-msg it refuses
 * nothing those do not refuse alone.
 */
static void cq_per_qp_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		struct rb_params p = plan_of(b->name), q;

		p.cq_per_qp = 1;
		if (b->mode != RB_MODE_BW || b->path != RB_PATH_VERBS) {
			REFUSED(p, 0, "--cq-per-qp");
			continue;
		}
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.cq_per_qp = 2;
		REFUSED(p, 0, "--cq-per-qp 2 is out of range (0..1)");
		p.cq_per_qp = 1;
		rb_axis_set1(&p.qps, 64);
		q = p;
		q.wr_lat = 1;
		same_with_cq_per_qp(q, "--wr-lat");
		q = p;
		q.probe = 1;
		same_with_cq_per_qp(q, "--probe");
		q = p;
		rb_axis_set1(&q.poll, RB_POLL_EVENT);
		same_with_cq_per_qp(q, "--poll event");
		if (!b->polls_buffer || q.imm)
			assert_int_equal(rb_plan_validate(&q, 1ULL << 30, err, sizeof(err)), 0);
		q.wr_lat = 1;
		same_with_cq_per_qp(q, "--poll event --wr-lat");
		q = p;
		q.reg_mode = RB_REG_PER_MSG;
		same_with_cq_per_qp(q, "--reg-mode per-msg -q 64");
		rb_axis_set1(&q.qps, 1);
		same_with_cq_per_qp(q, "--reg-mode per-msg");
	}
}

/*
 * --wr-lat from a peer: bandwidth tests of the verbs only, a flag, and
 * not with --reg-mode per-msg (the client's, checked on its side).
 */
static void wr_lat_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		struct rb_params p = plan_of(b->name);

		p.wr_lat = 1;
		if (b->mode != RB_MODE_BW || b->path != RB_PATH_VERBS) {
			REFUSED(p, 0, "--wr-lat does not apply to");
			continue;
		}
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.wr_lat = 2;
		REFUSED(p, 0, "--wr-lat 2 is out of range (0..1)");
		p.reg_mode = RB_REG_PER_MSG;
		p.wr_lat = 0;
		if (rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)))
			continue; /* the test takes no per-msg at all */
		p.wr_lat = 1;
		REFUSED(p, 0, "--wr-lat and --reg-mode per-msg");
	}
}

/*
 * --poll from a peer: an axis of busy and event on every test, but event
 * on write_lat only with immediates (its receiver polls its buffer
 * without), wherever it is on the axis.
 */
static void poll_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		struct rb_params p = plan_of(b->name);

		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		if (b->path != RB_PATH_VERBS) {
			/* No CQ to sleep on: --poll and --cqe-poll are the verbs tests'. */
			rb_axis_set1(&p.poll, RB_POLL_EVENT);
			REFUSED(p, 0, "--poll does not apply to tcp_");
			rb_axis_set1(&p.poll, RB_POLL_BUSY);
			rb_axis_set1(&p.cqe_poll, 4);
			REFUSED(p, 0, "--cqe-poll does not apply to tcp_");
			continue;
		}
		rb_axis_set1(&p.poll, 2);
		REFUSED(p, 0, "--poll 2 is out of range");
		p.poll.n = 0;
		REFUSED(p, 0, "--poll has 0 values");
		rb_axis_set1(&p.poll, RB_POLL_BUSY);
		p.poll.v[p.poll.n++] = RB_POLL_EVENT;
		if (!b->polls_buffer) {
			assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
			continue;
		}
		REFUSED(p, 0, "--poll event does not apply to write_lat");
		REFUSED(p, 0, "polls the last byte of its buffer");
		p.imm = 1;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
	}
	assert_true(rb_bench_find("write_lat")->polls_buffer);
	assert_false(rb_bench_find("write_bw")->polls_buffer);
}

/* --cqe-poll from a peer: 1..RB_CQE_POLL_MAX per value, on every test. */
static void cqe_poll_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		struct rb_params p = plan_of(rb_benches[i]->name);

		if (rb_benches[i]->path != RB_PATH_VERBS)
			continue; /* tcp rows: poll_rows() checks --cqe-poll is refused */
		assert_int_equal(p.cqe_poll.n, 1);
		assert_int_equal(p.cqe_poll.v[0], RB_CQE_POLL_DEFAULT);
		p.cqe_poll.v[p.cqe_poll.n++] = 1;
		p.cqe_poll.v[p.cqe_poll.n++] = RB_CQE_POLL_MAX;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.cqe_poll.v[1] = 0;
		REFUSED(p, 0, "--cqe-poll 0 is out of range (1..4096)");
		p.cqe_poll.v[1] = RB_CQE_POLL_MAX + 1;
		REFUSED(p, 0, "--cqe-poll 4097 is out of range");
		p.cqe_poll.n = 0;
		REFUSED(p, 0, "--cqe-poll has 0 values");
	}
}

/*
 * --reg-mode per-msg: the sends', writes' and reads' streams, one WR of
 * one QP at a time from a buffer that is not inline, the client alone.
 */
static void reg_mode_rules(void **state)
{
	static const char *const ok[] = { "write_bw", "send_bw", "read_bw" };
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct rb_params p = plan_of(ok[i]);

		p.reg_mode = RB_REG_PER_MSG;
		assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
		p.reg_mode = 3;
		REFUSED(p, 0, "--reg-mode 3 is out of range");
		p.reg_mode = RB_REG_PER_MSG;
		p.batch.v[0] = 4;
		REFUSED(p, 0, "--reg-mode per-msg needs -l 1");
		p.batch.v[0] = 1;
		p.qps.v[0] = 2;
		REFUSED(p, 0, "needs -q 1");
		p.qps.v[0] = 1;
		p.bidir = 1;
		REFUSED(p, 0, "no -b, no --reversed");
		p.bidir = 0;
		p.rate_unit = RB_RATE_BPS;
		p.rate = 1000000000;
		REFUSED(p, 0, "no --rate");
	}
	{
		struct rb_params p = plan_of("send_bw");

		p.reg_mode = RB_REG_PER_MSG;
		p.inline_size = 64;
		REFUSED(p, 0, "needs -I 0");
		p = plan_of("atomic_bw");
		p.reg_mode = RB_REG_PER_MSG;
		REFUSED(p, 0, "a bandwidth test of sends, writes or reads (atomic_bw)");
		p = plan_of("send_lat");
		p.reg_mode = RB_REG_PER_MSG;
		REFUSED(p, 0, "send_lat");
	}
}

/*
 * The immediate flag from a peer: one field, a row per test kind that
 * takes it (--send-with-imm, --write-with-imm); each other test refuses it.
 */
static void imm_rows(void **state)
{
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		struct rb_params p = plan_of(b->name);
		bool send = b->needs_recv;
		char want[96];

		p.imm = 1;
		if (b->imm_ops) {
			assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
			assert_true(rb_bench_receives(b, &p));
			p.imm = 2;
			snprintf(want, sizeof(want), "--%s-with-imm 2 is out of range (0..1)",
				 send ? "send" : "write");
			REFUSED(p, 0, want);
			continue;
		}
		/* Only the SENDs' receives (and tcp_bw's server, which sees the stream). */
		assert_int_equal(rb_bench_receives(b, &p), b->needs_recv);
		REFUSED(p, 0, "-with-imm does not apply to");
		REFUSED(p, 0, b->name);
	}
	assert_true(rb_bench_find("send_lat")->imm_ops && rb_bench_find("send_bw")->imm_ops);
	assert_true(rb_bench_find("write_lat")->imm_ops && rb_bench_find("write_bw")->imm_ops);
	assert_false(rb_bench_find("read_bw")->imm_ops);
	/* Without the flag a WRITE consumes no receive, a SEND does. */
	assert_false(rb_bench_receives(rb_bench_find("write_bw"), &(struct rb_params){ 0 }));
	assert_true(rb_bench_receives(rb_bench_find("send_bw"), &(struct rb_params){ 0 }));
}

/*
 * The socket tests: a peer's DATA names the server's port, not the
 * client's; its placement is checked as CONN's.  Their plan takes none of
 * the verbs' fields.
 */
static void tcp_rows(void **state)
{
	struct rb_msg_data m = {
		.port = 40000,
		.place = { .device_numa_node = -1, .mem_node = -1, .local = -1, .freq_cpu = -1 }
	};
	struct rb_params p = plan_of("tcp_lat");
	char err[256];

	(void)state;
	assert_int_equal(rb_data_validate(&m, true, err, sizeof(err)), 0);
	assert_int_equal(rb_data_validate(&m, false, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "no port"));
	m.port = 0;
	assert_int_equal(rb_data_validate(&m, false, err, sizeof(err)), 0);
	assert_int_equal(rb_data_validate(&m, true, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "no data port"));
	m.port = 1;
	m.place.device_numa_node = 2147483647;
	assert_int_equal(rb_data_validate(&m, true, err, sizeof(err)), -EPROTO);
	assert_int_equal(rb_bench_find("tcp_lat")->path, RB_PATH_TCP);
	assert_false(rb_bench_scope(rb_bench_find("tcp_bw")) & RB_S_VERBS);
	assert_true(rb_bench_scope(rb_bench_find("send_bw")) & RB_S_VERBS);
	/* The command line leaves the queues' axes unset: a valid plan. */
	assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
	p.tx_depth.v[0] = 128;
	REFUSED(p, 0, "-t/--tx-depth does not apply to tcp_lat");
	p = plan_of("tcp_bw");
	p.qps.v[0] = 2;
	REFUSED(p, 0, "-q/--qps does not apply to tcp_bw");
	p = plan_of("tcp_bw");
	p.verify = 1;
	REFUSED(p, 0, "--verify does not apply to tcp_bw");
}

/*
 * --reversed: every verbs test takes it, over every transport it runs; what
 * only the client's loop or session knows is refused, naming it.
 */
static void reversed_rows(void **state)
{
	struct rb_params base = plan_of("write_bw"), p;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		p = plan_of(rb_benches[i]->name);
		p.reversed = 1;
		/* Not built for the socket tests: refused. */
		if (rb_benches[i]->path != RB_PATH_VERBS) {
			REFUSED(p, 0, "--reversed does not apply to tcp_");
			continue;
		}
		if (rb_benches[i]->lock) { /* issue 42: the client's contenders alone */
			REFUSED(p, 0, "lock does not take --reversed");
			continue;
		}
		if (rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)))
			fail_msg("%s --reversed: %s", rb_benches[i]->name, err);
	}
	p = plan_of("send_bw");
	p.reversed = 1;
	p.transport = RB_TR_UD;
	p.size.v[0] = 1024;
	assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
	base.reversed = 1;
	p = base;
	p.reversed = 2;
	REFUSED(p, 0, "--reversed 2 is out of range (0..1)");
	p = base;
	p.bidir = 1;
	REFUSED(p, 0, "--reversed and -b: both sides stream already");
	p = base;
	p.threads = 2;
	REFUSED(p, 0, "--reversed and --threads");
	p = base;
	p.interval_ms = 500;
	REFUSED(p, 0, "--reversed and --interval");
	/* --rate: the server paces its stream (the plan carries the rate). */
	p = base;
	p.rate = 1000;
	p.rate_unit = RB_RATE_PPS;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p = base;
	p.iters = 0;
	p.forever = 1;
	REFUSED(p, 0, "--reversed and -D 0");
	p = plan_of("send_lat");
	p.reversed = 1;
	p.latency_gap_us = 10;
	REFUSED(p, 0, "--reversed and --latency_gap");
	/* Immediates, reversed: the server's WRITEs carry them. */
	p = base;
	p.imm = 1;
	assert_int_equal(rb_plan_validate(&p, 1ULL << 30, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_pass),      cmocka_unit_test(zeros_refused),
		cmocka_unit_test(odd_values_refused), cmocka_unit_test(unused_options_refused),
		cmocka_unit_test(cross_rules),	      cmocka_unit_test(transport_from_peer),
		cmocka_unit_test(memory_budget),      cmocka_unit_test(memory_samples_bounded),
		cmocka_unit_test(memory_flags),	      cmocka_unit_test(mr_per_qp_memory),
		cmocka_unit_test(threads_checked),    cmocka_unit_test(bidir_rows),
		cmocka_unit_test(imm_rows),	      cmocka_unit_test(reversed_rows),
		cmocka_unit_test(tcp_rows),	      cmocka_unit_test(poll_rows),
		cmocka_unit_test(reg_mode_rules),     cmocka_unit_test(cqe_poll_rows),
		cmocka_unit_test(shape_rules),	      cmocka_unit_test(probe_rows),
		cmocka_unit_test(wr_lat_rows),	      cmocka_unit_test(cq_per_qp_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
