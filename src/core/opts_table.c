// SPDX-License-Identifier: MIT
/*
 * The option table, rb_opts[]: one row per option (designated
 * initializers), with the syntax checks its rows name (those whose rule
 * is a layer above, cli/opts_check.c's, by the row's id).  cli/ parses a
 * command line with it and prints --help and the man page's OPTIONS from
 * it; plan.c checks a peer's plan against its rows (opts_row.h), and the
 * wire, the JSON, compare and the dry run walk its plan rows.  A data
 * table: its length is its rows'.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bench.h"
#include "core/cli.h"
#include "core/opts_off.h"
#include "core/opts_row.h"
#include "core/regcache.h"
#include "core/cqmod.h"
#include "core/shape.h"
#include "core/sweep.h"
#include "core/lockstat.h" /* issue 42: --backoff */

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

/* --send_with_imm, --write_with_imm: what rdmabench does beyond perftest's. */
#define IMM_DIFF                                                                          \
	"given to the client only (the server adopts the plan); the immediate names the " \
	"point and is checked on every receive (perftest sends 0 and checks only that one came)"

/* --flow-label N[,N...]: up to RB_FLOW_MAX labels of 20 bits, as perftest's list. */
int rb_flows_parse(const char *arg, uint32_t *v, uint32_t *n, char *err, size_t len)
{
	const char *s = arg;
	char *end;
	unsigned long x;

	for (*n = 0; *n < RB_FLOW_MAX; s = end + 1) {
		errno = 0;
		x = strtoul(s, &end, 0);
		if (end == s || *s == '-' || *s == '+' || errno || (*end && *end != ','))
			return fail(err, len, "--flow-label '%s' is not a list of numbers", arg);
		if (x > 0xfffff)
			return fail(err, len, "--flow-label %lu is out of range (0..1048575)", x);
		v[(*n)++] = (uint32_t)x;
		if (!*end)
			return 0;
	}
	return fail(err, len, "--flow-label '%s': more than %d labels", arg, RB_FLOW_MAX);
}

static int check_flows(const char *arg, char *err, size_t len)
{
	uint32_t v[RB_FLOW_MAX], n;

	return rb_flows_parse(arg, v, &n, err, len);
}

/* --tag KEY=VALUE: a key of letters, digits, '_', '-' and '.'; any value. */
static int check_tag(const char *arg, char *err, size_t len)
{
	size_t k = strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");

	if (!k || arg[k] != '=')
		return fail(err, len,
			    "--tag '%s': give KEY=VALUE, the key of letters, digits, '_', '-' "
			    "and '.' (--tag rack=a12)",
			    arg);
	return 0;
}

/* --interval and --rate are kept as typed; rb_cli_finish() puts them into the plan. */
static int check_interval(const char *arg, char *err, size_t len)
{
	uint32_t ms;

	return rb_interval_parse("--interval", arg, &ms, err, len);
}

static int check_reuse(const char *arg, char *err, size_t len)
{
	uint32_t milli;
	uint8_t kind;

	return rb_reuse_parse(arg, &kind, &milli, err, len);
}

static int check_rate(const char *arg, char *err, size_t len)
{
	uint64_t rate;
	uint8_t unit;

	return rb_rate_parse("--rate", arg, &rate, &unit, err, len);
}

/* Defaults that differ by test: a test's --help shows its own. */
static void def_size(const struct rb_bench *b, char *buf, size_t len)
{
	snprintf(buf, len, "%u", b->default_size);
}

static void def_iters(const struct rb_bench *b, char *buf, size_t len)
{
	snprintf(buf, len, "%u", b->mode == RB_MODE_LAT ? DEF_ITERS_LAT : DEF_ITERS_BW);
}

static void def_inline(const struct rb_bench *b, char *buf, size_t len)
{
	if (b->default_inline == RB_INLINE_AUTO)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%u", b->default_inline);
}

const struct rb_opt rb_opts[] = {
	/* what to measure: sent to the server, which adopts it */
	{ .lname = "size",
	  .json = "size",
	  .wire = 2,
	  .id = RB_O_SIZE,
	  .unset = 1,
	  .test_default = def_size,
	  .section = RB_SEC_MEASURE,
	  .brief = "message sizes: 64, 4K,64K or 2..8M:x2",
	  .common = true,
	  .perftest = "-s, --size",
	  .sname = 's',
	  .type = RB_OPT_AXIS,
	  .off = PAR(size),
	  .min = 1,
	  .max = RB_MAX_SIZE,
	  .suffix = true,
	  .argname = "SIZES",
	  .def = "2 (lat), 65536 (bw), 8 (atomic)",
	  .any = RB_S_TEST,
	  .help = "message size in bytes: a value, a list or a range (64,4K or 2..8M:x2); "
		  "K/M/G are powers of 1024" },
	{ .lname = "all",
	  .section = RB_SEC_MEASURE,
	  .brief = "sweep sizes 2..8M:x2 (perftest -a)",
	  .common = true,
	  .perftest = "-a, --all",
	  .pt_diff = "sizes 2 to 8 MiB, as perftest; every point is kept in CSV and JSON; under "
		     "perftest's name -a wins over -s, as perftest's (rdmabench's own refuses "
		     "both)",
	  .sname = 'a',
	  .type = RB_OPT_FLAG,
	  .off = OFF(all),
	  .max = 1,
	  .need = RB_S_TEST | RB_S_SIZED,
	  .help = "sweep sizes 2..8M:x2, as perftest -a" },
	{ .lname = "iters",
	  .json = "iterations",
	  .wire = 7,
	  .id = RB_O_ITERS,
	  .zero_unset = true,
	  .test_default = def_iters,
	  .section = RB_SEC_MEASURE,
	  .brief = "measured iterations per point",
	  .common = true,
	  .perftest = "-n, --iters",
	  .pt_diff = "applies to each point of a sweep; under perftest's name (ib_write_bw) each "
		     "QP's, as perftest's (-q 4 -n 5000 posts and prints 20000; one -q count "
		     "there), under rdmabench's the point's, all its QPs together",
	  .sname = 'n',
	  .type = RB_OPT_U64,
	  .off = PAR(iters),
	  .min = 1,
	  .max = 1ULL << 40,
	  .suffix = true,
	  .argname = "N",
	  .def = "1000 (lat), 5000 (bw)",
	  .any = RB_S_TEST,
	  .help = "measured iterations per point, all its QPs together (under perftest's name, "
		  "as perftest: each QP's, -n times -q)" },
	{ .lname = "duration",
	  .json = "duration_s",
	  .wire = 8,
	  .id = RB_O_DURATION,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .brief = "measure each point for SEC seconds instead",
	  .common = true,
	  .perftest = "-D, --duration",
	  .sname = 'D',
	  .type = RB_OPT_U32,
	  .pt_diff = "-D 0 runs until SIGINT/SIGTERM (perftest: --run_infinitely)",
	  .off = PAR(duration_s),
	  .secs = true,
	  .max = 86400,
	  .argname = "SEC",
	  .need = RB_S_TEST,
	  .help = "measure each point for SEC seconds (90, 90s, 2m) instead of -n iterations; "
		  "percentiles "
		  "stay exact up to 4194304 samples a point, then come from buckets within "
		  "0.4% in bounded memory. -D 0: one point, measured until SIGINT or "
		  "SIGTERM, which keeps it (exit 130/143)" },
	{ .lname = "interval",
	  .id = RB_O_INTERVAL,
	  .section = RB_SEC_MEASURE,
	  .brief = "a time series: one row every SEC seconds",
	  .type = RB_OPT_STR,
	  .off = OFF(interval_arg),
	  .size = sizeof(((struct rb_cli *)0)->interval_arg),
	  .argname = "SEC",
	  .need = RB_S_TEST,
	  .check = check_interval,
	  .help = "a time series: a row every SEC seconds (0.1 to 86400, fractions allowed) "
		  "with that interval's bandwidth, message rate and latency percentiles, "
		  "printed as it ends; the point's row adds the lowest interval bandwidth. "
		  "Measured by the client" },
	{ .lname = "rate",
	  .id = RB_O_RATE,
	  .section = RB_SEC_MEASURE,
	  .brief = "pace the sender: 10Gbps, 1Mpps",
	  .alias = "rate_limit",
	  .perftest = "--rate_limit --rate_units --rate_limit_type",
	  .pt_diff = "software pacing only (perftest's SW type; no HW or PP, no "
		     "--burst_size); the unit is written with the number (10Gbps, 1Mpps) "
		     "instead of --rate_units; a bare number is Gb/s as perftest's default; "
		     "no MiB/s unit; the report shows the achieved rate and the deviation",
	  .type = RB_OPT_STR,
	  .off = OFF(rate_arg),
	  .size = sizeof(((struct rb_cli *)0)->rate_arg),
	  .argname = "RATE",
	  .need = RB_S_BW | RB_S_VERBS,
	  .check = check_rate,
	  .help = "the sender paces its posts to RATE: 10Gbps, 500Mbps, 1Mpps, 200Kpps "
		  "(powers of 1000; bits of payload or messages per second; a bare number is "
		  "Gb/s); the report gives the achieved rate and its deviation from RATE, "
		  "negative when the link cannot reach it" },
	{ .lname = "warmup",
	  .json = "warmup",
	  .wire = 9,
	  .section = RB_SEC_MEASURE,
	  .brief = "unmeasured iterations before each point",
	  .type = RB_OPT_U64,
	  .off = PAR(warmup),
	  .max = 1ULL << 32,
	  .suffix = true,
	  .argname = "N",
	  .def = "auto",
	  .autov = RB_WARMUP_AUTO,
	  .need = RB_S_TEST,
	  .help = "unmeasured iterations before each point, or auto: 100, fewer for messages over "
		  "10 KiB so that the warm-up adds at most 1 MiB (one message at least); the JSON "
		  "gives each point's count" },
	{ .lname = "latency-gap",
	  .json_absent = "0",
	  .json = "latency_gap_us",
	  .section = RB_SEC_MEASURE,
	  .brief = "pause USEC after each round trip",
	  .alias = "latency_gap",
	  .perftest = "--latency_gap",
	  .type = RB_OPT_U32,
	  .off = PAR(latency_gap_us),
	  .max = 500000, /* under any side's --timeout (1 s at least) */
	  .argname = "USEC",
	  .def = "0",
	  .need = RB_S_LAT,
	  .help = "latency tests: the client waits USEC microseconds (up to 500000) after each "
		  "round trip "
		  "before its next post, outside the latency sample but inside the point's "
		  "duration (so the message rate falls); the server's own latency figures "
		  "include the gap, and so do perftest's report's (--format perftest, perftest's "
		  "name), as perftest's samples do" },
	{ .lname = "samples",
	  .section = RB_SEC_OUTPUT,
	  .brief = "every latency sample, as CSV to FILE",
	  .type = RB_OPT_STR,
	  LSTR(samples_path),
	  .argname = "FILE",
	  .need = RB_S_LAT,
	  .help = "latency tests: every sample of every point, in measurement order, as CSV "
		  "to FILE: test, op, size, batch, signal, qps, tx_depth, iteration (from 1), "
		  "lat_us (one-way where lat_us is), and lat_ticks with -C; renamed into place "
		  "when the run ends" },
	{ .lname = "report-unsorted",
	  .section = RB_SEC_OUTPUT,
	  .brief = "perftest: --samples to a default file",
	  .sname = 'U',
	  .perftest = "-U, --report-unsorted",
	  .pt_diff = "the samples go to a CSV file (--samples FILE, default "
		     "rdmabench_samples.csv), not to stdout: a row per sample with its point's "
		     "axes, for every point of a sweep",
	  .type = RB_OPT_FLAG,
	  .off = LOC(unsorted),
	  .max = 1,
	  .need = RB_S_LAT,
	  .help = "perftest's switch: --samples " RB_SAMPLES_DEFAULT " unless --samples names the "
		  "file (samples are always in measurement order)" },
	{ .lname = "report-histogram",
	  .section = RB_SEC_OUTPUT,
	  .brief = "a latency histogram of each point",
	  /* perftest's getopt table spells it so (its help says --report-histogram) */
	  .alias = "report-histogrm",
	  .sname = 'H',
	  .perftest = "-H, --report-histogram",
	  .pt_diff = "perftest prints every sample, sorted; here a histogram (20 buckets from "
		     "the minimum to p99.9, and a tail) under each point and in the JSON, "
		     "drawn by rdmabench-plot; the samples themselves: --samples",
	  .type = RB_OPT_FLAG,
	  .off = LOC(histogram),
	  .max = 1,
	  .need = RB_S_LAT,
	  .help = "latency tests: a histogram of each point, 20 buckets of one width from the "
		  "minimum to p99.9, then one to the maximum when samples lie beyond: bars "
		  "under the point's row, edges and counts in the JSON (histogram)" },
	{ .lname = "report-cycles",
	  .section = RB_SEC_OUTPUT,
	  .brief = "latencies in clock ticks",
	  .sname = 'C',
	  .perftest = "-C, --report-cycles",
	  .pt_diff = "ticks of the clock rdmabench measures with: the TSC on x86 (perftest's "
		     "cycles), the generic timer on ARM, ns elsewhere; the JSON keeps "
		     "microseconds and adds ticks; not with --interval",
	  .type = RB_OPT_FLAG,
	  .off = LOC(cycles),
	  .max = 1,
	  .need = RB_S_LAT,
	  .help = "latency tests: the table's latencies in clock ticks (x86 TSC, ARM generic "
		  "timer), one-way as the microseconds are; the JSON adds lat_ticks, "
		  "ticks_per_us and tick_clock, --samples a lat_ticks column" },
	{ .lname = "tx-depth",
	  .json = "tx_depth",
	  .wire = 6,
	  .id = RB_O_TX_DEPTH,
	  .unset = 1,
	  .section = RB_SEC_SWEEP,
	  .brief = "send queue depth per QP (axis)",
	  .common = true,
	  .perftest = "-t, --tx-depth",
	  .pt_diff = "a sweep axis",
	  .sname = 't',
	  .type = RB_OPT_AXIS,
	  .off = PAR(tx_depth),
	  .min = 1,
	  .max = 32768,
	  .suffix = true,
	  .argname = "DEPTHS",
	  .def = "128",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "send queue depth per QP (an axis)" },
	{ .lname = "rx-depth",
	  .json = "rx_depth",
	  .wire = 10,
	  .always = true,
	  .section = RB_SEC_SWEEP,
	  .brief = "receives kept posted per QP",
	  .perftest = "-r, --rx-depth",
	  .sname = 'r',
	  .type = RB_OPT_U32,
	  .off = PAR(rx_depth),
	  .min = 1,
	  .max = 32768,
	  .suffix = true,
	  .argname = "N",
	  .def = "512",
	  .need = RB_S_RECV | RB_S_VERBS,
	  .help = "receive queue depth: receives kept posted per QP" },
	{ .lname = "recv-post-list",
	  .json_absent = "0",
	  .json = "recv_post_list",
	  .wire = 33,
	  .zero_unset = true,
	  .section = RB_SEC_SWEEP,
	  .brief = "repost receives N at a time",
	  .alias = "recv_post_list",
	  .perftest = "--recv_post_list",
	  .pt_diff = "given to the client, the receiver's too (the plan); without it a "
		     "quarter of -r, one over UC, UD and with -b",
	  .type = RB_OPT_U32,
	  .off = PAR(recv_post_list),
	  .min = 1,
	  .max = 64, /* RB_RECV_CHAIN */
	  .argname = "N",
	  .def = "auto",
	  .need = RB_S_RECV | RB_S_VERBS,
	  .help = "the receiver reposts its receives N at a time, in one ibv_post_recv "
		  "chain (at most -r); over UC and UD a receive short then drops a message" },
	{ .lname = "qps",
	  .json = "qps",
	  .wire = 5,
	  .id = RB_O_QPS,
	  .unset = 1,
	  .section = RB_SEC_SWEEP,
	  .brief = "QPs used round-robin (axis)",
	  .common = true,
	  .alias = "qp",
	  .perftest = "-q, --qp",
	  .pt_diff = "a sweep axis",
	  .sname = 'q',
	  .type = RB_OPT_AXIS,
	  .off = PAR(qps),
	  .min = 1,
	  .max = RB_MAX_QPS,
	  .argname = "NS",
	  .def = "1",
	  .need = RB_S_QPS, /* issue 42: lock's and tcp_lock's contenders */
	  .help = "QPs, used round-robin, sharing one CQ (an axis; up to 16384, within the "
		  "device's max_qp, max_cqe and the memlock limit); lock: the contenders, one "
		  "per QP, at once; tcp_lock: as many contenders on the one data connection" },
	{ .lname = "threads",
	  .json_absent = "1",
	  .json = "threads",
	  .wire = 25,
	  .id = RB_O_THREADS,
	  .zero_unset = true,
	  .section = RB_SEC_SWEEP,
	  .brief = "N threads, each with its own connection",
	  .common = true,
	  .type = RB_OPT_U32,
	  .off = PAR(threads),
	  .min = 1,
	  .max = RB_MAX_THREADS,
	  .argname = "N",
	  .def = "1",
	  .need = RB_S_TEST,
	  .help = "N measuring threads, each with its own connection, QPs and CQ, on a CPU of "
		  "its own (the device's node first): at most the CPUs this process may run on "
		  "(and the --cpu list's), unless the threads sleep (--poll event --cpu none: "
		  "then more are warned of, not refused); needs the generic server (rdmabench "
		  "server), whose "
		  "--max-conns (64 by default) it must not exceed; per-thread figures and their "
		  "sum" },
	{ .lname = "max-conns",
	  .section = RB_SEC_SWEEP,
	  .brief = "server: connections served at once",
	  .type = RB_OPT_U32,
	  .off = LOC(max_conns),
	  .min = 1,
	  .max = RB_MAX_CONNS,
	  .argname = "N",
	  .def = "64",
	  .need = RB_S_SERVER,
	  .help = "connections served at once, each in a process of its own; a client's "
		  "--threads N needs N of them, and a run of more threads than this is "
		  "refused with a message naming it" },
	{ .lname = "allow",
	  .section = RB_SEC_SWEEP,
	  .brief = "server: the client networks it serves",
	  .type = RB_OPT_STR,
	  LSTR(allow),
	  .argname = "CIDR[,CIDR...]",
	  .def = "any address",
	  .need = RB_S_SERVER,
	  .help = "IPv4 and IPv6 networks (ADDR/LEN, or one address) whose clients this server "
		  "serves; a connection from elsewhere gets one line in the log and is closed" },
	{ .lname = "max-client-conns",
	  .section = RB_SEC_SWEEP,
	  .brief = "server: connections one client may have",
	  .type = RB_OPT_U32,
	  .off = LOC(max_client_conns),
	  .min = 1,
	  .max = RB_MAX_CONNS,
	  .argname = "N",
	  .def = "--max-conns",
	  .need = RB_S_SERVER,
	  .help = "connections one client address may have in progress at once, beside "
		  "--max-conns for all (a --threads N run needs N); one more is refused with a "
		  "message naming it" },
	{ .lname = "max-client-mem",
	  .section = RB_SEC_SWEEP,
	  .brief = "server: memory one client's runs may pin",
	  .type = RB_OPT_U64,
	  .off = LOC(max_client_mem),
	  .suffix = true,
	  .min = 1,
	  .max = 1ULL << 50,
	  .argname = "SIZE",
	  .def = "the host's budget",
	  .need = RB_S_SERVER,
	  .help = "bytes the plans of one client address may pin at once (K, M, G), beside "
		  "the host's budget for all; a plan over it is refused naming it" },
	{ .lname = "max-run-time",
	  .section = RB_SEC_SWEEP,
	  .brief = "server: end a run SEC s after admission",
	  .type = RB_OPT_U32,
	  .off = LOC(max_run_s),
	  .secs = true,
	  .min = 1,
	  .max = 604800,
	  .argname = "SEC",
	  .def = "no bound",
	  .need = RB_S_SERVER,
	  .help = "a connection is ended SEC seconds after it was admitted (the measuring slot "
		  "taken), whatever the client does, and its slot freed: the client is told "
		  "why, and keeps the points it finished" },
	{ .lname = "inline",
	  .json = "inline_size",
	  .wire = 11,
	  .id = RB_O_INLINE,
	  .test_default = def_inline,
	  .section = RB_SEC_SWEEP,
	  .brief = "send up to N bytes inline",
	  .alias = "inline_size",
	  .perftest = "-I, --inline_size",
	  .sname = 'I',
	  .type = RB_OPT_U32,
	  .off = PAR(inline_size),
	  .max = RB_INLINE_AUTO,
	  .suffix = true,
	  .argname = "N",
	  .def = "auto (send_lat, write_lat), 0 (others)",
	  .autov = RB_INLINE_AUTO,
	  .need = RB_S_INLINE,
	  .help = "send messages up to N bytes inline (capped by what the QP accepts), or "
		  "auto (65536, the most): the provider's maximum asked, and every message that "
		  "fits in what the QP took (JSON device.inline_size); 0: never" },
	{ .lname = "batch",
	  .json = "batch",
	  .wire = 3,
	  .id = RB_O_BATCH,
	  .unset = 1,
	  .section = RB_SEC_SWEEP,
	  .brief = "WRs chained per post (axis)",
	  .common = true,
	  .alias = "post_list",
	  .perftest = "-l, --post_list",
	  .pt_diff = "a sweep axis; any batch with any signal interval",
	  .sname = 'l',
	  .type = RB_OPT_AXIS,
	  .off = PAR(batch),
	  .min = 1,
	  .max = 4096,
	  .argname = "NS",
	  .def = "1",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "WRs chained per ibv_post_send (an axis)" },
	{ .lname = "signal",
	  .json = "signal",
	  .wire = 4,
	  .id = RB_O_SIGNAL,
	  .unset = 1,
	  .section = RB_SEC_SWEEP,
	  .brief = "one signaled WR every N (axis)",
	  .common = true,
	  .alias = "cq-mod",
	  .perftest = "-Q, --cq-mod",
	  .pt_diff = "a sweep axis; need not divide the batch",
	  .sname = 'Q',
	  .type = RB_OPT_AXIS,
	  .off = PAR(signal),
	  .min = 1,
	  .max = 4096,
	  .argname = "NS",
	  .def = "64",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "one signaled WR every N, the rest unsignaled (an axis); at most "
		  "--tx-depth. Latency tests signal every WR and reap lazily" },
	{ .lname = "outstanding",
	  .json = "outstanding",
	  .wire = 12,
	  .zero_unset = true,
	  .section = RB_SEC_SWEEP,
	  .brief = "reads or atomics in flight per QP",
	  .alias = "outs",
	  .perftest = "-o, --outs",
	  .sname = 'o',
	  .type = RB_OPT_U32,
	  .off = PAR(outstanding),
	  .min = 1,
	  .max = 65536,
	  .argname = "N",
	  .def = "max_qp_rd_atom",
	  .need = RB_S_BW | RB_S_RD_ATOM,
	  .help = "reads or atomics in flight per QP on the wire (the QP's max_rd_atomic), "
		  "clamped to the devices' max_qp_rd_atom; -t of them stay queued behind" },
	{ .lname = "op",
	  .section = RB_SEC_MEASURE,
	  .brief = "atomic operation: fadd or cswap",
	  .common = true,
	  .alias = "atomic_type",
	  .perftest = "-A, --atomic_type",
	  .pt_diff = "fadd and cswap are short for FETCH_AND_ADD and CMP_AND_SWAP",
	  .sname = 'A',
	  .type = RB_OPT_CHOICE,
	  .off = OFF(op),
	  .max = 1,
	  .choices = "fadd|cswap",
	  .pt_choices = "FETCH_AND_ADD|CMP_AND_SWAP",
	  .argname = "OP",
	  .def = "fadd",
	  .need = RB_S_ATOMIC,
	  .help = "atomic operation: fetch-and-add or compare-and-swap" },
	{ .lname = "mode",
	  .section = RB_SEC_MEASURE,
	  .brief = "family command: lat or bw",
	  .common = true,
	  .type = RB_OPT_CHOICE,
	  .off = OFF(mode),
	  .max = 1,
	  .choices = "lat|bw",
	  .argname = "MODE",
	  .def = "lat",
	  .need = RB_S_FAMILY,
	  .help = "which test of the family: latency or bandwidth" },
	{ .lname = "verify",
	  .json = "verify",
	  .wire = 15,
	  .section = RB_SEC_MEASURE,
	  .brief = "check every byte that arrives",
	  .common = true,
	  .alias = "data_validation",
	  .perftest = "--data_validation",
	  .pt_diff = "every test, both directions; a mismatch names size, offset and iteration",
	  .type = RB_OPT_FLAG,
	  .off = PAR(verify),
	  .max = 1,
	  .need = RB_S_TEST,
	  .any = RB_S_VERBS | RB_S_LOCK, /* issue 42: tcp_lock's mutual exclusion */
	  .help = "fill buffers with a pattern and check what arrives; a mismatch names size, "
		  "offset and iteration and exits 1" },
	{ .lname = "rdma-cm",
	  .id = RB_O_RDMA_CM,
	  .json = "rdma_cm",
	  .wire = 16,
	  .section = RB_SEC_CONN,
	  .brief = "connect the QPs through librdmacm",
	  .common = true,
	  .alias = "rdma_cm",
	  .perftest = "-R, --rdma_cm",
	  .sname = 'R',
	  .type = RB_OPT_FLAG,
	  .off = PAR(use_cm),
	  .max = 1,
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "connect the QPs through librdmacm (route, GID and path from the CM) "
		  "instead of the out-of-band exchange" },
	{ .lname = "bidirectional",
	  .json_absent = "false",
	  .json = "bidirectional",
	  .wire = 27,
	  .section = RB_SEC_MEASURE,
	  .brief = "both sides stream at once",
	  .common = true,
	  .sname = 'b',
	  .perftest = "-b, --bidirectional",
	  .pt_diff = "given to the client only (the server adopts the plan; perftest needs it on "
		     "both sides); each direction and the sum are always reported (--report-both "
		     "implied); -n counts each direction; not for atomic_bw",
	  .type = RB_OPT_FLAG,
	  .off = PAR(bidir),
	  .max = 1,
	  .need = RB_S_BIDIR,
	  .help = "both sides stream to each other at once over the same QPs (tcp_bw: its one "
		  "connection): each direction's "
		  "bandwidth and message rate are reported, and BW/MsgRate are their sum" },
	{ .lname = "send-with-imm",
	  .json_absent = "false",
	  .json = "with_imm",
	  .wire = 35,
	  .section = RB_SEC_MEASURE,
	  .brief = "SEND_WITH_IMM, the immediate checked",
	  .alias = "send_with_imm",
	  .perftest = "--send_with_imm",
	  .pt_diff = IMM_DIFF,
	  .type = RB_OPT_FLAG,
	  .off = PAR(imm),
	  .max = 1,
	  .need = RB_S_SEND_IMM,
	  .help = "SEND_WITH_IMM: each message carries an immediate naming the point, which "
		  "the receiver checks on every receive completion" },
	{ .lname = "write-with-imm",
	  .section = RB_SEC_MEASURE,
	  .brief = "RDMA_WRITE_WITH_IMM, the immediate checked",
	  .alias = "write_with_imm",
	  .perftest = "--write_with_imm",
	  .pt_diff = IMM_DIFF,
	  .type = RB_OPT_FLAG,
	  .off = PAR(imm),
	  .max = 1,
	  .need = RB_S_WRITE_IMM,
	  .help = "RDMA_WRITE_WITH_IMM: each WRITE carries an immediate naming the point and "
		  "consumes a receive; the receiver learns of it from the receive completion "
		  "(not by polling the buffer) and checks the immediate" },
	{ .lname = "reversed",
	  .json_absent = "false",
	  .json = "reversed",
	  .wire = 34,
	  .section = RB_SEC_MEASURE,
	  .brief = "the server sends and measures",
	  .common = true,
	  .perftest = "--reversed",
	  .pt_diff = "given to the client only (the server adopts the plan; perftest needs it on "
		     "both sides); the client's report shows the server's figures and says so; "
		     "--rate paces the server; not with -b, --threads, --interval, -D 0, "
		     "--latency_gap, -H, -C, --samples or matrix",
	  .type = RB_OPT_FLAG,
	  .off = PAR(reversed),
	  .max = 1,
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "the server sends and measures, the client receives (or lends its memory): "
		  "for hosts of which only one accepts connections; the client still reports, "
		  "with the server's figures" },
	{ .lname = "mtu",
	  .json = "mtu",
	  .wire = 13,
	  .zero_unset = true,
	  .section = RB_SEC_CONN,
	  .brief = "path MTU: 256 to 4096",
	  .sname = 'm',
	  .perftest = "-m, --mtu",
	  .type = RB_OPT_U32,
	  .off = PAR(mtu),
	  .min = 256,
	  .max = 4096,
	  .pow2 = true,
	  .argname = "BYTES",
	  .def = "the ports' active MTU",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "path MTU: 256, 512, 1024, 2048 or 4096" },
	{ .lname = "transport",
	  .json_absent = "\"RC\"",
	  .json = "transport",
	  .wire = 17,
	  .id = RB_O_TRANSPORT,
	  .section = RB_SEC_CONN,
	  .brief = "QP transport: RC, UC or UD",
	  .common = true,
	  .alias = "connection",
	  .perftest = "-c, --connection",
	  .pt_diff = "RC, UC, UD, SRD or DC (no XRC; DC one way, bandwidth tests only); a test the "
		     "transport cannot run exits 2; "
		     "with UD, -s above the path MTU exits 2 (perftest lowers it to the MTU)",
	  .sname = 'c',
	  .type = RB_OPT_CHOICE,
	  .off = PAR(transport),
	  .max = RB_TR_COUNT - 1,
	  .choices = "RC|UC|UD|SRD|DC",
	  .argname = "RC|UC|UD|SRD|DC",
	  .def = "RC; a client whose device makes no RC (EFA) takes the first transport the "
		 "test and the device share, and says so",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "QP transport: RC for every test; UC for send and write tests; UD for "
		  "send_lat and send_bw, with messages up to the path MTU; SRD (EFA, built with "
		  "efadv) for send, and read and write where the device has them; DC (mlx5, built "
		  "with mlx5dv; not run on an mlx5 yet) for send_bw, write_bw and read_bw, one "
		  "way: the client's DC initiators to the server's DC targets; a device that "
		  "does not make the transport exits 2 naming those it makes" },
	{ .lname = "sl",
	  .json_absent = "0",
	  .json = "sl",
	  .wire = 18,
	  .section = RB_SEC_CONN,
	  .brief = "service level",
	  .perftest = "-S, --sl",
	  .sname = 'S',
	  .type = RB_OPT_U32,
	  .off = PAR(sl),
	  .max = 15,
	  .argname = "SL",
	  .def = "0",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "service level of the path (address vector: RC/UC at RTR, UD in the "
		  "address handle)" },
	{ .lname = "tclass",
	  .json_absent = "0",
	  .json = "tclass",
	  .wire = 19,
	  .section = RB_SEC_CONN,
	  .brief = "GRH traffic class (DSCP and ECN on RoCE)",
	  .alias = "tos",
	  .perftest = "--tclass, -T/--tos",
	  .pt_diff = "one option: the GRH's traffic class, and with -R also the CM's TOS "
		     "(perftest: --tclass without -R, -T/--tos with it)",
	  .sname = 'T',
	  .type = RB_OPT_U32,
	  .off = PAR(tclass),
	  .max = 255,
	  .argname = "N",
	  .def = "0",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "traffic class of the GRH (on RoCE the IP DSCP and ECN bits); ignored "
		  "without a GRH (InfiniBand without -x)" },
	{ .lname = "flow-label",
	  .id = RB_O_FLOW_LABEL,
	  .section = RB_SEC_CONN,
	  .brief = "GRH flow label, or a list per QP",
	  .alias = "flow_label",
	  .perftest = "--flow_label",
	  .pt_diff = "the GRH's flow label, QP i taking label i modulo the list's length, as "
		     "perftest's; up to 16",
	  .type = RB_OPT_STR,
	  .off = OFF(flow_arg),
	  .size = sizeof(((struct rb_cli *)0)->flow_arg),
	  .argname = "N[,N...]",
	  .def = "0",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .check = check_flows,
	  .help = "flow label of the GRH, 20 bits; a list gives QP i the label i modulo its "
		  "length (up to 16 labels); ignored without a GRH" },
	{ .lname = "hugepages",
	  .json_absent = "false",
	  .json = "hugepages",
	  .wire = 21,
	  .section = RB_SEC_MEM,
	  .brief = "buffers in 2 MiB huge pages",
	  .alias = "use_hugepages",
	  .perftest = "--use_hugepages",
	  .pt_diff = "mmap(MAP_HUGETLB) bound to the --numa node instead of SysV shm; too few "
		     "pages exits 2 naming how many /proc/sys/vm/nr_hugepages needs",
	  .type = RB_OPT_FLAG,
	  .off = PAR(hugepages),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_TEST,
	  .help = "buffers in 2 MiB huge pages (reserve them: /proc/sys/vm/nr_hugepages), on "
		  "the --numa node" },
	{ .lname = "odp",
	  .json_absent = "false",
	  .json = "odp",
	  .wire = 22,
	  .section = RB_SEC_MEM,
	  .brief = "on-demand paging registration",
	  .perftest = "--odp",
	  .pt_diff = "checks the odp_caps of -c's transport for the verbs the point uses "
		     "(perftest: RC's SEND and RECV for any test) and exits 2 naming the "
		     "device and the missing bits",
	  .type = RB_OPT_FLAG,
	  .off = PAR(odp),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_TEST,
	  .help = "register buffers with on-demand paging (IBV_ACCESS_ON_DEMAND), on both "
		  "sides; the devices must support it for -c's transport (RC, UC and UD each "
		  "have their odp_caps) and the verbs the point uses: the test's, RECV where "
		  "it receives (SRQ_RECV with --use-srq)" },
	{ .lname = "mr-per-qp",
	  .json_absent = "false",
	  .json = "mr_per_qp",
	  .wire = 23,
	  .section = RB_SEC_MEM,
	  .brief = "one buffer and MR per QP",
	  .alias = "mr_per_qp",
	  .perftest = "--mr_per_qp",
	  .type = RB_OPT_FLAG,
	  .off = PAR(mr_per_qp),
	  .max = 1,
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "one buffer and memory region per QP instead of one shared by all, on both "
		  "sides; each QP's WRs use its own keys" },
	{ .lname = "srq",
	  .json_absent = "false",
	  .json = "srq",
	  .wire = 24,
	  .section = RB_SEC_SWEEP,
	  .brief = "one shared receive queue for all QPs",
	  .alias = "use-srq",
	  .perftest = "--use-srq",
	  .pt_diff = "send tests only, as perftest, but exits 2; with --mr-per-qp the receives "
		     "use the first QP's buffer",
	  .type = RB_OPT_FLAG,
	  .off = PAR(srq),
	  .max = 1,
	  .need = RB_S_RECV | RB_S_VERBS,
	  .help = "one shared receive queue of -r/--rx-depth receives for all QPs instead of "
		  "one per QP" },
	{ .lname = "disable-pcie-relaxed",
	  .section = RB_SEC_MEM,
	  .brief = "no PCIe relaxed ordering",
	  .alias = "disable_pcie_relaxed",
	  .perftest = "--disable_pcie_relaxed",
	  .pt_diff = "each side its own; a provider or kernel that refuses the flag gets MRs "
		     "without it (JSON: device.relaxed_ordering, asked for, and "
		     "relaxed_ordering_honoured, false or unknown); write_lat never uses "
		     "it (perftest's does, though its receiver polls the last byte too)",
	  .type = RB_OPT_FLAG,
	  .off = LOC(no_relaxed),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "register this side's buffers without PCIe relaxed ordering "
		  "(IBV_ACCESS_RELAXED_ORDERING, otherwise asked for, except by tests that poll "
		  "their buffer for arrival: write_lat)" },
	{ .lname = "use-cuda",
	  .id = RB_O_USE_CUDA,
	  .section = RB_SEC_MEM,
	  .brief = "buffers in GPU memory (CUDA)",
	  .alias = "use_cuda",
	  .perftest = "--use_cuda=<gpu index>",
	  .pt_diff = "each side its own (the server's with the server); without a GPU named, the "
		     "one nearest the HCA by PCIe; the driver is loaded at run time; dmabuf "
		     "first, then nvidia-peermem (--cuda-reg); JSON: gpu",
	  .type = RB_OPT_STR,
	  LSTR(cuda),
	  .optional = true,
	  .argname = "[GPU]",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "this side's buffers in GPU memory (CUDA, libcuda.so.1 loaded at run time): "
		  "GPU is an index or a PCI address (0000:3b:00.0); without one, the GPU nearest "
		  "the HCA by PCIe, else GPU 0 (JSON: gpu, with why); --verify and the atomics' "
		  "words go through the driver's copies; no inline sends from device memory; "
		  "write_lat needs --write-with-imm (its CPU polls the buffer); not with --odp or "
		  "--reg-mode per-msg; matrix: %l for each local rank's own GPU (%r, %R, %L as "
		  "-d's)" },
	{ .lname = "cuda-mem",
	  .id = RB_O_CUDA_MEM,
	  .section = RB_SEC_MEM,
	  .brief = "GPU memory kind: device, managed, host",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(cuda_mem),
	  .max = 2,
	  .choices = "device|managed|host-pinned",
	  .argname = "device|managed|host-pinned",
	  .def = "device",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "GPU memory (implies --use-cuda): cuMemAlloc, cuMemAllocManaged or "
		  "cuMemHostAlloc (pinned host memory the GPU maps)" },
	{ .lname = "cuda-reg",
	  .id = RB_O_CUDA_REG,
	  .section = RB_SEC_MEM,
	  .brief = "GPU registration: dmabuf or peer memory",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(cuda_reg),
	  .max = 2,
	  .choices = "auto|dmabuf|peermem",
	  .argname = "auto|dmabuf|peermem",
	  .def = "auto",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "how GPU memory is registered (implies --use-cuda): dmabuf "
		  "(cuMemGetHandleForAddressRange, ibv_reg_dmabuf_mr), peermem (ibv_reg_mr on the "
		  "device pointer; needs nvidia-peermem), auto: dmabuf, else peermem (JSON: "
		  "gpu.reg_path and what each path did)" },
	{ .lname = "reg-mode",
	  .json_absent = "\"pool\"",
	  .json = "reg_mode",
	  .section = RB_SEC_MEM,
	  .brief = "pool, per-msg or cache registration",
	  .type = RB_OPT_CHOICE,
	  .off = PAR(reg_mode),
	  .max = 2,
	  .choices = "pool|per-msg|cache",
	  .argname = "pool|per-msg|cache",
	  .def = "pool",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "pool: buffers registered once, before the points; per-msg: the client "
		  "registers each message's buffer before its post and deregisters it once a "
		  "completion covers it, as a naive application does (-Q and --cqe-poll as in "
		  "pool; write_bw, send_bw, read_bw; -q 1, "
		  "-l 1, no inline, -b, --rate or --reversed): the point against pool is what "
		  "registering costs; cache: the same stream from --buffers buffers through a "
		  "registration cache of --reg-cache entries (see --reuse)" },
	/* issue 42: registration cache */
	{ .lname = "reg-cache",
	  .json = "reg_cache",
	  .section = RB_SEC_MEM,
	  .brief = "--reg-mode cache: the cache's entries",
	  .type = RB_OPT_U32,
	  .off = PAR(reg_cache),
	  .min = 1,
	  .max = RB_RCACHE_MAX,
	  .suffix = true,
	  .zero_unset = true,
	  .argname = "ENTRIES",
	  .def = "64 (with --reg-mode cache)",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "--reg-mode cache: the MRs the cache keeps; a message whose buffer has none "
		  "registers it, deregistering the least recently used MR that no WR in flight "
		  "holds; WRs in flight are at most -t and ENTRIES - 1. Figures: rcache_hit_pct, "
		  "regs_per_s, deregs_per_s" },
	{ .lname = "buffers",
	  .json = "buffers",
	  .section = RB_SEC_MEM,
	  .brief = "--reg-mode cache: the application's buffers",
	  .type = RB_OPT_U32,
	  .off = PAR(buffers),
	  .min = 1,
	  .max = RB_RCACHE_MAX,
	  .suffix = true,
	  .zero_unset = true,
	  .argname = "N",
	  .def = "1024 (with --reg-mode cache)",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "--reg-mode cache: N buffers of -s bytes each (N x -s of the client's memory, "
		  "at most 64 GiB), one of which each message uses (--reuse)" },
	{ .lname = "reuse",
	  .section = RB_SEC_MEM,
	  .brief = "--reg-mode cache: which buffer each message uses",
	  .type = RB_OPT_STR,
	  .off = OFF(reuse_arg),
	  .size = sizeof(((struct rb_cli *)0)->reuse_arg),
	  .argname = "uniform|zipf:S|seq",
	  .def = "zipf:0.99 (with --reg-mode cache)",
	  .need = RB_S_BW | RB_S_VERBS,
	  .check = check_reuse,
	  .help = "--reg-mode cache: each message's buffer, of --buffers: uniform (any, alike), "
		  "zipf:S (buffer i with probability proportional to 1/i^S, S 0.001 to 10), seq "
		  "(in turn: an LRU cache smaller than --buffers never hits); seeded by the "
		  "point's number, so a run repeats its draws (JSON params.reuse)" },
	{ .lname = "post-api",
	  .id = RB_O_POST_API,
	  .section = RB_SEC_MEM,
	  .brief = "post through ibv_post_send or ibv_wr_*",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(post_api),
	  .max = 2,
	  .choices = "auto|post|wr",
	  .argname = "auto|post|wr",
	  .def = "auto",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "how this side posts its WRs: wr, the extended API (ibv_wr_start, ibv_wr_send, "
		  "..., ibv_wr_complete on a QP made by ibv_create_qp_ex; exits 2 where the "
		  "provider has none); post, ibv_post_send; auto, wr where the provider takes "
		  "it, else post (JSON: device.post_api)" },
	{ .lname = "use_old_post_send",
	  .id = RB_O_USE_OLD_POST_SEND,
	  .section = RB_SEC_MEM,
	  .brief = "perftest: --post-api post",
	  .perftest = "--use_old_post_send",
	  .pt_diff = "perftest posts through ibv_wr_* only on the devices it lists (mlx5, EFA, "
		     "HNS, ...; ibv_post_send on rxe); rdmabench's --post-api auto wherever "
		     "ibv_create_qp_ex takes the test's verbs",
	  .type = RB_OPT_FLAG,
	  .off = LOC(post_api),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "--post-api post in perftest's spelling" },
	{ .lname = "poll",
	  .json_absent = "\"busy\"",
	  .json = "poll",
	  .wire = 36,
	  .id = RB_O_POLL,
	  .unset = RB_POLL_BUSY,
	  .section = RB_SEC_SWEEP,
	  .brief = "wait for completions: busy or event (axis)",
	  .common = true,
	  .type = RB_OPT_AXIS,
	  .off = PAR(poll),
	  .max = RB_POLL_EVENT,
	  .choices = "busy|event",
	  .argname = "busy|event[,...]",
	  .def = "busy",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "how both sides wait for completions: busy polls the CQ; event, when a poll "
		  "finds it empty, arms it (ibv_req_notify_cq), polls again and sleeps on its "
		  "completion channel (JSON: wakeups_per_msg); an axis: busy,event measures "
		  "each point both ways, both sides switching with the point; not write_lat, "
		  "whose receiver polls its buffer (unless --write-with-imm)" },
	{ .lname = "cqe-poll",
	  .json_absent = "[32]",
	  .json = "cqe_poll",
	  .wire = 37,
	  .id = RB_O_CQE_POLL,
	  .unset = RB_CQE_POLL_DEFAULT,
	  .section = RB_SEC_SWEEP,
	  .brief = "completions per ibv_poll_cq (axis)",
	  .alias = "cqe_poll",
	  .perftest = "--cqe_poll",
	  .pt_diff = "a sweep axis, on both sides; default 32 (perftest's 16); a latency test's "
		     "wait for its message asks for no more than can be due (1, send_lat 2)",
	  .type = RB_OPT_AXIS,
	  .off = PAR(cqe_poll),
	  .min = 1,
	  .max = RB_CQE_POLL_MAX,
	  .argname = "NS",
	  .def = "32",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "completions reaped per ibv_poll_cq call, at most, on both sides (an axis); "
		  "a latency test's wait for its message asks for no more than can be due (1; "
		  "send_lat 2)" },
	{ .lname = "probe",
	  .json = "probe",
	  .wire = 38,
	  .section = RB_SEC_MEASURE,
	  .brief = "latency under load, beside the stream",
	  .type = RB_OPT_FLAG,
	  .off = PAR(probe),
	  .max = 1,
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "latency under load: beside the stream, on an RC QP and CQ of its own over "
		  "the same device and path, the client pings the server with 8-byte SENDs "
		  "that it echoes, at --probe-rate; each point reports the round trips alone "
		  "before the stream (idle_lat_us, up to 200 of them) and beside it "
		  "(loaded_lat_us), the client pinging whichever side streams (--reversed: the "
		  "server), one probe per run (--threads: on thread 0's connection; -R: the "
		  "probe's QP still connected out of band)" },
	{ .lname = "probe-rate",
	  .json = "probe_rate",
	  .wire = 39,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .brief = "--probe: pings per second",
	  .type = RB_OPT_U32,
	  .off = PAR(probe_rate),
	  .min = 10,
	  .max = 100000,
	  .suffix = true,
	  .argname = "HZ",
	  .def = "1000",
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "--probe: pings per second (10..100000), one in flight at a time: a round "
		  "trip longer than the period delays the next ping" },
	{ .lname = "wr-lat",
	  .json = "wr_lat",
	  .wire = 40,
	  .section = RB_SEC_MEASURE,
	  .brief = "time each signaled WR, post to completion",
	  .type = RB_OPT_FLAG,
	  .off = PAR(wr_lat),
	  .max = 1,
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "the streaming side times each signaled WR from its post to its completion, "
		  "the queueing an application sees under load: percentiles as wr_lat_us (-Q "
		  "sets how many WRs one completion covers); the stream then posts chain by chain "
		  "(a clock read per chain); not with --reg-mode per-msg" },
	{ .lname = "cq-per-qp",
	  .json = "cq_per_qp",
	  .wire = 41,
	  .section = RB_SEC_SWEEP,
	  .brief = "one CQ per QP",
	  .type = RB_OPT_FLAG,
	  .off = PAR(cq_per_qp),
	  .max = 1,
	  .need = RB_S_BW | RB_S_VERBS,
	  .help = "one CQ per QP, each sized for its QP's send and receive depths, polled round "
		  "robin (perftest issue 78); without it one CQ, sized for every QP, serves all; "
		  "with --poll event the CQs share one completion channel, each armed when a "
		  "poll finds it empty, and the loop sleeps once all are; works with --wr-lat, "
		  "--probe (its own CQ) and --reg-mode per-msg (-q 1: one CQ)" },
	/* issue 42: lock (rdmabench lock; engine/lock.h) */
	/* --lock and --hold sweep (axes; tag 43 was --lock's u8 before, retired) */
	{ .lname = "lock",
	  .json = "lock",
	  .wire = 50,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: spin or ticket (axis)",
	  .type = RB_OPT_AXIS,
	  .off = PAR(lock_algo),
	  .json_absent = "\"spin\"",
	  .max = RB_LOCK_ALGO_COUNT - 1,
	  .choices = RB_LOCK_CHOICES,
	  .argname = "spin|ticket[,...]",
	  .def = "spin",
	  .need = RB_S_LOCK | RB_S_VERBS, /* issue 42: tcp_lock's server queues FIFO */
	  .help = "the lock's algorithm: spin (acquire by CAS of the lock word from 0 to the "
		  "contender's id, release by an RDMA WRITE of 0) or ticket (FADD a ticket, "
		  "RDMA READ the now-serving word until it is ours, release by FADD); an axis: "
		  "spin,ticket measures each point with both (JSON: each point's lock); not "
		  "tcp_lock's: its server queues waiters FIFO" },
	{ .lname = "locks",
	  .json = "locks",
	  .wire = 44,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: lock words contended",
	  .type = RB_OPT_U32,
	  .off = PAR(locks),
	  .min = 1,
	  .max = 4096,
	  .argname = "K",
	  .def = "1",
	  .need = RB_S_LOCK,
	  .help = "K lock words, each guarding data of its own: acquisition i takes lock i mod K, "
		  "which spreads the contention" },
	{ .lname = "cs-bytes",
	  .json = "cs_bytes",
	  .wire = 45,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: protected bytes read and written",
	  .type = RB_OPT_U32,
	  .off = PAR(cs_bytes),
	  .min = 0,
	  .max = 65536,
	  .suffix = true,
	  .argname = "SIZE",
	  .def = "0",
	  .need = RB_S_LOCK,
	  .help = "the critical section reads the lock's data (an 8-byte counter, the holder's "
		  "8-byte mark and SIZE bytes) with an RDMA READ and writes it back, counter + 1 "
		  "and its own mark, with an RDMA WRITE (tcp_lock: READ and WRITE messages to its "
		  "server; 0..64K)" },
	{ .lname = "hold",
	  .json = "hold_us",
	  .json_absent = "0",
	  .wire = 51,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: microseconds held (axis)",
	  .type = RB_OPT_AXIS,
	  .off = PAR(hold_us),
	  .min = 0,
	  .max = 1000000,
	  .argname = "USEC[,...]",
	  .def = "0",
	  .need = RB_S_LOCK,
	  .help = "the holder keeps the lock USEC microseconds after its write, before its "
		  "release (the other contenders go on meanwhile); an axis: 0,10,100 measures "
		  "each point at each hold (JSON: each point's hold_us)" },
	{ .lname = "backoff",
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: none or exp:MIN..MAX ns",
	  .type = RB_OPT_STR,
	  .off = OFF(backoff_arg),
	  .size = sizeof(((struct rb_cli *)0)->backoff_arg),
	  .argname = "none|exp:MIN..MAX",
	  .def = "none",
	  .need = RB_S_LOCK | RB_S_VERBS,
	  .check = rb_lock_backoff_check,
	  .help = "after a failed attempt (spin: the CAS found the lock held; ticket: not yet "
		  "our turn) wait MIN nanoseconds, doubling up to MAX, before the next; none: "
		  "try again at once (client only)" },
	/* issue 42: the lock from several client hosts (engine/lockshare.h) */
	{ .lname = "run-id",
	  .json = "lock_run_id",
	  .wire = 48,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: hosts of one run share its words",
	  .type = RB_OPT_U64,
	  .off = PAR(lock_run_id),
	  .min = 1,
	  .max = UINT32_MAX,
	  .argname = "ID",
	  .need = RB_S_LOCK | RB_S_VERBS, /* tcp_lock: each connection its own words */
	  .help = "the --run-hosts N client hosts that give the same ID (1..4294967295) to "
		  "one 'rdmabench server' contend on the same lock words and data: the server's "
		  "connections of the run map one segment, start each point together, and with "
		  "--verify the server checks the counters against every host's acquisitions; "
		  "start the hosts within --timeout of each other, with the same plan" },
	{ .lname = "run-hosts",
	  .json = "lock_hosts",
	  .wire = 49,
	  .zero_unset = true,
	  .section = RB_SEC_MEASURE,
	  .common = true,
	  .brief = "lock: client hosts in the --run-id",
	  .type = RB_OPT_U32,
	  .off = PAR(lock_hosts),
	  .min = 2,
	  .max = 64,
	  .argname = "N",
	  .need = RB_S_LOCK | RB_S_VERBS,
	  .help = "how many client hosts join --run-id ID (2..64): the server waits for all N "
		  "at each point's start" },
	{ .lname = "events",
	  .id = RB_O_EVENTS,
	  .section = RB_SEC_SWEEP,
	  .brief = "perftest: --poll event",
	  .perftest = "-e, --events",
	  .pt_diff = "given to the client only (the server adopts the plan); the channel is "
		     "armed, then the CQ polled again before each sleep; write_lat refuses it "
		     "(exit 2)",
	  .sname = 'e',
	  .type = RB_OPT_FLAG,
	  .off = PAR(poll),
	  .max = 1,
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "--poll event in perftest's spelling" },
	{ .lname = "vector",
	  .section = RB_SEC_SWEEP,
	  .brief = "completion vector of the CQ",
	  .perftest = "-X, --vector",
	  .pt_diff = "each side's own (give it on both); checked against the device's "
		     "num_comp_vectors (exit 2)",
	  .sname = 'X',
	  .type = RB_OPT_U32,
	  .off = LOC(comp_vector),
	  .max = 1023,
	  .argname = "N",
	  .def = "spread: each thread's and rail's CQ on a vector whose interrupt may run on its "
		 "CPU (/proc/irq; mlx5, whose vectors are its PCI function's IRQs), else round "
		 "robin over num_comp_vectors",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "completion vector of this side's CQ (0 to the device's num_comp_vectors - 1): "
		  "with --poll event, the interrupt that wakes this side (JSON: "
		  "device.comp_vector, and why in device.why_comp_vector)" },
	/* issue 40: extended CQ, CQ moderation */
	{ .lname = "cq-api",
	  .section = RB_SEC_MEM,
	  .brief = "poll through ibv_poll_cq or the extended CQ",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(cq_api),
	  .max = 2,
	  .choices = "auto|classic|ex",
	  .argname = "auto|classic|ex",
	  .def = "auto",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "how this side polls its completions: ex, the extended CQ (ibv_create_cq_ex; "
		  "ibv_start_poll, ibv_next_poll, ibv_end_poll, reading only wr_id and status, "
		  "with --srq or immediates also qp_num and imm_data; exits 2 where the "
		  "provider has none; on rxe with rdma-core before 61, which corrupts the CQ after "
		  "an empty ibv_next_poll, one completion a start_poll); classic, ibv_create_cq "
		  "and ibv_poll_cq; auto, ex where the provider makes it and polls batches (rxe "
		  "from rdma-core 61), else classic (JSON: device.cq_api, device.cq_poll)" },
	{ .lname = "cq-moderation",
	  .json = "cq_moderation",
	  .wire = 52,
	  .zero_unset = true,
	  .section = RB_SEC_MEM,
	  .brief = "CQ moderation: an event per COUNT or USEC (axis)",
	  .type = RB_OPT_AXIS,
	  .off = PAR(cq_mod),
	  .min = RB_CQMOD(1, 0),
	  .max = RB_CQMOD(65535, 65535),
	  .item = rb_cqmod_item,
	  .argname = "COUNT[/USEC][,...]",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "both sides' CQs raise a completion event only every COUNT completions (1 to "
		  "65535) or USEC microseconds after the first (0 to 65535, default 0): "
		  "ibv_modify_cq with IBV_CQ_ATTR_MODERATE at each point's start, for --poll "
		  "event; an axis: 1,16/10,64/50 measures each point at each setting (JSON: each "
		  "point's cq_moderation); exits 2 naming the device where the provider has none" },
	/* where: local to each side */
	{ .lname = "device",
	  .section = RB_SEC_CONN,
	  .brief = "RDMA device; DEV,DEV or all: rails",
	  .common = true,
	  .alias = "ib-dev",
	  .perftest = "-d, --ib-dev",
	  .pt_diff = "default: the device holding the address that reaches the server",
	  .sname = 'd',
	  .type = RB_OPT_STR,
	  LSTR(device),
	  .argname = "DEV",
	  .def = "the device holding the out-of-band connection's local address, else the "
		 "first with an active port",
	  .any = RB_S_VERBS | RB_S_TOPO | RB_S_MATRIX,
	  .help = "RDMA device, as ibv_devices names it; a client's DEV,DEV,... or all (every "
		  "ACTIVE port of every device, DEV:PORT where a device has several; the "
		  "ports left out are named; a listed device whose port is down is refused "
		  "before any thread starts): every "
		  "rail from one command, a thread per device (as --threads, which must then "
		  "equal the rails), each with its own connection; --bind and the server's "
		  "address take one per rail or one for all; a rail more than 10% below the "
		  "rails' median bandwidth (above it, p50 latency) is flagged (JSON threads[]: "
		  "rail, out_of_line); a server's list or all: a client's thread k is served on "
		  "its k-th device, else on the device its connection came through" },
	{ .lname = "ib-port",
	  .section = RB_SEC_CONN,
	  .brief = "device port",
	  .perftest = "-i, --ib-port",
	  .pt_diff = "default: the port holding that address",
	  .sname = 'i',
	  .type = RB_OPT_I32,
	  .off = LOC(ib_port),
	  .min = 1,
	  .max = 255,
	  .argname = "PORT",
	  .def = "the port holding the local address, else 1",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "device port" },
	{ .lname = "dualport",
	  .section = RB_SEC_CONN,
	  .brief = "both ports of the device as rails",
	  .perftest = "-O, --dualport",
	  .pt_diff = "a rail per port, each its own thread and connection, the slow port flagged "
		     "(as -d LIST)",
	  .sname = 'O',
	  .type = RB_OPT_FLAG,
	  .off = LOC(dualport),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "both ports of the device: rails on ports 1 and 2 (as -d LIST: a thread and a "
		  "connection each, the sum and each port's row); not with -i or a -d list; a "
		  "server's: a client's thread k on port k + 1" },
	{ .lname = "gid-index",
	  .section = RB_SEC_CONN,
	  .brief = "GID table index",
	  .common = true,
	  .perftest = "-x, --gid-index",
	  .pt_diff = "default: the RoCE v2 GID of that address",
	  .sname = 'x',
	  .type = RB_OPT_I32,
	  .off = LOC(gid_index),
	  .max = 4095,
	  .argname = "INDEX",
	  .def = "the RoCE v2 GID holding the out-of-band connection's local address, else "
		 "the first RoCE v2 GID of the peer's family, then RoCE v1; none (LID) on "
		 "InfiniBand",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "GID table index" },
	{ .lname = "qp-timeout",
	  .section = RB_SEC_CONN,
	  .brief = "RC ACK timeout exponent",
	  .perftest = "-u, --qp-timeout",
	  .pt_diff = "each side's own, as perftest's (give it on both)",
	  .sname = 'u',
	  .type = RB_OPT_U32,
	  .off = LOC(qp.timeout),
	  .max = 31,
	  .argname = "N",
	  .def = "14 (67 ms)",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "RC ACK timeout of this side's QPs: 4.096 us * 2^N a try, 0 waits forever; "
		  "with -R it replaces the CM's" },
	{ .lname = "retry-count",
	  .section = RB_SEC_CONN,
	  .brief = "RC retries before the QP fails",
	  .alias = "retry_count",
	  .perftest = "--retry_count",
	  .pt_diff = "each side's own, as perftest's",
	  .type = RB_OPT_U32,
	  .off = LOC(qp.retry_count),
	  .max = 7,
	  .argname = "N",
	  .def = "7",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "RC retries of an unacknowledged message before this side's QP fails (the "
		  "completion's status is named, exit 1)" },
	{ .lname = "pkey-index",
	  .section = RB_SEC_CONN,
	  .brief = "P_Key table index",
	  .alias = "pkey_index",
	  .perftest = "--pkey_index",
	  .pt_diff = "each side's own index; refused with -R, where the CM takes the "
		     "address's partition",
	  .type = RB_OPT_U32,
	  .off = LOC(qp.pkey_index),
	  .max = 65535,
	  .argname = "N",
	  .def = "0",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "index of this side's P_Key in the port's table (an index past it exits 1 "
		  "naming the table's length)" },
	{ .lname = "hop-limit",
	  .section = RB_SEC_CONN,
	  .brief = "GRH hop limit (IP TTL on RoCE)",
	  .alias = "hop_limit",
	  .perftest = "-L, --hop_limit",
	  .pt_diff = "each side's own",
	  .sname = 'L',
	  .type = RB_OPT_U32,
	  .off = LOC(qp.hop_limit),
	  .max = 255,
	  .argname = "N",
	  .def = "64",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "GRH hop limit of this side's packets (the IP TTL on RoCE); no effect "
		  "without a GRH (InfiniBand without -x)" },
	{ .lname = "ipv6",
	  .section = RB_SEC_CONN,
	  .brief = "RoCE: an IPv6 GID whatever the TCP address",
	  .perftest = "--ipv6",
	  .pt_diff = "each side's own (give it on both); without it the GID follows the "
		     "out-of-band address's family, so an IPv6 server address is enough",
	  .type = RB_OPT_FLAG,
	  .off = LOC(ipv6),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "RoCE: this side takes its first IPv6 RoCE v2 GID even when the "
		  "out-of-band connection is IPv4 (not with -R, where the CM takes the "
		  "address's)" },
	{ .lname = "bind",
	  .section = RB_SEC_CONN,
	  .brief = "local address of the out-of-band connection",
	  .alias = "bind_source_ip",
	  .perftest = "--bind_source_ip",
	  .pt_diff = "on a server too, which then listens only there",
	  .type = RB_OPT_STR,
	  LSTR(bind),
	  .argname = "ADDR",
	  .def = "the routing's choice",
	  .any = RB_S_RUN,
	  .help = "local address of the out-of-band connection: a server listens only there, "
		  "a client connects from it; the device and GID that hold it carry the test "
		  "(one NIC per rail)" },
	{ .lname = "auth-key",
	  .section = RB_SEC_CONN,
	  .brief = "a key the client and the server must share",
	  .type = RB_OPT_STR,
	  LSTR(auth_key),
	  .argname = "FILE",
	  .def = "$RDMABENCH_AUTH_KEY, else none",
	  .any = RB_S_RUN,
	  .help = "a pre-shared key, 64 hex digits or 32 bytes in a file only its owner may read "
		  "(chmod 600): a server with one serves only clients that prove they hold it, "
		  "and a client with one only such a server (a challenge-response in HELLO, "
		  "then every control message authenticated; the key never crosses the wire)" },
	{ .lname = "port",
	  .id = RB_O_PORT,
	  .section = RB_SEC_CONN,
	  .brief = "TCP port of the out-of-band exchange",
	  .common = true,
	  .perftest = "-p, --port",
	  .sname = 'p',
	  .type = RB_OPT_U32,
	  .off = LOC(tcp_port),
	  .min = 1,
	  .max = 65535,
	  .argname = "PORT",
	  .def = "18515",
	  .any = RB_S_RUN,
	  .help = "TCP port of the out-of-band exchange" },
	{ .lname = "timeout",
	  .section = RB_SEC_CONN,
	  .brief = "give up after SEC seconds of silence",
	  .common = true,
	  .type = RB_OPT_U32,
	  .off = LOC(timeout_s),
	  .secs = true,
	  .min = 1,
	  .max = 3600,
	  .argname = "SEC",
	  .def = "30",
	  .any = RB_S_RUN,
	  .help = "give up when the peer says nothing or no completion arrives for SEC "
		  "seconds (30, 30s, 1m)" },
	{ .lname = "cpu",
	  .id = RB_O_CPU,
	  .section = RB_SEC_PLACE,
	  .brief = "CPUs of the measuring threads, or auto",
	  .common = true,
	  .alias = "pin_cores",
	  .perftest = "--pin_cores",
	  .pt_diff = "--threads take the listed cores in turn; auto picks one on the device's node",
	  .type = RB_OPT_STR,
	  LSTR(cpu),
	  .argname = "auto|none|LIST",
	  .def = "auto",
	  .any = RB_S_RUN,
	  .help = "bind the measuring thread: auto picks a core on the device's NUMA node, "
		  "unless an affinity is already set (taskset); none leaves it unbound (with a "
		  "warning where the kernel does not trust the CPUs' TSCs)" },
	{ .lname = "cpu-freq",
	  .section = RB_SEC_PLACE,
	  .brief = "no warning about the CPU frequency governor",
	  .alias = "CPU-freq",
	  .perftest = "-F, --CPU-freq",
	  .pt_diff = "the governor and frequency of both sides' measuring CPUs are in the table "
		     "and the JSON either way",
	  .sname = 'F',
	  .type = RB_OPT_FLAG,
	  .off = LOC(freq_quiet),
	  .max = 1,
	  .any = RB_S_RUN,
	  .help = "no warning when this side's or the peer's measuring CPU runs a frequency "
		  "governor other than performance (its clock then follows its load, and "
		  "latencies with it)" },
	{ .lname = "numa",
	  .id = RB_O_NUMA,
	  .section = RB_SEC_PLACE,
	  .brief = "memory node of the buffers, or auto",
	  .common = true,
	  .alias = "numa_node",
	  .perftest = "--numa_node",
	  .type = RB_OPT_STR,
	  LSTR(numa),
	  .argname = "auto|none|N",
	  .def = "auto",
	  .any = RB_S_RUN,
	  .help = "memory node for buffers: auto is the device's node" },
	/* output */
	{ .lname = "json",
	  .section = RB_SEC_OUTPUT,
	  .brief = "write every point as JSON to FILE (- : stdout)",
	  .common = true,
	  .alias = "out_json_file",
	  .perftest = "--out_json_file",
	  .pt_diff = "writes without --out_json; every point of a sweep is kept",
	  .type = RB_OPT_STR,
	  LSTR(json_path),
	  .argname = "FILE",
	  .help = "also write results as JSON to FILE, rewritten whole after every point; "
		  "--json - writes the document to stdout instead of the table" },
	{ .lname = "out_json",
	  .section = RB_SEC_OUTPUT,
	  .brief = "perftest: --json perftest_out.json",
	  .perftest = "--out_json",
	  .type = RB_OPT_FLAG,
	  .off = LOC(out_json),
	  .max = 1,
	  .help = "perftest's switch: --json perftest_out.json unless --json names the file" },
	{ .lname = "csv",
	  .section = RB_SEC_OUTPUT,
	  .brief = "write every point as CSV to FILE",
	  .common = true,
	  .type = RB_OPT_STR,
	  LSTR(csv_path),
	  .argname = "FILE",
	  .any = RB_S_RUN,
	  .help = "also write results as CSV to FILE, rewritten whole after every point; "
		  "the same columns for every test and option (doc/output.md), a figure that "
		  "does not apply left empty" },
	{ .lname = "json-stream",
	  .section = RB_SEC_OUTPUT,
	  .brief = "JSON lines as each point ends (- : stdout)",
	  .type = RB_OPT_STR,
	  LSTR(json_stream),
	  .argname = "FILE",
	  .any = RB_S_TEST,
	  .help = "write JSON lines to FILE as the run goes, as iperf3 --json-stream: "
		  "{\"event\": \"start\"} with the run's description, an \"interval\" "
		  "per --interval slice, a \"point\" as each point ends, then \"end\" "
		  "(doc/json-schema.md); - writes them to stdout instead of the table" },
	{ .lname = "logfile",
	  .section = RB_SEC_OUTPUT,
	  .brief = "append diagnostics and stdout's lines to FILE",
	  .type = RB_OPT_STR,
	  LSTR(logfile),
	  .argname = "FILE",
	  .any = RB_S_RUN,
	  .help = "append every diagnostic line (stderr's) and every line of stdout (the "
		  "table) to FILE as well, as iperf3 --logfile; the terminal still gets them "
		  "(not the progress line).  rdmabench server also appends a line per "
		  "connection served when it ends: the time (UTC), client, test, thread, "
		  "points done of planned, duration and outcome (ok, or the error); the file "
		  "is opened when the server starts (exit 2 when it cannot be)" },
	{ .lname = "timestamps",
	  .section = RB_SEC_OUTPUT,
	  .brief = "each diagnostic line starts with the time",
	  .type = RB_OPT_FLAG,
	  .off = LOC(timestamps),
	  .max = 1,
	  .any = RB_S_RUN,
	  .help = "start each diagnostic line, and each line of --logfile, with the UTC time "
		  "in ISO 8601 to the millisecond (2026-12-07T02:30:00.123Z), as iperf3 "
		  "--timestamps; stdout's table stays as it is" },
	{ .lname = "csv-counters",
	  .section = RB_SEC_OUTPUT,
	  .brief = "CSV: add the device counters' columns",
	  .type = RB_OPT_FLAG,
	  .off = LOC(csv_counters),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "add each side's device counters (--counters' set, its driver's: ctr_NAME, "
		  "peer_ctr_NAME) after the CSV's fixed columns; they vary with the driver and "
		  "the set, so they are not there by default" },
	{ .lname = "format",
	  .id = RB_O_FORMAT,
	  .section = RB_SEC_OUTPUT,
	  .brief = "stdout: table, csv, json or perftest",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(format),
	  .max = 3,
	  .choices = "table|csv|json|perftest",
	  .argname = "FMT",
	  .def = "table (perftest under a perftest name)",
	  .any = RB_S_RUN,
	  .help = "what stdout shows; perftest: perftest's report, its banner, result header "
		  "and a line per point in its columns and units (MB/sec is MiB/s, Gb/sec with "
		  "--report_gbits), for scripts that read perftest's output" },
	{ .lname = "output",
	  .id = RB_O_OUTPUT,
	  .section = RB_SEC_OUTPUT,
	  .brief = "stdout: one figure a point",
	  .perftest = "--output",
	  .pt_diff = "every point's figure, a line each; bandwidth in MiB/s (Gb/s with "
		     "--report_gbits) as perftest's MB/sec; latency the average",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(output),
	  .max = 2,
	  .choices = "bandwidth|message_rate|latency",
	  .argname = "WHAT",
	  .any = RB_S_TEST | RB_S_SERVER,
	  .help = "stdout shows only that figure of each point, one line a point: bandwidth "
		  "(the table's unit) or message_rate (Mpps) for bandwidth tests, latency "
		  "(average, us) for latency tests; instead of --format" },
	{ .lname = "units",
	  .id = RB_O_UNITS,
	  .section = RB_SEC_OUTPUT,
	  .brief = "bandwidth unit of the table",
	  .common = true,
	  .type = RB_OPT_CHOICE,
	  .off = LOC(units),
	  .max = 3,
	  .choices = "MiB/s|Gb/s|MB/s|GB/s",
	  .argname = "UNIT",
	  .def = "Gb/s (MiB/s in perftest's report)",
	  .any = RB_S_BW | RB_S_SERVER,
	  .help = "bandwidth unit in the table and --output bandwidth: Gb/s (10^9 bits), GB/s "
		  "(10^9 bytes), MiB/s or MB/s; perftest's report (--format perftest, the "
		  "default under perftest's names) keeps perftest's MB/sec (MiB/s) unless "
		  "--report_gbits; CSV and JSON keep their fixed fields (Gb/s and MiB/s)" },
	{ .lname = "report_gbits",
	  .id = RB_O_REPORT_GBITS,
	  .section = RB_SEC_OUTPUT,
	  .brief = "perftest: --units Gb/s",
	  .perftest = "--report_gbits",
	  .pt_diff = "latency tests take it too, with no effect (as perftest's)",
	  .type = RB_OPT_FLAG,
	  .off = LOC(units),
	  .max = 1,
	  .any = RB_S_TEST | RB_S_SERVER,
	  .help = "the table in Gb/s: --units Gb/s in perftest's spelling (no effect on "
		  "latency tests)" },
	{ .lname = "counters",
	  .id = RB_O_COUNTERS,
	  .section = RB_SEC_OUTPUT,
	  .brief = "device counters around every point",
	  .common = true,
	  .alias = "report-counters",
	  .perftest = "-W, --report-counters",
	  .sname = 'W',
	  .pt_diff = "a default set per driver; the peer's counters too; counters/NAME and "
		     "hw_counters/NAME are NAME",
	  .type = RB_OPT_STR,
	  LSTR(counters),
	  .argname = "LIST|default|all|none",
	  .def = "default",
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "device counters read before and after every point, on both sides; their "
		  "changes go into the JSON (counters, peer_counters), the default set into "
		  "the CSV, and an error counter that moved is flagged in the table. default: "
		  "the driver's traffic, error and congestion counters (see OUTPUT)" },
	{ .lname = "expect",
	  .id = RB_O_EXPECT,
	  .section = RB_SEC_OUTPUT,
	  .brief = "pass/fail gate: bw>=90%link, p99<=5us",
	  .common = true,
	  .type = RB_OPT_LIST,
	  .off = LOC(expect),
	  .argname = "EXPR",
	  .need = RB_S_TEST,
	  .help = "pass/fail gate checked on every point, repeatable: bw>=90%link, bw>=20Gbps, "
		  "rate>=10Mpps, p50<=3us, p99<=10us, retrans==0, or a counter; a failed point "
		  "is marked and the run exits 3" },
	{ .lname = "tag",
	  .section = RB_SEC_OUTPUT,
	  .brief = "annotate the JSON: --tag rack=a12 (repeatable)",
	  .type = RB_OPT_LIST,
	  .off = LOC(tags),
	  .argname = "KEY=VALUE",
	  .any = RB_S_RUN,
	  .check = check_tag,
	  .help = "an annotation kept in the JSON's tags object (iperf3's --extra-data), "
		  "repeatable: --tag rack=a12 --tag fw=new; a key given twice keeps its last "
		  "value" },
	{ .lname = "recommend",
	  .id = RB_O_RECOMMEND,
	  .section = RB_SEC_OUTPUT,
	  .brief = "after a sweep: what to run",
	  .type = RB_OPT_STR,
	  LSTR(recommend_bound),
	  .optional = true,
	  .argname = "[BOUND]",
	  .need = RB_S_TEST | RB_S_VERBS,
	  .help = "after a sweep, print what to run: without BOUND (bandwidth tests, over "
		  "-l/-Q), per size the smallest batch and largest signal interval within 5% of "
		  "the best message rate; with BOUND in --expect's syntax (p99<=20us, "
		  "rate>=1Mpps), per workload (a size; lock's -q and --hold too, measured, not "
		  "chosen) the point cheapest in CPU (cpu_ns_per_msg) within it, over the "
		  "strategies swept (--poll busy,event, --cqe-poll, -l, -Q, --lock, "
		  "--cq-moderation)" },
	{ .lname = "dry-run",
	  .section = RB_SEC_OUTPUT,
	  .brief = "print the plan; measure nothing",
	  .common = true,
	  .type = RB_OPT_FLAG,
	  .off = OFF(dry_run),
	  .max = 1,
	  .need = RB_S_VERBS,
	  .any = RB_S_RUN,
	  .help = "print the plan and exit 0 without connecting or measuring: every point "
		  "(size, batch, signal, QPs, depth, warm-up, iterations or duration), every "
		  "plan option the server is sent, the device, port and GID it would use (the "
		  "device is opened and queried only), "
		  "the CPUs and NUMA node, the memory it needs and what would fail; with "
		  "--json FILE the plan as JSON (a document of its own, see the schema)" },
	{ .lname = "progress",
	  .section = RB_SEC_OUTPUT,
	  .brief = "progress line on stderr: auto, always, never",
	  .type = RB_OPT_CHOICE,
	  .off = LOC(progress),
	  .max = 2,
	  .choices = "auto|always|never",
	  .argname = "WHEN",
	  .def = "auto",
	  .any = RB_S_TEST,
	  .help = "the line that names the point being measured, its place in the sweep and "
		  "the time left, redrawn on stderr as each point starts, and a bandwidth "
		  "test's status line redrawn about once a second during the point (elapsed, "
		  "left, Gb/s so far): auto, when stderr is a terminal; always, also on a pipe "
		  "or file (a line each); never" },
	{ .lname = "quiet",
	  .section = RB_SEC_GENERAL,
	  .brief = "no informational notes",
	  .type = RB_OPT_FLAG,
	  .off = OFF(quiet),
	  .max = 1,
	  .help = "no progress or informational notes on stderr" },
	{ .lname = "verbose",
	  .section = RB_SEC_GENERAL,
	  .brief = "say what is set up",
	  .sname = 'v',
	  .type = RB_OPT_FLAG,
	  .off = OFF(verbose),
	  .max = 1,
	  .help = "say what is set up (device, QPs, MR) on stderr" },
	{ .lname = "help",
	  .section = RB_SEC_GENERAL,
	  .brief = "the common options (--help-all: every one)",
	  .common = true,
	  .perftest = "-h, --help",
	  .sname = 'h',
	  .type = RB_OPT_FLAG,
	  .off = OFF(help),
	  .max = 1,
	  .help = "the options most runs need, a line each, grouped; --help-all lists every "
		  "option with its whole text, and man rdmabench explains each" },
	{ .lname = "help-all",
	  .section = RB_SEC_GENERAL,
	  .brief = "every option, with its whole text",
	  .common = true,
	  .type = RB_OPT_FLAG,
	  .off = OFF(help_all),
	  .max = 1,
	  .help = "every option that applies, grouped as --help groups them, each with its "
		  "whole text, then perftest's flags and what each does here" },
	{ .lname = "version",
	  .section = RB_SEC_GENERAL,
	  .brief = "print the version",
	  .common = true,
	  .perftest = "-V, --version",
	  .sname = 'V',
	  .type = RB_OPT_FLAG,
	  .off = OFF(version),
	  .max = 1,
	  .help = "print the version" },
#ifdef RB_OPTS_TEST_ROW
	RB_OPTS_TEST_ROW, /* test_feature_extra's throw-away row */
#endif
};

const size_t rb_nopts = sizeof(rb_opts) / sizeof(rb_opts[0]);

_Static_assert(sizeof(rb_opts) / sizeof(rb_opts[0]) <= RB_OPTS_MAX, "raise RB_OPTS_MAX");
