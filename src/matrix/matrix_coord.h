/* SPDX-License-Identifier: MIT */
/*
 * Rank 0 of rdmabench matrix: the coordinator (matrix_coord.c), over the
 * state it shares with its verdict (matrix_state.h, matrix_out.h).
 */
#ifndef RB_MATRIX_COORD_H
#define RB_MATRIX_COORD_H

#include "matrix/matrix_worker.h"

/* rb_mx_coordinate() - rank 0's part; the job's exit code. */
int rb_mx_coordinate(const struct rb_mx_job *j);

#endif
