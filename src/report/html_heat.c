// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a sweep of batch (-l) and signal (-Q) drawn as heat
 * maps, one per size (and qps, tx_depth), of the figure --recommend
 * judges by -- the message rate, or a latency test's p50 -- with
 * --recommend's choice framed.  The figures are the metric table's: the
 * first row of the rate chart a point has, else the latency chart's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "report/compare.h"
#include "report/html_int.h"

#define MAX_MAPS 8 /* sizes (x qps x tx_depth) drawn */
#define MAX_AXIS 32

struct grid {
	long long b[MAX_AXIS], s[MAX_AXIS];
	size_t nb, ns;
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

static size_t index_of(const long long *v, size_t n, long long x)
{
	size_t i;

	for (i = 0; i < n && v[i] != x; i++)
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

/* @a's size, qps and tx_depth equal @b's. */
static bool same_map(const long long *a, const long long *b)
{
	return a[0] == b[0] && a[3] == b[3] && a[4] == b[4];
}

/* --recommend's choice at @ax's size, qps, tx_depth: its batch and signal in @rb, @rs. */
static bool recommended(json_t *doc, const long long *ax, long long *rb, long long *rs)
{
	json_t *r;
	long long rx[5];
	size_t i;

	json_array_foreach(json_object_get(doc, "recommendation"), i, r)
	{
		h_axes(r, rx);
		if (rx[0] != ax[0] || (json_object_get(r, "qps") && rx[3] != ax[3]) ||
		    (json_object_get(r, "tx_depth") && rx[4] != ax[4]))
			continue;
		*rb = rx[1];
		*rs = rx[2];
		return json_object_get(r, "batch") != NULL;
	}
	return false;
}

static void tics(FILE *f, const char *axis, const long long *v, size_t n)
{
	size_t i;

	fprintf(f, "set %stics (", axis);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\"%lld\" %zu", i ? ", " : "", v[i], i);
	fputs(")\n", f);
}

static void cells(FILE *f, json_t *res, const long long *ax, const struct grid *g,
		  const struct rb_metric *m, bool labels)
{
	double *v = calloc(g->nb * g->ns, sizeof(*v));
	long long px[5];
	json_t *pt;
	size_t i, x, y;

	if (!v)
		return;
	for (i = 0; i < g->nb * g->ns; i++)
		v[i] = NAN;
	json_array_foreach(res, i, pt)
	{
		h_axes(pt, px);
		x = index_of(g->b, g->nb, px[1]);
		y = index_of(g->s, g->ns, px[2]);
		if (same_map(px, ax) && x < g->nb && y < g->ns && isnan(v[y * g->nb + x]))
			v[y * g->nb + x] = rb_compare_point_value(pt, m);
	}
	for (y = 0; y < g->ns; y++) {
		for (x = 0; x < g->nb; x++)
			if (!labels)
				fprintf(f, "%zu %zu %.9g\n", x, y, v[y * g->nb + x]);
			else if (isfinite(v[y * g->nb + x]))
				fprintf(f, "%zu %zu \"%.3g\"\n", x, y, v[y * g->nb + x]);
		if (!labels)
			fputc('\n', f);
	}
	free(v);
}

static int one_map(struct h_page *p, struct h_doc *d, const long long *ax, const struct grid *g,
		   const struct rb_metric *m, const char *id)
{
	json_t *res = json_object_get(d->doc, "results");
	char t[192], fid[128];
	long long rb, rs;
	struct h_gp gp;
	int ret;

	snprintf(t, sizeof(t), "%s (%s) by batch and signal at %lld bytes, -q %lld, -t %lld",
		 m->name, m->unit, ax[0], ax[3], ax[4]);
	ret = h_gp_begin(&gp, t, 620, 460);
	if (ret)
		return ret;
	fprintf(gp.f,
		"unset grid\nset xlabel \"batch (-l)\"\nset ylabel \"signal every (-Q)\"\n"
		"set xrange [-0.5:%g]\nset yrange [-0.5:%g]\nset cblabel \"%s (%s)\"\n"
		"set palette defined (0 \"%s\", 0.5 \"#fee08b\", 1 \"%s\")\n",
		(double)g->nb - 0.5, (double)g->ns - 0.5, m->name, m->unit,
		m->better == RB_BETTER_HIGHER ? "#d73027" : "#1a9850",
		m->better == RB_BETTER_HIGHER ? "#1a9850" : "#d73027");
	tics(gp.f, "x", g->b, g->nb);
	tics(gp.f, "y", g->s, g->ns);
	if (recommended(d->doc, ax, &rb, &rs) && index_of(g->b, g->nb, rb) < g->nb &&
	    index_of(g->s, g->ns, rs) < g->ns)
		fprintf(gp.f,
			"set object rect center %zu,%zu size 0.96,0.96 front fs empty border "
			"lc rgb \"#000000\" lw 3\nset label \"--recommend\" at %zu,%g center "
			"front\n",
			index_of(g->b, g->nb, rb), index_of(g->s, g->ns, rs),
			index_of(g->b, g->nb, rb), (double)index_of(g->s, g->ns, rs) - 0.3);
	fputs("$h << EOD\n", gp.f);
	cells(gp.f, res, ax, g, m, false);
	fputs("EOD\n$l << EOD\n", gp.f);
	cells(gp.f, res, ax, g, m, true);
	fputs("EOD\nplot $h using 1:2:3 with image pixels notitle, $l using 1:2:3 with labels "
	      "notitle\n",
	      gp.f);
	snprintf(fid, sizeof(fid), "%s-heat-%lld-%lld-%lld", id, ax[0], ax[3], ax[4]);
	return h_gp_emit(p, &gp, fid);
}

static void map_table(struct h_page *p, struct h_doc *d, const long long *ax,
		      const struct rb_metric *m)
{
	static const char *const cols[] = { "batch", "signal", "figure", "--recommend" };
	json_t *pt;
	long long px[5], rb = -1, rs = -1;
	size_t i;
	char cap[160];

	recommended(d->doc, ax, &rb, &rs);
	snprintf(cap, sizeof(cap), "%s (%s) at %lld bytes, -q %lld, -t %lld", m->name, m->unit,
		 ax[0], ax[3], ax[4]);
	h_table_begin(p, cap, cols, 4);
	json_array_foreach(json_object_get(d->doc, "results"), i, pt)
	{
		h_axes(pt, px);
		if (!same_map(px, ax))
			continue;
		fprintf(p->f, "<tr><td>%lld</td><td>%lld</td><td>", px[1], px[2]);
		h_num(p->f, rb_compare_point_value(pt, m));
		fprintf(p->f, "</td><td>%s</td></tr>\n",
			px[1] == rb && px[2] == rs ? "recommended" : "");
	}
	h_table_end(p);
}

int h_heatmaps(struct h_page *p, struct h_doc *d, const char *id)
{
	json_t *res = json_object_get(d->doc, "results"), *pt;
	const struct rb_metric *m = figure(res);
	long long maps[MAX_MAPS][5], ax[5];
	struct grid g = { .nb = 0 };
	size_t i, j, n = 0, more = 0;
	int ret = 0;

	json_array_foreach(res, i, pt)
	{
		h_axes(pt, ax);
		if (ax[0] <= 0) /* no size: not a point */
			continue;
		add_value(g.b, &g.nb, ax[1]);
		add_value(g.s, &g.ns, ax[2]);
		for (j = 0; j < n && !same_map(maps[j], ax); j++)
			;
		if (j == n && n < MAX_MAPS)
			memcpy(maps[n++], ax, sizeof(ax));
		else if (j == n)
			more++;
	}
	if (!m || g.nb < 2 || g.ns < 2)
		return 0;
	for (i = 0; i < n && !ret; i++) {
		ret = one_map(p, d, maps[i], &g, m, id);
		if (!ret)
			map_table(p, d, maps[i], m);
	}
	if (more)
		fprintf(p->f,
			"<p class=\"note\">The first %d maps are drawn; the tables above the "
			"maps' have every point.</p>\n",
			MAX_MAPS);
	return ret;
}
