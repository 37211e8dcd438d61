// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a sweep of two axes drawn as heat maps -- batch (-l)
 * and signal (-Q) when both were swept, else the first two of batch,
 * signal, qps (-q) and tx_depth (-t) that were -- one per size and value
 * of the other axes, of the figure --recommend judges by (the message
 * rate, or a latency test's p50), --recommend's choice framed.  The
 * figure is the metric table's: the first row of the rate chart a point
 * has, else the latency chart's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "report/compare.h"
#include "report/html_int.h"

#define MAX_MAPS 8 /* maps drawn */
#define MAX_AXIS 32

/* The axes of h_axes(), by index; 0 is the size. */
static const char *const names[] = { "size", "batch", "signal", "qps", "tx_depth" };
static const char *const flags[] = { "-s", "-l", "-Q", "-q", "-t" };

struct grid {
	int ix, iy;		  /* the axes across and up */
	long long v[5][MAX_AXIS]; /* each axis's values, sorted */
	size_t n[5];
};

static void add_value(long long *v, size_t *n, long long x)
{
	size_t i, j;

	for (i = 0; i < *n && v[i] < x; i++)
		;
	if ((i < *n && v[i] == x) || *n == MAX_AXIS)
		return;
	for (j = *n; j > i; j--)
		v[j] = v[j - 1];
	v[i] = x;
	(*n)++;
}

static size_t index_of(const struct grid *g, int axis, long long x)
{
	size_t i;

	for (i = 0; i < g->n[axis] && g->v[axis][i] != x; i++)
		;
	return i;
}

/* The figure the maps show: the rate chart's first row a point has, else the latency one's. */
static const struct rb_metric *figure(json_t *res)
{
	static const enum rb_chart order[] = { RB_CHART_RATE, RB_CHART_LAT };
	size_t o, i, k;

	for (o = 0; o < 2; o++)
		for (i = 0; i < rb_nmetrics; i++)
			for (k = 0; rb_metrics[i].chart == order[o] && k < json_array_size(res);
			     k++)
				if (isfinite(rb_compare_point_value(json_array_get(res, k),
								    &rb_metrics[i])))
					return &rb_metrics[i];
	return NULL;
}

/* Whether @a and @b belong to one map: equal but on the two axes drawn. */
static bool same_map(const struct grid *g, const long long *a, const long long *b)
{
	int i;

	for (i = 0; i < 5; i++)
		if (i != g->ix && i != g->iy && a[i] != b[i])
			return false;
	return true;
}

/* --recommend's choice on @ax's map: its axes in @rx. */
static bool recommended(json_t *doc, const struct grid *g, const long long *ax, long long *rx)
{
	json_t *r;
	size_t i;
	int k;

	json_array_foreach(json_object_get(doc, "recommendation"), i, r)
	{
		h_axes(r, rx);
		for (k = 0; k < 5; k++) /* a member older files lack matches any */
			if (!json_object_get(r, names[k]))
				rx[k] = ax[k];
		if (same_map(g, rx, ax) && json_object_get(r, names[g->ix]) &&
		    json_object_get(r, names[g->iy]))
			return true;
	}
	return false;
}

static void tics(FILE *f, const char *axis, const struct grid *g, int k)
{
	size_t i;

	fprintf(f, "set %stics (", axis);
	for (i = 0; i < g->n[k]; i++)
		fprintf(f, "%s\"%lld\" %zu", i ? ", " : "", g->v[k][i], i);
	fputs(")\n", f);
}

static void cells(FILE *f, json_t *res, const long long *ax, const struct grid *g,
		  const struct rb_metric *m, bool labels)
{
	size_t nx = g->n[g->ix], ny = g->n[g->iy], i, x, y;
	double *v = calloc(nx * ny, sizeof(*v));
	long long px[5];
	json_t *pt;

	if (!v)
		return;
	for (i = 0; i < nx * ny; i++)
		v[i] = NAN;
	json_array_foreach(res, i, pt)
	{
		h_axes(pt, px);
		x = index_of(g, g->ix, px[g->ix]);
		y = index_of(g, g->iy, px[g->iy]);
		if (same_map(g, px, ax) && x < nx && y < ny && isnan(v[y * nx + x]))
			v[y * nx + x] = rb_compare_point_value(pt, m);
	}
	for (y = 0; y < ny; y++) {
		for (x = 0; x < nx; x++)
			if (!labels)
				fprintf(f, "%zu %zu %.9g\n", x, y, v[y * nx + x]);
			else if (isfinite(v[y * nx + x]))
				fprintf(f, "%zu %zu \"%.3g\"\n", x, y, v[y * nx + x]);
		if (!labels)
			fputc('\n', f);
	}
	free(v);
}

/* "at 64 bytes, -q 1, -t 128": the map's other axes. */
static void where(const struct grid *g, const long long *ax, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "at %lld bytes", ax[0]);
	int k;

	for (k = 1; k < 5 && n < len; k++)
		if (k != g->ix && k != g->iy)
			n += (size_t)snprintf(buf + n, len - n, ", %s %lld", flags[k], ax[k]);
}

static int one_map(struct h_page *p, struct h_doc *d, const long long *ax, const struct grid *g,
		   const struct rb_metric *m, const char *id)
{
	json_t *res = json_object_get(d->doc, "results");
	char t[256], w[96], fid[128];
	long long rx[5];
	struct h_gp gp;
	size_t x, y;
	int ret;

	where(g, ax, w, sizeof(w));
	snprintf(t, sizeof(t), "%s (%s) by %s and %s %s", m->name, m->unit, names[g->ix],
		 names[g->iy], w);
	ret = h_gp_begin(&gp, t, 620, 460);
	if (ret)
		return ret;
	fprintf(gp.f,
		"unset grid\nset xlabel \"%s (%s)\"\nset ylabel \"%s (%s)\"\n"
		"set xrange [-0.5:%g]\nset yrange [-0.5:%g]\nset cblabel \"%s (%s)\"\n"
		"set palette defined (0 \"%s\", 0.5 \"#fee08b\", 1 \"%s\")\n",
		names[g->ix], flags[g->ix], names[g->iy], flags[g->iy], (double)g->n[g->ix] - 0.5,
		(double)g->n[g->iy] - 0.5, m->name, m->unit,
		m->better == RB_BETTER_HIGHER ? "#d73027" : "#1a9850",
		m->better == RB_BETTER_HIGHER ? "#1a9850" : "#d73027");
	tics(gp.f, "x", g, g->ix);
	tics(gp.f, "y", g, g->iy);
	if (recommended(d->doc, g, ax, rx)) {
		x = index_of(g, g->ix, rx[g->ix]);
		y = index_of(g, g->iy, rx[g->iy]);
		if (x < g->n[g->ix] && y < g->n[g->iy])
			fprintf(gp.f,
				"set object rect center %zu,%zu size 0.96,0.96 front fs empty "
				"border lc rgb \"#000000\" lw 3\nset label \"--recommend\" at "
				"%zu,%g center front\n",
				x, y, x, (double)y - 0.3);
	}
	fputs("$h << EOD\n", gp.f);
	cells(gp.f, res, ax, g, m, false);
	fputs("EOD\n$l << EOD\n", gp.f);
	cells(gp.f, res, ax, g, m, true);
	fputs("EOD\nplot $h using 1:2:3 with image pixels notitle, $l using 1:2:3 with labels "
	      "notitle\n",
	      gp.f);
	snprintf(fid, sizeof(fid), "%s-heat-%lld-%lld-%lld-%lld-%lld", id, ax[0], ax[1], ax[2],
		 ax[3], ax[4]);
	return h_gp_emit(p, &gp, fid);
}

static void map_table(struct h_page *p, struct h_doc *d, const long long *ax, const struct grid *g,
		      const struct rb_metric *m)
{
	const char *cols[] = { names[g->ix], names[g->iy], "figure", "--recommend" };
	long long px[5], rx[5];
	bool rec = recommended(d->doc, g, ax, rx);
	char cap[192], w[96];
	json_t *pt;
	size_t i;

	where(g, ax, w, sizeof(w));
	snprintf(cap, sizeof(cap), "%s (%s) %s", m->name, m->unit, w);
	h_table_begin(p, cap, cols, 4);
	json_array_foreach(json_object_get(d->doc, "results"), i, pt)
	{
		h_axes(pt, px);
		if (px[0] <= 0 || !same_map(g, px, ax))
			continue;
		fprintf(p->f, "<tr><td>%lld</td><td>%lld</td><td>", px[g->ix], px[g->iy]);
		h_num(p->f, rb_compare_point_value(pt, m));
		fprintf(p->f, "</td><td>%s</td></tr>\n",
			rec && px[g->ix] == rx[g->ix] && px[g->iy] == rx[g->iy] ? "recommended"
										: "");
	}
	h_table_end(p);
}

/* The two axes drawn: batch and signal when both vary, else the first two that do. */
static bool pick_axes(struct grid *g)
{
	int k;

	g->ix = g->iy = 0;
	if (g->n[1] > 1 && g->n[2] > 1) {
		g->ix = 1;
		g->iy = 2;
		return true;
	}
	for (k = 1; k < 5; k++) {
		if (g->n[k] < 2)
			continue;
		if (!g->ix)
			g->ix = k;
		else if (!g->iy)
			g->iy = k;
	}
	return g->iy != 0;
}

int h_heatmaps(struct h_page *p, struct h_doc *d, const char *id)
{
	json_t *res = json_object_get(d->doc, "results"), *pt;
	const struct rb_metric *m = figure(res);
	long long maps[MAX_MAPS][5], ax[5];
	struct grid g;
	size_t i, j, n = 0, more = 0;
	int k, ret = 0;

	memset(&g, 0, sizeof(g));
	json_array_foreach(res, i, pt)
	{
		h_axes(pt, ax);
		for (k = 0; ax[0] > 0 && k < 5; k++) /* no size: not a point */
			add_value(g.v[k], &g.n[k], ax[k]);
	}
	if (!m || !pick_axes(&g))
		return 0;
	json_array_foreach(res, i, pt)
	{
		h_axes(pt, ax);
		if (ax[0] <= 0)
			continue;
		for (j = 0; j < n && !same_map(&g, maps[j], ax); j++)
			;
		if (j == n && n < MAX_MAPS)
			memcpy(maps[n++], ax, sizeof(ax));
		else if (j == n)
			more++;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = one_map(p, d, maps[i], &g, m, id);
		if (!ret)
			map_table(p, d, maps[i], &g, m);
	}
	if (more)
		fprintf(p->f,
			"<p class=\"note\">The first %d maps are drawn; the tables above the "
			"maps' have every point.</p>\n",
			MAX_MAPS);
	return ret;
}
