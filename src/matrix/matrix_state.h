/* SPDX-License-Identifier: MIT */
/*
 * The coordinator's state, shared by matrix_coord.c (ranks, rounds, the
 * protocol) and matrix_out.c (schedule, retests, verdict, outputs): types
 * only, so that neither file's header includes the other's.
 */
#ifndef RB_MATRIX_STATE_H
#define RB_MATRIX_STATE_H

#include <sys/types.h>
#include "matrix/matrix_keep.h"
#include "matrix/matrix_worker.h"

struct rb_mx_rank {
	struct rb_oob o;	  /* fd -1 when not connected */
	struct rb_auth_chan auth; /* --auth-key: o.auth once joined */
	bool joined, dead;
	char host[RB_MX_STR];
	char device[RB_MX_STR]; /* from JOIN: -d expanded, may be empty */
	char addr[RB_MX_STR];	/* where its servers listen */
	char why[160];		/* dead: why */
	uint64_t heard;		/* ns of its last message */
	uint16_t await;		/* READY or DONE owed this round; 0: nothing */
	bool in_round;		/* sent this round's ROUND: gets its GO */
};

enum rb_mx_state { RB_MX_PENDING, RB_MX_OK, RB_MX_FAILED };

/*
 * What became of one pair of the schedule: a few dozen bytes, the rest in
 * the coordinator's pool (matrix_keep.h).
 */
struct rb_mx_outcome {
	uint8_t st; /* enum rb_mx_state */
	bool bad, retested;
	uint32_t round_id; /* the last round it ran in */
	uint32_t side[2];  /* pool ids, [0] src and [1] dst, from each side's RESULT */
	size_t res;	   /* st RB_MX_OK: its client's result in the pool */
	double metric;	   /* st RB_MX_OK: the figure it is judged by */
	char *reason;	   /* failed or bad: why (malloc'd); NULL: none */
};

struct rb_mx_coord {
	const struct rb_mx_job *j;
	int lfd;
	struct rb_mx_rank *r;
	uint32_t n, njoined;
	struct rb_mx_sched s;
	struct rb_mx_outcome *out; /* one per pair of s */
	struct rb_mx_pool pool;	   /* what the outcomes point to */
	uint32_t round;		   /* the round in progress, from 1 */
	uint64_t beat_at, t0;
	uint64_t t_joined, t_rounds; /* ns: every rank in; the rounds and retests over */
	pid_t self;		     /* rank 0's worker */
	pid_t *spawned;		     /* j->spawn_all: every rank's worker, rank 0's too */
	double median;
	size_t nbad, nfailed;
	uint32_t *suspects, nsuspects; /* suspects:K's, from its rings */
	uint32_t *bad_ranks, nbad_ranks;
};

/*
 * A runner of the pairs @idx of c->s at once (matrix_coord.c's): their
 * outcomes in c->out; 0 or -EINTR.  matrix_out.c is handed it, so that it
 * runs rounds and retests without calling up into the coordinator.
 */
typedef int rb_mx_round_fn(struct rb_mx_coord *c, const size_t *idx, size_t np);

#endif
