// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/rdma/verbs.c on the fake host of verbs_fx.c with
 * providers' personalities (fake_persona(), core/provider.h): EFA (UD by
 * GID 0 with a GRH, link layer "Unspecified", RC refused naming what it
 * makes, 32 bytes inline asked at once), bnxt_re (UC refused without
 * errno: an error naming the call, never a NULL QP returned as made),
 * mlx5 (a port past the device's points at -d mlx5_0,mlx5_1; an IB port
 * in INIT at the subnet manager), -x on one IB side only.
 */
#include "verbs_fx.h"

static void persona(enum fake_persona p)
{
	struct fake_view v;

	fake_persona(host.f, p, &v);
	snprintf(host.dev[0].name, sizeof(host.dev[0].name), "%s", v.name);
	host.ndev = 1;
	host.attr.vendor_id = v.vendor_id;
	host.attr.phys_port_cnt = v.ports;
	host.port_attr.link_layer = v.link_layer;
	host.port_attr.pkey_tbl_len = 1;
	host.port_attr.lid = v.link_layer == IBV_LINK_LAYER_INFINIBAND ? 7 : 0;
}

/* rb_dev_open_want() of the first device, its first active port, no -x. */
static void open_persona(enum fake_persona p, struct rb_dev *d)
{
	struct rb_dev_want w = want(NULL, 0, -1);

	persona(p);
	assert_int_equal(rb_dev_open_want(&w, d), 0);
}

/* A provider is known by its driver, else its name, else its PCI vendor. */
static void provider_identified(void **state)
{
	(void)state;
	assert_int_equal(rb_prov_identify("bnxt_en", "rocep1s0f0", 0)->id, RB_PROV_BNXT_RE);
	assert_int_equal(rb_prov_identify(NULL, "rxe0", 0)->id, RB_PROV_RXE);
	assert_int_equal(rb_prov_identify("", "rdmap0s31", 0x1d0f)->id, RB_PROV_EFA);
	assert_int_equal(rb_prov_identify("mlx4_core", "mlx4_0", 0x15b3)->id, RB_PROV_MLX4);
	assert_int_equal(rb_prov_identify("ice", "rocep3s0", 0x8086)->id, RB_PROV_IRDMA);
	assert_int_equal(rb_prov_identify("foo", "bar0", 0x1234)->id, RB_PROV_GENERIC);
	assert_int_equal(rb_prov_get(RB_PROV_COUNT)->id, RB_PROV_GENERIC);
	assert_int_equal(rb_prov_get(RB_PROV_EFA)->max_inline, 32);
}

/*
 * EFA: the link layer is unspecified, so UD is addressed by GID 0 with a
 * GRH (today's code took it for InfiniBand: LID 0, no GRH, an AH to ::).
 */
static void efa_ud_by_gid(void **state)
{
	struct rb_qp_info peer = { .qpn = 0x42 };
	struct rb_av av = { .qp = { .hop_limit = 64 } };
	struct ibv_ah *ah = NULL;
	struct rb_dev d;

	(void)state;
	open_persona(FAKE_EFA, &d);
	assert_int_equal(d.prov->id, RB_PROV_EFA);
	assert_string_equal(rb_link_layer_str(&d), "Unspecified");
	assert_int_equal(d.gid_index, 0);
	assert_string_equal(d.gid_addr, "fe80::1");
	assert_non_null(strstr(d.why_gid, "addressed by GID"));
	inet_pton(AF_INET6, "fe80::2", peer.gid);
	assert_int_equal(rb_ah_create(&d, &peer, &av, &ah), 0);
	assert_int_equal(ah_seen.is_global, 1);
	assert_memory_equal(ah_seen.grh.dgid.raw, peer.gid, 16);
	assert_int_equal(ah_seen.grh.sgid_index, 0);
	rb_dev_close(&d);
}

/*
 * EFA makes UD (and SRD): -c RC refused before any QP, naming what it
 * makes; without -c the test's first shared transport.
 */
static void efa_rc_refused(void **state)
{
	struct rb_params p = fake_plan("send_lat");
	char err[256];
	struct rb_dev d;

	(void)state;
	open_persona(FAKE_EFA, &d);
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("send_lat"), d.prov, d.name, err,
						sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-c RC: rdmap0s31 is efa (AWS Elastic Fabric Adapter), which "
				 "makes UD, SRD QPs; give -c UD");
	p.transport = RB_TR_UD;
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("send_lat"), d.prov, d.name, err,
						sizeof(err)),
			 0);
	p.probe = 1;
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("send_lat"), d.prov, d.name, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--probe pings over an RC QP; rdmap0s31 is efa"));
	p.probe = 0;
	/* Without -c, the client takes what the test and the device share. */
	assert_int_equal(rb_plan_transport_for(rb_bench_find("send_lat"), d.prov, RB_TR_RC),
			 RB_TR_UD);
	assert_int_equal(rb_plan_transport_for(rb_bench_find("read_bw"), d.prov, RB_TR_RC),
			 RB_TR_SRD);
	assert_int_equal(rb_plan_transport_for(rb_bench_find("atomic_lat"), d.prov, RB_TR_RC),
			 RB_TR_RC);
	assert_int_equal(rb_plan_transport_for(rb_bench_find("send_lat"), rb_prov_get(RB_PROV_RXE),
					       RB_TR_RC),
			 RB_TR_RC);
	/* SRD takes write where the device has it; atomics run over RC alone. */
	p = fake_plan("write_bw");
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("write_bw"), d.prov, d.name, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "give -c SRD"));
	p = fake_plan("atomic_lat");
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("atomic_lat"), d.prov, d.name,
						err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "atomic_lat runs over RC; rdmap0s31 is efa (AWS Elastic Fabric "
				 "Adapter), which makes UD, SRD QPs only");
	rb_dev_close(&d);
}

/*
 * -c SRD: refused on a provider without it (rxe), and with -R; on EFA an
 * efadv SRD QP with the verbs efadv_query_device() reports (RDMA READ
 * only with its cap), moved as a datagram QP (Q_Key, no peer), posting
 * with each WR's address.
 */
static void efa_srd(void **state)
{
	struct rb_params p = fake_plan("send_lat");
	struct rb_qp_caps caps = {
		.send_wr = 64, .recv_wr = 64, .send_ops = IBV_QP_EX_WITH_SEND, .ex_only = true
	};
	struct rb_qp_info peer = { .qpn = 0x42, .psn = 7 };
	struct rb_qp_peer srd_peer;
	struct rb_av av = { 0 };
	struct ibv_qp *qp = NULL;
	uint8_t buf[16];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x77 };
	struct ibv_send_wr wr = { .wr_id = 1,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad = NULL;
	char err[256];
	struct rb_dev d;

	(void)state;
	p.transport = RB_TR_SRD;
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("send_lat"),
						rb_prov_get(RB_PROV_RXE), "rxe0", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-c SRD: rxe0 is rxe (Soft-RoCE (software)), which makes RC, UC, "
				 "UD QPs; SRD QPs are efa's; give -c RC");
	p.use_cm = true;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-R/--rdma-cm does not apply to -c SRD"));
	p.use_cm = false;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), 0);
	p = fake_plan("write_lat");
	p.transport = RB_TR_SRD;
	assert_int_equal(rb_plan_validate(&p, 0, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SRD delivers out of order"));
	p = fake_plan("send_lat");
	p.transport = RB_TR_SRD;

	open_persona(FAKE_EFA, &d);
	assert_int_equal(rb_plan_provider_check(&p, rb_bench_find("send_lat"), d.prov, d.name, err,
						sizeof(err)),
			 0);
#ifdef HAVE_EFADV
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_DRIVER, &caps, &qp), 0);
	assert_int_equal(efa_qp_type, EFADV_QP_DRIVER_TYPE_SRD);
	assert_int_equal(qp->qp_type, IBV_QPT_DRIVER);
	assert_true(caps.ex);
	memset(&fake_mod, 0, sizeof(fake_mod));
	assert_int_equal(rb_qp_connect(&d, qp, 0, 9, &peer, 0, 0, &av), 0);
	assert_int_equal(fake_mod.calls, 3);
	assert_true(fake_mod.mask[IBV_QPS_INIT] & IBV_QP_QKEY);
	assert_int_equal(fake_mod.at[IBV_QPS_INIT].qkey, RB_UD_QKEY);
	assert_int_equal(fake_mod.mask[IBV_QPS_RTR], IBV_QP_STATE);
	assert_int_equal(fake_mod.mask[IBV_QPS_RTS], IBV_QP_STATE | IBV_QP_SQ_PSN);
	/* RDMA READ where the device says so, and not before. */
	caps.send_ops = IBV_QP_EX_WITH_RDMA_READ;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_DRIVER, &caps, &qp), -EOPNOTSUPP);
	assert_string_equal(rb_last_error, "-c SRD: rdmap0s31's SRD QPs take SEND, SEND_WITH_IMM "
					   "(efadv_query_device), not RDMA_READ");
	efa_caps = EFADV_DEVICE_ATTR_CAPS_RDMA_READ;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_DRIVER, &caps, &qp), 0);
	efa_caps = 0;
	/*
	 * Each SRD WR is addressed from the QP's peer (its qp_context), not
	 * from the WR: an RDMA READ's remote address and key share the WR's
	 * union with wr.ud, so they arrive intact (they used to be the AH's
	 * pointer and the peer's QP number).
	 */
	srd_peer = (struct rb_qp_peer){ (struct ibv_ah *)&host, 0x42, RB_UD_QKEY, 0, NULL };
	qp->qp_context = &srd_peer;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr.rdma.remote_addr = 0x1234500;
	wr.wr.rdma.rkey = 0xbeef;
	assert_int_equal(rb_post_send_ex(qp, &wr, &bad), 0);
	assert_int_equal(host.f->wr_misuse, 0);
	assert_int_equal(host.f->pend[0].opcode, IBV_WR_RDMA_READ);
	assert_int_equal(host.f->pend[0].wr.rdma.remote_addr, 0x1234500);
	assert_int_equal(host.f->pend[0].wr.rdma.rkey, 0xbeef);
	assert_ptr_equal(host.f->ud_ah, &host);
	assert_int_equal(host.f->ud_qpn, 0x42);
	assert_int_equal(host.f->ud_qkey, RB_UD_QKEY);
#else
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_DRIVER, &caps, &qp), -EOPNOTSUPP);
	assert_non_null(strstr(rb_last_error, "built without efadv"));
	(void)peer;
	(void)av;
	(void)wr;
	(void)bad;
	(void)srd_peer;
#endif
	rb_dev_close(&d);
}

/* EFA takes 32 bytes inline: asked so at once, not after a refusal. */
static void efa_inline_32(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 64, .recv_wr = 64, .inline_size = 220 };
	struct ibv_qp *qp = NULL;
	struct rb_dev d;

	(void)state;
	open_persona(FAKE_EFA, &d);
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_UD, &caps, &qp), 0);
	assert_non_null(qp);
	assert_int_equal(caps.inline_size, 32);
	assert_int_equal(host.f->made_attr.cap.max_inline_data, 32);
	assert_int_equal(host.f->creates, 1);
	rb_dev_close(&d);
}

/*
 * bnxt_re returns no QP for UC and sets no errno: an error naming the
 * call, its attributes and what the provider makes, whatever errno held
 * before (today: 0 returned with a NULL QP, or the leftover errno).
 */
static void bnxt_uc_without_errno(void **state)
{
	struct rb_qp_caps caps = { .send_wr = 64, .recv_wr = 8 };
	struct ibv_qp *qp = (struct ibv_qp *)&host;
	struct rb_dev d;
	int left;

	(void)state;
	open_persona(FAKE_BNXT_RE, &d);
	assert_int_equal(d.prov->id, RB_PROV_BNXT_RE);
	for (left = 0; left <= EAGAIN; left += EAGAIN) {
		errno = left;
		assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_UC, &caps, &qp),
				 -EOPNOTSUPP);
		assert_null(qp);
		assert_string_equal(rb_last_error, "bnxt_re0: ibv_create_qp(UC, send 64, recv 8, "
						   "inline 0) "
						   "returned no QP and set no errno: the provider "
						   "(bnxt_re, "
						   "Broadcom NetXtreme-E) refused it; it makes RC, "
						   "UD QPs");
	}
	assert_int_equal(host.f->made, 0);
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_RC, &caps, &qp), 0);
	assert_non_null(qp);
	rb_dev_close(&d);
}

/* mlx5: each port a device; port 2 of mlx5_0 points at -d mlx5_0,mlx5_1. */
static void mlx5_second_port_hint(void **state)
{
	const struct rb_dev_want w = want("mlx5_0", 2, -1);

	(void)state;
	persona(FAKE_MLX5);
	assert_int_equal(rb_dev_check(&w), -EINVAL);
	assert_non_null(strstr(rb_last_error, "-i/--ib-port 2: mlx5_0 has 1 port(s); each port is "
					      "a device of its own"));
	assert_non_null(strstr(rb_last_error, "give -d mlx5_0,mlx5_1"));
}

/* An InfiniBand port in INIT has its link: the subnet manager is missing. */
static void ib_port_init_points_at_sm(void **state)
{
	const struct rb_dev_want w = want("mlx5_0", 1, -1);

	(void)state;
	persona(FAKE_MLX5);
	host.port_attr.state = IBV_PORT_INIT;
	assert_int_equal(rb_dev_check(&w), -ENETDOWN);
	assert_non_null(strstr(rb_last_error, "mlx5_0 port 1 is init, not ACTIVE: the link is up "
					      "but no subnet manager"));
	assert_null(strstr(rb_last_error, "cable"));
	host.port_attr.link_layer = IBV_LINK_LAYER_ETHERNET;
	assert_int_equal(rb_dev_check(&w), -ENETDOWN);
	assert_non_null(strstr(rb_last_error, "check the cable"));
}

/* -x on one InfiniBand side only: refused, naming both; both or neither pass. */
static void ib_gid_one_side_refused(void **state)
{
	struct rb_qp_info qa = { .qpn = 2, .lid = 1 }, qb = { .qpn = 3, .lid = 2 };
	struct rb_msg_conn a = { .link_layer = IBV_LINK_LAYER_INFINIBAND, .nqp = 1, .qp = &qa };
	struct rb_msg_conn b = a;
	char err[256];

	(void)state;
	b.qp = &qb;
	snprintf(a.device, sizeof(a.device), "mlx5_0");
	snprintf(b.device, sizeof(b.device), "mlx5_1");
	assert_int_equal(rb_conn_peer_check(&a, &b, err, sizeof(err)), 0);
	inet_pton(AF_INET6, "fe80::1", qa.gid);
	assert_int_equal(rb_conn_peer_check(&a, &b, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "-x/--gid-index on one side only: on InfiniBand mlx5_0 addresses "
				 "by GID (GRH), the peer's mlx5_1 by LID; give -x to both sides or "
				 "to neither");
	inet_pton(AF_INET6, "fe80::2", qb.gid);
	assert_int_equal(rb_conn_peer_check(&a, &b, err, sizeof(err)), 0);
	/* RoCE always addresses by GID; a link layer of each kind never connects. */
	b.link_layer = IBV_LINK_LAYER_ETHERNET;
	assert_int_equal(rb_conn_peer_check(&a, &b, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "Ethernet"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(provider_identified),
		cmocka_unit_test_setup_teardown(efa_ud_by_gid, setup, teardown),
		cmocka_unit_test_setup_teardown(efa_rc_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(efa_inline_32, setup, teardown),
		cmocka_unit_test_setup_teardown(efa_srd, setup, teardown),
		cmocka_unit_test_setup_teardown(bnxt_uc_without_errno, setup, teardown),
		cmocka_unit_test_setup_teardown(mlx5_second_port_hint, setup, teardown),
		cmocka_unit_test_setup_teardown(ib_port_init_points_at_sm, setup, teardown),
		cmocka_unit_test_setup_teardown(ib_gid_one_side_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
