/* SPDX-License-Identifier: MIT */
/*
 * rdmabench reg: what memory registration costs on this host, no peer.
 * For each size of the sweep, COUNT times ibv_reg_mr() then ibv_dereg_mr()
 * of one buffer (allocated once per size), timed call by call; with ODP,
 * the prefetch (ibv_advise_mr) too.  This header: the command's options,
 * its points and the pure parts (checks, figures, writers), unit-tested
 * without a device (test_reg); reg_run.c makes the verbs calls.
 *
 * src/reg/ (layer 10, over cli and below): a command of its own, with its
 * own option table (reg_opts.c, rows of core/opts_row.h's type over
 * struct rb_reg_opts); its access words are rdma/access.h's.
 */
#ifndef RB_REG_H
#define RB_REG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/opts_row.h"
#include "core/rdmabench.h"

struct rb_samples;

/* rdmabench reg's defaults: the sizes and the registrations per size. */
#define RB_REG_DEF_SIZES "4K..256M:x4"
#define RB_REG_DEF_COUNT 100

/* The rows of reg's option table (reg_opts.c), in its order. */
enum rb_reg_row {
	RB_REG_R_SIZE,
	RB_REG_R_ITERS,
	RB_REG_R_HUGEPAGES,
	RB_REG_R_ODP,
	RB_REG_R_ODP_MODE,
	RB_REG_R_PREFETCH,
	RB_REG_R_ACCESS,
	RB_REG_R_UNALIGNED,
	RB_REG_R_DEVICE,
	RB_REG_R_JSON,
	RB_REG_R_CSV,
	RB_REG_R_QUIET,
	RB_REG_R_VERBOSE,
	RB_REG_R_HELP,
	RB_REG_R_HELP_ALL,
	RB_REG_R_VERSION,
	RB_REG_NROWS
};

/* What reg's command line says, a field per row of its table. */
struct rb_reg_opts {
	struct rb_axis size; /* -s */
	uint64_t iters;	     /* -n */
	char access[96];     /* --access as typed; "": local-write */
	char device[64];     /* -d; "": the first with an active port */
	char json[256];	     /* --json; "-": stdout */
	char csv[256];
	uint8_t hugepages, odp, odp_mode /* 0 explicit, 1 implicit */, prefetch, unaligned;
	uint8_t quiet, verbose, help, help_all, version;
	uint8_t given[RB_REG_NROWS]; /* which rows the line set */
};

/* reg's option table: --help, completion and the man page read it too. */
extern const struct rb_opt_table rb_reg_table_opts;

/*
 * rb_reg_parse() - reg's command line (@argv[0] "reg") into @o; 0, or
 * -EINVAL with the message in @err (a test's option is named as one).
 */
int rb_reg_parse(int argc, char **argv, struct rb_reg_opts *o, char *err, size_t len);
/* rb_reg_usage() - --help (@all: --help-all) from reg's rows. */
void rb_reg_usage(FILE *f, bool all);
/* rb_reg_list_options() - completion's lines (rdmabench --list-options reg). */
void rb_reg_list_options(FILE *f);
/* rb_reg_man_options() - the man page's "Options of reg" (rdmabench --man-reg). */
void rb_reg_man_options(FILE *f);

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
 * rb_reg_config() - the settings of @o (rb_reg_parse()'s), with defaults:
 * sizes RB_REG_DEF_SIZES, RB_REG_DEF_COUNT registrations, local-write.
 * @page_size: the system's page.  0 or -EINVAL (a usage error, said in @err).
 */
int rb_reg_config(const struct rb_reg_opts *o, uint64_t page_size, struct rb_reg_cfg *cfg,
		  char *err, size_t len);

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

/* rb_reg_main() - rdmabench reg (@argv[0] "reg"); the exit status. */
int rb_reg_main(int argc, char **argv);

#endif
