// SPDX-License-Identifier: MIT
/*
 * GPUs against RDMA devices (topo_gpu.c) on the machines in
 * tests/data/topo, the probe's placement decisions, and the measuring
 * CPU's clock (tests/data/cpufreq).
 */
#include "topo_fx.h"

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
		cmocka_unit_test(test_irqs_governors),	FX(test_probe_place, "two-socket"),
		cmocka_unit_test(test_gpu_rel_names),	FX(test_gpu_8x8, "gpu-8x8"),
		FX(test_gpu_remote, "gpu-remote"),	FX(test_gpu_sysfs_node, "gpu-remote"),
		FX(test_gpu_report_8x8, "gpu-8x8"),	FX(test_gpu_report_remote, "gpu-remote"),
		FX(test_gpu_report_none, "two-socket"), cmocka_unit_test(test_cpu_freq),
		cmocka_unit_test(test_tsc_untrusted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
