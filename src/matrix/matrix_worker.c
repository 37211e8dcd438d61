// SPDX-License-Identifier: MIT
/*
 * A rank's part of rdmabench matrix: join the coordinator, then for each
 * round start a one-shot server per pair it serves (rb_server), say READY,
 * wait for GO, start a client per pair it runs (rb_client), each in a
 * child process that dies with the rank, and report what each child saw.
 * While children run, the rank sends a BEAT every second; a coordinator
 * silent for --timeout is gone, and the rank ends its children and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "matrix/matrix_auth.h"
#include "matrix/matrix_worker.h"
#include "report/output.h"
#include "session/session.h"

#define NS_PER_S 1000000000ULL

/* What the coordinator's messages can mean besides 0 and -errno: END. */
enum { JOB_ENDED = 1 };

struct kid {
	pid_t pid;
	int fd; /* the read end of the child's report pipe; -1 once read */
	struct rb_mx_task t;
	uint64_t kill_at; /* ns; 0: not asked to end */
};

struct worker {
	const struct rb_mx_job *j;
	struct rb_oob co;	  /* to the coordinator */
	struct rb_auth_chan auth; /* --auth-key: co.auth once joined */
	struct kid kid[RB_MX_WIRE_TASKS];
	uint32_t nkids, round;
	uint64_t beat_at;
};

static uint8_t wbuf[RB_WIRE_MAX_BODY];
static struct rb_mx_round wround;

/* ---- messages, for every role ----------------------------------------- */

int rb_mx_send(struct rb_oob *o, uint16_t type, const uint8_t *body, int n)
{
	if (n < 0) {
		rb_err("%s message to %s does not fit", rb_msg_name(type), o->peer);
		return n;
	}
	return rb_oob_send(o, type, body, (uint32_t)n);
}

int rb_mx_recv(struct rb_oob *o, uint16_t *type, uint8_t *body, uint32_t cap, uint32_t *len)
{
	int ret;

	do
		ret = rb_oob_recv(o, type, body, cap, len);
	while (!ret && (*type == RB_MX_MSG_BEAT || *type == RB_MX_MSG_OVER));
	return ret;
}

/* ---- a child: one side of one pair -------------------------------------- */

/* session.c's on_point: the child keeps the point and its placement. */
static void child_point(void *ctx, const struct rb_result *res, const struct rb_doc *rep)
{
	struct rb_mx_report *m = ctx;

	m->has_res = 1;
	m->res = *res;
	snprintf(m->device, sizeof(m->device), "%s", rep->device ? rep->device : "");
	m->port = rep->port > 0 && rep->port < 256 ? (uint8_t)rep->port : 0;
	m->gid_index = rep->gid_index >= 0 && rep->gid_index <= 4095 ? (int16_t)rep->gid_index : -1;
	snprintf(m->gid, sizeof(m->gid), "%s", rep->gid ? rep->gid : "");
	m->place = rep->place;
}

/* In the child: run the pair's side, write the report, exit. */
static void child(const struct rb_mx_job *j, const struct rb_mx_task *t, int wfd)
{
	struct rb_serve serve = { .name = j->b->name, .accept = j->b->name, .once = true };
	struct rb_mx_report m = { .round = 0, .pair = t->pair, .role = t->role, .gid_index = -1 };
	struct rb_session_hooks h = { .on_point = child_point, .on_point_ctx = &m };
	struct rb_local l = j->c->l;
	ssize_t n;

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed rank takes its pairs along */
	if (getppid() == 1)
		_exit(RB_EXIT_FAIL);
	snprintf(l.device, sizeof(l.device), "%s", j->device);
	snprintf(l.bind, sizeof(l.bind), "%s", j->bind);
	snprintf(l.cuda, sizeof(l.cuda), "%s", j->cuda);
	l.tcp_port = t->port;
	l.json_path[0] = l.csv_path[0] = '\0';
	rb_quiet = !rb_verbose;
	rb_last_error[0] = '\0';
	if (t->role == RB_MX_SERVE) {
		m.status = rb_server(&serve, &l, &h);
	} else if (j->c->p.threads > 1) {
		/* --threads runs its sessions as threads of one process (threads.c) */
		rb_err("--threads does not go with matrix");
		m.status = RB_EXIT_USAGE;
	} else {
		l.host = t->addr;
		m.status = rb_client(j->b, &j->c->p, &l, &h);
	}
	if (m.status)
		snprintf(m.reason, sizeof(m.reason), "%s",
			 rb_last_error[0] ? rb_last_error : "exited without a reason");
	n = write(wfd, &m, sizeof(m)); /* < PIPE_BUF: one piece */
	_exit(n == (ssize_t)sizeof(m) ? m.status : RB_EXIT_FAIL);
}

static int start_kid(struct worker *w, const struct rb_mx_task *t)
{
	struct kid *k = &w->kid[w->nkids];
	int p[2];

	if (pipe2(p, O_CLOEXEC)) {
		rb_err("rank %u: pipe: %s", w->j->id.rank, strerror(errno));
		return -errno;
	}
	fflush(NULL);
	k->pid = fork();
	if (k->pid == 0) {
		close(p[0]);
		close(w->co.fd);
		child(w->j, t, p[1]);
	}
	close(p[1]);
	if (k->pid < 0) {
		rb_err("rank %u: fork: %s", w->j->id.rank, strerror(errno));
		close(p[0]);
		return -EAGAIN;
	}
	k->fd = p[0];
	k->t = *t;
	k->kill_at = 0;
	w->nkids++;
	return 0;
}

/* ---- the round ------------------------------------------------------------ */

static int send_tick(struct worker *w, uint16_t type, uint32_t pair)
{
	struct rb_mx_tick t = { .round = w->round, .pair = pair };

	return rb_mx_send(&w->co, type, wbuf, rb_mx_pack_tick(&t, wbuf, sizeof(wbuf)));
}

/* A child ended (or its pipe closed): its report goes to the coordinator. */
static int reap(struct worker *w, struct kid *k)
{
	struct rb_mx_report m;
	ssize_t n = read(k->fd, &m, sizeof(m));
	int st = 0;

	close(k->fd);
	k->fd = -1;
	waitpid(k->pid, &st, 0);
	if (n != (ssize_t)sizeof(m)) {
		memset(&m, 0, sizeof(m));
		m.pair = k->t.pair;
		m.role = k->t.role;
		m.gid_index = -1;
		m.status = RB_EXIT_FAIL;
		snprintf(m.reason, sizeof(m.reason), "rank %u's %s process %s", w->j->id.rank,
			 k->t.role == RB_MX_SERVE ? "server" : "client",
			 WIFSIGNALED(st) ? "was killed" : "ended without a report");
	}
	m.round = w->round;
	return rb_mx_send(&w->co, RB_MX_MSG_RESULT, wbuf,
			  rb_mx_pack_report(&m, wbuf, sizeof(wbuf)));
}

/* OVER(pair): the client is done; the server has a second chance, then ends. */
static int over(struct worker *w, const uint8_t *body, uint32_t len)
{
	uint64_t grace = (uint64_t)(w->j->timeout_ms < 5000 ? w->j->timeout_ms : 5000) * 1000000ULL;
	struct rb_mx_tick t;
	uint32_t i;

	if (rb_mx_unpack_tick(body, len, &t) || t.round > w->round) {
		rb_err("rank %u: coordinator %s sent a bad OVER", w->j->id.rank, w->co.peer);
		return -EPROTO;
	}
	if (t.round < w->round)
		return 0; /* a pair of a round this rank finished */
	for (i = 0; i < w->nkids; i++)
		if (w->kid[i].t.pair == t.pair && w->kid[i].fd >= 0 && !w->kid[i].kill_at)
			w->kid[i].kill_at = rb_now_ns() + grace;
	return 0;
}

static void kill_late(struct worker *w, bool all)
{
	uint64_t now = rb_now_ns();
	uint32_t i;

	for (i = 0; i < w->nkids; i++)
		if (w->kid[i].fd >= 0 && (all || (w->kid[i].kill_at && now >= w->kid[i].kill_at)))
			kill(w->kid[i].pid, SIGKILL);
}

/* From the coordinator while children run: OVER, a BEAT; JOB_ENDED on END. */
static int from_coord(struct worker *w)
{
	char tn[24];
	uint16_t type;
	uint32_t len;
	int ret = rb_oob_recv(&w->co, &type, wbuf, sizeof(wbuf), &len);

	if (ret || type == RB_MX_MSG_BEAT)
		return ret;
	if (type == RB_MX_MSG_END)
		return JOB_ENDED;
	if (type == RB_MX_MSG_OVER)
		return over(w, wbuf, len);
	rb_err("rank %u: coordinator %s sent %s during round %u", w->j->id.rank, w->co.peer,
	       rb_msg_type_str(type, tn, sizeof(tn)), w->round);
	return -EPROTO;
}

static uint32_t running(const struct worker *w)
{
	uint32_t i, n = 0;

	for (i = 0; i < w->nkids; i++)
		n += w->kid[i].fd >= 0;
	return n;
}

/* One pass: wait up to a second for a child or the coordinator. */
static int watch(struct worker *w, uint64_t *heard)
{
	struct pollfd pf[RB_MX_WIRE_TASKS + 1];
	struct kid *who[RB_MX_WIRE_TASKS];
	uint32_t i, n = 0;
	int ret = 0;

	for (i = 0; i < w->nkids; i++)
		if (w->kid[i].fd >= 0) {
			who[n] = &w->kid[i];
			pf[n++] = (struct pollfd){ .fd = w->kid[i].fd, .events = POLLIN };
		}
	pf[n] = (struct pollfd){ .fd = w->co.fd, .events = POLLIN };
	if (poll(pf, n + 1, 1000) < 0 && errno != EINTR)
		return -errno;
	for (i = 0; i < n && !ret; i++)
		if (pf[i].revents)
			ret = reap(w, who[i]);
	if (!ret && pf[n].revents) {
		ret = from_coord(w);
		*heard = rb_now_ns();
	}
	return ret;
}

/* Giving up on the round: every child ends, unreported. */
static void end_kids(struct worker *w)
{
	uint32_t i;

	kill_late(w, true);
	for (i = 0; i < w->nkids; i++)
		if (w->kid[i].fd >= 0) {
			close(w->kid[i].fd);
			w->kid[i].fd = -1;
			waitpid(w->kid[i].pid, NULL, 0);
		}
}

static int run_kids(struct worker *w)
{
	uint64_t heard = rb_now_ns();
	int ret = 0;

	while (!ret && running(w)) {
		ret = watch(w, &heard);
		kill_late(w, false);
		if (!ret && rb_now_ns() >= w->beat_at) {
			ret = rb_mx_send(&w->co, RB_MX_MSG_BEAT, wbuf, 0);
			w->beat_at = rb_now_ns() + NS_PER_S;
		}
		if (!ret && rb_now_ns() - heard > (uint64_t)w->j->timeout_ms * 1000000ULL) {
			rb_err("rank %u: coordinator %s silent for %d s (--timeout)", w->j->id.rank,
			       w->co.peer, w->j->timeout_ms / 1000);
			ret = -ETIMEDOUT;
		}
		if (rb_interrupted)
			ret = -EINTR;
	}
	return ret;
}

/*
 * Wait for GO of this round; 1 when the job ended.  An OVER may come
 * first: a pair whose client's rank died before the round began.
 */
static int wait_go(struct worker *w)
{
	struct rb_mx_tick t;
	char tn[24];
	uint16_t type;
	uint32_t len;
	int ret;

	for (;;) {
		ret = rb_oob_recv(&w->co, &type, wbuf, sizeof(wbuf), &len);
		if (ret)
			return ret;
		if (type == RB_MX_MSG_END)
			return JOB_ENDED;
		if (type == RB_MX_MSG_BEAT)
			continue;
		if (type == RB_MX_MSG_OVER) {
			ret = over(w, wbuf, len);
			if (ret)
				return ret;
			continue;
		}
		if (type == RB_MX_MSG_GO && !rb_mx_unpack_tick(wbuf, len, &t) &&
		    t.round == w->round)
			return 0;
		rb_err("rank %u: coordinator %s sent %s where GO of round %u was expected",
		       w->j->id.rank, w->co.peer, rb_msg_type_str(type, tn, sizeof(tn)), w->round);
		return -EPROTO;
	}
}

static int start_role(struct worker *w, const struct rb_mx_round *r, uint8_t role)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < r->ntasks && !ret; i++)
		if (r->task[i].role == role)
			ret = start_kid(w, &r->task[i]);
	return ret;
}

/*
 * --simulate: each task's side reported at once, the client's with the
 * synthetic figure; no child, no device, no port.
 */
static int sim_tasks(struct worker *w, const struct rb_mx_round *r)
{
	const struct rb_mx_job *j = w->j;
	struct rb_mx_report m;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < r->ntasks && !ret; i++) {
		const struct rb_mx_task *t = &r->task[i];
		uint32_t src = t->role == RB_MX_RUN ? j->id.rank : t->peer;
		uint32_t dst = t->role == RB_MX_RUN ? t->peer : j->id.rank;

		memset(&m, 0, sizeof(m));
		m.round = w->round;
		m.pair = t->pair;
		m.role = t->role;
		m.has_res = t->role == RB_MX_RUN;
		m.gid_index = -1; /* no device: no port, no GID */
		snprintf(m.device, sizeof(m.device), "sim%u", j->id.rank);
		m.place.device_numa_node = m.place.mem_node = m.place.local = -1;
		m.place.freq_cpu = -1;
		if (m.has_res)
			rb_mx_sim_result(&j->sim, j->b->mode, j->c->p.size.v[0], src, dst, w->round,
					 &m.res);
		ret = rb_mx_send(&w->co, RB_MX_MSG_RESULT, wbuf,
				 rb_mx_pack_report(&m, wbuf, sizeof(wbuf)));
	}
	return ret;
}

static int sim_round(struct worker *w, const struct rb_mx_round *r)
{
	int ret = send_tick(w, RB_MX_MSG_READY, 0);

	if (!ret)
		ret = wait_go(w);
	if (!ret)
		ret = sim_tasks(w, r);
	return ret ? ret : send_tick(w, RB_MX_MSG_DONE, 0);
}

static int do_round(struct worker *w, const struct rb_mx_round *r)
{
	int ret;

	w->round = r->round;
	if (w->j->sim.on)
		return sim_round(w, r);
	w->nkids = 0;
	ret = start_role(w, r, RB_MX_SERVE);
	if (!ret)
		ret = send_tick(w, RB_MX_MSG_READY, 0);
	if (!ret)
		ret = wait_go(w);
	if (!ret)
		ret = start_role(w, r, RB_MX_RUN);
	if (!ret)
		ret = run_kids(w);
	if (ret) {
		end_kids(w);
		return ret;
	}
	return send_tick(w, RB_MX_MSG_DONE, 0);
}

/* ---- joining ---------------------------------------------------------------- */

/* One try: connect (refusals retried until @until), JOIN, WELCOME. */
static int join_once(struct worker *w, uint64_t until)
{
	const struct rb_mx_job *j = w->j;
	uint64_t now = rb_now_ns();
	struct rb_mx_join m = { .proto = RB_MX_PROTO,
				.rank = j->id.rank,
				.nranks = j->id.nranks,
				.local = j->id.local };
	struct rb_auth_key key;
	uint8_t raw[512];
	uint32_t len;
	int ret, n;

	snprintf(m.tool_version, sizeof(m.tool_version), "%s", PACKAGE_VERSION);
	snprintf(m.test, sizeof(m.test), "%s", j->b->name);
	snprintf(m.host, sizeof(m.host), "%s", j->host);
	snprintf(m.device, sizeof(m.device), "%s", j->device);
	snprintf(m.addr, sizeof(m.addr), "%s", j->bind);
	ret = rb_oob_connect(j->coord_host, j->coord_port, NULL,
			     now < until ? (int)((until - now) / 1000000) : 1, &w->co);
	if (ret) {
		rb_err("rank %u: cannot reach the coordinator at %s port %u", j->id.rank,
		       j->coord_host, j->coord_port);
		return ret;
	}
	w->co.timeout_ms = j->timeout_ms;
	rb_auth_key_of(&j->c->l, &key);
	m.auth = key.set;
	if (key.set)
		rb_auth_nonce(m.nonce);
	n = rb_mx_pack_join(&m, raw, sizeof(raw));
	ret = rb_mx_send(&w->co, RB_MX_MSG_JOIN, raw, n);
	if (!ret && key.set) /* --auth-key: WELCOME and every later frame tagged */
		ret = rb_mx_auth_rank(&w->co, &key, m.nonce, raw, (uint32_t)n, &w->auth);
	return ret ? ret : rb_oob_expect(&w->co, RB_MX_MSG_WELCOME, wbuf, sizeof(wbuf), &len);
}

#define JOIN_PAUSE_MS	  100  /* the first pause before joining again */
#define JOIN_PAUSE_MAX_MS 2000 /* doubled each time up to this */

/*
 * Join within --timeout.  A coordinator not listening yet refuses the
 * connection: rb_oob_connect() tries again until then.  One that accepts
 * and closes before its WELCOME without an ERROR (its accept queue
 * overflowed, or it was restarted) is joined again after a pause that
 * doubles each time; an ERROR (refused: wrong rank, version) ends it.
 */
static int join(struct worker *w)
{
	uint64_t until = rb_now_ns() + (uint64_t)w->j->timeout_ms * 1000000ULL;
	unsigned int pause_ms = JOIN_PAUSE_MS;
	int ret;

	for (;;) {
		ret = join_once(w, until);
		if (ret != -ECONNRESET || rb_interrupted ||
		    rb_now_ns() + pause_ms * 1000000ULL >= until)
			return ret;
		rb_oob_close(&w->co);
		rb_warn("rank %u: the coordinator closed the connection before its WELCOME; "
			"joining again in %u ms",
			w->j->id.rank, pause_ms);
		usleep(pause_ms * 1000);
		pause_ms = pause_ms * 2 < JOIN_PAUSE_MAX_MS ? pause_ms * 2 : JOIN_PAUSE_MAX_MS;
	}
}

static int worker_loop(struct worker *w)
{
	char tn[24];
	uint16_t type;
	uint32_t len;
	int ret;

	for (;;) {
		ret = rb_mx_recv(&w->co, &type, wbuf, sizeof(wbuf), &len);
		if (ret)
			return ret;
		if (type == RB_MX_MSG_END)
			return 0;
		if (type != RB_MX_MSG_ROUND || rb_mx_unpack_round(wbuf, len, &wround)) {
			rb_err("rank %u: coordinator %s sent a bad %s", w->j->id.rank, w->co.peer,
			       rb_msg_type_str(type, tn, sizeof(tn)));
			return -EPROTO;
		}
		ret = do_round(w, &wround);
		if (ret)
			return ret == JOB_ENDED ? 0 : ret;
	}
}

int rb_mx_worker(const struct rb_mx_job *j)
{
	static struct worker w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.j = j;
	w.co.fd = -1;
	ret = join(&w);
	if (!ret)
		ret = worker_loop(&w);
	rb_oob_close(&w.co);
	if (ret == -EINTR || rb_interrupted)
		return rb_interrupted ? 128 + rb_interrupted : RB_EXIT_INTR;
	return ret ? RB_EXIT_FAIL : RB_EXIT_OK;
}
