/* SPDX-License-Identifier: MIT */
/*
 * What every rank of rdmabench matrix knows of the job, and the part every
 * rank plays, rank 0 included: the worker (matrix_worker.c), which joins
 * the coordinator and runs its pairs of each round.  With the two message
 * helpers every role uses, this is the bottom of the matrix files: the
 * command line (matrix_run.c) starts the coordinator (matrix_coord.c) or a
 * worker, the coordinator its own worker and its rounds' verdict
 * (matrix_out.c); none of them is included from below.
 */
#ifndef RB_MATRIX_WORKER_H
#define RB_MATRIX_WORKER_H

#include "core/bench.h"
#include "matrix/matrix.h"
#include "matrix/matrix_opts.h"
#include "wire/matrix_wire.h"
#include "wire/oob.h"
#include "cli/opts.h"

/* What every rank knows of the job. */
struct rb_mx_job {
	const struct rb_bench *b;
	const char *test; /* as typed: a test or a family */
	struct rb_cli *c;
	struct rb_matrix_opts m; /* matrix's own options (matrix_opts.h) */
	unsigned int scope;	 /* the test's, with RB_S_MATRIX */
	struct rb_mx_id id;
	char host[64];
	char coord_host[128];
	uint16_t coord_port;
	int timeout_ms;
	char device[64];      /* -d, expanded for this rank */
	char bind[64];	      /* --bind, expanded */
	char cuda[64];	      /* --use-cuda's GPU, expanded */
	struct rb_mx_sim sim; /* --simulate: sim.on */
	bool spawn_all;	      /* --simulate --nranks N alone: rank 0 forks the N ranks */
	const char *found;    /* how coord_host was found: "pmix", "slurm", ... */
};

/* rb_mx_worker() - this rank's part: join, run the rounds; exit code. */
int rb_mx_worker(const struct rb_mx_job *j);

/*
 * rb_mx_recv() - one message on @o, waiting up to @o->timeout_ms; BEATs
 * (they only keep the connection alive) and OVERs (a rank that waits for
 * a ROUND or a GO has no server left to end) are skipped.
 */
int rb_mx_recv(struct rb_oob *o, uint16_t *type, uint8_t *body, uint32_t cap, uint32_t *len);

/* rb_mx_send() - one message of @type with the @n bytes packed into @body. */
int rb_mx_send(struct rb_oob *o, uint16_t type, const uint8_t *body, int n);

#endif
