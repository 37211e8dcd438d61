/* SPDX-License-Identifier: MIT */
/*
 * rdmabench report FILE.json... [-o report.html] (issue 43): one
 * self-contained HTML page from rdmabench's JSON files -- a run, a sweep,
 * several runs overlaid (regressions marked by compare.c's rule), an
 * --interval run's time series, --probe, --threads and rails, a matrix's
 * heat map.  The figures are inline SVG drawn by gnuplot's SVG terminal
 * (a child process, html_gp.c), each with a table of its numbers under
 * it; what to draw from which figure is the metric table's (.chart,
 * core/metrics.c).  Nothing in the page is fetched: no script, style,
 * font or image comes from anywhere but the page.
 *
 * html.c: the command line, the page and its header; html_gp.c: gnuplot
 * and the page's helpers; html_run.c: a run's charts; html_mx.c: a
 * matrix's heat map.
 *
 * Exit codes: 0 written, 1 a file could not be read or gnuplot failed,
 * 2 usage (an option, no file, a file that is not rdmabench JSON).
 */
#ifndef RB_HTML_H
#define RB_HTML_H

#include <stdio.h>

/* rb_report_main() - the `rdmabench report` subcommand; @argv[0] is its name. */
int rb_report_main(int argc, char **argv);

/* rb_report_list_options() - its options, as rb_list_options() prints them. */
void rb_report_list_options(FILE *f);

/* rb_report_usage() - report's --help, its options from the rows that parse them. */
void rb_report_usage(FILE *f);

#endif
