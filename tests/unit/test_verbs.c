// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/verbs.c on the fake provider (fake_verbs.h), with
 * the library calls that find, open and query a device, and create a CQ,
 * wrapped (-Wl,--wrap, Makefile.am): a device list of fake devices whose
 * attributes each test sets.
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
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "fake_verbs.h"
#include "rdma/verbs.h"

#define NDEV 2

/* The fake host: its devices, their attributes, what was opened. */
static struct {
	struct fake *f; /* the context every device opens to, and the CQ */
	struct ibv_device dev[NDEV];
	int ndev;
	struct ibv_device_attr attr;
	struct ibv_port_attr port_attr;
	int opens, closes, cqs;
	int cqe;		     /* what the last ibv_create_cq() asked for */
	struct ibv_comp_channel *ch; /* and its channel and vector */
	int vec;
	struct ibv_pd pd;
	struct ibv_mr mr;
	int reg_calls, reg_access[4]; /* ibv_reg_mr()s and their access flags */
	int reg_refuse;		      /* errno for a registration with relaxed ordering */
	bool iwarp_gids; /* the GID table as siw's: one IB GID from the MAC, no address */
	int pds;	 /* PDs allocated and not freed */
} host;

struct ibv_device **__wrap_ibv_get_device_list(int *n);
void __wrap_ibv_free_device_list(struct ibv_device **list);
const char *__wrap_ibv_get_device_name(struct ibv_device *d);
struct ibv_context *__wrap_ibv_open_device(struct ibv_device *d);
int __wrap_ibv_close_device(struct ibv_context *ctx);
int __wrap_ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *a);
int __wrap_ibv_query_port(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *a);
ssize_t __wrap__ibv_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *e, size_t max,
				    uint32_t flags, size_t size);
struct ibv_cq *__wrap_ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_ctx,
				    struct ibv_comp_channel *ch, int vec);
int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask);

/* Each transition rb_qp_connect() asked for, by the state it moves to. */
static struct {
	struct ibv_qp_attr at[IBV_QPS_RTS + 1];
	int mask[IBV_QPS_RTS + 1];
	int calls;
} mod;

int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	(void)qp;
	assert_true(a->qp_state <= IBV_QPS_RTS);
	mod.at[a->qp_state] = *a;
	mod.mask[a->qp_state] = mask;
	mod.calls++;
	return 0;
}

struct ibv_qp *__wrap_ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a);
struct ibv_pd *__wrap_ibv_alloc_pd(struct ibv_context *ctx);
int __wrap_ibv_dealloc_pd(struct ibv_pd *pd);

struct ibv_pd *__wrap_ibv_alloc_pd(struct ibv_context *ctx)
{
	host.pd.context = ctx;
	host.pds++;
	return &host.pd;
}

int __wrap_ibv_dealloc_pd(struct ibv_pd *pd)
{
	assert_ptr_equal(pd, &host.pd);
	host.pds--;
	return 0;
}
struct ibv_qp_ex *__wrap_ibv_qp_to_qp_ex(struct ibv_qp *qp);
struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access);

struct ibv_qp *__wrap_ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	return fake_create_qp(pd, a);
}

struct ibv_qp_ex *__wrap_ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	return fake_qp_to_qp_ex(qp);
}

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access)
{
	(void)iova;
	assert_ptr_equal(pd, &host.pd);
	if (host.reg_calls < 4)
		host.reg_access[host.reg_calls] = (int)access;
	host.reg_calls++;
	if (host.reg_refuse && (access & IBV_ACCESS_RELAXED_ORDERING)) {
		errno = host.reg_refuse;
		return NULL;
	}
	host.mr.addr = addr;
	host.mr.length = len;
	return &host.mr;
}

struct ibv_device **__wrap_ibv_get_device_list(int *n)
{
	struct ibv_device **list = calloc((size_t)host.ndev + 1, sizeof(*list));
	int i;

	assert_non_null(list);
	for (i = 0; i < host.ndev; i++)
		list[i] = &host.dev[i];
	*n = host.ndev;
	return list;
}

void __wrap_ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *__wrap_ibv_get_device_name(struct ibv_device *d)
{
	return d->name;
}

struct ibv_context *__wrap_ibv_open_device(struct ibv_device *d)
{
	host.opens++;
	host.f->ctx.device = d;
	return &host.f->ctx;
}

int __wrap_ibv_close_device(struct ibv_context *ctx)
{
	assert_ptr_equal(ctx, &host.f->ctx);
	host.closes++;
	return 0;
}

int __wrap_ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *a)
{
	(void)ctx;
	*a = host.attr;
	return 0;
}

int __wrap_ibv_query_port(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *a)
{
	(void)ctx;
	if (port < 1 || port > host.attr.phys_port_cnt)
		return EINVAL;
	/* The caller's object is a whole struct ibv_port_attr (verbs.h). */
	*(struct ibv_port_attr *)(void *)a = host.port_attr;
	return 0;
}

/* Port 1's GIDs: 0 link-local IPv6, 1 ::ffff:192.0.2.1, both RoCE v2; 2 and 3 empty. */
ssize_t __wrap__ibv_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *e, size_t max,
				    uint32_t flags, size_t size)
{
	static const uint8_t mac_gid[16] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };

	(void)ctx;
	(void)flags;
	assert_int_equal(size, sizeof(*e));
	assert_true(max >= 2);
	memset(e, 0, 2 * sizeof(*e));
	if (host.iwarp_gids) {
		memcpy(e[0].gid.raw, mac_gid, sizeof(mac_gid));
		e[0].port_num = 1;
		e[0].gid_type = IBV_GID_TYPE_IB;
		return 1;
	}
	e[0].gid.raw[0] = 0xfe;
	e[0].gid.raw[1] = 0x80;
	e[0].gid.raw[15] = 1;
	e[1].gid.raw[10] = e[1].gid.raw[11] = 0xff;
	inet_pton(AF_INET, "192.0.2.1", &e[1].gid.raw[12]);
	e[1].gid_index = 1;
	e[0].port_num = e[1].port_num = 1;
	e[0].gid_type = e[1].gid_type = IBV_GID_TYPE_ROCE_V2;
	return 2;
}

struct ibv_cq *__wrap_ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_ctx,
				    struct ibv_comp_channel *ch, int vec)
{
	(void)cq_ctx;
	assert_ptr_equal(ctx, &host.f->ctx);
	host.cqs++;
	host.cqe = cqe;
	host.ch = ch;
	host.vec = vec;
	host.f->cq.cqe = cqe;
	return &host.f->cq;
}

/* rxe0's figures, as ibv_devinfo -v shows them in the lab. */
static int setup(void **state)
{
	(void)state;
	memset(&host, 0, sizeof(host));
	host.f = fake_new(2, 128);
	host.pd.context = &host.f->ctx;
	host.ndev = NDEV;
	snprintf(host.dev[0].name, sizeof(host.dev[0].name), "fake0");
	snprintf(host.dev[1].name, sizeof(host.dev[1].name), "fake1");
	host.attr.phys_port_cnt = 1;
	host.attr.max_cqe = 32767;
	host.attr.max_qp_wr = 16384;
	host.port_attr.state = IBV_PORT_ACTIVE;
	host.port_attr.link_layer = IBV_LINK_LAYER_ETHERNET;
	host.port_attr.gid_tbl_len = 4;
	host.port_attr.active_mtu = IBV_MTU_1024;
	rb_last_error[0] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_free(host.f);
	return 0;
}

/* A device as rb_dev_open_want() leaves it, without the library. */
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

/* The want of a server given -d @name, -i @port, -x @gid. */
static struct rb_dev_want want(const char *name, int port, int gid)
{
	return (struct rb_dev_want){ .name = name,
				     .port = port,
				     .gid_index = gid,
				     .local = NULL,
				     .peer_family = AF_UNSPEC };
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
	fake_persona_device(FAKE_IWARP, &host.dev[0], &host.attr, &host.port_attr);
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
	fake_persona_device(FAKE_ROCE, &host.dev[0], &host.attr, &host.port_attr);
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
	memset(&mod, 0, sizeof(mod));
	return rb_qp_connect(&d, &qp, IBV_ACCESS_REMOTE_WRITE, 7, &peer, IBV_MTU_1024, 1, av);
}

static void qp_attrs_reach_modify(void **state)
{
	const struct rb_av def = { .qp = { 14, 7, 0, 64 } }, mine = { .qp = { 20, 3, 1, 9 } };

	(void)state;
	assert_int_equal(connect_rc(&def), 0);
	assert_int_equal(mod.at[IBV_QPS_RTS].timeout, 14);
	assert_int_equal(mod.at[IBV_QPS_RTS].retry_cnt, 7);
	assert_int_equal(mod.at[IBV_QPS_INIT].pkey_index, 0);
	assert_int_equal(mod.at[IBV_QPS_RTR].ah_attr.grh.hop_limit, 64);
	assert_int_equal(connect_rc(&mine), 0);
	assert_int_equal(mod.calls, 3);
	assert_int_equal(mod.at[IBV_QPS_RTS].timeout, 20);
	assert_true(mod.mask[IBV_QPS_RTS] & IBV_QP_TIMEOUT);
	assert_int_equal(mod.at[IBV_QPS_RTS].retry_cnt, 3);
	assert_true(mod.mask[IBV_QPS_RTS] & IBV_QP_RETRY_CNT);
	assert_int_equal(mod.at[IBV_QPS_INIT].pkey_index, 1);
	assert_true(mod.mask[IBV_QPS_INIT] & IBV_QP_PKEY_INDEX);
	assert_int_equal(mod.at[IBV_QPS_RTR].ah_attr.grh.hop_limit, 9);
}

static void pkey_index_past_table(void **state)
{
	const struct rb_av av = { .qp = { 14, 7, 2, 64 } };

	(void)state;
	assert_int_equal(connect_rc(&av), -EINVAL);
	assert_int_equal(mod.calls, 0);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
