// SPDX-License-Identifier: MIT
/*
 * Unit tests for matrix's own option rows (src/matrix/matrix_opts.c):
 * they are not in the tests' table (rb_opts[]) but registered with core
 * before main(), so that matrix's command line takes them into struct
 * rb_matrix_opts with the test's options beside them, a test refuses them
 * by name as it did when they were rb_opts[]'s, and --help, --help-all,
 * completion and the man page list them.
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

#include "cli/opts.h"
#include "core/bench.h"
#include "core/cmd.h"
#include "matrix/matrix_opts.h"

static unsigned int scope_of(const char *name)
{
	struct rb_cmd cmd;

	assert_true(rb_cmd_find(name, &cmd));
	return cmd.scope;
}

/* @cmd's line of @n words after the command's name: 0 or the error, in @err. */
static int parse(struct rb_cli *c, const char *cmd, unsigned int scope, char *err, int n, ...)
{
	char *argv[16] = { (char *)cmd };
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	err[0] = '\0';
	return rb_cli_parse(c, cmd, scope, n + 1, argv, err, 256);
}

/* What a FILE got, as a string (free it). */
static char *captured(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return text;
}

/* Matrix's rows are its own: registered, none of rb_opts[], each sound. */
static void test_rows_registered(void **state)
{
	size_t i, k, found = 0;

	(void)state;
	/* The rows are in matrix_opts.h's order, which the code names them by. */
	assert_string_equal(rb_mx_rows[MX_O_PATTERN].lname, "pattern");
	assert_string_equal(rb_mx_rows[MX_O_PAIRS_FILE].lname, "pairs-file");
	assert_string_equal(rb_mx_rows[MX_O_TOLERANCE].lname, "tolerance");
	assert_string_equal(rb_mx_rows[MX_O_COORDINATOR].lname, "coordinator");
	assert_string_equal(rb_mx_rows[MX_O_RANK].lname, "rank");
	assert_string_equal(rb_mx_rows[MX_O_NRANKS].lname, "nranks");
	assert_string_equal(rb_mx_rows[MX_O_SIMULATE].lname, "simulate");
	assert_string_equal(rb_mx_rows[MX_O_SEED].lname, "seed");
	assert_int_equal(rb_opt_rows(), rb_nopts + MX_O_N);
	assert_true(rb_opt_rows() <= RB_OPTS_MAX);
	for (k = 0; k < MX_O_N; k++) {
		const struct rb_opt *o = &rb_mx_rows[k];

		for (i = 0; i < rb_nopts; i++)
			assert_string_not_equal(rb_opts[i].lname, o->lname);
		for (i = 0; i < rb_opt_rows(); i++)
			if (rb_opt_row(i) == o) {
				assert_ptr_equal(rb_opt_row_table(i), &rb_mx_opt_table);
				found++;
			}
		assert_int_equal(o->need, RB_S_MATRIX);
		assert_int_equal(o->section, RB_SEC_MATRIX);
		assert_non_null(o->help);
		assert_true(o->brief && strlen(o->brief) <= RB_BRIEF_MAX);
		assert_true(o->off + (o->type == RB_OPT_STR ? o->size : sizeof(uint32_t)) <=
			    sizeof(struct rb_matrix_opts));
	}
	assert_int_equal(found, MX_O_N);
}

/* A test refuses a matrix option as before the move: "does not apply". */
static void test_test_refuses(void **state)
{
	struct rb_cli *c = calloc(1, sizeof(*c));
	char err[256];

	(void)state;
	assert_non_null(c);
	rb_cli_init(c);
	assert_int_equal(parse(c, "send_bw", scope_of("send_bw"), err, 2, "--pattern", "ring"),
			 -EINVAL);
	assert_string_equal(err, "--pattern does not apply to send_bw");
	rb_cli_init(c);
	assert_int_equal(parse(c, "write_lat", scope_of("write_lat"), err, 2, "--seed", "3"),
			 -EINVAL);
	assert_string_equal(err, "--seed does not apply to write_lat");
	/* A prefix of one of them names it too. */
	rb_cli_init(c);
	assert_int_equal(parse(c, "send_bw", scope_of("send_bw"), err, 2, "--toler", "5"), -EINVAL);
	assert_string_equal(err, "--tolerance does not apply to send_bw");
	/* server and topo alike. */
	rb_cli_init(c);
	assert_int_equal(parse(c, "server", scope_of("server"), err, 2, "--rank", "1"), -EINVAL);
	assert_string_equal(err, "--rank does not apply to server");
	free(c);
}

/* matrix's line: its rows into struct rb_matrix_opts, the test's into struct rb_cli. */
static void test_matrix_takes(void **state)
{
	struct rb_cli *c = calloc(1, sizeof(*c));
	struct rb_matrix_opts m;
	unsigned int scope = scope_of("write_bw") | RB_S_MATRIX;
	char err[256];

	(void)state;
	assert_non_null(c);
	rb_cli_init(c);
	rb_mx_opts_init(&m, c);
	assert_int_equal(m.tolerance, RB_MX_DEFAULT_TOLERANCE);
	assert_int_equal(m.seed, 1);
	assert_int_equal(parse(c, "write_bw", scope, err, 9, "--pattern", "ring", "--tolerance",
			       "20%", "--rank", "1", "--nranks", "4", "-s64"),
			 0);
	assert_string_equal(m.pattern, "ring");
	assert_int_equal(m.tolerance, 20);
	assert_int_equal(m.rank, 1);
	assert_int_equal(m.nranks, 4);
	assert_int_equal(c->p.size.n, 1);
	assert_int_equal(c->p.size.v[0], 64);
	assert_true(rb_cli_given_row(c, &rb_mx_rows[MX_O_RANK]));
	assert_true(rb_cli_given_row(c, &rb_mx_rows[MX_O_NRANKS]));
	assert_false(rb_cli_given_row(c, &rb_mx_rows[MX_O_SEED]));
	/* The row's range, named; twice, refused. */
	rb_cli_init(c);
	rb_mx_opts_init(&m, c);
	assert_int_equal(parse(c, "write_bw", scope, err, 2, "--tolerance", "0"), -EINVAL);
	assert_non_null(strstr(err, "--tolerance"));
	rb_cli_init(c);
	rb_mx_opts_init(&m, c);
	assert_int_equal(parse(c, "write_bw", scope, err, 4, "--seed", "1", "--seed", "2"),
			 -EINVAL);
	assert_string_equal(err, "--seed given twice");
	/* A line of matrix's scope with no owner's struct takes none of its rows. */
	rb_cli_init(c);
	assert_int_equal(parse(c, "write_bw", scope, err, 2, "--pattern", "ring"), -EINVAL);
	assert_string_equal(err, "--pattern does not apply to write_bw");
	free(c);
}

static void list(FILE *f, void *arg)
{
	rb_list_options(f, *(unsigned int *)arg);
}

/* Completion: "matrix TEST" lists matrix's rows, a test alone does not. */
static void test_completion(void **state)
{
	unsigned int s = scope_of("send_lat") | RB_S_MATRIX;
	char *text = captured(list, &s);

	(void)state;
	assert_non_null(strstr(text, "--pattern\t\tpairs|ring|incast:K|suspects[:K]\t\n"));
	assert_non_null(strstr(text, "--seed\t\tN\t\n"));
	assert_non_null(strstr(text, "--size\t-s\t")); /* and the test's */
	free(text);
	s = scope_of("send_lat");
	text = captured(list, &s);
	assert_null(strstr(text, "--pattern"));
	assert_non_null(strstr(text, "--size\t-s\t"));
	free(text);
}

static void help(FILE *f, void *arg)
{
	rb_usage(f, "matrix", RB_S_MATRIX, *(bool *)arg);
}

static void man(FILE *f, void *arg)
{
	(void)arg;
	rb_man_options(f);
}

/* --help (the common rows), --help-all and the man page (every row). */
static void test_help_and_man(void **state)
{
	bool all = false;
	char *text = captured(help, &all);

	(void)state;
	assert_non_null(strstr(text, "\nMatrix:\n"));
	assert_non_null(strstr(text, "--pattern"));
	assert_non_null(strstr(text, "--tolerance"));
	assert_null(strstr(text, "--seed")); /* not a common row */
	free(text);
	all = true;
	text = captured(help, &all);
	assert_non_null(strstr(text, "--seed N\n"));
	assert_non_null(strstr(text, "--simulate outlier=R[,slow=PCT]|none\n"));
	free(text);
	text = captured(man, NULL);
	assert_non_null(strstr(text, ".TP\n\\fB\\-\\-pattern\\fR \\fIpairs|ring|incast:K|"));
	assert_non_null(strstr(text, ".TP\n\\fB\\-\\-nranks\\fR \\fIN\\fR\nranks in the job"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_registered), cmocka_unit_test(test_test_refuses),
		cmocka_unit_test(test_matrix_takes),	cmocka_unit_test(test_completion),
		cmocka_unit_test(test_help_and_man),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
