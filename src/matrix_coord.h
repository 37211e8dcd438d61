/* SPDX-License-Identifier: MIT */
/*
 * The coordinator's state, shared by matrix_coord.c (ranks, rounds, the
 * protocol) and matrix_out.c (schedule, retests, verdict, outputs).
 */
#ifndef RB_MATRIX_COORD_H
#define RB_MATRIX_COORD_H

#include <sys/types.h>
#include "matrix_run.h"

struct rb_mx_rank {
	struct rb_oob o; /* fd -1 when not connected */
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

/* What became of one pair of the schedule. */
struct rb_mx_outcome {
	enum rb_mx_state st;
	bool bad, retested;
	uint32_t round_id; /* the last round it ran in */
	struct rb_result res;
	char src_dev[RB_MX_STR], dst_dev[RB_MX_STR];
	struct rb_placement src_place, dst_place;
	char reason[RB_MX_REASON];
};

struct rb_mx_coord {
	const struct rb_mx_job *j;
	int lfd;
	struct rb_mx_rank *r;
	uint32_t n, njoined;
	struct rb_mx_sched s;
	struct rb_mx_outcome *out; /* one per pair of s */
	uint32_t round;		   /* the round in progress, from 1 */
	uint64_t beat_at, t0;
	pid_t self; /* rank 0's worker */
	double median;
	size_t nbad, nfailed;
};

/* rb_mx_fail_pair() - pair @pi failed, if it was pending: why. */
void rb_mx_fail_pair(struct rb_mx_coord *c, size_t pi, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* rb_mx_run_round() - the pairs @idx at once; 0 or -EINTR. */
int rb_mx_run_round(struct rb_mx_coord *c, const size_t *idx, size_t np);

/* rb_mx_job_schedule() - the pairs of the job: its pattern or pairs file. */
int rb_mx_job_schedule(const struct rb_mx_job *j, struct rb_mx_sched *s, char *err, size_t len);

/* rb_mx_check_outputs() - --csv and --json can be written: 0 or exit 2. */
int rb_mx_check_outputs(const struct rb_mx_job *j);

/* rb_mx_run_all() - every round, then the retests; 0 or -EINTR. */
int rb_mx_run_all(struct rb_mx_coord *c);

/* rb_mx_verdict_out() - the table, CSV and JSON; the job's exit code. */
int rb_mx_verdict_out(struct rb_mx_coord *c, int ret);

#endif
