// SPDX-License-Identifier: MIT
/* The driver facts table (driver_facts.h): one row per kernel driver. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdma/driver_facts.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char ro_soft[] = "ignored: a software device, with no PCIe write to order";
static const char ro_ignored[] = "ignored: the kernel driver does not act on the flag";
static const char ro_unknown[] = "unknown: the verbs do not say whether the device applies it";

static const struct rb_driver_facts facts[] = {
	{ .driver = "rdma_rxe", .prefix = "rxe", .relaxed = RB_RO_IGNORED, .relaxed_why = ro_soft },
	{ .driver = "siw", .prefix = "siw", .relaxed = RB_RO_IGNORED, .relaxed_why = ro_soft },
	{ .driver = "mlx5_core",
	  .prefix = "mlx5_",
	  .relaxed = RB_RO_UNKNOWN,
	  .relaxed_why = "unknown: mlx5 applies it only with the device's relaxed ordering "
			 "capability and PCIe relaxed ordering enabled on the function, which "
			 "the verbs do not report" },
	{ .driver = "bnxt_re",
	  .prefix = "bnxt_re",
	  .relaxed = RB_RO_IGNORED,
	  .relaxed_why = ro_ignored },
	{ .driver = "bnxt_en", .relaxed = RB_RO_IGNORED, .relaxed_why = ro_ignored },
	{ .driver = "irdma",
	  .prefix = "irdma",
	  .relaxed = RB_RO_IGNORED,
	  .relaxed_why = ro_ignored },
	{ .driver = "efa", .prefix = "efa_", .relaxed = RB_RO_IGNORED, .relaxed_why = ro_ignored },
	{ .driver = "hns3", .prefix = "hns_", .relaxed = RB_RO_UNKNOWN, .relaxed_why = ro_unknown },
	{ .driver = "hns_roce_hw_v2", .relaxed = RB_RO_UNKNOWN, .relaxed_why = ro_unknown },
	{ .driver = "erdma",
	  .prefix = "erdma_",
	  .relaxed = RB_RO_UNKNOWN,
	  .relaxed_why = ro_unknown },
};

static const struct rb_driver_facts unknown = {
	.relaxed = RB_RO_UNKNOWN,
	.relaxed_why = "unknown: a driver rdmabench has no facts for, and the verbs do not say",
};

const struct rb_driver_facts *rb_driver_facts_find(const char *driver, const char *ibdev)
{
	size_t i;

	for (i = 0; driver && driver[0] && i < NELEM(facts); i++)
		if (!strcmp(facts[i].driver, driver))
			return &facts[i];
	for (i = 0; ibdev && i < NELEM(facts); i++)
		if (facts[i].prefix && !strncmp(ibdev, facts[i].prefix, strlen(facts[i].prefix)))
			return &facts[i];
	return &unknown;
}

const struct rb_driver_facts *rb_driver_facts_of(const char *sysroot, const char *ibdev)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base = NULL;
	ssize_t n = -1;
	int len;

	len = snprintf(link, sizeof(link), "%s/class/infiniband/%s/device/driver", sysroot, ibdev);
	if (len > 0 && (size_t)len < sizeof(link) && !strchr(ibdev, '/'))
		n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
	}
	return rb_driver_facts_find(base, ibdev);
}

int rb_relaxed_known(const char *off, bool refused, const struct rb_driver_facts *f, char *why,
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
		 f->relaxed_why,
		 f->relaxed == RB_RO_IGNORED ? ""
					     : "; libibverbs also drops the flag silently on a "
					       "kernel without "
					       "optional access flags");
	return f->relaxed == RB_RO_IGNORED ? 0 : -1;
}
