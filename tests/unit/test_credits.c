// SPDX-License-Identifier: MIT
/*
 * Send credits (issue 45) on the fake provider with iWARP's rule (no RNR
 * retry: a SEND that finds no receive posted fails the QP, as siw's
 * "local QP operation error"): the plan's part (when credits apply, what
 * they refuse, the credit words' block), the sender held to the
 * receiver's posted receives, and the receiver's announces.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "xfer_fx.h"
#include "core/bench.h"
#include "core/sweep.h"
#include "engine/loop.h"
#include "wire/plan.h"
#include "wire/wire.h"

/*
 * A run on the fake (xfer_fx.h) with iWARP's rule, loopback if @loopback:
 * each QP's SENDs land in its own receives.
 */
static void credits_start(struct fx *x, enum rb_role role, bool loopback)
{
	fx_start(x, role, 2000);
	x->f->loopback = loopback;
	x->f->no_rnr = true;
	/* What rb_run_conn() does once a connection. */
	assert_int_equal(rb_credit_open(&x->r), 0);
	assert_int_equal(x->r.cr != NULL, x->p.credits);
}

static void credits_end(struct fx *x)
{
	rb_credit_close(&x->r);
	fx_end(x);
}

/* send_bw of @n 64-byte SENDs on @qps QPs, chains of @batch, -r @rx, -t @tx, every WR signaled. */
static void plan(struct fx *x, uint32_t qps, uint32_t batch, uint32_t rx, uint32_t tx, uint64_t n)
{
	memset(x, 0, sizeof(*x));
	x->p = fake_plan("send_bw");
	rb_axis_set1(&x->p.qps, qps);
	rb_axis_set1(&x->p.batch, batch);
	rb_axis_set1(&x->p.signal, 1);
	rb_axis_set1(&x->p.tx_depth, tx);
	rb_axis_set1(&x->p.size, 64);
	x->p.rx_depth = rx;
	x->p.iters = n;
	x->p.warmup = 0;
}

/*
 * Loopback: this run is also its own receiver; a receive reposts and
 * counts for the credits, as the server's loop does (stream.c).
 */
static int loop_recv(struct rb_run *r, uint32_t qi)
{
	int ret = rb_refill_recv(r, qi, UINT64_MAX);

	return ret ? ret : r->cr ? rb_credit_received(r, qi) : 0;
}

static uint64_t sends_logged(const struct fake *f, uint32_t qi)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < f->nwrs && i < FAKE_LOG_MAX; i++)
		n += f->wrs[i].qi == qi && f->wrs[i].opcode == IBV_WR_SEND;
	return n;
}

/*
 * The personality itself, and the bug: without credits a stream of
 * chains deeper than -r overruns the receives (the 5th SEND of a chain of
 * 16 finds none) and the run fails, as send_bw -d siw0 did in the lab.
 */
static void stream_without_credits_breaks(void **state)
{
	struct fx x;

	(void)state;
	plan(&x, 1, 16, 4, 64, 2000);
	credits_start(&x, RB_ROLE_CLIENT, true);
	x.r.on_recv = loop_recv;
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(rb_run_stream(&x.r), -EIO);
	assert_true(x.f->no_recv > 0);
	credits_end(&x);
}

/*
 * With credits: every SEND finds a receive (the fake's own count, no
 * failed SEND), all 2000 of every QP go, in chains the credits cut, and
 * the receiver's announces are WRITEs of 8 bytes into the credit word of
 * the QP, each a count the fake saw posted.
 */
static void stream_held_to_receives(uint32_t qps, uint32_t batch, uint32_t rx)
{
	const uint64_t n = 2000;
	uint64_t writes = 0, sum, last[4] = { 0 };
	struct fx x;
	uint32_t qi;
	size_t i;

	plan(&x, qps, batch, rx, 64, n);
	x.p.credits = 1;
	credits_start(&x, RB_ROLE_CLIENT, true);
	x.r.on_recv = loop_recv;
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(rb_credit_start(&x.r), 0);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_int_equal(x.f->no_recv, 0);
	assert_int_equal(x.f->access_errors, 0);
	assert_int_equal(x.f->wr_id_errors, 0);
	assert_int_equal(x.f->loop_sends, n);
	/* Chains the credits cut short shift the round robin: the QPs' shares
	 * may differ, each the fake's own count. */
	for (qi = 0, sum = 0; qi < qps; qi++) {
		assert_int_equal(x.r.cr->q[qi].sent, sends_logged(x.f, qi));
		sum += x.r.cr->q[qi].sent;
	}
	assert_int_equal(sum, n);
	for (i = 0; i < x.f->nwrs; i++) {
		const struct fake_wr *w = &x.f->wrs[i];
		uint64_t word = (uintptr_t)rb_rx_of(&x.r, w->qi) + x.r.c.region - 64 + 8 * w->qi;

		if (w->opcode != IBV_WR_RDMA_WRITE)
			continue;
		writes++;
		assert_int_equal(w->length, 8);
		assert_int_equal(w->remote_addr, word);
		assert_int_equal(w->rkey, FAKE_RKEY);
		assert_true(w->flags & IBV_SEND_SIGNALED);
		last[w->qi] = w->remote_addr;
	}
	/* At least one announce per -r's worth of SENDs per QP. */
	assert_true(writes >= n / rx);
	for (qi = 0; qi < qps; qi++) {
		uint64_t told = *(const uint64_t *)(uintptr_t)(last[qi]);

		assert_true(last[qi] != 0);
		/* The last count the receiver told: what it had posted. */
		assert_int_equal(told, x.r.cr->q[qi].announced);
		assert_true(told >= x.r.cr->q[qi].sent && told <= x.r.cr->q[qi].sent + rx);
	}
	credits_end(&x);
}

static void stream_credits_one_qp(void **state)
{
	(void)state;
	stream_held_to_receives(1, 16, 4);
}

static void stream_credits_qps(void **state)
{
	(void)state;
	stream_held_to_receives(4, 8, 6);
}

/*
 * The receiver's loop (send_bw's server): it announces at its start and
 * as receives come; each announce is the count of receives posted.
 */
static void server_announces(void **state)
{
	struct rb_msg_sync m = { .point = 0, .what = RB_SYNC_STOP, .count = 300 };
	const uint32_t rx = 16;
	uint64_t writes = 0, prev = 0;
	uint8_t b[64];
	struct fx x;
	size_t i;
	int n;

	(void)state;
	plan(&x, 1, 1, rx, 64, 300);
	x.p.credits = 1;
	credits_start(&x, RB_ROLE_SERVER, false);
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	x.f->peer_sends = 300;
	n = rb_pack_sync(&m, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(rb_oob_send(&x.peer, RB_MSG_SYNC, b, (uint32_t)n), 0);
	assert_int_equal(rb_run_server_recv(&x.r), 0);
	assert_int_equal(x.r.total, 300);
	for (i = 0; i < x.f->nwrs; i++) {
		const struct fake_wr *w = &x.f->wrs[i];

		assert_int_equal(w->opcode, IBV_WR_RDMA_WRITE);
		assert_int_equal(w->remote_addr, x.r.c.remote.addr + x.r.c.region - 64);
		assert_int_equal(w->addr, (uintptr_t)rb_tx_of(&x.r, 0) + x.r.c.region - 64);
		writes++;
	}
	/* The first announce at the start (rx posted), then one at least each rx/4. */
	assert_true(writes >= 1 + 300 / rx);
	prev = *(const uint64_t *)(rb_tx_of(&x.r, 0) + x.r.c.region - 64);
	assert_int_equal(prev, x.r.cr->q[0].announced);
	assert_int_equal(x.r.cr->q[0].recvd, 300);
	assert_int_equal(prev, 300 + x.r.sq[0].posted_recv);
	credits_end(&x);
}

/* The plan: where credits apply, the words' block, and what they refuse. */
static void plan_credits(void **state)
{
	struct rb_params p = fake_plan("send_bw");
	char err[256];

	(void)state;
	rb_axis_set1(&p.qps, 3);
	assert_int_equal(rb_plan_credit_block(&p), 0);
	assert_int_equal(rb_plan_credits_need(&p, rb_bench_find("send_bw"), false, "rxe0", "RoCE",
					      err, sizeof(err)),
			 0);
	assert_int_equal(p.credits, 0);
	assert_int_equal(rb_plan_credits_need(&p, rb_bench_find("send_bw"), true, "siw0", "iWARP",
					      err, sizeof(err)),
			 0);
	assert_int_equal(p.credits, 1);
	assert_int_equal(rb_plan_credit_block(&p), 64);
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	/* Latency and one-sided tests stream no SENDs: nothing to hold. */
	p = fake_plan("send_lat");
	assert_int_equal(rb_plan_credits_need(&p, rb_bench_find("send_lat"), true, "siw0", "iWARP",
					      err, sizeof(err)),
			 0);
	assert_int_equal(p.credits, 0);
	p.credits = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "send credits do not apply to send_lat: it streams no SENDs");
	p = fake_plan("send_bw");
	p.bidir = 1;
	assert_int_equal(rb_plan_credits_need(&p, rb_bench_find("send_bw"), true, "siw0", "iWARP",
					      err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "siw0 is iWARP, which has no RNR retry: send_bw's SENDs are held "
				 "to the receiver's posted receives by send credits, which do not "
				 "run with -b/--bidirectional: both sides' SENDs would need "
				 "credits "
				 "each way, which are not built");
	p.credits = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	p = fake_plan("send_bw");
	p.srq = 1;
	p.credits = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "send credits (a transport without RNR retry) do not run with "
				 "--srq: credits count each QP's receives, and an SRQ's serve any "
				 "QP");
	/* 9 QPs: 72 bytes of words, two cache lines. */
	p = fake_plan("send_bw");
	p.credits = 1;
	rb_axis_set1(&p.qps, 9);
	assert_int_equal(rb_plan_credit_block(&p), 128);
}

/* The words travel: a plan with credits packs them, and one without reads none. */
static void plan_credits_wire(void **state)
{
	struct rb_params p = fake_plan("send_bw"), q;
	uint8_t b[8192];
	char err[256];
	int n;

	(void)state;
	p.credits = 1;
	n = rb_pack_params(&p, b, sizeof(b));
	assert_true(n > 0);
	memset(&q, 0, sizeof(q));
	assert_int_equal(rb_unpack_params_why(b, (uint32_t)n, &q, err, sizeof(err)), 0);
	assert_int_equal(q.credits, 1);
	p.credits = 0;
	n = rb_pack_params(&p, b, sizeof(b));
	assert_int_equal(rb_unpack_params_why(b, (uint32_t)n, &q, err, sizeof(err)), 0);
	assert_int_equal(q.credits, 0);
}

/*
 * --reg-mode cache posts its SENDs outside the credit count
 * (regcache_stream.c post_one() never reads a credit): over iWARP it
 * would outrun the receiver, so credits refuse it, as per-msg.
 */
static void plan_credits_reg_cache(void **state)
{
	const struct rb_bench *t = rb_bench_find("send_bw");
	struct rb_params p = fake_plan("send_bw");
	char err[256];

	(void)state;
	rb_axis_set1(&p.batch, 1);
	p.inline_size = 0;
	p.reg_mode = RB_REG_CACHE;
	p.reg_cache = 4;
	p.buffers = 8;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	assert_int_equal(rb_plan_credits_need(&p, t, true, "siw0", "iWARP", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(p.credits, 0);
	assert_non_null(strstr(err, "--reg-mode cache"));
	p.credits = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--reg-mode cache"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stream_without_credits_breaks),
		cmocka_unit_test(stream_credits_one_qp),
		cmocka_unit_test(stream_credits_qps),
		cmocka_unit_test(server_announces),
		cmocka_unit_test(plan_credits),
		cmocka_unit_test(plan_credits_wire),
		cmocka_unit_test(plan_credits_reg_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
