// SPDX-License-Identifier: MIT
/*
 * A command's own option table (core/opts_row.h: rb_opt_parse(),
 * rb_opt_list()), as compare, doctor and report have: each row's value through
 * rb_opt_set(), as the tests' rows are; the messages name the word typed;
 * a value given twice is refused, a list and a flag may repeat; the
 * completion lines are rb_list_options()'s format.  Then compare's,
 * doctor's and report's tables as completion sees them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/opts_row.h"
#include "core/rdmabench.h"
#include "doctor/doctor.h"
#include "report/compare.h"
#include "report/html.h"

struct args {
	char name[8];
	uint32_t count;
	struct rb_strlist tags;
	uint8_t quiet;
};

static int no_x(const char *arg, char *err, size_t len)
{
	if (strchr(arg, 'x'))
		return rb_set_err(err, len, -EINVAL, "--name '%s': no x", arg);
	return 0;
}

static const struct rb_opt rows[] = {
	{ .lname = "name",
	  .alias = "nom",
	  .sname = 'n',
	  .type = RB_OPT_STR,
	  .off = offsetof(struct args, name),
	  .size = sizeof(((struct args *)0)->name),
	  .check = no_x,
	  .argname = "NAME" },
	{ .lname = "count",
	  .type = RB_OPT_U32,
	  .off = offsetof(struct args, count),
	  .min = 1,
	  .max = 9,
	  .argname = "N" },
	{ .lname = "tag", .type = RB_OPT_LIST, .off = offsetof(struct args, tags), .argname = "T" },
	{ .lname = "quiet", .sname = 'q', .type = RB_OPT_FLAG, .off = offsetof(struct args, quiet) },
};

static const struct rb_opt_table table = { "demo", rows, sizeof(rows) / sizeof(rows[0]) };

static char err[256];
static struct args a;
static uint8_t given[4];

/* "demo WORDS...": rb_opt_parse()'s return. */
static int parse(const char *words)
{
	static char buf[256];
	char *argv[16], *save = NULL, *tok;
	int argc = 0;

	snprintf(buf, sizeof(buf), "demo %s", words);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	memset(&a, 0, sizeof(a));
	err[0] = '\0';
	return rb_opt_parse(&table, &a, given, argc, argv, err, sizeof(err));
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(parse("-n ab --count 3 --tag a --tag b -q -q FILE"), 11);
	assert_string_equal(a.name, "ab");
	assert_int_equal(a.count, 3);
	assert_int_equal(a.tags.n, 2);
	assert_string_equal(a.tags.v[1], "b");
	assert_int_equal(a.quiet, 1);
	assert_int_equal(given[0] + given[1] + given[2] + given[3], 4);
	/* The alias, and no operand: argc. */
	assert_int_equal(parse("--nom cd"), 3);
	assert_string_equal(a.name, "cd");
	assert_int_equal(given[1], 0);
}

static void test_refusals(void **state)
{
	(void)state;
	assert_int_equal(parse("--count 3 --count 4"), -EINVAL);
	assert_string_equal(err, "--count given twice");
	assert_int_equal(parse("-n a -n b"), -EINVAL);
	assert_string_equal(err, "-n/--name given twice");
	assert_int_equal(parse("--count 10"), -EINVAL);
	assert_string_equal(err, "--count 10 is out of range (1..9)");
	assert_int_equal(parse("--name axe"), -EINVAL);
	assert_string_equal(err, "--name 'axe': no x");
	assert_int_equal(parse("--name abcdefghij"), -EINVAL);
	assert_string_equal(err, "-n/--name: 'abcdefghij' is longer than 7 characters");
	assert_int_equal(parse("--bogus"), -EINVAL);
	assert_string_equal(err, "unknown option --bogus for demo (see rdmabench demo --help)");
	assert_int_equal(parse("-z"), -EINVAL);
	assert_string_equal(err, "unknown option -z for demo (see rdmabench demo --help)");
	assert_int_equal(parse("--count"), -EINVAL);
	assert_string_equal(err, "--count needs an argument");
	assert_int_equal(parse("--quiet=1"), -EINVAL);
	assert_string_equal(err, "--quiet takes no argument");
}

static char *listed(void (*fn)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f);
	fclose(f);
	return buf;
}

static void list_demo(FILE *f)
{
	rb_opt_list(f, &table);
}

/* Completion: rb_list_options()'s columns; compare's and doctor's as before their tables. */
static void test_list(void **state)
{
	char *s;

	(void)state;
	s = listed(list_demo);
	assert_string_equal(s, "--name\t-n\tNAME\t\n--count\t\tN\t\n--tag\t\tT\t\n--quiet\t-"
			       "q\t\t\n");
	free(s);
	s = listed(rb_compare_list_options);
	assert_string_equal(s, "--tolerance\t-t\tPCT\t\n--metric\t-m\tLIST\t\n--vs-tcp\t\t\t\n"
			       "--help\t-h\t\t\n");
	free(s);
	s = listed(rb_doctor_list_options);
	assert_string_equal(s, "--ib-dev\t-d\tDEV\t\n--json\t\tFILE\t\n--root\t\tDIR\t\n"
			       "--port\t-p\tPORT\t\n--bind\t\tADDR\t\n--no-runs\t\t\t\n"
			       "--auth-key\t\tFILE\t\n--help\t-h\t\t\n");
	free(s);
	s = listed(rb_report_list_options);
	assert_string_equal(s, "--output\t-o\tFILE\t\n--tolerance\t-t\tPCT\t\n--help\t-h\t\t\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
