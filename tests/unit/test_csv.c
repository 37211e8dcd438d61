// SPDX-License-Identifier: MIT
/*
 * Unit tests for the CSV cell writer (src/csv.c): a text cell quoted per
 * RFC 4180 only when it must be (comma, double quote, CR, LF), a quote
 * doubled inside, NULL and "" as empty cells; figures in the one number
 * format, non-finite ones as empty cells.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/csv.h"

static char *cell(const char *s, double v, int num)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (num)
		rb_csv_num(f, v);
	else
		rb_csv_str(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#define STR_IS(s, want)                            \
	do {                                       \
		char *got_ = cell((s), 0, 0);      \
		assert_string_equal(got_, (want)); \
		free(got_);                        \
	} while (0)

#define NUM_IS(v, want)                            \
	do {                                       \
		char *got_ = cell(NULL, (v), 1);   \
		assert_string_equal(got_, (want)); \
		free(got_);                        \
	} while (0)

static void test_str(void **state)
{
	(void)state;
	STR_IS("mlx5_0", "mlx5_0");
	STR_IS("0-3 8", "0-3 8"); /* a space needs no quotes */
	STR_IS("", "");
	STR_IS(NULL, "");
	STR_IS("a,b", "\"a,b\"");
	STR_IS("say \"hi\"", "\"say \"\"hi\"\"\"");
	STR_IS("\"", "\"\"\"\"");
	STR_IS("two\nlines", "\"two\nlines\"");
	STR_IS("cr\r", "\"cr\r\"");
	STR_IS(",", "\",\"");
}

static void test_num(void **state)
{
	(void)state;
	NUM_IS(5.0, "5");
	NUM_IS(0.0, "0");
	NUM_IS(-10.0, "-10");
	NUM_IS(92.345678, "92.345678");
	NUM_IS(11008.462738037109, "11008.4627");
	NUM_IS(123456.789, "123456.789"); /* what %.3f kept */
	NUM_IS(0.0000004, "4e-07");	  /* what %.6f lost */
	NUM_IS(0.1 + 0.2, "0.3");
	NUM_IS(NAN, "");
	NUM_IS(INFINITY, "");
	NUM_IS(-INFINITY, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_num),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
