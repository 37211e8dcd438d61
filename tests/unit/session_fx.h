// SPDX-License-Identifier: MIT
/*
 * The session tests' fixture (test_session*.c): the session protocol
 * against a hostile client, through the public API only.  A generic server
 * (rb_server(), as "rdmabench server") runs in a child process on a free
 * TCP port, and each test talks to it over a raw socket in the wire format
 * (wire.h).  Each refusal must be an ERROR that says why (or, when the
 * client hung up, a closed connection), without waiting out any of the
 * server's waits, and the server must live on to answer the next client.
 * No RDMA device exists here, so a valid plan gets an ERROR saying so.
 *
 * No test depends on this machine's speed (CI runs it beside builds on two
 * cores): the server's --timeout is PATIENT_S, longer than any stall, so
 * that no wait of the server ends unless a test means it to.  A
 * connection's process holds the measuring slot until it exits, after its
 * client has gone; the next waits for it up to --timeout - 2 s, which at a
 * --timeout of 2 was one second of the loaded machine's.  The tests of a
 * wait that ends and of a limit (the connections a server holds) each
 * start a server of their own (OWN()).
 */
#ifndef SESSION_FX_H
#define SESSION_FX_H

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

/* The main server (start_server()) and the one a test talks to now (live_pid, srv_port). */
extern pid_t server_pid, live_pid;
extern uint16_t srv_port;
extern char run_log[64]; /* the main server's --logfile */

/* The group's setup and teardown: the main server, at PATIENT_S, CONNS and MAX_RUN_S. */
int start_server(void **state);
int stop_server(void **state);
/*
 * A server of one test's own, on a port of its own: the test talks to it
 * until own_end(), the test's teardown (OWN()), which runs even when the
 * test fails.
 */
void own_begin(struct srv *v);
int own_end(void **state);
#define OWN(f) cmocka_unit_test_teardown(f, own_end)
void assert_server_alive(void);

/* ---- a raw client ------------------------------------------------------ */

/*
 * Connect, waiting for the server to listen (it may still be starting) for
 * as long as it lives: ANSWER_MS only guards against a hang.
 */
int dial(void);
/* The server is listening (it may still be starting): for rb_client(), which does not wait. */
void dial_ready(void);
void send_raw(int fd, const void *buf, size_t len);
void send_msg(int fd, uint16_t type, const uint8_t *body, uint32_t len);
void send_hello(int fd, const char *test);

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

struct answer answer(int fd);
/* The answer is an ERROR containing @needle. */
bool names(const struct answer *a, const char *needle);
/*
 * The server refuses: an ERROR containing @needle and @also (when not
 * NULL) within @ms, then it hangs up.
 */
void expect_refusal2(int fd, const char *needle, const char *also, uint64_t ms);
void expect_refusal(int fd, const char *needle, uint64_t ms);
void expect_ok(int fd);

#endif
