// SPDX-License-Identifier: MIT
/*
 * What sysfs says of RDMA devices: the devices, their ports, GIDs, PCI
 * function, netdev and driver, under a sysfs root given as a parameter
 * (the unit tests' fixtures, or "/sys"); and the PCIe link's figures.
 * Pure reading: where a device sits and where the run goes is topo.c's.
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

#include "topo/topo.h"

#include "topo/topo_int.h"

/* ---- sysfs reading ---------------------------------------------------- */

/* Copy, truncating: facts longer than their field are cut, not refused. */
static void set_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int path_join(char *buf, size_t len, const char *a, const char *b)
{
	if (snprintf(buf, len, "%s/%s", a, b) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * One attribute, trailing whitespace stripped.  Quiet: most attributes are
 * optional, and a missing one is simply an unknown fact.
 */
int rb_topo_read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret;

	ret = path_join(path, sizeof(path), dir, name);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

/* The value of KEY= in @dir/uevent. */
static int uevent_get(const char *dir, const char *key, char *val, size_t len)
{
	char buf[4096], *line, *save = NULL;
	size_t klen = strlen(key);

	if (rb_topo_read_attr(dir, "uevent", buf, sizeof(buf)))
		return -ENOENT;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			set_str(val, len, line + klen + 1);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Sysfs places a device's directory inside its parent's, so walking up the
 * resolved path of a class entry visits the device's ancestors: the PCI
 * function above an HCA (.../0000:81:00.0/infiniband/mlx5_0) or above a
 * virtio NIC (.../0000:81:00.0/virtio4/net/eth0).  This is what following
 * "device" and then ".." does, without needing "device" links in fixtures.
 * Finds the nearest ancestor (or @path itself) whose uevent has @key.
 */
static int find_ancestor(const char *path, const char *key, char *dir, size_t dlen, char *val,
			 size_t vlen)
{
	char buf[PATH_MAX], *slash;

	if (!realpath(path, buf))
		return -errno;
	for (;;) {
		if (!uevent_get(buf, key, val, vlen)) {
			set_str(dir, dlen, buf);
			return 0;
		}
		slash = strrchr(buf, '/');
		if (!slash || slash == buf || !strcmp(slash + 1, "devices"))
			return -ENOENT;
		*slash = '\0';
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Sorted entry names of @dir (no dot entries).  -errno on failure. */
static int list_dir(const char *dir, char ***names, int *n)
{
	struct dirent *de;
	char **v = NULL, **nv;
	int cnt = 0, ret = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv || !(nv[cnt] = strdup(de->d_name))) {
			v = nv ? nv : v;
			ret = -ENOMEM;
			break;
		}
		v = nv;
		cnt++;
	}
	closedir(d);
	if (ret) {
		rb_dev_list_free(v, cnt);
		return ret;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;
}

/* Numeric entry names of @dir (ports, GID indexes), ascending. */
static int list_nums(const char *dir, int **nums, int *n)
{
	char **names;
	int cnt, i, k = 0, ret;
	int *v;

	ret = list_dir(dir, &names, &cnt);
	if (ret)
		return ret;
	v = calloc(cnt ? cnt : 1, sizeof(*v));
	for (i = 0; v && i < cnt; i++)
		if (isdigit((unsigned char)names[i][0]))
			v[k++] = atoi(names[i]);
	rb_dev_list_free(names, cnt);
	if (!v)
		return -ENOMEM;
	qsort(v, k, sizeof(*v), cmp_int);
	*nums = v;
	*n = k;
	return 0;
}

void rb_dev_list_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int rb_dev_list(const char *sysroot, char ***names, int *n)
{
	char path[PATH_MAX];
	int ret;

	*names = NULL;
	*n = 0;
	ret = path_join(path, sizeof(path), sysroot, "class/infiniband");
	if (ret)
		return ret;
	ret = list_dir(path, names, n);
	/* No class directory is what a machine without RDMA looks like. */
	if (ret == -ENOENT)
		return 0;
	if (ret)
		rb_err("%s: %s", path, strerror(-ret));
	return ret;
}

/* "4: ACTIVE" -> "ACTIVE" */
static void copy_after_colon(char *dst, size_t len, const char *src)
{
	const char *p = strchr(src, ':');

	p = p ? p + 1 : src;
	while (*p == ' ')
		p++;
	set_str(dst, len, p);
}

/*
 * GID @idx of a port, or -ENOENT when the entry is empty (the kernel lists
 * every slot of the table, 1024 for rxe, most of them zero).
 */
static int read_gid(const char *portdir, const char *link_layer, int idx, struct rb_gid *g)
{
	char name[64], buf[64];
	struct in6_addr a;
	static const struct in6_addr zero;

	snprintf(name, sizeof(name), "gids/%d", idx);
	if (rb_topo_read_attr(portdir, name, buf, sizeof(buf)) ||
	    inet_pton(AF_INET6, buf, &a) != 1 || !memcmp(&a, &zero, sizeof(a)))
		return -ENOENT;
	memset(g, 0, sizeof(*g));
	g->index = idx;
	inet_ntop(AF_INET6, &a, g->addr, sizeof(g->addr));
	snprintf(name, sizeof(name), "gid_attrs/types/%d", idx);
	if (rb_topo_read_attr(portdir, name, buf, sizeof(buf)))
		buf[0] = '\0';
	/* The kernel says "IB/RoCE v1" for both; the link layer tells. */
	if (!strcmp(buf, "RoCE v2"))
		snprintf(g->type, sizeof(g->type), "RoCE v2");
	else if (!strcmp(link_layer, "Ethernet"))
		snprintf(g->type, sizeof(g->type), "RoCE v1");
	else
		snprintf(g->type, sizeof(g->type), "IB");
	snprintf(name, sizeof(name), "gid_attrs/ndevs/%d", idx);
	if (rb_topo_read_attr(portdir, name, g->netdev, sizeof(g->netdev)))
		g->netdev[0] = '\0';
	return 0;
}

static int read_gids(const char *portdir, struct rb_port_info *p)
{
	char dir[PATH_MAX];
	int *idx, n, i, ret;

	if (path_join(dir, sizeof(dir), portdir, "gids") || list_nums(dir, &idx, &n))
		return 0; /* no GID table: nothing to list */
	p->gids = calloc(n ? n : 1, sizeof(*p->gids));
	ret = p->gids ? 0 : -ENOMEM;
	for (i = 0; !ret && i < n; i++)
		if (!read_gid(portdir, p->link_layer, idx[i], &p->gids[p->n_gids]))
			p->n_gids++;
	free(idx);
	return ret;
}

static int read_port(const char *ibpath, int num, struct rb_port_info *p)
{
	char dir[PATH_MAX], buf[128];

	p->num = num;
	if (snprintf(dir, sizeof(dir), "%s/ports/%d", ibpath, num) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	if (!rb_topo_read_attr(dir, "state", buf, sizeof(buf)))
		copy_after_colon(p->state, sizeof(p->state), buf);
	if (!rb_topo_read_attr(dir, "phys_state", buf, sizeof(buf)))
		copy_after_colon(p->phys_state, sizeof(p->phys_state), buf);
	if (rb_topo_read_attr(dir, "link_layer", p->link_layer, sizeof(p->link_layer)))
		p->link_layer[0] = '\0';
	if (!rb_topo_read_attr(dir, "rate", p->rate, sizeof(p->rate)))
		p->rate_gbps = strtod(p->rate, NULL);
	return read_gids(dir, p);
}

/* A port's netdev: its first GID's, else the device's. */
static void port_netdev(const struct rb_dev_info *d, struct rb_port_info *p)
{
	const char *nd = d->netdev;

	if (p->n_gids && p->gids[0].netdev[0])
		nd = p->gids[0].netdev;
	set_str(p->netdev, sizeof(p->netdev), nd);
}

static int read_ports(const char *ibpath, struct rb_dev_info *d)
{
	char dir[PATH_MAX];
	int *nums, n, i, ret;

	ret = path_join(dir, sizeof(dir), ibpath, "ports");
	if (!ret)
		ret = list_nums(dir, &nums, &n);
	if (ret) {
		rb_err("%s: %s: %s", d->name, dir, strerror(-ret));
		return ret;
	}
	d->ports = calloc(n ? n : 1, sizeof(*d->ports));
	ret = d->ports ? 0 : -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		ret = read_port(ibpath, nums[i], &d->ports[i]);
		d->n_ports = i + 1;
		port_netdev(d, &d->ports[i]);
	}
	free(nums);
	if (ret)
		rb_err("%s: reading ports: %s", d->name, strerror(-ret));
	return ret;
}

/* Facts of the PCI function in @pcidir: locality and PCIe link. */
static void read_pci(const char *pcidir, struct rb_dev_info *d)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char buf[4096];

	if (!rb_topo_read_attr(pcidir, "numa_node", buf, sizeof(buf)))
		d->numa_node = atoi(buf);
	/* Through a bitmap, for the same "0-3 8" form as everywhere else. */
	if (set && !rb_topo_read_attr(pcidir, "local_cpulist", buf, sizeof(buf)) &&
	    !hwloc_bitmap_list_sscanf(set, buf))
		rb_cpus_format(set, d->local_cpus, sizeof(d->local_cpus));
	hwloc_bitmap_free(set);
	if (!rb_topo_read_attr(pcidir, "current_link_speed", buf, sizeof(buf)))
		d->link.cur_gts = rb_pcie_gts(buf);
	if (!rb_topo_read_attr(pcidir, "max_link_speed", buf, sizeof(buf)))
		d->link.max_gts = rb_pcie_gts(buf);
	if (!rb_topo_read_attr(pcidir, "current_link_width", buf, sizeof(buf)))
		d->link.cur_width = atoi(buf);
	if (!rb_topo_read_attr(pcidir, "max_link_width", buf, sizeof(buf)))
		d->link.max_width = atoi(buf);
}

/* The first netdev of a PCI function (mlx5: pcidir/net/ens1f0np0). */
static void pci_netdev(const char *pcidir, char *buf, size_t len)
{
	char dir[PATH_MAX], **names;
	int n;

	if (path_join(dir, sizeof(dir), pcidir, "net") || list_dir(dir, &names, &n))
		return;
	if (n)
		set_str(buf, len, names[0]);
	rb_dev_list_free(names, n);
}

/*
 * The PCI function of the device, else (rxe, siw: a virtual device) that
 * of its parent netdev.  Sets d->pci and @pcidir.
 */
static int locate_pci(const char *sysroot, const char *ibpath, struct rb_dev_info *d, char *pcidir,
		      size_t len)
{
	char netpath[PATH_MAX];
	int ret;

	if (!find_ancestor(ibpath, "PCI_SLOT_NAME", pcidir, len, d->pci, sizeof(d->pci)))
		return 0;
	if (!d->netdev[0])
		return -ENOENT;
	snprintf(netpath, sizeof(netpath), "%s/class/net/%s", sysroot, d->netdev);
	ret = find_ancestor(netpath, "PCI_SLOT_NAME", pcidir, len, d->pci, sizeof(d->pci));
	if (ret && ret != -ENOENT)
		rb_warn("%s: parent netdev %s: %s: %s", d->name, d->netdev, netpath,
			strerror(-ret));
	return ret;
}

/*
 * The kernel driver: DRIVER= of the nearest ancestor that has one.  A
 * software device has no driver-bound ancestor; rxe and siw are told apart
 * by node type (rxe is a CA, siw an iWARP RNIC).
 */
static void find_driver(const char *ibpath, struct rb_dev_info *d)
{
	char dir[PATH_MAX], buf[64];

	if (!find_ancestor(ibpath, "DRIVER", dir, sizeof(dir), d->driver, sizeof(d->driver)))
		return;
	if (!d->netdev[0] || rb_topo_read_attr(ibpath, "node_type", buf, sizeof(buf)))
		return;
	if (!strncmp(buf, "1:", 2))
		set_str(d->driver, sizeof(d->driver), "rdma_rxe");
	else if (!strncmp(buf, "4:", 2))
		set_str(d->driver, sizeof(d->driver), "siw");
}

/* The PCI vendor of the device's parent, device/vendor ("0x14e4"); 0 when none. */
static uint32_t read_vendor(const char *ibpath)
{
	char dir[PATH_MAX], buf[16];

	if ((size_t)snprintf(dir, sizeof(dir), "%s/device", ibpath) >= sizeof(dir) ||
	    rb_topo_read_attr(dir, "vendor", buf, sizeof(buf)))
		return 0;
	return (uint32_t)strtoul(buf, NULL, 16);
}

/* "4: RNIC" -> 4; nothing read: 0. */
static void read_node_type(const char *ibpath, struct rb_dev_info *d)
{
	char buf[64];

	if (!rb_topo_read_attr(ibpath, "node_type", buf, sizeof(buf)))
		d->node_type = atoi(buf);
}

int rb_dev_locate(const char *sysroot, const char *ibdev, struct rb_dev_info *d)
{
	char ibpath[PATH_MAX], pcidir[PATH_MAX];
	int ret;

	memset(d, 0, sizeof(*d));
	d->numa_node = -1;
	set_str(d->name, sizeof(d->name), ibdev);
	/* A name, not a path: "-d ../x" must not wander around sysfs. */
	if (!ibdev[0] || strchr(ibdev, '/') || !strcmp(ibdev, "..")) {
		rb_err("%s: not an RDMA device name", ibdev);
		return -EINVAL;
	}
	snprintf(ibpath, sizeof(ibpath), "%s/class/infiniband/%s", sysroot, ibdev);
	if (access(ibpath, F_OK)) {
		ret = -errno;
		rb_err("%s: no such RDMA device (%s: %s)", ibdev, ibpath, strerror(errno));
		return ret;
	}
	rb_topo_read_attr(ibpath, "node_guid", d->node_guid, sizeof(d->node_guid));
	rb_topo_read_attr(ibpath, "fw_ver", d->fw_ver, sizeof(d->fw_ver));
	read_node_type(ibpath, d);
	/* Only software devices (rxe, siw) have "parent": the netdev name. */
	rb_topo_read_attr(ibpath, "parent", d->netdev, sizeof(d->netdev));
	find_driver(ibpath, d);
	d->prov = rb_prov_identify(d->driver, d->name, read_vendor(ibpath));
	if (!locate_pci(sysroot, ibpath, d, pcidir, sizeof(pcidir))) {
		read_pci(pcidir, d);
		if (!d->netdev[0])
			pci_netdev(pcidir, d->netdev, sizeof(d->netdev));
	}
	return 0;
}

int rb_dev_read(const char *sysroot, const char *ibdev, struct rb_dev_info *d)
{
	char ibpath[PATH_MAX];
	int ret;

	ret = rb_dev_locate(sysroot, ibdev, d);
	if (ret)
		return ret;
	snprintf(ibpath, sizeof(ibpath), "%s/class/infiniband/%s", sysroot, ibdev);
	ret = read_ports(ibpath, d);
	if (ret)
		rb_dev_info_free(d);
	return ret;
}

void rb_dev_info_free(struct rb_dev_info *d)
{
	int i;

	for (i = 0; i < d->n_ports; i++)
		free(d->ports[i].gids);
	free(d->ports);
	d->ports = NULL;
	d->n_ports = 0;
}

/* ---- PCIe ------------------------------------------------------------- */

double rb_pcie_gts(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end == s || v < 0 ? 0 : v;
}

/*
 * Line-code efficiency: Gen1/2 (2.5, 5 GT/s) use 8b/10b, Gen3-5 (8, 16,
 * 32 GT/s) 128b/130b.  Gen6 (64 GT/s, PAM4) has no line code but sends
 * 256-byte flits of which 236 carry TLPs (the rest: DLLP, CRC, FEC); we
 * count that as its encoding overhead, as does everything above Gen5.
 */
double rb_pcie_ceiling_gbps(double gts, int width)
{
	double eff;

	if (gts <= 0 || width <= 0)
		return 0;
	if (gts <= 5.0)
		eff = 8.0 / 10.0;
	else if (gts <= 32.0)
		eff = 128.0 / 130.0;
	else
		eff = 236.0 / 256.0;
	return gts * width * eff;
}
