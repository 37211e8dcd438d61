// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`: a run's charts beyond those by size -- the latency
 * histograms (-H), the time series (--interval), the threads and rails
 * (--threads, -d DEV,DEV), each with its table.
 */
#include <math.h>
#include <string.h>

#include "report/html_int.h"

/* At most this many points' histograms or time series in one chart. */
#define MAX_SERIES 8

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void label(json_t *pt, char *buf, size_t len)
{
	long long ax[5];

	h_axes(pt, ax);
	h_axes_text(ax, buf, len);
}

/* Whether @pt's @key can be drawn: a histogram with one more edge than
 * buckets, slices of which one has a figure. */
static bool drawable(json_t *pt, const char *key)
{
	json_t *v = json_object_get(pt, key), *s;
	size_t i, nc = json_array_size(json_object_get(v, "counts"));

	if (!strcmp(key, "histogram"))
		return nc && json_array_size(json_object_get(v, "edges_us")) == nc + 1;
	json_array_foreach(v, i,
			   s) if (isfinite(num(s, "start_s")) &&
				  (isfinite(num(s, "bw_avg_gbps")) ||
				   isfinite(num(json_object_get(s, "lat_us"), "p50")))) return true;
	return false;
}

/* Points of @res whose @key can be drawn, the first MAX_SERIES; how many in all. */
static size_t having(json_t *res, const char *key, json_t **pts)
{
	size_t i, n = 0;

	for (i = 0; i < json_array_size(res); i++)
		if (drawable(json_array_get(res, i), key)) {
			if (n < MAX_SERIES)
				pts[n] = json_array_get(res, i);
			n++;
		}
	return n;
}

static void drawn_note(struct h_page *p, size_t n)
{
	if (n > MAX_SERIES)
		fprintf(p->f,
			"<p class=\"note\">%zu points have one; the first %d are drawn.</p>\n", n,
			MAX_SERIES);
}

/*
 * A chart of one series per point (histograms, time series) and its
 * table: what differs between them.  @data writes point @pt's data
 * block's rows, @rows its table's rows (labelled @t); @lat: a latency test.
 */
struct series_chart {
	const char *key;     /* the point's member: "histogram", "intervals" */
	const char *var;     /* the data blocks' prefix: $h0, $t0... */
	const char *plot;    /* how each is drawn: "using ... with ..." */
	const char *suffix;  /* the figure's id after the run's */
	const char *caption; /* the table's */
	const char *const *cols;
	size_t ncols;
	void (*data)(FILE *f, json_t *pt, bool lat);
	void (*rows)(struct h_page *p, json_t *pt, const char *t);
};

/* @c over @n points @pts that have it: @title, gnuplot's @setup, then the table. */
static int series_chart(struct h_page *p, const char *id, const struct series_chart *c,
			const char *title, const char *setup, bool lat, json_t **pts, size_t n)
{
	char t[96], fid[96];
	struct h_gp g;
	size_t i;
	int ret;

	ret = h_gp_begin(&g, title, 820, 380);
	if (ret)
		return ret;
	fputs(setup, g.f);
	for (i = 0; i < n && i < MAX_SERIES; i++) {
		fprintf(g.f, "$%s%zu << EOD\n", c->var, i);
		c->data(g.f, pts[i], lat);
		fputs("EOD\n", g.f);
	}
	for (i = 0; i < n && i < MAX_SERIES; i++) {
		label(pts[i], t, sizeof(t));
		fprintf(g.f, "%s$%s%zu %s lc rgb \"%s\" title ", i ? ", " : "plot ", c->var, i,
			c->plot, h_color(i));
		h_gp_str(g.f, t);
	}
	fputc('\n', g.f);
	snprintf(fid, sizeof(fid), "%s-%s", id, c->suffix);
	ret = h_gp_emit(p, &g, fid);
	if (ret)
		return ret;
	drawn_note(p, n);
	h_table_begin(p, c->caption, c->cols, c->ncols);
	for (i = 0; i < n && i < MAX_SERIES; i++) {
		label(pts[i], t, sizeof(t));
		c->rows(p, pts[i], t);
	}
	h_table_end(p);
	return 0;
}

/* A histogram's buckets: from, to, samples. */
static void hist_data(FILE *f, json_t *pt, bool lat)
{
	json_t *h = json_object_get(pt, "histogram"), *e = json_object_get(h, "edges_us"),
	       *cnt = json_object_get(h, "counts");
	size_t j;

	(void)lat;
	for (j = 0; j < json_array_size(cnt) && j + 1 < json_array_size(e); j++)
		fprintf(f, "%.9g %.9g %lld\n", json_number_value(json_array_get(e, j)),
			json_number_value(json_array_get(e, j + 1)),
			(long long)json_integer_value(json_array_get(cnt, j)));
}

static void hist_rows(struct h_page *p, json_t *pt, const char *t)
{
	json_t *h = json_object_get(pt, "histogram"), *e = json_object_get(h, "edges_us"),
	       *cnt = json_object_get(h, "counts");
	size_t j;

	for (j = 0; j < json_array_size(cnt) && j + 1 < json_array_size(e); j++) {
		fputs("<tr><td>", p->f);
		h_esc(p->f, t);
		fputs("</td><td>", p->f);
		h_num(p->f, json_number_value(json_array_get(e, j)));
		fputs("</td><td>", p->f);
		h_num(p->f, json_number_value(json_array_get(e, j + 1)));
		fprintf(p->f, "</td><td>%lld</td></tr>\n",
			(long long)json_integer_value(json_array_get(cnt, j)));
	}
}

static int histograms(struct h_page *p, struct h_doc *d, const char *id)
{
	static const char *const cols[] = { "point", "from (us)", "to (us)", "samples" };
	static const struct series_chart c = {
		.key = "histogram",
		.var = "h",
		.plot = "using (($1+$2)/2):3:($2-$1) with boxes",
		.suffix = "histogram",
		.caption = "Latency histograms: the buckets",
		.cols = cols,
		.ncols = 4,
		.data = hist_data,
		.rows = hist_rows,
	};
	json_t *pts[MAX_SERIES];
	size_t n = having(json_object_get(d->doc, "results"), c.key, pts);

	if (!n)
		return 0;
	return series_chart(p, id, &c, "Latency histogram of each point (-H)",
			    "set xlabel \"latency (us)\"\nset ylabel \"samples\"\n"
			    "set style fill solid 0.25\n",
			    true, pts, n);
}

/* A slice's figure: a latency test's p50, else its bandwidth. */
static double slice_value(json_t *s, bool lat)
{
	return lat ? num(json_object_get(s, "lat_us"), "p50") : num(s, "bw_avg_gbps");
}

static void slice_data(FILE *f, json_t *pt, bool lat)
{
	json_t *s;
	size_t j;

	json_array_foreach(json_object_get(pt, "intervals"), j, s)
	{
		fprintf(f, "%.9g", num(s, "start_s") + num(s, "duration_s"));
		h_gp_num(f, slice_value(s, lat));
		fputc('\n', f);
	}
}

static void slice_rows(struct h_page *p, json_t *pt, const char *t)
{
	json_t *s;
	size_t j;

	json_array_foreach(json_object_get(pt, "intervals"), j, s)
	{
		fputs("<tr><td>", p->f);
		h_esc(p->f, t);
		fputs("</td><td>", p->f);
		h_num(p->f, num(s, "start_s"));
		fputs("</td><td>", p->f);
		h_num(p->f, num(s, "duration_s"));
		fprintf(p->f, "</td><td>%lld</td><td>",
			(long long)json_integer_value(json_object_get(s, "iterations")));
		h_num(p->f, num(s, "bw_avg_gbps"));
		fputs("</td><td>", p->f);
		h_num(p->f, num(s, "msg_rate_mpps"));
		fputs("</td><td>", p->f);
		h_num(p->f, num(json_object_get(s, "lat_us"), "p50"));
		fputs("</td></tr>\n", p->f);
	}
}

static int intervals(struct h_page *p, struct h_doc *d, const char *id)
{
	static const char *const cols[] = { "point",	   "start (s)",	  "length (s)",
					    "iterations",  "bw_avg_gbps", "msg_rate_mpps",
					    "lat p50 (us)" };
	static const struct series_chart c = {
		.key = "intervals",
		.var = "t",
		.plot = "using 1:2 with linespoints pt 7 ps 0.5",
		.suffix = "intervals",
		.caption = "Time series: the slices",
		.cols = cols,
		.ncols = 7,
		.data = slice_data,
		.rows = slice_rows,
	};
	json_t *pts[MAX_SERIES];
	size_t n = having(json_object_get(d->doc, "results"), c.key, pts);
	char setup[96];
	bool lat;

	if (!n)
		return 0;
	lat = json_object_get(json_array_get(json_object_get(pts[0], "intervals"), 0), "lat_us");
	snprintf(setup, sizeof(setup), "set xlabel \"seconds into the point\"\nset ylabel \"%s\"\n",
		 lat ? "us" : "Gb/s");
	return series_chart(p, id, &c,
			    lat ? "Latency (p50) over time (--interval)"
				: "Bandwidth over time (--interval)",
			    setup, lat, pts, n);
}

/* A thread's figure: a latency test's p50, else its bandwidth. */
static double thread_value(json_t *t, bool lat)
{
	return lat ? num(json_object_get(t, "lat_us"), "p50") : num(t, "bw_avg_gbps");
}

/* Whether some thread of some point of @res has a figure to draw. */
static bool any_thread_figure(json_t *res, bool lat)
{
	json_t *pt, *t;
	size_t i, k;

	json_array_foreach(res, i, pt)
		json_array_foreach(json_object_get(pt, "threads"), k,
				   t) if (json_integer_value(json_object_get(pt, "size")) > 0 &&
					  isfinite(thread_value(t, lat))) return true;
	return false;
}

static void thread_name(json_t *t, char *buf, size_t len)
{
	const char *rail = json_string_value(json_object_get(t, "rail"));

	snprintf(buf, len, "thread %lld%s%s",
		 (long long)json_integer_value(json_object_get(t, "thread")), rail ? " on " : "",
		 rail ? rail : "");
}

static void threads_data(struct h_gp *g, json_t *res, size_t nt, bool lat, size_t *nout)
{
	json_t *pt, *t;
	size_t i, k;

	for (k = 0; k < nt; k++) {
		fprintf(g->f, "$th%zu << EOD\n", k);
		json_array_foreach(res, i, pt)
		{
			t = json_array_get(json_object_get(pt, "threads"), k);
			if (!t)
				continue;
			fprintf(g->f, "%lld",
				(long long)json_integer_value(json_object_get(pt, "size")));
			h_gp_num(g->f, thread_value(t, lat));
			fputc('\n', g->f);
		}
		fputs("EOD\n", g->f);
	}
	fputs("$out << EOD\n", g->f);
	json_array_foreach(res, i,
			   pt) for (k = 0; k < json_array_size(json_object_get(pt, "threads")); k++)
	{
		t = json_array_get(json_object_get(pt, "threads"), k);
		if (!json_is_true(json_object_get(t, "out_of_line")))
			continue;
		fprintf(g->f, "%lld", (long long)json_integer_value(json_object_get(pt, "size")));
		h_gp_num(g->f, thread_value(t, lat));
		fputc('\n', g->f);
		(*nout)++;
	}
	fputs("EOD\n", g->f);
}

static void threads_table(struct h_page *p, json_t *res, bool lat)
{
	static const char *const cols[] = { "size", "thread", "figure", "out of line" };
	json_t *pt, *t;
	size_t i, k;
	char name[96];

	h_table_begin(p,
		      lat ? "Threads: each one's p50 latency (us)"
			  : "Threads: each one's bandwidth (Gb/s)",
		      cols, 4);
	json_array_foreach(res, i, pt) json_array_foreach(json_object_get(pt, "threads"), k, t)
	{
		thread_name(t, name, sizeof(name));
		fprintf(p->f, "<tr><td>%lld</td><td>",
			(long long)json_integer_value(json_object_get(pt, "size")));
		h_esc(p->f, name);
		fputs("</td><td>", p->f);
		h_num(p->f, thread_value(t, lat));
		fprintf(p->f, "</td><td%s>%s</td></tr>\n",
			json_is_true(json_object_get(t, "out_of_line")) ? " class=\"flag\"" : "",
			json_is_true(json_object_get(t, "out_of_line")) ? "OUT OF LINE" : "");
	}
	h_table_end(p);
}

static int threads(struct h_page *p, struct h_doc *d, const char *id)
{
	json_t *res = json_object_get(d->doc, "results"), *pt, *first = NULL;
	size_t i, nt = 0, nout = 0;
	char name[96], fid[96];
	struct h_gp g;
	bool lat;
	int ret;

	json_array_foreach(res, i, pt) if (json_array_size(json_object_get(pt, "threads")) > nt)
	{
		nt = json_array_size(json_object_get(pt, "threads"));
		first = json_array_get(json_object_get(pt, "threads"), 0);
	}
	if (!nt)
		return 0;
	lat = json_object_get(first, "lat_us") != NULL;
	if (!any_thread_figure(res, lat))
		return 0;
	ret = h_gp_begin(&g, "Threads and rails side by side", 820, 380);
	if (ret)
		return ret;
	fprintf(g.f,
		"set logscale x 2\nset format x \"%%.0b%%B\"\nset xlabel \"message size "
		"(bytes)\"\nset ylabel \"%s\"\n",
		lat ? "p50 latency (us)" : "Gb/s");
	threads_data(&g, res, nt, lat, &nout);
	for (i = 0; i < nt; i++) {
		thread_name(json_array_get(json_object_get(json_array_get(res, 0), "threads"), i),
			    name, sizeof(name));
		fprintf(g.f, "%s$th%zu using 1:2 with linespoints pt 7 ps 0.6 lc rgb \"%s\" title ",
			i ? ", " : "plot ", i, h_color(i));
		h_gp_str(g.f, name);
	}
	if (nout)
		fputs(", $out using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb \"#d00000\" "
		      "title \"out of line with the others' median\"",
		      g.f);
	fputc('\n', g.f);
	snprintf(fid, sizeof(fid), "%s-threads", id);
	ret = h_gp_emit(p, &g, fid);
	if (!ret)
		threads_table(p, res, lat);
	return ret;
}

int h_extras(struct h_page *p, struct h_doc *d, const char *id)
{
	int ret = histograms(p, d, id);

	if (!ret)
		ret = intervals(p, d, id);
	if (!ret)
		ret = threads(p, d, id);
	if (!ret)
		ret = h_heatmaps(p, d, id);
	return ret;
}
