// SPDX-License-Identifier: MIT
/*
 * GPUs and RDMA devices: which GPUs a machine has and how far each is from
 * each RDMA device along PCIe, as `nvidia-smi topo -m` says it (PIX, PXB,
 * PHB, NODE, SYS), decided from the hwloc tree alone so that no GPU driver
 * or CUDA is needed.  Pure: the tests feed it XML topologies.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

#include "topo/topo_int.h"

/* Deeper than any real PCIe tree: a loop guard, not a limit. */
#define RB_MAX_ANCESTORS 64

#define RB_VENDOR_NVIDIA 0x10de
#define RB_VENDOR_AMD	 0x1002

static const struct {
	const char *name, *desc;
} rels[RB_REL_COUNT] = {
	[RB_REL_PIX] = { "PIX", "the same PCIe switch (at most one bridge on each side)" },
	[RB_REL_PXB] = { "PXB", "several PCIe bridges (nested switches), no host bridge" },
	[RB_REL_PHB] = { "PHB", "the same PCIe host bridge (root complex), through the CPU" },
	[RB_REL_NODE] = { "NODE", "the same NUMA node, different host bridges" },
	[RB_REL_SYS] = { "SYS", "different NUMA nodes: across the CPU interconnect (socket)" },
	[RB_REL_UNKNOWN] = { "-", "unknown: not in the topology, or its NUMA node unknown" },
};

const char *rb_pcie_rel_name(enum rb_pcie_rel rel)
{
	return rel <= RB_REL_UNKNOWN ? rels[rel].name : "-";
}

const char *rb_pcie_rel_desc(enum rb_pcie_rel rel)
{
	return rel <= RB_REL_UNKNOWN ? rels[rel].desc : rels[RB_REL_UNKNOWN].desc;
}

static hwloc_obj_t pci_obj(hwloc_topology_t topo, const char *bdf)
{
	unsigned int dom, bus, dev, fn;

	if (!bdf || sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return NULL;
	return hwloc_get_pcidev_by_busid(topo, dom, bus, dev, fn);
}

/*
 * @obj's parents, nearest first, into @up.  Not hwloc's common ancestor
 * helper: it compares depths, and I/O objects have none.
 */
static int ancestors(hwloc_obj_t obj, hwloc_obj_t *up, int max)
{
	int n = 0;

	for (obj = obj->parent; obj && n < max; obj = obj->parent)
		up[n++] = obj;
	return n;
}

/* The index in @up of @obj, or -1. */
static int find_obj(hwloc_obj_t const *up, int n, hwloc_obj_t obj)
{
	int i;

	for (i = 0; i < n; i++)
		if (up[i] == obj)
			return i;
	return -1;
}

/* Bridges among the first @n of @up (those below the common ancestor). */
static int bridges_below(hwloc_obj_t const *up, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += up[i]->type == HWLOC_OBJ_BRIDGE;
	return k;
}

/* The function's numa_node as the kernel says it, -1 unknown. */
static int sysfs_node(const char *sysroot, const char *pci)
{
	char dir[PATH_MAX], buf[32];

	if (!sysroot)
		return -1;
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", sysroot, pci);
	return rb_topo_read_attr(dir, "numa_node", buf, sizeof(buf)) ? -1 : atoi(buf);
}

/* The NUMA node of PCI function @pci, as rb_topo_dev_node() finds it. */
static int pci_node(hwloc_topology_t topo, const char *sysroot, const char *pci)
{
	struct rb_dev_info d = { .numa_node = sysfs_node(sysroot, pci) };

	snprintf(d.pci, sizeof(d.pci), "%s", pci);
	return rb_topo_dev_node(topo, &d);
}

/* Above the host bridges: the same node or not. */
static enum rb_pcie_rel across_bridges(hwloc_topology_t topo, const char *sysroot, const char *a,
				       const char *b)
{
	int na = pci_node(topo, sysroot, a), nb = pci_node(topo, sysroot, b);

	if (na < 0 || nb < 0)
		return RB_REL_UNKNOWN;
	return na == nb ? RB_REL_NODE : RB_REL_SYS;
}

enum rb_pcie_rel rb_pcie_relation(hwloc_topology_t topo, const char *sysroot, const char *a,
				  const char *b)
{
	hwloc_obj_t oa = pci_obj(topo, a), ob = pci_obj(topo, b);
	hwloc_obj_t ua[RB_MAX_ANCESTORS], ub[RB_MAX_ANCESTORS], lca;
	int na, nb, i, k = -1;

	if (!oa || !ob)
		return RB_REL_UNKNOWN;
	if (oa == ob)
		return RB_REL_PIX;
	na = ancestors(oa, ua, RB_MAX_ANCESTORS);
	nb = ancestors(ob, ub, RB_MAX_ANCESTORS);
	for (i = 0; i < na; i++) {
		k = find_obj(ub, nb, ua[i]);
		if (k >= 0)
			break;
	}
	if (i == na)
		return RB_REL_UNKNOWN;
	lca = ua[i]; /* and ub[k] */
	if (lca->type == HWLOC_OBJ_PCI_DEVICE)
		return RB_REL_PIX;
	if (lca->type != HWLOC_OBJ_BRIDGE)
		return across_bridges(topo, sysroot, a, b);
	if (lca->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST)
		return RB_REL_PHB;
	/* A switch is its upstream port over one downstream port per device:
	 * one bridge each side.  More is a switch under a switch. */
	return bridges_below(ua, i) <= 1 && bridges_below(ub, k) <= 1 ? RB_REL_PIX : RB_REL_PXB;
}

/* "NVIDIA", "AMD", or NULL for a function that is no GPU. */
static const char *gpu_vendor(const struct hwloc_pcidev_attr_s *p)
{
	/* 0x0300 VGA, 0x0302 3D controller (NVIDIA datacenter parts), 0x0380
	 * other display controller (AMD Instinct up to MI250); 0x1200
	 * processing accelerator is AMD's MI300 (and others' non-GPUs). */
	bool display = p->class_id == 0x0300 || p->class_id == 0x0302 || p->class_id == 0x0380;

	if (p->vendor_id == RB_VENDOR_NVIDIA && display)
		return "NVIDIA";
	if (p->vendor_id == RB_VENDOR_AMD && (display || p->class_id == 0x1200))
		return "AMD";
	return NULL;
}

static int cmp_gpu(const void *a, const void *b)
{
	return strcmp(((const struct rb_gpu *)a)->pci, ((const struct rb_gpu *)b)->pci);
}

int rb_gpu_list(hwloc_topology_t topo, const char *sysroot, struct rb_gpu *gpus, int max)
{
	hwloc_obj_t obj = NULL;
	struct rb_gpu *g;
	const char *vendor;
	int n = 0;

	while (n < max && (obj = hwloc_get_next_pcidev(topo, obj))) {
		vendor = gpu_vendor(&obj->attr->pcidev);
		if (!vendor)
			continue;
		g = &gpus[n++];
		memset(g, 0, sizeof(*g));
		snprintf(g->pci, sizeof(g->pci), "%04x:%02x:%02x.%x", obj->attr->pcidev.domain,
			 obj->attr->pcidev.bus, obj->attr->pcidev.dev, obj->attr->pcidev.func);
		g->vendor = vendor;
		g->vendor_id = obj->attr->pcidev.vendor_id;
		g->device_id = obj->attr->pcidev.device_id;
		g->class_id = obj->attr->pcidev.class_id;
		g->numa_node = pci_node(topo, sysroot, g->pci);
	}
	qsort(gpus, n, sizeof(*gpus), cmp_gpu);
	return n;
}

/* "mlx5_0 (node 1), mlx5_1 (node 1)": the devices at @rel. */
static void names_at(const struct rb_nic_ref *nics, const struct rb_gpu_row *row, int n,
		     enum rb_pcie_rel rel, char *buf, size_t len)
{
	size_t at = 0;
	int i, w;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		if (row->rel[i] != rel)
			continue;
		w = snprintf(buf + at, len - at, "%s%s (node %d)", at ? ", " : "", nics[i].name,
			     nics[i].numa_node);
		at += w > 0 ? (size_t)w : 0;
	}
}

void rb_gpu_nics(hwloc_topology_t topo, const char *sysroot, int index, const struct rb_gpu *gpu,
		 const struct rb_nic_ref *nics, int n, struct rb_gpu_row *row)
{
	char names[192];
	int i;

	memset(row, 0, sizeof(*row));
	row->best = RB_REL_UNKNOWN;
	for (i = 0; i < n && i < RB_MAX_NICS; i++) {
		row->rel[i] = nics[i].pci[0]
				      ? rb_pcie_relation(topo, sysroot, gpu->pci, nics[i].pci)
				      : RB_REL_UNKNOWN;
		if (row->rel[i] < row->best)
			row->best = row->rel[i];
	}
	row->warn = row->best == RB_REL_SYS;
	if (!row->warn)
		return;
	names_at(nics, row, n, RB_REL_SYS, names, sizeof(names));
	snprintf(row->warning, sizeof(row->warning),
		 "GPU%d %s (node %d): its nearest RDMA device, %s, is across the socket (SYS): "
		 "GPUDirect RDMA through it crosses the CPU interconnect, at a cost in "
		 "bandwidth and latency; use a NIC on the GPU's node, or a GPU near the NIC",
		 index, gpu->pci, gpu->numa_node, names);
}
