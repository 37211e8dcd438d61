/* SPDX-License-Identifier: MIT */
/*
 * The one validator of a plan.  The command line (after its defaults) and
 * a plan that arrives from a peer pass through the same checks: every
 * field against its row of the option table, the cross-option rules, and
 * a memory budget.  Pure: the budget is an argument.
 */
#ifndef RB_PLAN_H
#define RB_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "rdmabench.h"

/*
 * rb_plan_mem() - an upper estimate of the bytes a plan takes on one
 * side: both buffers, the WQEs of every QP and CQ (as a provider sizes
 * them), the WR templates and, for latency tests, the samples (bounded:
 * stats.h; bandwidth tests keep none).
 */
uint64_t rb_plan_mem(const struct rb_params *p);

/*
 * rb_plan_validate() - whether plan @p is one this rdmabench can run:
 * a known test, each field within its option's range (0 for the fields
 * where 0 means "unset": iterations, duration, outstanding, MTU), options
 * that do not apply to the test left at their defaults, the cross-option
 * rules, and rb_plan_mem() within @mem_budget bytes (0: not checked).
 * Returns 0, or -EINVAL with a message naming the option in @err.
 */
int rb_plan_validate(const struct rb_params *p, uint64_t mem_budget, char *err, size_t len);

/*
 * rb_mem_budget() - what one side may take on this host: three quarters
 * of MemAvailable (/proc/meminfo), 0 when it cannot be read.
 */
uint64_t rb_mem_budget(void);

#endif
