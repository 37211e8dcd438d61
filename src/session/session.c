// SPDX-License-Identifier: MIT
/*
 * The flow of one connection:
 *
 *   client                         server
 *   HELLO(test, version)   ->
 *                          <-      OK | ERROR(why)
 *   PARAMS(plan)           ->
 *                          <-      OK | ERROR(why)     (server sets up)
 *   CONN(QPs, MR, place)   ->
 *                          <-      CONN
 *   per point i:  SYNC(i, START) -> <- SYNC(i, START)
 *                 ... the data path ...
 *                 SYNC(i, STOP, count) -> <- RESULT(i)
 *                 (-b: both streams; each side sends its STOP when its
 *                 own is done, and the server's comes before RESULT)
 *   BYE                    ->
 */
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
#include "core/clock.h"
#include "rdma/cm.h"
#include "report/diag.h"
#include "report/output.h"
#include "report/reco.h"
#include "wire/plan.h"
#include "report/samples_file.h"
#include "session/session.h"
#include "core/sweep.h"
#include "topo/topo.h"
#include "engine/xfer.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif
#include "session/session_int.h"
#include "session/point_hook.h"

__thread uint8_t sess_msg[RB_WIRE_MAX_BODY];

/* The path of each kind, by the row's .path. */
const struct sess_path *sess_path_of(const struct rb_bench *b)
{
	static const struct sess_path *const paths[RB_PATH_COUNT] = {
		[RB_PATH_VERBS] = &sess_path_verbs,
		[RB_PATH_TCP] = &sess_path_tcp,
	};

	return paths[b->path];
}

/* ---- points ---------------------------------------------------------- */

/*
 * Progress on stderr as each point starts (--progress auto: when stderr
 * is a terminal, redrawn in place; always: also elsewhere, a line each).
 */
static void progress(struct session *s, size_t i, size_t n, uint64_t t0)
{
	double el = (double)(rb_now_ns() - t0) / 1e9;
	bool tty = isatty(STDERR_FILENO);
	struct rb_point pt;
	char sz[16];

	s->status_i = (uint32_t)i;
	s->status_n = (uint32_t)n;
	s->status_ns = rb_now_ns();
	if (s->l->progress == RB_PROGRESS_NEVER ||
	    (rb_quiet && s->l->progress != RB_PROGRESS_ALWAYS) ||
	    (!tty && s->l->progress != RB_PROGRESS_ALWAYS) || n < 2 || s->h.thread_hooks)
		return;
	rb_plan_point(&s->p, i, &pt);
	fprintf(stderr, "%spoint %zu/%zu  size %s batch %u signal %u qps %u  %.0fs elapsed",
		tty ? "\r\033[K" : "", i + 1, n, rb_size_str(pt.size, sz, sizeof(sz)), pt.batch,
		pt.signal, pt.qps, el);
	if (i)
		fprintf(stderr, ", ~%.0fs left", el / (double)i * (double)(n - i));
	if (!tty)
		fputc('\n', stderr);
	s->progress = tty;
}

/* ---- both ----------------------------------------------------------- */

/* Once the peer is known: connect the QPs, then measure every point. */
static int connect_and_measure(struct session *s, int (*points)(struct session *))
{
	int ret;

	sess_doc_init(s);
	ret = s->path->connect(s);
	return ret ? ret : points(s);
}

/* ---- client --------------------------------------------------------- */

/* /proc's boot id: with the host name, it says whether two sides share a host. */
static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

static int client_hello(struct session *s)
{
	struct rb_msg_hello h = { .tool_version = PACKAGE_VERSION };
	struct rb_auth_key key;
	uint32_t len;
	int ret;

	snprintf(h.test, sizeof(h.test), "%s", s->bench->name);
	snprintf(h.host, sizeof(h.host), "%s", s->host);
	boot_id(h.boot_id, sizeof(h.boot_id));
	snprintf(h.cpus, sizeof(h.cpus), "%s",
		 s->hello_cpus[0] ? s->hello_cpus : s->rep.place.cpus);
	/* --probe: its thread's CPU too, for a server on this host to keep off. */
	if (s->rep.has_probe_place && s->rep.probe_cpu >= 0 && h.cpus[0] &&
	    strlen(h.cpus) + 12 < sizeof(h.cpus))
		snprintf(h.cpus + strlen(h.cpus), sizeof(h.cpus) - strlen(h.cpus), ",%d",
			 s->rep.probe_cpu);
	rb_auth_key_of(s->l, &key);
	ret = rb_oob_hello(&s->oob, &h, &key, &s->auth);
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_OK, sess_msg, sizeof(sess_msg), &len);
	if (!ret)
		ret = sess_send_body(s, RB_MSG_PARAMS,
				     rb_pack_params(&s->p, sess_msg, sizeof(sess_msg)));
	if (!ret)
		ret = rb_oob_expect(&s->oob, RB_MSG_OK, sess_msg, sizeof(sess_msg), &len);
	return ret;
}

/* --recommend BOUND: per workload, the point cheapest in CPU within the bound. */
static int recommend_bound(struct session *s)
{
	FILE *f = s->l->format == RB_FMT_TABLE ? stdout : stderr;
	struct rb_reco_bound *reco;
	json_t *arr = json_array();
	struct rb_expect e;
	char err[256];
	size_t i, n;

	if (rb_expect_parse(s->l->recommend_bound, &e, err, sizeof(err))) {
		rb_err("%s", err); /* rb_cli_finish() took it: a bug */
		json_decref(arr);
		return -EINVAL;
	}
	/* As many workloads as points at most (a lock's -q by --hold: more than an axis). */
	reco = calloc(s->nres ? s->nres : 1, sizeof(*reco));
	if (!reco) {
		json_decref(arr);
		return -ENOMEM;
	}
	n = rb_recommend_bound(s->res, s->nres, &e, &s->p, reco, s->nres);
	fprintf(f, "# recommendation: per %s, the point cheapest in CPU (cpu_ns_per_msg) with %s\n",
		rb_reco_groups(&s->p), e.text);
	for (i = 0; i < n; i++)
		json_array_append_new(arr, rb_reco_bound_report(f, &reco[i], &s->p, e.text,
								rb_expect_unit(&e)));
	free(reco);
	s->rep.recommendation = arr;
	return sess_write_files(s, false);
}

/* --recommend: print it, and put it into the JSON (files rewritten). */
static int recommend(struct session *s)
{
	FILE *f = s->l->format == RB_FMT_TABLE ? stdout : stderr;
	struct rb_reco reco[RB_MAX_AXIS];
	size_t i, n;
	json_t *arr;

	if (s->l->recommend_bound[0])
		return recommend_bound(s);
	n = rb_recommend(s->res, s->nres, reco, RB_MAX_AXIS);
	arr = json_array();

	fprintf(f, "# recommendation: per size, the smallest batch and largest signal interval "
		   "within 5%% of the best message rate\n");
	for (i = 0; i < n; i++)
		json_array_append_new(arr, rb_reco_report(f, &reco[i], &s->p));
	s->rep.recommendation = arr;
	return sess_write_files(s, false);
}

static int client_points(struct session *s)
{
	size_t i, n = rb_plan_count(&s->p);
	uint64_t t0 = rb_now_ns();
	int ret = 0;

	/*
	 * The table's head before anything is measured (a -D 60 point said
	 * nothing for a minute); CSV and JSON heads wait for the first point,
	 * which may add counter columns.
	 */
	if (s->l->format == RB_FMT_TABLE && !s->h.thread_hooks)
		sess_out_begin(s);
	for (i = 0; i < n && !ret && !rb_interrupted; i++) {
		progress(s, i, n, t0);
		ret = sess_client_point(s, (uint32_t)i);
	}
	if (ret == -EINTR || rb_interrupted) {
		bool cut = s->nres && s->res[s->nres - 1].cut;

		rb_oob_send_error(&s->oob, "client interrupted at point %zu of %zu", i, n);
		rb_err("interrupted: %zu of %zu points finished%s%s", s->nres - cut, n,
		       cut ? ", one cut short" : "",
		       s->l->json_path[0] || s->l->csv_path[0] ? "; kept in the output files" : "");
		return -EINTR;
	}
	if (ret) {
		rb_oob_send_error(&s->oob, "client failed at point %zu: %s", i - 1, rb_last_error);
		return ret;
	}
	/* --threads: no server ends (and frees its slot) before the last. */
	if (s->h.thread_hooks)
		ret = s->h.thread_hooks->point(s->h.thread_hooks->ctx, (uint32_t)n,
					       sess_thread_beat, s);
	if (!ret)
		ret = sess_send_body(s, RB_MSG_BYE, 0);
	return !ret && s->l->recommend ? recommend(s) : ret;
}

static int exit_code(struct session *s, int ret)
{
	/* -D 0 ended by its signal: the point is whole, the exit says how it ended. */
	if (!ret && rb_stop_asked && !rb_interrupted)
		return 128 + rb_stop_asked;
	if (!ret)
		return s->diag.failed ? RB_EXIT_EXPECT : RB_EXIT_OK;
	if (rb_interrupted)
		return 128 + rb_interrupted;
	if (ret == -EINTR)
		return RB_EXIT_INTR;
	return s->usage ? RB_EXIT_USAGE : RB_EXIT_FAIL;
}

/* The run's fixed part: the test (a server's once it knows it), the plan, the peer. */
static void run_init(struct session *s)
{
	const struct rb_run_cfg cfg = {
		.bench = s->bench,
		.role = s->role,
		.p = &s->p,
		.ctl = &s->ctl,
		.timeout_ns = sess_timeout_ns(s),
		.cancel = s->h.thread_hooks ? s->h.thread_hooks->cancel : NULL,
		.progress_ns = s->h.thread_hooks ? s->h.thread_hooks->progress_ns : NULL,
		.on_interval = sess_show_interval,
		.iv_ctx = s,
		.on_beat = sess_status_on(s) ? sess_status : NULL,
	};

	rb_run_init(s->run, &cfg);
}

/* 0, or -ENOMEM (logged): no run; session_end() undoes what was done. */
static int session_init(struct session *s, const struct rb_bench *t, const struct rb_local *c,
			const struct rb_session_hooks *h, enum rb_role role)
{
	memset(s, 0, sizeof(*s));
	s->bench = t;
	s->path = t ? sess_path_of(t) : NULL;
	s->l = c;
	if (h)
		s->h = *h;
	s->role = role;
	s->oob.fd = -1;
	s->slot_fd = -1;
	s->tcp.lfd = -1;
	s->conn.data_fd = -1;
	s->oob.timeout_ms = (int)c->timeout_s * 1000;
	rb_ctl_oob_init(&s->ctl, &s->oob, role);
	gethostname(s->host, sizeof(s->host) - 1);
	srand48((long)rb_now_ns() ^ getpid());
	rb_ticks_per_ms(); /* calibrate now, not inside a measured wait */
	rb_hook_bad_verify = role == RB_ROLE_SERVER && getenv("RDMABENCH_HOOK_BAD_VERIFY");
	s->run = rb_run_new();
	if (!s->run)
		return -ENOMEM;
	run_init(s);
	return 0;
}

/* Returns @ret, or the failure to write the files' last version. */
static int session_end(struct session *s, int ret)
{
	size_t i;
	int wret;

	if (s->path && s->path->drop_qps)
		s->path->drop_qps(s);
	if (s->h.thread_hooks && s->h.thread_hooks->ended)
		s->h.thread_hooks->ended(s->h.thread_hooks->ctx, &s->rep.setup);
	wret = sess_finish_output(s, ret);
	if (s->path)
		s->path->close(s);
	rb_run_free(s->run);
	s->run = NULL;
	rb_cm_close(&s->cm);
	rb_oob_close(&s->oob);
	json_decref(s->rep.recommendation);
	for (i = 0; i < s->nres; i++) {
		json_decref(s->res[i].diag);
		rb_result_free(&s->res[i]);
	}
	free(s->res);
	return ret ? ret : wret;
}

/* What the client can check before it reaches for the server. */
static int client_checks(struct session *s)
{
	char err[RB_TEXT_MAX];
	int ret;

	s->usage = true;
	ret = rb_plan_validate(&s->p, rb_mem_budget(), err, sizeof(err));
	if (ret) {
		rb_err("%s", err);
		return ret;
	}
	ret = sess_check_outputs(s->l);
	if (!ret)
		ret = rb_place_check(s->l->cpu, s->l->numa);
	if (!ret)
		s->usage = false;
	return ret;
}

int rb_client(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *c,
	      const struct rb_session_hooks *h)
{
	struct rb_local lc = *c;
	char err[RB_TEXT_MAX];
	struct session s;
	int ret;

	/* --auth-key (or RDMABENCH_AUTH_KEY): read before anything else. */
	if (rb_auth_local(&lc, err, sizeof(err))) {
		rb_err("%s", err);
		return RB_EXIT_USAGE;
	}
	c = &lc;
	/* --threads N: one of N sessions, started by rb_threads_run() (main.c). */
	if (p->threads > 1 && !(h && h->thread_hooks)) {
		rb_err("--threads %u: a session of a run of threads needs its hooks", p->threads);
		return RB_EXIT_FAIL;
	}
	ret = session_init(&s, t, c, h, RB_ROLE_CLIENT);
	s.p = *p;
	if (!ret)
		ret = client_checks(&s);
	/* Local setup first, on the device the connection will leave from:
	 * under load it takes seconds, which must not count against the
	 * server's timeout. */
	if (!ret)
		ret = rb_oob_local(c->host, (uint16_t)c->tcp_port, c->bind, &s.local);
	if (!ret)
		ret = s.path->open(&s, (struct sockaddr *)&s.local);
	if (!ret && s.h.thread_hooks)
		ret = s.h.thread_hooks->placed(s.h.thread_hooks->ctx, s.rep.place.cpus,
					       s.hello_cpus, sizeof(s.hello_cpus));
	/* --probe: placed before HELLO, which names its CPU too. */
	if (!ret && sess_probing(&s))
		ret = sess_probe_place(&s);
	if (!ret)
		ret = rb_oob_connect(c->host, (uint16_t)c->tcp_port, c->bind,
				     (int)c->timeout_s * 1000, &s.oob);
	if (!ret)
		ret = client_hello(&s);
	if (!ret)
		ret = connect_and_measure(&s, client_points);
	ret = session_end(&s, ret);
	return exit_code(&s, ret);
}

/* ---- server --------------------------------------------------------- */

/*
 * A client on this very host (same name, same boot): two busy-pollers on
 * one core would measure the scheduler, so this side keeps off its CPUs.
 */
static void same_host(struct session *s, const struct rb_msg_hello *h)
{
	char id[40], safe[4 * sizeof(h->cpus)];

	boot_id(id, sizeof(id));
	if (!id[0] || strcmp(h->boot_id, id) || strcmp(h->host, s->host))
		return;
	snprintf(s->peer_cpus, sizeof(s->peer_cpus), "%s", h->cpus);
	if (rb_verbose)
		rb_info("client %s runs on this host, on CPUs %s: measuring elsewhere", s->oob.peer,
			h->cpus[0] ? rb_escape(h->cpus, safe, sizeof(safe)) : "(unbound)");
}

/* server_hello() found HELLO asking for f->service, not a test. */
enum { SESS_SERVICE = 1 };

/* HELLO: which test; refuse one this server does not run. */
static int server_hello(struct session *s, const struct rb_serve *f)
{
	char safe[4 * sizeof(((struct rb_msg_hello *)0)->test)], err[RB_TEXT_MAX];
	struct rb_msg_hello h;
	struct rb_auth_key key;
	uint32_t len;
	int ret;

	ret = rb_oob_expect(&s->oob, RB_MSG_HELLO, sess_msg, sizeof(sess_msg), &len);
	if (ret)
		return ret;
	ret = rb_unpack_hello_why(sess_msg, len, &h, err, sizeof(err));
	if (ret) {
		rb_err("peer %s sent a %s HELLO: %s", s->oob.peer,
		       ret == -ENOTSUP ? "newer" : "malformed", err);
		return ret == -ENOTSUP ? -EPROTONOSUPPORT : -EPROTO;
	}
	rb_auth_key_of(s->l, &key);
	ret = rb_oob_hello_auth(&s->oob, &h, sess_msg, len, &key, &s->auth);
	if (ret)
		return ret;
	s->bench = rb_bench_find(h.test);
	if (!s->bench && f->service && !strcmp(h.test, f->service->name))
		return SESS_SERVICE;
	if (!s->bench) {
		rb_err("client %s asked for test '%s', which this rdmabench %s does not know",
		       s->oob.peer, rb_escape(h.test, safe, sizeof(safe)), PACKAGE_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (!rb_bench_in(s->bench, f->accept)) {
		rb_err("this server runs %s; client %s asked for %s", f->name, s->oob.peer,
		       s->bench->name);
		return -EPROTONOSUPPORT;
	}
	run_init(s);
	s->path = sess_path_of(s->bench);
	same_host(s, &h);
	return sess_send_body(s, RB_MSG_OK, 0);
}

/* How long a client may wait for the slot: told before its timeout. */
static uint64_t slot_wait_ns(const struct session *s)
{
	uint64_t t = sess_timeout_ns(s);

	return t > 2000000000ULL ? t - 2000000000ULL : 1000000000ULL;
}

/*
 * The generic server measures one client at a time: a record lock on
 * byte 0 of a file shared with its children (POSIX locks belong to a
 * process and die with it, so a crashed child cannot keep it; byte 1
 * locks the table of admitted connections, admit.h).  A client that waits
 * longer than the timeout is told the server is busy.
 */
static int take_slot(struct session *s)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	uint64_t wait_ns = slot_wait_ns(s), until = rb_now_ns() + wait_ns;

	/* A --threads run's other connections: its thread 0 holds the slot
	 * (admit() checks that it is being served), and every point waits
	 * for thread 0 (rb_thread_hooks). */
	if (s->slot_fd < 0 || s->p.thread > 0 || (s->lks && !s->lks->first))
		return 0;
	while (fcntl(s->slot_fd, F_SETLK, &fl)) {
		if (errno != EAGAIN && errno != EACCES) {
			rb_warn("cannot lock the measuring slot: %s; measuring anyway",
				strerror(errno));
			return 0;
		}
		if (rb_interrupted)
			return -EINTR;
		if (rb_now_ns() >= until) {
			rb_err("server busy: another client has been measured for over %llu s; "
			       "try again later",
			       (unsigned long long)(wait_ns / 1000000000ULL));
			return -EBUSY;
		}
		usleep(50000);
	}
	return 0;
}

/*
 * Generic server, once it holds the slot: the connection goes into the
 * table its processes share (admit.h), its memory counted with what the
 * connections in progress hold.  A thread k > 0 of a run joins its thread
 * 0, which may still wait for the slot: as long as that, and a second.
 */
static int admit(struct session *s)
{
	struct rb_admit_entry w = { .pid = getpid(),
				    .run_id = s->p.run_id,
				    .thread = s->p.thread,
				    .threads = s->p.threads,
				    .share = rb_plan_mem(&s->p) };
	uint64_t wait_ns = slot_wait_ns(s) + 1000000000ULL, until = rb_now_ns() + wait_ns;
	uint64_t budget = rb_mem_budget();
	char err[RB_TEXT_MAX];
	int ret;

	if (!s->admit || s->slot_fd < 0)
		return 0;
	rb_oob_peer_host(&s->oob, w.client, sizeof(w.client));
	for (;;) {
		ret = rb_admit_lock(s->slot_fd, true);
		if (ret) {
			rb_err("cannot lock the table of connections: %s", strerror(-ret));
			return ret;
		}
		ret = rb_admit_try(s->admit, &w, budget, err, sizeof(err));
		rb_admit_lock(s->slot_fd, false);
		if (ret != -EAGAIN || rb_interrupted || rb_now_ns() >= until)
			break;
		usleep(50000);
	}
	if (ret == -EAGAIN)
		rb_err("client %s: %s (waited %llu s)", s->oob.peer, err,
		       (unsigned long long)(wait_ns / 1000000000ULL));
	else if (ret)
		rb_err("client %s: %s", s->oob.peer, err);
	return ret;
}

/* The connection ends: what it held is free (its server also frees it when it reaps). */
static void admit_end(struct session *s)
{
	if (!s->admit || s->slot_fd < 0 || rb_admit_lock(s->slot_fd, true))
		return;
	rb_admit_release(s->admit, getpid());
	rb_admit_lock(s->slot_fd, false);
}

/* PARAMS: adopt the client's plan after the checks the command line gets. */
static int server_params(struct session *s, const struct rb_serve *f)
{
	char safe[4 * sizeof(((struct rb_params *)0)->test)];
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	char err[RB_TEXT_MAX];
	uint32_t len;
	int ret;

	/* The device is the one the client reached us through. */
	if (getsockname(s->oob.fd, (struct sockaddr *)&local, &sl))
		local.ss_family = AF_UNSPEC;
	s->local = local; /* where a CM on the host's TCP listens (iWARP) */
	ret = rb_oob_expect(&s->oob, RB_MSG_PARAMS, sess_msg, sizeof(sess_msg), &len);
	if (ret)
		return ret;
	if (rb_unpack_params_why(sess_msg, len, &s->p, err, sizeof(err))) {
		rb_err("client %s sent a plan this server cannot read: %s", s->oob.peer, err);
		return -EPROTO;
	}
	if (strcmp(s->p.test, s->bench->name)) {
		rb_err("client %s sent a plan for %s after a HELLO for %s", s->oob.peer,
		       rb_escape(s->p.test, safe, sizeof(safe)), s->bench->name);
		return -EPROTO;
	}
	/* A thread k > 0 takes a share of what its thread 0 was admitted for
	 * (admit()): memory its thread 0 may have taken already is not left
	 * to count twice. */
	if (rb_plan_validate(&s->p, s->p.thread > 0 && s->admit ? 0 : rb_mem_budget(), err,
			     sizeof(err))) {
		rb_err("client %s sent a plan this server refuses: %s", s->oob.peer, err);
		return -EINVAL;
	}
	s->ctl.threads = s->p.threads > 1;
	if (f->once && s->p.threads > 1) {
		rb_err("client %s asked for --threads %u: this %s server serves one connection; "
		       "run 'rdmabench server' for several threads",
		       s->oob.peer, s->p.threads, f->name);
		return -EINVAL;
	}
	/* lock --run-id: the run's first host takes the slot, the others join it. */
	ret = sess_lockshare_attach(&s->p, s->admit ? s->slot_fd : -1, s->oob.peer, &s->lks);
	if (!ret)
		ret = take_slot(s);
	if (!ret)
		ret = admit(s);
	/* The wait for threads that never come counts from here (ctl.h). */
	s->ctl.alive_ns = sess_timeout_ns(s);
	s->ctl.since_ns = rb_now_ns();
	if (!ret && s->slot_fd >= 0)
		sess_run_limit(s->l->max_run_s);
	if (!ret)
		ret = sess_server_rail(s);
	if (!ret)
		ret = s->path->open(s, local.ss_family == AF_UNSPEC ? NULL
								    : (struct sockaddr *)&local);
	return ret ? ret : sess_send_body(s, RB_MSG_OK, 0);
}

/*
 * Each point is prepared before the barrier: once the server answers, the
 * client's first message may land.  The client ends the plan with BYE.
 */
static int server_points(struct session *s)
{
	size_t n = rb_plan_count(&s->p);
	uint32_t i;
	int ret;

	for (i = 0;; i++) {
		ret = i < n ? sess_point_start(s, i) : 0;
		if (!ret)
			ret = s->ctl.ops->barrier(&s->ctl, i);
		if (ret)
			return ret == RB_CTL_ENDED ? 0 : ret;
		if (i >= n) {
			rb_err("client %s started point %u of a plan of %zu", s->oob.peer, i, n);
			return -EPROTO;
		}
		ret = sess_server_point(s, i);
		if (ret)
			return ret;
	}
}

/* A service's one answer; nothing of a test's is set up. */
static int serve_service(struct session *s, const struct rb_service *v)
{
	int n = v->reply(&s->oob, sess_msg, sizeof(sess_msg));

	if (n < 0)
		return n;
	rb_info("client %s asked for %s", s->oob.peer, v->name);
	return rb_oob_send(&s->oob, v->type, sess_msg, (uint32_t)n);
}

/* One client on @o, from HELLO to BYE; returns the exit code. */
int sess_serve_conn(struct rb_oob *o, const struct rb_serve *f, const struct rb_local *c,
		    const struct rb_session_hooks *h, int slot_fd, struct rb_admit *adm)
{
	uint64_t t0 = rb_now_ns();
	struct session s;
	int ret;

	ret = session_init(&s, NULL, c, h, RB_ROLE_SERVER);
	s.slot_fd = slot_fd;
	s.admit = adm;
	s.oob.fd = o->fd;
	memcpy(s.oob.peer, o->peer, sizeof(s.oob.peer));
	rb_info("client %s connected", s.oob.peer);
	if (!ret)
		ret = server_hello(&s, f);
	if (ret == SESS_SERVICE) {
		ret = serve_service(&s, f->service);
	} else {
		if (!ret)
			ret = server_params(&s, f);
		if (!ret)
			ret = connect_and_measure(&s, server_points);
	}
	if (sess_run_expired()) {
		rb_err("client %s: --max-run-time %u s reached: its run is ended and the slot "
		       "freed",
		       s.oob.peer, c->max_run_s);
		ret = ret ? ret : -ETIME;
	}
	/* Tell the client why, unless it is the one who hung up. */
	if (ret && ret != -ECONNABORTED && ret != -ECONNRESET)
		rb_oob_send_error(&s.oob, "server: %s", rb_last_error);
	ret = session_end(&s, ret);
	sess_lockshare_detach(s.lks, s.slot_fd);
	admit_end(&s);
	if (!ret)
		rb_info("client %s done: %zu point(s)", s.oob.peer, s.nres);
	sess_run_log(&(struct sess_run_line){ .client = s.oob.peer,
					      .test = s.bench ? s.bench->name : "",
					      .thread = s.p.thread,
					      .threads = s.p.threads ? s.p.threads : 1,
					      .done = s.nres,
					      .planned = s.p.test[0] ? rb_plan_count(&s.p) : 0,
					      .ns = rb_now_ns() - t0,
					      .error = ret ? rb_last_error : NULL });
	return exit_code(&s, ret);
}
