// SPDX-License-Identifier: MIT
/*
 * --help and --help-all, from the option table: each row's section, its
 * one-line brief and whether most runs need it (--help), or its whole
 * text (--help-all, then perftest's flags); wrapped to $COLUMNS, else 80.
 * The man page is written from the same rows (opts.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/opts_int.h"
#include "cli/opts_perftest.h"

#define WIDTH_MIN 40
#define WIDTH_MAX 1000
#define NAME_COL  30 /* a brief starts here */
#define TEXT_COL  8  /* --help-all: a row's text is indented so */

static const char *const section_title[RB_SEC_N] = {
	[RB_SEC_MEASURE] = "What to measure", [RB_SEC_SWEEP] = "Sweep axes, queues and completions",
	[RB_SEC_CONN] = "Connection",	      [RB_SEC_MEM] = "Memory and registration",
	[RB_SEC_PLACE] = "Placement",	      [RB_SEC_OUTPUT] = "Output",
	[RB_SEC_MATRIX] = "Matrix",	      [RB_SEC_GENERAL] = "General",
};

static const char *const pt_kind_word[] = {
	[RB_PT_IGNORED] = "accepted, no effect",
	[RB_PT_MAPPED] = "translated",
	[RB_PT_REFUSED] = "refused (exit 2)",
};

int rb_help_width(void)
{
	const char *c = getenv("COLUMNS");
	char *end;
	long w;

	if (!c || !*c)
		return 80;
	w = strtol(c, &end, 10);
	if (*end || w < WIDTH_MIN)
		return w > 0 && !*end ? WIDTH_MIN : 80;
	return w > WIDTH_MAX ? WIDTH_MAX : (int)w;
}

/*
 * @text from column @col (the cursor is there) to @width, words moved to
 * new lines indented to @indent; a word longer than a line stands alone.
 */
static void wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > indent && col + 1 + (int)word > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, word, f);
		col += (int)word;
		p += word;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

/*
 * The default a test's own help shows: its row's, where the table's text
 * covers every test ("2 (lat), 65536 (bw), 8 (atomic)"); NULL: the table's.
 */
static const char *row_default(const struct rb_opt *o, const struct rb_bench *b, char *buf,
			       size_t len)
{
	if (!b || !o->test_default)
		return NULL;
	o->test_default(b, buf, len);
	return buf;
}

static int head_of(const struct rb_opt *o, char *head, size_t len)
{
	const char *sep = o->argname ? " " : "", *arg = o->argname ? o->argname : "";

	if (o->sname)
		return snprintf(head, len, "  -%c, --%s%s%s", o->sname, o->lname, sep, arg);
	return snprintf(head, len, "      --%s%s%s", o->lname, sep, arg);
}

/* --help: the option and its brief, on one line where the width allows. */
static void brief_line(FILE *f, const struct rb_opt *o, int width)
{
	char head[80];
	int n = head_of(o, head, sizeof(head));

	fputs(head, f);
	if (n + 2 > NAME_COL) {
		fprintf(f, "\n%*s", NAME_COL, "");
		n = NAME_COL;
	} else {
		fprintf(f, "%*s", NAME_COL - n, "");
		n = NAME_COL;
	}
	wrap(f, o->brief, n, NAME_COL, width);
}

/* --help-all: the option, then its whole text and default, indented. */
static void full_entry(FILE *f, const struct rb_opt *o, const struct rb_bench *b, int width)
{
	char head[80], text[2048], buf[32];
	const char *def = row_default(o, b, buf, sizeof(buf));

	head_of(o, head, sizeof(head));
	fprintf(f, "%s\n%*s", head, TEXT_COL, "");
	def = def ? def : o->def;
	snprintf(text, sizeof(text), "%s%s%s%s", o->help, def ? " [default: " : "", def ? def : "",
		 def ? "]" : "");
	wrap(f, text, TEXT_COL, TEXT_COL, width);
}

static void usage_head(FILE *f, const char *cmd, unsigned int scope)
{
	if (scope & RB_S_MATRIX)
		fprintf(f, "usage: rdmabench matrix TEST [options]\n"
			   "       (each rank of a job: mpirun, srun, or --rank/--nranks)\n");
	else if (scope & RB_S_TEST)
		fprintf(f,
			"usage: rdmabench %s [options]         (server: waits for one client)\n"
			"       rdmabench %s [options] HOST    (client: measures against HOST)\n",
			cmd, cmd);
	else
		fprintf(f, "usage: rdmabench %s [options]\n", cmd);
}

static void perftest_flags(FILE *f, int width)
{
	char head[80], text[1024];
	size_t i;

	fprintf(f, "\nperftest's flags (taken under perftest's names and rdmabench's):\n");
	for (i = 0; i < rb_npt_flags; i++) {
		const struct rb_pt_flag *p = &rb_pt_flags[i];

		if (p->sname)
			snprintf(head, sizeof(head), "  -%c, --%s", p->sname, p->lname);
		else
			snprintf(head, sizeof(head), "      --%s", p->lname);
		fprintf(f, "%s\n%*s", head, TEXT_COL, "");
		snprintf(text, sizeof(text), "%s: %s", pt_kind_word[p->kind], p->says);
		wrap(f, text, TEXT_COL, TEXT_COL, width);
	}
}

/*
 * The rows of @rows (NULL: the tests' rows with those registered,
 * rb_opt_row(); of @scope, unless @own: a command's own table, all of its
 * rows apply) by section: the common ones' briefs, or (@all) every
 * one with its whole text.
 */
static void groups(FILE *f, const struct rb_opt *rows, size_t n, bool own, unsigned int scope,
		   const struct rb_bench *b, bool all)
{
	int width = rb_help_width(), sec;
	size_t i;

	for (sec = 0; sec < RB_SEC_N; sec++) {
		bool titled = false;

		for (i = 0; i < n; i++) {
			const struct rb_opt *o = rows ? &rows[i] : rb_opt_row(i);

			if (o->section != (enum rb_opt_section)sec ||
			    (!own && !rb_opt_applies(o, scope)) || (!all && !o->common))
				continue;
			if (!titled)
				fprintf(f, "\n%s:\n", section_title[sec]);
			titled = true;
			if (all)
				full_entry(f, o, b, width);
			else
				brief_line(f, o, width);
		}
	}
}

/* --help's last line: where the rest is. */
static void foot(FILE *f, const char *matrix, const char *cmd)
{
	char text[160];

	snprintf(text, sizeof(text),
		 "'rdmabench %s%s --help-all' lists every option; 'man rdmabench' explains "
		 "each.",
		 matrix, cmd);
	fputc('\n', f);
	wrap(f, text, 0, 0, rb_help_width());
}

void rb_usage(FILE *f, const char *cmd, unsigned int scope, bool all)
{
	usage_head(f, cmd, scope);
	groups(f, NULL, rb_opt_rows(), false, scope, rb_bench_find(cmd), all);
	if (all && (scope & RB_S_TEST))
		perftest_flags(f, rb_help_width());
	if (!all)
		foot(f, (scope & RB_S_MATRIX) && strcmp(cmd, "matrix") ? "matrix " : "", cmd);
}

void rb_opt_usage(FILE *f, const char *usage, const struct rb_opt_table *t, bool all)
{
	fputs(usage, f);
	groups(f, t->rows, t->n, true, 0, NULL, all);
	if (!all)
		foot(f, "", t->cmd);
}
