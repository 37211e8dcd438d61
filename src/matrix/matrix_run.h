/* SPDX-License-Identifier: MIT */
/*
 * rdmabench matrix TEST: one test between every pair of ranks of a job.
 * Rank 0 coordinates (matrix_coord.h) and, like every rank, runs its
 * pairs as a worker (matrix_worker.h): each pair is a one-shot server and
 * a client of the session code, each in a child process.
 */
#ifndef RB_MATRIX_RUN_H
#define RB_MATRIX_RUN_H

/* rb_matrix_main() - "matrix TEST [options]": @argv[0] is "matrix". */
int rb_matrix_main(int argc, char **argv);

#endif
