// SPDX-License-Identifier: MIT
/*
 * The option tests' fixture (test_opts_*.c): what every row of the option
 * table should be (wants[], written apart from the table), and running
 * the parser on argument lists that outlive it.
 */
#ifndef OPTS_FX_H
#define OPTS_FX_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/cmd.h"
#include "cli/opts_perftest.h"
#include "core/regcache.h"
#include "core/sweep.h"

#define KiB 1024ULL

#define MiB (1024ULL * 1024)

/* ---- what every row should be ------------------------------------------ */

/*
 * Written from the help texts and the brief, not copied from opts.c at run
 * time: a row whose offset, range, short name or applicability drifts fails
 * test_table_rows even though parsing "works".
 */
struct want {
	const char *lname;
	int sname;
	enum rb_opt_type type;
	size_t off;
	size_t size;	   /* RB_OPT_STR: the field's size */
	uint64_t min, max; /* numbers and axes */
	bool pow2, suffix;
	const char *choices; /* RB_OPT_CHOICE, an axis of choices */
	unsigned int tests;
};

#define CLI(f) offsetof(struct rb_cli, f)

#define PRM(f) offsetof(struct rb_cli, p.f)

#define LOC(f) offsetof(struct rb_cli, l.f)

#define SZ(f) sizeof(((struct rb_cli *)0)->l.f)

/*
 * The commands, a bit each, as this test knows them: an option's
 * applicability is a set of these, checked against what the library's
 * scopes (bench.h) make of each command.  "atomic" is the family command.
 */
enum {
	T_SEND_LAT = 1 << 0,
	T_SEND_BW = 1 << 1,
	T_WRITE_LAT = 1 << 2,
	T_WRITE_BW = 1 << 3,
	T_READ_LAT = 1 << 4,
	T_READ_BW = 1 << 5,
	T_ATOMIC_LAT = 1 << 6,
	T_ATOMIC_BW = 1 << 7,
	T_SERVER = 1 << 8,
	T_TOPO = 1 << 9,
	T_ATOMIC = 1 << 10,
	T_MATRIX = 1 << 11, /* matrix alone; "matrix TEST" adds the test's options */
	T_REG = 1 << 12,    /* its own table (reg_opts.c): no row here applies */
	T_TCP_LAT = 1 << 13,
	T_TCP_BW = 1 << 14,
	T_LOCK = 1 << 15, /* issue 42: a latency test of verbs */
};

/* The verbs tests (V), and with the socket tests. */
#define T_VLAT (T_SEND_LAT | T_WRITE_LAT | T_READ_LAT | T_ATOMIC_LAT | T_ATOMIC | T_LOCK)

#define T_VBW (T_SEND_BW | T_WRITE_BW | T_READ_BW | T_ATOMIC_BW | T_ATOMIC)

#define T_VTESTS (T_VLAT | T_VBW)

#define T_VRUN (T_VTESTS | T_SERVER)

#define T_TCP (T_TCP_LAT | T_TCP_BW)

#define T_LAT (T_VLAT | T_TCP_LAT)

#define T_BW (T_VBW | T_TCP_BW)

#define T_TESTS (T_LAT | T_BW)

#define T_RUN (T_TESTS | T_SERVER)

#define T_ALL (T_RUN | T_TOPO | T_MATRIX)

#define W_SENDWRITE (T_SEND_LAT | T_SEND_BW | T_WRITE_LAT | T_WRITE_BW)

#define W_NOATOMIC (W_SENDWRITE | T_READ_LAT | T_READ_BW)

#define W_ATOMIC (T_ATOMIC_LAT | T_ATOMIC_BW | T_ATOMIC)

#define NWANTS n_wants

#define NBITS n_bit_names

#define MAX_ARGS 32

#define PARSE(c, bit, err, ...) \
	parse_list((c), (bit), (err), sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

#define FINISH(c, bit, err, ...)                                                                \
	finish_list((c), (bit), (err), sizeof(err), (const char *const[]){ __VA_ARGS__, NULL }, \
		    __FILE__, __LINE__)

#define CHECK_OK(ret, err) check_ok_((ret), (err), #ret, __FILE__, __LINE__)

#define CHECK_ERR(ret, err, ...)                                                             \
	check_err_((ret), (err), (const char *const[]){ __VA_ARGS__, NULL }, #ret, __FILE__, \
		   __LINE__)

#define CHECK_AXIS(a, ...)                                                                \
	do {                                                                              \
		static const uint64_t w_[] = { __VA_ARGS__ };                             \
		check_axis_((a), w_, sizeof(w_) / sizeof(w_[0]), #a, __FILE__, __LINE__); \
	} while (0)

extern const struct want wants[];
const struct want *want_of(const char *lname);
/* The subcommands, by bit, as main.c and the man page name them. */
extern const char *const bit_names[];
const char *cmd_of(unsigned int bit);
/* The library's scope of the command of @bit. */
unsigned int scope_of(unsigned int bit);
/* Which of the commands row @o applies to, as a mask of T_* bits. */
unsigned int applies_mask(const struct rb_opt *o);
/* "-s/--size" or "--warmup", as the messages name an option. */
const char *name_of(const struct want *w, char *buf, size_t len);
/* ---- running the parser ------------------------------------------------- */

/*
 * Arguments live in a pool that is never reused: getopt keeps a pointer
 * into the last argv between calls, and c->host points into argv.
 */
char *keep(const char *s);
/* rb_cli_init() then rb_cli_parse() of "cmd @list..." for @bit. */
int parse_list(struct rb_cli *c, unsigned int bit, char *err, size_t len, const char *const *list);
/* As parse_list(), which must succeed, then rb_cli_finish() for @bit. */
int finish_list(struct rb_cli *c, unsigned int bit, char *err, size_t len, const char *const *list,
		const char *file, int line);
void check_ok_(int ret, const char *err, const char *what, const char *file, int line);
/* @ret must be -EINVAL with a message containing every one of @needles. */
void check_err_(int ret, const char *err, const char *const *needles, const char *what,
		const char *file, int line);
void check_axis_(const struct rb_axis *a, const uint64_t *v, uint32_t n, const char *what,
		 const char *file, int line);
/* ---- fields of a row, found by the expected offset ---------------------- */

uint64_t num_at(const struct rb_cli *c, const struct want *w);
const struct rb_axis *axis_at(const struct rb_cli *c, const struct want *w);
uint8_t u8_at(const struct rb_cli *c, const struct want *w);
const char *str_at(const struct rb_cli *c, const struct want *w);
unsigned int lowest_bit(unsigned int m);
int row_index(const struct want *w);
/*
 * rb_opt_index() - the row of rb_opts[] named @lname (or its alias), or
 * -1: the tests' own, as src/ looks rows up by id, never by name.
 */
int rb_opt_index(const char *lname);
/*
 * "--lname=@arg" for a row's first test must fail naming the row and
 * @needle (with '=': a row whose argument may be left out takes it so).
 */
void row_rejects(const struct want *w, const char *arg, const char *needle);
/* Whether the command line set the row named @lname (a name the test knows). */
bool given_name(const struct rb_cli *c, const char *lname);
/* "@opt @arg" for a row's first test must succeed and set only that row. */
size_t given_rows(const struct rb_cli *c);
void row_accepts(struct rb_cli *c, const struct want *w, const char *opt, const char *arg);

extern const size_t n_wants, n_bit_names;

#endif
