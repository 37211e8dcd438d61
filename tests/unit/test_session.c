// SPDX-License-Identifier: MIT
/*
 * The session's plans against a hostile client (session_fx.h: a real
 * server in a child process, a raw client in the wire format): an unknown
 * test, plans with zeros in them, a plan for another test, -b and
 * --reversed from the wire; then the socket tests end to end, the
 * server's --logfile lines and --max-run-time.  A connection's process
 * holds the measuring slot until it exits (tcp_runs' runs follow each
 * other, the refusals after the slot too).
 *
 * Some of these describe the server being built on main and fail against
 * older code: the plan checks (-l/--batch 0, -q/--qps 0, -s/--size 0 named
 * with their rule).  Frames and connection limits: test_session_frames.c.
 */
#include "session_fx.h"

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

/* PARAMS @p, as a client sends it. */
static void send_params(int fd, const struct rb_params *p)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	int n = rb_pack_params(p, b, sizeof(b));

	assert_true(n > 0);
	send_msg(fd, RB_MSG_PARAMS, b, (uint32_t)n);
}

/* HELLO write_bw, OK, then PARAMS @p: the server's answer must name @needle. */
static void plan_refused(const struct rb_params *p, const char *needle)
{
	int fd = dial();

	send_hello(fd, p->test);
	expect_ok(fd);
	send_params(fd, p);
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
	int fd = dial();

	send_params(fd, &p);
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
	int fd = dial();

	send_hello(fd, "send_bw");
	expect_ok(fd);
	send_params(fd, &p);
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
	c.l.tcp_port = srv_port;
	c.l.timeout_s = PATIENT_S;
	snprintf(c.l.cpu, sizeof(c.l.cpu), "none");
	return c;
}

/*
 * A tcp_lat client up to its DATA on @fd: HELLO and @c's plan, each
 * answered OK, then DATA naming @port (a client's names none).
 */
static void tcp_lat_to_data(int fd, const struct rb_cli *c, uint16_t port)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	struct rb_msg_data m = {
		.port = port,
		.place = { .device_numa_node = -1, .mem_node = -1, .local = -1, .freq_cpu = -1 }
	};
	int n;

	send_hello(fd, "tcp_lat");
	expect_ok(fd);
	send_params(fd, &c->p);
	expect_ok(fd);
	n = rb_pack_data(&m, b, sizeof(b));
	assert_true(n > 0);
	send_msg(fd, RB_MSG_DATA, b, (uint32_t)n);
}

/*
 * A socket test needs no device: the plan is accepted, and the client's
 * DATA is checked before the server listens for it (a client's names no
 * port).
 */
static void tcp_data_checked(void **state)
{
	struct rb_cli c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	int fd = dial();

	tcp_lat_to_data(fd, &c, 1234);
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
	struct rb_cli c = tcp_cli(&rb_bench_tcp_lat, 64, 100);
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	char line[4096], who[48];
	struct answer a;
	int fd = dial();

	assert_int_equal(getsockname(fd, (struct sockaddr *)&me, &ml), 0);
	snprintf(who, sizeof(who), " client=127.0.0.1:%u ", ntohs(me.sin_port));
	tcp_lat_to_data(fd, &c, 0);
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
	};

	return cmocka_run_group_tests(tests, start_server, stop_server);
}
