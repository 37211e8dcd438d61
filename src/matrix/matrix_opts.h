/* SPDX-License-Identifier: MIT */
/*
 * rdmabench matrix's own options (matrix_opts.c): the struct their rows
 * fill and the rows, by index, for rb_cli_given_row() (cli/opts.h).
 */
#ifndef RB_MATRIX_OPTS_H
#define RB_MATRIX_OPTS_H

#include <stdint.h>

#include "core/cli.h"
#include "core/opts_row.h"

/* What matrix's command line says beyond the test's. */
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

enum {
	MX_O_PATTERN,
	MX_O_PAIRS_FILE,
	MX_O_TOLERANCE,
	MX_O_COORDINATOR,
	MX_O_RANK,
	MX_O_NRANKS,
	MX_O_SIMULATE,
	MX_O_SEED,
	MX_O_N
};

extern const struct rb_opt rb_mx_rows[MX_O_N];
extern const struct rb_opt_table rb_mx_opt_table;

/*
 * rb_mx_opts_init() - @m at its defaults, and @c's own rows matrix's, their
 * values into @m (rb_cli_init() first).
 */
void rb_mx_opts_init(struct rb_matrix_opts *m, struct rb_cli *c);

#endif
