/* SPDX-License-Identifier: MIT */
/*
 * What each RDMA transport (ibv_device.transport_type, or sysfs node_type)
 * allows and needs: one row per transport, read by the verbs layer (GID,
 * connection), the session's refusals, the CM, topo and doctor.  Shared
 * code tests a row's fields, never a transport's or a device's name.
 */
#ifndef RB_TRANSPORT_H
#define RB_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "core/rdmabench.h"

struct rb_xport {
	int type;	      /* IBV_TRANSPORT_*, also what CONN carries (v16) */
	const char *name;     /* as ibv_devinfo's "transport:" says it: "InfiniBand", "iWARP" */
	const char *eth_name; /* the name on an Ethernet port ("RoCE"); NULL: name */
	/* An Ethernet port addressed by a RoCE GID (else: no GID is needed). */
	bool roce_gid;
	/* QPs reach RTS only through the CM: rdma_cm whatever -R says. */
	bool cm_only;
	/* The CM moves the QPs to RTS itself: the connecting side gets
	 * ESTABLISHED (no CONNECT_RESPONSE) and moves nothing past INIT. */
	bool cm_sets_rts;
	/* The CM's port is a TCP port of the host (iWARP's MPA runs over
	 * TCP): it cannot share the out-of-band listener's, and a listener
	 * on the IPv6 wildcard does not take IPv4 (siw): the CM listens on
	 * the address the client reached, one port above the OOB's. */
	bool cm_on_tcp;
	/* No RNR retry: a SEND that finds no receive posted breaks the
	 * connection, so a stream of SENDs is held to the receiver's posted
	 * receives by send credits (wire/plan_credits.c). */
	bool send_credits;
	bool atomics;		/* offers atomic operations */
	uint32_t qp_types;	/* RB_TR_BIT()s of the QP types it offers */
	int read_sink_access;	/* rights a READ's sink MR adds (iWARP: REMOTE_WRITE) */
	uint32_t min_qpn;	/* its lowest QP number: 2 (0, 1: SMI, GSI); siw numbers from 1 */
	const char *no_gid_why; /* why a port of it goes without a GID (roce_gid false) */
};

/* rb_transport_of() - the row of IBV_TRANSPORT_* @type; unknown types get a row
 * that assumes nothing beyond InfiniBand's verbs. */
const struct rb_xport *rb_transport_of(int type);

/* rb_transport_of_node() - the row of sysfs node_type @node (IBV_NODE_*: 1 CA, 4 RNIC...). */
const struct rb_xport *rb_transport_of_node(int node);

/* rb_transport_label() - the transport's name on a port of @ethernet link layer. */
const char *rb_transport_label(const struct rb_xport *t, bool ethernet);

/* rb_transport_valid() - whether @type is an IBV_TRANSPORT_* a CONN may carry. */
bool rb_transport_valid(unsigned int type);

#endif
