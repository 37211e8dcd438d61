// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/cm.h"

static int make_channel(struct rb_cm *cm, int timeout_ms)
{
	int ret;

	cm->timeout_ms = timeout_ms;
	cm->ch = rdma_create_event_channel();
	if (!cm->ch) {
		ret = -errno;
		rb_err("rdma_create_event_channel: %s (is rdma_ucm loaded?)", strerror(errno));
		return ret;
	}
	return 0;
}

/* The next CM event, which must be @want; the caller acks it. */
static int wait_event(struct rb_cm *cm, enum rdma_cm_event_type want, struct rdma_cm_event **ev)
{
	struct pollfd p = { .fd = cm->ch->fd, .events = POLLIN };
	int n = poll(&p, 1, cm->timeout_ms), ret;

	if (n <= 0) {
		ret = n ? -errno : -ETIMEDOUT;
		rb_err("rdma_cm: no %s within %d s: %s", rdma_event_str(want),
		       cm->timeout_ms / 1000, strerror(-ret));
		return ret;
	}
	if (rdma_get_cm_event(cm->ch, ev)) {
		ret = -errno;
		rb_err("rdma_get_cm_event: %s", strerror(errno));
		return ret;
	}
	if ((*ev)->event == want) {
		cm->events++;
		return 0;
	}
	rb_err("rdma_cm: got %s (status %d) while waiting for %s", rdma_event_str((*ev)->event),
	       (*ev)->status, rdma_event_str(want));
	rdma_ack_cm_event(*ev);
	return -ECONNREFUSED;
}

static int wait_ack(struct rb_cm *cm, enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev;
	int ret = wait_event(cm, want, &ev);

	if (!ret)
		rdma_ack_cm_event(ev);
	return ret;
}

/* The route must go through the device the QPs live on. */
static int same_device(const struct rb_cm_conn *c, struct rdma_cm_id *id)
{
	const char *name = id->verbs ? ibv_get_device_name(id->verbs->device) : "?";

	if (!strcmp(name, c->dev->name) && id->port_num == c->dev->port)
		return 0;
	rb_err("rdma_cm: the route goes through %s port %u, not %s port %u (give -d/-i to match)",
	       name, id->port_num, c->dev->name, c->dev->port);
	return -ENODEV;
}

/*
 * The path fields the user set replace the CM's (its path record carries
 * the TOS the client set on its id, rdma_set_option(), and SL 0).
 */
static void set_av(const struct rb_av *av, struct ibv_ah_attr *ah)
{
	if (av->qp.hop_limit != RB_HOP_LIMIT_DEFAULT && ah->is_global)
		ah->grh.hop_limit = (uint8_t)av->qp.hop_limit;
	if (av->sl)
		ah->sl = av->sl;
	if (av->tclass && ah->is_global)
		ah->grh.traffic_class = av->tclass;
	if (av->flow_label && ah->is_global)
		ah->grh.flow_label = av->flow_label;
}

/* Move @qp to @state with the attributes the CM computed for @id. */
static int cm_move(const struct rb_cm_conn *c, struct rdma_cm_id *id, uint32_t i,
		   enum ibv_qp_state state, const char *name)
{
	struct ibv_qp *qp = c->qp[i];
	struct ibv_qp_attr a = { .qp_state = state };
	int mask, ret;

	if (rdma_init_qp_attr(id, &a, &mask)) {
		ret = -errno;
		rb_err("%s qp 0x%x: rdma_init_qp_attr(%s): %s", c->dev->name, qp->qp_num, name,
		       strerror(errno));
		return ret;
	}
	/* The CM's P_Key is the address's partition's, which the REQ carries. */
	if (state == IBV_QPS_INIT && c->av[i].qp.pkey_index) {
		rb_err("%s qp 0x%x: refused: --pkey-index with -R (the CM takes the P_Key of the "
		       "address's partition)",
		       c->dev->name, qp->qp_num);
		return -EINVAL;
	}
	if (state == IBV_QPS_INIT)
		a.qp_access_flags = c->access;
	if (state == IBV_QPS_RTR && a.path_mtu > c->mtu)
		a.path_mtu = c->mtu;
	/* Never an MTU of 0 to the provider (see rb_qp_connect()). */
	if (state == IBV_QPS_RTR && (a.path_mtu < IBV_MTU_256 || a.path_mtu > IBV_MTU_4096)) {
		rb_err("%s qp 0x%x: refused: path MTU enum %d (want %d..%d)", c->dev->name,
		       qp->qp_num, (int)a.path_mtu, IBV_MTU_256, IBV_MTU_4096);
		return -EINVAL;
	}
	if (state == IBV_QPS_RTR)
		set_av(&c->av[i], &a.ah_attr);
	if (state == IBV_QPS_RTR)
		a.max_dest_rd_atomic = c->rd_atom;
	if (state == IBV_QPS_RTS) {
		a.max_rd_atomic = c->rd_atom;
		a.timeout = (uint8_t)c->av[i].qp.timeout;
		a.retry_cnt = (uint8_t)c->av[i].qp.retry_count;
	}
	/* The CM computes RC attributes; a UC QP takes none of RC's own. */
	if (qp->qp_type == IBV_QPT_UC)
		mask &= ~(IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
	ret = ibv_modify_qp(qp, &a, mask);
	if (ret)
		rb_err("%s qp 0x%x: cannot move to %s: %s", c->dev->name, qp->qp_num, name,
		       strerror(ret));
	return -ret;
}

static struct rdma_conn_param conn_param(const struct rb_cm_conn *c, uint32_t i,
					 const uint32_t *index_be)
{
	return (struct rdma_conn_param){
		.private_data = index_be,
		.private_data_len = sizeof(*index_be),
		.responder_resources = c->rd_atom,
		.initiator_depth = c->rd_atom,
		.retry_count = (uint8_t)c->av[i].qp.retry_count,
		.rnr_retry_count = 7,
		.qp_num = c->qp[i]->qp_num,
	};
}

/* @addr (NULL: the IPv6 wildcard) with @port, an IPv4-mapped one as IPv4, into @a. */
static void listen_addr(const struct sockaddr *addr, uint16_t port, struct sockaddr_storage *a)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)addr;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)a;
	struct sockaddr_in *a4 = (struct sockaddr_in *)a;

	memset(a, 0, sizeof(*a));
	if (addr && addr->sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		a4->sin_family = AF_INET;
		memcpy(&a4->sin_addr, &s6->sin6_addr.s6_addr[12], 4);
	} else if (addr && addr->sa_family == AF_INET) {
		*a4 = *(const struct sockaddr_in *)addr;
	} else if (addr && addr->sa_family == AF_INET6) {
		*a6 = *s6;
	} else {
		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_any;
	}
	if (a->ss_family == AF_INET)
		a4->sin_port = htons(port);
	else
		a6->sin6_port = htons(port);
}

int rb_cm_listen(struct rb_cm *cm, const struct sockaddr *addr, uint16_t port, int timeout_ms)
{
	struct sockaddr_storage a;
	int ret = make_channel(cm, timeout_ms);

	if (ret)
		return ret;
	listen_addr(addr, port, &a);
	if (rdma_create_id(cm->ch, &cm->listen, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(cm->listen, (struct sockaddr *)&a) ||
	    rdma_listen(cm->listen, RB_MAX_QPS)) {
		ret = -errno;
		rb_err("rdma_cm: cannot listen on port %u: %s", port, strerror(errno));
		return ret;
	}
	return 0;
}

/* Server: bring QP @i up for the request on @id, then accept it. */
static int accept_one(struct rb_cm *cm, const struct rb_cm_conn *c, struct rdma_cm_id *id,
		      uint32_t i)
{
	uint32_t index_be = htonl(i);
	struct rdma_conn_param p = conn_param(c, i, &index_be);
	int ret = same_device(c, id);

	/* The responder may reach RTS before it replies; where the CM moves
	 * the QP itself (iWARP), INIT is all it takes from us. */
	if (!ret)
		ret = cm_move(c, id, i, IBV_QPS_INIT, "INIT");
	if (!ret && !c->dev->tr->cm_sets_rts)
		ret = cm_move(c, id, i, IBV_QPS_RTR, "RTR");
	if (!ret && !c->dev->tr->cm_sets_rts)
		ret = cm_move(c, id, i, IBV_QPS_RTS, "RTS");
	if (!ret && rdma_accept(id, &p)) {
		ret = -errno;
		rb_err("rdma_accept: %s", strerror(errno));
	}
	if (ret)
		rdma_reject(id, NULL, 0);
	return ret;
}

/* The QP index a connection request carries, or -EPROTO. */
static int request_index(const struct rb_cm *cm, const struct rdma_cm_event *ev, uint32_t nqp)
{
	uint32_t be;

	if (ev->param.conn.private_data_len < sizeof(be))
		return -EPROTO;
	memcpy(&be, ev->param.conn.private_data, sizeof(be));
	be = ntohl(be);
	if (be >= nqp || cm->id[be])
		return -EPROTO;
	return (int)be;
}

/* A slot per QP of @c for its connection's id. */
static int alloc_ids(struct rb_cm *cm, const struct rb_cm_conn *c)
{
	if (cm->id)
		return cm->nid == c->nqp ? 0 : -EINVAL;
	cm->id = calloc(c->nqp, sizeof(*cm->id));
	if (!cm->id) {
		rb_err("rdma_cm: no memory for %u connections", c->nqp);
		return -ENOMEM;
	}
	cm->nid = c->nqp;
	return 0;
}

int rb_cm_accept(struct rb_cm *cm, const struct rb_cm_conn *c)
{
	struct rdma_cm_event *ev;
	uint32_t k;
	int i, ret;

	ret = alloc_ids(cm, c);
	for (k = 0; !ret && k < c->nqp; k++) {
		ret = wait_event(cm, RDMA_CM_EVENT_CONNECT_REQUEST, &ev);
		if (ret)
			return ret;
		i = request_index(cm, ev, c->nqp);
		if (i < 0) {
			rb_err("rdma_cm: a connection request names no QP of this run");
			rdma_reject(ev->id, NULL, 0);
			rdma_ack_cm_event(ev);
			return i;
		}
		cm->id[i] = ev->id;
		ret = accept_one(cm, c, ev->id, (uint32_t)i);
		rdma_ack_cm_event(ev);
		if (!ret)
			ret = wait_ack(cm, RDMA_CM_EVENT_ESTABLISHED);
		if (ret)
			return ret;
	}
	return ret;
}

/* Client: resolve the address and route of QP @i's connection. */
static int resolve(struct rb_cm *cm, const struct rb_cm_conn *c, struct sockaddr *dst, uint32_t i)
{
	uint8_t tos = c->av[i].tclass;
	int ret;

	if (rdma_create_id(cm->ch, &cm->id[i], NULL, RDMA_PS_TCP)) {
		ret = -errno;
		rb_err("rdma_create_id: %s", strerror(errno));
		return ret;
	}
	/* --tclass as the CM's TOS, before the route that carries it is resolved. */
	if (tos && rdma_set_option(cm->id[i], RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, 1)) {
		ret = -errno;
		rb_err("rdma_cm: cannot set the TOS %u (--tclass): %s", tos, strerror(errno));
		return ret;
	}
	/* From the address our device holds: its route, not any route. */
	if (rdma_resolve_addr(cm->id[i], c->src, dst, cm->timeout_ms)) {
		ret = -errno;
		rb_err("rdma_cm: cannot resolve the server's address: %s", strerror(errno));
		return ret;
	}
	ret = wait_ack(cm, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!ret)
		ret = same_device(c, cm->id[i]);
	if (!ret && rdma_resolve_route(cm->id[i], cm->timeout_ms)) {
		ret = -errno;
		rb_err("rdma_resolve_route: %s", strerror(errno));
	}
	return ret ? ret : wait_ack(cm, RDMA_CM_EVENT_ROUTE_RESOLVED);
}

/*
 * Client: connect QP @i.  With our own QP the CM answers CONNECT_RESPONSE,
 * and we move the QP to RTS and establish; where the CM moves the QP
 * itself (iWARP: the kernel turns the peer's reply straight into
 * ESTABLISHED), ESTABLISHED is the answer and the QP is ready.
 */
static int connect_one(struct rb_cm *cm, const struct rb_cm_conn *c, struct sockaddr *dst,
		       uint32_t i)
{
	uint32_t index_be = htonl(i);
	struct rdma_conn_param p = conn_param(c, i, &index_be);
	int ret = resolve(cm, c, dst, i);

	if (!ret)
		ret = cm_move(c, cm->id[i], i, IBV_QPS_INIT, "INIT");
	if (!ret && rdma_connect(cm->id[i], &p)) {
		ret = -errno;
		rb_err("rdma_connect: %s", strerror(errno));
	}
	if (!ret && c->dev->tr->cm_sets_rts)
		return wait_ack(cm, RDMA_CM_EVENT_ESTABLISHED);
	if (!ret)
		ret = wait_ack(cm, RDMA_CM_EVENT_CONNECT_RESPONSE);
	if (!ret)
		ret = cm_move(c, cm->id[i], i, IBV_QPS_RTR, "RTR");
	if (!ret)
		ret = cm_move(c, cm->id[i], i, IBV_QPS_RTS, "RTS");
	if (!ret && rdma_establish(cm->id[i])) {
		ret = -errno;
		rb_err("rdma_establish: %s", strerror(errno));
	}
	return ret;
}

int rb_cm_connect(struct rb_cm *cm, const char *host, uint16_t port, int timeout_ms,
		  const struct rb_cm_conn *c)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	char serv[8];
	uint32_t i;
	int ret;

	snprintf(serv, sizeof(serv), "%u", port);
	ret = getaddrinfo(host, serv, &hints, &res);
	if (ret) {
		rb_err("cannot resolve '%s': %s", host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	ret = make_channel(cm, timeout_ms);
	if (!ret)
		ret = alloc_ids(cm, c);
	for (i = 0; !ret && i < c->nqp; i++)
		ret = connect_one(cm, c, res->ai_addr, i);
	freeaddrinfo(res);
	return ret;
}

void rb_cm_close(struct rb_cm *cm)
{
	uint32_t i;

	for (i = 0; i < cm->nid; i++)
		if (cm->id[i])
			rdma_destroy_id(cm->id[i]);
	free(cm->id);
	if (cm->listen)
		rdma_destroy_id(cm->listen);
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	memset(cm, 0, sizeof(*cm));
}
