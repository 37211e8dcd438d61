// SPDX-License-Identifier: MIT
/*
 * Unit tests of the data path (src/engine/) on the fake provider (fake_verbs.h):
 * posting and reaping.
 *
 *  - rb_post_chain(): which WRs are signaled, what their wr_id says, the
 *    send-queue bookkeeping, and the template chain left as it was;
 *  - rb_reap(): send completions free room, receives are reposted or
 *    handed over, an error completion names its status and QP;
 *  - --reg-mode per-msg, the remote keys, --post-api wr against post.
 */
#include "fake_mrwrap.h"
#include "xfer_fx.h"

/* ---- rb_post_chain() --------------------------------------------------- */

/* Every signal-th WR of a QP is signaled, counting across chains. */
static void chain_signals_every_nth(void **state)
{
	struct fx x;
	size_t i;

	(void)state;
	fx_client(&x, "write_bw", 1, 8, 3, 64);
	for (i = 0; i < 3; i++)
		assert_int_equal(rb_post_chain(&x.r, 0, 8, i * 8, false), 0);
	assert_int_equal(x.f->nwrs, 24);
	for (i = 0; i < 24; i++) {
		const struct fake_wr *w = &x.f->wrs[i];

		assert_int_equal(SIGNALED(w), (i + 1) % 3 == 0);
		assert_int_equal(w->wr_id, SIGNALED(w) ? 3 : 0);
		assert_int_equal(w->opcode, IBV_WR_RDMA_WRITE);
		assert_int_equal(w->length, x.r.pt.size);
		assert_int_equal(w->chain, i / 8);
	}
	assert_int_equal(x.r.sq[0].used, 24);
	assert_int_equal(x.r.sq[0].unsig, 0);
	/* 25..32: 27 and 30 signaled, 31 and 32 left for later. */
	assert_int_equal(rb_post_chain(&x.r, 0, 8, 24, false), 0);
	assert_true(SIGNALED(&x.f->wrs[26]) && SIGNALED(&x.f->wrs[29]));
	assert_false(SIGNALED(&x.f->wrs[30]) || SIGNALED(&x.f->wrs[31]));
	assert_int_equal(x.r.sq[0].used, 32);
	assert_int_equal(x.r.sq[0].unsig, 2);
	/* A forced single WR covers those two and itself. */
	assert_int_equal(rb_post_chain(&x.r, 0, 1, 32, true), 0);
	assert_true(SIGNALED(&x.f->wrs[32]));
	assert_int_equal(x.f->wrs[32].wr_id, 3);
	assert_int_equal(x.r.sq[0].unsig, 0);
	assert_int_equal(x.r.sq[0].used, 33);
	fx_end(&x);
}

/* With force, the last WR is signaled and covers the chain's tail. */
static void chain_force_signals_last(void **state)
{
	struct fx x;
	size_t i;

	(void)state;
	fx_client(&x, "write_bw", 3, 5, 64, 128);
	assert_int_equal(rb_post_chain(&x.r, 2, 5, 0, true), 0);
	for (i = 0; i < 4; i++)
		assert_false(SIGNALED(&x.f->wrs[i]));
	assert_true(SIGNALED(&x.f->wrs[4]));
	assert_int_equal(x.f->wrs[4].wr_id, 2ULL << 32 | 5);
	assert_int_equal(x.f->wrs[4].qi, 2);
	assert_int_equal(x.r.sq[2].used, 5);
	assert_int_equal(x.r.sq[2].unsig, 0);
	assert_int_equal(x.r.sq[0].used, 0);
	/* Without force and with room, nothing is signaled. */
	assert_int_equal(rb_post_chain(&x.r, 1, 5, 5, false), 0);
	for (i = 5; i < 10; i++)
		assert_false(SIGNALED(&x.f->wrs[i]));
	assert_int_equal(x.r.sq[1].unsig, 5);
	fx_end(&x);
}

/*
 * When the room a chain leaves is less than another chain needs, only a
 * completion can make room: the chain's last WR is signaled even though
 * signal is not reached.
 */
static void chain_forced_when_queue_could_fill(void **state)
{
	struct fx x;
	size_t i;

	(void)state;
	fx_client(&x, "write_bw", 1, 6, 16, 16);
	assert_int_equal(rb_post_chain(&x.r, 0, 6, 0, false), 0); /* 10 left: fine */
	for (i = 0; i < 6; i++)
		assert_false(SIGNALED(&x.f->wrs[i]));
	assert_int_equal(rb_post_chain(&x.r, 0, 6, 6, false), 0); /* 4 left < 6 */
	for (i = 6; i < 11; i++)
		assert_false(SIGNALED(&x.f->wrs[i]));
	assert_true(SIGNALED(&x.f->wrs[11]));
	assert_int_equal(x.f->wrs[11].wr_id, 12);
	assert_int_equal(x.r.sq[0].used, 12);
	assert_int_equal(rb_post_chain(&x.r, 0, 4, 12, false), 0); /* fills it */
	assert_true(SIGNALED(&x.f->wrs[15]));
	assert_int_equal(x.f->wrs[15].wr_id, 4);
	assert_int_equal(x.r.sq[0].used, 16);
	assert_int_equal(x.f->overflows, 0);
	fx_end(&x);
}

/* The templates between posts: every signal-th WR signaled, for QP 0. */
static void check_templates(const struct fx *x)
{
	uint32_t k, signal = x->r.pt.signal;

	for (k = 0; k < x->r.nwr; k++) {
		bool sig = (k + 1) % signal == 0;

		assert_int_equal(!!(x->r.wr[k].send_flags & IBV_SEND_SIGNALED), sig);
		assert_int_equal(x->r.wr[k].wr_id, sig ? signal : 0);
	}
}

/*
 * A chain whose signals differ from the templates' (another QP, a group
 * begun by the last chain, a forced last WR) puts them back: the next
 * common chain, posted as the templates are, signals right.
 */
static void chain_templates_restored(void **state)
{
	struct fx x;
	size_t i;

	(void)state;
	fx_client(&x, "write_bw", 2, 8, 3, 64);
	check_templates(&x);
	assert_int_equal(rb_post_chain(&x.r, 1, 8, 0, true), 0); /* 3, 6 and the forced 8 */
	check_templates(&x);
	assert_int_equal(rb_post_chain(&x.r, 0, 7, 8, false), 0); /* 3 and 6, one left */
	check_templates(&x);
	assert_int_equal(rb_post_chain(&x.r, 0, 8, 15, false), 0); /* 2, 5, 8 of the chain */
	check_templates(&x);
	assert_int_equal(x.f->nwrs, 23);
	for (i = 0; i < 23; i++) {
		const struct fake_wr *w = &x.f->wrs[i];
		bool sig = i < 8    ? (i + 1) % 3 == 0 || i == 7
			   : i < 15 ? (i - 7) % 3 == 0
				    : (i - 13) % 3 == 0;

		assert_int_equal(SIGNALED(w), sig);
		if (sig)
			assert_int_equal(w->wr_id, i == 7  ? 1ULL << 32 | 2
						   : i < 8 ? 1ULL << 32 | 3
							   : 3);
	}
	assert_int_equal(x.r.sq[1].unsig, 0);
	assert_int_equal(x.r.sq[0].unsig, 0);
	fx_end(&x);
}

/* A short chain is cut at its end for the post; the templates stay linked. */
static void chain_next_restored(void **state)
{
	struct fx x;
	uint32_t k;

	(void)state;
	fx_plan(&x, "write_bw");
	rb_axis_set1(&x.p.size, 64);
	x.p.inline_size = 128;
	fx_shape(&x, 1, 8, 8, 64);
	fx_start(&x, RB_ROLE_CLIENT, 1000);
	assert_int_equal(x.r.nwr, 8);
	assert_int_equal(rb_post_chain(&x.r, 0, 3, 0, false), 0);
	assert_int_equal(x.f->nwrs, 3);
	assert_int_equal(x.f->chains, 1);
	for (k = 0; k < 7; k++)
		assert_ptr_equal(x.r.wr[k].next, &x.r.wr[k + 1]);
	assert_null(x.r.wr[7].next);
	assert_int_equal(rb_post_chain(&x.r, 0, 8, 3, false), 0);
	assert_int_equal(x.f->nwrs, 11);
	assert_int_equal(x.f->wrs[10].chain, 1);
	for (k = 0; k < 7; k++)
		assert_ptr_equal(x.r.wr[k].next, &x.r.wr[k + 1]);
	assert_null(x.r.wr[7].next);
	/* 64 bytes with -I 128: inline. */
	assert_true(x.f->wrs[0].flags & IBV_SEND_INLINE);
	fx_end(&x);
}

/* A refused post is an error naming the QP and the chain; no room is taken. */
static void chain_post_failure(void **state)
{
	struct fx x;

	(void)state;
	fx_client(&x, "write_bw", 2, 8, 4, 64);
	x.f->post_send_ret = ENOMEM;
	assert_int_equal(rb_post_chain(&x.r, 1, 4, 0, false), -ENOMEM);
	assert_has(rb_last_error, "fake0 qp 0x101");
	assert_has(rb_last_error, "ibv_post_send of 4 WRs");
	assert_int_equal(x.r.sq[1].used, 0);
	assert_ptr_equal(x.r.wr[3].next, &x.r.wr[4]);
	assert_int_equal(x.f->nwrs, 0);
	fx_end(&x);
}

/* ---- rb_reap() --------------------------------------------------------- */

/* Completions free the room they cover, after the provider's delay. */
static void reap_send_frees_room(void **state)
{
	uint64_t done = 0;
	struct fx x;
	int i;

	(void)state;
	fx_client(&x, "write_bw", 2, 4, 4, 64);
	x.f->delay = 3;
	assert_int_equal(rb_post_chain(&x.r, 0, 4, 0, false), 0);
	assert_int_equal(rb_post_chain(&x.r, 1, 4, 4, false), 0);
	assert_int_equal(rb_post_chain(&x.r, 1, 2, 8, true), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(rb_reap(&x.r, &done, NULL), 0);
	assert_int_equal(x.r.sq[1].used, 6);
	assert_int_equal(rb_reap(&x.r, &done, NULL), 3);
	assert_int_equal(done, 10);
	assert_int_equal(x.r.sq[0].used, 0);
	assert_int_equal(x.r.sq[1].used, 0);
	check_covered(&x);
	fx_end(&x);
}

static uint32_t seen_qi[8];
static unsigned int nseen;

static int keep_recv(struct rb_run *r, uint32_t qi)
{
	if (nseen < 8)
		seen_qi[nseen++] = qi;
	return 0;
}

static int bad_recv(struct rb_run *r, uint32_t qi)
{
	return -EILSEQ;
}

/* --recv_post_list: the receiver reposts that many receives in one chain. */
static void recv_post_list_chains(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 1, 1, 64, 128);
	x.p.rx_depth = 64;
	x.p.recv_post_list = 8;
	fx_start(&x, RB_ROLE_SERVER, 1000);
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(x.r.recv_batch, 8);
	assert_int_equal(x.f->rq_n[0], 64);
	/* 7 receives consumed: nothing reposted; the 8th: one chain of 8 */
	x.r.sq[0].posted_recv -= 7;
	x.f->recv_calls = 0;
	assert_int_equal(rb_refill_recv(&x.r, 0, UINT64_MAX), 0);
	assert_int_equal(x.f->recv_calls, 0);
	x.r.sq[0].posted_recv -= 1;
	x.f->rq_n[0] -= 8;
	assert_int_equal(rb_refill_recv(&x.r, 0, UINT64_MAX), 0);
	assert_int_equal(x.f->recv_calls, 1);
	assert_int_equal(x.r.sq[0].posted_recv, 64);
	fx_end(&x);
	/* Without it: a quarter of -r */
	fx_plan(&x, "send_bw");
	fx_shape(&x, 1, 1, 64, 128);
	x.p.rx_depth = 64;
	fx_start(&x, RB_ROLE_SERVER, 1000);
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(x.r.recv_batch, 16);
	fx_end(&x);
}

/* Receives are told by RB_WRID_RECV: reposted, or handed to on_recv. */
static void reap_recv(void **state)
{
	uint64_t done = 0;
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 2, 1, 64, 128);
	x.p.rx_depth = 4;
	fx_start(&x, RB_ROLE_SERVER, 1000);
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(x.f->rq_n[0], 4);
	assert_int_equal(x.f->rq_n[1], 4);
	assert_int_equal(x.f->rq[1][0].wr_id, RB_WRID_RECV | 1);
	assert_int_equal(x.f->rq[1][0].length, x.r.c.region);
	/* A message on QP 1: its receive comes back and is reposted. */
	x.f->peer_next_qp = 1;
	x.f->peer_sends = 1;
	assert_int_equal(rb_reap(&x.r, &done, NULL), 1);
	assert_int_equal(done, 0);
	assert_int_equal(x.r.sq[1].posted_recv, 4);
	assert_int_equal(x.f->rq_n[1], 4);
	assert_int_equal(x.f->recvs_posted, 9);
	/* With on_recv, the callback decides. */
	nseen = 0;
	x.f->peer_next_qp = 1;
	x.f->peer_sends = 1;
	assert_int_equal(rb_reap(&x.r, &done, keep_recv), 1);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen_qi[0], 1);
	assert_int_equal(x.r.sq[1].posted_recv, 3);
	x.f->peer_next_qp = 0;
	x.f->peer_sends = 1;
	assert_int_equal(rb_reap(&x.r, &done, bad_recv), -EILSEQ);
	assert_int_equal(x.r.sq[0].used, 0);
	fx_end(&x);
}

/*
 * --srq: receives go to the SRQ, never to a QP; a completion names its QP
 * by qp_num, and the repost goes back to the SRQ.  A qp_num of no QP of
 * the run is an error naming it.
 */
static void reap_srq_attributes_by_qp_num(void **state)
{
	struct ibv_wc wc = { .wr_id = RB_WRID_RECV | 0,
			     .status = IBV_WC_SUCCESS,
			     .opcode = IBV_WC_RECV,
			     .qp_num = FAKE_QPN_BASE + 2 };
	uint64_t done = 0;
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 3, 1, 64, 128);
	x.p.rx_depth = 5;
	x.p.srq = 1;
	fx_start(&x, RB_ROLE_SERVER, 1000);
	x.r.c.srq = &x.f->srq;
	rb_point_queues(&x.r);
	assert_true(x.r.reap_slow);
	assert_int_equal(rb_fill_recv_queues(&x.r), 0);
	assert_int_equal(x.f->srq_recvs, 5);
	assert_int_equal(x.r.srq.posted, 5);
	assert_int_equal(x.f->recvs_posted, 0);
	assert_int_equal(x.r.sq[0].posted_recv + x.r.sq[1].posted_recv + x.r.sq[2].posted_recv, 0);
	/* A message on QP 2: handed over as QP 2's, whatever the wr_id says. */
	nseen = 0;
	fake_push_wc(x.f, &wc);
	assert_int_equal(rb_reap(&x.r, &done, keep_recv), 1);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen_qi[0], 2);
	assert_int_equal(x.r.srq.posted, 4);
	/* Without on_recv it is reposted, to the SRQ. */
	wc.qp_num = FAKE_QPN_BASE + 1;
	fake_push_wc(x.f, &wc);
	assert_int_equal(rb_reap(&x.r, &done, NULL), 1);
	assert_int_equal(x.r.srq.posted, 4);
	assert_int_equal(x.f->srq_recvs, 6);
	assert_int_equal(x.f->recvs_posted, 0);
	/* A QP this run does not have. */
	wc.qp_num = 0x999;
	fake_push_wc(x.f, &wc);
	assert_int_equal(rb_reap(&x.r, &done, NULL), -EPROTO);
	assert_has(rb_last_error, "qp 0x999");
	x.r.c.srq = NULL;
	fx_end(&x);
}

/*
 * --mr-per-qp: each QP's WRs carry its own buffer, lkey, and the peer's
 * memory and rkey of the same QP; a loopback write lands in each QP's
 * buffer, which --verify then finds whole.
 */
static void stream_mr_per_qp(void **state)
{
	const struct rb_bench *t = rb_bench_find("write_bw");
	struct fake_wr *w;
	struct fx x;
	uint32_t qi;
	size_t i;

	(void)state;
	fx_plan(&x, "write_bw");
	fx_shape(&x, 4, 3, 4, 32);
	x.p.iters = 50;
	x.p.warmup = 2;
	x.p.verify = 1;
	x.p.mr_per_qp = 1;
	fx_start(&x, RB_ROLE_CLIENT, 1000);
	x.f->loopback = true;
	fake_mr_per_qp(x.f, &x.r);
	assert_int_equal(t->prepare(&x.r), 0);
	assert_int_equal(rb_run_stream(&x.r), 0);
	check_covered(&x);
	assert_true(x.f->nwrs >= 52);
	for (i = 0; i < x.f->nwrs; i++) {
		w = &x.f->wrs[i];
		expect_eq(w->lkey, FAKE_LKEY + w->qi);
		expect_eq(w->addr, (uintptr_t)rb_tx_of(&x.r, w->qi));
		expect_eq(w->rkey, FAKE_RKEY + w->qi);
		expect_eq(w->remote_addr, (uintptr_t)rb_rx_of(&x.r, w->qi));
	}
	expect_eq(rb_buffers_used(&x.r, x.r.total), 4);
	for (qi = 0; qi < 4; qi++)
		assert_int_equal(rb_verify_bytes(&x.r, rb_rx_of(&x.r, qi), x.r.pt.size, qi), 0);
	/* Two chains reach two QPs only: the others' buffers are not checked. */
	expect_eq(rb_buffers_used(&x.r, 2 + 6), 2);
	expect_eq(rb_buffers_used(&x.r, 1), 1);
	expect_eq(rb_buffers_used(&x.r, 0), 0);
	fx_end(&x);
}

/*
 * The fake checks keys and bounds as a NIC does, so a wrong key or
 * address in the post path fails here: @test's loopback stream with the
 * peer's rkey, the peer's address or the local lkey broken by @breaks
 * ends in an error completion of the status a NIC gives (@status), named
 * in the error, and nothing was carried out.
 */
enum key_break { KEYS_RIGHT, KEY_RKEY, KEY_RADDR, KEY_LKEY, KEY_LBOUND };

static void keys_one(const char *test, enum key_break breaks, enum ibv_wc_status status)
{
	const struct rb_bench *t = rb_bench_find(test);
	struct ibv_mr stale;
	char want[64];
	struct fx x;
	int ret;

	fx_plan(&x, test);
	fx_shape(&x, 2, 4, 4, 16);
	x.p.iters = 40;
	x.p.warmup = 0;
	x.p.inline_size = 0; /* inline data names no lkey */
	fx_start(&x, RB_ROLE_CLIENT, 1000);
	x.f->loopback = true;
	if (breaks == KEY_RKEY)
		x.r.c.remote.rkey ^= 0x10;
	if (breaks == KEY_RADDR)
		x.r.c.remote.addr += x.r.c.remote.len; /* just past the peer's MR */
	stale = x.f->mr;
	stale.lkey ^= 0x10; /* an lkey the fake's MR table does not hold */
	if (breaks == KEY_LKEY)
		x.r.c.mr[0] = &stale;
	if (breaks == KEY_LBOUND)
		x.f->mr.length = x.r.c.region; /* the rx region only: tx is outside */
	if (breaks != KEYS_RIGHT) {
		rb_wrs_free(&x.r);
		assert_int_equal(rb_wrs_prepare(&x.r), 0);
	}
	if (t->prepare)
		assert_int_equal(t->prepare(&x.r), 0);
	ret = rb_run_stream(&x.r);
	snprintf(ctx, sizeof(ctx), "%s, break %d", test, (int)breaks);
	if (breaks == KEYS_RIGHT) {
		if (ret)
			fail_msg("%s: %s", ctx, rb_last_error);
		expect_eq(x.f->access_errors, 0);
		fx_end(&x);
		return;
	}
	assert_true(ret < 0);
	assert_true(x.f->access_errors > 0);
	assert_int_equal(x.f->first_access_error, status);
	snprintf(want, sizeof(want), "(status %d,", (int)status);
	assert_has(rb_last_error, want);
	assert_has(rb_last_error, ibv_wc_status_str(status));
	fx_end(&x);
}

static void keys_checked(void **state)
{
	/* With the MR cut to the rx region, which side's range is outside:
	 * a write's source (tx), a read's remote source (the peer's tx). */
	static const struct {
		const char *test;
		enum ibv_wc_status cut;
	} tests[] = { { "write_bw", IBV_WC_LOC_PROT_ERR },
		      { "read_bw", IBV_WC_REM_ACCESS_ERR },
		      { "atomic_bw", IBV_WC_SUCCESS } }; /* 8 bytes of the rx region: inside */
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		keys_one(tests[i].test, KEYS_RIGHT, IBV_WC_SUCCESS);
		keys_one(tests[i].test, KEY_RKEY, IBV_WC_REM_ACCESS_ERR);
		keys_one(tests[i].test, KEY_RADDR, IBV_WC_REM_ACCESS_ERR);
		keys_one(tests[i].test, KEY_LKEY, IBV_WC_LOC_PROT_ERR);
		if (tests[i].cut != IBV_WC_SUCCESS)
			keys_one(tests[i].test, KEY_LBOUND, tests[i].cut);
	}
	/* A SEND names no remote memory: only its lkey is checked. */
	keys_one("send_bw", KEY_LKEY, IBV_WC_LOC_PROT_ERR);
}

/*
 * --reg-mode per-msg (regmsg.c): ibv_reg_mr and ibv_dereg_mr are
 * fake_mrwrap.c's (linked with --wrap): each gives out a fresh lkey,
 * counts, and can refuse.
 */
/* write_bw -q 1 -l 1 -Q @signal -t @depth --reg-mode per-msg, the MR counts reset. */
static void per_msg_plan(struct fx *x, uint32_t signal, uint32_t depth)
{
	memset(&fake_mrs, 0, sizeof(fake_mrs));
	fx_plan(x, "write_bw");
	fx_shape(x, 1, 1, signal, depth);
	x->p.reg_mode = RB_REG_PER_MSG;
}

/*
 * Started and prepared, the fake told of the MRs live: it checks each
 * WR's keys against them, and without it knows none of the per-message
 * lkeys.
 */
static void per_msg_start(struct fx *x, unsigned int timeout_ms)
{
	fx_start(x, RB_ROLE_CLIENT, timeout_ms);
	fake_mrs.f = x->f;
	assert_int_equal(x->r.bench->prepare(&x->r), 0);
}

/*
 * Every message its own MR: registered before its post (a fresh lkey on
 * the WR, the buffer's address, signaled), deregistered after its
 * completion; never more in flight than the send queue holds.
 */
static void stream_per_msg(void **state)
{
	struct fake_wr *w;
	struct fx x;
	size_t i;

	(void)state;
	per_msg_plan(&x, 1, 8);
	x.p.iters = 50;
	x.p.warmup = 2;
	per_msg_start(&x, 1000);
	assert_int_equal(rb_run_stream(&x.r), 0);
	expect_eq(x.r.ops, 50);
	expect_eq(x.r.total, 52);
	expect_eq(fake_mrs.regs, 52);
	expect_eq(fake_mrs.deregs, 52);
	expect_eq(fake_mrs.live, 0);
	assert_true(fake_mrs.max_live >= 1 && fake_mrs.max_live <= 8);
	expect_eq(fake_mrs.len, x.r.pt.size);
	expect_eq(x.f->nwrs, 52);
	for (i = 0; i < x.f->nwrs; i++) {
		w = &x.f->wrs[i];
		expect_eq(w->lkey, 0x7000 + i);
		expect_eq(w->addr, (uintptr_t)rb_tx_of(&x.r, 0));
		assert_true(w->flags & IBV_SEND_SIGNALED);
		assert_false(w->flags & IBV_SEND_INLINE);
	}
	fake_mrs.f = NULL;
	fx_end(&x);

	/* A registration refused: the point ends with its error, nothing left registered. */
	per_msg_plan(&x, 1, 8);
	x.p.iters = 50;
	per_msg_start(&x, 1000);
	fake_mrs.refuse = ENOMEM;
	assert_int_equal(rb_run_stream(&x.r), -ENOMEM);
	assert_non_null(strstr(rb_last_error, "ibv_reg_mr("));
	expect_eq(fake_mrs.live, 0);
	fake_mrs.f = NULL;
	fx_end(&x);
}

/*
 * --reg-mode per-msg honours -Q and --cqe-poll (issue 37 item 7): every
 * 4th WR signaled (and the phases' last), never 4 unsignaled in a row,
 * each poll asks for 2, and every MR goes once a completion covers it.
 * -D ends on a signaled WR too.
 */
static void stream_per_msg_signal_cqe_poll(void **state)
{
	uint32_t run = 0, max_run = 0, sig = 0;
	struct fx x;
	size_t i;

	(void)state;
	per_msg_plan(&x, 4, 16);
	rb_axis_set1(&x.p.cqe_poll, 2);
	x.p.iters = 50;
	x.p.warmup = 2;
	per_msg_start(&x, 1000);
	x.f->delay = 3;
	assert_int_equal(rb_run_stream(&x.r), 0);
	expect_eq(x.r.ops, 50);
	expect_eq(fake_mrs.regs, 52);
	expect_eq(fake_mrs.deregs, 52);
	expect_eq(fake_mrs.live, 0);
	expect_eq(x.f->poll_max_asked, 2);
	for (i = 0; i < x.f->nwrs; i++) {
		if (x.f->wrs[i].flags & IBV_SEND_SIGNALED) {
			sig++;
			run = 0;
		} else if (++run > max_run) {
			max_run = run;
		}
	}
	assert_true(max_run == 3);
	assert_true(x.f->wrs[1].flags & IBV_SEND_SIGNALED);  /* the warm-up's last */
	assert_true(x.f->wrs[51].flags & IBV_SEND_SIGNALED); /* the measured phase's */
	assert_true(sig >= 13 && sig < 26);
	fake_mrs.f = NULL;
	fx_end(&x);

	/* -D: the last WR is signaled, whatever -Q left unsignaled. */
	per_msg_plan(&x, 7, 16);
	x.p.iters = 0;
	x.p.duration_s = 1;
	x.p.warmup = 0;
	per_msg_start(&x, 2000);
	assert_int_equal(rb_run_stream(&x.r), 0);
	assert_true(x.r.ops > 0);
	expect_eq(x.f->access_errors, 0);
	expect_eq(fake_mrs.live, 0);
	expect_eq(fake_mrs.regs, x.f->nwrs);
	expect_eq(x.f->since_signal[0], 0);
	fake_mrs.f = NULL;
	fx_end(&x);
}

/*
 * --post-api: one run of @test's client loop through ibv_post_send()
 * (@wr false) or ibv_wr_* (rb_post_send_ex()), on the fake in loopback
 * with --verify where the test checks its data.  Its WR log, chains and
 * extended-API chains are copied out.
 */
struct api_run {
	struct fake_wr *wrs;
	size_t nwrs;
	uint64_t chains, wr_chains;
};

static void api_run(const char *test, bool wr, struct api_run *out)
{
	struct fx x;

	fx_plan(&x, test);
	if (!strcmp(test, "write_bw") || !strcmp(test, "atomic_bw"))
		fx_shape(&x, 2, 3, 2, 16);
	x.p.iters = 30;
	x.p.warmup = 2;
	/* read_lat without: its plain loop, and loopback reads unfilled bytes. */
	x.p.verify = strcmp(test, "atomic_bw") && strcmp(test, "read_lat");
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	if (wr)
		x.r.c.post_send = rb_post_send_ex;
	x.f->loopback = true;
	x.f->delay = 2;
	if (x.r.bench->setup)
		assert_int_equal(x.r.bench->setup(&x.r), 0);
	rb_rx_plan(&x.r);
	assert_int_equal(x.r.bench->prepare(&x.r), 0);
	assert_int_equal(x.r.bench->run(&x.r), 0);
	check_covered(&x);
	if (x.f->wr_misuse)
		fail_msg("%s: %s", test, x.f->first_wr_misuse);
	out->nwrs = x.f->nwrs;
	out->wrs = malloc(out->nwrs * sizeof(*out->wrs));
	assert_non_null(out->wrs);
	memcpy(out->wrs, x.f->wrs, out->nwrs * sizeof(*out->wrs));
	out->chains = x.f->chains;
	out->wr_chains = x.f->wr_chains;
	/* Buffers differ between runs: addresses relative to this one's. */
	for (size_t i = 0; i < out->nwrs; i++) {
		out->wrs[i].addr -= (uintptr_t)x.r.c.buf;
		if (out->wrs[i].remote_addr)
			out->wrs[i].remote_addr -= (uintptr_t)x.r.c.buf;
	}
	fx_end(&x);
}

/*
 * --post-api wr posts what ibv_post_send() does, WR for WR (verb, wr_id,
 * signal and inline flags, SGE, remote address and key), in as many
 * chains, each one ibv_wr_start()..ibv_wr_complete(): on the ping-pong
 * (send_lat, write_lat), the plain one-at-a-time loop (read_lat), and
 * streams over two QPs with partial signal groups (write_bw, atomic_bw).
 */
static void post_api_same_wrs(void **state)
{
	static const char *const tests[] = { "send_lat", "write_lat", "read_lat", "write_bw",
					     "atomic_bw" };
	struct api_run a, b;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		api_run(tests[i], false, &a);
		api_run(tests[i], true, &b);
		snprintf(ctx, sizeof(ctx), "%s", tests[i]);
		expect_eq(a.wr_chains, 0);
		expect_eq(b.wr_chains, b.chains);
		expect_eq(b.chains, a.chains);
		expect_eq(b.nwrs, a.nwrs);
		assert_true(a.nwrs >= 32);
		for (k = 0; k < a.nwrs && k < b.nwrs; k++) {
			struct fake_wr *u = &a.wrs[k], *v = &b.wrs[k];

			if (u->qi != v->qi || u->chain != v->chain || u->wr_id != v->wr_id ||
			    u->flags != v->flags || u->opcode != v->opcode ||
			    u->length != v->length || u->addr != v->addr ||
			    (u->lkey != v->lkey && !(u->flags & IBV_SEND_INLINE)) ||
			    u->remote_addr != v->remote_addr || u->rkey != v->rkey)
				fail_msg("%s: WR %zu differs: post opcode %d flags 0x%x wr_id "
					 "0x%llx, "
					 "wr opcode %d flags 0x%x wr_id 0x%llx",
					 tests[i], k, u->opcode, u->flags,
					 (unsigned long long)u->wr_id, v->opcode, v->flags,
					 (unsigned long long)v->wr_id);
		}
		free(a.wrs);
		free(b.wrs);
	}
}

/* A refused ibv_wr_complete() is logged as such, once, and ends the loop. */
static void post_api_wr_failure(void **state)
{
	struct fx x;

	(void)state;
	fx_plan(&x, "read_lat");
	x.p.iters = 10;
	fx_start(&x, RB_ROLE_CLIENT, 2000);
	x.r.c.post_send = rb_post_send_ex;
	x.f->post_send_ret = ENOMEM;
	assert_int_equal(x.r.bench->run(&x.r), -ENOMEM);
	assert_has(rb_last_error, "ibv_wr_complete of 1 WRs");
	expect_eq(x.f->wr_chains, 1);
	fx_end(&x);
}

/* An error completion: -EIO, and the message names the status and the QP. */
static void reap_error_names_status_and_qp(void **state)
{
	struct ibv_wc wc = { .wr_id = 1ULL << 32 | 4,
			     .status = IBV_WC_RETRY_EXC_ERR,
			     .opcode = IBV_WC_RDMA_WRITE,
			     .vendor_err = 0x81,
			     .qp_num = FAKE_QPN_BASE + 1 };
	uint64_t done = 0;
	struct fx x;

	(void)state;
	fx_plan(&x, "send_bw");
	fx_shape(&x, 2, 1, 64, 128);
	x.p.rx_depth = 4;
	fx_start(&x, RB_ROLE_CLIENT, 1000);
	fake_push_wc(x.f, &wc);
	assert_int_equal(rb_reap(&x.r, &done, NULL), -EIO);
	assert_has(rb_last_error, ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR));
	assert_has(rb_last_error, "qp 0x101");
	assert_has(rb_last_error, "SEND completion error");
	assert_has(rb_last_error, "0x81");
	assert_has(rb_last_error, "the peer did not acknowledge");
	assert_int_equal(done, 0);
	/* A flushed receive; its opcode is undefined, its wr_id is not. */
	wc = (struct ibv_wc){ .wr_id = RB_WRID_RECV | 0,
			      .status = IBV_WC_WR_FLUSH_ERR,
			      .opcode = 0xff,
			      .qp_num = FAKE_QPN_BASE };
	fake_push_wc(x.f, &wc);
	assert_int_equal(rb_reap(&x.r, &done, NULL), -EIO);
	assert_has(rb_last_error, ibv_wc_status_str(IBV_WC_WR_FLUSH_ERR));
	assert_has(rb_last_error, "qp 0x100");
	assert_has(rb_last_error, "receive");
	fx_end(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain_signals_every_nth),
		cmocka_unit_test(chain_force_signals_last),
		cmocka_unit_test(chain_forced_when_queue_could_fill),
		cmocka_unit_test(chain_templates_restored),
		cmocka_unit_test(chain_next_restored),
		cmocka_unit_test(chain_post_failure),
		cmocka_unit_test(reap_send_frees_room),
		cmocka_unit_test(reap_recv),
		cmocka_unit_test(recv_post_list_chains),
		cmocka_unit_test(reap_srq_attributes_by_qp_num),
		cmocka_unit_test(stream_mr_per_qp),
		cmocka_unit_test(stream_per_msg),
		cmocka_unit_test(stream_per_msg_signal_cqe_poll),
		cmocka_unit_test(post_api_same_wrs),
		cmocka_unit_test(post_api_wr_failure),
		cmocka_unit_test(reap_error_names_status_and_qp),
		cmocka_unit_test(keys_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
