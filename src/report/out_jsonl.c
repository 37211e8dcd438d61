// SPDX-License-Identifier: MIT
/*
 * --json-stream: JSON lines as the run goes, as iperf3's --json-stream:
 * {"event": "start", "data": the document's head}, {"event": "interval",
 * "data": a slice} per --interval slice, {"event": "point", "data": the
 * point as "results" holds it} as each point ends, and {"event": "end",
 * "data": {"complete", "reason"?, "points"}}.  Each line is flushed, for
 * a dashboard reading the file or the pipe live.
 */
#include <errno.h>
#include <jansson.h>

#include "report/out_int.h"

/* One line: {"event": @event, "data": @data} (@data's reference taken). */
static int line(struct rb_writer *w, const char *event, json_t *data)
{
	json_t *o = data ? json_pack("{s:s, s:o}", "event", event, "data", data) : NULL;
	int ret = 0;

	if (!o)
		return -ENOMEM;
	if (json_dumpf(o, w->f, JSON_COMPACT | JSON_REAL_PRECISION(9)) || fputc('\n', w->f) == EOF)
		ret = -EIO;
	json_decref(o);
	fflush(w->f);
	return ret ? ret : file_status(w->f);
}

static int jsonl_begin(struct rb_writer *w, const struct rb_doc *r)
{
	w->tally.points = 0;
	return line(w, "start", rb_json_head(r));
}

static int jsonl_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	json_t *d = rb_json_result(res);

	if (rb_json_point_axes(d, r, res)) {
		json_decref(d);
		return -ENOMEM;
	}
	w->tally.points++;
	if (d && res->thread_row)
		json_object_set_new(d, "thread", json_integer(res->thread_row - 1));
	return line(w, "point", d);
}

static int jsonl_interval(struct rb_writer *w, const struct rb_doc *r, const struct rb_point *pt,
			  const struct rb_interval *iv, size_t idx)
{
	json_t *d = rb_json_interval(iv);

	(void)r;
	if (d && json_object_set_new(d, "index", json_integer((json_int_t)idx + 1)))
		return -ENOMEM;
	if (d && json_object_set_new(d, "size", json_integer((json_int_t)pt->size)))
		return -ENOMEM;
	return line(w, "interval", d);
}

static int jsonl_end(struct rb_writer *w, const struct rb_doc *r)
{
	json_t *d = json_pack("{s:b, s:i}", "complete", !r->incomplete, "points",
			      (json_int_t)w->tally.points);

	if (d && r->incomplete)
		json_object_set_new(d, "reason", json_string(r->reason ? r->reason : "unknown"));
	return line(w, "end", d);
}

const struct rb_writer_ops rb_jsonl_ops = {
	.begin = jsonl_begin, .row = jsonl_row, .end = jsonl_end, .interval = jsonl_interval
};
