// SPDX-License-Identifier: MIT
/*
 * rdmabench matrix's own options: the job and its verdict (--pattern,
 * --tolerance, --rank, ...), rows over struct rb_matrix_opts.  matrix's
 * command line is a test's plus these: the table registers itself with
 * core before main() (core/opts_row.h's rb_opts_more_add()), so that the
 * tests' parser, --help, completion and the man page know its rows, and
 * a test refuses one by name ("--pattern does not apply to send_bw").
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/bench.h"
#include "core/cli.h"
#include "core/opts_row.h"
#include "matrix/matrix_opts.h"

#define MX(f)	offsetof(struct rb_matrix_opts, f)
#define MSTR(f) .off = MX(f), .size = sizeof(((struct rb_matrix_opts *)0)->f)

const struct rb_opt rb_mx_rows[MX_O_N] = {
	/* In enum order (matrix_opts.h; test_matrix_opts checks the names). */
	{ .lname = "pattern",
	  .section = RB_SEC_MATRIX,
	  .brief = "which pairs run: pairs, ring, ...",
	  .common = true,
	  .type = RB_OPT_STR,
	  MSTR(pattern),
	  .argname = "pairs|ring|incast:K|suspects[:K]",
	  .def = "pairs",
	  .need = RB_S_MATRIX,
	  .help = "which pairs run: pairs, every ordered pair in rounds of a round-robin "
		  "tournament; ring, every rank to the next at once; incast:K, K senders to "
		  "each rank in turn; suspects:K (K=3), K rings (rank i to i+1, ..., i+K), "
		  "then each rank with over half its pairs out of line meets K others and "
		  "the other suspects, both ways" },
	{ .lname = "pairs-file",
	  .section = RB_SEC_MATRIX,
	  .brief = "run the pairs listed in FILE",
	  .type = RB_OPT_STR,
	  MSTR(pairs_file),
	  .argname = "FILE",
	  .need = RB_S_MATRIX,
	  .help = "run the pairs in FILE instead of a pattern: one 'SRC DST' (ranks) per line, "
		  "# comments" },
	{ .lname = "tolerance",
	  .section = RB_SEC_MATRIX,
	  .brief = "out of line past PCT% from the median",
	  .common = true,
	  .type = RB_OPT_U32,
	  .off = MX(tolerance),
	  .pct = true,
	  .min = 1,
	  .max = 1000,
	  .argname = "PCT",
	  .def = "10",
	  .need = RB_S_MATRIX,
	  .help = "a pair is out of line when its bandwidth is more than PCT% below the median "
		  "of all pairs, or its p50 latency more than PCT% above it; it is retested "
		  "alone, and flagged bad if it still is" },
	{ .lname = "coordinator",
	  .section = RB_SEC_MATRIX,
	  .brief = "where rank 0 coordinates: HOST[:PORT]",
	  .type = RB_OPT_STR,
	  MSTR(coordinator),
	  .argname = "HOST[:PORT]",
	  .def = "rank 0's address from the job's PMIx server (when built with PMIx); else "
		 "the first host of Slurm's node list; localhost when mpirun started every "
		 "rank on one host",
	  .need = RB_S_MATRIX,
	  .help = "where rank 0 coordinates the job; PORT defaults to -p/--port" },
	{ .lname = "rank",
	  .section = RB_SEC_MATRIX,
	  .brief = "this rank, when no launcher says",
	  .type = RB_OPT_U32,
	  .off = MX(rank),
	  .max = RB_MX_MAX_RANKS - 1,
	  .argname = "R",
	  .def = "from the launcher (mpirun, srun)",
	  .need = RB_S_MATRIX,
	  .help = "this process's rank, with --nranks, when no launcher says" },
	{ .lname = "nranks",
	  .section = RB_SEC_MATRIX,
	  .brief = "ranks in the job, with --rank",
	  .type = RB_OPT_U32,
	  .off = MX(nranks),
	  .min = 2,
	  .max = RB_MX_MAX_RANKS,
	  .argname = "N",
	  .def = "from the launcher",
	  .need = RB_S_MATRIX,
	  .help = "ranks in the job, with --rank (-s/--size is the message size); with "
		  "--simulate and no --rank, this process starts all N ranks itself" },
	{ .lname = "simulate",
	  .section = RB_SEC_MATRIX,
	  .brief = "synthetic figures, nothing measured",
	  .type = RB_OPT_STR,
	  MSTR(simulate),
	  .argname = "outlier=R[,slow=PCT]|none",
	  .need = RB_S_MATRIX,
	  .help = "measure nothing: every pair returns a synthetic figure (seeded by --seed), "
		  "PCT% worse (default 50) for each pair rank R is in; the rounds, retests and "
		  "verdict are the real ones.  For the coordinator's cost at scale" },
	{ .lname = "seed",
	  .section = RB_SEC_MATRIX,
	  .brief = "--simulate: the seed of its figures",
	  .type = RB_OPT_U32,
	  .off = MX(seed),
	  .max = UINT32_MAX,
	  .argname = "N",
	  .def = "1",
	  .need = RB_S_MATRIX,
	  .help = "--simulate's seed: the same seed gives the same figures" },
};

const struct rb_opt_table rb_mx_opt_table = { "matrix", rb_mx_rows, MX_O_N };

/* Before main(): the tests' command line knows matrix's rows. */
__attribute__((constructor)) static void register_rows(void)
{
	rb_opts_more_add(&rb_mx_opt_table);
}

void rb_mx_opts_init(struct rb_matrix_opts *m, struct rb_cli *c)
{
	memset(m, 0, sizeof(*m));
	m->tolerance = RB_MX_DEFAULT_TOLERANCE;
	m->seed = 1;
	c->own = &rb_mx_opt_table;
	c->own_base = m;
}
