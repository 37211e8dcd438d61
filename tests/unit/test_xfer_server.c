// SPDX-License-Identifier: MIT
/*
 * Unit tests of the data path on the fake provider: the server loops (they
 * stop on the client's STOP, hear the heartbeat) and -b, both sides
 * streaming.
 */
#include "xfer_fx.h"

/* ---- server loops ------------------------------------------------------ */

/* write_bw server: lends memory until the STOP, which says how much was done. */
static void server_wait_stop(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 2000);
	peer_sync(&x, 0, RB_SYNC_STOP, 500);
	assert_int_equal(rb_run_server_wait(&x.r), 0);
	assert_true(x.r.stopped);
	assert_int_equal(x.r.total, 500);
	assert_int_equal(x.r.ops, 500 - x.r.pt.warmup);
	fx_end(&x);
	/* A STOP for another point is a protocol error. */
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 2000);
	peer_sync(&x, 1, RB_SYNC_STOP, 500);
	assert_int_equal(rb_run_server_wait(&x.r), -EPROTO);
	assert_has(rb_last_error, "unexpected SYNC during point 0");
	fx_end(&x);
}

/*
 * A control channel that is not a socket: what matrix's coordinator or
 * any other transport plugs in.  The server's wait hears two heartbeats,
 * then a STOP; a client streaming for a second sends heartbeats through
 * alive() and never polls for a STOP of its own.
 */
struct fake_ctl {
	struct rb_ctl ctl;
	unsigned int polls, alive, stop_after;
	uint64_t count;
};

static int fake_ctl_poll(struct rb_ctl *c, uint32_t point, int wait_ms, uint64_t *count)
{
	struct fake_ctl *f = c->priv;

	(void)wait_ms;
	assert_int_equal(point, 0);
	if (++f->polls < f->stop_after)
		return f->polls <= 2 ? RB_CTL_ALIVE : RB_CTL_NOTHING;
	*count = f->count;
	return c->role == RB_ROLE_SERVER ? RB_CTL_STOP : RB_CTL_NOTHING;
}

static int fake_ctl_alive(struct rb_ctl *c, uint32_t point)
{
	struct fake_ctl *f = c->priv;

	assert_int_equal(point, 0);
	f->alive++;
	return 0;
}

static const struct rb_ctl_ops fake_ctl_ops = { .poll = fake_ctl_poll, .alive = fake_ctl_alive };

static void fake_ctl_drives(void **state)
{
	struct fake_ctl fc = { .stop_after = 5, .count = 700 };
	uint64_t t0 = rb_now_ns();
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 2000);
	fc.ctl = (struct rb_ctl){
		.ops = &fake_ctl_ops, .role = RB_ROLE_SERVER, .peer = "fake-ctl", .priv = &fc
	};
	x.r.ctl = &fc.ctl;
	assert_int_equal(rb_run_server_wait(&x.r), 0);
	assert_int_equal(fc.polls, 5);
	assert_int_equal(x.r.total, 700);
	assert_int_equal(x.r.ops, 700 - x.r.pt.warmup);
	fx_end(&x);

	fx_plan(&x, "write_bw");
	x.p.iters = 0;
	x.p.duration_s = 1;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	fc = (struct fake_ctl){ .stop_after = ~0u };
	fc.ctl = (struct rb_ctl){
		.ops = &fake_ctl_ops, .role = RB_ROLE_CLIENT, .peer = "fake-ctl", .priv = &fc
	};
	x.r.ctl = &fc.ctl;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_true(ms_since(t0) >= 1000);
	/* About one a second; the first is due at once. */
	assert_true(fc.alive >= 1 && fc.alive <= 3);
	fx_end(&x);
}

/*
 * --threads: a thread that measures long refreshes the run's progress
 * with every heartbeat, or the threads that wait for it give up after
 * --timeout though it is doing its work.
 */
static void heartbeat_refreshes_progress(void **state)
{
	struct fake_ctl fc = { .stop_after = ~0u };
	uint64_t progress = 0, t0 = rb_now_ns();
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	x.p.iters = 0;
	x.p.duration_s = 2;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	fc.ctl = (struct rb_ctl){
		.ops = &fake_ctl_ops, .role = RB_ROLE_CLIENT, .peer = "fake-ctl", .priv = &fc
	};
	x.r.ctl = &fc.ctl;
	x.r.threads.progress_ns = &progress;
	assert_int_equal(rb_run_stream(&x.r), 0);
	/* Its heartbeats come about once a second: the last in its last second. */
	assert_true(fc.alive >= 2);
	assert_true(progress >= t0 + 1000000000ULL);
	assert_true(progress <= rb_now_ns());
	fx_end(&x);
}

/*
 * --threads: the server of a thread that waits for the others hears its
 * SYNC ALIVE for the point to come before the START (or BYE), and keeps
 * waiting; an ALIVE for another point is out of step, and so is any from
 * a client of one thread (it could hold its slot as long as it said so).
 */
static void server_barrier_hears_alive(void **state)
{
	struct rb_msg_sync m;
	uint8_t b[64];
	uint32_t len;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 2000);
	peer_sync(&x, 3, RB_SYNC_ALIVE, 0);
	assert_int_equal(x.r.ctl->ops->barrier(x.r.ctl, 3), -EPROTO);
	fx_end(&x);

	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 2000);
	x.r.ctl->threads = true;
	peer_sync(&x, 3, RB_SYNC_ALIVE, 0);
	peer_sync(&x, 3, RB_SYNC_ALIVE, 0);
	peer_sync(&x, 3, RB_SYNC_START, 0);
	assert_int_equal(x.r.ctl->ops->barrier(x.r.ctl, 3), 0);
	assert_int_equal(rb_oob_expect(&x.peer, RB_MSG_SYNC, b, sizeof(b), &len), 0);
	assert_int_equal(rb_unpack_sync(b, len, &m), 0);
	assert_int_equal(m.point, 3);
	assert_int_equal(m.what, RB_SYNC_START);
	/* Before the BYE that ends the plan too. */
	peer_sync(&x, 4, RB_SYNC_ALIVE, 0);
	assert_int_equal(rb_oob_send(&x.peer, RB_MSG_BYE, NULL, 0), 0);
	assert_int_equal(x.r.ctl->ops->barrier(x.r.ctl, 4), 1);
	peer_sync(&x, 7, RB_SYNC_ALIVE, 0);
	assert_int_equal(x.r.ctl->ops->barrier(x.r.ctl, 5), -EPROTO);
	fx_end(&x);
}

/*
 * A frozen client: heartbeats keep the server waiting, silence for the
 * timeout ends the point with a message naming the client.
 */
static void server_wait_frozen(void **state)
{
	uint64_t t0;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 400);
	peer_sync(&x, 0, RB_SYNC_ALIVE, 0);
	peer_sync(&x, 0, RB_SYNC_ALIVE, 0);
	t0 = rb_now_ns();
	assert_int_equal(rb_run_server_wait(&x.r), -ETIMEDOUT);
	assert_true(ms_since(t0) >= 400);
	assert_true(ms_since(t0) < 1400);
	assert_false(x.r.stopped);
	assert_has(rb_last_error, "sent nothing for 0.4 s during point 0");
	assert_has(rb_last_error, "is it alive");
	fx_end(&x);
	/* Heartbeats, then the STOP: a normal end. */
	fx_plan(&x, "write_bw");
	fx_start(&x, RB_ROLE_SERVER, 400);
	peer_sync(&x, 0, RB_SYNC_ALIVE, 0);
	peer_sync(&x, 0, RB_SYNC_STOP, 300);
	assert_int_equal(rb_run_server_wait(&x.r), 0);
	assert_int_equal(x.r.total, 300);
	fx_end(&x);
}

/* send_bw server: counts every message the STOP announced, even if it came first. */
static void server_recv_counts(void **state)
{
	struct fx x;
	uint32_t qi;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 3, 1, 64, 128);
	x.p.rx_depth = 16;
	fx_start(&x, RB_ROLE_SERVER, 2000);
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	x.f->peer_sends = 300;
	peer_sync(&x, 0, RB_SYNC_STOP, 300);
	assert_int_equal(rb_run_server_recv(&x.r), 0);
	assert_int_equal(x.r.total, 300);
	assert_int_equal(x.r.ops, 300 - x.r.pt.warmup);
	assert_int_equal(x.f->peer_sends, 0);
	for (qi = 0; qi < 3; qi++) {
		assert_int_equal(x.r.sq[qi].posted_recv, 16);
		assert_int_equal(x.f->rq_n[qi], 16);
	}
	assert_int_equal(x.f->nwrs, 0);
	fx_end(&x);
}

/*
 * Over UD (or UC) a message can be lost: the server ends the point once the
 * STOP is in and nothing came for a moment (200 ms, stream.c's
 * LOSSY_GRACE_NS), with what arrived.
 */
static void server_recv_lossy(void **state)
{
	uint64_t t0, end;
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	x.p.transport = RB_TR_UD;
	rb_axis_set1(&x.p.size, 1024);
	fx_shape(&x, 1, 1, 64, 128);
	x.p.rx_depth = 16;
	fx_start(&x, RB_ROLE_SERVER, 5000);
	x.r.c.lossy = true;
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	x.f->peer_sends = 250;
	peer_sync(&x, 0, RB_SYNC_STOP, 300);
	t0 = rb_now_ns();
	assert_int_equal(rb_run_server_recv(&x.r), 0);
	end = rb_now_ns();
	assert_true(ms_since(t0) >= 200);
	assert_true(ms_since(t0) < 4000);
	assert_int_equal(x.r.total, 250);
	assert_int_equal(x.r.ops, 250 - x.r.pt.warmup);
	/* The interval ends at the last arrival, not after the wait: the
	 * moment of quiet lies between them, whatever the machine's speed (a
	 * bound on the interval's length failed when the loop was preempted). */
	if (x.r.t1 + 200000000ULL > end)
		fail_msg("the interval ends %.1f ms before the point: it holds the wait for losses",
			 (double)(end - x.r.t1) / 1e6);
	fx_end(&x);
}

/*
 * send_bw server: every message is in long before the client's STOP (its
 * last completion, then its counters, then the STOP): the interval and the
 * CPU time in it end at the last receive, not at the STOP.  So the
 * interval ends before the loop was handed the STOP, its CPU time is no
 * more than its length, and the figures are of it: orders, not durations,
 * which a preemption inside the interval would stretch.
 */
static void server_recv_ends_at_last(void **state)
{
	struct rb_result res;
	struct late_ctl l;
	uint64_t t0;
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 1, 1, 64, 128);
	x.p.rx_depth = 16;
	x.p.warmup = 10;
	fx_start(&x, RB_ROLE_SERVER, 2000);
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	x.f->peer_sends = 300;
	late_stop(&x, &l, 300, 300);
	t0 = rb_now_ns();
	assert_int_equal(rb_run_server_recv(&x.r), 0);
	assert_true(ms_since(t0) >= 300);
	expect_eq(x.r.ops, 290);
	assert_true(l.stop_ns > 0);
	if (x.r.t1 >= l.stop_ns)
		fail_msg("the interval ends %.1f ms after the STOP came: it ends at the STOP",
			 (double)(x.r.t1 - l.stop_ns) / 1e6);
	if (x.r.cpu1 - x.r.cpu0 > x.r.t1 - x.r.t0 + 1000000)
		fail_msg("%.1f ms of CPU in an interval of %.1f ms: counted to the STOP",
			 (double)(x.r.cpu1 - x.r.cpu0) / 1e6, (double)(x.r.t1 - x.r.t0) / 1e6);
	assert_int_equal(x.r.bench->result(&x.r, &res), 0);
	assert_true(res.has_bw && res.duration_s * 1e9 < (double)(l.stop_ns - x.r.t0));
	assert_float_equal(res.msg_rate_mpps * res.duration_s * 1e6, 290, 290e-6);
	fx_end(&x);
}

/*
 * UD: every message of the warm-up lost, or none after it arrived.  The
 * point measured nothing: no duration (it was the host's uptime, t0 never
 * set), no rate, no CPU figure, and the JSON says so.
 */
static void server_recv_nothing_measured(void **state)
{
	static const uint64_t arrive[] = { 5, 10 };
	struct rb_result res;
	struct fx x;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		fx_plan(&x, "send_bw");
		x.p.transport = RB_TR_UD;
		rb_axis_set1(&x.p.size, 1024);
		fx_shape(&x, 1, 1, 64, 128);
		x.p.rx_depth = 16;
		x.p.warmup = 10;
		fx_start(&x, RB_ROLE_SERVER, 5000);
		snprintf(ctx, sizeof(ctx), "UD server, %llu of 10 warm-up messages in",
			 (unsigned long long)arrive[i]);
		x.r.c.lossy = true;
		assert_int_equal(x.r.bench->setup(&x.r), 0);
		x.f->peer_sends = arrive[i];
		peer_sync(&x, 0, RB_SYNC_STOP, 300);
		assert_int_equal(rb_run_server_recv(&x.r), 0);
		expect_eq(x.r.total, arrive[i]);
		expect_eq(x.r.ops, 0);
		assert_int_equal(x.r.bench->result(&x.r, &res), 0);
		if (!isnan(res.duration_s))
			fail_msg("%s: duration_s %g", ctx, res.duration_s);
		assert_true(res.nothing_measured);
		assert_false(res.has_cpu);
		assert_false(res.has_bw);
		j = rb_json_result(&res);
		assert_non_null(j);
		assert_true(json_is_true(json_object_get(j, "nothing_measured")));
		assert_true(json_is_null(json_object_get(j, "duration_s")));
		assert_null(json_object_get(j, "cpu_util_pct"));
		assert_null(json_object_get(j, "bw_avg_gbps"));
		json_decref(j);
		fx_end(&x);
	}
}

/* ---- -b: both sides stream ------------------------------------------- */

/* The count of the STOP this side sent on the control channel (heartbeats skipped). */
static uint64_t sent_stop(struct fx *x)
{
	struct rb_msg_sync m = { 0 };
	uint8_t b[64];
	uint32_t len;

	do {
		assert_int_equal(rb_oob_expect(&x->peer, RB_MSG_SYNC, b, sizeof(b), &len), 0);
		assert_int_equal(rb_unpack_sync(b, len, &m), 0);
	} while (m.what == RB_SYNC_ALIVE);
	assert_int_equal(m.what, RB_SYNC_STOP);
	return m.count;
}

/* A bidirectional point of @test on @role, each QP looped back to itself. */
static void fx_bidir(struct fx *x, const char *test, enum rb_role role, unsigned int timeout_ms)
{
	fx_plan(x, test);
	fx_shape(x, 2, 3, 4, 32);
	rb_axis_set1(&x->p.size, 1024); /* the fake carries SENDs of up to 8 KiB */
	x->p.iters = 100;
	x->p.warmup = 5;
	x->p.verify = 1;
	x->p.bidir = 1;
	if (x->p.rx_depth)
		x->p.rx_depth = 64;
	fx_start(x, role, timeout_ms);
	x->r.bidir = true; /* as rb_point_begin() sets it */
	x->f->loopback = true;
	if (x->r.bench->setup)
		assert_int_equal(x->r.bench->setup(&x->r), 0);
	assert_int_equal(x->r.bench->prepare(&x->r), 0);
}

/*
 * send_bw -b: this side's SENDs come back as the "peer's"; each is counted
 * and verified, the STOP goes out with this side's count, and the loop
 * ends once the peer's STOP and all of its messages are in.
 */
static void bidir_send_both_ways(void **state)
{
	struct fx x;

	(void)state;
	fx_bidir(&x, "send_bw", RB_ROLE_CLIENT, 2000);
	peer_sync(&x, 0, RB_SYNC_STOP, 105);
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	assert_true(x.r.stop_sent);
	assert_true(x.r.stopped);
	assert_int_equal(x.r.total, 105);
	assert_int_equal(x.r.ops, 100);
	assert_int_equal(x.r.rx_count, 105);
	assert_int_equal(x.f->rnr, 0);
	assert_null(x.r.on_recv); /* not left for the next point */
	assert_int_equal(sent_stop(&x), 105);
	fx_end(&x);
}

/* A peer that counted more SENDs than arrive: a timeout naming them, no hang. */
static void bidir_send_missing_times_out(void **state)
{
	uint64_t t0 = rb_now_ns();
	struct fx x;

	(void)state;
	fx_bidir(&x, "send_bw", RB_ROLE_SERVER, 300);
	peer_sync(&x, 0, RB_SYNC_STOP, 200);
	assert_int_equal(x.r.bench->run(&x.r), -ETIMEDOUT);
	assert_true(ms_since(t0) < 2000);
	assert_has(rb_last_error, "the peer's SENDs");
	assert_int_equal(x.r.rx_count, 105);
	fx_end(&x);
}

/*
 * send_bw -b over UC: one of the peer's SENDs is lost.  The wait for the
 * rest ends after the one-way server's grace for losses, not after the
 * --timeout blaming the peer, and says what was lost.
 */
static void bidir_send_lossy(void **state)
{
	char err[4096];
	uint64_t t0;
	struct fx x;
	int ret;

	(void)state;
	fx_bidir(&x, "send_bw", RB_ROLE_SERVER, 5000);
	x.p.transport = RB_TR_UC;
	x.r.c.lossy = true; /* as open_resources() sets it */
	x.f->drop_nth = 50;
	peer_sync(&x, 0, RB_SYNC_STOP, 105);
	t0 = rb_now_ns();
	stderr_begin();
	ret = x.r.bench->run(&x.r);
	stderr_end(err, sizeof(err));
	assert_int_equal(ret, 0);
	assert_true(ms_since(t0) >= 200 && ms_since(t0) < 2000);
	expect_eq(x.f->dropped, 1);
	expect_eq(x.r.rx_count, 104);
	expect_eq(x.r.verify.status, 0);
	assert_has(err, "send_bw point 0: 1 of 105 messages lost: over UC");
	assert_int_equal(sent_stop(&x), 105);
	fx_end(&x);
}

/*
 * write_bw -b on the server: it streams too, then waits for the client's
 * STOP and checks what landed in its buffer; a client that never sends
 * its STOP ends the point after the timeout, naming it.
 */
static void bidir_write_server(void **state)
{
	uint64_t t0;
	struct fx x;

	(void)state;
	fx_bidir(&x, "write_bw", RB_ROLE_SERVER, 2000);
	peer_sync(&x, 0, RB_SYNC_STOP, 105);
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	assert_int_equal(x.r.ops, 100);
	assert_int_equal(x.r.stop_count, 105);
	assert_int_equal(x.r.verify.status, 0);
	assert_int_equal(sent_stop(&x), 105);
	fx_end(&x);

	fx_bidir(&x, "write_bw", RB_ROLE_SERVER, 300);
	t0 = rb_now_ns();
	assert_int_equal(x.r.bench->run(&x.r), -ETIMEDOUT);
	assert_true(ms_since(t0) >= 300 && ms_since(t0) < 2000);
	assert_has(rb_last_error, "client fake-peer:1 sent nothing for 0.3 s");
	fx_end(&x);
}

/* read_bw -b: each side is read from, so each fills its tx; bad bytes are named. */
static void bidir_read_verifies(void **state)
{
	struct fx x;

	(void)state;
	fx_bidir(&x, "read_bw", RB_ROLE_CLIENT, 2000);
	peer_sync(&x, 0, RB_SYNC_STOP, 105);
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	assert_int_equal(x.r.verify.status, 0);
	assert_int_equal(sent_stop(&x), 105);
	fx_end(&x);

	fx_bidir(&x, "read_bw", RB_ROLE_SERVER, 2000);
	peer_sync(&x, 0, RB_SYNC_STOP, 105);
	rb_hook_bad_verify = true;
	assert_int_equal(x.r.bench->run(&x.r), 0);
	rb_hook_bad_verify = false;
	assert_int_equal(x.r.verify.status, -EILSEQ);
	assert_has(rb_last_error, "verify: read_bw size");
	fx_end(&x);
}

/* -D with -b: each side streams its own duration, then waits for the peer. */
static void bidir_duration_ends(void **state)
{
	uint64_t t0 = rb_now_ns();
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	x.p.iters = 0;
	x.p.duration_s = 1;
	x.p.bidir = 1;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.r.bidir = true;
	x.f->loopback = true;
	peer_sync(&x, 0, RB_SYNC_ALIVE, 0);
	peer_sync(&x, 0, RB_SYNC_STOP, 12345);
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	assert_true(ms_since(t0) >= 1000 && ms_since(t0) < 3000);
	assert_int_equal(x.r.stop_count, 12345);
	assert_int_equal(sent_stop(&x), x.r.total);
	fx_end(&x);
}

/* A gate on ticks: due at its deadline, and when the reading is far behind. */
static void ticks_due_backwards(void **state)
{
	(void)state;
	assert_false(rb_ticks_due(999, 1000, 100));
	assert_false(rb_ticks_due(900, 1000, 100));
	assert_true(rb_ticks_due(1000, 1000, 100));
	assert_true(rb_ticks_due(5000, 1000, 100));
	/* Moved to a CPU whose TSC reads behind: more than a period back. */
	assert_true(rb_ticks_due(899, 1000, 100));
	assert_true(rb_ticks_due(0, 1000, 100));
	assert_false(rb_ticks_due(UINT64_MAX - 50, UINT64_MAX, 100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ticks_due_backwards),
		cmocka_unit_test(server_wait_stop),
		cmocka_unit_test(fake_ctl_drives),
		cmocka_unit_test(heartbeat_refreshes_progress),
		cmocka_unit_test(server_barrier_hears_alive),
		cmocka_unit_test(server_wait_frozen),
		cmocka_unit_test(server_recv_counts),
		cmocka_unit_test(server_recv_lossy),
		cmocka_unit_test(server_recv_ends_at_last),
		cmocka_unit_test(server_recv_nothing_measured),
		cmocka_unit_test(bidir_send_both_ways),
		cmocka_unit_test(bidir_send_missing_times_out),
		cmocka_unit_test(bidir_send_lossy),
		cmocka_unit_test(bidir_write_server),
		cmocka_unit_test(bidir_read_verifies),
		cmocka_unit_test(bidir_duration_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
