// SPDX-License-Identifier: MIT
/*
 * Unit tests for --dry-run's formatter (src/dryrun.c): plans made by the
 * real option parser, with the live part (device, placement) filled in by
 * hand, formatted as text and JSON; the memory a plan needs, and what the
 * device's limits would refuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "session/dryrun.h"
#include "cli/opts.h"

struct fixture {
	struct rb_cli c;
	struct rb_dryrun d;
	struct rb_placement place; /* d.place's one thread */
	char *text;
	size_t len;
	char args[512]; /* what argv points into: the host stays there */
};

/* "TEST ARGS..." through rb_cli_parse() and, with a host, rb_cli_finish(). */
static void plan(struct fixture *fx, const char *test, const char *args)
{
	char *argv[32], *save = NULL, *tok;
	const struct rb_bench *b = rb_bench_find(test);
	unsigned int scope = rb_bench_scope(b);
	char err[256] = "";
	int argc = 0;

	memset(fx, 0, sizeof(*fx));
	snprintf(fx->args, sizeof(fx->args), "%s %s", test, args);
	for (tok = strtok_r(fx->args, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	rb_cli_init(&fx->c);
	assert_int_equal(rb_cli_parse(&fx->c, test, scope, argc, argv, err, sizeof(err)), 0);
	fx->d = (struct rb_dryrun){ .cmd = test, .l = &fx->c.l, .version = "9.9" };
	fx->d.dev.gid_index = -1;
	fx->d.dev.want_gid = fx->c.l.gid_index;
	fx->d.dev.want_name = fx->c.l.device[0] ? fx->c.l.device : NULL;
	fx->d.role = fx->c.l.host ? RB_ROLE_CLIENT : RB_ROLE_SERVER;
	if (fx->c.l.host) {
		assert_int_equal(rb_cli_finish(&fx->c, b, scope, err, sizeof(err)), 0);
		fx->d.b = b;
		fx->d.p = &fx->c.p;
		snprintf(fx->d.local_addr, sizeof(fx->d.local_addr), "192.0.2.2");
	}
	fx->d.pt_ignored = fx->c.pt.ignored;
	fx->d.place.known = true;
	fx->d.place.n = 1;
	fx->d.place.place = &fx->place;
	fx->place = (struct rb_placement){
		.device_numa_node = 0, .cpus = "2", .mem_node = 0, .local = 1, .freq_cpu = -1
	};
}

/* A RoCE device that can do anything the tests below ask. */
static void roce(struct rb_dry_dev *v)
{
	v->found = true;
	snprintf(v->name, sizeof(v->name), "rxe0");
	v->port = 1;
	snprintf(v->link_layer, sizeof(v->link_layer), "Ethernet");
	v->active_mtu = 1024;
	v->gid_index = 1;
	snprintf(v->gid_type, sizeof(v->gid_type), "RoCE v2");
	snprintf(v->gid, sizeof(v->gid), "::ffff:192.0.2.2");
	snprintf(v->why_gid, sizeof(v->why_gid), "RoCE v2 GID 1 holds 192.0.2.2");
	v->max_msg_sz = 1u << 31;
	v->max_qp_wr = 16384;
	v->max_cqe = 32768;
	v->max_qp_rd_atom = 128;
	v->atomics = true;
}

static void text(struct fixture *fx)
{
	FILE *f = open_memstream(&fx->text, &fx->len);

	assert_non_null(f);
	assert_int_equal(rb_dry_text(&fx->d, f), 0);
	fclose(f);
}

static void has(const struct fixture *fx, const char *needle)
{
	if (!strstr(fx->text, needle))
		fail_msg("'%s' not in:\n%s", needle, fx->text);
}

static json_t *path(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	return b ? json_object_get(v, b) : v;
}

static void sweep_points_listed(void **state)
{
	struct fixture fx;
	json_t *doc, *pts;

	(void)state;
	plan(&fx, "write_bw", "-s 64,4K -l 1,4 -q 2 hostB");
	roce(&fx.d.dev);
	text(&fx);
	has(&fx, "points      4, each of 5000 iterations");
	has(&fx, "      1         64      1     64    2      128     100         5000\n");
	has(&fx, "      4         4K      4     64    2      128     100         5000\n");
	has(&fx, "client of hostB, TCP port 18515, from 192.0.2.2");
	has(&fx, "problems    none found before connecting");
	doc = rb_dry_json(&fx.d);
	pts = json_object_get(doc, "points");
	assert_int_equal(json_array_size(pts), 4);
	/* Size varies fastest, as the run measures them. */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(pts, 1), "size")), 4096);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(pts, 2), "batch")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(pts, 3), "qps")), 2);
	assert_true(json_is_true(json_object_get(doc, "dry_run")));
	assert_string_equal(json_string_value(json_object_get(doc, "test")), "write_bw");
	assert_string_equal(json_string_value(path(doc, "params", "transport")), "RC");
	assert_int_equal(json_array_size(json_object_get(doc, "problems")), 0);
	json_decref(doc);
	free(fx.text);
}

/* --op is atomic's: lock's atomics are its algorithm's, and its plan
 * names no op (it said "fadd", the unused default). */
static void lock_names_no_op(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "lock", "-q 2 hostB");
	roce(&fx.d.dev);
	text(&fx);
	has(&fx, "test        lock: lock WR, latency, over RC");
	doc = rb_dry_json(&fx.d);
	assert_null(json_object_get(doc, "op"));
	json_decref(doc);
	free(fx.text);
	plan(&fx, "atomic_lat", "hostB");
	roce(&fx.d.dev);
	text(&fx);
	has(&fx, "(fadd)");
	free(fx.text);
}

static void device_and_gid(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "send_lat", "-d rxe0 -x 1 hostB");
	roce(&fx.d.dev);
	text(&fx);
	has(&fx, "device      rxe0 port 1 (Ethernet, active MTU 1024), GID 1 ::ffff:192.0.2.2 "
		 "(RoCE v2)\n");
	has(&fx, "RoCE v2 GID 1 holds 192.0.2.2");
	has(&fx, "MTU the port's (1024)");
	has(&fx, "placement   --cpu auto, --numa auto: device on NUMA node 0, thread 0 on CPUs 2; "
		 "buffers on node 0 (local)");
	doc = rb_dry_json(&fx.d);
	assert_string_equal(json_string_value(path(doc, "device", "name")), "rxe0");
	assert_int_equal(json_integer_value(path(doc, "device", "gid_index")), 1);
	assert_string_equal(json_string_value(path(path(doc, "device", "requested"), "name", NULL)),
			    "rxe0");
	assert_int_equal(
		json_integer_value(path(path(doc, "device", "requested"), "gid_index", NULL)), 1);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(path(doc, "placement", "threads"), 0), "cpus")),
			    "2");
	json_decref(doc);
	free(fx.text);
}

static void no_device_said(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "read_bw", "-d mlx5_0 hostB");
	snprintf(fx.d.dev.note, sizeof(fx.d.dev.note), "no RDMA device on this host");
	text(&fx);
	has(&fx, "device      no RDMA device on this host\n");
	has(&fx, "problems    no RDMA device on this host\n");
	doc = rb_dry_json(&fx.d);
	assert_true(json_is_false(path(doc, "device", "found")));
	assert_true(json_is_null(path(doc, "device", "name")));
	assert_string_equal(json_string_value(path(path(doc, "device", "requested"), "name", NULL)),
			    "mlx5_0");
	assert_int_equal(json_array_size(json_object_get(doc, "problems")), 1);
	/* The rest of the plan is there all the same. */
	assert_int_equal(json_array_size(json_object_get(doc, "points")), 1);
	json_decref(doc);
	free(fx.text);
}

static void memory_sized(void **state)
{
	struct fixture fx;
	struct rb_dry_mem m;

	(void)state;
	plan(&fx, "write_bw", "-s 1M -q 4 --mr-per-qp hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.nqp, 4);
	assert_int_equal(m.nmr, 4);
	assert_int_equal(m.region, 1 << 20);
	assert_int_equal(m.buffers, 8 << 20);
	assert_int_equal(m.recv_wr, 0);
	assert_int_equal(m.cqe, 4 * 128);
	assert_true(m.total >= m.buffers);
	/* Receives count in the CQ once with an SRQ, per QP without. */
	plan(&fx, "send_bw", "-q 2 -r 256 --srq hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.cqe, 2 * 128 + 256);
	plan(&fx, "send_bw", "-q 2 -r 256 hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.cqe, 2 * (128 + 256));
	assert_int_equal(m.ncq, 1);
	/* --cq-per-qp: one QP's (the SRQ's receives all in each). */
	plan(&fx, "send_bw", "-q 2 -r 256 --cq-per-qp hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.ncq, 2);
	assert_int_equal(m.cqe, 128 + 256);
	plan(&fx, "send_bw", "-q 2 -r 256 --srq --cq-per-qp hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.cqe, 128 + 256);
	/* A UD receive starts with the GRH; huge pages round the buffers up. */
	plan(&fx, "send_lat", "-c UD -s 64 --hugepages hostB");
	rb_dry_mem(fx.d.b, fx.d.p, &m);
	assert_int_equal(m.region, 128);
	assert_int_equal(m.buffers, 2 << 20);
}

/* "sent": every plan option set, from the rows, as a command line would say it. */
static void sent_from_rows(void **state)
{
	struct fixture fx;

	(void)state;
	plan(&fx, "write_bw", "-n 1000 -c UC --wr-lat --cq-per-qp --probe --probe-rate 2000 hostB");
	roce(&fx.d.dev);
	text(&fx);
	has(&fx, "sent        --iters 1000 --warmup auto --rx-depth 512 --threads 1 --transport UC "
		 "--probe --probe-rate 2000 --wr-lat --cq-per-qp\n");
	free(fx.text);
}

static void limits_checked(void **state)
{
	char pr[RB_DRY_PROBLEMS][RB_DRY_NOTE];
	struct fixture fx;

	(void)state;
	plan(&fx, "write_bw", "-s 4K -t 512 hostB");
	roce(&fx.d.dev);
	fx.d.dev.max_msg_sz = 1024;
	fx.d.dev.max_qp_wr = 256;
	fx.d.dev.max_cqe = 100;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 3);
	assert_non_null(strstr(pr[0], "max message size 1024"));
	assert_non_null(strstr(pr[1], "max_qp_wr 256"));
	assert_non_null(strstr(pr[2], "needs 512 entries"));
	plan(&fx, "atomic_bw", "hostB");
	roce(&fx.d.dev);
	fx.d.dev.atomics = false;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "atomic_cap NONE"));
	/* A UD message is one packet: no larger than the port's MTU, whatever -m asks. */
	plan(&fx, "send_bw", "-c UD -s 2048 hostB");
	roce(&fx.d.dev);
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "path MTU of at most 1024 bytes"));
	plan(&fx, "send_bw", "-c UD -s 2048 -m 4096 hostB");
	roce(&fx.d.dev);
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "at most 1024 bytes"));
	plan(&fx, "send_bw", "-c UD -s 1024 hostB");
	roce(&fx.d.dev);
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 0);
	/* What the device's provider makes: EFA no RC, rxe no SRD; without -c the
	 * client takes EFA's UD. */
	plan(&fx, "send_lat", "-c RC hostB");
	roce(&fx.d.dev);
	fx.d.dev.prov = RB_PROV_EFA;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "-c RC: rxe0 is efa (AWS Elastic Fabric Adapter)"));
	plan(&fx, "send_lat", "hostB");
	roce(&fx.d.dev);
	fx.d.dev.prov = RB_PROV_EFA;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 0);
	plan(&fx, "send_lat", "-c SRD hostB");
	roce(&fx.d.dev);
	fx.d.dev.prov = RB_PROV_RXE;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "give -c RC"));
	/* More than the host can give. */
	plan(&fx, "write_bw", "-s 1G hostB");
	roce(&fx.d.dev);
	fx.d.mem_budget = 1 << 20;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_non_null(strstr(pr[0], "this host can give 1 MiB"));
}

/* --threads past 32: placed each, and more threads than CPUs is a problem. */
static void many_threads(void **state)
{
	char pr[RB_DRY_PROBLEMS][RB_DRY_NOTE];
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "write_bw", "--threads 40 hostB");
	roce(&fx.d.dev);
	fx.d.ncpus = 64;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 0);
	fx.d.ncpus = 0; /* unknown: not checked */
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 0);
	fx.d.ncpus = 32;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	assert_string_equal(pr[0], "--threads 40: this process may run on 32 CPU(s); each thread "
				   "busy-polls a CPU of its own (threads that sleep, --poll event "
				   "--cpu none, may share them)");
	doc = rb_dry_json(&fx.d);
	assert_int_equal(json_array_size(path(doc, "problems", NULL)), 1);
	json_decref(doc);
	/* Threads that sleep on their channel, unpinned, may share CPUs
	 * (before: refused all the same); pinned, or busy at any point, not. */
	plan(&fx, "write_bw", "--threads 40 --poll event --cpu none hostB");
	roce(&fx.d.dev);
	fx.d.ncpus = 32;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 0);
	plan(&fx, "write_bw", "--threads 40 --poll event,busy --cpu none hostB");
	roce(&fx.d.dev);
	fx.d.ncpus = 32;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
	plan(&fx, "write_bw", "--threads 40 --poll event hostB");
	roce(&fx.d.dev);
	fx.d.ncpus = 32;
	assert_int_equal(rb_dry_check(&fx.d, pr, RB_DRY_PROBLEMS), 1);
}

static void duration_points(void **state)
{
	struct fixture fx;
	json_t *doc, *pt;

	(void)state;
	plan(&fx, "send_bw", "-D 10 -a hostB");
	text(&fx);
	has(&fx, "points      23, each measured for 10 s");
	has(&fx, "       10 s\n");
	doc = rb_dry_json(&fx.d);
	pt = json_array_get(json_object_get(doc, "points"), 22);
	assert_int_equal(json_integer_value(json_object_get(pt, "size")), 8 << 20);
	assert_true(json_is_null(json_object_get(pt, "iterations")));
	assert_int_equal(json_integer_value(json_object_get(pt, "duration_s")), 10);
	assert_true(json_is_null(path(doc, "params", "iterations")));
	json_decref(doc);
	free(fx.text);
}

/* --reversed: said on the test's line and in the JSON's params. */
static void reversed_said(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "read_lat", "--reversed hostB");
	text(&fx);
	has(&fx, "connected by the out-of-band exchange, reversed (the server sends and measures)");
	doc = rb_dry_json(&fx.d);
	assert_true(json_is_true(path(doc, "params", "reversed")));
	json_decref(doc);
	free(fx.text);
}

static void server_side(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "write_bw", "-p 20000");
	snprintf(fx.d.ignored, sizeof(fx.d.ignored), "-s/--size");
	text(&fx);
	has(&fx, "role        server on TCP port 20000 of every address");
	has(&fx, "ignored     -s/--size");
	assert_null(strstr(fx.text, "points"));
	doc = rb_dry_json(&fx.d);
	assert_string_equal(json_string_value(json_object_get(doc, "role")), "server");
	assert_true(json_is_null(json_object_get(doc, "test")));
	assert_true(json_is_null(json_object_get(doc, "params")));
	assert_int_equal(json_array_size(json_object_get(doc, "points")), 0);
	assert_int_equal(json_integer_value(json_object_get(doc, "tcp_port")), 20000);
	json_decref(doc);
	free(fx.text);
}

static void output_said(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "write_bw", "--report_gbits --json p.json --csv p.csv hostB");
	text(&fx);
	has(&fx, "output      stdout table, units Gb/s\n");
	has(&fx, "JSON: this plan to p.json");
	has(&fx, "CSV: p.csv, written by the run (not by --dry-run)");
	doc = rb_dry_json(&fx.d);
	assert_string_equal(json_string_value(path(doc, "output", "units")), "Gb/s");
	assert_string_equal(json_string_value(path(doc, "output", "json")), "p.json");
	json_decref(doc);
	free(fx.text);
}

/* perftest's flags taken with no effect are said, not silently dropped. */
static void perftest_no_effect(void **state)
{
	struct fixture fx;
	json_t *doc;

	(void)state;
	plan(&fx, "write_bw", "--cpu_util -N -q 2 hostB");
	text(&fx);
	has(&fx, "no effect   --cpu_util, -N/--noPeak: perftest's, taken with no effect here\n");
	doc = rb_dry_json(&fx.d);
	assert_string_equal(json_string_value(json_object_get(doc, "perftest_no_effect")), "--cpu_"
											   "util, "
											   "-N/"
											   "--"
											   "noPea"
											   "k");
	json_decref(doc);
	free(fx.text);
	/* None given: no line, and null. */
	plan(&fx, "write_bw", "hostB");
	text(&fx);
	assert_null(strstr(fx.text, "no effect"));
	doc = rb_dry_json(&fx.d);
	assert_true(json_is_null(json_object_get(doc, "perftest_no_effect")));
	json_decref(doc);
	free(fx.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sweep_points_listed), cmocka_unit_test(sent_from_rows),
		cmocka_unit_test(device_and_gid),      cmocka_unit_test(no_device_said),
		cmocka_unit_test(memory_sized),	       cmocka_unit_test(limits_checked),
		cmocka_unit_test(many_threads),	       cmocka_unit_test(duration_points),
		cmocka_unit_test(server_side),	       cmocka_unit_test(output_said),
		cmocka_unit_test(perftest_no_effect),  cmocka_unit_test(lock_names_no_op),
		cmocka_unit_test(reversed_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
