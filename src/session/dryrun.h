/* SPDX-License-Identifier: MIT */
/*
 * --dry-run: the plan a command would run, printed instead of run.  This
 * file's functions are pure: they format a struct rb_dryrun (the plan, and
 * what the live part found) as text or JSON, and size the memory the plan
 * needs.  The live part (dryrun_live.c) fills in the device, the route and
 * the placement, reading the machine without binding, connecting or
 * measuring.
 */
#ifndef RB_DRYRUN_H
#define RB_DRYRUN_H

#include <stdio.h>
#include <jansson.h>
#include "core/bench.h"
#include "core/rdmabench.h"

#define RB_DRY_NOTE	384
#define RB_DRY_PROBLEMS 8

/* The device, port and GID: as asked, and as resolved. */
struct rb_dry_dev {
	const char *want_name;	/* -d; NULL: choose */
	int want_port;		/* -i; 0: choose */
	int want_gid;		/* -x; -1: choose */
	bool found;		/* the device was opened and the fields below hold */
	char note[RB_DRY_NOTE]; /* why none was found, or how it is chosen; "" */
	char name[64];
	int port;
	char link_layer[16];
	unsigned int active_mtu;
	int gid_index; /* -1: none (InfiniBand, LID) */
	char gid_type[12];
	char gid[48];
	char why_dev[192], why_gid[192];
	/* The limits a plan can exceed (checked by rb_dry_check()). */
	uint64_t max_msg_sz;
	int max_qp_wr, max_cqe, max_qp_rd_atom;
	bool atomics;
	unsigned int prov; /* its provider (core/provider.h): what it makes */
};

/* Where the measuring threads and their buffers would go. */
struct rb_dry_place {
	bool known; /* decided: place[] holds */
	char note[RB_DRY_NOTE];
	uint32_t n;		    /* threads placed: 1, or --threads */
	struct rb_placement *place; /* n of them (rb_dry_resolve(), rb_dry_release()) */
};

/* What one side's plan takes in memory (rb_dry_mem()). */
struct rb_dry_mem {
	uint32_t nqp, nmr;
	uint64_t region;  /* one region; each MR holds two (rx, tx) */
	uint64_t buffers; /* every MR's, rounded up to huge pages with --hugepages */
	uint32_t send_wr; /* per QP */
	uint32_t recv_wr; /* per QP, or on the one SRQ */
	uint32_t ncq;	  /* 1, or one per QP (--cq-per-qp) */
	uint64_t cqe;	  /* of each CQ */
	uint64_t total;	  /* all of it per thread (plan.h's rb_plan_mem() estimate) */
	uint32_t threads;
};

struct rb_dryrun {
	const char *cmd; /* the subcommand as typed */
	enum rb_role role;
	const struct rb_bench *b;  /* client: the test; NULL on a server */
	const struct rb_params *p; /* client: the plan; NULL on a server */
	const struct rb_local *l;
	char local_addr[64];	      /* client: where the connection would leave from; "" */
	char route_note[RB_DRY_NOTE]; /* client: why there is no local address */
	char ignored[256];	      /* server: the plan options it would ignore */
	const char *pt_ignored;	      /* perftest's flags taken with no effect, "" none */
	uint64_t mem_budget;	      /* what this host may give, 0: unknown */
	uint32_t ncpus;		      /* client: the CPUs it may run on, 0: unknown */
	struct rb_dry_dev dev;
	struct rb_dry_place place;
	const char *version;
};

/* rb_dry_mem() - what test @b's plan @p takes on one side. */
void rb_dry_mem(const struct rb_bench *b, const struct rb_params *p, struct rb_dry_mem *m);

/*
 * rb_dry_check() - what would make the run fail that is known before it
 * connects: the memory budget, more --threads than CPUs, the device's
 * limits (size, depths, CQ, atomics), no device or route.  One line each into @out (at most @max),
 * returns how many.
 */
size_t rb_dry_check(const struct rb_dryrun *d, char (*out)[RB_DRY_NOTE], size_t max);

/* rb_dry_text() - the plan as text onto @f.  Returns 0 or -EIO. */
int rb_dry_text(const struct rb_dryrun *d, FILE *f);

/* rb_dry_json() - the plan as a JSON document (new reference), NULL on ENOMEM. */
json_t *rb_dry_json(const struct rb_dryrun *d);

/*
 * rb_dry_resolve() - the live part: the route to the server (client), the
 * device, port and GID the run would take, and the placement, into @d,
 * whose cmd, role, b, p and l are set.  Never fails: what it cannot find
 * is said in the notes.
 */
void rb_dry_resolve(struct rb_dryrun *d);

/* rb_dry_release() - what rb_dry_resolve() allocated in @d. */
void rb_dry_release(struct rb_dryrun *d);

/*
 * rb_dry_main() - print @d's plan (text on stdout, or JSON with --format
 * json) and write it as JSON to --json's file.  Returns the exit code: 0,
 * or 1 when the file cannot be written.
 */
int rb_dry_main(struct rb_dryrun *d);

#endif
