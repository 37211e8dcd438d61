/* SPDX-License-Identifier: MIT */
/*
 * The one command-line parser (opts_getopt.c): every command's rows go
 * through it, the tests' (cli/, with matrix's registered rows and
 * perftest's flags), and each own table's (compare, doctor, report, reg)
 * through rb_opt_parse().  So every command has the same prefix rules
 * (a unique prefix of a row's name means it, even where another program's
 * flags start so too), the same rule on a value given twice, and the same
 * messages: "unknown option --szie for CMD: did you mean --size? (see
 * rdmabench CMD --help)", "option --s is ambiguous: --size, --signal",
 * "--count needs an argument", "--quiet takes no argument", "-s/--size
 * given twice".  What differs between commands is a field of struct
 * rb_opt_parser, never a second loop.  Pure but for getopt's globals.
 */
#ifndef RB_OPTS_PARSER_H
#define RB_OPTS_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/opts_row.h"

/*
 * Another program's flag that the line takes as well (perftest's): the
 * parser knows its names and whether it takes a value; .take_foreign
 * gives it its meaning.  Its letter counts only where no row has it.
 */
struct rb_opt_foreign {
	const char *lname;
	int sname; /* 0: none */
	bool arg;
};

struct rb_opt_parser {
	const char *cmd; /* the command, as messages name it */
	/*
	 * The rows: .row(i) for i < .nrows when .row is set (the tests'
	 * rb_opts[] and the registered tables, rb_opt_row()), else .table's.
	 * Walked, never copied.
	 */
	const struct rb_opt_table *table;
	const struct rb_opt *(*row)(size_t i);
	size_t nrows;
	/*
	 * .nforeign flags of another program, .foreign(j, out) the names of
	 * flag j; messages call them .foreign_who's ("perftest's").
	 */
	size_t nforeign;
	void (*foreign)(size_t j, struct rb_opt_foreign *out);
	const char *foreign_who;
	/*
	 * Row @i given with @arg (NULL: a flag; "": an optional argument left
	 * out).  NULL: rb_opt_take() into .base, .given[i], with .check.
	 */
	int (*take)(const struct rb_opt_parser *p, size_t i, const char *arg, char *err,
		    size_t len);
	int (*take_foreign)(const struct rb_opt_parser *p, size_t j, const char *arg, char *err,
			    size_t len);
	/*
	 * For a row with .optional: whether the next word is its argument.
	 * NULL: the row's .next_is_arg, else a word holding one of < > =
	 * (no host does: "--recommend p99<=20us").
	 */
	bool (*next_is_arg)(const struct rb_opt *o, const char *word);
	/*
	 * A word no row or flag takes ("-q", "--warmup=5"): a message of the
	 * caller's (reg's "a test's option"), or 0 for the parser's "unknown
	 * option" with the nearest name.  NULL: the parser's.
	 */
	int (*unknown)(const struct rb_opt_parser *p, const char *word, char *err, size_t len);
	void *base;
	uint8_t *given;
	rb_opt_check_fn *check; /* NULL: the row's .check */
	void *ctx;		/* the caller's, for its hooks */
};

/*
 * rb_opt_getopt() - @argv (argv[0] the command) through @p: each option
 * to its row's (or foreign flag's) take, in order.  @argv is permuted as
 * getopt_long does (its strings are left as they were), and the index of
 * the first operand is returned, or -EINVAL with the message in @err (a
 * bad word; also more spelled-out prefixes than 4 KiB hold, or no memory).
 */
int rb_opt_getopt(const struct rb_opt_parser *p, int argc, char **argv, char *err, size_t len);

/*
 * rb_opt_take() - row @o given with @arg, into @base by rb_opt_set() with
 * @check; *@given says whether it was given before: a flag again is the
 * same ask, a list takes one more, any other value twice is refused ("a
 * last value winning hides a typo").  0 or -EINVAL.
 */
int rb_opt_take(const struct rb_opt *o, uint8_t *given, void *base, const char *arg,
		rb_opt_check_fn *check, char *err, size_t len);

#endif
