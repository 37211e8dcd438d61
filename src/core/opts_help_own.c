// SPDX-License-Identifier: MIT
/*
 * A command's own options in its --help (compare's, doctor's): each row's
 * name, argument, text and default, from the rows that parse them
 * (core/opts_row.h's struct rb_opt_table), so that the help says what
 * the parser takes.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "core/opts_row.h"

#define HELP_WIDTH 79

/* @text from column @at (the cursor's) on, wrapped at words under column @col. */
static void wrap(FILE *f, const char *text, int at, int col)
{
	const char *p = text;
	int n;

	while (*p) {
		n = (int)strcspn(p, " ");
		if (at > col && at + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", n, p);
		at += n;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

void rb_opt_help(FILE *f, const struct rb_opt_table *t, int col)
{
	char head[96], text[1024];
	const struct rb_opt *o;
	size_t i;
	int n;

	for (i = 0; i < t->n; i++) {
		o = &t->rows[i];
		if (o->sname)
			n = snprintf(head, sizeof(head), "  -%c, --%s", o->sname, o->lname);
		else
			n = snprintf(head, sizeof(head), "      --%s", o->lname);
		if (o->argname)
			n += snprintf(head + n, sizeof(head) - (size_t)n, " %s", o->argname);
		snprintf(text, sizeof(text), "%s%s%s%s", o->help ? o->help : "",
			 o->def ? " (default: " : "", o->def ? o->def : "", o->def ? ")" : "");
		if (n + 2 > col)
			fprintf(f, "%s\n%*s", head, col, "");
		else
			fprintf(f, "%-*s", col, head);
		wrap(f, text, col, col);
	}
}
