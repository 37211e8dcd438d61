/* SPDX-License-Identifier: MIT */
/*
 * Where an RDMA device sits (PCIe link, NUMA node, local CPUs), and where
 * the measuring thread and its buffers should go.
 *
 * The entry points below are what the rest of rdmabench calls.  Decisions
 * are pure functions of a topology + sysfs snapshot (see topo.c); reading the
 * live machine is a thin layer (topo_live.c).
 *
 * src/topo/ (layer 3, over core): where a device sits and where to run;
 * hwloc and sysfs are read here and nowhere else.
 */
#ifndef RB_TOPO_H
#define RB_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <hwloc.h>
#include "core/provider.h"
#include "core/rdmabench.h"

/*
 * rb_place_apply() - bind the calling thread and choose the memory node
 * for buffers, near RDMA device @ibdev.
 * @cpu_opt:  "auto", "none" or a CPU list ("1", "0-3,8").
 * @numa_opt: "auto", "none" or a node number.
 * @out:      filled with what was done (device node, bound CPUs, mem node,
 *            local or not), whether or not binding succeeded.
 *
 * @peer_cpus: the CPUs the peer measures on when it shares this host
 *            (NULL: it does not); "auto" keeps off them.
 *
 * With "auto", an affinity the user already set (taskset, numactl) is kept
 * and reported.  Unknown locality is said once and the run carries on
 * unbound.  A remote placement prints a warning naming both nodes.
 * Returns 0, or -errno when an explicit request cannot be honoured
 * (e.g. --cpu 7 on a 2-CPU machine), after logging why.
 */
int rb_place_apply(const char *ibdev, const char *cpu_opt, const char *numa_opt,
		   const char *peer_cpus, struct rb_placement *out);

/*
 * rb_place_apply_thread() - rb_place_apply() for thread @thread of a
 * --threads run of @threads (1: a run without threads, as rb_place_apply()).
 * "auto" gives each thread its own CPU (see rb_place_in.threads) and does
 * not sample the load, so that every thread of a run, and every server
 * process of one, orders the CPUs alike.  Threads may call it at once.
 */
int rb_place_apply_thread(const char *ibdev, const char *cpu_opt, const char *numa_opt,
			  const char *peer_cpus, uint32_t thread, uint32_t threads,
			  struct rb_placement *out);

/*
 * rb_place_preview() - what rb_place_apply_thread() would choose, without
 * binding anything (--dry-run): @out as it would be filled, and into
 * @note what it would say (locality unknown, an affinity kept, a remote
 * node), "" when nothing.  Returns 0, or -errno when an explicit --cpu or
 * --numa cannot be honoured (logged).
 */
int rb_place_preview(const char *ibdev, const char *cpu_opt, const char *numa_opt, uint32_t thread,
		     uint32_t threads, struct rb_placement *out, char *note, size_t len);

/*
 * rb_place_check() - whether an explicit --cpu list or --numa node can be
 * honoured on this machine at all, before any peer is waited for.
 * Returns 0, or -EINVAL (logged, naming what is available).
 */
int rb_place_check(const char *cpu_opt, const char *numa_opt);

#define RB_HUGE_PAGE (2UL << 20)

/*
 * rb_place_alloc() - page-aligned, zeroed buffer of @len bytes whose pages
 * are bound to @mem_node (any node when < 0) before first touch; with
 * @huge, in 2 MiB huge pages (@len a multiple of RB_HUGE_PAGE).
 * Returns NULL with errno set on failure, logged: for huge pages, naming
 * how many are needed, free and reserved.  Free with rb_place_free().
 */
void *rb_place_alloc(size_t len, int mem_node, bool huge);
void rb_place_free(void *p, size_t len);

/*
 * rb_topo_show() - the `rdmabench topo` subcommand: describe every RDMA
 * device (or only @ibdev) and its ports, print warnings, and write the same
 * data as JSON to @json_path when not NULL ("-" for stdout).
 * Returns the exit code: 0 (even with warnings), 1 when no device is found
 * or the JSON cannot be written.
 */
int rb_topo_show(const char *ibdev, const char *json_path);

/*
 * ---- Below: the pure layer (topo.c), for topo_live.c and the unit tests.
 * Every decision is a function of a struct rb_dev_info read from a sysfs
 * tree (root "/sys" live; in the tests a scratch root built from
 * tests/data/topo/<case>, see its README) and of an hwloc topology (live,
 * or loaded from XML).  Nothing here binds or allocates for real.
 */
#define RB_TOPO_MAX_WARN 32

/* One non-empty GID table entry. */
struct rb_gid {
	int index;
	char type[12];	 /* "RoCE v2", "RoCE v1" or "IB" */
	char addr[48];	 /* IPv6 text form, as ibv_devinfo -v prints it */
	char netdev[32]; /* "" when the kernel names none (IB) */
};

struct rb_port_info {
	int num;
	char state[24];	     /* "ACTIVE", "DOWN", ... ("" unknown) */
	char phys_state[24]; /* "LinkUp", "Disabled", ... */
	char link_layer[16]; /* "Ethernet" or "InfiniBand" */
	char rate[48];	     /* as sysfs says: "100 Gb/sec (2X HDR)" */
	double rate_gbps;    /* 0 when unknown */
	int active_mtu;	     /* bytes; 0 unknown (only verbs knows it) */
	char netdev[32];     /* netdev of the port's first GID, else device's */
	int n_gids;
	struct rb_gid *gids;
};

/* What sysfs says about one RDMA device (see rb_dev_read()). */
struct rb_dev_info {
	char name[64];
	char driver[64]; /* kernel driver, "" unknown */
	/* Its provider's row (core/provider.h), by driver, name and PCI
	 * vendor; the generic row when none matched. */
	const struct rb_provider *prov;
	char node_guid[24];
	char fw_ver[64]; /* "" when the driver reports none */
	int node_type;	 /* sysfs node_type: 1 CA (InfiniBand, RoCE), 4 RNIC (iWARP); 0 unknown */
	char netdev[32]; /* RoCE/iWARP parent netdev, "" none */
	char pci[16];	 /* PCI function "0000:81:00.0", "" none */
	int numa_node;	 /* the PCI function's numa_node, -1 unknown */
	char local_cpus[128]; /* its local_cpulist, spaces for commas */
	struct rb_pcie_link link;
	int n_ports;
	struct rb_port_info *ports;
};

/*
 * rb_dev_transport() - the transport of @d by its node_type, as its ports
 * name it ("RoCE", "InfiniBand", "iWARP"); "" when sysfs did not say.
 */
const char *rb_dev_transport(const struct rb_dev_info *d);

/*
 * rb_topo_load() - an hwloc topology of this machine (@xml NULL) or of an
 * XML export, keeping the PCI functions and OS devices (NICs, HCAs) that
 * tell where a device sits.  Returns 0 or -errno after logging.  Destroy
 * with hwloc_topology_destroy().
 */
int rb_topo_load(hwloc_topology_t *topo, const char *xml);

/*
 * rb_dev_list() - names of the RDMA devices under @sysroot/class/infiniband,
 * sorted.  Sets *@names (free with rb_dev_list_free()) and *@n.
 * Returns 0 (also with none found, *@n = 0) or -errno after logging.
 */
int rb_dev_list(const char *sysroot, char ***names, int *n);
void rb_dev_list_free(char **names, int n);

/*
 * rb_dev_read() - read what @sysroot says about RDMA device @ibdev: ports,
 * GIDs, driver, and the PCI function it hangs off (for a software device
 * such as rxe, the PCI function of its parent netdev).  Facts sysfs lacks
 * are left empty/0/-1.  Returns 0, or -errno after logging when the device
 * does not exist or cannot be read.  Free with rb_dev_info_free().
 */
int rb_dev_read(const char *sysroot, const char *ibdev, struct rb_dev_info *d);

/*
 * rb_dev_locate() - rb_dev_read() without the ports: name, driver and PCI
 * function, all that placement needs.  Reading a port's GID table costs a
 * file per slot (1024 for rxe), most of a run's start-up under emulation.
 */
int rb_dev_locate(const char *sysroot, const char *ibdev, struct rb_dev_info *d);
void rb_dev_info_free(struct rb_dev_info *d);

/*
 * rb_pcie_gts() - the GT/s in a sysfs link speed ("8.0 GT/s PCIe"); 0 when
 * unknown ("Unknown", empty).
 */
double rb_pcie_gts(const char *s);

/*
 * rb_pcie_ceiling_gbps() - theoretical payload ceiling of one direction of
 * a PCIe link in Gb/s: GT/s x lanes x line-code efficiency (8b/10b up to
 * 5 GT/s, 128b/130b for 8-32 GT/s, 236/256 for 64 GT/s flit mode).  TLP and
 * DLLP overheads come on top, so real throughput is lower still.
 * 0 when @gts or @width is unknown.
 */
double rb_pcie_ceiling_gbps(double gts, int width);

/*
 * rb_topo_dev_node() - the NUMA node the device is local to, or -1 when
 * unknown: the one node whose locality is that of the object @topo hangs
 * its PCI function under, else the function's numa_node, else the only
 * node of a single-node machine.  A device with no PCI function (rxe on a
 * bond or veth) has no locality.
 */
int rb_topo_dev_node(hwloc_topology_t topo, const struct rb_dev_info *d);

/*
 * rb_node_cpus() - the CPUs of NUMA node @node as the kernel lists them
 * (@sysroot/devices/system/node/node<N>/cpulist), else hwloc's cpuset of
 * the node.  The kernel comes first because hwloc gives a CPU-less node
 * (CXL or HBM memory) the cpuset of the object it hangs off: all CPUs.
 * Returns 0, or -ENOENT when neither knows the node.
 */
int rb_node_cpus(hwloc_topology_t topo, const char *sysroot, int node, hwloc_bitmap_t cpus);

/*
 * rb_node_has_memory() - whether node @node has memory: the kernel's
 * @sysroot/devices/system/node/has_memory, else hwloc's local memory.
 */
bool rb_node_has_memory(hwloc_topology_t topo, const char *sysroot, int node);

/*
 * rb_cpus_format() - @set as CPU ranges separated by spaces ("0-3 8"), so
 * that it fits an unquoted CSV field.  A list too long for @len ends in
 * " ...".  Returns @buf.
 */
char *rb_cpus_format(hwloc_const_bitmap_t set, char *buf, size_t len);

/*
 * rb_cpus_parse() - parse a --cpu list ("1", "0-3,8"; spaces also separate)
 * into @set.  Returns 0 or -EINVAL (not logged: the caller names the option).
 */
int rb_cpus_parse(const char *s, hwloc_bitmap_t set);

/* What rb_place_decide() needs to know; no field is touched. */
struct rb_place_in {
	hwloc_topology_t topo;
	const char *sysroot;	      /* "/sys" live: nodes' CPUs and memory */
	const char *dev;	      /* names the device in messages */
	int dev_node;		      /* rb_topo_dev_node(), -1 unknown */
	const char *cpu_opt;	      /* "auto", "none" or a CPU list */
	const char *numa_opt;	      /* "auto", "none" or a node number */
	hwloc_const_cpuset_t current; /* the thread's affinity before us */
	hwloc_const_cpuset_t loaded;  /* CPUs seen busy; NULL unknown */
	hwloc_const_cpuset_t peer;    /* CPUs of a peer on this host; NULL none */
	bool mem_policy;	      /* the user set a memory policy (numactl -m) */
	int mem_policy_node;	      /* its node when it names one, else -1 */
	bool membind_ok;	      /* this kernel can bind memory to a node */
	/*
	 * --threads: with @threads > 1, "auto" binds thread @thread to the
	 * @thread-th CPU of this order: one CPU of each core of the device's
	 * node, then of the other cores allowed, then the SMT siblings left
	 * (the same order), wrapping around when the threads outnumber the
	 * CPUs.  An affinity the user set is ordered the same way.
	 */
	uint32_t thread, threads;
};

/* What rb_place_decide() chose; free with rb_place_plan_fini(). */
struct rb_place_plan {
	hwloc_bitmap_t bind; /* CPUs to bind to; NULL: leave affinity */
	hwloc_bitmap_t cpus; /* CPUs the thread will run on */
	int dev_node;
	int mem_node;	    /* -1: no binding, first touch decides */
	int local;	    /* 1, 0, -1 unknown */
	bool kept_affinity; /* auto kept an affinity set by the user */
	bool unknown;	    /* device locality unknown: unbound */
	bool peer_moved;    /* the node's cores were the peer's: went elsewhere */
	bool threads_moved; /* the node's cores went to the run's other threads */
	bool shared;	    /* more threads than CPUs: this CPU is another's too */
	char warning[320];  /* remote placement, "" when none */
};

/*
 * rb_place_decide() - which CPUs and memory node to use.  With "auto": keep
 * an affinity the user set; else one core of the device's node (the first
 * core none of whose CPUs is in @in->loaded, else the first), bound to its
 * first CPU, never a core of @in->peer while another core exists (then
 * the nearest node's, with a warning); memory on the device's node unless the user set a policy.
 * Decides only; rb_place_apply() binds.  Returns 0, or -EINVAL/-ENOSYS
 * after logging when an explicit --cpu or --numa cannot be honoured.  On
 * error @plan needs no fini.
 */
int rb_place_decide(const struct rb_place_in *in, struct rb_place_plan *plan);
void rb_place_plan_fini(struct rb_place_plan *plan);

/* Fills @out from @plan (the JSON/CSV fields). */
void rb_place_fill(const struct rb_place_plan *plan, struct rb_placement *out);

/*
 * --probe: where its thread runs (the client's pings, the server's echo).
 * It must not wait for the CPU the busy-polling stream holds, nor take
 * it from the stream.
 */
struct rb_probe_place {
	int cpu;	/* its CPU; -1: not bound, the stream's CPUs as they are */
	bool shared;	/* on the stream's CPU: no other in reach */
	bool elsewhere; /* the device's node had none free: another node's */
	char note[240]; /* why, when shared or elsewhere; "" otherwise */
};

/*
 * rb_probe_place_decide() - the probe's CPU when the stream is bound to
 * one CPU (@stream: its CPUs; any other set, or empty, leaves the probe
 * with it, cpu -1): a CPU of @dev_node (-1 unknown: any) in @allowed
 * that no measuring thread of this run holds (@busy: the stream's and the
 * other threads'), preferring one off @peer (a peer on this host) and
 * on a core none of @busy is on; else another node's, with a note; else
 * the stream's own, shared, with a note that says what that costs.
 * Pure; 0, or -ENOMEM.
 */
int rb_probe_place_decide(hwloc_topology_t topo, const char *sysroot, int dev_node,
			  hwloc_const_cpuset_t allowed, hwloc_const_cpuset_t stream,
			  hwloc_const_cpuset_t busy, hwloc_const_cpuset_t peer,
			  struct rb_probe_place *out);

/*
 * rb_probe_place() - rb_probe_place_decide() on this machine, for device
 * @ibdev, the stream on CPUs @stream_cpus, the run's measuring threads
 * on @busy_cpus ("" none besides) and a peer on this host on @peer_cpus
 * (NULL none); a note is warned.  0 or -errno (then cpu -1).
 */
int rb_probe_place(const char *ibdev, const char *stream_cpus, const char *busy_cpus,
		   const char *peer_cpus, struct rb_probe_place *out);

/*
 * rb_cpu_freq() - CPU @cpu's frequency governor and current frequency
 * under @sysroot (devices/system/cpu/cpuN/cpufreq) into @p's freq_cpu,
 * governor and cpu_mhz: "" and 0 for what the kernel does not show (no
 * cpufreq in most VMs).
 */
void rb_cpu_freq(const char *sysroot, int cpu, struct rb_placement *p);

/*
 * rb_tsc_untrusted() - whether the kernel under @sysroot has taken "tsc"
 * off its clocksources (it found the CPUs' TSCs unsynchronized), with
 * those it offers instead in @sources; false when it keeps tsc or does
 * not say (devices/system/clocksource/clocksource0/available_clocksource).
 */
bool rb_tsc_untrusted(const char *sysroot, char *sources, size_t len);

enum rb_topo_wcode {
	RB_TW_PCIE_SPEED,     /* link trained below its max speed */
	RB_TW_PCIE_WIDTH,     /* ... below its max width */
	RB_TW_PCIE_CEILING,   /* PCIe ceiling below a port's rate */
	RB_TW_PORT_STATE,     /* port not ACTIVE */
	RB_TW_NO_ROCEV2,      /* Ethernet port without a RoCE v2 GID */
	RB_TW_NODE_NO_CPUS,   /* device's node has no CPUs */
	RB_TW_NODE_NO_MEMORY, /* ... no memory */
	RB_TW_BOUND_AWAY,     /* process bound away from the device's node */
	RB_TW_NO_LOCALITY,    /* device's node unknown */
};

struct rb_topo_warning {
	enum rb_topo_wcode code;
	int port;      /* 0 when about the whole device */
	char msg[384]; /* names what to check */
};

/* "pcie_width", ... the code as JSON spells it. */
const char *rb_topo_wcode_name(enum rb_topo_wcode code);

/*
 * rb_topo_check() - the warnings about device @d on node @dev_node, for a
 * process bound to @bound (NULL: not known); @sysroot as for
 * rb_node_cpus().  Writes at most @max entries into @w, returns how many.
 */
int rb_topo_check(hwloc_topology_t topo, const char *sysroot, const struct rb_dev_info *d,
		  int dev_node, hwloc_const_cpuset_t bound, struct rb_topo_warning *w, int max);

/* Where rb_topo_show_env() looks. */
/* A PCI function's MSI IRQs and the CPUs each may run on (topo_irq.c). */
#define RB_MAX_IRQS 256
struct rb_irq {
	int num;
	char cpus[64]; /* its smp_affinity_list; "" when unreadable */
};
struct rb_irqs {
	int n;
	struct rb_irq irq[RB_MAX_IRQS];
};

/*
 * rb_dev_irqs() - the MSI IRQs of PCI function @pci
 * (@sysroot/bus/pci/devices/PCI/msi_irqs), by number, each with its
 * @procroot/irq/N/smp_affinity_list.  0, or -errno when the function has
 * no msi_irqs (none, or no such function).
 */
int rb_dev_irqs(const char *sysroot, const char *procroot, const char *pci, struct rb_irqs *q);

/*
 * rb_vector_pick() - the completion vector (0..@nvec - 1) of the CQ of
 * thread or rail @index running on CPU @cpu (-1: unknown), given the
 * device's MSI IRQs @q (NULL: not known; its last @nvec are taken as the
 * vectors, in order): among the vectors whose IRQ may run on @cpu, the
 * @index-th round robin; with none, @index modulo @nvec.  @why says which
 * and why (JSON device.why_comp_vector).  topo_vector.c.
 */
uint32_t rb_vector_pick(const struct rb_irqs *q, int nvec, int cpu, uint32_t index, char *why,
			size_t len);

/* The cpufreq governors of a set of CPUs, each with how many run it. */
#define RB_MAX_GOVS 4
struct rb_govs {
	int n; /* CPUs with a governor */
	int kinds;
	char name[RB_MAX_GOVS][32];
	int count[RB_MAX_GOVS];
};

/* rb_cpus_governors() - @cpus' scaling_governor under @sysroot; none: g->n 0. */
void rb_cpus_governors(const char *sysroot, hwloc_const_bitmap_t cpus, struct rb_govs *g);
/* rb_govs_str() - "performance x4, powersave x2"; "" without any. */
void rb_govs_str(const struct rb_govs *g, char *buf, size_t len);

struct rb_topo_env {
	const char *sysroot;  /* "/sys" live */
	const char *procroot; /* "/proc" live; NULL: none (no IRQ affinities) */
	hwloc_topology_t topo;
	hwloc_const_cpuset_t bound;	       /* process affinity, NULL unknown */
	void (*enrich)(struct rb_dev_info *d); /* verbs-only facts, or NULL */
};

/*
 * rb_topo_show_env() - rb_topo_show() on any sysfs tree and topology:
 * the human table goes to @out (unless the JSON goes to stdout, "-"),
 * warnings to stderr.  Same return values as rb_topo_show().
 */
int rb_topo_show_env(const struct rb_topo_env *env, const char *ibdev, const char *json_path,
		     FILE *out);

/*
 * ---- GPUs and RDMA devices (topo_gpu.c): how far apart two PCI functions
 * are, in the words of `nvidia-smi topo -m`, from the hwloc tree alone (no
 * GPU driver, no CUDA).  Ordered nearest first.
 */
enum rb_pcie_rel {
	RB_REL_PIX,	/* the same PCIe switch: at most one bridge each side */
	RB_REL_PXB,	/* several bridges (nested switches), no host bridge */
	RB_REL_PHB,	/* the same host bridge (root complex) */
	RB_REL_NODE,	/* the same NUMA node, different host bridges */
	RB_REL_SYS,	/* different NUMA nodes: across the CPU interconnect */
	RB_REL_UNKNOWN, /* a function hwloc does not know, or nodes unknown */
};
#define RB_REL_COUNT (RB_REL_UNKNOWN + 1)

/* "PIX" ... "SYS", "-" for unknown; and a line saying what each means. */
const char *rb_pcie_rel_name(enum rb_pcie_rel rel);
const char *rb_pcie_rel_desc(enum rb_pcie_rel rel);

/*
 * rb_pcie_relation() - how PCI functions @a and @b ("0000:18:00.0") are
 * connected: their lowest common ancestor in @topo decides (a PCI bridge:
 * PIX or PXB by the bridges below it; a host bridge: PHB; above the host
 * bridges: NODE or SYS by the functions' NUMA nodes, as rb_topo_dev_node()
 * finds them, with @sysroot's bus/pci/devices/PCI/numa_node when hwloc
 * cannot tell; NULL: hwloc only).  RB_REL_UNKNOWN when either function is
 * not in @topo, or a node is unknown.
 */
enum rb_pcie_rel rb_pcie_relation(hwloc_topology_t topo, const char *sysroot, const char *a,
				  const char *b);

/* A GPU: an NVIDIA or AMD display, 3D or (AMD) processing accelerator function. */
#define RB_MAX_GPUS 64
struct rb_gpu {
	char pci[16];	    /* "0000:18:00.0" */
	const char *vendor; /* "NVIDIA", "AMD" */
	unsigned int vendor_id, device_id, class_id;
	int numa_node; /* -1 unknown */
};

/*
 * rb_gpu_list() - the GPUs among @topo's PCI functions, in PCI bus order
 * (nvidia-smi's numbering), at most @max; each one's NUMA node as
 * rb_topo_dev_node() finds it (@sysroot's numa_node when hwloc cannot tell).
 * Returns how many.
 */
int rb_gpu_list(hwloc_topology_t topo, const char *sysroot, struct rb_gpu *gpus, int max);

/* An RDMA device as the GPU table names it. */
#define RB_MAX_NICS 64
struct rb_nic_ref {
	char name[64];
	char pci[16]; /* "" when it has no PCI function */
	int numa_node;
};

/* One GPU against every RDMA device: rb_gpu_nics(). */
struct rb_gpu_row {
	enum rb_pcie_rel rel[RB_MAX_NICS];
	enum rb_pcie_rel best; /* the nearest relation, RB_REL_UNKNOWN with none known */
	bool warn;	       /* the nearest device is across the socket */
	char warning[512];     /* "" when none */
};

/*
 * rb_gpu_nics() - @gpu's relation to each of the @n devices in @nics
 * (rb_pcie_relation(), @sysroot as there), the
 * nearest, and the warning when that is SYS: every GPUDirect transfer
 * through any of them would cross the CPU interconnect.
 */
void rb_gpu_nics(hwloc_topology_t topo, const char *sysroot, int index, const struct rb_gpu *gpu,
		 const struct rb_nic_ref *nics, int n, struct rb_gpu_row *row);

#endif
