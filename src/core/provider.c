// SPDX-License-Identifier: MIT
/*
 * The provider table (provider.h): one row per rdma-core provider, read
 * from rdma-core's providers/ and the kernel's drivers/infiniband/hw/.
 * A data table: rows, not code.
 */
#include <stdio.h>
#include <string.h>

#include "core/provider.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- counters, per provider (sysfs hw_counters names) ------------------ */

static const char *const rxe_defaults[] = {
	"sent_pkts",
	"rcvd_pkts",
	"rdma_sends",
	"rdma_recvs",
	"duplicate_request",
	"out_of_seq_request",
	"rcvd_rnr_err",
	"send_rnr_err",
	"rcvd_seq_err",
	"retry_exceeded_err",
	"retry_rnr_exceeded_err",
	"completer_retry_err",
	"send_err",
	"link_downed",
	"netdev_tx_bytes",
	"netdev_rx_bytes",
	"netdev_tx_packets",
	"netdev_rx_packets",
	"netdev_tx_dropped",
	"netdev_rx_dropped",
	NULL,
};

static const char *const mlx5_defaults[] = {
	"port_xmit_data",      "port_rcv_data",
	"port_xmit_packets",   "port_rcv_packets",
	"port_xmit_discards",  "port_rcv_errors",
	"symbol_error",	       "link_downed",
	"out_of_sequence",     "packet_seq_err",
	"implied_nak_seq_err", "local_ack_timeout_err",
	"rnr_nak_retry_err",   "duplicate_request",
	"out_of_buffer",       "req_cqe_error",
	"resp_cqe_error",      "np_cnp_sent",
	"rp_cnp_handled",      "np_ecn_marked_roce_packets",
	"port_xmit_wait",      "netdev_tx_dropped",
	"netdev_rx_dropped",   NULL,
};

static const char *const generic_defaults[] = {
	"port_xmit_data",
	"port_rcv_data",
	"port_xmit_packets",
	"port_rcv_packets",
	"port_xmit_discards",
	"port_rcv_errors",
	"symbol_error",
	"link_downed",
	"link_error_recovery",
	"port_xmit_wait",
	"netdev_tx_bytes",
	"netdev_rx_bytes",
	"netdev_tx_packets",
	"netdev_rx_packets",
	"netdev_tx_dropped",
	"netdev_rx_dropped",
	NULL,
};

/* drivers/infiniband/hw/bnxt_re/hw_counters.c */
static const char *const bnxt_defaults[] = {
	"tx_pkts",
	"tx_bytes",
	"rx_pkts",
	"rx_bytes",
	"to_retransmits",
	"seq_err_naks_rcvd",
	"rnr_naks_rcvd",
	"max_retry_exceeded",
	"recoverable_errors",
	"unrecoverable_err",
	"bad_resp_err",
	"local_qp_op_err",
	"local_protection_err",
	"remote_access_err",
	"remote_op_err",
	"dup_req",
	NULL,
};

/* drivers/infiniband/hw/efa/efa_verbs.c, the device and port stats */
static const char *const efa_defaults[] = {
	"tx_bytes",
	"tx_pkts",
	"rx_bytes",
	"rx_pkts",
	"rx_drops",
	"send_wrs",
	"recv_wrs",
	"rdma_read_wrs",
	"rdma_write_wrs",
	"rdma_read_wr_err",
	"rdma_write_wr_err",
	"retrans_pkts",
	"retrans_bytes",
	"retrans_timeout_events",
	"unresponsive_remote_events",
	"impaired_remote_conn_events",
	NULL,
};

/* drivers/infiniband/hw/irdma/verbs.c, irdma_hw_stat_names */
static const char *const irdma_defaults[] = {
	"port_xmit_data",   "port_rcv_data",  "port_xmit_packets",
	"port_rcv_packets", "tcpRetransSegs", "tcpInOptErrors",
	"tcpInProtoErrors", "ip4RxDiscard",   "ip6RxDiscard",
	"RxVlanErrors",	    "RxECNMrkd",      "cnpSent",
	"cnpHandled",	    "link_downed",    NULL,
};

/* Requester retry events, each of which resends one or more packets. */
static const char *const rxe_retrans[] = { "completer_retry_err", "rcvd_rnr_err", NULL };
static const char *const mlx5_retrans[] = { "local_ack_timeout_err", "packet_seq_err",
					    "implied_nak_seq_err", "rnr_nak_retry_err", NULL };
static const char *const bnxt_retrans[] = { "to_retransmits", "seq_err_naks_rcvd", "rnr_naks_rcvd",
					    NULL };
static const char *const efa_retrans[] = { "retrans_pkts", NULL };
static const char *const irdma_retrans[] = { "tcpRetransSegs", NULL };
static const char *const none[] = { NULL };

/* Counters that moving means something failed, beyond the names' words. */
static const char *const bnxt_errors[] = {
	"max_retry_exceeded",	"unrecoverable_err", "bad_resp_err",  "local_qp_op_err",
	"local_protection_err", "remote_access_err", "remote_op_err", "remote_invalid_req_err",
	"mem_mgmt_op_err",	"seq_err_naks_rcvd", "rnr_naks_rcvd", NULL
};
static const char *const efa_errors[] = { "rx_drops",
					  "rdma_read_wr_err",
					  "rdma_write_wr_err",
					  "retrans_timeout_events",
					  "unresponsive_remote_events",
					  "impaired_remote_conn_events",
					  NULL };
static const char *const irdma_errors[] = { "tcpInOptErrors", "tcpInProtoErrors", "ip4RxDiscard",
					    "ip6RxDiscard",   "RxVlanErrors",	  NULL };

#define IBOFF (RB_OFFER_RC | RB_OFFER_UC | RB_OFFER_UD)

/* PCIe relaxed ordering, in words (provider.h says where they were read). */
static const char ro_soft[] = "ignored: a software device, with no PCIe write to order";
static const char ro_ignored[] = "ignored: the kernel driver does not act on the flag";
static const char ro_unknown[] = "unknown: the verbs do not say whether the device applies it";

/* Indexed by enum rb_prov_id. */
static const struct rb_provider rows[RB_PROV_COUNT] = {
	[RB_PROV_GENERIC] = { .id = RB_PROV_GENERIC,
			      .name = "generic",
			      .family = "unknown",
			      .xport = RB_XPORT_IB,
			      .offers = IBOFF,
			      .atomics = true,
			      .relaxed = RB_RELAXED_UNKNOWN,
			      .relaxed_why = "unknown: a driver rdmabench has no facts for, and "
					     "the verbs do not say",
			      .ctr_defaults = generic_defaults,
			      .ctr_retrans = none,
			      .ctr_errors = none },
	[RB_PROV_RXE] = { .id = RB_PROV_RXE,
			  .name = "rxe",
			  .family = "Soft-RoCE (software)",
			  .drivers = { "rdma_rxe", "rxe" },
			  .prefixes = { "rxe" },
			  .xport = RB_XPORT_IB,
			  .offers = IBOFF,
			  .atomics = true,
			  .relaxed = RB_RELAXED_IGNORED,
			  .relaxed_why = ro_soft,
			  /* The kernel's RXE_MAX_INLINE_DATA: 32 SGEs' room, 512 bytes. */
			  .max_inline = 512,
			  .netdev_carries_rdma = true,
			  .ctr_defaults = rxe_defaults,
			  .ctr_retrans = rxe_retrans,
			  .ctr_packets = "sent_pkts",
			  .ctr_errors = none,
			  .cqx_batch_from = 61 },
	[RB_PROV_MLX5] = { .id = RB_PROV_MLX5,
			   .name = "mlx5",
			   .family = "NVIDIA ConnectX-4 and later, BlueField",
			   .drivers = { "mlx5_core" },
			   .prefixes = { "mlx5_" },
			   .vendor_ids = { 0x15b3 },
			   .xport = RB_XPORT_IB,
			   .offers = IBOFF | RB_OFFER_DC | RB_OFFER_XRC,
			   .atomics = true,
			   .relaxed = RB_RELAXED_UNKNOWN,
			   .relaxed_why = "unknown: mlx5 applies it only with the device's relaxed "
					  "ordering capability and PCIe relaxed ordering enabled "
					  "on the function, which the verbs do not report",
			   /* A WQE of max_sq_desc_sz (512) less its control segment
			    * and inline header; QPs whose verbs need larger segments
			    * take less (asked lower, read back rounded up to whole
			    * 64-byte blocks: ibv_query_qp). */
			   .max_inline = 492,
			   .one_port_per_device = true,
			   .ctr_defaults = mlx5_defaults,
			   .ctr_retrans = mlx5_retrans,
			   .ctr_errors = none,
			   .quirk = "each port is a device of its own: for two ports, where "
				    "-O/--dualport "
				    "would run one device's, give -d mlx5_0,mlx5_1",
			   .irq_vectors = true },
	[RB_PROV_BNXT_RE] = { .id = RB_PROV_BNXT_RE,
			      .name = "bnxt_re",
			      .family = "Broadcom NetXtreme-E",
			      .drivers = { "bnxt_en", "bnxt_re" },
			      .prefixes = { "bnxt_re" },
			      .vendor_ids = { 0x14e4 },
			      .xport = RB_XPORT_IB,
			      .offers = RB_OFFER_RC | RB_OFFER_UD,
			      .atomics = true,
			      .relaxed = RB_RELAXED_IGNORED,
			      .relaxed_why = ro_ignored,
			      .max_inline = 96, /* BNXT_RE_MAX_INLINE_SIZE */
			      .qp_fail_no_errno = true,
			      .ctr_defaults = bnxt_defaults,
			      .ctr_retrans = bnxt_retrans,
			      .ctr_packets = "tx_pkts",
			      .ctr_errors = bnxt_errors,
			      .quirk = "no UC; ibv_create_qp refuses it without setting errno" },
	[RB_PROV_IRDMA] = { .id = RB_PROV_IRDMA,
			    .name = "irdma",
			    .family = "Intel E810 and X722 (RoCE v2 or iWARP)",
			    .drivers = { "irdma", "ice", "i40e" },
			    .prefixes = { "irdma", "i40iw" },
			    .vendor_ids = { 0x8086 },
			    .xport = RB_XPORT_IB,
			    .offers = RB_OFFER_RC | RB_OFFER_UD,
			    .atomics = true,
			    .relaxed = RB_RELAXED_IGNORED,
			    .relaxed_why = ro_ignored,
			    /* IRDMA_MAX_INLINE_DATA_SIZE (the kernel's max_hw_inline;
			     * X722's i40iw 48: asked lower). */
			    .max_inline = 101,
			    .ctr_defaults = irdma_defaults,
			    .ctr_retrans = irdma_retrans,
			    .ctr_errors = irdma_errors,
			    .quirk = "RoCE v2 or iWARP by the driver's roce_ena: the device's "
				     "transport says which; no UC" },
	[RB_PROV_HNS] = { .id = RB_PROV_HNS,
			  .name = "hns",
			  .family = "HiSilicon Kunpeng",
			  .drivers = { "hns3", "hns_roce_hw_v2" },
			  .prefixes = { "hns" },
			  .vendor_ids = { 0x19e5 },
			  .xport = RB_XPORT_IB,
			  .offers = RB_OFFER_RC | RB_OFFER_UD | RB_OFFER_XRC,
			  .atomics = true,
			  .relaxed = RB_RELAXED_UNKNOWN,
			  .relaxed_why = ro_unknown,
			  .ctr_defaults = generic_defaults,
			  .ctr_retrans = none,
			  .ctr_errors = none,
			  .quirk = "no UC; UD only from hardware version 3 (hip09)" },
	[RB_PROV_EFA] = { .id = RB_PROV_EFA,
			  .name = "efa",
			  .family = "AWS Elastic Fabric Adapter",
			  .drivers = { "efa" },
			  .prefixes = { "efa" },
			  .vendor_ids = { 0x1d0f },
			  .xport = RB_XPORT_EFA,
			  .offers = RB_OFFER_UD | RB_OFFER_SRD,
			  .atomics = false,
			  .relaxed = RB_RELAXED_IGNORED,
			  .relaxed_why = ro_ignored,
			  .max_inline = 32,
			  .addr_by_gid = true,
			  .ctr_defaults = efa_defaults,
			  .ctr_retrans = efa_retrans,
			  .ctr_packets = "tx_pkts",
			  .ctr_errors = efa_errors,
			  .quirk = "UD and SRD only (no RC, UC or atomics); link layer "
				   "unspecified: "
				   "addressed by GID" },
	[RB_PROV_ERDMA] = { .id = RB_PROV_ERDMA,
			    .name = "erdma",
			    .family = "Alibaba Elastic RDMA",
			    .drivers = { "erdma" },
			    .prefixes = { "erdma" },
			    .vendor_ids = { 0x1ded },
			    .xport = RB_XPORT_IWARP,
			    .offers = RB_OFFER_RC,
			    .atomics = true,
			    .relaxed = RB_RELAXED_UNKNOWN,
			    .relaxed_why = ro_unknown,
			    .ctr_defaults = generic_defaults,
			    .ctr_retrans = none,
			    .ctr_errors = none },
	[RB_PROV_SIW] = { .id = RB_PROV_SIW,
			  .name = "siw",
			  .family = "Software iWARP",
			  .drivers = { "siw" },
			  .prefixes = { "siw" },
			  .xport = RB_XPORT_IWARP,
			  .offers = RB_OFFER_RC,
			  .atomics = false,
			  .relaxed = RB_RELAXED_IGNORED,
			  .relaxed_why = ro_soft,
			  .max_inline = 80, /* SIW_MAX_INLINE: 5 SGEs' room */
			  .netdev_carries_rdma = true,
			  .ctr_defaults = generic_defaults,
			  .ctr_retrans = none,
			  .ctr_errors = none },
	[RB_PROV_CXGB4] = { .id = RB_PROV_CXGB4,
			    .name = "cxgb4",
			    .family = "Chelsio T4 and later",
			    .drivers = { "cxgb4", "iw_cxgb4" },
			    .prefixes = { "cxgb4" },
			    .vendor_ids = { 0x1425 },
			    .xport = RB_XPORT_IWARP,
			    .offers = RB_OFFER_RC,
			    .atomics = false,
			    .relaxed = RB_RELAXED_UNKNOWN,
			    .relaxed_why = ro_unknown,
			    .ctr_defaults = generic_defaults,
			    .ctr_retrans = none,
			    .ctr_errors = none },
	[RB_PROV_QEDR] = { .id = RB_PROV_QEDR,
			   .name = "qedr",
			   .family = "Marvell FastLinQ (RoCE or iWARP)",
			   .drivers = { "qede", "qedr" },
			   .prefixes = { "qedr" },
			   .vendor_ids = { 0x1077 },
			   .xport = RB_XPORT_IB,
			   .offers = RB_OFFER_RC | RB_OFFER_UD,
			   .atomics = true,
			   .relaxed = RB_RELAXED_UNKNOWN,
			   .relaxed_why = ro_unknown,
			   .ctr_defaults = generic_defaults,
			   .ctr_retrans = none,
			   .ctr_errors = none,
			   .quirk = "RoCE or iWARP by the firmware: the device's transport says "
				    "which" },
	[RB_PROV_MLX4] = { .id = RB_PROV_MLX4,
			   .name = "mlx4",
			   .family = "Mellanox ConnectX-3",
			   .drivers = { "mlx4_core" },
			   .prefixes = { "mlx4_" },
			   .xport = RB_XPORT_IB,
			   .offers = IBOFF | RB_OFFER_XRC,
			   .atomics = true,
			   .relaxed = RB_RELAXED_UNKNOWN,
			   .relaxed_why = ro_unknown,
			   .ctr_defaults = generic_defaults,
			   .ctr_retrans = none,
			   .ctr_errors = none },
};

const struct rb_provider *rb_prov_get(unsigned int id)
{
	return id < RB_PROV_COUNT ? &rows[id] : &rows[RB_PROV_GENERIC];
}

static bool listed(const char *const *list, size_t n, const char *s, bool prefix)
{
	size_t i;

	for (i = 0; i < n && list[i]; i++)
		if (prefix ? !strncmp(s, list[i], strlen(list[i])) : !strcmp(s, list[i]))
			return true;
	return false;
}

const struct rb_provider *rb_prov_identify(const char *driver, const char *name, uint32_t vendor_id)
{
	size_t i, j;

	for (i = 1; driver && driver[0] && i < NELEM(rows); i++)
		if (listed(rows[i].drivers, NELEM(rows[i].drivers), driver, false))
			return &rows[i];
	for (i = 1; name && name[0] && i < NELEM(rows); i++)
		if (listed(rows[i].prefixes, NELEM(rows[i].prefixes), name, true))
			return &rows[i];
	for (i = 1; vendor_id && i < NELEM(rows); i++)
		for (j = 0; j < NELEM(rows[i].vendor_ids) && rows[i].vendor_ids[j]; j++)
			if (rows[i].vendor_ids[j] == vendor_id)
				return &rows[i];
	return &rows[RB_PROV_GENERIC];
}

const char *rb_prov_transport_str(enum rb_prov_transport t)
{
	static const char *const names[] = { "InfiniBand/RoCE", "iWARP", "EFA (SRD)" };

	return (unsigned int)t < NELEM(names) ? names[t] : "?";
}

const char *rb_prov_offers_str(unsigned int offers, char *buf, size_t len)
{
	static const char *const names[] = { "RC", "UC", "UD", "SRD", "DC", "XRC" };
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < NELEM(names) && off < len; i++)
		if (offers & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						names[i]);
	return buf;
}

const char *rb_prov_makers(unsigned int offer, char *buf, size_t len)
{
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 1; i < NELEM(rows) && off < len; i++)
		if (rows[i].offers & offer)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						rows[i].name);
	return buf;
}

const char *rb_prov_link_layer_str(unsigned int link_layer)
{
	/* IBV_LINK_LAYER_UNSPECIFIED, _INFINIBAND, _ETHERNET */
	static const char *const names[] = { "Unspecified", "InfiniBand", "Ethernet" };

	return link_layer < NELEM(names) ? names[link_layer] : "Unspecified";
}

int rb_prov_relaxed_known(const char *off, bool refused, const struct rb_provider *p, char *why,
			  size_t len)
{
	if (off) {
		snprintf(why, len, "%s", off);
		return 0;
	}
	if (refused) {
		snprintf(why, len,
			 "requested (perftest's default); refused by the provider or kernel: "
			 "registered without IBV_ACCESS_RELAXED_ORDERING");
		return 0;
	}
	snprintf(why, len,
		 "requested (perftest's default, IBV_ACCESS_RELAXED_ORDERING); honoured: %s%s",
		 p->relaxed_why,
		 p->relaxed == RB_RELAXED_IGNORED ? ""
						  : "; libibverbs also drops the flag silently on "
						    "a "
						    "kernel without optional access flags");
	return p->relaxed == RB_RELAXED_IGNORED ? 0 : -1;
}

int rb_prov_counter_kind(const struct rb_provider *p, const char *name)
{
	if (listed(p->ctr_errors, SIZE_MAX, name, false))
		return 1;
	if (listed(p->ctr_retrans, SIZE_MAX, name, false))
		return 2;
	return 0;
}
