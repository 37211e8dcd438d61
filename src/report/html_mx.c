// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a matrix (rdmabench matrix --json) as an N x N heat
 * map of its pairs' figure (the metric matrix judged by), bad pairs
 * framed, suspect ranks' rows and columns outlined, the worst pairs
 * listed.  Above MAX_CELLS ranks a side, ranks are taken together into
 * tiles, each showing the worst pair in it, and the page says so: 1024
 * ranks stay a 64 x 64 picture.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "report/compare.h"
#include "report/html_int.h"

#define MAX_CELLS 64 /* cells a side of the heat map */
#define WORST	  20 /* pairs listed */

struct mx {
	json_t *m, *pairs;
	const struct rb_metric *row;
	long long n;	 /* ranks */
	long long t;	 /* ranks a tile side */
	long long g;	 /* tiles a side */
	double *v;	 /* g x g: the worst figure of each tile, NAN: none */
	char *bad;	 /* g x g: 1 a bad pair, 2 a failed one */
	json_t **sorted; /* pairs with a figure, worst first */
	size_t nsorted;
};

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double pair_value(const struct mx *x, json_t *pair)
{
	json_t *pt = json_array_get(json_object_get(json_object_get(pair, "run"), "results"), 0);

	return pt ? rb_compare_point_value(pt, x->row) : NAN;
}

/* Whether @a is worse than @b by the row's better-direction. */
static bool worse(const struct rb_metric *m, double a, double b)
{
	if (!isfinite(b))
		return isfinite(a);
	return isfinite(a) && (m->better == RB_BETTER_LOWER ? a > b : a < b);
}

static const struct mx *sort_mx;

static int by_worst(const void *a, const void *b)
{
	double x = pair_value(sort_mx, *(json_t *const *)a);
	double y = pair_value(sort_mx, *(json_t *const *)b);

	return worse(sort_mx->row, x, y) ? -1 : worse(sort_mx->row, y, x) ? 1 : 0;
}

static int fill(struct mx *x)
{
	long long s, d;
	json_t *pair;
	size_t i, c;
	double v;
	const char *st;

	x->v = malloc((size_t)(x->g * x->g) * sizeof(*x->v));
	x->bad = calloc((size_t)(x->g * x->g), 1);
	x->sorted = calloc(json_array_size(x->pairs) + 1, sizeof(*x->sorted));
	if (!x->v || !x->bad || !x->sorted)
		return -ENOMEM;
	for (c = 0; c < (size_t)(x->g * x->g); c++)
		x->v[c] = NAN;
	json_array_foreach(x->pairs, i, pair)
	{
		s = json_integer_value(json_object_get(pair, "src"));
		d = json_integer_value(json_object_get(pair, "dst"));
		if (s < 0 || d < 0 || s >= x->n || d >= x->n)
			continue;
		c = (size_t)((s / x->t) * x->g + d / x->t);
		st = str(pair, "status") ?: "";
		if (!strcmp(st, "bad") && x->bad[c] < 1)
			x->bad[c] = 1;
		if (!strcmp(st, "failed"))
			x->bad[c] = 2;
		v = pair_value(x, pair);
		if (!isfinite(v))
			continue;
		if (worse(x->row, v, x->v[c]))
			x->v[c] = v;
		x->sorted[x->nsorted++] = pair;
	}
	sort_mx = x;
	qsort(x->sorted, x->nsorted, sizeof(*x->sorted), by_worst);
	return 0;
}

/* A tile's centre, in ranks. */
static double at(const struct mx *x, long long tile)
{
	return (double)(tile * x->t) + (double)(x->t - 1) / 2;
}

static void objects(const struct mx *x, FILE *f)
{
	double h = (double)x->t / 2;
	long long r, c;
	json_t *b;
	size_t i;

	for (r = 0; r < x->g; r++)
		for (c = 0; c < x->g; c++)
			if (x->bad[r * x->g + c])
				fprintf(f,
					"set object rect from %g,%g to %g,%g front fs empty "
					"border lc rgb \"%s\" lw 1.5\n",
					at(x, c) - h, at(x, r) - h, at(x, c) + h, at(x, r) + h,
					x->bad[r * x->g + c] == 2 ? "#555555" : "#0000ff");
	json_array_foreach(json_object_get(x->m, "bad_ranks"), i, b)
	{
		r = json_integer_value(b) / x->t;
		fprintf(f,
			"set object rect from %g,%g to %g,%g front fs empty border lc rgb "
			"\"#d00000\" dt 2 lw 2\n",
			-0.5, at(x, r) - h, (double)x->n - 0.5, at(x, r) + h);
		fprintf(f,
			"set object rect from %g,%g to %g,%g front fs empty border lc rgb "
			"\"#d00000\" dt 2 lw 2\n",
			at(x, r) - h, -0.5, at(x, r) + h, (double)x->n - 0.5);
	}
}

static int heat(struct h_page *p, struct mx *x, const char *id)
{
	char t[256], fid[96];
	struct h_gp g;
	long long r, c;
	int ret;

	if (x->t > 1)
		snprintf(t, sizeof(t),
			 "%s (%s) by pair, %lld ranks: tiles of %lld x %lld ranks, "
			 "each the worst pair in it",
			 x->row->name, x->row->unit, x->n, x->t, x->t);
	else
		snprintf(t, sizeof(t), "%s (%s) by pair, %lld ranks", x->row->name, x->row->unit,
			 x->n);
	ret = h_gp_begin(&g, t, 760, 680);
	if (ret)
		return ret;
	fprintf(g.f,
		"unset grid\nset size ratio -1\nset xrange [-0.5:%g]\nset yrange [%g:-0.5]\n"
		"set xlabel \"destination rank\"\nset ylabel \"source rank\"\n"
		"set cblabel \"%s (%s)\"\nset palette defined (0 \"%s\", 0.5 \"#fee08b\", 1 "
		"\"%s\")\n",
		(double)x->n - 0.5, (double)x->n - 0.5, x->row->name, x->row->unit,
		x->row->better == RB_BETTER_LOWER ? "#1a9850" : "#d73027",
		x->row->better == RB_BETTER_LOWER ? "#d73027" : "#1a9850");
	objects(x, g.f);
	fputs("$m << EOD\n", g.f);
	for (r = 0; r < x->g; r++) {
		for (c = 0; c < x->g; c++) {
			/* NaN, not missing: an image needs every pixel of its grid */
			fprintf(g.f, "%g %g %.9g\n", at(x, c), at(x, r), x->v[r * x->g + c]);
		}
		fputc('\n', g.f);
	}
	fputs("EOD\nplot $m using 1:2:3 with image pixels notitle\n", g.f);
	snprintf(fid, sizeof(fid), "%s-heatmap", id);
	return h_gp_emit(p, &g, fid);
}

static void pair_row(struct h_page *p, const struct mx *x, json_t *pair)
{
	fprintf(p->f, "<tr><td>%lld</td><td>",
		(long long)json_integer_value(json_object_get(pair, "src")));
	h_esc(p->f, str(pair, "src_host"));
	fprintf(p->f, "</td><td>%lld</td><td>",
		(long long)json_integer_value(json_object_get(pair, "dst")));
	h_esc(p->f, str(pair, "dst_host"));
	fputs("</td><td>", p->f);
	h_num(p->f, pair_value(x, pair));
	fputs("</td><td>", p->f);
	h_esc(p->f, str(pair, "status"));
	fputs("</td><td>", p->f);
	h_esc(p->f, str(pair, "reason"));
	fputs("</td></tr>\n", p->f);
}

static void tables(struct h_page *p, struct mx *x)
{
	const char *cols[] = { "src", "host", "dst", "host", "", "status", "why" };
	char head[64], cap[128];
	json_t *pair;
	size_t i, n = 0;

	snprintf(head, sizeof(head), "%s (%s)", x->row->name, x->row->unit);
	cols[4] = head;
	snprintf(cap, sizeof(cap), "The %d worst pairs of %zu measured", WORST, x->nsorted);
	h_table_begin(p, cap, cols, 7);
	for (i = 0; i < x->nsorted && i < WORST; i++)
		pair_row(p, x, x->sorted[i]);
	h_table_end(p);
	h_table_begin(p, "Bad and failed pairs (the first 100)", cols, 7);
	json_array_foreach(x->pairs, i, pair) if (strcmp(str(pair, "status") ?: "ok", "ok") &&
						  n++ < 100) pair_row(p, x, pair);
	h_table_end(p);
	if (n > 100)
		fprintf(p->f,
			"<p class=\"note\">%zu bad or failed pairs; the JSON has them all.</p>\n",
			n);
}

static void summary(struct h_page *p, struct mx *x)
{
	static const char *const keys[] = {
		"test",	  "nranks", "pairs_run",     "rounds", "bad",
		"failed", "median", "tolerance_pct", "metric", "coordinator_found"
	};
	json_t *v, *b;
	size_t i;

	fputs("<table class=\"head\">\n", p->f);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = json_object_get(x->m, keys[i]);
		fputs("<tr><th>", p->f);
		h_esc(p->f, keys[i]);
		fputs("</th><td>", p->f);
		if (json_is_string(v))
			h_esc(p->f, json_string_value(v));
		else
			h_num(p->f, json_number_value(v));
		fputs("</td></tr>\n", p->f);
	}
	fputs("<tr><th>suspect ranks (outlined in red)</th><td>", p->f);
	json_array_foreach(json_object_get(x->m, "bad_ranks"), i, b)
		fprintf(p->f, "%s%lld", i ? ", " : "", (long long)json_integer_value(b));
	if (!json_array_size(json_object_get(x->m, "bad_ranks")))
		fputs("none", p->f);
	fputs("</td></tr>\n</table>\n", p->f);
	if (json_object_get(x->m, "simulated"))
		fputs("<p class=\"warnings\">Simulated (--simulate): these figures were not "
		      "measured.</p>\n",
		      p->f);
	fprintf(p->f,
		"<p class=\"note\">Bad pairs are framed in blue, failed ones in grey; "
		"%zu of %lld ordered pairs have a figure.%s</p>\n",
		x->nsorted, x->n * (x->n - 1),
		x->t > 1 ? " The map is tiled: each cell takes the worst of its pairs." : "");
}

int h_matrix(struct h_page *p, struct h_doc *d, size_t idx)
{
	struct mx x = { .m = json_object_get(d->doc, "matrix"),
			.pairs = json_object_get(d->doc, "pairs") };
	const char *metric = str(x.m, "metric");
	char id[32];
	int ret;

	snprintf(id, sizeof(id), "matrix%zu", idx);
	x.row = metric ? rb_metric_find(metric, strlen(metric), false) : NULL;
	x.n = json_integer_value(json_object_get(x.m, "nranks"));
	fprintf(p->f, "<section class=\"matrix\" id=\"%s\">\n<h2>", id);
	h_esc(p->f, d->label);
	fputs(": rdmabench matrix</h2>\n", p->f);
	if (!x.row || x.n < 2 || x.n > 1 << 20) {
		fputs("<p class=\"warnings\">This matrix names no metric this rdmabench knows, or "
		      "no ranks: nothing to draw.</p>\n</section>\n",
		      p->f);
		return 0;
	}
	x.t = (x.n + MAX_CELLS - 1) / MAX_CELLS;
	x.g = (x.n + x.t - 1) / x.t;
	ret = fill(&x);
	if (!ret) {
		summary(p, &x);
		ret = heat(p, &x, id);
	}
	if (!ret)
		tables(p, &x);
	fputs("</section>\n", p->f);
	free(x.v);
	free(x.bad);
	free(x.sorted);
	return ret;
}
