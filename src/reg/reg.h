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

#include <infiniband/verbs.h>

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
	RB_REG_R_REGIONS, /* issue 42: --regions, -t */
	RB_REG_R_DEPTH,
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
	uint32_t regions;    /* --regions N; 0: one buffer per size */
	uint32_t depth;	     /* -t: the --regions stream's WRs in flight */
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

/*
 * --regions N (issue 42, reg_rgn.c): N regions of each size against one
 * region of N times it, registered and streamed through.  The stream is
 * RDMA WRITEs of RB_REG_RGN_MSG bytes from a QP connected to itself.
 */
#define RB_REG_RGN_DEF_SIZE  "64K" /* -s with --regions, when not given */
#define RB_REG_RGN_MSG	     64	   /* a stream WR's bytes (fewer in a smaller region) */
#define RB_REG_RGN_DEF_DEPTH 128
#define RB_REG_RGN_MAX	     65536
/* A stream without a completion for this long fails (-ETIMEDOUT). */
#define RB_REG_RGN_TIMEOUT_NS (10ULL * 1000 * 1000 * 1000)

/* The run's settings, checked. */
struct rb_reg_cfg {
	struct rb_axis size;
	uint64_t count;
	uint32_t regions, depth; /* --regions N (0: none), -t */
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

/* One pass of the --regions stream: its measured WRs over its interval. */
struct rb_reg_pass {
	uint64_t wrs;	 /* WRs completed in the measured interval */
	uint64_t t0, t1; /* the clock before its first post, after its last completion */
	double mpps;	 /* wrs / (t1 - t0), millions a second */
};

/* A size's --regions figures. */
struct rb_reg_rgn {
	uint32_t n;	 /* regions */
	uint64_t rounds; /* rounds timed: N registrations, N deregistrations, one of each */
	/* Microseconds per round: all N regions, and the one region of N x size. */
	struct rb_lat_summary reg_n, dereg_n, reg_one, dereg_one;
	double reg_per_region_us, dereg_per_region_us; /* the medians over N */
	uint32_t msg, depth;			       /* the stream's WR bytes and WRs in flight */
	struct rb_reg_pass pass_n, pass_one;	       /* from the N regions; from the one */
};

/* One size's figures. */
struct rb_reg_point {
	uint64_t size, offset, pages;
	uint64_t asked, done; /* registrations asked, made: fewer when time-bounded */
	bool ok;	      /* measured; else reason says why not (n/a or failed) */
	bool failed;	      /* the run's error, not a capability it lacks */
	bool has_reg;	      /* reg and dereg figures (implicit ODP: prefetches only) */
	bool has_prefetch;
	bool has_rgn; /* --regions: rgn, and no reg or dereg figures */
	struct rb_lat_summary reg, dereg, prefetch; /* microseconds per call */
	struct rb_reg_rgn rgn;
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

/* ---- --regions (reg_rgn.c: pure; reg_rgn_run.c: measured) ---- */

/*
 * rb_reg_rgn_fit() - whether @n regions of @size bytes fit device @dev's
 * @max_mr regions (the N, and the stream's target) and @max_mr_size bytes
 * (the one region of @n x @size), and the memory lock limit @memlock,
 * when it binds (@binds), with @n x @size pinned at once (a device limit
 * of 0 is one the device does not say: not checked).  0, or -E2BIG
 * (a device limit) or -ENOMEM (RLIMIT_MEMLOCK), naming the limit and the
 * fix in @err.
 */
int rb_reg_rgn_fit(uint32_t n, uint64_t size, uint64_t memlock, bool binds, uint64_t max_mr,
		   uint64_t max_mr_size, const char *dev, char *err, size_t len);

/*
 * rb_reg_rgn_src() - where the stream's WR @j reads: region @j mod @n, at
 * the start of its page (@j / @n) mod (pages of @page in @size): every
 * region, and every page of each, in turn.  Returns the byte offset in
 * the buffer of @n x @size; *@region the region.
 */
uint64_t rb_reg_rgn_src(uint64_t j, uint32_t n, uint64_t size, uint64_t page, uint32_t *region);

/* rb_reg_rgn_msg() - a stream WR's bytes in a region of @size: RB_REG_RGN_MSG at most. */
uint32_t rb_reg_rgn_msg(uint64_t size);

/*
 * rb_reg_rgn_figures() - @g's summaries from the rounds' samples
 * (nanoseconds a round), and the medians per region.  Sorts them.  0, or
 * -EINVAL when a round is missing.
 */
int rb_reg_rgn_figures(struct rb_samples *reg_n, struct rb_samples *dereg_n,
		       struct rb_samples *reg_one, struct rb_samples *dereg_one,
		       struct rb_reg_rgn *g);

/*
 * The stream of one pass: @wrs RDMA WRITEs of @msg bytes, WR j from
 * rb_reg_rgn_src(j) with the lkey of its region (@lkey[region]; the one
 * region's pass: @lkey[0] for all, @one), to @raddr/@rkey (@depth x @msg
 * bytes, WR j at slot j mod @depth), at most @depth in flight, each
 * signaled; @warmup WRs first, one per region, not measured.
 */
struct rb_reg_stream {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	char *base; /* the buffer of n x size */
	const uint32_t *lkey;
	bool one;
	uint32_t n, msg, depth;
	uint64_t size, page, wrs, warmup;
	uint64_t raddr;
	uint32_t rkey;
	const char *what; /* for messages: "rxe0: 64 regions" */
};

/*
 * rb_reg_stream_run() - run @s; @p its measured interval and rate: t0
 * read once the warm-up completed, before the first measured post; t1
 * after the last measured completion is reaped.  0, or -errno logged
 * naming @s->what (a failed post or completion, no completion for
 * RB_REG_RGN_TIMEOUT_NS).
 */
int rb_reg_stream_run(const struct rb_reg_stream *s, struct rb_reg_pass *p);

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
