// SPDX-License-Identifier: MIT
/*
 * The session protocol against a hostile client, through the public API
 * only: a generic server (rb_server(), as "rdmabench server") runs in a
 * child process on a free TCP port, and each test talks to it over a raw
 * socket in the wire format (wire.h): an unknown test, plans with zeros in
 * them, truncated, stalled and trickled frames, a wrong version, a huge
 * length, an HTTP request.  Each must be refused with an ERROR that says
 * why (or, when the client hung up, a closed connection), without waiting
 * out any of the server's waits, and the server must live on to answer the
 * next client.  No RDMA device exists here, so a valid plan gets an ERROR
 * saying so.  At the end ^C (SIGINT) stops the server with exit status 0.
 *
 * No test depends on this machine's speed (CI runs it beside builds on two
 * cores): the server's --timeout is PATIENT_S, longer than any stall, so
 * that no wait of the server ends unless a test means it to.  A
 * connection's process holds the measuring slot until it exits, after its
 * client has gone (tcp_runs' runs follow each other, the refusals after
 * the slot too); the next waits for it up to --timeout - 2 s, which at a
 * --timeout of 2 was one second of the loaded machine's.  The tests of a
 * wait that ends (stalled_frame, trickled_frame) and of a limit (the
 * connections a server holds) each start a server of their own.
 *
 * Some of these describe the server being built on main and fail against
 * older code: the plan checks (-l/--batch 0, -q/--qps 0, -s/--size 0 named
 * with their rule) and the whole-message deadline (a frame trickled a byte
 * at a time must not hold the server past its timeout).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "cli/opts.h"
#include "session/session.h"
#include "core/sweep.h"
#include "wire/wire.h"
#include "engine/xfer.h"

#define PATIENT_S 30 /* the servers' --timeout: no wait of theirs ends under a test */
#define SHORT_S	  2  /* the --timeout of the tests that wait one out */
#define CONNS	  32 /* the server's --max-conns */
#define MAX_RUN_S 4  /* the server's --max-run-time: longer than any other test's run */
/* A refusal that waited out any wait of the server would take its --timeout. */
#define QUICK_MS  (PATIENT_S * 1000 / 2)
#define ANSWER_MS (PATIENT_S * 1000) /* how long a test waits for any answer */

/* A server's command line: "rdmabench server" with these. */
struct srv {
	uint16_t port;
	uint32_t timeout_s, conns, client_conns, max_run_s;
	const char *logfile;
};

static pid_t server_pid, live_pid; /* the main server; the one a test talks to */
static uint16_t main_port, port;   /* server_pid's, live_pid's */
static char run_log[64];	   /* the server's --logfile */

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
static void own_begin(struct srv *v)
{
	v->port = free_port();
	live_pid = fork_server(v);
	assert_true(live_pid > 0);
	port = v->port;
}

static int own_end(void **state)
{
	if (live_pid > 0 && live_pid != server_pid) {
		kill(live_pid, SIGKILL);
		waitpid(live_pid, NULL, 0);
	}
	live_pid = server_pid;
	port = main_port;
	return 0;
}

#define OWN(f) cmocka_unit_test_teardown(f, own_end)

static int start_server(void **state)
{
	struct srv v = {
		.timeout_s = PATIENT_S, .conns = CONNS, .max_run_s = MAX_RUN_S, .logfile = run_log
	};

	snprintf(run_log, sizeof(run_log), "/tmp/rb-test-session-%d.log", (int)getpid());
	unlink(run_log);
	main_port = port = v.port = free_port();
	server_pid = live_pid = fork_server(&v);
	return server_pid < 0 ? -1 : 0;
}

static int stop_server(void **state)
{
	unlink(run_log);
	if (server_pid > 0) {
		kill(server_pid, SIGKILL);
		waitpid(server_pid, NULL, 0);
	}
	return 0;
}

static void assert_server_alive(void)
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
static int dial(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
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
			fail_msg("cannot connect to the server on port %u: %s", port,
				 strerror(errno));
		assert_server_alive();
		usleep(20000);
	}
}

static void send_raw(int fd, const void *buf, size_t len)
{
	assert_int_equal(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

static void send_msg(int fd, uint16_t type, const uint8_t *body, uint32_t len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	rb_hdr_pack(hdr, type, len);
	send_raw(fd, hdr, sizeof(hdr));
	if (len)
		send_raw(fd, body, len);
}

static void send_hello(int fd, const char *test)
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

/*
 * What the server says next: an OK, an ERROR (its text in @text), or
 * nothing -- "(closed)" when it hung up, "(silent)" when nothing came
 * within ANSWER_MS.  @ms is how long it took.
 */
struct answer {
	uint16_t type; /* 0: no message */
	char text[RB_TEXT_MAX + 16];
	uint64_t ms;
};

static struct answer answer(int fd)
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

static bool names(const struct answer *a, const char *needle)
{
	return a->type == RB_MSG_ERROR && strstr(a->text, needle);
}

/*
 * The server refuses: an ERROR containing @needle and @also (when not
 * NULL) within @ms, then it hangs up.
 */
static void expect_refusal2(int fd, const char *needle, const char *also, uint64_t ms)
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

static void expect_refusal(int fd, const char *needle, uint64_t ms)
{
	expect_refusal2(fd, needle, NULL, ms);
}

static void expect_ok(int fd)
{
	struct answer a = answer(fd);

	if (a.type != RB_MSG_OK)
		fail_msg("wanted OK, got %s", a.text);
}

/* The plan "rdmabench write_bw HOST" sends. */
static struct rb_params valid_plan(void)
{
	struct rb_cli c;
	char err[256];

	rb_cli_init(&c);
	if (rb_cli_finish(&c, &rb_bench_write_bw, rb_bench_scope(&rb_bench_write_bw), err,
			  sizeof(err)))
		fail_msg("the default plan is refused: %s", err);
	return c.p;
}

/* HELLO write_bw, OK, then PARAMS @p: the server's answer must name @needle. */
static void plan_refused(const struct rb_params *p, const char *needle)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	int fd = dial(), n;

	send_hello(fd, p->test);
	expect_ok(fd);
	n = rb_pack_params(p, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
	expect_refusal(fd, needle, QUICK_MS);
}

/* A run of more threads than --max-conns: refused, the ERROR naming both. */
static void params_threads_over_limit(void **state)
{
	struct rb_params p = valid_plan();

	p.threads = CONNS + 8;
	p.run_id = 0x40;
	plan_refused(&p, "--threads 40 needs 40 connections at once; this server serves at "
			 "most 32 (rdmabench server --max-conns 32): start it with --max-conns "
			 "40 or more");
}

/*
 * Wire v18: a plan with a field this server does not know, marked must
 * understand (a newer client's feature in use): refused, the ERROR
 * naming the field's tag, never run without it.
 */
static void params_unknown_must(void **state)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	struct rb_params p = valid_plan();
	int fd = dial(), n;

	(void)state;
	send_hello(fd, p.test);
	expect_ok(fd);
	n = rb_pack_params(&p, b, sizeof(b));
	assert_true(n > 0 && b[1] < 0xff);
	b[1]++; /* one field more, appended: tag 0x7abc, must understand */
	memcpy(b + n, "\xfa\xbc\x00\x03new", 7);
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n + 7);
	expect_refusal(fd, "plan field 31420 is one this build does not know and must understand",
		       QUICK_MS);
}

/* The server is listening (it may still be starting): for rb_client(), which does not wait. */
static void dial_ready(void)
{
	close(dial());
}

/* ---- tests ------------------------------------------------------------- */

static void hello_unknown_test(void **state)
{
	int fd = dial();

	send_hello(fd, "nosuch_bw");
	expect_refusal(fd, "nosuch_bw", QUICK_MS);
}

/* A HELLO whose test string claims more bytes than the body holds. */
static void hello_malformed(void **state)
{
	static const uint8_t body[] = { 0, 1, 'x', 0, 40, 'w', 'r' };
	int fd = dial();

	send_msg(fd, RB_MSG_HELLO, body, sizeof(body));
	expect_refusal(fd, "malformed HELLO", QUICK_MS);
}

static void params_before_hello(void **state)
{
	struct rb_params p = valid_plan();
	static uint8_t b[RB_WIRE_MAX_BODY];
	int fd = dial(), n;

	n = rb_pack_params(&p, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
	expect_refusal(fd, "PARAMS where HELLO was expected", QUICK_MS);
}

/* The plan is checked like a command line, before any device is opened. */
static void params_batch_zero(void **state)
{
	struct rb_params p = valid_plan();

	rb_axis_set1(&p.batch, 0);
	plan_refused(&p, "-l/--batch 0 is out of range");
}

/* The plan is checked like a command line, before any device is opened. */
static void params_qps_zero(void **state)
{
	struct rb_params p = valid_plan();

	rb_axis_set1(&p.qps, 0);
	plan_refused(&p, "-q/--qps 0 is out of range");
}

/* The plan is checked like a command line, before any device is opened. */
static void params_size_zero(void **state)
{
	struct rb_params p = valid_plan();

	rb_axis_set1(&p.size, 0);
	plan_refused(&p, "-s/--size 0 is out of range");
}

/* A plan for another test than the HELLO named. */
static void params_other_test(void **state)
{
	struct rb_params p = valid_plan();
	static uint8_t b[RB_WIRE_MAX_BODY];
	int fd = dial(), n;

	send_hello(fd, "send_bw");
	expect_ok(fd);
	n = rb_pack_params(&p, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
	expect_refusal(fd, "sent a plan for write_bw after a HELLO for send_bw", QUICK_MS);
}

/* A good plan gets as far as the device, and there is none here. */
static void params_valid_no_device(void **state)
{
	struct rb_params p = valid_plan();

	plan_refused(&p, "no RDMA device");
}

/* A socket test's plan, as "rdmabench TEST -s @size -n @iters 127.0.0.1" sends it. */
static struct rb_cli tcp_cli(const struct rb_bench *b, uint32_t size, uint64_t iters)
{
	struct rb_cli c;
	char err[256];

	rb_cli_init(&c);
	if (rb_cli_finish(&c, b, rb_bench_scope(b), err, sizeof(err)))
		fail_msg("the %s plan is refused: %s", b->name, err);
	rb_axis_set1(&c.p.size, size);
	c.p.iters = iters;
	c.l.host = "127.0.0.1";
	c.l.tcp_port = port;
	c.l.timeout_s = PATIENT_S;
	snprintf(c.l.cpu, sizeof(c.l.cpu), "none");
	return c;
}

/*
 * A socket test needs no device: the plan is accepted, and the client's
 * DATA is checked before the server listens for it (a client's names no
 * port).
 */
static void tcp_data_checked(void **state)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	struct rb_cli c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	struct rb_msg_data m = {
		.port = 1234,
		.place = { .device_numa_node = -1, .mem_node = -1, .local = -1, .freq_cpu = -1 }
	};
	int fd = dial(), n;

	send_hello(fd, "tcp_lat");
	expect_ok(fd);
	n = rb_pack_params(&c.p, b, sizeof(b));
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
	expect_ok(fd);
	n = rb_pack_data(&m, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_DATA, b, (uint32_t)n);
	expect_refusal(fd, "DATA: a client's has no port (1234)", QUICK_MS);
}

/* The first --logfile line that holds @needle, into @line: whether there is one. */
static bool log_line_with(const char *needle, char *line, size_t len)
{
	bool found = false;
	FILE *f = fopen(run_log, "r");

	assert_non_null(f);
	while (!found && fgets(line, (int)len, f))
		found = strstr(line, needle);
	fclose(f);
	return found;
}

/*
 * Issue 41's second slot hold: a tcp_lat client that sends its DATA and
 * hangs up.  The server watches the control connection while it waits
 * for the data connection and frees the slot at once, not after its
 * --timeout.  The next client is served: its server waits for the slot
 * --timeout - 2 s, and one that held the slot until its --timeout would
 * make it "server busy".  The slot is a lock its process holds until it
 * exits, after its --logfile line: the line says why it ended, a hang-up
 * and not the wait's end (so a machine that stalls for the 2 s between
 * the two waits cannot pass a server that let the wait run out).
 */
static void tcp_hangup_frees_slot(void **state)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	struct rb_cli c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	struct rb_msg_data m = {
		.port = 0,
		.place = { .device_numa_node = -1, .mem_node = -1, .local = -1, .freq_cpu = -1 }
	};
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	char line[4096], who[48];
	struct answer a;
	int fd = dial(), n;

	assert_int_equal(getsockname(fd, (struct sockaddr *)&me, &ml), 0);
	snprintf(who, sizeof(who), " client=127.0.0.1:%u ", ntohs(me.sin_port));
	send_hello(fd, "tcp_lat");
	expect_ok(fd);
	n = rb_pack_params(&c.p, b, sizeof(b));
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
	expect_ok(fd);
	n = rb_pack_data(&m, b, sizeof(b));
	send_msg(fd, RB_MSG_DATA, b, (uint32_t)n);
	a = answer(fd);
	if (a.type != RB_MSG_DATA)
		fail_msg("wanted the server's DATA, got %s", a.text);
	close(fd);
	assert_int_equal(rb_client(&rb_bench_tcp_lat, &c.p, &c.l, NULL), 0);
	if (!log_line_with(who, line, sizeof(line)))
		fail_msg("the next client was served, and the one that hung up has no line in "
			 "--logfile %s: it holds the slot still",
			 run_log);
	if (!strstr(line, "closed the control connection before it opened the data connection"))
		fail_msg("the connection that hung up ended otherwise: %s", line);
	assert_server_alive();
}

/*
 * --logfile: after tcp_runs (three runs) and the refusals before them, a
 * line per connection: the run of tcp_lat -n 200 ok, a refused plan with
 * its error.  A process writes its line as it ends, after its client saw
 * the connection close: the refused plan's may come late on a loaded
 * machine, and is waited for (the run's came before the next run took the
 * slot).
 */
static void run_log_lines(void **state)
{
	uint64_t deadline = rb_now_ns() + ANSWER_MS * 1000000ULL;
	bool ok = false, refused = false;
	char line[4096];
	FILE *f;

	while (!(ok && refused) && rb_now_ns() < deadline) {
		f = fopen(run_log, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			if (strstr(line, " test=tcp_lat thread=0/1 points=1/1 duration_s=") &&
			    strstr(line, " outcome=ok\n"))
				ok = true;
			if (strstr(line, " test=write_bw ") &&
			    strstr(line, "outcome=error:\"client 127.0.0.1:") &&
			    strstr(line, "-l/--batch 0 is out of range"))
				refused = true;
		}
		fclose(f);
		if (!(ok && refused))
			usleep(50000);
	}
	if (!ok || !refused)
		fail_msg("--logfile %s: no line for the tcp_lat run (%d) or the refused plan (%d)",
			 run_log, ok, refused);
}

/*
 * --max-run-time 4: a run of -D 12 is ended 4 s after its admission, not
 * at 12 s: the client fails before its -D is over (and no sooner than the
 * limit), and the next client is served.  Its server says why in its
 * --logfile line, written before it frees the slot the next one takes.
 * (The client itself may not hear why: a tcp_lat client can find its data
 * connection reset before it reads the ERROR.)
 */
static void max_run_time(void **state)
{
	struct rb_cli c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	uint64_t t0 = rb_now_ns(), ms;
	char want[64], line[4096];

	c.p.duration_s = 12;
	c.p.iters = 0;
	assert_int_not_equal(rb_client(&rb_bench_tcp_lat, &c.p, &c.l, NULL), 0);
	ms = (rb_now_ns() - t0) / 1000000;
	if (ms < MAX_RUN_S * 1000 - 200 || ms >= c.p.duration_s * 1000)
		fail_msg("the run ended after %llu ms, not at --max-run-time %d s (-D %u)",
			 (unsigned long long)ms, MAX_RUN_S, c.p.duration_s);
	c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	assert_int_equal(rb_client(&rb_bench_tcp_lat, &c.p, &c.l, NULL), 0);
	snprintf(want, sizeof(want), "--max-run-time %d s reached", MAX_RUN_S);
	if (!log_line_with(want, line, sizeof(line)))
		fail_msg("no line of --logfile %s says '%s'", run_log, want);
	assert_server_alive();
}

/*
 * --max-client-conns 2: a third connection from the same address, while
 * two are in progress, is refused naming it.  On a server of its own
 * whose --timeout no stall outlasts: its listener takes the connections in
 * order, and the first two hold their processes until they hang up.
 */
static void client_conns_capped(void **state)
{
	struct srv v = { .timeout_s = PATIENT_S, .client_conns = 2 };
	int a, b, c;

	own_begin(&v);
	a = dial();
	b = dial();
	c = dial();
	expect_refusal(c,
		       "client 127.0.0.1 has 2 connections in progress, the most one client "
		       "may have (rdmabench server --max-client-conns 2)",
		       QUICK_MS);
	close(a);
	close(b);
}

/* tcp_lat, tcp_bw and tcp_bw -b end to end against the generic server, on the loopback. */
static void tcp_runs(void **state)
{
	struct rb_cli lat = tcp_cli(&rb_bench_tcp_lat, 64, 200);
	struct rb_cli bw = tcp_cli(&rb_bench_tcp_bw, 4096, 500);

	dial_ready();
	assert_int_equal(rb_client(&rb_bench_tcp_lat, &lat.p, &lat.l, NULL), 0);
	assert_int_equal(rb_client(&rb_bench_tcp_bw, &bw.p, &bw.l, NULL), 0);
	bw.p.bidir = 1;
	assert_int_equal(rb_client(&rb_bench_tcp_bw, &bw.p, &bw.l, NULL), 0);
	assert_server_alive();
}

/*
 * -b from the wire: refused by name for a test without the capability,
 * and a flag, not a number; a valid -b plan gets as far as the device.
 */
static void params_bidir(void **state)
{
	struct rb_params p = valid_plan();
	struct rb_cli c;
	char err[256];

	p.bidir = 2;
	plan_refused(&p, "-b/--bidirectional 2 is out of range (0..1)");
	p.bidir = 1;
	plan_refused(&p, "no RDMA device");
	rb_cli_init(&c);
	assert_int_equal(rb_cli_finish(&c, &rb_bench_write_lat, rb_bench_scope(&rb_bench_write_lat),
				       err, sizeof(err)),
			 0);
	c.p.bidir = 1;
	plan_refused(&c.p, "-b/--bidirectional does not apply to write_lat");
}

/*
 * --reversed from the wire: accepted as far as the device; with what only
 * a client's loop knows (-b here), refused by the same validator as the
 * command line.
 */
static void params_reversed(void **state)
{
	struct rb_params p = valid_plan();

	p.reversed = 1;
	plan_refused(&p, "no RDMA device");
	p.bidir = 1;
	plan_refused(&p, "--reversed and -b: both sides stream already");
}

/* Part of a frame, then the client hangs up: the server lets go at once. */
static void truncated_frame(void **state)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];
	struct answer a;
	int fd = dial();

	rb_hdr_pack(hdr, RB_MSG_HELLO, 40);
	send_raw(fd, hdr, sizeof(hdr));
	send_raw(fd, "\0\x05hello", 7);
	shutdown(fd, SHUT_WR);
	a = answer(fd);
	if (a.type == RB_MSG_OK || (!a.type && strcmp(a.text, "(closed)")))
		fail_msg("a truncated HELLO got '%s'", a.text);
	if (a.ms > QUICK_MS)
		fail_msg("the server took %llu ms to let go", (unsigned long long)a.ms);
	close(fd);
	assert_server_alive();
	/* Half a header. */
	fd = dial();
	send_raw(fd, hdr, 5);
	shutdown(fd, SHUT_WR);
	a = answer(fd);
	assert_true(a.type != RB_MSG_OK && a.ms <= QUICK_MS);
	close(fd);
	assert_server_alive();
}

/*
 * Part of a frame, then silence: refused once the timeout passes, naming
 * the wait and the timeout (on a server of its own at --timeout SHORT_S):
 * the words say which wait ended it, and after how long, whenever the
 * loaded machine delivers them.
 */
static void stalled_frame(void **state)
{
	struct srv v = { .timeout_s = SHORT_S };
	uint8_t hdr[RB_WIRE_HDR_LEN];
	char s[64];
	int fd;

	own_begin(&v);
	fd = dial();
	rb_hdr_pack(hdr, RB_MSG_HELLO, 20);
	send_raw(fd, hdr, 5);
	snprintf(s, sizeof(s), "no complete HELLO received within %d s (--timeout)", SHORT_S);
	expect_refusal(fd, s, ANSWER_MS);
}

/*
 * The timeout applies to the whole message, not to each read: a byte every
 * 0.7 s does not keep a frame "alive" past it.  The server (its own, at
 * --timeout SHORT_S) refuses the frame before its 12-byte header is whole,
 * 8.4 s of trickling: one whose timeout each byte renewed would wait for
 * all of it (a slower test only sends fewer bytes before the refusal).
 */
static void trickled_frame(void **state)
{
	struct srv v = { .timeout_s = SHORT_S };
	uint8_t hdr[RB_WIRE_HDR_LEN];
	struct pollfd p;
	struct answer a;
	size_t i;
	int fd;

	own_begin(&v);
	fd = dial();
	rb_hdr_pack(hdr, RB_MSG_HELLO, 20);
	for (i = 0; i < sizeof(hdr); i++) {
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 700) > 0)
			break; /* an answer, or the server hung up */
		if (send(fd, hdr + i, 1, MSG_NOSIGNAL) != 1)
			break;
	}
	if (i == sizeof(hdr)) {
		close(fd);
		fail_msg("a frame trickled a byte per 0.7 s still holds the server after its "
			 "whole header (--timeout %d s)",
			 SHORT_S);
	}
	a = answer(fd);
	close(fd);
	if (!names(&a, "no complete HELLO received") && strcmp(a.text, "(closed)"))
		fail_msg("a trickled frame got '%s'", a.text);
	assert_server_alive();
}

/* A peer of another protocol version is told both versions. */
static void wrong_version(void **state)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];
	char theirs[32], ours[32];
	int fd = dial();

	rb_hdr_pack(hdr, RB_MSG_HELLO, 0);
	hdr[5] = RB_WIRE_VERSION + 1; /* the version: big-endian u16 at offset 4 */
	send_raw(fd, hdr, sizeof(hdr));
	snprintf(theirs, sizeof(theirs), "v%u", RB_WIRE_VERSION + 1);
	snprintf(ours, sizeof(ours), "v%u", RB_WIRE_VERSION);
	expect_refusal2(fd, theirs, ours, QUICK_MS);
}

/* A 4 GiB length is refused from the header alone. */
static void huge_length(void **state)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];
	int fd = dial();

	rb_hdr_pack(hdr, RB_MSG_HELLO, UINT32_MAX);
	send_raw(fd, hdr, sizeof(hdr));
	expect_refusal(fd, "exceeds the 65536-byte cap", QUICK_MS);
}

/* Not rdmabench at all. */
static void http_request(void **state)
{
	static const char req[] = "GET / HTTP/1.0\r\n\r\n";
	struct answer a;
	int fd = dial();

	send_raw(fd, req, sizeof(req) - 1);
	a = answer(fd);
	if (a.type == RB_MSG_ERROR ? !strstr(a.text, "not rdmabench") : strcmp(a.text, "(closed)"))
		fail_msg("an HTTP request got '%s'", a.text);
	if (a.ms > QUICK_MS)
		fail_msg("the refusal took %llu ms", (unsigned long long)a.ms);
	close(fd);
	assert_server_alive();
}

/*
 * An ERROR containing @needle, then an orderly close (FIN): an RST would
 * let a client's kernel drop the ERROR before the client reads it.
 */
/* After its ERROR the server closes @fd with a FIN, not an RST. */
static void expect_fin(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;
	ssize_t n;

	assert_int_equal(poll(&p, 1, ANSWER_MS), 1);
	n = recv(fd, &c, 1, 0);
	if (n != 0)
		fail_msg("after its ERROR the server should close with a FIN; recv: %zd (%s)", n,
			 n < 0 ? strerror(errno) : "data");
	close(fd);
	assert_server_alive();
}

/*
 * At the connection limit (--max-conns in progress) a client is told why,
 * naming the option, and the close is a FIN after the ERROR: the
 * listener's refusal had an uninitialised deadline, and an RST that lost
 * the ERROR on the way.
 */
#define OWN_CONNS 4
#define BUSY \
	"4 connections in progress, the most it serves at once (rdmabench server --max-conns 4)"

/*
 * On a server of its own, which no earlier test's process holds, at a
 * --timeout no stall outlasts: its listener takes the connections in
 * order, and each silent one holds its process until it hangs up, so the
 * one after them finds the limit reached whatever the machine's speed.
 * (At the main server's --timeout of 2 s a loaded machine let the first
 * silent ones give up before the last came, and a process of the test
 * before could still be counted when the first came.)
 */
static void conn_limit_reason(void **state)
{
	struct srv v = { .timeout_s = PATIENT_S, .conns = OWN_CONNS };
	int held[OWN_CONNS], fd, i;
	struct answer a;

	own_begin(&v);
	for (i = 0; i < OWN_CONNS; i++)
		held[i] = dial(); /* silent: each holds a process until it hangs up */
	fd = dial();
	send_hello(fd, "write_bw");
	a = answer(fd);
	if (!names(&a, BUSY))
		fail_msg("wanted an ERROR naming '%s', got %s: '%s'", BUSY,
			 a.type ? rb_msg_name(a.type) : "no message", a.text);
	expect_fin(fd);
	for (i = 0; i < OWN_CONNS; i++)
		close(held[i]);
}

/* After all that, a well-behaved client is still welcome. */
static void still_serving(void **state)
{
	int fd = dial();

	send_hello(fd, "write_bw");
	expect_ok(fd);
	close(fd);
	assert_server_alive();
}

/*
 * ^C ends "rdmabench server" with status 0, within its own bound (a
 * second for its children, SIGTERM, --timeout + 5 s more, SIGKILL).
 */
static void sigint_exits_0(void **state)
{
	uint64_t deadline = rb_now_ns() + (1 + PATIENT_S + 5 + 1) * 1000000000ULL;
	int status = 0;
	pid_t got = 0;

	assert_server_alive();
	assert_int_equal(kill(server_pid, SIGINT), 0);
	while (rb_now_ns() < deadline && !(got = waitpid(server_pid, &status, WNOHANG)))
		usleep(10000);
	if (got != server_pid)
		fail_msg("the server is still running %d s after SIGINT", 1 + PATIENT_S + 5 + 1);
	server_pid = -1;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_unknown_test),
		cmocka_unit_test(params_unknown_must),
		cmocka_unit_test(hello_malformed),
		cmocka_unit_test(params_before_hello),
		cmocka_unit_test(params_batch_zero),
		cmocka_unit_test(params_qps_zero),
		cmocka_unit_test(params_size_zero),
		cmocka_unit_test(params_other_test),
		cmocka_unit_test(params_valid_no_device),
		cmocka_unit_test(params_threads_over_limit),
		cmocka_unit_test(params_bidir),
		cmocka_unit_test(params_reversed),
		cmocka_unit_test(tcp_data_checked),
		cmocka_unit_test(tcp_runs),
		cmocka_unit_test(tcp_hangup_frees_slot),
		cmocka_unit_test(run_log_lines),
		cmocka_unit_test(max_run_time),
		OWN(client_conns_capped),
		cmocka_unit_test(truncated_frame),
		OWN(stalled_frame),
		OWN(trickled_frame),
		cmocka_unit_test(wrong_version),
		cmocka_unit_test(huge_length),
		cmocka_unit_test(http_request),
		OWN(conn_limit_reason),
		cmocka_unit_test(still_serving),
		cmocka_unit_test(sigint_exits_0),
	};

	return cmocka_run_group_tests(tests, start_server, stop_server);
}
