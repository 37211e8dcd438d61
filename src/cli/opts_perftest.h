/* SPDX-License-Identifier: MIT */
/*
 * perftest's flags that are not a row of rb_opts[] under the same
 * spelling: each is accepted with no effect (where it cannot matter here),
 * translated into rdmabench's own options, or refused with a message that
 * names the rdmabench way or says why there is none.  The parser consults
 * this table when a name is not one of ours, so no perftest flag is an
 * "unknown option" and none is silently dropped; the man page's table of
 * perftest flags is written from both tables.
 */
#ifndef RB_OPTS_PERFTEST_H
#define RB_OPTS_PERFTEST_H

#include <stdio.h>
#include "cli/opts.h"

enum rb_pt_kind {
	RB_PT_IGNORED, /* accepted, no effect here: .says is why it cannot matter */
	RB_PT_MAPPED,  /* translated into rdmabench options: .says is into what */
	RB_PT_REFUSED, /* exit 2: .says names the rdmabench way, or why none */
};

/* What a mapped flag does, besides .to: the choices made after parsing. */
enum rb_pt_late_bit {
	RB_PT_RUN_INF = 1 << 0, /* --run_infinitely */
	RB_PT_SERVER = 1 << 1,	/* -Z/--server */
	RB_PT_CLIENT = 1 << 2,	/* -P/--client */
	RB_PT_RATE_UNIT = 1 << 3,
	RB_PT_LIMIT_BW = 1 << 4,
	RB_PT_LIMIT_RATE = 1 << 5,
};

struct rb_pt_flag {
	const char *lname; /* perftest's long name (its getopt table's spelling) */
	int sname;	   /* its letter, 0: none */
	bool arg;	   /* takes a value */
	enum rb_pt_kind kind;
	/* RB_PT_MAPPED: the row(s) it sets, to .value or, when NULL, to the argument */
	enum rb_opt_id to, to2;
	const char *value, *value2;
	unsigned int late; /* RB_PT_MAPPED: an rb_pt_late_bit done by rb_pt_finish() */
	const char *says;
};

extern const struct rb_pt_flag rb_pt_flags[];
extern const size_t rb_npt_flags;

/* rb_pt_find() - the entry for long name @lname (when non-NULL) or letter @ch, or NULL. */
const struct rb_pt_flag *rb_pt_find(const char *lname, int ch);

/*
 * rb_pt_take() - flag @f given with @arg to command @cmd of @scope: 0 when
 * accepted (mapped rows set, late work noted in @c), or -EINVAL with the
 * reason in @err.
 */
int rb_pt_take(struct rb_cli *c, const struct rb_pt_flag *f, const char *arg, const char *cmd,
	       unsigned int scope, char *err, size_t len);

/*
 * rb_pt_finish() - after parsing (the host known): what perftest's flags
 * leave to the end, and the rules between perftest's switches and ours.
 */
int rb_pt_finish(struct rb_cli *c, const char *cmd, unsigned int scope, char *err, size_t len);

/*
 * rb_pt_iters() - under perftest's name (@c->perftest_only), once the
 * defaults are in: -n counts each QP, as perftest's (the plan's iters
 * become -n times -q); a -q list is refused there.  0 or -EINVAL.
 */
int rb_pt_iters(struct rb_cli *c, char *err, size_t len);

/* rb_man_perftest() - the man page's tbl(1) table of every perftest flag. */
void rb_man_perftest(FILE *f);

#endif
