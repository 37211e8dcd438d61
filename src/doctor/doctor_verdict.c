// SPDX-License-Identifier: MIT
/*
 * The verdicts of rdmabench doctor: pure functions of the values the
 * checks read (doctor_checks.c), unit-tested in tests/unit/test_doctor.c.
 */
#include <string.h>

#include "doctor/doctor.h"

enum rb_dr_verdict rb_dr_v_port(const char *state, const char *phys_state)
{
	if (!state || !state[0])
		return RB_DR_NA;
	if (!strcmp(state, "ACTIVE") && phys_state && !strcmp(phys_state, "LinkUp"))
		return RB_DR_OK;
	/* Trained, but no subnet manager has brought it up yet. */
	if (!strcmp(state, "INIT") || !strcmp(state, "ARMED"))
		return RB_DR_WARN;
	return RB_DR_FAIL;
}

enum rb_dr_verdict rb_dr_v_verbs(int n_sysfs, int n_verbs)
{
	if (n_sysfs <= 0 || n_verbs == 0)
		return RB_DR_FAIL;
	if (n_verbs < 0)
		return RB_DR_NA;
	return n_verbs < n_sysfs ? RB_DR_WARN : RB_DR_OK;
}

/* Half the slot's bandwidth or less fails; anything below it warns. */
enum rb_dr_verdict rb_dr_v_pcie(double cur_gts, int cur_width, double max_gts, int max_width)
{
	double ratio;

	if (cur_gts <= 0 || cur_width <= 0 || max_gts <= 0 || max_width <= 0)
		return RB_DR_NA;
	ratio = cur_gts * cur_width / (max_gts * max_width);
	if (ratio >= 0.999)
		return RB_DR_OK;
	return ratio > 0.5 ? RB_DR_WARN : RB_DR_FAIL;
}

enum rb_dr_verdict rb_dr_v_pcie_share(int n_gpu, int n_nvme)
{
	if (n_gpu < 0 || n_nvme < 0)
		return RB_DR_NA;
	return n_gpu + n_nvme ? RB_DR_WARN : RB_DR_OK;
}

#define RB_DR_LOW_FREE_KIB (512u * 1024) /* 512 MiB */

enum rb_dr_verdict rb_dr_v_numa(int node, int n_nodes, int node_cpus, uint64_t free_kib)
{
	if (n_nodes <= 1)
		return n_nodes == 1 ? RB_DR_OK : RB_DR_NA;
	if (node < 0 || node_cpus <= 0)
		return RB_DR_WARN;
	return free_kib < RB_DR_LOW_FREE_KIB ? RB_DR_WARN : RB_DR_OK;
}

enum rb_dr_verdict rb_dr_v_irq(int n, int on_node)
{
	if (n <= 0)
		return RB_DR_NA;
	return on_node == n ? RB_DR_OK : RB_DR_WARN;
}

enum rb_dr_verdict rb_dr_v_governor(int n, int perf)
{
	if (n <= 0)
		return RB_DR_NA;
	return perf == n ? RB_DR_OK : RB_DR_WARN;
}

enum rb_dr_verdict rb_dr_v_smt(int active)
{
	if (active < 0)
		return RB_DR_NA;
	return active ? RB_DR_WARN : RB_DR_OK;
}

/*
 * Below the need, registration fails with ENOMEM -- but not for a process
 * with CAP_IPC_LOCK (the kernel skips the limit for it): only a warning,
 * since other users' runs are held to the limit.
 */
enum rb_dr_verdict rb_dr_v_memlock(uint64_t limit, uint64_t need, bool ipc_lock)
{
	if (limit == UINT64_MAX || limit >= need)
		return RB_DR_OK;
	return ipc_lock ? RB_DR_WARN : RB_DR_FAIL;
}

enum rb_dr_verdict rb_dr_v_hugepages(long total, long free)
{
	if (total < 0 || free < 0)
		return RB_DR_NA;
	return free > 0 ? RB_DR_OK : RB_DR_WARN;
}

enum rb_dr_verdict rb_dr_v_thp(const char *mode)
{
	if (!mode || !mode[0])
		return RB_DR_NA;
	if (!strcmp(mode, "always") || !strcmp(mode, "madvise"))
		return RB_DR_OK;
	return RB_DR_WARN;
}

/* @word as a whole word of @s (kernel command line parameters). */
static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = s ? strstr(s, word) : NULL; p; p = strstr(p + 1, word))
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

enum rb_dr_iommu rb_dr_iommu_mode(int n_iommus, int n_groups, const char *cmdline,
				  const char *group_type)
{
	if (has_word(cmdline, "iommu=off") || has_word(cmdline, "intel_iommu=off") ||
	    has_word(cmdline, "amd_iommu=off"))
		return RB_DR_IOMMU_OFF;
	if (has_word(cmdline, "iommu=pt") || has_word(cmdline, "iommu.passthrough=1"))
		return RB_DR_IOMMU_PT;
	if (group_type && !strcmp(group_type, "identity"))
		return RB_DR_IOMMU_PT;
	if (group_type && !strncmp(group_type, "DMA", 3))
		return RB_DR_IOMMU_DMA;
	if (n_iommus < 0 && n_groups < 0)
		return RB_DR_IOMMU_UNKNOWN;
	return n_iommus > 0 || n_groups > 0 ? RB_DR_IOMMU_DMA : RB_DR_IOMMU_OFF;
}

enum rb_dr_verdict rb_dr_v_iommu(enum rb_dr_iommu mode)
{
	if (mode == RB_DR_IOMMU_UNKNOWN)
		return RB_DR_NA;
	return mode == RB_DR_IOMMU_DMA ? RB_DR_WARN : RB_DR_OK;
}

enum rb_dr_verdict rb_dr_v_roce_gid(int n_v2, int n_v1)
{
	if (n_v2 > 0)
		return RB_DR_OK;
	return n_v1 > 0 ? RB_DR_WARN : RB_DR_FAIL;
}

/*
 * The kernel's rule (iboe_get_mtu(), include/rdma/ib_addr.h): the netdev
 * MTU less the largest RoCE headers (GRH 40, UDP 8, BTH 12, XRC 4,
 * AtomicETH 28, ICRC 4), down to an IB MTU.  rdma_cm's paths take it.
 */
int rb_dr_roce_mtu(int netdev_mtu)
{
	int room = netdev_mtu - 96, m;

	for (m = 4096; m >= 256; m /= 2)
		if (room >= m)
			return m;
	return 0;
}

enum rb_dr_verdict rb_dr_v_mtu(int netdev_mtu, int active_mtu, int max_mtu)
{
	int carry = rb_dr_roce_mtu(netdev_mtu);

	if (netdev_mtu <= 0 || active_mtu <= 0)
		return RB_DR_NA;
	if (max_mtu > 0 && carry > max_mtu)
		carry = max_mtu;
	return active_mtu == carry ? RB_DR_OK : RB_DR_WARN;
}

enum rb_dr_verdict rb_dr_v_rp_filter(int all, int dev)
{
	int v = all > dev ? all : dev;

	if (v < 0)
		return RB_DR_NA;
	return v == 1 ? RB_DR_WARN : RB_DR_OK;
}

enum rb_dr_verdict rb_dr_v_rdma_cm(bool present)
{
	return present ? RB_DR_OK : RB_DR_WARN;
}

enum rb_dr_verdict rb_dr_v_cstates(int n, long max_exit_us)
{
	if (n <= 0)
		return RB_DR_NA;
	return max_exit_us > 10 ? RB_DR_WARN : RB_DR_OK;
}

enum rb_dr_verdict rb_dr_v_ecn(int np, int rp)
{
	if (np < 0 && rp < 0)
		return RB_DR_NA;
	return np > 0 && rp > 0 ? RB_DR_OK : RB_DR_WARN;
}
