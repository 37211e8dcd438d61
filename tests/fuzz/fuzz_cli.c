// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the command line (rb_cli_init, rb_cli_parse, rb_cli_finish
 * in src/opts.h), the way main() drives them.
 *
 * Input: one byte that picks the command (modulo their number, in
 * main()'s order, cmd.h: the tests, the families, server, topo), then its arguments separated by
 * NUL bytes (each copied to a heap block of its exact length).
 * rb_cli_parse() resets getopt (optind = 0) itself, so runs do not leak
 * getopt state into each other.
 *
 * Properties: a refusal is -EINVAL with a message; --help prints; a client
 * command line that rb_cli_finish() accepts is a plan the validator
 * accepts, and that the server accepts after it crossed the wire -- the
 * command line and the wire share one validator, so what a client may
 * send, a server may run.
 */
#include <errno.h>

#include "fuzz.h"
#include "core/cmd.h"
#include "cli/opts.h"
#include "wire/plan.h"
#include "core/sweep.h"
#include "core/bench.h"
#include "wire/wire.h"
#include "reg/reg.h"

#define MAX_ARGS 64

/* The commands, as main() has them (cmd.h); counted on first use. */
static size_t ncmds(void)
{
	static size_t n;
	struct rb_cmd cmd;

	while (!n || rb_cmd_at(n, &cmd))
		if (rb_cmd_at(n, &cmd))
			n++;
	return n;
}

static FILE *devnull;
static uint8_t wire[RB_WIRE_MAX_BODY];

/* The client's plan, as the server meets it after the wire. */
static void check_plan(const struct rb_params *p)
{
	struct rb_params got;
	char err[256];
	int n;

	FUZZ_CHECK(!rb_plan_validate(p, 0, err, sizeof(err)));
	FUZZ_CHECK(rb_plan_count(p) >= 1 && rb_plan_count(p) <= RB_MAX_POINTS);
	n = rb_pack_params(p, wire, sizeof(wire));
	FUZZ_CHECK(n > 0);
	FUZZ_CHECK(!rb_unpack_params(wire, (size_t)n, &got));
	FUZZ_CHECK(!strcmp(got.test, p->test));
	memset(err, 0xa5, sizeof(err));
	if (rb_plan_validate(&got, 0, err, sizeof(err))) {
		fprintf(fuzz_report, "fuzz: the server refuses the client's plan: %s\n", err);
		FUZZ_CHECK(!"a plan the command line accepts is valid on the wire");
	}
}

/* rdmabench reg: an accepted command line has sizes, a count, and rights. */
static void reg_config(const struct rb_cli *c)
{
	struct rb_reg_cfg cfg;
	char err[256];
	uint32_t i;
	int ret;

	memset(err, 0xa5, sizeof(err));
	ret = rb_reg_config(c, 4096, &cfg, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		return;
	}
	FUZZ_CHECK(cfg.size.n >= 1 && cfg.count >= 1 && cfg.access);
	for (i = 0; i < cfg.size.n; i++)
		FUZZ_CHECK(cfg.size.v[i] >= 1 && cfg.size.v[i] <= RB_MAX_SIZE);
	FUZZ_CHECK(!cfg.prefetch || cfg.odp != RB_REG_ODP_NONE);
}

/* main()'s run_cmd() without the run. */
static void drive(const struct rb_cmd *cmd, int argc, char **argv)
{
	const struct rb_bench *t;
	struct rb_cli c;
	char err[256], buf[256];
	int ret;

	rb_cli_init(&c);
	memset(err, 0xa5, sizeof(err));
	ret = rb_cli_parse(&c, cmd->name, cmd->scope, argc, argv, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		return;
	}
	if (c.help || c.help_all) {
		rb_usage(devnull, cmd->name, cmd->scope, c.help_all);
		return;
	}
	if (cmd->kind == RB_CMD_REG) {
		reg_config(&c);
		return;
	}
	if (!(cmd->scope & RB_S_TEST)) {
		FUZZ_CHECK(!c.l.host);
		return;
	}
	if (!c.l.host) {
		rb_cli_client_only(&c, buf, sizeof(buf));
		FUZZ_CHECK(memchr(buf, '\0', sizeof(buf)));
		return;
	}
	t = cmd->kind == RB_CMD_FAMILY
		    ? rb_family_pick(cmd->name, c.mode ? RB_MODE_BW : RB_MODE_LAT)
		    : cmd->bench;
	FUZZ_CHECK(t);
	memset(err, 0xa5, sizeof(err));
	ret = rb_cli_finish(&c, t, cmd->scope, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		return;
	}
	check_plan(&c.p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2], *own[MAX_ARGS + 1];
	const uint8_t *p, *end = data + size, *nul;
	struct rb_cmd cmd;
	int argc = 1, i;
	unsigned int k;

	if (size < 1 || size > 4096)
		return 0;
	k = data[0] % ncmds();
	FUZZ_CHECK(rb_cmd_at(k, &cmd));
	argv[0] = own[0] = strdup(cmd.name);
	FUZZ_CHECK(argv[0]);
	for (p = data + 1; p < end && argc <= MAX_ARGS; p = nul + 1) {
		nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul)
			nul = end;
		argv[argc] = own[argc] = malloc((size_t)(nul - p) + 1);
		FUZZ_CHECK(argv[argc]);
		memcpy(argv[argc], p, (size_t)(nul - p));
		argv[argc++][nul - p] = '\0';
	}
	argv[argc] = NULL;
	drive(&cmd, argc, argv);
	/* getopt_long() permutes argv: free the blocks through own[]. */
	for (i = 0; i < argc; i++)
		free(own[i]);
	return 0;
}
