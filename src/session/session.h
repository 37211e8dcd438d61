/* SPDX-License-Identifier: MIT */
/*
 * One connection from HELLO to BYE: the client's and the server's flow.
 * The client sends the whole plan; the server adopts it.
 *
 * src/session/ (layer 7, over bench, engine and below): one connection's
 * flow on each side (session*.c, server.c), --threads (threads.c), the
 * server's admission (admit.c) and --dry-run (dryrun*.c).  src/bench/
 * (layer 6) below it holds the test rows, one file per verb family.
 */
#ifndef RB_SESSION_H
#define RB_SESSION_H

#include "core/bench.h"

/*
 * The points where the threads of a --threads run wait for each other; a
 * hook returns 0, or -errno when the run ends (another thread failed, ^C,
 * --timeout) and the session ends too.
 */
struct rb_setup;
struct rb_thread_hooks {
	void *ctx;
	/*
	 * Placed (this thread on @cpus), before connecting: every thread is
	 * placed before any says HELLO, which carries @all (the CPUs of every
	 * thread, for a server on this host to keep off), filled here.
	 */
	int (*placed)(void *ctx, const char *cpus, char *all, size_t len);
	/*
	 * Before point @i's START, and with @i = the point count before BYE.
	 * While it waits for the other threads it calls @beat(@arg, @i) about
	 * once a second, which tells this thread's server it is alive (its
	 * wait for START or BYE is bounded by --timeout too).
	 */
	int (*point)(void *ctx, uint32_t i, int (*beat)(void *arg, uint32_t i), void *arg);
	/* The session ends, its QPs destroyed: its setup figures, the
	 * destroy time with them (JSON "setup"); NULL: not wanted. */
	void (*ended)(void *ctx, const struct rb_setup *setup);
	/* Set once another thread failed: this one's measuring loops end the
	 * point at their next look at the clock rather than run it out. */
	const bool *cancel;
	/* When a thread last made progress (ns, written atomically): the
	 * measuring loops refresh it with each heartbeat, so that a thread
	 * that measures long does not look stuck to those waiting for it. */
	uint64_t *progress_ns;
};

/*
 * What a client does between a point's start and its stream, in order.
 * With --threads every thread's session meets at each RB_STEP_THREADS,
 * so every thread's list has as many; with --probe (thread 0 pings) no
 * thread streams before the idle pings are done, and every thread's
 * stream starts after the same barrier.
 */
enum rb_point_step {
	RB_STEP_THREADS, /* --threads: wait for every thread (thread_hooks->point) */
	RB_STEP_IDLE,	 /* --probe: the probe's idle pings, alone on the path */
	RB_STEP_START,	 /* the server's barrier (SYNC START) */
	RB_STEP_LOADED,	 /* --probe: the probe's thread, beside the stream to come */
};

#define RB_POINT_STEPS_MAX 5

/*
 * rb_point_steps() - the steps before a point's stream into @out, in
 * order; returns how many.  @threads: a session of a --threads run;
 * @probe: the plan's --probe; @probing: this session pings (thread 0).
 */
size_t rb_point_steps(bool threads, bool probe, bool probing,
		      enum rb_point_step out[RB_POINT_STEPS_MAX]);

/*
 * What the caller of a session hooks into it, besides the plan and this
 * side's choices; NULL, or any field NULL: none.
 */
struct rb_session_hooks {
	/*
	 * rdmabench matrix and --threads: when set, each finished point goes
	 * to on_point (with on_point_ctx) instead of stdout; the files named
	 * in struct rb_local are still written.
	 */
	void (*on_point)(void *ctx, const struct rb_result *res, const struct rb_doc *rep);
	void *on_point_ctx;
	/* --threads: this client session is one thread of a run (threads.c). */
	const struct rb_thread_hooks *thread_hooks;
};

/*
 * rb_client() - run test @t with plan @p (valid: plan.c) against l->host:
 * one session, with hooks @h (may be NULL).  With p->threads > 1 it is one
 * thread of a run (threads.h: rb_threads_run() starts them, each with
 * h->thread_hooks).  Returns an exit code: 0, 1 (runtime failure), 2
 * (usage error found once the device is known) or 130/143 (interrupted;
 * finished points kept).
 */
int rb_client(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *l,
	      const struct rb_session_hooks *h);

/* What a server is started for. */
/*
 * A service besides the tests, asked for by name in HELLO's test field
 * (rdmabench doctor HOST asks for "doctor"): the server answers with one
 * message of @type, whose body @reply writes into @buf (its length, or
 * -errno, logged) knowing the connection @o, then ends the session.
 */
struct rb_oob;
struct rb_service {
	const char *name;
	uint16_t type;
	int (*reply)(const struct rb_oob *o, uint8_t *buf, size_t cap);
};

struct rb_serve {
	const char *name;		  /* in messages: "send_lat", "atomic", "server" */
	const char *accept;		  /* the test or family it runs; NULL: any */
	bool once;			  /* serve one client and return its exit code */
	const struct rb_service *service; /* NULL: tests only */
};

/*
 * rb_server() - serve clients on l->tcp_port for the tests @f accepts, with
 * hooks @h (may be NULL; no thread_hooks); a client asking for another
 * test is refused with a message naming both.  With f->once, serve one
 * client and return its exit code; without, serve one client after
 * another, each in its own process, until interrupted (returns 0).
 */
int rb_server(const struct rb_serve *f, const struct rb_local *l, const struct rb_session_hooks *h);

/*
 * rb_drop_privs() - every capability but CAP_IPC_LOCK dropped (from the
 * bounding set too) and no new privileges: rdmabench server does it once
 * it listens.  0, or -errno (warned: the server goes on).
 */
int rb_drop_privs(void);

#endif
