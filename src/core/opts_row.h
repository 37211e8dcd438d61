/* SPDX-License-Identifier: MIT */
/*
 * One row of the option table: its type, and the checks that need only
 * the row (range and power of two, scope, the option's name in messages).
 * The table itself, rb_opts[], is core's (opts_table.c; its rows name
 * fields of struct rb_cli, core/cli.h); this header declares it for cli/,
 * which parses a command line with it, and for those that walk it without
 * parsing one: plan.c checks a plan, the command line's or a peer's, field
 * by field against its rows; the wire, the JSON, compare and the dry run
 * take the plan's fields from them.  Pure.
 */
#ifndef RB_OPTS_ROW_H
#define RB_OPTS_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum rb_opt_type {
	RB_OPT_FLAG, /* no argument: sets a u8 to 1 */
	RB_OPT_U32,  /* unsigned, K/M/G allowed when .suffix */
	RB_OPT_U64,
	RB_OPT_I32,    /* signed, for indices where -1 means "auto" */
	RB_OPT_AXIS,   /* a sweep axis (sweep.h grammar) */
	RB_OPT_STR,    /* free text into a char array */
	RB_OPT_CHOICE, /* one of .choices, stored as its index (u8) */
	RB_OPT_LIST,   /* repeatable: each value appended to a struct rb_strlist */
};

/*
 * One option.  It applies to a command whose scope (RB_S_*, bench.h) holds
 * every bit of .need and, when .any is set, one of .any.
 */
struct rb_bench;

/* The groups of --help and --help-all, in their order. */
#define RB_BRIEF_MAX 48

enum rb_opt_section {
	RB_SEC_MEASURE,
	RB_SEC_SWEEP,
	RB_SEC_CONN,
	RB_SEC_MEM,
	RB_SEC_PLACE,
	RB_SEC_OUTPUT,
	RB_SEC_MATRIX, /* matrix's own rows (src/matrix/matrix_opts.c) */
	RB_SEC_GENERAL,
	RB_SEC_N
};

/*
 * The rows code asks about by name (rb_cli_given(), the defaults,
 * perftest's flags that set a row): an id on its row, so that a typo
 * fails to compile; no code looks a row up by its name as a string.  Each id is on exactly
 * one row (test_opts checks); RB_O_NONE on every other row.
 */
enum rb_opt_id {
	RB_O_NONE,
	RB_O_BATCH,
	RB_O_COUNTERS,
	RB_O_CPU,
	RB_O_CQE_POLL,
	RB_O_CUDA_MEM,
	RB_O_CUDA_REG,
	RB_O_DURATION,
	RB_O_EVENTS,
	RB_O_EXPECT,
	RB_O_FLOW_LABEL,
	RB_O_FORMAT,
	RB_O_INLINE,
	RB_O_INTERVAL,
	RB_O_ITERS,
	RB_O_NUMA,
	RB_O_OUTPUT,
	RB_O_POLL,
	RB_O_PORT,
	RB_O_POST_API,
	RB_O_QPS,
	RB_O_RATE,
	RB_O_RDMA_CM,
	RB_O_RECOMMEND,
	RB_O_REPORT_GBITS,
	RB_O_SIGNAL,
	RB_O_SIZE,
	RB_O_THREADS,
	RB_O_TRANSPORT,
	RB_O_TX_DEPTH,
	RB_O_UNITS,
	RB_O_USE_CUDA,
	RB_O_USE_OLD_POST_SEND,
	RB_O_N
};

struct rb_opt {
	const char *lname;
	enum rb_opt_id id;
	enum rb_opt_section section;
	const char *brief; /* --help's line: at most RB_BRIEF_MAX characters */
	bool common;	   /* in --help; every row is in --help-all and the man page */
	/* A test's own default, where the table's .def covers every test. */
	void (*test_default)(const struct rb_bench *b, char *buf, size_t len);
	int sname; /* 0: long only */
	enum rb_opt_type type;
	size_t off;		/* offsetof(struct rb_cli, field) */
	size_t size;		/* field size, for strings */
	uint64_t min, max;	/* range, inclusive */
	bool pow2;		/* value must be a power of two */
	bool suffix;		/* K/M/G accepted (KiB, KB the same: powers of 1024) */
	bool secs;		/* seconds: s, m, h suffixes accepted (90, 90s, 2m, 1h) */
	bool pct;		/* a percentage: "10" and "10%" alike */
	const char *choices;	/* "fadd|cswap" */
	const char *pt_choices; /* perftest's words for the same choices: "FETCH_AND_ADD|..." */
	const char *argname;
	/*
	 * RB_OPT_STR: the argument may be left out ("" then): --NAME alone,
	 * --NAME=ARG, or --NAME ARG when ARG holds one of < > = (no host does).
	 */
	bool optional;
	/* With .optional: a next word this says is the argument is taken
	 * too ("--use-cuda 1": a GPU, never a host). */
	bool (*next_is_arg)(const char *word);
	const char *def; /* default as shown in help, NULL: none */
	uint64_t autov;	 /* nonzero: the word "auto" is accepted and means this */
	unsigned int need, any;
	const char *help;
	/* Optional, for strings and lists: the value's syntax; 0 or -EINVAL. */
	int (*check)(const char *arg, char *err, size_t len);
	/* Optional, for an axis whose items have a grammar of their own
	 * (--cq-moderation COUNT[/USEC]): one item into its value; 0 or
	 * -EINVAL.  The row's range still holds each value. */
	int (*item)(const char *item, uint64_t *v, char *err, size_t len);
	/*
	 * perftest's name for the same thing: .alias, a long name accepted as
	 * well (perftest's spelling where it differs from ours); .perftest,
	 * its flag as perftest's help spells it, and .pt_diff, what differs,
	 * for the man page's table of perftest flags.
	 */
	const char *alias;
	const char *perftest;
	const char *pt_diff;
	/*
	 * How a plan's field is checked (plan.c): .unset, the one value an
	 * axis holds when the option does not apply (1, or busy for --poll);
	 * .zero_unset, a number whose 0 means "not set" (-n with -D); .always,
	 * a field the command line always fills (-r: only its range counts).
	 */
	uint64_t unset;
	bool zero_unset;
	bool always;
	/*
	 * The plan's field on the wire (wire/wire_plan.c): .wire, its tag
	 * (1..RB_WIRE_TAG_MAX, unique; 0: not sent, a local option or a twin
	 * row over the same field); .wire_optional, a reader that does not
	 * know the tag may ignore it (else it refuses the plan, naming it).
	 */
	uint16_t wire;
	bool wire_optional;
	/*
	 * The plan field's member in the JSON's "params" (NULL: none), and
	 * what a file of an earlier version without it meant, as JSON text
	 * (compare; NULL: none, the member is compared as absent).
	 */
	const char *json;
	const char *json_absent;
};

/*
 * A row's .off is the offset of its field in struct rb_cli (opts.h), which
 * begins with the plan, struct rb_params (checked at build time, opts.c):
 * a row whose .off - RB_OPT_PLAN_BEGIN is below sizeof(struct rb_params)
 * is a field of the plan, at that offset.
 */
#define RB_OPT_PLAN_BEGIN 0

/* The option table (opts_table.c), rb_nopts rows. */
extern const struct rb_opt rb_opts[];
extern const size_t rb_nopts;

/* rb_opt_by_id() - the row that carries @id (NULL for RB_O_NONE or none). */
const struct rb_opt *rb_opt_by_id(enum rb_opt_id id);

/* rb_opt_name() - "-s/--size" or "--warmup": how messages name row @o. */
const char *rb_opt_name(const struct rb_opt *o, char *buf, size_t len);

/*
 * rb_opt_check_range() - @v against row @o's range and power-of-two rule;
 * 0, or -EINVAL with a message naming the option in @err.
 */
int rb_opt_check_range(const struct rb_opt *o, uint64_t v, char *err, size_t len);

/*
 * rb_opt_axis_twin() - whether @o is a flag that sets the axis of
 * another row over the same field (-e/--events: --poll event): that row
 * checks the field.
 */
bool rb_opt_axis_twin(const struct rb_opt *o);

/* rb_opt_applies() - whether row @o applies to a command of @scope. */
bool rb_opt_applies(const struct rb_opt *o, unsigned int scope);

/* A row's syntax check beyond its type (the row's .check, and what else
 * the caller knows): 0, or -EINVAL with the message in @err. */
typedef int rb_opt_check_fn(const struct rb_opt *o, const char *arg, char *err, size_t len);

/*
 * rb_opt_set() - @arg, the argument of row @o (NULL for a flag), into its
 * field at @base + o->off: checked against the row's type, choices and
 * range, and by @check for strings and lists.  0, or -EINVAL with a
 * message naming the option in @err.
 */
int rb_opt_set(const struct rb_opt *o, void *base, const char *arg, rb_opt_check_fn *check,
	       char *err, size_t len);

/*
 * A command's own table (compare's, doctor's): its rows, their fields in
 * a struct of the command's, parsed by rb_opt_parse() as the tests' rows
 * are by the command line (cli/), with the same rb_opt_set().
 */
#define RB_OWN_MAX 32
struct rb_opt_table {
	const char *cmd;
	const struct rb_opt *rows;
	size_t n;
};

/* A command's own -h/--help row: its flag at offset @off of the command's struct. */
#define RB_OPT_HELP_ROW(off_)                                                                \
	{                                                                                    \
		.lname = "help", .sname = 'h', .type = RB_OPT_FLAG, .off = (off_), .max = 1, \
		.help = "this text"                                                          \
	}

/*
 * rb_opt_parse() - @argv (argv[0] the command) against table @t, each
 * value into @base (rb_opt_set(), with the row's .check); @given[t->n]:
 * which rows the line set.  Returns the index in @argv of the first
 * operand, or -EINVAL with the message in @err.  It is core's one parser
 * (opts_parser.h's rb_opt_getopt()) over @t's rows, so the tests' line
 * and every command's share its prefix rules and messages ("unknown
 * option --x for compare (see rdmabench compare --help)", "--tolerance
 * needs an argument", "-t/--tolerance given twice").
 */
int rb_opt_parse(const struct rb_opt_table *t, void *base, uint8_t *given, int argc, char **argv,
		 char *err, size_t len);

/* rb_opt_list() - table @t for shell completion, as rb_list_options() does the tests'. */
void rb_opt_list(FILE *f, const struct rb_opt_table *t);
/*
 * rb_opt_help() - table @t's rows for the command's --help
 * (core/opts_help_own.c): per row "  -t, --tolerance PCT", then its .help
 * and "(default: .def)" wrapped to 79 columns under column @col (a
 * longer head gets a line of its own).
 */
void rb_opt_help(FILE *f, const struct rb_opt_table *t, int col);
/*
 * A command whose line is a test's plus rows of its own (matrix: TEST,
 * the test's options and the job's) owns those rows in its folder and
 * registers their table before main() (rb_opts_more_add(), as benches.c
 * registers the tests): the tests' parser, --help, completion and the man
 * page walk rb_opts[] and then these, as row i < rb_opt_rows() of
 * rb_opt_row(i), so that the command line knows them all (a test refuses
 * --pattern by name: "does not apply").  A value of such a row goes into
 * the owner's struct (struct rb_cli's .own_base), never into struct
 * rb_cli.  rb_opt_row_table(): the table row @i is of, NULL for rb_opts[].
 */
#define RB_MORE_MAX 4
void rb_opts_more_add(const struct rb_opt_table *t);
size_t rb_opt_rows(void);
const struct rb_opt *rb_opt_row(size_t i);
const struct rb_opt_table *rb_opt_row_table(size_t i);

#endif
