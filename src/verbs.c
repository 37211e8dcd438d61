// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs.h"

static const char *port_state_str(enum ibv_port_state s)
{
	return ibv_port_state_str(s);
}

/* Find @name, or the first device whose @port is ACTIVE. */
static int find_device(const char *name, int port, struct ibv_context **out)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr pa;
	int n, i, ret = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list || !n) {
		rb_err("no RDMA device found (is the driver loaded? try ibv_devices)");
		goto free_list;
	}
	for (i = 0; i < n && ret; i++) {
		if (name && strcmp(ibv_get_device_name(list[i]), name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			ret = -errno;
			rb_err("%s: cannot open device: %s", ibv_get_device_name(list[i]),
			       strerror(errno));
			break;
		}
		if (!name &&
		    (ibv_query_port(ctx, (uint8_t)port, &pa) || pa.state != IBV_PORT_ACTIVE) &&
		    i < n - 1) {
			ibv_close_device(ctx);
			continue;
		}
		ret = 0;
	}
	if (ret == -ENODEV && name) {
		rb_err("no RDMA device named '%s'; devices here:", name);
		for (i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", ibv_get_device_name(list[i]));
	}
free_list:
	if (list)
		ibv_free_device_list(list);
	*out = ret ? NULL : ctx;
	return ret;
}

static bool gid_is_ipv4(const union ibv_gid *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(g->raw, pfx, sizeof(pfx));
}

/* The first RoCE v2 GID holding an IPv4 address, as perftest users expect. */
static int pick_gid(struct rb_dev *d)
{
	struct ibv_gid_entry e;
	int i;

	for (i = 0; i < d->port_attr.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(d->ctx, d->port, (uint32_t)i, &e, 0))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && gid_is_ipv4(&e.gid))
			return i;
	}
	rb_err("%s port %u: no RoCE v2 GID with an IPv4 address; choose one with -x "
	       "(see rdmabench topo)",
	       d->name, d->port);
	return -ENOENT;
}

static int choose_gid(struct rb_dev *d, int gid_index)
{
	int ret;

	if (gid_index < 0 && d->port_attr.link_layer != IBV_LINK_LAYER_ETHERNET) {
		d->gid_index = -1;
		return 0;
	}
	if (gid_index < 0) {
		gid_index = pick_gid(d);
		if (gid_index < 0)
			return gid_index;
	}
	if (gid_index >= d->port_attr.gid_tbl_len) {
		rb_err("%s port %u: GID index %d out of range (table has %d entries)", d->name,
		       d->port, gid_index, d->port_attr.gid_tbl_len);
		return -EINVAL;
	}
	ret = ibv_query_gid(d->ctx, d->port, gid_index, &d->gid);
	if (ret || !memcmp(&d->gid, &(union ibv_gid){ 0 }, sizeof(d->gid))) {
		rb_err("%s port %u: GID index %d is empty", d->name, d->port, gid_index);
		return -EINVAL;
	}
	d->gid_index = gid_index;
	return 0;
}

static int query_dev(struct rb_dev *d, int port)
{
	int ret;

	if (ibv_query_device(d->ctx, &d->attr)) {
		ret = -errno;
		rb_err("%s: ibv_query_device: %s", d->name, strerror(errno));
		return ret;
	}
	if (port < 1 || port > d->attr.phys_port_cnt) {
		rb_err("%s has %u port(s); port %d does not exist", d->name, d->attr.phys_port_cnt,
		       port);
		return -EINVAL;
	}
	d->port = (uint8_t)port;
	ret = ibv_query_port(d->ctx, d->port, &d->port_attr);
	if (ret) {
		rb_err("%s port %u: ibv_query_port: %s", d->name, d->port, strerror(ret));
		return -ret;
	}
	if (d->port_attr.state != IBV_PORT_ACTIVE) {
		rb_err("%s port %u is %s, not ACTIVE (check the cable or netdev)", d->name, d->port,
		       port_state_str(d->port_attr.state));
		return -ENETDOWN;
	}
	return 0;
}

int rb_dev_open(const char *name, int port, int gid_index, struct rb_dev *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	ret = find_device(name, port, &d->ctx);
	if (ret)
		return ret;
	snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(d->ctx->device));
	ret = query_dev(d, port);
	if (ret)
		goto close_dev;
	ret = choose_gid(d, gid_index);
	if (ret)
		goto close_dev;
	d->pd = ibv_alloc_pd(d->ctx);
	if (!d->pd) {
		ret = -errno;
		rb_err("%s: ibv_alloc_pd: %s", d->name, strerror(errno));
		goto close_dev;
	}
	return 0;
close_dev:
	ibv_close_device(d->ctx);
	d->ctx = NULL;
	return ret;
}

void rb_dev_close(struct rb_dev *d)
{
	if (d->pd)
		ibv_dealloc_pd(d->pd);
	if (d->ctx)
		ibv_close_device(d->ctx);
	d->pd = NULL;
	d->ctx = NULL;
}

const char *rb_link_layer_str(const struct rb_dev *d)
{
	return d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
}

uint32_t rb_mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

enum ibv_mtu rb_mtu_from_bytes(uint32_t bytes)
{
	enum ibv_mtu m;

	for (m = IBV_MTU_256; m <= IBV_MTU_4096; m++)
		if (rb_mtu_bytes(m) == bytes)
			return m;
	return 0;
}

int rb_cq_create(struct rb_dev *d, int cqe, struct ibv_cq **cq)
{
	int ret;

	if (cqe > d->attr.max_cqe)
		cqe = d->attr.max_cqe;
	*cq = ibv_create_cq(d->ctx, cqe, NULL, NULL, 0);
	if (!*cq) {
		ret = -errno;
		rb_err("%s: ibv_create_cq(%d entries): %s", d->name, cqe, strerror(errno));
		return ret;
	}
	return 0;
}

int rb_qp_create(struct rb_dev *d, struct ibv_cq *cq, struct rb_qp_caps *caps, struct ibv_qp **qp)
{
	struct ibv_qp_init_attr a;
	uint32_t inl = caps->inline_size;
	int ret;

	/* Providers refuse an inline size they cannot do without saying the
	 * limit: halve until one is accepted; the caller reports the cap. */
	for (;;) {
		a = (struct ibv_qp_init_attr){
			.send_cq = cq,
			.recv_cq = cq,
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = caps->send_wr,
				 .max_recv_wr = caps->recv_wr,
				 .max_send_sge = 1,
				 .max_recv_sge = 1,
				 .max_inline_data = inl },
		};
		*qp = ibv_create_qp(d->pd, &a);
		if (*qp || !inl)
			break;
		inl /= 2;
	}
	if (!*qp) {
		ret = -errno;
		rb_err("%s: ibv_create_qp(send %u, recv %u): %s", d->name, caps->send_wr,
		       caps->recv_wr, strerror(errno));
		return ret;
	}
	caps->send_wr = a.cap.max_send_wr;
	caps->recv_wr = a.cap.max_recv_wr;
	caps->inline_size = a.cap.max_inline_data < inl ? a.cap.max_inline_data : inl;
	return 0;
}

int rb_mr_reg(struct rb_dev *d, void *buf, size_t len, int access, struct ibv_mr **mr)
{
	int ret;

	*mr = ibv_reg_mr(d->pd, buf, len, access);
	if (!*mr) {
		ret = -errno;
		rb_err("%s: ibv_reg_mr(%zu bytes): %s", d->name, len, strerror(errno));
		return ret;
	}
	return 0;
}

void rb_qp_info(const struct rb_dev *d, const struct ibv_qp *qp, uint32_t psn,
		struct rb_qp_info *out)
{
	out->qpn = qp->qp_num;
	out->psn = psn & 0xffffff;
	out->lid = d->port_attr.lid;
	memcpy(out->gid, d->gid.raw, sizeof(out->gid));
}

static int modify(struct rb_dev *d, struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		  const char *to)
{
	int ret = ibv_modify_qp(qp, a, mask);

	if (ret)
		rb_err("%s qp 0x%x: cannot move to %s: %s", d->name, qp->qp_num, to, strerror(ret));
	return -ret;
}

static int to_rtr(struct rb_dev *d, struct ibv_qp *qp, const struct rb_qp_info *r, enum ibv_mtu mtu,
		  uint8_t rd_atom)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = r->qpn,
		.rq_psn = r->psn,
		.max_dest_rd_atomic = rd_atom,
		.min_rnr_timer = 12, /* 0.64 ms: short, for receivers reposting late */
		.ah_attr = { .dlid = r->lid, .sl = 0, .port_num = d->port },
	};

	if (d->gid_index >= 0) {
		a.ah_attr.is_global = 1;
		memcpy(a.ah_attr.grh.dgid.raw, r->gid, 16);
		a.ah_attr.grh.sgid_index = (uint8_t)d->gid_index;
		a.ah_attr.grh.hop_limit = 64;
	}
	return modify(d, qp, &a,
		      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
		      "RTR");
}

int rb_qp_connect(struct rb_dev *d, struct ibv_qp *qp, int access, uint32_t local_psn,
		  const struct rb_qp_info *remote, enum ibv_mtu mtu, uint8_t rd_atom)
{
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT,
				    .port_num = d->port,
				    .qp_access_flags = access };
	struct ibv_qp_attr rts = {
		.qp_state = IBV_QPS_RTS,
		.timeout = 14, /* 4.096 us * 2^14 = 67 ms per try */
		.retry_cnt = 7,
		.rnr_retry = 7, /* infinite: a slow receiver is not an error */
		.sq_psn = local_psn & 0xffffff,
		.max_rd_atomic = rd_atom,
	};
	int ret;

	ret = modify(d, qp, &init,
		     IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "INIT");
	if (!ret)
		ret = to_rtr(d, qp, remote, mtu, rd_atom);
	if (!ret)
		ret = modify(d, qp, &rts,
			     IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
			     "RTS");
	return ret;
}
