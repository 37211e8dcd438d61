// SPDX-License-Identifier: MIT
/*
 * The metric table (metrics.h) against its readers: for every row, the
 * CSV header has its column and a point's CSV row its figure, the JSON
 * point its member, the table its column (when it has one), compare
 * judges it the right way, --expect reads it, threads add it up as it
 * says, matrix's RESULT carries it and matrix has a figure to rank by.
 *
 * Built twice: test_metrics on the real table, and test_metrics_extra
 * with one throw-away row more (RB_METRICS_TEST_ROW below, a metric of
 * its own unit), which proves "Adding a metric" (doc/development.md):
 * the row alone makes every reader know it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/compare.h"
#include "core/csv.h"
#include "report/expect.h"
#include "report/metrics_list.h"
#include "wire/matrix_wire.h"
#include "wire/wire.h"
#include "report/output.h"
#include "core/sweep.h"
#include "session/threads.h"

#ifdef TEST_EXTRA_ROW
/*
 * A metric that is not: it borrows rate_dev_pct's storage (written only
 * with --rate) and the unit "%", which no other row that --expect takes
 * has.  Compiling metrics.c here puts this table in place of librb's.
 */
#define RB_METRICS_TEST_ROW                                                                     \
	{                                                                                       \
		.name = "extra_pct", .unit = "%", .better = RB_BETTER_LOWER, .group = RB_MG_BW, \
		.off = offsetof(struct rb_result, rate_dev_pct), .table = "Extra",              \
		.table_width = 7, .agg = RB_AGG_SUM, .compare = true, .alias = "extra",         \
		.expect = { "extra" },                                                          \
	}
#include "core/metrics.c"
#else
#include "core/metrics.h"
#endif

#define assert_near(got, want) assert_true(fabs((double)(got) - (double)(want)) <= 1e-9)

static struct rb_params params;

static void set(struct rb_result *res, const struct rb_metric *m, double v)
{
	memcpy((char *)res + m->off, &v, sizeof(v));
}

/* A point with every group, each stored figure 10 + its row number (@scale'd). */
static struct rb_result point(double scale, uint64_t iters)
{
	struct rb_result res = { .pt = { 65536, 1, 1, 1, 128 }, .iters = iters };
	size_t i;
	int g;

	res.duration_s = 1;
	for (g = 0; g < RB_MG_COUNT; g++)
		rb_metric_group_set((enum rb_metric_group)g, &res, true);
	for (i = 0; i < rb_nmetrics; i++)
		if (!rb_metrics[i].derive)
			set(&res, &rb_metrics[i], (10.0 + (double)i) * scale);
	return res;
}

static struct rb_doc report(enum rb_mode mode)
{
	struct rb_doc r = { .test = mode == RB_MODE_LAT ? "send_lat" : "send_bw",
			    .mode = mode,
			    .role = "client",
			    .device = "rxe0",
			    .port = 1,
			    .params = &params };

	return r;
}

static char *write_mem(enum rb_format fmt, const struct rb_doc *r, const struct rb_result *res)
{
	struct rb_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rb_writer_init(&w, fmt, f);
	assert_int_equal(w.ops->begin(&w, r), 0);
	assert_int_equal(w.ops->row(&w, r, res), 0);
	assert_int_equal(w.ops->end(&w, r), 0);
	fclose(f);
	return buf;
}

/* The cell of column @name in a CSV of a header line and one row. */
static void csv_cell(const char *csv, const char *name, char *cell, size_t len)
{
	const char *row = strchr(csv, '\n') + 1, *h = csv, *end;
	size_t n = strlen(name);

	for (;;) {
		assert_true(h < row - 1);
		end = strpbrk(h, ",\n");
		if ((size_t)(end - h) == n && !strncmp(h, name, n))
			break;
		h = end + 1;
		row = strchr(row, ',') + 1;
	}
	end = strpbrk(row, ",\n");
	snprintf(cell, len, "%.*s", (int)(end - row), row);
}

static void test_rows(void **state)
{
	const struct rb_metric *m;
	size_t i;

	(void)state;
	assert_true(rb_nmetrics <= RB_METRICS_MAX);
	for (i = 0; i < rb_nmetrics; i++) {
		m = &rb_metrics[i];
		assert_non_null(m->name);
		assert_non_null(m->unit);
		assert_ptr_equal(rb_metric_find(m->name, strlen(m->name), false), m);
		assert_int_equal(rb_metric_index(m), (int)i);
		if (m->group == RB_MG_LAT)
			assert_non_null(m->json_key);
		if (m->alias)
			assert_ptr_equal(rb_metric_find(m->alias, strlen(m->alias), true), m);
		if (m->compare_default)
			assert_true(m->compare);
	}
#ifdef TEST_EXTRA_ROW
	assert_non_null(rb_metric_find("extra_pct", 9, false));
#endif
}

static void test_csv(void **state)
{
	struct rb_doc r = report(RB_MODE_BW);
	struct rb_result res = point(1, 1000);
	char hdr[1024], cell[64], want[64];
	char *csv = write_mem(RB_FMT_CSV, &r, &res);
	size_t i;

	(void)state;
	rb_csv_header(hdr, sizeof(hdr));
	for (i = 0; i < rb_nmetrics; i++) {
		csv_cell(csv, rb_metrics[i].name, cell, sizeof(cell));
		snprintf(want, sizeof(want), RB_CSV_NUM, rb_metric_value(&rb_metrics[i], &res));
		assert_string_equal(cell, want);
		snprintf(want, sizeof(want), ",%s,", rb_metrics[i].name);
		assert_non_null(strstr(hdr, want));
	}
	free(csv);
}

static void test_json(void **state)
{
	struct rb_result res = point(1, 1000);
	json_t *o = rb_json_result(&res), *v;
	const struct rb_metric *m;
	size_t i;

	(void)state;
	assert_non_null(o);
	for (i = 0; i < rb_nmetrics; i++) {
		m = &rb_metrics[i];
		if (m->group == RB_MG_LAT)
			v = json_object_get(json_object_get(o, "lat_us"), m->json_key);
		else
			v = json_object_get(o, m->name);
		assert_true(json_is_number(v));
		assert_near(json_number_value(v), rb_metric_value(m, &res));
	}
	json_decref(o);
}

/* Each row with a column is in the table of its mode's run, in its unit. */
static void test_table(void **state)
{
	struct rb_doc r;
	struct rb_result res = point(1, 1000);
	const struct rb_metric *m;
	char name[64], *out, test0[sizeof(params.test)];
	size_t i;

	(void)state;
	/* --probe's and --wr-lat's columns are shown only with them */
	params.probe = params.wr_lat = 1;
	params.reg_mode = RB_REG_CACHE; /* and --reg-mode cache's */
	snprintf(test0, sizeof(test0), "%s", params.test);
	for (i = 0; i < rb_nmetrics; i++) {
		m = &rb_metrics[i];
		if (!m->table)
			continue;
		r = report(m->group == RB_MG_LAT ? RB_MODE_LAT : RB_MODE_BW);
		r.units = RB_UNITS_GBITS;
		/* issue 42: lock's columns are a lock run's (its row says) */
		snprintf(params.test, sizeof(params.test), "%s",
			 m->group == RB_MG_LOCK ? "lock" : test0);
		out = write_mem(RB_FMT_TABLE, &r, &res);
		snprintf(name, sizeof(name), " %s[%s]", m->table, m->unit);
		assert_non_null(strstr(out, name));
		free(out);
	}
	params.probe = params.wr_lat = 0;
	params.reg_mode = RB_REG_POOL;
	snprintf(params.test, sizeof(params.test), "%s", test0);
}

/* Worse by half, the row's way: compare calls it a regression. */
static void test_compare(void **state)
{
	struct rb_doc r = report(RB_MODE_BW);
	struct rb_result b = point(1, 1000), n;
	struct rb_compare_opts o;
	json_t *jb, *jn;
	char err[512], *out;
	size_t i, len;
	FILE *f;

	(void)state;
	for (i = 0; i < rb_nmetrics; i++) {
		if (!rb_metrics[i].compare)
			continue;
		n = point(rb_metrics[i].better == RB_BETTER_HIGHER ? 0.5 : 2, 1000);
		jb = rb_json_doc(&r, &b, 1);
		jn = rb_json_doc(&r, &n, 1);
		rb_compare_opts_init(&o);
		assert_int_equal(rb_compare_metrics_parse(rb_metrics[i].name, &o, err, sizeof(err)),
				 0);
		f = open_memstream(&out, &len);
		assert_int_equal(rb_compare(jb, jn, &o, f, err, sizeof(err)), RB_CMP_REGRESSION);
		fclose(f);
		assert_non_null(strstr(out, rb_metrics[i].name));
		free(out);
		json_decref(jb);
		json_decref(jn);
	}
}

static void test_expect(void **state)
{
	struct rb_result res = point(1, 1000);
	struct rb_expect_ctx ctx = { .res = &res };
	struct rb_expect_env env = { .test = "t" };
	const struct rb_metric *m;
	struct rb_expect e;
	char text[64], err[512];
	double got;
	size_t i;

	(void)state;
	for (i = 0; i < rb_nmetrics; i++) {
		m = &rb_metrics[i];
		if (!m->expect[0])
			continue;
		snprintf(text, sizeof(text), "%s>=1%s", m->expect[0], m->unit);
		assert_int_equal(rb_expect_parse(text, &e, err, sizeof(err)), 0);
		assert_ptr_equal(e.row, m);
		env.mode = m->group == RB_MG_LAT ? RB_MODE_LAT : RB_MODE_BW;
		assert_int_equal(rb_expect_check(&e, &env, err, sizeof(err)), 0);
		assert_int_equal(rb_expect_eval(&e, &ctx, &got, NULL), RB_VERDICT_PASS);
		assert_near(got, rb_metric_value(m, &res));
		assert_string_equal(rb_expect_unit(&e), m->unit);
	}
}

/* Two threads, 1000 and 3000 iterations, the second's figures doubled. */
static void test_threads(void **state)
{
	struct rb_result per[2] = { point(1, 1000), point(2, 3000) }, agg;
	const struct rb_metric *m;
	double want;
	size_t i;

	(void)state;
	rb_threads_aggregate(per, 2, &agg);
	for (i = 0; i < rb_nmetrics; i++) {
		m = &rb_metrics[i];
		if (m->agg == RB_AGG_NONE) {
			if (m->group == RB_MG_LAT)
				assert_false(agg.has_lat);
			continue;
		}
		assert_true(rb_metric_has(m, &agg));
		want = rb_metric_value(m, &per[0]) + rb_metric_value(m, &per[1]);
		if (m->agg == RB_AGG_PER_OP)
			want = (rb_metric_value(m, &per[0]) * 1000 +
				rb_metric_value(m, &per[1]) * 3000) /
			       4000;
		assert_near(rb_metric_value(m, &agg), want);
	}
}

/* Every stored figure crosses between matrix ranks in a RESULT. */
static void test_matrix_wire(void **state)
{
	struct rb_mx_report rep = { .round = 1, .role = RB_MX_RUN, .has_res = 1 }, back;
	static uint8_t buf[RB_WIRE_MAX_BODY];
	size_t i;
	int n;

	(void)state;
	rep.res = point(1, 1000);
	n = rb_mx_pack_report(&rep, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(rb_mx_unpack_report(buf, (size_t)n, &back), 0);
	for (i = 0; i < rb_nmetrics; i++) {
		assert_true(rb_metric_has(&rb_metrics[i], &back.res));
		assert_near(rb_metric_value(&rb_metrics[i], &back.res),
			    rb_metric_value(&rb_metrics[i], &rep.res));
	}
}

/* Each group's flag is its own field: setting one sets no other, nor the point. */
static void test_group_flags(void **state)
{
	struct rb_result res, zero;
	int g, h;

	(void)state;
	for (g = 0; g < RB_MG_COUNT; g++) {
		memset(&res, 0, sizeof(res));
		memset(&zero, 0, sizeof(zero));
		rb_metric_group_set((enum rb_metric_group)g, &res, true);
		for (h = 0; h < RB_MG_COUNT; h++)
			assert_int_equal(rb_metric_group_has((enum rb_metric_group)h, &res),
					 g == h);
		assert_memory_equal(&res.pt, &zero.pt, sizeof(res.pt));
		rb_metric_group_set((enum rb_metric_group)g, &res, false);
		assert_memory_equal(&res, &zero, sizeof(res));
	}
}

static void test_matrix_rank(void **state)
{
	(void)state;
	assert_non_null(rb_metric_rank(true));
	assert_int_equal(rb_metric_rank(true)->group, RB_MG_LAT);
	assert_non_null(rb_metric_rank(false));
	assert_int_not_equal(rb_metric_rank(false)->group, RB_MG_LAT);
}

/* What @f holds, read back from the start (at most @len - 1 bytes). */
static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	assert_true(n < len - 1);
}

/*
 * --list-metrics (what rdmabench-plot draws from): one TSV row per metric,
 * each row's column, JSON member, unit, better-direction and chart, in
 * table order; the JSON the same.  test_metrics_extra: the throw-away row
 * is listed with no change but the row.
 */
static void test_list(void **state)
{
	static char buf[16384];
	char want[256];
	const char *p;
	FILE *f;
	size_t i;

	(void)state;
	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(rb_metrics_list(f, false), 0);
	slurp(f, buf, sizeof(buf));
	p = buf;
	assert_true(!strncmp(p, "column\tjson\tunit\tbetter\tchart\t", 30));
	for (i = 0; i < rb_nmetrics; i++) {
		const struct rb_metric *m = &rb_metrics[i];

		snprintf(want, sizeof(want), "\n%s\t%s%s%s\t%s\t%s\t%s\t", m->name,
			 m->group == RB_MG_LAT ? "lat_us." : "",
			 m->group == RB_MG_LAT ? m->json_key : m->name, "", m->unit,
			 m->better == RB_BETTER_HIGHER ? "higher" : "lower",
			 rb_charts[m->chart].name);
		p = strstr(p, want);
		if (!p)
			fail_msg("--list-metrics has no row '%s' in order", want + 1);
		p++;
	}
	assert_int_equal(strchr(p, '\n')[1], '\0'); /* nothing after the last row */
#ifdef TEST_EXTRA_ROW
	assert_non_null(strstr(buf, "\nextra_pct\textra_pct\t%\tlower\tnone\t\t\n"));
#endif
	fclose(f);

	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(rb_metrics_list(f, true), 0);
	slurp(f, buf, sizeof(buf));
	for (i = 0; i < rb_nmetrics; i++) {
		snprintf(want, sizeof(want), "\"column\": \"%s\"", rb_metrics[i].name);
		assert_non_null(strstr(buf, want));
	}
	fclose(f);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),	    cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),	    cmocka_unit_test(test_table),
		cmocka_unit_test(test_compare),	    cmocka_unit_test(test_expect),
		cmocka_unit_test(test_threads),	    cmocka_unit_test(test_matrix_wire),
		cmocka_unit_test(test_matrix_rank), cmocka_unit_test(test_group_flags),
		cmocka_unit_test(test_list),
	};

	memset(&params, 0, sizeof(params));
	snprintf(params.test, sizeof(params.test), "send_bw");
	rb_axis_set1(&params.size, 65536);
	rb_axis_set1(&params.batch, 1);
	rb_axis_set1(&params.signal, 1);
	rb_axis_set1(&params.qps, 1);
	rb_axis_set1(&params.tx_depth, 128);
	params.iters = 1000;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
