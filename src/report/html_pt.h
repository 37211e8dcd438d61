/* SPDX-License-Identifier: MIT */
/*
 * `rdmabench report` on perftest's --out_json files (html_pt.c): read as
 * runs of rdmabench's shape ("tool": "perftest", its test_info kept as
 * "perftest_info"), so that the charts draw them beside rdmabench's.
 */
#ifndef RB_HTML_PT_H
#define RB_HTML_PT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/html_int.h"

/* h_pt_is() - whether @path looks like perftest's --out_json (test_info, results). */
bool h_pt_is(const char *path);

/* h_pt_load() - @path read into *@doc; 0, or -errno with @why saying why. */
int h_pt_load(const char *path, json_t **doc, char *why, size_t len);

/* h_pt_merge() - fold each perftest run into the first of the same test and
 * settings (one size a file); the number of @docs left. */
size_t h_pt_merge(struct h_doc *docs, size_t n);

/* h_pt_header() - a perftest run's header, and what its file lacks. */
void h_pt_header(struct h_page *p, struct h_doc *d);

#endif
