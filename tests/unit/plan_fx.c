// SPDX-License-Identifier: MIT
/* The plan tests' fixture (test_plan*.c); plan_fx.h says what it holds. */
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
