// SPDX-License-Identifier: MIT
/*
 * Writers against golden files (tests/data/golden): CSV and the table,
 * their columns, quoting, units and the rows of threads and shapes.
 *
 * The table golden files spell the tool version "@VERSION@": the test puts
 * in the PACKAGE_VERSION this build was configured with.
 */
#include "output_fx.h"

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
	struct memw m;
	struct rb_doc r;
	char *buf, *l, *save = NULL;
	const char *want[] = { "start", "interval", "point", "end" };
	size_t i = 0;

	(void)state;
	bw_report(&r);
	memw_open(&m, RB_FMT_JSONL);
	assert_int_equal(m.w.ops->begin(&m.w, &r), 0);
	assert_int_equal(m.w.ops->interval(&m.w, &r, &bw_res[0].pt, &iv, 0), 0);
	assert_int_equal(m.w.ops->row(&m.w, &r, &bw_res[0]), 0);
	r.incomplete = true;
	r.reason = "interrupted";
	assert_int_equal(m.w.ops->end(&m.w, &r), 0);
	buf = memw_close(&m);
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
	check_goldens("lat", &r, lat_res, NLAT);
}

static void test_golden_bw(void **state)
{
	struct rb_doc r;

	(void)state;
	bw_report(&r);
	check_goldens("bw", &r, bw_res, NBW);
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
	assert_non_null(strstr(got, ",1,1,,,,,,,,,busy,32,,,,,,,,,\n"));
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
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,all,,,,,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,,,,,,,busy,32,1,,,,,,,,\n"));
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
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,all,,,,,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,,,,,,,busy,32,1,mlx5_1:2,,,,,,,\n"));
	assert_non_null(strstr(got, ",0,3,1,false,1,0,,,,,busy,32,1,mlx5_1:2,,,,,,,\n"));
	free(got);
	rows[1].iv = NULL;
	rows[1].niv = 0;
	r.rail_width = 0;
	rows[1].rail = NULL;
	/* Without threads the same columns, the thread's cell empty. */
	p.threads = 1;
	got = write_mem(RB_FMT_CSV, &r, rows, 1);
	assert_non_null(strstr(got, ",rate_deviation_pct," CSV_FIXED_TAIL "\n"));
	assert_non_null(strstr(got, ",0,0-3 8,1,false,,,,,,,busy,32,,,,,,,,,\n"));
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
	struct memw m;
	json_t *doc, *pt;
	char *got, *buf;

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
	assert_non_null(strstr(got, ",1,0,,,,,busy,32,,,,,,,,,\n"));
	assert_non_null(strstr(got, ",2,1,,,,,busy,32,,,,,,,,,\n"));
	assert_non_null(strstr(got, ",,,1.5,10,,-10,busy,32,,,,,,,,,\n"));
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
	memw_open(&m, RB_FMT_TABLE);
	assert_non_null(m.w.ops->interval);
	assert_int_equal(m.w.ops->interval(&m.w, &r, &res.pt, &iv[1], 1), 0);
	res.cut = true;
	assert_int_equal(m.w.ops->row(&m.w, &r, &res), 0);
	buf = memw_close(&m);
	assert_non_null(strstr(buf, "[interval 2: 1.00-2.50 s]\n"));
	assert_non_null(strstr(buf, "# lowest interval bandwidth 178.81 MiB/s over 2 interval(s)"));
	assert_non_null(strstr(buf, "# rate: target 10 Gb/s, achieved 9 Gb/s (-10.0%)"));
	assert_non_null(strstr(buf, "# interrupted"));
	free(buf);
}

static void test_table_units(void **state)
{
	static const struct rb_result one = {
		.pt = LAT_PT(1048576),
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_header),	 cmocka_unit_test(test_csv_stable_columns),
		cmocka_unit_test(test_verdict),		 cmocka_unit_test(test_json_stream),
		cmocka_unit_test(test_peer_fingerprint), cmocka_unit_test(test_device_pcie),
		cmocka_unit_test(test_golden_lat),	 cmocka_unit_test(test_golden_bw),
		cmocka_unit_test(test_rewrite),		 cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_table_units),	 cmocka_unit_test(test_thread_rows),
		cmocka_unit_test(test_event_table_cols), cmocka_unit_test(test_shape_outputs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
