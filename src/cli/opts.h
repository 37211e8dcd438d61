/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per option drives getopt_long, range checks
 * (messages name the option and the rule), --help, per-test help, and the
 * man page's OPTIONS section.  Pure: parsing writes into struct rb_cli and
 * reports errors as text; nothing here exits.
 *
 * src/cli/ (layer 8, over session and below): the tests' command line
 * over core's one parser (core/opts_parser.h) and option table
 * (core/opts_table.c, struct rb_cli in core/cli.h): what a row given
 * means here (opts.c: scope, the checks above core in opts_check.c), the
 * host (opts_parse.c), perftest's spellings (opts_perftest.c), defaults
 * and combinations (rb_cli_finish()).
 */
#ifndef RB_OPTS_H
#define RB_OPTS_H

#include <stdio.h>
#include "core/bench.h"
#include "core/cli.h"
#include "core/opts_row.h"
#include "report/output.h"
#include "core/rdmabench.h"

/* rb_opt_index_of() - the index in rb_opts[] of the row that carries @id, or -1. */
int rb_opt_index_of(enum rb_opt_id id);

/* rb_cli_given() - whether the command line set the option of row @id. */
bool rb_cli_given(const struct rb_cli *c, enum rb_opt_id id);

/*
 * rb_cli_given_row() - whether the command line set row @o: one of
 * rb_opts[] or of a registered table (matrix's, core/opts_row.h).
 */
bool rb_cli_given_row(const struct rb_cli *c, const struct rb_opt *o);

/*
 * rb_cli_take() - option row @row (rb_opt_row()'s; -1: none, a bug) given
 * with @arg to command @cmd of @scope: it must apply and not be given
 * twice; sets its field (a registered table's row: in @c->own_base, when
 * it is @c->own's).  0, or -EINVAL with a message naming the option.
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

/*
 * A command's own table (core/opts_row.h: reg's): rb_opt_usage() its
 * --help (@all: --help-all) after the line @usage, as rb_usage() the
 * tests'; rb_man_rows() its rows as the man page's OPTIONS has them.
 */
void rb_opt_usage(FILE *f, const char *usage, const struct rb_opt_table *t, bool all);
void rb_man_rows(FILE *f, const struct rb_opt_table *t);

#endif
