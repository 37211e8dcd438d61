// SPDX-License-Identifier: MIT
/*
 * The live machine behind topo.c's decisions: hwloc's view of this host,
 * /sys, the thread's affinity and memory policy, recent CPU load, verbs for
 * what sysfs does not say (active MTU), and the binding itself.  Kept thin:
 * every choice is made in topo.c, where the unit tests reach it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <time.h>
#include <linux/mman.h> /* MAP_HUGE_2MB */

#include <infiniband/verbs.h>
#include <numa.h>
#include <numaif.h>

#include "topo/topo.h"

#define SYSROOT "/sys"
/* How long to watch /proc/stat for busy CPUs, and what counts as busy. */
#define LOAD_SAMPLE_NS	   (50 * 1000 * 1000L)
#define LOAD_BUSY_FRACTION 0.5

/*
 * The thread's affinity at the first call.  Later calls decide from it, not
 * from the binding an earlier call made (which would look like taskset).
 * Like locality_said, process-wide: rb_place_apply() is meant to be called
 * by one thread at a time.
 */
static hwloc_bitmap_t initial_affinity;
static int locality_said;

/* Per-CPU busy and total jiffies from /proc/stat, indexed by CPU. */
static int read_cpu_times(unsigned long long *busy, unsigned long long *total, int ncpu)
{
	unsigned long long v[8];
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int cpu;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		memset(v, 0, sizeof(v));
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 ||
		    cpu < 0 || cpu >= ncpu)
			continue;
		/* user nice system idle iowait irq softirq steal */
		busy[cpu] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		total[cpu] = busy[cpu] + v[3] + v[4];
	}
	fclose(f);
	return 0;
}

/*
 * CPUs more than half busy over a short window: a peer process already
 * polling there (client and server on one host).  NULL when it cannot be
 * told; then auto takes the node's first core.
 */
static hwloc_bitmap_t loaded_cpus(hwloc_topology_t topo)
{
	int n = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(topo)) + 1;
	struct timespec ts = { 0, LOAD_SAMPLE_NS };
	unsigned long long *t;
	hwloc_bitmap_t set = NULL;
	int i;

	t = n > 0 ? calloc(4 * (size_t)n, sizeof(*t)) : NULL;
	if (!t || read_cpu_times(t, t + n, n))
		goto out;
	nanosleep(&ts, NULL);
	if (read_cpu_times(t + 2 * n, t + 3 * n, n))
		goto out;
	set = hwloc_bitmap_alloc();
	for (i = 0; set && i < n; i++) {
		double dt = (double)(t[3 * n + i] - t[n + i]);
		double db = (double)(t[2 * n + i] - t[i]);

		if (dt > 0 && db > LOAD_BUSY_FRACTION * dt)
			hwloc_bitmap_set(set, i);
	}
out:
	free(t);
	return set;
}

/* A memory policy the user set (numactl -m/-p/-i): kept by --numa auto. */
static void read_mem_policy(struct rb_place_in *in)
{
	struct bitmask *mask;
	int mode;

	in->membind_ok = numa_available() >= 0;
	in->mem_policy = false;
	in->mem_policy_node = -1;
	if (!in->membind_ok)
		return;
	mask = numa_allocate_nodemask();
	if (!mask)
		return;
	if (!get_mempolicy(&mode, mask->maskp, mask->size + 1, NULL, 0) && mode != MPOL_DEFAULT) {
		in->mem_policy = true;
		if (numa_bitmask_weight(mask) == 1)
			for (in->mem_policy_node = 0;
			     !numa_bitmask_isbitset(mask, in->mem_policy_node);
			     in->mem_policy_node++)
				;
	}
	numa_bitmask_free(mask);
}

/* Where the device sits (no ports: placement needs none); @ibdev NULL: the first device sysfs lists. */
static int live_dev(const char *ibdev, struct rb_dev_info *d)
{
	char **names, path[512];
	int n, ret;

	/* A name sysfs lacks (a socket test's interface, without an RDMA
	 * device over it): no locality, said by the caller, not an error. */
	snprintf(path, sizeof(path), "%s/class/infiniband/%s", SYSROOT, ibdev ? ibdev : "");
	if (ibdev && access(path, F_OK))
		return -ENODEV;
	if (ibdev)
		return rb_dev_locate(SYSROOT, ibdev, d);
	ret = rb_dev_list(SYSROOT, &names, &n);
	if (ret)
		return ret;
	ret = n ? rb_dev_locate(SYSROOT, names[0], d) : -ENODEV;
	rb_dev_list_free(names, n);
	return ret;
}

static hwloc_const_cpuset_t thread_affinity(hwloc_topology_t topo)
{
	if (initial_affinity)
		return initial_affinity;
	initial_affinity = hwloc_bitmap_alloc();
	if (!initial_affinity)
		return hwloc_topology_get_allowed_cpuset(topo);
	if (hwloc_get_cpubind(topo, initial_affinity, HWLOC_CPUBIND_THREAD))
		hwloc_bitmap_copy(initial_affinity, hwloc_topology_get_allowed_cpuset(topo));
	return initial_affinity;
}

/* Bind as planned, or go back to the initial affinity when unbound. */
static int apply_bind(hwloc_topology_t topo, const struct rb_place_plan *plan,
		      hwloc_const_cpuset_t initial)
{
	hwloc_const_cpuset_t set = plan->bind ? plan->bind : initial;
	char list[128];
	int ret;

	if (!hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD))
		return 0;
	ret = -errno;
	rb_warn("cannot bind the thread to CPUs %s: %s", rb_cpus_format(set, list, sizeof(list)),
		strerror(errno));
	return ret;
}

/* Say what the plan means, once where it matters. */
static void say_plan(const struct rb_dev_info *d, const struct rb_place_in *in,
		     const struct rb_place_plan *plan)
{
	char list[128];

	if (plan->unknown && !locality_said++)
		rb_warn("%s: NUMA locality unknown (%s)%s", in->dev,
			!d->pci[0] ? "no PCI function found"
				   : "its PCI function reports no NUMA node",
			strcmp(in->cpu_opt, "auto") || in->threads > 1 ? "" : "; running unbound");
	if (plan->kept_affinity)
		rb_info("keeping the CPU affinity already set: CPU%s %s",
			hwloc_bitmap_weight(plan->cpus) == 1 ? "" : "s",
			rb_cpus_format(plan->cpus, list, sizeof(list)));
	if (plan->warning[0])
		rb_warn("%s", plan->warning);
	if (plan->shared)
		rb_warn("--threads %u: more threads than CPUs; thread %u shares CPU %s",
			in->threads, in->thread, rb_cpus_format(plan->cpus, list, sizeof(list)));
	if (rb_verbose)
		rb_info("%s: NUMA node %d, thread on CPUs %s, buffers on node %d", in->dev,
			plan->dev_node, rb_cpus_format(plan->cpus, list, sizeof(list)),
			plan->mem_node);
}

/*
 * Decide and bind.  When the options cannot be honoured, or the binding
 * fails, decide again from where the thread really stays, so that @out
 * always tells the truth.
 */
static int place(struct rb_place_in *in, const struct rb_dev_info *d, struct rb_placement *out)
{
	struct rb_place_plan plan;
	hwloc_bitmap_t now;
	int ret, bret;

	ret = rb_place_decide(in, &plan);
	if (ret) {
		in->cpu_opt = "none";
		in->numa_opt = "none";
		if (rb_place_decide(in, &plan))
			return ret;
	}
	bret = apply_bind(in->topo, &plan, in->current);
	now = bret ? hwloc_bitmap_alloc() : NULL;
	if (now && !hwloc_get_cpubind(in->topo, now, HWLOC_CPUBIND_THREAD)) {
		/* A failed explicit --cpu is an error; auto carries on. */
		if (!ret && plan.bind && strcmp(in->cpu_opt, "auto"))
			ret = bret;
		rb_place_plan_fini(&plan);
		in->current = now;
		in->cpu_opt = "none";
		if (rb_place_decide(in, &plan)) {
			hwloc_bitmap_free(now);
			return ret ? ret : -ENOMEM;
		}
	}
	if (!ret)
		say_plan(d, in, &plan);
	rb_place_fill(&plan, out);
	rb_place_plan_fini(&plan);
	hwloc_bitmap_free(now);
	return ret;
}

/* The clock of the CPU that measures: the first bound, else the one it runs on. */
static void measuring_cpu_freq(struct rb_placement *out)
{
	char *end;
	long cpu = strtol(out->cpus, &end, 10);

	if (end == out->cpus || cpu < 0 || cpu > 65535)
		cpu = sched_getcpu();
	rb_cpu_freq(SYSROOT, (int)cpu, out);
}

/* What say_plan() would say, as one line into @note (--dry-run). */
static void plan_note(const struct rb_place_in *in, const struct rb_place_plan *plan, char *note,
		      size_t len)
{
	char list[128];
	size_t n = 0;

	note[0] = '\0';
	if (plan->unknown)
		n += (size_t)snprintf(note + n, len - n, "NUMA locality of %s unknown; ", in->dev);
	if (plan->kept_affinity && n < len)
		n += (size_t)snprintf(note + n, len - n,
				      "keeps the CPU affinity already set (%s); ",
				      rb_cpus_format(plan->cpus, list, sizeof(list)));
	if (plan->warning[0] && n < len)
		n += (size_t)snprintf(note + n, len - n, "%s; ", plan->warning);
	if (plan->shared && n < len)
		n += (size_t)snprintf(note + n, len - n, "more threads than CPUs; ");
	if (n >= 2 && n < len)
		note[n - 2] = '\0'; /* the last "; " */
}

/* Decide without binding: what place() would choose. */
static int preview(struct rb_place_in *in, struct rb_placement *out, char *note, size_t len)
{
	struct rb_place_plan plan;
	int ret = rb_place_decide(in, &plan);

	if (ret)
		return ret;
	plan_note(in, &plan, note, len);
	rb_place_fill(&plan, out);
	rb_place_plan_fini(&plan);
	return 0;
}

/* With @note NULL decide and bind; else only decide, and say it into @note. */
static int place_apply(const char *ibdev, const char *cpu_opt, const char *numa_opt,
		       const char *peer_cpus, uint32_t thread, uint32_t threads,
		       struct rb_placement *out, char *note, size_t len)
{
	struct rb_place_in in = {
		.sysroot = SYSROOT,
		.dev = ibdev ? ibdev : "the RDMA device",
		.cpu_opt = cpu_opt,
		.numa_opt = numa_opt,
		.thread = thread,
		.threads = threads,
	};
	struct rb_dev_info d;
	hwloc_bitmap_t loaded = NULL, peer;
	int ret;

	out->device_numa_node = -1;
	out->cpus[0] = '\0';
	out->mem_node = -1;
	out->local = -1;
	out->pci[0] = '\0';
	memset(&out->pcie, 0, sizeof(out->pcie));
	rb_cpu_freq(SYSROOT, -1, out);
	ret = rb_topo_load(&in.topo, NULL);
	if (ret)
		return ret;
	/* A device we cannot read is logged there and has no locality. */
	in.dev_node = -1;
	if (!live_dev(ibdev, &d)) {
		in.dev = d.name;
		in.dev_node = rb_topo_dev_node(in.topo, &d);
		/* The link the same walk read, for JSON device.pcie. */
		snprintf(out->pci, sizeof(out->pci), "%s", d.pci);
		out->pcie = d.link;
	} else {
		memset(&d, 0, sizeof(d));
	}
	in.current = thread_affinity(in.topo);
	/* The threads of a run must order the CPUs alike: no sampling. */
	if (!strcmp(cpu_opt, "auto") && threads <= 1)
		loaded = loaded_cpus(in.topo);
	in.loaded = loaded;
	peer = peer_cpus ? hwloc_bitmap_alloc() : NULL;
	if (peer && !rb_cpus_parse(peer_cpus, peer) && !hwloc_bitmap_iszero(peer))
		in.peer = peer;
	read_mem_policy(&in);
	ret = note ? preview(&in, out, note, len) : place(&in, &d, out);
	if (!ret)
		measuring_cpu_freq(out);
	hwloc_bitmap_free(peer);
	hwloc_bitmap_free(loaded);
	rb_dev_info_free(&d);
	hwloc_topology_destroy(in.topo);
	return ret;
}

int rb_place_apply(const char *ibdev, const char *cpu_opt, const char *numa_opt,
		   const char *peer_cpus, struct rb_placement *out)
{
	return rb_place_apply_thread(ibdev, cpu_opt, numa_opt, peer_cpus, 0, 1, out);
}

/* The statics above (initial_affinity, locality_said) are shared. */
static pthread_mutex_t place_lock = PTHREAD_MUTEX_INITIALIZER;

int rb_place_apply_thread(const char *ibdev, const char *cpu_opt, const char *numa_opt,
			  const char *peer_cpus, uint32_t thread, uint32_t threads,
			  struct rb_placement *out)
{
	int ret;

	pthread_mutex_lock(&place_lock);
	ret = place_apply(ibdev, cpu_opt, numa_opt, peer_cpus, thread, threads, out, NULL, 0);
	pthread_mutex_unlock(&place_lock);
	return ret;
}

int rb_place_preview(const char *ibdev, const char *cpu_opt, const char *numa_opt, uint32_t thread,
		     uint32_t threads, struct rb_placement *out, char *note, size_t len)
{
	int ret;

	pthread_mutex_lock(&place_lock);
	ret = place_apply(ibdev, cpu_opt, numa_opt, NULL, thread, threads, out, note, len);
	pthread_mutex_unlock(&place_lock);
	return ret;
}

/* @list parsed into a new set (NULL: none, or "" or unreadable: empty). */
static hwloc_bitmap_t cpus_of(const char *list)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (set && list && list[0] && rb_cpus_parse(list, set))
		hwloc_bitmap_zero(set);
	return set;
}

static int probe_place(const char *ibdev, const char *stream_cpus, const char *busy_cpus,
		       const char *peer_cpus, struct rb_probe_place *out)
{
	hwloc_bitmap_t stream = cpus_of(stream_cpus), busy = cpus_of(busy_cpus);
	hwloc_bitmap_t peer = peer_cpus ? cpus_of(peer_cpus) : NULL;
	hwloc_topology_t topo;
	struct rb_dev_info d;
	int ret = -ENOMEM, node = -1;

	if (!stream || !busy || (peer_cpus && !peer))
		goto out;
	hwloc_bitmap_or(busy, busy, stream);
	ret = rb_topo_load(&topo, NULL);
	if (ret)
		goto out;
	if (!live_dev(ibdev, &d)) {
		node = rb_topo_dev_node(topo, &d);
		rb_dev_info_free(&d);
	}
	ret = rb_probe_place_decide(topo, SYSROOT, node, thread_affinity(topo), stream, busy,
				    peer && !hwloc_bitmap_iszero(peer) ? peer : NULL, out);
	hwloc_topology_destroy(topo);
out:
	hwloc_bitmap_free(stream);
	hwloc_bitmap_free(busy);
	hwloc_bitmap_free(peer);
	return ret;
}

int rb_probe_place(const char *ibdev, const char *stream_cpus, const char *busy_cpus,
		   const char *peer_cpus, struct rb_probe_place *out)
{
	int ret;

	out->cpu = -1;
	pthread_mutex_lock(&place_lock);
	ret = probe_place(ibdev, stream_cpus, busy_cpus, peer_cpus, out);
	pthread_mutex_unlock(&place_lock);
	if (!ret && out->note[0])
		rb_warn("%s", out->note);
	return ret;
}

int rb_place_check(const char *cpu_opt, const char *numa_opt)
{
	struct rb_place_in in = { .sysroot = SYSROOT,
				  .dev = "the RDMA device",
				  .dev_node = -1,
				  .cpu_opt = cpu_opt,
				  .numa_opt = numa_opt };
	struct rb_place_plan plan;
	int ret;

	/* auto and none depend on the device: only explicit lists here. */
	if ((!strcmp(cpu_opt, "auto") || !strcmp(cpu_opt, "none")) &&
	    (!strcmp(numa_opt, "auto") || !strcmp(numa_opt, "none")))
		return 0;
	ret = rb_topo_load(&in.topo, NULL);
	if (ret)
		return ret;
	in.current = thread_affinity(in.topo);
	read_mem_policy(&in);
	if (!strcmp(in.cpu_opt, "auto"))
		in.cpu_opt = "none"; /* only the explicit half is checked */
	if (!strcmp(in.numa_opt, "auto"))
		in.numa_opt = "none";
	ret = rb_place_decide(&in, &plan);
	if (!ret)
		rb_place_plan_fini(&plan);
	hwloc_topology_destroy(in.topo);
	return ret;
}

/* mbind() the area to @node before any page of it is touched. */
static int bind_area(void *p, size_t len, int node)
{
	struct bitmask *mask;
	int ret;

	if (numa_available() < 0) {
		rb_err("binding buffers to NUMA node %d: this kernel has no NUMA support", node);
		return -ENOSYS;
	}
	mask = numa_allocate_nodemask();
	if (!mask)
		return -ENOMEM;
	numa_bitmask_setbit(mask, node);
	ret = mbind(p, len, MPOL_BIND, mask->maskp, mask->size + 1, 0) ? -errno : 0;
	numa_bitmask_free(mask);
	if (ret)
		rb_err("binding a %zu-byte buffer to NUMA node %d: %s", len, node, strerror(-ret));
	return ret;
}

#define HUGE_SYS "/sys/kernel/mm/hugepages/hugepages-2048kB"

/* A count of 2 MiB huge pages from sysfs (@dir/@name), or -1 when unknown. */
static long huge_count(const char *dir, const char *name)
{
	char path[160];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/* The mmap of huge pages failed: say why, and what to reserve. */
static void huge_map_failed(size_t len, int err)
{
	long total = huge_count(HUGE_SYS, "nr_hugepages");
	long free_ = huge_count(HUGE_SYS, "free_hugepages");
	size_t need = len / RB_HUGE_PAGE;

	if (total < 0) {
		rb_err("--hugepages: this kernel has no 2 MiB huge pages (no %s): %s", HUGE_SYS,
		       strerror(err));
		return;
	}
	rb_err("--hugepages: cannot map %zu MiB of buffers in 2 MiB huge pages (%s): %zu "
	       "needed, %ld of %ld reserved are free; reserve more as root, e.g. echo %ld > "
	       "/proc/sys/vm/nr_hugepages",
	       len >> 20, strerror(err), need, free_ < 0 ? 0 : free_, total,
	       total + (long)need - (free_ < 0 ? 0 : free_));
}

/*
 * Fault the pages in now, on the bound node, rather than during the first
 * measured iterations.  A huge page the node lacks would be a SIGBUS on
 * first touch: MADV_POPULATE_WRITE (Linux 5.14) turns it into an error.
 */
static int populate(void *p, size_t len, int mem_node, bool huge)
{
	if (huge && madvise(p, len, MADV_POPULATE_WRITE)) {
		if (errno != EINVAL) {
			rb_err("--hugepages: NUMA node %d has too few free 2 MiB huge pages for "
			       "%zu MiB (%s); reserve them in "
			       "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/"
			       "nr_hugepages",
			       mem_node, len >> 20, strerror(errno), mem_node);
			return -ENOMEM;
		}
	}
	memset(p, 0, len);
	return 0;
}

void *rb_place_alloc(size_t len, int mem_node, bool huge)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB | MAP_HUGE_2MB : 0);
	void *p;
	int ret;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		ret = errno;
		if (huge)
			huge_map_failed(len, ret);
		else
			rb_err("cannot map a %zu-byte buffer: %s", len, strerror(ret));
		errno = ret;
		return NULL;
	}
	ret = mem_node >= 0 ? bind_area(p, len, mem_node) : 0;
	if (!ret)
		ret = populate(p, len, mem_node, huge);
	if (ret) {
		munmap(p, len);
		errno = -ret;
		return NULL;
	}
	return p;
}

void rb_place_free(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

/* What only verbs knows: the active MTU (and firmware when sysfs has none). */
static void verbs_enrich(struct rb_dev_info *d)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int n, i;

	list = ibv_get_device_list(&n);
	if (!list)
		return;
	for (i = 0; i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), d->name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx) {
		if (rb_verbose)
			rb_info("%s: cannot open with verbs, active MTU unknown", d->name);
		return;
	}
	for (i = 0; i < d->n_ports; i++)
		if (!ibv_query_port(ctx, d->ports[i].num, &pa) && pa.active_mtu >= IBV_MTU_256)
			d->ports[i].active_mtu = 128 << pa.active_mtu;
	if (!d->fw_ver[0] && !ibv_query_device(ctx, &da))
		snprintf(d->fw_ver, sizeof(d->fw_ver), "%s", da.fw_ver);
	ibv_close_device(ctx);
}

int rb_topo_show(const char *ibdev, const char *json_path)
{
	struct rb_topo_env env = { .sysroot = SYSROOT,
				   .procroot = "/proc",
				   .enrich = verbs_enrich };
	hwloc_bitmap_t bound;
	int ret;

	if (rb_topo_load(&env.topo, NULL))
		return RB_EXIT_FAIL;
	bound = hwloc_bitmap_alloc();
	if (bound && !hwloc_get_cpubind(env.topo, bound, HWLOC_CPUBIND_PROCESS))
		env.bound = bound;
	ret = rb_topo_show_env(&env, ibdev, json_path, stdout);
	hwloc_bitmap_free(bound);
	hwloc_topology_destroy(env.topo);
	return ret;
}
