/* SPDX-License-Identifier: MIT */
/*
 * The librdmacm path (-R): the RDMA CM resolves the route and connects the
 * QPs that verbs.c created; their state moves take the attributes the CM
 * computed (rdma_init_qp_attr), so GID, path and MTU come from the route.
 * Knows no test.  Every wait is bounded by the timeout.
 */
#ifndef RB_CM_H
#define RB_CM_H

#include <rdma/rdma_cma.h>
#include "rdma/verbs.h"

struct rb_cm {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen;
	struct rdma_cm_id **id; /* one per QP, nid of them */
	uint32_t nid;
	int timeout_ms;
	uint32_t events; /* the CM events this side took, each the one it waited for */
};

/* What every connection of a run shares. */
struct rb_cm_conn {
	struct rb_dev *dev;
	struct ibv_qp **qp;
	uint32_t nqp;
	int access;		/* remote rights of the QPs */
	enum ibv_mtu mtu;	/* at most this path MTU */
	uint8_t rd_atom;	/* reads/atomics in flight, both ways */
	struct sockaddr *src;	/* client: the local address to connect from; NULL any */
	const struct rb_av *av; /* av[i], QP i's --sl, --tclass, --flow-label... over the CM's path */
};

/*
 * rb_cm_listen() - server: listen for the client's QPs on CM @port, at
 * @addr (an IPv4-mapped IPv6 address taken as IPv4), NULL: any address.
 */
int rb_cm_listen(struct rb_cm *cm, const struct sockaddr *addr, uint16_t port, int timeout_ms);

/*
 * rb_cm_accept() - server: accept one connection per QP of @c; each
 * request names its QP index in its private data.
 */
int rb_cm_accept(struct rb_cm *cm, const struct rb_cm_conn *c);

/* rb_cm_connect() - client: connect every QP of @c to @host:@port. */
int rb_cm_connect(struct rb_cm *cm, const char *host, uint16_t port, int timeout_ms,
		  const struct rb_cm_conn *c);

void rb_cm_close(struct rb_cm *cm);

#endif
