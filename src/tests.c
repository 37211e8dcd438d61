// SPDX-License-Identifier: MIT
#include <string.h>

#include "tests.h"

const struct rb_test *const rb_tests[] = {
	&rb_test_send_lat,   &rb_test_send_bw,	 &rb_test_write_lat,
	&rb_test_write_bw,   &rb_test_read_lat,	 &rb_test_read_bw,
	&rb_test_atomic_lat, &rb_test_atomic_bw, NULL,
};

const struct rb_test *rb_test_find(const char *name)
{
	size_t i;

	for (i = 0; rb_tests[i]; i++)
		if (!strcmp(rb_tests[i]->name, name))
			return rb_tests[i];
	return NULL;
}

const struct rb_test *rb_test_of_bit(unsigned int bit)
{
	size_t i;

	for (i = 0; rb_tests[i]; i++)
		if (rb_tests[i]->bit == bit)
			return rb_tests[i];
	return NULL;
}
