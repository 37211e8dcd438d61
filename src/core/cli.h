/* SPDX-License-Identifier: MIT */
/*
 * What a command line says, struct rb_cli, and where a row of the option
 * table (opts_table.c, rb_opts[]) puts its value in it: the table is
 * core's, so that the plan's readers (plan.c, wire_plan.c, the JSON,
 * compare, the dry run) walk its rows without reaching up to cli/, which
 * parses a command line with it (cli/opts.h).  Pure.
 */
#ifndef RB_CORE_CLI_H
#define RB_CORE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "core/rdmabench.h"

/*
 * Everything the command line says: the plan (sent to the peer), the local
 * choices (struct rb_local, never sent) and what only the parsing uses.
 */
#define RB_OPTS_MAX 128 /* rows of rb_opts[] and those registered (rb_opt_rows()) */

struct rb_opt_table;

struct rb_cli {
	struct rb_params p;
	struct rb_local l;
	uint8_t quiet;
	uint8_t verbose;
	uint8_t all;  /* -a: sizes 2..8M:x2 */
	uint8_t op;   /* enum rb_atomic_op */
	uint8_t mode; /* a family command: 0 lat, 1 bw */
	uint8_t help;
	uint8_t version;
	uint8_t help_all;
	uint8_t perftest_only; /* under perftest's name: only perftest's flags */
	/* --dry-run: print the plan, run nothing (dryrun.h) */
	uint8_t dry_run;
	char interval_arg[16]; /* --interval and --rate as typed (shape.h) */
	char flow_arg[128];    /* --flow-label as typed: N or N,N,... */
	char rate_arg[32];
	char reuse_arg[24];   /* --reuse as typed (issue 42, core/regcache.h) */
	char backoff_arg[32]; /* issue 42: --backoff as typed (core/lockstat.h) */
	/* perftest's flags whose meaning needs the whole command line (opts_perftest.c) */
	struct rb_pt_late {
		unsigned int bits; /* enum rb_pt_late_bit */
		char rate_unit[4];
		char limit_bw[24], limit_rate[24];
		/* The flags taken with no effect ("-F/--CPU-freq, --cpu_util"), for --dry-run */
		char ignored[192];
	} pt;
	/* Which rows the command line set (by index, rb_opt_row()'s), for
	 * defaults and checks. */
	uint8_t given[RB_OPTS_MAX];
	/* The command's own rows (opts_row.h's rb_opts_more_add(): matrix's)
	 * and the struct their values go into; NULL for a test. */
	const struct rb_opt_table *own;
	void *own_base;
};

/* -n when neither -n nor -D is given, as perftest's. */
#define DEF_ITERS_LAT 1000
#define DEF_ITERS_BW  5000

/*
 * rb_flows_parse() - --flow-label N[,N...]: up to RB_FLOW_MAX labels of 20
 * bits into @v, their count in *@n; 0 or -EINVAL with the reason in @err.
 */
int rb_flows_parse(const char *arg, uint32_t *v, uint32_t *n, char *err, size_t len);

#endif
