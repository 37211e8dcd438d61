// SPDX-License-Identifier: MIT
/*
 * The one parser (core/opts_getopt.c, rb_opt_getopt()): a throw-away
 * table with another program's flags beside it, parsed through core with
 * the main command line's prefix rule (a unique prefix of one of our rows
 * is ours, even where the foreign flags start so too) and letters (ours
 * first); and one set of rules for every command: a command's own table
 * (rb_opt_parse(): compare, doctor, report, reg) and the tests' line
 * (rb_cli_parse()) give the same message, byte for byte, for an ambiguous
 * prefix, a flag given a value, a misspelled name, a missing argument and
 * a value given twice.  Also: "--" ends the options, a line of 100,000
 * words reads back as typed, and help asked for on matrix's line wins over
 * what is wrong after it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/opts.h"
#include "cli/opts_perftest.h"
#include "core/cmd.h"
#include "core/opts_parser.h"
#include "matrix/matrix_run.h"
#include "reg/reg.h"
#include "report/metrics_list.h"

struct demo {
	char report[16], interval[16];
	uint32_t size, signal, inline_size;
	uint8_t verify;
	struct rb_strlist tag;
};

#define D(f) offsetof(struct demo, f)

/* Some of rb_opts[]'s names, in its order, so that "--in" names the same rows as the tests' line. */
static const struct rb_opt rows[] = {
	{ .lname = "size", .sname = 's', .type = RB_OPT_U32, .off = D(size), .max = 1 << 20 },
	{ .lname = "signal", .type = RB_OPT_U32, .off = D(signal), .max = 64 },
	{ .lname = "interval", .type = RB_OPT_STR, .off = D(interval), .size = 16 },
	{ .lname = "inline", .type = RB_OPT_U32, .off = D(inline_size), .max = 64 },
	{ .lname = "verify", .sname = 'q', .type = RB_OPT_FLAG, .off = D(verify) },
	{ .lname = "report", .type = RB_OPT_STR, .off = D(report), .size = 16 },
	{ .lname = "tag", .type = RB_OPT_LIST, .off = D(tag) },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* Named as the tests' command is, so that its messages may be compared. */
static const struct rb_opt_table table = { "write_bw", rows, NROWS };

/* The other program's flags: a name our --report starts, our letter q, its own n. */
static const struct rb_opt_foreign others[] = {
	{ "report-cycles", 'C', false },
	{ "rate_units", 'q', true },
	{ "iters", 'n', true },
	{ "sig_before", 0, false },
};

static struct demo d;
static uint8_t given[NROWS];
static char err[256], took[64];

static void other_names(size_t j, struct rb_opt_foreign *out)
{
	*out = others[j];
}

static int take_other(const struct rb_opt_parser *p, size_t j, const char *arg, char *e, size_t len)
{
	size_t used = strlen(took);

	(void)p;
	(void)e;
	(void)len;
	snprintf(took + used, sizeof(took) - used, "%s%s%s ", others[j].lname, arg ? "=" : "",
		 arg ? arg : "");
	return 0;
}

static const struct rb_opt_parser with_others = { .cmd = "demo",
						  .table = &table,
						  .nforeign = sizeof(others) / sizeof(others[0]),
						  .foreign = other_names,
						  .foreign_who = "other's",
						  .take_foreign = take_other,
						  .base = &d,
						  .given = given };

/* @line split on spaces into @argv (argv[0] "demo"); the count. */
static int split(const char *line, char *buf, size_t size, char **argv)
{
	char *save = NULL, *tok;
	int argc = 0;

	snprintf(buf, size, "demo %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return argc;
}

/* @line through rb_opt_getopt() with the foreign flags: its return. */
static int engine(const char *line, char **argv)
{
	static char buf[256];
	int argc = split(line, buf, sizeof(buf), argv);

	memset(&d, 0, sizeof(d));
	memset(given, 0, sizeof(given));
	err[0] = took[0] = '\0';
	return rb_opt_getopt(&with_others, argc, argv, err, sizeof(err));
}

static void foreign_flags_through_core(void **state)
{
	char *argv[16];

	(void)state;
	/* --repo: ours (one row starts so) though report-cycles does too. */
	assert_int_equal(engine("--repo x", argv), 3);
	assert_string_equal(d.report, "x");
	assert_string_equal(took, "");
	/* --report-c: theirs; -q: our letter; -n: theirs, with its value. */
	assert_int_equal(engine("--report-c -q -n 5 --rate 9", argv), 7);
	assert_string_equal(took, "report-cycles iters=5 rate_units=9 ");
	assert_true(d.verify);
	assert_int_equal(engine("--re y", argv), 3);
	assert_string_equal(d.report, "y");
	/* A prefix of two of ours and of theirs: all named, theirs as theirs. */
	assert_int_equal(engine("--s 1", argv), -EINVAL);
	assert_string_equal(err, "option --s is ambiguous: --size, --signal, --sig_before "
				 "(other's)");
	assert_int_equal(engine("--report-cycles=1", argv), -EINVAL);
	assert_string_equal(err, "other's --report-cycles takes no argument");
	assert_int_equal(engine("--itres 3", argv), -EINVAL);
	assert_string_equal(err, "unknown option --itres for demo: did you mean --iters? (see "
				 "rdmabench "
				 "demo --help)");
}

/* The operands after the options, as getopt_long permutes them, each as it was typed. */
static void operands_as_typed(void **state)
{
	char *argv[16];
	int first;

	(void)state;
	first = engine("host --repo x -- --size", argv);
	assert_int_equal(first, 4);
	assert_string_equal(argv[1], "--repo"); /* not the "--report" it was read as */
	assert_string_equal(argv[first], "host");
	assert_string_equal(argv[first + 1], "--size");
}

static int own(const char *line)
{
	static char buf[256];
	char *argv[16];
	int argc = split(line, buf, sizeof(buf), argv);

	memset(&d, 0, sizeof(d));
	err[0] = '\0';
	return rb_opt_parse(&table, &d, given, argc, argv, err, sizeof(err));
}

static int tests_line(const char *line)
{
	static char buf[256];
	char *argv[16];
	int argc = split(line, buf, sizeof(buf), argv);
	struct rb_cli c;
	struct rb_cmd cmd;

	assert_true(rb_cmd_find("write_bw", &cmd));
	rb_cli_init(&c);
	err[0] = '\0';
	argv[0] = "write_bw";
	return rb_cli_parse(&c, "write_bw", cmd.scope, argc, argv, err, sizeof(err));
}

/* Each of these read differently in a command's own table before it went through the engine. */
static void one_rule_for_every_table(void **state)
{
	static const struct {
		const char *line, *says;
	} cases[] = {
		{ "--in 1", "option --in is ambiguous: --interval, --inline" },
		{ "--verify=1", "--verify takes no argument" },
		{ "--sise 1", "unknown option --sise for write_bw: did you mean --size? (see "
			      "rdmabench "
			      "write_bw --help)" },
		{ "-Y", "unknown option -Y for write_bw (see rdmabench write_bw --help)" },
		{ "--size", "--size needs an argument" },
		{ "--siz", "--size needs an argument" },
		{ "-s 8 --size=16", "-s/--size given twice" },
	};
	char mine[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(own(cases[i].line), -EINVAL);
		snprintf(mine, sizeof(mine), "%s", err);
		assert_int_equal(tests_line(cases[i].line), -EINVAL);
		if (strcmp(mine, err) || strcmp(err, cases[i].says))
			fail_msg("'%s': own table \"%s\", tests' line \"%s\", want \"%s\"",
				 cases[i].line, mine, err, cases[i].says);
	}
	/* What both take: a flag again, a list again, a prefix with '='. */
	assert_true(own("-q --verify --tag a --tag b --sig=3") > 0);
	assert_true(d.verify && d.tag.n == 2 && d.signal == 3);
}

/* reg's own --quiet given a value: its rule, not "a test's option" (the tests' --quiet). */
static void reg_flag_with_value(void **state)
{
	char *argv[] = { "reg", "--quiet=1", NULL };
	struct rb_reg_opts o;

	(void)state;
	assert_int_equal(rb_reg_parse(2, argv, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--quiet takes no argument");
}

/*
 * perftest's flags that set a row name it by id (a typo fails to build),
 * never by its name as a string (src/ has no lookup by name: opts_fx.c's
 * rb_opt_index() is the tests'); each sets the row it names.
 */
static void perftest_rows_by_id(void **state)
{
	char *argv[] = { "write_bw", NULL, "host", NULL };
	struct rb_cmd cmd;
	struct rb_cli c;
	size_t i, n = 0;

	(void)state;
	assert_true(rb_cmd_find("write_bw", &cmd));
	for (i = 0; i < rb_npt_flags; i++) {
		const struct rb_pt_flag *f = &rb_pt_flags[i];
		const struct rb_opt *to = rb_opt_by_id(f->to), *to2 = rb_opt_by_id(f->to2);
		char word[64];

		if (!f->to)
			continue;
		assert_non_null(to);
		assert_true(!f->to2 || to2);
		snprintf(word, sizeof(word), "--%s%s", f->lname, f->arg ? "=0" : "");
		argv[1] = word;
		rb_cli_init(&c);
		if (rb_cli_parse(&c, "write_bw", cmd.scope, 3, argv, err, sizeof(err)))
			fail_msg("%s: %s", word, err);
		assert_true(rb_cli_given_row(&c, to) && (!to2 || rb_cli_given_row(&c, to2)));
		n++;
	}
	assert_true(n >= 4);
}

static char out[1 << 17];

/* @fn(@argc, @argv)'s exit code, its stdout in out[]. */
static int said(int (*fn)(int argc, char **argv), int argc, char **argv)
{
	FILE *t = tmpfile();
	int keep = dup(1), ret;
	size_t n;

	assert_true(t && keep >= 0);
	fflush(stdout);
	dup2(fileno(t), 1);
	ret = fn(argc, argv);
	fflush(stdout);
	dup2(keep, 1);
	close(keep);
	rewind(t);
	n = fread(out, 1, sizeof(out) - 1, t);
	out[n] = '\0';
	fclose(t);
	return ret;
}

/* "matrix --help-al" (no test yet): the row's prefix, as any line takes it, not a word compared. */
static void matrix_help_by_row(void **state)
{
	char *help[] = { "matrix", "--help-al", NULL }, *none[] = { "matrix", "--hel", NULL };

	(void)state;
	assert_int_equal(said(rb_matrix_main, 2, help), RB_EXIT_OK);
	/* --help and --help-all both start so: no test named, and no help asked. */
	assert_int_equal(rb_matrix_main(2, none), RB_EXIT_USAGE);
}

/*
 * Help asked for wins over what is wrong after it on the line (its words
 * are taken in order), with the test first or not: "matrix --help
 * write_bw" is write_bw's help as "matrix write_bw --help" is.
 */
static void matrix_help_first(void **state)
{
	char *h[] = { "matrix", "-h", NULL }, *hb[] = { "matrix", "-h", "--bogus", NULL },
	     *ht[] = { "matrix", "--help", "write_bw", NULL },
	     *th[] = { "matrix", "write_bw", "--help", NULL },
	     *thb[] = { "matrix", "write_bw", "--help", "--bogus", NULL },
	     *all[] = { "matrix", "--help-all", NULL }, *bh[] = { "matrix", "--bogus", "-h", NULL },
	     *hx[] = { "matrix", "--help", "no_such_test", NULL };
	static char plain[sizeof(out)], test[sizeof(out)];

	(void)state;
	assert_int_equal(said(rb_matrix_main, 2, h), RB_EXIT_OK);
	assert_non_null(strstr(out, "\nMatrix:\n"));
	strcpy(plain, out);
	assert_int_equal(said(rb_matrix_main, 3, hb), RB_EXIT_OK);
	assert_string_equal(out, plain);
	assert_int_equal(said(rb_matrix_main, 3, th), RB_EXIT_OK);
	strcpy(test, out);
	assert_string_not_equal(test, plain);
	assert_int_equal(said(rb_matrix_main, 3, ht), RB_EXIT_OK);
	assert_string_equal(out, test);
	assert_int_equal(said(rb_matrix_main, 4, thb), RB_EXIT_OK);
	assert_string_equal(out, test);
	assert_int_equal(said(rb_matrix_main, 2, all), RB_EXIT_OK);
	assert_non_null(strstr(out, "--seed N\n"));
	/* Something wrong before the help, or a test that is none: a usage error. */
	assert_int_equal(said(rb_matrix_main, 3, bh), RB_EXIT_USAGE);
	assert_int_equal(said(rb_matrix_main, 3, hx), RB_EXIT_USAGE);
	assert_string_equal(out, "");
}

/*
 * 100,000 words: every spelled-out prefix put back as typed, the operand
 * after the options.  The put-back is one pass (each spelled-out word
 * knows the index it replaced); the time is not asserted.
 */
static void long_line_as_typed(void **state)
{
	enum { N = 100000 };
	char **argv = calloc(N + 1, sizeof(*argv));
	int k, first, typed = 0;

	(void)state;
	assert_non_null(argv);
	argv[0] = "demo";
	for (k = 1; k < N; k++)
		argv[k] = k % 250 == 1 ? "--verif" : "-q";
	argv[N / 2] = "x";
	argv[N - 1] = "--sig=3";
	memset(&d, 0, sizeof(d));
	first = rb_opt_parse(&table, &d, given, N, argv, err, sizeof(err));
	assert_int_equal(first, N - 1);
	assert_string_equal(argv[first], "x");
	assert_string_equal(argv[first - 1], "--sig=3");
	assert_string_equal(argv[1], "--verif");
	for (k = 1; k < first; k++)
		typed += !strcmp(argv[k], "--verif");
	assert_int_equal(typed, 400);
	assert_true(d.verify && d.signal == 3);
	free(argv);
}

/* "--" ends the options: what follows is an operand, a prefix left as typed and unread. */
static void double_dash_ends_options(void **state)
{
	char *argv[16];
	int first;

	(void)state;
	first = engine("x -- --verif --repo", argv);
	assert_int_equal(first, 2);
	assert_string_equal(argv[1], "--");
	assert_string_equal(argv[first], "x");
	assert_string_equal(argv[first + 1], "--verif");
	assert_string_equal(argv[first + 2], "--repo");
	assert_false(d.verify);
	assert_string_equal(d.report, "");
	assert_string_equal(took, "");
}

/* --list-metrics' --format is a row, so its line reads as every command's. */
static void list_metrics_by_row(void **state)
{
	char *pre[] = { "--list-metrics", "--form=json", NULL },
	     *bad[] = { "--list-metrics", "--format", "csv", NULL },
	     *extra[] = { "--list-metrics", "x", NULL },
	     *help[] = { "--list-metrics", "--help", NULL },
	     *twice[] = { "--list-metrics", "--format", "json", "--format", "tsv", NULL };

	(void)state;
	assert_int_equal(said(rb_metrics_list_main, 2, pre), RB_EXIT_OK);
	assert_int_equal(rb_metrics_list_main(3, bad), RB_EXIT_USAGE);
	assert_int_equal(rb_metrics_list_main(2, extra), RB_EXIT_USAGE);
	/* Its rows' rules: --help says them, a value given twice is refused. */
	assert_int_equal(said(rb_metrics_list_main, 2, help), RB_EXIT_OK);
	assert_non_null(strstr(out, "--format tsv|json"));
	assert_int_equal(said(rb_metrics_list_main, 5, twice), RB_EXIT_USAGE);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(foreign_flags_through_core),
		cmocka_unit_test(operands_as_typed),
		cmocka_unit_test(one_rule_for_every_table),
		cmocka_unit_test(reg_flag_with_value),
		cmocka_unit_test(perftest_rows_by_id),
		cmocka_unit_test(matrix_help_by_row),
		cmocka_unit_test(list_metrics_by_row),
		cmocka_unit_test(matrix_help_first),
		cmocka_unit_test(long_line_as_typed),
		cmocka_unit_test(double_dash_ends_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
