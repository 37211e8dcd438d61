// SPDX-License-Identifier: MIT
/* The transports' rows (transport.h). */
#include <infiniband/verbs.h>

#include "rdma/transport.h"

#define ALL_QPS (RB_TR_BIT(RB_TR_RC) | RB_TR_BIT(RB_TR_UC) | RB_TR_BIT(RB_TR_UD))

static const struct rb_xport rows[] = {
	{
		.type = IBV_TRANSPORT_IB,
		.name = "InfiniBand",
		.eth_name = "RoCE",
		.roce_gid = true,
		.atomics = true,
		.qp_types = ALL_QPS,
		.min_qpn = 2,
	},
	/* RFC 5040/5041 over TCP: connections only through the iWARP CM
	 * (which moves the QP to RTS on its own), RC only, no atomics; the
	 * READ response lands in the sink as a tagged write (perftest
	 * registers it REMOTE_WRITE). */
	{
		.type = IBV_TRANSPORT_IWARP,
		.name = "iWARP",
		.cm_only = true,
		.cm_sets_rts = true,
		.cm_on_tcp = true,
		.send_credits = true,
		.qp_types = RB_TR_BIT(RB_TR_RC),
		.read_sink_access = IBV_ACCESS_REMOTE_WRITE,
		.min_qpn = 1,
		.no_gid_why = "iWARP port: addressed by IP through rdma_cm, no RoCE GID",
	},
};

/* Any other transport: the verbs as InfiniBand has them, assumed. */
static const struct rb_xport other = {
	.type = IBV_TRANSPORT_UNSPECIFIED,
	.name = "unspecified",
	.roce_gid = true,
	.atomics = true,
	.qp_types = ALL_QPS,
	.min_qpn = 2,
};

const struct rb_xport *rb_transport_of(int type)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].type == type)
			return &rows[i];
	return &other;
}

const struct rb_xport *rb_transport_of_node(int node)
{
	/* libibverbs' ibv_node_type → transport mapping (CA, switch, router: IB). */
	if (node == IBV_NODE_RNIC)
		return rb_transport_of(IBV_TRANSPORT_IWARP);
	if (node >= IBV_NODE_CA && node <= IBV_NODE_ROUTER)
		return rb_transport_of(IBV_TRANSPORT_IB);
	return &other;
}

const char *rb_transport_label(const struct rb_xport *t, bool ethernet)
{
	return ethernet && t->eth_name ? t->eth_name : t->name;
}

bool rb_transport_valid(unsigned int type)
{
	return type <= IBV_TRANSPORT_UNSPECIFIED;
}
