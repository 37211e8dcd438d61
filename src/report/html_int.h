/* SPDX-License-Identifier: MIT */
/*
 * `rdmabench report`'s parts (html.h): the page being written, gnuplot
 * and HTML helpers (html_gp.c), a run's charts (html_run.c) and a
 * matrix's (html_mx.c).
 */
#ifndef RB_HTML_INT_H
#define RB_HTML_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* One file given: a run (or a --threads run), or a matrix. */
struct h_doc {
	const char *path;
	char label[64]; /* its name without the folder and ".json" */
	json_t *doc;
	bool matrix;	    /* rdmabench matrix --json */
	bool perftest;	    /* perftest's --out_json, read by html_pt.c */
	size_t nmerged;	    /* perftest: the files folded into it (a size each) */
	json_t *regress;    /* against the first run: [{size,batch,signal,qps,tx_depth,metric}] */
	char cmp_note[512]; /* compare's verdict on it, or why it did not compare */
};

struct h_page {
	FILE *f; /* the HTML, in memory until written whole */
	int nplot, ntable;
	double tolerance; /* compare's, for the regressions marked */
	int ret;	  /* the first failure: -errno */
	char err[512];	  /* its message */
};

/* h_esc() - @s as HTML text or attribute value; NULL as "-". */
void h_esc(FILE *f, const char *s);

/* h_num() - a figure for the tables: "%.4g", "-" when not finite. */
void h_num(FILE *f, double v);

/* h_table_begin() - a numbered table of the page with @caption and the
 * @n column heads; rows follow, then h_table_end(). */
void h_table_begin(struct h_page *p, const char *caption, const char *const *cols, size_t n);
void h_table_end(struct h_page *p);

/* gnuplot's script for one figure, built in memory. */
struct h_gp {
	FILE *f;
	char *buf;
	size_t len;
	char title[256];
};

/* h_gp_begin() - start a figure's script: the SVG terminal, @w x @h, its title. */
int h_gp_begin(struct h_gp *g, const char *title, int w, int h);

/* h_gp_str() - @s as a gnuplot string (double quotes, escaped). */
void h_gp_str(FILE *f, const char *s);

/* h_gp_num() - a datablock cell: the number, or "?" (missing) when not finite. */
void h_gp_num(FILE *f, double v);

/*
 * h_gp_emit() - run gnuplot on @g's script and put its SVG into the page
 * as a figure with anchor @id (its ids made the figure's own); @g is
 * freed.  Returns 0, or -errno with p->err saying why (gnuplot missing,
 * failed: its first message).  RDMABENCH_GNUPLOT names another program.
 */
int h_gp_emit(struct h_page *p, struct h_gp *g, const char *id);

/* h_gp_abort() - free @g's script without drawing it. */
void h_gp_abort(struct h_gp *g);

/* h_color() - the @i-th of eight colours told apart by the colour-blind. */
const char *h_color(size_t i);

/* h_point_flags() - why point @pt is flagged, in words ("" when it is not). */
void h_point_flags(json_t *pt, char *buf, size_t len);

/* h_run() - a run's section: header, warnings, its charts by size
 * (unless @overlaid drew them), histograms, time series, threads, heat
 * maps (html_run.c, html_more.c). */
int h_run(struct h_page *p, struct h_doc *d, size_t idx, bool overlaid);

/* h_size_charts() - each chart of the metric table over the runs
 * @docs[0..n), against the message size (html_run.c). */
int h_size_charts(struct h_page *p, struct h_doc *docs, size_t n, const char *id);

/* h_extras() - a run's histograms, time series, threads and heat maps
 * (html_more.c). */
int h_extras(struct h_page *p, struct h_doc *d, const char *id);

/* h_heatmaps() - a sweep of batch and signal as heat maps, a size each,
 * --recommend's choice framed (html_heat.c). */
int h_heatmaps(struct h_page *p, struct h_doc *d, const char *id);

/* h_axes() - a point's size, batch, signal, qps, tx_depth; h_axes_text()
 * them as "64 B b4 s16 q2 t256". */
void h_axes(json_t *pt, long long *ax);
void h_axes_text(const long long *ax, char *buf, size_t len);

/* h_matrix() - a matrix's section (html_mx.c). */
int h_matrix(struct h_page *p, struct h_doc *d, size_t idx);

/* h_header() - a run's header: what ran, when, where, its warnings (html_head.c). */
void h_header(struct h_page *p, struct h_doc *d);

#endif
