/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per option drives getopt_long, range checks
 * (messages name the option and the rule), --help, per-test help, and the
 * man page's OPTIONS section.  Pure: parsing writes into struct rb_cli and
 * reports errors as text; nothing here exits.
 *
 * src/cli/ (layer 8, over session and below): the command line: the option
 * table (opts_table.c), parsing and checks (opts.c, opts_parse.c) and
 * perftest's spellings (opts_perftest.c).
 */
#ifndef RB_OPTS_H
#define RB_OPTS_H

#include <stdio.h>
#include "core/bench.h"
#include "core/opts_row.h"
#include "report/output.h"
#include "core/rdmabench.h"

/*
 * Everything the command line says: the plan (sent to the peer), the local
 * choices (struct rb_local, never sent) and what only the parsing uses.
 */
#define RB_OPTS_MAX 128 /* rows of rb_opts[], checked at build time */

/* The command line of "matrix" (struct rb_cli's m). */
struct rb_matrix_opts {
	char pattern[32];      /* pairs|ring|incast:K; empty: pairs */
	char pairs_file[256];  /* the pairs to run, instead of a pattern */
	uint32_t tolerance;    /* percent */
	char coordinator[128]; /* HOST[:PORT] of rank 0 */
	uint32_t rank;
	uint32_t nranks;
	char simulate[64]; /* --simulate as typed (matrix.h's rb_mx_sim_parse); "": measure */
	uint32_t seed;	   /* --seed: the simulation's synthetic figures */
};

/* rdmabench reg's defaults: the sizes and the registrations per size. */
#define RB_REG_DEF_SIZES "4K..256M:x4"
#define RB_REG_DEF_COUNT 100

/* What reg's command line says beyond the shared rows (struct rb_cli's r). */
struct rb_reg_opts {
	char access[96];  /* --access as typed; "": local-write */
	uint8_t odp_mode; /* --odp-mode: 0 explicit, 1 implicit */
	uint8_t prefetch; /* --prefetch */
	uint8_t unaligned;
};

struct rb_cli {
	struct rb_params p;
	struct rb_local l;
	struct rb_matrix_opts m; /* rdmabench matrix only */
	struct rb_reg_opts r;	 /* rdmabench reg only */
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
	char backoff_arg[32]; /* issue 42: --backoff as typed (core/lockstat.h) */
	/* perftest's flags whose meaning needs the whole command line (opts_perftest.c) */
	struct rb_pt_late {
		unsigned int bits; /* enum rb_pt_late_bit */
		char rate_unit[4];
		char limit_bw[24], limit_rate[24];
		/* The flags taken with no effect ("-F/--CPU-freq, --cpu_util"), for --dry-run */
		char ignored[192];
	} pt;
	/* Which rows the command line set (by index), for defaults and checks. */
	uint8_t given[RB_OPTS_MAX];
};

/* rb_opt_index() - row of the option named @lname, or -1. */
int rb_opt_index(const char *lname);

/* rb_opt_index_of() - the index in rb_opts[] of the row that carries @id, or -1. */
int rb_opt_index_of(enum rb_opt_id id);

/* rb_cli_given() - whether the command line set the option of row @id. */
bool rb_cli_given(const struct rb_cli *c, enum rb_opt_id id);

/*
 * rb_cli_take() - option row @row (-1: none, a bug) given with @arg to
 * command @cmd of @scope: it must apply and not be given twice; sets its
 * field.  0, or -EINVAL with a message naming the option.
 */
int rb_cli_take(struct rb_cli *c, int row, const char *cmd, unsigned int scope, const char *arg,
		char *err, size_t len);

/* rb_man_text() - @s with what troff takes as markup escaped. */
void rb_man_text(FILE *f, const char *s);

/* rb_cli_init() - all fields at their test-independent defaults. */
void rb_cli_init(struct rb_cli *c);

/*
 * rb_cli_parse() - parse @argv (argv[0] is the subcommand) for command
 * @cmd of scope @scope (RB_S_*).  Checks types, ranges and that each option
 * applies to @cmd.  Returns 0, or -EINVAL with a message naming the option
 * in @err.
 */
int rb_cli_parse(struct rb_cli *c, const char *cmd, unsigned int scope, int argc, char **argv,
		 char *err, size_t errlen);

/*
 * rb_cli_finish() - for test @b (a family command resolved by --mode when
 * @scope has RB_S_FAMILY): check that every option given applies to it,
 * apply the test's defaults (size, iterations, depths, inline) for what
 * the command line left unset, and check combinations, naming both options
 * in @err.  The plan is then valid (plan.c).
 */
int rb_cli_finish(struct rb_cli *c, const struct rb_bench *b, unsigned int scope, char *err,
		  size_t errlen);

/*
 * rb_cli_client_only() - the options on the command line that only a
 * client uses (the plan: the server adopts the client's), as
 * "-s/--size, -n/--iters" into @buf; empty when none.
 */
void rb_cli_client_only(const struct rb_cli *c, char *buf, size_t len);

/*
 * rb_usage() - help for @cmd listing the options of @scope: the common
 * ones a line each, grouped (--help), or with @all every one with its
 * whole text, then perftest's flags (--help-all).
 */
void rb_usage(FILE *f, const char *cmd, unsigned int scope, bool all);

/*
 * rb_list_options() - for shell completion, one line per option of
 * @scope: long name, short name, argument name, choices, tab-separated.
 */
void rb_list_options(FILE *f, unsigned int scope);

/* rb_man_options() - the man page OPTIONS section, from the table. */
void rb_man_options(FILE *f);

#endif
