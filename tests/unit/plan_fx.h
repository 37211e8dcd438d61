// SPDX-License-Identifier: MIT
/* The plan tests' fixture (test_plan*.c): a plan as the command line makes it. */
#ifndef PLAN_FX_H
#define PLAN_FX_H

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include "cli/opts.h"
#include "wire/plan.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/verbs.h"
#include "wire/wire.h"

#define REFUSED(p, budget, needle)                                                           \
	do {                                                                                 \
		char e_[512] = "";                                                           \
		assert_int_equal(rb_plan_validate(&(p), (budget), e_, sizeof(e_)), -EINVAL); \
		if (!strstr(e_, (needle)))                                                   \
			fail_msg("message '%s' lacks '%s'", e_, (needle));                   \
	} while (0)

/* What the command line makes of "TEST HOST" (defaults applied). */
struct rb_params plan_of(const char *test);

#endif
