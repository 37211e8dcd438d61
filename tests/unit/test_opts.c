// SPDX-License-Identifier: MIT
/*
 * Unit tests for the option table and command line (src/opts.c): every row
 * of rb_opts[] against an independent description of what it should be,
 * parsing (values, ranges, suffixes, choices, per-test applicability, axes),
 * the errors and the option names they carry, the per-test defaults and
 * combination checks of rb_cli_finish(), rb_cli_given(), the usage text and
 * the man page's OPTIONS section.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/cmd.h"
#include "cli/opts_perftest.h"
#include "core/sweep.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)

/* ---- what every row should be ------------------------------------------ */

/*
 * Written from the help texts and the brief, not copied from opts.c at run
 * time: a row whose offset, range, short name or applicability drifts fails
 * test_table_rows even though parsing "works".
 */
struct want {
	const char *lname;
	int sname;
	enum rb_opt_type type;
	size_t off;
	size_t size;	   /* RB_OPT_STR: the field's size */
	uint64_t min, max; /* numbers and axes */
	bool pow2, suffix;
	const char *choices; /* RB_OPT_CHOICE, an axis of choices */
	unsigned int tests;
};

#define CLI(f) offsetof(struct rb_cli, f)
#define PRM(f) offsetof(struct rb_cli, p.f)
#define LOC(f) offsetof(struct rb_cli, l.f)
#define SZ(f)  sizeof(((struct rb_cli *)0)->l.f)
#define MXO(f) offsetof(struct rb_cli, m.f)
#define MSZ(f) sizeof(((struct rb_cli *)0)->m.f)

/*
 * The commands, a bit each, as this test knows them: an option's
 * applicability is a set of these, checked against what the library's
 * scopes (bench.h) make of each command.  "atomic" is the family command.
 */
enum {
	T_SEND_LAT = 1 << 0,
	T_SEND_BW = 1 << 1,
	T_WRITE_LAT = 1 << 2,
	T_WRITE_BW = 1 << 3,
	T_READ_LAT = 1 << 4,
	T_READ_BW = 1 << 5,
	T_ATOMIC_LAT = 1 << 6,
	T_ATOMIC_BW = 1 << 7,
	T_SERVER = 1 << 8,
	T_TOPO = 1 << 9,
	T_ATOMIC = 1 << 10,
	T_MATRIX = 1 << 11, /* matrix alone; "matrix TEST" adds the test's options */
	T_REG = 1 << 12,
	T_TCP_LAT = 1 << 13,
	T_TCP_BW = 1 << 14,
};
/* The verbs tests (V), and with the socket tests. */
#define T_VLAT	 (T_SEND_LAT | T_WRITE_LAT | T_READ_LAT | T_ATOMIC_LAT | T_ATOMIC)
#define T_VBW	 (T_SEND_BW | T_WRITE_BW | T_READ_BW | T_ATOMIC_BW | T_ATOMIC)
#define T_VTESTS (T_VLAT | T_VBW)
#define T_VRUN	 (T_VTESTS | T_SERVER)
#define T_TCP	 (T_TCP_LAT | T_TCP_BW)
#define T_LAT	 (T_VLAT | T_TCP_LAT)
#define T_BW	 (T_VBW | T_TCP_BW)
#define T_TESTS	 (T_LAT | T_BW)
#define T_RUN	 (T_TESTS | T_SERVER)
#define T_ALL	 (T_RUN | T_TOPO | T_MATRIX | T_REG)

#define W_SENDWRITE (T_SEND_LAT | T_SEND_BW | T_WRITE_LAT | T_WRITE_BW)
#define W_NOATOMIC  (W_SENDWRITE | T_READ_LAT | T_READ_BW)
#define W_ATOMIC    (T_ATOMIC_LAT | T_ATOMIC_BW | T_ATOMIC)

static const struct want wants[] = {
	{ "size", 's', RB_OPT_AXIS, PRM(size), 0, 1, 1ULL << 30, false, true, NULL,
	  T_TESTS | T_REG },
	{ "all", 'a', RB_OPT_FLAG, CLI(all), 0, 0, 1, false, false, NULL, W_NOATOMIC | T_TCP },
	{ "iters", 'n', RB_OPT_U64, PRM(iters), 0, 1, 1ULL << 40, false, true, NULL,
	  T_TESTS | T_REG },
	{ "duration", 'D', RB_OPT_U32, PRM(duration_s), 0, 0, 86400, false, false, NULL, T_TESTS },
	{ "interval", 0, RB_OPT_STR, CLI(interval_arg), sizeof(((struct rb_cli *)0)->interval_arg),
	  0, 0, false, false, NULL, T_TESTS },
	{ "rate", 0, RB_OPT_STR, CLI(rate_arg), sizeof(((struct rb_cli *)0)->rate_arg), 0, 0, false,
	  false, NULL, T_VBW },
	{ "warmup", 0, RB_OPT_U64, PRM(warmup), 0, 0, 1ULL << 32, false, true, NULL, T_TESTS },
	{ "latency-gap", 0, RB_OPT_U32, PRM(latency_gap_us), 0, 0, 500000, false, false, NULL,
	  T_LAT },
	{ "samples", 0, RB_OPT_STR, LOC(samples_path), SZ(samples_path), 0, 0, false, false, NULL,
	  T_LAT },
	{ "report-unsorted", 'U', RB_OPT_FLAG, LOC(unsorted), 0, 0, 1, false, false, NULL, T_LAT },
	{ "report-histogram", 'H', RB_OPT_FLAG, LOC(histogram), 0, 0, 1, false, false, NULL,
	  T_LAT },
	{ "report-cycles", 'C', RB_OPT_FLAG, LOC(cycles), 0, 0, 1, false, false, NULL, T_LAT },
	{ "tx-depth", 't', RB_OPT_AXIS, PRM(tx_depth), 0, 1, 32768, false, true, NULL, T_VTESTS },
	{ "rx-depth", 'r', RB_OPT_U32, PRM(rx_depth), 0, 1, 32768, false, true, NULL,
	  T_SEND_LAT | T_SEND_BW },
	{ "recv-post-list", 0, RB_OPT_U32, PRM(recv_post_list), 0, 1, 64, false, false, NULL,
	  T_SEND_LAT | T_SEND_BW },
	{ "qps", 'q', RB_OPT_AXIS, PRM(qps), 0, 1, 16384, false, false, NULL, T_VBW },
	{ "inline", 'I', RB_OPT_U32, PRM(inline_size), 0, 0, 65536, false, true, NULL,
	  W_SENDWRITE },
	{ "batch", 'l', RB_OPT_AXIS, PRM(batch), 0, 1, 4096, false, false, NULL, T_VBW },
	{ "signal", 'Q', RB_OPT_AXIS, PRM(signal), 0, 1, 4096, false, false, NULL, T_VBW },
	{ "outstanding", 'o', RB_OPT_U32, PRM(outstanding), 0, 1, 65536, false, false, NULL,
	  T_READ_BW | T_ATOMIC_BW | T_ATOMIC },
	{ "op", 'A', RB_OPT_CHOICE, CLI(op), 0, 0, 1, false, false, "fadd|cswap", W_ATOMIC },
	{ "mode", 0, RB_OPT_CHOICE, CLI(mode), 0, 0, 1, false, false, "lat|bw", T_ATOMIC },
	{ "verify", 0, RB_OPT_FLAG, PRM(verify), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "rdma-cm", 'R', RB_OPT_FLAG, PRM(use_cm), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "bidirectional", 'b', RB_OPT_FLAG, PRM(bidir), 0, 0, 1, false, false, NULL,
	  T_SEND_BW | T_WRITE_BW | T_READ_BW | T_TCP_BW },
	{ "send-with-imm", 0, RB_OPT_FLAG, PRM(imm), 0, 0, 1, false, false, NULL,
	  T_SEND_LAT | T_SEND_BW },
	{ "write-with-imm", 0, RB_OPT_FLAG, PRM(imm), 0, 0, 1, false, false, NULL,
	  T_WRITE_LAT | T_WRITE_BW },
	{ "reversed", 0, RB_OPT_FLAG, PRM(reversed), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "mtu", 'm', RB_OPT_U32, PRM(mtu), 0, 256, 4096, true, false, NULL, T_VTESTS },
	{ "transport", 'c', RB_OPT_CHOICE, PRM(transport), 0, 0, 4, false, false, "RC|UC|UD|SRD|DC",
	  T_VTESTS },
	{ "sl", 'S', RB_OPT_U32, PRM(sl), 0, 0, 15, false, false, NULL, T_VTESTS },
	{ "tclass", 'T', RB_OPT_U32, PRM(tclass), 0, 0, 255, false, false, NULL, T_VTESTS },
	{ "flow-label", 0, RB_OPT_STR, CLI(flow_arg), sizeof(((struct rb_cli *)0)->flow_arg), 0, 0,
	  false, false, NULL, T_VTESTS },
	{ "hugepages", 0, RB_OPT_FLAG, PRM(hugepages), 0, 0, 1, false, false, NULL,
	  T_VTESTS | T_REG },
	{ "odp", 0, RB_OPT_FLAG, PRM(odp), 0, 0, 1, false, false, NULL, T_VTESTS | T_REG },
	{ "odp-mode", 0, RB_OPT_CHOICE, CLI(r.odp_mode), 0, 0, 1, false, false, "explicit|implicit",
	  T_REG },
	{ "prefetch", 0, RB_OPT_FLAG, CLI(r.prefetch), 0, 0, 1, false, false, NULL, T_REG },
	{ "access", 0, RB_OPT_STR, CLI(r.access), sizeof(((struct rb_cli *)0)->r.access), 0, 0,
	  false, false, "local-write|remote-read|remote-write|remote-atomic|relaxed-ordering",
	  T_REG },
	{ "unaligned", 0, RB_OPT_FLAG, CLI(r.unaligned), 0, 0, 1, false, false, NULL, T_REG },
	{ "mr-per-qp", 0, RB_OPT_FLAG, PRM(mr_per_qp), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "srq", 0, RB_OPT_FLAG, PRM(srq), 0, 0, 1, false, false, NULL, T_SEND_LAT | T_SEND_BW },
	{ "disable-pcie-relaxed", 0, RB_OPT_FLAG, LOC(no_relaxed), 0, 0, 1, false, false, NULL,
	  T_VRUN },
	{ "use-cuda", 0, RB_OPT_STR, LOC(cuda), SZ(cuda), 0, 0, false, false, NULL, T_VRUN },
	{ "cuda-mem", 0, RB_OPT_CHOICE, LOC(cuda_mem), 0, 0, 2, false, false,
	  "device|managed|host-pinned", T_VRUN },
	{ "cuda-reg", 0, RB_OPT_CHOICE, LOC(cuda_reg), 0, 0, 2, false, false, "auto|dmabuf|peermem",
	  T_VRUN },
	{ "reg-mode", 0, RB_OPT_CHOICE, PRM(reg_mode), 0, 0, 1, false, false, "pool|per-msg",
	  T_VBW },
	{ "post-api", 0, RB_OPT_CHOICE, LOC(post_api), 0, 0, 2, false, false, "auto|post|wr",
	  T_VRUN },
	{ "use_old_post_send", 0, RB_OPT_FLAG, LOC(post_api), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "poll", 0, RB_OPT_AXIS, PRM(poll), 0, 0, 1, false, false, "busy|event", T_VTESTS },
	{ "cqe-poll", 0, RB_OPT_AXIS, PRM(cqe_poll), 0, 1, 4096, false, false, NULL, T_VTESTS },
	{ "probe", 0, RB_OPT_FLAG, PRM(probe), 0, 0, 1, false, false, NULL, T_VBW },
	{ "probe-rate", 0, RB_OPT_U32, PRM(probe_rate), 0, 10, 100000, false, true, NULL, T_VBW },
	{ "wr-lat", 0, RB_OPT_FLAG, PRM(wr_lat), 0, 0, 1, false, false, NULL, T_VBW },
	{ "cq-per-qp", 0, RB_OPT_FLAG, PRM(cq_per_qp), 0, 0, 1, false, false, NULL, T_VBW },
	{ "events", 'e', RB_OPT_FLAG, PRM(poll), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "vector", 'X', RB_OPT_U32, LOC(comp_vector), 0, 0, 1023, false, false, NULL, T_VRUN },
	/* issue 40: extended CQ, CQ moderation */
	{ "cq-api", 0, RB_OPT_CHOICE, LOC(cq_api), 0, 0, 2, false, false, "auto|classic|ex",
	  T_VRUN },
	{ "cq-moderation", 0, RB_OPT_STR, LOC(cq_moderation), SZ(cq_moderation), 0, 0, false, false,
	  NULL, T_VRUN },
	{ "threads", 0, RB_OPT_U32, PRM(threads), 0, 1, RB_MAX_THREADS, false, false, NULL,
	  T_TESTS },
	{ "max-conns", 0, RB_OPT_U32, LOC(max_conns), 0, 1, RB_MAX_CONNS, false, false, NULL,
	  T_SERVER },
	{ "allow", 0, RB_OPT_STR, LOC(allow), SZ(allow), 0, 0, false, false, NULL, T_SERVER },
	{ "max-client-conns", 0, RB_OPT_U32, LOC(max_client_conns), 0, 1, RB_MAX_CONNS, false,
	  false, NULL, T_SERVER },
	{ "max-client-mem", 0, RB_OPT_U64, LOC(max_client_mem), 0, 1, 1ULL << 50, false, true, NULL,
	  T_SERVER },
	{ "max-run-time", 0, RB_OPT_U32, LOC(max_run_s), 0, 1, 604800, false, false, NULL,
	  T_SERVER },
	{ "device", 'd', RB_OPT_STR, LOC(device), SZ(device), 0, 0, false, false, NULL,
	  T_VRUN | T_TOPO | T_MATRIX | T_REG },
	{ "ib-port", 'i', RB_OPT_I32, LOC(ib_port), 0, 1, 255, false, false, NULL, T_VRUN },
	{ "dualport", 'O', RB_OPT_FLAG, LOC(dualport), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "gid-index", 'x', RB_OPT_I32, LOC(gid_index), 0, 0, 4095, false, false, NULL, T_VRUN },
	{ "qp-timeout", 'u', RB_OPT_U32, LOC(qp.timeout), 0, 0, 31, false, false, NULL, T_VRUN },
	{ "retry-count", 0, RB_OPT_U32, LOC(qp.retry_count), 0, 0, 7, false, false, NULL, T_VRUN },
	{ "pkey-index", 0, RB_OPT_U32, LOC(qp.pkey_index), 0, 0, 65535, false, false, NULL,
	  T_VRUN },
	{ "hop-limit", 'L', RB_OPT_U32, LOC(qp.hop_limit), 0, 0, 255, false, false, NULL, T_VRUN },
	{ "cpu-freq", 'F', RB_OPT_FLAG, LOC(freq_quiet), 0, 0, 1, false, false, NULL, T_RUN },
	{ "ipv6", 0, RB_OPT_FLAG, LOC(ipv6), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "bind", 0, RB_OPT_STR, LOC(bind), SZ(bind), 0, 0, false, false, NULL, T_RUN },
	{ "auth-key", 0, RB_OPT_STR, LOC(auth_key), SZ(auth_key), 0, 0, false, false, NULL, T_RUN },
	{ "port", 'p', RB_OPT_U32, LOC(tcp_port), 0, 1, 65535, false, false, NULL, T_RUN },
	{ "timeout", 0, RB_OPT_U32, LOC(timeout_s), 0, 1, 3600, false, false, NULL, T_RUN },
	{ "cpu", 0, RB_OPT_STR, LOC(cpu), SZ(cpu), 0, 0, false, false, NULL, T_RUN },
	{ "numa", 0, RB_OPT_STR, LOC(numa), SZ(numa), 0, 0, false, false, NULL, T_RUN },
	{ "pattern", 0, RB_OPT_STR, MXO(pattern), MSZ(pattern), 0, 0, false, false, NULL,
	  T_MATRIX },
	{ "pairs-file", 0, RB_OPT_STR, MXO(pairs_file), MSZ(pairs_file), 0, 0, false, false, NULL,
	  T_MATRIX },
	{ "tolerance", 0, RB_OPT_U32, MXO(tolerance), 0, 1, 1000, false, false, NULL, T_MATRIX },
	{ "coordinator", 0, RB_OPT_STR, MXO(coordinator), MSZ(coordinator), 0, 0, false, false,
	  NULL, T_MATRIX },
	{ "rank", 0, RB_OPT_U32, MXO(rank), 0, 0, 1023, false, false, NULL, T_MATRIX },
	{ "nranks", 0, RB_OPT_U32, MXO(nranks), 0, 2, 1024, false, false, NULL, T_MATRIX },
	{ "simulate", 0, RB_OPT_STR, MXO(simulate), MSZ(simulate), 0, 0, false, false, NULL,
	  T_MATRIX },
	{ "seed", 0, RB_OPT_U32, MXO(seed), 0, 0, UINT32_MAX, false, false, NULL, T_MATRIX },
	{ "json", 0, RB_OPT_STR, LOC(json_path), SZ(json_path), 0, 0, false, false, NULL, T_ALL },
	{ "out_json", 0, RB_OPT_FLAG, LOC(out_json), 0, 0, 1, false, false, NULL, T_ALL },
	{ "csv", 0, RB_OPT_STR, LOC(csv_path), SZ(csv_path), 0, 0, false, false, NULL,
	  T_RUN | T_REG },
	{ "json-stream", 0, RB_OPT_STR, LOC(json_stream), SZ(json_stream), 0, 0, false, false, NULL,
	  T_TESTS },
	{ "logfile", 0, RB_OPT_STR, LOC(logfile), SZ(logfile), 0, 0, false, false, NULL, T_RUN },
	{ "timestamps", 0, RB_OPT_FLAG, LOC(timestamps), 0, 0, 1, false, false, NULL, T_RUN },
	{ "csv-counters", 0, RB_OPT_FLAG, LOC(csv_counters), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "output", 0, RB_OPT_CHOICE, LOC(output), 0, 0, 2, false, false,
	  "bandwidth|message_rate|latency", T_RUN },
	{ "format", 0, RB_OPT_CHOICE, LOC(format), 0, 0, 3, false, false, "table|csv|json|perftest",
	  T_RUN },
	{ "units", 0, RB_OPT_CHOICE, LOC(units), 0, 0, 3, false, false, "MiB/s|Gb/s|MB/s|GB/s",
	  T_BW | T_SERVER },
	{ "report_gbits", 0, RB_OPT_FLAG, LOC(units), 0, 0, 1, false, false, NULL, T_RUN },
	{ "counters", 'W', RB_OPT_STR, LOC(counters), SZ(counters), 0, 0, false, false, NULL,
	  T_VRUN },
	{ "expect", 0, RB_OPT_LIST, LOC(expect), 0, 0, 0, false, false, NULL, T_TESTS },
	{ "tag", 0, RB_OPT_LIST, LOC(tags), 0, 0, 0, false, false, NULL, T_TESTS | T_SERVER },
	{ "recommend", 0, RB_OPT_STR, LOC(recommend_bound), SZ(recommend_bound), 0, 0, false, false,
	  NULL, T_VTESTS },
	{ "dry-run", 0, RB_OPT_FLAG, CLI(dry_run), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "progress", 0, RB_OPT_CHOICE, LOC(progress), 0, 0, 2, false, false, "auto|always|never",
	  T_TESTS },
	{ "quiet", 0, RB_OPT_FLAG, CLI(quiet), 0, 0, 1, false, false, NULL, T_ALL },
	{ "verbose", 'v', RB_OPT_FLAG, CLI(verbose), 0, 0, 1, false, false, NULL, T_ALL },
	{ "help", 'h', RB_OPT_FLAG, CLI(help), 0, 0, 1, false, false, NULL, T_ALL },
	{ "help-all", 0, RB_OPT_FLAG, CLI(help_all), 0, 0, 1, false, false, NULL, T_ALL },
	{ "version", 'V', RB_OPT_FLAG, CLI(version), 0, 0, 1, false, false, NULL, T_ALL },
};

#define NWANTS (sizeof(wants) / sizeof(wants[0]))

static const struct want *want_of(const char *lname)
{
	size_t i;

	for (i = 0; i < NWANTS; i++)
		if (!strcmp(wants[i].lname, lname))
			return &wants[i];
	return NULL;
}

/* The subcommands, by bit, as main.c and the man page name them. */
static const char *const bit_names[] = { "send_lat", "send_bw", "write_lat",  "write_bw",
					 "read_lat", "read_bw", "atomic_lat", "atomic_bw",
					 "server",   "topo",	"atomic",     "matrix",
					 "reg",	     "tcp_lat", "tcp_bw" };
#define NBITS (sizeof(bit_names) / sizeof(bit_names[0]))

static const char *cmd_of(unsigned int bit)
{
	size_t i;

	for (i = 0; i < NBITS; i++)
		if (bit == 1u << i)
			return bit_names[i];
	return "?";
}

/* The library's scope of the command of @bit. */
static unsigned int scope_of(unsigned int bit)
{
	struct rb_cmd cmd;

	if (!rb_cmd_find(cmd_of(bit), &cmd)) {
		print_error("command %s unknown to rb_cmd_find()\n", cmd_of(bit));
		fail();
	}
	return cmd.scope;
}

/* Which of the commands row @o applies to, as a mask of T_* bits. */
static unsigned int applies_mask(const struct rb_opt *o)
{
	unsigned int m = 0;
	size_t i;

	for (i = 0; i < NBITS; i++)
		if (rb_opt_applies(o, scope_of(1u << i)))
			m |= 1u << i;
	return m;
}

/* "-s/--size" or "--warmup", as the messages name an option. */
static const char *name_of(const struct want *w, char *buf, size_t len)
{
	if (w->sname)
		snprintf(buf, len, "-%c/--%s", w->sname, w->lname);
	else
		snprintf(buf, len, "--%s", w->lname);
	return buf;
}

/* ---- running the parser ------------------------------------------------- */

/*
 * Arguments live in a pool that is never reused: getopt keeps a pointer
 * into the last argv between calls, and c->host points into argv.
 */
static char pool[1 << 20];
static size_t pool_used;

static char *keep(const char *s)
{
	size_t n = strlen(s) + 1;
	char *r;

	if (pool_used + n > sizeof(pool)) {
		print_error("argument pool exhausted\n");
		fail();
	}
	r = memcpy(pool + pool_used, s, n);
	pool_used += n;
	return r;
}

#define MAX_ARGS 32

/* rb_cli_init() then rb_cli_parse() of "cmd @list..." for @bit. */
static int parse_list(struct rb_cli *c, unsigned int bit, char *err, size_t len,
		      const char *const *list)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	rb_cli_init(c);
	memset(err, 0, len);
	argv[argc++] = keep(cmd_of(bit));
	for (; *list; list++) {
		if (argc == MAX_ARGS)
			fail();
		argv[argc++] = keep(*list);
	}
	argv[argc] = NULL;
	return rb_cli_parse(c, cmd_of(bit), scope_of(bit), argc, argv, err, len);
}

#define PARSE(c, bit, err, ...) \
	parse_list((c), (bit), (err), sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

/* As parse_list(), which must succeed, then rb_cli_finish() for @bit. */
static int finish_list(struct rb_cli *c, unsigned int bit, char *err, size_t len,
		       const char *const *list, const char *file, int line)
{
	unsigned int run = bit;

	if (parse_list(c, bit, err, len, list)) {
		print_error("parse failed: %s\n", err);
		_fail(file, line);
	}
	if (bit == T_ATOMIC)
		run = c->mode ? T_ATOMIC_BW : T_ATOMIC_LAT;
	memset(err, 0, len);
	return rb_cli_finish(c, rb_bench_find(cmd_of(run)), scope_of(bit), err, len);
}

#define FINISH(c, bit, err, ...)                                                                \
	finish_list((c), (bit), (err), sizeof(err), (const char *const[]){ __VA_ARGS__, NULL }, \
		    __FILE__, __LINE__)

static void check_ok_(int ret, const char *err, const char *what, const char *file, int line)
{
	if (ret) {
		print_error("%s: returned %d (err '%s'), want 0\n", what, ret, err);
		_fail(file, line);
	}
}

#define CHECK_OK(ret, err) check_ok_((ret), (err), #ret, __FILE__, __LINE__)

/* @ret must be -EINVAL with a message containing every one of @needles. */
static void check_err_(int ret, const char *err, const char *const *needles, const char *what,
		       const char *file, int line)
{
	if (ret != -EINVAL) {
		print_error("%s: returned %d (err '%s'), want -EINVAL\n", what, ret, err);
		_fail(file, line);
	}
	if (!err[0]) {
		print_error("%s: empty error message\n", what);
		_fail(file, line);
	}
	for (; *needles; needles++) {
		if (!strstr(err, *needles)) {
			print_error("%s: error '%s' does not contain '%s'\n", what, err, *needles);
			_fail(file, line);
		}
	}
}

#define CHECK_ERR(ret, err, ...)                                                             \
	check_err_((ret), (err), (const char *const[]){ __VA_ARGS__, NULL }, #ret, __FILE__, \
		   __LINE__)

static void check_axis_(const struct rb_axis *a, const uint64_t *v, uint32_t n, const char *what,
			const char *file, int line)
{
	uint32_t i;

	if (a->n != n) {
		print_error("%s: %u values, want %u\n", what, a->n, n);
		_fail(file, line);
	}
	for (i = 0; i < n; i++) {
		if (a->v[i] != v[i]) {
			print_error("%s[%u] = %llu, want %llu\n", what, i,
				    (unsigned long long)a->v[i], (unsigned long long)v[i]);
			_fail(file, line);
		}
	}
}

#define CHECK_AXIS(a, ...)                                                                \
	do {                                                                              \
		static const uint64_t w_[] = { __VA_ARGS__ };                             \
		check_axis_((a), w_, sizeof(w_) / sizeof(w_[0]), #a, __FILE__, __LINE__); \
	} while (0)

/* ---- fields of a row, found by the expected offset ---------------------- */

static uint64_t num_at(const struct rb_cli *c, const struct want *w)
{
	const char *f = (const char *)c + w->off;
	uint64_t u64;
	uint32_t u32;
	int32_t i32;

	switch (w->type) {
	case RB_OPT_U64:
		memcpy(&u64, f, sizeof(u64));
		return u64;
	case RB_OPT_U32:
		memcpy(&u32, f, sizeof(u32));
		return u32;
	case RB_OPT_I32:
		memcpy(&i32, f, sizeof(i32));
		return (uint64_t)(int64_t)i32;
	default:
		fail();
	}
	return 0;
}

static const struct rb_axis *axis_at(const struct rb_cli *c, const struct want *w)
{
	return (const struct rb_axis *)((const char *)c + w->off);
}

static uint8_t u8_at(const struct rb_cli *c, const struct want *w)
{
	return *((const uint8_t *)c + w->off);
}

static const char *str_at(const struct rb_cli *c, const struct want *w)
{
	return (const char *)c + w->off;
}

static unsigned int lowest_bit(unsigned int m)
{
	return m & -m;
}

static int row_index(const struct want *w)
{
	int i = rb_opt_index(w->lname);

	if (i < 0) {
		print_error("--%s: not in rb_opts\n", w->lname);
		fail();
	}
	return i;
}

/*
 * "--lname=@arg" for a row's first test must fail naming the row and
 * @needle (with '=': a row whose argument may be left out takes it so).
 */
static void row_rejects(const struct want *w, const char *arg, const char *needle)
{
	char lopt[600], name[40], err[1024];
	struct rb_cli c;
	int ret;

	snprintf(lopt, sizeof(lopt), "--%s=%s", w->lname, arg);
	name_of(w, name, sizeof(name));
	ret = PARSE(&c, lowest_bit(w->tests), err, lopt);
	if (ret != -EINVAL || !strstr(err, name) || (needle && !strstr(err, needle))) {
		print_error("%s %s: returned %d, err '%s'; want -EINVAL naming '%s' and '%s'\n",
			    lopt, arg, ret, err, name, needle ? needle : "");
		fail();
	}
}

/* Whether the command line set the row named @lname (a name the test knows). */
static bool given_name(const struct rb_cli *c, const char *lname)
{
	int i = rb_opt_index(lname);

	assert_true(i >= 0);
	return c->given[i] != 0;
}

/* "@opt @arg" for a row's first test must succeed and set only that row. */
static size_t given_rows(const struct rb_cli *c)
{
	size_t i, n = 0;

	for (i = 0; i < RB_OPTS_MAX; i++)
		n += c->given[i] != 0;
	return n;
}

static void row_accepts(struct rb_cli *c, const struct want *w, const char *opt, const char *arg)
{
	char err[256];
	int ret;

	ret = arg ? PARSE(c, lowest_bit(w->tests), err, opt, arg)
		  : PARSE(c, lowest_bit(w->tests), err, opt);
	if (ret) {
		print_error("%s %s: returned %d (err '%s'), want 0\n", opt, arg ? arg : "", ret,
			    err);
		fail();
	}
	if (given_rows(c) != 1 || !c->given[row_index(w)]) {
		print_error("%s %s: %zu rows given, want only row %d\n", opt, arg ? arg : "",
			    given_rows(c), row_index(w));
		fail();
	}
	if (!given_name(c, w->lname)) {
		print_error("%s: given[\"%s\"] is false\n", opt, w->lname);
		fail();
	}
}

/* ---- the table ---------------------------------------------------------- */

static void test_table_shape(void **state)
{
	size_t i, j;

	(void)state;
	assert_int_equal(rb_nopts, NWANTS);
	/* rb_cli.given has a byte per row. */
	assert_true(rb_nopts <= RB_OPTS_MAX);
	for (i = 0; i < NWANTS; i++) {
		if (rb_opt_index(wants[i].lname) < 0) {
			print_error("--%s missing from rb_opts\n", wants[i].lname);
			fail();
		}
	}
	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];
		const struct want *w = want_of(o->lname);

		if (!w) {
			print_error("row --%s is not expected: add it to wants[]\n", o->lname);
			fail();
		}
		assert_int_equal(rb_opt_index(o->lname), (int)i);
		if (o->sname != w->sname || o->type != w->type || o->off != w->off ||
		    applies_mask(o) != w->tests) {
			print_error("--%s: sname %d/%d type %d/%d off %zu/%zu tests %#x/%#x "
				    "(row/want)\n",
				    o->lname, o->sname, w->sname, o->type, w->type, o->off, w->off,
				    applies_mask(o), w->tests);
			fail();
		}
		switch (w->type) {
		case RB_OPT_U32:
		case RB_OPT_U64:
		case RB_OPT_I32:
		case RB_OPT_AXIS:
			if (o->min != w->min || o->max != w->max || o->pow2 != w->pow2 ||
			    o->suffix != w->suffix) {
				print_error("--%s: range %llu..%llu pow2 %d suffix %d, want "
					    "%llu..%llu pow2 %d suffix %d\n",
					    o->lname, (unsigned long long)o->min,
					    (unsigned long long)o->max, o->pow2, o->suffix,
					    (unsigned long long)w->min, (unsigned long long)w->max,
					    w->pow2, w->suffix);
				fail();
			}
			if (w->choices || o->choices)
				assert_string_equal(o->choices ? o->choices : "",
						    w->choices ? w->choices : "");
			break;
		case RB_OPT_STR:
			assert_int_equal(o->size, w->size);
			break;
		case RB_OPT_CHOICE:
			assert_non_null(o->choices);
			assert_string_equal(o->choices, w->choices);
			break;
		case RB_OPT_FLAG:
		case RB_OPT_LIST:
			break;
		}
		/* Help text for every row; an argument name exactly when it takes one. */
		assert_non_null(o->help);
		assert_true(o->help[0] != '\0');
		if ((o->argname == NULL) != (o->type == RB_OPT_FLAG)) {
			print_error("--%s: argname '%s' for type %d\n", o->lname,
				    o->argname ? o->argname : "(null)", o->type);
			fail();
		}
		/* Names unique. */
		for (j = 0; j < i; j++) {
			assert_string_not_equal(rb_opts[j].lname, o->lname);
			if (o->sname && rb_opts[j].sname == o->sname) {
				print_error("-%c used by --%s and --%s\n", o->sname,
					    rb_opts[j].lname, o->lname);
				fail();
			}
		}
	}
	assert_int_equal(rb_opt_index("no-such-option"), -1);
	assert_int_equal(rb_opt_index(""), -1);
}

static void row_flag(const struct want *w)
{
	char lopt[40], sopt[4], err[256];
	struct rb_cli c;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&c);
	assert_int_equal(u8_at(&c, w), 0);
	row_accepts(&c, w, lopt, NULL);
	assert_int_equal(u8_at(&c, w), 1);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		row_accepts(&c, w, sopt, NULL);
		assert_int_equal(u8_at(&c, w), 1);
	}
	/* A flag takes no argument. */
	snprintf(lopt, sizeof(lopt), "--%s=1", w->lname);
	assert_int_equal(PARSE(&c, lowest_bit(w->tests), err, lopt), -EINVAL);
}

static void row_number(const struct want *w)
{
	char lopt[40], sopt[4], arg[32];
	struct rb_cli c, init;
	uint64_t v;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&init);
	/* max or min must differ from the initial value, or "it changed" proves nothing */
	assert_true(num_at(&init, w) != w->max || num_at(&init, w) != w->min);

	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
	row_accepts(&c, w, lopt, arg);
	assert_int_equal(num_at(&c, w), w->max);
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min);
	row_accepts(&c, w, lopt, arg);
	assert_int_equal(num_at(&c, w), w->min);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
		row_accepts(&c, w, sopt, arg);
		assert_int_equal(num_at(&c, w), w->max);
	}

	if (w->min > 0) {
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min - 1);
		row_rejects(w, arg, "out of range");
	}
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max + 1);
	row_rejects(w, arg, "out of range");
	row_rejects(w, "x", "not a number");
	row_rejects(w, "", "not a number");
	row_rejects(w, "12x", "not a number");
	row_rejects(w, "-1", "not a number");
	row_rejects(w, "99999999999999999999999", "in range");

	if (w->suffix) {
		row_accepts(&c, w, lopt, "1K");
		assert_int_equal(num_at(&c, w), KiB);
	} else {
		row_rejects(w, "1K", "not a number");
	}

	if (w->pow2) {
		for (v = w->min; v <= w->max; v *= 2) {
			snprintf(arg, sizeof(arg), "%llu", (unsigned long long)v);
			row_accepts(&c, w, lopt, arg);
			assert_int_equal(num_at(&c, w), v);
		}
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min + 1);
		row_rejects(w, arg, "not a power of two");
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max - 1);
		row_rejects(w, arg, "not a power of two");
	} else if (w->max - w->min >= 2) {
		/* a value that is not a power of two is fine */
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max - 1);
		row_accepts(&c, w, lopt, arg);
		assert_int_equal(num_at(&c, w), w->max - 1);
	}
}

static void row_axis(const struct want *w)
{
	char lopt[40], sopt[4], arg[64], num[32];
	struct rb_cli c;
	const struct rb_axis *a;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	rb_cli_init(&c);
	assert_int_equal(axis_at(&c, w)->n, 0);

	snprintf(arg, sizeof(arg), "%llu,%llu", (unsigned long long)w->min,
		 (unsigned long long)w->max);
	row_accepts(&c, w, lopt, arg);
	a = axis_at(&c, w);
	assert_int_equal(a->n, 2);
	assert_int_equal(a->v[0], w->min);
	assert_int_equal(a->v[1], w->max);
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->max);
		row_accepts(&c, w, sopt, arg);
		a = axis_at(&c, w);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], w->max);
	}

	if (w->min > 0) {
		snprintf(arg, sizeof(arg), "%llu", (unsigned long long)w->min - 1);
		row_rejects(w, arg, "out of range");
	}
	/* one bad value anywhere in the list */
	snprintf(num, sizeof(num), "%llu", (unsigned long long)w->max + 1);
	snprintf(arg, sizeof(arg), "%llu,%s", (unsigned long long)w->min, num);
	row_rejects(w, arg, "out of range");
	row_rejects(w, arg, num);
	row_rejects(w, "x", "not a number");
	row_rejects(w, "", NULL);

	if (w->suffix) {
		row_accepts(&c, w, lopt, "1K");
		a = axis_at(&c, w);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], KiB);
	} else {
		row_rejects(w, "1K", NULL);
	}
}

/* String rows that check their syntax: a value they take, one they refuse. */
static const struct {
	const char *lname, *good, *bad, *why;
} str_syntax[] = {
	/* a list of names, each at most 47 */
	{ "counters", "sent_pkts,rcvd_pkts", "sent_pkts,,x", NULL },
	{ "interval", "0.5", "0.05", "out of range" },
	{ "rate", "10Gbps", "10GBps", "bytes per second are not taken" },
	{ "flow-label", "1,0x2,1048575", "1,,2", "not a list of numbers" },
	{ "access", "local-write,remote-read", "remote-write", "need local-write" },
	{ "recommend", "p99<=20us", "p99<=x", "--recommend 'p99<=x': at 6: a number" },
	{ "use-cuda", "0000:3b:00.0", "gpu0", "not a GPU index or a PCI address" },
	{ "cq-moderation", "16/10", "0", "COUNT 1 to 65535" }, /* issue 40 */
};

static int str_syntax_of(const struct want *w)
{
	size_t i;

	for (i = 0; i < sizeof(str_syntax) / sizeof(str_syntax[0]); i++)
		if (!strcmp(str_syntax[i].lname, w->lname))
			return (int)i;
	return -1;
}

static void row_str(const struct want *w)
{
	char lopt[40], sopt[4], arg[512];
	struct rb_cli c;
	int k = str_syntax_of(w);

	assert_true(w->size < sizeof(arg));
	snprintf(lopt, sizeof(lopt), "--%s", w->lname);

	if (k >= 0) {
		row_accepts(&c, w, lopt, str_syntax[k].good);
		assert_string_equal(str_at(&c, w), str_syntax[k].good);
		row_rejects(w, str_syntax[k].bad, str_syntax[k].why);
	} else {
		memset(arg, 'a', w->size - 1);
		arg[w->size - 1] = '\0';
		row_accepts(&c, w, lopt, arg);
		assert_string_equal(str_at(&c, w), arg);
	}
	if (k < 1) { /* --counters takes a counter's name too */
		row_accepts(&c, w, lopt, "mlx5_0");
		assert_string_equal(str_at(&c, w), "mlx5_0");
	}
	if (w->sname) {
		snprintf(sopt, sizeof(sopt), "-%c", w->sname);
		row_accepts(&c, w, sopt, "rxe0");
		assert_string_equal(str_at(&c, w), "rxe0");
	}
	memset(arg, 'a', w->size);
	arg[w->size] = '\0';
	/* --recommend's argument, optional, is taken apart only with < > or = in it */
	if (!strcmp(w->lname, "recommend"))
		memcpy(arg, "p99<=", 5);
	row_rejects(w, arg, "longer than");
}

/* Each repeatable row's syntax: two good values, two bad ones and what each refusal says. */
static const struct list_syntax {
	const char *lname, *good[2], *bad[2], *says[2];
} list_syntax[] = {
	{ "expect",
	  { "p50<=3us", "bw >= 90%link" },
	  { "bw>=9x0Gbps", "p50=<3us" },
	  { "at 6", "p50=<3us" } },
	{ "tag", { "rack=a12", "fw=2.1 new" }, { "=x", "rack" }, { "give KEY=VALUE", "'rack'" } },
};

static const struct list_syntax *list_syntax_of(const struct want *w)
{
	size_t i;

	for (i = 0; i < sizeof(list_syntax) / sizeof(list_syntax[0]); i++)
		if (!strcmp(list_syntax[i].lname, w->lname))
			return &list_syntax[i];
	print_error("--%s: a repeatable row without its syntax in list_syntax[]\n", w->lname);
	fail();
	return NULL;
}

/* One more value of a repeatable row into @c, as it is (no rb_cli_init()). */
static int set_list_once(struct rb_cli *c, const struct want *w, char *err, size_t len)
{
	char lopt[40], *argv[4];

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	argv[0] = keep(cmd_of(lowest_bit(w->tests)));
	argv[1] = keep(lopt);
	argv[2] = keep(list_syntax_of(w)->good[0]);
	argv[3] = NULL;
	return rb_cli_parse(c, argv[0], scope_of(lowest_bit(w->tests)), 3, argv, err, len);
}

/* A repeatable row: every value kept in order, each checked, a bound. */
static void row_list(const struct want *w)
{
	const struct list_syntax *x = list_syntax_of(w);
	const struct rb_strlist *l;
	char lopt[40], err[512];
	struct rb_cli c;
	int i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	CHECK_OK(PARSE(&c, lowest_bit(w->tests), err, lopt, x->good[0], lopt, x->good[1]), err);
	l = (const struct rb_strlist *)((const char *)&c + w->off);
	assert_int_equal(l->n, 2);
	assert_string_equal(l->v[0], x->good[0]);
	assert_string_equal(l->v[1], x->good[1]);
	assert_true(given_name(&c, w->lname));
	/* The syntax is checked as it is parsed, naming the value and what is wrong. */
	CHECK_ERR(PARSE(&c, lowest_bit(w->tests), err, lopt, x->bad[0]), err, x->bad[0],
		  x->says[0]);
	CHECK_ERR(PARSE(&c, lowest_bit(w->tests), err, lopt, x->bad[1]), err, x->bad[1],
		  x->says[1]);
	rb_cli_init(&c);
	for (i = 0; i < RB_LIST_MAX; i++)
		CHECK_OK(set_list_once(&c, w, err, sizeof(err)), err);
	CHECK_ERR(set_list_once(&c, w, err, sizeof(err)), err, "more than");
}

static void row_choice(const struct want *w)
{
	char lopt[40], arg[32];
	const char *p = w->choices;
	struct rb_cli c;
	uint8_t i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		snprintf(arg, sizeof(arg), "%.*s", (int)l, p);
		row_accepts(&c, w, lopt, arg);
		if (u8_at(&c, w) != i) {
			print_error("%s %s: field %u, want %u\n", lopt, arg, u8_at(&c, w), i);
			fail();
		}
		/* a prefix or a longer word is not a choice */
		arg[l - 1] = '\0';
		row_rejects(w, arg, w->choices);
		snprintf(arg, sizeof(arg), "%.*sx", (int)l, p);
		row_rejects(w, arg, w->choices);
		p += l + (p[l] == '|');
	}
	assert_int_equal(i - 1, w->max);
	row_rejects(w, "nope", w->choices);
	row_rejects(w, "nope", "'nope'");
	row_rejects(w, "", w->choices);
}

/* An axis of choices (--poll busy,event): each word alone, then all of them. */
static void row_choice_axis(const struct want *w)
{
	char lopt[40], arg[64], all[128] = "";
	const char *p = w->choices;
	const struct rb_axis *a;
	struct rb_cli c;
	uint32_t i;

	snprintf(lopt, sizeof(lopt), "--%s", w->lname);
	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		snprintf(arg, sizeof(arg), "%.*s", (int)l, p);
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? "," : "", arg);
		row_accepts(&c, w, lopt, arg);
		a = (const struct rb_axis *)((const char *)&c + w->off);
		assert_int_equal(a->n, 1);
		assert_int_equal(a->v[0], i);
		arg[l - 1] = '\0';
		row_rejects(w, arg, w->choices);
		p += l + (p[l] == '|');
	}
	assert_int_equal(i - 1, w->max);
	row_accepts(&c, w, lopt, all);
	a = (const struct rb_axis *)((const char *)&c + w->off);
	assert_int_equal(a->n, i);
	assert_int_equal(a->v[i - 1], w->max);
	row_rejects(w, "nope", "'nope'");
	row_rejects(w, "", w->choices);
}

/* Every row: values land in the right field, ranges and forms are checked. */
static void test_table_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];

		switch (w->type) {
		case RB_OPT_FLAG:
			row_flag(w);
			break;
		case RB_OPT_U32:
		case RB_OPT_U64:
		case RB_OPT_I32:
			row_number(w);
			break;
		case RB_OPT_AXIS:
			if (w->choices)
				row_choice_axis(w);
			else
				row_axis(w);
			break;
		case RB_OPT_STR:
			row_str(w);
			break;
		case RB_OPT_CHOICE:
			row_choice(w);
			break;
		case RB_OPT_LIST:
			row_list(w);
			break;
		}
	}
}

/* A valid argument for the row, NULL for flags. */
static const char *valid_arg(const struct want *w, char *buf, size_t len)
{
	switch (w->type) {
	case RB_OPT_FLAG:
		return NULL;
	case RB_OPT_STR:
		return str_syntax_of(w) > 0 ? str_syntax[str_syntax_of(w)].good : "x";
	case RB_OPT_LIST:
		return list_syntax_of(w)->good[0];
	case RB_OPT_CHOICE:
		snprintf(buf, len, "%.*s", (int)strcspn(w->choices, "|"), w->choices);
		return buf;
	case RB_OPT_AXIS:
		if (w->choices) {
			snprintf(buf, len, "%.*s", (int)strcspn(w->choices, "|"), w->choices);
			return buf;
		}
		snprintf(buf, len, "%llu", (unsigned long long)w->max);
		return buf;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)w->max);
		return buf;
	}
}

/* Every row for every command: accepted where it applies, else named. */
static void test_table_applies(void **state)
{
	char lopt[40], name[40], buf[32], err[256], need[80];
	struct rb_cli c;
	size_t i, b;

	(void)state;
	for (i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];
		const char *arg = valid_arg(w, buf, sizeof(buf));

		snprintf(lopt, sizeof(lopt), "--%s", w->lname);
		name_of(w, name, sizeof(name));
		for (b = 0; b < NBITS; b++) {
			unsigned int bit = 1u << b;
			int ret = arg ? PARSE(&c, bit, err, lopt, arg) : PARSE(&c, bit, err, lopt);

			if (w->tests & bit) {
				if (ret) {
					print_error("%s %s for %s: %d (%s), want 0\n", lopt,
						    arg ? arg : "", bit_names[b], ret, err);
					fail();
				}
				continue;
			}
			snprintf(need, sizeof(need), "%s does not apply to %s", name, bit_names[b]);
			if (ret != -EINVAL || !strstr(err, need)) {
				print_error("%s for %s: %d '%s', want -EINVAL '%s'\n", lopt,
					    bit_names[b], ret, err, need);
				fail();
			}
			assert_int_equal(given_rows(&c), 0);
		}
	}
}

/* The cases the brief names, in the forms a user types. */
static void test_not_applicable(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--op", "fadd"), err, "--op does not apply to send_bw");
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--inline", "0"), err,
		  "-I/--inline does not apply to read_lat");
	CHECK_ERR(PARSE(&c, T_READ_BW, err, "--inline", "0"), err,
		  "-I/--inline does not apply to read_bw");
	CHECK_ERR(PARSE(&c, T_ATOMIC_LAT, err, "--inline", "0"), err,
		  "-I/--inline does not apply to atomic_lat");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "-r", "16"), err,
		  "-r/--rx-depth does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-q", "2"), err,
		  "-q/--qps does not apply to send_lat");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--recommend"), err,
		  "--recommend does not apply to server");
	/* The socket tests take none of the RDMA options, and say why. */
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "-d", "rxe0"), err,
		  "-d/--device does not apply to tcp_lat (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "-x", "1"), err,
		  "-x/--gid-index does not apply to tcp_bw (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "-c", "UC"), err,
		  "-c/--transport does not apply to tcp_bw (RDMA tests only)");
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "--odp"), err, "--odp does not apply to tcp_lat");
	CHECK_OK(PARSE(&c, T_TCP_BW, err, "-s", "64,64K", "-D", "2", "--bind", "192.0.2.2"), err);
	CHECK_ERR(PARSE(&c, T_TCP_LAT, err, "--recommend"), err,
		  "--recommend does not apply to tcp_lat");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "--reg-mode", "per-msg"), err,
		  "--reg-mode does not apply to tcp_bw");
	CHECK_ERR(PARSE(&c, T_TCP_BW, err, "--cqe-poll", "4"), err,
		  "--cqe-poll does not apply to tcp_bw");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "--csv", "out.csv"), err, "--csv does not apply to topo");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-s", "64"), err, "-s/--size does not apply to server");
	/* --srq: only tests with receives (send_lat, send_bw) */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--srq"), err, "--srq does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--use-srq"), err, "--srq does not apply to read_lat");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--hugepages"), err,
		  "--hugepages does not apply to server");
	/* --latency_gap: latency tests only, as perftest */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--latency_gap", "5"), err,
		  "--latency-gap does not apply to write_bw");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--latency-gap", "5"), err,
		  "--latency-gap does not apply to send_bw");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--latency_gap", "250"), err);
	assert_int_equal(c.p.latency_gap_us, 250);
	CHECK_OK(PARSE(&c, T_READ_LAT, err, "--latency_gap=7"), err);
	assert_int_equal(c.p.latency_gap_us, 7);
	/* Up to 0.5 s: a longer wait for the next ping would outlast a --timeout. */
	CHECK_ERR(PARSE(&c, T_READ_LAT, err, "--latency_gap=500001"), err, "500000");
	/* the "atomic" command takes what either mode takes */
	CHECK_OK(PARSE(&c, T_ATOMIC, err, "--op", "cswap", "--mode", "bw", "-o", "4"), err);
	assert_int_equal(c.op, RB_OP_CSWAP);
	assert_int_equal(c.mode, 1);
	assert_int_equal(c.p.outstanding, 4);
	CHECK_ERR(PARSE(&c, T_ATOMIC, err, "-a"), err, "-a/--all does not apply to atomic");
}

/* ---- axes ---------------------------------------------------------------- */

static void test_axes(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64,4K,1M"), err);
	CHECK_AXIS(&c.p.size, 64, 4096, 1048576);

	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--size", "2..8M:x2"), err);
	assert_int_equal(c.p.size.n, 23);
	for (i = 0; i < c.p.size.n; i++)
		assert_int_equal(c.p.size.v[i], 2ULL << i);
	assert_int_equal(c.p.size.v[22], 8 * MiB);

	CHECK_OK(PARSE(&c, T_SEND_BW, err, "-l", "1..64:+8"), err);
	CHECK_AXIS(&c.p.batch, 1, 9, 17, 25, 33, 41, 49, 57);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "-t", "16..64:x2", "-q", "1..4:+1", "-Q", "1,8"), err);
	CHECK_AXIS(&c.p.tx_depth, 16, 32, 64);
	CHECK_AXIS(&c.p.qps, 1, 2, 3, 4);
	CHECK_AXIS(&c.p.signal, 1, 8);
	/* an option given twice is a usage error, not "the last wins" */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64", "-s", "128"), err,
		  "-s/--size given twice");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--s", "64"), err,
		  "option --s is ambiguous: --size, --samples, --signal");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "-1"), err, "-s/--size: '-1'");

	/* grammar errors carry the option and the axis rule */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..8"), err, "-s/--size", "'1..8'",
		  "a range needs an end and a step");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "8..2:x2"), err, "-s/--size",
		  "does not step upwards");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64,,128"), err, "-s/--size");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..65:+1"), err, "-s/--size", "64");
	/* a range reaching past the row's bound names the value */
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-q", "1..32768:x2"), err, "-q/--qps",
		  "32768 is out of range (1..16384)");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "1..2G:x2"), err, "-s/--size",
		  "2147483648 is out of range");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-l", "0..8:+4"), err, "-l/--batch",
		  "0 is out of range");
}

/* ---- errors from getopt and positional arguments ----------------------- */

static void test_bad_command_lines(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--bogus"), err, "unknown option --bogus", "send_lat");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Y"), err, "unknown option -Y", "send_lat");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s", "64", "--bogus", "1"), err, "--bogus");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-s"), err, "-s needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--size"), err, "--size needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--warmup"), err, "--warmup needs an argument");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-n", "10", "-D"), err, "-D needs an argument");

	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "host1", "host2"), err, "unexpected argument 'host2'");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "host1", "-s", "64", "host2"), err,
		  "unexpected argument 'host2'");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "host1"), err,
		  "server takes no host argument ('host1')");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "host1"), err, "topo takes no host argument");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-p", "7000", "host1"), err, "server", "host1");

	/* one host is the client's server; options may come after it */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "host1"), err);
	assert_non_null(c.l.host);
	assert_string_equal(c.l.host, "host1");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "host1", "-s", "64"), err);
	assert_string_equal(c.l.host, "host1");
	CHECK_AXIS(&c.p.size, 64);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64"), err);
	assert_null(c.l.host);
	/* "--" ends the options */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--", "-host"), err);
	assert_string_equal(c.l.host, "-host");
	CHECK_OK(PARSE(&c, T_SERVER, err, "-p", "7000"), err);
	assert_int_equal(c.l.tcp_port, 7000);
	assert_null(c.l.host);
}

/* ---- defaults ------------------------------------------------------------ */

static void test_init(void **state)
{
	struct rb_cli c;

	(void)state;
	memset(&c, 0x5a, sizeof(c));
	rb_cli_init(&c);
	assert_int_equal(given_rows(&c), 0);
	assert_int_equal(c.l.ib_port, 0); /* 0: the port holding the address */
	assert_int_equal(c.l.gid_index, -1);
	assert_int_equal(c.l.tcp_port, RB_DEFAULT_PORT);
	assert_int_equal(c.l.timeout_s, 30);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(c.p.rx_depth, 512);
	assert_string_equal(c.l.cpu, "auto");
	assert_string_equal(c.l.numa, "auto");
	assert_string_equal(c.l.device, "");
	assert_null(c.l.host);
	assert_int_equal(c.p.size.n, 0);
	assert_int_equal(c.p.mtu, 0);
	assert_int_equal(c.p.verify, 0);
}

static void test_defaults_lat(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "send_lat");
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.duration_s, 0);
	assert_int_equal(c.p.inline_size, 220);
	CHECK_AXIS(&c.p.tx_depth, 128);
	CHECK_AXIS(&c.p.signal, 1); /* latency tests signal every WR */
	CHECK_AXIS(&c.p.batch, 1);
	CHECK_AXIS(&c.p.qps, 1);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(c.p.rx_depth, 512);
	/* defaults are not "given" */
	assert_false(given_name(&c, "size"));
	assert_false(given_name(&c, "tx-depth"));
	assert_int_equal(given_rows(&c), 0);

	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "write_lat");
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, 220);

	CHECK_OK(FINISH(&c, T_READ_LAT, err, NULL), err);
	CHECK_AXIS(&c.p.size, 2);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, 0);

	/* what the command line says wins */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-I", "0", "-n", "77", "-s", "64", "-t", "256",
			"--warmup", "0"),
		 err);
	assert_int_equal(c.p.warmup, 0);
	assert_int_equal(c.p.inline_size, 0);
	assert_int_equal(c.p.iters, 77);
	CHECK_AXIS(&c.p.size, 64);
	CHECK_AXIS(&c.p.tx_depth, 256);
	CHECK_AXIS(&c.p.signal, 1);
	assert_int_equal(c.p.warmup, 0);
	/* --warmup takes a number, K/M/G, or the default's name */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--warmup", "1K"), err);
	assert_int_equal(c.p.warmup, 1024);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--warmup", "auto"), err);
	assert_true(c.p.warmup == RB_WARMUP_AUTO);
	assert_int_equal(PARSE(&c, T_SEND_LAT, err, "--warmup", "often"), -EINVAL);
	assert_string_equal(err, "--warmup 'often' is not a number (K/M/G suffixes allowed) or "
				 "auto");
}

static void test_defaults_bw(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, NULL), err);
	assert_string_equal(c.p.test, "send_bw");
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);
	assert_int_equal(c.p.inline_size, 0);
	CHECK_AXIS(&c.p.tx_depth, 128);
	CHECK_AXIS(&c.p.signal, 64);
	CHECK_AXIS(&c.p.batch, 1);
	CHECK_AXIS(&c.p.qps, 1);

	CHECK_OK(FINISH(&c, T_WRITE_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);
	assert_int_equal(c.p.inline_size, 0);
	CHECK_OK(FINISH(&c, T_READ_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 65536);
	assert_int_equal(c.p.iters, 5000);

	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-I", "64"), err);
	assert_int_equal(c.p.inline_size, 64);
}

static void test_defaults_atomic(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, NULL), err);
	assert_string_equal(c.p.test, "atomic_lat");
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 1000);
	assert_int_equal(c.p.inline_size, 0);
	assert_int_equal(c.p.atomic_op, RB_OP_FADD);

	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, NULL), err);
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 5000);

	/* the "atomic" command: --mode picks the row, --op reaches the params */
	CHECK_OK(FINISH(&c, T_ATOMIC, err, "--op", "cswap", "--mode", "bw"), err);
	assert_string_equal(c.p.test, "atomic_bw");
	assert_int_equal(c.p.atomic_op, RB_OP_CSWAP);
	CHECK_AXIS(&c.p.size, 8);
	assert_int_equal(c.p.iters, 5000);
	/* "-s 8" is what atomics are anyway */
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, "-s", "8"), err);
	CHECK_AXIS(&c.p.size, 8);
}

static void test_defaults_all_duration(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-a"), err);
	assert_int_equal(c.all, 1);
	assert_int_equal(c.p.size.n, 23);
	for (i = 0; i < c.p.size.n; i++)
		assert_int_equal(c.p.size.v[i], 2ULL << i);
	CHECK_OK(FINISH(&c, T_READ_BW, err, "--all"), err);
	assert_int_equal(c.p.size.n, 23);
	assert_int_equal(c.p.size.v[0], 2);
	assert_int_equal(c.p.size.v[22], 8 * MiB);

	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-D", "5"), err);
	assert_int_equal(c.p.duration_s, 5);
	assert_int_equal(c.p.iters, 0);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--duration", "5"), err);
	assert_int_equal(c.p.iters, 0);
}

/* -D 0, --interval and --rate (and perftest's --rate_limit) into the plan. */
static void test_shape_options(void **state)
{
	const struct rb_bench *wb = rb_bench_find("write_bw");
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-D", "0", "--interval", "0.5"), err);
	assert_int_equal(c.p.forever, 1);
	assert_int_equal(c.p.duration_s, 0);
	assert_int_equal(c.p.iters, 0);
	assert_int_equal(c.p.interval_ms, 500);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-D", "3", "--interval", "1"), err);
	assert_int_equal(c.p.forever, 0);
	assert_int_equal(c.p.interval_ms, 1000);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-n", "100", "--interval", "2"), err);
	assert_int_equal(c.p.interval_ms, 2000);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--rate", "200Kpps"), err);
	assert_int_equal(c.p.rate, 200000);
	assert_int_equal(c.p.rate_unit, RB_RATE_PPS);
	assert_int_equal(c.p.interval_ms, 0);
	/* perftest's spelling; a bare number is its default unit, Gb/s. */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--rate_limit", "10"), err);
	assert_int_equal(c.p.rate, 10000000000ULL);
	assert_int_equal(c.p.rate_unit, RB_RATE_BPS);
	assert_true(given_name(&c, "rate"));

	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "0", "-s", "64,128"), err, "-D 0",
		  "this sweep has 2");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "2", "--interval", "2.5"), err, "--interval",
		  "longer than -D/--duration 2 s");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-D", "0", "-n", "5"), err, "-n/--iters",
		  "-D/--duration");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--rate", "1Gbps"), err, "--rate",
		  "does not apply to send_lat");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--interval", "1m"), err, "--interval '1m'");

	/* rdmabench matrix keeps one row per pair: no slices, no pace. */
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--interval", "1"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--interval does not apply to matrix"));
	/* Its pattern says which rank of a pair sends: --reversed is not for it. */
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--reversed"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--reversed does not apply to matrix"));
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--reversed"), err);
	assert_int_equal(rb_cli_finish(&c, wb, rb_bench_scope(wb), err, sizeof(err)), 0);
}

/* ---- combinations ------------------------------------------------------- */

static void test_combinations(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-n", "10", "-D", "5"), err, "-n/--iters",
		  "-D/--duration");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-a", "-s", "64"), err, "-a/--all", "-s/--size");
	CHECK_ERR(FINISH(&c, T_ATOMIC_LAT, err, "-s", "64"), err, "-s/--size", "atomic", "8 bytes");
	CHECK_ERR(FINISH(&c, T_ATOMIC_BW, err, "-s", "8,16"), err, "-s/--size", "atomic");

	/* signal against depth: every pairing */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-Q", "256"), err, "-Q/--signal 256",
		  "-t/--tx-depth 128");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Q", "16"), err, "-Q/--signal", "send_lat");
	/* a chain longer than the queue could never be posted */
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-l", "256"), err, "-l/--batch 256",
		  "-t/--tx-depth 128");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-l", "32", "-t", "16,64"), err, "-l/--batch 32",
		  "-t/--tx-depth 16");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "64,256", "-Q", "128"), err, "-Q/--signal 128",
		  "-t/--tx-depth 64");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "256,64", "-Q", "128"), err, "-Q/--signal 128",
		  "-t/--tx-depth 64");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "256", "-Q", "16,512"), err, "-Q/--signal 512",
		  "-t/--tx-depth 256");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "256", "-Q", "256"), err);
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "64,256", "-Q", "1..64:x2"), err);

	/* --recommend needs something to choose from */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "--recommend"), err, "--recommend", "-l/--batch",
		  "-Q/--signal");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "--recommend", "-s", "64,128", "-q", "1,2"), err,
		  "--recommend");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend", "-l", "1,2"), err);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--recommend", "-Q", "16,32"), err);
	assert_int_equal(c.l.recommend, 1);
	assert_string_equal(c.l.recommend_bound, "");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-Q", "16,32"), err);
	assert_int_equal(c.l.recommend, 0);

	/* A bound, in --expect's syntax: given apart (a word with < > or =),
	 * or after '='; the host is not taken for one. */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--recommend", "p99<=20us", "--poll", "busy,event",
			"host"),
		 err);
	assert_int_equal(c.l.recommend, 1);
	assert_string_equal(c.l.recommend_bound, "p99<=20us");
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend=rate>=1Mpps", "--cqe-poll", "1,16"), err);
	assert_string_equal(c.l.recommend_bound, "rate>=1Mpps");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--recommend", "host", "-l", "1,2"), err);
	assert_string_equal(c.l.recommend_bound, "");
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--recommend", "bw >= 1Gbps", "-Q", "16,32"), err);
	/* A bound needs a sweep, and one the test measures; a latency test one. */
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend"), err,
		  "--recommend on send_lat needs a bound");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "p99<=20us"), err,
		  "needs a sweep to choose from: --poll busy,event");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "--recommend", "p99<=20us", "--poll", "busy,event"),
		  err, "--recommend 'p99<=20us': a latency, which write_bw does not measure");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "rate>=1Mpps", "--poll", "busy,event"),
		  err, "a bandwidth figure, which send_lat does not measure");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "--recommend", "retrans==0", "--poll", "busy,event"),
		  err, "not a counter");
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "--recommend", "bw>=90%link", "--poll", "busy,event"),
		  err, "share of the link");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--recommend", "p99<=fast"), err,
		  "--recommend 'p99<=fast'");
}

static void test_plan_limit(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	/* 64 sizes x 64 batches x 4 signals = 16384 points */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-s", "1..64:+1", "-l", "1..64:+1", "-Q", "1..4:+1",
			 "-t", "4096"),
		  err, "16384", "10000");
	/* exactly the limit is fine */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-s", "1..50:+1", "-l", "1..50:+1", "-Q", "1..4:+1"),
		 err);
	assert_int_equal(rb_plan_count(&c.p), RB_MAX_POINTS);
	/* just over it: 63 x 40 x 4 */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-s", "1..63:+1", "-l", "1..40:+1", "-Q", "1..4:+1"),
		  err, "10080", "10000");
}

/* ---- rb_cli_given ------------------------------------------------------- */

/*
 * rb_cli_given() takes a row's id: each id is on exactly one row, so that
 * no id asks about nothing (a row that lost its .id) or about two rows.
 */
static void test_opt_ids(void **state)
{
	int id, rows;
	size_t i;
	struct rb_cli c;
	char err[256];

	(void)state;
	for (id = RB_O_NONE + 1; id < RB_O_N; id++) {
		for (rows = 0, i = 0; i < rb_nopts; i++)
			rows += rb_opts[i].id == (enum rb_opt_id)id;
		if (rows != 1) {
			print_error("id %d is on %d rows, want 1\n", id, rows);
			fail();
		}
	}
	assert_null(rb_opt_by_id(RB_O_NONE));
	assert_string_equal(rb_opt_by_id(RB_O_TX_DEPTH)->lname, "tx-depth");
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--tx-depth", "64", "host"), err);
	assert_true(rb_cli_given(&c, RB_O_TX_DEPTH));
	assert_false(rb_cli_given(&c, RB_O_SIZE));
}

/* A one-shot server names the plan options it ignores, and only those. */
static void test_client_only(void **state)
{
	struct rb_cli c;
	char err[256], buf[256];

	(void)state;
	CHECK_OK(PARSE(&c, T_ATOMIC, err, "-n", "50", "--op", "cswap", "-d", "rxe0", "--json",
		       "x.json", "-R", "--mode", "bw"),
		 err);
	rb_cli_client_only(&c, buf, sizeof(buf));
	assert_string_equal(buf, "-n/--iters, -A/--op, --mode, -R/--rdma-cm");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-d", "rxe0", "--cpu", "1", "-p", "4000"), err);
	rb_cli_client_only(&c, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* perftest's --report_gbits, also by a unique prefix as getopt_long allows. */
static void test_report_gbits(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--report_gbits", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	assert_string_equal(c.l.host, "host");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--report_gbit", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	/* a perftest alias by prefix: --rdma_c is --rdma_cm */
	CHECK_OK(PARSE(&c, T_WRITE_BW, err, "--rdma_c", "host"), err);
	assert_true(given_name(&c, "rdma-cm"));
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--report", "host"), err, "--report is ambiguous",
		  "--report_gbits", "--counters");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--units", "MB/s", "--report_gbits", "host"), err,
		  "--units and --report_gbits exclude each other");
	/* perftest's latency tests take it, with no effect */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--report_gbits", "host"), err);
	/* A server is never finished (rb_cli_finish()): the rule holds there too. */
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--units", "MB/s", "--report_gbits"), err,
		  "--units and --report_gbits exclude each other");
}

/* The table's default unit is Gb/s; perftest's report keeps its MB/sec (MiB/s). */
static void test_units_default(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	CHECK_OK(PARSE(&c, T_SERVER, err, "-p", "4000"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBITS);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--units", "GB/s", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_GBYTES);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--units", "MiB/s", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_MIBS);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--format", "perftest", "host"), err);
	assert_int_equal(c.l.units, RB_UNITS_MIBS);
	/* perftest's -w is in its MB/sec unless --report_gbits, whatever the default */
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-w", "100", "host"), err);
	assert_string_equal(c.l.expect.v[0], "bw>=100MiB/s");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--units", "Mb/s", "host"), err, "--units");
}

/*
 * --post-api, and perftest's --use_old_post_send for its "post"; the
 * default auto.  --disable-pcie-relaxed also in perftest's spelling.
 * Both are each side's own: a server takes them.
 */
static void test_post_api(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_AUTO);
	assert_int_equal(c.l.no_relaxed, 0);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--post-api", "wr", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_WR);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "--post-api=post", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--use_old_post_send", "host"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	CHECK_OK(PARSE(&c, T_SERVER, err, "--use_old_post_send", "--disable_pcie_relaxed"), err);
	assert_int_equal(c.l.post_api, RB_POST_POST);
	assert_int_equal(c.l.no_relaxed, 1);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "--disable-pcie-relaxed", "host"), err);
	assert_int_equal(c.l.no_relaxed, 1);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post-api", "ex", "host"), err, "--post-api",
		  "auto|post|wr");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post-api", "wr", "--use_old_post_send", "host"), err,
		  "--post-api and --use_old_post_send exclude each other");
	CHECK_ERR(PARSE(&c, T_TOPO, err, "--post-api", "wr"), err, "does not apply");
}

/*
 * --poll busy|event, perftest's -e/--events for event; -X/--vector, each
 * side's own.  write_lat's receiver polls its buffer: --poll event is
 * refused there, naming why, unless --write-with-imm.
 */
static void test_poll(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY);
	assert_int_equal(c.l.comp_vector, RB_VECTOR_SPREAD); /* issue 40: not given */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "--poll", "event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "-e", "-X", "3", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	assert_int_equal(c.l.comp_vector, 3);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--events", "--vector=1", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--poll=busy", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY);
	CHECK_OK(PARSE(&c, T_SERVER, err, "-X", "2"), err);
	assert_int_equal(c.l.comp_vector, 2);
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--poll", "event"), err, "does not apply");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "sleep", "host"), err, "--poll",
		  "busy|event");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-X", "1024", "host"), err, "--vector");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "--poll", "event", "host"), err,
		  "--poll event does not apply to write_lat", "polls the last byte");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "-e", "host"), err, "write_lat");
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-e", "--write-with-imm", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT);
	/* An axis: both ways, each point; -e with it, event wins only alone. */
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--poll", "busy,event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_BUSY, RB_POLL_EVENT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--poll=event,busy,event", "host"), err);
	CHECK_AXIS(&c.p.poll, RB_POLL_EVENT, RB_POLL_BUSY, RB_POLL_EVENT);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "busy,", "host"), err, "--poll ''");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--poll", "busy,sleep", "host"), err,
		  "--poll 'sleep' is not one of busy|event");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "--poll", "busy,event", "host"), err,
		  "--poll event does not apply to write_lat");
}

/*
 * --cqe-poll N (perftest's --cqe_poll): completions per ibv_poll_cq, an
 * axis on every test, 32 by default (what the loops asked before it).
 */
static void test_cqe_poll(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, RB_CQE_POLL_DEFAULT);
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, RB_CQE_POLL_DEFAULT);
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--cqe-poll", "1,16,64", "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, 1, 16, 64);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--cqe_poll", "1", "host"), err);
	CHECK_AXIS(&c.p.cqe_poll, 1);
	CHECK_OK(FINISH(&c, T_ATOMIC_BW, err, "--cqe-poll=1..4096:x2", "host"), err);
	assert_int_equal(c.p.cqe_poll.n, 13);
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--cqe-poll", "0", "host"), err,
		  "--cqe-poll 0 is out of range (1..4096)");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--cqe-poll", "4097", "host"), err, "--cqe-poll");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "--cqe-poll", "8"), err, "does not apply");
}

/* perftest's --out_json is a switch: "--out_json HOST" is a client of HOST. */
static void test_out_json(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json", "host"), err);
	assert_string_equal(c.l.host, "host");
	assert_string_equal(c.l.json_path, "perftest_out.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json", "--out_json_file=r.json", "host"), err);
	assert_string_equal(c.l.host, "host");
	assert_string_equal(c.l.json_path, "r.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "--out_json_file", "r.json", "host"), err);
	assert_string_equal(c.l.json_path, "r.json");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "host"), err);
	assert_string_equal(c.l.json_path, "");
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "--out_json=x"), err, "--out_json takes no argument");
	/* A server writes it too: it never calls rb_cli_finish(). */
	CHECK_OK(PARSE(&c, T_SERVER, err, "--out_json"), err);
	assert_string_equal(c.l.json_path, "perftest_out.json");
}

/* perftest's -H, -U and -C, and --samples: latency tests' own reports. */
static void test_lat_reports(void **state)
{
	const struct rb_bench *sl = rb_bench_find("send_lat");
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "-C", "host"), err);
	assert_int_equal(c.l.histogram, 1);
	assert_int_equal(c.l.cycles, 1);
	assert_string_equal(c.l.samples_path, "");
	/* -U is a switch: the samples go to a file of ours unless --samples names one. */
	CHECK_OK(FINISH(&c, T_READ_LAT, err, "-U", "host"), err);
	assert_int_equal(c.l.unsorted, 1);
	assert_string_equal(c.l.samples_path, RB_SAMPLES_DEFAULT);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-U", "--samples", "s.csv", "host"), err);
	assert_string_equal(c.l.samples_path, "s.csv");
	CHECK_OK(FINISH(&c, T_ATOMIC_LAT, err, "--samples=t.csv", "--report-histogram", "host"),
		 err);
	assert_string_equal(c.l.samples_path, "t.csv");
	assert_int_equal(c.l.unsorted, 0);
	assert_int_equal(c.l.histogram, 1);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--report-unsorted", "--report-cycles", "host"), err);
	assert_int_equal(c.l.cycles, 1);
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-U", "x.csv", "host"), err, "unexpected argument");
	/* Bandwidth tests: exit 2 naming the rule. */
	CHECK_ERR(PARSE(&c, T_WRITE_BW, err, "-H"), err,
		  "-H/--report-histogram does not apply to write_bw (latency tests only)");
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "-U"), err,
		  "-U/--report-unsorted does not apply to send_bw (latency tests only)");
	CHECK_ERR(PARSE(&c, T_READ_BW, err, "-C"), err, "-C/--report-cycles does not apply");
	CHECK_ERR(PARSE(&c, T_ATOMIC_BW, err, "--samples", "x"), err,
		  "--samples does not apply to atomic_bw");
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-H"), err, "does not apply to server");
	/* The family command takes them, then --mode bw refuses them. */
	CHECK_ERR(FINISH(&c, T_ATOMIC, err, "--mode", "bw", "-H", "host"), err,
		  "-H/--report-histogram does not apply to atomic_bw (latency tests only)");
	/* Combinations. */
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-C", "--interval", "1", "-D", "2", "host"), err,
		  "-C/--report-cycles and --interval exclude each other");
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "--interval", "1", "-D", "2", "host"), err);
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-U", "--threads", "2", "host"), err,
		  "--samples (-U) does not apply to --threads runs");
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "-H", "--threads", "2", "host"), err);
	rb_cli_init(&c);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-H"), err);
	assert_int_equal(rb_cli_finish(&c, sl, rb_bench_scope(sl) | RB_S_MATRIX, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "-H/--report-histogram does not apply to matrix"));
}

static void test_given(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "-s", "64", "--warmup", "5", "-v", "--units", "Gb/s"),
		 err);
	assert_true(rb_cli_given(&c, RB_O_SIZE));
	assert_true(given_name(&c, "warmup"));
	assert_true(given_name(&c, "verbose"));
	assert_true(given_name(&c, "units"));
	assert_false(given_name(&c, "iters"));
	assert_false(given_name(&c, "tx-depth"));
	assert_false(given_name(&c, "quiet"));
	assert_int_equal(rb_opt_index("no-such-option"), -1);
	assert_int_equal(given_rows(&c), 4);
	/* rb_cli_finish() fills defaults without marking them given */
	CHECK_OK(rb_cli_finish(&c, &rb_bench_send_bw, scope_of(T_SEND_BW), err, sizeof(err)), err);
	assert_false(given_name(&c, "tx-depth"));
	assert_false(given_name(&c, "iters"));
	assert_true(given_name(&c, "size"));

	/* a value equal to the default still counts as given */
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--warmup", "100"), err);
	assert_true(given_name(&c, "warmup"));
	/* a failed option is not marked */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-n", "0"), err, "-n/--iters");
	assert_false(given_name(&c, "iters"));
}

/* ---- usage and man page ------------------------------------------------- */

/* rb_usage() of @cmd at @columns (--help-all with @all), into a string. */
static char *capture_help(const char *cmd, unsigned int bit, bool all, const char *columns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	setenv("COLUMNS", columns, 1);
	rb_usage(f, cmd, scope_of(bit), all);
	unsetenv("COLUMNS");
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* --help-all, every text on one line, without perftest's flags (a test's last section). */
static char *capture_usage(const char *cmd, unsigned int bit)
{
	char *u = capture_help(cmd, bit, true, "1000");
	char *pt = strstr(u, "\nperftest's flags");

	if (pt)
		*pt = '\0';
	return u;
}

/*
 * Whether usage text @u has a line for the row: "\n  -s, --size " or
 * "\n      --warmup" and then its argument or the end of the line.
 */
static bool lists(const char *u, const struct want *w)
{
	char line[64];
	const char *p = u;
	size_t n;

	if (w->sname)
		snprintf(line, sizeof(line), "\n  -%c, --%s", w->sname, w->lname);
	else
		snprintf(line, sizeof(line), "\n      --%s", w->lname);
	n = strlen(line);
	while ((p = strstr(p, line))) {
		if (p[n] == ' ' || p[n] == '\n')
			return true;
		p += n;
	}
	return false;
}

/* The widest line of @u and how many lines it has. */
static size_t widest(const char *u, size_t *lines)
{
	size_t w = 0, l;

	for (*lines = 0; *u; u += l + (u[l] == '\n')) {
		l = strcspn(u, "\n");
		w = l > w ? l : w;
		(*lines)++;
	}
	return w;
}

/*
 * --help fits a terminal: at most 60 lines of at most $COLUMNS (80, 200)
 * columns, only rows marked common, each with its brief, the pointer to
 * --help-all last; --help-all stays within the width too.
 */
static void test_help_fits(void **state)
{
	static const char *const cols[] = { "80", "200" };
	size_t b, i, k, lines, w;

	(void)state;
	for (b = 0; b < NBITS; b++)
		for (k = 0; k < 2; k++) {
			char *u = capture_help(bit_names[b], 1u << b, false, cols[k]);
			char *all = capture_help(bit_names[b], 1u << b, true, cols[k]);

			w = widest(u, &lines);
			if (w > (size_t)atoi(cols[k]) || lines > 60) {
				print_error("%s --help at %s columns: %zu lines, widest %zu\n%s",
					    bit_names[b], cols[k], lines, w, u);
				fail();
			}
			assert_non_null(strstr(u, "--help-all' lists every option"));
			for (i = 0; i < NWANTS; i++)
				if (lists(u, &wants[i]) &&
				    !rb_opts[rb_opt_index(wants[i].lname)].common) {
					print_error("%s --help lists --%s, not a common row\n",
						    bit_names[b], wants[i].lname);
					fail();
				}
			assert_true(widest(all, &lines) <= (size_t)atoi(cols[k]));
			free(u);
			free(all);
		}
	/* Every row has a brief that fits --help's column, and a section. */
	for (i = 0; i < rb_nopts; i++) {
		assert_non_null(rb_opts[i].brief);
		if (strlen(rb_opts[i].brief) > RB_BRIEF_MAX) {
			print_error("--%s: brief of %zu characters\n", rb_opts[i].lname,
				    strlen(rb_opts[i].brief));
			fail();
		}
		assert_true(rb_opts[i].section < RB_SEC_N);
	}
}

/* Usage for @bit lists exactly the rows that apply to it. */
static void check_usage_rows(const char *u, const char *cmd, unsigned int bit)
{
	size_t i;

	for (i = 0; i < NWANTS; i++) {
		if (lists(u, &wants[i]) != !!(wants[i].tests & bit)) {
			print_error("usage of %s %s --%s:\n%s\n", cmd,
				    lists(u, &wants[i]) ? "lists" : "omits", wants[i].lname, u);
			fail();
		}
	}
}

static void test_usage(void **state)
{
	char *u;
	size_t b;

	(void)state;
	u = capture_help("send_lat", T_SEND_LAT, true, "80");
	assert_non_null(strstr(u, "\nperftest's flags (taken under perftest's names and "
				  "rdmabench's):\n"
				  "      --cpu_util\n        accepted, no effect: "));
	free(u);
	u = capture_usage("send_lat", T_SEND_LAT);
	assert_non_null(strstr(u, "usage: rdmabench send_lat [options]"));
	assert_non_null(strstr(u, "rdmabench send_lat [options] HOST"));
	assert_non_null(strstr(u, "--size"));
	assert_non_null(strstr(u, "--inline"));
	assert_null(strstr(u, "--op"));
	assert_null(strstr(u, "--mode"));
	assert_null(strstr(u, "--batch"));
	assert_non_null(strstr(u, "--recommend [BOUND]"));
	/* defaults are shown with their row */
	assert_non_null(strstr(u, "[default: 128]"));
	assert_non_null(strstr(u, "[default: auto]"));
	check_usage_rows(u, "send_lat", T_SEND_LAT);
	/* A test's own help shows its row's defaults. */
	assert_non_null(strstr(u, "powers of 1024 [default: 2]\n"));
	assert_non_null(strstr(u, "0: never [default: 220]\n"));
	assert_non_null(strstr(u, "-n times -q) [default: 1000]\n"));
	free(u);
	u = capture_usage("read_bw", T_READ_BW);
	assert_non_null(strstr(u, "powers of 1024 [default: 65536]\n"));
	assert_non_null(strstr(u, "-n times -q) [default: 5000]\n"));
	free(u);

	u = capture_usage("atomic", T_ATOMIC);
	assert_non_null(strstr(u, "usage: rdmabench atomic [options]"));
	assert_non_null(strstr(u, "--op OP"));
	assert_non_null(strstr(u, "--mode MODE"));
	assert_non_null(strstr(u, "fadd"));
	assert_non_null(strstr(u, "--outstanding"));
	assert_null(strstr(u, "--inline"));
	assert_null(strstr(u, "--all"));
	check_usage_rows(u, "atomic", T_ATOMIC);
	free(u);

	u = capture_usage("server", T_SERVER);
	assert_non_null(strstr(u, "usage: rdmabench server [options]"));
	assert_null(strstr(u, "HOST"));
	assert_non_null(strstr(u, "--port"));
	assert_null(strstr(u, "--size"));
	free(u);

	for (b = 0; b < NBITS; b++) {
		u = capture_usage(bit_names[b], 1u << b);
		check_usage_rows(u, bit_names[b], 1u << b);
		free(u);
	}
}

/* "tx-depth" -> "\-\-tx\-depth" */
static void man_escape(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '-' || *s == '\\')
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* perftest's spellings reach the same rows, and clash with no name. */
/* -c, --sl, --tclass, --flow-label: parsing, ranges, and what each test runs over. */
static void test_transport(void **state)
{
	char err[256];
	struct rb_cli c;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, NULL), err);
	assert_int_equal(c.p.transport, RB_TR_RC);
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-s", "1024", "--sl", "15", "--tclass",
			"255", "--flow-label", "1048575"),
		 err);
	assert_int_equal(c.p.transport, RB_TR_UD);
	assert_int_equal(c.p.sl, 15);
	assert_int_equal(c.p.tclass, 255);
	assert_int_equal(c.p.nflow, 1);
	assert_int_equal(c.p.flow_label[0], 0xfffff);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--connection", "UD", "-S", "3", "--flow_label", "7"),
		 err);
	assert_int_equal(c.p.sl, 3);
	assert_int_equal(c.p.flow_label[0], 7);
	/* perftest's list: QP i takes label i modulo its length */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-q", "4", "--flow_label", "1,0x2,3"), err);
	assert_int_equal(c.p.nflow, 3);
	assert_int_equal(c.p.flow_label[1], 2);
	assert_int_equal(c.p.flow_label[2], 3);
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1,2,"), err, "not a list of numbers");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1,,2"), err, "not a list of numbers");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label",
			"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"),
		  err, "more than 16 labels");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-c", "UC"), err);
	assert_int_equal(c.p.transport, RB_TR_UC);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-c", "UC", "-R", "--tos", "32"), err);
	assert_int_equal(c.p.tclass, 32);
	CHECK_OK(FINISH(&c, T_READ_BW, err, "-c", "RC"), err);

	/* What a transport cannot do names both. */
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-c", "UD"), err, "-c UD does not apply to write_bw",
		  "RC, UC");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "-c", "UD"), err, "-c UD", "write_lat");
	CHECK_ERR(FINISH(&c, T_READ_BW, err, "-c", "UC"), err, "-c UC does not apply to read_bw");
	CHECK_ERR(FINISH(&c, T_READ_LAT, err, "-c", "UD"), err, "-c UD", "read_lat");
	CHECK_ERR(FINISH(&c, T_ATOMIC, err, "-c", "UC", "--mode", "bw"), err,
		  "-c UC does not apply to atomic_bw");
	CHECK_ERR(FINISH(&c, T_ATOMIC_LAT, err, "-c", "UD"), err, "-c UD", "atomic_lat");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-c", "UD", "-R"), err, "-R/--rdma-cm", "-c UD");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-m", "1024", "-s", "64,2048"), err,
		  "-s/--size 2048", "-m/--mtu 1024", "-c UD");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-m", "1024", "-s", "64,1024"), err);

	/* Ranges name the option. */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "XRC"), err, "-c/--transport 'XRC'",
		  "RC|UC|UD|SRD");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "ud"), err, "-c/--transport");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--sl", "16"), err, "-S/--sl 16", "0..15");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--tclass", "256"), err, "--tclass 256", "0..255");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1048576"), err,
		  "--flow-label 1048576", "0..1048575");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow_label", "-1"), err, "--flow-label");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "UD", "-c", "RC"), err,
		  "-c/--transport given twice");
	/* The plan's, not the server's. */
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-c", "UD"), err, "does not apply to server");
}

static void test_perftest_aliases(void **state)
{
	char err[256], *buf = NULL;
	struct rb_cli c;
	size_t i, j, len = 0;
	FILE *f;

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--post_list", "8", "--cq-mod", "4", "--ib-dev", "rxe0",
		       "--qp", "2", "--inline_size", "0"),
		 err);
	assert_int_equal(c.p.batch.n, 1);
	assert_int_equal(c.p.batch.v[0], 8);
	assert_int_equal(c.p.signal.v[0], 4);
	assert_int_equal(c.p.qps.v[0], 2);
	assert_string_equal(c.l.device, "rxe0");
	assert_true(given_name(&c, "batch"));
	assert_true(given_name(&c, "post_list"));
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post_list", "8", "-l", "4"), err,
		  "-l/--batch given twice");
	/* The memory flags, in perftest's spelling. */
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--use_hugepages", "--odp", "--mr_per_qp", "--use-srq"),
		 err);
	assert_true(c.p.hugepages && c.p.odp && c.p.mr_per_qp && c.p.srq);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--hugepages", "--mr-per-qp", "--srq"), err);
	assert_true(c.p.hugepages && !c.p.odp && c.p.mr_per_qp && c.p.srq);
	/* An alias follows its row's scope. */
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--atomic_type", "fadd"), err,
		  "--op does not apply to send_bw");
	for (i = 0; i < rb_nopts; i++) {
		const char *a = rb_opts[i].alias;

		if (!a)
			continue;
		assert_true(strcmp(a, rb_opts[i].lname));
		for (j = 0; j < rb_nopts; j++)
			if (!strcmp(rb_opts[j].lname, a) ||
			    (j != i && rb_opts[j].alias && !strcmp(rb_opts[j].alias, a))) {
				print_error("alias --%s clashes with row --%s\n", a,
					    rb_opts[j].lname);
				fail();
			}
	}
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_man_perftest(f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "\\-l, \\-\\-post_list\nT}|T{\n\\-l/\\-\\-batch (also"));
	assert_non_null(strstr(buf, ".TE\n"));
	free(buf);
}

static void test_man_options(void **state)
{
	char *buf = NULL, *line, *save = NULL, need[128], esc[64];
	size_t len = 0, i, tp = 0;
	const char *p;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_man_options(f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		man_escape(o->lname, esc, sizeof(esc));
		snprintf(need, sizeof(need), "\\fB\\-\\-%s\\fR", esc);
		if (!strstr(buf, need)) {
			print_error("man options lack '%s':\n%s\n", need, buf);
			fail();
		}
		if (o->sname) {
			snprintf(need, sizeof(need), ".TP\n\\fB\\-%c\\fR, \\fB\\-\\-%s\\fR",
				 o->sname, esc);
			if (!strstr(buf, need)) {
				print_error("man options lack '%s'\n", need);
				fail();
			}
		}
	}
	assert_non_null(strstr(buf, "\\fB\\-\\-tx\\-depth\\fR \\fIDEPTHS\\fR"));
	assert_non_null(strstr(buf, "Default: 128."));
	/* options for some commands say which */
	assert_non_null(strstr(buf, "\\fB\\-\\-recommend\\fR \\fI[BOUND]\\fR\n"));
	assert_non_null(strstr(buf, "Applies to: send_bw, write_bw, read_bw, atomic_bw, atomic."));
	assert_non_null(strstr(buf, "Applies to: atomic_lat, atomic_bw, atomic."));
	assert_non_null(strstr(buf, "Applies to: atomic.\n"));

	/* every '-' is escaped */
	for (p = buf; (p = strchr(p, '-')); p++) {
		if (p == buf || p[-1] != '\\') {
			print_error("unescaped '-' at '%.30s'\n", p > buf + 10 ? p - 10 : buf);
			fail();
		}
	}
	/* one .TP per row, and no other line troff would take as a request */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, ".TP")) {
			tp++;
			continue;
		}
		if (line[0] == '.' || line[0] == '\'') {
			print_error("line taken as a request: '%s'\n", line);
			fail();
		}
	}
	assert_int_equal(tp, rb_nopts);
	free(buf);
}

/* ---- bugs ------------------------------------------------------------------ */

/*
 * rb_cli_parse() sets optind = 1, which does not reset glibc's getopt: an
 * error in the middle of a cluster ("-zv") leaves getopt's next-character
 * pointer inside it, and the next parse picks up "v" from the old argv.
 * Resetting with optind = 0 re-initializes glibc's getopt fully.
 */
static void test_parse_resets_getopt(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Yv"), err, "unknown option -Y");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64"), err);
	assert_int_equal(c.verbose, 0);
	assert_null(c.l.host);
	CHECK_AXIS(&c.p.size, 64);
	assert_int_equal(given_rows(&c), 1);
	assert_true(given_name(&c, "size"));

	CHECK_ERR(PARSE(&c, T_TOPO, err, "-av"), err, "-a/--all does not apply to topo");
	CHECK_OK(PARSE(&c, T_TOPO, err, "--quiet"), err);
	assert_int_equal(c.verbose, 0);
	assert_int_equal(given_rows(&c), 1);
	assert_true(given_name(&c, "quiet"));
}

/*
 * A known flag given an argument is not an unknown option: "--verify=1"
 * should say that --verify takes no argument.
 */
static void test_flag_with_argument(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--verify=1"), err, "--verify");
	if (strstr(err, "unknown")) {
		print_error("'%s' calls a known option unknown\n", err);
		fail();
	}
}

/*
 * -Q defaults to 64, but a user who only lowers -t (perftest clamps its
 * cq_mod to the depth) is refused with a message about -Q, which they did
 * not give.  The default should fit the smallest depth.
 */
static void test_default_signal_fits_depth(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "32"), err);
	assert_true(c.p.signal.n >= 1);
	for (i = 0; i < c.p.signal.n; i++)
		assert_true(c.p.signal.v[i] >= 1 && c.p.signal.v[i] <= 32);
	/* a -Q the user gave is still checked */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "32", "-Q", "64"), err, "-Q/--signal 64",
		  "-t/--tx-depth 32");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_shape),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_table_applies),
		cmocka_unit_test(test_not_applicable),
		cmocka_unit_test(test_axes),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_defaults_lat),
		cmocka_unit_test(test_defaults_bw),
		cmocka_unit_test(test_defaults_atomic),
		cmocka_unit_test(test_defaults_all_duration),
		cmocka_unit_test(test_shape_options),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_plan_limit),
		cmocka_unit_test(test_report_gbits),
		cmocka_unit_test(test_units_default),
		cmocka_unit_test(test_post_api),
		cmocka_unit_test(test_poll),
		cmocka_unit_test(test_cqe_poll),
		cmocka_unit_test(test_out_json),
		cmocka_unit_test(test_lat_reports),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_opt_ids),
		cmocka_unit_test(test_client_only),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_help_fits),
		cmocka_unit_test(test_man_options),
		cmocka_unit_test(test_perftest_aliases),
		cmocka_unit_test(test_transport),
		cmocka_unit_test(test_parse_resets_getopt),
		cmocka_unit_test(test_flag_with_argument),
		cmocka_unit_test(test_default_signal_fits_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
