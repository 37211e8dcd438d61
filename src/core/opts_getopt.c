// SPDX-License-Identifier: MIT
/*
 * The one parser loop (opts_parser.h): a command's rows, and another
 * program's flags when the caller has some, through getopt_long, with long
 * names by unique prefix as getopt_long takes them, except that a prefix
 * of exactly one of the rows means it even where the foreign flags have
 * more names that start so.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts_parser.h"
#include "core/rdmabench.h"
#include "core/suggest.h"

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

#define ROW_VAL 1000 /* getopt's value for row i: ROW_VAL + i; foreign flag j after them */

/*
 * One parse: the parser, its getopt tables and the words it spelled out,
 * each in .buf, where .word_at[its offset] is the index k of the word it
 * replaced (argv[k] was .orig[k]), so that putting the words back is one
 * pass however long the line.
 */
struct run {
	const struct rb_opt_parser *p;
	size_t nrows;
	int fval; /* getopt's value for foreign flag 0 */
	struct option *lo;
	char *so;
	char **orig;
	char *buf;
	int *word_at;
	size_t used, size;
};

static const struct rb_opt *row(const struct run *r, size_t i)
{
	return r->p->row ? r->p->row(i) : &r->p->table->rows[i];
}

static struct rb_opt_foreign foreign(const struct run *r, size_t j)
{
	struct rb_opt_foreign f = { 0 };

	r->p->foreign(j, &f);
	return f;
}

static bool our_letter(const struct run *r, int ch)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (row(r, i)->sname == ch)
			return true;
	return false;
}

/* getopt_long tables: the rows, then the foreign flags under letters no row has. */
static void build_getopt(struct run *r)
{
	struct option *lo = r->lo;
	char *so = r->so;
	size_t i;

	*so++ = ':'; /* report a missing argument as ':' */
	for (i = 0; i < r->nrows; i++) {
		const struct rb_opt *o = row(r, i);
		int has = o->type == RB_OPT_FLAG ? no_argument
			  : o->optional		 ? optional_argument
						 : required_argument;

		*lo++ = (struct option){ o->lname, has, NULL, ROW_VAL + (int)i };
		if (o->alias)
			*lo++ = (struct option){ o->alias, has, NULL, ROW_VAL + (int)i };
		if (o->sname) {
			*so++ = (char)o->sname;
			if (o->type != RB_OPT_FLAG)
				*so++ = ':';
		}
	}
	for (i = 0; i < r->p->nforeign; i++) {
		struct rb_opt_foreign f = foreign(r, i);

		*lo++ = (struct option){ f.lname, f.arg ? required_argument : no_argument, NULL,
					 r->fval + (int)i };
		if (f.sname && !our_letter(r, f.sname)) {
			*so++ = (char)f.sname;
			if (f.arg)
				*so++ = ':';
		}
	}
	*lo = (struct option){ 0 };
	*so = '\0';
}

/* getopt's @ch as a row's index, or -1. */
static int row_of(const struct run *r, int ch)
{
	size_t i;

	if (ch >= ROW_VAL && ch < r->fval)
		return ch - ROW_VAL;
	for (i = 0; ch < ROW_VAL && i < r->nrows; i++)
		if (row(r, i)->sname == ch)
			return (int)i;
	return -1;
}

/* getopt's @ch as a foreign flag's index, or -1 (a letter: one no row has). */
static int foreign_of(const struct run *r, int ch)
{
	size_t j;

	if (ch >= r->fval && ch < r->fval + (int)r->p->nforeign)
		return ch - r->fval;
	for (j = 0; ch > 0 && ch < ROW_VAL && j < r->p->nforeign; j++)
		if (foreign(r, j).sname == ch)
			return (int)j;
	return -1;
}

/* How many rows @arg (a name, its first @l characters) starts; *@hit: the last. */
static size_t our_prefixes(const struct run *r, const char *arg, size_t l, size_t *hit)
{
	size_t i, hits = 0;

	for (i = 0; i < r->nrows; i++) {
		const struct rb_opt *o = row(r, i);

		if (!strncmp(o->lname, arg, l) || (o->alias && !strncmp(o->alias, arg, l))) {
			hits++;
			*hit = i;
		}
	}
	return hits;
}

/* The getopt entry named exactly @a's first @l characters, or NULL. */
static const struct option *named(const struct option *lo, const char *a, size_t l)
{
	for (; lo->name; lo++)
		if (strlen(lo->name) == l && !strncmp(lo->name, a, l))
			return lo;
	return NULL;
}

/*
 * "--repo" with one row starting so, as its full name, so that the
 * foreign flags (perftest's --report-cycles...) do not make it ambiguous
 * for getopt_long.
 */
static int spell_out(struct run *r, char **av, int k)
{
	const char *arg = av[k] + 2, *name;
	size_t l = strcspn(arg, "="), hit = 0, need;

	if (named(r->lo, arg, l) || our_prefixes(r, arg, l, &hit) != 1)
		return 0;
	name = row(r, hit)->lname;
	need = strlen(name) + strlen(arg + l) + 3;
	if (r->used + need > r->size)
		return -E2BIG;
	r->word_at[r->used] = k;
	av[k] = r->buf + r->used;
	r->used += (size_t)snprintf(av[k], need, "--%s%s", name, arg + l) + 1;
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

static int spell_all(struct run *r, int argc, char **av, char *err, size_t len)
{
	int k;

	for (k = 1; k < argc; k++) {
		if (!strcmp(av[k], "--"))
			break;
		if (!strncmp(av[k], "--", 2)) {
			if (spell_out(r, av, k))
				return fail(err, len, "the command line is too long");
			k += long_takes_next(r->lo, av[k] + 2);
		} else if (av[k][0] == '-' && av[k][1]) {
			k += short_takes_next(r->so, av[k] + 1);
		}
	}
	return 0;
}

/* "--s" matches --size and --signal: name them. */
static int ambiguous(const struct run *r, const char *arg, char *err, size_t len)
{
	size_t l, used = 0, hits = 0;
	const struct option *lo;
	char names[400] = "";
	int last = -1;

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	l = strcspn(arg, "=");
	for (lo = r->lo; lo->name; lo++) {
		bool ours = lo->val < r->fval;

		if (strncmp(lo->name, arg, l) || lo->val == last || used >= sizeof(names))
			continue;
		last = lo->val;
		used += (size_t)snprintf(
			names + used, sizeof(names) - used, "%s--%s%s%s%s", hits++ ? ", " : "",
			ours ? row(r, (size_t)(lo->val - ROW_VAL))->lname : lo->name,
			ours ? "" : " (", ours ? "" : r->p->foreign_who, ours ? "" : ")");
	}
	if (hits < 2)
		return 0;
	return fail(err, len, "option --%.*s is ambiguous: %s", (int)l, arg, names);
}

/* "--szie": unknown, and the option it most likely meant, when one is close. */
static int unknown_long(const struct run *r, const char *arg, char *err, size_t len)
{
	const char *cmd = r->p->cmd, *near = NULL, **names;
	const struct option *lo;
	char word[64];
	size_t n = 0;

	if (!strncmp(arg, "--", 2)) {
		snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		for (lo = r->lo; lo->name; lo++)
			n++;
		names = calloc(n + 1, sizeof(*names));
		for (n = 0, lo = r->lo; names && lo->name; lo++)
			names[n++] = lo->name;
		near = names ? rb_suggest(word, names, n) : NULL;
		free(names);
		if (near)
			return fail(err, len,
				    "unknown option %s for %s: did you mean --%s? (see "
				    "rdmabench %s --help)",
				    arg, cmd, near, cmd);
	}
	return fail(err, len, "unknown option %s for %s (see rdmabench %s --help)", arg, cmd, cmd);
}

static int bad_option(const struct run *r, int ch, char **av, char *err, size_t len)
{
	const char *arg = av[optind - 1], *cmd = r->p->cmd;
	char word[4];
	int ret;

	if (ch == ':')
		return fail(err, len, "%s needs an argument", arg);
	if (optopt >= ROW_VAL && optopt < r->fval)
		return fail(err, len, "--%s takes no argument",
			    row(r, (size_t)(optopt - ROW_VAL))->lname);
	if (optopt >= r->fval && optopt < r->fval + (int)r->p->nforeign)
		return fail(err, len, "%s --%s takes no argument", r->p->foreign_who,
			    foreign(r, (size_t)(optopt - r->fval)).lname);
	if (optopt && optopt < ROW_VAL)
		snprintf(word, sizeof(word), "-%c", optopt);
	else if (ambiguous(r, arg, err, len))
		return -EINVAL;
	ret = r->p->unknown ? r->p->unknown(r->p, optopt ? word : arg, err, len) : 0;
	if (ret)
		return ret;
	if (optopt && optopt < ROW_VAL)
		return fail(err, len, "unknown option -%c for %s (see rdmabench %s --help)", optopt,
			    cmd, cmd);
	return unknown_long(r, arg, err, len);
}

static bool next_is_arg(const struct rb_opt_parser *p, const struct rb_opt *o, const char *word)
{
	if (p->next_is_arg)
		return p->next_is_arg(o, word);
	if (o->next_is_arg)
		return o->next_is_arg(word);
	return !!strpbrk(word, "<>=");
}

/*
 * A row whose argument may be left out: getopt gave "--NAME=ARG"'s, else
 * the next word when next_is_arg() says so, else "".
 */
static const char *optional_arg(const struct run *r, const struct rb_opt *o, int argc, char **av)
{
	if (optarg || !o->optional)
		return optarg;
	if (optind < argc && av[optind][0] != '-' && next_is_arg(r->p, o, av[optind]))
		return av[optind++];
	return "";
}

/* Row @o's own syntax check, if it has one. */
static int own_check(const struct rb_opt *o, const char *arg, char *err, size_t len)
{
	return o->check ? o->check(arg, err, len) : 0;
}

int rb_opt_take(const struct rb_opt *o, uint8_t *given, void *base, const char *arg,
		rb_opt_check_fn *check, char *err, size_t len)
{
	char n[40];
	int ret;

	/* A switch twice is the same ask (perftest's -z with -R, or
	 * --data_validation with --verify); the last of two values
	 * silently winning hides a typo. */
	if (*given && o->type == RB_OPT_FLAG)
		return 0;
	if (*given && o->type != RB_OPT_LIST)
		return fail(err, len, "%s given twice", rb_opt_name(o, n, sizeof(n)));
	ret = rb_opt_set(o, base, arg, check ? check : own_check, err, len);
	if (!ret)
		*given = 1;
	return ret;
}

static int take(const struct run *r, int ch, int argc, char **av, char *err, size_t len)
{
	const struct rb_opt_parser *p = r->p;
	int i;

	if (ch == '?' || ch == ':')
		return bad_option(r, ch, av, err, len);
	i = row_of(r, ch);
	if (i >= 0) {
		const char *arg = optional_arg(r, row(r, (size_t)i), argc, av);

		if (p->take)
			return p->take(p, (size_t)i, arg, err, len);
		return rb_opt_take(row(r, (size_t)i), &p->given[i], p->base, arg, p->check, err,
				   len);
	}
	i = foreign_of(r, ch);
	if (i >= 0)
		return p->take_foreign(p, (size_t)i, optarg, err, len);
	return bad_option(r, ch, av, err, len);
}

/* The words in getopt_long's order, each spelled out one as it was typed again. */
static void put_back(const struct run *r, int argc, char **av, char **argv)
{
	uintptr_t buf = (uintptr_t)r->buf;
	int j;

	for (j = 0; j < argc; j++) {
		uintptr_t w = (uintptr_t)av[j];

		argv[j] = w >= buf && w < buf + r->used ? r->orig[r->word_at[w - buf]] : av[j];
	}
}

static int parse(struct run *r, int argc, char **av, char **argv, char *err, size_t len)
{
	int ch, ret;

	build_getopt(r);
	ret = spell_all(r, argc, av, err, len);
	optind = 0; /* glibc: 0 also forgets a half-parsed group like -zv */
	opterr = 0;
	while (!ret && (ch = getopt_long(argc, av, r->so, r->lo, NULL)) != -1)
		ret = take(r, ch, argc, av, err, len);
	put_back(r, argc, av, argv);
	return ret ? ret : optind;
}

int rb_opt_getopt(const struct rb_opt_parser *p, int argc, char **argv, char *err, size_t len)
{
	struct run r = { .p = p, .nrows = p->row ? p->nrows : p->table->n, .size = 4096 };
	size_t nlo, nso;
	char **av;
	int ret;

	if (argc < 1 || r.nrows + p->nforeign > 4096)
		return fail(err, len, "%s: no command line to parse (a bug)", p->cmd);
	r.fval = ROW_VAL + (int)r.nrows;
	nlo = 2 * r.nrows + p->nforeign + 1;
	nso = 3 * (r.nrows + p->nforeign) + 2;
	av = calloc(2 * (size_t)argc + 1, sizeof(*av));
	r.lo = calloc(nlo, sizeof(*r.lo));
	r.so = calloc(nso, 1);
	r.buf = calloc(r.size, 1);
	r.word_at = calloc(r.size, sizeof(*r.word_at));
	if (!av || !r.lo || !r.so || !r.buf || !r.word_at) {
		ret = fail(err, len, "out of memory");
		goto out;
	}
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	r.orig = av + argc + 1;
	memcpy(r.orig, argv, (size_t)argc * sizeof(*av));
	ret = parse(&r, argc, av, argv, err, len);
out:
	free(r.word_at);
	free(r.buf);
	free(r.so);
	free(r.lo);
	free(av);
	return ret;
}
