/* SPDX-License-Identifier: MIT */
/*
 * An MR's access rights in words, for --access (rdmabench reg): pure.
 */
#ifndef RB_ACCESS_H
#define RB_ACCESS_H

#include <stddef.h>
#include "core/rdmabench.h"

/*
 * rb_reg_access_parse() - --access LIST: words local-write, remote-read,
 * remote-write, remote-atomic, relaxed-ordering, comma-separated, into
 * IBV_ACCESS_* bits in *@access.  The remote write and atomic rights need
 * local-write (ibv_reg_mr's rule).  0 or -EINVAL with the reason in @err.
 */
int rb_reg_access_parse(const char *arg, int *access, char *err, size_t len);

/* rb_reg_access_check() - the option row's syntax check of --access. */
int rb_reg_access_check(const char *arg, char *err, size_t len);

#endif
