// SPDX-License-Identifier: MIT
/*
 * The table's peer text, --perftest-format's lines against perftest's,
 * histograms, the samples file and the parameter rows.
 */
#include "output_fx.h"

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
	struct memw m;
	struct rb_doc r;
	char *got;

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

	memw_open(&m, RB_FMT_PERFTEST);
	assert_non_null(m.w.ops->interval);
	iv.bw_gbps = 0.05;
	iv.msg_rate_mpps = 0.0001;
	assert_int_equal(m.w.ops->interval(&m.w, &r, &res.pt, &iv, 0), 0);
	iv.ops = 2000;
	iv.bw_gbps = 2.5;
	assert_int_equal(m.w.ops->interval(&m.w, &r, &res.pt, &iv, 1), 0);
	/* -D 1: a slice ends on its second or after; one that ^C cut short
	 * (rb_iv_finish()) is no line of perftest's */
	p.interval_ms = 1000;
	r.params = &p;
	iv.start_s = 2;
	iv.duration_s = 1.01;
	assert_int_equal(m.w.ops->interval(&m.w, &r, &res.pt, &iv, 2), 0);
	iv.start_s = 3.01;
	iv.duration_s = 0.5;
	assert_int_equal(m.w.ops->interval(&m.w, &r, &res.pt, &iv, 3), 0);
	got = memw_close(&m);
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
		cmocka_unit_test(test_peer_text),
		cmocka_unit_test(test_cpu_freq_lines),
		cmocka_unit_test(test_perftest_format),
		cmocka_unit_test(test_perftest_lat_golden),
		cmocka_unit_test(test_perftest_lat_duration),
		cmocka_unit_test(test_perftest_low_bw_and_slices),
		cmocka_unit_test(test_peer_rejected),
		cmocka_unit_test(test_histogram_outputs),
		cmocka_unit_test(test_samples_file),
		cmocka_unit_test(test_params_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
