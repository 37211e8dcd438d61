// SPDX-License-Identifier: MIT
/*
 * The command line through getopt_long: rdmabench's rows (rb_opts[] and
 * those of the tables registered with core, rb_opt_row(): matrix's) and
 * perftest's other flags (opts_perftest.c), with long names by unique
 * prefix as getopt_long takes them, except that a prefix of exactly one of
 * our options means it even where perftest has more names that start so.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts_int.h"
#include "cli/opts_perftest.h"
#include "core/suggest.h"

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

#define ROW_VAL 1000 /* getopt's value for row i: ROW_VAL + i */
#define PT_VAL	3000 /* for perftest's flag j: PT_VAL + j */

#define GETOPT_MAX (2 * RB_OPTS_MAX + 200)
_Static_assert(PT_VAL - ROW_VAL >= RB_OPTS_MAX, "row and perftest values overlap");

static bool our_letter(int ch)
{
	size_t i;

	for (i = 0; i < rb_opt_rows(); i++)
		if (rb_opt_row(i)->sname == ch)
			return true;
	return false;
}

/* getopt_long tables: our rows, then perftest's flags under names we do not use. */
static void build_getopt(struct option *lo, char *so)
{
	size_t i, n = 0;

	*so++ = ':'; /* report a missing argument as ':' */
	for (i = 0; i < rb_opt_rows() && i < RB_OPTS_MAX; i++) {
		const struct rb_opt *o = rb_opt_row(i);
		int has = o->type == RB_OPT_FLAG ? no_argument
			  : o->optional		 ? optional_argument
						 : required_argument;

		lo[n++] = (struct option){ o->lname, has, NULL, ROW_VAL + (int)i };
		if (o->alias)
			lo[n++] = (struct option){ o->alias, has, NULL, ROW_VAL + (int)i };
		if (o->sname) {
			*so++ = (char)o->sname;
			if (o->type != RB_OPT_FLAG)
				*so++ = ':';
		}
	}
	for (i = 0; i < rb_npt_flags; i++) {
		const struct rb_pt_flag *f = &rb_pt_flags[i];

		lo[n++] = (struct option){ f->lname, f->arg ? required_argument : no_argument, NULL,
					   PT_VAL + (int)i };
		if (f->sname && !our_letter(f->sname)) {
			*so++ = (char)f->sname;
			if (f->arg)
				*so++ = ':';
		}
	}
	lo[n] = (struct option){ 0 };
	*so = '\0';
}

static int row_of(int ch)
{
	size_t i;

	if (ch >= ROW_VAL && ch < ROW_VAL + (int)rb_opt_rows())
		return ch - ROW_VAL;
	for (i = 0; i < rb_opt_rows(); i++)
		if (rb_opt_row(i)->sname == ch)
			return (int)i;
	return -1;
}

static const struct rb_pt_flag *pt_of(int ch)
{
	if (ch >= PT_VAL && ch < PT_VAL + (int)rb_npt_flags)
		return &rb_pt_flags[ch - PT_VAL];
	return ch > 0 && ch < 128 ? rb_pt_find(NULL, ch) : NULL;
}

/* How many of our rows @arg (a name, up to '=' or its end) starts; *@row: the last. */
static size_t our_prefixes(const char *arg, size_t l, int *row)
{
	size_t i, hits = 0;

	for (i = 0; i < rb_opt_rows(); i++) {
		const char *al = rb_opt_row(i)->alias;

		if (!strncmp(rb_opt_row(i)->lname, arg, l) || (al && !strncmp(al, arg, l))) {
			hits++;
			*row = (int)i;
		}
	}
	return hits;
}

/* The getopt entry named exactly @a's first @l characters (ours or perftest's), or NULL. */
static const struct option *named(const struct option *lo, const char *a, size_t l)
{
	for (; lo->name; lo++)
		if (strlen(lo->name) == l && !strncmp(lo->name, a, l))
			return lo;
	return NULL;
}

/*
 * "--repo" with one of our rows starting so, as its full name, so that
 * perftest's names (--report-cycles...) do not make it ambiguous for
 * getopt_long.  @buf holds the new spellings.
 */
static int spell_out(const struct option *lo, char **av, int k, char *buf, size_t *used,
		     size_t size)
{
	const char *arg = av[k] + 2;
	size_t l = strcspn(arg, "=");
	int row = -1;
	const char *name;
	size_t need;

	if (named(lo, arg, l) || our_prefixes(arg, l, &row) != 1)
		return 0;
	name = rb_opt_row((size_t)row)->lname;
	need = strlen(name) + strlen(arg + l) + 3;
	if (*used + need > size)
		return -E2BIG;
	av[k] = buf + *used;
	*used += (size_t)snprintf(av[k], need, "--%s%s", name, arg + l);
	*used += 1;
	return 0;
}

/* Whether the long option at @a takes its value from the next word. */
static bool long_takes_next(const struct option *lo, const char *a)
{
	size_t l = strcspn(a, "=");
	const struct option *o = a[l] == '=' ? NULL : named(lo, a, l);

	return o && o->has_arg == required_argument;
}

/* Whether the group of letters at @a ("-ab", "-s64") takes the next word as a value. */
static bool short_takes_next(const char *so, const char *a)
{
	for (; *a; a++) {
		const char *p = strchr(so + 1, *a);

		if (!p || *a == ':')
			return false;
		if (p[1] == ':')
			return !a[1];
	}
	return false;
}

static int spell_all(int argc, char **av, const struct option *lo, const char *so, char *buf,
		     size_t size, char *err, size_t len)
{
	size_t used = 0;
	int k;

	for (k = 1; k < argc; k++) {
		if (!strcmp(av[k], "--"))
			break;
		if (!strncmp(av[k], "--", 2)) {
			if (spell_out(lo, av, k, buf, &used, size))
				return fail(err, len, "the command line is too long");
			k += long_takes_next(lo, av[k] + 2);
		} else if (av[k][0] == '-' && av[k][1]) {
			k += short_takes_next(so, av[k] + 1);
		}
	}
	return 0;
}

/* "--s" matches --size and --signal: name them. */
static int ambiguous(const struct option *lo, const char *arg, char *err, size_t len)
{
	size_t l, used = 0, hits = 0;
	char names[400] = "";
	int last = -1;

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	l = strcspn(arg, "=");
	for (; lo->name; lo++) {
		bool ours = lo->val < PT_VAL;

		if (strncmp(lo->name, arg, l) || lo->val == last || used >= sizeof(names))
			continue;
		last = lo->val;
		used += (size_t)snprintf(
			names + used, sizeof(names) - used, "%s--%s%s", hits++ ? ", " : "",
			ours ? rb_opt_row((size_t)(lo->val - ROW_VAL))->lname : lo->name,
			ours ? "" : " (perftest's)");
	}
	if (hits < 2)
		return 0;
	return fail(err, len, "option --%.*s is ambiguous: %s", (int)l, arg, names);
}

/* "--szie": unknown, and the option it most likely meant, when one is close. */
static int unknown_long(const struct option *lo, const char *cmd, const char *arg, char *err,
			size_t len)
{
	const char *names[GETOPT_MAX];
	char word[64];
	const char *near;
	size_t n = 0;

	if (!strncmp(arg, "--", 2)) {
		snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		for (; lo->name && n < GETOPT_MAX; lo++)
			names[n++] = lo->name;
		near = rb_suggest(word, names, n);
		if (near)
			return fail(err, len,
				    "unknown option %s for %s: did you mean --%s? (see "
				    "rdmabench %s --help)",
				    arg, cmd, near, cmd);
	}
	return fail(err, len, "unknown option %s for %s (see rdmabench %s --help)", arg, cmd, cmd);
}

static int bad_option(const struct option *lo, const char *cmd, int ch, char **argv, char *err,
		      size_t len)
{
	const char *arg = argv[optind - 1];

	if (ch == ':')
		return fail(err, len, "%s needs an argument", arg);
	if (optopt >= ROW_VAL && optopt < ROW_VAL + (int)rb_opt_rows())
		return fail(err, len, "--%s takes no argument",
			    rb_opt_row((size_t)(optopt - ROW_VAL))->lname);
	if (optopt >= PT_VAL && optopt < PT_VAL + (int)rb_npt_flags)
		return fail(err, len, "perftest's --%s takes no argument",
			    rb_pt_flags[optopt - PT_VAL].lname);
	if (optopt && optopt < ROW_VAL)
		return fail(err, len, "unknown option -%c for %s (see rdmabench %s --help)", optopt,
			    cmd, cmd);
	if (ambiguous(lo, arg, err, len))
		return -EINVAL;
	return unknown_long(lo, cmd, arg, err, len);
}

/*
 * A row whose argument may be left out: getopt gave "--NAME=ARG"'s, else
 * the next word when it holds one of < > = ("--recommend p99<=20us"; a
 * host never does) or the row's .next_is_arg says so, else "".
 */
static const char *optional_arg(const struct rb_opt *o, int argc, char **av)
{
	if (optarg || !o->optional)
		return optarg;
	if (optind < argc && av[optind][0] != '-' && rb_cli_next_is_arg(o, av[optind]))
		return av[optind++];
	return "";
}

static int take(struct rb_cli *c, const struct option *lo, const char *cmd, unsigned int scope,
		int ch, int argc, char **av, char *err, size_t len)
{
	const struct rb_pt_flag *f;
	const struct rb_opt *o;
	char name[40];
	int row;

	if (ch == '?' || ch == ':')
		return bad_option(lo, cmd, ch, av, err, len);
	row = row_of(ch);
	o = row >= 0 ? rb_opt_row((size_t)row) : NULL;
	if (o && c->perftest_only && !o->perftest)
		return fail(err, len,
			    "%s is rdmabench's own: under perftest's name only perftest's flags "
			    "are "
			    "taken (run 'rdmabench %s' for it)",
			    rb_opt_name(o, name, sizeof(name)), cmd);
	if (o)
		return rb_cli_take(c, row, cmd, scope, optional_arg(o, argc, av), err, len);
	f = pt_of(ch);
	if (f)
		return rb_pt_take(c, f, optarg, cmd, scope, err, len);
	return bad_option(lo, cmd, ch, av, err, len);
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
	struct option lo[GETOPT_MAX];
	char so[3 * GETOPT_MAX];
	char buf[4096];
	int ch, ret;

	build_getopt(lo, so);
	ret = spell_all(argc, av, lo, so, buf, sizeof(buf), err, len);
	if (ret)
		return ret;
	optind = 0; /* glibc: 0 also forgets a half-parsed group like -zv */
	opterr = 0;
	while ((ch = getopt_long(argc, av, so, lo, NULL)) != -1) {
		ret = take(c, lo, cmd, scope, ch, argc, av, err, len);
		if (ret)
			return ret;
	}
	if (optind < argc)
		c->l.host = av[optind++];
	if (optind < argc)
		return fail(err, len, "unexpected argument '%s' (one server host at most)",
			    av[optind]);
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
