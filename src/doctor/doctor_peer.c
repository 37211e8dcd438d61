// SPDX-License-Identifier: MIT
/*
 * rdmabench doctor HOST: the peer's own checks (a running rdmabench
 * server answers a HELLO for "doctor" with them, as JSON), what differs
 * between the two ends of the path, and three short runs across it.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli/opts.h"
#include "core/cmd.h"
#include "doctor/doctor.h"
#include "rdma/verbs.h"
#include "session/session.h"
#include "wire/oob.h"
#include "wire/wire.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/*
 * This end of the connection on @fd: the device and port whose GID table
 * holds its local address (as a test's session picks them), and what the
 * other end must agree with.  NULL when no device holds it (logged).
 */
static json_t *path_end(int fd)
{
	struct rb_dev_want w = { .gid_index = -1 };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct rb_dev d = { 0 };
	json_t *o;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		rb_err("doctor: getsockname: %m");
		return NULL;
	}
	w.local = (struct sockaddr *)&ss;
	if (rb_dev_open_want(&w, &d))
		return NULL;
	o = json_pack("{s:s, s:i, s:s, s:i, s:s, s:s}", "device", d.name, "port", d.port,
		      "link_layer", rb_link_layer_str(&d), "active_mtu",
		      128 << d.port_attr.active_mtu, "gid_type", d.gid_type, "fw_ver",
		      d.attr.fw_ver);
	rb_dev_close(&d);
	return o;
}

/* The server's side: its checks, and its end of @o's path. */
static int doctor_reply(const struct rb_oob *o, uint8_t *buf, size_t cap)
{
	struct rb_dr_report r = { 0 };
	struct rb_dr_env env;
	json_t *doc = NULL;
	char *text = NULL;
	int ret;

	rb_dr_env_live(&env, "/");
	ret = rb_dr_run(&env, NULL, &r);
	if (!ret)
		doc = rb_dr_json(&r, "/");
	if (doc)
		json_object_set_new(doc, "path", path_end(o->fd) ?: json_null());
	if (doc)
		text = json_dumps(doc, JSON_COMPACT);
	ret = text ? rb_pack_blob(text, strlen(text), buf, cap) : -ENOMEM;
	if (ret < 0)
		rb_err("doctor: cannot answer %s: %s", o->peer, strerror(-ret));
	free(text);
	json_decref(doc);
	rb_dr_report_free(&r);
	return ret;
}

const struct rb_service rb_doctor_service = {
	.name = "doctor",
	.type = RB_MSG_DOCTOR,
	.reply = doctor_reply,
};

/* HELLO "doctor" to @host, its DOCTOR back: the peer's document and this end. */
int rb_dr_ask(const char *host, uint16_t port, const char *bind, int wait_ms, json_t **peer,
	      json_t **mine)
{
	static uint8_t buf[RB_WIRE_MAX_BODY];
	struct rb_msg_hello h = { .test = "doctor" };
	struct rb_local l = { .host = host };
	struct rb_auth_chan chan;
	struct rb_auth_key key;
	char err[RB_TEXT_MAX];
	struct rb_oob o;
	json_error_t jerr;
	const char *text;
	uint32_t len;
	size_t n;
	int ret;

	*peer = *mine = NULL;
	snprintf(h.tool_version, sizeof(h.tool_version), "%s", PACKAGE_VERSION);
	/* --auth-key (RDMABENCH_AUTH_KEY): a keyed server's checks. */
	ret = rb_auth_local(&l, err, sizeof(err));
	if (ret) {
		rb_err("doctor: %s", err);
		return ret;
	}
	rb_auth_key_of(&l, &key);
	ret = rb_oob_connect(host, port, bind, wait_ms, &o);
	if (ret)
		return ret;
	/* The server reads its checks and opens its device first: seconds. */
	o.timeout_ms = 30000;
	ret = rb_oob_hello(&o, &h, &key, &chan);
	if (!ret)
		ret = rb_oob_expect(&o, RB_MSG_DOCTOR, buf, sizeof(buf), &len);
	if (!ret && rb_unpack_blob(buf, len, &text, &n)) {
		rb_err("doctor: %s sent a malformed DOCTOR", o.peer);
		ret = -EPROTO;
	}
	if (!ret && !(*peer = json_loadb(text, n, 0, &jerr))) {
		rb_err("doctor: %s's checks are not JSON: %s", o.peer, jerr.text);
		ret = -EPROTO;
	}
	if (!ret)
		*mine = path_end(o.fd);
	rb_oob_close(&o);
	return ret;
}

/* ---- what differs between the two ends: pure ------------------------------ */

static const struct {
	const char *key, *name;
	enum rb_dr_verdict v; /* when the ends differ */
	const char *why, *fix;
} path_rules[] = {
	{ "link_layer", "path_link_layer", RB_DR_FAIL,
	  "an InfiniBand port and an Ethernet (RoCE) port cannot reach each other",
	  "connect both ends through the same fabric, or name matching ports (-d, -i)" },
	{ "gid_type", "path_gid_type", RB_DR_FAIL,
	  "a RoCE v1 GID and a RoCE v2 GID do not talk to each other",
	  "give both sides a RoCE v2 GID: -x INDEX (see the roce_gid check)" },
	{ "active_mtu", "path_mtu", RB_DR_WARN,
	  "the path runs at the smaller MTU: more packets per message on the larger side",
	  "ip link set dev NETDEV mtu N on the side with the smaller MTU (the mtu check)" },
	{ "fw_ver", "path_firmware", RB_DR_WARN,
	  "different firmware behaves differently under load; measure like with like",
	  "update the older firmware with the vendor's tool (mstflint, mlxup)" },
};

static const char *jstr(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	return NULL;
}

int rb_dr_path_compare(json_t *mine, json_t *peer, struct rb_dr_report *r)
{
	char a[32], b[32], subj[48];
	size_t i;

	snprintf(subj, sizeof(subj), "%s/%s - %s/%s", jstr(mine, "device", a, 0) ?: "?",
		 jstr(mine, "port", a, sizeof(a)) ?: "?", jstr(peer, "device", b, 0) ?: "?",
		 jstr(peer, "port", b, sizeof(b)) ?: "?");
	for (i = 0; i < sizeof(path_rules) / sizeof(path_rules[0]); i++) {
		const char *x = jstr(mine, path_rules[i].key, a, sizeof(a));
		const char *y = jstr(peer, path_rules[i].key, b, sizeof(b));
		struct rb_dr_check *c = rb_dr_add(r, path_rules[i].name, subj);

		if (!c)
			return -ENOMEM;
		c->why = path_rules[i].why;
		snprintf(c->source, sizeof(c->source), "both ends' %s", path_rules[i].key);
		if (!x || !y || (!*x && !*y)) {
			snprintf(c->value, sizeof(c->value), "unknown on %s",
				 !x || !*x ? "this end" : "the peer");
			continue;
		}
		snprintf(c->value, sizeof(c->value), "%s here, %s on the peer", *x ? x : "none",
			 *y ? y : "none");
		c->v = strcmp(x, y) ? path_rules[i].v : RB_DR_OK;
		if (c->v != RB_DR_OK)
			snprintf(c->fix, sizeof(c->fix), "%s", path_rules[i].fix);
	}
	return 0;
}

/* ---- three short runs across the path ------------------------------------- */

struct run_out {
	bool got;
	struct rb_result res; /* the point (its diag pointer is not kept) */
	double link_gbps;
};

static void on_point(void *ctx, const struct rb_result *res, const struct rb_doc *rep)
{
	struct run_out *o = ctx;

	o->got = true;
	o->res = *res;
	o->res.diag = NULL;
	o->res.iv = NULL;
	o->link_gbps = rep->link_gbps;
}

static const struct {
	const char *test, *size, *iters;
} runs[] = {
	{ "send_lat", "64", "2000" },
	{ "write_bw", "65536", "1000" },
	{ "read_lat", "64", "2000" },
};

/* What a run says: latency percentiles, or bandwidth against the link's rate. */
static void run_verdict(struct rb_dr_check *c, const struct run_out *o)
{
	const struct rb_result *x = &o->res;

	if (x->has_lat)
		snprintf(c->value, sizeof(c->value), "p50 %.2f us, p99 %.2f us over %llu",
			 x->lat.p50, x->lat.p99, (unsigned long long)x->iters);
	else if (o->link_gbps > 0)
		snprintf(c->value, sizeof(c->value), "%.3f Gb/s, %.0f%% of the port's %.0f Gb/s",
			 x->bw_avg_gbps, 100 * x->bw_avg_gbps / o->link_gbps, o->link_gbps);
	else
		snprintf(c->value, sizeof(c->value), "%.3f Gb/s (the port's rate is unknown)",
			 x->bw_avg_gbps);
	c->v = RB_DR_OK;
	c->why = "a short run across the path, as a test would make it";
	if (!x->has_lat && o->link_gbps > 0 && x->bw_avg_gbps < 0.9 * o->link_gbps) {
		c->v = RB_DR_WARN;
		c->why = "64 KiB WRITEs fill a healthy link: this one gives less than 90% of its "
			 "rate";
		snprintf(c->fix, sizeof(c->fix),
			 "see the pcie, numa, irq and governor checks; then "
			 "rdmabench write_bw -s 64K --counters all HOST");
	}
	if (x->flag[0]) {
		c->v = RB_DR_WARN;
		snprintf(c->value + strlen(c->value), sizeof(c->value) - strlen(c->value),
			 "; counters: %s", x->flag);
		c->why = "an error counter moved during the run";
		snprintf(c->fix, sizeof(c->fix), "rdmabench %s --counters all HOST", c->subject);
	}
}

static int run_one(const char *host, const char *port, const char *bind, size_t i,
		   struct rb_dr_report *r)
{
	char *argv[14] = { (char *)runs[i].test,
			   "-s",
			   (char *)runs[i].size,
			   "-n",
			   (char *)runs[i].iters,
			   "-p",
			   (char *)port,
			   "--timeout",
			   "10" };
	int argc = 9;
	struct run_out o = { 0 };
	struct rb_session_hooks hooks = { .on_point = on_point, .on_point_ctx = &o };
	struct rb_dr_check *c = rb_dr_add(r, "run", runs[i].test);
	struct rb_cli *cli = calloc(1, sizeof(*cli));
	struct rb_cmd cmd;
	char err[256] = "";
	int ret = -ENOMEM;

	if (!c || !cli)
		goto out;
	if (bind) {
		argv[argc++] = "--bind";
		argv[argc++] = (char *)bind;
	}
	argv[argc++] = (char *)host;
	snprintf(c->source, sizeof(c->source), "rdmabench %s -s %s -n %s%s%s %s", runs[i].test,
		 runs[i].size, runs[i].iters, bind ? " --bind " : "", bind ? bind : "", host);
	rb_cli_init(cli);
	ret = rb_cmd_find(runs[i].test, &cmd) ? 0 : -ENOENT;
	if (!ret)
		ret = rb_cli_parse(cli, cmd.name, cmd.scope, argc, argv, err, sizeof(err));
	if (!ret)
		ret = rb_cli_finish(cli, cmd.bench, cmd.scope, err, sizeof(err));
	if (!ret)
		ret = rb_client(cmd.bench, &cli->p, &cli->l, &hooks);
	if (!ret && o.got) {
		run_verdict(c, &o);
	} else {
		c->v = RB_DR_FAIL;
		c->why = "the path does not carry a test";
		snprintf(c->value, sizeof(c->value), "%.180s", err[0] ? err : rb_last_error);
		snprintf(c->fix, sizeof(c->fix),
			 "rdmabench doctor on the peer, and the checks above");
	}
	ret = 0;
out:
	free(cli);
	return ret;
}

int rb_dr_runs(const char *host, uint16_t port, const char *bind, struct rb_dr_report *r)
{
	char p[8];
	size_t i;
	int ret = 0;

	snprintf(p, sizeof(p), "%u", port);
	for (i = 0; !ret && i < sizeof(runs) / sizeof(runs[0]); i++)
		ret = run_one(host, p, bind, i, r);
	return ret;
}
