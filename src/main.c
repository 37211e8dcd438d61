// SPDX-License-Identifier: MIT
/*
 * rdmabench: a table of subcommands.  Each test is a row of the test table
 * (tests.c); "server" serves any test; "topo" describes the devices.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "session.h"
#include "topo.h"
#include "xfer.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

struct rb_cmd {
	const char *name;
	unsigned int bit;
	const char *desc;
};

static const struct rb_cmd cmds[] = {
	{ "send_lat", RB_T_SEND_LAT, "SEND ping-pong latency (one-way)" },
	{ "send_bw", RB_T_SEND_BW, "SEND bandwidth and message rate" },
	{ "write_lat", RB_T_WRITE_LAT, "RDMA WRITE ping-pong latency (one-way)" },
	{ "write_bw", RB_T_WRITE_BW, "RDMA WRITE bandwidth and message rate" },
	{ "read_lat", RB_T_READ_LAT, "RDMA READ latency (round trip)" },
	{ "read_bw", RB_T_READ_BW, "RDMA READ bandwidth" },
	{ "atomic", RB_T_ATOMIC_LAT | RB_T_ATOMIC_BW,
	  "8-byte atomics, --mode lat|bw (also: atomic_lat, atomic_bw)" },
	{ "atomic_lat", RB_T_ATOMIC_LAT, NULL },
	{ "atomic_bw", RB_T_ATOMIC_BW, NULL },
	{ "server", RB_T_SERVER, "serve any test, one client after another" },
	{ "topo", RB_T_TOPO, "where each RDMA device sits: PCIe, NUMA, ports, GIDs" },
};

static void main_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: rdmabench COMMAND [options] [HOST]\n\n"
		   "A test without HOST is a server for one client; with HOST, the client.\n"
		   "The client sends its parameters: the server needs none of them.\n\n"
		   "commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].desc)
			fprintf(f, "  %-12s %s\n", cmds[i].name, cmds[i].desc);
	fprintf(f, "\n'rdmabench COMMAND --help' lists a command's options. "
		   "Exit status: 0 ok, 1 failure, 2 usage error, 130/143 interrupted "
		   "(SIGINT/SIGTERM).\n");
}

static const struct rb_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* One command per line, the aliases too. */
static int list_commands(void)
{
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("%s\n", cmds[i].name);
	return RB_EXIT_OK;
}

/* The options of @cmd: "--long<TAB>-s<TAB>ARG<TAB>choice|choice" per line. */
static int list_options(const struct rb_cmd *cmd)
{
	if (!cmd)
		return RB_EXIT_USAGE;
	rb_list_options(stdout, cmd->bit);
	return RB_EXIT_OK;
}

/*
 * The first SIGINT or SIGTERM ends the run cleanly (finished points kept,
 * exit 128 + the signal); a second one exits at once.
 */
static void on_signal(int sig)
{
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

/* "atomic" is atomic_lat or atomic_bw by --mode. */
static unsigned int resolve_bit(const struct rb_cmd *cmd, const struct rb_cli *c)
{
	if (cmd->bit == (RB_T_ATOMIC_LAT | RB_T_ATOMIC_BW))
		return c->mode ? RB_T_ATOMIC_BW : RB_T_ATOMIC_LAT;
	return cmd->bit;
}

static int usage_error(const char *cmd, const char *err)
{
	fprintf(stderr, "rdmabench %s: %s\n", cmd, err);
	return RB_EXIT_USAGE;
}

static int run_cmd(const struct rb_cmd *cmd, int argc, char **argv)
{
	const struct rb_test *t;
	struct rb_cli c;
	char err[256];
	unsigned int bit;

	rb_cli_init(&c);
	if (rb_cli_parse(&c, cmd->name, cmd->bit, argc, argv, err, sizeof(err)))
		return usage_error(cmd->name, err);
	if (c.help) {
		rb_usage(stdout, cmd->name, cmd->bit);
		return RB_EXIT_OK;
	}
	rb_quiet = c.quiet;
	rb_verbose = c.verbose;
	if (cmd->bit == RB_T_TOPO)
		return rb_topo_report(c.device[0] ? c.device : NULL,
				      c.json_path[0] ? c.json_path : NULL);
	if (cmd->bit == RB_T_SERVER)
		return rb_server(cmd->name, RB_T_TESTS, false, &c);
	/* A one-shot server serves what its command names: "atomic" both
	 * modes, since the mode is the client's to choose. */
	if (!c.host) {
		rb_cli_client_only(&c, err, sizeof(err));
		if (err[0])
			rb_info("%s: the server adopts the client's plan; ignoring %s", cmd->name,
				err);
		return rb_server(cmd->name, cmd->bit, true, &c);
	}
	bit = resolve_bit(cmd, &c);
	t = rb_test_of_bit(bit);
	if (rb_cli_finish(&c, t->name, bit, err, sizeof(err)))
		return usage_error(cmd->name, err);
	return rb_client(t, &c);
}

int main(int argc, char **argv)
{
	const struct rb_cmd *cmd;

	if (argc < 2) {
		main_usage(stderr);
		return RB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_usage(stdout);
		return RB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("rdmabench %s\n", PACKAGE_VERSION);
		return RB_EXIT_OK;
	}
	/* Internal: the man page's OPTIONS section, from the option table. */
	if (!strcmp(argv[1], "--man-options")) {
		rb_man_options(stdout);
		return RB_EXIT_OK;
	}
	/* Internal: what bash completion offers (scripts/rdmabench.bash). */
	if (!strcmp(argv[1], "--list-commands"))
		return list_commands();
	if (!strcmp(argv[1], "--list-options"))
		return list_options(argc > 2 ? find_cmd(argv[2]) : NULL);
	cmd = find_cmd(argv[1]);
	if (!cmd) {
		fprintf(stderr, "rdmabench: unknown command '%s'\n\n", argv[1]);
		main_usage(stderr);
		return RB_EXIT_USAGE;
	}
	catch_signals();
	return run_cmd(cmd, argc - 1, argv + 1);
}
