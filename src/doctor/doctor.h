/* SPDX-License-Identifier: MIT */
/*
 * rdmabench doctor: what on this host would spoil a benchmark, each
 * finding a check with a verdict, the value read and where, why it
 * matters and the command that fixes it.  Everything is read under a root
 * directory ("/" live; a fixture tree in tests/unit/test_doctor.c), and
 * what no file says (the memlock limit, verbs' devices and active MTU)
 * comes through struct rb_dr_env, so the tests replace it too.  The
 * verdicts (doctor_verdict.c) are pure functions of the values.
 *
 * src/doctor/ (layer 9, over cli and below): a command of its own; only
 * main.c includes it.
 */
#ifndef RB_DOCTOR_H
#define RB_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rb_dr_verdict {
	RB_DR_OK,
	RB_DR_WARN,
	RB_DR_FAIL,
	RB_DR_NA, /* nothing to judge: the file is absent, the check does not apply */
};

struct rb_dr_check {
	const char *name; /* "port", "memlock", ... */
	char subject[48]; /* "rxe0/1", "rxe0", "" for the host */
	enum rb_dr_verdict v;
	char value[192];  /* what was read, in words */
	char source[192]; /* the file it came from (without the root) */
	const char *why;  /* why it matters, one line */
	char fix[256];	  /* a command; "" when ok or none */
};

struct rb_dr_report {
	struct rb_dr_check *c;
	size_t n, cap;
};

/* Where the checks read, and what they learn without a file. */
struct rb_dr_env {
	const char *root; /* "/" live */
	/* RLIMIT_MEMLOCK's soft limit in bytes, UINT64_MAX unlimited. */
	uint64_t memlock;
	/* What a default run locks (rb_plan_mem() of write_bw's defaults). */
	uint64_t memlock_need;
	/* The devices libibverbs' providers find, -errno when it cannot say. */
	int (*verbs_devices)(void);
	/* The libibverbs this process runs ("1.14.50.0"), or NULL: unknown. */
	const char *(*verbs_version)(char *buf, size_t len);
	/* A port's active and largest MTU in bytes (ibv_query_port): 0, or -errno. */
	int (*port_mtu)(const char *dev, int port, int *active, int *max);
};

/* rb_dr_env_live() - @env for this host: root "/", getrlimit(), verbs. */
void rb_dr_env_live(struct rb_dr_env *env, const char *root);

/*
 * rb_dr_run() - every local check of device @dev (NULL: every device)
 * into @r (free with rb_dr_report_free()).  Returns 0, or -errno when
 * memory ran out or @dev does not exist (after logging).
 */
int rb_dr_run(const struct rb_dr_env *env, const char *dev, struct rb_dr_report *r);
void rb_dr_report_free(struct rb_dr_report *r);

/* rb_dr_add() - a new check named @name about @subject, verdict n/a; NULL: no memory. */
struct rb_dr_check *rb_dr_add(struct rb_dr_report *r, const char *name, const char *subject);

/* rb_dr_worst() - the worst verdict of @r (fail, warn, ok; n/a counts as ok). */
enum rb_dr_verdict rb_dr_worst(const struct rb_dr_report *r);
const char *rb_dr_verdict_name(enum rb_dr_verdict v);

/* The table for people, and the JSON document (NULL: no memory). */
void rb_dr_print(FILE *f, const struct rb_dr_report *r);
struct json_t *rb_dr_json(const struct rb_dr_report *r, const char *root);

/* ---- doctor HOST (doctor_peer.c) ------------------------------------------ */

/* What rdmabench server answers to a HELLO for "doctor" (session.h). */
struct rb_service;
extern const struct rb_service rb_doctor_service;

/*
 * rb_dr_ask() - the checks of the server on @host:@port, reached from
 * @bind (NULL: the routing's choice) (its JSON document
 * into *@peer, with its end of the path as "path") and this end of the
 * same path into *@mine (NULL when no device holds this side's address).
 * Returns 0 or -errno, logged; free both with json_decref().
 */
int rb_dr_ask(const char *host, uint16_t port, const char *bind, int wait_ms, struct json_t **peer,
	      struct json_t **mine);

/*
 * rb_dr_path_compare() - what the two ends of a path (path_end()'s facts)
 * must agree on, as checks into @r: link layer and GID type (fail when
 * they differ), active MTU and firmware (warn).  Pure; 0 or -ENOMEM.
 */
int rb_dr_path_compare(struct json_t *mine, struct json_t *peer, struct rb_dr_report *r);

/*
 * rb_dr_runs() - send_lat, write_bw at 64 KiB and read_lat against the
 * server, short, each a check "run" into @r: its figures, write_bw's
 * against the port's rate (warn below 90%), a moved error counter (warn),
 * a run that fails (fail, with why).  0 or -ENOMEM.
 */
int rb_dr_runs(const char *host, uint16_t port, const char *bind, struct rb_dr_report *r);

/* `rdmabench doctor`: options, checks, output; the exit status. */
int rb_doctor_main(int argc, char **argv);
void rb_doctor_list_options(FILE *f);

/* doctor's option rows (they parse its line, and make its --help's options). */
struct rb_opt_table;
extern const struct rb_opt_table rb_doctor_table;

/* rb_doctor_usage() - doctor's --help. */
void rb_doctor_usage(FILE *f);

/* ---- the verdicts: pure ------------------------------------------------- */

/* Port: ACTIVE and LinkUp ok; INIT/ARMED warn (no SM yet); else fail. */
enum rb_dr_verdict rb_dr_v_port(const char *state, const char *phys_state);
/* Devices: none fail; verbs finds fewer than sysfs lists: fail (none) or warn. */
enum rb_dr_verdict rb_dr_v_verbs(int n_sysfs, int n_verbs);
/* PCIe: GT/s and lanes trained against the slot's best; 0 unknown. */
enum rb_dr_verdict rb_dr_v_pcie(double cur_gts, int cur_width, double max_gts, int max_width);
/* Functions of other devices behind the same root port: GPUs, NVMe drives. */
enum rb_dr_verdict rb_dr_v_pcie_share(int n_gpu, int n_nvme);
/* NUMA: node -1 on a multi-node host, a node without CPUs or low free memory. */
enum rb_dr_verdict rb_dr_v_numa(int node, int n_nodes, int node_cpus, uint64_t free_kib);
/* IRQs: @on_node of @n affine to the device's node only. */
enum rb_dr_verdict rb_dr_v_irq(int n, int on_node);
/* Governors: @perf of @n cores at "performance". */
enum rb_dr_verdict rb_dr_v_governor(int n, int perf);
/*
 * C-states: @n idle states seen, the deepest enabled one's exit latency
 * @max_exit_us (-1: none enabled); above 10 us a wake-up shows in latency.
 */
enum rb_dr_verdict rb_dr_v_cstates(int n, long max_exit_us);
/* SMT: 1 on, 0 off, -1 unknown. */
enum rb_dr_verdict rb_dr_v_smt(int active);
/* Memlock: @limit bytes (UINT64_MAX unlimited) against @need; CAP_IPC_LOCK lifts it. */
enum rb_dr_verdict rb_dr_v_memlock(uint64_t limit, uint64_t need, bool ipc_lock);
/* Huge pages on the device's node: -1 unknown. */
enum rb_dr_verdict rb_dr_v_hugepages(long total, long free);
/* THP: the word in brackets of .../transparent_hugepage/enabled. */
enum rb_dr_verdict rb_dr_v_thp(const char *mode);

enum rb_dr_iommu {
	RB_DR_IOMMU_UNKNOWN,
	RB_DR_IOMMU_OFF,
	RB_DR_IOMMU_PT,
	RB_DR_IOMMU_DMA,
};
/* rb_dr_iommu_mode() - from the IOMMUs present, the groups, the cmdline and a group's type. */
enum rb_dr_iommu rb_dr_iommu_mode(int n_iommus, int n_groups, const char *cmdline,
				  const char *group_type);
enum rb_dr_verdict rb_dr_v_iommu(enum rb_dr_iommu mode);
/* RoCE: GIDs of each type on an Ethernet port. */
enum rb_dr_verdict rb_dr_v_roce_gid(int n_v2, int n_v1);
/* rb_dr_roce_mtu() - the RDMA MTU a netdev MTU carries by the kernel's RoCE rule. */
int rb_dr_roce_mtu(int netdev_mtu);
/* The port's active MTU against what its netdev carries (capped at @max_mtu; 0 unknown). */
enum rb_dr_verdict rb_dr_v_mtu(int netdev_mtu, int active_mtu, int max_mtu);
/*
 * RoCE ECN: priorities enabled as notification point (@np) and reaction
 * point (@rp), -1 when the driver shows no such controls (n/a); none
 * enabled on either side warns.
 */
enum rb_dr_verdict rb_dr_v_ecn(int np, int rp);
/* rp_filter: the larger of conf/all and conf/NETDEV; -1 unknown. */
enum rb_dr_verdict rb_dr_v_rp_filter(int all, int dev);
/* /dev/infiniband/rdma_cm present. */
enum rb_dr_verdict rb_dr_v_rdma_cm(bool present);

#endif
