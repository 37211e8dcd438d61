// SPDX-License-Identifier: MIT
/*
 * rdmabench doctor: every verdict function on values (ok, warn, fail and
 * n/a where a check has them), then the checks reading the two fixture
 * hosts of tests/data/doctor (see its README), an empty root, the JSON.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
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

#include "doctor/doctor.h"
#include "tree_fx.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

/* ---- the verdicts -------------------------------------------------------- */

static void test_v_port(void **state)
{
	assert_int_equal(rb_dr_v_port("ACTIVE", "LinkUp"), RB_DR_OK);
	assert_int_equal(rb_dr_v_port("INIT", "LinkUp"), RB_DR_WARN);
	assert_int_equal(rb_dr_v_port("ARMED", "LinkUp"), RB_DR_WARN);
	assert_int_equal(rb_dr_v_port("DOWN", "Disabled"), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_port("ACTIVE", "Polling"), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_port("", ""), RB_DR_NA);
}

static void test_v_verbs(void **state)
{
	assert_int_equal(rb_dr_v_verbs(2, 2), RB_DR_OK);
	assert_int_equal(rb_dr_v_verbs(2, 1), RB_DR_WARN);
	assert_int_equal(rb_dr_v_verbs(2, 0), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_verbs(0, 0), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_verbs(1, -ENOSYS), RB_DR_NA);
}

static void test_v_pcie(void **state)
{
	assert_int_equal(rb_dr_v_pcie(16, 16, 16, 16), RB_DR_OK);
	assert_int_equal(rb_dr_v_pcie(16, 8, 16, 16), RB_DR_FAIL); /* half: fails */
	assert_int_equal(rb_dr_v_pcie(8, 16, 16, 16), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_pcie(16, 12, 16, 16), RB_DR_WARN);
	assert_int_equal(rb_dr_v_pcie(2.5, 8, 8, 8), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_pcie(0, 16, 16, 16), RB_DR_NA);
	assert_int_equal(rb_dr_v_pcie_share(0, 0), RB_DR_OK);
	assert_int_equal(rb_dr_v_pcie_share(1, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_pcie_share(0, 2), RB_DR_WARN);
	assert_int_equal(rb_dr_v_pcie_share(-1, 0), RB_DR_NA);
}

static void test_v_numa(void **state)
{
	assert_int_equal(rb_dr_v_numa(1, 2, 4, 8u << 20), RB_DR_OK);
	assert_int_equal(rb_dr_v_numa(-1, 1, 0, 0), RB_DR_OK); /* one node */
	assert_int_equal(rb_dr_v_numa(-1, 2, 0, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_numa(2, 3, 0, 8u << 20), RB_DR_WARN); /* memory only */
	assert_int_equal(rb_dr_v_numa(1, 2, 4, 100 << 10), RB_DR_WARN);
	assert_int_equal(rb_dr_v_numa(0, 0, 0, 0), RB_DR_NA);
}

static void test_v_irq_cpu(void **state)
{
	assert_int_equal(rb_dr_v_irq(4, 4), RB_DR_OK);
	assert_int_equal(rb_dr_v_irq(4, 3), RB_DR_WARN);
	assert_int_equal(rb_dr_v_irq(4, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_irq(0, 0), RB_DR_NA);
	assert_int_equal(rb_dr_v_governor(4, 4), RB_DR_OK);
	assert_int_equal(rb_dr_v_governor(4, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_governor(0, 0), RB_DR_NA);
	assert_int_equal(rb_dr_v_ecn(1, 1), RB_DR_OK);
	assert_int_equal(rb_dr_v_ecn(0, 1), RB_DR_WARN);
	assert_int_equal(rb_dr_v_ecn(0, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_ecn(-1, -1), RB_DR_NA);
	assert_int_equal(rb_dr_v_cstates(3, 2), RB_DR_OK);
	assert_int_equal(rb_dr_v_cstates(3, -1), RB_DR_OK);
	assert_int_equal(rb_dr_v_cstates(3, 133), RB_DR_WARN);
	assert_int_equal(rb_dr_v_cstates(0, -1), RB_DR_NA);
	assert_int_equal(rb_dr_v_smt(0), RB_DR_OK);
	assert_int_equal(rb_dr_v_smt(1), RB_DR_WARN);
	assert_int_equal(rb_dr_v_smt(-1), RB_DR_NA);
}

static void test_v_memory(void **state)
{
	assert_int_equal(rb_dr_v_memlock(UINT64_MAX, 1 << 20, false), RB_DR_OK);
	assert_int_equal(rb_dr_v_memlock(8 << 20, 1 << 20, false), RB_DR_OK);
	assert_int_equal(rb_dr_v_memlock(64 << 10, 1 << 20, false), RB_DR_FAIL);
	assert_int_equal(rb_dr_v_memlock(64 << 10, 1 << 20, true), RB_DR_WARN);
	assert_int_equal(rb_dr_v_hugepages(1024, 10), RB_DR_OK);
	assert_int_equal(rb_dr_v_hugepages(1024, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_hugepages(0, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_hugepages(-1, -1), RB_DR_NA);
	assert_int_equal(rb_dr_v_thp("always"), RB_DR_OK);
	assert_int_equal(rb_dr_v_thp("madvise"), RB_DR_OK);
	assert_int_equal(rb_dr_v_thp("never"), RB_DR_WARN);
	assert_int_equal(rb_dr_v_thp(""), RB_DR_NA);
}

static void test_v_iommu(void **state)
{
	assert_int_equal(rb_dr_iommu_mode(0, 0, "root=/dev/sda1", NULL), RB_DR_IOMMU_OFF);
	assert_int_equal(rb_dr_iommu_mode(-ENOENT, -ENOENT, "", NULL), RB_DR_IOMMU_UNKNOWN);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "ro iommu=pt", NULL), RB_DR_IOMMU_PT);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "iommu.passthrough=1 ro", NULL), RB_DR_IOMMU_PT);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "ro", "identity"), RB_DR_IOMMU_PT);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "ro", "DMA-FQ"), RB_DR_IOMMU_DMA);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "ro", NULL), RB_DR_IOMMU_DMA);
	assert_int_equal(rb_dr_iommu_mode(1, 9, "ro intel_iommu=off", NULL), RB_DR_IOMMU_OFF);
	/* a word, not a part of one */
	assert_int_equal(rb_dr_iommu_mode(1, 9, "xiommu=pt", NULL), RB_DR_IOMMU_DMA);
	assert_int_equal(rb_dr_v_iommu(RB_DR_IOMMU_OFF), RB_DR_OK);
	assert_int_equal(rb_dr_v_iommu(RB_DR_IOMMU_PT), RB_DR_OK);
	assert_int_equal(rb_dr_v_iommu(RB_DR_IOMMU_DMA), RB_DR_WARN);
	assert_int_equal(rb_dr_v_iommu(RB_DR_IOMMU_UNKNOWN), RB_DR_NA);
}

static void test_v_roce(void **state)
{
	assert_int_equal(rb_dr_v_roce_gid(2, 2), RB_DR_OK);
	assert_int_equal(rb_dr_v_roce_gid(0, 1), RB_DR_WARN);
	assert_int_equal(rb_dr_v_roce_gid(0, 0), RB_DR_FAIL);
	assert_int_equal(rb_dr_roce_mtu(1500), 1024);
	assert_int_equal(rb_dr_roce_mtu(9000), 4096);
	assert_int_equal(rb_dr_roce_mtu(4192), 4096);
	assert_int_equal(rb_dr_roce_mtu(4191), 2048);
	assert_int_equal(rb_dr_roce_mtu(1110), 512);
	assert_int_equal(rb_dr_roce_mtu(300), 0);
	assert_int_equal(rb_dr_v_mtu(1500, 1024, 4096), RB_DR_OK);
	assert_int_equal(rb_dr_v_mtu(9000, 4096, 4096), RB_DR_OK);
	assert_int_equal(rb_dr_v_mtu(9000, 2048, 2048), RB_DR_OK);   /* the port's largest */
	assert_int_equal(rb_dr_v_mtu(1110, 1024, 4096), RB_DR_WARN); /* rxe's rule, not iboe's */
	assert_int_equal(rb_dr_v_mtu(9000, 1024, 4096), RB_DR_WARN);
	assert_int_equal(rb_dr_v_mtu(1500, 0, 0), RB_DR_NA);
	assert_int_equal(rb_dr_v_rp_filter(0, 2), RB_DR_OK);
	assert_int_equal(rb_dr_v_rp_filter(1, 0), RB_DR_WARN);
	assert_int_equal(rb_dr_v_rp_filter(0, 1), RB_DR_WARN);
	assert_int_equal(rb_dr_v_rp_filter(-1, -1), RB_DR_NA);
	assert_int_equal(rb_dr_v_rdma_cm(true), RB_DR_OK);
	assert_int_equal(rb_dr_v_rdma_cm(false), RB_DR_WARN);
}

/* ---- the fixture hosts --------------------------------------------------- */

struct fx {
	char tmp[PATH_MAX];
	struct rb_dr_env env;
	struct rb_dr_report r;
};

static int fake_mtu = 4096;

static const char *fake_verbs_version(char *buf, size_t len)
{
	snprintf(buf, len, "1.14.50.0");
	return buf;
}

static int fake_verbs_one(void)
{
	return 1;
}

static int fake_verbs_none(void)
{
	return 0;
}

static int fake_port_mtu(const char *dev, int port, int *active, int *max)
{
	*active = fake_mtu;
	*max = 4096;
	return 0;
}

static char copy_from[PATH_MAX], copy_to[PATH_MAX];

/* nftw: each directory and file of the fixture into the scratch root. */
static int copy_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char at[PATH_MAX], buf[4096];
	ssize_t n;
	int in, out;

	pathf(at, sizeof(at), "%s%s", copy_to, path + strlen(copy_from));
	if (flag == FTW_D)
		return mkdir(at, 0755) && errno != EEXIST ? -1 : 0;
	if (flag != FTW_F)
		return 0;
	in = open(path, O_RDONLY);
	out = open(at, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, n), n);
	close(in);
	close(out);
	return in < 0 || out < 0 ? -1 : 0;
}

/* A scratch root holding host @name ("" for an empty root). */
static struct fx *fx_new(const char *name)
{
	struct fx *f = calloc(1, sizeof(*f));
	const char *tmpdir = getenv("TMPDIR");

	assert_non_null(f);
	pathf(f->tmp, sizeof(f->tmp), "%s/rb-doctor-XXXXXX", tmpdir ? tmpdir : "/tmp");
	assert_non_null(mkdtemp(f->tmp));
	if (name[0]) {
		pathf(copy_from, sizeof(copy_from), "%s/doctor/%s", TEST_DATA_DIR, name);
		pathf(copy_to, sizeof(copy_to), "%s", f->tmp);
		assert_int_equal(nftw(copy_from, copy_entry, 16, FTW_PHYS), 0);
		make_links(copy_from, f->tmp);
	}
	f->env = (struct rb_dr_env){ .root = f->tmp,
				     .memlock = 1ull << 30,
				     .memlock_need = 258 << 10,
				     .verbs_devices = fake_verbs_one,
				     .verbs_version = fake_verbs_version,
				     .port_mtu = fake_port_mtu };
	return f;
}

static void fx_free(struct fx *f)
{
	rm_tree(f->tmp);
	rb_dr_report_free(&f->r);
	free(f);
}

static const struct rb_dr_check *find(const struct fx *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->r.n; i++)
		if (!strcmp(f->r.c[i].name, name))
			return &f->r.c[i];
	fail_msg("no check %s", name);
	return NULL;
}

static const char *const all_checks[] = { "verbs",	"rdma_cm", "device",	"port",
					  "roce_gid",	"mtu",	   "rp_filter", "pcie",
					  "pcie_share", "numa",	   "irq",	"governor",
					  "hugepages",	"smt",	   "memlock",	"thp",
					  "iommu",	"cstates", "ecn",	NULL };

static void test_good_host(void **state)
{
	struct fx *f = fx_new("good");
	size_t i;

	fake_mtu = 4096;
	assert_int_equal(rb_dr_run(&f->env, NULL, &f->r), 0);
	for (i = 0; all_checks[i]; i++)
		find(f, all_checks[i]);
	for (i = 0; i < f->r.n; i++) {
		if (f->r.c[i].v != RB_DR_OK)
			fail_msg("%s %s: %s (%s)", f->r.c[i].name, rb_dr_verdict_name(f->r.c[i].v),
				 f->r.c[i].value, f->r.c[i].source);
		assert_string_equal(f->r.c[i].fix, "");
	}
	assert_string_equal(find(f, "port")->subject, "mlx5_0/1");
	assert_string_equal(find(f, "port")->source, "/sys/class/infiniband/mlx5_0/ports/1/state");
	assert_non_null(strstr(find(f, "port")->value, "ACTIVE, LinkUp, 100 Gb/sec"));
	/* The provider's row names the device's family and transport. */
	assert_non_null(strstr(find(f, "device")->value, "provider mlx5 (InfiniBand/RoCE)"));
	assert_non_null(strstr(find(f, "numa")->value, "node 1, 4 CPU(s) (4-7)"));
	assert_non_null(strstr(find(f, "irq")->value, "2 of 2 IRQ(s)"));
	assert_non_null(strstr(find(f, "pcie_share")->value, "0 GPU(s), 0 NVMe"));
	assert_non_null(strstr(find(f, "iommu")->value, "passthrough"));
	assert_string_equal(find(f, "verbs")->value, "1 device(s) in sysfs, 1 from libibverbs "
						     "1.14.50.0");
	assert_string_equal(find(f, "governor")->subject, "node1");
	assert_string_equal(find(f, "governor")->value, "4 of 4 CPU(s) at performance; cpu4 at "
							"2.40 of 3.50 GHz");
	assert_string_equal(find(f, "cstates")->value, "deepest enabled C1, exit latency 2 us, of "
						       "3 state(s) (driver intel_idle)");
	assert_int_equal(rb_dr_worst(&f->r), RB_DR_OK);
	fx_free(f);
}

struct want {
	const char *name;
	enum rb_dr_verdict v;
	const char *fix; /* a part of the fix */
};

static const struct want bad_wants[] = {
	{ "verbs", RB_DR_FAIL, "apt-get install ibverbs-providers" },
	{ "rdma_cm", RB_DR_WARN, "modprobe rdma_ucm" },
	{ "device", RB_DR_OK, "" },
	{ "port", RB_DR_FAIL, "ip link set dev ens1f0np0 up" },
	{ "roce_gid", RB_DR_WARN, "ip addr add ADDR/PREFIX dev ens1f0np0" },
	{ "mtu", RB_DR_WARN, "ip link set dev ens1f0np0 mtu 4192" },
	{ "rp_filter", RB_DR_WARN, "net.ipv4.conf.all.rp_filter=2" },
	{ "pcie", RB_DR_FAIL, "lspci -s 0000:83:00.0 -vv" },
	{ "pcie_share", RB_DR_WARN, "lspci -t" },
	{ "numa", RB_DR_WARN, "drop_caches" },
	{ "irq", RB_DR_WARN,
	  "systemctl stop irqbalance; for i in 40; do echo 4-7 > /proc/irq/$i/smp_affinity_list" },
	{ "governor", RB_DR_WARN, "cpupower frequency-set -g performance" },
	{ "hugepages", RB_DR_WARN, "/sys/devices/system/node/node1/hugepages" },
	{ "smt", RB_DR_WARN, "smt/control" },
	{ "memlock", RB_DR_FAIL, "ulimit -l unlimited" },
	{ "thp", RB_DR_WARN, "transparent_hugepage/enabled" },
	{ "iommu", RB_DR_WARN, "iommu=pt" },
	{ "cstates", RB_DR_WARN, "cpupower idle-set -D 10" },
	{ "ecn", RB_DR_WARN, "echo 1 > /sys/class/net/ens1f0np0/ecn/roce_np/enable/3" },
};

static void test_bad_host(void **state)
{
	struct fx *f = fx_new("bad");
	const struct rb_dr_check *c;
	size_t i;

	f->env.memlock = 64 << 10;
	f->env.verbs_devices = fake_verbs_none;
	fake_mtu = 4096;
	assert_int_equal(rb_dr_run(&f->env, "mlx5_0", &f->r), 0);
	for (i = 0; i < sizeof(bad_wants) / sizeof(bad_wants[0]); i++) {
		c = find(f, bad_wants[i].name);
		if (c->v != bad_wants[i].v || !strstr(c->fix, bad_wants[i].fix))
			fail_msg("%s: %s, fix '%s' (%s)", c->name, rb_dr_verdict_name(c->v), c->fix,
				 c->value);
		assert_true(c->v == RB_DR_OK || c->why[0]);
	}
	assert_non_null(strstr(find(f, "pcie_share")->value, "1 GPU(s), 1 NVMe drive(s)"));
	assert_non_null(strstr(find(f, "iommu")->value, "translated"));
	assert_non_null(strstr(find(f, "memlock")->value, "limit 64 KiB"));
	assert_non_null(strstr(find(f, "mtu")->value, "mtu 1500 carries RDMA MTU 1024"));
	assert_non_null(strstr(find(f, "cstates")->value, "deepest enabled C6, exit latency 133 "
							  "us"));
	assert_int_equal(rb_dr_worst(&f->r), RB_DR_FAIL);
	fx_free(f);
}

/* CAP_IPC_LOCK lifts the limit for this process: a warning, not a failure. */
static void test_memlock_cap(void **state)
{
	struct fx *f = fx_new("bad");
	char path[PATH_MAX];
	FILE *st;

	pathf(path, sizeof(path), "%s/proc/self/status", f->tmp);
	st = fopen(path, "w");
	assert_non_null(st);
	fputs("Name:\trdmabench\nCapEff:\t000001ffffffffff\n", st);
	fclose(st);
	f->env.memlock = 64 << 10;
	assert_int_equal(rb_dr_run(&f->env, NULL, &f->r), 0);
	assert_int_equal(find(f, "memlock")->v, RB_DR_WARN);
	assert_non_null(strstr(find(f, "memlock")->value, "CAP_IPC_LOCK"));
	fx_free(f);
}

/* Nothing under the root: no device fails, the rest is n/a. */
static void test_empty_root(void **state)
{
	struct fx *f = fx_new("");
	size_t i;

	f->env.verbs_devices = fake_verbs_none;
	assert_int_equal(rb_dr_run(&f->env, NULL, &f->r), 0);
	assert_int_equal(find(f, "verbs")->v, RB_DR_FAIL);
	assert_non_null(strstr(find(f, "verbs")->fix, "rdma link add"));
	assert_int_equal(find(f, "rdma_cm")->v, RB_DR_WARN);
	assert_int_equal(find(f, "memlock")->v, RB_DR_OK);
	for (i = 0; i < f->r.n; i++)
		if (strcmp(f->r.c[i].name, "verbs") && strcmp(f->r.c[i].name, "rdma_cm") &&
		    strcmp(f->r.c[i].name, "memlock"))
			assert_int_equal(f->r.c[i].v, RB_DR_NA);
	fx_free(f);
}

static void test_no_such_device(void **state)
{
	struct fx *f = fx_new("good");

	assert_int_equal(rb_dr_run(&f->env, "mlx5_9", &f->r), -ENOENT);
	fx_free(f);
}

static void test_json(void **state)
{
	struct fx *f = fx_new("bad");
	json_t *doc, *c;

	f->env.memlock = 64 << 10;
	assert_int_equal(rb_dr_run(&f->env, NULL, &f->r), 0);
	doc = rb_dr_json(&f->r, "/x");
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")), 1);
	assert_string_equal(json_string_value(json_object_get(doc, "tool")), "rdmabench");
	assert_non_null(json_string_value(json_object_get(doc, "version")));
	assert_string_equal(json_string_value(json_object_get(doc, "command")), "doctor");
	assert_string_equal(json_string_value(json_object_get(doc, "verdict")), "fail");
	assert_int_equal(json_array_size(json_object_get(doc, "checks")), f->r.n);
	c = json_array_get(json_object_get(doc, "checks"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "check")), "verbs");
	assert_string_equal(json_string_value(json_object_get(c, "verdict")), "ok");
	assert_true(json_is_null(json_object_get(c, "fix")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "summary"), "fai"
											     "l")),
			 3);
	json_decref(doc);
	fx_free(f);
}

static json_t *end(const char *dev, const char *ll, int mtu, const char *gid, const char *fw)
{
	return json_pack("{s:s, s:i, s:s, s:i, s:s, s:s}", "device", dev, "port", 1, "link_layer",
			 ll, "active_mtu", mtu, "gid_type", gid, "fw_ver", fw);
}

static const struct rb_dr_check *check_named(const struct rb_dr_report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	fail_msg("no check %s", name);
	return NULL;
}

/* doctor HOST: what the two ends of the path must agree on. */
static void test_path_compare(void **state)
{
	json_t *a = end("mlx5_0", "Ethernet", 4096, "RoCE v2", "28.39.1002");
	json_t *b = end("mlx5_1", "Ethernet", 4096, "RoCE v2", "28.39.1002");
	struct rb_dr_report r = { 0 };
	const struct rb_dr_check *c;

	(void)state;
	assert_int_equal(rb_dr_path_compare(a, b, &r), 0);
	assert_int_equal(r.n, 4);
	assert_int_equal(rb_dr_worst(&r), RB_DR_OK);
	c = check_named(&r, "path_mtu");
	assert_string_equal(c->subject, "mlx5_0/1 - mlx5_1/1");
	assert_string_equal(c->value, "4096 here, 4096 on the peer");
	assert_string_equal(c->fix, "");
	rb_dr_report_free(&r);
	json_decref(b);

	/* The peer at MTU 1024 and another firmware: warnings with fixes. */
	b = end("mlx5_1", "Ethernet", 1024, "RoCE v2", "22.31.1014");
	assert_int_equal(rb_dr_path_compare(a, b, &r), 0);
	assert_int_equal(check_named(&r, "path_mtu")->v, RB_DR_WARN);
	assert_string_equal(check_named(&r, "path_mtu")->value, "4096 here, 1024 on the peer");
	assert_non_null(strstr(check_named(&r, "path_mtu")->fix, "ip link set dev"));
	assert_int_equal(check_named(&r, "path_firmware")->v, RB_DR_WARN);
	assert_int_equal(check_named(&r, "path_link_layer")->v, RB_DR_OK);
	assert_int_equal(rb_dr_worst(&r), RB_DR_WARN);
	rb_dr_report_free(&r);
	json_decref(b);

	/* InfiniBand against Ethernet, RoCE v1 against v2: failures. */
	b = end("mlx5_1", "InfiniBand", 4096, "RoCE v1", "28.39.1002");
	assert_int_equal(rb_dr_path_compare(a, b, &r), 0);
	assert_int_equal(check_named(&r, "path_link_layer")->v, RB_DR_FAIL);
	assert_int_equal(check_named(&r, "path_gid_type")->v, RB_DR_FAIL);
	assert_int_equal(rb_dr_worst(&r), RB_DR_FAIL);
	rb_dr_report_free(&r);
	json_decref(b);

	/* Firmware neither side knows (rxe): n/a, not a difference. */
	json_decref(a);
	a = end("rxe0", "Ethernet", 1024, "RoCE v2", "");
	b = end("rxe1", "Ethernet", 1024, "RoCE v2", "");
	assert_int_equal(rb_dr_path_compare(a, b, &r), 0);
	assert_int_equal(check_named(&r, "path_firmware")->v, RB_DR_NA);
	assert_int_equal(rb_dr_worst(&r), RB_DR_OK);
	rb_dr_report_free(&r);
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v_port),	       cmocka_unit_test(test_v_verbs),
		cmocka_unit_test(test_v_pcie),	       cmocka_unit_test(test_v_numa),
		cmocka_unit_test(test_v_irq_cpu),      cmocka_unit_test(test_v_memory),
		cmocka_unit_test(test_v_iommu),	       cmocka_unit_test(test_v_roce),
		cmocka_unit_test(test_good_host),      cmocka_unit_test(test_bad_host),
		cmocka_unit_test(test_memlock_cap),    cmocka_unit_test(test_empty_root),
		cmocka_unit_test(test_no_such_device), cmocka_unit_test(test_json),
		cmocka_unit_test(test_path_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
