// SPDX-License-Identifier: MIT
/* The data-path tests' fixture (test_xfer_*.c): a plan on the fake provider, its checks. */
#include "xfer_fx.h"

char ctx[160];

void fx_plan(struct fx *x, const char *test)
{
	memset(x, 0, sizeof(*x));
	x->p = fake_plan(test);
}

void fx_shape(struct fx *x, uint32_t qps, uint32_t batch, uint32_t signal, uint32_t depth)
{
	rb_axis_set1(&x->p.qps, qps);
	rb_axis_set1(&x->p.batch, batch);
	rb_axis_set1(&x->p.signal, signal);
	rb_axis_set1(&x->p.tx_depth, depth);
}

void fx_start(struct fx *x, enum rb_role role, unsigned int timeout_ms)
{
	const struct rb_bench *t = rb_bench_find(x->p.test);
	char err[256];
	int sv[2];

	if (rb_plan_validate(&x->p, 0, err, sizeof(err)))
		fail_msg("the test's plan is invalid: %s", err);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	x->f = fake_new((uint32_t)rb_axis_max(&x->p.qps), (uint32_t)rb_axis_max(&x->p.tx_depth));
	fake_run_init(x->f, &x->r, t, role, &x->p, &x->oob, sv[0], timeout_ms);
	snprintf(ctx, sizeof(ctx), "%s", x->p.test);
	x->peer.fd = sv[1];
	x->peer.timeout_ms = 1000;
	snprintf(x->peer.peer, sizeof(x->peer.peer), "test");
}

void fx_client(struct fx *x, const char *test, uint32_t qps, uint32_t batch, uint32_t signal,
	       uint32_t depth)
{
	fx_plan(x, test);
	fx_shape(x, qps, batch, signal, depth);
	fx_start(x, RB_ROLE_CLIENT, 1000);
}

void fx_plan_shape(struct fx *x, const struct shape *s)
{
	fx_plan(x, "write_bw");
	fx_shape(x, s->qps, s->batch, s->signal, s->depth);
	x->p.iters = s->iters;
	x->p.warmup = s->warmup;
}

void fx_stream_shape(struct fx *x, const struct shape *s)
{
	x->f->delay = s->delay;
	if (rb_run_stream(&x->r))
		fail_msg("%s: %s", ctx, rb_last_error);
	check_covered(x);
	expect_eq(x->r.ops, s->iters);
}

void fx_send_lat_plan(struct fx *x)
{
	fx_plan(x, "send_lat");
	rb_axis_set1(&x->p.tx_depth, 4);
	x->p.rx_depth = 8;
	x->p.iters = 200;
	x->p.warmup = 10;
}

void fx_send_lat_loopback(struct fx *x)
{
	x->f->loopback = true;
	x->f->delay = 6; /* completions lag: the queue fills, posts wait for room */
	assert_int_equal(x->r.bench->setup(&x->r), 0);
	assert_int_equal(x->r.bench->prepare(&x->r), 0);
	assert_int_equal(x->r.bench->run(&x->r), 0);
	check_covered(x);
	assert_int_equal(x->f->nwrs, 210);
}

void fx_end(struct fx *x)
{
	fake_run_free(&x->r);
	fake_free(x->f);
	rb_oob_close(&x->oob);
	rb_oob_close(&x->peer);
}

void peer_sync(struct fx *x, uint32_t point, uint32_t what, uint64_t count)
{
	struct rb_msg_sync m = { .point = point, .what = what, .count = count };
	uint8_t b[64];
	int n = rb_pack_sync(&m, b, sizeof(b));

	assert_true(n > 0);
	assert_int_equal(rb_oob_send(&x->peer, RB_MSG_SYNC, b, (uint32_t)n), 0);
}

uint64_t ms_since(uint64_t t0)
{
	return (rb_now_ns() - t0) / 1000000ULL;
}

static int late_ctl_poll(struct rb_ctl *c, uint32_t point, int wait_ms, uint64_t *count)
{
	struct late_ctl *l = c->priv;
	uint64_t now = rb_now_ns();

	assert_int_equal(point, 0);
	if (now < l->at_ns) {
		if (wait_ms)
			usleep((useconds_t)(l->at_ns - now < (uint64_t)wait_ms * 1000000ULL
						    ? (l->at_ns - now) / 1000
						    : (uint64_t)wait_ms * 1000));
		return RB_CTL_NOTHING;
	}
	*count = l->count;
	if (!l->stop_ns)
		l->stop_ns = now;
	return RB_CTL_STOP;
}

static int late_ctl_alive(struct rb_ctl *c, uint32_t point)
{
	return 0;
}

static const struct rb_ctl_ops late_ctl_ops = { .poll = late_ctl_poll, .alive = late_ctl_alive };

void late_stop(struct fx *x, struct late_ctl *l, uint64_t ms, uint64_t count)
{
	*l = (struct late_ctl){ .at_ns = rb_now_ns() + ms * 1000000ULL, .count = count };
	l->ctl = (struct rb_ctl){
		.ops = &late_ctl_ops, .role = x->r.role, .peer = "late-ctl", .priv = l
	};
	x->r.ctl = &l->ctl;
}

static int saved_stderr = -1;

static FILE *err_file;

void stderr_begin(void)
{
	err_file = tmpfile();
	assert_non_null(err_file);
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	assert_true(saved_stderr >= 0);
	assert_true(dup2(fileno(err_file), STDERR_FILENO) >= 0);
}

void stderr_end(char *buf, size_t len)
{
	size_t n;

	fflush(stderr);
	assert_true(dup2(saved_stderr, STDERR_FILENO) >= 0);
	close(saved_stderr);
	rewind(err_file);
	n = fread(buf, 1, len - 1, err_file);
	buf[n] = 0;
	fclose(err_file);
	fputs(buf, stderr);
}

void check_covered(const struct fx *x)
{
	uint32_t qi;

	if (x->f->wr_id_errors)
		fail_msg("%s: %llu wr_id errors, the first: %s", ctx,
			 (unsigned long long)x->f->wr_id_errors, x->f->first_wr_id_error);
	for (qi = 0; qi < x->r.c.nqp; qi++) {
		if (x->f->max_unsig_run[qi] >= x->r.pt.signal)
			fail_msg("%s: QP %u had %u unsignaled WRs in a row (signal %u)", ctx, qi,
				 x->f->max_unsig_run[qi], x->r.pt.signal);
		if (x->f->since_signal[qi])
			fail_msg("%s: QP %u ends with %u WRs no completion covers", ctx, qi,
				 x->f->since_signal[qi]);
		expect_eq(x->r.sq[qi].used, 0);
		expect_eq(x->r.sq[qi].unsig, 0);
		expect_eq(x->f->in_flight[qi], 0);
		/* A stream's count of each QP's WRs (qp_wrs), against the fake's. */
		if (x->r.bench->mode == RB_MODE_BW)
			expect_eq(x->r.sq_done[qi], x->f->retired_qp[qi]);
	}
	expect_eq(x->f->covered, x->f->nwrs);
	expect_eq(x->f->retired, x->f->nwrs);
	expect_eq(x->f->overflows, 0);
}

const struct shape shapes[] = {
	{ 1, 1, 1, 1, 10, 0, 0 },     { 3, 7, 5, 32, 1000, 13, 0 },   { 3, 7, 5, 32, 1000, 13, 3 },
	{ 4, 16, 16, 64, 997, 0, 5 }, { 2, 1, 1, 8, 101, 3, 1 },      { 5, 10, 3, 10, 1234, 7, 2 },
	{ 1, 32, 32, 32, 33, 1, 0 },  { 6, 9, 64, 64, 50, 5, 4 },     { 8, 13, 11, 40, 5, 0, 0 },
	{ 64, 4, 3, 8, 999, 11, 1 },  { 2, 100, 7, 100, 1001, 0, 9 }, { 3, 2, 64, 64, 7, 2, 0 },
};
const size_t nshapes = sizeof(shapes) / sizeof(shapes[0]);
