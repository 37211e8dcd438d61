// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/addr.h"
#include "rdma/memlock.h"
#include "rdma/verbs.h"

static const char *port_state_str(enum ibv_port_state s)
{
	return ibv_port_state_str(s);
}

/*
 * A library call's errno as a return value.  -EINVAL is kept for usage
 * errors (the caller exits 2), so a library EINVAL becomes -EIO; the
 * message logged says the real cause.
 */
static int lib_errno(int err)
{
	return err == EINVAL || !err ? -EIO : -err;
}

/* No device at all: say how to try rdmabench anyway, on Soft-RoCE. */
static void no_device(void)
{
	char ifname[IF_NAMESIZE + 1];

	if (rb_guess_netdev(ifname, sizeof(ifname)))
		snprintf(ifname, sizeof(ifname), "IFACE");
	rb_err("no RDMA device found (is the driver loaded? try ibv_devices)");
	fprintf(stderr,
		"%s: hint: to try it without RDMA hardware, add a Soft-RoCE device (as root): "
		"rdma link add rxe0 type rxe netdev %s; from a source tree, "
		"scripts/rxe-lab -- build/src/rdmabench ... runs it in a VM that has one\n",
		RB_TOOL, ifname);
}

/* The valid GID entries of @port, read in one call (the table spans all ports). */
static int read_gids(struct ibv_context *ctx, uint8_t port, struct ibv_gid_entry **tbl, size_t *n)
{
	const char *name = ibv_get_device_name(ctx->device);
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	size_t max = 0, i;
	ssize_t got;
	int p, ret;

	*tbl = NULL;
	*n = 0;
	if (ibv_query_device(ctx, &da)) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_query_device: %s", name, strerror(errno));
		return ret;
	}
	for (p = 1; p <= da.phys_port_cnt; p++) {
		ret = ibv_query_port(ctx, (uint8_t)p, &pa);
		if (ret) {
			rb_err("%s port %d: ibv_query_port: %s", name, p, strerror(ret));
			return lib_errno(ret);
		}
		max += (size_t)pa.gid_tbl_len;
	}
	if (!max)
		return 0;
	*tbl = calloc(max, sizeof(**tbl));
	if (!*tbl) {
		rb_err("%s: cannot allocate a GID table of %zu entries", name, max);
		return -ENOMEM;
	}
	got = ibv_query_gid_table(ctx, *tbl, max, 0);
	if (got < 0) {
		rb_err("%s port %u: ibv_query_gid_table: %s", name, port, strerror((int)-got));
		free(*tbl);
		*tbl = NULL;
		return lib_errno((int)-got);
	}
	for (i = 0; i < (size_t)got; i++)
		if ((*tbl)[i].port_num == port)
			(*tbl)[(*n)++] = (*tbl)[i];
	return 0;
}

/* A device and port found, and the GID holding the local address (-1: none). */
struct pick {
	struct ibv_context *ctx;
	int port;
	int gid;
};

/* Why a device was picked, the slots of find_device()'s picks, best first. */
enum pick_how { PICK_LOCAL, PICK_ACTIVE, PICK_FIRST, PICK_N };

/* The GID of @port holding @local, or -1; < -1 is -errno. */
static int port_holds(struct ibv_context *ctx, int port, const struct sockaddr *local)
{
	struct ibv_gid_entry *tbl;
	size_t n;
	int ret;

	ret = read_gids(ctx, (uint8_t)port, &tbl, &n);
	if (ret)
		return ret;
	ret = rb_gid_find(tbl, n, local);
	free(tbl);
	return ret;
}

/*
 * Look at @ctx's ports (only @w->port when > 0): keep the first active one
 * in @first, and in @hit the one whose GID table holds @w->local.
 */
static int scan_ports(struct ibv_context *ctx, const struct rb_dev_want *w, struct pick *hit,
		      struct pick *first)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int p, gid;

	if (ibv_query_device(ctx, &da)) {
		rb_err("%s: ibv_query_device: %s", ibv_get_device_name(ctx->device),
		       strerror(errno));
		return lib_errno(errno);
	}
	for (p = 1; p <= da.phys_port_cnt && !hit->ctx; p++) {
		if ((w->port > 0 && p != w->port) || ibv_query_port(ctx, (uint8_t)p, &pa) ||
		    pa.state != IBV_PORT_ACTIVE)
			continue;
		if (!first->ctx)
			*first = (struct pick){ ctx, p, -1 };
		if (!w->local || pa.link_layer != IBV_LINK_LAYER_ETHERNET ||
		    !rb_transport_of(ctx->device->transport_type)->roce_gid)
			continue;
		gid = port_holds(ctx, p, w->local);
		if (gid < -1)
			return gid;
		if (gid >= 0)
			*hit = (struct pick){ ctx, p, gid };
	}
	return 0;
}

/* Close every device opened in @p[0..n) but @keep, each once. */
static void close_others(struct pick *p, int n, const struct ibv_context *keep)
{
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && p[j].ctx != p[i].ctx; j++)
			;
		if (p[i].ctx && p[i].ctx != keep && j == i)
			ibv_close_device(p[i].ctx);
	}
}

/* Open the devices @w allows in turn, until one holds @w->local. */
static int scan_devices(struct ibv_device **list, int n, const struct rb_dev_want *w,
			struct pick p[PICK_N])
{
	struct ibv_context *ctx;
	int i, ret = 0;

	/* Without a local address to look for, the first active port will do. */
	for (i = 0; i < n && !p[PICK_LOCAL].ctx && !(p[PICK_ACTIVE].ctx && !w->local) && !ret;
	     i++) {
		if (w->name && strcmp(ibv_get_device_name(list[i]), w->name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			ret = lib_errno(errno);
			rb_err("%s: cannot open device: %s", ibv_get_device_name(list[i]),
			       strerror(errno));
			break;
		}
		ret = scan_ports(ctx, w, &p[PICK_LOCAL], &p[PICK_ACTIVE]);
		if (!p[PICK_FIRST].ctx)
			p[PICK_FIRST] = (struct pick){ ctx, w->port > 0 ? w->port : 1, -1 };
		if (ctx != p[PICK_LOCAL].ctx && ctx != p[PICK_ACTIVE].ctx &&
		    ctx != p[PICK_FIRST].ctx)
			ibv_close_device(ctx);
	}
	return ret;
}

/* Say why @c was chosen: it held the local address, was active, or was seen first. */
static void why_dev(struct rb_dev *d, const struct rb_dev_want *w, const struct pick *c,
		    enum pick_how how)
{
	const char *name = ibv_get_device_name(c->ctx->device);
	char a[INET6_ADDRSTRLEN], *b = d->why_dev;
	size_t len = sizeof(d->why_dev);

	rb_addr_str(w->local, a, sizeof(a));
	if (how == PICK_LOCAL)
		snprintf(b, len,
			 "%s port %d: GID %d holds %s, the local address of the out-of-band "
			 "connection",
			 name, c->port, c->gid, a);
	else if (how == PICK_FIRST)
		snprintf(b, len, "%s port %d: no active port found", name, c->port);
	else if (w->name && w->port > 0)
		snprintf(b, len, "%s port %d: set by -d/--device and -i/--ib-port", name, c->port);
	else if (w->name)
		snprintf(b, len, "%s port %d: the device's first active port", name, c->port);
	else if (w->port > 0)
		snprintf(b, len, "%s port %d: the first device with port %d active", name, c->port,
			 c->port);
	else
		snprintf(b, len, "%s port %d: the first active port", name, c->port);
	if (how == PICK_ACTIVE && w->local)
		snprintf(b + strlen(b), len - strlen(b),
			 "; no GID holds %s, the local address of the out-of-band connection", a);
}

/*
 * -d names no device here: one line naming those there are, so that the
 * message a server sends its client, and a JSON "reason", hold them too.
 */
static void no_such_device(const char *name, struct ibv_device **list, int n)
{
	char names[256];
	size_t off = 0;
	int i;

	names[0] = '\0';
	for (i = 0; i < n && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					ibv_get_device_name(list[i]));
	rb_err("no RDMA device named '%s'; devices here: %s", name, names);
}

/* Find the device and port @w asks for: @d->ctx, its name, the port. */
static int find_device(const struct rb_dev_want *w, struct rb_dev *d, int *port)
{
	struct pick p[PICK_N] = { { 0 } };
	struct ibv_device **list;
	int n, ret = -ENODEV;
	enum pick_how how;

	list = ibv_get_device_list(&n);
	if (!list || !n) {
		no_device();
		goto free_list;
	}
	ret = scan_devices(list, n, w, p);
	for (how = PICK_LOCAL; how < PICK_N && !p[how].ctx; how++)
		;
	close_others(p, PICK_N, how < PICK_N && !ret ? p[how].ctx : NULL);
	if (ret || how == PICK_N)
		goto not_found;
	d->ctx = p[how].ctx;
	*port = p[how].port;
	snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(d->ctx->device));
	why_dev(d, w, &p[how], how);
	ret = 0;
	goto free_list;
not_found:
	if (!ret && w->name) {
		ret = -ENODEV;
		no_such_device(w->name, list, n);
	}
free_list:
	if (list)
		ibv_free_device_list(list);
	return ret;
}

/* The kernel driver owning @dev: its sysfs device/driver link's name, "" when none. */
static void dev_driver(struct ibv_device *dev, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n = -1;

	buf[0] = '\0';
	if (dev->ibdev_path[0] && (size_t)snprintf(link, sizeof(link), "%s/device/driver",
						   dev->ibdev_path) < sizeof(link))
		n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < len)
		memcpy(buf, base, strlen(base) + 1);
}

/* Why a port is not ACTIVE, and where to look. */
static void port_not_active(const struct rb_dev *d)
{
	const char *state = port_state_str(d->port_attr.state);

	if (d->port_attr.state == IBV_PORT_INIT &&
	    d->port_attr.link_layer == IBV_LINK_LAYER_INFINIBAND)
		rb_err("%s port %u is %s, not ACTIVE: the link is up but no subnet manager has "
		       "configured the port (is opensm running on the fabric? try sminfo)",
		       d->name, d->port, state);
	else
		rb_err("%s port %u is %s, not ACTIVE (check the cable or netdev)", d->name, d->port,
		       state);
}

static int query_dev(struct rb_dev *d, int port, const char *port_by)
{
	char driver[64];
	int ret;

	if (ibv_query_device(d->ctx, &d->attr)) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_query_device: %s", d->name, strerror(errno));
		return ret;
	}
	dev_driver(d->ctx->device, driver, sizeof(driver));
	d->prov = rb_prov_identify(driver, d->name, d->attr.vendor_id);
	if (port < 1 || port > d->attr.phys_port_cnt) {
		if (port_by) /* -O: ports 1 and 2 */
			rb_err("%s runs ports 1 and 2: %s has %u port(s)%s%s", port_by, d->name,
			       d->attr.phys_port_cnt, d->prov->one_port_per_device ? "; " : "",
			       d->prov->one_port_per_device ? d->prov->quirk : "");
		else
			rb_err("-i/--ib-port %d: %s has %u port(s)%s%s", port, d->name,
			       d->attr.phys_port_cnt, d->prov->one_port_per_device ? "; " : "",
			       d->prov->one_port_per_device ? d->prov->quirk : "");
		return -EINVAL;
	}
	d->port = (uint8_t)port;
	d->tr = rb_transport_of(d->ctx->device->transport_type);
	ret = ibv_query_port(d->ctx, d->port, &d->port_attr);
	if (ret) {
		rb_err("%s port %u: ibv_query_port: %s", d->name, d->port, strerror(ret));
		return lib_errno(ret);
	}
	if (d->port_attr.state != IBV_PORT_ACTIVE) {
		port_not_active(d);
		return -ENETDOWN;
	}
	return 0;
}

/* Keep GID @index of @tbl in @d, with @why. */
static void set_gid(struct rb_dev *d, const struct ibv_gid_entry *tbl, size_t n, int index,
		    const char *why)
{
	size_t i = strnlen(why, sizeof(d->why_gid) - 1);

	d->gid_index = index;
	memcpy(d->why_gid, why, i); /* d is zeroed: the NUL is there */
	for (i = 0; i < n && index >= 0; i++) {
		if (tbl[i].gid_index != (uint32_t)index)
			continue;
		d->gid = tbl[i].gid;
		snprintf(d->gid_type, sizeof(d->gid_type), "%s", rb_gid_type_str(tbl[i].gid_type));
		rb_gid_str(&d->gid, d->gid_addr, sizeof(d->gid_addr));
	}
}

/* A provider addressed by GID whatever its link layer (EFA): GID 0. */
static int gid_zero(struct rb_dev *d)
{
	struct ibv_gid_entry *tbl = NULL;
	char why[128];
	size_t n = 0;
	int ret = read_gids(d->ctx, d->port, &tbl, &n);

	if (!ret && !n) {
		rb_err("%s port %u: no GID, and %s (link layer %s) is addressed by GID", d->name,
		       d->port, d->prov->name, rb_link_layer_str(d));
		ret = -ENOENT;
	}
	snprintf(why, sizeof(why), "GID 0: %s's link layer is %s, it is addressed by GID",
		 d->prov->name, rb_link_layer_str(d));
	if (!ret)
		set_gid(d, tbl, n, 0, why);
	free(tbl);
	return ret;
}

static int choose_gid(struct rb_dev *d, const struct rb_dev_want *w)
{
	struct rb_gid_want gw = { .ethernet = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET &&
					      d->tr->roce_gid,
				  .local = w->local,
				  .peer_family = w->peer_family,
				  .forced = w->gid_index,
				  .family = w->gid_family,
				  .no_gid_why = d->tr->no_gid_why };
	struct ibv_gid_entry *tbl = NULL;
	size_t n = 0;
	char msg[512];
	int ret, index;

	if (w->gid_index >= d->port_attr.gid_tbl_len) {
		rb_err("-x/--gid-index %d: %s port %u's GID table has %d entries", w->gid_index,
		       d->name, d->port, d->port_attr.gid_tbl_len);
		return -EINVAL;
	}
	/* No link layer to go by (EFA): the peer is reached by GID 0, of no
	 * address family. */
	if (d->prov->addr_by_gid && gw.forced < 0)
		return gid_zero(d);
	if (gw.ethernet || gw.forced >= 0) {
		ret = read_gids(d->ctx, d->port, &tbl, &n);
		if (ret)
			return ret;
	}
	ret = rb_gid_choose(tbl, n, &gw, &index, msg, sizeof(msg));
	if (ret)
		rb_err("%s port %u: %s", d->name, d->port, msg);
	else
		set_gid(d, tbl, n, index, msg);
	free(tbl);
	return ret;
}

int rb_dev_open_want(const struct rb_dev_want *w, struct rb_dev *d)
{
	int port = 0, ret;

	memset(d, 0, sizeof(*d));
	ret = find_device(w, d, &port);
	if (ret)
		return ret;
	ret = query_dev(d, port, w->port_by);
	if (ret)
		goto close_dev;
	ret = choose_gid(d, w);
	if (ret)
		goto close_dev;
	d->pd = ibv_alloc_pd(d->ctx);
	if (!d->pd) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_alloc_pd: %s", d->name, strerror(errno));
		goto close_dev;
	}
	return 0;
close_dev:
	ibv_close_device(d->ctx);
	d->ctx = NULL;
	return ret;
}

/*
 * A destroy that fails leaks a kernel object until the process ends (and
 * the next to fail is usually the dealloc of the PD): said once, named.
 */
static void destroyed(const struct rb_dev *d, const char *what, int ret)
{
	if (ret)
		rb_warn("%s: %s failed: %s", d->name, what, strerror(ret));
}

void rb_resources_close(struct rb_dev *d, const struct rb_res *res)
{
	char what[48];
	uint32_t i;

	for (i = 0; i < res->nqp; i++) {
		if (!res->qp[i])
			continue;
		snprintf(what, sizeof(what), "ibv_destroy_qp(0x%x)", res->qp[i]->qp_num);
		destroyed(d, what, ibv_destroy_qp(res->qp[i]));
	}
	if (res->srq)
		destroyed(d, "ibv_destroy_srq", ibv_destroy_srq(res->srq));
	if (res->cq)
		destroyed(d, "ibv_destroy_cq", ibv_destroy_cq(res->cq));
	if (res->channel)
		destroyed(d, "ibv_destroy_comp_channel", ibv_destroy_comp_channel(res->channel));
	for (i = 0; i < res->nmr; i++)
		if (res->mr[i])
			destroyed(d, "ibv_dereg_mr", ibv_dereg_mr(res->mr[i]));
}

void rb_dev_netdev(const struct rb_dev *d, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	buf[0] = '\0';
	if (d->gid_index < 0)
		return;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%d",
		 d->name, d->port, d->gid_index);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void rb_dev_close(struct rb_dev *d)
{
	if (d->pd)
		destroyed(d, "ibv_dealloc_pd", ibv_dealloc_pd(d->pd));
	if (d->ctx)
		destroyed(d, "ibv_close_device", ibv_close_device(d->ctx));
	d->pd = NULL;
	d->ctx = NULL;
}

int rb_dev_check(const struct rb_dev_want *w)
{
	struct rb_dev d;
	int port = 0, ret;

	memset(&d, 0, sizeof(d));
	ret = find_device(w, &d, &port);
	if (ret)
		return ret;
	ret = query_dev(&d, port, w->port_by);
	/* The GID table checked is the one the run will use only when the
	 * device and port are fixed; the GID itself is chosen later, from the
	 * connection's address, and only -x is checked here. */
	if (!ret && w->gid_index >= 0 && w->name && (w->port > 0 || d.attr.phys_port_cnt == 1))
		ret = choose_gid(&d, w);
	destroyed(&d, "ibv_close_device", ibv_close_device(d.ctx));
	return ret;
}

const char *rb_link_layer_str(const struct rb_dev *d)
{
	return rb_prov_link_layer_str(d->port_attr.link_layer);
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

bool rb_qp_path_ok(enum ibv_mtu mtu, const struct rb_qp_info *remote)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 && remote->qpn <= 0xffffff &&
	       remote->psn <= 0xffffff;
}

static const char *qpt_name(enum ibv_qp_type t)
{
	return t == IBV_QPT_UD ? "UD" : t == IBV_QPT_UC ? "UC" : t == IBV_QPT_DRIVER ? "SRD" : "RC";
}

uint64_t rb_cq_entries(uint32_t nqp, uint32_t send_wr, uint32_t recv_wr, bool srq)
{
	return (uint64_t)nqp * send_wr + (srq ? recv_wr : (uint64_t)nqp * recv_wr);
}

int rb_cq_create(struct rb_dev *d, uint64_t cqe, struct ibv_cq **cq)
{
	return rb_cq_create_on(d, cqe, NULL, 0, cq);
}

int rb_channel_create(struct rb_dev *d, struct ibv_comp_channel **chan)
{
	int flags, ret;

	*chan = ibv_create_comp_channel(d->ctx);
	if (!*chan) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_create_comp_channel: %s", d->name, strerror(errno));
		return ret;
	}
	flags = fcntl((*chan)->fd, F_GETFL);
	if (flags < 0 || fcntl((*chan)->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		ret = -errno;
		rb_err("%s: the completion channel's fd %d: fcntl O_NONBLOCK: %m", d->name,
		       (*chan)->fd);
		destroyed(d, "ibv_destroy_comp_channel", ibv_destroy_comp_channel(*chan));
		*chan = NULL;
		return ret;
	}
	return 0;
}

int rb_cq_check(const struct rb_dev *d, uint64_t cqe, uint32_t vector)
{
	if (vector >= (uint32_t)d->ctx->num_comp_vectors) {
		rb_err("-X/--vector %u: %s has %d completion vector(s) (0..%d)", vector, d->name,
		       d->ctx->num_comp_vectors, d->ctx->num_comp_vectors - 1);
		return -ERANGE;
	}

	/* A CQ cut below what can be outstanding overruns: the QPs go to the
	 * error state mid-run, or completions are lost. */
	if (cqe > (uint64_t)d->attr.max_cqe) {
		rb_err("%s: a CQ of %llu entries exceeds the device's max_cqe %d", d->name,
		       (unsigned long long)cqe, d->attr.max_cqe);
		return -EINVAL;
	}
	return 0;
}

int rb_cq_create_on(struct rb_dev *d, uint64_t cqe, struct ibv_comp_channel *chan, uint32_t vector,
		    struct ibv_cq **cq)
{
	int ret = rb_cq_check(d, cqe, vector);

	if (ret)
		return ret;
	*cq = ibv_create_cq(d->ctx, (int)cqe, NULL, chan, (int)vector);
	if (!*cq) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_create_cq(%llu entries): %s", d->name, (unsigned long long)cqe,
		       strerror(errno));
		return ret;
	}
	return 0;
}

/* What a QP on @cq with @caps and @inl bytes inline asks for. */
static struct ibv_qp_init_attr_ex qp_attr(struct rb_dev *d, struct ibv_cq *cq,
					  enum ibv_qp_type type, const struct rb_qp_caps *caps,
					  uint32_t inl)
{
	return (struct ibv_qp_init_attr_ex){
		.send_cq = cq,
		.recv_cq = cq,
		.srq = caps->srq,
		.qp_type = type,
		.cap = { .max_send_wr = caps->send_wr,
			 .max_recv_wr = caps->srq ? 0 : caps->recv_wr,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = inl },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = d->pd,
		.send_ops_flags = caps->send_ops,
	};
}

/*
 * One QP as @a says, through the extended API (send_ops_flags) when @ex;
 * an ordinary one (ibv_create_qp_ex() without them is ibv_create_qp()).
 */
static struct ibv_qp *qp_try(struct rb_dev *d, struct ibv_qp_init_attr_ex *a, bool ex)
{
	if (ex)
		a->comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	return ibv_create_qp_ex(d->ctx, a);
}

/*
 * Whether @qp takes ibv_wr_*: its ibv_qp_ex is the one it begins
 * (rb_post_send_ex() finds it so, without a look-up per post).
 */
static bool qp_is_ex(struct ibv_qp *qp)
{
	struct ibv_qp_ex *x = ibv_qp_to_qp_ex(qp);

	return x && &x->qp_base == qp;
}

/*
 * With the extended API when wanted, else (or when the provider refuses
 * it and the caller allows) an ordinary QP; caps->ex says which.
 */
static struct ibv_qp *qp_make(struct rb_dev *d, struct ibv_cq *cq, enum ibv_qp_type type,
			      struct rb_qp_caps *caps, uint32_t inl, struct ibv_qp_init_attr_ex *a)
{
	struct ibv_qp *qp = NULL;

	*a = qp_attr(d, cq, type, caps, inl);
	if (type == IBV_QPT_DRIVER) {
		qp = rb_srd_create(d, a);
		caps->ex = qp != NULL;
		return qp;
	}
	if (caps->send_ops) {
		qp = qp_try(d, a, true);
		if (qp && qp_is_ex(qp)) {
			caps->ex = true;
			return qp;
		}
		if (qp && caps->ex_only) {
			ibv_destroy_qp(qp);
			errno = EOPNOTSUPP;
			return NULL;
		}
		if (qp || caps->ex_only)
			return qp; /* an ibv_qp_ex we cannot reach: ibv_post_send() */
		*a = qp_attr(d, cq, type, caps, inl);
	}
	return qp_try(d, a, false);
}

/*
 * The provider returned no QP and set no errno (bnxt_re refuses UC so):
 * say what was asked and what the provider makes, never a leftover errno.
 */
static int qp_refused_silently(const struct rb_dev *d, enum ibv_qp_type type,
			       const struct rb_qp_caps *caps)
{
	const struct rb_provider *p = d->prov ? d->prov : rb_prov_get(RB_PROV_GENERIC);
	char offers[64];

	rb_err("%s: %s(%s, send %u, recv %u, inline %u%s) returned no QP and set no errno: "
	       "the provider (%s, %s) refused it; it makes %s QPs",
	       d->name, caps->send_ops ? "ibv_create_qp_ex" : "ibv_create_qp", qpt_name(type),
	       caps->send_wr, caps->recv_wr, rb_inline_ask(d, caps->inline_size),
	       caps->send_ops ? ", send_ops_flags" : "", p->name, p->family,
	       rb_prov_offers_str(p->offers, offers, sizeof(offers)));
	return -EOPNOTSUPP;
}

/* SRD: a build with efadv, and the verbs the device's SRD QPs take. */
static bool srd_refused(struct rb_dev *d, const struct rb_qp_caps *caps)
{
	char has[96], want[96];
	uint64_t ops;

	if (!rb_srd_built()) {
		rb_err("-c SRD: %s: this rdmabench was built without efadv (configure found no "
		       "libefa and infiniband/efadv.h)",
		       d->name);
		return true;
	}
	ops = rb_srd_ops(d);
	if (caps->send_ops && !(caps->send_ops & ~ops))
		return false;
	rb_err("-c SRD: %s's SRD QPs take %s (efadv_query_device), not %s", d->name,
	       rb_wr_ops_str(ops, has, sizeof(has)),
	       rb_wr_ops_str(caps->send_ops & ~ops, want, sizeof(want)));
	return true;
}

int rb_qp_create(struct rb_dev *d, struct ibv_cq *cq, enum ibv_qp_type type,
		 struct rb_qp_caps *caps, struct ibv_qp **qp)
{
	struct ibv_qp_init_attr_ex a;
	uint32_t inl = rb_inline_ask(d, caps->inline_size), took;
	int ret;

	caps->ex = false;
	if (type == IBV_QPT_DRIVER && srd_refused(d, caps))
		return -EOPNOTSUPP;
	/* Providers refuse an inline size they cannot do without saying the
	 * limit (a device below its row's, or a provider with none): ask
	 * again at three quarters until one is accepted (halving from 220
	 * landed at 55 where 96 or 101 fit); the read-back below says what
	 * the QP took, and the caller reports a cap. */
	for (;;) {
		errno = 0;
		*qp = qp_make(d, cq, type, caps, inl, &a);
		if (*qp || !inl)
			break;
		inl = inl * 3 / 4; /* inl is 65536 at most: no overflow */
	}
	if (!*qp && !errno)
		return qp_refused_silently(d, type, caps);
	if (!*qp) {
		ret = -errno;
		rb_err("%s: %s(%s, send %u, recv %u%s): %s", d->name,
		       caps->ex_only ? "ibv_create_qp_ex" : "ibv_create_qp", qpt_name(type),
		       caps->send_wr, caps->recv_wr, caps->ex_only ? ", send_ops_flags" : "",
		       strerror(errno));
		return ret;
	}
	caps->send_wr = a.cap.max_send_wr;
	caps->recv_wr = a.cap.max_recv_wr;
	/* -I auto: all the QP took; -I N: N at most. */
	took = inl ? rb_qp_inline_took(*qp, &a) : 0;
	caps->inline_size = caps->inline_size == RB_INLINE_AUTO || took < caps->inline_size
				    ? took
				    : caps->inline_size;
	return 0;
}

int rb_srq_create(struct rb_dev *d, uint32_t max_wr, struct ibv_srq **srq)
{
	struct ibv_srq_init_attr a = { .attr = { .max_wr = max_wr, .max_sge = 1 } };
	int ret;

	if (!d->attr.max_srq || max_wr > (uint32_t)d->attr.max_srq_wr) {
		rb_err("--srq with -r/--rx-depth %u: %s has %d SRQs of at most %d receives", max_wr,
		       d->name, d->attr.max_srq, d->attr.max_srq_wr);
		return -EINVAL;
	}
	*srq = ibv_create_srq(d->pd, &a);
	if (!*srq) {
		ret = lib_errno(errno);
		rb_err("%s: ibv_create_srq(%u receives): %s", d->name, max_wr, strerror(errno));
		return ret;
	}
	return 0;
}

/* An access flag a provider or kernel may not know: refused so, it is left out. */
static bool refused_optional(int err)
{
	return err == EINVAL || err == EOPNOTSUPP;
}

int rb_mr_reg(struct rb_dev *d, void *buf, size_t len, int access, struct ibv_mr **mr)
{
	int ret;

	if (d->relaxed_err)
		access &= ~IBV_ACCESS_RELAXED_ORDERING;
	*mr = ibv_reg_mr(d->pd, buf, len, access);
	if (!*mr && (access & IBV_ACCESS_RELAXED_ORDERING) && refused_optional(errno)) {
		d->relaxed_err = errno;
		if (rb_verbose)
			rb_info("%s: ibv_reg_mr refused relaxed ordering (%s): registering "
				"without it",
				d->name, strerror(errno));
		access &= ~IBV_ACCESS_RELAXED_ORDERING;
		*mr = ibv_reg_mr(d->pd, buf, len, access);
	}
	if (!*mr) {
		char why[384];

		ret = -errno;
		rb_err("%s: ibv_reg_mr(%zu bytes): %s%s", d->name, len, strerror(-ret),
		       rb_memlock_why(-ret, len, why, sizeof(why)));
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

/* The address of @r, with @av's path fields: a GRH whenever a GID is in use (RoCE). */
void rb_ah_attr_fill(const struct rb_dev *d, const struct rb_qp_info *r, const struct rb_av *av,
		     struct ibv_ah_attr *ah)
{
	*ah = (struct ibv_ah_attr){ .dlid = r->lid, .sl = av->sl, .port_num = d->port };
	if (d->gid_index < 0)
		return;
	ah->is_global = 1;
	memcpy(ah->grh.dgid.raw, r->gid, 16);
	ah->grh.sgid_index = (uint8_t)d->gid_index;
	ah->grh.hop_limit = (uint8_t)av->qp.hop_limit;
	ah->grh.traffic_class = av->tclass;
	ah->grh.flow_label = av->flow_label;
}

/* RC and UC: the peer's address and QP; RC adds its reads and RNR timer. */
static int to_rtr(struct rb_dev *d, struct ibv_qp *qp, const struct rb_qp_info *r, enum ibv_mtu mtu,
		  uint8_t rd_atom, const struct rb_av *av)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = r->qpn,
		.rq_psn = r->psn,
		.max_dest_rd_atomic = rd_atom,
		.min_rnr_timer = 12, /* 0.64 ms: short, for receivers reposting late */
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;

	rb_ah_attr_fill(d, r, av, &a.ah_attr);
	if (qp->qp_type == IBV_QPT_RC)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	return modify(d, qp, &a, mask, "RTR");
}

/* RC only: retries and reads in flight; UC and UD send with a PSN alone. */
static int to_rts(struct rb_dev *d, struct ibv_qp *qp, uint32_t local_psn, uint8_t rd_atom,
		  const struct rb_av *av)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.timeout = (uint8_t)av->qp.timeout,
		.retry_cnt = (uint8_t)av->qp.retry_count,
		.rnr_retry = 7, /* infinite: a slow receiver is not an error */
		.sq_psn = local_psn & 0xffffff,
		.max_rd_atomic = rd_atom,
	};
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	if (qp->qp_type == IBV_QPT_RC)
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	return modify(d, qp, &a, mask, "RTS");
}

/* UD takes a Q_Key where the connected transports take remote rights. */
static int to_init(struct rb_dev *d, struct ibv_qp *qp, int access, const struct rb_av *av)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = d->port,
				 .pkey_index = (uint16_t)av->qp.pkey_index };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (av->qp.pkey_index >= d->port_attr.pkey_tbl_len) {
		rb_err("%s port %u: no P_Key index %u (--pkey-index): its table has %u", d->name,
		       d->port, av->qp.pkey_index, d->port_attr.pkey_tbl_len);
		return -EINVAL;
	}

	if (qp->qp_type == IBV_QPT_UD || qp->qp_type == IBV_QPT_DRIVER) {
		a.qkey = RB_UD_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = (unsigned int)access;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	return modify(d, qp, &a, mask, "INIT");
}

int rb_qp_connect(struct rb_dev *d, struct ibv_qp *qp, int access, uint32_t local_psn,
		  const struct rb_qp_info *remote, enum ibv_mtu mtu, uint8_t rd_atom,
		  const struct rb_av *av)
{
	struct ibv_qp_attr rtr = { .qp_state = IBV_QPS_RTR };
	int ret;

	/* The session checked the peer's CONN; a value that still slipped
	 * through must not reach the provider (rxe takes an MTU of 0 and
	 * then spins in softirq). */
	bool datagram = qp->qp_type == IBV_QPT_UD || qp->qp_type == IBV_QPT_DRIVER;

	if (!datagram && !rb_qp_path_ok(mtu, remote)) {
		rb_err("%s qp 0x%x: refused: path MTU enum %d (want %d..%d), peer QPN 0x%x, PSN "
		       "0x%x (24-bit)",
		       d->name, qp->qp_num, (int)mtu, IBV_MTU_256, IBV_MTU_4096, remote->qpn,
		       remote->psn);
		return -EINVAL;
	}
	ret = to_init(d, qp, access, av);
	if (!ret && datagram)
		ret = modify(d, qp, &rtr, IBV_QP_STATE, "RTR");
	else if (!ret)
		ret = to_rtr(d, qp, remote, mtu, rd_atom, av);
	return ret ? ret : to_rts(d, qp, local_psn, rd_atom, av);
}

int rb_ah_create(struct rb_dev *d, const struct rb_qp_info *remote, const struct rb_av *av,
		 struct ibv_ah **ah)
{
	struct ibv_ah_attr a;
	int ret;

	rb_ah_attr_fill(d, remote, av, &a);
	*ah = ibv_create_ah(d->pd, &a);
	if (!*ah) {
		ret = lib_errno(errno);
		rb_err("%s port %u: ibv_create_ah for qp 0x%x: %s", d->name, d->port, remote->qpn,
		       strerror(errno));
		return ret;
	}
	return 0;
}

void rb_ah_destroy(struct rb_dev *d, struct ibv_ah *ah)
{
	if (ah)
		destroyed(d, "ibv_destroy_ah", ibv_destroy_ah(ah));
}
