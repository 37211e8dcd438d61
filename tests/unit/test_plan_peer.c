// SPDX-License-Identifier: MIT
/*
 * Unit tests for the checks of what a peer sends besides the plan
 * (src/wire/plan.c): its CONN (MTU, numbers, probe, placement), its
 * setup and result figures, and the verbs path.
 */
#include "plan_fx.h"

/* ---- what a peer sends besides the plan ------------------------------ */

/*
 * A CONN as a rxe peer sends it for a plan of @nqp QPs and one MR; its
 * lists are static, made anew by each call.
 */
static struct rb_msg_conn good_conn(uint32_t nqp)
{
	static struct rb_qp_info qps[8];
	static struct rb_mr_info mrs[8];
	struct rb_msg_conn c = {
		.mtu = 1024,
		.max_rd_atom = 128,
		.rkey = 0x1234,
		.addr = 0x7f0000001000ULL,
		.len = 131072,
		.nqp = nqp,
		.link_layer = IBV_LINK_LAYER_ETHERNET,
		.nmr = 1,
		.qp = qps,
		.mr = mrs,
		.place = { .device_numa_node = 1, .cpus = "0-3 8", .mem_node = 1, .local = 1 }
	};
	uint32_t i;

	memset(qps, 0, sizeof(qps));
	memset(mrs, 0, sizeof(mrs));
	mrs[0] = (struct rb_mr_info){ 0x7f0000001000ULL, 0x1234 };
	for (i = 0; i < nqp; i++)
		c.qp[i] = (struct rb_qp_info){ .qpn = 17 + i, .psn = 0xabcdef, .lid = 0 };
	return c;
}

static const struct rb_conn_want want2 = { 2, 1, 131072, false, 0 };

#define CONN_REFUSED(c, needle)                                                            \
	do {                                                                               \
		char e_[512] = "";                                                         \
		assert_int_equal(rb_conn_validate(&(c), &want2, e_, sizeof(e_)), -EPROTO); \
		if (!strstr(e_, (needle)))                                                 \
			fail_msg("message '%s' lacks '%s'", e_, (needle));                 \
	} while (0)

/* The lab's lying peer: an MTU of 0 reached ibv_modify_qp and hung rxe. */
static void conn_mtu(void **state)
{
	static const uint32_t bad[] = { 0, 100, 255, 257, 768, 5000, 8192, UINT32_MAX };
	static const uint32_t good[] = { 256, 512, 1024, 2048, 4096 };
	struct rb_msg_conn c = good_conn(2);
	char err[256], want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		c.mtu = good[i];
		assert_int_equal(rb_conn_validate(&c, &want2, err, sizeof(err)), 0);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c.mtu = bad[i];
		snprintf(want, sizeof(want), "CONN mtu %u is not an MTU", bad[i]);
		CONN_REFUSED(c, want);
	}
}

/* QPN and PSN are 24 bits; LID, link layer, counts and MR sizes as the plan needs. */
static void conn_numbers(void **state)
{
	struct rb_msg_conn c;

	(void)state;
	c = good_conn(2);
	c.qp[1].qpn = 0x1000000;
	CONN_REFUSED(c, "CONN qp[1].qpn 0x1000000 is not a QP number");
	c = good_conn(2);
	c.qp[0].qpn = 1;
	CONN_REFUSED(c, "CONN qp[0].qpn 0x1 is not a QP number (2..0xffffff)");
	/* iWARP numbers its QPs from 1 (siw): this side's transport says so. */
	{
		struct rb_conn_want iw = want2;
		char e[256];

		iw.min_qpn = 1;
		c.transport = IBV_TRANSPORT_IWARP;
		assert_int_equal(rb_conn_validate(&c, &iw, e, sizeof(e)), 0);
		c.qp[0].qpn = 0;
		assert_int_equal(rb_conn_validate(&c, &iw, e, sizeof(e)), -EPROTO);
		assert_non_null(strstr(e, "CONN qp[0].qpn 0x0 is not a QP number (1..0xffffff)"));
	}
	c = good_conn(2);
	c.transport = 9;
	CONN_REFUSED(c, "CONN transport 9 is not a transport (0..4)");
	c = good_conn(2);
	c.qp[1].psn = 0xffffffff;
	CONN_REFUSED(c, "CONN qp[1].psn 0xffffffff exceeds 24 bits");
	c = good_conn(2);
	c.link_layer = 7;
	CONN_REFUSED(c, "CONN link_layer 7");
	c = good_conn(2);
	c.link_layer = IBV_LINK_LAYER_INFINIBAND; /* LID 0 on InfiniBand */
	CONN_REFUSED(c, "CONN qp[0].lid 0x0 is not a unicast LID");
	c.qp[0].lid = c.qp[1].lid = 0xc001;
	CONN_REFUSED(c, "CONN qp[0].lid 0xc001 is not a unicast LID");
	c.qp[0].lid = c.qp[1].lid = 5;
	assert_int_equal(rb_conn_validate(&c, &want2, c.device, sizeof(c.device)), 0);
	c = good_conn(1);
	CONN_REFUSED(c, "CONN nqp 1: the plan has 2 QP(s)");
	c = good_conn(2);
	c.nmr = 2;
	CONN_REFUSED(c, "CONN nmr 2: the plan has 1 MR(s)");
	c = good_conn(2);
	c.len = 65536;
	CONN_REFUSED(c, "CONN len 65536: the plan needs 131072 bytes per MR");
	c = good_conn(2);
	c.addr = c.mr[0].addr = UINT64_MAX - 1000;
	CONN_REFUSED(c, "CONN mr[0].addr 0xfffffffffffffc17 + len 131072 wraps");
}

/* --probe: its QP exactly when the plan has --probe, checked as a data QP. */
static void conn_probe(void **state)
{
	struct rb_conn_want w = want2;
	struct rb_msg_conn c;
	char err[256];

	(void)state;
	c = good_conn(2);
	c.has_probe = 1;
	c.probe_qp = c.qp[0];
	CONN_REFUSED(c, "CONN has a probe QP, but the plan has no --probe");
	w.probe = true;
	assert_int_equal(rb_conn_validate(&c, &w, err, sizeof(err)), 0);
	c.probe_qp.qpn = 0;
	assert_int_equal(rb_conn_validate(&c, &w, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "CONN probe_qp.qpn 0x0 is not a QP number"));
	c.probe_qp = c.qp[0];
	c.probe_qp.psn = 0x1000000;
	assert_int_equal(rb_conn_validate(&c, &w, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "CONN probe_qp.psn 0x1000000 exceeds 24 bits"));
	c = good_conn(2);
	assert_int_equal(rb_conn_validate(&c, &w, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "CONN lacks a probe QP, but the plan has --probe"));
}

/* Placement fields in range; cpus a CPU list, shown escaped when refused. */
static void conn_placement(void **state)
{
	struct rb_msg_conn c;
	char err[256];

	(void)state;
	c = good_conn(2);
	c.place.device_numa_node = 2147483647;
	CONN_REFUSED(c, "placement device_numa_node 2147483647 is out of range (-1..1023)");
	c = good_conn(2);
	c.place.mem_node = -2;
	CONN_REFUSED(c, "placement mem_node -2 is out of range (-1..1023)");
	c = good_conn(2);
	c.place.local = 99;
	CONN_REFUSED(c, "placement local 99 is out of range (-1..1)");
	c = good_conn(2);
	snprintf(c.place.cpus, sizeof(c.place.cpus), "\033[2J1");
	CONN_REFUSED(c, "placement cpus '\\x1b[2J1' is not a CPU list");
	snprintf(c.place.cpus, sizeof(c.place.cpus), "0-3,8 10 ...");
	assert_int_equal(rb_place_validate(&c.place, err, sizeof(err)), 0);
	c.place = (struct rb_placement){ .device_numa_node = -1, .mem_node = -1, .local = -1 };
	assert_int_equal(rb_place_validate(&c.place, err, sizeof(err)), 0);
}

/* -100 % CPU and 1e308 Gb/s reached the JSON as sent. */
/* The server's setup figures (RESULT v14): its QP count, sane times. */
static void setup_figures(void **state)
{
	struct rb_msg_result ok = { .has_setup = true,
				    .setup_qps = 4096,
				    .setup_create_ms = 341.9,
				    .setup_connect_ms = 0 };
	struct rb_msg_result m;

	(void)state;
	assert_true(rb_setup_check(&ok, 4096));
	assert_false(rb_setup_check(&ok, 4095));
	m = ok;
	m.setup_create_ms = -0.5;
	assert_false(rb_setup_check(&m, 4096));
	m = ok;
	m.setup_connect_ms = NAN;
	assert_false(rb_setup_check(&m, 4096));
	m.setup_connect_ms = INFINITY;
	assert_false(rb_setup_check(&m, 4096));
	m.setup_connect_ms = RB_PEER_SETUP_MAX_MS;
	assert_true(rb_setup_check(&m, 4096));
	m.setup_connect_ms = RB_PEER_SETUP_MAX_MS * 1.01;
	assert_false(rb_setup_check(&m, 4096));
}

static void result_figures(void **state)
{
	struct rb_msg_result ok = { .iters = 1000,
				    .bw_avg_gbps = 12.5,
				    .cpu_util_pct = 100.0,
				    .bw_peak_gbps = 13,
				    .msg_rate_mpps = 0.3,
				    .duration_s = 2 };
	struct rb_msg_result m;

	(void)state;
	assert_int_equal(rb_result_check(&ok, 1000), 0);
	assert_int_equal(rb_result_check(&ok, 0), 0);
	assert_int_equal(rb_result_check(&ok, 999), RB_PEER_ITERS);
	m = ok;
	m.cpu_util_pct = -100;
	m.bw_avg_gbps = 1e308;
	assert_int_equal(rb_result_check(&m, 0), RB_PEER_CPU | RB_PEER_BW_AVG);
	m = ok;
	m.cpu_util_pct = 250;
	m.bw_peak_gbps = NAN;
	m.msg_rate_mpps = INFINITY;
	m.duration_s = -1;
	assert_int_equal(rb_result_check(&m, 0),
			 RB_PEER_CPU | RB_PEER_BW_PEAK | RB_PEER_MSG_RATE | RB_PEER_DURATION);
	/* A server that measured nothing (issue 21 item 2) sends NaN for its
	 * CPU and duration: no lie; with iterations, NaN is one. */
	m = (struct rb_msg_result){ .cpu_util_pct = NAN, .duration_s = NAN };
	assert_int_equal(rb_result_check(&m, 1000), 0);
	m.iters = 1;
	assert_int_equal(rb_result_check(&m, 1000), RB_PEER_CPU | RB_PEER_DURATION);
	m.iters = 0;
	m.bw_avg_gbps = NAN;
	assert_int_equal(rb_result_check(&m, 1000), RB_PEER_BW_AVG);
	assert_string_equal(rb_result_field(RB_PEER_CPU), "cpu_util_pct");
	assert_string_equal(rb_result_field(RB_PEER_ITERS), "iterations");
	assert_null(rb_result_field(1u << RB_PEER_NFIELDS));
}

/* The verbs layer's own last line: no MTU enum 0, no 25-bit QPN or PSN. */
static void verbs_path_checked(void **state)
{
	struct rb_qp_info q = { .qpn = 0x11, .psn = 0xffffff };

	(void)state;
	assert_int_equal(rb_mtu_from_bytes(0), 0);
	assert_int_equal(rb_mtu_from_bytes(5000), 0);
	assert_false(rb_qp_path_ok(rb_mtu_from_bytes(0), &q));
	assert_false(rb_qp_path_ok((enum ibv_mtu)(IBV_MTU_4096 + 1), &q));
	assert_true(rb_qp_path_ok(IBV_MTU_256, &q));
	assert_true(rb_qp_path_ok(IBV_MTU_4096, &q));
	q.psn = 0x1000000;
	assert_false(rb_qp_path_ok(IBV_MTU_1024, &q));
	q.psn = 0;
	q.qpn = 0x1000000;
	assert_false(rb_qp_path_ok(IBV_MTU_1024, &q));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conn_mtu),	  cmocka_unit_test(conn_numbers),
		cmocka_unit_test(conn_placement), cmocka_unit_test(result_figures),
		cmocka_unit_test(setup_figures),  cmocka_unit_test(verbs_path_checked),
		cmocka_unit_test(conn_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
