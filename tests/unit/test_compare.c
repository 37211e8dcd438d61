// SPDX-License-Identifier: MIT
/*
 * compare.c on the writer's golden JSON files and hand-edited copies
 * (tests/data/compare/README): a run against itself, a 20% regression
 * named by its point, improvements that are never regressions, runs that
 * cannot be compared, the options, and the subcommand's exit codes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/compare.h"
#include "compare_fx.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

#define GOLDEN(f)  TEST_DATA_DIR "/golden/" f
#define CMPDATA(f) TEST_DATA_DIR "/compare/" f
#define SCHEMA	   TEST_DATA_DIR "/../../doc/rdmabench.schema.json"

static char err[1024];
static char *text; /* what rb_compare() printed */
static size_t text_len;

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *d = json_load_file(path, 0, &je);

	if (!d)
		fail_msg("%s:%d: %s", path, je.line, je.text);
	return d;
}

/* rb_compare() of two documents, its output kept in text. */
static int run_docs(json_t *b, json_t *n, const struct rb_compare_opts *o)
{
	FILE *f;
	int ret;

	free(text);
	text = NULL;
	f = open_memstream(&text, &text_len);
	assert_non_null(f);
	ret = rb_compare(b, n, o, f, err, sizeof(err));
	assert_int_equal(fclose(f), 0);
	return ret;
}

static int run(const char *bp, const char *np, const struct rb_compare_opts *o)
{
	json_t *b = load(bp), *n = load(np);
	int ret = run_docs(b, n, o);

	json_decref(b);
	json_decref(n);
	return ret;
}

static void has(const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("\"%s\" not in:\n%s", needle, text);
}

static void lacks(const char *needle)
{
	if (strstr(text, needle))
		fail_msg("\"%s\" in:\n%s", needle, text);
}

/* ---- rb_compare() ------------------------------------------------------- */

static void test_self(void **state)
{
	struct rb_compare_opts o;

	(void)state;
	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("bw.json"), GOLDEN("bw.json"), &o), RB_CMP_SAME);
	assert_string_equal(err, "");
	has("# compare write_bw: BASE BASE, NEW NEW, tolerance 5%\n");
	has("     64     4     16    2   256  bw_avg_gbps           1.327        1.327   1.000"
	    "\n");
	has("    64K     4     16    2   256  msg_rate_mpps       0.17613      0.17613   1.000");
	/* A bandwidth test has no latency: those rows are left out. */
	lacks("lat_p50_us");
	has("# 2 point(s), 4 comparison(s): 0 regression(s), 0 improved, beyond 5%\n");
	lacks("REGRESSION");

	assert_int_equal(run(GOLDEN("lat.json"), GOLDEN("lat.json"), &o), RB_CMP_SAME);
	has("      2     1      1    1   128  lat_p99_us              1.5          1.5   1.000");
	/* The fourth point has no samples: nothing to compare there. */
	lacks("     1M");
	has("# 4 point(s), 6 comparison(s): 0 regression(s)");
}

static void test_regression(void **state)
{
	struct rb_compare_opts o;

	(void)state;
	rb_compare_opts_init(&o);
	o.base_name = "bw.json";
	o.new_name = "bw_worse.json";
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_worse.json"), &o), RB_CMP_REGRESSION);
	has("# compare write_bw: BASE bw.json, NEW bw_worse.json, tolerance 5%\n");
	has("     64     4     16    2   256  bw_avg_gbps           1.327       1.0616   0.800  "
	    "REGRESSION\n");
	has("# regression: size 64 batch 4 signal 16 qps 2 tx_depth 256: bw_avg_gbps 1.327 -> "
	    "1.0616 (x0.800, higher is better)\n");
	has("1 regression(s)");
	/* The 64K point did not move. */
	lacks("size 64K");

	/* Within a tolerance of 25% it is none. */
	assert_int_equal(rb_compare_tolerance_parse("25%", &o.tolerance, err, sizeof(err)), 0);
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_worse.json"), &o), RB_CMP_SAME);
	lacks("REGRESSION");
	/* Nor when only other metrics are asked for. */
	rb_compare_opts_init(&o);
	assert_int_equal(rb_compare_metrics_parse("rate,bw_peak", &o, err, sizeof(err)), 0);
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_worse.json"), &o), RB_CMP_SAME);
	lacks("bw_avg_gbps");

	/* Latency: higher is worse. */
	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("lat.json"), CMPDATA("lat_worse.json"), &o), RB_CMP_REGRESSION);
	has("     64     1      1    1   128  lat_p99_us            1.625         1.95   1.200  "
	    "REGRESSION\n");
	has("lat_p99_us 1.625 -> 1.95 (x1.200, lower is better)");
}

/* Higher bandwidth and lower latency are improvements, in either direction of the call. */
static void test_improvements(void **state)
{
	struct rb_compare_opts o;

	(void)state;
	rb_compare_opts_init(&o);
	assert_int_equal(rb_compare_metrics_parse("bw,bw_peak,rate,cpu_ns_per_msg", &o, err,
						  sizeof(err)),
			 0);
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_better.json"), &o), RB_CMP_SAME);
	has("1.327       1.5924   1.200  improved\n");
	has("cpu_ns_per_msg");
	has("0 regression(s), 6 improved");
	/* Backwards, the same changes are regressions. */
	assert_int_equal(run(CMPDATA("bw_better.json"), GOLDEN("bw.json"), &o), RB_CMP_REGRESSION);
	has("6 regression(s)");

	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("lat.json"), CMPDATA("lat_better.json"), &o), RB_CMP_SAME);
	has("0.700  improved");
	lacks("REGRESSION");
	assert_int_equal(run(CMPDATA("lat_better.json"), GOLDEN("lat.json"), &o),
			 RB_CMP_REGRESSION);
}

static void test_incomparable(void **state)
{
	struct rb_compare_opts o;
	json_t *b, *n;

	(void)state;
	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("lat.json"), GOLDEN("bw.json"), &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different tests: BASE is send_lat, NEW is write_bw");
	assert_int_equal(text_len, 0); /* nothing printed */

	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_other_points.json"), &o),
			 RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "no common points: BASE has 2, NEW 2, and none has the size, "
				 "batch, signal, qps and tx_depth of one in the other");
	has("# only in BASE:      64     4     16    2   256\n");
	has("# only in NEW:     128     4     16    2   256\n");

	/* Common points, but no metric asked for that they carry. */
	assert_int_equal(rb_compare_metrics_parse("p99", &o, err, sizeof(err)), 0);
	assert_int_equal(run(GOLDEN("bw.json"), GOLDEN("bw.json"), &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "no metric to compare: the common points share none of those "
				 "asked for with a value above 0");

	/* Atomics: the same test with another operation. */
	rb_compare_opts_init(&o);
	b = load(GOLDEN("lat.json"));
	n = load(GOLDEN("lat.json"));
	json_object_set_new(b, "op", json_string("fadd"));
	json_object_set_new(n, "op", json_string("cswap"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different atomic operations: BASE is fadd, NEW is cswap");
	/* A schema this rdmabench does not read, and no rdmabench JSON at all. */
	json_object_set_new(n, "op", json_string("fadd"));
	json_object_set_new(n, "schema_version", json_integer(2));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "NEW has schema_version 2; this rdmabench reads 1 to 1");
	json_object_del(n, "results");
	json_object_set_new(n, "schema_version", json_integer(1));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "NEW is not rdmabench JSON (it needs schema_version, test and "
				 "results)");
	json_decref(n);
	n = json_array();
	assert_int_equal(run_docs(n, b, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "BASE is not rdmabench JSON (it needs schema_version, test and "
				 "results)");
	json_decref(b);
	json_decref(n);

	/* -b against one-way: twice the bandwidth is no improvement.  A file
	 * without params.bidirectional (before -b) is one-way. */
	b = load(GOLDEN("bw.json"));
	n = load(GOLDEN("bw.json"));
	json_object_set_new(json_object_get(n, "params"), "bidirectional", json_true());
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "BASE is one-way, NEW is bidirectional (-b): their bandwidths do "
				 "not compare");
	json_object_set_new(json_object_get(b, "params"), "bidirectional", json_true());
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	json_decref(n);
	json_decref(b);
}

/* Issue 21: an RC 1-thread file against a UD 4-thread one was "improved". */
static void test_other_run(void **state)
{
	struct rb_compare_opts o;

	(void)state;
	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_ud_threads.json"), &o),
			 RB_CMP_INCOMPARABLE);
	/* In the option table's order (the rows name the members). */
	assert_string_equal(err, "different parameters, whose figures do not compare: threads "
				 "(--threads) BASE 1, NEW 4; transport (-c) BASE UC, NEW UD");
	assert_int_equal(text_len, 0); /* nothing printed */
}

/* A file of fewer sizes than the other, all else equal: its points compare. */
static void test_subset(void **state)
{
	struct rb_compare_opts o;

	(void)state;
	rb_compare_opts_init(&o);
	assert_int_equal(run(GOLDEN("bw.json"), CMPDATA("bw_subset.json"), &o), RB_CMP_REGRESSION);
	has("# only in BASE:     64K     4     16    2   256\n");
	has("# 1 point(s), 2 comparison(s): 1 regression(s)");
	assert_int_equal(run(CMPDATA("bw_subset.json"), GOLDEN("bw.json"), &o), RB_CMP_SAME);
	has("# only in NEW:     64K");
	has("1.250  improved\n");
}

/*
 * A run that swept --poll busy,event: its points of one size are told
 * apart by how they waited; absent (older files) is busy and 32.
 */
static void test_wait_points(void **state)
{
	json_t *b = load(GOLDEN("bw.json")), *n, *pt, *ev;
	struct rb_compare_opts o;

	(void)state;
	json_object_set_new(json_object_get(b, "params"), "poll",
			    json_pack("[ss]", "busy", "event"));
	pt = json_array_get(json_object_get(b, "results"), 0);
	ev = json_deep_copy(pt);
	json_object_set_new(ev, "poll", json_string("event"));
	json_object_set_new(ev, "bw_avg_gbps", json_real(0.5));
	json_array_append_new(json_object_get(b, "results"), ev);
	n = json_deep_copy(b);
	/* NEW: the event point worse, the busy one (no poll member: busy) the same. */
	ev = json_array_get(json_object_get(n, "results"), 2);
	json_object_set_new(ev, "bw_avg_gbps", json_real(0.25));
	rb_compare_opts_init(&o);
	assert_int_equal(run_docs(b, n, &o), RB_CMP_REGRESSION);
	has("   256 event/32  bw_avg_gbps             0.5         0.25   0.500  REGRESSION\n");
	has("# regression: size 64 batch 4 signal 16 qps 2 tx_depth 256 poll event cqe_poll 32: "
	    "bw_avg_gbps 0.5 -> 0.25");
	has("1 regression(s)");
	/* The busy point as it was: no regression there. */
	json_object_set_new(ev, "bw_avg_gbps", json_real(0.5));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	/* A --cqe-poll of another point is another point. */
	json_object_set_new(ev, "cqe_poll", json_integer(16));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	has("# only in BASE:      64     4     16    2   256 event/32\n");
	has("# only in NEW:      64     4     16    2   256 event/16\n");
	json_decref(b);
	json_decref(n);
}

/* A value other than @v (NULL: absent), of whatever type. */
static json_t *other_value(json_t *v)
{
	if (json_is_integer(v))
		return json_integer(json_integer_value(v) + 1);
	if (json_is_real(v))
		return json_real(json_real_value(v) * 2 + 1);
	if (json_is_boolean(v))
		return json_boolean(!json_is_true(v));
	if (json_is_string(v))
		return json_sprintf("%sx", json_string_value(v));
	return json_integer(7);
}

/* @key of @n's params set to another value than @b's: refused, naming it. */
static void check_param_differs(json_t *b, json_t *n, const char *key)
{
	struct rb_compare_opts o;
	json_t *np = json_object_get(n, "params");

	rb_compare_opts_init(&o);
	json_object_set_new(np, key, other_value(json_object_get(np, key)));
	if (run_docs(b, n, &o) != RB_CMP_INCOMPARABLE || !strstr(err, key))
		fail_msg("params.%s differs, yet: %s", key, err);
	if (strcmp(key, "bidirectional") && (!strstr(err, "different parameters, ") ||
					     !strstr(err, " BASE ") || !strstr(err, ", NEW ")))
		fail_msg("params.%s: %s", key, err);
	assert_int_equal(text_len, 0);
}

static bool is_axis(const char *key)
{
	static const char *const axes[] = { "size", "batch", "signal", "qps", "tx_depth" };
	size_t i;

	for (i = 0; i < sizeof(axes) / sizeof(axes[0]); i++)
		if (!strcmp(key, axes[i]))
			return true;
	return false;
}

/*
 * Every member of params the schema knows but the axes must be equal
 * (the schema is closed: a member the writer adds is in it), and one
 * only a later rdmabench writes.
 */
static void test_every_param(void **state)
{
	json_t *schema = load(SCHEMA), *props, *b, *n;
	struct rb_compare_opts o;
	const char *key;
	void *it;
	size_t nkeys = 0;

	(void)state;
	rb_compare_opts_init(&o);
	props = json_object_get(json_object_get(json_object_get(schema, "$defs"), "params"), "prope"
											     "rtie"
											     "s");
	json_object_set_new(props, "a_later_knob", json_object());
	for (it = json_object_iter(props); it; it = json_object_iter_next(props, it)) {
		key = json_object_iter_key(it);
		if (is_axis(key))
			continue;
		b = load(GOLDEN("bw.json"));
		n = load(GOLDEN("bw.json"));
		check_param_differs(b, n, key);
		/* The same value in BASE: comparable again. */
		json_object_set(json_object_get(b, "params"), key,
				json_object_get(json_object_get(n, "params"), key));
		assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
		json_decref(b);
		json_decref(n);
		nkeys++;
	}
	/* 42 today: -n -D --interval --rate --warmup -r -I -o -m --verify -R -c --sl
	 * --tclass --flow-label --hugepages --odp --mr-per-qp --srq --threads -b
	 * --latency-gap --recv-post-list --send-with-imm/--write-with-imm --reversed --poll
	 * --reg-mode --cqe-poll --probe --probe-rate --wr-lat --cq-per-qp; issue 42's
	 * --reg-cache --buffers --reuse, and lock's --lock --locks --cs-bytes --hold --backoff
	 * --run-id --run-hosts; issue 40's --cq-moderation (an axis of the plan since). */
	assert_int_equal(nkeys, 43 + 1);
	json_decref(schema);
}

/* Files of earlier versions lack some members: absent is what they meant. */
static void test_absent_params(void **state)
{
	struct rb_compare_opts o;
	static const char *const later[] = { "transport",  "sl",      "tclass",
					     "flow_label", "threads", "bidirectional",
					     "srq",	   "poll" };
	json_t *b = load(GOLDEN("bw.json")), *n = load(GOLDEN("bw.json"));
	json_t *np = json_object_get(n, "params"), *v;
	int i;

	(void)state;
	rb_compare_opts_init(&o);
	/* BASE as a file of before these members; NEW says their defaults. */
	for (i = 0; i < (int)(sizeof(later) / sizeof(later[0])); i++)
		json_object_del(json_object_get(b, "params"), later[i]);
	json_object_set_new(np, "transport", json_string("RC"));
	json_object_set_new(np, "sl", json_integer(0));
	json_object_set_new(np, "tclass", json_integer(0));
	json_object_set_new(np, "flow_label", json_integer(0));
	json_object_set_new(np, "threads", json_integer(1));
	json_object_set_new(np, "bidirectional", json_false());
	json_object_set_new(np, "srq", json_false());
	json_object_set_new(np, "poll", json_string("busy"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	/* A file of before --poll busy-polled: event mode does not compare with it. */
	json_object_set_new(np, "poll", json_string("event"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "poll (--poll) BASE busy, NEW event");
	json_object_set_new(np, "poll", json_string("busy"));
	/* Absent, not meaning a value: "none". */
	json_object_set_new(np, "interval_s", json_real(0.5));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "interval_s (--interval) BASE none, NEW 0.5");
	json_object_del(np, "interval_s");
	json_object_set_new(np, "iterations", json_integer(5000));
	json_object_set_new(np, "duration_s", json_null());
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "iterations (-n) BASE none, NEW 5000; duration_s (-D) BASE 5, "
				 "NEW none");
	json_object_set_new(np, "iterations", json_null());
	json_object_set_new(np, "duration_s", json_integer(5));
	/* A value too long for the message (a later version's list). */
	v = json_array();
	for (i = 0; i < 40; i++)
		json_array_append_new(v, json_integer(1000 + i));
	json_object_set_new(np, "a_list", v);
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "a_list BASE none, NEW (a value too long to show)");
	/* No plan on one side. */
	json_object_set_new(n, "params", json_null());
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "NEW has no params (the run ended before its plan)");
	json_decref(b);
	json_decref(n);
}

/* The side that wrote the file and the MTU the QPs used. */
static void test_role_and_mtu(void **state)
{
	struct rb_compare_opts o;
	json_t *b = load(GOLDEN("bw.json")), *n = load(GOLDEN("bw.json"));
	json_t *dev = json_object_get(n, "device");

	(void)state;
	rb_compare_opts_init(&o);
	o.base_name = "a.json";
	o.new_name = "b.json";
	json_object_set_new(n, "role", json_string("server"));
	json_object_set_new(dev, "path_mtu", json_integer(1024));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: role a.json "
				 "client, b.json server; device.path_mtu a.json 4096, b.json 1024");
	/* A run that ended before its ports met has none: not checked. */
	json_object_set_new(n, "role", json_string("client"));
	json_object_set_new(dev, "path_mtu", json_integer(0));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	json_decref(b);
	json_decref(n);
}

/*
 * Issue 37 item 10: host memory against --use-cuda, and what else of a
 * side changes a figure outside params: the registration path, the post
 * API, the bytes sent inline.  A file without post_api or inline_size (an
 * earlier version's) is not checked on them; one without gpu is host
 * memory.
 */
static void test_side_memory(void **state)
{
	struct rb_compare_opts o;
	json_t *b = load(GOLDEN("bw.json")), *n = load(GOLDEN("bw.json"));
	json_t *bd = json_object_get(b, "device"), *nd = json_object_get(n, "device");

	(void)state;
	rb_compare_opts_init(&o);
	json_object_set_new(n, "gpu",
			    json_pack("{ss ss}", "memory", "device", "reg_path", "dmabuf"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: gpu.memory "
				 "(--use-cuda/--cuda-mem) BASE host, NEW device; gpu.reg_path "
				 "(--cuda-reg) BASE none, NEW dmabuf");
	json_object_set_new(b, "gpu",
			    json_pack("{ss ss}", "memory", "device", "reg_path", "peermem"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: gpu.reg_path "
				 "(--cuda-reg) BASE peermem, NEW dmabuf");
	json_object_set_new(json_object_get(b, "gpu"), "reg_path", json_string("dmabuf"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);

	/* The post API and the inline bytes, where both files say them. */
	json_object_set_new(nd, "post_api", json_string("wr"));
	json_object_set_new(nd, "inline_size", json_integer(0));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	json_object_set_new(bd, "post_api", json_string("post"));
	json_object_set_new(bd, "inline_size", json_integer(220));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "device.post_api (--post-api) BASE post, NEW wr; "
				 "device.inline_size "
				 "(-I) BASE 220, NEW 0");
	json_object_set_new(nd, "post_api", json_string("post"));
	json_object_set_new(nd, "inline_size", json_null()); /* no QP yet */
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);

	/* Issue 40: the CQ API and moderation, where both files say them. */
	json_object_set_new(nd, "cq_api", json_string("ex"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	json_object_set_new(bd, "cq_api", json_string("classic"));
	json_object_set_new(bd, "cq_moderation", json_string("none"));
	json_object_set_new(nd, "cq_moderation", json_string("16/10"));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: "
				 "device.cq_api (--cq-api) BASE classic, NEW ex; "
				 "device.cq_moderation (--cq-moderation) BASE none, NEW 16/10");
	json_object_set_new(nd, "cq_api", json_string("classic"));
	json_object_set_new(nd, "cq_moderation", json_null()); /* a file of before: not checked */
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);

	/* Issue 39's params by their options' names. */
	json_object_set_new(json_object_get(n, "params"), "cq_per_qp", json_true());
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "different parameters, whose figures do not compare: cq_per_qp "
				 "(--cq-per-qp) BASE none, NEW true");
	json_decref(b);
	json_decref(n);
}

/* A point's own warm-up count, where both files give it. */
static void test_point_warmup(void **state)
{
	struct rb_compare_opts o;
	json_t *b = load(GOLDEN("bw.json")), *n = load(GOLDEN("bw.json"));
	json_t *bp = json_array_get(json_object_get(b, "results"), 1);
	json_t *np = json_array_get(json_object_get(n, "results"), 1);

	(void)state;
	rb_compare_opts_init(&o);
	json_object_del(bp, "warmup"); /* a file of before the point's own */
	json_object_set_new(np, "warmup", json_integer(16));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME); /* BASE does not say */
	json_object_set_new(bp, "warmup", json_integer(100));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "point size 64K batch 4 signal 16 qps 2 tx_depth 256 differs, its "
				 "figures do not compare: warmup BASE 100, NEW 16");
	assert_int_equal(text_len, 0);
	json_object_set_new(bp, "warmup", json_integer(16));
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	json_decref(b);
	json_decref(n);
}

static void test_odd_points(void **state)
{
	struct rb_compare_opts o;
	json_t *b = load(GOLDEN("bw.json")), *n = load(GOLDEN("bw.json"));
	json_t *bp, *np, *extra;

	(void)state;
	rb_compare_opts_init(&o);
	bp = json_array_get(json_object_get(b, "results"), 0);
	np = json_array_get(json_object_get(n, "results"), 0);
	/* A BASE of 0, a string for a number, a metric only one side has. */
	json_object_set_new(bp, "bw_avg_gbps", json_real(0));
	json_object_set_new(np, "msg_rate_mpps", json_string("fast"));
	json_object_del(bp, "bw_peak_gbps");
	assert_int_equal(rb_compare_metrics_parse("bw,rate,bw_peak", &o, err, sizeof(err)), 0);
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	has("     64     4     16    2   256  bw_avg_gbps               0        1.327       -"
	    "\n");
	has("     64     4     16    2   256  msg_rate_mpps        2.5922            -       -"
	    "\n");
	has("     64     4     16    2   256  bw_peak_gbps              -        1.354       -"
	    "\n");
	/* A point without its axes, a duplicate, and a non-object: skipped. */
	json_object_del(np, "qps");
	json_array_append_new(json_object_get(b, "results"), json_deep_copy(bp));
	extra = json_string("not a point");
	json_array_append_new(json_object_get(n, "results"), extra);
	assert_int_equal(run_docs(b, n, &o), RB_CMP_SAME);
	has("# only in BASE:      64     4     16    2   256\n");
	lacks("only in NEW");
	has("# 1 point(s)");
	json_decref(b);
	json_decref(n);
}

/* ---- options ------------------------------------------------------------ */

static void test_options(void **state)
{
	struct rb_compare_opts o;
	double t = -1;
	int i;

	(void)state;
	assert_int_equal(rb_compare_tolerance_parse("5%", &t, err, sizeof(err)), 0);
	assert_true(fabs(t - 0.05) < 1e-12);
	assert_int_equal(rb_compare_tolerance_parse("0.5%", &t, err, sizeof(err)), 0);
	assert_true(fabs(t - 0.005) < 1e-12);
	assert_int_equal(rb_compare_tolerance_parse("0%", &t, err, sizeof(err)), 0);
	assert_true(t == 0);
	assert_int_equal(rb_compare_tolerance_parse("0.05", &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tolerance '0.05': a bare number is a percentage: write '5%' "
				 "for a fraction of 0.05, or '0.05%'");
	/* A bare number is a percentage, as matrix's --tolerance takes it. */
	assert_int_equal(rb_compare_tolerance_parse("5", &t, err, sizeof(err)), 0);
	assert_true(fabs(t - 0.05) < 1e-12);
	assert_int_equal(rb_compare_tolerance_parse("5x", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse("-5%", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse("5%%", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse("1001%", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse("nan%", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse("", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_compare_tolerance_parse(NULL, &t, err, sizeof(err)), -EINVAL);

	rb_compare_opts_init(&o);
	assert_true(o.tolerance == RB_CMP_DEFAULT_TOL);
	assert_int_equal(
		rb_compare_metrics_parse("p50,lat_p50_us,bw_avg_gbps", &o, err, sizeof(err)), 0);
	assert_int_equal(o.nmetrics, 2); /* p50 once */
	assert_int_equal(rb_compare_metrics_parse("p42", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--metric: unknown metric 'p42' (lat_min_us, "));
	assert_int_equal(rb_compare_metrics_parse("bw,", &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown metric ''"));
	rb_compare_opts_init(&o);
	for (i = 0; i < 11; i++)
		assert_int_equal(rb_compare_metrics_parse("bw,bw_peak,rate,min,p50,avg,p90,p99,"
							  "p999,max,cpu_ns_per_msg",
							  &o, err, sizeof(err)),
				 0);
	assert_int_equal(o.nmetrics, 11);
}

/* ---- the subcommand ---------------------------------------------------------- */

/* rb_compare_main() with stdout and stderr in files; returns its exit code. */
static int run_main(const char *out, int argc, ...)
{
	char *argv[16], path[] = "/tmp/rb-test-compare-XXXXXX";
	int fd, saved_out, saved_err, ret, i;
	va_list ap;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	ret = rb_compare_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	free(text);
	text = calloc(1, 65536);
	assert_non_null(text);
	assert_true(pread(fd, text, 65535, 0) >= 0);
	close(fd);
	unlink(path);
	if (out)
		has(out);
	return ret;
}

static void test_main(void **state)
{
	(void)state;
	assert_int_equal(
		run_main("bw_avg_gbps", 3, "compare", GOLDEN("bw.json"), GOLDEN("bw.json")), 0);
	assert_int_equal(run_main("REGRESSION", 3, "compare", GOLDEN("bw.json"),
				  CMPDATA("bw_worse.json")),
			 1);
	has("NEW " TEST_DATA_DIR "/compare/bw_worse.json");
	assert_int_equal(run_main(NULL, 5, "compare", "--tolerance", "25%", GOLDEN("bw.json"),
				  CMPDATA("bw_worse.json")),
			 0);
	assert_int_equal(run_main("lat_p99_us", 5, "compare", GOLDEN("lat.json"),
				  CMPDATA("lat_worse.json"), "-m", "p99"),
			 1);
	lacks("lat_p50_us");
	assert_int_equal(run_main("rdmabench compare: different tests: ", 3, "compare",
				  GOLDEN("bw.json"), GOLDEN("lat.json")),
			 2);
	assert_int_equal(run_main("rdmabench compare: different parameters, whose figures do not "
				  "compare: threads (--threads) ",
				  3, "compare", GOLDEN("bw.json"), CMPDATA("bw_ud_threads.json")),
			 2);
	assert_int_equal(run_main("usage: rdmabench compare", 2, "compare", "--help"), 0);
	assert_int_equal(run_main("two files are needed", 2, "compare", GOLDEN("bw.json")), 2);
	assert_int_equal(run_main("unknown option --bogus for compare", 4, "compare", "--bogus",
				  GOLDEN("bw.json"), GOLDEN("bw.json")),
			 2);
	assert_int_equal(run_main("--tolerance needs an argument", 2, "compare", "--tolerance"), 2);
	assert_int_equal(run_main("give a percentage", 5, "compare", "-t", "5x", GOLDEN("bw.json"),
				  GOLDEN("bw.json")),
			 2);
	assert_int_equal(run_main("/nonexistent.json: cannot read it: No such file or directory", 3,
				  "compare", "/nonexistent.json", GOLDEN("bw.json")),
			 2);
	assert_int_equal(run_main("README, line 1, column 6: not valid JSON (", 3, "compare",
				  GOLDEN("bw.json"), CMPDATA("README")),
			 2);
}

static int teardown(void **state)
{
	(void)state;
	free(text);
	text = NULL;
	return 0;
}

/* rb_compare_vs_tcp() of two documents, its output kept in text. */
static int run_vs(json_t *rdma, json_t *tcp)
{
	return vs_tcp_text(rdma, tcp, &text, &text_len, err, sizeof(err));
}

/*
 * --vs-tcp: write_bw against tcp_bw at the sizes both have, with the
 * throughput ratio and each side's CPU per byte; send_lat against tcp_lat
 * with the latency ratio; the refusals name why.
 */
static void test_vs_tcp(void **state)
{
	json_t *r = load(GOLDEN("bw.json")), *t = load(GOLDEN("bw.json"));
	json_t *p0 = json_array_get(json_object_get(t, "results"), 0);

	(void)state;
	json_object_set_new(t, "test", json_string("tcp_bw"));
	/* 64 B over TCP: a tenth of the bandwidth, the same CPU on each side. */
	json_object_set_new(p0, "bw_avg_gbps", json_real(0.1327));
	json_array_remove(json_object_get(t, "results"), 1);
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "# write_bw (RDMA) against tcp_bw (TCP), size by size"));
	/* 1.327 Gb/s at 100% of a CPU: 6.03 ns/byte; TCP 60.3; the server 43%: 2.59, 25.9. */
	assert_non_null(strstr(text, "        64      1.327     0.1327    10.00      6.029      "
				     "60.29 "
				     "    0.10      2.592      25.92     0.10\n"));
	assert_null(strstr(text, "65536"));

	/* The wrong way round, two RDMA tests, no common size: refused. */
	assert_int_equal(run_vs(t, r), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "the first file must be an RDMA test's"));
	assert_int_equal(run_vs(r, r), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "the second file must be tcp_lat's or tcp_bw's"));
	json_object_set_new(p0, "size", json_integer(128));
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "share no message size"));
	json_decref(t);

	/* A latency test against a bandwidth one; then against tcp_lat. */
	t = load(GOLDEN("lat.json"));
	json_object_set_new(t, "test", json_string("tcp_lat"));
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "measure different things"));
	json_decref(r);
	r = load(GOLDEN("lat.json"));
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "tcp_p50"));
	assert_non_null(strstr(text, "         2       1.05       1.05     1.00"));
	assert_non_null(strstr(text, "# latency: one-way (half the round trip), as both tests "
				     "report it\n"));
	json_decref(r);
	json_decref(t);
}

/* Point 0's lat_us.p50 and p99 of @d set to @p50 and @p99. */
static void set_lat(json_t *d, double p50, double p99)
{
	json_t *l = json_object_get(json_array_get(json_object_get(d, "results"), 0), "lat_us");

	json_object_set_new(l, "p50", json_real(p50));
	json_object_set_new(l, "p99", json_real(p99));
}

/*
 * Issue 37 item 2: read_lat and atomic_lat report the round trip, tcp_lat
 * half of it; the table compares round trips (tcp_lat's doubled) and says
 * so, and refuses files that differ in -b, --threads or --reversed.
 */
static void test_vs_tcp_basis(void **state)
{
	json_t *r = load(GOLDEN("lat.json")), *t = load(GOLDEN("lat.json"));
	json_t *rp = json_object_get(r, "params"), *tp = json_object_get(t, "params");

	(void)state;
	json_object_set_new(r, "test", json_string("read_lat"));
	json_object_set_new(t, "test", json_string("tcp_lat"));
	/* The same figures: TCP's round trip is twice RDMA's. */
	set_lat(r, 4, 6);
	set_lat(t, 4, 6);
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "# latency: round trips (tcp_lat's one-way figures "
				     "doubled)\n"));
	assert_non_null(strstr(text, "         2          4          8     2.00          6         "
				     "12 "
				     "    2.00"));
	json_object_set_new(r, "test", json_string("atomic_lat"));
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	assert_non_null(strstr(text, "     2.00          6         12     2.00"));

	/* What plain compare refuses, --vs-tcp refuses too. */
	json_object_set_new(rp, "bidirectional", json_true());
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "--vs-tcp: different bidirectional (-b): the RDMA file true, the "
				 "TCP file false; their figures do not compare");
	json_object_del(rp, "bidirectional");
	json_object_set_new(tp, "threads", json_integer(4));
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_string_equal(err, "--vs-tcp: different threads (--threads): the RDMA file 1, the "
				 "TCP "
				 "file 4; their figures do not compare");
	json_object_set_new(rp, "threads", json_integer(4));
	assert_int_equal(run_vs(r, t), RB_CMP_SAME);
	json_object_set_new(rp, "reversed", json_true());
	assert_int_equal(run_vs(r, t), RB_CMP_INCOMPARABLE);
	assert_non_null(strstr(err, "different reversed (--reversed)"));
	json_decref(r);
	json_decref(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_self, teardown),
		cmocka_unit_test_teardown(test_vs_tcp, teardown),
		cmocka_unit_test_teardown(test_vs_tcp_basis, teardown),
		cmocka_unit_test_teardown(test_regression, teardown),
		cmocka_unit_test_teardown(test_improvements, teardown),
		cmocka_unit_test_teardown(test_incomparable, teardown),
		cmocka_unit_test_teardown(test_odd_points, teardown),
		cmocka_unit_test_teardown(test_other_run, teardown),
		cmocka_unit_test_teardown(test_subset, teardown),
		cmocka_unit_test_teardown(test_wait_points, teardown),
		cmocka_unit_test_teardown(test_every_param, teardown),
		cmocka_unit_test_teardown(test_absent_params, teardown),
		cmocka_unit_test_teardown(test_role_and_mtu, teardown),
		cmocka_unit_test_teardown(test_point_warmup, teardown),
		cmocka_unit_test_teardown(test_side_memory, teardown),
		cmocka_unit_test_teardown(test_options, teardown),
		cmocka_unit_test_teardown(test_main, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
