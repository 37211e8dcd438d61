// SPDX-License-Identifier: MIT
/*
 * rdmabench server (and a test's server): the listener, a process per
 * connection, the connection limit and the end on ^C.
 */
#include "session/session_int.h"
#include "session/rails.h"
#include "session/lockshare.h"
#include "core/cmd.h"
#include "wire/allow.h"
#include <time.h>

/* ---- --max-run-time -------------------------------------------------- */

static volatile sig_atomic_t run_expired;

static void on_alarm(int sig)
{
	run_expired = 1;
	rb_interrupted = sig;
}

void sess_run_limit(uint32_t sec)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	if (!sec)
		return;
	sigemptyset(&sa.sa_mask); /* no SA_RESTART: every wait sees it */
	sigaction(SIGALRM, &sa, NULL);
	alarm(sec);
}

bool sess_run_expired(void)
{
	return run_expired;
}

/* ---- --logfile: a line per run ----------------------------------------- */

static int run_log_fd = -1; /* opened by rb_server(), inherited by the children */

static int run_log_open(const char *path)
{
	if (!path[0])
		return 0;
	run_log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (run_log_fd < 0) {
		rb_err("--logfile %s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}

void sess_run_log(const struct sess_run_line *r)
{
	char line[2 * RB_TEXT_MAX], when[32], safe[RB_TEXT_MAX * 4];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	if (run_log_fd < 0)
		return;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	n = snprintf(line, sizeof(line),
		     "%s client=%s test=%s thread=%u/%u points=%zu/%zu duration_s=%.3f "
		     "outcome=%s%s%s\n",
		     when, r->client, r->test[0] ? r->test : "-", r->thread, r->threads, r->done,
		     r->planned, (double)r->ns / 1e9, r->error ? "error:\"" : "ok",
		     r->error ? rb_escape(r->error, safe, sizeof(safe)) : "", r->error ? "\"" : "");
	if (n > (int)sizeof(line) - 1) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	/* One write: the lines of children running at once do not mix. */
	if (write(run_log_fd, line, (size_t)n) != n)
		rb_warn("--logfile: a line not written: %s", strerror(errno));
}

/* ---- the generic server: one process per connection ------------------ */

/* A refused client's answer: the listener waits for no one longer. */
#define REFUSE_SEND_MS	1000
#define REFUSE_DRAIN_MS 200

struct kids {
	pid_t *pid;	      /* max of them */
	char (*client)[64];   /* each one's client address, without the port */
	int n, max;	      /* --max-conns */
	int client_max;	      /* --max-client-conns (0: max) */
	int slot_fd;	      /* the lock file, or -1 */
	struct rb_admit *adm; /* what they were admitted for, or NULL */
};

/*
 * A child that died before it could free its entry: freed here, and its
 * place in a lock --run-id run marked dead (the pid is exact here).
 */
static void reaped(struct kids *k, pid_t pid)
{
	if (!k->adm || k->slot_fd < 0 || rb_admit_lock(k->slot_fd, true))
		return;
	rb_admit_release(k->adm, pid);
	sess_lockshare_reaped(pid);
	rb_admit_lock(k->slot_fd, false);
}

static void reap_kids(struct kids *k, bool block)
{
	int i = 0;

	while (i < k->n) {
		if (waitpid(k->pid[i], NULL, block ? 0 : WNOHANG) == 0) {
			i++;
			continue;
		}
		reaped(k, k->pid[i]);
		k->pid[i] = k->pid[--k->n];
		memcpy(k->client[i], k->client[k->n], sizeof(k->client[i]));
	}
}

/* Wait up to @until (ns) for the children to end. */
static void wait_kids(struct kids *k, uint64_t until)
{
	while (k->n && rb_now_ns() < until) {
		reap_kids(k, false);
		usleep(20000);
	}
}

/*
 * Interrupted: the connections in progress end too, keeping their points.
 * A ^C on a terminal reached them already (a second signal would make them
 * exit at once), so they get a second to end before they are told.
 */
static void stop_kids(struct kids *k, int timeout_s)
{
	int i;

	wait_kids(k, rb_now_ns() + 1000000000ULL);
	for (i = 0; i < k->n; i++)
		kill(k->pid[i], SIGTERM);
	wait_kids(k, rb_now_ns() + (uint64_t)(timeout_s + 5) * 1000000000ULL);
	for (i = 0; i < k->n; i++)
		kill(k->pid[i], SIGKILL);
	reap_kids(k, true);
}

/*
 * A child serves the connection: a slow, silent or hostile peer holds only
 * its own process, never the listener, and whatever it makes a session
 * allocate is returned when the child exits.
 */
/* --max-client-conns: whether @client has that many connections in progress. */
static bool client_full(const struct kids *k, struct rb_oob *o, const char *client)
{
	int i, n = 0;

	for (i = 0; i < k->n; i++)
		n += !strcmp(k->client[i], client);
	if (!k->client_max || n < k->client_max)
		return false;
	rb_oob_send_error(o,
			  "server: client %s has %d connections in progress, the most one client "
			  "may have (rdmabench server --max-client-conns %d); try again later",
			  client, n, k->client_max);
	rb_warn("refused %s: %d connections of that client in progress (--max-client-conns %d)",
		o->peer, n, k->client_max);
	rb_oob_drain_close(o, REFUSE_DRAIN_MS);
	return true;
}

static void spawn(struct kids *k, struct rb_oob *o, const struct rb_serve *f,
		  const struct rb_local *c, const struct rb_session_hooks *h, int lfd)
{
	char client[64];
	pid_t pid;

	rb_oob_peer_host(o, client, sizeof(client));
	if (client_full(k, o, client))
		return;
	if (k->n == k->max) {
		rb_oob_send_error(o,
				  "server: %d connections in progress, the most it serves at once "
				  "(rdmabench server --max-conns %d); try again later, or start it "
				  "with a larger --max-conns",
				  k->max, k->max);
		rb_warn("refused %s: %d connections in progress (--max-conns %d)", o->peer, k->max,
			k->max);
		rb_oob_drain_close(o, REFUSE_DRAIN_MS);
		return;
	}
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	if (pid == 0) {
		close(lfd);
		/* A forked child ends here; main() never sees its status. */
		_exit(sess_serve_conn(o, f, c, h, k->slot_fd, k->adm) ? RB_EXIT_FAIL : RB_EXIT_OK);
	}
	if (pid < 0) {
		rb_err("cannot fork a process for %s: %s", o->peer, strerror(errno));
		return;
	}
	memcpy(k->client[k->n], client, sizeof(client));
	k->pid[k->n++] = pid;
}

/* --allow: whether @o's client may connect; one line and a close when not. */
static bool allowed(const struct rb_allow *allow, struct rb_oob *o, const char *list)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (!allow->n)
		return true;
	if (!getpeername(o->fd, (struct sockaddr *)&ss, &sl) &&
	    rb_allow_ok(allow, (struct sockaddr *)&ss))
		return true;
	rb_warn("refused %s: not in --allow %s", o->peer, list);
	rb_oob_close(o);
	return false;
}

static int serve_forever(int lfd, const struct rb_serve *f, const struct rb_local *c,
			 const struct rb_session_hooks *h, const struct rb_allow *allow)
{
	FILE *slot = tmpfile();
	struct kids k = { .n = 0,
			  .max = c->max_conns ? (int)c->max_conns : RB_CONNS_DEFAULT,
			  .client_max = (int)c->max_client_conns,
			  .slot_fd = slot ? fileno(slot) : -1 };
	/* The listener's own send (a refusal) waits at most REFUSE_SEND_MS. */
	struct rb_oob o = { .fd = -1, .timeout_ms = REFUSE_SEND_MS };
	int ret;

	k.pid = calloc((size_t)k.max, sizeof(*k.pid));
	k.client = calloc((size_t)k.max, sizeof(*k.client));
	if (!k.pid || !k.client) {
		free(k.pid);
		free(k.client);
		rb_err("--max-conns %d: out of memory for its table", k.max);
		if (slot)
			fclose(slot);
		return RB_EXIT_FAIL;
	}
	if (!slot)
		rb_warn("no lock file (%s): clients may be measured at the same time",
			strerror(errno));
	else
		k.adm = rb_admit_map((uint32_t)k.max);
	if (k.adm)
		k.adm->client_mem = c->max_client_mem;
	sess_lockshare_server(getpid()); /* names lock --run-id's segments */
	while (!rb_interrupted) {
		reap_kids(&k, false);
		o.fd = -1;
		ret = rb_oob_accept(lfd, 200, &o);
		if (ret == -ETIMEDOUT || ret == -EINTR)
			continue;
		if (ret) {
			usleep(100000); /* e.g. out of fds: do not spin */
			continue;
		}
		if (!allowed(allow, &o, c->allow))
			continue;
		spawn(&k, &o, f, c, h, lfd);
		rb_oob_close(&o);
	}
	stop_kids(&k, (int)c->timeout_s);
	sess_lockshare_sweep();
	rb_admit_unmap(k.adm);
	free(k.pid);
	free(k.client);
	if (slot)
		fclose(slot);
	return RB_EXIT_OK;
}

/* One device (@name, NULL: any) with @c's -i and -x: RB_EXIT_OK, or why not. */
/* The tests whose data crosses no RDMA device (their rows' path): "tcp_lat, tcp_bw". */
static const char *socket_tests(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; rb_benches[i] && used < len; i++)
		if (rb_benches[i]->path != RB_PATH_VERBS)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 rb_benches[i]->name);
	return buf;
}

/*
 * A host without RDMA devices: a server for an RDMA test would wait for
 * clients it can never serve (exit 1 at once); the generic server still
 * serves the socket tests and doctor, and says so.
 */
static int no_device_check(const struct rb_serve *f)
{
	char names[160];
	struct rb_cmd cmd;

	if (rb_dev_count() > 0)
		return RB_EXIT_OK;
	if (f->accept && rb_cmd_find(f->accept, &cmd) && !(cmd.scope & RB_S_VERBS))
		return RB_EXIT_OK;
	if (f->accept) {
		rb_err("%s: no RDMA device on this host (is the driver loaded? try ibv_devices): "
		       "this server could serve no client",
		       f->name);
		return RB_EXIT_FAIL;
	}
	rb_info("%s: no RDMA device on this host: serving %s and doctor only", f->name,
		socket_tests(names, sizeof(names)));
	return RB_EXIT_OK;
}

static int device_check(const struct rb_serve *f, const struct rb_local *c, const char *name,
			int port)
{
	const struct rb_dev_want w = { .name = name,
				       .port = port,
				       .gid_index = c->gid_index,
				       .local = NULL,
				       .peer_family = AF_UNSPEC,
				       .port_by = c->dualport ? "-O/--dualport" : NULL };
	int ret;

	/* Nothing chosen: the device is the one the client comes through. */
	if (!w.name && w.port <= 0 && w.gid_index < 0)
		return no_device_check(f);
	ret = rb_dev_check(&w);
	if (!ret)
		return RB_EXIT_OK;
	return ret == -EINVAL ? RB_EXIT_USAGE : RB_EXIT_FAIL;
}

/*
 * -d, -i and -x, checked before listening: a server on a device that is
 * not there would wait, and tell only its first client.  Exit codes are
 * the client's for the same choices (-i or -x out of range: usage);
 * returns one, RB_EXIT_OK to go on.  A -d list, -d all or -O: each rail.
 */
static int server_device_check(const struct rb_serve *f, const struct rb_local *c)
{
	struct rb_rails r;
	char err[256];
	uint32_t k;
	int ret;

	ret = rb_rails_parse(c, &r, err, sizeof(err));
	if (ret) {
		rb_err("server: %s", err);
		return ret == -EINVAL ? RB_EXIT_USAGE : RB_EXIT_FAIL;
	}
	if (!r.n)
		return device_check(f, c, c->device[0] ? c->device : NULL, c->ib_port);
	for (k = 0, ret = RB_EXIT_OK; k < r.n && ret == RB_EXIT_OK; k++)
		ret = device_check(f, c, r.dev[k][0] ? r.dev[k] : NULL,
				   r.port[k] ? r.port[k] : c->ib_port);
	if (ret == RB_EXIT_OK)
		rb_info("server: a client's thread k is served on rail k of %u (-d %s%s)", r.n,
			c->device[0] ? c->device : "(default)", c->dualport ? ", -O" : "");
	return ret;
}

int rb_server(const struct rb_serve *f, const struct rb_local *c, const struct rb_session_hooks *h)
{
	struct rb_oob o = { .fd = -1 };
	struct rb_local lc = *c;
	char addrs[512], err[RB_TEXT_MAX];
	struct rb_allow allow;
	int lfd, ret;

	if (sess_check_outputs(c) || rb_place_check(c->cpu, c->numa))
		return RB_EXIT_USAGE;
	if (rb_auth_local(&lc, err, sizeof(err))) {
		rb_err("%s: %s", f->name, err);
		return RB_EXIT_USAGE;
	}
	c = &lc;
	if (rb_allow_parse(c->allow, &allow, err, sizeof(err))) {
		rb_err("%s: %s", f->name, err);
		return RB_EXIT_USAGE;
	}
	if (run_log_open(c->logfile))
		return RB_EXIT_USAGE;
	ret = server_device_check(f, c);
	if (ret)
		return ret;
	ret = rb_oob_listen((uint16_t)c->tcp_port, c->bind, &lfd);
	if (ret)
		return RB_EXIT_FAIL;
	/* Bound (a port under 1024 may need a capability): none is needed now. */
	if (!f->once)
		rb_drop_privs();
	rb_oob_listening(lfd, addrs, sizeof(addrs));
	rb_info("%s: waiting for a client on TCP port %u of %s", f->name, c->tcp_port,
		addrs[0] ? addrs : "every address");
	if (c->auth_loaded)
		rb_info("%s: clients must prove the key of %s (--auth-key)", f->name, c->auth_key);
	else if (!f->once)
		rb_info("%s: no --auth-key: any client that reaches this port may use this server",
			f->name);
	if (allow.n)
		rb_info("%s: serving clients from %s only (--allow)", f->name, c->allow);
	if (!f->once) {
		ret = serve_forever(lfd, f, c, h, &allow);
	} else if ((ret = rb_oob_accept(lfd, -1, &o))) {
		ret = rb_interrupted ? 128 + rb_interrupted : RB_EXIT_FAIL;
	} else {
		ret = sess_serve_conn(&o, f, c, h, -1, NULL);
	}
	close(lfd);
	if (run_log_fd >= 0)
		close(run_log_fd);
	run_log_fd = -1;
	return ret;
}
