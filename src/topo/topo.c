// SPDX-License-Identifier: MIT
/*
 * Topology decisions: where an RDMA device sits and where the measuring
 * thread and its buffers go.  Everything here is a function of a sysfs tree
 * (its root is a parameter) and of an hwloc topology, so the unit tests run
 * on fixtures: XML topologies and small fake sysfs trees.  topo_live.c feeds
 * it the live machine; topo_sysfs.c reads the devices from sysfs and
 * topo_report.c prints them (rdmabench topo).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "rdma/transport.h"
#include "topo/topo.h"

#include "topo/topo_int.h"

/* Bounds a CPU list a user may type; far above any machine's CPU count. */
#define RB_MAX_CPU_INDEX 65535

/* ---- locality --------------------------------------------------------- */

#define RB_HWLOC_UNUSED_PLUGINS                                                                   \
	"hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml,hwloc_levelzero,hwloc_cuda,hwloc_nvml," \
	"hwloc_rsmi"

int rb_topo_load(hwloc_topology_t *topo, const char *xml)
{
	const char *what = xml ? xml : "this machine";
	int ret;

	/* hwloc dlopens every plugin at its first init, before any component
	 * can be turned off: "gl" alone pulls in X11 and probes displays :0
	 * to :9, "opencl" its ICD loader.  Placement uses none of them, and
	 * the built-in XML reader serves the topology files of the tests.  Measured on a
	 * Debian 12 host: 7.4 M instructions (232 ms) a topology with them,
	 * 0.7 M (23 ms) without; more in every process start under
	 * emulation.  The user's own HWLOC_PLUGINS_BLACKLIST wins. */
	setenv("HWLOC_PLUGINS_BLACKLIST", RB_HWLOC_UNUSED_PLUGINS, 0);
	if (hwloc_topology_init(topo)) {
		ret = -errno;
		rb_err("hwloc: cannot initialise a topology: %s", strerror(errno));
		return ret;
	}
	/* hwloc drops IO objects by default; PCI functions are what tell
	 * which node a device hangs off. */
	hwloc_topology_set_io_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	/* The linux backend finds PCI functions in sysfs; the optional "pci"
	 * plugin (libpciaccess, installed along with Open MPI) reads them
	 * again, slower, and leaks what it allocates when it is unloaded. */
	hwloc_topology_set_components(*topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
	/* Placement needs nodes, cores and PCI, never caches, distances,
	 * memory attributes or CPU kinds: each costs sysfs reads at every
	 * start, which is most of a run's start-up under emulation. */
	hwloc_topology_set_cache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_flags(*topo, HWLOC_TOPOLOGY_FLAG_NO_DISTANCES |
						HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS |
						HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS);
	if (xml && hwloc_topology_set_xml(*topo, xml)) {
		ret = -errno;
		rb_err("%s: cannot use as an hwloc topology: %s", xml, strerror(errno));
		goto err;
	}
	if (hwloc_topology_load(*topo)) {
		ret = -errno;
		rb_err("%s: cannot load the hwloc topology: %s", what, strerror(errno));
		goto err;
	}
	return 0;
err:
	hwloc_topology_destroy(*topo);
	return ret ? ret : -EINVAL;
}

static hwloc_obj_t node_obj(hwloc_topology_t topo, int node)
{
	return node < 0 ? NULL : hwloc_get_numanode_obj_by_os_index(topo, node);
}

/*
 * The node hwloc hangs PCI function @pci under, or -1.  Not the ancestor's
 * nodeset: that also holds memory attached higher up (CXL memory hanging
 * off the machine).  The nodes whose locality is exactly the ancestor's
 * are the device's; several (sub-NUMA clustering) mean hwloc cannot tell.
 */
static int hwloc_pci_node(hwloc_topology_t topo, const char *pci)
{
	struct hwloc_location loc = { .type = HWLOC_LOCATION_TYPE_OBJECT };
	unsigned int dom, bus, dev, fn, nr = 2;
	hwloc_obj_t obj = NULL, nodes[2];

	if (sscanf(pci, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
		obj = hwloc_get_pcidev_by_busid(topo, dom, bus, dev, fn);
	if (obj)
		obj = hwloc_get_non_io_ancestor_obj(topo, obj);
	if (!obj)
		return -1;
	loc.location.object = obj;
	if (hwloc_get_local_numanode_objs(topo, &loc, &nr, nodes, 0) || nr != 1)
		return -1;
	return (int)nodes[0]->os_index;
}

int rb_topo_dev_node(hwloc_topology_t topo, const struct rb_dev_info *d)
{
	int node;

	if (!d->pci[0])
		return -1;
	node = hwloc_pci_node(topo, d->pci);
	if (node >= 0)
		return node;
	if (d->numa_node >= 0)
		return d->numa_node;
	/* Single-node machines often say numa_node -1: any node is local. */
	if (hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE) == 1)
		return (int)hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, 0)->os_index;
	return -1;
}

int rb_node_cpus(hwloc_topology_t topo, const char *sysroot, int node, hwloc_bitmap_t cpus)
{
	char dir[PATH_MAX], buf[4096];
	hwloc_obj_t obj;

	if (node < 0)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/devices/system/node/node%d", sysroot, node);
	/* A CPU-less node's cpulist is an empty line: an empty set. */
	if (!rb_topo_read_attr(dir, "cpulist", buf, sizeof(buf)) &&
	    !hwloc_bitmap_list_sscanf(cpus, buf))
		return 0;
	obj = node_obj(topo, node);
	if (!obj)
		return -ENOENT;
	hwloc_bitmap_copy(cpus, obj->cpuset);
	return 0;
}

bool rb_node_has_memory(hwloc_topology_t topo, const char *sysroot, int node)
{
	char dir[PATH_MAX], buf[4096];
	hwloc_bitmap_t set;
	hwloc_obj_t obj;
	bool has;

	if (node < 0)
		return false;
	snprintf(dir, sizeof(dir), "%s/devices/system/node", sysroot);
	set = hwloc_bitmap_alloc();
	if (set && !rb_topo_read_attr(dir, "has_memory", buf, sizeof(buf)) &&
	    !hwloc_bitmap_list_sscanf(set, buf)) {
		has = hwloc_bitmap_isset(set, node);
		hwloc_bitmap_free(set);
		return has;
	}
	hwloc_bitmap_free(set);
	obj = node_obj(topo, node);
	return obj && obj->attr->numanode.local_memory > 0;
}

/* Node @node's CPUs in a new bitmap; NULL when the node is unknown. */
static hwloc_bitmap_t node_cpus(hwloc_topology_t topo, const char *sysroot, int node)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (set && rb_node_cpus(topo, sysroot, node, set)) {
		hwloc_bitmap_free(set);
		set = NULL;
	}
	return set;
}

char *rb_cpus_format(hwloc_const_bitmap_t set, char *buf, size_t len)
{
	char *p;
	int n;

	n = hwloc_bitmap_list_snprintf(buf, len, set);
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = ' ';
	if (n >= (int)len && len > 5) {
		/* Cut at a separator so no CPU number is half printed. */
		buf[len - 5] = '\0';
		p = strrchr(buf, ' ');
		strcpy(p ? p : buf, " ...");
	}
	return buf;
}

int rb_cpus_parse(const char *s, hwloc_bitmap_t set)
{
	unsigned long a, b;
	char *end;

	hwloc_bitmap_zero(set);
	for (;;) {
		while (*s == ',' || *s == ' ')
			s++;
		if (!*s)
			break;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b > RB_MAX_CPU_INDEX || (*end && *end != ',' && *end != ' '))
			return -EINVAL;
		hwloc_bitmap_set_range(set, a, b);
		s = end;
	}
	return hwloc_bitmap_iszero(set) ? -EINVAL : 0;
}

/* ---- placement -------------------------------------------------------- */

/* "CPU 4" / "CPUs 0-3 8" */
static const char *cpus_phrase(hwloc_const_bitmap_t set, char *buf, size_t len)
{
	char list[128];

	snprintf(buf, len, "CPU%s %s", hwloc_bitmap_weight(set) == 1 ? "" : "s",
		 rb_cpus_format(set, list, sizeof(list)));
	return buf;
}

/* "node 0" / "nodes 0-1" / "no node": the nodes the CPUs belong to. */
static const char *nodes_phrase(hwloc_topology_t topo, const char *sysroot,
				hwloc_const_cpuset_t cpus, char *buf, size_t len)
{
	hwloc_nodeset_t ns = hwloc_bitmap_alloc();
	hwloc_bitmap_t ncpus = hwloc_bitmap_alloc();
	hwloc_obj_t obj = NULL;
	char list[128];
	int w;

	if (!ns || !ncpus) {
		hwloc_bitmap_free(ns);
		hwloc_bitmap_free(ncpus);
		return "an unknown node";
	}
	while ((obj = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, obj)))
		if (!rb_node_cpus(topo, sysroot, (int)obj->os_index, ncpus) &&
		    hwloc_bitmap_intersects(ncpus, cpus))
			hwloc_bitmap_set(ns, obj->os_index);
	hwloc_bitmap_free(ncpus);
	w = hwloc_bitmap_weight(ns);
	if (w <= 0)
		snprintf(buf, len, "no node");
	else
		snprintf(buf, len, "node%s %s", w == 1 ? "" : "s",
			 rb_cpus_format(ns, list, sizeof(list)));
	hwloc_bitmap_free(ns);
	return buf;
}

/* The core to run on: the first with no busy CPU, else the first. */
static hwloc_obj_t pick_core(hwloc_topology_t topo, hwloc_const_cpuset_t cand,
			     hwloc_const_cpuset_t loaded)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	hwloc_obj_t obj = NULL, first = NULL;

	/* Some platforms expose no cores; then the PU is the unit. */
	if (hwloc_get_type_depth(topo, type) < 0)
		type = HWLOC_OBJ_PU;
	while ((obj = hwloc_get_next_obj_covering_cpuset_by_type(topo, cand, type, obj))) {
		if (!first)
			first = obj;
		if (!loaded || !hwloc_bitmap_intersects(obj->cpuset, loaded))
			return obj;
	}
	return first;
}

/*
 * An affinity narrower than what the machine (or our cgroup) allows was set
 * by someone on purpose: taskset, numactl, a job scheduler.
 */
static bool user_affinity(const struct rb_place_in *in)
{
	return !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(in->topo), in->current);
}

/* @set without every core that holds a CPU of @peer. */
static void drop_peer_cores(hwloc_topology_t topo, hwloc_bitmap_t set, hwloc_const_cpuset_t peer)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	hwloc_obj_t obj = NULL;

	if (hwloc_get_type_depth(topo, type) < 0)
		type = HWLOC_OBJ_PU;
	while ((obj = hwloc_get_next_obj_covering_cpuset_by_type(topo, peer, type, obj)))
		hwloc_bitmap_andnot(set, set, obj->cpuset);
	hwloc_bitmap_andnot(set, set, peer);
}

/*
 * A peer on this host busy-polls its CPUs: keep off its cores, on the
 * device's node when it has another core, else anywhere allowed (the
 * placement is then remote, and says why).
 */
static void avoid_peer(const struct rb_place_in *in, struct rb_place_plan *plan,
		       hwloc_bitmap_t cand)
{
	hwloc_bitmap_t other;

	if (!in->peer)
		return;
	other = hwloc_bitmap_dup(cand);
	if (!other)
		return;
	drop_peer_cores(in->topo, other, in->peer);
	if (hwloc_bitmap_iszero(other)) {
		hwloc_bitmap_copy(other, hwloc_topology_get_allowed_cpuset(in->topo));
		drop_peer_cores(in->topo, other, in->peer);
		plan->peer_moved = !hwloc_bitmap_iszero(other);
	}
	if (!hwloc_bitmap_iszero(other))
		hwloc_bitmap_copy(cand, other);
	hwloc_bitmap_free(other);
}

/* The @rank-th CPU (from 0) of @set, or -1. */
static int nth_bit(hwloc_const_bitmap_t set, int rank)
{
	int id = hwloc_bitmap_first(set);

	while (id >= 0 && rank--)
		id = hwloc_bitmap_next(set, id);
	return id;
}

/*
 * Append to @order (@cap entries, *@n used) the @rank-th CPU of each core
 * of @set, cores in order.  Returns how many were appended.
 */
static int order_rank(hwloc_topology_t topo, hwloc_const_cpuset_t set, int rank, int *order,
		      int cap, int *n)
{
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;
	hwloc_bitmap_t in_core = hwloc_bitmap_alloc();
	hwloc_obj_t obj = NULL;
	int cpu, added = 0;

	if (hwloc_get_type_depth(topo, type) < 0)
		type = HWLOC_OBJ_PU;
	while (in_core && *n < cap &&
	       (obj = hwloc_get_next_obj_covering_cpuset_by_type(topo, set, type, obj))) {
		hwloc_bitmap_and(in_core, obj->cpuset, set);
		cpu = nth_bit(in_core, rank);
		if (cpu >= 0) {
			order[(*n)++] = cpu;
			added++;
		}
	}
	hwloc_bitmap_free(in_core);
	return added;
}

/*
 * --threads: the CPU of thread @in->thread in the order rb_place_in
 * describes: @near's cores (the device's node), then @far's, a CPU per
 * core, then the siblings.  -1 when both are empty.
 */
static int thread_cpu(const struct rb_place_in *in, struct rb_place_plan *plan,
		      hwloc_const_cpuset_t near, hwloc_const_cpuset_t far)
{
	int order[1024], n = 0, rank, added = 1;

	for (rank = 0; added && n < 1024; rank++) {
		added = order_rank(in->topo, near, rank, order, 1024, &n);
		added += order_rank(in->topo, far, rank, order, 1024, &n);
	}
	if (!n)
		return -1;
	plan->shared = in->thread >= (uint32_t)n;
	plan->threads_moved = !hwloc_bitmap_isset(near, order[in->thread % (uint32_t)n]);
	return order[in->thread % (uint32_t)n];
}

/*
 * Bind thread @in->thread of several to a CPU of its own: of @cand (the
 * device's node less the peer's cores) first, then of @pool (what the
 * thread may run on) less the peer's cores.
 */
static int threads_cpus(const struct rb_place_in *in, struct rb_place_plan *plan,
			hwloc_const_cpuset_t cand, hwloc_const_cpuset_t pool)
{
	hwloc_bitmap_t near = hwloc_bitmap_alloc(), far = hwloc_bitmap_dup(pool);
	int cpu = -1;

	if (near && far) {
		hwloc_bitmap_and(near, cand, pool);
		if (in->peer)
			drop_peer_cores(in->topo, far, in->peer);
		hwloc_bitmap_andnot(far, far, near);
		cpu = thread_cpu(in, plan, near, far);
	}
	hwloc_bitmap_free(near);
	hwloc_bitmap_free(far);
	if (cpu < 0)
		return 0; /* nothing to bind to: unbound, as auto_cpus() */
	plan->bind = hwloc_bitmap_alloc();
	if (!plan->bind)
		return -ENOMEM;
	hwloc_bitmap_only(plan->bind, (unsigned)cpu);
	hwloc_bitmap_copy(plan->cpus, plan->bind);
	return 0;
}

/* --threads with "auto": the node's CPUs first, within a user's affinity. */
static int auto_threads(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_const_cpuset_t pool = hwloc_topology_get_allowed_cpuset(in->topo);
	hwloc_bitmap_t cand;
	int ret;

	if (user_affinity(in))
		pool = in->current;
	cand = node_cpus(in->topo, in->sysroot, in->dev_node);
	if (!cand)
		cand = hwloc_bitmap_alloc(); /* unknown locality: every CPU is "far" */
	if (!cand)
		return -ENOMEM;
	hwloc_bitmap_and(cand, cand, pool);
	avoid_peer(in, plan, cand);
	ret = threads_cpus(in, plan, cand, pool);
	hwloc_bitmap_free(cand);
	return ret;
}

static int auto_cpus(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_bitmap_t cand;
	hwloc_obj_t core;

	if (user_affinity(in)) {
		plan->kept_affinity = true;
		return 0;
	}
	cand = node_cpus(in->topo, in->sysroot, in->dev_node);
	if (!cand)
		return 0; /* unknown locality: carry on unbound */
	plan->bind = hwloc_bitmap_alloc();
	if (!plan->bind) {
		hwloc_bitmap_free(cand);
		return -ENOMEM;
	}
	hwloc_bitmap_and(cand, cand, hwloc_topology_get_allowed_cpuset(in->topo));
	avoid_peer(in, plan, cand);
	core = hwloc_bitmap_iszero(cand) ? NULL : pick_core(in->topo, cand, in->loaded);
	if (core) {
		/* One CPU, not the whole core: no migration between SMT
		 * siblings, and the sibling stays free for the peer. */
		hwloc_bitmap_and(plan->bind, core->cpuset, cand);
		hwloc_bitmap_singlify(plan->bind);
		hwloc_bitmap_copy(plan->cpus, plan->bind);
	} else {
		/* A node without CPUs: nothing local to bind to. */
		hwloc_bitmap_free(plan->bind);
		plan->bind = NULL;
	}
	hwloc_bitmap_free(cand);
	return 0;
}

static int list_cpus(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(in->topo);
	char have[128], bad[128];

	plan->bind = hwloc_bitmap_alloc();
	if (!plan->bind)
		return -ENOMEM;
	if (rb_cpus_parse(in->cpu_opt, plan->bind)) {
		rb_err("--cpu %s: not a CPU list (e.g. 1 or 0-3,8), auto or none", in->cpu_opt);
		return -EINVAL;
	}
	if (!hwloc_bitmap_isincluded(plan->bind, allowed)) {
		hwloc_bitmap_andnot(plan->cpus, plan->bind, allowed);
		rb_err("--cpu %s: CPU %s not available here (available: %s)", in->cpu_opt,
		       rb_cpus_format(plan->cpus, bad, sizeof(bad)),
		       rb_cpus_format(allowed, have, sizeof(have)));
		return -EINVAL;
	}
	hwloc_bitmap_copy(plan->cpus, plan->bind);
	return 0;
}

static int decide_cpus(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_bitmap_copy(plan->cpus, in->current);
	if (!strcmp(in->cpu_opt, "none"))
		return 0;
	if (!strcmp(in->cpu_opt, "auto"))
		return in->threads > 1 ? auto_threads(in, plan) : auto_cpus(in, plan);
	return list_cpus(in, plan);
}

static int numa_number(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_bitmap_t cpus = NULL;
	char *end, have[128];
	long n;

	errno = 0;
	n = strtol(in->numa_opt, &end, 10);
	if (isdigit((unsigned char)in->numa_opt[0]) && !*end && !errno && n <= INT_MAX)
		cpus = node_cpus(in->topo, in->sysroot, (int)n);
	hwloc_bitmap_free(cpus);
	if (!cpus) {
		rb_err("--numa %s: no such NUMA node here (nodes: %s); use auto, none or a node "
		       "number",
		       in->numa_opt,
		       rb_cpus_format(hwloc_topology_get_topology_nodeset(in->topo), have,
				      sizeof(have)));
		return -EINVAL;
	}
	if (!in->membind_ok) {
		rb_err("--numa %s: this kernel cannot bind memory to a node (no NUMA support)",
		       in->numa_opt);
		return -ENOSYS;
	}
	if (!rb_node_has_memory(in->topo, in->sysroot, (int)n)) {
		rb_err("--numa %s: NUMA node %ld has no memory", in->numa_opt, n);
		return -EINVAL;
	}
	plan->mem_node = (int)n;
	return 0;
}

static int decide_mem(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	plan->mem_node = -1;
	if (!strcmp(in->numa_opt, "none"))
		return 0;
	if (strcmp(in->numa_opt, "auto"))
		return numa_number(in, plan);
	if (in->mem_policy)
		plan->mem_node = in->mem_policy_node; /* respect numactl -m */
	else if (in->membind_ok && rb_node_has_memory(in->topo, in->sysroot, in->dev_node))
		plan->mem_node = in->dev_node;
	return 0;
}

/* "remote placement: mlx5_0 is on NUMA node 1, but CPU 0 is on node 0" */
static void remote_warning(const struct rb_place_in *in, struct rb_place_plan *plan, bool cpu_ok,
			   bool mem_ok)
{
	char cpus[160], nodes[160], what[400] = "";
	size_t n = 0;

	if (!cpu_ok)
		n = snprintf(what, sizeof(what), "%s %s on %s",
			     cpus_phrase(plan->cpus, cpus, sizeof(cpus)),
			     hwloc_bitmap_weight(plan->cpus) == 1 ? "is" : "are",
			     nodes_phrase(in->topo, in->sysroot, plan->cpus, nodes, sizeof(nodes)));
	if (!mem_ok && n < sizeof(what))
		snprintf(what + n, sizeof(what) - n, "%sbuffers are on node %d",
			 cpu_ok ? "" : " and ", plan->mem_node);
	snprintf(plan->warning, sizeof(plan->warning),
		 "remote placement: %s is on NUMA node %d, but %s%s", in->dev, in->dev_node, what,
		 plan->peer_moved      ? " (its cores are taken by the peer on this host)"
		 : plan->threads_moved ? " (its cores are taken by the other threads)"
				       : "");
}

/* Local means: every CPU on the device's node, and memory there too. */
static void judge_local(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	hwloc_bitmap_t ncpus = node_cpus(in->topo, in->sysroot, in->dev_node);
	bool cpu_ok, mem_ok;

	if (!ncpus) {
		plan->local = -1;
		return;
	}
	cpu_ok = !hwloc_bitmap_iszero(plan->cpus) && hwloc_bitmap_isincluded(plan->cpus, ncpus);
	hwloc_bitmap_free(ncpus);
	mem_ok = plan->mem_node < 0 || plan->mem_node == in->dev_node;
	plan->local = cpu_ok && mem_ok;
	if (!plan->local)
		remote_warning(in, plan, cpu_ok, mem_ok);
}

int rb_place_decide(const struct rb_place_in *in, struct rb_place_plan *plan)
{
	int ret;

	memset(plan, 0, sizeof(*plan));
	plan->dev_node = in->dev_node;
	plan->cpus = node_cpus(in->topo, in->sysroot, in->dev_node);
	plan->unknown = !plan->cpus; /* else decide_cpus() overwrites it */
	if (plan->unknown)
		plan->cpus = hwloc_bitmap_alloc();
	if (!plan->cpus)
		return -ENOMEM;
	ret = decide_cpus(in, plan);
	if (!ret)
		ret = decide_mem(in, plan);
	if (ret) {
		rb_place_plan_fini(plan);
		return ret;
	}
	judge_local(in, plan);
	return 0;
}

void rb_place_plan_fini(struct rb_place_plan *plan)
{
	hwloc_bitmap_free(plan->bind);
	hwloc_bitmap_free(plan->cpus);
	plan->bind = NULL;
	plan->cpus = NULL;
}

void rb_place_fill(const struct rb_place_plan *plan, struct rb_placement *out)
{
	out->device_numa_node = plan->dev_node;
	rb_cpus_format(plan->cpus, out->cpus, sizeof(out->cpus));
	out->mem_node = plan->mem_node;
	out->local = plan->local;
}

void rb_cpu_freq(const char *sysroot, int cpu, struct rb_placement *p)
{
	char dir[PATH_MAX], khz[32], *end;
	unsigned long v;

	p->freq_cpu = cpu;
	p->governor[0] = '\0';
	p->cpu_mhz = 0;
	if (cpu < 0 || snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d/cpufreq", sysroot,
				cpu) >= (int)sizeof(dir))
		return;
	if (rb_topo_read_attr(dir, "scaling_governor", p->governor, sizeof(p->governor)))
		p->governor[0] = '\0';
	if (rb_topo_read_attr(dir, "scaling_cur_freq", khz, sizeof(khz)))
		return;
	errno = 0;
	v = strtoul(khz, &end, 10);
	if (!errno && end != khz && !*end && v / 1000 <= UINT32_MAX)
		p->cpu_mhz = (uint32_t)(v / 1000);
}

bool rb_tsc_untrusted(const char *sysroot, char *sources, size_t len)
{
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s/devices/system/clocksource/clocksource0", sysroot) >=
		    (int)sizeof(dir) ||
	    rb_topo_read_attr(dir, "available_clocksource", sources, len))
		return false;
	return sources[0] && !strstr(sources, "tsc");
}

/* ---- warnings --------------------------------------------------------- */

struct wlist {
	struct rb_topo_warning *w;
	int n, max;
};

__attribute__((format(printf, 4, 5))) static void wadd(struct wlist *l, enum rb_topo_wcode code,
						       int port, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= l->max)
		return;
	l->w[l->n].code = code;
	l->w[l->n].port = port;
	va_start(ap, fmt);
	vsnprintf(l->w[l->n].msg, sizeof(l->w[l->n].msg), fmt, ap);
	va_end(ap);
	l->n++;
}

const char *rb_topo_wcode_name(enum rb_topo_wcode code)
{
	static const char *const names[] = {
		[RB_TW_PCIE_SPEED] = "pcie_speed",
		[RB_TW_PCIE_WIDTH] = "pcie_width",
		[RB_TW_PCIE_CEILING] = "pcie_ceiling",
		[RB_TW_PORT_STATE] = "port_state",
		[RB_TW_NO_ROCEV2] = "no_rocev2_gid",
		[RB_TW_NODE_NO_CPUS] = "node_without_cpus",
		[RB_TW_NODE_NO_MEMORY] = "node_without_memory",
		[RB_TW_BOUND_AWAY] = "bound_away",
		[RB_TW_NO_LOCALITY] = "locality_unknown",
	};

	return code <= RB_TW_NO_LOCALITY ? names[code] : "?";
}

static void check_link(struct wlist *l, const struct rb_dev_info *d)
{
	const struct rb_pcie_link *k = &d->link;

	if (k->cur_gts > 0 && k->max_gts > k->cur_gts)
		wadd(l, RB_TW_PCIE_SPEED, 0,
		     "%s: PCIe %s trained at %.1f GT/s, below its maximum %.1f GT/s: check the "
		     "slot's PCIe generation, the BIOS link speed setting and any riser (lspci -vv "
		     "-s %s: LnkSta vs LnkCap)",
		     d->name, d->pci, k->cur_gts, k->max_gts, d->pci);
	if (k->cur_width > 0 && k->max_width > k->cur_width)
		wadd(l, RB_TW_PCIE_WIDTH, 0,
		     "%s: PCIe %s trained at x%d, below its maximum x%d: check that the slot is "
		     "wired x%d (not only shaped so), the BIOS bifurcation and the card's seating "
		     "(lspci -vv -s %s: LnkSta vs LnkCap)",
		     d->name, d->pci, k->cur_width, k->max_width, k->max_width, d->pci);
}

static bool has_rocev2(const struct rb_port_info *p)
{
	int i;

	for (i = 0; i < p->n_gids; i++)
		if (!strcmp(p->gids[i].type, "RoCE v2"))
			return true;
	return false;
}

const char *rb_dev_transport(const struct rb_dev_info *d)
{
	bool eth = d->n_ports && !strcmp(d->ports[0].link_layer, "Ethernet");

	return d->node_type ? rb_transport_label(rb_transport_of_node(d->node_type), eth) : "";
}

static void check_port(struct wlist *l, const struct rb_dev_info *d, const struct rb_port_info *p)
{
	double ceil = rb_pcie_ceiling_gbps(d->link.cur_gts, d->link.cur_width);
	const char *nd = p->netdev[0] ? p->netdev : "its netdev";

	if (ceil > 0 && p->rate_gbps > ceil)
		wadd(l, RB_TW_PCIE_CEILING, p->num,
		     "%s port %d: PCIe %s at %.1f GT/s x%d carries at most %.1f Gb/s, below the "
		     "port rate %.1f Gb/s: check the slot's width and generation",
		     d->name, p->num, d->pci, d->link.cur_gts, d->link.cur_width, ceil,
		     p->rate_gbps);
	if (p->state[0] && strcmp(p->state, "ACTIVE"))
		wadd(l, RB_TW_PORT_STATE, p->num,
		     "%s port %d is %s (physical state %s): check the cable, the link partner and "
		     "%s",
		     d->name, p->num, p->state, p->phys_state[0] ? p->phys_state : "unknown",
		     strcmp(p->link_layer, "Ethernet") ? "the subnet manager (sminfo)"
						       : "ip link show of the netdev");
	if (!strcmp(p->link_layer, "Ethernet") && rb_transport_of_node(d->node_type)->roce_gid &&
	    !has_rocev2(p))
		wadd(l, RB_TW_NO_ROCEV2, p->num,
		     "%s port %d has no RoCE v2 GID: check that %s is up and has an IP address (ip "
		     "addr)",
		     d->name, p->num, nd);
}

static void check_node(struct wlist *l, hwloc_topology_t topo, const char *sysroot,
		       const struct rb_dev_info *d, int dev_node, hwloc_const_cpuset_t bound)
{
	hwloc_bitmap_t ncpus = node_cpus(topo, sysroot, dev_node);
	char cpus[160], nodes[160];

	if (!ncpus)
		return;
	if (hwloc_bitmap_iszero(ncpus))
		wadd(l, RB_TW_NODE_NO_CPUS, 0,
		     "%s is on NUMA node %d, which has no CPUs, so no thread can run local to it: "
		     "check the BIOS NUMA settings and which slot the card sits in",
		     d->name, dev_node);
	if (!rb_node_has_memory(topo, sysroot, dev_node))
		wadd(l, RB_TW_NODE_NO_MEMORY, 0,
		     "%s is on NUMA node %d, which has no memory, so buffers cannot be local to "
		     "it: check the memory population of that socket",
		     d->name, dev_node);
	if (bound && !hwloc_bitmap_iszero(ncpus) && !hwloc_bitmap_intersects(bound, ncpus))
		wadd(l, RB_TW_BOUND_AWAY, 0,
		     "this process is bound to %s (%s), away from %s's NUMA node %d: check "
		     "taskset, numactl or the cgroup cpuset",
		     cpus_phrase(bound, cpus, sizeof(cpus)),
		     nodes_phrase(topo, sysroot, bound, nodes, sizeof(nodes)), d->name, dev_node);
	hwloc_bitmap_free(ncpus);
}

int rb_topo_check(hwloc_topology_t topo, const char *sysroot, const struct rb_dev_info *d,
		  int dev_node, hwloc_const_cpuset_t bound, struct rb_topo_warning *w, int max)
{
	struct wlist l = { .w = w, .max = max };
	int i;

	check_link(&l, d);
	for (i = 0; i < d->n_ports; i++)
		check_port(&l, d, &d->ports[i]);
	if (dev_node >= 0)
		check_node(&l, topo, sysroot, d, dev_node, bound);
	else if (d->pci[0])
		wadd(&l, RB_TW_NO_LOCALITY, 0,
		     "%s: NUMA locality unknown (PCI %s reports numa_node %d): check the "
		     "firmware's NUMA (ACPI SRAT/_PXM) settings, or pin with --cpu and --numa",
		     d->name, d->pci, d->numa_node);
	else
		wadd(&l, RB_TW_NO_LOCALITY, 0,
		     "%s: NUMA locality unknown (%s%s has no PCI function): pin with --cpu and "
		     "--numa",
		     d->name, d->netdev[0] ? "netdev " : "the device", d->netdev);
	return l.n;
}

/* Whether CPU @cpu's core holds none of @busy (unknown core: it does not). */
static bool core_free(hwloc_topology_t topo, int cpu, hwloc_const_cpuset_t busy)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned int)cpu);
	hwloc_obj_t core = pu ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu) : NULL;

	return core && !hwloc_bitmap_intersects(core->cpuset, busy);
}

/* The first CPU of @set (minus @off, when given) on a core free of @busy, or any; -1: none. */
static int probe_pick(hwloc_topology_t topo, hwloc_bitmap_t set, hwloc_const_cpuset_t off,
		      hwloc_const_cpuset_t busy)
{
	hwloc_bitmap_t s = hwloc_bitmap_dup(set);
	int cpu, first = -1;

	if (!s)
		return -1;
	if (off)
		hwloc_bitmap_andnot(s, s, off);
	hwloc_bitmap_foreach_begin(cpu, s)
	{
		if (first < 0)
			first = cpu;
		if (core_free(topo, cpu, busy)) {
			first = cpu;
			break;
		}
	}
	hwloc_bitmap_foreach_end();
	hwloc_bitmap_free(s);
	return first;
}

/* The probe's candidates: @where in @allowed, none of @busy. */
static hwloc_bitmap_t probe_cands(hwloc_const_cpuset_t where, hwloc_const_cpuset_t allowed,
				  hwloc_const_cpuset_t busy)
{
	hwloc_bitmap_t c = hwloc_bitmap_alloc();

	if (!c)
		return NULL;
	hwloc_bitmap_and(c, where, allowed);
	hwloc_bitmap_andnot(c, c, busy);
	return c;
}

/* The first of @c off @peer (when any is), on a free core when one is; -1: none. */
static int probe_first(hwloc_topology_t topo, hwloc_bitmap_t c, hwloc_const_cpuset_t peer,
		       hwloc_const_cpuset_t busy)
{
	int cpu = peer ? probe_pick(topo, c, peer, busy) : -1;

	return cpu >= 0 ? cpu : probe_pick(topo, c, NULL, busy);
}

int rb_probe_place_decide(hwloc_topology_t topo, const char *sysroot, int dev_node,
			  hwloc_const_cpuset_t allowed, hwloc_const_cpuset_t stream,
			  hwloc_const_cpuset_t busy, hwloc_const_cpuset_t peer,
			  struct rb_probe_place *out)
{
	hwloc_bitmap_t node, c;
	char list[64];

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	/* Not bound to one CPU: nothing the probe would wait for. */
	if (!stream || hwloc_bitmap_weight(stream) != 1)
		return 0;
	node = hwloc_bitmap_alloc();
	if (!node)
		return -ENOMEM;
	if (dev_node < 0 || rb_node_cpus(topo, sysroot, dev_node, node))
		hwloc_bitmap_copy(node, allowed);
	c = probe_cands(node, allowed, busy);
	if (c && hwloc_bitmap_iszero(c)) {
		/* None on the device's node: another's, said. */
		hwloc_bitmap_free(c);
		c = probe_cands(allowed, allowed, busy);
		out->elsewhere = c && !hwloc_bitmap_iszero(c);
	}
	hwloc_bitmap_free(node);
	if (!c)
		return -ENOMEM;
	out->cpu = probe_first(topo, c, peer, busy);
	hwloc_bitmap_free(c);
	if (out->cpu >= 0 && out->elsewhere)
		snprintf(out->note, sizeof(out->note),
			 "--probe: NUMA node %d has no CPU besides the measuring threads' (%s): "
			 "the "
			 "probe runs on CPU %d, of another node",
			 dev_node, rb_cpus_format(busy, list, sizeof(list)), out->cpu);
	if (out->cpu >= 0)
		return 0;
	out->cpu = hwloc_bitmap_first(stream);
	out->shared = true;
	snprintf(out->note, sizeof(out->note),
		 "--probe: no CPU besides the stream's (%d) to run on: the probe shares it, so "
		 "the loaded latency includes waiting for the CPU the stream busy-polls (give "
		 "this process another CPU, or --cpu none)",
		 out->cpu);
	return 0;
}
