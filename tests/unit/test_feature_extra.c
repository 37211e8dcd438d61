// SPDX-License-Identifier: MIT
/*
 * A run feature made in this file alone, as doc/development.md's "Adding
 * a run feature" makes one: an option the server must know (a plan row
 * with a wire tag and a JSON name), a point hook that acts on it, and a
 * metric that carries its figure.  Compiling the three tables here
 * (core/opts_table.c, session/point.c, core/metrics.c) with their test
 * rows puts them in place of librb's, as test_metrics_extra and
 * test_bench_extra do for a metric and a test; no other file knows the
 * feature.  Each reader of the rows must see it: the command line and
 * the plan's validation, the keyed wire and --list-plan, the JSON's
 * params, compare's parameter table, the dry run's "sent" line, shell
 * completion, the point's stages and the CSV.
 *
 * It borrows storage, as test_metrics_extra's metric does: the plan's
 * latency_gap_us (a latency test's field, not on the wire; the feature
 * applies to bandwidth tests, where that row does not) and the result's
 * rate_dev_pct (written only with --rate).  A real feature adds its own
 * field to struct rb_params and struct rb_result.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "cli/opts.h"
#include "core/metrics.h"
#include "report/compare.h"
#include "report/output.h"
#include "session/dryrun.h"
#include "session/point_hook.h"
#include "wire/plan.h"
#include "wire/wire.h"

/* The option: bandwidth tests, 0..1000, a tag no real row takes. */
#define KNOB_TAG 0x7ff0
#define RB_OPTS_TEST_ROW                                                                     \
	{                                                                                    \
		.lname = "extra-knob", .json = "extra_knob", .wire = KNOB_TAG,               \
		.section = RB_SEC_MEASURE, .brief = "test_feature_extra's knob",             \
		.type = RB_OPT_U32, .off = PAR(latency_gap_us), .max = 1000, .argname = "N", \
		.def = "0", .need = RB_S_BW | RB_S_VERBS,                                    \
		.help = "a throw-away feature's knob (tests/unit/test_feature_extra.c)"      \
	}
#undef fail /* cmocka's; the table's file has its own */
#include "core/opts_table.c"
#undef fail
#define fail() _fail(__FILE__, __LINE__) /* cmocka's again */
#include "session/session_int.h"

/* The metric: the knob's figure, in a CSV column of its own. */
#define RB_METRICS_TEST_ROW                                                         \
	{                                                                           \
		.name = "extra_knob_pct", .unit = "%", .better = RB_BETTER_LOWER,   \
		.group = RB_MG_BW, .off = offsetof(struct rb_result, rate_dev_pct), \
		.agg = RB_AGG_SUM, .compare = true, .alias = "knob",                \
	}
#include "core/metrics.c"

/* The hook: on when the plan sets the knob, on both sides; counts its runs. */
static unsigned int knob_runs;

static bool knob_on(const struct session *s)
{
	return s->p.latency_gap_us != 0;
}

static void knob_begin(struct session *s)
{
	(void)s;
	knob_runs++;
}

static void knob_emit(struct session *s, struct sess_point *pt)
{
	pt->res.rate_dev_pct = s->p.latency_gap_us / 10.0;
}

static const struct sess_point_hook knob_hook = {
	.name = "extra_knob",
	.sides = SESS_CLIENT | SESS_SERVER,
	.on = knob_on,
	.run_begin = knob_begin,
	.before_emit = knob_emit,
};

#define RB_POINT_TEST_HOOK &knob_hook
#include "session/point.c"

static char err[1024];

/* "write_bw ARGS..." through the command line into @c; 0 or the error. */
static int cli(struct rb_cli *c, const char *test, const char *arg, const char *val)
{
	const struct rb_bench *b = rb_bench_find(test);
	char *argv[] = { (char *)test, (char *)arg, (char *)val, NULL };
	int ret;

	assert_non_null(b);
	err[0] = '\0';
	rb_cli_init(c);
	ret = rb_cli_parse(c, test, rb_bench_scope(b), arg ? 3 : 1, argv, err, sizeof(err));
	if (!ret)
		ret = rb_cli_finish(c, b, rb_bench_scope(b), err, sizeof(err));
	return ret;
}

/* The plan a server gets: packed on this side, unpacked on the other. */
static struct rb_params over_wire(const struct rb_params *p)
{
	uint8_t buf[RB_WIRE_HDR_LEN + RB_WIRE_MAX_BODY];
	struct rb_params got;
	int n = rb_pack_params(p, buf, sizeof(buf));

	assert_true(n > 0);
	memset(&got, 0, sizeof(got));
	assert_int_equal(rb_unpack_params(buf, (size_t)n, &got), 0);
	return got;
}

static char *print(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void has(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("\"%s\" not in:\n%s", needle, text);
}

/* The command line takes it where it applies, in its range, into a valid plan. */
static void test_plan(void **state)
{
	struct rb_cli c;

	(void)state;
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	assert_int_equal(c.p.latency_gap_us, 7);
	assert_int_equal(rb_plan_validate(&c.p, 1ULL << 30, err, sizeof(err)), 0);
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "1001"), -EINVAL);
	has(err, "--extra-knob 1001 is out of range (0..1000)");
	/* A peer's plan out of the row's range is refused by the validator too. */
	assert_int_equal(cli(&c, "write_bw", NULL, NULL), 0);
	c.p.latency_gap_us = 1001;
	assert_int_equal(rb_plan_validate(&c.p, 1ULL << 30, err, sizeof(err)), -EINVAL);
	has(err, "--extra-knob");
}

/* The server gets it: its own tag, must-understand, the value equal. */
static void list_plan(FILE *f, const void *arg)
{
	(void)arg;
	rb_wire_plan_list(f);
}

static void test_wire(void **state)
{
	struct rb_cli c;
	struct rb_params got;
	char line[64], *list;

	(void)state;
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	got = over_wire(&c.p);
	assert_int_equal(got.latency_gap_us, 7);
	assert_int_equal(rb_plan_validate(&got, 1ULL << 30, err, sizeof(err)), 0);
	list = print(list_plan, NULL);
	snprintf(line, sizeof(line), "%u\tmust\tu32\textra_knob\n", KNOB_TAG);
	has(list, line);
	free(list);
}

/* The JSON's params name it when set, and only then. */
static void test_json(void **state)
{
	struct rb_cli c;
	json_t *o;

	(void)state;
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	o = rb_json_params(&c.p);
	assert_int_equal(json_integer_value(json_object_get(o, "extra_knob")), 7);
	json_decref(o);
	assert_int_equal(cli(&c, "write_bw", NULL, NULL), 0);
	o = rb_json_params(&c.p);
	assert_null(json_object_get(o, "extra_knob"));
	json_decref(o);
}

/* compare refuses two runs that differ in it, naming the option. */
static void test_compare(void **state)
{
	struct rb_compare_opts opts;
	struct rb_cli c;
	json_error_t je;
	json_t *b = json_load_file(TEST_DATA_DIR "/golden/bw.json", 0, &je);
	json_t *n = json_deep_copy(b);
	FILE *out = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(b);
	assert_non_null(out);
	json_object_set_new(json_object_get(n, "params"), "extra_knob", json_integer(7));
	rb_compare_opts_init(&opts);
	assert_int_equal(rb_compare(b, n, &opts, out, err, sizeof(err)), 2);
	has(err, "extra_knob (--extra-knob)");
	/* The same knob on both sides compares. */
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	json_object_set_new(b, "params", json_deep_copy(json_object_get(n, "params")));
	assert_int_equal(rb_compare(b, n, &opts, out, err, sizeof(err)), 0);
	fclose(out);
	json_decref(b);
	json_decref(n);
}

/* The dry run's "sent" line gives it as a command line would. */
static void dry(FILE *f, const void *arg)
{
	assert_int_equal(rb_dry_text(arg, f), 0);
}

static void test_dryrun(void **state)
{
	static struct rb_cli c;
	struct rb_placement place = { .cpus = "2", .freq_cpu = -1 };
	struct rb_dryrun d;
	char *text;

	(void)state;
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	d = (struct rb_dryrun){ .cmd = "write_bw",
				.role = RB_ROLE_CLIENT,
				.b = rb_bench_find("write_bw"),
				.p = &c.p,
				.l = &c.l,
				.version = "9.9",
				.pt_ignored = "",
				.place = { .known = true, .n = 1, .place = &place } };
	d.dev.gid_index = -1;
	text = print(dry, &d);
	has(text, "--extra-knob 7");
	free(text);
}

/* Shell completion offers it to the tests it applies to. */
static void list_options(FILE *f, const void *arg)
{
	rb_list_options(f, rb_bench_scope(arg));
}

static void test_completion(void **state)
{
	char *text;

	(void)state;
	text = print(list_options, rb_bench_find("write_bw"));
	has(text, "extra-knob\t");
	free(text);
	text = print(list_options, rb_bench_find("write_lat"));
	assert_null(strstr(text, "extra-knob"));
	free(text);
}

/*
 * The point's stages run the hook on either side when the plan that came
 * over the wire sets the knob, and not without it; its figure reaches
 * the metric's CSV column.
 */
static int fake_run(struct rb_run *r)
{
	(void)r;
	return 0;
}

static void test_hook_metric(void **state)
{
	static struct session s;
	struct rb_bench fake = { .name = "write_bw", .run = fake_run };
	struct sess_point pt = { 0 };
	const struct sess_point_hook *const *h;
	const struct rb_metric *m;
	struct rb_cli c;
	char hdr[2048];

	(void)state;
	assert_int_equal(cli(&c, "write_bw", "--extra-knob", "7"), 0);
	s.bench = &fake;
	s.p = over_wire(&c.p);
	s.role = RB_ROLE_SERVER;
	knob_runs = 0;
	assert_int_equal(point_run(&s, 0), 0);
	s.role = RB_ROLE_CLIENT;
	assert_int_equal(point_run(&s, 0), 0);
	assert_int_equal(knob_runs, 2);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(&s, *h) && (*h)->before_emit == knob_emit)
			(*h)->before_emit(&s, &pt);
	m = rb_metric_find("extra_knob_pct", strlen("extra_knob_pct"), false);
	assert_non_null(m);
	assert_true(rb_metric_value(m, &pt.res) == 0.7);
	has(rb_csv_header(hdr, sizeof(hdr)), ",extra_knob_pct");
	assert_int_equal(cli(&c, "write_bw", NULL, NULL), 0);
	s.p = over_wire(&c.p);
	assert_int_equal(point_run(&s, 0), 0);
	assert_int_equal(knob_runs, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),	    cmocka_unit_test(test_wire),
		cmocka_unit_test(test_json),	    cmocka_unit_test(test_compare),
		cmocka_unit_test(test_dryrun),	    cmocka_unit_test(test_completion),
		cmocka_unit_test(test_hook_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
