// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "plan.h"
#include "sweep.h"

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

#define OFF(f) offsetof(struct rb_cli, f)
#define PAR(f) (offsetof(struct rb_cli, p) + offsetof(struct rb_params, f))
#define STR(f) OFF(f), sizeof(((struct rb_cli *)0)->f)

/* Options that shape the data path, and the tests that take them. */
#define T_SENDWRITE (RB_T_SEND_LAT | RB_T_SEND_BW | RB_T_WRITE_LAT | RB_T_WRITE_BW)

const struct rb_opt rb_opts[] = {
	/* what to measure: sent to the server, which adopts it */
	{ "size", 's', RB_OPT_AXIS, PAR(size), 0, 1, RB_MAX_SIZE, false, true, NULL, "SIZES",
	  "2 (lat), 65536 (bw), 8 (atomic)", RB_T_TESTS,
	  "message size in bytes: a value, a list or a range (64,4K or 2..8M:x2); K/M/G are "
	  "powers of 1024" },
	{ "all", 'a', RB_OPT_FLAG, OFF(all), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_SEND_LAT | RB_T_SEND_BW | RB_T_WRITE_LAT | RB_T_WRITE_BW | RB_T_READ_LAT |
		  RB_T_READ_BW,
	  "sweep sizes 2..8M:x2, as perftest -a" },
	{ "iters", 'n', RB_OPT_U64, PAR(iters), 0, 1, 1ULL << 40, false, true, NULL, "N",
	  "1000 (lat), 5000 (bw)", RB_T_TESTS, "measured iterations per point" },
	{ "duration", 'D', RB_OPT_U32, PAR(duration_s), 0, 1, 86400, false, false, NULL, "SEC",
	  NULL, RB_T_TESTS,
	  "measure each point for SEC seconds instead of -n iterations; percentiles stay "
	  "exact over all samples" },
	{ "warmup", 0, RB_OPT_U64, PAR(warmup), 0, 0, 1ULL << 32, false, true, NULL, "N", "100",
	  RB_T_TESTS, "unmeasured iterations before each point" },
	{ "tx-depth", 't', RB_OPT_AXIS, PAR(tx_depth), 0, 1, 32768, false, true, NULL, "DEPTHS",
	  "128", RB_T_TESTS, "send queue depth per QP (an axis)" },
	{ "rx-depth", 'r', RB_OPT_U32, PAR(rx_depth), 0, 1, 32768, false, true, NULL, "N", "512",
	  RB_T_SEND_LAT | RB_T_SEND_BW, "receive queue depth: receives kept posted per QP" },
	{ "qps", 'q', RB_OPT_AXIS, PAR(qps), 0, 1, RB_MAX_QPS, false, false, NULL, "NS", "1",
	  RB_T_BW, "RC QPs, used round-robin, sharing one CQ (an axis)" },
	{ "inline", 'I', RB_OPT_U32, PAR(inline_size), 0, 0, 65536, false, true, NULL, "N",
	  "220 (send_lat, write_lat), 0 (others)", T_SENDWRITE,
	  "send messages up to N bytes inline (capped by what the QP accepts); 0: never" },
	{ "batch", 'l', RB_OPT_AXIS, PAR(batch), 0, 1, 4096, false, false, NULL, "NS", "1", RB_T_BW,
	  "WRs chained per ibv_post_send (an axis)" },
	{ "signal", 'Q', RB_OPT_AXIS, PAR(signal), 0, 1, 4096, false, false, NULL, "NS", "64",
	  RB_T_BW,
	  "one signaled WR every N, the rest unsignaled (an axis); at most --tx-depth. "
	  "Latency tests signal every WR and reap lazily" },
	{ "outstanding", 'o', RB_OPT_U32, PAR(outstanding), 0, 1, 65536, false, false, NULL, "N",
	  "max_qp_rd_atom", RB_T_READ_BW | RB_T_ATOMIC_BW,
	  "reads or atomics in flight per QP, clamped to the devices' max_qp_rd_atom" },
	{ "op", 0, RB_OPT_CHOICE, OFF(op), 0, 0, 1, false, false, "fadd|cswap", "OP", "fadd",
	  RB_T_ATOMIC_LAT | RB_T_ATOMIC_BW, "atomic operation: fetch-and-add or compare-and-swap" },
	{ "mode", 0, RB_OPT_CHOICE, OFF(mode), 0, 0, 1, false, false, "lat|bw", "MODE", "lat",
	  RB_T_ATOMIC_LAT | RB_T_ATOMIC_BW, "atomic: measure latency or bandwidth" },
	{ "verify", 0, RB_OPT_FLAG, PAR(verify), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_TESTS,
	  "fill buffers with a pattern and check what arrives; a mismatch names size, offset "
	  "and iteration and exits 1" },
	{ "rdma-cm", 'R', RB_OPT_FLAG, PAR(use_cm), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_TESTS,
	  "connect the QPs through librdmacm (route, GID and path from the CM) instead of the "
	  "out-of-band exchange" },
	{ "mtu", 0, RB_OPT_U32, PAR(mtu), 0, 256, 4096, true, false, NULL, "BYTES",
	  "the ports' active MTU", RB_T_TESTS, "path MTU: 256, 512, 1024, 2048 or 4096" },
	/* where: local to each side */
	{ "device", 'd', RB_OPT_STR, STR(device), 0, 0, false, false, NULL, "DEV",
	  "the device holding the out-of-band connection's local address, else the first with "
	  "an active port",
	  RB_T_ALL, "RDMA device, as ibv_devices names it" },
	{ "ib-port", 'i', RB_OPT_I32, OFF(ib_port), 0, 1, 255, false, false, NULL, "PORT",
	  "the port holding the local address, else 1", RB_T_RUN, "device port" },
	{ "gid-index", 'x', RB_OPT_I32, OFF(gid_index), 0, 0, 4095, false, false, NULL, "INDEX",
	  "the RoCE v2 GID holding the out-of-band connection's local address, else the first "
	  "RoCE v2 GID of the peer's family, then RoCE v1; none (LID) on InfiniBand",
	  RB_T_RUN, "GID table index" },
	{ "bind", 0, RB_OPT_STR, STR(bind), 0, 0, false, false, NULL, "ADDR",
	  "the routing's choice", RB_T_RUN,
	  "local address of the out-of-band connection: a server listens only there, a client "
	  "connects from it; the device and GID that hold it carry the test (one NIC per rail)" },
	{ "port", 'p', RB_OPT_U32, OFF(tcp_port), 0, 1, 65535, false, false, NULL, "PORT", "18515",
	  RB_T_RUN, "TCP port of the out-of-band exchange" },
	{ "timeout", 0, RB_OPT_U32, OFF(timeout_s), 0, 1, 3600, false, false, NULL, "SEC", "30",
	  RB_T_RUN, "give up when the peer says nothing or no completion arrives for SEC seconds" },
	{ "cpu", 0, RB_OPT_STR, STR(cpu), 0, 0, false, false, NULL, "auto|none|LIST", "auto",
	  RB_T_RUN,
	  "bind the measuring thread: auto picks a core on the device's NUMA node, unless an "
	  "affinity is already set (taskset)" },
	{ "numa", 0, RB_OPT_STR, STR(numa), 0, 0, false, false, NULL, "auto|none|N", "auto",
	  RB_T_RUN, "memory node for buffers: auto is the device's node" },
	/* output */
	{ "json", 0, RB_OPT_STR, STR(json_path), 0, 0, false, false, NULL, "FILE", NULL, RB_T_ALL,
	  "also write results as JSON to FILE, rewritten whole after every point" },
	{ "csv", 0, RB_OPT_STR, STR(csv_path), 0, 0, false, false, NULL, "FILE", NULL, RB_T_RUN,
	  "also write results as CSV to FILE, rewritten whole after every point" },
	{ "format", 0, RB_OPT_CHOICE, OFF(format), 0, 0, 2, false, false, "table|csv|json", "FMT",
	  "table", RB_T_RUN, "what stdout shows" },
	{ "units", 0, RB_OPT_CHOICE, OFF(units), 0, 0, 2, false, false, "MiB/s|Gb/s|MB/s", "UNIT",
	  "MiB/s", RB_T_BW | RB_T_SERVER, "bandwidth unit in the table (CSV and JSON carry both)" },
	{ "recommend", 0, RB_OPT_FLAG, OFF(recommend), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_BW,
	  "after a batch/signal sweep, print per size the smallest batch and largest signal "
	  "interval within 5% of the best message rate" },
	{ "quiet", 0, RB_OPT_FLAG, OFF(quiet), 0, 0, 1, false, false, NULL, NULL, NULL, RB_T_ALL,
	  "no progress or informational notes on stderr" },
	{ "verbose", 'v', RB_OPT_FLAG, OFF(verbose), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_ALL, "say what is set up (device, QPs, MR) on stderr" },
	{ "help", 'h', RB_OPT_FLAG, OFF(help), 0, 0, 1, false, false, NULL, NULL, NULL, RB_T_ALL,
	  "this help" },
	{ "version", 'V', RB_OPT_FLAG, OFF(version), 0, 0, 1, false, false, NULL, NULL, NULL,
	  RB_T_ALL, "print the version" },
};

const size_t rb_nopts = sizeof(rb_opts) / sizeof(rb_opts[0]);

int rb_opt_index(const char *lname)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++)
		if (!strcmp(rb_opts[i].lname, lname))
			return (int)i;
	return -1;
}

bool rb_cli_given(const struct rb_cli *c, const char *lname)
{
	int i = rb_opt_index(lname);

	return i >= 0 && (c->given >> i) & 1;
}

void rb_cli_init(struct rb_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->ib_port = 1;
	c->gid_index = -1;
	c->tcp_port = RB_DEFAULT_PORT;
	c->timeout_s = 30;
	c->p.warmup = 100;
	c->p.rx_depth = 512;
	strcpy(c->cpu, "auto");
	strcpy(c->numa, "auto");
}

/* "-s/--size" or "--warmup": how messages name an option. */
const char *rb_opt_name(const struct rb_opt *o, char *buf, size_t len)
{
	if (o->sname)
		snprintf(buf, len, "-%c/--%s", o->sname, o->lname);
	else
		snprintf(buf, len, "--%s", o->lname);
	return buf;
}

int rb_opt_check_range(const struct rb_opt *o, uint64_t v, char *err, size_t len)
{
	char n[40];

	if (v < o->min || v > o->max)
		return fail(err, len, "%s %llu is out of range (%llu..%llu)",
			    rb_opt_name(o, n, sizeof(n)), (unsigned long long)v,
			    (unsigned long long)o->min, (unsigned long long)o->max);
	if (o->pow2 && (v & (v - 1)))
		return fail(err, len, "%s %llu is not a power of two", rb_opt_name(o, n, sizeof(n)),
			    (unsigned long long)v);
	return 0;
}

static int parse_choice(const struct rb_opt *o, const char *arg, uint8_t *out, char *err,
			size_t len)
{
	const char *p = o->choices;
	char n[40];
	uint8_t i;

	for (i = 0; *p; i++) {
		size_t l = strcspn(p, "|");

		if (strlen(arg) == l && !strncmp(p, arg, l)) {
			*out = i;
			return 0;
		}
		p += l + (p[l] == '|');
	}
	return fail(err, len, "%s '%s' is not one of %s", rb_opt_name(o, n, sizeof(n)), arg,
		    o->choices);
}

static int parse_number(const struct rb_opt *o, const char *arg, uint64_t *v, char *err, size_t len)
{
	const char *end;
	char n[40];
	int ret;

	ret = rb_parse_u64(arg, o->suffix, v, &end);
	if (ret || *end)
		return fail(err, len, "%s '%s' is not %s", rb_opt_name(o, n, sizeof(n)), arg,
			    ret == -ERANGE ? "in range"
			    : o->suffix	   ? "a number (K/M/G suffixes allowed)"
					   : "a number");
	return rb_opt_check_range(o, *v, err, len);
}

static int parse_axis(const struct rb_opt *o, const char *arg, struct rb_axis *a, char *err,
		      size_t len)
{
	char msg[160], n[40];
	uint32_t i;
	int ret;

	ret = rb_axis_parse(arg, o->suffix, a, msg, sizeof(msg));
	if (ret)
		return fail(err, len, "%s: %s", rb_opt_name(o, n, sizeof(n)), msg);
	for (i = 0; i < a->n; i++) {
		ret = rb_opt_check_range(o, a->v[i], err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* Store @arg into the field of row @o. */
static int set_opt(struct rb_cli *c, const struct rb_opt *o, const char *arg, char *err, size_t len)
{
	char *field = (char *)c + o->off, n[40];
	uint64_t v = 0;
	int ret = 0;

	switch (o->type) {
	case RB_OPT_FLAG:
		*(uint8_t *)field = 1;
		return 0;
	case RB_OPT_STR:
		if (strlen(arg) >= o->size)
			return fail(err, len, "%s: '%s' is longer than %zu characters",
				    rb_opt_name(o, n, sizeof(n)), arg, o->size - 1);
		strcpy(field, arg);
		return 0;
	case RB_OPT_CHOICE:
		return parse_choice(o, arg, (uint8_t *)field, err, len);
	case RB_OPT_AXIS:
		return parse_axis(o, arg, (struct rb_axis *)field, err, len);
	default:
		ret = parse_number(o, arg, &v, err, len);
		break;
	}
	if (ret)
		return ret;
	if (o->type == RB_OPT_U64)
		*(uint64_t *)field = v;
	else if (o->type == RB_OPT_U32)
		*(uint32_t *)field = (uint32_t)v;
	else
		*(int32_t *)field = (int32_t)v;
	return 0;
}

/* getopt_long tables built from rb_opts[]. */
static void build_getopt(struct option *lo, char *so)
{
	size_t i;

	*so++ = ':'; /* report a missing argument as ':' */
	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		lo[i] = (struct option){ o->lname,
					 o->type == RB_OPT_FLAG ? no_argument : required_argument,
					 NULL, 1000 + (int)i };
		if (o->sname) {
			*so++ = (char)o->sname;
			if (o->type != RB_OPT_FLAG)
				*so++ = ':';
		}
	}
	lo[i] = (struct option){ 0 };
	*so = '\0';
}

static int row_of(int ch)
{
	size_t i;

	if (ch >= 1000)
		return ch - 1000;
	for (i = 0; i < rb_nopts; i++)
		if (rb_opts[i].sname == ch)
			return (int)i;
	return -1;
}

/* "--s" matches --size and --signal: name them. */
static int ambiguous(const char *arg, char *err, size_t len)
{
	size_t i, l, used = 0, hits = 0;
	char names[160] = "";

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	l = strcspn(arg, "=");
	for (i = 0; i < rb_nopts; i++) {
		if (strncmp(rb_opts[i].lname, arg, l) || used >= sizeof(names))
			continue;
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s--%s",
					 hits++ ? ", " : "", rb_opts[i].lname);
	}
	if (hits < 2)
		return 0;
	return fail(err, len, "option --%.*s is ambiguous: %s", (int)l, arg, names);
}

static int bad_option(const char *cmd, int ch, char **argv, char *err, size_t len)
{
	const char *arg = argv[optind - 1];

	if (ch == ':')
		return fail(err, len, "%s needs an argument", arg);
	if (optopt >= 1000 && optopt < 1000 + (int)rb_nopts)
		return fail(err, len, "--%s takes no argument", rb_opts[optopt - 1000].lname);
	if (optopt && optopt < 1000)
		return fail(err, len, "unknown option -%c for %s (see rdmabench %s --help)", optopt,
			    cmd, cmd);
	if (ambiguous(arg, err, len))
		return -EINVAL;
	return fail(err, len, "unknown option %s for %s (see rdmabench %s --help)", arg, cmd, cmd);
}

int rb_cli_parse(struct rb_cli *c, const char *cmd, unsigned int test_bit, int argc, char **argv,
		 char *err, size_t errlen)
{
	struct option lo[sizeof(rb_opts) / sizeof(rb_opts[0]) + 1];
	char so[3 * sizeof(rb_opts) / sizeof(rb_opts[0]) + 2], n[40];
	int ch, row, ret;

	build_getopt(lo, so);
	optind = 0; /* glibc: 0 also forgets a half-parsed group like -zv */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		row = row_of(ch);
		if (ch == '?' || ch == ':' || row < 0)
			return bad_option(cmd, ch, argv, err, errlen);
		if (!(rb_opts[row].tests & test_bit))
			return fail(err, errlen, "%s does not apply to %s",
				    rb_opt_name(&rb_opts[row], n, sizeof(n)), cmd);
		/* The last of two values silently winning hides a typo. */
		if (c->given >> row & 1)
			return fail(err, errlen, "%s given twice",
				    rb_opt_name(&rb_opts[row], n, sizeof(n)));
		ret = set_opt(c, &rb_opts[row], optarg, err, errlen);
		if (ret)
			return ret;
		c->given |= 1ULL << row;
	}
	if (optind < argc)
		c->host = argv[optind++];
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s' (one server host at most)",
			    argv[optind]);
	if (c->host && (test_bit & (RB_T_SERVER | RB_T_TOPO)))
		return fail(err, errlen, "%s takes no host argument ('%s')", cmd, c->host);
	return 0;
}

static void axis_default(struct rb_cli *c, const char *lname, struct rb_axis *a, uint64_t v)
{
	if (!rb_cli_given(c, lname))
		rb_axis_set1(a, v);
}

/* Test-dependent defaults, as perftest users expect them. */
/* The smallest value of @a, and at most @cap. */
static uint64_t smallest(const struct rb_axis *a, uint64_t cap)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] < cap)
			cap = a->v[i];
	return cap;
}

static void apply_defaults(struct rb_cli *c, unsigned int bit)
{
	bool lat = bit & RB_T_LAT, atomic = bit & (RB_T_ATOMIC_LAT | RB_T_ATOMIC_BW);

	if (c->all)
		rb_axis_parse("2..8M:x2", true, &c->p.size, (char[8]){ 0 }, 8);
	else
		axis_default(c, "size", &c->p.size, atomic ? 8 : lat ? 2 : 65536);
	axis_default(c, "tx-depth", &c->p.tx_depth, 128);
	axis_default(c, "batch", &c->p.batch, 1);
	axis_default(c, "qps", &c->p.qps, 1);
	/* Bandwidth: mostly unsignaled, as perftest; never more than the
	 * smallest depth, which the user may have lowered.  Latency tests
	 * signal every WR but reap lazily, so no post waits for an ACK. */
	axis_default(c, "signal", &c->p.signal, lat ? 1 : smallest(&c->p.tx_depth, 64));
	if (!rb_cli_given(c, "iters") && !c->p.duration_s)
		c->p.iters = lat ? 1000 : 5000;
	if (!rb_cli_given(c, "inline") && (bit & (RB_T_SEND_LAT | RB_T_WRITE_LAT)))
		c->p.inline_size = 220;
	c->p.atomic_op = c->op;
}

/* Combinations of what was typed; the plan's own rules are plan.c's. */
static int check_combinations(const struct rb_cli *c, char *err, size_t len)
{
	if (rb_cli_given(c, "iters") && rb_cli_given(c, "duration"))
		return fail(err, len, "-n/--iters and -D/--duration exclude each other");
	if (c->all && rb_cli_given(c, "size"))
		return fail(err, len, "-a/--all and -s/--size exclude each other");
	if (c->recommend && c->p.batch.n < 2 && c->p.signal.n < 2)
		return fail(err, len, "--recommend needs a sweep over -l/--batch or -Q/--signal");
	return 0;
}

int rb_cli_finish(struct rb_cli *c, const char *test, unsigned int test_bit, char *err,
		  size_t errlen)
{
	char n[40];
	uint32_t i;
	int ret;

	/* "atomic" took the options of both modes; --mode chose one. */
	for (i = 0; i < rb_nopts; i++)
		if ((c->given >> i & 1) && !(rb_opts[i].tests & test_bit))
			return fail(err, errlen, "%s does not apply to %s",
				    rb_opt_name(&rb_opts[i], n, sizeof(n)), test);
	snprintf(c->p.test, sizeof(c->p.test), "%s", test);
	apply_defaults(c, test_bit);
	ret = check_combinations(c, err, errlen);
	/* The rest is what a server checks in a plan from the wire too. */
	return ret ? ret : rb_plan_validate(&c->p, 0, err, errlen);
}

/* The plan's fields, and the flags that shape it, are the client's. */
static bool client_only(const struct rb_opt *o)
{
	size_t p = offsetof(struct rb_cli, p);

	return (o->off >= p && o->off < p + sizeof(struct rb_params)) || o->off == OFF(all) ||
	       o->off == OFF(op) || o->off == OFF(mode) || o->off == OFF(recommend);
}

void rb_cli_client_only(const struct rb_cli *c, char *buf, size_t len)
{
	size_t i, used = 0;
	char n[40];

	buf[0] = '\0';
	for (i = 0; i < rb_nopts && used < len; i++)
		if ((c->given >> i & 1) && client_only(&rb_opts[i]))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 rb_opt_name(&rb_opts[i], n, sizeof(n)));
}

static void usage_line(FILE *f, const struct rb_opt *o)
{
	char head[64];
	const char *sep = o->argname ? " " : "";

	if (o->sname)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", o->sname, o->lname, sep,
			 o->argname ? o->argname : "");
	else
		snprintf(head, sizeof(head), "    --%s%s%s", o->lname, sep,
			 o->argname ? o->argname : "");
	fprintf(f, "  %-28s %s", head, o->help);
	if (o->def)
		fprintf(f, " [default: %s]", o->def);
	fputc('\n', f);
}

void rb_usage(FILE *f, const char *cmd, unsigned int test_bit)
{
	size_t i;

	if (test_bit & RB_T_TESTS)
		fprintf(f,
			"usage: rdmabench %s [options]          (server: waits for one client)\n"
			"       rdmabench %s [options] HOST     (client: measures against "
			"HOST)\n\noptions for %s:\n",
			cmd, cmd, cmd);
	else
		fprintf(f, "usage: rdmabench %s [options]\n\noptions:\n", cmd);
	for (i = 0; i < rb_nopts; i++)
		if (rb_opts[i].tests & test_bit)
			usage_line(f, &rb_opts[i]);
}

/* Escape what troff would take as markup: '-' and '\\'. */
static void man_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* The subcommands an option applies to, for the man page. */
static void man_tests(FILE *f, unsigned int tests)
{
	static const char *const names[] = { "send_lat", "send_bw", "write_lat",  "write_bw",
					     "read_lat", "read_bw", "atomic_lat", "atomic_bw",
					     "server",	 "topo" };
	const char *sep = "";
	size_t i;

	if ((tests & RB_T_ALL) == RB_T_ALL)
		return;
	fputs(" Applies to: ", f);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (tests & (1u << i)) {
			fprintf(f, "%s", sep);
			man_text(f, names[i]);
			sep = ", ";
		}
	fputs(".", f);
}

void rb_man_options(FILE *f)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		fputs(".TP\n", f);
		if (o->sname)
			fprintf(f, "\\fB\\-%c\\fR, ", o->sname);
		fputs("\\fB\\-\\-", f);
		man_text(f, o->lname);
		fputs("\\fR", f);
		if (o->argname) {
			fputs(" \\fI", f);
			man_text(f, o->argname);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		man_text(f, o->help);
		fputc('.', f);
		if (o->def) {
			fputs(" Default: ", f);
			man_text(f, o->def);
			fputc('.', f);
		}
		man_tests(f, o->tests);
		fputc('\n', f);
	}
}

void rb_list_options(FILE *f, unsigned int test_bit)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		if (!(o->tests & test_bit))
			continue;
		fprintf(f, "--%s\t", o->lname);
		if (o->sname)
			fprintf(f, "-%c", o->sname);
		fprintf(f, "\t%s\t%s\n", o->argname ? o->argname : "", o->choices ? o->choices : "");
	}
}
