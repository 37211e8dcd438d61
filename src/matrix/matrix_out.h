/* SPDX-License-Identifier: MIT */
/*
 * The coordinator's schedule, rounds and verdict (matrix_out.c): the pairs
 * of the job, every round of them and the retests, run through the round
 * runner the coordinator hands over, then the matrix, --csv and --json.
 */
#ifndef RB_MATRIX_OUT_H
#define RB_MATRIX_OUT_H

#include "matrix/matrix_state.h"

/* rb_mx_job_schedule() - the pairs of the job: its pattern or pairs file. */
int rb_mx_job_schedule(const struct rb_mx_job *j, struct rb_mx_sched *s, char *err, size_t len);

/* rb_mx_check_outputs() - --csv and --json can be written: 0 or exit 2. */
int rb_mx_check_outputs(const struct rb_mx_job *j);

/* rb_mx_run_all() - every round through @run_round, then the retests; 0 or -EINTR. */
int rb_mx_run_all(struct rb_mx_coord *c, rb_mx_round_fn *run_round);

/* rb_mx_metric() - the figure a pair is judged by, of its result @res. */
double rb_mx_metric(const struct rb_mx_coord *c, const struct rb_result *res);

/* rb_mx_set_reason() - why @o failed or is bad: @why, or none when "". */
void rb_mx_set_reason(struct rb_mx_outcome *o, const char *why);

/* rb_mx_free_outcomes() - every outcome of @c and its pool. */
void rb_mx_free_outcomes(struct rb_mx_coord *c);

/* rb_mx_verdict_out() - the table, CSV and JSON; the job's exit code. */
int rb_mx_verdict_out(struct rb_mx_coord *c, int ret);

#endif
