// SPDX-License-Identifier: MIT
/*
 * topo.c's decisions on the machines in tests/data/topo (see its README):
 * pure helpers, sysfs reading, device locality and placement choices.
 */
#include "topo_fx.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcie_gts),
		cmocka_unit_test(test_pcie_ceiling),
		cmocka_unit_test(test_cpus_format),
		cmocka_unit_test(test_cpus_parse),
		cmocka_unit_test(test_wcode_names),
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
