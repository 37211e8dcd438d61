// SPDX-License-Identifier: MIT
/* The device tests' fake host (test_verbs*.c); verbs_fx.h says what it holds. */
#include "verbs_fx.h"

struct fake_host host;

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

struct ibv_ah *__wrap_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a);
struct ibv_ah_attr ah_seen; /* what the last ibv_create_ah() was given */

#ifdef HAVE_EFADV
#include <infiniband/efadv.h>

/* EFA's efadv: the device's SRD caps, and the driver QP type last asked for. */
uint32_t efa_caps;
int efa_qp_type = -1;
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
struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access);

struct ibv_ah *__wrap_ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	assert_ptr_equal(pd, &host.pd);
	ah_seen = *a;
	return (struct ibv_ah *)&ah_seen; /* only compared */
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
int setup(void **state)
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

int teardown(void **state)
{
	(void)state;
	fake_free(host.f);
	return 0;
}

/* A device as rb_dev_open_want() leaves it, without the library. */

/* The want of a server given -d @name, -i @port, -x @gid. */
struct rb_dev_want want(const char *name, int port, int gid)
{
	return (struct rb_dev_want){ .name = name,
				     .port = port,
				     .gid_index = gid,
				     .local = NULL,
				     .peer_family = AF_UNSPEC };
}
