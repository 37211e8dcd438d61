/* SPDX-License-Identifier: MIT */
/*
 * rdmabench matrix, the pure part: which pairs of ranks run in which
 * round (pairs, ring, incast:K, a pairs file), the outlier rule, the
 * expansion of %r/%l in per-rank options, the rank and job size from a
 * launcher's environment, Slurm node lists, and the CSV row.  Nothing here
 * touches a socket or a device; tests/unit/test_matrix.c drives it all.
 *
 * src/matrix/ (layer 9, the top folder): rdmabench matrix, many ranks
 * under a launcher; it runs tests through session/ and reads command lines
 * through cli/.  Only main.c sits above it.
 */
#ifndef RB_MATRIX_H
#define RB_MATRIX_H

#include <stdio.h>
#include "core/rdmabench.h"

enum rb_mx_pattern { RB_MX_PAIRS, RB_MX_RING, RB_MX_INCAST, RB_MX_FILE };

/* One ordered pair: @src is the client, @dst the server. */
struct rb_mx_pair {
	uint32_t src, dst;
	uint32_t round;
};

/* Every pair of a run, ordered by round. */
struct rb_mx_sched {
	struct rb_mx_pair *pairs;
	size_t n;
	uint32_t nrounds;
};

/*
 * rb_mx_pattern_parse() - "pairs", "ring" or "incast:K" (K >= 1) into @pat
 * and @k.  Returns 0 or -EINVAL with the reason in @err.
 */
int rb_mx_pattern_parse(const char *s, enum rb_mx_pattern *pat, uint32_t *k, char *err, size_t len);

/*
 * rb_mx_schedule() - the pairs of @pat over @n ranks (2..RB_MX_MAX_RANKS):
 *  pairs:    every ordered pair, in the rounds of a round-robin tournament
 *            (circle method): n-1 rounds one way, n-1 the other way (n
 *            rounds each way when n is odd, one rank resting per round);
 *  ring:     one round, every rank i to i+1 (mod n);
 *  incast:K: n rounds, round r has ranks r+1..r+K (mod n) to rank r.
 * Returns 0, -EINVAL (K >= n) with @err, or -ENOMEM.  Free with
 * rb_mx_sched_free().
 */
int rb_mx_schedule(enum rb_mx_pattern pat, uint32_t k, uint32_t n, struct rb_mx_sched *s, char *err,
		   size_t len);

/*
 * rb_mx_pairs_parse() - a pairs file over @n ranks: one "SRC DST" per
 * line, '#' comments and blank lines ignored.  The pairs go into rounds
 * of disjoint pairs, in file order (first fit).  Returns 0, or -EINVAL
 * with "line L: why" in @err, or -ENOMEM.
 */
int rb_mx_pairs_parse(const char *text, uint32_t n, struct rb_mx_sched *s, char *err, size_t len);

void rb_mx_sched_free(struct rb_mx_sched *s);

/* rb_mx_median() - the median of @n values (n >= 1), @v untouched. */
double rb_mx_median(const double *v, size_t n);

/*
 * rb_mx_out_of_line() - whether @v is out of line against @median with
 * @tol (0.10 for 10%): a bandwidth below median * (1 - tol), a latency
 * above median * (1 + tol).
 */
bool rb_mx_out_of_line(double v, double median, double tol, enum rb_mode mode);

/*
 * rb_mx_expand() - @fmt with %r (global rank), %R (rank + 1), %l (local
 * rank on the host), %L (local rank + 1) and %% replaced, into @out.
 * Returns 0, -EINVAL (another %) or -ENAMETOOLONG, with @err.
 */
int rb_mx_expand(const char *fmt, uint32_t rank, uint32_t local, char *out, size_t outlen,
		 char *err, size_t len);

/* Who this process is in the job. */
struct rb_mx_id {
	uint32_t rank, nranks, local;
	const char *launcher; /* "Open MPI", "Slurm", ...; NULL when none */
};

/*
 * rb_mx_env_id() - rank, size and local rank from the launcher's
 * environment @env ("NAME=value", NULL-terminated, as environ):
 * OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK, PMIX_RANK, PMI_RANK/PMI_SIZE
 * (MPI_LOCALRANKID), SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID, in that
 * order; the local rank is 0 when none says.  Returns 0, -ENOENT (no
 * launcher) or -EINVAL (a value that is not a rank) with @err.
 */
int rb_mx_env_id(char *const *env, struct rb_mx_id *id, char *err, size_t len);

/*
 * rb_mx_env_get() - the value of @name in @env, or NULL.
 */
const char *rb_mx_env_get(char *const *env, const char *name);

/*
 * rb_mx_nodelist_first() - the first host of a Slurm node list
 * ("node[01-04,07],gpu3" gives "node01").  Returns 0 or -EINVAL.
 */
int rb_mx_nodelist_first(const char *list, char *out, size_t len);

/*
 * rb_mx_nodelist_count() - how many hosts a Slurm node list names, or
 * -EINVAL; expanding also checks the syntax.
 */
int rb_mx_nodelist_count(const char *list);

/* One row of the matrix CSV. */
struct rb_mx_row {
	uint32_t src, dst;
	const char *src_host, *src_dev, *dst_host, *dst_dev;
	const char *test;
	uint64_t size;
	const struct rb_result *res; /* NULL: the pair did not measure */
	const char *status;	     /* "ok", "bad", "failed" */
	bool retested;
	const char *reason; /* failed or bad: why */
};

/* rb_mx_csv_header() - the header line, newline included. */
void rb_mx_csv_header(FILE *f);

/* rb_mx_csv_row() - one row; empty cells where a metric does not apply. */
void rb_mx_csv_row(FILE *f, const struct rb_mx_row *r);

#endif
