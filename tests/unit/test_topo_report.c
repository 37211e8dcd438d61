// SPDX-License-Identifier: MIT
/*
 * topo.c's warnings and report on the machines in tests/data/topo, and
 * what the live layer can do on any Linux host: buffers bound to a node,
 * and binding to an explicit CPU.
 */
#include "topo_fx.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		FX(test_warn_healthy, "two-socket"),  FX(test_warn_link, "x8-of-x16"),
		FX(test_warn_unknown, "no-locality"), FX(test_warn_odd, "odd-nodes"),
		FX(test_warn_single, "single-node"),  FX(test_report, "two-socket"),
		FX(test_report_one, "x8-of-x16"),     FX(test_report_fail, "two-socket"),
		cmocka_unit_test(test_alloc),	      cmocka_unit_test(test_alloc_huge),
		cmocka_unit_test(test_apply_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
