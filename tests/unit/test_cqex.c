// SPDX-License-Identifier: MIT
/*
 * Issue 40: the extended CQ (--cq-api), completion vectors spread by CPU
 * (-X not given), and --cq-moderation, on the fake provider:
 *  - a stream and a ping-pong give the same figures through either API
 *    (the fake's own counts, not the engine's, and the same clock), and
 *    the extended one is what ran (its start_poll counted, poll_cq not);
 *  - the extended poll's wr_id, status, opcode, qp_num, byte_len and
 *    immediate are the provider's: a wrong mapping breaks the accounting,
 *    the immediates' check or the error's naming;
 *  - ibv_create_cq_ex gets the flags and vector, and its absence is
 *    -EOPNOTSUPP; ibv_modify_cq gets COUNT/USEC, and a provider without it
 *    is refused naming the device;
 *  - rb_vector_pick() on a device of several vectors with IRQs on CPUs;
 *  - --cq-api and --cq-moderation on the command line.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "xfer_fx.h"
#include "cli/opts.h"
#include "core/cqmod.h"
#include "core/provider.h"
#include "core/sweep.h"
#include "engine/run.h"
#include "rdma/cqx.h"
#include "topo/topo.h"
#include "wire/plan.h"

/* The started run of @x's plan (xfer_fx.h), loopback; completions through the extended CQ unless @ex is 0. */
static void cqex_start(struct fx *x, uint8_t ex)
{
	fx_start(x, RB_ROLE_CLIENT, 2000);
	x->f->loopback = true;
	if (ex) {
		fake_cqex(x->f, &x->r, false);
		x->r.c.cq_ex = ex;
	}
}

/* What a run left: the fake's counts, the engine's and the fake's clock. */
struct figures {
	uint64_t ops, total, retired, nwrs, polls, signaled, rx, loop_sends;
	uint64_t qp_done[4];
	size_t lat_n;
};

static struct figures figures_of(const struct fx *x)
{
	struct figures g = { x->r.ops,	     x->r.total,     x->f->retired, x->f->nwrs,
			     x->f->polls,    x->f->signaled, x->r.rx_count, x->f->loop_sends,
			     { 0, 0, 0, 0 }, x->r.lat.n };
	uint32_t i;

	for (i = 0; i < x->r.c.nqp && i < 4; i++)
		g.qp_done[i] = x->r.sq_done[i];
	return g;
}

/*
 * The same figures; with @clock the same ticks of the fake's clock too (an
 * RB_CQX_ONE poll is several start_polls, each a tick: completions fall due
 * sooner, in fewer of the engine's polls).
 */
static void same_figures(const struct figures *a, const struct figures *b, bool clock)
{
	assert_int_equal(a->ops, b->ops);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->retired, b->retired);
	assert_int_equal(a->nwrs, b->nwrs);
	if (clock)
		assert_int_equal(a->polls, b->polls);
	assert_int_equal(a->signaled, b->signaled);
	assert_int_equal(a->rx, b->rx);
	assert_int_equal(a->loop_sends, b->loop_sends);
	assert_int_equal(a->lat_n, b->lat_n);
	if (clock) /* which wait reaped a send's completion */
		assert_memory_equal(a->qp_done, b->qp_done, sizeof(a->qp_done));
}

/* write_bw -q 2 -l 4 -Q 4, completions late by 2 polls: several a poll. */
static struct figures stream_run(uint8_t ex, uint64_t *starts, uint64_t *nexts)
{
	struct figures g;
	struct fx x;

	fx_plan(&x, "write_bw");
	rb_axis_set1(&x.p.qps, 2);
	rb_axis_set1(&x.p.batch, 4);
	rb_axis_set1(&x.p.signal, 4);
	rb_axis_set1(&x.p.tx_depth, 32);
	x.p.iters = 400;
	x.p.warmup = 8;
	cqex_start(&x, ex);
	x.f->delay = 2;
	assert_int_equal(x.r.bench->prepare(&x.r), 0);
	if (rb_run_stream(&x.r))
		fail_msg("%s: %s", ex ? "ex" : "classic", rb_last_error);
	/* The fake's own count of WRs its completions covered. */
	assert_int_equal(x.f->retired, x.f->nwrs);
	g = figures_of(&x);
	*starts = x.f->cqx_starts;
	*nexts = x.f->cqx_nexts;
	fx_end(&x);
	return g;
}

static void stream_same_figures(void **state)
{
	uint64_t s0, n0, s1, n1, s2, n2;
	struct figures a, b, c;

	(void)state;
	a = stream_run(RB_CQX_OFF, &s0, &n0);
	b = stream_run(RB_CQX_BATCH, &s1, &n1);
	c = stream_run(RB_CQX_ONE, &s2, &n2);
	same_figures(&a, &b, true);
	same_figures(&a, &c, false);
	assert_int_equal(a.ops, 400);
	assert_int_equal(s0 + n0, 0); /* classic: never the extended CQ */
	assert_true(s1 > 0);
	assert_true(n1 > 0); /* more than one completion in a poll */
	/* One a start_poll: never next_poll (rxe before rdma-core 55). */
	assert_true(s2 > s1);
	assert_int_equal(n2, 0);
}

/* send_lat, plain or with --send-with-imm (the full read: immediates checked). */
static struct figures pingpong_run(uint8_t ex, bool imm, uint64_t *starts)
{
	struct figures g;
	struct fx x;

	fx_plan(&x, "send_lat");
	x.p.iters = 200;
	x.p.imm = imm;
	cqex_start(&x, ex);
	x.f->delay = 1;
	assert_int_equal(x.r.bench->setup(&x.r), 0);
	assert_int_equal(x.r.bench->prepare(&x.r), 0);
	if (x.r.bench->run(&x.r))
		fail_msg("%s%s: %s", ex ? "ex" : "classic", imm ? " imm" : "", rb_last_error);
	g = figures_of(&x);
	*starts = x.f->cqx_starts;
	fx_end(&x);
	return g;
}

static void pingpong_same_figures(void **state)
{
	struct figures a, b;
	uint64_t s0, s1;
	int imm;

	(void)state;
	uint8_t kind;

	for (imm = 0; imm < 2; imm++) {
		a = pingpong_run(RB_CQX_OFF, imm, &s0);
		assert_int_equal(a.lat_n, 200);
		assert_int_equal(s0, 0);
		for (kind = RB_CQX_BATCH; kind <= RB_CQX_ONE; kind++) {
			b = pingpong_run(kind, imm, &s1);
			same_figures(&a, &b, kind == RB_CQX_BATCH);
			assert_true(s1 >= 200);
		}
	}
}

/* Each field of a completion comes out of the extended poll as the provider put it. */
static void poll_mapping(void **state)
{
	struct ibv_wc in[3], out[4];
	struct fx x;
	int i;

	(void)state;
	fx_plan(&x, "send_bw");
	cqex_start(&x, RB_CQX_BATCH);
	memset(in, 0, sizeof(in));
	in[0] = (struct ibv_wc){ .wr_id = 0x0000000100000007ULL,
				 .status = IBV_WC_SUCCESS,
				 .opcode = IBV_WC_RDMA_WRITE,
				 .qp_num = FAKE_QPN_BASE };
	in[1] = (struct ibv_wc){ .wr_id = RB_WRID_RECV | 0,
				 .status = IBV_WC_SUCCESS,
				 .opcode = IBV_WC_RECV,
				 .byte_len = 1234,
				 .wc_flags = IBV_WC_WITH_IMM,
				 .imm_data = htobe32(0x52420001),
				 .qp_num = FAKE_QPN_BASE };
	in[2] = (struct ibv_wc){ .wr_id = 0x0000000000000003ULL,
				 .status = IBV_WC_REM_ACCESS_ERR,
				 .vendor_err = 0x88,
				 .qp_num = FAKE_QPN_BASE };
	for (i = 0; i < 3; i++)
		fake_push_wc(x.f, &in[i]);
	memset(out, 0xa5, sizeof(out));
	assert_int_equal(rb_cqx_poll_full(&x.f->cq, 4, out, RB_CQX_BATCH), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(out[i].wr_id, in[i].wr_id);
		assert_int_equal(out[i].status, in[i].status);
		assert_int_equal(out[i].qp_num, in[i].qp_num);
	}
	assert_int_equal(out[0].opcode, IBV_WC_RDMA_WRITE);
	assert_int_equal(out[1].opcode, IBV_WC_RECV);
	assert_int_equal(out[1].byte_len, 1234);
	assert_int_equal(out[1].wc_flags & IBV_WC_WITH_IMM, IBV_WC_WITH_IMM);
	assert_int_equal(be32toh(out[1].imm_data), 0x52420001);
	assert_int_equal(out[0].wc_flags & IBV_WC_WITH_IMM, 0);
	assert_int_equal(out[2].vendor_err, 0x88);
	assert_int_equal(x.f->cqx_ends, 1);
	/* The lean poll: wr_id and status, at most @max a poll. */
	for (i = 0; i < 3; i++)
		fake_push_wc(x.f, &in[i]);
	assert_int_equal(rb_cqx_poll(&x.f->cq, 2, out, RB_CQX_BATCH), 2);
	assert_int_equal(out[0].wr_id, in[0].wr_id);
	assert_int_equal(out[1].wr_id, in[1].wr_id);
	assert_int_equal(out[1].status, IBV_WC_SUCCESS);
	assert_int_equal(rb_cqx_poll(&x.f->cq, 2, out, RB_CQX_BATCH), 1);
	assert_int_equal(out[0].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(out[0].vendor_err, 0x88);
	assert_int_equal(out[0].qp_num, FAKE_QPN_BASE);
	assert_int_equal(rb_cqx_poll(&x.f->cq, 2, out, RB_CQX_BATCH), 0);
	/* One a start_poll: the same fields, each poll its own start and end. */
	for (i = 0; i < 3; i++)
		fake_push_wc(x.f, &in[i]);
	x.f->cqx_ends = 0;
	assert_int_equal(rb_cqx_poll_full(&x.f->cq, 4, out, RB_CQX_ONE), 3);
	assert_int_equal(x.f->cqx_ends, 3);
	assert_int_equal(out[1].opcode, IBV_WC_RECV);
	assert_int_equal(be32toh(out[1].imm_data), 0x52420001);
	assert_int_equal(out[2].status, IBV_WC_REM_ACCESS_ERR);
	assert_int_equal(out[2].vendor_err, 0x88);
	fx_end(&x);
}

/* A failed completion through the engine's extended reap: named as the NIC said. */
static void reap_error_named(void **state)
{
	uint64_t done = 0;
	char want[96];
	struct fx x;

	(void)state;
	fx_plan(&x, "write_bw");
	rb_axis_set1(&x.p.batch, 1);
	rb_axis_set1(&x.p.signal, 1);
	cqex_start(&x, RB_CQX_BATCH);
	x.f->fail_nth = 1;
	x.f->fail_status = IBV_WC_RETRY_EXC_ERR;
	assert_int_equal(rb_post_chain(&x.r, 0, 1, 0, true), 0);
	assert_int_equal(rb_reap(&x.r, &done, NULL), -EIO);
	snprintf(want, sizeof(want), "fake0 qp 0x%x: RDMA WRITE completion error: %s",
		 FAKE_QPN_BASE, ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR));
	if (!strstr(rb_last_error, want))
		fail_msg("'%s' lacks '%s'", rb_last_error, want);
	assert_true(x.f->cqx_starts > 0);
	fx_end(&x);
}

static struct rb_dev fake_dev_of(struct fake *f)
{
	struct rb_dev d;

	memset(&d, 0, sizeof(d));
	d.ctx = &f->ctx;
	d.attr.max_cqe = 65536;
	d.prov = rb_prov_identify("rdma_rxe", "rxe0", 0);
	snprintf(d.name, sizeof(d.name), "rxe0");
	return d;
}

static void create_and_moderate(void **state)
{
	struct fake *f = fake_new(1, 16);
	struct rb_dev d = fake_dev_of(f);
	struct ibv_cq *cq = NULL;

	(void)state;
	f->ctx.num_comp_vectors = 4;
	assert_int_equal(rb_cq_create_ex_on(&d, 256, NULL, 2, &cq), -EOPNOTSUPP);
	fake_cqex(f, NULL, false);
	assert_int_equal(rb_cq_create_ex_on(&d, 256, NULL, 2, &cq), 0);
	assert_ptr_equal(cq, &f->cq);
	assert_int_equal(f->cqx_attr.cqe, 256);
	assert_int_equal(f->cqx_attr.comp_vector, 2);
	assert_int_equal(f->cqx_attr.wc_flags, RB_CQX_WC_FLAGS);
	/* The checks of the classic CQ hold too. */
	assert_int_equal(rb_cq_create_ex_on(&d, 256, NULL, 4, &cq), -ERANGE);
	assert_int_equal(f->cqx_made, 1);
	/* No ibv_modify_cq: refused, naming the device and its provider. */
	assert_int_equal(rb_cq_moderate(&d, cq, 16, 10), -EOPNOTSUPP);
	assert_non_null(strstr(rb_last_error, "--cq-moderation 16/10: rxe0 (provider rxe) cannot "
					      "moderate a CQ"));
	fake_cqex(f, NULL, true);
	assert_int_equal(rb_cq_moderate(&d, cq, 16, 10), 0);
	assert_int_equal(f->cqx_mods, 1);
	assert_int_equal(f->cqx_mod.attr_mask, IBV_CQ_ATTR_MODERATE);
	assert_int_equal(f->cqx_mod.moderate.cq_count, 16);
	assert_int_equal(f->cqx_mod.moderate.cq_period, 10);
	fake_free(f);
}

/* Five MSI IRQs: the async one, then vectors 0..3 on CPUs 0, 1, 2 and 2-3. */
static void vector_spread(void **state)
{
	struct rb_irqs q = { .n = 5 };
	const char *cpus[] = { "0-7", "0", "1", "2", "2-3" };
	char why[160];
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		q.irq[i].num = 40 + i;
		snprintf(q.irq[i].cpus, sizeof(q.irq[i].cpus), "%s", cpus[i]);
	}
	/* CPU 2: vectors 2 and 3, thread by thread. */
	assert_int_equal(rb_vector_pick(&q, 4, 2, 0, why, sizeof(why)), 2);
	assert_string_equal(why, "IRQ 43 of vector 2 may run on CPU 2 (2 such of 4 vectors)");
	assert_int_equal(rb_vector_pick(&q, 4, 2, 1, why, sizeof(why)), 3);
	assert_int_equal(rb_vector_pick(&q, 4, 2, 2, why, sizeof(why)), 2);
	assert_int_equal(rb_vector_pick(&q, 4, 1, 3, why, sizeof(why)), 1);
	assert_int_equal(rb_vector_pick(&q, 4, 0, 5, why, sizeof(why)), 0);
	/* No vector on CPU 6, none readable, CPU unknown: round robin. */
	assert_int_equal(rb_vector_pick(&q, 4, 6, 5, why, sizeof(why)), 1);
	assert_string_equal(why, "round robin: thread or rail 5 of 4 vectors (no vector's IRQ on "
				 "its CPU)");
	assert_int_equal(rb_vector_pick(NULL, 4, 2, 6, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "not known"));
	assert_int_equal(rb_vector_pick(&q, 4, -1, 3, why, sizeof(why)), 3);
	/* Fewer IRQs than vectors: none taken as a vector's. */
	q.n = 3;
	assert_int_equal(rb_vector_pick(&q, 4, 2, 1, why, sizeof(why)), 1);
	assert_int_equal(rb_vector_pick(&q, 1, 2, 7, why, sizeof(why)), 0);
}

static void moderation_grammar(void **state)
{
	const char *bad[] = { "0", "x", "16/", "16/70000", "70000", "16/5x", "-1", "/5" };
	struct rb_cqmod m;
	char err[200];
	size_t i;

	(void)state;
	assert_int_equal(rb_cqmod_parse("16", &m, err, sizeof(err)), 0);
	assert_int_equal(m.count, 16);
	assert_int_equal(m.usec, 0);
	assert_int_equal(rb_cqmod_parse("65535/65535", &m, err, sizeof(err)), 0);
	assert_int_equal(m.count, 65535);
	assert_int_equal(m.usec, 65535);
	assert_int_equal(rb_cqmod_parse("", &m, err, sizeof(err)), 0);
	assert_int_equal(m.count, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rb_cqmod_parse(bad[i], &m, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--cq-moderation '"));
		assert_non_null(strstr(err, "COUNT 1 to 65535"));
	}
}

static int parse(struct rb_cli *c, const char *a1, const char *a2, char *err, size_t len)
{
	char *argv[] = { (char *)"write_bw", (char *)a1, (char *)a2, NULL };
	const struct rb_bench *t = rb_bench_find("write_bw");

	rb_cli_init(c);
	return rb_cli_parse(c, "write_bw", rb_bench_scope(t), a2 ? 3 : 2, argv, err, len);
}

static void command_line(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	assert_int_equal(parse(&c, "-s", "64", err, sizeof(err)), 0);
	assert_int_equal(c.l.cq_api, RB_CQ_AUTO);
	assert_int_equal(c.l.comp_vector, RB_VECTOR_SPREAD);
	assert_int_equal(c.p.cq_mod.n, 0); /* an axis of the plan: empty, none */
	assert_int_equal(parse(&c, "--cq-api", "ex", err, sizeof(err)), 0);
	assert_int_equal(c.l.cq_api, RB_CQ_EX);
	assert_int_equal(parse(&c, "--cq-api=classic", NULL, err, sizeof(err)), 0);
	assert_int_equal(c.l.cq_api, RB_CQ_CLASSIC);
	assert_int_equal(parse(&c, "--cq-api", "fast", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--cq-api"));
	assert_int_equal(parse(&c, "--cq-moderation", "16/10", err, sizeof(err)), 0);
	assert_int_equal(c.p.cq_mod.n, 1);
	assert_int_equal(c.p.cq_mod.v[0], RB_CQMOD(16, 10));
	assert_int_equal(parse(&c, "--cq-moderation", "0", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--cq-moderation '0'"));
	assert_int_equal(parse(&c, "-X", "3", err, sizeof(err)), 0);
	assert_int_equal(c.l.comp_vector, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stream_same_figures), cmocka_unit_test(pingpong_same_figures),
		cmocka_unit_test(poll_mapping),	       cmocka_unit_test(reap_error_named),
		cmocka_unit_test(create_and_moderate), cmocka_unit_test(vector_spread),
		cmocka_unit_test(moderation_grammar),  cmocka_unit_test(command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
