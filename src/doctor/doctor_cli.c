// SPDX-License-Identifier: MIT
/*
 * `rdmabench doctor`: its options (parsed here, as compare's are: none of
 * the option table's apply but -d), the live environment, the table for
 * people and the JSON.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <infiniband/verbs.h>
#include <jansson.h>
#include <string.h>
#include <sys/resource.h>

#include "core/atomic_file.h"
#include "core/cmd.h"
#include "doctor/doctor.h"
#include "cli/opts.h"
#include "wire/auth.h"
#include "wire/plan.h"
#include "core/rdmabench.h"
#include "rdma/verbs.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* ---- the live environment ---------------------------------------------------- */

static int open_named(const char *dev, struct ibv_context **ctx)
{
	struct ibv_device **l;
	int n = 0, i;

	*ctx = NULL;
	l = ibv_get_device_list(&n);
	if (!l)
		return -errno;
	for (i = 0; i < n && !*ctx; i++)
		if (!strcmp(ibv_get_device_name(l[i]), dev))
			*ctx = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	return *ctx ? 0 : -ENODEV;
}

static int live_port_mtu(const char *dev, int port, int *active, int *max)
{
	struct ibv_context *ctx;
	struct ibv_port_attr pa;
	int ret = open_named(dev, &ctx);

	if (ret)
		return ret;
	ret = ibv_query_port(ctx, (uint8_t)port, &pa);
	if (!ret) {
		*active = 128 << pa.active_mtu; /* IBV_MTU_256 is 1 */
		*max = 128 << pa.max_mtu;
	}
	ibv_close_device(ctx);
	return -ret;
}

/* What rdmabench write_bw HOST locks with every default. */
static uint64_t default_need(void)
{
	char *argv[] = { "write_bw", "localhost", NULL }, err[256];
	struct rb_cli *c = calloc(1, sizeof(*c));
	struct rb_cmd cmd;
	uint64_t need = 0;

	if (c && rb_cmd_find("write_bw", &cmd)) {
		rb_cli_init(c);
		if (!rb_cli_parse(c, cmd.name, cmd.scope, 2, argv, err, sizeof(err)) &&
		    !rb_cli_finish(c, cmd.bench, cmd.scope, err, sizeof(err)))
			need = rb_plan_mem(&c->p);
	}
	free(c);
	return need;
}

void rb_dr_env_live(struct rb_dr_env *env, const char *root)
{
	struct rlimit rl;

	*env = (struct rb_dr_env){ .root = root ? root : "/",
				   .memlock = UINT64_MAX,
				   .memlock_need = default_need(),
				   .verbs_devices = rb_dev_count,
				   .verbs_version = rb_verbs_lib_version,
				   .port_mtu = live_port_mtu };
	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		env->memlock = rl.rlim_cur;
}

/* ---- output ---------------------------------------------------------------- */

static const char *check_name(const struct rb_dr_check *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", c->name, c->subject[0] ? " " : "", c->subject);
	return buf;
}

void rb_dr_print(FILE *f, const struct rb_dr_report *r)
{
	size_t i, n[4] = { 0 };
	char name[80];

	for (i = 0; i < r->n; i++) {
		const struct rb_dr_check *c = &r->c[i];

		n[c->v]++;
		fprintf(f, "%-4s  %-22s %s%s%s%s\n", rb_dr_verdict_name(c->v),
			check_name(c, name, sizeof(name)), c->value, c->source[0] ? " (" : "",
			c->source, c->source[0] ? ")" : "");
	}
	for (i = 0; i < r->n; i++) {
		const struct rb_dr_check *c = &r->c[i];

		if (c->v != RB_DR_WARN && c->v != RB_DR_FAIL)
			continue;
		fprintf(f, "\n%s %s: %s\n", rb_dr_verdict_name(c->v),
			check_name(c, name, sizeof(name)), c->why);
		if (c->fix[0])
			fprintf(f, "  fix: %s\n", c->fix);
	}
	fprintf(f, "\n# %zu check(s): %zu ok, %zu warn, %zu fail, %zu n/a\n", r->n, n[RB_DR_OK],
		n[RB_DR_WARN], n[RB_DR_FAIL], n[RB_DR_NA]);
}

static json_t *check_json(const struct rb_dr_check *c)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "check", c->name, "subject",
			 c->subject, "verdict", rb_dr_verdict_name(c->v), "value", c->value,
			 "source", c->source, "why", c->why, "fix",
			 c->fix[0] ? json_string(c->fix) : json_null());
}

json_t *rb_dr_json(const struct rb_dr_report *r, const char *root)
{
	json_t *checks = json_array(), *o;
	size_t i, n[4] = { 0 };
	int bad = !checks;

	for (i = 0; !bad && i < r->n; i++) {
		n[r->c[i].v]++;
		bad |= json_array_append_new(checks, check_json(&r->c[i]));
	}
	o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I}, s:o}",
		      "schema_version", RB_SCHEMA_VERSION, "tool", RB_TOOL, "version",
		      PACKAGE_VERSION, "command", "doctor", "root", root, "verdict",
		      rb_dr_verdict_name(rb_dr_worst(r)), "summary", "ok", (json_int_t)n[RB_DR_OK],
		      "warn", (json_int_t)n[RB_DR_WARN], "fail", (json_int_t)n[RB_DR_FAIL], "n/a",
		      (json_int_t)n[RB_DR_NA], "checks", checks);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "-": stdout; a file is written whole (atomic_file.h), or not at all. */
static int write_json(json_t *doc, const char *path)
{
	bool to_stdout = !strcmp(path, "-");
	struct rb_afile af;
	FILE *f = stdout;
	int ret = 0;

	if (!to_stdout)
		ret = rb_afile_open(&af, path, &f);
	if (!ret) {
		ret = json_dumpf(doc, f, RB_JSON_DUMP) || fputc('\n', f) == EOF ? -EIO : 0;
		if (to_stdout)
			ret = fflush(f) ? -EIO : ret;
		else
			ret = rb_afile_close(&af, f, ret);
	}
	if (ret)
		rb_err("%s: cannot write JSON: %s", path, strerror(-ret));
	return ret;
}

/* ---- options --------------------------------------------------------------- */

struct dr_opts {
	const char *dev, *root, *json;
	const char *host; /* doctor HOST: the peer's checks too */
	const char *bind; /* --bind: this side's address toward HOST */
	uint16_t port;
	bool no_runs;
};

static int doctor_fail(const char *msg)
{
	fprintf(stderr, "rdmabench doctor: %s\n", msg);
	return RB_EXIT_USAGE;
}

static int parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || !v || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/* doctor's command line, through its own option table (core/opts_row.h). */
struct dr_args {
	char dev[64], json[PATH_MAX], root[PATH_MAX], port[16], bind[256], auth_key[PATH_MAX];
	uint8_t no_runs, help;
};

#define DA(f)	offsetof(struct dr_args, f)
#define DSTR(f) .type = RB_OPT_STR, .off = DA(f), .size = sizeof(((struct dr_args *)0)->f)

#define STR_(x) #x
#define STR(x)	STR_(x)

static const struct rb_opt doctor_rows[] = {
	{ .lname = "ib-dev",
	  .alias = "device",
	  .sname = 'd',
	  DSTR(dev),
	  .argname = "DEV",
	  .def = "every one",
	  .help = "only this RDMA device" },
	{ .lname = "json",
	  DSTR(json),
	  .argname = "FILE",
	  .help = "also write the checks as JSON to FILE (\"-\": stdout only)" },
	{ .lname = "root",
	  DSTR(root),
	  .argname = "DIR",
	  .help = "read /sys, /proc and /dev under DIR (for tests)" },
	{ .lname = "port",
	  .sname = 'p',
	  DSTR(port),
	  .argname = "PORT",
	  .def = STR(RB_DEFAULT_PORT),
	  .help = "HOST's rdmabench server listens there" },
	{ .lname = "bind",
	  DSTR(bind),
	  .argname = "ADDR",
	  .help = "with HOST: leave from ADDR (the device holding it)" },
	{ .lname = "no-runs",
	  .type = RB_OPT_FLAG,
	  .off = DA(no_runs),
	  .max = 1,
	  .help = "with HOST: no short runs, checks only" },
	{ .lname = "auth-key",
	  DSTR(auth_key),
	  .argname = "FILE",
	  .def = "$RDMABENCH_AUTH_KEY",
	  .help = "with HOST: the key of a server run with --auth-key" },
	RB_OPT_HELP_ROW(DA(help)),
};

const struct rb_opt_table rb_doctor_table = { "doctor", doctor_rows,
					      sizeof(doctor_rows) / sizeof(doctor_rows[0]) };

/* --help: what doctor checks, its rows (rb_opt_help()), its exit status. */
void rb_doctor_usage(FILE *f)
{
	fputs("usage: rdmabench doctor [-d DEV] [--json FILE] [--root DIR]\n"
	      "       rdmabench doctor [-d DEV] [-p PORT] [--bind ADDR] [--no-runs]\n"
	      "                        [--auth-key FILE]\n"
	      "                        [--json FILE] HOST\n\n"
	      "Checks what on this host would spoil a benchmark: devices and ports, PCIe\n"
	      "link and neighbours, NUMA, interrupts, CPU governor and SMT, the memlock\n"
	      "limit, huge pages, THP, the IOMMU, RoCE GIDs, MTU and rp_filter, verbs and\n"
	      "rdma_cm.  One line per check (ok, warn, fail, n/a) with the value read and\n"
	      "its file, then why each warning matters and the command that fixes it.\n\n",
	      f);
	rb_opt_help(f, &rb_doctor_table, 20);
	fputs("\nWith HOST, a running rdmabench server: its own checks too, what differs\n"
	      "between the two ends of the path (link layer, GID type, MTU, firmware),\n"
	      "then send_lat, write_bw at 64 KiB and read_lat across it, write_bw\n"
	      "against the port's rate.\n\n"
	      "Exit status: 0 no check failed, 1 a check failed, 2 usage error.\n",
	      f);
}

/* 0 to go on, -1 after --help, else the exit status. */
static int doctor_opts(int argc, char **argv, struct dr_opts *o)
{
	static struct dr_args a; /* o's strings point into it */
	uint8_t given[sizeof(doctor_rows) / sizeof(doctor_rows[0])];
	char err[512];
	int first;

	memset(&a, 0, sizeof(a));
	first = rb_opt_parse(&rb_doctor_table, &a, given, argc, argv, err, sizeof(err));
	if (a.help)
		return -1;
	if (first < 0)
		return doctor_fail(err);
	o->dev = a.dev[0] ? a.dev : o->dev;
	o->json = a.json[0] ? a.json : o->json;
	o->root = a.root[0] ? a.root : o->root;
	o->bind = a.bind[0] ? a.bind : o->bind;
	o->no_runs = a.no_runs;
	/* rb_dr_ask() and the runs' clients read it there, as a launcher's. */
	if (a.auth_key[0] && setenv(RB_AUTH_ENV, a.auth_key, 1))
		return doctor_fail("--auth-key: cannot set RDMABENCH_AUTH_KEY");
	if (a.port[0] && parse_port(a.port, &o->port))
		return doctor_fail("-p/--port: a port number, 1..65535");
	if (first < argc)
		o->host = argv[first++];
	if (first < argc)
		return doctor_fail("one HOST at most (see --help)");
	if (o->host && strcmp(o->root, "/"))
		return doctor_fail("--root and HOST: the peer's checks are live, so are ours");
	return 0;
}

/* ---- doctor HOST -------------------------------------------------------------- */

static enum rb_dr_verdict verdict_of(const char *s)
{
	enum rb_dr_verdict v;

	for (v = RB_DR_OK; v <= RB_DR_NA; v++)
		if (s && !strcmp(s, rb_dr_verdict_name(v)))
			return v;
	return RB_DR_FAIL; /* a verdict this side does not know: not a pass */
}

static void copy_str(char *dst, size_t len, json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(dst, len, "%s", v ? v : "");
}

/* The peer's checks as a report of ours; its strings stay @doc's. */
static int report_from_json(json_t *doc, struct rb_dr_report *r)
{
	json_t *checks = json_object_get(doc, "checks"), *c;
	struct rb_dr_check *x;
	size_t i;

	json_array_foreach(checks, i, c)
	{
		const char *name = json_string_value(json_object_get(c, "check"));
		const char *why = json_string_value(json_object_get(c, "why"));

		x = rb_dr_add(r, name ? name : "?",
			      json_string_value(json_object_get(c, "subject")) ?: "");
		if (!x)
			return -ENOMEM;
		x->v = verdict_of(json_string_value(json_object_get(c, "verdict")));
		x->why = why ? why : "";
		copy_str(x->value, sizeof(x->value), c, "value");
		copy_str(x->source, sizeof(x->source), c, "source");
		copy_str(x->fix, sizeof(x->fix), c, "fix");
	}
	return 0;
}

/* The peer's checks into @peer, the path's and the runs' into @between. */
static int doctor_peer(const struct dr_opts *o, json_t **doc, struct rb_dr_report *peer,
		       struct rb_dr_report *between)
{
	json_t *mine = NULL, *theirs;
	struct rb_dr_check *c;
	int ret = rb_dr_ask(o->host, o->port, o->bind, 5000, doc, &mine);

	if (ret)
		return ret;
	ret = report_from_json(*doc, peer);
	theirs = json_object_get(*doc, "path");
	if (!ret && mine && json_is_object(theirs)) {
		ret = rb_dr_path_compare(mine, theirs, between);
	} else if (!ret && (c = rb_dr_add(between, "path", ""))) {
		c->why = "the two ends are compared through the devices that hold the address";
		snprintf(c->value, sizeof(c->value), "no RDMA device holds %s's address",
			 mine ? "the peer" : "this side");
	}
	json_decref(mine);
	if (!ret && !o->no_runs)
		ret = rb_dr_runs(o->host, o->port, o->bind, between);
	return ret;
}

static enum rb_dr_verdict worst3(const struct rb_dr_report *a, const struct rb_dr_report *b,
				 const struct rb_dr_report *c)
{
	enum rb_dr_verdict v[3] = { rb_dr_worst(a), rb_dr_worst(b), rb_dr_worst(c) };
	int i;

	for (i = 0; i < 3; i++)
		if (v[i] == RB_DR_FAIL)
			return RB_DR_FAIL;
	for (i = 0; i < 3; i++)
		if (v[i] == RB_DR_WARN)
			return RB_DR_WARN;
	return RB_DR_OK;
}

/* The JSON of doctor HOST: ours, with the peer's document and "between". */
static json_t *peer_json(const struct rb_dr_report *r, json_t *peer,
			 const struct rb_dr_report *between)
{
	json_t *doc = rb_dr_json(r, "/"), *b = rb_dr_json(between, "/");
	int bad = !doc || !b;

	if (!bad)
		bad |= json_object_set(doc, "peer", peer) ||
		       json_object_set(doc, "between", json_object_get(b, "checks"));
	json_decref(b);
	if (bad) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static void print_peer(const struct dr_opts *o, const struct rb_dr_report *r,
		       const struct rb_dr_report *peer, const struct rb_dr_report *between)
{
	printf("# this host\n");
	rb_dr_print(stdout, r);
	printf("\n# %s (its rdmabench server's checks)\n", o->host);
	rb_dr_print(stdout, peer);
	printf("\n# between them\n");
	rb_dr_print(stdout, between);
}

/* ---- output, and the command's flow ---------------------------------------- */

static int output(const struct dr_opts *o, const struct rb_dr_report *r, json_t *peer,
		  const struct rb_dr_report *pr, const struct rb_dr_report *between)
{
	json_t *doc;
	int ret = 0;

	if (!o->json || strcmp(o->json, "-")) {
		if (o->host)
			print_peer(o, r, pr, between);
		else
			rb_dr_print(stdout, r);
	}
	if (!o->json)
		return 0;
	doc = o->host ? peer_json(r, peer, between) : rb_dr_json(r, o->root);
	ret = doc ? write_json(doc, o->json) : -ENOMEM;
	json_decref(doc);
	return ret;
}

int rb_doctor_main(int argc, char **argv)
{
	struct dr_opts o = { .root = "/", .port = RB_DEFAULT_PORT };
	struct rb_dr_report r = { 0 }, pr = { 0 }, between = { 0 };
	json_t *peer = NULL;
	bool peer_failed = false;
	struct rb_dr_env env;
	int ret = doctor_opts(argc, argv, &o);

	if (ret) {
		if (ret < 0)
			rb_doctor_usage(stdout);
		return ret < 0 ? RB_EXIT_OK : ret;
	}
	rb_dr_env_live(&env, o.root);
	ret = rb_dr_run(&env, o.dev, &r);
	if (ret == -ENOMEM) /* rb_dev_read() logs its own errors */
		rb_err("doctor: %s", strerror(-ret));
	/* A peer that cannot be asked: this host's checks still, and exit 1. */
	if (!ret && o.host && doctor_peer(&o, &peer, &pr, &between)) {
		o.host = NULL;
		peer_failed = true;
	}
	if (!ret && output(&o, &r, peer, &pr, &between))
		ret = -EIO;
	if (!ret && !peer_failed)
		ret = worst3(&r, &pr, &between) == RB_DR_FAIL ? RB_EXIT_FAIL : RB_EXIT_OK;
	else
		ret = RB_EXIT_FAIL;
	json_decref(peer);
	rb_dr_report_free(&r);
	rb_dr_report_free(&pr);
	rb_dr_report_free(&between);
	return ret;
}

void rb_doctor_list_options(FILE *f)
{
	rb_opt_list(f, &rb_doctor_table);
}
