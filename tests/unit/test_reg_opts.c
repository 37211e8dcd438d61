// SPDX-License-Identifier: MIT
/*
 * rdmabench reg's own option table (src/reg/reg_opts.c, issue 39 item 5):
 * parsed by core's rb_opt_parse() into struct rb_reg_opts; a test's option
 * given to reg is refused naming it, and a reg option given to a test;
 * --help, --help-all, completion and the man page's rows come from reg's
 * rows, every one of them.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/opts.h"
#include "core/cmd.h"

#include "reg/reg.h"

#define MAX_ARGS 16

static char err[256];
static struct rb_reg_opts o;

/* "reg WORDS..." through reg's parser: its return. */
static int parse_list(const char *const *list)
{
	static char pool[MAX_ARGS][128];
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = strcpy(pool[0], "reg");
	for (; *list; list++) {
		assert_true(argc < MAX_ARGS);
		argv[argc] = strcpy(pool[argc], *list);
		argc++;
	}
	argv[argc] = NULL;
	err[0] = '\0';
	return rb_reg_parse(argc, argv, &o, err, sizeof(err));
}

#define PARSE(...) parse_list((const char *const[]){ __VA_ARGS__, NULL })

/* "reg WORDS..." parsed and configured: the config's return. */
static int config_list(struct rb_reg_cfg *cfg, const char *const *list)
{
	int ret = parse_list(list);

	return ret ? ret : rb_reg_config(&o, 4096, cfg, err, sizeof(err));
}

#define CONFIG(cfg, ...) config_list((cfg), (const char *const[]){ __VA_ARGS__, NULL })

static void values_into_reg_fields(void **state)
{
	(void)state;
	assert_int_equal(PARSE("-s", "4K,1M", "-n", "7", "--odp-mode", "implicit", "--access",
			       "local-write,remote-read", "--unaligned", "-d", "rxe0", "--csv",
			       "r.csv", "--use_hugepages"),
			 0);
	assert_int_equal(o.size.n, 2);
	assert_int_equal(o.size.v[1], 1 << 20);
	assert_int_equal(o.iters, 7);
	assert_int_equal(o.odp_mode, 1);
	assert_string_equal(o.access, "local-write,remote-read");
	assert_true(o.unaligned && o.hugepages);
	assert_string_equal(o.device, "rxe0");
	assert_string_equal(o.csv, "r.csv");
	assert_true(o.given[RB_REG_R_SIZE] && o.given[RB_REG_R_ITERS] && o.given[RB_REG_R_ACCESS]);
	assert_false(o.given[RB_REG_R_JSON] || o.given[RB_REG_R_PREFETCH]);
	/* Everything set again from nothing. */
	assert_int_equal(PARSE("--quiet"), 0);
	assert_true(o.quiet && !o.unaligned && !o.device[0] && !o.given[RB_REG_R_SIZE]);
}

static void refusals_name_the_option(void **state)
{
	(void)state;
	/* A test's option: named as one, long or short. */
	assert_int_equal(PARSE("-q", "2"), -EINVAL);
	assert_string_equal(err, "-q/--qps does not apply to reg: a test's option (rdmabench reg "
				 "--help lists reg's)");
	assert_int_equal(PARSE("--warmup=5"), -EINVAL);
	assert_non_null(strstr(err, "--warmup does not apply to reg"));
	assert_int_equal(PARSE("--reg-mode", "cache"), -EINVAL);
	assert_non_null(strstr(err, "--reg-mode does not apply to reg"));
	/* No row anywhere. */
	assert_int_equal(PARSE("--bogus"), -EINVAL);
	assert_string_equal(err, "unknown option --bogus for reg (see rdmabench reg --help)");
	/* The rows' own rules. */
	assert_int_equal(PARSE("--access", "write"), -EINVAL);
	assert_non_null(strstr(err, "'write' is not one of"));
	assert_int_equal(PARSE("-s", "4K", "-s", "8K"), -EINVAL);
	assert_non_null(strstr(err, "-s/--size given twice"));
	assert_int_equal(PARSE("-s", "2G"), -EINVAL);
	assert_non_null(strstr(err, "-s/--size"));
	assert_int_equal(PARSE("--odp-mode", "lazy"), -EINVAL);
	assert_int_equal(PARSE("-n", "1", "host"), -EINVAL);
	assert_string_equal(err, "reg takes no host argument ('host')");
}

/* rb_reg_config(): the defaults, and what goes with what (moved from test_reg). */
static void config_defaults_and_checks(void **state)
{
	struct rb_reg_cfg cfg;

	(void)state;
	assert_int_equal(CONFIG(&cfg, "-q", "2"), -EINVAL); /* a test's option */
	assert_non_null(strstr(err, "does not apply to reg"));
	assert_int_equal(CONFIG(&cfg, "--quiet"), 0);
	/* Defaults: 4K..256M:x4, 100 each, local-write, 4 KiB pages, no ODP. */
	assert_int_equal(cfg.size.n, 9);
	assert_int_equal(cfg.size.v[0], 4096);
	assert_int_equal(cfg.size.v[8], 256 << 20);
	assert_int_equal(cfg.count, RB_REG_DEF_COUNT);
	assert_int_equal(cfg.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(cfg.page_size, 4096);
	assert_int_equal(cfg.odp, RB_REG_ODP_NONE);
	assert_false(cfg.prefetch || cfg.hugepages || cfg.unaligned);
	assert_null(cfg.json_path);

	assert_int_equal(CONFIG(&cfg, "-s", "4K,1M", "-n", "7", "--hugepages", "--unaligned",
				"--json", "r.json", "-d", "rxe0"),
			 0);
	assert_int_equal(cfg.size.n, 2);
	assert_int_equal(cfg.count, 7);
	assert_int_equal(cfg.page_size, 2 << 20);
	assert_true(cfg.hugepages && cfg.unaligned);
	assert_string_equal(cfg.json_path, "r.json");
	assert_string_equal(cfg.device, "rxe0");

	assert_int_equal(CONFIG(&cfg, "--prefetch"), -EINVAL);
	assert_non_null(strstr(err, "--prefetch needs --odp"));
	assert_int_equal(CONFIG(&cfg, "--odp", "--prefetch"), 0);
	assert_true(cfg.odp == RB_REG_ODP_EXPLICIT && cfg.prefetch);
	/* --odp-mode implies --odp; implicit times prefetches. */
	assert_int_equal(CONFIG(&cfg, "--odp-mode", "implicit"), 0);
	assert_true(cfg.odp == RB_REG_ODP_IMPLICIT && cfg.prefetch);
	assert_int_equal(CONFIG(&cfg, "--odp-mode", "lazy"), -EINVAL);
	assert_int_equal(CONFIG(&cfg, "-s", "2G"), -EINVAL);
}

/* reg's options are none of a test's: the tests' parser refuses each. */
static void reg_option_to_a_test(void **state)
{
	const char *const words[] = { "--odp-mode", "--prefetch", "--access", "--unaligned" };
	struct rb_cmd cmd;
	struct rb_cli c;
	size_t i;

	(void)state;
	assert_true(rb_cmd_find("write_bw", &cmd));
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char a0[] = "write_bw", a1[32], a2[] = "explicit";
		char *argv[] = { a0, a1, a2, NULL };

		snprintf(a1, sizeof(a1), "%s", words[i]);
		rb_cli_init(&c);
		err[0] = '\0';
		assert_int_equal(rb_cli_parse(&c, "write_bw", cmd.scope, 2, argv, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, words[i]));
	}
	/* Nor does any of the tests' rows apply to reg, which has its own. */
	assert_true(rb_cmd_find("reg", &cmd));
	for (i = 0; i < rb_nopts; i++)
		assert_false(rb_opt_applies(&rb_opts[i], cmd.scope));
}

static char *capture(void (*fn)(FILE *f, bool all), bool all)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, all);
	fclose(f);
	return buf;
}

static void list(FILE *f, bool all)
{
	(void)all;
	rb_reg_list_options(f);
}

static void man(FILE *f, bool all)
{
	(void)all;
	rb_reg_man_options(f);
}

/* --help (the common rows), --help-all, completion and the man page: every row. */
static void help_and_completion_from_rows(void **state)
{
	char *brief = capture(rb_reg_usage, false), *full = capture(rb_reg_usage, true);
	char *comp = capture(list, false), *page = capture(man, false), want[64];
	const struct rb_opt_table *t = &rb_reg_table_opts;
	size_t i;

	(void)state;
	assert_int_equal(t->n, RB_REG_NROWS);
	assert_true(!strncmp(brief, "usage: rdmabench reg [options]\n", 31));
	for (i = 0; i < t->n; i++) {
		const struct rb_opt *r = &t->rows[i];

		snprintf(want, sizeof(want), "--%s", r->lname);
		assert_non_null(strstr(full, want));
		assert_int_equal(strstr(brief, want) != NULL, r->common);
		snprintf(want, sizeof(want), "--%s\t", r->lname);
		assert_non_null(strstr(comp, want));
		assert_non_null(r->help);
		assert_non_null(r->brief);
	}
	assert_non_null(strstr(full, "[default: 4K..256M:x4 (64K"));
	assert_non_null(strstr(comp, "--access\t\tLIST\tlocal-write|remote-read|"));
	assert_non_null(strstr(page, "\\fB\\-\\-odp\\-mode\\fR \\fIMODE\\fR\nimplies \\-\\-odp"));
	assert_null(strstr(page, "Applies to"));
	assert_null(strstr(full, "--qps"));
	free(brief);
	free(full);
	free(comp);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_into_reg_fields),
		cmocka_unit_test(refusals_name_the_option),
		cmocka_unit_test(config_defaults_and_checks),
		cmocka_unit_test(reg_option_to_a_test),
		cmocka_unit_test(help_and_completion_from_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
