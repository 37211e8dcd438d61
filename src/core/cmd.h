/* SPDX-License-Identifier: MIT */
/*
 * The subcommands: every row of the benchmark table (bench.h), each
 * family of rows ("atomic --mode lat|bw"), then the commands that are not
 * tests.  main() dispatches through it; --help, the man page's "Applies
 * to" lines, shell completion and the CLI fuzz target list from it.
 */
#ifndef RB_CMD_H
#define RB_CMD_H

#include "core/bench.h"

enum rb_cmd_kind {
	RB_CMD_TEST,
	RB_CMD_FAMILY,
	RB_CMD_SERVER,
	RB_CMD_TOPO,
	RB_CMD_COMPARE,
	RB_CMD_MATRIX,
	RB_CMD_DOCTOR,
	RB_CMD_REG,
	RB_CMD_REPORT,
};

struct rb_cmd {
	const char *name;
	char desc[96];
	enum rb_cmd_kind kind;
	unsigned int scope;	      /* RB_S_*: which options it takes */
	const struct rb_bench *bench; /* RB_CMD_TEST */
};

/*
 * rb_cmd_at() - the @i-th command into @out, in help order: tests,
 * families, the rest.  Returns false past the last one.
 */
bool rb_cmd_at(size_t i, struct rb_cmd *out);

/* rb_cmd_find() - the command named @name into @out; false when none. */
bool rb_cmd_find(const char *name, struct rb_cmd *out);

#endif
