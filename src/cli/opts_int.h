/* SPDX-License-Identifier: MIT */
/*
 * Between the command line's files (opts.c, opts_parse.c, opts_help.c,
 * opts_check.c) only: the usage error and the checks of the rows whose
 * rule lives above the table (core/opts_table.c).
 */
#ifndef RB_OPTS_INT_H
#define RB_OPTS_INT_H

#include <stddef.h>

#include "cli/opts.h"
#include "core/opts_off.h"

/* --help's width: $COLUMNS (40..1000), else 80. */
int rb_help_width(void);

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

/*
 * The syntax checks of rows whose rule is a layer above core/ (--use-cuda's
 * GPU, --expect's and --recommend's expressions, --counters' list), by the
 * row's id: opts_check.c.  The row's own .check and .next_is_arg, when it
 * has them, come first.
 */
int rb_cli_check(const struct rb_opt *o, const char *arg, char *err, size_t len);
bool rb_cli_next_is_arg(const struct rb_opt *o, const char *word);

#endif
