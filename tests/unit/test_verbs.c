// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/rdma/verbs.c on the fake provider (fake_verbs.h), with
 * the library calls that find, open and query a device, and create a CQ,
 * wrapped (-Wl,--wrap, Makefile.am): a device list of fake devices whose
 * attributes each test sets (verbs_fx.c).
 *
 *  - rb_cq_entries(): what can be outstanding, with and without an SRQ;
 *  - rb_cq_create(): a CQ beyond max_cqe is refused, never cut;
 *  - rb_dev_check() (a server's check before it listens): a device that
 *    does not exist, named with those that do; a port or GID index out of
 *    range; a port that is down; the device closed again;
 *  - rb_qp_connect(): this side's -u, --retry-count, --pkey-index and -L
 *    reach ibv_modify_qp() (wrapped), and a P_Key index past the port's
 *    table is refused before it.
 *  - rb_qp_create() for the extended post API (ibv_create_qp_ex with
 *    send_ops_flags), its fallback and --post-api wr's refusal;
 *    rb_post_send_ex() against the fake's ibv_qp_ex;
 *  - rb_mr_reg(): relaxed ordering refused, registered without it; a
 *    refusal under RLIMIT_MEMLOCK names the limit and the fix.
 */
#include "verbs_fx.h"

static struct rb_dev fake_dev(void)
{
	struct rb_dev d;

	memset(&d, 0, sizeof(d));
	d.ctx = &host.f->ctx;
	d.pd = &host.pd;
	d.attr = host.attr;
	d.port = 1;
	snprintf(d.name, sizeof(d.name), "fake0");
	return d;
}

static void cq_entries_bound(void **state)
{
	(void)state;
	/* -q 64 -t 512 -r 512: every QP's sends and receives. */
	assert_int_equal(rb_cq_entries(64, 512, 512, false), 65536);
	/* --srq: the receives are the SRQ's, shared by every QP. */
	assert_int_equal(rb_cq_entries(64, 512, 512, true), 64 * 512 + 512);
	/* write_bw: no receives at all. */
	assert_int_equal(rb_cq_entries(64, 512, 0, false), 32768);
	assert_int_equal(rb_cq_entries(1, 128, 512, false), 640);
	/* No overflow at the options' largest values. */
	assert_true(rb_cq_entries(RB_MAX_QPS, UINT32_MAX, UINT32_MAX, false) >
		    (uint64_t)UINT32_MAX * RB_MAX_QPS);
}

/* One entry over max_cqe: refused, and no CQ made (today's code made a smaller one). */
static void cq_over_max_cqe_refused(void **state)
{
	struct rb_dev d = fake_dev();
	struct ibv_cq *cq = NULL;

	(void)state;
	assert_int_equal(rb_cq_create(&d, 32768, &cq), -EINVAL);
	assert_int_equal(host.cqs, 0);
	assert_string_equal(rb_last_error, "fake0: a CQ of 32768 entries exceeds the device's "
					   "max_cqe 32767");
}

static void cq_at_max_cqe_whole(void **state)
{
	struct rb_dev d = fake_dev();
	struct ibv_cq *cq = NULL;

	(void)state;
	assert_int_equal(rb_cq_create(&d, 32767, &cq), 0);
	assert_ptr_equal(cq, &host.f->cq);
	assert_int_equal(host.cqs, 1);
	assert_int_equal(host.cqe, 32767);
}

/*
 * -X/--vector: the CQ on the channel and vector asked for; a vector past
 * the device's num_comp_vectors refused (-ERANGE: a usage error), no CQ.
 */
static void cq_vector_checked(void **state)
{
	struct rb_dev d = fake_dev();
	struct ibv_comp_channel ch = { .fd = -1 };
	struct ibv_cq *cq = NULL;

	(void)state;
	d.ctx->num_comp_vectors = 4;
	assert_int_equal(rb_cq_create_on(&d, 64, &ch, 3, &cq), 0);
	assert_int_equal(host.cqs, 1);
	assert_ptr_equal(host.ch, &ch);
	assert_int_equal(host.vec, 3);
	assert_int_equal(rb_cq_create_on(&d, 64, NULL, 4, &cq), -ERANGE);
	assert_int_equal(host.cqs, 1);
	assert_string_equal(rb_last_error, "-X/--vector 4: fake0 has 4 completion vector(s) "
					   "(0..3)");
	assert_int_equal(rb_cq_create(&d, 64, &cq), 0);
	assert_null(host.ch);
	assert_int_equal(host.vec, 0);
}

/*
 * The devices that exist are named on the error's one line: that line
 * (rb_last_error) is what a server sends its client, and a JSON "reason".
 */
static void dev_open_unknown_names_devices(void **state)
{
	const struct rb_dev_want w = want("mlx5_0", 0, -1);
	struct rb_dev d;

	(void)state;
	assert_int_equal(rb_dev_open_want(&w, &d), -ENODEV);
	assert_string_equal(rb_last_error, "no RDMA device named 'mlx5_0'; devices here: fake0, "
					   "fake1");
	assert_int_equal(host.opens, 0);
}

static void dev_check_unknown(void **state)
{
	const struct rb_dev_want w = want("nosuch", 0, -1);

	(void)state;
	assert_int_equal(rb_dev_check(&w), -ENODEV);
	assert_string_equal(rb_last_error, "no RDMA device named 'nosuch'; devices here: fake0, "
					   "fake1");
	assert_int_equal(host.opens, host.closes);
}

static void dev_check_ok_closes(void **state)
{
	const struct rb_dev_want named = want("fake1", 1, 1), any = want(NULL, 1, -1);

	(void)state;
	assert_int_equal(rb_dev_check(&named), 0);
	assert_int_equal(rb_dev_check(&any), 0);
	assert_true(host.opens >= 2);
	assert_int_equal(host.opens, host.closes);
	assert_string_equal(rb_last_error, "");
}

/* A usage error (exit 2), as on the client. */
static void dev_check_port_range(void **state)
{
	const struct rb_dev_want w = want("fake0", 2, -1);

	(void)state;
	assert_int_equal(rb_dev_check(&w), -EINVAL);
	assert_string_equal(rb_last_error, "-i/--ib-port 2: fake0 has 1 port(s)");
	assert_int_equal(host.opens, host.closes);
}

static void dev_check_port_down(void **state)
{
	const struct rb_dev_want w = want("fake0", 1, -1);

	(void)state;
	host.port_attr.state = IBV_PORT_DOWN;
	assert_int_equal(rb_dev_check(&w), -ENETDOWN);
	assert_non_null(strstr(rb_last_error, "fake0 port 1 is down, not ACTIVE"));
	assert_int_equal(host.opens, host.closes);
}

static void dev_check_gid(void **state)
{
	const struct rb_dev_want range = want("fake0", 0, 9), empty = want("fake0", 1, 3);
	const struct rb_dev_want unnamed = want(NULL, 0, 3);

	(void)state;
	assert_int_equal(rb_dev_check(&range), -EINVAL);
	assert_string_equal(rb_last_error, "-x/--gid-index 9: fake0 port 1's GID table has 4 "
					   "entries");
	assert_int_equal(rb_dev_check(&empty), -EINVAL);
	assert_non_null(strstr(rb_last_error, "-x/--gid-index 3: GID 3 is empty"));
	/* Which device the run takes is the connection's to say: -x waits. */
	rb_last_error[0] = '\0';
	assert_int_equal(rb_dev_check(&unnamed), 0);
	assert_int_equal(host.opens, host.closes);
}

/*
 * iWARP (the fake's FAKE_IWARP personality, siw's GID table: one IB GID
 * made of the MAC): the device opens on its transport's row, without a
 * RoCE GID (before: "no RoCE GID with an IPv4 address"), and the row
 * says rdma_cm only, the CM's own RTS, no atomics, RC only.
 */
static void iwarp_opens_without_roce_gid(void **state)
{
	struct sockaddr_in local = { .sin_family = AF_INET };
	struct rb_dev_want w = want("siw0", 0, -1);
	struct rb_dev d;

	(void)state;
	inet_pton(AF_INET, "192.0.2.1", &local.sin_addr);
	fake_xport_device(FAKE_IWARP, &host.dev[0], &host.attr, &host.port_attr);
	host.iwarp_gids = true;
	w.local = (struct sockaddr *)&local;
	assert_int_equal(rb_dev_open_want(&w, &d), 0);
	assert_string_equal(d.name, "siw0");
	assert_string_equal(d.tr->name, "iWARP");
	assert_true(d.tr->cm_only && d.tr->cm_sets_rts && d.tr->cm_on_tcp);
	assert_false(d.tr->atomics);
	assert_int_equal(d.tr->qp_types, RB_TR_BIT(RB_TR_RC));
	assert_int_equal(d.tr->read_sink_access, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(d.gid_index, -1);
	assert_string_equal(d.why_gid, "iWARP port: addressed by IP through rdma_cm, no RoCE GID");
	rb_dev_close(&d);
	assert_int_equal(host.pds, 0);
	assert_int_equal(host.opens, host.closes);
	/* The same table on a RoCE device is refused, as it was. */
	fake_xport_device(FAKE_ROCE, &host.dev[0], &host.attr, &host.port_attr);
	snprintf(host.dev[0].name, sizeof(host.dev[0].name), "siw0");
	assert_true(rb_dev_open_want(&w, &d) < 0);
	assert_non_null(strstr(rb_last_error, "no RoCE GID"));
}

/* A connected RC QP on a RoCE port (GID 1, so a GRH), with @av. */
static int connect_rc(const struct rb_av *av)
{
	struct rb_dev d = { .name = "fake0", .port = 1, .gid_index = 1 };
	struct ibv_qp qp = { .qp_num = 0x11, .qp_type = IBV_QPT_RC };
	const struct rb_qp_info peer = { .qpn = 0x22, .psn = 5, .lid = 0 };

	d.port_attr.pkey_tbl_len = 2;
	memset(&fake_mod, 0, sizeof(fake_mod));
	return rb_qp_connect(&d, &qp, IBV_ACCESS_REMOTE_WRITE, 7, &peer, IBV_MTU_1024, 1, av);
}

static void qp_attrs_reach_modify(void **state)
{
	const struct rb_av def = { .qp = { 14, 7, 0, 64 } }, mine = { .qp = { 20, 3, 1, 9 } };

	(void)state;
	assert_int_equal(connect_rc(&def), 0);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].timeout, 14);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].retry_cnt, 7);
	assert_int_equal(fake_mod.at[IBV_QPS_INIT].pkey_index, 0);
	assert_int_equal(fake_mod.at[IBV_QPS_RTR].ah_attr.grh.hop_limit, 64);
	assert_int_equal(connect_rc(&mine), 0);
	assert_int_equal(fake_mod.calls, 3);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].timeout, 20);
	assert_true(fake_mod.mask[IBV_QPS_RTS] & IBV_QP_TIMEOUT);
	assert_int_equal(fake_mod.at[IBV_QPS_RTS].retry_cnt, 3);
	assert_true(fake_mod.mask[IBV_QPS_RTS] & IBV_QP_RETRY_CNT);
	assert_int_equal(fake_mod.at[IBV_QPS_INIT].pkey_index, 1);
	assert_true(fake_mod.mask[IBV_QPS_INIT] & IBV_QP_PKEY_INDEX);
	assert_int_equal(fake_mod.at[IBV_QPS_RTR].ah_attr.grh.hop_limit, 9);
}

static void pkey_index_past_table(void **state)
{
	const struct rb_av av = { .qp = { 14, 7, 2, 64 } };

	(void)state;
	assert_int_equal(connect_rc(&av), -EINVAL);
	assert_int_equal(fake_mod.calls, 0);
	assert_string_equal(rb_last_error, "fake0 port 1: no P_Key index 2 (--pkey-index): its "
					   "table has 2");
}

/* The extended API asked for and given: ibv_create_qp_ex with the row's send_ops_flags. */
static void qp_create_ex(void **state)
{
	struct rb_dev d = fake_dev();
	struct rb_qp_caps caps = { .send_wr = 64, .recv_wr = 1, .send_ops = IBV_QP_EX_WITH_SEND };
	struct ibv_qp *qp = NULL;

	(void)state;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_RC, &caps, &qp), 0);
	assert_ptr_equal(qp, fake_qp(host.f, 0));
	assert_true(caps.ex);
	assert_true(host.f->made_ex[0]);
	assert_true(host.f->made_attr.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
	assert_int_equal(host.f->made_attr.send_ops_flags, IBV_QP_EX_WITH_SEND);
	assert_ptr_equal(rb_qp_post_fn(qp, caps.ex), rb_post_send_ex);
}

/* Without send_ops, or where the provider refuses them (auto): an ordinary QP. */
static void qp_create_plain_fallback(void **state)
{
	struct rb_dev d = fake_dev();
	struct rb_qp_caps caps = { .send_wr = 64, .recv_wr = 1 };
	struct ibv_qp *qp = NULL;

	(void)state;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_RC, &caps, &qp), 0);
	assert_false(caps.ex);
	assert_int_equal(host.f->made_attr.comp_mask, IBV_QP_INIT_ATTR_PD);
	assert_ptr_equal(rb_qp_post_fn(qp, false), host.f->ctx.ops.post_send);
	host.f->no_ex = true;
	caps.send_ops = IBV_QP_EX_WITH_RDMA_WRITE;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_RC, &caps, &qp), 0);
	assert_ptr_equal(qp, fake_qp(host.f, 1));
	assert_false(caps.ex);
	assert_false(host.f->made_ex[1]);
	assert_int_equal(host.f->made_attr.comp_mask, IBV_QP_INIT_ATTR_PD);
}

/* --post-api wr on a provider without it: refused, naming the call. */
static void qp_create_ex_only_refused(void **state)
{
	struct rb_dev d = fake_dev();
	struct rb_qp_caps caps = {
		.send_wr = 64, .recv_wr = 1, .send_ops = IBV_QP_EX_WITH_RDMA_READ, .ex_only = true
	};
	struct ibv_qp *qp = NULL;

	(void)state;
	host.f->no_ex = true;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_RC, &caps, &qp), -EOPNOTSUPP);
	assert_null(qp);
	assert_int_equal(host.f->made, 0);
	assert_non_null(strstr(rb_last_error, "fake0: ibv_create_qp_ex(RC, send 64, recv 1, "
					      "send_ops_flags)"));
}

/*
 * rb_post_send_ex(): a UD chain, one WR inline and one with its SGE, goes
 * through ibv_wr_* as ibv_post_send() would take it; an opcode it does not
 * know is refused (EINVAL) and the chain aborted.
 */
static void post_send_ex_ud(void **state)
{
	struct rb_dev d = fake_dev();
	struct rb_qp_caps caps = { .send_wr = 64, .recv_wr = 1, .send_ops = IBV_QP_EX_WITH_SEND };
	struct ibv_ah *ah = (struct ibv_ah *)&host; /* only compared */
	uint8_t data[16] = { 1, 2, 3 };
	struct ibv_sge sge[2] = { { (uintptr_t)data, 3, 0x77 }, { (uintptr_t)data, 16, 0x78 } };
	struct ibv_send_wr wr[2], *bad = NULL;
	struct ibv_qp *qp = NULL;
	int k;

	(void)state;
	assert_int_equal(rb_qp_create(&d, &host.f->cq, IBV_QPT_UD, &caps, &qp), 0);
	assert_true(caps.ex);
	memset(wr, 0, sizeof(wr));
	for (k = 0; k < 2; k++) {
		wr[k].wr_id = (uint64_t)k << 32 | 1;
		wr[k].sg_list = &sge[k];
		wr[k].num_sge = 1;
		wr[k].opcode = IBV_WR_SEND;
		wr[k].send_flags = IBV_SEND_SIGNALED | (k ? 0 : IBV_SEND_INLINE);
		wr[k].wr.ud.ah = ah;
		wr[k].wr.ud.remote_qpn = 0x123 + (uint32_t)k;
		wr[k].wr.ud.remote_qkey = RB_UD_QKEY;
	}
	wr[0].next = &wr[1];
	wr[0].wr_id = 1; /* the fake checks wr_ids as the loops make them: QP 0 */
	wr[1].wr_id = 1;
	assert_int_equal(rb_post_send_ex(qp, wr, &bad), 0);
	assert_int_equal(host.f->wr_misuse, 0);
	assert_int_equal(host.f->wr_chains, 1);
	assert_int_equal(host.f->nwrs, 2);
	assert_int_equal(host.f->wrs[0].flags, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
	assert_int_equal(host.f->wrs[0].length, 3);
	assert_int_equal(host.f->wrs[1].lkey, 0x78);
	assert_int_equal(host.f->wrs[1].length, 16);
	assert_int_equal(host.f->pend[1].wr.ud.remote_qpn, 0x124);
	assert_ptr_equal(host.f->pend[0].wr.ud.ah, ah);
	assert_int_equal(host.f->pend[0].wr.ud.remote_qkey, RB_UD_QKEY);
	wr[1].opcode = IBV_WR_BIND_MW;
	assert_int_equal(rb_post_send_ex(qp, wr, &bad), EINVAL);
	assert_ptr_equal(bad, &wr[1]);
	assert_int_equal(host.f->building, 0);
	assert_int_equal(host.f->wr_chains, 1);
}

/*
 * Relaxed ordering refused (EINVAL: a kernel without it): registered
 * without, once, and the next registration goes without at once; another
 * error is not retried.
 */
static void mr_reg_relaxed_refused(void **state)
{
	struct rb_dev d = fake_dev();
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING;
	uint8_t buf[64];
	struct ibv_mr *mr = NULL;

	(void)state;
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), 0);
	assert_int_equal(host.reg_calls, 1);
	assert_int_equal(host.reg_access[0], access);
	assert_int_equal(d.relaxed_err, 0);
	host.reg_refuse = EINVAL;
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), 0);
	assert_ptr_equal(mr, &host.mr);
	assert_int_equal(host.reg_calls, 3);
	assert_int_equal(host.reg_access[2], IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(d.relaxed_err, EINVAL);
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), 0);
	assert_int_equal(host.reg_calls, 4);
	assert_int_equal(host.reg_access[3], IBV_ACCESS_LOCAL_WRITE);
	/* ENOMEM is not the flag's: no second try, the error as it is. */
	d.relaxed_err = 0;
	host.reg_calls = 0;
	host.reg_refuse = ENOMEM;
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), -ENOMEM);
	assert_int_equal(host.reg_calls, 1);
	assert_int_equal(d.relaxed_err, 0);
}

/*
 * A registration refused with ENOMEM under a finite RLIMIT_MEMLOCK: the
 * error names the limit, the bytes asked and the fix (memlock.c).
 */
/*
 * --odp checks the plan's transport's odp_caps for the verbs the point
 * uses (issue 37 item 19): an mlx5-like device (RC: everything; UC: none;
 * UD: SEND only) takes write_bw on RC, refuses it on UC and send_bw on UD
 * for RECV; --write-with-imm needs RECV, --use-srq SRQ_RECV instead.
 */
static void odp_caps_by_transport(void **state)
{
	const uint32_t all = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV | IBV_ODP_SUPPORT_WRITE |
			     IBV_ODP_SUPPORT_READ | IBV_ODP_SUPPORT_ATOMIC |
			     IBV_ODP_SUPPORT_SRQ_RECV;
	struct ibv_odp_caps c = { .general_caps = IBV_ODP_SUPPORT,
				  .per_transport_caps = { .rc_odp_caps = all,
							  .uc_odp_caps = 0,
							  .ud_odp_caps = IBV_ODP_SUPPORT_SEND } };
	const struct rb_bench *wbw = rb_bench_find("write_bw"), *sbw = rb_bench_find("send_bw");
	struct rb_params p = { 0 };
	char why[256];

	(void)state;
	assert_string_equal(
		rb_odp_missing(&c, RB_TR_RC, rb_bench_odp_need(wbw, &p), why, sizeof(why)), "");
	assert_string_equal(rb_odp_missing(&c, RB_TR_UC, rb_bench_odp_need(wbw, &p), why,
					   sizeof(why)),
			    "odp_caps.per_transport_caps.uc_odp_caps lacks IBV_ODP_SUPPORT_WRITE");
	assert_string_equal(rb_odp_missing(&c, RB_TR_UD, rb_bench_odp_need(sbw, &p), why,
					   sizeof(why)),
			    "odp_caps.per_transport_caps.ud_odp_caps lacks IBV_ODP_SUPPORT_RECV");
	assert_string_equal(rb_odp_missing(&c, RB_TR_UC, rb_bench_odp_need(sbw, &p), why,
					   sizeof(why)),
			    "odp_caps.per_transport_caps.uc_odp_caps lacks IBV_ODP_SUPPORT_SEND, "
			    "IBV_ODP_SUPPORT_RECV");
	assert_int_equal(rb_bench_odp_need(wbw, &p), IBV_ODP_SUPPORT_WRITE);
	p.imm = 1;
	assert_int_equal(rb_bench_odp_need(wbw, &p), IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_RECV);
	p.srq = 1;
	assert_int_equal(rb_bench_odp_need(wbw, &p),
			 IBV_ODP_SUPPORT_WRITE | IBV_ODP_SUPPORT_SRQ_RECV);
	c.general_caps = 0;
	assert_non_null(strstr(
		rb_odp_missing(&c, RB_TR_RC, IBV_ODP_SUPPORT_WRITE, why, sizeof(why)), "lacks "
										       "IBV_ODP_"
										       "SUPPORT)"));
}

static void mr_reg_memlock_message(void **state)
{
	struct rb_dev d = fake_dev();
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING;
	struct rlimit old, low;
	uint8_t buf[64];
	struct ibv_mr *mr = NULL;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &old), 0);
	low = old;
	low.rlim_cur = 65536;
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < low.rlim_cur)
		low.rlim_cur = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);
	host.reg_refuse = ENOMEM;
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), -ENOMEM);
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &old), 0);
	assert_non_null(strstr(rb_last_error, "ibv_reg_mr(64 bytes): Cannot allocate memory; "));
	assert_non_null(strstr(rb_last_error, "RLIMIT_MEMLOCK allows this process"));
	assert_non_null(strstr(rb_last_error, "64 bytes asked"));
	assert_non_null(strstr(rb_last_error, "ulimit -l unlimited"));
	/* Another errno is not the limit's: the error alone. */
	host.reg_refuse = EFAULT;
	assert_int_equal(rb_mr_reg(&d, buf, sizeof(buf), access, &mr), -EFAULT);
	assert_null(strstr(rb_last_error, "RLIMIT_MEMLOCK"));
}

/* The fake host as provider @p's one device shows itself. */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(cq_entries_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(cq_over_max_cqe_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(cq_at_max_cqe_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(cq_vector_checked, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_open_unknown_names_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_check_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_check_ok_closes, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_check_port_range, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_check_port_down, setup, teardown),
		cmocka_unit_test_setup_teardown(dev_check_gid, setup, teardown),
		cmocka_unit_test_setup_teardown(iwarp_opens_without_roce_gid, setup, teardown),
		cmocka_unit_test(qp_attrs_reach_modify),
		cmocka_unit_test(pkey_index_past_table),
		cmocka_unit_test_setup_teardown(qp_create_ex, setup, teardown),
		cmocka_unit_test_setup_teardown(qp_create_plain_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(qp_create_ex_only_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(post_send_ex_ud, setup, teardown),
		cmocka_unit_test_setup_teardown(mr_reg_relaxed_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(mr_reg_memlock_message, setup, teardown),
		cmocka_unit_test(odp_caps_by_transport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
