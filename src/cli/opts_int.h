/* SPDX-License-Identifier: MIT */
/*
 * Between opts.c (the command line) and opts_table.c (its rows) only:
 * where a row's field sits in struct rb_cli, and the usage error.
 */
#ifndef RB_OPTS_INT_H
#define RB_OPTS_INT_H

#include <stddef.h>

#include "cli/opts.h"

/* -n when neither -n nor -D is given, as perftest's. */
#define DEF_ITERS_LAT 1000
#define DEF_ITERS_BW  5000

/* --help's width: $COLUMNS (40..1000), else 80. */
int rb_help_width(void);

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

#define OFF(f) offsetof(struct rb_cli, f)
#define PAR(f) (offsetof(struct rb_cli, p) + offsetof(struct rb_params, f))
#define LOC(f) (offsetof(struct rb_cli, l) + offsetof(struct rb_local, f))
/* A string field of struct rb_local: where it is and how long. */
#define LSTR(f) .off = LOC(f), .size = sizeof(((struct rb_local *)0)->f)
#define MX(f)	(offsetof(struct rb_cli, m) + offsetof(struct rb_matrix_opts, f))
#define MSTR(f) .off = MX(f), .size = sizeof(((struct rb_matrix_opts *)0)->f)

/*
 * rb_flows_parse() - --flow-label N[,N...]: up to RB_FLOW_MAX labels of 20
 * bits into @v, their count in *@n; 0 or -EINVAL with the reason in @err.
 */
int rb_flows_parse(const char *arg, uint32_t *v, uint32_t *n, char *err, size_t len);

#endif
