// SPDX-License-Identifier: MIT
/*
 * `rdmabench report` on perftest's --out_json files (html_pt.h): read
 * them, and give each the shape of an rdmabench run, so that its figures
 * are drawn in the same charts as rdmabench's.
 *
 * What perftest writes (perftest_parameters.c, write_test_info_to_file
 * and write_*_report_to_file): one object of two, "test_info" (test,
 * device, qps, transport, connection, tx depth, post list, CQ moderation,
 * MTU...) and "results" (one size: MsgSize, n_iterations, BW_peak,
 * BW_average, MsgRate; or t_min, t_max, t_typical, t_avg, t_stdev,
 * percentile_99, percentile_99.9).  The file is rewritten for each size,
 * so a -a sweep leaves its last size only.  Older perftest (the 6.06
 * that Debian 12 ships) writes it with bare keys and values and trailing
 * commas, not JSON: it is read line by line here, one "key: value" or
 * "key: {" or "}" a line, which reads both.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_pt.h"

/* @s trimmed of blanks and a trailing comma, in place. */
static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == ','))
		s[--n] = '\0';
	return s;
}

/* trim()'s, and one pair of quotes taken off: a key or a value. */
static char *bare(char *s)
{
	size_t n;

	s = trim(s);
	n = strlen(s);
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = '\0';
		s++;
	}
	return s;
}

/* A value: a number when all of it is one, else a string. */
static json_t *value(const char *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (*v && !*end && !errno && isfinite(d))
		return json_real(d);
	return json_string(v);
}

/*
 * The objects of @f, line by line, into @root; 0, or a positive line
 * number where a line is none of "{", "}", "key: {" and "key: value".
 */
static int parse(FILE *f, json_t *root)
{
	json_t *stack[4] = { root };
	char line[512], *s, *colon, *k;
	int depth = -1, ln = 0;
	json_t *o;

	while (fgets(line, sizeof(line), f)) {
		ln++;
		s = trim(line);
		if (!*s)
			continue;
		if (!strcmp(s, "{") && depth < 0) {
			depth = 0;
			continue;
		}
		if (depth < 0)
			return ln;
		if (*s == '}') {
			if (depth-- == 0)
				depth = 3; /* the end: nothing may follow */
			continue;
		}
		colon = strchr(s, ':');
		if (!colon || depth >= 3)
			return ln;
		*colon = '\0';
		k = bare(s);
		s = bare(colon + 1);
		if (!*k)
			return ln;
		if (!strcmp(s, "{")) {
			if (depth >= 2)
				return ln;
			o = json_object();
			if (json_object_set_new(stack[depth], k, o))
				return ln;
			stack[++depth] = o;
			continue;
		}
		if (json_object_set_new(stack[depth], k, value(s)))
			return ln;
	}
	return depth == 3 ? 0 : ln + 1;
}

bool h_pt_is(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, "test_info") && strstr(buf, "results");
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Set @k of @o to @v when it is a finite number. */
static void put(json_t *o, const char *k, double v)
{
	if (isfinite(v))
		json_object_set_new(o, k, json_real(v));
}

static void put_int(json_t *o, const char *k, double v, long long dflt)
{
	json_object_set_new(o, k, json_integer(isfinite(v) && v >= 1 ? (long long)v : dflt));
}

/* perftest's MB/sec (2^20 bytes a second, its default unit) as Gb/s. */
static double mb_to_gbps(double mb)
{
	return mb * 1048576.0 * 8 / 1e9;
}

/* The results object of a perftest file as an rdmabench point. */
static json_t *point(json_t *info, json_t *res)
{
	json_t *pt = json_object(), *lat;
	double lat_avg = num(res, "t_avg");

	put_int(pt, "size", num(res, "MsgSize"), 0);
	put_int(pt, "batch", num(info, "Post_List"), 1);
	put_int(pt, "signal", num(info, "CQ_Moderation"), 1);
	put_int(pt, "qps", num(info, "Number_of_qps"), 1);
	put_int(pt, "tx_depth", num(info, "TX_depth"), 1);
	put(pt, "iterations", num(res, "n_iterations"));
	if (isfinite(num(res, "BW_average"))) {
		put(pt, "bw_avg_gbps", mb_to_gbps(num(res, "BW_average")));
		put(pt, "bw_peak_gbps", mb_to_gbps(num(res, "BW_peak")));
		put(pt, "bw_avg_mibps", num(res, "BW_average"));
		put(pt, "msg_rate_mpps", num(res, "MsgRate"));
	}
	if (isfinite(lat_avg)) {
		lat = json_object();
		put(lat, "min", num(res, "t_min"));
		put(lat, "p50", num(res, "t_typical"));
		put(lat, "avg", lat_avg);
		put(lat, "p99", num(res, "percentile_99"));
		put(lat, "p999", num(res, "percentile_99.9"));
		put(lat, "max", num(res, "t_max"));
		put(lat, "stdev", num(res, "t_stdev"));
		json_object_set_new(pt, "lat_us", lat);
	}
	return pt;
}

int h_pt_load(const char *path, json_t **doc, char *why, size_t len)
{
	json_t *raw = json_object(), *info, *res, *d, *dev, *pts;
	FILE *f = fopen(path, "r");
	const char *test;
	int ln;

	*doc = NULL;
	if (!f || !raw) {
		snprintf(why, len, "cannot read it: %s", strerror(f ? ENOMEM : errno));
		if (f)
			fclose(f);
		json_decref(raw);
		return -EIO;
	}
	ln = parse(f, raw);
	fclose(f);
	info = json_object_get(raw, "test_info");
	res = json_object_get(raw, "results");
	test = json_string_value(json_object_get(info, "test"));
	if (ln || !test || !json_is_object(res) ||
	    !(isfinite(num(res, "BW_average")) || isfinite(num(res, "t_avg"))) ||
	    !(num(res, "MsgSize") >= 1)) {
		if (ln)
			snprintf(why, len,
				 "line %d: not perftest's --out_json ('key: value' a line)", ln);
		else
			snprintf(why, len,
				 "perftest's --out_json without a test name, a message size and "
				 "a bandwidth or latency (a duration run's, -D, has none)");
		json_decref(raw);
		return -EINVAL;
	}
	d = json_object();
	dev = json_object();
	pts = json_array();
	json_object_set_new(d, "tool", json_string("perftest"));
	json_object_set_new(d, "test", json_string(test));
	json_object_set(d, "perftest_info", info);
	json_object_set_new(dev, "name",
			    json_string(json_string_value(json_object_get(info, "Device")) ?: "?"));
	json_object_set_new(d, "device", dev);
	json_array_append_new(pts, point(info, res));
	json_object_set_new(d, "results", pts);
	json_decref(raw);
	*doc = d;
	return 0;
}

/* Whether @a and @b are runs of one perftest test on one device. */
static bool same_run(json_t *a, json_t *b)
{
	json_t *ia = json_object_get(a, "perftest_info"), *ib = json_object_get(b, "perftest_info");
	const char *k;
	json_t *v;

	json_object_foreach(ia, k, v)
	{
		if (!json_equal(v, json_object_get(ib, k)))
			return false;
	}
	return json_object_size(ia) == json_object_size(ib);
}

size_t h_pt_merge(struct h_doc *docs, size_t n)
{
	size_t i, j, out = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < out; j++)
			if (docs[i].perftest && docs[j].perftest && !docs[j].matrix &&
			    same_run(docs[j].doc, docs[i].doc))
				break;
		if (j == out) {
			docs[out++] = docs[i];
			continue;
		}
		json_array_extend(json_object_get(docs[j].doc, "results"),
				  json_object_get(docs[i].doc, "results"));
		docs[j].nmerged++;
		json_decref(docs[i].doc);
		json_decref(docs[i].regress);
	}
	return out;
}

void h_pt_header(struct h_page *p, struct h_doc *d)
{
	json_t *info = json_object_get(d->doc, "perftest_info"), *v;
	const char *k;

	fputs("<p class=\"what\">", p->f);
	h_esc(p->f, json_string_value(json_object_get(d->doc, "test")));
	fprintf(p->f,
		", a run of perftest (--out_json), read from %zu file(s); its version is "
		"not in the file</p>\n<table class=\"head\">\n",
		d->nmerged + 1);
	json_object_foreach(info, k, v)
	{
		fputs("<tr><th>", p->f);
		h_esc(p->f, k);
		fputs("</th><td>", p->f);
		if (json_is_string(v))
			h_esc(p->f, json_string_value(v));
		else
			h_num(p->f, json_number_value(v));
		fputs("</td></tr>\n", p->f);
	}
	fputs("</table>\n<ul class=\"warnings\">\n<li>Read from perftest's --out_json, which has "
	      "no version, host, time, side (client or server), command line, placement, "
	      "kernel or rdma-core, no counters and no histogram: none of them is shown.</li>\n"
	      "<li>perftest writes one size a file (a -a sweep leaves its last): the points "
	      "here are the files given of the same test and settings.</li>\n"
	      "<li>Bandwidth is read as perftest's default MB/sec (2^20 bytes a second) and "
	      "drawn in Gb/s; the file does not say its unit, so a run with --report_gbits "
	      "would be drawn 2^20 * 8 / 10^9 times too high.</li>\n"
	      "<li>Latency: t_typical is drawn as p50, percentile_99 and percentile_99.9 as "
	      "p99 and p99.9; perftest has no p90.</li>\n</ul>\n",
	      p->f);
}
