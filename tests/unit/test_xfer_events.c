// SPDX-License-Identifier: MIT
/*
 * Unit tests of the data path on the fake provider: --poll event (the
 * loops sleeping on the CQ's completion channel, the fake's pipe: the
 * arm-then-poll race, lost notifications, acks in batches, ^C and a
 * cancel while asleep) and --cq-per-qp.
 */
#include "xfer_fx.h"

/* ---- --poll event ------------------------------------------------------ */

/* The plan with --poll event, and the fake's completion channel on the run. */
static void fx_events(struct fx *x, enum rb_role role, unsigned int timeout_ms)
{
	rb_axis_set1(&x->p.poll, RB_POLL_EVENT);
	fx_start(x, role, timeout_ms);
	fake_events(x->f, &x->r);
}

/*
 * Nothing completes and no notification comes, at a timeout of 0.3 s
 * (fx_events(..., 300)): the stream's wait ends at the timeout, no sooner,
 * naming the channel.
 */
static void stream_stuck_times_out(struct fx *x)
{
	uint64_t t0;

	x->f->stuck = true;
	x->f->notify_lost = true;
	t0 = rb_now_ns();
	assert_int_equal(rb_run_stream(&x->r), -ETIMEDOUT);
	assert_true(ms_since(t0) >= 300);
	assert_true(ms_since(t0) < 1300);
	assert_has(rb_last_error, "--poll event: no completion event came");
}

/* read_lat -n 10 asleep on the channel at a 10 s timeout, nothing completing: only a signal or a cancel ends it. */
static void read_lat_stuck(struct fx *x)
{
	fx_plan(x, "read_lat");
	x->p.iters = 10;
	fx_events(x, RB_ROLE_CLIENT, 10000);
	x->f->stuck = true;
}

/* Every event taken went through ibv_get_cq_event(); acks in whole batches until the end. */
static void check_events(struct fx *x)
{
	assert_int_equal(x->r.ev.events, x->f->cq_event_calls);
	assert_true(x->r.ev.events <= x->f->events_written);
	assert_true(x->r.ev.unacked < RB_EVENT_ACK_BATCH);
	assert_int_equal(x->f->cq.comp_events_completed % RB_EVENT_ACK_BATCH, 0);
	assert_int_equal(x->f->cq.comp_events_completed + x->r.ev.unacked, x->r.ev.events);
	rb_events_ack(&x->r);
	assert_int_equal(x->f->cq.comp_events_completed, x->r.ev.events);
	assert_int_equal(x->r.ev.unacked, 0);
}

/* send_lat's ping-pong sleeping on the channel: the counts of the busy run. */
static void events_pingpong(void **state)
{
	struct rb_result res;
	struct fx x;

	(void)state;
	fx_send_lat_plan(&x);
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	rb_rx_plan(&x.r);
	fx_send_lat_loopback(&x);
	assert_int_equal(x.r.rx_count, 210);
	assert_int_equal(x.r.ops, 200);
	assert_int_equal(x.r.lat.n, 200);
	assert_int_equal(x.f->rnr, 0);
	assert_true(x.f->arms > 0);
	assert_true(x.r.ev.events > 0);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	assert_true(res.has_wakeups);
	assert_true(res.wakeups > 0 && res.wakeups <= x.r.ev.events);
	assert_true(res.wakeups_per_msg == (double)res.wakeups / 200);
	check_events(&x);
	fx_end(&x);
}

/* A stream and read_lat's plain one-at-a-time loop, sleeping: every WR covered. */
static void events_stream_and_oneshot(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 2, 2, 2, 4);
	x.p.iters = 2000;
	x.p.warmup = 10;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 3;
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	assert_int_equal(x.r.ops, 2000);
	assert_int_equal(x.f->nwrs, 2010);
	/* Enough events for acks in batches, and some left for the end. */
	assert_true(x.r.ev.events > RB_EVENT_ACK_BATCH);
	check_events(&x);
	fx_end(&x);

	fx_plan(&x, "read_lat");
	x.p.iters = 40;
	x.p.warmup = 3;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 3;
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	assert_int_equal(x.f->retired, 43);
	assert_int_equal(x.r.ops, 40);
	/* An event an operation, taken at the next wait: the last one's left. */
	assert_int_equal(x.r.ev.events, 42);
	check_events(&x);
	fx_end(&x);
}

/*
 * write_bw --reversed --poll event (issue 37 item 3): the server streams
 * and sleeps on its channel; its wake-ups go in its RESULT (v15) and
 * become the point's, per message of its count, in place of the
 * receiving client's (0: it never polls).
 */
static void events_reversed_senders_wakeups(void **state)
{
	struct rb_msg_result m = { 0 }, back;
	struct rb_result sent, res;
	uint8_t buf[512];
	struct fx x;
	int len;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 1, 2, 2, 4);
	x.p.iters = 500;
	x.p.warmup = 0;
	x.p.reversed = 1;
	fx_events(&x, RB_ROLE_CLIENT, 2000); /* the data role of a reversed server */
	x.f->delay = 3;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(rb_result_generic(&x.r, &sent), 0);
	assert_true(sent.has_wakeups && sent.wakeups > 0);
	rb_result_msg(&sent, &m);
	len = rb_pack_result(&m, buf, sizeof(buf));
	assert_true(len > 0);
	assert_int_equal(rb_unpack_result(buf, (size_t)len, &back), 0);
	/* The receiver's own: a one-sided write's target never polls. */
	res = (struct rb_result){ .has_wakeups = true, .wakeups = 0, .iters = 500 };
	rb_result_sender_wakeups(&res, &back);
	assert_true(res.has_wakeups);
	assert_int_equal(res.wakeups, sent.wakeups);
	assert_true(res.wakeups_per_msg == (double)sent.wakeups / 500.0);
	/* A count the client rejected (0): no figure, not the receiver's. */
	back.iters = 0;
	rb_result_sender_wakeups(&res, &back);
	assert_false(res.has_wakeups);
	rb_result_free(&sent);
	fx_end(&x);
}

static void check_cq_events(struct fx *x, bool spread);
static void check_cqs_polled(const struct fx *x);

/*
 * send_bw's server counting the peer's SENDs between sleeps, over 3 QPs;
 * with @cqqp a CQ per QP, each QP's receives reposted.  One SEND a poll:
 * with a CQ per QP it never sleeps, but each CQ is armed on its way.
 */
static void server_recv_run(bool cqqp)
{
	struct fx x;

	fx_plan(&x, "send_bw");
	fx_shape(&x, 3, 1, 64, 128);
	x.p.rx_depth = 16;
	x.p.cq_per_qp = cqqp;
	fx_events(&x, RB_ROLE_SERVER, 2000);
	if (cqqp)
		fake_cq_per_qp(x.f, &x.r);
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	x.f->peer_sends = 300;
	x.f->delay = 0;
	peer_sync(&x, 0, RB_SYNC_STOP, 300);
	assert_int_equal(rb_run_server_recv(&x.r), 0);
	assert_int_equal(x.r.total, 300);
	assert_int_equal(x.f->peer_sends, 0);
	if (cqqp) {
		check_cqs_polled(&x);
		assert_true(x.f->arms >= 3);
		check_cq_events(&x, false);
	} else {
		check_events(&x);
	}
	fx_end(&x);
}

static void events_server_recv(void **state)
{
	(void)state;
	server_recv_run(false);
}

/*
 * A write_bw stream of 1200 WRs over @qps QPs, polls @delay apart, what
 * lands at an arm landing just before it; with @cqqp a CQ per QP.
 */
static void race_run(uint32_t qps, unsigned int delay, bool cqqp)
{
	uint64_t t0;
	struct fx x;

	fx_plan(&x, "write_bw");
	fx_shape(&x, qps, 1, 1, 4);
	x.p.iters = 1200;
	x.p.warmup = 0;
	x.p.cq_per_qp = cqqp;
	fx_events(&x, RB_ROLE_CLIENT, 5000);
	if (cqqp)
		fake_cq_per_qp(x.f, &x.r);
	x.f->delay = delay;
	x.f->land_before_arm = true;
	t0 = rb_now_ns();
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	assert_int_equal(x.r.ops, 1200);
	assert_true(x.f->races >= 100);
	if (ms_since(t0) >= 500)
		fail_msg("%llu ms for %llu races: slept through completions",
			 (unsigned long long)ms_since(t0), (unsigned long long)x.f->races);
	if (cqqp)
		check_cq_events(&x, false);
	else
		check_events(&x);
	fx_end(&x);
}

/*
 * The arm-then-poll race: completions land between the empty poll and
 * the arm, and raise no event; the poll after the arm finds them.  A loop
 * that slept right after arming would lose a slice (RB_EVENT_SLICE_MS)
 * each time: hundreds of them, seconds.
 */
static void events_race_polled_after_arm(void **state)
{
	(void)state;
	race_run(1, 3, false);
}

/*
 * Notifications lost: completions still come (a slice's end polls), and
 * when none comes either the timeout ends the wait, naming it.
 */
static void events_lost_notification(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 1, 1, 1, 4);
	x.p.iters = 10;
	x.p.warmup = 0;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	x.f->delay = 1;
	x.f->notify_lost = true;
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 10);
	assert_int_equal(x.r.ev.events, 0);
	fx_end(&x);

	fx_plan(&x, "write_bw");
	fx_shape(&x, 2, 4, 8, 16);
	x.p.warmup = 100;
	fx_events(&x, RB_ROLE_CLIENT, 300);
	stream_stuck_times_out(&x);
	assert_has(rb_last_error, "no progress for 0.3 s while waiting for completions");
	assert_true(x.f->arms >= 1);
	fx_end(&x);
}

/* ---- --cq-per-qp -------------------------------------------------------- */

/* Every QP's CQ was polled, and what was posted on each completed there. */
static void check_cqs_polled(const struct fx *x)
{
	uint32_t qi;

	assert_int_equal(x->r.cpq.n, x->r.c.nqp);
	for (qi = 0; qi < x->r.c.nqp; qi++)
		if (!x->f->cq_polls[qi])
			fail_msg("%s: CQ %u never polled", ctx, qi);
	assert_int_equal(x->f->cq_n, 0);
}

/*
 * A stream over a CQ per QP, busy: the counts of one CQ, in every shape,
 * and with --wr-lat a sample per signaled WR, whichever CQ reaped it.
 */
static void cqqp_stream_shape(const struct shape *s, bool wr_lat)
{
	struct rb_result res;
	struct fx x;

	fx_plan_shape(&x, s);
	if (wr_lat)
		x.p.warmup = 0;
	x.p.cq_per_qp = 1;
	x.p.wr_lat = wr_lat;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	fake_cq_per_qp(x.f, &x.r);
	assert_int_equal(rb_wrlat_open(&x.r), 0);
	rb_point_queues(&x.r);
	assert_int_equal(x.r.reap_slow, s->qps > 1 || wr_lat);
	snprintf(ctx, sizeof(ctx), "--cq-per-qp%s -q %u -l %u -Q %u -t %u -n %llu, delay %u",
		 wr_lat ? " --wr-lat" : "", s->qps, s->batch, s->signal, s->depth,
		 (unsigned long long)s->iters, s->delay);
	fx_stream_shape(&x, s);
	expect_eq(x.f->nwrs, s->iters + x.p.warmup);
	if (s->iters >= s->qps * s->batch)
		check_cqs_polled(&x);
	memset(&res, 0, sizeof(res));
	assert_int_equal(rb_wrlat_result(&x.r, &res), 0);
	expect_eq(res.wr_lat_n, wr_lat ? x.f->signaled : 0);
	rb_wrlat_close(&x.r);
	fx_end(&x);
}

static void cqqp_stream(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < nshapes; i++) {
		cqqp_stream_shape(&shapes[i], false);
		cqqp_stream_shape(&shapes[i], true);
	}
}

/*
 * Every event taken came from one of the QPs' CQs through
 * ibv_get_cq_event() and was acked on it (none left for the teardown);
 * @spread: more than one CQ woke the loop.
 */
static void check_cq_events(struct fx *x, bool spread)
{
	uint64_t acked = 0;
	uint32_t i, woke = 0;

	assert_int_equal(x->r.ev.events, x->f->cq_event_calls);
	assert_true(x->r.ev.events <= x->f->events_written);
	assert_int_equal(x->r.ev.unacked, 0);
	assert_int_equal(x->f->cq.comp_events_completed, 0);
	for (i = 0; i < x->r.cpq.n; i++) {
		acked += x->f->cqs[i].comp_events_completed;
		woke += x->f->cqs[i].comp_events_completed > 0;
	}
	assert_int_equal(acked, x->r.ev.events);
	if (spread && woke < 2)
		fail_msg("%s: events came from %u CQ(s) only", ctx, woke);
	assert_true(x->r.cpq.ready <= x->r.cpq.n);
}

/* write_bw -q 8 --cq-per-qp --poll event: the busy counts, the wake-ups from several CQs. */
static void cqqp_events_stream(void **state)
{
	struct rb_result res;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 8, 2, 2, 4);
	x.p.iters = 2000;
	x.p.warmup = 10;
	x.p.cq_per_qp = 1;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	fake_cq_per_qp(x.f, &x.r);
	assert_non_null(x.r.cpq.state);
	x.f->delay = 40;
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	check_cqs_polled(&x);
	assert_int_equal(x.r.ops, 2000);
	assert_int_equal(x.f->nwrs, 2010);
	assert_true(x.r.ev.events > 8);
	assert_true(x.f->arms >= 8);
	assert_int_equal(rb_result_generic(&x.r, &res), 0);
	assert_true(res.has_wakeups);
	assert_true(res.wakeups > 0 && res.wakeups <= x.r.ev.events);
	check_cq_events(&x, true);
	fx_end(&x);
}

/*
 * The arm-then-poll race on each CQ: what lands before an arm raises no
 * event; the poll of that CQ after its arm must find it, or the loop
 * sleeps a slice for nothing, hundreds of times.
 */
/* One rb_poll_step() of a waiting stream: the completions it saw (0 or more). */
static int step(struct fx *x)
{
	struct rb_idle idle = { 0 };
	uint64_t done = 0;
	int n = rb_poll_step(&x->r, &idle, &done, NULL, "completions");

	assert_true(n >= 0);
	return n;
}

/*
 * The states of 4 CQs step by step: each is armed at its first empty
 * poll and ready at its next, and no sleep comes before all are; an
 * event names its CQ, which is polled next, acked, and armed again once
 * empty, the others untouched.
 */
static void cqqp_events_states(void **state)
{
	struct ibv_wc wc = { .wr_id = 2ULL << 32,
			     .status = IBV_WC_SUCCESS,
			     .opcode = IBV_WC_RDMA_WRITE,
			     .qp_num = FAKE_QPN_BASE + 2 };
	uint32_t i;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 4, 1, 1, 4);
	x.p.cq_per_qp = 1;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	fake_cq_per_qp(x.f, &x.r);
	for (i = 0; i < 8; i++) {
		assert_int_equal(x.r.cpq.ready, i / 2);
		assert_int_equal(x.f->arms, i / 2 + (i & 1));
		assert_int_equal(step(&x), 0);
		assert_int_equal(x.f->cq_polls[i / 2], (i & 1) + 1);
	}
	assert_int_equal(x.r.cpq.ready, 4);
	assert_int_equal(x.r.ev.events, 0);
	fake_push_wc(x.f, &wc); /* CQ 2 is armed: its event is written */
	assert_int_equal(x.f->events_written, 1);
	assert_int_equal(step(&x), 0); /* all ready: sleeps, wakes with CQ 2's event */
	assert_int_equal(x.r.ev.events, 1);
	assert_int_equal(x.f->cqs[2].comp_events_completed, 1);
	assert_int_equal(x.r.cpq.state[2], RB_CQ_IDLE);
	assert_int_equal(x.r.cpq.ready, 3);
	assert_int_equal(step(&x), 1); /* CQ 2 polled next: its completion */
	assert_int_equal(x.f->cq_polls[2], 3);
	assert_int_equal(step(&x), 0); /* CQ 3: empty, ready: CQ 2 is polled next */
	assert_int_equal(step(&x), 0); /* CQ 2 empty: armed again */
	assert_int_equal(x.f->arms, 5);
	assert_int_equal(x.r.cpq.state[2], RB_CQ_ARMED);
	assert_int_equal(x.f->cq_polls[2], 4);
	assert_int_equal(step(&x), 0);
	assert_int_equal(x.r.cpq.ready, 4);
	assert_int_equal(x.f->cq_polls[2], 5);
	assert_int_equal(x.r.ev.events, 1);
	check_cq_events(&x, false);
	fx_end(&x);
}

static void cqqp_events_race(void **state)
{
	(void)state;
	race_run(4, 20, true);
}

static void cqqp_events_server_recv(void **state)
{
	(void)state;
	server_recv_run(true);
}

/*
 * --wr-lat with --poll event and a CQ per QP: a sample per signaled WR;
 * and no event at all (lost): the timeout names the wait.
 */
static void cqqp_events_wr_lat_and_lost(void **state)
{
	struct rb_result res = { 0 };
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 5, 3, 2, 8);
	x.p.iters = 999;
	x.p.warmup = 0;
	x.p.cq_per_qp = 1;
	x.p.wr_lat = 1;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	fake_cq_per_qp(x.f, &x.r);
	assert_int_equal(rb_wrlat_open(&x.r), 0);
	x.f->delay = 30;
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	assert_int_equal(rb_wrlat_result(&x.r, &res), 0);
	expect_eq(res.wr_lat_n, x.f->signaled);
	assert_true(x.r.ev.events > 0);
	check_cq_events(&x, true);
	rb_wrlat_close(&x.r);
	fx_end(&x);

	fx_plan(&x, "write_bw");
	fx_shape(&x, 4, 4, 8, 16);
	x.p.warmup = 100;
	x.p.cq_per_qp = 1;
	fx_events(&x, RB_ROLE_CLIENT, 300);
	fake_cq_per_qp(x.f, &x.r);
	stream_stuck_times_out(&x);
	assert_int_equal(x.r.cpq.ready, 4);
	fx_end(&x);
}

/*
 * Point @i of @x's sweep, as rb_point_begin() puts it: the
 * point's shape, its send queues, its CQs (rb_cqs_point()), the WRs.
 */
static void cqqp_point(struct fx *x, uint32_t i)
{
	uint32_t qi;

	rb_plan_point(&x->p, i, &x->r.pt);
	x->r.point = i;
	for (qi = 0; qi < x->r.c.nqp; qi++)
		x->r.sq[qi].depth = x->r.pt.tx_depth;
	rb_cqs_point(&x->r);
	x->r.reap_slow = x->r.cpq.n > 1;
	x->r.ops = x->r.total = 0;
	x->r.t0 = x->r.t1 = 0;
	assert_int_equal(rb_wrs_prepare(&x->r), 0);
	memset(x->f->cq_polls, 0, sizeof(x->f->cq_polls));
	x->f->arms = 0;
}

/*
 * -q 1,4 --cq-per-qp --poll event (issue 37 item 5): the point with one
 * QP polls and arms its CQ only, the point with four all four; an event
 * of a CQ the point does not poll is taken, not an error.
 */
static void cqqp_sweep_own_cqs(void **state)
{
	char err[128];
	uint32_t c;
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 4, 2, 2, 8);
	assert_int_equal(rb_axis_parse("1,4", false, &x.p.qps, err, sizeof(err)), 0);
	x.p.iters = 600;
	x.p.warmup = 0;
	x.p.cq_per_qp = 1;
	fx_events(&x, RB_ROLE_CLIENT, 2000);
	fake_cq_per_qp(x.f, &x.r);
	x.f->delay = 30;
	cqqp_point(&x, 0);
	assert_int_equal(x.r.pt.qps, 1);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 600);
	assert_true(x.f->cq_polls[0] > 0);
	assert_true(x.f->arms > 0);
	for (c = 1; c < 4; c++) {
		if (x.f->cq_polls[c])
			fail_msg("-q 1 of -q 1,4: CQ %u polled %llu times", c,
				 (unsigned long long)x.f->cq_polls[c]);
		if (x.f->cq_armed[c])
			fail_msg("-q 1 of -q 1,4: CQ %u armed", c);
	}
	assert_true(x.r.cpq.ready <= 1);
	cqqp_point(&x, 1);
	assert_int_equal(x.r.pt.qps, 4);
	assert_int_equal(x.r.cpq.n, 4);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.r.ops, 600);
	check_cqs_polled(&x);
	check_cq_events(&x, true);
	fx_end(&x);
}

static void on_alarm(int sig)
{
	rb_interrupted = sig;
}

/* ^C while asleep on the channel: the wait ends at once, not at the timeout. */
static void events_interrupted_while_sleeping(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { .it_value = { .tv_usec = 100000 } };
	uint64_t t0;
	struct fx x;

	(void)state;
	read_lat_stuck(&x);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	t0 = rb_now_ns();
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	assert_int_equal(x.r.bench->run(&x.r), -EINTR);
	assert_true(ms_since(t0) >= 90);
	if (ms_since(t0) >= 400)
		fail_msg("^C took %llu ms to end the wait", (unsigned long long)ms_since(t0));
	assert_int_equal(rb_interrupted, SIGALRM);
	rb_interrupted = 0;
	assert_int_equal(sigaction(SIGALRM, &old, NULL), 0);
	assert_true(x.f->arms >= 1);
	fx_end(&x);
}

static void *cancel_later(void *arg)
{
	usleep(100000);
	__atomic_store_n((bool *)arg, true, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * --threads: another thread failed while this one sleeps on its channel,
 * and no signal comes to end the sleep: the slice's deadline does.
 */
static void events_canceled_while_sleeping(void **state)
{
	bool cancel = false;
	pthread_t th;
	uint64_t t0;
	struct fx x;

	(void)state;
	read_lat_stuck(&x);
	x.r.threads.cancel = &cancel;
	t0 = rb_now_ns();
	assert_int_equal(pthread_create(&th, NULL, cancel_later, &cancel), 0);
	assert_int_equal(x.r.bench->run(&x.r), -EINTR);
	assert_int_equal(pthread_join(th, NULL), 0);
	if (ms_since(t0) >= 400)
		fail_msg("the cancel took %llu ms to end the wait",
			 (unsigned long long)ms_since(t0));
	fx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_pingpong),
		cmocka_unit_test(events_stream_and_oneshot),
		cmocka_unit_test(events_reversed_senders_wakeups),
		cmocka_unit_test(events_server_recv),
		cmocka_unit_test(events_race_polled_after_arm),
		cmocka_unit_test(events_lost_notification),
		cmocka_unit_test(events_interrupted_while_sleeping),
		cmocka_unit_test(events_canceled_while_sleeping),
		cmocka_unit_test(cqqp_stream),
		cmocka_unit_test(cqqp_events_stream),
		cmocka_unit_test(cqqp_events_states),
		cmocka_unit_test(cqqp_events_race),
		cmocka_unit_test(cqqp_events_server_recv),
		cmocka_unit_test(cqqp_events_wr_lat_and_lost),
		cmocka_unit_test(cqqp_sweep_own_cqs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
