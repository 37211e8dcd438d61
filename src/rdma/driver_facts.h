/* SPDX-License-Identifier: MIT */
/*
 * What rdmabench knows of PCIe relaxed ordering per RDMA kernel driver,
 * in words for the JSON (issue 37 item 17): one row per driver, never a
 * comparison of names in shared code.  Whether a driver's netdev counts
 * its RDMA traffic (item 18) is the provider table's (core/provider.h);
 * folding these rows into that table is left to do.
 *
 * A device's row: the one whose driver is the basename of its sysfs
 * device/driver link (mlx5_core, irdma, bnxt_re, efa), else the one whose
 * prefix begins its name (software devices have no parent to link: rxe0,
 * siw0), else the unknown driver's row (nothing known).
 *
 * Sources, read in rdma-core and the kernel: libibverbs' ibv_reg_mr()
 * masks IBV_ACCESS_OPTIONAL_RANGE (relaxed ordering among them) on a
 * kernel without IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS, silently;
 * mlx5 sets relaxed_ordering_write/read in the mkey only with the HCA's
 * capability and PCIe relaxed ordering enabled on the function; rxe and
 * siw are software (no PCIe write to order); bnxt_re, irdma and efa pass
 * the flag to a kernel driver that does not act on it.  rxe and siw send
 * through the netdev, whose statistics count their packets; hardware RoCE
 * (irdma, hns, erdma, bnxt_re, mlx5) bypasses the netdev's counters, and
 * efa has no netdev.
 */
#ifndef RB_DRIVER_FACTS_H
#define RB_DRIVER_FACTS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether MRs get PCIe relaxed ordering when asked for it. */
enum rb_ro_fact {
	RB_RO_UNKNOWN, /* may or may not: the verbs do not say */
	RB_RO_IGNORED, /* never: the driver does not act on the flag */
};

struct rb_driver_facts {
	const char *driver;	 /* the kernel driver, as its sysfs link names it; NULL: unknown */
	const char *prefix;	 /* or the device name's prefix (software devices), NULL: none */
	unsigned char relaxed;	 /* enum rb_ro_fact */
	const char *relaxed_why; /* what is known of relaxed ordering, in words */
};

/*
 * rb_driver_facts_find() - the row of kernel driver @driver (NULL or "":
 * not known) or, failing that, of the device named @ibdev (NULL: none);
 * the unknown driver's row when neither has one.  Never NULL.  Pure.
 */
const struct rb_driver_facts *rb_driver_facts_find(const char *driver, const char *ibdev);

/*
 * rb_driver_facts_of() - the row of RDMA device @ibdev under @sysroot
 * ("/sys" live): its class/infiniband/DEV/device/driver link, else its
 * name.  Never NULL.  Not pure: reads a link.
 */
const struct rb_driver_facts *rb_driver_facts_of(const char *sysroot, const char *ibdev);

/*
 * rb_relaxed_known() - what is known of PCIe relaxed ordering on this
 * side's MRs: @off, why it was not requested (NULL: requested), @refused
 * (the provider or kernel refused the flag: registered without it), @f
 * the device's driver facts.  The words into @why; returns whether it is
 * honoured: 0 no (not requested, refused, or a driver that ignores it),
 * -1 unknown (requested, and nothing says).  Never 1: no verbs query
 * says a device applies it.  Pure.
 */
int rb_relaxed_known(const char *off, bool refused, const struct rb_driver_facts *f, char *why,
		     size_t len);

#endif
