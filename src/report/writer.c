// SPDX-License-Identifier: MIT
/*
 * Which writer a format is: above output.c's writers (table, CSV, JSON)
 * and out_perftest.c's (perftest's report, --output's one figure), which
 * uses output.c's helpers; so that output.c needs nothing of it.
 */
#include <string.h>

#include "report/out_perftest.h"

void rb_writer_init(struct rb_writer *w, enum rb_format fmt, FILE *f)
{
	w->ops = fmt == RB_FMT_VALUE	  ? &rb_value_writer
		 : fmt == RB_FMT_PERFTEST ? &rb_perftest_writer
					  : rb_std_writer_ops(fmt);
	w->f = f;
	w->doc = NULL;
	memset(&w->tally, 0, sizeof(w->tally));
}
