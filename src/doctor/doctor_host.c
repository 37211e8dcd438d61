// SPDX-License-Identifier: MIT
/*
 * rdmabench doctor's checks of the host: verbs and rdma_cm, the CPUs and
 * huge pages of a device's node, SMT, the memlock limit, THP and the
 * IOMMU.  Values are read under the run's root and judged by
 * doctor_verdict.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/doctor_int.h"

#define WHY_VERBS "libibverbs opens a device only through its driver's provider library"
#define WHY_CM	  "-R (rdma_cm) connects through /dev/infiniband/rdma_cm"
#define WHY_GOV	  "a core that clocks down between messages adds microseconds to latency"
#define WHY_HUGE  "--hugepages takes 2 MiB pages from the device's node"
#define WHY_SMT	  "a sibling hardware thread shares the core: latency jitters when both run"
#define WHY_LOCK  "ibv_reg_mr pins the buffers: beyond the limit it fails with ENOMEM"
#define WHY_THP	  "with THP off every 4 KiB of a buffer is a translation the device looks up"
#define WHY_IOMMU "DMA through a translating IOMMU can miss its IOTLB: bandwidth drops"
#define WHY_CSTATE                                                                    \
	"a core woken from a deep C-state takes tens of microseconds: latency jumps " \
	"after every idle gap"
#define CPUIDLE "/sys/devices/system/cpu/cpu0/cpuidle"

static int verbs_check(struct rb_dr_run *x, int n_sysfs)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "verbs", "");
	int n = x->e->verbs_devices ? x->e->verbs_devices() : -ENOSYS;
	char vbuf[32];
	const char *ver = x->e->verbs_version ? x->e->verbs_version(vbuf, sizeof(vbuf)) : NULL;

	if (!c)
		return -ENOMEM;
	c->why = WHY_VERBS;
	c->v = rb_dr_v_verbs(n_sysfs, n);
	snprintf(c->source, sizeof(c->source), "/sys/class/infiniband");
	if (n < 0)
		snprintf(c->value, sizeof(c->value),
			 "%d device(s) in sysfs; libibverbs%s%s cannot list devices: %s", n_sysfs,
			 ver ? " " : "", ver ? ver : "", strerror(-n));
	else
		snprintf(c->value, sizeof(c->value),
			 "%d device(s) in sysfs, %d from libibverbs%s%s", n_sysfs, n,
			 ver ? " " : "", ver ? ver : "");
	if (n_sysfs <= 0)
		snprintf(c->fix, sizeof(c->fix),
			 "modprobe mlx5_ib   # or Soft-RoCE: rdma link add rxe0 type rxe netdev "
			 "eth0");
	else if (c->v != RB_DR_OK && c->v != RB_DR_NA)
		snprintf(c->fix, sizeof(c->fix), "apt-get install ibverbs-providers");
	return 0;
}

static int cm_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "rdma_cm", "");
	char path[PATH_MAX];
	bool present;

	if (!c)
		return -ENOMEM;
	present = !rb_dr_path(x, path, sizeof(path), "/dev/infiniband/rdma_cm") &&
		  !access(path, F_OK);
	c->v = rb_dr_v_rdma_cm(present);
	c->why = WHY_CM;
	snprintf(c->source, sizeof(c->source), "/dev/infiniband/rdma_cm");
	snprintf(c->value, sizeof(c->value), "%s", present ? "present" : "missing");
	if (!present)
		snprintf(c->fix, sizeof(c->fix), "modprobe rdma_ucm");
	return 0;
}

int rb_dr_host_prereq(struct rb_dr_run *x, int n_sysfs)
{
	int ret = verbs_check(x, n_sysfs);

	return ret ? ret : cm_check(x);
}

/* The CPUs of @node, or every online CPU for -1, into @set. */
static int node_cpus(struct rb_dr_run *x, int node, hwloc_bitmap_t set)
{
	char rel[96];

	if (node < 0)
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/online");
	else
		snprintf(rel, sizeof(rel), "/sys/devices/system/node/node%d/cpulist", node);
	return rb_dr_cpus(x, NULL, set, rel);
}

/* "; cpu4 at 2.40 of 3.50 GHz" after @value, where cpufreq says so. */
static void clock_of(struct rb_dr_run *x, int cpu, char *value, size_t len)
{
	long cur, max;
	size_t used = strlen(value);

	if (cpu < 0 ||
	    rb_dr_read_int(x, NULL, &cur, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
			   cpu) ||
	    rb_dr_read_int(x, NULL, &max, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
			   cpu) ||
	    max <= 0)
		return;
	snprintf(value + used, len - used, "; cpu%d at %.2f of %.2f GHz", cpu, (double)cur / 1e6,
		 (double)max / 1e6);
}

static int governor_check(struct rb_dr_run *x, const char *subject, int node)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "governor", subject);
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int i, n, perf = 0;
	char other[32] = "";
	struct rb_govs g;

	if (!c || !set) {
		hwloc_bitmap_free(set);
		return -ENOMEM;
	}
	c->why = WHY_GOV;
	node_cpus(x, node, set);
	/* topo's reading: what topo shows, doctor judges. */
	rb_cpus_governors(x->sys, set, &g);
	n = g.n;
	for (i = 0; i < g.kinds; i++) {
		if (!strcmp(g.name[i], "performance"))
			perf = g.count[i];
		else
			snprintf(other, sizeof(other), "%s", g.name[i]);
	}
	if (n)
		snprintf(c->source, sizeof(c->source),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 hwloc_bitmap_first(set));
	c->v = rb_dr_v_governor(n, perf);
	snprintf(c->value, sizeof(c->value), "%d of %d CPU(s) at performance%s%s", perf, n,
		 other[0] ? ", others " : "", other);
	clock_of(x, hwloc_bitmap_first(set), c->value, sizeof(c->value));
	hwloc_bitmap_free(set);
	if (!n)
		snprintf(c->value, sizeof(c->value), "no cpufreq governor (none, or a VM)");
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix), "cpupower frequency-set -g performance");
	return 0;
}

static int huge_check(struct rb_dr_run *x, const char *subject, int node)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "hugepages", subject);
	char dir[128];
	long total = -1, free = -1;

	if (!c)
		return -ENOMEM;
	c->why = WHY_HUGE;
	if (node >= 0)
		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d/hugepages", node);
	else
		snprintf(dir, sizeof(dir), "/sys/kernel/mm/hugepages");
	if (rb_dr_read_int(x, c->source, &total, "%s/hugepages-2048kB/nr_hugepages", dir) ||
	    rb_dr_read_int(x, c->source, &free, "%s/hugepages-2048kB/free_hugepages", dir))
		total = free = -1;
	c->v = rb_dr_v_hugepages(total, free);
	snprintf(c->value, sizeof(c->value), "%ld of %ld 2 MiB page(s) free%s", free, total,
		 node >= 0 ? " on the node" : "");
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix), "echo %ld > %s/hugepages-2048kB/nr_hugepages",
			 total + 512, dir);
	return 0;
}

int rb_dr_host_node(struct rb_dr_run *x, const char *subject, int node)
{
	int ret = governor_check(x, subject, node);

	return ret ? ret : huge_check(x, subject, node);
}

static int smt_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "smt", "");
	long v;

	if (!c)
		return -ENOMEM;
	c->why = WHY_SMT;
	if (rb_dr_read_int(x, c->source, &v, "/sys/devices/system/cpu/smt/active"))
		v = -1;
	c->v = rb_dr_v_smt((int)v);
	snprintf(c->value, sizeof(c->value), "%s", v < 0 ? "unknown" : v ? "on" : "off");
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "echo off > /sys/devices/system/cpu/smt/control   # or pin to one "
			 "sibling");
	return 0;
}

/* CAP_IPC_LOCK (14) in this process's effective set (ROOT/proc/self/status). */
static bool has_ipc_lock(const struct rb_dr_run *x)
{
	char buf[4096], *p;

	if (rb_dr_read(x, NULL, buf, sizeof(buf), "/proc/self/status"))
		return false;
	p = strstr(buf, "CapEff:");
	return p && (strtoull(p + 7, NULL, 16) >> 14 & 1);
}

static void kib(char *buf, size_t len, uint64_t bytes)
{
	if (bytes == UINT64_MAX)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
}

static int memlock_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "memlock", "");
	bool cap = has_ipc_lock(x);
	char lim[32], need[32];

	if (!c)
		return -ENOMEM;
	c->why = WHY_LOCK;
	c->v = rb_dr_v_memlock(x->e->memlock, x->e->memlock_need, cap);
	kib(lim, sizeof(lim), x->e->memlock);
	kib(need, sizeof(need), x->e->memlock_need);
	snprintf(c->value, sizeof(c->value), "limit %s, a default write_bw locks %s%s", lim, need,
		 cap ? "; CAP_IPC_LOCK lifts the limit for this process" : "");
	snprintf(c->source, sizeof(c->source), "getrlimit(RLIMIT_MEMLOCK)");
	if (c->v != RB_DR_OK)
		snprintf(c->fix, sizeof(c->fix),
			 "ulimit -l unlimited   # for good: memlock in "
			 "/etc/security/limits.conf, LimitMEMLOCK= for a service");
	return 0;
}

static int thp_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "thp", "");
	char buf[128], mode[32] = "", *a, *b;

	if (!c)
		return -ENOMEM;
	c->why = WHY_THP;
	if (!rb_dr_read(x, c->source, buf, sizeof(buf),
			"/sys/kernel/mm/transparent_hugepage/enabled") &&
	    (a = strchr(buf, '[')) && (b = strchr(a, ']')))
		snprintf(mode, sizeof(mode), "%.*s", (int)(b - a - 1), a + 1);
	c->v = rb_dr_v_thp(mode);
	snprintf(c->value, sizeof(c->value), "%s", mode[0] ? mode : "unknown");
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");
	return 0;
}

static const char *const iommu_names[] = { "unknown", "off", "passthrough", "translated" };

static int iommu_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "iommu", "");
	int n_iommu = rb_dr_count(x, "/sys/class/iommu", "");
	int n_groups = rb_dr_count(x, "/sys/kernel/iommu_groups", "");
	char cmdline[2048] = "", type[32] = "";
	enum rb_dr_iommu m;

	if (!c)
		return -ENOMEM;
	c->why = WHY_IOMMU;
	rb_dr_read(x, NULL, cmdline, sizeof(cmdline), "/proc/cmdline");
	if (x->bdf[0])
		rb_dr_read(x, NULL, type, sizeof(type), "/sys/bus/pci/devices/%s/iommu_group/type",
			   x->bdf);
	m = rb_dr_iommu_mode(n_iommu, n_groups, cmdline, type[0] ? type : NULL);
	c->v = rb_dr_v_iommu(m);
	snprintf(c->value, sizeof(c->value), "%s: %d IOMMU(s), %d group(s)", iommu_names[m],
		 n_iommu < 0 ? 0 : n_iommu, n_groups < 0 ? 0 : n_groups);
	if (type[0])
		snprintf(c->value + strlen(c->value), sizeof(c->value) - strlen(c->value),
			 "; %s's group is %s", x->bdf, type);
	snprintf(c->source, sizeof(c->source), "/sys/class/iommu, /proc/cmdline");
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "sed -i 's/^GRUB_CMDLINE_LINUX=\"/&iommu=pt /' /etc/default/grub && "
			 "update-grub && reboot");
	return 0;
}

/* C-states: the deepest idle state CPU 0 may enter, and its exit latency. */
static int cstate_check(struct rb_dr_run *x)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "cstates", "");
	char deep[32] = "", drv[32] = "";
	long lat, off, max_lat = -1;
	int i, n = 0;

	if (!c)
		return -ENOMEM;
	c->why = WHY_CSTATE;
	snprintf(c->source, sizeof(c->source), "%s/state*/{name,latency,disable}", CPUIDLE);
	if (rb_dr_read(x, NULL, drv, sizeof(drv), "/sys/devices/system/cpu/cpuidle/current_driver"))
		snprintf(drv, sizeof(drv), "?");
	for (i = 0; i < 16; i++) {
		if (rb_dr_read_int(x, NULL, &lat, CPUIDLE "/state%d/latency", i))
			break;
		n++;
		if (!rb_dr_read_int(x, NULL, &off, CPUIDLE "/state%d/disable", i) && off)
			continue;
		if (lat > max_lat &&
		    !rb_dr_read(x, NULL, deep, sizeof(deep), CPUIDLE "/state%d/name", i))
			max_lat = lat;
	}
	c->v = rb_dr_v_cstates(n, max_lat);
	if (!n)
		snprintf(c->value, sizeof(c->value), "no cpuidle states (none, or a VM)");
	else
		snprintf(c->value, sizeof(c->value),
			 "deepest enabled %s, exit latency %ld us, of %d state(s) (driver %s)",
			 deep[0] ? deep : "none", max_lat < 0 ? 0 : max_lat, n, drv);
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "cpupower idle-set -D 10   # or intel_idle.max_cstate=1 on the kernel "
			 "command line");
	return 0;
}

int rb_dr_host(struct rb_dr_run *x)
{
	int ret = smt_check(x);

	if (!ret)
		ret = memlock_check(x);
	if (!ret)
		ret = thp_check(x);
	if (!ret)
		ret = iommu_check(x);
	if (!ret)
		ret = cstate_check(x);
	return ret;
}
