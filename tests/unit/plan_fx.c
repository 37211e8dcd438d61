// SPDX-License-Identifier: MIT
/* The plan tests' fixture (test_plan*.c); plan_fx.h says what it holds. */
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
#include "plan_fx.h"

struct rb_params plan_of(const char *test)
{
	const struct rb_bench *b = rb_bench_find(test);
	struct rb_cli c;
	char err[256];

	assert_non_null(b);
	rb_cli_init(&c);
	assert_int_equal(rb_cli_finish(&c, b, rb_bench_scope(b), err, sizeof(err)), 0);
	return c.p;
}
