// SPDX-License-Identifier: MIT
/*
 * The benchmark table (bench.h) against everything that lists tests: for
 * every row, the lookup by name, the command list (dispatch, --help,
 * completion), the option scope and a command line that parses and
 * finishes into a valid plan, the man page's "Applies to" lines, the
 * HELLO that names it to a server.
 *
 * Built twice: test_bench on the real table, and test_bench_extra with
 * one throw-away row more (RB_BENCH_TEST_ROW below), which proves "Adding
 * a test" (doc/development.md): the row alone makes every reader know it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/opts.h"
#include "core/bench.h"
#include "core/cmd.h"
#include "wire/plan.h"
#include "wire/wire.h"

#ifdef TEST_EXTRA_ROW
/*
 * A test that is not: write_bw's hooks and capabilities under a name of
 * its own, filled in before the tests run.  Compiling bench/benches.c
 * here puts this list in place of librb's.
 */
static struct rb_bench extra_bw;
#define RB_BENCH_TEST_ROW &extra_bw
#include "bench/benches.c"

static int setup_extra(void **state)
{
	(void)state;
	extra_bw = rb_bench_write_bw;
	extra_bw.name = "extra_bw";
	extra_bw.desc = "a throw-away row (test_bench_extra)";
	return 0;
}
#define EXTRA_ROWS 1
#else
static int setup_extra(void **state)
{
	(void)state;
	return 0;
}
#define EXTRA_ROWS 0
#endif

static size_t nbenches(void)
{
	size_t n = 0;

	while (rb_benches[n])
		n++;
	return n;
}

/* Eleven tests, twelve rows (atomic is two; lock and tcp_lock, issue 42), and the throw-away one. */
static void test_rows_counted(void **state)
{
	(void)state;
	assert_int_equal(nbenches(), 12 + EXTRA_ROWS);
#ifdef TEST_EXTRA_ROW
	assert_ptr_equal(rb_bench_find("extra_bw"), &extra_bw);
#else
	assert_null(rb_bench_find("extra_bw"));
#endif
}

/* The command list: each row once, as a test command of its scope. */
static void test_rows_are_commands(void **state)
{
	size_t i, k, seen;
	struct rb_cmd cmd;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];

		assert_ptr_equal(rb_bench_find(b->name), b);
		assert_true(rb_cmd_find(b->name, &cmd));
		assert_int_equal(cmd.kind, RB_CMD_TEST);
		assert_ptr_equal(cmd.bench, b);
		assert_int_equal(cmd.scope, rb_bench_scope(b));
		for (k = 0, seen = 0; rb_cmd_at(k, &cmd); k++)
			seen += !strcmp(cmd.name, b->name);
		assert_int_equal(seen, 1);
	}
}

static char *capture(void (*fn)(FILE *f, const char *cmd, unsigned int scope), const char *cmd,
		     unsigned int scope)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, cmd, scope);
	fclose(f);
	return buf;
}

static void list_options(FILE *f, const char *cmd, unsigned int scope)
{
	(void)cmd;
	rb_list_options(f, scope);
}

static void man_options(FILE *f, const char *cmd, unsigned int scope)
{
	(void)cmd;
	(void)scope;
	rb_man_options(f);
}

/* Whether @text's entry for the option at @key (to the next option's line) holds @want. */
static bool line_has(const char *text, const char *key, const char *want)
{
	const char *s = strstr(text, key), *end;
	char entry[2048];

	if (!s)
		return false;
	end = strstr(s, "\n  -");
	snprintf(entry, sizeof(entry), "%.*s", end ? (int)(end - s) : (int)strlen(s), s);
	return strstr(entry, want) != NULL;
}

/* --help-all unwrapped, without perftest's flags (its last section). */
static void usage_all(FILE *f, const char *cmd, unsigned int scope)
{
	char *buf = NULL, *pt;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	setenv("COLUMNS", "1000", 1);
	rb_usage(m, cmd, scope, true);
	unsetenv("COLUMNS");
	fclose(m);
	pt = strstr(buf, "\nperftest's flags");
	if (pt)
		*pt = '\0';
	fputs(buf, f);
	free(buf);
}

/* --help, completion and the man page's "Applies to" lines. */
static void test_rows_documented(void **state)
{
	char *man = capture(man_options, NULL, 0);
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		char *help = capture(usage_all, b->name, rb_bench_scope(b));
		char *opts = capture(list_options, b->name, rb_bench_scope(b));

		char want[48];

		/* What the row alone gives: its -s default, -I and --op by its flags. */
		snprintf(want, sizeof(want), "[default: %u]", b->default_size);
		if (!line_has(help, "-s, --size ", want))
			fail_msg("%s --help: the -s line lacks '%s'", b->name, want);
		assert_int_equal(strstr(help, "--inline ") != NULL, b->inline_ok);
		assert_int_equal(strstr(opts, "--inline\t") != NULL, b->inline_ok);
		/* issue 42: a lock row is atomic, and takes --lock instead */
		assert_int_equal(strstr(help, "--op ") != NULL, b->atomic && !b->lock);
		assert_int_equal(strstr(opts, "--op\t") != NULL, b->atomic && !b->lock);
		assert_non_null(strstr(opts, "--iters\t"));
		free(help);
		free(opts);
	}
	/* The man page names options "every test" or by test name. */
	assert_non_null(strstr(man, "every test"));
	free(man);
}

/* A command line for the row parses, finishes and makes a valid plan. */
static void test_rows_plan(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		const struct rb_bench *b = rb_benches[i];
		char *argv[] = { (char *)b->name, "-n", "100", NULL };
		struct rb_cli c;
		char err[256] = "";

		rb_cli_init(&c);
		assert_int_equal(
			rb_cli_parse(&c, b->name, rb_bench_scope(b), 3, argv, err, sizeof(err)), 0);
		assert_int_equal(rb_cli_finish(&c, b, rb_bench_scope(b), err, sizeof(err)), 0);
		assert_string_equal(c.p.test, b->name);
		assert_int_equal(rb_plan_validate(&c.p, 1ULL << 30, err, sizeof(err)), 0);
	}
}

/* The HELLO names the row to a server, which finds it by that name. */
static void test_rows_hello(void **state)
{
	uint8_t buf[RB_WIRE_HDR_LEN + RB_WIRE_MAX_BODY];
	size_t i;

	(void)state;
	for (i = 0; rb_benches[i]; i++) {
		struct rb_msg_hello h = { 0 }, got;
		int n;

		snprintf(h.test, sizeof(h.test), "%s", rb_benches[i]->name);
		snprintf(h.tool_version, sizeof(h.tool_version), "test");
		n = rb_pack_hello(&h, buf, sizeof(buf));
		assert_true(n > 0);
		assert_int_equal(rb_unpack_hello(buf, (size_t)n, &got), 0);
		assert_ptr_equal(rb_bench_find(got.test), rb_benches[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_counted),	cmocka_unit_test(test_rows_are_commands),
		cmocka_unit_test(test_rows_documented), cmocka_unit_test(test_rows_plan),
		cmocka_unit_test(test_rows_hello),
	};

	return cmocka_run_group_tests(tests, setup_extra, NULL);
}
