// SPDX-License-Identifier: MIT
/*
 * Unit tests of the data path on the fake provider: the streams.
 * In count and duration mode with several QPs and batch and signal values
 * that do not divide the count, every WR ends covered by a completion and
 * every send queue empty; a provider that never completes ends in a
 * timeout naming what was awaited.
 */
#include "xfer_fx.h"

/* ---- streams ----------------------------------------------------------- */

static void stream_count_shape(const struct shape *s)
{
	struct fx x;

	fx_plan_shape(&x, s);
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	snprintf(ctx, sizeof(ctx), "-q %u -l %u -Q %u -t %u -n %llu --warmup %llu, delay %u",
		 s->qps, s->batch, s->signal, s->depth, (unsigned long long)s->iters,
		 (unsigned long long)s->warmup, s->delay);
	fx_stream_shape(&x, s);
	expect_eq(x.r.total, s->iters + s->warmup);
	expect_eq(x.f->nwrs, s->iters + s->warmup);
	fx_end(&x);
}

static void stream_count_tails(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < nshapes; i++)
		stream_count_shape(&shapes[i]);
}

/*
 * --wr-lat: every signaled WR of the measured phase gives one sample, in
 * every shape (chains that span signal groups, several QPs, partial
 * tails), and the stream's counts are those without it.
 */
static void stream_wr_lat_shape(const struct shape *s)
{
	struct rb_result res;
	struct fx x;

	fx_plan_shape(&x, s);
	x.p.warmup = 0;
	x.p.wr_lat = 1;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	assert_int_equal(rb_wrlat_open(&x.r), 0);
	rb_point_queues(&x.r);
	assert_true(x.r.reap_slow);
	snprintf(ctx, sizeof(ctx), "--wr-lat -q %u -l %u -Q %u -t %u -n %llu, delay %u", s->qps,
		 s->batch, s->signal, s->depth, (unsigned long long)s->iters, s->delay);
	fx_stream_shape(&x, s);
	expect_eq(x.f->nwrs, s->iters);
	memset(&res, 0, sizeof(res));
	assert_int_equal(rb_wrlat_result(&x.r, &res), 0);
	expect_eq(res.wr_lat_n, x.f->signaled);
	assert_true(res.has_wr_lat);
	assert_true(res.wr_lat.min >= 0 && res.wr_lat.min <= res.wr_lat.max);
	rb_wrlat_close(&x.r);
	fx_end(&x);
}

static void stream_wr_lat(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < nshapes; i++)
		stream_wr_lat_shape(&shapes[i]);
}

/* -D: the point ends at any chain; the tails get a covering WR each. */
static void stream_duration_tails(void **state)
{
	uint64_t t0 = rb_now_ns();
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 3, 7, 5, 32);
	x.p.iters = 0;
	x.p.duration_s = 1;
	x.p.warmup = 10;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 3;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_true(ms_since(t0) >= 1000);
	check_covered(&x);
	assert_true(x.r.ops > 0);
	assert_int_equal(x.r.ops, x.r.total - x.r.pt.warmup);
	assert_int_equal(x.f->nwrs, x.r.total);
	assert_true(x.r.t1 - x.r.t0 >= 1000000000ULL);
	fx_end(&x);
}

/*
 * A stream's sender reports the WRs each QP completed (JSON qp_wrs): every
 * QP of the point, as the fake counted them, none a round's share behind.
 */
static void stream_qp_wrs(void **state)
{
	static const uint32_t qps[] = { 1, 3, 8 };
	struct rb_result res;
	uint64_t lo, hi;
	struct fx x;
	uint32_t qi;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(qps) / sizeof(qps[0]); i++) {
		fx_plan(&x, "write_bw");
		fx_shape(&x, qps[i], 4, 8, 32);
		x.p.iters = 1000;
		x.p.warmup = 7;
		fx_start(&x, RB_ROLE_CLIENT, 2000);
		x.f->delay = 2;
		assert_int_equal(rb_run_stream(&x.r), 0);
		check_covered(&x);
		lo = UINT64_MAX;
		hi = 0;
		for (qi = 0; qi < qps[i]; qi++) {
			lo = x.f->retired_qp[qi] < lo ? x.f->retired_qp[qi] : lo;
			hi = x.f->retired_qp[qi] > hi ? x.f->retired_qp[qi] : hi;
		}
		assert_int_equal(rb_result_generic(&x.r, &res), 0);
		assert_true(res.has_qp_wrs);
		expect_eq(res.qp_wrs_used, qps[i]);
		expect_eq(res.qp_wrs_min, lo);
		expect_eq(res.qp_wrs_max, hi);
		assert_true(hi - lo <= 2 * 4);
		expect_eq(x.f->retired, 1007);
		rb_result_free(&res);
		fx_end(&x);
	}
}

/* read_bw -o 4: -t reads stay queued (issue 40), -o is the HCA's to hold on the wire. */
static void stream_reads_capped(void **state)
{
	struct fx x;
	uint32_t qi;

	(void)state;
	fx_plan(&x, "read_bw");
	fx_shape(&x, 2, 16, 64, 128);
	x.p.outstanding = 4;
	x.p.iters = 1001;
	x.p.warmup = 3;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 2;
	assert_int_equal(x.r.sq[0].depth, 128);
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	for (qi = 0; qi < 2; qi++)
		assert_int_equal(x.f->max_in_flight[qi], 128);
	assert_int_equal(x.f->wrs[0].opcode, IBV_WR_RDMA_READ);
	assert_int_equal(x.r.ops, 1001);
	fx_end(&x);
}

/*
 * read_bw -Q 64 on a queue of 4 (issue 37 item 6; since issue 40 no valid
 * plan makes one, reads keep -t queued: the point's depth is set by hand):
 * the point signals every 4th WR and says so: pt.signal is clamped to it,
 * the result keeps -Q as its label with signal_ran 4 and a flag, and
 * --wr-lat takes one sample per signal interval that ran (-n over 4).
 */
static void stream_reads_signal_clamped(void **state)
{
	struct rb_result res;
	struct fx x;

	(void)state;
	fx_plan(&x, "read_bw");
	fx_shape(&x, 1, 1, 64, 128);
	x.p.outstanding = 4;
	x.p.iters = 1000;
	x.p.warmup = 0;
	x.p.wr_lat = 1;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.r.pt.tx_depth = 4;
	assert_true(rb_point_queues(&x.r));
	assert_int_equal(rb_wrs_prepare(&x.r), 0);
	assert_int_equal(rb_wrlat_open(&x.r), 0);
	x.r.reap_slow = true;
	expect_eq(x.r.pt.signal, 4);
	expect_eq(x.r.qclamp.asked, 64);
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	expect_eq(x.f->signaled, 250);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	expect_eq(res.pt.signal, 64);
	expect_eq(res.signal_ran, 4);
	expect_eq(res.wr_lat_n, 250);
	assert_non_null(strstr(res.flag, "signal 4 ran: -Q 64"));
	rb_result_free(&res);
	rb_wrlat_close(&x.r);
	x.r.reap_slow = false;
	fx_end(&x);
	/* Within the reads in flight: as asked, no signal_ran. */
	fx_plan(&x, "read_bw");
	fx_shape(&x, 1, 1, 4, 128);
	x.p.outstanding = 8;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	expect_eq(x.r.pt.signal, 4);
	expect_eq(x.r.qclamp.asked, 0);
	fx_end(&x);
}

/*
 * --cqe-poll N: each ibv_poll_cq asks for N completions at most, and gets
 * that many when more are due: 4 and 32 (the default) from the stack, 64
 * into the run's own array.  Every WR is still covered.
 */
static void stream_cqe_poll(void **state)
{
	static const uint32_t ns[] = { 4, RB_CQE_POLL_DEFAULT, 64 };
	struct fx x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		fx_plan(&x, "write_bw");
		fx_shape(&x, 1, 16, 1, 128);
		rb_axis_set1(&x.p.cqe_poll, ns[i]);
		x.p.iters = 2000;
		x.p.warmup = 0;
		fx_start(&x, RB_ROLE_CLIENT, 2000);
		x.f->delay = 4; /* a queue's worth due at once */
		assert_int_equal(x.r.pt.cqe_poll, ns[i]);
		assert_int_equal(rb_run_stream(&x.r), 0);
		check_covered(&x);
		assert_int_equal(x.r.ops, 2000);
		assert_int_equal(x.f->poll_max_asked, ns[i]);
		assert_int_equal(x.f->poll_max_got, ns[i]);
		assert_true(x.f->polls >= 2000 / ns[i]);
		assert_true((x.r.wcs != NULL) == (ns[i] > RB_REAP_STACK));
		fx_end(&x);
	}
}

/*
 * A latency loop's wait for its message asks for no more than can be due
 * (2: the ping's send and the echo), nor than --cqe-poll; its other waits
 * (send-queue room) ask for --cqe-poll.
 */
static void pingpong_cqe_poll(void **state)
{
	static const uint32_t ns[] = { 1, RB_CQE_POLL_DEFAULT };
	struct fx x;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		fx_plan(&x, "send_lat");
		rb_axis_set1(&x.p.tx_depth, 4);
		rb_axis_set1(&x.p.cqe_poll, ns[i]);
		x.p.rx_depth = 8;
		x.p.iters = 100;
		x.p.warmup = 5;
		fx_start(&x, RB_ROLE_CLIENT, 2000);
		rb_rx_plan(&x.r);
		x.f->loopback = true;
		x.f->delay = 3;
		assert_int_equal(x.r.bench->setup(&x.r), 0);
		assert_int_equal(x.r.bench->prepare(&x.r), 0);
		assert_int_equal(x.r.bench->run(&x.r), 0);
		check_covered(&x);
		assert_int_equal(x.r.ops, 100);
		if (ns[i] == 1)
			assert_int_equal(x.f->poll_max_asked, 1);
		else
			assert_true(x.f->poll_max_asked <= RB_CQE_POLL_DEFAULT);
		assert_true(x.f->poll_max_got <= x.f->poll_max_asked);
		fx_end(&x);
	}
	fx_plan(&x, "read_lat");
	rb_axis_set1(&x.p.cqe_poll, 64);
	x.p.iters = 40;
	x.p.warmup = 3;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 3;
	assert_int_equal(x.r.bench->run(&x.r), 0);
	assert_int_equal(x.r.ops, 40);
	assert_int_equal(x.f->poll_max_asked, 1);
	fx_end(&x);
}

/* No completion ever: -ETIMEDOUT soon after the timeout, naming the wait. */
static void stream_stuck_times_out(void **state)
{
	uint64_t t0;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 2, 4, 8, 16);
	x.p.warmup = 100; /* more than the queues hold: they fill in the warm-up */
	fx_start(&x, RB_ROLE_CLIENT, 300);
	x.f->stuck = true;
	t0 = rb_now_ns();
	assert_int_equal(rb_run_stream(&x.r), -ETIMEDOUT);
	assert_true(ms_since(t0) >= 300);
	assert_true(ms_since(t0) < 1300);
	assert_has(rb_last_error, "fake0: no progress for 0.3 s");
	assert_has(rb_last_error, "completions");
	/* It stopped at a full queue, never past it. */
	assert_int_equal(x.f->overflows, 0);
	assert_int_equal(x.r.sq[0].used, 16);
	fx_end(&x);
}

/* The server's ERROR during a point ends the client's wait at once. */
static void stream_peer_error_aborts(void **state)
{
	struct rb_msg_text m = { "server: cannot allocate memory" };
	uint8_t b[300];
	uint64_t t0;
	struct fx x;
	int n;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 1, 4, 8, 16);
	fx_start(&x, RB_ROLE_CLIENT, 5000);
	x.f->stuck = true;
	n = rb_pack_text(&m, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(rb_oob_send(&x.peer, RB_MSG_ERROR, b, (uint32_t)n), 0);
	t0 = rb_now_ns();
	assert_int_equal(rb_run_stream(&x.r), -ECONNABORTED);
	assert_true(ms_since(t0) < 1000);
	assert_has(rb_last_error, "cannot allocate memory");
	fx_end(&x);
}

/*
 * A peer that gave up sends ERROR and closes: when this side learns of it
 * by a send that fails, the reason is still read and named.
 */
static void send_finds_peer_reason(void **state)
{
	struct rb_msg_text m = { "server: verify: send_bw size 64: byte at offset 0" };
	struct rb_msg_sync sy = { .point = 1 };
	static uint8_t big[9000]; /* a message larger than a page in front of it */
	uint8_t b[300];
	struct fx x;
	int n;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_CLIENT, 5000);
	assert_int_equal(rb_oob_send(&x.peer, RB_MSG_COUNTERS, big, sizeof(big)), 0);
	n = rb_pack_text(&m, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(rb_oob_send(&x.peer, RB_MSG_ERROR, b, (uint32_t)n), 0);
	rb_oob_close(&x.peer);
	n = rb_pack_sync(&sy, b, sizeof(b));
	assert_int_equal(rb_oob_send(&x.oob, RB_MSG_SYNC, b, (uint32_t)n), -ECONNABORTED);
	assert_has(rb_last_error, "gave up: server: verify: send_bw size 64");
	fx_end(&x);
}

/* An error completion in the middle of a stream ends it with -EIO. */
static void stream_error_completion(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 2, 4, 2, 16);
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.f->fail_nth = 7;
	x.f->fail_status = IBV_WC_REM_ACCESS_ERR;
	assert_int_equal(rb_run_stream(&x.r), -EIO);
	assert_has(rb_last_error, ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR));
	fx_end(&x);
}

static void stream_interrupted(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	rb_interrupted = 1;
	assert_int_equal(rb_run_stream(&x.r), -EINTR);
	rb_interrupted = 0;
	fx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stream_wr_lat),
		cmocka_unit_test(stream_count_tails),
		cmocka_unit_test(stream_duration_tails),
		cmocka_unit_test(stream_reads_capped),
		cmocka_unit_test(stream_reads_signal_clamped),
		cmocka_unit_test(stream_qp_wrs),
		cmocka_unit_test(stream_cqe_poll),
		cmocka_unit_test(pingpong_cqe_poll),
		cmocka_unit_test(stream_stuck_times_out),
		cmocka_unit_test(stream_peer_error_aborts),
		cmocka_unit_test(send_finds_peer_reason),
		cmocka_unit_test(stream_error_completion),
		cmocka_unit_test(stream_interrupted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
