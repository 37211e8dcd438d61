// SPDX-License-Identifier: MIT
/*
 * rdmabench doctor's checks of one RDMA device: its ports, its RoCE
 * netdev, its PCIe link and neighbours, its NUMA node and interrupts.
 * topo_sysfs.c reads the device (rb_dev_read()); this file reads the rest
 * under the run's root and hands the values to doctor_verdict.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doctor/doctor_int.h"
#include "rdma/transport.h"

#define WHY_PORT "a port that is not ACTIVE and LinkUp carries no traffic: runs cannot connect"
#define WHY_GID	 "a RoCE v2 GID (UDP/IP) is what routes across subnets and what rdmabench picks"
#define WHY_MTU                                                                               \
	"rdma_cm (-R) takes its path MTU from the netdev's, a plain run the port's: the two " \
	"would measure different MTUs"
#define WHY_RPF \
	"strict reverse-path filtering drops RoCE v2 (UDP) packets arriving off the route back"
#define WHY_PCIE \
	"a link trained below its slot's speed or width caps bandwidth below the port's rate"
#define WHY_SHARE "a GPU or NVMe drive behind the same root port shares the NIC's PCIe uplink"
#define WHY_NUMA  "a buffer or thread on a far node adds an inter-socket hop to every DMA"
#define WHY_ECN                                                                            \
	"without ECN (DCQCN), a congested RoCE fabric drops or pauses instead of slowing " \
	"senders down"
#define WHY_IRQ "completion interrupts served on a far node's CPUs add latency (--poll event)"

static void port_fix(struct rb_dr_check *c, const struct rb_dev_info *d,
		     const struct rb_port_info *p)
{
	if (c->v == RB_DR_OK || c->v == RB_DR_NA)
		return;
	if (!strcmp(p->link_layer, "Ethernet") && p->netdev[0])
		snprintf(c->fix, sizeof(c->fix), "ip link set dev %s up", p->netdev);
	else if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "systemctl start opensm   # no subnet manager yet");
	else
		snprintf(c->fix, sizeof(c->fix),
			 "ibstat %s %d   # then the cable and the switch port", d->name, p->num);
}

static int port_check(struct rb_dr_run *x, const struct rb_dev_info *d,
		      const struct rb_port_info *p, const char *subj)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "port", subj);

	if (!c)
		return -ENOMEM;
	c->v = rb_dr_v_port(p->state, p->phys_state);
	snprintf(c->value, sizeof(c->value), "%s, %s, %s, %s", p->state[0] ? p->state : "?",
		 p->phys_state[0] ? p->phys_state : "?", p->rate[0] ? p->rate : "rate ?",
		 p->link_layer[0] ? p->link_layer : "?");
	snprintf(c->source, sizeof(c->source), "/sys/class/infiniband/%s/ports/%d/state", d->name,
		 p->num);
	c->why = WHY_PORT;
	port_fix(c, d, p);
	return 0;
}

static int gid_check(struct rb_dr_run *x, const struct rb_dev_info *d, const struct rb_port_info *p,
		     const char *subj)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "roce_gid", subj);
	int i, v2 = 0, v1 = 0, first = -1;

	if (!c)
		return -ENOMEM;
	for (i = 0; i < p->n_gids; i++) {
		bool is_v2 = !strcmp(p->gids[i].type, "RoCE v2");

		v2 += is_v2;
		v1 += !strcmp(p->gids[i].type, "RoCE v1");
		/* a routable one before a link-local one (fe80::) */
		if (is_v2 && (first < 0 || (!strncmp(p->gids[first].addr, "fe80:", 5) &&
					    strncmp(p->gids[i].addr, "fe80:", 5))))
			first = i;
	}
	c->v = rb_dr_v_roce_gid(v2, v1);
	if (first >= 0)
		snprintf(c->value, sizeof(c->value), "%d RoCE v2 GID(s), as %d %s", v2,
			 p->gids[first].index, p->gids[first].addr);
	else
		snprintf(c->value, sizeof(c->value), "no RoCE v2 GID (%d RoCE v1)", v1);
	snprintf(c->source, sizeof(c->source), "/sys/class/infiniband/%s/ports/%d/gid_attrs/types",
		 d->name, p->num);
	c->why = WHY_GID;
	if (c->v != RB_DR_OK)
		snprintf(c->fix, sizeof(c->fix),
			 "ip addr add ADDR/PREFIX dev %s   # each IP address gives a RoCE v2 GID",
			 p->netdev[0] ? p->netdev : "NETDEV");
	return 0;
}

static void mtu_fix(struct rb_dr_check *c, const char *nd, long mtu, int active)
{
	int carry = rb_dr_roce_mtu((int)mtu);

	if (c->v != RB_DR_WARN)
		return;
	if (active > carry) /* the netdev's MTU is too small for the port's */
		snprintf(c->fix, sizeof(c->fix), "ip link set dev %s mtu %d", nd, active + 96);
	else /* the port did not follow the netdev: setting it again tells it */
		snprintf(c->fix, sizeof(c->fix),
			 "ip link set dev %s mtu %ld   # again: the port's MTU follows a change",
			 nd, mtu);
}

static int mtu_check(struct rb_dr_run *x, const struct rb_dev_info *d, const struct rb_port_info *p,
		     const char *subj)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "mtu", subj);
	int active = 0, max = 0;
	long mtu = -1;

	if (!c)
		return -ENOMEM;
	c->why = WHY_MTU;
	if (!p->netdev[0] ||
	    rb_dr_read_int(x, c->source, &mtu, "/sys/class/net/%s/mtu", p->netdev)) {
		snprintf(c->value, sizeof(c->value), "no netdev MTU for the port");
		return 0;
	}
	if (x->e->port_mtu && x->e->port_mtu(d->name, p->num, &active, &max))
		active = max = 0;
	c->v = rb_dr_v_mtu((int)mtu, active, max);
	if (active > 0)
		snprintf(c->value, sizeof(c->value),
			 "netdev %s mtu %ld carries RDMA MTU %d; the port's active MTU is %d",
			 p->netdev, mtu, rb_dr_roce_mtu((int)mtu), active);
	else
		snprintf(c->value, sizeof(c->value), "netdev %s mtu %ld; active MTU unknown",
			 p->netdev, mtu);
	mtu_fix(c, p->netdev, mtu, active);
	return 0;
}

static int rpf_check(struct rb_dr_run *x, const struct rb_port_info *p, const char *subj)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "rp_filter", subj);
	long all = -1, dev = -1;

	if (!c)
		return -ENOMEM;
	if (rb_dr_read_int(x, c->source, &all, "/proc/sys/net/ipv4/conf/all/rp_filter"))
		all = -1;
	if (!p->netdev[0] ||
	    rb_dr_read_int(x, c->source, &dev, "/proc/sys/net/ipv4/conf/%s/rp_filter", p->netdev))
		dev = -1;
	c->v = rb_dr_v_rp_filter((int)all, (int)dev);
	snprintf(c->value, sizeof(c->value), "all %ld, %s %ld", all,
		 p->netdev[0] ? p->netdev : "netdev", dev);
	c->why = WHY_RPF;
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "sysctl -w net.ipv4.conf.all.rp_filter=2 net.ipv4.conf.%s.rp_filter=2",
			 p->netdev);
	return 0;
}

/* ECN of RoCE, where the driver shows it (mlx5: ecn/roce_np, ecn/roce_rp). */
static int ecn_count(struct rb_dr_run *x, const char *netdev, const char *role)
{
	long on;
	int prio, n = 0, seen = 0;

	for (prio = 0; prio < 8; prio++) {
		if (rb_dr_read_int(x, NULL, &on, "/sys/class/net/%s/ecn/%s/enable/%d", netdev, role,
				   prio))
			continue;
		seen++;
		n += on != 0;
	}
	return seen ? n : -1;
}

static int ecn_check(struct rb_dr_run *x, const struct rb_port_info *p, const char *subj)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "ecn", subj);
	int np, rp;

	if (!c)
		return -ENOMEM;
	c->why = WHY_ECN;
	np = p->netdev[0] ? ecn_count(x, p->netdev, "roce_np") : -1;
	rp = p->netdev[0] ? ecn_count(x, p->netdev, "roce_rp") : -1;
	c->v = rb_dr_v_ecn(np, rp);
	if (c->v == RB_DR_NA) {
		snprintf(c->value, sizeof(c->value),
			 "no ECN controls in sysfs (PFC and ECN: the switch's and dcb's)");
		return 0;
	}
	snprintf(c->source, sizeof(c->source), "/sys/class/net/%s/ecn/roce_{np,rp}/enable",
		 p->netdev);
	snprintf(c->value, sizeof(c->value),
		 "%d priorit%s marked as notification point, %d as reaction point", np,
		 np == 1 ? "y" : "ies", rp);
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/3; "
			 "echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/3   # RoCE's priority",
			 p->netdev, p->netdev);
	return 0;
}

static int port_checks(struct rb_dr_run *x, const struct rb_dev_info *d,
		       const struct rb_port_info *p)
{
	char subj[48];
	int ret;

	snprintf(subj, sizeof(subj), "%.40s/%d", d->name, p->num);
	ret = port_check(x, d, p, subj);
	/* RoCE's checks (GID, MTU, rp_filter, ECN): not iWARP's, which runs over TCP. */
	if (ret || strcmp(p->link_layer, "Ethernet") ||
	    !rb_transport_of_node(d->node_type)->roce_gid)
		return ret;
	ret = gid_check(x, d, p, subj);
	if (!ret)
		ret = mtu_check(x, d, p, subj);
	if (!ret)
		ret = rpf_check(x, p, subj);
	if (!ret)
		ret = ecn_check(x, p, subj);
	return ret;
}

static int device_check(struct rb_dr_run *x, const struct rb_dev_info *d)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "device", d->name);

	if (!c)
		return -ENOMEM;
	c->v = RB_DR_OK;
	snprintf(c->value, sizeof(c->value),
		 "driver %.32s, provider %s (%s), transport %s, firmware %.32s, %d port(s), PCI %s",
		 d->driver[0] ? d->driver : "?", d->prov ? d->prov->name : "generic",
		 rb_prov_transport_str(d->prov ? d->prov->xport : RB_XPORT_IB),
		 rb_dev_transport(d)[0] ? rb_dev_transport(d) : "?", d->fw_ver[0] ? d->fw_ver : "-",
		 d->n_ports, d->pci[0] ? d->pci : "none");
	snprintf(c->source, sizeof(c->source), "/sys/class/infiniband/%s/fw_ver", d->name);
	c->why = "which driver and firmware the results were measured with";
	return 0;
}

static int pcie_check(struct rb_dr_run *x, const struct rb_dev_info *d)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "pcie", d->name);
	const struct rb_pcie_link *l = &d->link;

	if (!c)
		return -ENOMEM;
	c->why = WHY_PCIE;
	c->v = rb_dr_v_pcie(l->cur_gts, l->cur_width, l->max_gts, l->max_width);
	if (!d->pci[0]) {
		snprintf(c->value, sizeof(c->value), "no PCI function (a virtual device)");
		return 0;
	}
	snprintf(c->source, sizeof(c->source), "/sys/bus/pci/devices/%s/current_link_speed",
		 d->pci);
	if (c->v == RB_DR_NA)
		snprintf(c->value, sizeof(c->value), "%s: no link speed or width", d->pci);
	else
		snprintf(c->value, sizeof(c->value), "%s at %g GT/s x%d of %g GT/s x%d", d->pci,
			 l->cur_gts, l->cur_width, l->max_gts, l->max_width);
	if (c->v == RB_DR_WARN || c->v == RB_DR_FAIL)
		snprintf(c->fix, sizeof(c->fix),
			 "lspci -s %s -vv | grep -E 'LnkCap:|LnkSta:'   # reseat, or a full slot",
			 d->pci);
	return 0;
}

/* PCI functions below @dir, but @self's (same bus and device) and bridges'. */
struct share {
	const char *self; /* "0000:81:00" */
	int gpu, nvme;
};

static bool is_bdf(const char *s)
{
	unsigned int a, b, c, f;
	char end;

	return sscanf(s, "%x:%x:%x.%x%c", &a, &b, &c, &f, &end) == 4;
}

static void walk_pci(const char *dir, struct share *s, int depth)
{
	struct dirent *de;
	char path[PATH_MAX], cls[32];
	DIR *dp = depth < 8 ? opendir(dir) : NULL;
	unsigned long v;

	while (dp && (de = readdir(dp))) {
		if (de->d_type != DT_DIR || !is_bdf(de->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		walk_pci(path, s, depth + 1);
		if (!strncmp(de->d_name, s->self, strlen(s->self)) ||
		    rb_dr_file(path, "class", cls, sizeof(cls)))
			continue;
		v = strtoul(cls, NULL, 16);
		s->gpu += (v >> 16) == 0x03;
		s->nvme += (v >> 8) == 0x0108;
	}
	if (dp)
		closedir(dp);
}

/*
 * The root port above PCI function @real (a resolved sysfs path) into
 * @buf: cut components until the next one up is a root complex
 * ("pci0000:80").  -ENOENT when @real sits on the root complex itself.
 */
static int root_port(const char *real, char *buf, size_t len)
{
	char *slash, *prev = NULL;

	if (snprintf(buf, len, "%s", real) >= (int)len)
		return -ENAMETOOLONG;
	while ((slash = strrchr(buf, '/')) && slash != buf) {
		if (!strncmp(slash + 1, "pci", 3)) {
			if (!prev)
				return -ENOENT;
			*prev = '/';
			return strcmp(buf, real) ? 0 : -ENOENT;
		}
		*slash = '\0';
		prev = slash;
	}
	return -ENOENT;
}

static int share_scan(struct rb_dr_run *x, const struct rb_dev_info *d, struct share *s, char *port,
		      size_t len)
{
	char path[PATH_MAX], rel[64], *real, self[16];
	int ret;

	snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/%s", d->pci);
	ret = rb_dr_path(x, path, sizeof(path), rel);
	if (ret)
		return ret;
	real = realpath(path, NULL);
	if (!real)
		return -errno;
	ret = root_port(real, port, len);
	free(real);
	if (ret)
		return ret;
	snprintf(self, sizeof(self), "%.*s", (int)(strrchr(d->pci, '.') - d->pci), d->pci);
	s->self = self;
	walk_pci(port, s, 0);
	s->self = NULL;
	return 0;
}

static int share_check(struct rb_dr_run *x, const struct rb_dev_info *d)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "pcie_share", d->name);
	struct share s = { 0 };
	char port[PATH_MAX];

	if (!c)
		return -ENOMEM;
	c->why = WHY_SHARE;
	if (!d->pci[0] || !strchr(d->pci, '.') || share_scan(x, d, &s, port, sizeof(port))) {
		snprintf(c->value, sizeof(c->value), "no root port above %s",
			 d->pci[0] ? d->pci : "the device");
		return 0;
	}
	c->v = rb_dr_v_pcie_share(s.gpu, s.nvme);
	snprintf(c->value, sizeof(c->value), "%d GPU(s), %d NVMe drive(s) behind root port %s",
		 s.gpu, s.nvme, strrchr(port, '/') + 1);
	snprintf(c->source, sizeof(c->source), "/sys/bus/pci/devices/%s/../*/class", d->pci);
	if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix),
			 "lspci -t   # move the NIC or the other device to another root port");
	return 0;
}

/* MemFree of node @node's meminfo, in KiB; 0 when unknown. */
static uint64_t node_free_kib(const struct rb_dr_run *x, int node)
{
	char buf[4096], *p;

	if (rb_dr_read(x, NULL, buf, sizeof(buf), "/sys/devices/system/node/node%d/meminfo", node))
		return 0;
	p = strstr(buf, "MemFree:");
	return p ? strtoull(p + 8, NULL, 10) : 0;
}

static void numa_value(struct rb_dr_check *c, int node, int cpus, hwloc_bitmap_t set,
		       uint64_t free_kib)
{
	char list[96];

	if (node < 0) {
		snprintf(c->value, sizeof(c->value), "numa_node -1: the firmware names no node");
		return;
	}
	rb_cpus_format(set, list, sizeof(list));
	snprintf(c->value, sizeof(c->value), "node %d, %d CPU(s) (%s), %.1f GiB free", node, cpus,
		 cpus > 0 ? list : "none", free_kib / 1048576.0);
}

static int numa_check(struct rb_dr_run *x, const struct rb_dev_info *d, hwloc_bitmap_t set)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "numa", d->name);
	int nodes = rb_dr_count(x, "/sys/devices/system/node", "node"), cpus = 0;
	char rel[96], src[192];
	uint64_t free_kib = 0;

	if (!c)
		return -ENOMEM;
	c->why = WHY_NUMA;
	snprintf(c->source, sizeof(c->source), "/sys/bus/pci/devices/%s/numa_node", d->pci);
	if (d->numa_node >= 0) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/node/node%d/cpulist", d->numa_node);
		cpus = rb_dr_cpus(x, src, set, rel);
		free_kib = node_free_kib(x, d->numa_node);
	}
	c->v = rb_dr_v_numa(d->numa_node, nodes, cpus, free_kib);
	numa_value(c, d->numa_node, cpus, set, free_kib);
	if (nodes == 1)
		snprintf(c->value, sizeof(c->value), "one NUMA node: every CPU is local");
	if (c->v == RB_DR_WARN && (d->numa_node < 0 || cpus <= 0))
		snprintf(c->fix, sizeof(c->fix),
			 "numactl --hardware   # then --cpu and --numa by hand");
	else if (c->v == RB_DR_WARN)
		snprintf(c->fix, sizeof(c->fix), "sync; echo 3 > /proc/sys/vm/drop_caches");
	return 0;
}

/* Whether a process named irqbalance runs (ROOT/proc/N/comm). */
static bool irqbalance_runs(const struct rb_dr_run *x)
{
	char dir[PATH_MAX], comm[32];
	struct dirent *de;
	bool found = false;
	DIR *dp;

	if (rb_dr_path(x, dir, sizeof(dir), "/proc"))
		return false;
	dp = opendir(dir);
	while (dp && !found && (de = readdir(dp)))
		found = isdigit((unsigned char)de->d_name[0]) &&
			!rb_dr_read(x, NULL, comm, sizeof(comm), "/proc/%s/comm", de->d_name) &&
			!strcmp(comm, "irqbalance");
	if (dp)
		closedir(dp);
	return found;
}

struct irqs {
	int n, on_node;
	char off[96]; /* the IRQs off the node, "24 25" */
};

/* Each of the device's MSI IRQs (topo's reading): is its affinity within @node_set? */
static int irq_scan(const struct rb_dr_run *x, const char *pci, hwloc_const_bitmap_t node_set,
		    struct irqs *q)
{
	hwloc_bitmap_t aff = hwloc_bitmap_alloc();
	struct rb_irqs *all = malloc(sizeof(*all));
	char proc[PATH_MAX];
	size_t used;
	int i, ret = -ENOMEM;

	if (aff && all && !rb_dr_path(x, proc, sizeof(proc), "/proc"))
		ret = rb_dev_irqs(x->sys, proc, pci, all);
	for (i = 0; !ret && i < all->n; i++) {
		if (!all->irq[i].cpus[0] || rb_cpus_parse(all->irq[i].cpus, aff) ||
		    hwloc_bitmap_iszero(aff))
			continue;
		q->n++;
		if (hwloc_bitmap_isincluded(aff, node_set)) {
			q->on_node++;
			continue;
		}
		used = strlen(q->off);
		snprintf(q->off + used, sizeof(q->off) - used, "%s%d", used ? " " : "",
			 all->irq[i].num);
	}
	free(all);
	hwloc_bitmap_free(aff);
	return ret;
}

static void irq_fix(struct rb_dr_check *c, const struct irqs *q, hwloc_const_bitmap_t set,
		    bool balance)
{
	char list[64];

	rb_cpus_format(set, list, sizeof(list));
	for (char *p = list; *p; p++)
		*p = *p == ' ' ? ',' : *p;
	snprintf(c->fix, sizeof(c->fix),
		 "%sfor i in %s; do echo %s > /proc/irq/$i/smp_affinity_list; done",
		 balance ? "systemctl stop irqbalance; " : "", q->off, list);
}

static int irq_check(struct rb_dr_run *x, const struct rb_dev_info *d, hwloc_const_bitmap_t set)
{
	struct rb_dr_check *c = rb_dr_add(x->r, "irq", d->name);
	struct irqs q = { 0 };
	bool balance;

	if (!c)
		return -ENOMEM;
	c->why = WHY_IRQ;
	if (!d->pci[0] || hwloc_bitmap_iszero(set) || irq_scan(x, d->pci, set, &q)) {
		snprintf(c->value, sizeof(c->value), "no MSI IRQs or no NUMA node to hold them to");
		return 0;
	}
	balance = irqbalance_runs(x);
	snprintf(c->source, sizeof(c->source), "/sys/bus/pci/devices/%s/msi_irqs", d->pci);
	c->v = rb_dr_v_irq(q.n, q.on_node);
	snprintf(c->value, sizeof(c->value), "%d of %d IRQ(s) on node %d's CPUs; irqbalance %s",
		 q.on_node, q.n, d->numa_node, balance ? "runs" : "does not run");
	if (c->v == RB_DR_WARN)
		irq_fix(c, &q, set, balance);
	return 0;
}

int rb_dr_device(struct rb_dr_run *x, const struct rb_dev_info *d)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int i, ret = set ? device_check(x, d) : -ENOMEM;

	for (i = 0; !ret && i < d->n_ports; i++)
		ret = port_checks(x, d, &d->ports[i]);
	if (!ret)
		ret = pcie_check(x, d);
	if (!ret)
		ret = share_check(x, d);
	if (!ret)
		ret = numa_check(x, d, set);
	if (!ret)
		ret = irq_check(x, d, set);
	hwloc_bitmap_free(set);
	return ret;
}
