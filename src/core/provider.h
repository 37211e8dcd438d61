/* SPDX-License-Identifier: MIT */
/*
 * What each RDMA provider offers and how it behaves: one row per rdma-core
 * provider (providers/mlx5, bnxt_re, irdma, hns, efa, erdma, rxe, siw,
 * cxgb4, qedr, mlx4) and a generic default.  The verbs layer, topo,
 * doctor, the counters and the plan validator read these rows; nothing
 * else tests a provider's name.  A behaviour that differs between
 * providers is a field here, never a comparison of names elsewhere.
 *
 * A device is matched as rdma-core matches its providers: by the kernel
 * driver that owns it, else by its name's prefix (a software device such
 * as rxe has no driver link), else by its PCI vendor id.  Pure: no I/O.
 *
 * The facts come from reading rdma-core's providers and the kernel's
 * drivers; only rxe and siw have been run (in the QEMU lab).
 */
#ifndef RB_PROVIDER_H
#define RB_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The provider's id.  It travels in a counter set (rdma/counters_wire.c):
 * append new ones, never renumber.
 */
enum rb_prov_id {
	RB_PROV_GENERIC,
	RB_PROV_RXE,
	RB_PROV_MLX5,
	RB_PROV_BNXT_RE,
	RB_PROV_IRDMA,
	RB_PROV_HNS,
	RB_PROV_EFA,
	RB_PROV_ERDMA,
	RB_PROV_SIW,
	RB_PROV_CXGB4,
	RB_PROV_QEDR,
	RB_PROV_MLX4,
	RB_PROV_COUNT
};

/* The wire protocol underneath (ibv_device's transport_type, as perftest reads it). */
enum rb_prov_transport {
	RB_XPORT_IB,	/* InfiniBand or RoCE: LID or GID addressing, RC/UC/UD */
	RB_XPORT_IWARP, /* iWARP over TCP: RC only, connected through rdma_cm */
	RB_XPORT_EFA,	/* AWS's SRD: UD and SRD datagrams addressed by GID */
};

/* What a provider's QPs can be (-c): the RB_TR_* bits and beyond. */
#define RB_OFFER_RC  0x01u
#define RB_OFFER_UC  0x02u
#define RB_OFFER_UD  0x04u
#define RB_OFFER_SRD 0x08u /* efadv_create_qp_ex(EFADV_QP_DRIVER_TYPE_SRD) */
#define RB_OFFER_DC  0x10u /* mlx5dv_create_qp(MLX5DV_QP_INIT_ATTR_MASK_DC), where offered */
#define RB_OFFER_XRC 0x20u

/*
 * Whether MRs registered with IBV_ACCESS_RELAXED_ORDERING get PCIe relaxed
 * ordering.  Read in rdma-core and the kernel: libibverbs' ibv_reg_mr()
 * masks the optional access flags, relaxed ordering among them, on a
 * kernel without IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS, silently;
 * mlx5 sets relaxed_ordering_write/read in the mkey only with the HCA's
 * capability and PCIe relaxed ordering enabled on the function; rxe and
 * siw are software (no PCIe write to order); bnxt_re, irdma and efa pass
 * the flag to a kernel driver that does not act on it.  No verbs query
 * says a device applies it: never "honoured".
 */
enum rb_prov_relaxed {
	RB_RELAXED_UNKNOWN, /* may or may not: the verbs do not say */
	RB_RELAXED_IGNORED, /* never: accepted (an optional flag) and not acted on */
};

struct rb_provider {
	enum rb_prov_id id;
	const char *name;	 /* rdma-core's provider name: "mlx5", "efa" */
	const char *family;	 /* who makes it, for topo and doctor */
	const char *drivers[3];	 /* kernel drivers owning its devices, NULL-ended */
	const char *prefixes[3]; /* device name prefixes ("rxe"), NULL-ended */
	uint32_t vendor_ids[3];	 /* PCI vendor ids only it serves, 0-ended */
	enum rb_prov_transport xport;
	unsigned int offers; /* RB_OFFER_* the provider can make */
	bool atomics;	     /* RC atomics (the device attribute decides too) */
	/* Bytes inline a QP can take, as rdma-core's provider (or the kernel
	 * under it) bounds them: what -I auto asks for; 0: not known. */
	uint32_t max_inline;
	/* The link layer says nothing (IBV_LINK_LAYER_UNSPECIFIED): UD is
	 * addressed by GID 0, never by LID. */
	bool addr_by_gid;
	enum rb_prov_relaxed relaxed;
	const char *relaxed_why;  /* what is known of relaxed ordering, in words */
	bool netdev_carries_rdma; /* the netdev's statistics count RDMA traffic */
	bool one_port_per_device; /* each port is a device of its own (-O: -d A,B) */
	/* ibv_create_qp() can fail without setting errno (a leftover one
	 * would be blamed): the message names the call and its attributes. */
	bool qp_fail_no_errno;
	const char *const *ctr_defaults; /* --counters default, NULL-ended */
	const char *const *ctr_retrans;	 /* retransmission counters summed, NULL-ended */
	const char *const *ctr_errors;	 /* error counters (kind "error"), NULL-ended */
	/* The packets sent, the base of retransmissions per million; NULL:
	 * port_xmit_packets, else (netdev_carries_rdma) netdev_tx_packets. */
	const char *ctr_packets;
	const char *quirk; /* one line for topo and doctor; NULL: none */
	/* issue 40: the rdma-core release (major) from which the provider's
	 * extended CQ polls in batches; below it, or where the library's
	 * release cannot be told, one completion per ibv_start_poll(), and
	 * --cq-api auto keeps ibv_poll_cq() (rb_cqx_kind_for()); 0: batches
	 * always.  rxe: 61 (an ibv_next_poll() that found nothing moved the
	 * consumer index past the last completion, fixed in 55, b78b414e0,
	 * and unlocked the CQ twice, fixed in 61, 5e7aa4102). */
	uint8_t cqx_batch_from;
	/* issue 40: its completion vectors are its PCI function's last
	 * num_comp_vectors MSI IRQs, in order (mlx5: the async EQ's first),
	 * so a vector's CPUs are its IRQ's smp_affinity_list; elsewhere a
	 * vector's IRQ is not known (rxe and siw have none: the PCI function
	 * is the NIC's) and the vectors go round robin. */
	bool irq_vectors;
};

/* rb_prov_get() - the row of @id; the generic row for an id out of range. */
const struct rb_provider *rb_prov_get(unsigned int id);

/*
 * rb_prov_identify() - the provider of a device from its kernel @driver
 * ("mlx5_core", "rdma_rxe"; NULL or "": unknown), its @name ("rxe0",
 * "mlx5_2") and its PCI @vendor_id (0: unknown), tried in that order;
 * the generic row when none matches.
 */
const struct rb_provider *rb_prov_identify(const char *driver, const char *name,
					   uint32_t vendor_id);

/* rb_prov_transport_str() - "InfiniBand/RoCE", "iWARP", "EFA (SRD)". */
const char *rb_prov_transport_str(enum rb_prov_transport t);

/*
 * rb_prov_offers_str() - the QP types @offers names, "RC, UC, UD", into
 * @buf.  Returns @buf.
 */
const char *rb_prov_offers_str(unsigned int offers, char *buf, size_t len);

/*
 * rb_prov_makers() - the providers whose rows offer @offer (an RB_OFFER_*
 * bit), "mlx5" or "mlx5, mlx4", into @buf.  Returns @buf.
 */
const char *rb_prov_makers(unsigned int offer, char *buf, size_t len);

/* rb_prov_link_layer_str() - IBV_LINK_LAYER_* as text: "Ethernet", "InfiniBand", "Unspecified". */
const char *rb_prov_link_layer_str(unsigned int link_layer);

/*
 * rb_prov_relaxed_known() - what is known of PCIe relaxed ordering on this
 * side's MRs: @off, why it was not requested (NULL: requested), @refused
 * (the provider or kernel refused the flag: registered without it), @p
 * the device's provider.  The words into @why; returns whether it is
 * honoured: 0 no (not requested, refused, or a provider that ignores it),
 * -1 unknown (requested, and nothing says).  Never 1: no verbs query
 * says a device applies it.
 */
int rb_prov_relaxed_known(const char *off, bool refused, const struct rb_provider *p, char *why,
			  size_t len);

/*
 * rb_prov_counter_kind() - whether @name is one of @p's error counters
 * (1), retransmission counters (2), or neither (0).
 */
int rb_prov_counter_kind(const struct rb_provider *p, const char *name);

#endif
