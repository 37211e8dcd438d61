// SPDX-License-Identifier: MIT
/*
 * The tests' command line through core's one parser (core/opts_parser.h):
 * rdmabench's rows (rb_opts[] and those of the tables registered with
 * core, rb_opt_row(): matrix's) and perftest's other flags
 * (opts_perftest.c) as the foreign flags; then the host and what the
 * whole line decides (GPU memory, perftest's late flags).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts_int.h"
#include "cli/opts_perftest.h"
#include "core/opts_parser.h"

/* The command line being parsed, for the parser's hooks. */
struct line {
	struct rb_cli *c;
	unsigned int scope;
};

static void pt_names(size_t j, struct rb_opt_foreign *out)
{
	*out = (struct rb_opt_foreign){ rb_pt_flags[j].lname, rb_pt_flags[j].sname,
					rb_pt_flags[j].arg };
}

static int take_row(const struct rb_opt_parser *p, size_t i, const char *arg, char *err, size_t len)
{
	const struct line *l = p->ctx;
	const struct rb_opt *o = rb_opt_row(i);
	char name[40];

	if (l->c->perftest_only && !o->perftest)
		return fail(err, len,
			    "%s is rdmabench's own: under perftest's name only perftest's flags "
			    "are taken (run 'rdmabench %s' for it)",
			    rb_opt_name(o, name, sizeof(name)), p->cmd);
	return rb_cli_take(l->c, (int)i, p->cmd, l->scope, arg, err, len);
}

static int take_pt(const struct rb_opt_parser *p, size_t j, const char *arg, char *err, size_t len)
{
	const struct line *l = p->ctx;

	return rb_pt_take(l->c, &rb_pt_flags[j], arg, p->cmd, l->scope, err, len);
}

/* GPU memory: --use-cuda, or what only it has (--cuda-mem, --cuda-reg, --use_cuda_dmabuf). */
static void cuda_finish(struct rb_cli *c)
{
	c->l.use_cuda = rb_cli_given(c, RB_O_USE_CUDA) || rb_cli_given(c, RB_O_CUDA_MEM) ||
			rb_cli_given(c, RB_O_CUDA_REG);
}

/*
 * HOST:PORT and [V6ADDR]:PORT name the port as -p does; a bare IPv6
 * address (two colons or more) is a host alone.  @arg is argv's own
 * string, cut in place so that c->l.host points at the host.
 */
static int host_port(struct rb_cli *c, char *arg, char *err, size_t len)
{
	char *colon = strrchr(arg, ':'), *end;
	unsigned long port;

	if (!colon || (arg[0] != '[' && strchr(arg, ':') != colon))
		return 0;
	if (arg[0] == '[' && colon[-1] != ']')
		return 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port < 1 || port > 65535)
		return fail(err, len, "'%s': the port after ':' must be a number from 1 to 65535",
			    arg);
	if (rb_cli_given(c, RB_O_PORT))
		return fail(err, len, "'%s' and -p/--port both give the port: give one", arg);
	c->l.tcp_port = (uint32_t)port;
	if (arg[0] == '[') {
		colon[-1] = '\0';
		c->l.host = arg + 1;
	} else {
		*colon = '\0';
	}
	return 0;
}

static int parse(struct rb_cli *c, const char *cmd, unsigned int scope, int argc, char **av,
		 char *err, size_t len)
{
	struct line l = { c, scope };
	const struct rb_opt_parser p = { .cmd = cmd,
					 .row = rb_opt_row,
					 .nrows = rb_opt_rows() < RB_OPTS_MAX ? rb_opt_rows()
									      : RB_OPTS_MAX,
					 .nforeign = rb_npt_flags,
					 .foreign = pt_names,
					 .foreign_who = "perftest's",
					 .take = take_row,
					 .take_foreign = take_pt,
					 .next_is_arg = rb_cli_next_is_arg,
					 .ctx = &l };
	int first = rb_opt_getopt(&p, argc, av, err, len), ret;

	if (first < 0)
		return first;
	if (first < argc)
		c->l.host = av[first++];
	if (first < argc)
		return fail(err, len, "unexpected argument '%s' (one server host at most)",
			    av[first]);
	if (c->l.host && !(scope & RB_S_TEST))
		return fail(err, len, "%s takes no host argument ('%s')", cmd, c->l.host);
	if (c->l.host) {
		ret = host_port(c, (char *)c->l.host, err, len);
		if (ret)
			return ret;
	}
	cuda_finish(c);
	return rb_pt_finish(c, cmd, scope, err, len);
}

int rb_cli_parse(struct rb_cli *c, const char *cmd, unsigned int scope, int argc, char **argv,
		 char *err, size_t errlen)
{
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	int ret;

	if (!av)
		return fail(err, errlen, "out of memory");
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	ret = parse(c, cmd, scope, argc, av, err, errlen);
	/* c->l.host is one of argv's strings, which outlive the copy getopt permuted. */
	free(av);
	return ret;
}
