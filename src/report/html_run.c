// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a run's charts against the message size, one per
 * chart of the metric table (core/metrics.c's .chart), over one run or
 * several overlaid; flagged points and compare's regressions marked, the
 * port's line rate and both sides' PCIe ceilings drawn as references, a
 * table of the numbers under each.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "report/compare.h"
#include "report/html_int.h"

/* Lines drawn in one chart; the rest are in its table only (said so). */
#define MAX_DRAWN 12

static const char *const axis_names[] = { "size", "batch", "signal", "qps", "tx_depth" };

void h_axes(json_t *pt, long long *ax)
{
	size_t i;

	for (i = 0; i < 5; i++)
		ax[i] = json_integer_value(json_object_get(pt, axis_names[i]));
}

void h_axes_text(const long long *ax, char *buf, size_t len)
{
	snprintf(buf, len, "%lld B b%lld s%lld q%lld t%lld", ax[0], ax[1], ax[2], ax[3], ax[4]);
}

/* One line group: the points of one run with one batch, signal, qps, tx_depth. */
struct series {
	size_t doc;
	long long ax[5]; /* ax[0] unused */
	json_t **pts;	 /* sorted by size, the first of equal sizes */
	size_t n;
	char label[128];
};

struct chart {
	struct h_page *p;
	struct h_doc *docs;
	size_t ndocs;
	enum rb_chart c;
	const struct rb_metric *m[RB_METRICS_MAX];
	size_t nm;
	struct series *s;
	size_t ns;
};

static bool same_combo(const long long *a, const long long *b)
{
	return !memcmp(a + 1, b + 1, 4 * sizeof(*a));
}

static int by_size(const void *a, const void *b)
{
	long long x = json_integer_value(json_object_get(*(json_t *const *)a, "size"));
	long long y = json_integer_value(json_object_get(*(json_t *const *)b, "size"));

	return (x > y) - (x < y);
}

/* The series of run @di: its combos in the order first measured. */
static int add_series(struct chart *c, size_t di)
{
	json_t *res = json_object_get(c->docs[di].doc, "results");
	size_t i, j, first = c->ns;
	long long ax[5];
	struct series *s;

	for (i = 0; i < json_array_size(res); i++) {
		h_axes(json_array_get(res, i), ax);
		if (ax[0] <= 0) /* no size: not a point (a log axis has no 0) */
			continue;
		for (j = first; j < c->ns && !same_combo(c->s[j].ax, ax); j++)
			;
		if (j == c->ns) {
			s = realloc(c->s, (c->ns + 1) * sizeof(*s));
			if (!s)
				return -ENOMEM;
			c->s = s;
			memset(&s[j], 0, sizeof(*s));
			s[j].doc = di;
			memcpy(s[j].ax, ax, sizeof(ax));
			c->ns++;
		}
		s = &c->s[j];
		s->pts = realloc(s->pts, (s->n + 1) * sizeof(*s->pts));
		if (!s->pts)
			return -ENOMEM;
		s->pts[s->n++] = json_array_get(res, i);
	}
	for (j = first; j < c->ns; j++) {
		s = &c->s[j];
		qsort(s->pts, s->n, sizeof(*s->pts), by_size);
		for (i = 1; i < s->n;
		     i++) /* equal sizes: the first measured (qsort is not stable) */
			if (!by_size(&s->pts[i - 1], &s->pts[i]))
				memmove(&s->pts[i], &s->pts[i + 1], (--s->n - i) * sizeof(*s->pts)),
					i--;
		snprintf(s->label, sizeof(s->label), "%s%sb%lld s%lld q%lld t%lld",
			 c->ndocs > 1 ? c->docs[di].label : "", c->ndocs > 1 ? " " : "", s->ax[1],
			 s->ax[2], s->ax[3], s->ax[4]);
		if (c->ns - first == 1) /* one combo: the run's name, or nothing */
			snprintf(s->label, sizeof(s->label), "%s",
				 c->ndocs > 1 ? c->docs[di].label : "");
	}
	return 0;
}

static void free_chart(struct chart *c)
{
	size_t i;

	for (i = 0; i < c->ns; i++)
		free(c->s[i].pts);
	free(c->s);
}

/* Whether series @s has a figure of the chart's metrics. */
static bool has_figure(const struct chart *c, const struct series *s)
{
	size_t j, k;

	for (j = 0; j < s->n; j++)
		for (k = 0; k < c->nm; k++)
			if (isfinite(rb_compare_point_value(s->pts[j], c->m[k])))
				return true;
	return false;
}

/* Drop the series without a figure here (a bandwidth run in the latency chart). */
static void drop_empty(struct chart *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->ns; i++) {
		if (has_figure(c, &c->s[i]))
			c->s[n++] = c->s[i];
		else
			free(c->s[i].pts);
	}
	c->ns = n;
}

/* The chart's metrics that some point has. */
static void pick_metrics(struct chart *c)
{
	size_t i, j, k;

	for (i = 0; i < rb_nmetrics; i++) {
		if (rb_metrics[i].chart != c->c)
			continue;
		for (j = 0; j < c->ns; j++)
			for (k = 0; k < c->s[j].n; k++)
				if (isfinite(
					    rb_compare_point_value(c->s[j].pts[k], &rb_metrics[i])))
					goto has;
		continue;
has:
		c->m[c->nm++] = &rb_metrics[i];
	}
}

/* Whether compare called metric @m of point @pt of @d a regression. */
static bool regressed(struct h_doc *d, json_t *pt, const struct rb_metric *m)
{
	long long ax[5], rx[5];
	json_t *r;
	size_t i;

	h_axes(pt, ax);
	json_array_foreach(d->regress, i, r)
	{
		h_axes(r, rx);
		if (!memcmp(ax, rx, sizeof(ax)) &&
		    !strcmp(json_string_value(json_object_get(r, "metric")) ?: "", m->name))
			return true;
	}
	return false;
}

static void datablocks(struct chart *c, FILE *f, size_t *nflag, size_t *nreg)
{
	char fl[512];
	size_t i, j, k;
	double v;

	for (i = 0; i < c->ns && i < MAX_DRAWN; i++) {
		fprintf(f, "$s%zu << EOD\n", i);
		for (j = 0; j < c->s[i].n; j++) {
			fprintf(f, "%lld",
				(long long)json_integer_value(
					json_object_get(c->s[i].pts[j], "size")));
			for (k = 0; k < c->nm; k++)
				h_gp_num(f, rb_compare_point_value(c->s[i].pts[j], c->m[k]));
			fputc('\n', f);
		}
		fputs("EOD\n", f);
	}
	/* Flagged points at their first figure; regressions at theirs. */
	fputs("$flag << EOD\n", f);
	for (i = 0; i < c->ns && i < MAX_DRAWN; i++)
		for (j = 0; j < c->s[i].n; j++) {
			h_point_flags(c->s[i].pts[j], fl, sizeof(fl));
			for (k = 0; fl[0] && k < c->nm; k++) {
				v = rb_compare_point_value(c->s[i].pts[j], c->m[k]);
				if (!isfinite(v))
					continue;
				fprintf(f, "%lld %.9g\n",
					(long long)json_integer_value(
						json_object_get(c->s[i].pts[j], "size")),
					v);
				(*nflag)++;
				break;
			}
		}
	fputs("EOD\n$reg << EOD\n", f);
	for (i = 0; i < c->ns && i < MAX_DRAWN; i++)
		for (j = 0; j < c->s[i].n; j++)
			for (k = 0; k < c->nm; k++) {
				if (!regressed(&c->docs[c->s[i].doc], c->s[i].pts[j], c->m[k]))
					continue;
				fprintf(f, "%lld %.9g\n",
					(long long)json_integer_value(
						json_object_get(c->s[i].pts[j], "size")),
					rb_compare_point_value(c->s[i].pts[j], c->m[k]));
				(*nreg)++;
			}
	fputs("EOD\n", f);
}

/* Each drawn figure's hover text: "SERIES METRIC 1.23 Gb/s at 4096 B". */
static void hover_block(struct chart *c, FILE *f)
{
	size_t i, j, k;
	char t[256];
	long long sz;
	double v;

	fputs("$hover << EOD\n", f);
	for (i = 0; i < c->ns && i < MAX_DRAWN; i++)
		for (j = 0; j < c->s[i].n; j++)
			for (k = 0; k < c->nm; k++) {
				v = rb_compare_point_value(c->s[i].pts[j], c->m[k]);
				sz = json_integer_value(json_object_get(c->s[i].pts[j], "size"));
				if (!isfinite(v))
					continue;
				snprintf(t, sizeof(t), "%s%s%s %.4g %s at %lld B", c->s[i].label,
					 c->s[i].label[0] ? " " : "", c->m[k]->name, v,
					 c->m[k]->unit, sz);
				fprintf(f, "%lld %.9g ", sz, v);
				h_gp_str(f, t);
				fputc('\n', f);
			}
	fputs("EOD\n", f);
}

/* @r as a reference line titled @what, unless drawn already (in @seen). */
static void reference(FILE *f, double r, const char *what, const char *dash, double *seen,
		      size_t *n)
{
	size_t j;

	for (j = 0; j < *n && seen[j] != r; j++)
		;
	if (!(r > 0) || j < *n || *n >= 48)
		return;
	seen[(*n)++] = r;
	fprintf(f, ", %.9g with lines dt %s lw 2 lc rgb \"#666666\" title \"%s %.4g Gb/s\"", r,
		dash, what, r);
}

/* @side's (device, peer_fingerprint) pcie.ceiling_gbps in @doc; 0 none. */
static double ceiling(json_t *doc, const char *side)
{
	json_t *k = json_object_get(json_object_get(doc, side), "pcie");

	return json_number_value(json_object_get(k, "ceiling_gbps"));
}

/* The line rates of the runs drawn, and both sides' PCIe ceilings where
 * the file has them (device.pcie, peer_fingerprint.pcie), once each, as
 * references. */
static void references(struct chart *c, FILE *f)
{
	double seen[48];
	json_t *doc;
	size_t i, n = 0;

	if (c->c != RB_CHART_BW)
		return;
	for (i = 0; i < c->ndocs; i++) {
		doc = c->docs[i].doc;
		reference(f, json_number_value(json_object_get(doc, "link_gbps")), "line rate", "2",
			  seen, &n);
		reference(f, ceiling(doc, "device"), "PCIe ceiling", "3", seen, &n);
		reference(f, ceiling(doc, "peer_fingerprint"), "peer's PCIe ceiling", "3", seen,
			  &n);
	}
}

static void plot_line(struct chart *c, FILE *f, size_t i, size_t k, bool *first)
{
	char t[192];

	snprintf(t, sizeof(t), "%s%s%s", c->s[i].label, c->s[i].label[0] ? " " : "", c->m[k]->name);
	fprintf(f,
		"%s$s%zu using 1:%zu with linespoints lw 1.5 pt 7 ps 0.6 dt %zu lc rgb \"%s\" "
		"title ",
		*first ? "plot " : ", ", i, k + 2, k % 5 + 1, h_color(i));
	h_gp_str(f, t);
	*first = false;
}

/* Whether rows @a and @b are figures of one summary ("lat_p50_us" and
 * "lat_p99_us"; not "loaded_p99_us" and "idle_p50_us"). */
static bool one_summary(const struct rb_metric *a, const struct rb_metric *b)
{
	size_t n = strcspn(a->name, "_");

	return n == strcspn(b->name, "_") && !strncmp(a->name, b->name, n);
}

/* Percentile bands: between each latency figure and the next of its
 * summary, the first three series only (more would hide each other). */
static void bands(struct chart *c, FILE *f, bool *first)
{
	size_t i, k;

	if (c->c != RB_CHART_LAT && c->c != RB_CHART_PROBE && c->c != RB_CHART_WRLAT)
		return;
	for (i = 0; i < c->ns && i < 3; i++)
		for (k = 0; k + 1 < c->nm; k++) {
			if (!one_summary(c->m[k], c->m[k + 1]))
				continue;
			fprintf(f,
				"%s$s%zu using 1:%zu:%zu with filledcurves fs transparent solid "
				"0.12 noborder lc rgb \"%s\" notitle",
				*first ? "plot " : ", ", i, k + 2, k + 3, h_color(i));
			*first = false;
		}
}

static void script(struct chart *c, struct h_gp *g)
{
	size_t i, k, nflag = 0, nreg = 0;
	bool first = true;

	/* 64, 1ki, 1Mi: sizes by powers of two, as the table's 1K, 1M */
	fprintf(g->f, "set logscale x 2\nset format x \"%%.0b%%B\"\nset xlabel \"message size "
		      "(bytes)\"\nset offsets 0, 0, graph 0.06, 0\nset ylabel ");
	h_gp_str(g->f, c->m[0]->unit);
	fputc('\n', g->f);
	if (rb_charts[c->c].logy)
		fputs("set logscale y 10\n", g->f);
	datablocks(c, g->f, &nflag, &nreg);
	hover_block(c, g->f);
	bands(c, g->f, &first);
	for (i = 0; i < c->ns && i < MAX_DRAWN; i++)
		for (k = 0; k < c->nm; k++)
			plot_line(c, g->f, i, k, &first);
	references(c, g->f);
	fputs(", $hover using 1:2:3 with labels hypertext point pt 7 ps 1.2 lc rgb \"#FF000000\" "
	      "notitle",
	      g->f);
	if (nflag)
		fputs(", $flag using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb \"#d00000\" "
		      "title \"flagged (reason in the table)\"",
		      g->f);
	if (nreg)
		fputs(", $reg using 1:2 with points pt 4 ps 2.6 lw 2 lc rgb \"#7a0000\" "
		      "title \"regression (rdmabench compare's rule)\"",
		      g->f);
	fputc('\n', g->f);
}

static void table_row(struct chart *c, struct series *s, json_t *pt)
{
	FILE *f = c->p->f;
	char fl[512] = "";
	long long a[5];
	size_t k;
	bool reg;

	h_axes(pt, a);
	h_point_flags(pt, fl, sizeof(fl));
	fputs("<tr>", f);
	if (c->ndocs > 1) {
		fputs("<td>", f);
		h_esc(f, c->docs[s->doc].label);
		fputs("</td>", f);
	}
	for (k = 0; k < 5; k++)
		fprintf(f, "<td>%lld</td>", a[k]);
	for (k = 0; k < c->nm; k++) {
		reg = regressed(&c->docs[s->doc], pt, c->m[k]);
		fprintf(f, "<td%s>", reg ? " class=\"regression\" title=\"regression\"" : "");
		h_num(f, rb_compare_point_value(pt, c->m[k]));
		fputs(reg ? " REGRESSION</td>" : "</td>", f);
	}
	fprintf(f, "<td%s>", fl[0] ? " class=\"flag\"" : "");
	h_esc(f, fl);
	fputs("</td></tr>\n", f);
}

static void table(struct chart *c)
{
	const char *cols[8 + RB_METRICS_MAX];
	char heads[RB_METRICS_MAX][64], cap[256];
	size_t i, j, n = 0;

	if (c->ndocs > 1)
		cols[n++] = "file";
	for (i = 0; i < 5; i++)
		cols[n++] = axis_names[i];
	for (i = 0; i < c->nm; i++) {
		snprintf(heads[i], sizeof(heads[i]), "%s (%s)", c->m[i]->name, c->m[i]->unit);
		cols[n++] = heads[i];
	}
	cols[n++] = "flagged";
	snprintf(cap, sizeof(cap), "%s: the numbers%s", rb_charts[c->c].title,
		 c->ns > MAX_DRAWN ? " (every series; the plot draws the first 12)" : "");
	h_table_begin(c->p, cap, cols, n);
	for (i = 0; i < c->ns; i++)
		for (j = 0; j < c->s[i].n; j++)
			table_row(c, &c->s[i], c->s[i].pts[j]);
	h_table_end(c->p);
}

static int one_chart(struct h_page *p, struct h_doc *docs, size_t n, enum rb_chart ch,
		     const char *id)
{
	struct chart c = { .p = p, .docs = docs, .ndocs = n, .c = ch };
	char fid[96];
	struct h_gp g;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = add_series(&c, i);
	if (!ret)
		pick_metrics(&c);
	if (!ret)
		drop_empty(&c);
	if (ret || !c.nm)
		goto out;
	ret = h_gp_begin(&g, rb_charts[ch].title, 820, 420);
	if (ret)
		goto out;
	script(&c, &g);
	snprintf(fid, sizeof(fid), "%s-%s", id, rb_charts[ch].name);
	ret = h_gp_emit(p, &g, fid);
	if (!ret)
		table(&c);
out:
	free_chart(&c);
	return ret;
}

int h_size_charts(struct h_page *p, struct h_doc *docs, size_t n, const char *id)
{
	int c, ret = 0;

	for (c = RB_CHART_NONE + 1; c < RB_CHART_COUNT && !ret; c++)
		ret = one_chart(p, docs, n, (enum rb_chart)c, id);
	return ret;
}

int h_run(struct h_page *p, struct h_doc *d, size_t idx, bool overlaid)
{
	char id[32];
	int ret = 0;

	snprintf(id, sizeof(id), "run%zu", idx);
	fprintf(p->f, "<section class=\"run\" id=\"%s\">\n<h2>", id);
	h_esc(p->f, d->label);
	fputs("</h2>\n", p->f);
	h_header(p, d);
	if (d->cmp_note[0]) {
		fputs("<p class=\"compare\">", p->f);
		h_esc(p->f, d->cmp_note);
		fputs("</p>\n", p->f);
	}
	if (!overlaid)
		ret = h_size_charts(p, d, 1, id);
	if (!ret)
		ret = h_extras(p, d, id);
	fputs("</section>\n", p->f);
	return ret;
}
