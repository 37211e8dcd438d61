// SPDX-License-Identifier: MIT
/*
 * mlx5's DC (rdma/dc.c) on the fake provider with an mlx5-with-DC
 * personality: mlx5dv_create_qp() and mlx5dv_qp_ex_from_ibv_qp_ex() are
 * this file's stand-ins (Makefile.am wraps them), which record what a
 * DCI and a DCT were created with and, through the mlx5dv_qp_ex's
 * wr_set_dc_addr, where each WR was sent.  Not run on an mlx5.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "core/bench.h"
#include "rdma/dc.h"
#include "wire/plan.h"

/*
 * -c DC as the plan sees it: send_bw, write_bw and read_bw, one way,
 * without -R; on a device whose provider is not mlx5, refused naming
 * mlx5 (rxe, and an unknown device); on an mlx5, taken.
 */
static void dc_plan(void **state)
{
	static const char *const runs[] = { "send_bw", "write_bw", "read_bw" };
	struct rb_params p;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		p = fake_plan(runs[i]);
		p.transport = RB_TR_DC;
		assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
		assert_int_equal(rb_plan_provider_check(&p, rb_bench_find(runs[i]),
							rb_prov_identify("mlx5_core", "mlx5_0", 0),
							"mlx5_0", err, sizeof(err)),
				 0);
	}
	p = fake_plan("send_lat");
	p.transport = RB_TR_DC;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-c DC does not apply to send_lat: it runs over RC, UC, UD, SRD");
	p = fake_plan("atomic_bw");
	p.transport = RB_TR_DC;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	p = fake_plan("write_bw");
	p.transport = RB_TR_DC;
	p.bidir = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-c DC does not apply with -b/--bidirectional: the client's DC "
				 "initiators send to the server's DC targets, one way, connected "
				 "by the out-of-band exchange");
	p.bidir = 0;
	p.use_cm = 1;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-c DC does not apply with -R/--rdma-cm"));
	p.use_cm = 0;
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("write_bw"),
						rb_prov_identify(NULL, "rxe0", 0), "rxe0", err,
						sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-c DC: rxe0 is rxe (Soft-RoCE (software)), which makes RC, UC, "
				 "UD QPs; DC QPs are mlx5's; give -c RC");
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("write_bw"),
						rb_prov_identify("acme", "acme0", 0), "acme0", err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "DC QPs are mlx5's"));
}

#ifdef HAVE_MLX5DV
#include <infiniband/mlx5dv.h>

/* The personality: what mlx5dv_create_qp() was asked, and each WR's DC address. */
static struct {
	int creates;
	struct mlx5dv_qp_init_attr dv;
	struct ibv_qp_init_attr_ex attr;
	struct mlx5dv_qp_ex mqp;
	int addrs;
	struct ibv_ah *ah[8];
	uint32_t dctn[8];
	uint64_t key[8];
	int building_at_addr[8]; /* the fake's WR chain was open when the address came */
} dc;

static struct fake *f;

struct ibv_qp *__wrap_mlx5dv_create_qp(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a,
				       struct mlx5dv_qp_init_attr *dv);
struct mlx5dv_qp_ex *__wrap_mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *x);

struct ibv_qp *__wrap_mlx5dv_create_qp(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a,
				       struct mlx5dv_qp_init_attr *dv)
{
	dc.creates++;
	dc.dv = *dv;
	dc.attr = *a;
	assert_int_equal(a->qp_type, IBV_QPT_DRIVER);
	/* mlx5: a DCT needs its SRQ; a DC QP is neither without the DC mask. */
	if (!(dv->comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DC) ||
	    (dv->dc_init_attr.dc_type == MLX5DV_DCTYPE_DCT && !a->srq)) {
		errno = EINVAL;
		return NULL;
	}
	return ibv_create_qp_ex(ctx, a);
}

static void set_dc_addr(struct mlx5dv_qp_ex *mqp, struct ibv_ah *ah, uint32_t dctn, uint64_t key)
{
	int i = dc.addrs++;

	assert_ptr_equal(mqp, &dc.mqp);
	assert_true(i < 8);
	dc.ah[i] = ah;
	dc.dctn[i] = dctn;
	dc.key[i] = key;
	dc.building_at_addr[i] = f->building;
}

struct mlx5dv_qp_ex *__wrap_mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *x)
{
	assert_non_null(x);
	dc.mqp.wr_set_dc_addr = set_dc_addr;
	return &dc.mqp;
}

static struct ibv_pd pd;

/* An mlx5_0 of one port, InfiniBand, as rb_dev_open_want() leaves it. */
static void mlx5_dev(struct rb_dev *d)
{
	memset(d, 0, sizeof(*d));
	memset(&dc, 0, sizeof(dc));
	memset(&fake_mod, 0, sizeof(fake_mod));
	f = fake_new(4, 64);
	pd.context = &f->ctx;
	snprintf(d->name, sizeof(d->name), "mlx5_0");
	d->ctx = &f->ctx;
	d->pd = &pd;
	d->port = 1;
	d->gid_index = -1;
	d->port_attr.lid = 7;
	d->prov = rb_prov_identify("mlx5_core", "mlx5_0", 0x15b3);
}

/*
 * A DCI: mlx5dv_create_qp() with the DC mask and type DCI, a send queue
 * and the send verbs for ibv_wr_*; INIT (port, no rights), RTR (the
 * path), RTS (retries, reads); a DCT: type DCT with its key and the SRQ,
 * INIT with the remote rights, RTR with the RNR timer, and no RTS.
 */
static void dc_create_and_connect(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 32,
				   .inline_size = 64,
				   .send_ops = IBV_QP_EX_WITH_RDMA_WRITE };
	struct rb_qp_info srv = { .qpn = 0x1234, .lid = 9 };
	struct rb_av av = { .qp = { .timeout = 14, .retry_count = 7 } };
	struct rb_qp_peer peer = { .ah = (struct ibv_ah *)&pd, .dc_key = RB_DC_KEY };
	struct ibv_qp *qp = NULL;
	struct rb_dev d;

	(void)state;
	mlx5_dev(&d);
	assert_true(rb_dc_built());
	assert_int_equal(rb_dc_create(&d, &f->cq, false, RB_DC_KEY, &caps, &qp), 0);
	assert_non_null(qp);
	assert_true(caps.ex);
	assert_int_equal(dc.dv.dc_init_attr.dc_type, MLX5DV_DCTYPE_DCI);
	assert_true(dc.dv.comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DC);
	assert_true(dc.attr.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
	assert_int_equal(dc.attr.send_ops_flags, IBV_QP_EX_WITH_RDMA_WRITE);
	assert_int_equal(dc.attr.cap.max_send_wr, 32);
	assert_null(dc.attr.srq);
	assert_int_equal(rb_dc_connect(&d, qp, false, IBV_ACCESS_REMOTE_WRITE, 5, &srv,
				       IBV_MTU_4096, 4, &av, &peer),
			 0);
	assert_int_equal(fake_mod.calls, 3);
	assert_false(fake_mod.mask[IBV_QPS_INIT] & IBV_QP_ACCESS_FLAGS);
	assert_int_equal(fake_mod.at[IBV_QPS_INIT].port_num, 1);
	assert_int_equal(fake_mod.mask[IBV_QPS_RTR], IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU);
	assert_int_equal(fake_mod.at[IBV_QPS_RTR].ah_attr.dlid, 9);
	assert_int_equal(fake_mod.at[IBV_QPS_RTR].path_mtu, IBV_MTU_4096);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].max_rd_atomic, 4);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].timeout, 14);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].sq_psn, 5);
	assert_true(fake_mod.mask[IBV_QPS_RTS] & IBV_QP_MAX_QP_RD_ATOMIC);
	assert_ptr_equal(qp->qp_context, &peer);
	assert_int_equal(peer.qpn, 0x1234);
	assert_ptr_equal(peer.mqp, &dc.mqp);
	fake_free(f);

	/* The DCT: refused without an SRQ, made with it and the key. */
	mlx5_dev(&d);
	caps = (struct rb_qp_caps){ 0 };
	assert_int_equal(rb_dc_create(&d, &f->cq, true, RB_DC_KEY, &caps, &qp), -EINVAL);
	assert_string_equal(rb_last_error, "mlx5_0: a DCT receives from an SRQ, and none was made");
	assert_int_equal(dc.creates, 0);
	caps.srq = &f->srq;
	assert_int_equal(rb_dc_create(&d, &f->cq, true, RB_DC_KEY, &caps, &qp), 0);
	assert_false(caps.ex);
	assert_int_equal(dc.dv.dc_init_attr.dc_type, MLX5DV_DCTYPE_DCT);
	assert_int_equal(dc.dv.dc_init_attr.dct_access_key, RB_DC_KEY);
	assert_ptr_equal(dc.attr.srq, &f->srq);
	assert_false(dc.attr.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
	assert_int_equal(rb_dc_connect(&d, qp, true, IBV_ACCESS_REMOTE_WRITE, 0, &srv, IBV_MTU_1024,
				       0, &av, NULL),
			 0);
	assert_int_equal(fake_mod.calls, 2); /* INIT, RTR: a DCT never sends */
	assert_int_equal(fake_mod.at[IBV_QPS_INIT].qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
	assert_true(fake_mod.mask[IBV_QPS_RTR] & IBV_QP_MIN_RNR_TIMER);
	assert_null(qp->qp_context);
	fake_free(f);
}

/* A provider's refusal names the call and the DC type. */
static void dc_create_refused(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 8, .send_ops = IBV_QP_EX_WITH_SEND };
	struct ibv_qp *qp = (struct ibv_qp *)&pd;
	struct rb_dev d;

	(void)state;
	mlx5_dev(&d);
	f->no_ex = true; /* refuses send_ops_flags: EOPNOTSUPP */
	assert_int_equal(rb_dc_create(&d, &f->cq, false, RB_DC_KEY, &caps, &qp), -EOPNOTSUPP);
	assert_null(qp);
	assert_non_null(strstr(rb_last_error, "mlx5_0: mlx5dv_create_qp(DCI, send 8, inline 0): "));
	fake_free(f);
}

/*
 * Posting to a DCI: one ibv_wr_* chain, each WR's DC address (the
 * peer's AH, DCT number and key) set inside it, after its verb.
 */
static void dc_post(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 32, .send_ops = IBV_QP_EX_WITH_SEND };
	struct rb_qp_info srv = { .qpn = 0x77 };
	struct rb_av av = { 0 };
	struct rb_qp_peer peer = { .ah = (struct ibv_ah *)&pd, .dc_key = 0xabcdef0123ull };
	uint8_t buf[32];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x55 };
	struct ibv_send_wr wr[2] = { { .wr_id = 1,
				       .sg_list = &sge,
				       .num_sge = 1,
				       .opcode = IBV_WR_SEND,
				       .next = &wr[1] },
				     { .wr_id = 2,
				       .sg_list = &sge,
				       .num_sge = 1,
				       .opcode = IBV_WR_SEND,
				       .send_flags = IBV_SEND_SIGNALED } },
			   *bad = NULL;
	struct ibv_qp *qp = NULL;
	struct rb_dev d;

	(void)state;
	mlx5_dev(&d);
	assert_int_equal(rb_dc_create(&d, &f->cq, false, peer.dc_key, &caps, &qp), 0);
	assert_int_equal(rb_dc_connect(&d, qp, false, 0, 1, &srv, IBV_MTU_1024, 1, &av, &peer), 0);
	assert_int_equal(rb_post_send_dc(qp, wr, &bad), 0);
	assert_int_equal(f->wr_misuse, 0);
	assert_int_equal(f->wr_chains, 1);
	assert_int_equal(f->nwrs, 2);
	assert_int_equal(dc.addrs, 2);
	assert_ptr_equal(dc.ah[1], &pd);
	assert_int_equal(dc.dctn[0], 0x77);
	assert_int_equal(dc.key[1], 0xabcdef0123ull);
	assert_int_equal(dc.building_at_addr[0], 1); /* inside ibv_wr_start/complete */
	fake_free(f);
}
#else
/* Built without mlx5dv: a DC QP is refused naming the build. */
static void dc_not_built(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 8 };
	struct ibv_qp *qp = NULL;
	struct rb_dev d = { .name = "mlx5_0" };

	(void)state;
	assert_false(rb_dc_built());
	assert_int_equal(rb_dc_create(&d, NULL, false, RB_DC_KEY, &caps, &qp), -EOPNOTSUPP);
	assert_non_null(strstr(rb_last_error, "built without mlx5dv"));
}
#endif

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(dc_plan),
#ifdef HAVE_MLX5DV
		cmocka_unit_test(dc_create_and_connect),
		cmocka_unit_test(dc_create_refused),
		cmocka_unit_test(dc_post),
#else
		cmocka_unit_test(dc_not_built),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
