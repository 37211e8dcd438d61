/* SPDX-License-Identifier: MIT */
/*
 * The engine as the session sees it: a run made once per connection,
 * told of the connection (struct rb_conn, engine/conn.h), put at each
 * point's start and end, and read once a point is over; the session
 * writes none of its fields (struct rb_run is engine/run.h's, for
 * src/engine/ and the test rows only).
 *
 * src/engine/ (layer 5, over report and below): the measuring loops,
 * one file per loop shape (pingpong.c, oneshot.c, stream.c) over posting
 * (post.c), completions (complete.c), the measured interval (interval.c)
 * and the result (result.c), with their hot helpers inline in loop.h and
 * run.h; the run's life in run.c; and the control channel as a point
 * sees it (ctl.h: barrier, alive, poll, stop, result).  A test's row
 * (src/bench/) calls only what run.h declares; the loops know nothing of
 * the wire.
 */
#ifndef RB_XFER_H
#define RB_XFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/conn.h"
#include "engine/ctl.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/bench.h"
#include "rdma/verbs.h"
#include "rdma/cuda.h"

/* The run (engine/run.h): the engine's, and the test rows'. */
struct rb_run;
struct rb_interval;

/*
 * Test hook: every --verify check fails, as if the data were corrupt.  Set
 * on a server by RDMABENCH_HOOK_BAD_VERIFY=1, for the lab's fault tests.
 */
extern bool rb_hook_bad_verify;

/* What the run is given once: its test, plan, peer and bounds. */
struct rb_run_cfg {
	const struct rb_bench *bench;
	enum rb_role role;
	const struct rb_params *p;
	struct rb_ctl *ctl;
	uint64_t timeout_ns;
	const bool *cancel;    /* --threads: another thread failed */
	uint64_t *progress_ns; /* --threads: refreshed with each heartbeat */
	/* Told of each interval as it ends (the session prints it), or NULL. */
	void (*on_interval)(void *ctx, const struct rb_run *r, const struct rb_interval *iv);
	void *iv_ctx;
	/* Told of each client heartbeat (about once a second), with iv_ctx; or NULL. */
	void (*on_beat)(void *ctx, const struct rb_run *r);
};

/* The point a run starts: its index in the plan, its axes, this side's data role. */
struct rb_point_at {
	uint32_t index;
	enum rb_role role; /* the data's: the server's with --reversed */
	struct rb_point pt;
};

/*
 * The run's life (run.c); the session writes none of its fields.
 * rb_run_init() - @r (zeroed) takes @cfg; again when a server learns its test.
 * rb_run_conn() - the connection @c is made: the run takes its copy,
 *   makes its per-QP state (send queues, --wr-lat's records) and runs
 *   the test's .setup (send's first receives).  0 or -errno (logged).
 * rb_point_begin() - the start of point @at on @c: its copy of @c
 *   renewed, the point's CQs, send queues (rb_point_queues()), samples,
 *   counts and intervals reset; a verbs row's (.path) receive plan
 *   (rb_rx_plan()) and WR templates (rb_wrs_prepare()) made; then the
 *   row's .prepare (buffers, receives).  0 or -errno (logged).
 * rb_point_end() - the loop is over: the point's --verify status (a
 *   mismatch in what this side received), else the last --interval
 *   slice (rb_iv_finish()).
 * rb_run_close() - every event acked (before the CQs go), the run's own
 *   memory freed; the connection is the session's to close.
 */
void rb_run_init(struct rb_run *r, const struct rb_run_cfg *cfg);
int rb_run_conn(struct rb_run *r, const struct rb_conn *c);
int rb_point_begin(struct rb_run *r, const struct rb_conn *c, const struct rb_point_at *at);
int rb_point_end(struct rb_run *r);
void rb_run_close(struct rb_run *r);

/* rb_ticks_per_ms() - about a millisecond of ticks; measured (2 ms) on first use. */
uint64_t rb_ticks_per_ms(void);

/*
 * rb_result_msg() - a server's RESULT figures from its point's @res:
 * what it measured (0 or NaN where it did not), its wake-ups; the status
 * and the setup figures are the caller's.
 */
void rb_result_msg(const struct rb_result *res, struct rb_msg_result *m);

/*
 * rb_result_sender_wakeups() - --reversed: the server sent, so its
 * wake-ups (RESULT v17) are the point's, per message of its count; none
 * (absent, JSON null) when it sent none or its count was rejected.
 */
void rb_result_sender_wakeups(struct rb_result *res, const struct rb_msg_result *m);

/*
 * rb_point_cut() - a client loop that returned early (-EINTR): the
 * measured interval ended where it stopped (rb_run_cut()) and, when
 * anything was measured, the last --interval slice (rb_iv_finish()).
 * 1 when something was measured, 0 when nothing, or -ENOMEM.
 */
int rb_point_cut(struct rb_run *r);

/* rb_ns_per_tick() - the tick length calibrated over the last point. */
double rb_ns_per_tick(const struct rb_run *r);

/*
 * rb_run_new() - a run, zeroed, or NULL (logged); rb_run_free() closes
 * (rb_run_close()) and frees it.
 */
struct rb_run *rb_run_new(void);
void rb_run_free(struct rb_run *r);

/*
 * What a point's run did, for the session to read once its loop is over:
 * the point as it ran (pt.signal clamped: rb_point_queues()), the -Q it
 * was asked (0: not clamped), the operations it did warmup included, the
 * --verify status, whether its loop sent STOP itself (-b), the intervals
 * it ended, and its latency samples (the session summarizes them, which
 * sorts them, and keeps them).
 */
const struct rb_point *rb_run_point(const struct rb_run *r);
uint32_t rb_run_signal_asked(const struct rb_run *r);
uint64_t rb_run_total(const struct rb_run *r);
int rb_run_verify_status(const struct rb_run *r);
bool rb_run_stop_sent(const struct rb_run *r);
size_t rb_run_intervals(const struct rb_run *r);
struct rb_samples *rb_run_samples(struct rb_run *r);

/*
 * rb_run_progress() - what the point under way has done so far, for a
 * status line (the on_beat hook): the measured start of the last point
 * that began measuring (ns, 0: none), the point's size, and, once the
 * completion marks of this point's measurement exist (@marked), the
 * bandwidth and messages they show.
 */
struct rb_run_progress {
	uint64_t t0;
	uint64_t size;
	bool marked;
	double gbps;
	double done;
};
void rb_run_progress(const struct rb_run *r, struct rb_run_progress *o);

#endif
