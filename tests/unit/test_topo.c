// SPDX-License-Identifier: MIT
/*
 * topo.c's decisions on the machines in tests/data/topo (see its README):
 * sysfs reading, device locality, placement choices, warnings, the report.
 * Plus what the live layer can do on any Linux host: buffers bound to a
 * node, and binding to an explicit CPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <numa.h>
#include <numaif.h>

#include "topo/topo.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

/* One fixture machine: its topology and a scratch sysfs root. */
struct fx {
	const char *name;
	char tmp[PATH_MAX];
	char sysroot[PATH_MAX];
	hwloc_topology_t topo;
};

/* snprintf() that fails the test rather than truncate a path. */
__attribute__((format(printf, 3, 4))) static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	pathf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

/* Each "LINK -> TARGET" line of the case's links file, under the root. */
static void make_links(struct fx *f, const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX], at[PATH_MAX], *arrow, *slash;
	FILE *in;

	pathf(path, sizeof(path), "%s/links", dir);
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		arrow = strstr(line, " -> ");
		if (line[0] == '#' || !arrow)
			continue;
		*arrow = '\0';
		pathf(at, sizeof(at), "%s/%s", f->sysroot, line);
		slash = strrchr(at, '/');
		*slash = '\0';
		mkdirs(at);
		*slash = '/';
		assert_int_equal(symlink(arrow + 4, at), 0);
	}
	fclose(in);
}

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char dir[PATH_MAX], path[PATH_MAX], at[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");

	assert_non_null(f);
	f->name = *state;
	pathf(dir, sizeof(dir), "%s/topo/%s", TEST_DATA_DIR, f->name);
	pathf(f->tmp, sizeof(f->tmp), "%s/rb-topo-XXXXXX", tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(f->tmp));
	pathf(f->sysroot, sizeof(f->sysroot), "%s/sys", f->tmp);
	assert_int_equal(mkdir(f->sysroot, 0755), 0);
	/* The fixture's devices tree, read in place. */
	pathf(path, sizeof(path), "%s/sys/devices", dir);
	pathf(at, sizeof(at), "%s/devices", f->sysroot);
	assert_int_equal(symlink(path, at), 0);
	make_links(f, dir);
	pathf(path, sizeof(path), "%s/topology.xml", dir);
	assert_int_equal(rb_topo_load(&f->topo, path), 0);
	*state = f;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	/* FTW_PHYS: remove the links, never what they point to. */
	nftw(f->tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	hwloc_topology_destroy(f->topo);
	free(f);
	return 0;
}

static hwloc_bitmap_t set_of(const char *list)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();

	assert_non_null(s);
	assert_int_equal(hwloc_bitmap_list_sscanf(s, list), 0);
	return s;
}

static void read_dev(struct fx *f, const char *name, struct rb_dev_info *d)
{
	assert_int_equal(rb_dev_read(f->sysroot, name, d), 0);
}

static int dev_node(struct fx *f, const char *name)
{
	struct rb_dev_info d;
	int node;

	read_dev(f, name, &d);
	node = rb_topo_dev_node(f->topo, &d);
	rb_dev_info_free(&d);
	return node;
}

/* ---- pure helpers ----------------------------------------------------- */

static void test_pcie_gts(void **state)
{
	assert_float_equal(rb_pcie_gts("8.0 GT/s PCIe"), 8.0, 1e-9);
	assert_float_equal(rb_pcie_gts("2.5 GT/s"), 2.5, 1e-9);
	assert_float_equal(rb_pcie_gts("64.0 GT/s PCIe"), 64.0, 1e-9);
	assert_float_equal(rb_pcie_gts("Unknown"), 0, 0);
	assert_float_equal(rb_pcie_gts(""), 0, 0);
}

static void test_pcie_ceiling(void **state)
{
	/* 8b/10b */
	assert_float_equal(rb_pcie_ceiling_gbps(2.5, 1), 2.0, 1e-9);
	assert_float_equal(rb_pcie_ceiling_gbps(5.0, 8), 32.0, 1e-9);
	/* 128b/130b */
	assert_float_equal(rb_pcie_ceiling_gbps(8.0, 8), 63.015, 1e-3);
	assert_float_equal(rb_pcie_ceiling_gbps(8.0, 16), 126.031, 1e-3);
	assert_float_equal(rb_pcie_ceiling_gbps(16.0, 16), 252.062, 1e-3);
	assert_float_equal(rb_pcie_ceiling_gbps(32.0, 16), 504.123, 1e-3);
	/* Gen6 flits: 236 of 256 bytes */
	assert_float_equal(rb_pcie_ceiling_gbps(64.0, 16), 944.0, 1e-9);
	assert_float_equal(rb_pcie_ceiling_gbps(8.0, 0), 0, 0);
	assert_float_equal(rb_pcie_ceiling_gbps(0, 16), 0, 0);
}

static void test_cpus_format(void **state)
{
	hwloc_bitmap_t s = set_of("0-3,8");
	char buf[128], small[16];
	int i;

	assert_string_equal(rb_cpus_format(s, buf, sizeof(buf)), "0-3 8");
	hwloc_bitmap_only(s, 1);
	assert_string_equal(rb_cpus_format(s, buf, sizeof(buf)), "1");
	hwloc_bitmap_zero(s);
	for (i = 0; i <= 40; i += 2)
		hwloc_bitmap_set(s, i);
	/* "0 2 4 6 8 10 12 14 ..." does not fit 16: cut at a separator. */
	assert_string_equal(rb_cpus_format(s, small, sizeof(small)), "0 2 4 6 8 ...");
	hwloc_bitmap_free(s);
}

static void test_cpus_parse(void **state)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();
	hwloc_bitmap_t want = set_of("0-3,8");
	static const char *const bad[] = { "",	  "a",	 "3-1",	    "1-", "-1",
					   "1,x", "1.5", "0-99999", " ",  "1-2-3" };
	unsigned int i;

	assert_int_equal(rb_cpus_parse("0-3,8", s), 0);
	assert_true(hwloc_bitmap_isequal(s, want));
	assert_int_equal(rb_cpus_parse("0-3 8", s), 0);
	assert_true(hwloc_bitmap_isequal(s, want));
	assert_int_equal(rb_cpus_parse("7", s), 0);
	assert_int_equal(hwloc_bitmap_first(s), 7);
	assert_int_equal(hwloc_bitmap_weight(s), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rb_cpus_parse(bad[i], s), -EINVAL);
	hwloc_bitmap_free(s);
	hwloc_bitmap_free(want);
}

static void test_wcode_names(void **state)
{
	assert_string_equal(rb_topo_wcode_name(RB_TW_PCIE_WIDTH), "pcie_width");
	assert_string_equal(rb_topo_wcode_name(RB_TW_NO_LOCALITY), "locality_unknown");
}

/* ---- sysfs ------------------------------------------------------------ */

static void test_list(void **state)
{
	struct fx *f = *state;
	char **names;
	int n;

	assert_int_equal(rb_dev_list(f->sysroot, &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "mlx5_0");
	assert_string_equal(names[1], "rxe0");
	rb_dev_list_free(names, n);
	/* No class/infiniband at all: no device, not an error. */
	assert_int_equal(rb_dev_list(f->tmp, &names, &n), 0);
	assert_int_equal(n, 0);
}

static void test_read_hca(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;
	struct rb_port_info *p;

	read_dev(f, "mlx5_0", &d);
	assert_string_equal(d.driver, "mlx5_core");
	assert_int_equal(d.prov->id, RB_PROV_MLX5);
	assert_true(d.prov->offers & RB_OFFER_DC);
	assert_string_equal(d.node_guid, "bace:f603:00a1:b2c4");
	assert_string_equal(d.fw_ver, "22.36.1010");
	assert_string_equal(d.pci, "0000:81:00.0");
	assert_string_equal(d.netdev, "ens1f0np0");
	assert_int_equal(d.numa_node, 1);
	assert_string_equal(d.local_cpus, "4-7");
	assert_float_equal(d.link.cur_gts, 16.0, 1e-9);
	assert_float_equal(d.link.max_gts, 16.0, 1e-9);
	assert_int_equal(d.link.cur_width, 16);
	assert_int_equal(d.link.max_width, 16);
	assert_int_equal(d.n_ports, 1);
	p = &d.ports[0];
	assert_int_equal(p->num, 1);
	assert_string_equal(p->state, "ACTIVE");
	assert_string_equal(p->phys_state, "LinkUp");
	assert_string_equal(p->link_layer, "Ethernet");
	assert_string_equal(p->rate, "100 Gb/sec (2X HDR)");
	assert_float_equal(p->rate_gbps, 100.0, 1e-9);
	assert_string_equal(p->netdev, "ens1f0np0");
	/* Five slots, the last empty. */
	assert_int_equal(p->n_gids, 4);
	assert_int_equal(p->gids[0].index, 0);
	assert_string_equal(p->gids[0].type, "RoCE v1");
	assert_string_equal(p->gids[0].addr, "fe80::bace:f6ff:fea1:b2c4");
	assert_string_equal(p->gids[0].netdev, "ens1f0np0");
	assert_int_equal(p->gids[3].index, 3);
	assert_string_equal(p->gids[3].type, "RoCE v2");
	assert_string_equal(p->gids[3].addr, "::ffff:192.0.2.10");
	rb_dev_info_free(&d);
}

/* rxe: a virtual device, placed through eth0 -> virtio1 -> PCI. */
static void test_read_rxe(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	read_dev(f, "rxe0", &d);
	assert_string_equal(d.driver, "rdma_rxe");
	assert_string_equal(d.netdev, "eth0");
	assert_string_equal(d.pci, "0000:02:00.0");
	assert_int_equal(d.numa_node, 0);
	assert_string_equal(d.local_cpus, "0-3");
	assert_string_equal(d.fw_ver, "");
	assert_float_equal(d.link.cur_gts, 5.0, 1e-9);
	assert_int_equal(d.link.max_width, 1);
	assert_int_equal(d.n_ports, 1);
	assert_int_equal(d.ports[0].n_gids, 2);
	assert_string_equal(d.ports[0].gids[1].addr, "::ffff:192.0.2.1");
	assert_string_equal(d.ports[0].netdev, "eth0");
	rb_dev_info_free(&d);
}

static void test_read_missing(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	assert_int_equal(rb_dev_read(f->sysroot, "mlx5_9", &d), -ENOENT);
	assert_int_equal(rb_dev_read(f->sysroot, "../net/eth0", &d), -EINVAL);
	assert_int_equal(rb_dev_read(f->sysroot, "", &d), -EINVAL);
}

/* The single-node VM: no link files, numa_node -1. */
static void test_read_single(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	read_dev(f, "rxe0", &d);
	assert_string_equal(d.pci, "0000:00:03.0");
	assert_int_equal(d.numa_node, -1);
	assert_string_equal(d.local_cpus, "0-1");
	assert_float_equal(d.link.cur_gts, 0, 0);
	assert_int_equal(d.link.cur_width, 0);
	rb_dev_info_free(&d);
}

static void test_read_no_pci(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	read_dev(f, "rxe0", &d);
	assert_string_equal(d.netdev, "bond0");
	assert_string_equal(d.pci, "");
	assert_int_equal(d.numa_node, -1);
	rb_dev_info_free(&d);
	/* A parent netdev that is gone: logged, but the device reads. */
	read_dev(f, "siw0", &d);
	assert_string_equal(d.driver, "siw");
	assert_string_equal(d.netdev, "eth9");
	assert_string_equal(d.pci, "");
	assert_string_equal(d.ports[0].state, "DOWN");
	assert_int_equal(d.ports[0].n_gids, 0);
	rb_dev_info_free(&d);
}

/* ---- locality --------------------------------------------------------- */

static void test_node_two_socket(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	assert_int_equal(dev_node(f, "mlx5_0"), 1);
	assert_int_equal(dev_node(f, "rxe0"), 0);
	/* hwloc's placement of the PCI function wins over numa_node... */
	read_dev(f, "mlx5_0", &d);
	d.numa_node = 0;
	assert_int_equal(rb_topo_dev_node(f->topo, &d), 1);
	/* ...and without a PCI function there is no locality. */
	d.pci[0] = '\0';
	assert_int_equal(rb_topo_dev_node(f->topo, &d), -1);
	rb_dev_info_free(&d);
}

static void test_node_single(void **state)
{
	/* No PCI object, numa_node -1: the only node. */
	assert_int_equal(dev_node(*state, "rxe0"), 0);
}

static void test_node_unknown(void **state)
{
	assert_int_equal(dev_node(*state, "mlx5_0"), -1);
	assert_int_equal(dev_node(*state, "rxe0"), -1);
	assert_int_equal(dev_node(*state, "siw0"), -1);
}

static void test_node_odd(void **state)
{
	struct fx *f = *state;
	struct rb_dev_info d;

	/* Off the machine object: numa_node decides. */
	assert_int_equal(dev_node(f, "mlx5_0"), 2);
	/* Below package 2, whose only node is 3: hwloc says so even when
	 * numa_node does not. */
	assert_int_equal(dev_node(f, "mlx5_1"), 3);
	read_dev(f, "mlx5_1", &d);
	d.numa_node = -1;
	assert_int_equal(rb_topo_dev_node(f->topo, &d), 3);
	rb_dev_info_free(&d);
}

/* ---- placement -------------------------------------------------------- */

struct pl {
	struct rb_place_in in;
	struct rb_place_plan plan;
	hwloc_bitmap_t current, loaded;
	char cpus[128];
};

/* Inputs as on an idle, unbound machine with NUMA support. */
static void pl_init(struct pl *p, struct fx *f, const char *dev, const char *cpu, const char *numa)
{
	memset(p, 0, sizeof(*p));
	p->current = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(f->topo));
	p->in.topo = f->topo;
	p->in.sysroot = f->sysroot;
	p->in.dev = dev;
	p->in.dev_node = dev_node(f, dev);
	p->in.cpu_opt = cpu;
	p->in.numa_opt = numa;
	p->in.current = p->current;
	p->in.mem_policy_node = -1;
	p->in.membind_ok = true;
}

static void pl_current(struct pl *p, const char *list)
{
	hwloc_bitmap_free(p->current);
	p->current = set_of(list);
	p->in.current = p->current;
}

static void pl_loaded(struct pl *p, const char *list)
{
	hwloc_bitmap_free(p->loaded);
	p->loaded = set_of(list);
	p->in.loaded = p->loaded;
}

static int pl_run(struct pl *p)
{
	int ret = rb_place_decide(&p->in, &p->plan);

	if (!ret)
		rb_cpus_format(p->plan.cpus, p->cpus, sizeof(p->cpus));
	return ret;
}

static void pl_done(struct pl *p)
{
	rb_place_plan_fini(&p->plan);
	hwloc_bitmap_free(p->current);
	hwloc_bitmap_free(p->loaded);
}

static void test_auto_local(void **state)
{
	struct rb_placement out;
	char bind[128];
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_non_null(p.plan.bind);
	assert_string_equal(rb_cpus_format(p.plan.bind, bind, sizeof(bind)), "4");
	assert_string_equal(p.cpus, "4");
	assert_int_equal(p.plan.dev_node, 1);
	assert_int_equal(p.plan.mem_node, 1);
	assert_int_equal(p.plan.local, 1);
	assert_false(p.plan.kept_affinity);
	assert_false(p.plan.unknown);
	assert_string_equal(p.plan.warning, "");
	rb_place_fill(&p.plan, &out);
	assert_int_equal(out.device_numa_node, 1);
	assert_string_equal(out.cpus, "4");
	assert_int_equal(out.mem_node, 1);
	assert_int_equal(out.local, 1);
	pl_done(&p);

	/* rxe0's virtio NIC is on node 0. */
	pl_init(&p, *state, "rxe0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "0");
	assert_int_equal(p.plan.mem_node, 0);
	assert_int_equal(p.plan.local, 1);
	pl_done(&p);
}

static void test_auto_skips_loaded(void **state)
{
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	pl_loaded(&p, "4");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "6");
	rb_place_plan_fini(&p.plan);
	/* A busy SMT sibling makes the whole core busy. */
	pl_loaded(&p, "5");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "6");
	rb_place_plan_fini(&p.plan);
	/* Every core busy: the first. */
	pl_loaded(&p, "4,7");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "4");
	assert_int_equal(p.plan.local, 1);
	pl_done(&p);
}

/* A peer on the same host: keep off its cores, leave the node if needed. */
static void test_auto_avoids_peer(void **state)
{
	hwloc_bitmap_t peer = set_of("4");
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	p.in.peer = peer;
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "6");
	assert_int_equal(p.plan.local, 1);
	assert_false(p.plan.peer_moved);
	rb_place_plan_fini(&p.plan);
	/* Its SMT sibling is its core too. */
	hwloc_bitmap_free(peer);
	peer = set_of("5");
	p.in.peer = peer;
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "6");
	rb_place_plan_fini(&p.plan);
	/* Both cores of node 1 taken: another node, said. */
	hwloc_bitmap_free(peer);
	peer = set_of("4,7");
	p.in.peer = peer;
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "0");
	assert_true(p.plan.peer_moved);
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPU 0 "
					    "is on node 0 (its cores are taken by the peer on "
					    "this host)");
	pl_done(&p);
	hwloc_bitmap_free(peer);
}

/* Thread @k of @n: its CPU, whether local, and the warning. */
static void pl_thread(struct pl *p, uint32_t k, uint32_t n, const char *cpus, int local)
{
	rb_place_plan_fini(&p->plan);
	p->in.thread = k;
	p->in.threads = n;
	assert_int_equal(pl_run(p), 0);
	assert_string_equal(p->cpus, cpus);
	assert_int_equal(p->plan.local, local);
	if (local > 0)
		assert_string_equal(p->plan.warning, "");
}

/*
 * --threads: a CPU each, one per core of the device's node, then of the
 * other node, then the SMT siblings; the load is not looked at.
 */
static void test_threads_distinct(void **state)
{
	static const char *const want[] = { "4", "6", "0", "2", "5", "7", "1", "3" };
	struct pl p;
	uint32_t k;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	pl_loaded(&p, "4");
	assert_int_equal(pl_run(&p), 0);
	for (k = 0; k < 8; k++) {
		pl_thread(&p, k, 8, want[k], want[k][0] >= '4');
		assert_false(p.plan.shared);
		assert_int_equal(p.plan.mem_node, 1);
	}
	pl_thread(&p, 2, 3, "0", 0);
	assert_true(p.plan.threads_moved);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPU 0 "
					    "is on node 0 (its cores are taken by the other "
					    "threads)");
	/* More threads than CPUs: around again, said. */
	pl_thread(&p, 8, 9, "4", 1);
	assert_true(p.plan.shared);
	pl_thread(&p, 7, 9, "3", 0);
	assert_false(p.plan.shared);
	pl_done(&p);
}

/* The server's processes of a run on the client's host keep off its CPUs. */
static void test_threads_peer(void **state)
{
	hwloc_bitmap_t peer = set_of("4,6");
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	p.in.peer = peer;
	assert_int_equal(pl_run(&p), 0);
	pl_thread(&p, 0, 2, "0", 0);
	assert_true(p.plan.peer_moved);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPU 0 "
					    "is on node 0 (its cores are taken by the peer on "
					    "this host)");
	pl_thread(&p, 1, 2, "2", 0);
	/* One core of the node left: it comes first. */
	hwloc_bitmap_free(peer);
	peer = set_of("4");
	p.in.peer = peer;
	pl_thread(&p, 0, 2, "6", 1);
	pl_thread(&p, 1, 2, "0", 0);
	assert_false(p.plan.peer_moved);
	assert_true(p.plan.threads_moved);
	pl_done(&p);
	hwloc_bitmap_free(peer);
}

/* Within an affinity the user set (taskset), the node's CPUs first. */
static void test_threads_affinity(void **state)
{
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	pl_current(&p, "0-1,4-5");
	assert_int_equal(pl_run(&p), 0);
	assert_true(p.plan.kept_affinity);
	pl_thread(&p, 0, 4, "4", 1);
	assert_false(p.plan.kept_affinity);
	pl_thread(&p, 1, 4, "0", 0);
	pl_thread(&p, 2, 4, "5", 1);
	pl_thread(&p, 3, 4, "1", 0);
	pl_done(&p);
}

/* Unknown locality: still a CPU each, judged neither local nor remote. */
static void test_threads_unknown(void **state)
{
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	pl_thread(&p, 0, 2, "0", -1);
	pl_thread(&p, 1, 2, "2", -1);
	pl_done(&p);
}

static void test_explicit_remote(void **state)
{
	struct rb_placement out;
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "0", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "0");
	assert_int_equal(p.plan.mem_node, 1);
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPU 0 "
					    "is on node 0");
	rb_place_fill(&p.plan, &out);
	assert_int_equal(out.local, 0);
	assert_string_equal(out.cpus, "0");
	pl_done(&p);

	/* A list with commas comes out with spaces; remote memory is said. */
	pl_init(&p, *state, "mlx5_0", "0-1,3", "0");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "0-1 3");
	assert_int_equal(p.plan.mem_node, 0);
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPUs "
					    "0-1 3 are on node 0 and buffers are on node 0");
	pl_done(&p);

	/* Local CPUs, remote memory. */
	pl_init(&p, *state, "mlx5_0", "auto", "0");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "4");
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but "
					    "buffers are on node 0");
	pl_done(&p);
}

static void test_user_affinity(void **state)
{
	struct pl p;

	/* taskset -c 0-3: kept and reported, and remote. */
	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	pl_current(&p, "0-3");
	assert_int_equal(pl_run(&p), 0);
	assert_true(p.plan.kept_affinity);
	assert_null(p.plan.bind);
	assert_string_equal(p.cpus, "0-3");
	assert_int_equal(p.plan.mem_node, 1);
	assert_int_equal(p.plan.local, 0);
	assert_non_null(strstr(p.plan.warning, "CPUs 0-3 are on node 0"));
	rb_place_plan_fini(&p.plan);

	/* taskset -c 5-6: kept, local. */
	pl_current(&p, "5-6");
	assert_int_equal(pl_run(&p), 0);
	assert_true(p.plan.kept_affinity);
	assert_string_equal(p.cpus, "5-6");
	assert_int_equal(p.plan.local, 1);
	rb_place_plan_fini(&p.plan);

	/* --cpu overrides it. */
	p.in.cpu_opt = "7";
	assert_int_equal(pl_run(&p), 0);
	assert_false(p.plan.kept_affinity);
	assert_string_equal(p.cpus, "7");
	rb_place_plan_fini(&p.plan);

	/* numactl -m 0: kept by --numa auto. */
	p.in.cpu_opt = "auto";
	p.in.mem_policy = true;
	p.in.mem_policy_node = 0;
	assert_int_equal(pl_run(&p), 0);
	assert_int_equal(p.plan.mem_node, 0);
	assert_int_equal(p.plan.local, 0);
	pl_done(&p);
}

static void test_none(void **state)
{
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "none", "none");
	assert_int_equal(pl_run(&p), 0);
	assert_null(p.plan.bind);
	assert_string_equal(p.cpus, "0-7");
	assert_int_equal(p.plan.mem_node, -1);
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 1, but CPUs "
					    "0-7 are on nodes 0-1");
	pl_done(&p);

	/* A kernel without NUMA: auto leaves memory alone. */
	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	p.in.membind_ok = false;
	assert_int_equal(pl_run(&p), 0);
	assert_int_equal(p.plan.mem_node, -1);
	assert_int_equal(p.plan.local, 1);
	pl_done(&p);
}

static void test_bad_options(void **state)
{
	static const char *const cpus[] = { "8", "0-8", "x", "1-", "" };
	static const char *const nodes[] = { "2", "1x", "-1", "" };
	struct pl p;
	unsigned int i;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		p.in.cpu_opt = cpus[i];
		assert_int_equal(pl_run(&p), -EINVAL);
	}
	p.in.cpu_opt = "auto";
	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		p.in.numa_opt = nodes[i];
		assert_int_equal(pl_run(&p), -EINVAL);
	}
	p.in.numa_opt = "1";
	p.in.membind_ok = false;
	assert_int_equal(pl_run(&p), -ENOSYS);
	pl_done(&p);
}

static void test_place_unknown(void **state)
{
	struct rb_placement out;
	struct pl p;

	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_true(p.plan.unknown);
	assert_null(p.plan.bind);
	assert_string_equal(p.cpus, "0-7");
	assert_int_equal(p.plan.mem_node, -1);
	assert_int_equal(p.plan.local, -1);
	assert_string_equal(p.plan.warning, "");
	rb_place_fill(&p.plan, &out);
	assert_int_equal(out.device_numa_node, -1);
	assert_int_equal(out.local, -1);
	pl_done(&p);

	/* An explicit CPU still binds. */
	pl_init(&p, *state, "rxe0", "2", "none");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "2");
	assert_int_equal(p.plan.local, -1);
	pl_done(&p);
}

static void test_place_single(void **state)
{
	struct pl p;

	pl_init(&p, *state, "rxe0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "0");
	assert_int_equal(p.plan.mem_node, 0);
	assert_int_equal(p.plan.local, 1);
	rb_place_plan_fini(&p.plan);
	pl_loaded(&p, "0");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "1");
	pl_done(&p);
}

static void test_place_odd(void **state)
{
	struct pl p;

	/* Node 2 has no CPUs: unbound, memory there, remote. */
	pl_init(&p, *state, "mlx5_0", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_null(p.plan.bind);
	assert_string_equal(p.cpus, "0-5");
	assert_int_equal(p.plan.mem_node, 2);
	assert_int_equal(p.plan.local, 0);
	assert_string_equal(p.plan.warning, "remote placement: mlx5_0 is on NUMA node 2, but CPUs "
					    "0-5 are on nodes 0-1 3");
	pl_done(&p);

	/* Node 3 has no memory: bind there, let first touch place memory;
	 * asking for node 3 explicitly is refused. */
	pl_init(&p, *state, "mlx5_1", "auto", "auto");
	assert_int_equal(pl_run(&p), 0);
	assert_string_equal(p.cpus, "4");
	assert_int_equal(p.plan.mem_node, -1);
	assert_int_equal(p.plan.local, 1);
	rb_place_plan_fini(&p.plan);
	p.in.numa_opt = "3";
	assert_int_equal(pl_run(&p), -EINVAL);
	pl_done(&p);
}

/* ---- warnings --------------------------------------------------------- */

static int check(struct fx *f, const char *name, const char *bound, struct rb_topo_warning *w)
{
	hwloc_bitmap_t b = bound ? set_of(bound) : NULL;
	struct rb_dev_info d;
	int n;

	read_dev(f, name, &d);
	n = rb_topo_check(f->topo, f->sysroot, &d, rb_topo_dev_node(f->topo, &d), b, w,
			  RB_TOPO_MAX_WARN);
	rb_dev_info_free(&d);
	hwloc_bitmap_free(b);
	return n;
}

static void test_warn_healthy(void **state)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];

	assert_int_equal(check(*state, "mlx5_0", NULL, w), 0);
	assert_int_equal(check(*state, "rxe0", NULL, w), 0);
	assert_int_equal(check(*state, "mlx5_0", "4-7", w), 0);
	/* Bound to node 0 only: away from mlx5_0. */
	assert_int_equal(check(*state, "mlx5_0", "0-3", w), 1);
	assert_int_equal(w[0].code, RB_TW_BOUND_AWAY);
	assert_string_equal(w[0].msg, "this process is bound to CPUs 0-3 (node 0), away from "
				      "mlx5_0's NUMA node 1: check taskset, numactl or the cgroup "
				      "cpuset");
	/* Overlapping the node is not away. */
	assert_int_equal(check(*state, "mlx5_0", "3-4", w), 0);
}

static void test_warn_link(void **state)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];
	struct fx *f = *state;
	struct rb_dev_info d;

	assert_int_equal(check(*state, "mlx5_0", NULL, w), 2);
	assert_int_equal(w[0].code, RB_TW_PCIE_WIDTH);
	assert_int_equal(w[0].port, 0);
	assert_non_null(strstr(w[0].msg, "mlx5_0: PCIe 0000:81:00.0 trained at x8, below its "
					 "maximum x16"));
	assert_non_null(strstr(w[0].msg, "lspci -vv -s 0000:81:00.0"));
	assert_int_equal(w[1].code, RB_TW_PCIE_CEILING);
	assert_int_equal(w[1].port, 1);
	assert_non_null(strstr(w[1].msg, "carries at most 63.0 Gb/s, below the port rate 100.0 "
					 "Gb/s"));

	/* mlx4_0: 2.5 of 8 GT/s (32 Gb/s still covers 25 Gb/s), port 1
	 * down, port 2 without a RoCE v2 GID. */
	assert_int_equal(check(*state, "mlx4_0", NULL, w), 3);
	assert_int_equal(w[0].code, RB_TW_PCIE_SPEED);
	assert_non_null(strstr(w[0].msg, "trained at 2.5 GT/s, below its maximum 8.0 GT/s"));
	assert_int_equal(w[1].code, RB_TW_PORT_STATE);
	assert_int_equal(w[1].port, 1);
	assert_non_null(strstr(w[1].msg, "mlx4_0 port 1 is DOWN (physical state Disabled)"));
	assert_int_equal(w[2].code, RB_TW_NO_ROCEV2);
	assert_int_equal(w[2].port, 2);
	assert_string_equal(w[2].msg, "mlx4_0 port 2 has no RoCE v2 GID: check that ens2d1 is up "
				      "and has an IP address (ip addr)");

	/* At most @max entries. */
	read_dev(f, "mlx4_0", &d);
	assert_int_equal(rb_topo_check(f->topo, f->sysroot, &d, 1, NULL, w, 1), 1);
	rb_dev_info_free(&d);
}

static void test_warn_unknown(void **state)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];

	assert_int_equal(check(*state, "mlx5_0", NULL, w), 1);
	assert_int_equal(w[0].code, RB_TW_NO_LOCALITY);
	assert_non_null(strstr(w[0].msg, "PCI 0000:81:00.0 reports numa_node -1"));
	assert_int_equal(check(*state, "rxe0", NULL, w), 1);
	assert_int_equal(w[0].code, RB_TW_NO_LOCALITY);
	assert_non_null(strstr(w[0].msg, "netdev bond0 has no PCI function"));
	/* siw0 is iWARP (node_type 4, RNIC): no RoCE GID is asked of it
	 * (before: "has no RoCE v2 GID", RB_TW_NO_ROCEV2). */
	assert_int_equal(check(*state, "siw0", NULL, w), 2);
	assert_int_equal(w[0].code, RB_TW_PORT_STATE);
	assert_int_equal(w[1].code, RB_TW_NO_LOCALITY);
}

static void test_warn_odd(void **state)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];

	assert_int_equal(check(*state, "mlx5_0", NULL, w), 1);
	assert_int_equal(w[0].code, RB_TW_NODE_NO_CPUS);
	assert_non_null(strstr(w[0].msg, "mlx5_0 is on NUMA node 2, which has no CPUs"));
	/* A node without CPUs cannot be bound away from. */
	assert_int_equal(check(*state, "mlx5_0", "0-1", w), 1);
	assert_int_equal(check(*state, "mlx5_1", NULL, w), 1);
	assert_int_equal(w[0].code, RB_TW_NODE_NO_MEMORY);
	assert_non_null(strstr(w[0].msg, "mlx5_1 is on NUMA node 3, which has no memory"));
}

static void test_warn_single(void **state)
{
	struct rb_topo_warning w[RB_TOPO_MAX_WARN];

	assert_int_equal(check(*state, "rxe0", NULL, w), 0);
}

/* ---- the report ------------------------------------------------------- */

static void enrich_mtu(struct rb_dev_info *d)
{
	int i;

	for (i = 0; i < d->n_ports; i++)
		d->ports[i].active_mtu = 1024;
}

/* Runs the report; returns its code, the table in *@table, JSON in *@j. */
static int report(struct fx *f, const char *dev, char **table, json_t **j)
{
	struct rb_topo_env env = { .sysroot = f->sysroot, .topo = f->topo, .enrich = enrich_mtu };
	char path[PATH_MAX];
	size_t len;
	FILE *out = open_memstream(table, &len);
	json_error_t err;
	int ret;

	assert_non_null(out);
	pathf(path, sizeof(path), "%s/topo.json", f->tmp);
	unlink(path);
	ret = rb_topo_show_env(&env, dev, path, out);
	fclose(out);
	*j = json_load_file(path, 0, &err);
	return ret;
}

static void test_report(void **state)
{
	json_t *j, *d, *p, *g;
	char *table;

	assert_int_equal(report(*state, NULL, &table, &j), 0);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "tool")), "rdmabench");
	assert_int_equal(json_array_size(json_object_get(j, "devices")), 2);
	d = json_array_get(json_object_get(j, "devices"), 0);
	assert_string_equal(json_string_value(json_object_get(d, "name")), "mlx5_0");
	assert_string_equal(json_string_value(json_object_get(d, "pci")), "0000:81:00.0");
	assert_int_equal(json_integer_value(json_object_get(d, "numa_node")), 1);
	assert_string_equal(json_string_value(json_object_get(d, "local_cpus")), "4-7");
	p = json_object_get(d, "pcie");
	assert_float_equal(json_real_value(json_object_get(p, "current_link_speed")), 16.0, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(p, "max_link_width")), 16);
	assert_float_equal(json_real_value(json_object_get(p, "ceiling_gbps")), 252.062, 1e-3);
	p = json_array_get(json_object_get(d, "ports"), 0);
	assert_string_equal(json_string_value(json_object_get(p, "state")), "ACTIVE");
	assert_float_equal(json_real_value(json_object_get(p, "rate_gbps")), 100.0, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(p, "active_mtu")), 1024);
	assert_int_equal(json_array_size(json_object_get(p, "gids")), 4);
	g = json_array_get(json_object_get(p, "gids"), 1);
	assert_string_equal(json_string_value(json_object_get(g, "type")), "RoCE v2");
	assert_string_equal(json_string_value(json_object_get(g, "address")), "fe80::bace:f6ff:"
									      "fea1:b2c4");
	assert_int_equal(json_array_size(json_object_get(d, "warnings")), 0);

	d = json_array_get(json_object_get(j, "devices"), 1);
	assert_string_equal(json_string_value(json_object_get(d, "driver")), "rdma_rxe");
	assert_string_equal(json_string_value(json_object_get(d, "netdev")), "eth0");
	assert_true(json_is_null(json_object_get(d, "fw_ver")));
	assert_int_equal(json_integer_value(json_object_get(d, "numa_node")), 0);

	assert_non_null(strstr(table, "rxe0: driver rdma_rxe, transport RoCE, node GUID "
				      "5054:00ff:fe12:3456, firmware -\n"));
	assert_string_equal(json_string_value(json_object_get(d, "transport")), "RoCE");
	/* The provider's row (core/provider.h), known by the driver. */
	assert_non_null(strstr(table, "  provider rxe (Soft-RoCE (software)): InfiniBand/RoCE, QPs "
				      "RC, UC, UD, atomics, inline 512 bytes\n"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(d, "provider"), "nam"
											      "e")),
			    "rxe");
	assert_non_null(strstr(table, "  netdev eth0, PCI 0000:02:00.0, NUMA node 0, local CPUs "
				      "0-3\n"));
	assert_non_null(strstr(table, "  PCIe link: 16.0 GT/s x16 (max 16.0 GT/s x16), payload "
				      "ceiling 252.1 Gb/s\n"));
	assert_non_null(strstr(table, "  1    ACTIVE   LinkUp     Ethernet       100.0     252.1  "
				      "1024  ens1f0np0\n"));
	assert_non_null(strstr(table, "  1    3     RoCE v2  ::ffff:192.0.2.10"));
	json_decref(j);
	free(table);
}

static void test_report_one(void **state)
{
	json_t *j, *w;
	char *table;

	assert_int_equal(report(*state, "mlx4_0", &table, &j), 0);
	assert_int_equal(json_array_size(json_object_get(j, "devices")), 1);
	w = json_object_get(json_array_get(json_object_get(j, "devices"), 0), "warnings");
	assert_int_equal(json_array_size(w), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "code")), "pcie"
											      "_spe"
											      "ed");
	assert_true(json_is_null(json_object_get(json_array_get(w, 0), "port")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(w, 2), "code")), "no_"
											      "roce"
											      "v2_"
											      "gi"
											      "d");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(w, 2), "port")), 2);
	assert_null(strstr(table, "mlx5_0"));
	json_decref(j);
	free(table);
}

static void test_report_fail(void **state)
{
	struct fx *f = *state;
	struct rb_topo_env env = { .sysroot = f->sysroot, .topo = f->topo };
	char *table;
	json_t *j;
	FILE *out = fopen("/dev/null", "w");

	assert_int_equal(report(f, "mlx5_9", &table, &j), 1);
	assert_null(j);
	free(table);
	/* No device at all. */
	env.sysroot = f->tmp;
	assert_int_equal(rb_topo_show_env(&env, NULL, NULL, out), 1);
	/* JSON that cannot be written. */
	env.sysroot = f->sysroot;
	assert_int_equal(rb_topo_show_env(&env, NULL, "/nonexistent/dir/topo.json", out), 1);
	assert_int_equal(rb_topo_show_env(&env, NULL, NULL, out), 0);
	fclose(out);
}

/* ---- live: what any Linux host can do --------------------------------- */

static void test_alloc(void **state)
{
	size_t len = 3 * 4096;
	unsigned char *p;
	size_t i;
	int node = -1;

	p = rb_place_alloc(len, -1, false);
	assert_non_null(p);
	for (i = 0; i < len; i++)
		assert_int_equal(p[i], 0);
	rb_place_free(p, len);

	if (numa_available() < 0)
		return; /* no NUMA: binding cannot be checked here */
	p = rb_place_alloc(len, 0, false);
	assert_non_null(p);
	assert_int_equal(get_mempolicy(&node, NULL, 0, p + 4096, MPOL_F_NODE | MPOL_F_ADDR), 0);
	assert_int_equal(node, 0);
	rb_place_free(p, len);

	errno = 0;
	assert_null(rb_place_alloc(len, 1000, false));
	assert_int_equal(errno, EINVAL);
}

/*
 * --hugepages: with none free, the error names the pool and what to
 * reserve; with some, the buffer is there, zeroed.
 */
static void test_alloc_huge(void **state)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "re");
	long free_ = -1;
	unsigned char *p;

	(void)state;
	if (f) {
		if (fscanf(f, "%ld", &free_) != 1)
			free_ = -1;
		fclose(f);
	}
	rb_last_error[0] = '\0';
	errno = 0;
	p = rb_place_alloc(RB_HUGE_PAGE, -1, true);
	if (free_ > 0) {
		assert_non_null(p);
		assert_int_equal(p[RB_HUGE_PAGE - 1], 0);
		rb_place_free(p, RB_HUGE_PAGE);
		return;
	}
	assert_null(p);
	assert_int_equal(errno, ENOMEM);
	if (free_ == 0) {
		assert_non_null(strstr(rb_last_error, "--hugepages"));
		assert_non_null(strstr(rb_last_error, "/proc/sys/vm/nr_hugepages"));
		assert_non_null(strstr(rb_last_error, "1 needed"));
	}
}

static void test_apply_live(void **state)
{
	struct rb_placement out;
	cpu_set_t mask;
	char want[16], initial[128];
	int cpu;

	/* The first CPU we may use: CI may confine us to a few. */
	assert_int_equal(sched_getaffinity(0, sizeof(mask), &mask), 0);
	for (cpu = 0; !CPU_ISSET(cpu, &mask); cpu++)
		;
	snprintf(want, sizeof(want), "%d", cpu);

	/* No such device: locality unknown, carry on. */
	assert_int_equal(rb_place_apply("rb_no_dev", "none", "none", NULL, &out), 0);
	assert_int_equal(out.device_numa_node, -1);
	assert_int_equal(out.mem_node, -1);
	assert_int_equal(out.local, -1);
	assert_true(out.cpus[0] != '\0');
	snprintf(initial, sizeof(initial), "%s", out.cpus);

	assert_int_equal(rb_place_apply("rb_no_dev", want, "none", NULL, &out), 0);
	assert_string_equal(out.cpus, want);
	assert_int_equal(sched_getcpu(), cpu);

	/* none again: back to the affinity we started with. */
	assert_int_equal(rb_place_apply("rb_no_dev", "none", "none", NULL, &out), 0);
	assert_string_equal(out.cpus, initial);

	assert_int_equal(rb_place_apply("rb_no_dev", "65535", "none", NULL, &out), -EINVAL);
	assert_string_equal(out.cpus, initial);
}

/* ---- GPUs against RDMA devices (topo_gpu.c) -------------------------- */

static void test_gpu_rel_names(void **state)
{
	static const char *const want[] = { "PIX", "PXB", "PHB", "NODE", "SYS", "-" };
	int r;

	for (r = RB_REL_PIX; r < RB_REL_COUNT; r++) {
		assert_string_equal(rb_pcie_rel_name(r), want[r]);
		assert_true(strlen(rb_pcie_rel_desc(r)) > 10);
	}
	assert_string_equal(rb_pcie_rel_name(RB_REL_COUNT + 3), "-");
}

/* The NICs of @f as the report notes them. */
static int gpu_nics(struct fx *f, struct rb_nic_ref *nics)
{
	struct rb_dev_info d;
	char **names;
	int n, i;

	assert_int_equal(rb_dev_list(f->sysroot, &names, &n), 0);
	for (i = 0; i < n; i++) {
		read_dev(f, names[i], &d);
		snprintf(nics[i].name, sizeof(nics[i].name), "%s", d.name);
		snprintf(nics[i].pci, sizeof(nics[i].pci), "%s", d.pci);
		nics[i].numa_node = rb_topo_dev_node(f->topo, &d);
		rb_dev_info_free(&d);
	}
	rb_dev_list_free(names, n);
	return n;
}

/* Eight H100s, each under the PCIe switch of its own ConnectX-7 (see README). */
static void test_gpu_8x8(void **state)
{
	/* Rows GPU0-7, columns mlx5_0-7: socket 0's pairs sit under switches
	 * under one switch per host bridge, socket 1's under a root port each. */
	static const char want[8][8][5] = {
		{ "PIX", "PXB", "NODE", "NODE", "SYS", "SYS", "SYS", "SYS" },
		{ "PXB", "PIX", "NODE", "NODE", "SYS", "SYS", "SYS", "SYS" },
		{ "NODE", "NODE", "PIX", "PXB", "SYS", "SYS", "SYS", "SYS" },
		{ "NODE", "NODE", "PXB", "PIX", "SYS", "SYS", "SYS", "SYS" },
		{ "SYS", "SYS", "SYS", "SYS", "PIX", "PHB", "NODE", "NODE" },
		{ "SYS", "SYS", "SYS", "SYS", "PHB", "PIX", "NODE", "NODE" },
		{ "SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "PIX", "PHB" },
		{ "SYS", "SYS", "SYS", "SYS", "NODE", "NODE", "PHB", "PIX" },
	};
	static const char *const bus[8] = { "1a", "1e", "3c", "40", "9a", "9e", "ba", "be" };
	static const struct {
		const char *a, *b;
		enum rb_pcie_rel rel;
	} pairs[] = {
		/* Symmetric, and a function with itself is as near as can be. */
		{ "0000:1b:00.0", "0000:1a:00.0", RB_REL_PIX },
		{ "0000:1a:00.0", "0000:1a:00.0", RB_REL_PIX },
		{ "0000:bb:00.0", "0000:1f:00.0", RB_REL_SYS },
		/* The ASPEED VGA and a GPU share socket 0 through different host bridges. */
		{ "0000:02:00.0", "0000:1a:00.0", RB_REL_NODE },
		/* Unknown functions and bad text. */
		{ "0000:1a:00.0", "0000:55:00.0", RB_REL_UNKNOWN },
		{ "1a:00", "0000:1b:00.0", RB_REL_UNKNOWN },
		{ NULL, "0000:1b:00.0", RB_REL_UNKNOWN },
	};
	struct fx *f = *state;
	struct rb_nic_ref nics[RB_MAX_NICS];
	struct rb_gpu gpus[RB_MAX_GPUS];
	struct rb_gpu_row row;
	char pci[16];
	int n, i, k;

	/* The BMC's ASPEED VGA at 0000:02:00.0 is no GPU. */
	assert_int_equal(rb_gpu_list(f->topo, f->sysroot, gpus, RB_MAX_GPUS), 8);
	assert_int_equal(rb_gpu_list(f->topo, f->sysroot, gpus, 3), 3);
	assert_int_equal(rb_gpu_list(f->topo, f->sysroot, gpus, RB_MAX_GPUS), 8);
	n = gpu_nics(f, nics);
	assert_int_equal(n, 8);
	for (i = 0; i < 8; i++) {
		snprintf(pci, sizeof(pci), "0000:%s:00.0", bus[i]);
		assert_string_equal(gpus[i].pci, pci);
		assert_string_equal(gpus[i].vendor, "NVIDIA");
		assert_int_equal(gpus[i].device_id, 0x2330);
		assert_int_equal(gpus[i].class_id, 0x0302);
		assert_int_equal(gpus[i].numa_node, i < 4 ? 0 : 1);
		rb_gpu_nics(f->topo, f->sysroot, i, &gpus[i], nics, n, &row);
		for (k = 0; k < 8; k++)
			assert_string_equal(rb_pcie_rel_name(row.rel[k]), want[i][k]);
		assert_int_equal(row.best, RB_REL_PIX);
		assert_false(row.warn);
		assert_string_equal(row.warning, "");
	}
	for (i = 0; i < (int)(sizeof(pairs) / sizeof(pairs[0])); i++)
		assert_int_equal(rb_pcie_relation(f->topo, f->sysroot, pairs[i].a, pairs[i].b),
				 pairs[i].rel);
}

/* One NIC on socket 1; an NVIDIA GPU on socket 0, two AMD ones on socket 1. */
static void test_gpu_remote(void **state)
{
	struct fx *f = *state;
	struct rb_nic_ref nics[RB_MAX_NICS];
	struct rb_gpu gpus[RB_MAX_GPUS];
	struct rb_gpu_row row;
	int n;

	assert_int_equal(rb_gpu_list(f->topo, f->sysroot, gpus, RB_MAX_GPUS), 3);
	n = gpu_nics(f, nics);
	assert_int_equal(n, 1);
	assert_string_equal(gpus[0].pci, "0000:17:00.0");
	assert_string_equal(gpus[0].vendor, "NVIDIA");
	assert_int_equal(gpus[0].numa_node, 0);
	rb_gpu_nics(f->topo, f->sysroot, 0, &gpus[0], nics, n, &row);
	assert_int_equal(row.rel[0], RB_REL_SYS);
	assert_int_equal(row.best, RB_REL_SYS);
	assert_true(row.warn);
	assert_non_null(strstr(row.warning, "GPU0 0000:17:00.0 (node 0): its nearest RDMA device, "
					    "mlx5_0 (node 1), is across the socket (SYS)"));

	assert_string_equal(gpus[1].pci, "0000:c1:00.0");
	assert_string_equal(gpus[1].vendor, "AMD");
	assert_int_equal(gpus[1].class_id, 0x0380);
	assert_int_equal(gpus[1].numa_node, 1);
	rb_gpu_nics(f->topo, f->sysroot, 1, &gpus[1], nics, n, &row);
	assert_int_equal(row.rel[0], RB_REL_NODE);
	assert_false(row.warn);
	/* An MI300X is a processing accelerator (class 1200). */
	assert_string_equal(gpus[2].pci, "0000:e1:00.0");
	assert_string_equal(gpus[2].vendor, "AMD");
	assert_int_equal(gpus[2].class_id, 0x1200);
	rb_gpu_nics(f->topo, f->sysroot, 2, &gpus[2], nics, n, &row);
	assert_int_equal(row.best, RB_REL_NODE);

	/* A device without a PCI function (rxe on a bond) is unknown, and
	 * so is the nearest when it is the only one. */
	nics[1] = nics[0];
	snprintf(nics[0].name, sizeof(nics[0].name), "rxe0");
	nics[0].pci[0] = '\0';
	rb_gpu_nics(f->topo, f->sysroot, 0, &gpus[0], nics, 1, &row);
	assert_int_equal(row.rel[0], RB_REL_UNKNOWN);
	assert_int_equal(row.best, RB_REL_UNKNOWN);
	assert_false(row.warn);
	rb_gpu_nics(f->topo, f->sysroot, 0, &gpus[0], nics, 2, &row);
	assert_int_equal(row.best, RB_REL_SYS);
	assert_true(row.warn);
}

static void put_file(const char *root, const char *rel, const char *text);

/* A function hwloc hangs off the machine: its node is sysfs's, or unknown. */
static void test_gpu_sysfs_node(void **state)
{
	struct fx *f = *state;
	const char *nvme = "0000:a1:00.0", *nic = "0000:81:00.0";

	assert_int_equal(rb_pcie_relation(f->topo, f->sysroot, nvme, nic), RB_REL_UNKNOWN);
	assert_int_equal(rb_pcie_relation(f->topo, NULL, nvme, nic), RB_REL_UNKNOWN);
	put_file(f->sysroot, "bus/pci/devices/0000:a1:00.0/numa_node", "1\n");
	assert_int_equal(rb_pcie_relation(f->topo, f->sysroot, nvme, nic), RB_REL_NODE);
	assert_int_equal(rb_pcie_relation(f->topo, NULL, nvme, nic), RB_REL_UNKNOWN);
	put_file(f->sysroot, "bus/pci/devices/0000:a1:00.0/numa_node", "0\n");
	assert_int_equal(rb_pcie_relation(f->topo, f->sysroot, nvme, nic), RB_REL_SYS);
	put_file(f->sysroot, "bus/pci/devices/0000:a1:00.0/numa_node", "-1\n");
	assert_int_equal(rb_pcie_relation(f->topo, f->sysroot, nvme, nic), RB_REL_UNKNOWN);
}

/* The file @path whole, NUL-terminated; free() it. */
static char *slurp(const char *path)
{
	FILE *in = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(in);
	assert_int_equal(fseek(in, 0, SEEK_END), 0);
	len = ftell(in);
	assert_true(len >= 0);
	rewind(in);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, in), (size_t)len);
	fclose(in);
	return buf;
}

/* The GPU table of `rdmabench topo` on the 8-GPU node, against its golden file. */
static void test_gpu_report_8x8(void **state)
{
	char *table, *want, golden[PATH_MAX];
	json_t *j, *a, *g;

	assert_int_equal(report(*state, NULL, &table, &j), 0);
	pathf(golden, sizeof(golden), "%s/golden/topo-gpu-8x8.table", TEST_DATA_DIR);
	want = slurp(golden);
	assert_non_null(strstr(table, "\nGPUs and RDMA devices"));
	assert_string_equal(strstr(table, "\nGPUs and RDMA devices") + 1, want);
	a = json_object_get(j, "gpu_nic");
	assert_int_equal(json_array_size(a), 8);
	g = json_array_get(a, 5);
	assert_int_equal(json_integer_value(json_object_get(g, "gpu")), 5);
	assert_string_equal(json_string_value(json_object_get(g, "pci")), "0000:9e:00.0");
	assert_string_equal(json_string_value(json_object_get(g, "vendor_id")), "10de");
	assert_string_equal(json_string_value(json_object_get(g, "device_id")), "2330");
	assert_int_equal(json_integer_value(json_object_get(g, "numa_node")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(g, "nearest"), 0)),
			    "mlx5_5");
	assert_string_equal(json_string_value(json_object_get(g, "nearest_relation")), "PIX");
	assert_string_equal(json_string_value(json_object_get(json_object_get(g, "relation"), "mlx5"
											      "_"
											      "4")),
			    "PHB");
	assert_int_equal(json_array_size(json_object_get(g, "warnings")), 0);
	json_decref(j);
	free(want);
	free(table);
}

static void test_gpu_report_remote(void **state)
{
	json_t *j, *a, *w;
	char *table;

	assert_int_equal(report(*state, NULL, &table, &j), 0);
	assert_non_null(strstr(table, "GPU0   0000:17:00.0  NVIDIA  0     SYS     mlx5_0\n"));
	assert_non_null(strstr(table, "GPU1   0000:c1:00.0  AMD     1     NODE    mlx5_0\n"));
	a = json_object_get(j, "gpu_nic");
	assert_int_equal(json_array_size(a), 3);
	w = json_object_get(json_array_get(a, 0), "warnings");
	assert_int_equal(json_array_size(w), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "code")), "gpu_"
											      "nic_"
											      "sy"
											      "s");
	assert_int_equal(json_array_size(json_object_get(json_array_get(a, 1), "warnings")), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 1), "vendor")),
			    "AMD");
	json_decref(j);
	free(table);
}

/* A machine without a GPU says so in one line, and an empty array. */
static void test_gpu_report_none(void **state)
{
	json_t *j;
	char *table;

	assert_int_equal(report(*state, NULL, &table, &j), 0);
	assert_non_null(strstr(table, "\nGPUs: none ("));
	assert_int_equal(json_array_size(json_object_get(j, "gpu_nic")), 0);
	assert_true(json_is_array(json_object_get(j, "gpu_nic")));
	json_decref(j);
	free(table);
}

/* rb_probe_place_decide() on fixture @f, device @dev, with sets as lists ("" empty, NULL none). */
static void probe_decide(struct fx *f, const char *dev, const char *allowed, const char *stream,
			 const char *busy, const char *peer, struct rb_probe_place *out)
{
	hwloc_bitmap_t a = set_of(allowed), st = set_of(stream), b = set_of(busy);
	hwloc_bitmap_t pe = peer ? set_of(peer) : NULL;

	hwloc_bitmap_or(b, b, st);
	assert_int_equal(rb_probe_place_decide(f->topo, f->sysroot, dev ? dev_node(f, dev) : -1, a,
					       st, b, pe, out),
			 0);
	hwloc_bitmap_free(a);
	hwloc_bitmap_free(st);
	hwloc_bitmap_free(b);
	hwloc_bitmap_free(pe);
}

/*
 * --probe's thread (issue 37 item 4): not the stream's CPU.  mlx5_0 is on
 * node 1 (CPUs 4-7, cores 4-5 and 6-7): with the stream on CPU 4 the
 * probe takes 6, a core of its own; off a peer on 6-7, CPU 5; with node 1
 * full, node 0's CPU 0 (said); with one CPU in reach, the stream's own,
 * shared (said); a stream not bound to one CPU leaves it unbound.
 */
static void test_probe_place(void **state)
{
	struct rb_probe_place pl;

	probe_decide(*state, "mlx5_0", "0-7", "4", "", NULL, &pl);
	assert_int_equal(pl.cpu, 6);
	assert_false(pl.shared || pl.elsewhere);
	assert_string_equal(pl.note, "");
	probe_decide(*state, "mlx5_0", "0-7", "4", "", "6-7", &pl);
	assert_int_equal(pl.cpu, 5);
	/* --threads: the other threads' CPUs are taken too. */
	probe_decide(*state, "mlx5_0", "0-7", "4", "5-7", NULL, &pl);
	assert_int_equal(pl.cpu, 0);
	assert_true(pl.elsewhere);
	assert_false(pl.shared);
	assert_non_null(strstr(pl.note, "NUMA node 1 has no CPU besides"));
	assert_non_null(strstr(pl.note, "CPU 0, of another node"));
	probe_decide(*state, "mlx5_0", "4", "4", "", NULL, &pl);
	assert_int_equal(pl.cpu, 4);
	assert_true(pl.shared);
	assert_non_null(strstr(pl.note, "the probe shares it"));
	/* Locality unknown: any allowed CPU but the stream's. */
	probe_decide(*state, NULL, "0-1", "0", "", NULL, &pl);
	assert_int_equal(pl.cpu, 1);
	probe_decide(*state, "mlx5_0", "0-7", "4-5", "", NULL, &pl);
	assert_int_equal(pl.cpu, -1);
	probe_decide(*state, "mlx5_0", "0-7", "", "", NULL, &pl);
	assert_int_equal(pl.cpu, -1);
}

#define FX(f, name) \
	cmocka_unit_test_prestate_setup_teardown(f, fx_setup, fx_teardown, (void *)(name))

/* The measuring CPU's clock (perftest's -F), from tests/data/cpufreq. */
static void test_cpu_freq(void **state)
{
	const char *root = TEST_DATA_DIR "/cpufreq";
	struct rb_placement p;

	(void)state;
	rb_cpu_freq(root, 0, &p);
	assert_int_equal(p.freq_cpu, 0);
	assert_string_equal(p.governor, "performance");
	assert_int_equal(p.cpu_mhz, 3000);
	assert_false(rb_freq_varies(&p));
	rb_cpu_freq(root, 1, &p);
	assert_string_equal(p.governor, "powersave");
	assert_int_equal(p.cpu_mhz, 1200);
	assert_true(rb_freq_varies(&p));
	rb_cpu_freq(root, 2, &p);
	assert_string_equal(p.governor, "schedutil");
	assert_int_equal(p.cpu_mhz, 0);
	assert_true(rb_freq_varies(&p));
	/* No cpufreq, and no CPU: nothing known, nothing to warn about. */
	rb_cpu_freq(root, 3, &p);
	assert_int_equal(p.freq_cpu, 3);
	assert_string_equal(p.governor, "");
	assert_int_equal(p.cpu_mhz, 0);
	assert_false(rb_freq_varies(&p));
	rb_cpu_freq(root, -1, &p);
	assert_int_equal(p.freq_cpu, -1);
	assert_false(rb_freq_varies(&p));
}

/* Write @text into @root/@rel, making the directories. */
static void put_file(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * A device's MSI IRQs with their affinity (one unreadable), by number, and
 * its CPUs' governors tallied (one CPU without cpufreq): what topo shows
 * and doctor judges.
 */
static void test_irqs_governors(void **state)
{
	char root[] = "/tmp/rb-topo-irq-XXXXXX", sys[PATH_MAX], proc[PATH_MAX], s[128];
	hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
	struct rb_irqs *q = malloc(sizeof(*q));
	struct rb_govs g;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	put_file(root, "sys/bus/pci/devices/0000:81:00.0/msi_irqs/41", "msi\n");
	put_file(root, "sys/bus/pci/devices/0000:81:00.0/msi_irqs/9", "msi\n");
	put_file(root, "sys/bus/pci/devices/0000:81:00.0/msi_irqs/40", "msi\n");
	put_file(root, "proc/irq/41/smp_affinity_list", "4-7\n");
	put_file(root, "proc/irq/9/smp_affinity_list", "0\n");
	put_file(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put_file(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put_file(root, "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance\n");
	put_file(root, "sys/devices/system/cpu/cpu3", NULL);

	assert_int_equal(rb_dev_irqs(sys, proc, "0000:81:00.0", q), 0);
	assert_int_equal(q->n, 3);
	assert_int_equal(q->irq[0].num, 9);
	assert_string_equal(q->irq[0].cpus, "0");
	assert_int_equal(q->irq[1].num, 40);
	assert_string_equal(q->irq[1].cpus, "");
	assert_int_equal(q->irq[2].num, 41);
	assert_string_equal(q->irq[2].cpus, "4-7");
	assert_true(rb_dev_irqs(sys, proc, "0000:01:00.0", q) < 0);

	assert_int_equal(rb_cpus_parse("0-3", cpus), 0);
	rb_cpus_governors(sys, cpus, &g);
	assert_int_equal(g.n, 3);
	rb_govs_str(&g, s, sizeof(s));
	assert_string_equal(s, "performance x2, powersave x1");
	assert_int_equal(rb_cpus_parse("3", cpus), 0);
	rb_cpus_governors(sys, cpus, &g);
	assert_int_equal(g.n, 0);
	rb_govs_str(&g, s, sizeof(s));
	assert_string_equal(s, "");

	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	hwloc_bitmap_free(cpus);
	free(q);
}

/* The kernel's clocksources: tsc kept, taken off (--cpu none warns), or unknown. */
static void test_tsc_untrusted(void **state)
{
	char root[] = "/tmp/rb-topo-tsc-XXXXXX", cs[64];
	const char *rel = "devices/system/clocksource/clocksource0/available_clocksource";

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_false(rb_tsc_untrusted(root, cs, sizeof(cs)));
	put_file(root, rel, "tsc hpet acpi_pm \n");
	assert_false(rb_tsc_untrusted(root, cs, sizeof(cs)));
	put_file(root, rel, "kvm-clock tsc \n");
	assert_false(rb_tsc_untrusted(root, cs, sizeof(cs)));
	/* A 40-vCPU TCG guest's, trailing blank and all. */
	put_file(root, rel, "hpet acpi_pm \n");
	assert_true(rb_tsc_untrusted(root, cs, sizeof(cs)));
	assert_string_equal(cs, "hpet acpi_pm");
	put_file(root, rel, "\n");
	assert_false(rb_tsc_untrusted(root, cs, sizeof(cs)));
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcie_gts),
		cmocka_unit_test(test_pcie_ceiling),
		cmocka_unit_test(test_cpus_format),
		cmocka_unit_test(test_cpus_parse),
		cmocka_unit_test(test_wcode_names),
		cmocka_unit_test(test_irqs_governors),
		FX(test_list, "two-socket"),
		FX(test_read_hca, "two-socket"),
		FX(test_read_rxe, "two-socket"),
		FX(test_read_missing, "two-socket"),
		FX(test_read_single, "single-node"),
		FX(test_read_no_pci, "no-locality"),
		FX(test_node_two_socket, "two-socket"),
		FX(test_node_single, "single-node"),
		FX(test_node_unknown, "no-locality"),
		FX(test_node_odd, "odd-nodes"),
		FX(test_auto_local, "two-socket"),
		FX(test_probe_place, "two-socket"),
		FX(test_auto_skips_loaded, "two-socket"),
		FX(test_auto_avoids_peer, "two-socket"),
		FX(test_threads_distinct, "two-socket"),
		FX(test_threads_peer, "two-socket"),
		FX(test_threads_affinity, "two-socket"),
		FX(test_threads_unknown, "no-locality"),
		FX(test_explicit_remote, "two-socket"),
		FX(test_user_affinity, "two-socket"),
		FX(test_none, "two-socket"),
		FX(test_bad_options, "two-socket"),
		FX(test_place_unknown, "no-locality"),
		FX(test_place_single, "single-node"),
		FX(test_place_odd, "odd-nodes"),
		FX(test_warn_healthy, "two-socket"),
		FX(test_warn_link, "x8-of-x16"),
		FX(test_warn_unknown, "no-locality"),
		FX(test_warn_odd, "odd-nodes"),
		FX(test_warn_single, "single-node"),
		FX(test_report, "two-socket"),
		FX(test_report_one, "x8-of-x16"),
		FX(test_report_fail, "two-socket"),
		cmocka_unit_test(test_gpu_rel_names),
		FX(test_gpu_8x8, "gpu-8x8"),
		FX(test_gpu_remote, "gpu-remote"),
		FX(test_gpu_sysfs_node, "gpu-remote"),
		FX(test_gpu_report_8x8, "gpu-8x8"),
		FX(test_gpu_report_remote, "gpu-remote"),
		FX(test_gpu_report_none, "two-socket"),
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_alloc_huge),
		cmocka_unit_test(test_apply_live),
		cmocka_unit_test(test_cpu_freq),
		cmocka_unit_test(test_tsc_untrusted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
