// SPDX-License-Identifier: MIT
/*
 * rdmabench: the subcommands are cmd.c's table -- every row of the
 * benchmark table (bench.c), each family, "server" and "topo".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmd.h"
#include "core/suggest.h"
#include "core/ident.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/metrics_list.h"
#include "session/dryrun.h"
#include "matrix/matrix_run.h"
#include "cli/opts.h"
#include "cli/opts_perftest.h"
#include "report/out_perftest.h"
#include "session/session.h"
#include "session/threads.h"
#include "topo/topo.h"
#include "doctor/doctor.h"
#include "reg/reg.h"
#include "wire/wire.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

static void main_usage(FILE *f)
{
	struct rb_cmd cmd;
	size_t i;

	fprintf(f, "usage: rdmabench COMMAND [options] [HOST]\n\n"
		   "A test without HOST is a server for one client; with HOST, the client.\n"
		   "The client sends its parameters: the server needs none of them.\n\n"
		   "commands:\n");
	for (i = 0; rb_cmd_at(i, &cmd); i++)
		fprintf(f, "  %-12s %s\n", cmd.name, cmd.desc);
	fprintf(f, "\n'rdmabench COMMAND --help' lists a command's options. "
		   "Exit status: 0 ok, 1 failure, 2 usage error, 3 a point failed --expect, "
		   "130/143 interrupted (SIGINT/SIGTERM).\n"
		   "'rdmabench --list-metrics [--format tsv|json]' prints the metric table "
		   "(what rdmabench-plot and 'rdmabench report' draw).\n");
}

/* One command per line, the aliases too. */
static int list_commands(void)
{
	size_t i;

	struct rb_cmd cmd;

	for (i = 0; rb_cmd_at(i, &cmd); i++)
		printf("%s\n", cmd.name);
	return RB_EXIT_OK;
}

/*
 * The options of @cmd: "--long<TAB>-s<TAB>ARG<TAB>choice|choice" per line.
 * matrix @test: the test's and matrix's, as matrix parses them.
 */
static int list_options(const char *name, const char *test)
{
	struct rb_cmd cmd, t;

	if (!name || !rb_cmd_find(name, &cmd))
		return RB_EXIT_USAGE;
	if (cmd.kind == RB_CMD_MATRIX && test) {
		if (!rb_cmd_find(test, &t) || (t.kind != RB_CMD_TEST && t.kind != RB_CMD_FAMILY))
			return RB_EXIT_USAGE; /* not a test: matrix runs none but tests */
		rb_list_options(stdout, t.scope | RB_S_MATRIX);
	} else if (cmd.kind == RB_CMD_COMPARE)
		rb_compare_list_options(stdout);
	else if (cmd.kind == RB_CMD_DOCTOR)
		rb_doctor_list_options(stdout);
	else if (cmd.kind == RB_CMD_REPORT)
		rb_report_list_options(stdout);
	else if (cmd.kind == RB_CMD_REG)
		rb_reg_list_options(stdout);
	else
		rb_list_options(stdout, cmd.scope);
	return RB_EXIT_OK;
}

/*
 * The first SIGINT or SIGTERM ends the run cleanly (finished points kept,
 * exit 128 + the signal); a second one exits at once.  During a -D 0
 * point (rb_stop_armed) the first one only ends that point, which is then
 * finished and reported as any other; the next one interrupts.
 */
static void on_signal(int sig)
{
	if (rb_stop_armed && !rb_stop_asked && !rb_interrupted) {
		rb_stop_asked = sig;
		return;
	}
	if (rb_interrupted)
		_exit(128 + sig);
	rb_interrupted = sig;
}

/* No SA_RESTART: blocking waits return EINTR and the run ends cleanly. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* --version: what a bug report needs to name the build and what it talks to. */
static int print_version(void)
{
	printf("rdmabench %s (wire protocol %d, commit %s)\n", PACKAGE_VERSION, RB_WIRE_VERSION,
	       RB_COMMIT);
	return RB_EXIT_OK;
}

static int usage_error(const char *cmd, const char *err)
{
	fprintf(stderr, "rdmabench %s: %s\n", cmd, err);
	return RB_EXIT_USAGE;
}

/* The row a test command runs: its own, or its family's by --mode. */
static const struct rb_bench *resolve(const struct rb_cmd *cmd, const struct rb_cli *c)
{
	if (cmd->kind == RB_CMD_FAMILY)
		return rb_family_pick(cmd->name, c->mode ? RB_MODE_BW : RB_MODE_LAT);
	return cmd->bench;
}

/*
 * A test command without a host is a one-shot server for what it names
 * (a family: either mode, since the mode is the client's to choose).
 */
static int run_test(const struct rb_cmd *cmd, struct rb_cli *c)
{
	struct rb_serve serve = { .name = cmd->name, .accept = cmd->name, .once = true };
	const struct rb_bench *b;
	char err[256];

	if (!c->l.host) {
		rb_cli_client_only(c, err, sizeof(err));
		if (err[0])
			rb_info("%s: the server adopts the client's plan; ignoring %s", cmd->name,
				err);
		return rb_server(&serve, &c->l, NULL);
	}
	b = resolve(cmd, c);
	if (!b)
		return usage_error(cmd->name, "no test of this family in that mode");
	if (rb_cli_finish(c, b, cmd->scope, err, sizeof(err)))
		return usage_error(cmd->name, err);
	/* --threads N: N sessions at once (threads.c), else one. */
	if (c->p.threads > 1)
		return rb_threads_run(b, &c->p, &c->l);
	return rb_client(b, &c->p, &c->l, NULL);
}

/*
 * --dry-run: the plan, as the client would send it (after the test's
 * defaults and the same checks), or what a server would wait with.
 */
static int dry_run(const struct rb_cmd *cmd, struct rb_cli *c)
{
	struct rb_dryrun d = { .cmd = cmd->name,
			       .l = &c->l,
			       .version = PACKAGE_VERSION,
			       .pt_ignored = c->pt.ignored };
	char err[256];
	int ret;

	d.role = c->l.host ? RB_ROLE_CLIENT : RB_ROLE_SERVER;
	if (c->l.host) {
		d.b = resolve(cmd, c);
		if (!d.b)
			return usage_error(cmd->name, "no test of this family in that mode");
		if (rb_cli_finish(c, d.b, cmd->scope, err, sizeof(err)))
			return usage_error(cmd->name, err);
		d.p = &c->p;
	} else if (cmd->kind != RB_CMD_SERVER) {
		rb_cli_client_only(c, d.ignored, sizeof(d.ignored));
	}
	rb_dry_resolve(&d);
	ret = rb_dry_main(&d);
	rb_dry_release(&d);
	return ret;
}

/* @perftest: run under perftest's name (ib_write_bw): its flags only, its report. */
static int run_cmd(const struct rb_cmd *cmd, int argc, char **argv, bool perftest)
{
	/* The generic server answers doctor HOST too (doctor_peer.c). */
	struct rb_serve any = { .name = cmd->name, .service = &rb_doctor_service };
	struct rb_cli c;
	char err[256];

	if (cmd->kind == RB_CMD_COMPARE)
		return rb_compare_main(argc, argv);
	if (cmd->kind == RB_CMD_DOCTOR)
		return rb_doctor_main(argc, argv);
	if (cmd->kind == RB_CMD_REPORT)
		return rb_report_main(argc, argv);
	if (cmd->kind == RB_CMD_REG)
		return rb_reg_main(argc, argv);
	/* matrix TEST: the test's options and its own (matrix_run.c). */
	if (cmd->kind == RB_CMD_MATRIX)
		return rb_matrix_main(argc, argv);
	rb_cli_init(&c);
	c.perftest_only = perftest;
	if (rb_cli_parse(&c, cmd->name, cmd->scope, argc, argv, err, sizeof(err)))
		return usage_error(cmd->name, err);
	if (perftest && !rb_cli_given(&c, RB_O_OUTPUT))
		c.l.format = RB_FMT_PERFTEST;
	if (c.help || c.help_all) {
		rb_usage(stdout, cmd->name, cmd->scope, c.help_all);
		return RB_EXIT_OK;
	}
	if (c.version)
		return print_version();
	rb_quiet = c.quiet;
	rb_verbose = c.verbose;
	if (rb_log_setup(c.l.logfile, c.l.timestamps))
		return RB_EXIT_FAIL;
	if (c.dry_run)
		return dry_run(cmd, &c);
	switch (cmd->kind) {
	case RB_CMD_TOPO:
		return rb_topo_show(c.l.device[0] ? c.l.device : NULL,
				    c.l.json_path[0] ? c.l.json_path : NULL);
	case RB_CMD_SERVER:
		return rb_server(&any, &c.l, NULL);
	default:
		return run_test(cmd, &c);
	}
}

/* Under perftest's name (a link in $(libexecdir)/rdmabench/perftest): that test. */
static int run_perftest(const char *prog, int argc, char **argv)
{
	const char *test = rb_perftest_cmd(prog);
	struct rb_cmd cmd;

	if (!test || !rb_cmd_find(test, &cmd))
		return -1;
	catch_signals();
	return run_cmd(&cmd, argc, argv, true);
}

/* A mistyped command: the one it most likely meant, else the list. */
static int unknown_command(const char *word)
{
	const char *names[256];
	struct rb_cmd cmd;
	const char *near;
	size_t n;

	for (n = 0; n < 256 && rb_cmd_at(n, &cmd); n++)
		names[n] = cmd.name;
	near = rb_suggest(word, names, n);
	if (near) {
		fprintf(stderr, "rdmabench: unknown command '%s': did you mean '%s'?\n", word,
			near);
		return RB_EXIT_USAGE;
	}
	fprintf(stderr, "rdmabench: unknown command '%s'\n\n", word);
	main_usage(stderr);
	return RB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct rb_cmd cmd;
	int ret;

	rb_ident_init(argc, argv);
	ret = run_perftest(prog, argc, argv);

	if (ret >= 0)
		return ret;

	if (argc < 2) {
		main_usage(stderr);
		return RB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_usage(stdout);
		return RB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return print_version();
	/* Internal: the man page's OPTIONS section, from the option table. */
	if (!strcmp(argv[1], "--man-options")) {
		rb_man_options(stdout);
		return RB_EXIT_OK;
	}
	/* Internal: the man page's "Options of reg", from reg's own table. */
	if (!strcmp(argv[1], "--man-reg")) {
		rb_reg_man_options(stdout);
		return RB_EXIT_OK;
	}
	/* Internal: the man page's table of perftest flags. */
	if (!strcmp(argv[1], "--man-perftest")) {
		rb_man_perftest(stdout);
		return RB_EXIT_OK;
	}
	/* Internal: what bash completion offers (scripts/rdmabench.bash). */
	if (!strcmp(argv[1], "--list-commands"))
		return list_commands();
	if (!strcmp(argv[1], "--list-options"))
		return list_options(argc > 2 ? argv[2] : NULL, argc > 3 ? argv[3] : NULL);
	/* The metric table's rows: what rdmabench-plot draws (scripts/plot). */
	if (!strcmp(argv[1], "--list-metrics"))
		return rb_metrics_list_main(argc - 1, argv + 1);
	/* Internal: the plan's wire fields (tests/lab/lib/hostile.py packs by them). */
	if (!strcmp(argv[1], "--list-plan")) {
		rb_wire_plan_list(stdout);
		return RB_EXIT_OK;
	}
	/* Internal: PARAMS', HELLO's and CONN's fields (hostile.py, tests/wire_compat.sh). */
	if (!strcmp(argv[1], "--list-wire")) {
		rb_wire_list(stdout);
		return RB_EXIT_OK;
	}
	if (!rb_cmd_find(argv[1], &cmd))
		return unknown_command(argv[1]);
	catch_signals();
	return run_cmd(&cmd, argc - 1, argv + 1, false);
}
