// SPDX-License-Identifier: MIT
/*
 * The JSON document read back with jansson, and rb_write_file()'s
 * all-or-nothing behaviour.
 */
#include "output_fx.h"

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
	assert_non_null(strstr(got, ",0.75,0.25,0.5,0.125,,,\n"));
	assert_non_null(strstr(got, ",,,,,,,\n")); /* the point without directions */
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
	assert_non_null(strstr(got, ",busy,32,,,,,,,,,\n"));
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
	assert_non_null(strstr(got, ",event,16,,,,,,,,,\n"));
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
		.pt = LAT_PT(64),
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

int main(void)
{
	const struct CMUnitTest tests[] = {
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
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_relaxed_known),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
