/* SPDX-License-Identifier: MIT */
/*
 * rdmabench reg: what memory registration costs on this host, no peer.
 * For each size of the sweep, COUNT times ibv_reg_mr() then ibv_dereg_mr()
 * of one buffer (allocated once per size), timed call by call; with ODP,
 * the prefetch (ibv_advise_mr) too.  This header: the command's options,
 * its points and the pure parts (checks, figures, writers), unit-tested
 * without a device (test_reg); reg_run.c makes the verbs calls.
 *
 * src/reg/ (layer 10, over cli and below): a command of its own; its
 * options' types are cli/opts.h's, its access words rdma/access.h's.
 */
#ifndef RB_REG_H
#define RB_REG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/rdmabench.h"

struct rb_cli;
struct rb_samples;

enum rb_reg_odp { RB_REG_ODP_NONE, RB_REG_ODP_EXPLICIT, RB_REG_ODP_IMPLICIT };

#define RB_REG_OFFSET 64 /* --unaligned: the buffer starts this far into its page */
/* A size stops after this much time in its calls (at least one registration). */
#define RB_REG_BUDGET_NS (5ULL * 1000 * 1000 * 1000)

/* The run's settings, checked. */
struct rb_reg_cfg {
	struct rb_axis size;
	uint64_t count;
	bool hugepages, prefetch, unaligned;
	enum rb_reg_odp odp;
	int access;	       /* IBV_ACCESS_* (ON_DEMAND added by the run) */
	char access_text[96];  /* as JSON and the table name it */
	uint64_t page_size;    /* 4 KiB (the system's) or 2 MiB */
	uint64_t memlock;      /* RLIMIT_MEMLOCK, RB_MEMLOCK_INF: none */
	const char *device;    /* -d; NULL: the first with an active port */
	const char *json_path; /* NULL: none */
	const char *csv_path;
};

/*
 * rb_reg_config() - the settings of @c (parsed for reg), with defaults:
 * sizes RB_REG_DEF_SIZES, RB_REG_DEF_COUNT registrations, local-write.
 * @page_size: the system's page.  0 or -EINVAL (a usage error, said in @err).
 */
int rb_reg_config(const struct rb_cli *c, uint64_t page_size, struct rb_reg_cfg *cfg, char *err,
		  size_t len);

/* One size's figures. */
struct rb_reg_point {
	uint64_t size, offset, pages;
	uint64_t asked, done; /* registrations asked, made: fewer when time-bounded */
	bool ok;	      /* measured; else reason says why not (n/a or failed) */
	bool failed;	      /* the run's error, not a capability it lacks */
	bool has_reg;	      /* reg and dereg figures (implicit ODP: prefetches only) */
	bool has_prefetch;
	struct rb_lat_summary reg, dereg, prefetch; /* microseconds per call */
	double reg_ms_per_gib, dereg_ms_per_gib, reg_pages_per_s;
	char prefetch_na[160]; /* why no prefetch figure, when asked */
	char reason[RB_TEXT_MAX];
};

/* rb_reg_pages() - pages of @page bytes spanned by @size bytes from @offset into one. */
uint64_t rb_reg_pages(uint64_t size, uint64_t offset, uint64_t page);

/*
 * rb_reg_figures() - @pt's summaries and figures from its samples
 * (nanoseconds per call; any may be NULL or empty, @reg and @dereg
 * together): medians and p99s, time per GiB and pages per second from
 * the medians.  Sorts the samples.  0, or -EINVAL when there is none.
 */
int rb_reg_figures(struct rb_samples *reg, struct rb_samples *dereg, struct rb_samples *pre,
		   struct rb_reg_point *pt);

/* What the run was, for the writers. */
struct rb_reg_run {
	const struct rb_reg_cfg *cfg;
	char device[64]; /* the device opened; "" when none */
	char timestamp[32], host[256];
	char odp_na[192];	 /* why ODP is n/a on the device; "" when it is there */
	double implicit_reg_us;	 /* --odp-mode implicit: the one registration; <0: none */
	struct rb_reg_point *pt; /* points measured (or refused), npt of them */
	size_t npt;
	bool complete;
	char reason[RB_TEXT_MAX]; /* why not complete */
};

/* rb_reg_table() - the run for people: a header, a row per point, notes. */
void rb_reg_table(FILE *f, const struct rb_reg_run *r);
/* rb_reg_csv() - a header and a row per point; 0 or -EIO. */
int rb_reg_csv(FILE *f, const struct rb_reg_run *r);
/* rb_reg_json() - the document (doc/json-schema.md, "reg"); NULL when out of memory. */
void *rb_reg_json(const struct rb_reg_run *r);
/* rb_reg_write() - --json and --csv files, whole (atomic_file.h); 0 or -errno, logged. */
int rb_reg_write(const struct rb_reg_run *r);

/* rb_reg_main() - rdmabench reg with @c parsed; the exit status. */
int rb_reg_main(struct rb_cli *c);

#endif
