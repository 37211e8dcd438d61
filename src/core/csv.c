// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "core/csv.h"

void rb_csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void rb_csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, RB_CSV_NUM, v);
}
