/* SPDX-License-Identifier: MIT */
/*
 * Where a row of the option table puts its value in struct rb_cli (the
 * row's .off): for the table's file (opts_table.c) and the command line's
 * (cli/opts_int.h) only, the names being short.
 */
#ifndef RB_OPTS_OFF_H
#define RB_OPTS_OFF_H

#include <stddef.h>

#include "core/cli.h"

#define OFF(f) offsetof(struct rb_cli, f)
#define PAR(f) (offsetof(struct rb_cli, p) + offsetof(struct rb_params, f))
#define LOC(f) (offsetof(struct rb_cli, l) + offsetof(struct rb_local, f))
/* A string field of struct rb_local: where it is and how long. */
#define LSTR(f) .off = LOC(f), .size = sizeof(((struct rb_local *)0)->f)

#endif
