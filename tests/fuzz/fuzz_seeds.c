// SPDX-License-Identifier: MIT
/*
 * Writes the fuzz targets' seed corpus and dictionaries into DIR
 * (tests/fuzz in the source tree: `make fuzz-seeds`).  Every seed is
 * made by the real code -- command lines through rb_cli_parse() and
 * rb_cli_finish(), messages through the rb_pack_*() packers -- so the
 * seeds are valid inputs of this version, and rewriting them after a
 * format change is one command.  The dictionaries list the option table's
 * names and choices.
 *
 *   usage: fuzz_seeds DIR     writes DIR/corpus/TARGET/NAME and DIR/NAME.dict
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cmd.h"
#include "cli/opts.h"
#include "core/bench.h"
#include "wire/auth.h"
#include "wire/matrix_wire.h"
#include "wire/auth.h"
#include "wire/wire.h"

/* An input under construction: selector byte(s), then content. */
struct seed {
	uint8_t b[RB_WIRE_MAX_BODY + 64];
	size_t n;
};

static const char *top;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fuzz_seeds: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void mkdirs(const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/corpus", top);
	if (mkdir(path, 0777) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/corpus/%s", top, target);
	if (mkdir(path, 0777) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
}

static void save(const char *target, const char *name, const struct seed *s)
{
	char path[512];
	FILE *f;

	mkdirs(target);
	snprintf(path, sizeof(path), "%s/corpus/%s/%s", top, target, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->b, 1, s->n, f) != s->n || fclose(f))
		die("cannot write %s", path);
}

static void add(struct seed *s, const void *p, size_t n)
{
	if (n > sizeof(s->b) - s->n)
		die("seed too large");
	if (!n)
		return;
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void add_byte(struct seed *s, uint8_t v)
{
	add(s, &v, 1);
}

/* A whole frame: header and body. */
static void add_frame(struct seed *s, uint16_t type, const uint8_t *body, int len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	if (len < 0)
		die("a packer failed");
	rb_hdr_pack(hdr, type, (uint32_t)len);
	add(s, hdr, sizeof(hdr));
	add(s, body, (size_t)len);
}

/* ---- plans, from command lines as a client types them ------------------ */

struct line {
	const char *name; /* seed name */
	const char *cmd;  /* the command */
	const char *args; /* space-separated */
};

static const struct line lines[] = {
	{ "send_lat", "send_lat",
	  "-s 2,4096 -n 300 --cpu none 192.0.2.1 --json out.json --csv out.csv" },
	{ "send_lat-all", "send_lat", "-a -n 1000 --verify 192.0.2.1" },
	{ "send_bw", "send_bw",
	  "-s 64..1K:x4 -q 1,2 -r 256 -t 64 -Q 16 -c UD -S 3 --tclass 96 --flow-label 777 host" },
	{ "write_lat", "write_lat", "-I 0 -D 2 --warmup 10 -R -c UC --tos 32 10.0.0.1" },
	{ "write_bw", "write_bw", "-s 64,4K,64K -l 1,16 -Q 1,16 -n 2000 --recommend 192.0.2.1" },
	{ "read_lat", "read_lat", "-s 1M --mtu 1024 -d rxe0 -i 1 -x 1 -p 18601 host" },
	{ "read_bw", "read_bw", "-s 65536 -o 16 -t 128 -Q 64 -l 1 --units Gb/s host" },
	{ "atomic", "atomic", "--op cswap --mode bw -o 4 -q 2 192.0.2.1" },
	{ "atomic_lat", "atomic_lat", "-n 500 --op fadd host" },
	{ "atomic_bw", "atomic_bw", "-D 1 -Q 8 --format json host" },
	{ "server", "server", "--port 18515 --timeout 60 --cpu 0 --numa 0 --quiet" },
	{ "oneshot", "send_lat", "--cpu auto --quiet" },
	{ "topo", "topo", "-d mlx5_0 --json topo.json" },
	{ "help", "write_bw", "--help" },
	{ "send_bw_b", "send_bw", "-s 64..64K:x4 -q 1,2 -r 256 -t 64 -Q 16 -b host" },
	{ "write_bw_threads", "write_bw", "--threads 2 -s 64K -n 100 host" },
	{ "send_bw_event", "send_bw", "--poll event -X 1 -s 64 -Q 1 --rate 20Mbps host" },
	{ "read_lat_e", "read_lat", "-e host" },
	{ "write_bw_probe", "write_bw", "--probe --probe-rate 2K -s 64K -D 2 host" },
	{ "reg", "reg",
	  "-s 4K..1M:x4 -n 10 --hugepages --odp-mode implicit --access local-write,remote-read "
	  "--unaligned -d rxe0 --json reg.json --csv reg.csv" },
	{ "send_lat_axes", "send_lat",
	  "--poll busy,event --cqe-poll 1,16 --recommend p99<=20us host" },
	{ "write_bw_cqe", "write_bw", "--cqe_poll 16,64 -l 16 -Q 1 --recommend=rate>=1Mpps host" },
	{ "tcp_lat", "tcp_lat", "-s 2,64K -n 1000 --bind 192.0.2.2 host" },
	{ "tcp_bw", "tcp_bw", "-s 64..64K:x4 -D 2 --threads 2 host" },
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* The byte that makes fuzz_cli pick command @name: its index in cmd.h's order. */
static uint8_t cmd_index(const char *name)
{
	struct rb_cmd cmd;
	uint8_t i;

	for (i = 0; rb_cmd_at(i, &cmd); i++)
		if (!strcmp(cmd.name, name))
			return i;
	die("no command %s", name);
	return 0;
}

/* argv of @l in @buf (modified), argv[0] the command. */
static int split(const struct line *l, char *buf, size_t len, char **argv, int max)
{
	int argc = 0;
	char *tok;

	snprintf(buf, len, "%s %s", l->cmd, l->args);
	for (tok = strtok(buf, " "); tok && argc < max - 1; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

/* fuzz_cli input: command byte, then the arguments NUL-separated. */
static void write_cli_seeds(void)
{
	char buf[512], *argv[64];
	struct seed s;
	size_t i;
	int argc, a;

	for (i = 0; i < NLINES; i++) {
		argc = split(&lines[i], buf, sizeof(buf), argv, 64);
		s.n = 0;
		add_byte(&s, cmd_index(lines[i].cmd));
		for (a = 1; a < argc; a++)
			add(&s, argv[a], strlen(argv[a]) + (a + 1 < argc));
		save("fuzz_cli", lines[i].name, &s);
	}
}

/* The plan a client command line sends; false for servers and --help. */
static bool plan_of(const struct line *l, struct rb_params *p)
{
	char buf[512], *argv[64], err[256];
	const struct rb_bench *b;
	struct rb_cmd cmd;
	struct rb_cli c;
	int argc;

	argc = split(l, buf, sizeof(buf), argv, 64);
	if (!rb_cmd_find(l->cmd, &cmd))
		die("%s: no command %s", l->name, l->cmd);
	rb_cli_init(&c);
	if (rb_cli_parse(&c, argv[0], cmd.scope, argc, argv, err, sizeof(err)))
		die("%s: %s", l->name, err);
	if (!c.l.host || c.help)
		return false;
	b = cmd.kind == RB_CMD_FAMILY ? rb_family_pick(cmd.name, c.mode ? RB_MODE_BW : RB_MODE_LAT)
				      : cmd.bench;
	if (rb_cli_finish(&c, b, cmd.scope, err, sizeof(err)))
		die("%s: %s", l->name, err);
	*p = c.p;
	return true;
}

/* ---- messages ---------------------------------------------------------- */

struct msgs {
	uint8_t hello[128], params[RB_WIRE_MAX_BODY], conn[4096], conn_probe[4096], start[32],
		stop[32], result[512], text[300];
	int nhello, nparams, nconn, nconn_probe, nstart, nstop, nresult, ntext, ndata;
	uint8_t data[256];
};

/* The CONN of a rxe peer with two QPs (its lists static, made anew each call). */
static struct rb_msg_conn seed_conn(void)
{
	static struct rb_qp_info qps[2];
	static struct rb_mr_info mrs[1];
	struct rb_msg_conn c = { .mtu = 1024,
				 .max_rd_atom = 128,
				 .rkey = 0x1234,
				 .addr = 0x7f0000001000ULL,
				 .len = 65536,
				 .nqp = 2,
				 .link_layer = 2, /* IBV_LINK_LAYER_ETHERNET */
				 .nmr = 1,
				 .qp = qps,
				 .mr = mrs };
	uint32_t i;

	mrs[0] = (struct rb_mr_info){ 0x7f0000001000ULL, 0x1234 };
	for (i = 0; i < c.nqp; i++) {
		c.qp[i] = (struct rb_qp_info){ .qpn = 17 + i, .psn = 0x123456 + i, .lid = 0 };
		memcpy(c.qp[i].gid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\xc0\x00\x02\x01", 16);
	}
	c.place = (struct rb_placement){
		.device_numa_node = 1, .cpus = "1", .mem_node = 1, .local = 1
	};
	return c;
}

static void make_msgs(struct msgs *m, const struct rb_params *p)
{
	struct rb_msg_hello h = { .tool_version = "0.1.0" };
	struct rb_msg_conn c = seed_conn();
	struct rb_msg_sync start = { .point = 0, .what = RB_SYNC_START };
	struct rb_msg_sync stop = { .point = 0, .what = RB_SYNC_STOP, .count = 1100 };
	/* v14: the server's setup figures ride on its RESULT; v15 its
	 * wake-ups (--poll event). */
	struct rb_msg_result r = { .point = 0,
				   .iters = 1000,
				   .bw_avg_gbps = 12.5,
				   .cpu_util_pct = 99.5,
				   .has_setup = true,
				   .setup_qps = 1,
				   .setup_create_ms = 0.5,
				   .setup_connect_ms = 1.25,
				   .has_wakeups = true,
				   .wakeups = 250 };
	struct rb_msg_text t = { "client interrupted at point 1 of 3" };

	snprintf(h.test, sizeof(h.test), "%s", p->test);
	m->nhello = rb_pack_hello(&h, m->hello, sizeof(m->hello));
	m->nparams = rb_pack_params(p, m->params, sizeof(m->params));
	m->nconn = rb_pack_conn(&c, m->conn, sizeof(m->conn));
	m->ndata = rb_pack_data(&(struct rb_msg_data){ .port = 40000,
						       .sndbuf = 16384,
						       .rcvbuf = 131072,
						       .nodelay = 1,
						       .ifname = "eth1",
						       .place = c.place },
				m->data, sizeof(m->data));
	/* --probe: CONN closes with the probe's QP. */
	c.has_probe = 1;
	c.probe_qp = c.qp[0];
	c.probe_qp.qpn++;
	m->nconn_probe = rb_pack_conn(&c, m->conn_probe, sizeof(m->conn_probe));
	m->nstart = rb_pack_sync(&start, m->start, sizeof(m->start));
	m->nstop = rb_pack_sync(&stop, m->stop, sizeof(m->stop));
	m->nresult = rb_pack_result(&r, m->result, sizeof(m->result));
	m->ntext = rb_pack_text(&t, m->text, sizeof(m->text));
}

/* fuzz_wire input: selector (0 header, 1..6 type), then the bytes. */
static void wire_seed(const char *name, uint8_t sel, const uint8_t *b, int len)
{
	struct seed s = { .n = 0 };

	if (len < 0)
		die("%s: a packer failed", name);
	add_byte(&s, sel);
	add(&s, b, (size_t)len);
	save("fuzz_wire", name, &s);
}

/* v13: the chunks after a CONN of 2049 QPs and MRs (fuzz_wire's selector 9). */
static void write_more_seeds(void)
{
	static uint8_t b[RB_WIRE_MAX_BODY];
	struct rb_msg_conn c;
	char name[32];
	uint32_t i, k;

	if (rb_conn_alloc(&c, 2049, 2049))
		die("conn-more: no memory");
	for (i = 0; i < c.nqp; i++) {
		c.qp[i] = (struct rb_qp_info){ .qpn = 17 + i, .psn = i, .lid = 0 };
		c.mr[i] = (struct rb_mr_info){ 0x7f0000001000ULL + 0x20000ULL * i, 0x1234 + i };
	}
	for (k = 0; k < rb_conn_chunks(&c); k++) {
		snprintf(name, sizeof(name), "conn-more%u", k);
		wire_seed(name, 9, b, rb_pack_conn_more(&c, k, b, sizeof(b)));
	}
	rb_conn_free(&c);
}

static void write_wire_seeds(const struct msgs *m)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	rb_hdr_pack(hdr, RB_MSG_PARAMS, (uint32_t)m->nparams);
	wire_seed("header", 0, hdr, sizeof(hdr));
	wire_seed("hello", RB_MSG_HELLO, m->hello, m->nhello);
	/* v18: a keyed client's HELLO (--auth-key: flag and nonce), its AUTH. */
	{
		struct rb_msg_hello h = { .tool_version = "0.1.0", .test = "write_bw", .auth = 1 };
		uint8_t b[256], tag[RB_AUTH_TAG_LEN];

		memset(h.nonce, 0xa5, sizeof(h.nonce));
		memset(tag, 0x5a, sizeof(tag));
		wire_seed("hello-auth", RB_MSG_HELLO, b, rb_pack_hello(&h, b, sizeof(b)));
		wire_seed("auth", 10, b, rb_auth_pack(h.nonce, tag, b, sizeof(b)));
	}
	wire_seed("params", RB_MSG_PARAMS, m->params, m->nparams);
	wire_seed("conn", RB_MSG_CONN, m->conn, m->nconn);
	wire_seed("conn-probe", RB_MSG_CONN, m->conn_probe, m->nconn_probe);
	write_more_seeds();
	wire_seed("sync", RB_MSG_SYNC, m->stop, m->nstop);
	wire_seed("result", RB_MSG_RESULT, m->result, m->nresult);
	wire_seed("error", RB_MSG_ERROR, m->text, m->ntext);
	wire_seed("data", 7, m->data, m->ndata); /* fuzz_wire's selector for DATA */
	/* fuzz_wire's selector 8: a DOCTOR's blob (doctor HOST). */
	{
		static const char doc[] = "{\"command\":\"doctor\",\"checks\":[]}";
		uint8_t b[64];

		wire_seed("doctor", 8, b, rb_pack_blob(doc, sizeof(doc) - 1, b, sizeof(b)));
	}
}

/*
 * What the lab's lying peers sent (issue 28), for the peer checks: CONN
 * with a non-MTU, a 25-bit QPN, a NUMA node of 2^31-1, local 99, an
 * escape sequence as its cpus; RESULT with -100% CPU and 1e308 Gb/s.
 */
static void write_lying_seeds(void)
{
	static const uint32_t mtus[] = { 0, 100, 5000 };
	struct rb_msg_result r = { .iters = 1000, .bw_avg_gbps = 1e308, .cpu_util_pct = -100 };
	uint8_t b[4096];
	struct rb_msg_conn c;
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(mtus) / sizeof(mtus[0]); i++) {
		c = seed_conn();
		c.mtu = mtus[i];
		snprintf(name, sizeof(name), "conn-mtu%u", mtus[i]);
		wire_seed(name, RB_MSG_CONN, b, rb_pack_conn(&c, b, sizeof(b)));
	}
	c = seed_conn();
	c.qp[1].qpn = 0x1000011;
	wire_seed("conn-qpn25", RB_MSG_CONN, b, rb_pack_conn(&c, b, sizeof(b)));
	c = seed_conn();
	c.place.device_numa_node = 2147483647;
	c.place.local = 99;
	wire_seed("conn-numa", RB_MSG_CONN, b, rb_pack_conn(&c, b, sizeof(b)));
	c = seed_conn();
	snprintf(c.place.cpus, sizeof(c.place.cpus), "\033[2J0");
	wire_seed("conn-esc", RB_MSG_CONN, b, rb_pack_conn(&c, b, sizeof(b)));
	wire_seed("result-lies", RB_MSG_RESULT, b, rb_pack_result(&r, b, sizeof(b)));
}

/* fuzz_oob input: mode (0 recv, 1..8 expect that type), then the stream. */
static void write_oob_seeds(const struct msgs *m)
{
	struct seed s;

	/* What a server reads from a client, start to end. */
	s.n = 0;
	add_byte(&s, 0);
	add_frame(&s, RB_MSG_HELLO, m->hello, m->nhello);
	add_frame(&s, RB_MSG_PARAMS, m->params, m->nparams);
	add_frame(&s, RB_MSG_CONN, m->conn, m->nconn);
	add_frame(&s, RB_MSG_SYNC, m->start, m->nstart);
	add_frame(&s, RB_MSG_SYNC, m->stop, m->nstop);
	add_frame(&s, RB_MSG_BYE, NULL, 0);
	save("fuzz_oob", "client-stream", &s);

	/* What a client reads: OK, OK, CONN, RESULT, then the server's ERROR. */
	s.n = 0;
	add_byte(&s, 0);
	add_frame(&s, RB_MSG_OK, NULL, 0);
	add_frame(&s, RB_MSG_OK, NULL, 0);
	add_frame(&s, RB_MSG_CONN, m->conn, m->nconn);
	add_frame(&s, RB_MSG_RESULT, m->result, m->nresult);
	add_frame(&s, RB_MSG_ERROR, m->text, m->ntext);
	save("fuzz_oob", "server-stream", &s);

	/* A step that expects SYNC and gets them, then an ERROR. */
	s.n = 0;
	add_byte(&s, RB_MSG_SYNC);
	add_frame(&s, RB_MSG_SYNC, m->start, m->nstart);
	add_frame(&s, RB_MSG_SYNC, m->stop, m->nstop);
	add_frame(&s, RB_MSG_ERROR, m->text, m->ntext);
	save("fuzz_oob", "expect-sync", &s);

	/* A step that expects PARAMS; the stream ends inside the body. */
	s.n = 0;
	add_byte(&s, RB_MSG_PARAMS);
	add_frame(&s, RB_MSG_PARAMS, m->params, m->nparams);
	s.n -= 5;
	save("fuzz_oob", "expect-params-cut", &s);
}

/* fuzz_plan input: budget byte (0 none), then a PARAMS body. */
static void write_plan_seeds(void)
{
	uint8_t body[RB_WIRE_MAX_BODY];
	struct rb_params p;
	struct seed s;
	char name[64];
	size_t i;
	int n;

	for (i = 0; i < NLINES; i++) {
		if (!plan_of(&lines[i], &p))
			continue;
		/* A run of threads: thread 1's plan, with the run id threads.c draws. */
		if (p.threads > 1) {
			p.thread = 1;
			p.run_id = 0x5eed5eed5eed5eedULL;
		}
		n = rb_pack_params(&p, body, sizeof(body));
		if (n < 0)
			die("%s: rb_pack_params failed", lines[i].name);
		s.n = 0;
		/* No budget; and 1 GiB (2^(10 + 20)). */
		add_byte(&s, i % 2 ? 20 : 0);
		add(&s, body, (size_t)n);
		snprintf(name, sizeof(name), "%s%s", lines[i].name, i % 2 ? "-1G" : "");
		save("fuzz_plan", name, &s);
	}
}

/* fuzz_axis input: suffix byte (bit 0), then the argument. */
static void write_axis_seeds(void)
{
	static const struct {
		const char *name, *arg;
		bool suffix;
	} axes[] = {
		{ "list", "64,4K,1M", true },
		{ "doubling", "2..8M:x2", true },
		{ "adding", "1..64:+8", false },
		{ "one", "128", false },
		{ "mixed", "1,2..16:x2,100..400:+100", false },
	};
	struct seed s;
	size_t i;

	for (i = 0; i < sizeof(axes) / sizeof(axes[0]); i++) {
		s.n = 0;
		add_byte(&s, axes[i].suffix);
		add(&s, axes[i].arg, strlen(axes[i].arg));
		save("fuzz_axis", axes[i].name, &s);
	}
}

/* fuzz_cpus input: print buffer size - 1, then a --cpu list. */
static void write_cpus_seeds(void)
{
	static const struct {
		const char *name, *arg;
		uint8_t len;
	} lists[] = {
		{ "one", "1", 127 },	      { "ranges", "0-3,8", 127 },
		{ "spaces", "0 2 4-7", 127 }, { "cut", "0,2,4,6,8,10,12,14,16,18,20", 15 },
		{ "wide", "0-65535", 127 },
	};
	struct seed s;
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		s.n = 0;
		add_byte(&s, lists[i].len);
		add(&s, lists[i].arg, strlen(lists[i].arg));
		save("fuzz_cpus", lists[i].name, &s);
	}
}

/* ---- dictionaries ------------------------------------------------------ */

static void dict_word(FILE *f, const char *w, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++)
		if (w[i] == '"' || w[i] == '\\' || w[i] < ' ' || w[i] > '~')
			fprintf(f, "\\x%02x", (unsigned char)w[i]);
		else
			fputc(w[i], f);
	fputs("\"\n", f);
}

static FILE *open_dict(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	fprintf(f, "# libFuzzer dictionary, written by tests/fuzz/fuzz_seeds.c\n");
	return f;
}

static const char *const axis_words[] = { "..", ":x", ":+", ",", "K", "M", "G", "k", "0" };

static void write_dicts(void)
{
	char w[64];
	const char *c;
	size_t i, l;
	FILE *f = open_dict("cli.dict");

	for (i = 0; i < rb_nopts; i++) {
		snprintf(w, sizeof(w), "--%s", rb_opts[i].lname);
		dict_word(f, w, strlen(w));
		if (rb_opts[i].sname) {
			snprintf(w, sizeof(w), "-%c", rb_opts[i].sname);
			dict_word(f, w, strlen(w));
		}
		for (c = rb_opts[i].choices; c && *c; c += l + (c[l] == '|')) {
			l = strcspn(c, "|");
			dict_word(f, c, l);
		}
	}
	dict_word(f, "\0", 1);
	dict_word(f, "192.0.2.1", 9);
	for (i = 0; i < sizeof(axis_words) / sizeof(axis_words[0]); i++)
		dict_word(f, axis_words[i], strlen(axis_words[i]));
	if (fclose(f))
		die("cannot write cli.dict");
	f = open_dict("axis.dict");
	for (i = 0; i < sizeof(axis_words) / sizeof(axis_words[0]); i++)
		dict_word(f, axis_words[i], strlen(axis_words[i]));
	if (fclose(f))
		die("cannot write axis.dict");
}

/* fuzz_matrix input: selector (0 JOIN, 1 ROUND, 2 tick, 3 RESULT), then the body. */
static void matrix_seed(const char *name, uint8_t sel, const uint8_t *b, int len)
{
	struct seed s = { .n = 0 };

	if (len < 0)
		die("%s: a packer failed", name);
	add_byte(&s, sel);
	add(&s, b, (size_t)len);
	save("fuzz_matrix", name, &s);
}

static void write_matrix_seeds(void)
{
	static struct rb_mx_round r = { .round = 3, .ntasks = 2 };
	struct rb_mx_join j = { .proto = RB_MX_PROTO, .rank = 2, .nranks = 4, .local = 1 };
	struct rb_mx_report rep = { .round = 3, .pair = 7, .role = RB_MX_RUN, .has_res = 1 };
	struct rb_mx_tick t = { .round = 3, .pair = 7 };
	static uint8_t b[RB_WIRE_MAX_BODY];

	snprintf(j.tool_version, sizeof(j.tool_version), "0.1.0");
	snprintf(j.test, sizeof(j.test), "write_bw");
	snprintf(j.host, sizeof(j.host), "node03");
	snprintf(j.device, sizeof(j.device), "mlx5_1");
	snprintf(j.addr, sizeof(j.addr), "10.0.0.3");
	matrix_seed("join", 0, b, rb_mx_pack_join(&j, b, sizeof(b)));
	r.task[0] = (struct rb_mx_task){ .pair = 6, .role = RB_MX_SERVE, .peer = 1, .port = 18516 };
	r.task[1] = (struct rb_mx_task){ .pair = 7, .role = RB_MX_RUN, .peer = 3, .port = 18517 };
	snprintf(r.task[1].addr, sizeof(r.task[1].addr), "10.0.0.4");
	matrix_seed("round", 1, b, rb_mx_pack_round(&r, b, sizeof(b)));
	matrix_seed("tick", 2, b, rb_mx_pack_tick(&t, b, sizeof(b)));
	snprintf(rep.device, sizeof(rep.device), "mlx5_1");
	snprintf(rep.place.cpus, sizeof(rep.place.cpus), "0-7");
	rep.res.has_bw = true;
	rep.res.bw_avg_gbps = 97.5;
	rep.res.pt.size = 1048576;
	matrix_seed("result", 3, b, rb_mx_pack_report(&rep, b, sizeof(b)));
}

int main(int argc, char **argv)
{
	struct rb_params p;
	struct msgs m;

	if (argc != 2)
		die("usage: fuzz_seeds DIR (tests/fuzz in the source tree)");
	top = argv[1];
	write_cli_seeds();
	/* The messages carry write_bw's sweep. */
	if (strcmp(lines[4].name, "write_bw") || !plan_of(&lines[4], &p))
		die("no plan for the message seeds");
	make_msgs(&m, &p);
	write_wire_seeds(&m);
	write_lying_seeds();
	write_oob_seeds(&m);
	write_plan_seeds();
	write_axis_seeds();
	write_cpus_seeds();
	write_matrix_seeds();
	write_dicts();
	return 0;
}
