/* SPDX-License-Identifier: MIT */
/*
 * A point's stages, and the run features that hook into them.
 *
 * sess_client_point() and sess_server_point() (point.c) are fixed stages: start
 * (rb_point_begin(), the path, the row's prepare), the steps before the
 * stream (rb_point_steps(): --threads' rendezvous, --probe's idle pings,
 * the barrier), the row's loop, STOP, RESULT and the counters, the row's
 * result, the peer's figures, emit.  A run feature that acts at a point
 * is one row of sess_point_hooks[] (point.c), in a file of its own
 * (hook_*.c), and a stage calls each hook that is on, in the table's
 * order; no stage names a feature.
 */
#ifndef RB_POINT_HOOK_H
#define RB_POINT_HOOK_H

#include <stdbool.h>

#include "core/rdmabench.h"
#include "wire/wire.h"

struct session;

/* One point as the stages pass it on. */
struct sess_point {
	uint32_t i;
	struct rb_msg_result m; /* client: the server's RESULT; server: its own */
	struct rb_result res;	/* this side's figures, then the point's */
};

enum { SESS_CLIENT = 1u << 0, SESS_SERVER = 1u << 1 };

struct sess_point_hook {
	const char *name;
	unsigned int sides; /* SESS_CLIENT, SESS_SERVER: where the hook runs */
	/* Whether this session's plan uses it; NULL: always. */
	bool (*on)(const struct session *s);
	/* The server sends the point's STOP (it streamed): the client does not. */
	bool server_stops;
	/* The point is ready (run, path, row): before the steps and the barrier. */
	void (*setup)(struct session *s);
	/* Around the row's loop: @ret is the loop's, returned or replaced. */
	void (*run_begin)(struct session *s);
	int (*run_end)(struct session *s, int ret);
	/* STOP is out (or in): before RESULT. */
	void (*after_stop)(struct session *s);
	/* Client: the server's RESULT and counters arrived (pt->m). */
	void (*peer_in)(struct session *s, struct sess_point *pt);
	/* Client: the row's result is in pt->res; 0 or -errno. */
	int (*after_result)(struct session *s, struct sess_point *pt);
	/* Client: the server's figures into the point's (pt->m into pt->res). */
	void (*merge_peer)(struct session *s, struct sess_point *pt);
	/* The point's figures are final: before they are emitted. */
	void (*before_emit)(struct session *s, struct sess_point *pt);
};

/* The hooks, one file each. */
extern const struct sess_point_hook sess_hook_forever;	/* -D 0 */
extern const struct sess_point_hook sess_hook_probe;	/* --probe */
extern const struct sess_point_hook sess_hook_diag;	/* counters, --expect */
extern const struct sess_point_hook sess_hook_reversed; /* --reversed */
extern const struct sess_point_hook sess_hook_peer;	/* the server's figures as the peer's */
extern const struct sess_point_hook sess_hook_bidir;	/* -b */

/* The table the stages walk, in order; NULL-terminated. */
extern const struct sess_point_hook *const sess_point_hooks[];

/* point.c, for session.c: a point's start (both sides, before the
 * barrier), and the rest of one point of each side. */
int sess_point_start(struct session *s, uint32_t i);
/* --threads: a beat to the server while waiting for the other threads (@arg: the session). */
int sess_thread_beat(void *arg, uint32_t i);
int sess_client_point(struct session *s, uint32_t i);
int sess_server_point(struct session *s, uint32_t i);

#endif
