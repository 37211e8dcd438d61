// SPDX-License-Identifier: MIT
/*
 * The session's frames and limits against a hostile client (session_fx.h:
 * a real server in a child process, a raw client in the wire format):
 * truncated, stalled and trickled frames, a wrong version, a huge length,
 * an HTTP request, the connections a server and a client may hold.  Each
 * must be refused with an ERROR that says why (or a closed connection),
 * and the server must live on to answer the next client.  At the end ^C
 * (SIGINT) stops the server with exit status 0.
 *
 * Some of these describe the server being built on main and fail against
 * older code: the whole-message deadline (a frame trickled a byte at a
 * time must not hold the server past its timeout).  Plans: test_session.c.
 */
#include "session_fx.h"

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
