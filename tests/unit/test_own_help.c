// SPDX-License-Identifier: MIT
/*
 * Unit tests for the --help of the commands with option tables of their
 * own (compare, doctor, report): the options' lines come from the rows
 * that parse them (core's rb_opt_help()), never from a hand-kept text.
 * The printer's layout on a throw-away table, worked out by hand; and
 * for each command, every row its completion lists (the parser's rows)
 * is in its --help with its argument and a text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/opts_row.h"
#include "doctor/doctor.h"
#include "report/compare.h"
#include "report/html.h"

struct fake {
	char name[16];
	uint8_t all;
};

static const struct rb_opt fake_rows[] = {
	{ .lname = "name",
	  .sname = 'n',
	  .type = RB_OPT_STR,
	  .off = offsetof(struct fake, name),
	  .size = 16,
	  .argname = "WORD",
	  .def = "none",
	  .help = "one word" },
	{ .lname = "everything-at-once",
	  .type = RB_OPT_FLAG,
	  .off = offsetof(struct fake, all),
	  .max = 1,
	  .help = "a text long enough to be wrapped at the seventy-ninth column, under "
		  "the column it starts at" },
};

static const struct rb_opt_table fake = { "fake", fake_rows, 2 };

static char *captured(void (*fn)(FILE *f))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	fn(f);
	fclose(f);
	return text;
}

static void fake_help(FILE *f)
{
	rb_opt_help(f, &fake, 20);
}

/* The layout: head to the column, text and default, wrapped under it. */
static void test_layout(void **state)
{
	char *text = captured(fake_help);

	(void)state;
	assert_string_equal(text, "  -n, --name WORD   one word (default: none)\n"
				  "      --everything-at-once\n"
				  "                    a text long enough to be wrapped at the "
				  "seventy-ninth\n"
				  "                    column, under the column it starts at\n");
	free(text);
}

/*
 * Every row that @list (the command's completion, from the rows that
 * parse its line) names is in @usage's text: "-s, --name ARG" and a text
 * after it on its line or the next.
 */
static void rows_in_help(void (*list)(FILE *f), void (*usage)(FILE *f))
{
	char *rows = captured(list), *help = captured(usage), *line, *save = NULL;
	char want[96], *at, *eol;
	int n = 0;

	for (line = strtok_r(rows, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = line, *s = strchr(name, '\t'), *arg;

		assert_non_null(s);
		*s++ = '\0';
		arg = strchr(s, '\t');
		assert_non_null(arg);
		*arg++ = '\0';
		*strchr(arg, '\t') = '\0';
		snprintf(want, sizeof(want), "%s%s%s%s%s\n", s, *s ? ", " : "    ", name,
			 *arg ? " " : "", arg);
		want[strlen(want) - 1] = '\0';
		at = strstr(help, want);
		if (!at)
			fail_msg("--help lacks '%s'", want);
		at += strlen(want);
		eol = strchr(at, '\n');
		assert_non_null(eol);
		/* A text after the head, on its line or the next. */
		assert_true(strspn(at, " ") < (size_t)(eol - at) ||
			    (eol[1] == ' ' && eol[1 + strspn(eol + 1, " ")] != '\n'));
		n++;
	}
	assert_true(n >= 3);
	free(rows);
	free(help);
}

static void test_compare(void **state)
{
	char *help = captured(rb_compare_usage);

	(void)state;
	rows_in_help(rb_compare_list_options, rb_compare_usage);
	assert_non_null(strstr(help, "  -t, --tolerance PCT  a percentage (default: 5%)\n"));
	free(help);
}

static void test_doctor(void **state)
{
	char *help = captured(rb_doctor_usage);

	(void)state;
	rows_in_help(rb_doctor_list_options, rb_doctor_usage);
	assert_non_null(strstr(help, "  -p, --port PORT   HOST's rdmabench server listens there "
				     "(default: 18515)\n"));
	free(help);
}

static void test_report(void **state)
{
	(void)state;
	rows_in_help(rb_report_list_options, rb_report_usage);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_doctor),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
