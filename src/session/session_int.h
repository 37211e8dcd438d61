/* SPDX-License-Identifier: MIT */
/*
 * Between the files of a session only (session.c, point.c and its hooks
 * hook_*.c, session_res.c, session_conn.c, session_tcp.c, session_out.c,
 * server.c): struct session and what one of them does for the others.
 * Everything here is private to them.
 */
#ifndef RB_SESSION_INT_H
#define RB_SESSION_INT_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session/admit.h"
#include "session/lockshare.h"
#include "core/clock.h"
#include "rdma/cm.h"
#include "report/diag.h"
#include "report/output.h"
#include "wire/plan.h"
#include "report/samples_file.h"
#include "session/session.h"
#include "core/sweep.h"
#include "topo/topo.h"
#include "engine/xfer.h"
#include "engine/probe.h"
#include "rdma/dc.h"

struct session;

/*
 * What carries the data of a session's test, as its row's .path says:
 * verbs resources (session_res.c, session_conn.c) or a TCP connection of
 * its own (session_tcp.c).  session.c calls these and nothing of either.
 */
struct sess_path {
	/* This side's resources, before HELLO (client) or at PARAMS (server):
	 * @local is the control connection's address, NULL when unknown. */
	int (*open)(struct session *s, const struct sockaddr *local);
	/* After PARAMS: each side's CONN (or DATA), the connection, the row's setup. */
	int (*connect)(struct session *s);
	/* Everything open() and connect() made; safe on a partial open. */
	void (*close)(struct session *s);
	/* Optional: the QPs destroyed (timed) before the last output. */
	void (*drop_qps)(struct session *s);
};

extern const struct sess_path sess_path_verbs, sess_path_tcp;

/* sess_path_of() - the path of row @b. */
const struct sess_path *sess_path_of(const struct rb_bench *b);

/* A socket test's side (session_tcp.c). */
struct sess_tcp {
	int lfd;	    /* server: the data listener until the client came */
	int sndbuf, rcvbuf; /* as the kernel set them */
	int mss;
	char ifname[32];	  /* the interface of the data connection's local address */
	char local[64], peer[64]; /* the data connection's addresses */
	struct rb_msg_data remote;
};

struct session {
	const struct rb_bench *bench;
	const struct sess_path *path; /* the bench's; NULL until a server knows it */
	const struct rb_local *l;     /* this side's choices */
	struct rb_params p;	      /* the plan: the client's, adopted by the server */
	enum rb_role role;
	bool usage;	      /* the failure is the user's request, not the run */
	uint32_t said_signal; /* the last -Q whose clamp was said (sess_point_start()) */
	struct rb_oob oob;
	struct rb_auth_chan auth; /* --auth-key: oob's keys once HELLO proved it */
	struct rb_ctl ctl;	  /* the points' control channel, over oob */
	struct rb_cm cm;	  /* -R only */
	struct rb_conn conn;	  /* what the session built; the engine reads its copy */
	struct rb_run *run;	  /* the engine's (engine/xfer.h): made and driven, never written */
	struct rb_doc rep;
	struct rb_writer out; /* stdout */
	bool out_begun;
	struct rb_writer stream;     /* --json-stream FILE, once begun (stream.f) */
	bool progress;		     /* a progress line is on stderr (a terminal) */
	uint64_t status_ns;	     /* when it began (its warm-up) */
	uint32_t status_i, status_n; /* the point being measured, of how many (status line) */
	struct rb_result *res;
	size_t nres;
	size_t buf_len;
	char host[64];
	int slot_fd;		       /* generic server: the lock that serializes measuring */
	struct rb_admit *admit;	       /* generic server: who is served, holding what */
	struct sess_lockshare *lks;    /* server, lock --run-id: the run's segment (lockshare.h) */
	char peer_cpus[128];	       /* server: the client's CPUs when it shares our host */
	char hello_cpus[128];	       /* client: every thread's CPUs (--threads), or "" */
	struct sockaddr_storage local; /* where the connection leaves from (client) or came to */
	struct rb_diag diag;	       /* counters and --expect */
	struct rb_samples_file sf;     /* client: --samples, from the first point on */
	struct rb_session_hooks h;     /* the caller's: matrix, --threads */
	struct sess_tcp tcp;	       /* socket tests only */
	struct rb_probe probe;	       /* --probe's QP, CQ and thread */
	/* -c SRD, and -c DC's client: each QP's peer, its qp_context (an SRD
	 * QP's, rb_post_send_ex(); a DCI's DCT, rb_post_send_dc()); NULL for
	 * the other transports. */
	struct rb_qp_peer *peers;
	/* -c DC: the server's SRQ for its targets when the test posts no receives. */
	struct ibv_srq *dc_srq;
	/* --use-cuda: the GPU, the buffers in its memory, how they were registered. */
	struct rb_cuda_gpu gpu;
	struct rb_cuda_buf gpu_buf;
	char gpu_why_reg[512];
	char why_relaxed[512];	/* rep.why_relaxed (rb_relaxed_known()) */
	bool setup_rejected;	/* client: the server's setup figures were said false */
	struct rb_local rail_l; /* server: its -d list's rail for this client thread */
};

/* --timeout, ns: every wait's bound. */
static inline uint64_t sess_timeout_ns(const struct session *s)
{
	return (uint64_t)s->l->timeout_s * 1000000000ULL;
}

/* Per thread: the threads of a --threads run are sessions each (session.c). */
extern __thread uint8_t sess_msg[RB_WIRE_MAX_BODY];

/* session_res.c: this side's resources (each described where defined). */
enum rb_role sess_data_role(const struct session *s);
int sess_qp_access(const struct session *s);
/* sess_credits() - send credits where the device's transport needs them (credits.c). */
int sess_credits(struct session *s);
int sess_open_resources(struct session *s, const struct sockaddr *local);
void sess_close_resources(struct session *s);
void sess_warn_freq(const struct session *s, const char *whose, const struct rb_placement *p);
int sess_place(struct session *s, const char *ibdev);
int sess_server_rail(struct session *s);
int sess_probe_place(struct session *s);
int sess_alloc_buffers(struct session *s, size_t len);

/* session_conn.c: the messages before the points, and the QPs' connection. */
int sess_send_body(struct session *s, uint16_t type, int len);

/*
 * --max-run-time (server.c): this connection's process ends its run @sec
 * seconds from now (0: never), whatever the client does: the alarm
 * interrupts any wait as ^C would.  sess_run_expired(): whether it did.
 */
void sess_run_limit(uint32_t sec);
bool sess_run_expired(void);

/* --logfile (server.c): one line per connection served, when it ends. */
struct sess_run_line {
	const char *client, *test;
	uint32_t thread, threads;
	size_t done, planned;
	uint64_t ns;
	const char *error; /* NULL: it succeeded */
};
void sess_run_log(const struct sess_run_line *r);
int sess_exchange_conn(struct session *s);
void sess_setup_put(const struct session *s, struct rb_msg_result *m);
void sess_setup_take(struct session *s, const struct rb_msg_result *m);

/*
 * session_cq.c (issue 40): the connection's CQ, or --cq-per-qp's, of
 * @need entries each, through --cq-api, on -X's vector or one spread by
 * the thread's CPU, moderated by --cq-moderation; the report says which.
 * 0 or -errno (logged; s->usage for a refusal of this side's options).
 */
int sess_create_cqs(struct session *s, uint64_t need);

/* session_out.c: the report, the rows and the files. */
void sess_doc_init(struct session *s);
int sess_check_outputs(const struct rb_local *c);
int sess_write_files(struct session *s, bool last);
int sess_keep_samples(struct session *s);
int sess_lat_extras(struct session *s, struct rb_result *res);
int sess_emit(struct session *s, const struct rb_result *res);

/* sess_out_begin() - stdout's head (once), before the first point is measured or kept. */
void sess_out_begin(struct session *s);
void sess_show_interval(void *ctx, const struct rb_run *r, const struct rb_interval *iv);
/* sess_status_on() - whether this session draws the status line; sess_status() draws it. */
bool sess_status_on(const struct session *s);
void sess_status(void *ctx, const struct rb_run *r);
int sess_cut_point(struct session *s);
int sess_finish_output(struct session *s, int ret);

/* session.c, for server.c: one client on @o, from HELLO to BYE. */
int sess_serve_conn(struct rb_oob *o, const struct rb_serve *f, const struct rb_local *c,
		    const struct rb_session_hooks *h, int slot_fd, struct rb_admit *adm);

/*
 * --probe: one per run, on thread 0's connection (a probe per thread
 * would load the path it measures); the other threads have none.
 */
static inline bool sess_probing(const struct session *s)
{
	return s->p.probe && !s->p.thread;
}

#endif
