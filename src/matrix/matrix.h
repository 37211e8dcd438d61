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

enum rb_mx_pattern { RB_MX_PAIRS, RB_MX_RING, RB_MX_INCAST, RB_MX_FILE, RB_MX_SUSPECTS };

/* suspects without :K: three rings, and three others per suspect. */
#define RB_MX_SUSPECTS_K 3
/* More suspects than this: the rings saw no few bad ranks, and pairing
 * them all would be the pairs pattern again. */
#define RB_MX_SUSPECTS_MAX 32

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
 * rb_mx_pattern_parse() - "pairs", "ring", "incast:K" or "suspects[:K]"
 * (K >= 1) into @pat and @k.  Returns 0 or -EINVAL with the reason in @err.
 */
int rb_mx_pattern_parse(const char *s, enum rb_mx_pattern *pat, uint32_t *k, char *err, size_t len);

/*
 * rb_mx_schedule() - the pairs of @pat over @n ranks (2..RB_MX_MAX_RANKS):
 *  pairs:    every ordered pair, in the rounds of a round-robin tournament
 *            (circle method): n-1 rounds one way, n-1 the other way (n
 *            rounds each way when n is odd, one rank resting per round);
 *  ring:     one round, every rank i to i+1 (mod n);
 *  incast:K: n rounds, round r has ranks r+1..r+K (mod n) to rank r;
 *  suspects:K: the first part, K rounds, round j-1 a ring of every rank i
 *            to i+j (mod n); rb_mx_suspect_pairs() adds the rest.
 * Returns 0, -EINVAL (K >= n) with @err, or -ENOMEM.  Free with
 * rb_mx_sched_free().
 */
int rb_mx_schedule(enum rb_mx_pattern pat, uint32_t k, uint32_t n, struct rb_mx_sched *s, char *err,
		   size_t len);

/* rb_mx_sched_sort() - the pairs from @first on, in round order. */
void rb_mx_sched_sort(struct rb_mx_sched *s, size_t first);

/*
 * rb_mx_first_fit() - the first round from @from where neither @src nor
 * @dst is in a pair of @s from index @first on.
 */
uint32_t rb_mx_first_fit(const struct rb_mx_sched *s, size_t first, uint32_t from, uint32_t src,
			 uint32_t dst);

/* rb_mx_has_pair() - whether @s holds the pair @src -> @dst. */
bool rb_mx_has_pair(const struct rb_mx_sched *s, uint32_t src, uint32_t dst);

/*
 * rb_mx_rank_rule() - the ranks (below @n) more than half of whose pairs
 * in @s are @flagged (one flag per pair), at most @cap of them into @out;
 * how many.  With one bad rank among fault-free ones, every pair it is in
 * is flagged and at most one of each other rank's ring pairs: the rule
 * names it alone.  suspects:K picks its suspects by it (pairs out of
 * line), and every verdict its bad ranks (pairs bad after the retest).
 */
size_t rb_mx_rank_rule(const struct rb_mx_sched *s, const bool *flagged, uint32_t n, uint32_t *out,
		       size_t cap);

/*
 * rb_mx_suspect_pairs() - suspects:K's second part, appended to @s (its
 * rings): each of the @ns suspects @sus both ways with @k other ranks
 * spread over the @n (no suspects), and with every other suspect; no
 * pair twice.  Their rounds follow the schedule's, first fit.  Returns 0
 * or -ENOMEM (@s then as it was, but for its allocation).
 */
int rb_mx_suspect_pairs(struct rb_mx_sched *s, uint32_t k, uint32_t n, const uint32_t *sus,
			size_t ns);

/*
 * --simulate: ranks measure nothing; each pair's client returns a figure
 * made of the seed, the pair and the round (within 2% of a fixed one),
 * @slow percent worse when the pair has rank @outlier.
 */
#define RB_MX_SIM_NONE	 UINT32_MAX
#define RB_MX_SIM_GBPS	 92.0 /* bandwidth tests' figure */
#define RB_MX_SIM_P50_US 2.0  /* latency tests' p50 */
struct rb_mx_sim {
	bool on;
	uint32_t seed;
	uint32_t outlier; /* RB_MX_SIM_NONE: none */
	uint32_t slow;	  /* percent, 1..90 */
};

/*
 * rb_mx_sim_parse() - "outlier=R[,slow=PCT]" or "none", with @seed, into
 * @sim.  The rank is checked against the job by the caller.  Returns 0 or
 * -EINVAL with @err.
 */
int rb_mx_sim_parse(const char *s, uint32_t seed, struct rb_mx_sim *sim, char *err, size_t len);

/*
 * rb_mx_sim_result() - the synthetic figure of pair @src -> @dst in round
 * @round: a latency summary or a bandwidth and message rate of @size.
 */
void rb_mx_sim_result(const struct rb_mx_sim *sim, enum rb_mode mode, uint64_t size, uint32_t src,
		      uint32_t dst, uint32_t round, struct rb_result *r);

/*
 * rb_mx_pairs_parse() - a pairs file over @n ranks: one "SRC DST" per
 * line, '#' comments and blank lines ignored.  The pairs go into rounds
 * of disjoint pairs, in file order (first fit).  Returns 0, or -EINVAL
 * with "line L: why" in @err, or -ENOMEM.
 */
int rb_mx_pairs_parse(const char *text, uint32_t n, struct rb_mx_sched *s, char *err, size_t len);

void rb_mx_sched_free(struct rb_mx_sched *s);

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
