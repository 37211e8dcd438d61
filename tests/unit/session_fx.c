// SPDX-License-Identifier: MIT
/* The session tests' fixture (test_session*.c); session_fx.h says what it holds. */
#include "session_fx.h"

pid_t server_pid, live_pid; /* the main server; the one a test talks to */
uint16_t srv_port;	    /* live_pid's */
char run_log[64];	    /* the main server's --logfile */
static uint16_t main_port;  /* server_pid's */

/* ---- the server -------------------------------------------------------- */

static void on_sigint(int sig)
{
	rb_interrupted = 1;
}

/* As main() does: no SA_RESTART, so the accept wait ends on ^C. */
static void serve(const struct srv *v)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	struct rb_cli c;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rb_cli_init(&c);
	c.l.tcp_port = v->port;
	c.l.timeout_s = v->timeout_s;
	c.l.max_conns = v->conns;
	c.l.max_client_conns = v->client_conns;
	c.l.max_run_s = v->max_run_s;
	if (v->logfile)
		snprintf(c.l.logfile, sizeof(c.l.logfile), "%s", v->logfile);
	_exit(rb_server(&(struct rb_serve){ .name = "server" }, &c.l, NULL));
}

static pid_t fork_server(const struct srv *v)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		serve(v);
	return pid;
}

/* A port nobody listens on right now. */
static uint16_t free_port(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET6, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin6_port);
}

/*
 * A server of one test's own, on a port of its own: the test talks to it
 * until own_end(), the test's teardown (OWN()), which runs even when the
 * test fails.
 */
void own_begin(struct srv *v)
{
	v->port = free_port();
	live_pid = fork_server(v);
	assert_true(live_pid > 0);
	srv_port = v->port;
}

int own_end(void **state)
{
	if (live_pid > 0 && live_pid != server_pid) {
		kill(live_pid, SIGKILL);
		waitpid(live_pid, NULL, 0);
	}
	live_pid = server_pid;
	srv_port = main_port;
	return 0;
}

int start_server(void **state)
{
	struct srv v = {
		.timeout_s = PATIENT_S, .conns = CONNS, .max_run_s = MAX_RUN_S, .logfile = run_log
	};

	snprintf(run_log, sizeof(run_log), "/tmp/rb-test-session-%d.log", (int)getpid());
	unlink(run_log);
	main_port = srv_port = v.port = free_port();
	server_pid = live_pid = fork_server(&v);
	return server_pid < 0 ? -1 : 0;
}

int stop_server(void **state)
{
	unlink(run_log);
	if (server_pid > 0) {
		kill(server_pid, SIGKILL);
		waitpid(server_pid, NULL, 0);
	}
	return 0;
}

void assert_server_alive(void)
{
	int status;

	if (waitpid(live_pid, &status, WNOHANG) == live_pid) {
		if (live_pid == server_pid)
			server_pid = -1;
		live_pid = -1;
		fail_msg("the server died (status 0x%x)", status);
	}
}

/* ---- a raw client ------------------------------------------------------ */

/*
 * Connect, waiting for the server to listen (it may still be starting) for
 * as long as it lives: ANSWER_MS only guards against a hang.
 */
int dial(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(srv_port) };
	uint64_t deadline = rb_now_ns() + ANSWER_MS * 1000000ULL;
	int fd;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		assert_true(fd >= 0);
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		if (errno != ECONNREFUSED || rb_now_ns() > deadline)
			fail_msg("cannot connect to the server on port %u: %s", srv_port,
				 strerror(errno));
		assert_server_alive();
		usleep(20000);
	}
}

void send_raw(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

void send_msg(int fd, uint16_t type, const uint8_t *body, uint32_t len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	rb_hdr_pack(hdr, type, len);
	send_raw(fd, hdr, sizeof(hdr));
	if (len)
		send_raw(fd, body, len);
}

void send_hello(int fd, const char *test)
{
	struct rb_msg_hello h = { .tool_version = "hostile" };
	uint8_t b[128];
	int n;

	snprintf(h.test, sizeof(h.test), "%s", test);
	n = rb_pack_hello(&h, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_HELLO, b, (uint32_t)n);
}

/* Read @len bytes by @deadline; the bytes read (short on EOF or timeout). */
static size_t recv_by(int fd, uint8_t *buf, size_t len, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		int64_t ms = ((int64_t)deadline - (int64_t)rb_now_ns()) / 1000000;

		if (ms <= 0 || poll(&p, 1, (int)ms) <= 0)
			break;
		n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

struct answer answer(int fd)
{
	uint64_t t0 = rb_now_ns(), deadline = t0 + ANSWER_MS * 1000000ULL;
	uint8_t hdr[RB_WIRE_HDR_LEN], body[RB_WIRE_MAX_BODY];
	struct answer a = { 0 };
	struct rb_msg_text t;
	struct rb_hdr h;
	char err[160];
	size_t n;

	n = recv_by(fd, hdr, sizeof(hdr), deadline);
	a.ms = (rb_now_ns() - t0) / 1000000;
	if (n < sizeof(hdr)) {
		snprintf(a.text, sizeof(a.text), "%s",
			 rb_now_ns() < deadline ? "(closed)" : "(silent)");
		return a;
	}
	if (rb_hdr_unpack(hdr, &h, err, sizeof(err)))
		fail_msg("the server's answer has a bad header: %s", err);
	if (recv_by(fd, body, h.len, deadline) < h.len)
		fail_msg("the server's %s message is cut short", rb_msg_name(h.type));
	a.type = h.type;
	if (h.type == RB_MSG_ERROR) {
		if (rb_unpack_text(body, h.len, &t))
			fail_msg("the server's ERROR body is malformed");
		snprintf(a.text, sizeof(a.text), "%s", t.text);
	} else {
		snprintf(a.text, sizeof(a.text), "(%s)", rb_msg_name(h.type));
	}
	return a;
}

bool names(const struct answer *a, const char *needle)
{
	return a->type == RB_MSG_ERROR && strstr(a->text, needle);
}

/*
 * The server refuses: an ERROR containing @needle and @also (when not
 * NULL) within @ms, then it hangs up.
 */
void expect_refusal2(int fd, const char *needle, const char *also, uint64_t ms)
{
	struct answer a = answer(fd);

	if (a.type != RB_MSG_ERROR || !strstr(a.text, needle) || (also && !strstr(a.text, also)))
		fail_msg("wanted an ERROR naming '%s'%s%s, got %s: '%s'", needle,
			 also ? " and " : "", also ? also : "",
			 a.type ? rb_msg_name(a.type) : "no message", a.text);
	if (a.ms > ms)
		fail_msg("the refusal took %llu ms (at most %llu)", (unsigned long long)a.ms,
			 (unsigned long long)ms);
	a = answer(fd);
	if (strcmp(a.text, "(closed)"))
		fail_msg("after its ERROR the server should hang up; got '%s'", a.text);
	close(fd);
	assert_server_alive();
}

void expect_refusal(int fd, const char *needle, uint64_t ms)
{
	expect_refusal2(fd, needle, NULL, ms);
}

void expect_ok(int fd)
{
	struct answer a = answer(fd);

	if (a.type != RB_MSG_OK)
		fail_msg("wanted OK, got %s", a.text);
}

/* The server is listening (it may still be starting): for rb_client(), which does not wait. */
void dial_ready(void)
{
	close(dial());
}
