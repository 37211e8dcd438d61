// SPDX-License-Identifier: MIT
/*
 * rdmabench report FILE.json... [-o report.html] (html.h): the command
 * line, the files, the comparison of each run with the first (compare.c's
 * rule, through its seen hook), and the page around the sections.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/atomic_file.h"
#include "core/rdmabench.h"
#include "core/metrics.h"
#include "core/opts_row.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/html_pt.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define MAX_FILES 64

static const char style[] = "body{font-family:sans-serif;margin:1.5em "
			    "auto;padding:0 1em;max-width:1100px;color:#222}"
			    "h1{font-size:1.6em}h2{border-bottom:1px solid #999;margin-top:2em}"
			    "figure{margin:1em 0;break-inside:avoid}figure "
			    "svg{width:100%;max-width:900px;"
			    "height:auto;display:block}figcaption{font-size:.9em;color:#444}"
			    "table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.85em}"
			    "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}"
			    "table.head td,table.head "
			    "th{text-align:left}caption{text-align:left;font-weight:bold}"
			    "td.regression,td.flag{background:#fdd;color:#700;text-align:left}"
			    ".warnings{color:#900}.ok{color:#070}code{white-space:pre-wrap}"
			    "@media print{body{max-width:none}section{break-before:page}"
			    "table.data{font-size:.7em}}";

static int usage_fail(const char *a, const char *b)
{
	fprintf(stderr, "rdmabench report: %s%s\n", a, b);
	return RB_EXIT_USAGE;
}

struct args {
	const char *out;
	double tol;
	int first; /* argv's first file */
};

/* report's command line, through its own option table (core/opts_row.h). */
struct report_line {
	char output[4096];
	char tolerance[64];
	uint8_t help;
};

#define RL(f) offsetof(struct report_line, f)

static const struct rb_opt report_rows[] = {
	{ .lname = "output",
	  .sname = 'o',
	  .type = RB_OPT_STR,
	  .off = RL(output),
	  .size = sizeof(((struct report_line *)0)->output),
	  .argname = "FILE",
	  .def = "report.html",
	  .help = "the page; - for stdout" },
	{ .lname = "tolerance",
	  .sname = 't',
	  .type = RB_OPT_STR,
	  .off = RL(tolerance),
	  .size = sizeof(((struct report_line *)0)->tolerance),
	  .argname = "PCT",
	  .def = "5%",
	  .help = "compare's tolerance for regressions" },
	RB_OPT_HELP_ROW(RL(help)),
};

static const struct rb_opt_table report_table = { "report", report_rows,
						  sizeof(report_rows) / sizeof(report_rows[0]) };

/* --help: what the page holds, the rows (rb_opt_help()), the exit status. */
void rb_report_usage(FILE *f)
{
	fputs("usage: rdmabench report FILE.json... [-o report.html] [--tolerance PCT]\n\n"
	      "One self-contained HTML page from rdmabench's JSON files (--json of a\n"
	      "test, a sweep, --interval, --probe, --threads; matrix --json): a header\n"
	      "(hosts, devices, PCIe links, placement, kernel, rdma-core, the command\n"
	      "line, warnings), each chart of the metric table against the message size\n"
	      "with the line rate and PCIe ceilings as references and flagged points\n"
	      "marked, histograms, time series, threads, a matrix's heat map (tiled\n"
	      "above 64 ranks) and worst pairs; a table of numbers under every figure.\n"
	      "Several runs are overlaid, each compared with the first of its test by\n"
	      "rdmabench compare's rule, its regressions marked.  perftest's --out_json\n"
	      "files are read too (one size a file; the files of one test and settings\n"
	      "make one run).  Figures are inline SVG drawn by gnuplot; the page\n"
	      "fetches nothing.\n\n",
	      f);
	rb_opt_help(f, &report_table, 23);
	fputs("\nExit status: 0 written (its path on stdout), 1 a file could not be read\n"
	      "or gnuplot failed, 2 a usage error or a file that is not rdmabench JSON\n"
	      "or perftest's --out_json.\n",
	      f);
}

void rb_report_list_options(FILE *f)
{
	rb_opt_list(f, &report_table);
}

/* The options; 0 to go on, else the exit code (-1: --help said all). */
static int parse(int argc, char **argv, struct args *a)
{
	static struct report_line l; /* a->out points into it */
	uint8_t given[sizeof(report_rows) / sizeof(report_rows[0])];
	char err[256];

	memset(&l, 0, sizeof(l));
	a->first = rb_opt_parse(&report_table, &l, given, argc, argv, err, sizeof(err));
	if (l.help)
		return -1;
	if (a->first < 0)
		return usage_fail(err, "");
	if (given[0] && !l.output[0])
		return usage_fail("--output: an empty path (give a file, or - for stdout)", "");
	if (given[0])
		a->out = l.output;
	if (given[1] && rb_compare_tolerance_parse(l.tolerance, &a->tol, err, sizeof(err)))
		return usage_fail(err, "");
	if (a->first >= argc)
		return usage_fail("no file: give one or more JSON files that rdmabench wrote "
				  "(--json)",
				  "");
	if (argc - a->first > MAX_FILES)
		return usage_fail("too many files: at most 64 in one report", "");
	return 0;
}

static void base_label(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	snprintf(buf, len, "%s", b ? b + 1 : path);
	n = strlen(buf);
	if (n > 5 && !strcmp(buf + n - 5, ".json"))
		buf[n - 5] = '\0';
}

/* Read @d->path; its exit code on failure, said on stderr. */
static int load(struct h_doc *d)
{
	json_error_t je;
	json_t *tool;

	errno = 0;
	d->doc = json_load_file(d->path, 0, &je);
	tool = json_object_get(d->doc, "tool");
	if ((!d->doc || !tool) && h_pt_is(d->path)) {
		char why[256];

		json_decref(d->doc);
		if (h_pt_load(d->path, &d->doc, why, sizeof(why))) {
			fprintf(stderr, "rdmabench report: %s: %s\n", d->path, why);
			return RB_EXIT_USAGE;
		}
		d->perftest = true;
		base_label(d->path, d->label, sizeof(d->label));
		return 0;
	}
	if (!d->doc && json_error_code(&je) == json_error_cannot_open_file) {
		fprintf(stderr, "rdmabench report: %s: cannot read it: %s\n", d->path,
			errno ? strerror(errno) : je.text);
		return RB_EXIT_FAIL;
	}
	if (!d->doc) {
		fprintf(stderr,
			"rdmabench report: %s, line %d: not valid JSON (%s); give a file "
			"that rdmabench --json wrote\n",
			d->path, je.line, je.text);
		return RB_EXIT_USAGE;
	}
	d->matrix = json_is_array(json_object_get(d->doc, "pairs")) &&
		    json_is_object(json_object_get(d->doc, "matrix"));
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "rdmabench") ||
	    (!d->matrix && !json_is_array(json_object_get(d->doc, "results")))) {
		fprintf(stderr,
			"rdmabench report: %s: not rdmabench JSON (no \"tool\": "
			"\"rdmabench\" with results or a matrix's pairs); give a file of "
			"--json or matrix --json\n",
			d->path);
		return RB_EXIT_USAGE;
	}
	base_label(d->path, d->label, sizeof(d->label));
	return 0;
}

static void seen(void *arg, const json_int_t *k, const struct rb_metric *m, double b, double n,
		 enum rb_cmp_verdict v)
{
	struct h_doc *d = arg;

	(void)b;
	(void)n;
	if (v != RB_CMP_V_WORSE)
		return;
	json_array_append_new(d->regress, json_pack("{sI sI sI sI sI ss}", "size", k[0], "batch",
						    k[1], "signal", k[2], "qps", k[3], "tx_depth",
						    k[4], "metric", m->name));
}

/* Run @d against @base as rdmabench compare would; its verdict in d->cmp_note. */
static void compare_with(struct h_doc *base, struct h_doc *d, double tol)
{
	struct rb_compare_opts o;
	char err[400], *buf = NULL;
	size_t len = 0;
	FILE *sink = open_memstream(&buf, &len);
	int ret;

	d->regress = json_array();
	if (!sink || !d->regress) {
		snprintf(d->cmp_note, sizeof(d->cmp_note), "Not compared: no memory");
		if (sink)
			fclose(sink);
		free(buf);
		return;
	}
	rb_compare_opts_init(&o);
	o.tolerance = tol;
	o.base_name = base->label;
	o.new_name = d->label;
	o.seen = seen;
	o.seen_arg = d;
	ret = rb_compare(base->doc, d->doc, &o, sink, err, sizeof(err));
	fclose(sink);
	free(buf);
	if (ret == RB_CMP_INCOMPARABLE)
		snprintf(d->cmp_note, sizeof(d->cmp_note),
			 "Not compared with %s (rdmabench compare's rule): %s", base->label, err);
	else
		snprintf(d->cmp_note, sizeof(d->cmp_note),
			 "Against %s (rdmabench compare, tolerance %g%%): %zu regression(s), "
			 "marked "
			 "on the plots and in the tables.",
			 base->label, tol * 100, json_array_size(d->regress));
}

static void page_head(struct h_page *p, struct h_doc *docs, size_t n)
{
	char when[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(p->f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>rdmabench report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>rdmabench report</h1>\n<p class=\"made\">Made by rdmabench %s at %s from ",
		style, PACKAGE_VERSION, when);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", p->f);
		fprintf(p->f, "<a href=\"#%s%zu\">", docs[i].matrix ? "matrix" : "run", i);
		h_esc(p->f, docs[i].path);
		fputs("</a>", p->f);
	}
	fputs(".</p>\n", p->f);
}

/* Several runs: their charts overlaid, each compared with the first. */
static int overlay(struct h_page *p, struct h_doc *docs, size_t n)
{
	struct h_doc runs[MAX_FILES];
	size_t i, nr = 0;

	for (i = 0; i < n; i++)
		if (!docs[i].matrix)
			runs[nr++] = docs[i];
	if (nr < 2)
		return 0;
	fputs("<section class=\"overlay\" id=\"overlay\">\n<h2>The runs overlaid</h2>\n<ul>\n",
	      p->f);
	for (i = 1; i < nr; i++) {
		if (!runs[i].cmp_note[0])
			continue;
		fputs("<li>", p->f);
		h_esc(p->f, runs[i].cmp_note);
		fputs("</li>\n", p->f);
	}
	fputs("</ul>\n", p->f);
	i = (size_t)h_size_charts(p, runs, nr, "overlay");
	fputs("</section>\n", p->f);
	return (int)i;
}

/* The first run before @i of @i's test, its base for compare; NULL: none. */
static struct h_doc *base_of(struct h_doc *docs, size_t i)
{
	const char *t = json_string_value(json_object_get(docs[i].doc, "test")), *u;
	size_t j;

	if (docs[i].perftest) /* rdmabench compare takes rdmabench's files */
		return NULL;
	for (j = 0; j < i; j++) {
		u = json_string_value(json_object_get(docs[j].doc, "test"));
		if (!docs[j].matrix && !docs[j].perftest && t && u && !strcmp(t, u))
			return &docs[j];
	}
	return NULL;
}

static int build(struct h_page *p, struct h_doc *docs, size_t n)
{
	struct h_doc *base;
	size_t i, nr = 0;
	int ret;

	for (i = 0; i < n; i++) {
		if (docs[i].matrix)
			continue;
		nr++;
		base = base_of(docs, i);
		if (base)
			compare_with(base, &docs[i], p->tolerance);
	}
	page_head(p, docs, n);
	ret = overlay(p, docs, n);
	for (i = 0; i < n && !ret; i++)
		ret = docs[i].matrix ? h_matrix(p, &docs[i], i) : h_run(p, &docs[i], i, nr > 1);
	fputs("</body>\n</html>\n", p->f);
	return ret;
}

static int write_page(const char *out, const char *buf, size_t len)
{
	struct rb_afile af;
	FILE *f;
	int ret;

	if (!strcmp(out, "-"))
		return fwrite(buf, 1, len, stdout) == len && !fflush(stdout) ? 0 : -EIO;
	ret = rb_afile_open(&af, out, &f);
	if (ret)
		return ret;
	ret = fwrite(buf, 1, len, f) == len ? 0 : -EIO;
	return rb_afile_close(&af, f, ret);
}

static int report(struct h_doc *docs, size_t n, const struct args *a)
{
	struct h_page p = { .tolerance = a->tol };
	char *buf = NULL;
	size_t len = 0;
	int ret;

	p.f = open_memstream(&buf, &len);
	if (!p.f)
		return RB_EXIT_FAIL;
	ret = build(&p, docs, n);
	fclose(p.f);
	if (ret) {
		fprintf(stderr, "rdmabench report: %s\n", p.err[0] ? p.err : strerror(-ret));
		free(buf);
		return RB_EXIT_FAIL;
	}
	ret = write_page(a->out, buf, len);
	free(buf);
	if (ret) {
		fprintf(stderr, "rdmabench report: %s: cannot write it: %s\n", a->out,
			strerror(-ret));
		return RB_EXIT_FAIL;
	}
	if (strcmp(a->out, "-"))
		printf("%s\n", a->out);
	fprintf(stderr, "rdmabench report: %s: %d figure(s), %d table(s), %zu bytes\n", a->out,
		p.nplot, p.ntable, len);
	return RB_EXIT_OK;
}

int rb_report_main(int argc, char **argv)
{
	struct args a = { .out = "report.html", .tol = RB_CMP_DEFAULT_TOL };
	struct h_doc docs[MAX_FILES];
	size_t i, n;
	int ret = parse(argc, argv, &a);

	if (ret) {
		if (ret < 0)
			rb_report_usage(stdout);
		return ret < 0 ? RB_EXIT_OK : ret;
	}
	n = (size_t)(argc - a.first);
	memset(docs, 0, sizeof(docs));
	for (i = 0; i < n && !ret; i++) {
		docs[i].path = argv[a.first + (int)i];
		ret = load(&docs[i]);
	}
	if (!ret)
		n = h_pt_merge(docs, n);
	if (!ret)
		ret = report(docs, n, &a);
	for (i = 0; i < n; i++) {
		json_decref(docs[i].doc);
		json_decref(docs[i].regress);
	}
	return ret;
}
