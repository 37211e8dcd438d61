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
 *  - providers' personalities (fake_persona(), core/provider.h): EFA
 *    (UD by GID 0 with a GRH, link layer "Unspecified", RC refused naming
 *    what it makes, 32 bytes inline asked at once), bnxt_re (UC refused
 *    without errno: an error naming the call, never a NULL QP returned as
 *    made), mlx5 (a port past the device's points at -d mlx5_0,mlx5_1; an
 *    IB port in INIT at the subnet manager), -x on one IB side only.
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
#include "core/bench.h"
#include "rdma/verbs.h"
#include "core/bench.h"
#include "wire/plan.h"

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

struct ibv_ah *__wrap_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a);
static struct ibv_ah_attr ah_seen; /* what the last ibv_create_ah() was given */

#ifdef HAVE_EFADV
#include <infiniband/efadv.h>

/* EFA's efadv: the device's SRD caps, and the driver QP type last asked for. */
static uint32_t efa_caps;
static int efa_qp_type = -1;
struct ibv_qp *__wrap_efadv_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a,
					 struct efadv_qp_init_attr *e, uint32_t inlen);
int __wrap_efadv_query_device(struct ibv_context *ctx, struct efadv_device_attr *a, uint32_t inlen);

struct ibv_qp *__wrap_efadv_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a,
					 struct efadv_qp_init_attr *e, uint32_t inlen)
{
	assert_int_equal(inlen, sizeof(*e));
	assert_int_equal(a->qp_type, IBV_QPT_DRIVER);
	efa_qp_type = (int)e->driver_qp_type;
	return ibv_create_qp_ex(ctx, a);
}

int __wrap_efadv_query_device(struct ibv_context *ctx, struct efadv_device_attr *a, uint32_t inlen)
{
	(void)ctx;
	memset(a, 0, inlen);
	a->device_caps = efa_caps;
	a->inline_buf_size = 32;
	return 0;
}
#endif

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

struct ibv_ah *__wrap_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	assert_ptr_equal(pd, &host.pd);
	ah_seen = *a;
	return (struct ibv_ah *)&ah_seen; /* only compared */
}

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
	memset(&mod, 0, sizeof(mod));
	assert_int_equal(rb_qp_connect(&d, qp, 0, 9, &peer, 0, 0, &av), 0);
	assert_int_equal(mod.calls, 3);
	assert_true(mod.mask[IBV_QPS_INIT] & IBV_QP_QKEY);
	assert_int_equal(mod.at[IBV_QPS_INIT].qkey, RB_UD_QKEY);
	assert_int_equal(mod.mask[IBV_QPS_RTR], IBV_QP_STATE);
	assert_int_equal(mod.mask[IBV_QPS_RTS], IBV_QP_STATE | IBV_QP_SQ_PSN);
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
