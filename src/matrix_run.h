/* SPDX-License-Identifier: MIT */
/*
 * rdmabench matrix TEST: one test between every pair of ranks of a job.
 * Rank 0 coordinates (matrix_coord.c) and, like every rank, runs its
 * pairs as a worker (matrix_worker.c): each pair is a one-shot server and
 * a client of the session code, each in a child process.
 */
#ifndef RB_MATRIX_RUN_H
#define RB_MATRIX_RUN_H

#include "bench.h"
#include "matrix.h"
#include "matrix_wire.h"
#include "oob.h"
#include "opts.h"

/* What every rank knows of the job. */
struct rb_mx_job {
	const struct rb_bench *b;
	const char *test; /* as typed: a test or a family */
	struct rb_cli *c;
	unsigned int scope; /* the test's, with RB_S_MATRIX */
	struct rb_mx_id id;
	char host[64];
	char coord_host[128];
	uint16_t coord_port;
	int timeout_ms;
	char device[64]; /* -d, expanded for this rank */
	char bind[64];	 /* --bind, expanded */
};

/* rb_matrix_main() - "matrix TEST [options]": @argv[0] is "matrix". */
int rb_matrix_main(int argc, char **argv);

/* rb_mx_worker() - this rank's part: join, run the rounds; exit code. */
int rb_mx_worker(const struct rb_mx_job *j);

/* rb_mx_coordinate() - rank 0's part; the job's exit code. */
int rb_mx_coordinate(const struct rb_mx_job *j);

/*
 * rb_mx_recv() - one message on @o, waiting up to @o->timeout_ms; BEATs
 * (they only keep the connection alive) and OVERs (a rank that waits for
 * a ROUND or a GO has no server left to end) are skipped.
 */
int rb_mx_recv(struct rb_oob *o, uint16_t *type, uint8_t *body, uint32_t cap, uint32_t *len);

/* rb_mx_send() - one message of @type with the @n bytes packed into @body. */
int rb_mx_send(struct rb_oob *o, uint16_t type, const uint8_t *body, int n);

#endif
