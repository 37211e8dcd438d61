// SPDX-License-Identifier: MIT
/*
 * Writers against golden files (tests/data/golden), the JSON document read
 * back with jansson, and rb_write_file()'s all-or-nothing behaviour.
 *
 * The table golden files spell the tool version "@VERSION@": the test puts
 * in the PACKAGE_VERSION this build was configured with.
 */
#ifdef HAVE_CONFIG_H
#include "core/ident.h"
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/opts_row.h"
#include "core/provider.h"
#include "report/output.h"
#include "report/out_perftest.h"
#include "report/samples_file.h"
#include "wire/plan.h"
#include "core/stats.h"
#include "core/sweep.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define GOLDEN_DIR TEST_DATA_DIR "/golden"

static char tmpdir[] = "/tmp/rb-test-output-XXXXXX";

/*
 * The documents the tests below read are the writer's own: with
 * RB_JSON_DUMP=DIR each is also written there (docNNN.json), and
 * tests/schema.sh validates every one against the schema.
 */
static json_t *json_doc(const struct rb_doc *r, const struct rb_result *res, size_t n)
{
	static unsigned int seq;
	const char *dir = getenv("RB_JSON_DUMP");
	json_t *doc = rb_json_doc(r, res, n);
	char path[512];

	assert_non_null(doc);
	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/doc%03u.json", dir, seq++);
		assert_int_equal(json_dump_file(doc, path, JSON_INDENT(2)), 0);
	}
	return doc;
}

/* ---- fixtures ---------------------------------------------------------- */

static struct rb_params lat_params;
static struct rb_params bw_params;

static void axis(struct rb_axis *a, size_t n, const uint64_t *v)
{
	size_t i;

	a->n = (uint32_t)n;
	for (i = 0; i < n; i++)
		a->v[i] = v[i];
}

static void init_params(void)
{
	static const uint64_t lat_sizes[] = { 2, 64, 4096, 1048576 };
	static const uint64_t bw_sizes[] = { 64, 65536 };

	memset(&lat_params, 0, sizeof(lat_params));
	snprintf(lat_params.test, sizeof(lat_params.test), "send_lat");
	axis(&lat_params.size, 4, lat_sizes);
	rb_axis_set1(&lat_params.batch, 1);
	rb_axis_set1(&lat_params.signal, 1);
	rb_axis_set1(&lat_params.qps, 1);
	rb_axis_set1(&lat_params.tx_depth, 128);
	rb_axis_set1(&lat_params.poll, RB_POLL_BUSY);
	rb_axis_set1(&lat_params.cqe_poll, RB_CQE_POLL_DEFAULT);
	lat_params.iters = 10000;
	lat_params.warmup = 1000;
	lat_params.rx_depth = 512;
	lat_params.inline_size = 236;
	lat_params.verify = 1;

	memset(&bw_params, 0, sizeof(bw_params));
	snprintf(bw_params.test, sizeof(bw_params.test), "write_bw");
	axis(&bw_params.size, 2, bw_sizes);
	rb_axis_set1(&bw_params.batch, 4);
	rb_axis_set1(&bw_params.signal, 16);
	rb_axis_set1(&bw_params.qps, 2);
	rb_axis_set1(&bw_params.tx_depth, 256);
	rb_axis_set1(&bw_params.poll, RB_POLL_BUSY);
	rb_axis_set1(&bw_params.cqe_poll, RB_CQE_POLL_DEFAULT);
	bw_params.duration_s = 5;
	bw_params.outstanding = 16;
	bw_params.mtu = 4096;
	bw_params.use_cm = 1;
	bw_params.transport = RB_TR_UC;
	bw_params.sl = 7;
	bw_params.tclass = 184;
	bw_params.flow_label[0] = 0xfffff;
	bw_params.nflow = 1;
}

static void lat_report(struct rb_doc *r)
{
	memset(r, 0, sizeof(*r));
	r->test = "send_lat";
	r->mode = RB_MODE_LAT;
	r->role = "client";
	r->host = "fixture-host";
	r->peer = "192.0.2.2:18515";
	snprintf(r->timestamp, sizeof(r->timestamp), "2026-01-02T03:04:05Z");
	r->device = "rxe0";
	r->port = 1;
	r->gid_index = 1;
	r->link_layer = "Ethernet";
	r->active_mtu = 1024;
	r->path_mtu = 1024;
	r->params = &lat_params;
	r->place = (struct rb_placement){
		.device_numa_node = 1, .cpus = "1", .mem_node = 1, .local = 1
	};
	r->units = RB_UNITS_MIBS;
}

static void bw_report(struct rb_doc *r)
{
	memset(r, 0, sizeof(*r));
	r->test = "write_bw";
	r->mode = RB_MODE_BW;
	r->role = "client";
	r->host = "bw-host";
	r->peer = "192.0.2.7:18515";
	snprintf(r->timestamp, sizeof(r->timestamp), "2026-01-02T03:04:05Z");
	r->device = "mlx5_0";
	r->port = 1;
	r->gid_index = -1;
	r->link_layer = "InfiniBand";
	r->active_mtu = 4096;
	r->path_mtu = 4096;
	r->params = &bw_params;
	r->place = (struct rb_placement){
		.device_numa_node = 0, .cpus = "0-3 8", .mem_node = 1, .local = 0
	};
	r->has_peer_place = true;
	r->peer_place = (struct rb_placement){
		.device_numa_node = -1, .cpus = "", .mem_node = -1, .local = -1
	};
	r->units = RB_UNITS_MIBS;
}

static const struct rb_result lat_res[] = {
	{
		.pt = { .size = 2,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 10000,
		.duration_s = 0.0219,
		.has_lat = true,
		.lat = { 0.95, 1.05, 1.09, 1.17, 1.5, 2.95, 9.25, 0.08 },
		.has_cpu = true,
		.cpu_util_pct = 99.5,
		.cpu_ns_per_msg = 1090.2,
		.has_peer = true,
		.peer_cpu_util_pct = 99.1,
		.peer_bw_avg_gbps = 0,
	},
	{
		.pt = { .size = 64,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 10000,
		.duration_s = 0.0234,
		.has_lat = true,
		.lat = { 1.001, 1.102, 1.1377, 1.2, 1.625, 3.1, 12.5, 0.0912 },
		.has_cpu = true,
		.cpu_util_pct = 99.25,
		.cpu_ns_per_msg = 1137.7,
		.has_peer = true,
		.peer_cpu_util_pct = 98.8,
	},
	{
		.pt = { .size = 4096,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 10000,
		.duration_s = 0.0541,
		.has_lat = true,
		/* More samples than are kept exactly: percentiles from buckets. */
		.lat = { 2.514, 2.687, 2.7049, 2.811, 3.402, 6.75, 41.333, 0.2172,
			 .bucketed = true },
	},
	{
		/* A point that produced no latency samples. */
		.pt = { .size = 1048576,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
	},
};

static const struct rb_result bw_res[] = {
	{
		.pt = { .size = 64,
			.batch = 4,
			.signal = 16,
			.qps = 2,
			.tx_depth = 256,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 12961000,
		.duration_s = 5.0003,
		.has_bw = true,
		.bw_avg_gbps = 1.327,
		.bw_peak_gbps = 1.354,
		.msg_rate_mpps = 2.5922,
		.has_cpu = true,
		.cpu_util_pct = 100.0,
		.cpu_ns_per_msg = 385.8,
		.has_peer = true,
		.peer_cpu_util_pct = 43.0,
		.peer_bw_avg_gbps = 1.326,
	},
	{
		.pt = { .size = 65536,
			.batch = 4,
			.signal = 16,
			.qps = 2,
			.tx_depth = 256,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 1759600,
		.duration_s = 5.0001,
		.has_bw = true,
		.bw_avg_gbps = 92.345678,
		.bw_peak_gbps = 97.5,
		.msg_rate_mpps = 0.17613,
		.has_cpu = true,
		.cpu_util_pct = 12.5,
		.cpu_ns_per_msg = 70.9,
	},
};

#define NLAT (sizeof(lat_res) / sizeof(lat_res[0]))
#define NBW  (sizeof(bw_res) / sizeof(bw_res[0]))

/* ---- helpers ----------------------------------------------------------- */

static char *tmp_path(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* @s with every "@VERSION@" replaced by PACKAGE_VERSION. */
static char *subst_version(const char *s)
{
	static const char key[] = "@VERSION@";
	size_t vlen = strlen(PACKAGE_VERSION), klen = strlen(key);
	char *out = malloc(strlen(s) * (vlen + 1) + 1), *o = out;
	const char *p;

	assert_non_null(out);
	while ((p = strstr(s, key))) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, PACKAGE_VERSION, vlen);
		o += vlen;
		s = p + klen;
	}
	strcpy(o, s);
	return out;
}

/* No "*.tmp.*" file is left in the scratch directory. */
static void assert_no_temp(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			fail_msg("temporary file left behind: %s", e->d_name);
	closedir(d);
}

/*
 * RB_UPDATE_GOLDEN=1 (make update-golden): the golden file becomes what
 * the writer wrote, its version spelled "@VERSION@" again, and the test
 * says so; the files are never edited by hand.
 */
static void update_golden(const char *path, const char *got)
{
	const char *v = PACKAGE_VERSION, *p;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	while ((p = strstr(got, v))) {
		fwrite(got, 1, (size_t)(p - got), f);
		fputs("@VERSION@", f);
		got = p + strlen(v);
	}
	fputs(got, f);
	assert_int_equal(fclose(f), 0);
	print_message("update-golden: rewrote %s from the writer's output\n", path);
}

static void check_golden(const char *name, enum rb_format fmt, const struct rb_doc *r,
			 const struct rb_result *res, size_t n)
{
	const char *update = getenv("RB_UPDATE_GOLDEN");
	char golden[512];
	char *want, *want_raw, *got;

	assert_int_equal(rb_write_file(tmp_path(name), fmt, r, res, n), 0);
	assert_no_temp();
	got = slurp(tmp_path(name));
	snprintf(golden, sizeof(golden), "%s/%s", GOLDEN_DIR, name);
	if (update && !strcmp(update, "1"))
		update_golden(golden, got);
	want_raw = slurp(golden);
	want = subst_version(want_raw);
	assert_string_equal(got, want);
	free(want);
	free(want_raw);
	free(got);
}

/* Writes @fmt of @r to memory, for checks that need no golden file. */
static char *write_mem(enum rb_format fmt, const struct rb_doc *r, const struct rb_result *res,
		       size_t n)
{
	struct rb_writer w;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rb_writer_init(&w, fmt, f);
	assert_int_equal(w.ops->begin(&w, r), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(w.ops->row(&w, r, &res[i]), 0);
	assert_int_equal(w.ops->end(&w, r), 0);
	assert_null(w.doc);
	fclose(f);
	return buf;
}

static json_t *load_json(const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);

	if (!doc)
		fail_msg("%s:%d: %s", path, err.line, err.text);
	return doc;
}

static json_t *jget(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("missing key \"%s\"", key);
	return v;
}

static void assert_jstr(json_t *o, const char *key, const char *want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), want);
}

static void assert_jint(json_t *o, const char *key, long long want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_integer(v));
	assert_int_equal(json_integer_value(v), want);
}

/* Reals are printed to 9 significant digits (RB_JSON_DUMP): within half a unit of the 9th. */
static void assert_jreal(json_t *o, const char *key, double want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_real(v));
	if (fabs(json_real_value(v) - want) > 5e-9 * fabs(want)) {
		print_error("%s: %.17g, want %.17g to 9 digits\n", key, json_real_value(v), want);
		fail();
	}
}

static void assert_jnull(json_t *o, const char *key)
{
	assert_true(json_is_null(jget(o, key)));
}

static void assert_jabsent(json_t *o, const char *key)
{
	if (json_object_get(o, key))
		fail_msg("unexpected key \"%s\"", key);
}

/* ---- tests ------------------------------------------------------------- */

/* The CSV's columns after the shape's, the same for every test (doc/output.md). */
#define CSV_FIXED_TAIL                                                                 \
	"poll,cqe_poll,thread,rail,c2s_bw_avg_gbps,c2s_msg_rate_mpps,s2c_bw_avg_gbps," \
	"s2c_msg_rate_mpps"

static void test_csv_header(void **state)
{
	char buf[1024];

	(void)state;
	assert_string_equal(rb_csv_header(buf, sizeof(buf)),
			    "test,op,device,host,size,batch,signal,qps,tx_depth,"
			    "iterations,duration_s,"
			    "lat_min_us,lat_p50_us,lat_avg_us,lat_p90_us,lat_p99_"
			    "us,lat_p999_us,lat_max_us,"
			    "lat_stdev_us,bw_avg_gbps,bw_peak_gbps,bw_avg_mibps,"
			    "msg_rate_mpps,cpu_util_pct,"
			    "peer_cpu_util_pct,cpu_ns_per_msg,peer_bw_avg_gbps,wakeups_per_msg,"
			    "loaded_p50_us,loaded_p99_us,idle_p50_us,idle_p99_us,wr_p50_us,wr_p99_"
			    "us,rcache_hit_pct,regs_per_s,deregs_per_s,"
			    "lock_acq_per_s,lock_release_us,lock_handoff_us,lock_attempts,lock_"
			    "jain,"
			    "lock_share_min," /* issue 42 */
			    "device_numa_node,cpus,mem_node,"
			    "local,interval,interval_start_s,bw_min_interval_gbps,"
			    "rate_target_gbps,rate_target_mpps,rate_deviation_"
			    "pct");
}

/* The first line of @csv, in @buf. */
static const char *csv_head_of(const char *csv, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(csv, "\n"), csv);
	return buf;
}

/*
 * Issue 38: the CSV's columns are the same whatever the test and options
 * (a latency test; a bandwidth test with -b, threads, rails, a poll sweep
 * and counters): what does not apply is empty.  --csv-counters alone adds
 * the counters' block.
 */
static void test_csv_stable_columns(void **state)
{
	struct rb_params p = bw_params;
	struct rb_result res[2] = { bw_res[0], bw_res[1] };
	struct rb_doc lat, bw;
	char *a, *b, ha[2048], hb[2048];

	(void)state;
	lat_report(&lat);
	bw_report(&bw);
	p.threads = 2;
	p.bidir = 1;
	rb_axis_parse("busy,event", false, &p.poll, (char[8]){ 0 }, 8);
	bw.params = &p;
	bw.rail_width = 8;
	bw.has_counters = bw.has_peer_counters = true;
	bw.driver_id = bw.peer_driver_id = RB_PROV_RXE;
	res[1].has_bidir = true;
	a = write_mem(RB_FMT_CSV, &lat, lat_res, NLAT);
	b = write_mem(RB_FMT_CSV, &bw, res, 2);
	assert_string_equal(csv_head_of(a, ha, sizeof(ha)), csv_head_of(b, hb, sizeof(hb)));
	assert_null(strstr(hb, "ctr_"));
	free(b);
	bw.csv_counters = true;
	b = write_mem(RB_FMT_CSV, &bw, res, 2);
	csv_head_of(b, hb, sizeof(hb));
	assert_int_equal(strncmp(ha, hb, strlen(ha)), 0);
	assert_non_null(strstr(hb + strlen(ha), ",ctr_sent_pkts,"));
	assert_non_null(strstr(hb + strlen(ha), ",peer_ctr_sent_pkts,"));
	free(a);
	free(b);
}

/*
 * Issue 38: the "!" lines become a verdict after the table: a count and a
 * sentence per kind (retransmissions, other error counters, --expect),
 * then one summary line; none for a run that read no counters and had no
 * gate.
 */
static void test_verdict(void **state)
{
	struct rb_result res[3] = { bw_res[0], bw_res[1], bw_res[1] };
	struct rb_strlist gates = { .n = 1 };
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	r.has_counters = r.has_peer_counters = true;
	r.driver_id = r.peer_driver_id = RB_PROV_RXE;
	res[0].diag = json_pack("{s:{s:i}, s:[s,s], s:[s], s:[{s:s}]}", "counters_derived",
				"retrans", 23, "counter_errors", "completer_retry_err",
				"rcvd_seq_err", "peer_counter_errors", "out_of_seq_request",
				"expect", "result", "fail");
	assert_non_null(res[0].diag);
	snprintf(res[0].flag, sizeof(res[0].flag), "completer_retry_err,rcvd_seq_err");
	res[1].diag = json_pack("{s:[]}", "counter_errors");
	res[1].flag[0] = '\0';
	res[2].diag = json_pack("{s:[s]}", "counter_errors", "rcvd_seq_err");
	snprintf(res[2].flag, sizeof(res[2].flag), "rcvd_seq_err");
	r.expectations = &gates;
	got = write_mem(RB_FMT_TABLE, &r, res, 3);
	assert_non_null(strstr(got, "\n! 1 of 3 points retransmitted (23 retransmission events, "
				    "both sides): the figures of those points include loss "
				    "recovery\n"));
	assert_non_null(strstr(got, "\n! 2 of 3 points moved error counters (rcvd_seq_err, "
				    "peer out_of_seq_request): "));
	assert_non_null(strstr(got, "\n! 1 of 3 points failed --expect: the run exits 3\n"));
	assert_non_null(strstr(got, "\nverdict: 2 of 3 points flagged, 1 clean\n"));
	free(got);
	/* Clean: one line. */
	got = write_mem(RB_FMT_TABLE, &r, &res[1], 1);
	assert_non_null(strstr(got, "\nverdict: the point is clean (no error counter moved, every "
				    "--expect held)\n"));
	free(got);
	json_decref(res[2].diag);
	res[2] = res[1];
	res[2].diag = NULL;
	got = write_mem(RB_FMT_TABLE, &r, &res[1], 2);
	assert_non_null(strstr(got, "\nverdict: all 2 points clean (no error counter moved, every "
				    "--expect held)\n"));
	assert_null(strstr(got, "\n! "));
	free(got);
	/* Nothing looked at: no verdict. */
	r.has_counters = r.has_peer_counters = false;
	r.expectations = NULL;
	got = write_mem(RB_FMT_TABLE, &r, &res[1], 1);
	assert_null(strstr(got, "verdict"));
	free(got);
	json_decref(res[0].diag);
	json_decref(res[1].diag);
	json_decref(res[2].diag);
}

/* --json-stream's lines: start, an interval as it ends, the point, end. */
static void test_json_stream(void **state)
{
	struct rb_interval iv = { .start_s = 0, .duration_s = 1, .ops = 10, .bw_gbps = 2 };
	struct rb_writer w;
	struct rb_doc r;
	char *buf = NULL, *l, *save = NULL;
	const char *want[] = { "start", "interval", "point", "end" };
	size_t len = 0, i = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	bw_report(&r);
	rb_writer_init(&w, RB_FMT_JSONL, f);
	assert_int_equal(w.ops->begin(&w, &r), 0);
	assert_int_equal(w.ops->interval(&w, &r, &bw_res[0].pt, &iv, 0), 0);
	assert_int_equal(w.ops->row(&w, &r, &bw_res[0]), 0);
	r.incomplete = true;
	r.reason = "interrupted";
	assert_int_equal(w.ops->end(&w, &r), 0);
	fclose(f);
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save), i++) {
		json_t *o = json_loads(l, 0, NULL), *d;

		assert_non_null(o);
		assert_true(i < 4);
		assert_string_equal(json_string_value(json_object_get(o, "event")), want[i]);
		d = json_object_get(o, "data");
		if (i == 1)
			assert_int_equal(json_integer_value(json_object_get(d, "index")), 1);
		if (i == 2)
			assert_int_equal(json_integer_value(json_object_get(d, "size")),
					 bw_res[0].pt.size);
		if (i == 3) {
			assert_false(json_boolean_value(json_object_get(d, "complete")));
			assert_int_equal(json_integer_value(json_object_get(d, "points")), 1);
			assert_string_equal(json_string_value(json_object_get(d, "reason")), "inter"
											     "rupte"
											     "d");
		}
		json_decref(o);
	}
	assert_int_equal(i, 4);
	free(buf);
}

/* The peer's fingerprint (wire v18's CONN block) in the JSON, only when it came. */
static void test_peer_fingerprint(void **state)
{
	struct rb_doc r;
	json_t *doc, *fp;

	(void)state;
	bw_report(&r);
	doc = json_doc(&r, bw_res, 1);
	assert_jabsent(doc, "peer_fingerprint");
	json_decref(doc);
	r.has_peer_fp = true;
	snprintf(r.peer_fp.kernel, sizeof(r.peer_fp.kernel), "Linux 6.1.0-18-amd64");
	snprintf(r.peer_fp.rdma_core, sizeof(r.peer_fp.rdma_core), "44.0");
	r.peer_fp.vendor_id = 0x02c9;
	doc = json_doc(&r, bw_res, 1);
	fp = jget(doc, "peer_fingerprint");
	assert_jstr(fp, "kernel", "Linux 6.1.0-18-amd64");
	assert_jstr(fp, "rdma_core", "44.0");
	assert_jnull(fp, "fw_ver");
	assert_jnull(fp, "board_id");
	assert_jint(fp, "vendor_id", 0x02c9);
	assert_jint(fp, "hw_ver", 0);
	/* No PCI function said: no link, and why. */
	assert_jnull(fp, "pcie");
	assert_non_null(strstr(json_string_value(jget(fp, "why_pcie")), "no PCI function"));
	json_decref(doc);
	/* A function without a link (virtual), then a Gen3 x16 running x8. */
	snprintf(r.peer_fp.pci, sizeof(r.peer_fp.pci), "0000:00:03.0");
	doc = json_doc(&r, bw_res, 1);
	fp = jget(doc, "peer_fingerprint");
	assert_jnull(fp, "pcie");
	assert_non_null(strstr(json_string_value(jget(fp, "why_pcie")), "0000:00:03.0"));
	json_decref(doc);
	r.peer_fp.pcie = (struct rb_pcie_link){ 8.0, 8.0, 8, 16 };
	doc = json_doc(&r, bw_res, 1);
	fp = jget(doc, "peer_fingerprint");
	assert_jnull(fp, "why_pcie");
	fp = jget(fp, "pcie");
	assert_jstr(fp, "pci", "0000:00:03.0");
	assert_jreal(fp, "cur_gts", 8.0);
	assert_jreal(fp, "max_gts", 8.0);
	assert_jint(fp, "cur_width", 8);
	assert_jint(fp, "max_width", 16);
	/* 8 GT/s x 8 lanes x 128/130 */
	assert_jreal(fp, "ceiling_gbps", 8.0 * 8 * 128 / 130);
	json_decref(doc);
}

/* This side's PCIe link (JSON device.pcie), as placement read it. */
static void test_device_pcie(void **state)
{
	struct rb_doc r;
	json_t *doc, *dev;

	(void)state;
	bw_report(&r);
	doc = json_doc(&r, bw_res, 1);
	dev = jget(doc, "device");
	assert_jnull(dev, "pcie");
	assert_non_null(strstr(json_string_value(jget(dev, "why_pcie")), "no PCI function"));
	json_decref(doc);
	snprintf(r.place.pci, sizeof(r.place.pci), "0000:81:00.0");
	r.place.pcie = (struct rb_pcie_link){ 16.0, 16.0, 16, 16 };
	doc = json_doc(&r, bw_res, 1);
	dev = jget(doc, "device");
	assert_jnull(dev, "why_pcie");
	assert_jstr(jget(dev, "pcie"), "pci", "0000:81:00.0");
	assert_jreal(jget(dev, "pcie"), "cur_gts", 16.0);
	assert_jint(jget(dev, "pcie"), "max_width", 16);
	assert_jreal(jget(dev, "pcie"), "ceiling_gbps", 16.0 * 16 * 128 / 130);
	json_decref(doc);
}

static void test_golden_lat(void **state)
{
	struct rb_doc r;

	(void)state;
	lat_report(&r);
	check_golden("lat.csv", RB_FMT_CSV, &r, lat_res, NLAT);
	check_golden("lat.table", RB_FMT_TABLE, &r, lat_res, NLAT);
	check_golden("lat.json", RB_FMT_JSON, &r, lat_res, NLAT);
}

static void test_golden_bw(void **state)
{
	struct rb_doc r;

	(void)state;
	bw_report(&r);
	check_golden("bw.csv", RB_FMT_CSV, &r, bw_res, NBW);
	check_golden("bw.table", RB_FMT_TABLE, &r, bw_res, NBW);
	check_golden("bw.json", RB_FMT_JSON, &r, bw_res, NBW);
}

/* Rewriting a file replaces it whole. */
static void test_rewrite(void **state)
{
	struct rb_doc r;
	char *got;

	(void)state;
	lat_report(&r);
	assert_int_equal(rb_write_file(tmp_path("again.csv"), RB_FMT_CSV, &r, lat_res, NLAT), 0);
	assert_int_equal(rb_write_file(tmp_path("again.csv"), RB_FMT_CSV, &r, lat_res, 1), 0);
	got = slurp(tmp_path("again.csv"));
	assert_non_null(strstr(got, "\nsend_lat,,rxe0,fixture-host,2,"));
	assert_null(strstr(got, ",64,"));
	free(got);
	assert_no_temp();
}

/* Text cells are quoted per RFC 4180 only when they must be (csv.c). */
static void test_csv_quoting(void **state)
{
	struct rb_doc r;
	char *got;

	(void)state;
	lat_report(&r);
	r.test = "atomic_lat";
	r.op = "fadd";
	r.host = "a,b\"c\nd";
	r.device = "dev,0";
	r.place.local = -1;
	r.place.mem_node = -1;
	got = write_mem(RB_FMT_CSV, &r, lat_res, 1);
	assert_non_null(strstr(got, "\natomic_lat,fadd,\"dev,0\",\"a,b\"\"c\nd\",2,1,1,1,128,"
				    "10000,"));
	/* Placement: node 1, cpus 1, no memory node, unknown; then no shape. */
	assert_non_null(strstr(got, ",1,1,,,,,,,,,busy,32,,,,,,\n"));
	free(got);
}

/*
 * What README says of --poll event (issue 37, docs): the table's wake-ups
 * column comes with a sweep of how points wait, not with event mode alone;
 * the CSV has wakeups_per_msg either way.
 */
static void test_event_table_cols(void **state)
{
	struct rb_params p = bw_params;
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	r.params = &p;
	p.poll.n = 1;
	p.poll.v[0] = RB_POLL_EVENT;
	res.pt.poll = RB_POLL_EVENT;
	res.has_wakeups = true;
	res.wakeups_per_msg = 0.5;
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_null(strstr(got, "wakeups"));
	free(got);
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	assert_non_null(strstr(got, ",wakeups_per_msg,"));
	assert_non_null(strstr(got, ",0.5,"));
	free(got);
	p.poll.n = 2;
	p.poll.v[1] = RB_POLL_BUSY;
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "wakeups/msg"));
	free(got);
}

/* --threads: a last column says whose row it is; a thread's has its CPUs. */
static void test_thread_rows(void **state)
{
	struct rb_placement mine = { .device_numa_node = 0, .cpus = "3", .mem_node = 1 };
	struct rb_interval slice = { .duration_s = 1, .ops = 10, .bw_gbps = 2 };
	struct rb_params p = bw_params;
	struct rb_result rows[2] = { bw_res[0], bw_res[0] };
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	p.threads = 2;
	r.params = &p;
	rows[1].thread_row = 2;
	rows[1].thread_place = &mine;
	got = write_mem(RB_FMT_CSV, &r, rows, 2);
	assert_non_null(strstr(got, ",device_numa_node,cpus,mem_node,local,interval,"
				    "interval_start_s,bw_min_interval_gbps,rate_target_gbps,"
				    "rate_target_mpps,rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,all,,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,,,,,,,busy,32,1,,,,,\n"));
	free(got);
	got = write_mem(RB_FMT_TABLE, &r, rows, 2);
	assert_non_null(strstr(got, "cpu[ns/msg] thread\n"));
	assert_non_null(strstr(got, "    all\n"));
	assert_non_null(strstr(got, "      1\n"));
	assert_null(strstr(got, "rail"));
	free(got);
	/* -d LIST: each thread's rail in a column after it; the sum's "-". */
	r.rail_width = 8;
	rows[1].rail = "mlx5_1:2";
	got = write_mem(RB_FMT_TABLE, &r, rows, 2);
	assert_non_null(strstr(got, "cpu[ns/msg] thread     rail\n"));
	assert_non_null(strstr(got, "    all        -\n"));
	assert_non_null(strstr(got, "      1 mlx5_1:2\n"));
	free(got);
	/* Issue 37 item 8: the CSV too, its device column being thread 0's; a
	 * thread's --interval slices are that thread's, on its rail. */
	rows[1].iv = &slice;
	rows[1].niv = 1;
	got = write_mem(RB_FMT_CSV, &r, rows, 2);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,all,,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,,,,,,,busy,32,1,mlx5_1:2,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,1,0,,,,,busy,32,1,mlx5_1:2,,,,\n"));
	free(got);
	rows[1].iv = NULL;
	rows[1].niv = 0;
	r.rail_width = 0;
	rows[1].rail = NULL;
	/* Without threads the same columns, the thread's cell empty. */
	p.threads = 1;
	got = write_mem(RB_FMT_CSV, &r, rows, 1);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,,,,,,\n"));
	free(got);
}

/* --interval and --rate: slices before their point, its lowest slice, the rate. */
static void test_shape_outputs(void **state)
{
	struct rb_interval iv[2] = {
		{ .start_s = 0, .duration_s = 1, .ops = 10, .bw_gbps = 2, .msg_rate_mpps = 0.5 },
		{ .start_s = 1,
		  .duration_s = 1.5,
		  .ops = 20,
		  .bw_gbps = 1.5,
		  .msg_rate_mpps = 0.25 },
	};
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	struct rb_writer w;
	json_t *doc, *pt;
	char *got, *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	bw_report(&r);
	res.iv = iv;
	res.niv = 2;
	res.has_bw_min_iv = true;
	res.bw_min_iv_gbps = 1.5;
	res.has_rate = true;
	res.rate_target = 10;
	res.rate_achieved = 9;
	res.rate_dev_pct = -10;
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	/* Slice rows: numbered, their start, no peak, no CPU; then the point. */
	assert_non_null(strstr(got, ",10,1,,,,,,,,,2,,238.418579,0.5,,,,,"));
	assert_non_null(strstr(got, ",1,0,,,,,busy,32,,,,,,\n"));
	assert_non_null(strstr(got, ",2,1,,,,,busy,32,,,,,,\n"));
	assert_non_null(strstr(got, ",,,1.5,10,,-10,busy,32,,,,,,\n"));
	assert_true(strstr(got, ",1,0,,,,,busy") < strstr(got, ",2,1,,,,,busy"));
	free(got);

	doc = json_doc(&r, &res, 1);
	assert_non_null(doc);
	pt = json_array_get(json_object_get(doc, "results"), 0);
	assert_int_equal(json_array_size(json_object_get(pt, "intervals")), 2);
	assert_true(json_real_value(json_object_get(pt, "bw_min_interval_gbps")) == 1.5);
	assert_true(json_real_value(json_object_get(pt, "rate_target_gbps")) == 10);
	assert_true(json_real_value(json_object_get(pt, "rate_achieved_gbps")) == 9);
	assert_true(json_real_value(json_object_get(pt, "rate_deviation_pct")) == -10);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(json_object_get(pt, "intervals"), 1), "iteration"
										      "s")),
			 20);
	assert_null(json_object_get(pt, "interrupted"));
	json_decref(doc);

	/* The table: a slice live, then the point and its notes. */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_writer_init(&w, RB_FMT_TABLE, f);
	assert_non_null(w.ops->interval);
	assert_int_equal(w.ops->interval(&w, &r, &res.pt, &iv[1], 1), 0);
	res.cut = true;
	assert_int_equal(w.ops->row(&w, &r, &res), 0);
	fclose(f);
	assert_non_null(strstr(buf, "[interval 2: 1.00-2.50 s]\n"));
	assert_non_null(strstr(buf, "# lowest interval bandwidth 178.81 MiB/s over 2 interval(s)"));
	assert_non_null(strstr(buf, "# rate: target 10 Gb/s, achieved 9 Gb/s (-10.0%)"));
	assert_non_null(strstr(buf, "# interrupted"));
	free(buf);
}

static void test_table_units(void **state)
{
	static const struct rb_result one = {
		.pt = { .size = 1048576,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.iters = 100,
		.has_bw = true,
		.bw_avg_gbps = 8.0,
		.bw_peak_gbps = 16.0,
		.msg_rate_mpps = 0.000954,
	};
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	r.has_peer_place = false;
	got = write_mem(RB_FMT_TABLE, &r, &one, 1);
	assert_non_null(strstr(got, "BW_avg[MiB/s] BW_peak[MiB/s]"));
	assert_non_null(strstr(got, " 953.67 "));
	assert_null(strstr(got, "peer placement"));
	/* Message rates keep four significant digits, however small. */
	assert_non_null(strstr(got, " 0.000954 "));
	/* No CPU and no peer figures: dashes, aligned under their headers. */
	assert_non_null(strstr(got, " CPU[%] peerCPU[%] cpu[ns/msg]\n"));
	assert_non_null(strstr(got, "      -          -           -\n"));
	free(got);

	r.units = RB_UNITS_GBITS;
	got = write_mem(RB_FMT_TABLE, &r, &one, 1);
	assert_non_null(strstr(got, "BW_avg[Gb/s] BW_peak[Gb/s]"));
	assert_non_null(strstr(got, " 8.00 "));
	assert_non_null(strstr(got, " 16.00 "));
	free(got);

	r.units = RB_UNITS_MBS;
	got = write_mem(RB_FMT_TABLE, &r, &one, 1);
	assert_non_null(strstr(got, "BW_avg[MB/s] BW_peak[MB/s]"));
	assert_non_null(strstr(got, " 1000.00 "));
	assert_non_null(strstr(got, " 2000.00 "));
	free(got);
}

static void test_json_lat(void **state)
{
	static const char evil[] = "fix\"ture\\host\t\xc3\xa9";
	struct rb_doc r;
	json_t *doc, *res0, *built, *p, *size;
	char *raw;

	(void)state;
	lat_report(&r);
	r.host = evil;
	assert_int_equal(rb_write_file(tmp_path("lat.json"), RB_FMT_JSON, &r, lat_res, NLAT), 0);
	assert_no_temp();

	raw = slurp(tmp_path("lat.json"));
	assert_non_null(strstr(raw, "\"host\": \"fix\\\"ture\\\\host\\t\xc3\xa9\""));
	assert_non_null(strstr(raw, "{\n  \"schema_version\": 1,\n"));
	assert_string_equal(raw + strlen(raw) - 2, "}\n");
	free(raw);

	doc = load_json(tmp_path("lat.json"));
	assert_jint(doc, "schema_version", RB_SCHEMA_VERSION);
	assert_jstr(doc, "tool", "rdmabench");
	assert_jstr(doc, "version", PACKAGE_VERSION);
	assert_jstr(doc, "test", "send_lat");
	assert_jabsent(doc, "op");
	assert_jstr(doc, "role", "client");
	assert_jstr(doc, "timestamp", "2026-01-02T03:04:05Z");
	assert_jstr(doc, "host", evil);
	assert_jstr(doc, "peer", "192.0.2.2:18515");
	assert_jabsent(doc, "peer_placement");
	assert_jabsent(doc, "recommendation");

	assert_jstr(jget(doc, "device"), "name", "rxe0");
	assert_jint(jget(doc, "device"), "gid_index", 1);
	assert_jint(jget(doc, "device"), "path_mtu", 1024);

	p = jget(doc, "params");
	size = jget(p, "size");
	assert_int_equal(json_array_size(size), 4);
	assert_int_equal(json_integer_value(json_array_get(size, 3)), 1048576);
	assert_int_equal(json_array_size(jget(p, "tx_depth")), 1);
	assert_jint(p, "iterations", 10000);
	assert_jnull(p, "duration_s");
	assert_jnull(p, "mtu");
	assert_true(json_is_true(jget(p, "verify")));
	assert_true(json_is_false(jget(p, "rdma_cm")));
	assert_jstr(p, "transport", "RC");
	assert_jint(p, "sl", 0);
	assert_jint(p, "tclass", 0);
	assert_jint(p, "flow_label", 0);

	assert_jint(jget(doc, "placement"), "device_numa_node", 1);
	assert_jstr(jget(doc, "placement"), "cpus", "1");
	assert_true(json_is_true(jget(jget(doc, "placement"), "local")));

	assert_int_equal(json_array_size(jget(doc, "results")), NLAT);
	res0 = json_array_get(jget(doc, "results"), 0);
	assert_jint(res0, "size", 2);
	assert_jint(res0, "iterations", 10000);
	assert_jreal(res0, "duration_s", 0.0219);
	assert_jreal(jget(res0, "lat_us"), "p99", 1.5);
	assert_jreal(jget(res0, "lat_us"), "p999", 2.95);
	assert_jreal(res0, "cpu_util_pct", 99.5);
	assert_jreal(res0, "peer_cpu_util_pct", 99.1);
	assert_jnull(res0, "peer_bw_avg_gbps");
	assert_jabsent(res0, "bw_avg_gbps");
	assert_jabsent(res0, "bw_avg_mibps");
	assert_jabsent(res0, "msg_rate_mpps");
	/* Third point: no CPU, no peer; fourth: no latency either. */
	assert_jabsent(json_array_get(jget(doc, "results"), 2), "cpu_util_pct");
	assert_jabsent(json_array_get(jget(doc, "results"), 2), "peer_cpu_util_pct");
	assert_jabsent(json_array_get(jget(doc, "results"), 3), "lat_us");
	/* Issue 21 item 11: how the percentiles were found, per point. */
	assert_jstr(res0, "percentiles", "exact");
	assert_jstr(json_array_get(jget(doc, "results"), 2), "percentiles", "bucketed");
	assert_jabsent(json_array_get(jget(doc, "results"), 3), "percentiles");

	/* json_doc() builds the very document the writer dumped. */
	built = json_doc(&r, lat_res, NLAT);
	assert_non_null(built);
	assert_true(json_equal(built, doc));
	json_decref(built);
	json_decref(doc);
}

/* No real in the file at @path has over 9 significant digits (17 is jansson's default). */
static void no_long_reals(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int reals = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "\": "), *q;
		size_t digits = 0;

		p = p ? p + 3 : line + strspn(line, " ");
		q = p + (*p == '-');
		if (*q < '0' || *q > '9' || !memchr(p, '.', strcspn(p, ",\n")))
			continue;
		for (; *q && !strchr(",\n]}eE", *q); q++)
			digits += *q >= '0' && *q <= '9';
		reals++;
		if (digits > 10) { /* a leading "0." adds one */
			print_error("%s: a real of %zu digits: %s", path, digits, line);
			fail();
		}
	}
	fclose(f);
	assert_true(reals > 5);
}

/* The identity a run's JSON carries: command line, run id, system, tags, the device's. */
static char *ident_argv[] = { "rdmabench", "write_bw", "--tag", "rack=a12", "host", NULL };
static struct rb_strlist ident_tags = { .n = 2, .v = { "rack=a12", "note=x=y" } };

static void ident_report(struct rb_doc *r)
{
	rb_ident_init(5, ident_argv);
	r->tags = &ident_tags;
	snprintf(r->fw_ver, sizeof(r->fw_ver), "20.31.1014");
	snprintf(r->board_id, sizeof(r->board_id), "MT_0000000222");
	snprintf(r->rdma_core, sizeof(r->rdma_core), "44.0");
	r->vendor_id = 0x02c9;
	r->vendor_part_id = 4123;
}

static void check_ident(json_t *doc)
{
	json_t *argv = jget(doc, "command_line"), *dev = jget(doc, "device");
	const char *id = json_string_value(jget(doc, "run_id"));
	size_t i;

	assert_int_equal(json_array_size(argv), 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(json_string_value(json_array_get(argv, i)), ident_argv[i]);
	assert_non_null(id);
	assert_int_equal(strlen(id), 36);
	assert_int_equal(id[14], '4');
	assert_string_equal(json_string_value(jget(jget(doc, "system"), "rdma_core")), "44.0");
	assert_non_null(strstr(json_string_value(jget(jget(doc, "system"), "kernel")), "Linux"));
	assert_jstr(jget(doc, "tags"), "rack", "a12");
	assert_jstr(jget(doc, "tags"), "note", "x=y");
	assert_jstr(dev, "fw_ver", "20.31.1014");
	assert_jstr(dev, "board_id", "MT_0000000222");
	assert_jint(dev, "vendor_id", 0x02c9);
	assert_jint(dev, "vendor_part_id", 4123);
	rb_ident_reset(); /* the goldens, written in any order, carry none */
}

static void test_uuid(void **state)
{
	const unsigned char b[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	char buf[40];

	(void)state;
	rb_uuid_text(b, buf, sizeof(buf));
	/* RFC 4122 4.4: version 4 in byte 6's high nibble, variant 10 in byte 8's top bits. */
	assert_string_equal(buf, "00010203-0405-4607-8809-0a0b0c0d0e0f");
}

static void test_json_bw(void **state)
{
	struct rb_doc r;
	json_t *doc, *res0, *res1, *pp, *p;

	(void)state;
	bw_report(&r);
	ident_report(&r);
	r.recommendation = json_pack("{s:s, s:i}", "param", "batch", "value", 4);
	assert_non_null(r.recommendation);
	assert_int_equal(rb_write_file(tmp_path("bw.json"), RB_FMT_JSON, &r, bw_res, NBW), 0);
	assert_no_temp();
	/* The writer took its own reference. */
	assert_int_equal(r.recommendation->refcount, 1);

	doc = load_json(tmp_path("bw.json"));
	no_long_reals(tmp_path("bw.json"));
	check_ident(doc);
	assert_jstr(doc, "test", "write_bw");
	assert_jnull(jget(doc, "device"), "gid_index");
	assert_jstr(jget(doc, "device"), "link_layer", "InfiniBand");
	p = jget(doc, "params");
	assert_jnull(p, "iterations");
	assert_jint(p, "duration_s", 5);
	assert_jint(p, "mtu", 4096);
	assert_true(json_is_true(jget(p, "rdma_cm")));
	assert_jstr(p, "transport", "UC");
	assert_jint(p, "sl", 7);
	assert_jint(p, "tclass", 184);
	assert_jint(p, "flow_label", 0xfffff);
	assert_jstr(jget(doc, "placement"), "cpus", "0-3 8");
	assert_true(json_is_false(jget(jget(doc, "placement"), "local")));

	pp = jget(doc, "peer_placement");
	assert_jnull(pp, "device_numa_node");
	assert_jnull(pp, "cpus");
	assert_jnull(pp, "mem_node");
	assert_jnull(pp, "local");

	assert_int_equal(json_array_size(jget(doc, "results")), NBW);
	res0 = json_array_get(jget(doc, "results"), 0);
	res1 = json_array_get(jget(doc, "results"), 1);
	assert_jabsent(res0, "lat_us");
	assert_jreal(res0, "bw_avg_gbps", 1.327);
	assert_jreal(res0, "bw_peak_gbps", 1.354);
	assert_jreal(res0, "bw_avg_mibps", 1.327 * 1e9 / 8 / 1048576);
	assert_jreal(res0, "msg_rate_mpps", 2.5922);
	assert_jreal(res0, "peer_bw_avg_gbps", 1.326);
	assert_jint(res1, "iterations", 1759600);
	assert_jabsent(res1, "peer_cpu_util_pct");
	assert_jabsent(res1, "peer_bw_avg_gbps");
	assert_jreal(res1, "cpu_ns_per_msg", 70.9);

	assert_true(json_equal(jget(doc, "recommendation"), r.recommendation));
	json_decref(doc);
	json_decref(r.recommendation);
}

/*
 * -b: the client's point carries each direction; the JSON nests them
 * under "bidir", the CSV and the table add their columns, and a server's
 * point (no directions) leaves those cells empty.
 */
static void test_bidir(void **state)
{
	struct rb_params p = bw_params;
	struct rb_result res[2] = { bw_res[0], bw_res[1] };
	struct rb_doc r;
	json_t *doc, *b, *d;
	char *got;

	(void)state;
	p.bidir = 1;
	bw_report(&r);
	r.params = &p;
	res[0].has_bidir = true;
	res[0].dir[RB_DIR_C2S] = (struct rb_dir_result){ false, 100, 1.5, 0.75, 0.8, 0.25 };
	res[0].dir[RB_DIR_S2C] = (struct rb_dir_result){ true, 90, 1.25, 0.5, 0.55, 0.125 };
	assert_int_equal(rb_write_file(tmp_path("bidir.json"), RB_FMT_JSON, &r, res, 2), 0);
	doc = load_json(tmp_path("bidir.json"));
	assert_true(json_is_true(jget(jget(doc, "params"), "bidirectional")));
	b = jget(json_array_get(jget(doc, "results"), 0), "bidir");
	d = jget(b, "client_to_server");
	assert_jstr(d, "initiator", "client");
	assert_jint(d, "iterations", 100);
	assert_jreal(d, "duration_s", 1.5);
	assert_jreal(d, "bw_avg_gbps", 0.75);
	assert_jreal(d, "bw_peak_gbps", 0.8);
	assert_jreal(d, "msg_rate_mpps", 0.25);
	d = jget(b, "server_to_client");
	assert_jstr(d, "initiator", "server");
	assert_jint(d, "iterations", 90);
	assert_jreal(d, "bw_avg_gbps", 0.5);
	assert_jabsent(json_array_get(jget(doc, "results"), 1), "bidir");
	json_decref(doc);

	got = write_mem(RB_FMT_CSV, &r, res, 2);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0.75,0.25,0.5,0.125\n"));
	assert_non_null(strstr(got, ",,,,\n")); /* the point without directions */
	free(got);
	got = write_mem(RB_FMT_TABLE, &r, res, 2);
	assert_non_null(strstr(got, "# bidirectional: "));
	assert_non_null(strstr(got, "c2s[MiB/s]"));
	assert_non_null(strstr(got, "s2c[Mpps]"));
	free(got);
	/* Without -b the same columns, empty. */
	r.params = &bw_params;
	got = write_mem(RB_FMT_CSV, &r, bw_res, 1);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",busy,32,,,,,,\n"));
	free(got);
}

/* --reversed: params.reversed and the table's line, only when set. */
static void test_reversed(void **state)
{
	struct rb_params p = bw_params;
	struct rb_doc r;
	json_t *doc;
	char *got;

	(void)state;
	bw_report(&r);
	assert_int_equal(rb_write_file(tmp_path("fwd.json"), RB_FMT_JSON, &r, bw_res, 1), 0);
	doc = load_json(tmp_path("fwd.json"));
	assert_jabsent(jget(doc, "params"), "reversed");
	json_decref(doc);
	p.reversed = 1;
	r.params = &p;
	assert_int_equal(rb_write_file(tmp_path("rev.json"), RB_FMT_JSON, &r, bw_res, 1), 0);
	doc = load_json(tmp_path("rev.json"));
	assert_true(json_is_true(jget(jget(doc, "params"), "reversed")));
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, bw_res, 1);
	assert_non_null(strstr(got, "# reversed: the server sent and timed each point"));
	free(got);
}

/*
 * Relaxed ordering (issue 37 items 17, 6): requested is not honoured.  On
 * rxe (a software device) and a refused flag it is known not to be; on
 * mlx5 or a driver without facts it is unknown (null), never "on"; no MR
 * registered, no member.  A read point whose -Q was clamped records
 * signal_ran.
 */
static void test_relaxed_known(void **state)
{
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	json_t *doc, *dev;
	char why[512];

	(void)state;
	bw_report(&r);
	r.relaxed_ordering = true;
	r.relaxed_honoured = rb_prov_relaxed_known(
		NULL, false, rb_prov_identify("mlx5_core", NULL, 0), why, sizeof(why));
	r.why_relaxed = why;
	assert_int_equal(r.relaxed_honoured, -1);
	assert_non_null(strstr(why, "requested"));
	assert_non_null(strstr(why, "unknown: mlx5 applies it only with"));
	assert_null(strstr(why, "on:"));
	res.signal_ran = 4;
	doc = rb_json_doc(&r, &res, 1);
	dev = jget(doc, "device");
	assert_true(json_is_true(json_object_get(dev, "relaxed_ordering")));
	assert_true(json_is_null(json_object_get(dev, "relaxed_ordering_honoured")));
	assert_jint(json_array_get(jget(doc, "results"), 0), "signal_ran", 4);
	json_decref(doc);

	r.relaxed_honoured = rb_prov_relaxed_known(NULL, false, rb_prov_identify(NULL, "rxe0", 0),
						   why, sizeof(why));
	assert_int_equal(r.relaxed_honoured, 0);
	assert_non_null(strstr(why, "ignored: a software device"));
	doc = rb_json_doc(&r, &res, 1);
	assert_true(json_is_false(json_object_get(jget(doc, "device"), "relaxed_ordering_"
								       "honoured")));
	json_decref(doc);

	assert_int_equal(rb_prov_relaxed_known(NULL, true, rb_prov_identify("mlx5_core", NULL, 0),
					       why, sizeof(why)),
			 0);
	assert_non_null(strstr(why, "refused"));
	assert_int_equal(rb_prov_relaxed_known("off: --disable-pcie-relaxed", false,
					       rb_prov_identify("irdma", NULL, 0), why,
					       sizeof(why)),
			 0);
	assert_string_equal(why, "off: --disable-pcie-relaxed");
	assert_int_equal(rb_prov_relaxed_known(NULL, false, rb_prov_identify("acme", "acme0", 0),
					       why, sizeof(why)),
			 -1);

	r.why_relaxed = NULL; /* no MR registered */
	doc = rb_json_doc(&r, &res, 1);
	assert_jabsent(jget(doc, "device"), "relaxed_ordering_honoured");
	json_decref(doc);
}

/*
 * --poll event: params.poll, the CQ's vector in device, each point's
 * wake-ups in JSON and its CSV cell; busy says "busy", has no wake-ups in
 * JSON and an empty cell in the column (a metric row: every CSV has it).
 */
static void test_poll_event(void **state)
{
	struct rb_params p = bw_params;
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	json_t *doc, *pt;
	char *got;

	(void)state;
	bw_report(&r);
	doc = json_doc(&r, &res, 1);
	assert_jstr(jget(doc, "params"), "poll", "busy");
	assert_jabsent(json_array_get(jget(doc, "results"), 0), "wakeups_per_msg");
	json_decref(doc);
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	assert_non_null(strstr(got, ",peer_bw_avg_gbps,wakeups_per_msg,"));
	assert_null(strstr(got, ",0.375,"));
	free(got);

	rb_axis_set1(&p.poll, RB_POLL_EVENT);
	r.params = &p;
	r.post_api = "post";
	r.comp_vector = 2;
	res.has_wakeups = true;
	res.wakeups = 150;
	res.wakeups_per_msg = 0.375;
	r.inline_used = 64;
	doc = json_doc(&r, &res, 1);
	assert_jstr(jget(doc, "params"), "poll", "event");
	assert_jint(jget(doc, "device"), "comp_vector", 2);
	/* Issue 37 item 10: the inline bytes the QPs took, for compare. */
	assert_jint(jget(doc, "device"), "inline_size", 64);
	pt = json_array_get(jget(doc, "results"), 0);
	assert_jint(pt, "wakeups", 150);
	assert_jreal(pt, "wakeups_per_msg", 0.375);
	json_decref(doc);
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	assert_non_null(strstr(got, ",peer_bw_avg_gbps,wakeups_per_msg,"));
	assert_non_null(strstr(got, ",0.375,"));
	free(got);

	/* Axes of both: params say so, each point which it was, CSV too. */
	rb_axis_set1(&p.poll, RB_POLL_BUSY);
	p.poll.v[p.poll.n++] = RB_POLL_EVENT;
	rb_axis_set1(&p.cqe_poll, 1);
	p.cqe_poll.v[p.cqe_poll.n++] = 16;
	res.pt.poll = RB_POLL_EVENT;
	res.pt.cqe_poll = 16;
	doc = json_doc(&r, &res, 1);
	assert_string_equal(json_string_value(json_array_get(jget(jget(doc, "params"), "poll"), 1)),
			    "event");
	assert_int_equal(json_array_size(jget(jget(doc, "params"), "cqe_poll")), 2);
	pt = json_array_get(jget(doc, "results"), 0);
	assert_jstr(pt, "poll", "event");
	assert_jint(pt, "cqe_poll", 16);
	json_decref(doc);
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0.375,"));
	assert_non_null(strstr(got, ",event,16,,,,,,\n"));
	free(got);
	/* The table: how each point waited, its CPU and wake-ups per message. */
	res.has_cpu = true;
	res.cpu_ns_per_msg = 812.5;
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, " poll  cqe cpu[ns/msg] wakeups/msg"));
	assert_non_null(strstr(got, "event   16       812.5       0.375"));
	free(got);
}

/* A sender's WRs per QP (JSON qp_wrs): there when the stream counted them. */
static void test_qp_wrs(void **state)
{
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	json_t *doc, *q;

	(void)state;
	bw_report(&r);
	doc = json_doc(&r, &res, 1);
	assert_null(json_object_get(json_array_get(jget(doc, "results"), 0), "qp_wrs"));
	json_decref(doc);
	res.has_qp_wrs = true;
	res.qp_wrs_used = 2;
	res.qp_wrs_min = 6480496;
	res.qp_wrs_max = 6480504;
	doc = json_doc(&r, &res, 1);
	q = jget(json_array_get(jget(doc, "results"), 0), "qp_wrs");
	assert_jint(q, "used", 2);
	assert_jint(q, "min", 6480496);
	assert_jint(q, "max", 6480504);
	json_decref(doc);
}

/*
 * Connection setup (JSON "setup", the table's last line): absent without
 * QPs; destroy_ms and qp_setup_us null until measured.
 */
static void test_setup(void **state)
{
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	json_t *doc, *su;
	char *got;

	(void)state;
	bw_report(&r);
	doc = json_doc(&r, &res, 1);
	assert_jabsent(doc, "setup");
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_null(strstr(got, "setup:"));
	free(got);

	r.setup = (struct rb_setup){
		.on = true, .qps = 1024, .create_ms = 20.5, .connect_ms = -1, .destroy_ms = -1
	};
	doc = json_doc(&r, &res, 1);
	su = jget(doc, "setup");
	assert_jint(su, "qps", 1024);
	assert_jreal(su, "create_ms", 20.5);
	assert_jnull(su, "connect_ms");
	assert_jnull(su, "destroy_ms");
	assert_jnull(su, "qp_setup_us");
	assert_jint(su, "cm_events", 0);
	json_decref(doc);

	r.setup.connect_ms = 30.7;
	r.setup.cm_events = 3072;
	r.setup.destroy_ms = 4.375;
	doc = json_doc(&r, &res, 1);
	su = jget(doc, "setup");
	assert_jreal(su, "connect_ms", 30.7);
	assert_jreal(su, "destroy_ms", 4.375);
	assert_jreal(su, "qp_setup_us", (20.5 + 30.7) * 1e3 / 1024);
	assert_jint(su, "cm_events", 3072);
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "setup: 1024 QPs: create 20.5 ms, connect 30.7 ms (50.0 us a "
				    "QP), destroy 4.4 ms\n"));
	assert_null(strstr(got, "server setup:"));
	free(got);
	doc = json_doc(&r, &res, 1);
	assert_jabsent(jget(doc, "setup"), "peer");
	json_decref(doc);

	/* The client's copy of the server's: no destroy_ms, its own line. */
	r.setup.peer_on = true;
	r.setup.peer_qps = 1024;
	r.setup.peer_create_ms = 10.25;
	r.setup.peer_connect_ms = 40.75;
	doc = json_doc(&r, &res, 1);
	su = jget(jget(doc, "setup"), "peer");
	assert_jint(su, "qps", 1024);
	assert_jreal(su, "create_ms", 10.25);
	assert_jreal(su, "connect_ms", 40.75);
	assert_jreal(su, "qp_setup_us", 51e3 / 1024);
	assert_jabsent(su, "destroy_ms");
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "destroy 4.4 ms\nserver setup: 1024 QPs: create 10.2 ms, "
				    "connect 40.8 ms (49.8 us a QP)\n"));
	free(got);
}

static void test_json_op(void **state)
{
	struct rb_doc r;
	json_t *doc;
	char *got;

	(void)state;
	lat_report(&r);
	r.test = "atomic_lat";
	r.op = "cswap";
	doc = json_doc(&r, lat_res, 0);
	assert_non_null(doc);
	assert_jstr(doc, "op", "cswap");
	assert_jstr(doc, "host", "fixture-host");
	json_decref(doc);

	/* A name that is not UTF-8 keeps its ASCII rather than failing. */
	r.host = "bad\xff\xfehost";
	doc = json_doc(&r, lat_res, 0);
	assert_non_null(doc);
	assert_jstr(doc, "host", "bad??host");
	assert_int_equal(json_array_size(jget(doc, "results")), 0);
	json_decref(doc);

	got = write_mem(RB_FMT_TABLE, &r, lat_res, 1);
	assert_non_null(strstr(got, "# rdmabench " PACKAGE_VERSION " atomic_lat cswap client  "
				    "bad"));
	free(got);
}

/* NaN is no JSON number: null in JSON, empty in CSV, "-" in the table. */
static void test_nan(void **state)
{
	struct rb_result res = lat_res[0];
	struct rb_doc r;
	json_t *doc;
	char *got;

	(void)state;
	lat_report(&r);
	res.lat.stdev = NAN;
	doc = json_doc(&r, &res, 1);
	assert_non_null(doc);
	assert_jnull(jget(json_array_get(jget(doc, "results"), 0), "lat_us"), "stdev");
	json_decref(doc);
	got = write_mem(RB_FMT_CSV, &r, &res, 1);
	assert_non_null(strstr(got, ",9.25,,,,,,99.5,"));
	free(got);
}

/* The JSON document of the one result @res, and its point in *@pt. */
static json_t *one_point(const struct rb_doc *r, const struct rb_result *res, json_t **pt)
{
	json_t *doc = json_doc(r, res, 1);

	assert_non_null(doc);
	*pt = json_array_get(jget(doc, "results"), 0);
	return doc;
}

/*
 * A point that measured nothing (a UC/UD server whose messages were all
 * lost in the warm-up): marked in the JSON and the table, no duration, no
 * rate, no CPU; the client's peer figures likewise.
 */
static void test_nothing_measured(void **state)
{
	struct rb_result res = {
		.pt = { .size = 64,
			.batch = 1,
			.signal = 1,
			.qps = 1,
			.tx_depth = 128,
			.cqe_poll = RB_CQE_POLL_DEFAULT },
		.duration_s = NAN,
		.nothing_measured = true,
	};
	struct rb_doc r;
	json_t *doc, *pt;
	char *got;

	(void)state;
	bw_report(&r);
	doc = one_point(&r, &res, &pt);
	assert_true(json_is_true(json_object_get(pt, "nothing_measured")));
	assert_jnull(pt, "duration_s");
	assert_jabsent(pt, "cpu_util_pct");
	assert_jabsent(pt, "bw_avg_gbps");
	assert_jabsent(pt, "peer_nothing_measured");
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "  # nothing measured: no operation completed here after the "
				    "warm-up\n"));
	free(got);

	/* The client of that server: its own figures, none of the peer's. */
	res = bw_res[0];
	res.has_peer = true;
	res.peer_cpu_util_pct = NAN;
	res.peer_bw_avg_gbps = 0;
	res.peer_nothing_measured = true;
	doc = one_point(&r, &res, &pt);
	assert_true(json_is_true(json_object_get(pt, "peer_nothing_measured")));
	assert_jnull(pt, "peer_cpu_util_pct");
	assert_jnull(pt, "peer_bw_avg_gbps");
	assert_jabsent(pt, "nothing_measured");
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "  # the peer measured nothing"));
	free(got);
}

static void test_write_fail(void **state)
{
	struct rb_doc r;
	char tmp[600];

	(void)state;
	lat_report(&r);
	assert_int_equal(rb_write_file("/nonexistent-dir/x.csv", RB_FMT_CSV, &r, lat_res, NLAT),
			 -ENOENT);
	snprintf(tmp, sizeof(tmp), "/nonexistent-dir/x.csv.tmp.%ld", (long)getpid());
	assert_int_not_equal(access(tmp, F_OK), 0);

	/* The temp file is written, then rename() onto a directory fails. */
	assert_int_equal(mkdir(tmp_path("isdir"), 0755), 0);
	assert_true(rb_write_file(tmp_path("isdir"), RB_FMT_JSON, &r, lat_res, NLAT) < 0);
	assert_no_temp();
	assert_int_equal(rmdir(tmp_path("isdir")), 0);
}

/* atomic_file.c: a failed write leaves the old file whole and no temp file. */
static void test_afile(void **state)
{
	struct rb_afile af;
	FILE *f;
	char *got;

	(void)state;
	assert_int_equal(rb_afile_open(&af, tmp_path("a.txt"), &f), 0);
	assert_true(af.replace);
	fputs("old\n", f);
	assert_int_equal(access(tmp_path("a.txt"), F_OK), -1); /* not before close */
	assert_int_equal(rb_afile_close(&af, f, 0), 0);
	assert_int_equal(rb_afile_open(&af, tmp_path("a.txt"), &f), 0);
	fputs("half", f);
	assert_int_equal(rb_afile_close(&af, f, -EIO), -EIO);
	got = slurp(tmp_path("a.txt"));
	assert_string_equal(got, "old\n");
	free(got);
	assert_no_temp();
	assert_int_equal(rb_afile_close(&af, NULL, -ENOENT), -ENOENT);
	assert_int_equal(rb_afile_open(&af, "/nonexistent-dir/a.txt", &f), -ENOENT);
	assert_null(f);
	assert_int_equal(unlink(tmp_path("a.txt")), 0);
}

/* A symlink is followed and kept; a device is written in place; checks. */
static void test_write_targets(void **state)
{
	struct rb_doc r;
	char err[600], target[600];
	struct stat st;
	char *got;

	(void)state;
	lat_report(&r);
	/* A dangling link: its target is created, the link stays a link. */
	snprintf(target, sizeof(target), "%s", tmp_path("target.csv"));
	assert_int_equal(symlink("target.csv", tmp_path("link.csv")), 0);
	assert_int_equal(rb_write_file(tmp_path("link.csv"), RB_FMT_CSV, &r, lat_res, 1), 0);
	assert_int_equal(lstat(tmp_path("link.csv"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	got = slurp(target);
	assert_non_null(strstr(got, "send_lat"));
	free(got);
	/* Again, with the target there: still a link. */
	assert_int_equal(rb_write_file(tmp_path("link.csv"), RB_FMT_CSV, &r, lat_res, 1), 0);
	assert_int_equal(lstat(tmp_path("link.csv"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(unlink(tmp_path("link.csv")), 0);
	assert_int_equal(unlink(target), 0);
	/* A device is written, never replaced; /dev/full says why it fails. */
	assert_int_equal(rb_write_file("/dev/null", RB_FMT_JSON, &r, lat_res, 1), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_true(rb_write_file("/dev/full", RB_FMT_JSON, &r, lat_res, 1) < 0);
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_false(rb_output_rewritable("/dev/stdout"));
	/* Nothing is ever created under /dev. */
	assert_int_equal(rb_output_check("/dev/rb-no-such", err, sizeof(err)), -ENOENT);
	assert_true(rb_write_file("/dev/rb-no-such", RB_FMT_JSON, &r, lat_res, 1) < 0);
	assert_int_not_equal(access("/dev/rb-no-such", F_OK), 0);
	assert_true(rb_output_rewritable(tmp_path("new.json")));
	/* The up-front checks. */
	assert_int_equal(rb_output_check(tmp_path("new.json"), err, sizeof(err)), 0);
	assert_int_equal(mkdir(tmp_path("d"), 0755), 0);
	assert_int_equal(rb_output_check(tmp_path("d"), err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "is a directory"));
	assert_int_equal(rb_output_check("/nonexistent-dir/x", err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, "cannot create a file in /nonexistent-dir"));
	/* A bare name lives in the current directory. */
	assert_int_equal(rb_output_check("rb-new-file.json", err, sizeof(err)), 0);
	assert_true(rb_output_same(tmp_path("d"), tmp_path("d")));
	assert_int_equal(rmdir(tmp_path("d")), 0);
	assert_no_temp();
}

static void test_timestamp(void **state)
{
	char buf[32];
	int y, mo, d, h, mi, s;
	char z;

	(void)state;
	rb_timestamp(buf, sizeof(buf));
	assert_int_equal(strlen(buf), 20);
	assert_int_equal(sscanf(buf, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &z), 7);
	assert_true(y >= 2024);
	assert_int_equal(z, 'Z');

	rb_timestamp(buf, 8); /* too small: empty, not truncated */
	assert_string_equal(buf, "");
}

/* ---- setup ------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	init_params();
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	(void)state;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && unlink(tmp_path(e->d_name)))
			rmdir(tmp_path(e->d_name));
	closedir(d);
	return rmdir(tmpdir);
}

/* A peer's placement is its text: the table prints it escaped, never raw. */
static void test_peer_text(void **state)
{
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	snprintf(r.peer_place.cpus, sizeof(r.peer_place.cpus), "\033[2J1");
	got = write_mem(RB_FMT_TABLE, &r, bw_res, 1);
	assert_null(strchr(got, '\033'));
	assert_non_null(strstr(got, "# peer placement: device NUMA node unknown, cpus \\x1b[2J1,"));
	free(got);
}

/*
 * --format perftest: a banner saying who wrote it, perftest's header, and
 * one data line a point with perftest's fields in perftest's order (what
 * scripts/lib/perftest_report.py reads by position).
 */
static void test_perftest_format(void **state)
{
	struct rb_doc r;
	struct rb_result lr[2];
	double v[9];
	char *got, *line;

	(void)state;
	lat_report(&r);
	lr[0] = lat_res[0];
	lr[1] = lat_res[1];
	lr[0].has_pt_lat = lr[1].has_pt_lat = true;
	lr[0].pt_lat = (struct rb_pt_lat){ 0.95, 3.5, 1.05, 1.08, 0, 1.5, 2.95 };
	lr[1].pt_lat = (struct rb_pt_lat){ 1, 4, 1.1, 1.13, 1, 1.6, 3.1 };
	got = write_mem(RB_FMT_PERFTEST, &r, lr, 2);
	assert_non_null(strstr(got, "in perftest's format: both sides must be rdmabench\n"));
	assert_non_null(strstr(got, "Send Latency Test\n"));
	line = strstr(got, "\n #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]");
	assert_non_null(line);
	line = strchr(line + 1, '\n') + 1;
	/* size, iterations, min, max, median, avg, stdev, p99, p99.9: perftest's (rb_pt_lat) */
	assert_int_equal(sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
				&v[3], &v[4], &v[5], &v[6], &v[7], &v[8]),
			 9);
	assert_true(v[0] == 2 && v[1] == 10000 && v[2] == 0.95 && v[3] == 3.5 && v[4] == 1.05 &&
		    v[5] == 1.08 && v[6] == 0 && v[7] == 1.5 && v[8] == 2.95);
	assert_non_null(strstr(line, "\n 64 "));
	free(got);
	/* without perftest's statistics (too few samples), none of ours under its header */
	lr[0].has_pt_lat = false;
	got = write_mem(RB_FMT_PERFTEST, &r, lr, 1);
	assert_non_null(strstr(got, "\n 2       10000  (no perftest statistics: they need 3 "
				    "samples"));
	assert_null(strstr(got, "9.25"));
	free(got);

	bw_report(&r);
	got = write_mem(RB_FMT_PERFTEST, &r, bw_res, 2);
	assert_non_null(strstr(got, "RDMA_Write BW Test\n"));
	line = strstr(got, " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   "
			   "MsgRate[Mpps]\n");
	assert_non_null(line);
	line = strchr(line, '\n') + 1;
	assert_int_equal(sscanf(line, "%lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4]), 5);
	/* MB/sec is MiB/s: 1.354 and 1.327 Gb/s */
	assert_true(v[0] == 64 && v[1] == 12961000);
	assert_float_equal(v[2], 1.354e9 / 8 / 1048576, 0.006);
	assert_float_equal(v[3], 1.327e9 / 8 / 1048576, 0.006);
	assert_float_equal(v[4], 2.5922, 1e-6);
	assert_non_null(strstr(got, " Connection type: UC\n"));
	free(got);
	/* A socket test's connection is TCP, not a QP transport. */
	r.test = "tcp_bw";
	got = write_mem(RB_FMT_PERFTEST, &r, bw_res, 2);
	assert_non_null(strstr(got, " Connection type: TCP\n"));
	free(got);
	r.test = "write_bw";
	r.units = RB_UNITS_GBITS;
	got = write_mem(RB_FMT_PERFTEST, &r, bw_res + 1, 1);
	assert_non_null(strstr(got, "BW average[Gb/sec]"));
	/* perftest's REPORT_FMT, its spacing and tabs */
	assert_non_null(strstr(got, "\n 65536      1759600          97.50              92.35  \t\t "
				    "    "
				    "0.176130\n"));
	free(got);
	/* --output: the one figure, a line a point */
	r.output = RB_OUTPUT_MSG_RATE;
	got = write_mem(RB_FMT_VALUE, &r, bw_res, 2);
	assert_string_equal(got, "2.592200\n0.176130\n");
	free(got);
	/* print_full_bw_report(): printf("%lf\n", bw_avg) */
	r.output = RB_OUTPUT_BANDWIDTH;
	got = write_mem(RB_FMT_VALUE, &r, bw_res + 1, 1);
	assert_string_equal(got, "92.345678\n");
	free(got);
	/* print_report_lat(): printf("%lf\n", average), perftest's average */
	lat_report(&r);
	r.output = RB_OUTPUT_LATENCY;
	lr[0].has_pt_lat = true;
	got = write_mem(RB_FMT_VALUE, &r, lr, 2);
	assert_string_equal(got, "1.080000\n1.130000\n");
	free(got);
	assert_string_equal(rb_perftest_cmd("ib_atomic_bw"), "atomic_bw");
	assert_null(rb_perftest_cmd("ib_write_bw.sh"));
	assert_null(rb_perftest_cmd("rdmabench"));
}

/*
 * Issue 37, item 14 (and 13): the latency line under perftest's name is
 * perftest's print_report_lat() (perftest_parameters.c) on the samples,
 * printed with its REPORT_FMT_LAT.  Twelve samples of 1 us a tick, as
 * test_stats works them out by hand: t_min 1, t_max 50 (the second
 * largest: the top two are dropped), t_typical 4 ((5 + 4) / 2 in integer
 * ticks), t_avg 4.8, t_stdev sqrt(45 / 10) = 2.12 (deviations truncated to
 * whole microseconds), 99% and 99.9% delta[ceil(10 * q)] = delta[10] = 50.
 * rdmabench's own (JSON) figures of them: max 100, p50 5, avg 17.33, stdev
 * 27.93.  With --latency_gap 2 on send_lat (one-way: 1 us a sample),
 * perftest's samples hold the gap: every figure but stdev 1 us more.
 */
static void test_perftest_lat_golden(void **state)
{
	const uint64_t v[] = { 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 50, 100 };
	struct rb_result res = lat_res[0];
	struct rb_params p = lat_params;
	struct rb_doc r;
	char *got;

	(void)state;
	lat_report(&r);
	res.iters = 12;
	res.has_pt_lat = !rb_lat_perftest(v, 12, 1000.0, 0, &res.pt_lat);
	assert_true(res.has_pt_lat);
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, "\n 2       12          1.00           50.00        4.00     \t"
				    "       4.80        \t2.12   \t\t50.00   \t\t50.00  \n"));
	free(got);
	/* run_iter_lat_send(): the gap spins between two tposted[], inside the sample */
	res.has_pt_lat = !rb_lat_perftest(v, 12, 1000.0, 2 * 0.5, &res.pt_lat);
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, "\n 2       12          2.00           51.00        5.00     \t"
				    "       5.80        \t2.12   \t\t51.00   \t\t51.00  \n"));
	free(got);
	/* rdmabench's own table keeps the gap out, and says so */
	p.latency_gap_us = 2;
	r.params = &p;
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "\n# latency_gap: 2 us before each post, outside every latency "
				    "sample (perftest's samples hold it: --format perftest adds "
				    "it)\n"));
	free(got);
}

/*
 * Issue 37, item 16: -D on a latency test is print_report_lat_duration():
 * its header RESULT_FMT_LAT_DUR and REPORT_FMT_LAT_DUR, t_avg = time /
 * rtt_factor / iterations = 2000 us / 2 / 1000 = 1.00 (send_lat: one way),
 * tps = 1000 / 0.002 s = 500000.00.
 */
static void test_perftest_lat_duration(void **state)
{
	struct rb_result res = lat_res[0];
	struct rb_params p = lat_params;
	struct rb_doc r;
	char *got;

	(void)state;
	lat_report(&r);
	p.duration_s = 2;
	p.iters = 0;
	r.params = &p;
	res.iters = 1000;
	res.duration_s = 0.002;
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, "\n #bytes        #iterations       t_avg[usec]    tps "
				    "average\n"
				    " 2             1000            1.00           500000.00\n"));
	assert_null(strstr(got, "t_min"));
	free(got);
	r.output = RB_OUTPUT_LATENCY;
	got = write_mem(RB_FMT_VALUE, &r, &res, 1);
	assert_string_equal(got, "1.000000\n");
	free(got);
	/* read_lat: the round trip (rtt_factor 1) */
	r.test = "read_lat";
	r.output = RB_OUTPUT_BANDWIDTH;
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, " 2             1000            2.00           500000.00\n"));
	free(got);
}

/*
 * Issue 37, items 15 and 16: --report_gbits under 0.1 Gb/s is
 * print_full_bw_report()'s inc_accuracy, REPORT_FMT_EXT (six decimals);
 * --run_infinitely prints a line every -D seconds (print_bw_infinite_mode()
 * -> print_report_bw(), BW peak 0 as run_infinitely forces --noPeak): a
 * slice, through the writer's interval hook.
 */
static void test_perftest_low_bw_and_slices(void **state)
{
	struct rb_result res = bw_res[0];
	struct rb_interval iv = { .start_s = 0, .duration_s = 1, .ops = 1000 };
	struct rb_params p = bw_params;
	struct rb_writer w;
	struct rb_doc r;
	char *got = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	bw_report(&r);
	r.units = RB_UNITS_GBITS;
	res.iters = 1000;
	res.bw_avg_gbps = 0.05;
	res.bw_peak_gbps = 0.06;
	res.msg_rate_mpps = 0.0001;
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, "\n 64         1000           0.060000            0.050000     "
				    "  "
				    "     0.000100\n"));
	free(got);
	/* at 0.1 Gb/s and over, and in MB/sec, two decimals (REPORT_FMT) */
	res.bw_avg_gbps = 0.1;
	got = write_mem(RB_FMT_PERFTEST, &r, &res, 1);
	assert_non_null(strstr(got, "\n 64         1000             0.06               0.10   \t\t "
				    "    "
				    "0.000100\n"));
	free(got);

	f = open_memstream(&got, &len);
	assert_non_null(f);
	rb_writer_init(&w, RB_FMT_PERFTEST, f);
	assert_non_null(w.ops->interval);
	iv.bw_gbps = 0.05;
	iv.msg_rate_mpps = 0.0001;
	assert_int_equal(w.ops->interval(&w, &r, &res.pt, &iv, 0), 0);
	iv.ops = 2000;
	iv.bw_gbps = 2.5;
	assert_int_equal(w.ops->interval(&w, &r, &res.pt, &iv, 1), 0);
	/* -D 1: a slice ends on its second or after; one that ^C cut short
	 * (rb_iv_finish()) is no line of perftest's */
	p.interval_ms = 1000;
	r.params = &p;
	iv.start_s = 2;
	iv.duration_s = 1.01;
	assert_int_equal(w.ops->interval(&w, &r, &res.pt, &iv, 2), 0);
	iv.start_s = 3.01;
	iv.duration_s = 0.5;
	assert_int_equal(w.ops->interval(&w, &r, &res.pt, &iv, 3), 0);
	fclose(f);
	assert_string_equal(got, " 64         1000           0.000000            0.050000          "
				 "  "
				 "0.000100\n"
				 " 64         2000             0.00               2.50   \t\t     "
				 "0.000100\n"
				 " 64         2000             0.00               2.50   \t\t     "
				 "0.000100\n");
	free(got);
}

/* The measuring CPUs' clocks: a line each, perftest's warning unless -F. */
static void test_cpu_freq_lines(void **state)
{
	struct rb_doc r;
	char *got;

	(void)state;
	bw_report(&r);
	r.place.freq_cpu = 3;
	strcpy(r.place.governor, "performance");
	r.place.cpu_mhz = 2900;
	r.peer_place.freq_cpu = 5;
	snprintf(r.peer_place.governor, sizeof(r.peer_place.governor), "power\033save");
	got = write_mem(RB_FMT_TABLE, &r, bw_res, 1);
	assert_non_null(strstr(got, "# placement cpu 3: governor performance at 2900 MHz\n"));
	assert_non_null(strstr(got, "# peer placement cpu 5: governor power\\x1bsave\n"));
	assert_non_null(strstr(got, "# warning: peer placement cpu 5 runs the power\\x1bsave "
				    "governor, not performance"));
	assert_null(strstr(got, "# warning: placement"));
	assert_null(strchr(got, '\033'));
	free(got);
	r.freq_quiet = true;
	got = write_mem(RB_FMT_TABLE, &r, bw_res, 1);
	assert_non_null(strstr(got, "# peer placement cpu 5: governor"));
	assert_null(strstr(got, "# warning"));
	free(got);
}

/*
 * A peer's figures that failed their check are named in
 * peer_result_rejected and shown as nothing (NaN: null, "-", empty).
 */
static void test_peer_rejected(void **state)
{
	struct rb_result res = bw_res[0];
	struct rb_doc r;
	json_t *doc, *o, *a;
	char *got;

	(void)state;
	bw_report(&r);
	res.peer_cpu_util_pct = NAN;
	res.peer_bw_avg_gbps = NAN;
	res.peer_rejected = RB_PEER_CPU | RB_PEER_BW_AVG;
	doc = json_doc(&r, &res, 1);
	assert_non_null(doc);
	o = json_array_get(jget(doc, "results"), 0);
	assert_jnull(o, "peer_cpu_util_pct");
	assert_jnull(o, "peer_bw_avg_gbps");
	a = jget(o, "peer_result_rejected");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_array_get(a, 0)), "bw_avg_gbps");
	assert_string_equal(json_string_value(json_array_get(a, 1)), "cpu_util_pct");
	assert_jabsent(json_array_get(jget(doc, "results"), 0), "peer_counters");
	json_decref(doc);
	doc = json_doc(&r, bw_res, 1);
	assert_jabsent(json_array_get(jget(doc, "results"), 0), "peer_result_rejected");
	json_decref(doc);
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_null(strstr(got, "nan"));
	free(got);
}

/* -H, -C: a point with a histogram (3 buckets, a tail) and its figures in ticks. */
static struct rb_result hist_point(void)
{
	struct rb_result res = lat_res[0];

	res.has_hist = true;
	res.hist = (struct rb_lat_hist){ .n = 3,
					 .tail = true,
					 .edge_us = { 0.5, 1.0, 1.5, 9.5 },
					 .edge_ticks = { 1000, 2000, 3000, 19000 },
					 .count = { 10, 20, 1 } };
	res.has_ticks = true;
	res.lat_ticks =
		(struct rb_lat_summary){ 1900, 2100, 2180, 2340, 3000, 5900, 18500, 160, false };
	res.ticks_per_us = 2000;
	return res;
}

static void test_histogram_outputs(void **state)
{
	struct rb_result res = hist_point();
	struct rb_doc r;
	json_t *doc, *o, *h;
	char *got;

	(void)state;
	lat_report(&r);
	r.samples_path = "s.csv";
	r.tick_clock = "tsc";
	doc = json_doc(&r, &res, 1);
	assert_non_null(doc);
	assert_jstr(doc, "samples_file", "s.csv");
	assert_jstr(doc, "tick_clock", "tsc");
	o = json_array_get(jget(doc, "results"), 0);
	h = jget(o, "histogram");
	assert_int_equal(json_array_size(jget(h, "edges_us")), 4);
	assert_int_equal(json_array_size(jget(h, "counts")), 3);
	assert_int_equal(json_integer_value(json_array_get(jget(h, "counts"), 1)), 20);
	assert_true(json_real_value(json_array_get(jget(h, "edges_us"), 3)) == 9.5);
	assert_true(json_real_value(json_array_get(jget(h, "edges_ticks"), 1)) == 2000);
	assert_true(json_is_true(jget(h, "tail")));
	assert_jreal(jget(o, "lat_ticks"), "p50", 2100);
	assert_jreal(o, "ticks_per_us", 2000);
	assert_jreal(jget(o, "lat_us"), "p50", 1.05);
	json_decref(doc);
	/* The table: latencies in ticks, and a bar per bucket in ticks. */
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "t_p50[ticks]"));
	assert_non_null(strstr(got, "2100.00"));
	assert_non_null(strstr(got, "# samples: every latency sample, in measurement order, in "
				    "s.csv"));
	assert_non_null(strstr(got, "# histogram [ticks]: 3 buckets"));
	assert_non_null(strstr(got, "#    2000.00 -    3000.00         20 " /* the longest bar */
				    "########################################\n"));
	assert_non_null(strstr(got, "#    3000.00 -   19000.00          1 ##\n"));
	free(got);
	/* Without -C: microseconds, and no ticks in the JSON. */
	lat_report(&r);
	res.has_ticks = false;
	got = write_mem(RB_FMT_TABLE, &r, &res, 1);
	assert_non_null(strstr(got, "t_p50[us]"));
	assert_non_null(strstr(got, "# histogram [us]: 3 buckets"));
	assert_non_null(strstr(got, "#       0.50 -       1.00         10 ####################\n"));
	free(got);
	doc = json_doc(&r, &res, 1);
	o = json_array_get(jget(doc, "results"), 0);
	assert_jabsent(o, "lat_ticks");
	assert_jabsent(jget(o, "histogram"), "edges_ticks");
	assert_jabsent(doc, "samples_file");
	assert_jabsent(doc, "tick_clock");
	json_decref(doc);
	/* Neither: no histogram. */
	doc = json_doc(&r, lat_res, 1);
	assert_jabsent(json_array_get(jget(doc, "results"), 0), "histogram");
	json_decref(doc);
}

/* --samples: the rows in the order given, with the point's axes; with -C the ticks. */
static void test_samples_file(void **state)
{
	const uint64_t v[] = { 3000, 1000, 2001 };
	const struct rb_point pt = {
		.size = 64, .batch = 1, .signal = 1, .qps = 1, .tx_depth = 128
	};
	struct rb_samples s = { 0 };
	struct rb_samples_file sf;
	size_t i;
	char *got;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(rb_samples_push(&s, v[i]), 0);
	/* 0.4 ns ticks halved (one-way). */
	assert_int_equal(rb_samples_file_open(&sf, tmp_path("s.csv"), true), 0);
	assert_int_equal(rb_samples_file_point(&sf, "send_lat", NULL, &pt, &s, 0.0002, 0.5), 0);
	assert_int_equal(access(tmp_path("s.csv"), F_OK), -1); /* renamed at the end */
	assert_int_equal(rb_samples_file_point(&sf, "send_lat", NULL, &pt, &s, 0.0002, 0.5), 0);
	assert_int_equal(rb_samples_file_close(&sf), 0);
	got = slurp(tmp_path("s.csv"));
	assert_string_equal(got, "test,op,size,batch,signal,qps,tx_depth,iteration,lat_us,lat_"
				 "ticks\n"
				 "send_lat,,64,1,1,1,128,1,0.6,1500\n"
				 "send_lat,,64,1,1,1,128,2,0.2,500\n"
				 "send_lat,,64,1,1,1,128,3,0.4002,1000.5\n"
				 "send_lat,,64,1,1,1,128,1,0.6,1500\n"
				 "send_lat,,64,1,1,1,128,2,0.2,500\n"
				 "send_lat,,64,1,1,1,128,3,0.4002,1000.5\n");
	free(got);
	assert_no_temp();
	/* Without -C, an atomic's op; a rewrite replaces the file. */
	assert_int_equal(rb_samples_file_open(&sf, tmp_path("s.csv"), false), 0);
	assert_int_equal(rb_samples_file_point(&sf, "atomic_lat", "cswap", &pt, &s, 0.001, 1), 0);
	assert_int_equal(rb_samples_file_close(&sf), 0);
	got = slurp(tmp_path("s.csv"));
	assert_string_equal(got, "test,op,size,batch,signal,qps,tx_depth,iteration,lat_us\n"
				 "atomic_lat,cswap,64,1,1,1,128,1,3\n"
				 "atomic_lat,cswap,64,1,1,1,128,2,1\n"
				 "atomic_lat,cswap,64,1,1,1,128,3,2.001\n");
	free(got);
	/* A point kept only as buckets has no rows. */
	rb_samples_free(&s);
	s.max = 2;
	for (i = 0; i < 3; i++)
		assert_int_equal(rb_samples_push(&s, v[i]), 0);
	assert_non_null(s.h);
	assert_int_equal(rb_samples_file_open(&sf, tmp_path("s.csv"), false), 0);
	assert_int_equal(rb_samples_file_point(&sf, "send_lat", NULL, &pt, &s, 0.001, 1), 0);
	assert_int_equal(rb_samples_file_close(&sf), 0);
	got = slurp(tmp_path("s.csv"));
	assert_string_equal(got, "test,op,size,batch,signal,qps,tx_depth,iteration,lat_us\n");
	free(got);
	assert_true(rb_samples_file_open(&sf, "/nonexistent-dir/s.csv", false) < 0);
	assert_null(sf.f);
	assert_int_equal(rb_samples_file_close(&sf), 0);
	rb_samples_free(&s);
	assert_no_temp();
}

/*
 * Every plan row with a JSON name is in "params" once set, whether or not
 * rb_json_params() names it by hand (a new option needs its row only);
 * left out at zero where no hand-written member says otherwise.
 */
static void test_params_rows(void **state)
{
	const struct rb_opt *r;
	struct rb_params p;
	json_t *o;
	size_t i, n = 0;
	char *f;

	(void)state;
	for (i = 0; i < rb_nopts; i++) {
		r = &rb_opts[i];
		if (!r->json || r->type == RB_OPT_AXIS)
			continue;
		memset(&p, 0, sizeof(p));
		f = (char *)&p + (r->off - RB_OPT_PLAN_BEGIN);
		if (r->type == RB_OPT_U64)
			*(uint64_t *)(void *)f = 3;
		else if (r->type == RB_OPT_U32)
			*(uint32_t *)(void *)f = 3;
		else
			*(uint8_t *)f = 1;
		o = rb_json_params(&p);
		assert_non_null(o);
		if (!json_object_get(o, r->json)) {
			print_error("--%s set: no \"%s\" in params\n", r->lname, r->json);
			fail();
		}
		json_decref(o);
		n++;
	}
	assert_true(n >= 27);
	memset(&p, 0, sizeof(p));
	o = rb_json_params(&p);
	assert_null(json_object_get(o, "wr_lat"));
	assert_null(json_object_get(o, "cq_per_qp"));
	assert_null(json_object_get(o, "with_imm"));
	json_decref(o);
	p.wr_lat = 1;
	p.recv_post_list = 16;
	o = rb_json_params(&p);
	assert_true(json_is_true(json_object_get(o, "wr_lat")));
	assert_int_equal(json_integer_value(json_object_get(o, "recv_post_list")), 16);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_header),
		cmocka_unit_test(test_csv_stable_columns),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_peer_fingerprint),
		cmocka_unit_test(test_device_pcie),
		cmocka_unit_test(test_golden_lat),
		cmocka_unit_test(test_golden_bw),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_table_units),
		cmocka_unit_test(test_thread_rows),
		cmocka_unit_test(test_event_table_cols),
		cmocka_unit_test(test_json_lat),
		cmocka_unit_test(test_json_bw),
		cmocka_unit_test(test_uuid),
		cmocka_unit_test(test_json_op),
		cmocka_unit_test(test_bidir),
		cmocka_unit_test(test_reversed),
		cmocka_unit_test(test_poll_event),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_qp_wrs),
		cmocka_unit_test(test_nan),
		cmocka_unit_test(test_write_fail),
		cmocka_unit_test(test_afile),
		cmocka_unit_test(test_write_targets),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_shape_outputs),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_peer_text),
		cmocka_unit_test(test_cpu_freq_lines),
		cmocka_unit_test(test_perftest_format),
		cmocka_unit_test(test_perftest_lat_golden),
		cmocka_unit_test(test_perftest_lat_duration),
		cmocka_unit_test(test_perftest_low_bw_and_slices),
		cmocka_unit_test(test_peer_rejected),
		cmocka_unit_test(test_histogram_outputs),
		cmocka_unit_test(test_samples_file),
		cmocka_unit_test(test_relaxed_known),
		cmocka_unit_test(test_params_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
