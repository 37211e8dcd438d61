// SPDX-License-Identifier: MIT
/* The option tests' fixture (test_opts_*.c); opts_fx.h says what it holds. */
#include "opts_fx.h"

const struct want wants[] = {
	{ "size", 's', RB_OPT_AXIS, PRM(size), 0, 1, 1ULL << 30, false, true, NULL, T_TESTS },
	{ "all", 'a', RB_OPT_FLAG, CLI(all), 0, 0, 1, false, false, NULL, W_NOATOMIC | T_TCP },
	{ "iters", 'n', RB_OPT_U64, PRM(iters), 0, 1, 1ULL << 40, false, true, NULL, T_TESTS },
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
	{ "qps", 'q', RB_OPT_AXIS, PRM(qps), 0, 1, 16384, false, false, NULL, T_VBW | T_LOCK },
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
	{ "hugepages", 0, RB_OPT_FLAG, PRM(hugepages), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "odp", 0, RB_OPT_FLAG, PRM(odp), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "mr-per-qp", 0, RB_OPT_FLAG, PRM(mr_per_qp), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "srq", 0, RB_OPT_FLAG, PRM(srq), 0, 0, 1, false, false, NULL, T_SEND_LAT | T_SEND_BW },
	{ "disable-pcie-relaxed", 0, RB_OPT_FLAG, LOC(no_relaxed), 0, 0, 1, false, false, NULL,
	  T_VRUN },
	{ "use-cuda", 0, RB_OPT_STR, LOC(cuda), SZ(cuda), 0, 0, false, false, NULL, T_VRUN },
	{ "cuda-mem", 0, RB_OPT_CHOICE, LOC(cuda_mem), 0, 0, 2, false, false,
	  "device|managed|host-pinned", T_VRUN },
	{ "cuda-reg", 0, RB_OPT_CHOICE, LOC(cuda_reg), 0, 0, 2, false, false, "auto|dmabuf|peermem",
	  T_VRUN },
	{ "reg-mode", 0, RB_OPT_CHOICE, PRM(reg_mode), 0, 0, 2, false, false, "pool|per-msg|cache",
	  T_VBW },
	/* issue 42: registration cache */
	{ "reg-cache", 0, RB_OPT_U32, PRM(reg_cache), 0, 1, RB_RCACHE_MAX, false, true, NULL,
	  T_VBW },
	{ "buffers", 0, RB_OPT_U32, PRM(buffers), 0, 1, RB_RCACHE_MAX, false, true, NULL, T_VBW },
	{ "reuse", 0, RB_OPT_STR, CLI(reuse_arg), sizeof(((struct rb_cli *)0)->reuse_arg), 0, 0,
	  false, false, NULL, T_VBW },
	{ "post-api", 0, RB_OPT_CHOICE, LOC(post_api), 0, 0, 2, false, false, "auto|post|wr",
	  T_VRUN },
	{ "use_old_post_send", 0, RB_OPT_FLAG, LOC(post_api), 0, 0, 1, false, false, NULL, T_VRUN },
	{ "poll", 0, RB_OPT_AXIS, PRM(poll), 0, 0, 1, false, false, "busy|event", T_VTESTS },
	{ "cqe-poll", 0, RB_OPT_AXIS, PRM(cqe_poll), 0, 1, 4096, false, false, NULL, T_VTESTS },
	{ "probe", 0, RB_OPT_FLAG, PRM(probe), 0, 0, 1, false, false, NULL, T_VBW },
	{ "probe-rate", 0, RB_OPT_U32, PRM(probe_rate), 0, 10, 100000, false, true, NULL, T_VBW },
	{ "wr-lat", 0, RB_OPT_FLAG, PRM(wr_lat), 0, 0, 1, false, false, NULL, T_VBW },
	{ "cq-per-qp", 0, RB_OPT_FLAG, PRM(cq_per_qp), 0, 0, 1, false, false, NULL, T_VBW },
	/* issue 42: lock's rows (lock is none of this test's commands) */
	{ "lock", 0, RB_OPT_AXIS, PRM(lock_algo), 0, 0, 1, false, false, "spin|ticket", T_LOCK },
	{ "locks", 0, RB_OPT_U32, PRM(locks), 0, 1, 4096, false, false, NULL, T_LOCK },
	{ "cs-bytes", 0, RB_OPT_U32, PRM(cs_bytes), 0, 0, 65536, false, true, NULL, T_LOCK },
	{ "hold", 0, RB_OPT_AXIS, PRM(hold_us), 0, 0, 1000000, false, false, NULL, T_LOCK },
	{ "backoff", 0, RB_OPT_STR, CLI(backoff_arg), sizeof(((struct rb_cli *)0)->backoff_arg), 0,
	  0, false, false, NULL, T_LOCK },
	/* issue 42: the lock from several client hosts */
	{ "run-id", 0, RB_OPT_U64, PRM(lock_run_id), 0, 1, UINT32_MAX, false, false, NULL, T_LOCK },
	{ "run-hosts", 0, RB_OPT_U32, PRM(lock_hosts), 0, 2, 64, false, false, NULL, T_LOCK },
	{ "events", 'e', RB_OPT_FLAG, PRM(poll), 0, 0, 1, false, false, NULL, T_VTESTS },
	{ "vector", 'X', RB_OPT_U32, LOC(comp_vector), 0, 0, 1023, false, false, NULL, T_VRUN },
	/* issue 40: extended CQ, CQ moderation */
	{ "cq-api", 0, RB_OPT_CHOICE, LOC(cq_api), 0, 0, 2, false, false, "auto|classic|ex",
	  T_VRUN },
	/* an axis since this round: COUNT << 16 | USEC, COUNT 1..65535 */
	{ "cq-moderation", 0, RB_OPT_AXIS, PRM(cq_mod), 0, 65536, 4294967295u, false, false, NULL,
	  T_VTESTS },
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
	  T_VRUN | T_TOPO | T_MATRIX },
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
	{ "json", 0, RB_OPT_STR, LOC(json_path), SZ(json_path), 0, 0, false, false, NULL, T_ALL },
	{ "out_json", 0, RB_OPT_FLAG, LOC(out_json), 0, 0, 1, false, false, NULL, T_ALL },
	{ "csv", 0, RB_OPT_STR, LOC(csv_path), SZ(csv_path), 0, 0, false, false, NULL, T_RUN },
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
const size_t n_wants = sizeof(wants) / sizeof(wants[0]);

const struct want *want_of(const char *lname)
{
	size_t i;

	for (i = 0; i < NWANTS; i++)
		if (!strcmp(wants[i].lname, lname))
			return &wants[i];
	return NULL;
}

const char *const bit_names[] = { "send_lat", "send_bw", "write_lat",  "write_bw",
				  "read_lat", "read_bw", "atomic_lat", "atomic_bw",
				  "server",   "topo",	 "atomic",     "matrix",
				  "reg",      "tcp_lat", "tcp_bw",     "lock" };
const size_t n_bit_names = sizeof(bit_names) / sizeof(bit_names[0]);

const char *cmd_of(unsigned int bit)
{
	size_t i;

	for (i = 0; i < NBITS; i++)
		if (bit == 1u << i)
			return bit_names[i];
	return "?";
}

unsigned int scope_of(unsigned int bit)
{
	struct rb_cmd cmd;

	if (!rb_cmd_find(cmd_of(bit), &cmd)) {
		print_error("command %s unknown to rb_cmd_find()\n", cmd_of(bit));
		fail();
	}
	return cmd.scope;
}

unsigned int applies_mask(const struct rb_opt *o)
{
	unsigned int m = 0;
	size_t i;

	for (i = 0; i < NBITS; i++)
		if (rb_opt_applies(o, scope_of(1u << i)))
			m |= 1u << i;
	return m;
}

const char *name_of(const struct want *w, char *buf, size_t len)
{
	if (w->sname)
		snprintf(buf, len, "-%c/--%s", w->sname, w->lname);
	else
		snprintf(buf, len, "--%s", w->lname);
	return buf;
}

static char pool[1 << 20];

static size_t pool_used;

char *keep(const char *s)
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

int parse_list(struct rb_cli *c, unsigned int bit, char *err, size_t len, const char *const *list)
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

int finish_list(struct rb_cli *c, unsigned int bit, char *err, size_t len, const char *const *list,
		const char *file, int line)
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

void check_ok_(int ret, const char *err, const char *what, const char *file, int line)
{
	if (ret) {
		print_error("%s: returned %d (err '%s'), want 0\n", what, ret, err);
		_fail(file, line);
	}
}

void check_err_(int ret, const char *err, const char *const *needles, const char *what,
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

void check_axis_(const struct rb_axis *a, const uint64_t *v, uint32_t n, const char *what,
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

uint64_t num_at(const struct rb_cli *c, const struct want *w)
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

const struct rb_axis *axis_at(const struct rb_cli *c, const struct want *w)
{
	return (const struct rb_axis *)((const char *)c + w->off);
}

uint8_t u8_at(const struct rb_cli *c, const struct want *w)
{
	return *((const uint8_t *)c + w->off);
}

const char *str_at(const struct rb_cli *c, const struct want *w)
{
	return (const char *)c + w->off;
}

unsigned int lowest_bit(unsigned int m)
{
	return m & -m;
}

int rb_opt_index(const char *lname)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++)
		if (!strcmp(rb_opts[i].lname, lname) ||
		    (rb_opts[i].alias && !strcmp(rb_opts[i].alias, lname)))
			return (int)i;
	return -1;
}

int row_index(const struct want *w)
{
	int i = rb_opt_index(w->lname);

	if (i < 0) {
		print_error("--%s: not in rb_opts\n", w->lname);
		fail();
	}
	return i;
}

void row_rejects(const struct want *w, const char *arg, const char *needle)
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

bool given_name(const struct rb_cli *c, const char *lname)
{
	int i = rb_opt_index(lname);

	assert_true(i >= 0);
	return c->given[i] != 0;
}

size_t given_rows(const struct rb_cli *c)
{
	size_t i, n = 0;

	for (i = 0; i < RB_OPTS_MAX; i++)
		n += c->given[i] != 0;
	return n;
}

void row_accepts(struct rb_cli *c, const struct want *w, const char *opt, const char *arg)
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
