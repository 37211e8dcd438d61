/* SPDX-License-Identifier: MIT */
/*
 * rdmabench --list-metrics: the metric table (core/metrics.c) as text, for
 * the tools outside the binary that draw its figures (scripts/plot, that
 * is rdmabench-plot): which CSV column and JSON member, its unit, which
 * way is better, and the chart that draws it.
 */
#ifndef RB_METRICS_LIST_H
#define RB_METRICS_LIST_H

#include <stdbool.h>
#include <stdio.h>

/* rb_metrics_list() - print the table to @f as TSV (@json false: a header
 * row, then one row per metric) or JSON; 0 or -errno. */
int rb_metrics_list(FILE *f, bool json);

/* rb_metrics_list_main() - `rdmabench --list-metrics [--format tsv|json]`,
 * @argv[0] "--list-metrics", its rows parsed by core's parser; an exit code. */
int rb_metrics_list_main(int argc, char **argv);

#endif
