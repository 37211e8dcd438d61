// SPDX-License-Identifier: MIT
/* What compare's tests share (compare_fx.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "report/compare.h"
#include "compare_fx.h"

int vs_tcp_text(json_t *rdma, json_t *tcp, char **text, size_t *len, char *err, size_t errlen)
{
	FILE *f;
	int ret;

	free(*text);
	*text = NULL;
	f = open_memstream(text, len);
	assert_non_null(f);
	err[0] = '\0';
	ret = rb_compare_vs_tcp(rdma, tcp, f, err, errlen);
	fclose(f);
	return ret;
}
