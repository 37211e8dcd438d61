// SPDX-License-Identifier: MIT
/*
 * A session's output: the report, each point's row on stdout, the files
 * rewritten after every point, --samples and the interval lines.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "session/session_int.h"
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* ---- output --------------------------------------------------------- */

void sess_doc_init(struct session *s)
{
	struct rb_doc *rep = &s->rep;
	struct rb_dev *d = &s->conn.dev;

	rep->test = s->bench->name;
	rep->mode = s->bench->mode;
	/* --op's, where it applies (not lock's, whose atomics are its algorithm's). */
	rep->op = rb_bench_scope(s->bench) & RB_S_ATOMIC ? rb_op_name(s->p.atomic_op) : NULL;
	rep->role = s->role == RB_ROLE_CLIENT ? "client" : "server";
	rep->host = s->host;
	rep->peer = s->oob.peer;
	rb_timestamp(rep->timestamp, sizeof(rep->timestamp));
	rb_rdma_core_version(rep->rdma_core, sizeof(rep->rdma_core));
	rep->tags = s->l->tags.n ? &s->l->tags : NULL;
	if (d->ctx) {
		snprintf(rep->fw_ver, sizeof(rep->fw_ver), "%s", d->attr.fw_ver);
		rb_dev_board_id(d, rep->board_id, sizeof(rep->board_id));
		rep->vendor_id = d->attr.vendor_id;
		rep->vendor_part_id = d->attr.vendor_part_id;
		rep->hw_ver = d->attr.hw_ver;
	}
	rep->device = d->name;
	rep->port = d->port;
	rep->gid_index = d->gid_index;
	rep->gid_type = d->gid_type;
	rep->gid = d->gid_addr;
	rep->why_device = d->why_dev;
	rep->why_gid = d->why_gid;
	rep->link_layer = rb_link_layer_str(d);
	/* A socket test has no device (session_tcp.c): no transport. */
	rep->transport = d->tr ? rb_transport_label(d->tr, d->port_attr.link_layer ==
								   IBV_LINK_LAYER_ETHERNET)
			       : NULL;
	rep->active_mtu = rb_mtu_bytes(d->port_attr.active_mtu);
	rep->qp = s->l->qp;
	rep->freq_quiet = s->l->freq_quiet;
	rep->output = (enum rb_output)s->l->output;
	rep->params = &s->p;
	rep->units = (enum rb_units)s->l->units;
	rep->csv_counters = s->l->csv_counters;
	rep->samples_path = s->l->samples_path[0] ? s->l->samples_path : NULL;
	rep->tick_clock = s->l->cycles ? rb_tick_clock() : NULL;
}

/*
 * Regular files are rewritten after every point, so an interrupted sweep
 * keeps what it finished; a device or a pipe (/dev/stdout) only at @last.
 */
int sess_write_files(struct session *s, bool last)
{
	const char *json = s->l->json_path, *csv = s->l->csv_path;
	int ret = 0;

	if (json[0] && (last || rb_output_rewritable(json)))
		ret = rb_write_file(json, RB_FMT_JSON, &s->rep, s->res, s->nres);
	if (!ret && csv[0] && (last || rb_output_rewritable(csv)))
		ret = rb_write_file(csv, RB_FMT_CSV, &s->rep, s->res, s->nres);
	return ret;
}

/* Before anything is measured: the files can be written, and differ. */
int sess_check_outputs(const struct rb_local *c)
{
	const char *paths[] = { c->json_path, c->csv_path, c->samples_path, c->json_stream,
				c->logfile };
	const char *names[] = { "json", "csv", "samples", "json-stream", "logfile" };
	char err[RB_TEXT_MAX];
	size_t i, j;

	for (i = 0; i < 5; i++)
		for (j = i + 1; j < 5; j++)
			if (paths[i][0] && paths[j][0] && rb_output_same(paths[i], paths[j])) {
				rb_err("--%s and --%s name the same file (%s)", names[i], names[j],
				       paths[j]);
				return -EINVAL;
			}
	for (i = 0; i < 4; i++) /* the log file is open already */
		if (paths[i][0] && rb_output_check(paths[i], err, sizeof(err))) {
			rb_err("--%s %s", names[i], err);
			return -EINVAL;
		}
	return 0;
}

/*
 * --samples: the point's samples into the file, in measurement order,
 * before its summary sorts them.  The file starts with the first point.
 */
int sess_keep_samples(struct session *s)
{
	struct rb_samples *lat = rb_run_samples(s->run);
	double k = s->bench->lat_scale;
	int ret = 0;

	if (!s->l->samples_path[0] || !lat->n)
		return 0;
	if (!s->sf.f)
		ret = rb_samples_file_open(&s->sf, s->l->samples_path, s->l->cycles);
	return ret ? ret
		   : rb_samples_file_point(&s->sf, s->bench->name, s->rep.op, rb_run_point(s->run),
					   lat, k * rb_ns_per_tick(s->run) / 1000, k);
}

/* -H and -C, from the samples the summary left sorted. */
int sess_lat_extras(struct session *s, struct rb_result *res)
{
	struct rb_samples *lat = rb_run_samples(s->run);
	double ns = rb_ns_per_tick(s->run), k = s->bench->lat_scale;
	struct rb_lat_buckets b;
	int ret = 0;

	if (!res->has_lat)
		return 0;
	if (s->l->histogram) {
		ret = rb_lat_buckets(lat, &b);
		if (!ret)
			rb_lat_hist_fill(&b, k * ns / 1000, k, &res->hist);
		res->has_hist = !ret;
	}
	if (!ret && s->l->cycles) {
		/* A scale of k * 1000 "ns" per tick reports ticks times k. */
		ret = rb_lat_summarize(lat, k * 1000, &res->lat_ticks);
		res->has_ticks = !ret;
		res->ticks_per_us = ns > 0 ? 1000 / ns : 0;
	}
	return ret;
}

/* --json-stream FILE: its writer, begun with stdout's (the file checked before). */
static void stream_begin(struct session *s)
{
	FILE *f;

	if (!s->l->json_stream[0] || s->stream.f)
		return;
	f = fopen(s->l->json_stream, "w");
	if (!f) {
		rb_warn("--json-stream %s: %s; the run goes on without it", s->l->json_stream,
			strerror(errno));
		return;
	}
	rb_writer_init(&s->stream, RB_FMT_JSONL, f);
	s->stream.ops->begin(&s->stream, &s->rep);
}

/* stdout's writer, begun once; its first line replaces a progress line. */
void sess_out_begin(struct session *s)
{
	if (s->progress) {
		fputs("\r\033[K", stderr);
		s->progress = false;
	}
	/* rdmabench matrix keeps the points itself: nothing on stdout. */
	if (s->out_begun || s->h.on_point)
		return;
	rb_writer_init(&s->out, (enum rb_format)s->l->format, stdout);
	s->out.ops->begin(&s->out, &s->rep);
	s->out_begun = true;
	stream_begin(s);
}

/* Keep a finished point: print it, and rewrite the files whole. */
int sess_emit(struct session *s, const struct rb_result *res)
{
	struct rb_result *n = realloc(s->res, (s->nres + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->res = n;
	s->res[s->nres++] = *res;
	/* rdmabench matrix keeps the point itself: nothing on stdout. */
	if (s->h.on_point) {
		s->h.on_point(s->h.on_point_ctx, res, &s->rep);
		return sess_write_files(s, false);
	}
	sess_out_begin(s);
	s->out.ops->row(&s->out, &s->rep, res);
	if (s->stream.f)
		s->stream.ops->row(&s->stream, &s->rep, res);
	return sess_write_files(s, false);
}

/* --interval: a slice of the point being measured, on stdout as it ends. */
void sess_show_interval(void *ctx, const struct rb_run *r, const struct rb_interval *iv)
{
	struct session *s = ctx;
	struct rb_point pt = *rb_run_point(r);

	if (s->h.on_point)
		return;
	if (rb_run_signal_asked(r)) /* the point's label, as its result has it */
		pt.signal = rb_run_signal_asked(r);
	sess_out_begin(s);
	if (s->out.ops->interval)
		s->out.ops->interval(&s->out, &s->rep, &pt, iv, rb_run_intervals(r) - 1);
	if (s->stream.f)
		s->stream.ops->interval(&s->stream, &s->rep, &pt, iv, rb_run_intervals(r) - 1);
}

/*
 * The status line (--progress always, or auto with stderr a terminal): a
 * client's point, redrawn at each heartbeat, about once a second: which
 * point, elapsed and left (-D, or -n from the operations completed), and
 * the bandwidth so far from the completion marks (engine's bw window).
 */
bool sess_status_on(const struct session *s)
{
	const struct rb_local *l = s->l;

	if (s->role != RB_ROLE_CLIENT || s->h.thread_hooks || s->h.on_point ||
	    l->progress == RB_PROGRESS_NEVER || (rb_quiet && l->progress != RB_PROGRESS_ALWAYS))
		return false;
	return l->progress == RB_PROGRESS_ALWAYS || isatty(STDERR_FILENO);
}

void sess_status(void *ctx, const struct rb_run *r)
{
	struct session *s = ctx;
	struct rb_run_progress pr;
	bool tty = isatty(STDERR_FILENO), started;
	uint64_t now = rb_now_ns();
	double el, done = 0, gbps = 0;
	char sz[16];

	rb_run_progress(r, &pr);
	/* pr.t0 is the measured start of the last point that began measuring. */
	started = pr.t0 && pr.t0 >= s->status_ns;
	el = started && now > pr.t0 ? (double)(now - pr.t0) / 1e9 : 0;
	if (started && pr.marked) {
		gbps = pr.gbps;
		done = pr.done;
	}
	fprintf(stderr, "%sstatus: point %u/%u size %s: ", tty ? "\r\033[K" : "", s->status_i + 1,
		s->status_n, rb_size_str(pr.size, sz, sizeof(sz)));
	if (!started)
		fputs("warming up", stderr);
	else if (s->p.duration_s)
		fprintf(stderr, "%.0f s of %u s, ~%.0f s left", el, s->p.duration_s,
			el < s->p.duration_s ? s->p.duration_s - el : 0);
	else if (done > 0 && s->p.iters)
		fprintf(stderr, "%.0f s, %.0f of %llu iterations, ~%.0f s left", el, done,
			(unsigned long long)s->p.iters,
			done < (double)s->p.iters ? el / done * ((double)s->p.iters - done) : 0);
	else
		fprintf(stderr, "%.0f s", el);
	if (gbps > 0)
		fprintf(stderr, ", %.3g Gb/s so far", gbps);
	if (!tty)
		fputc('\n', stderr);
	fflush(stderr);
	s->progress = tty;
}

/*
 * A point cut short by a signal (-EINTR): report what it measured until
 * then, from this side's figures alone, and its intervals.  Still -EINTR.
 */
int sess_cut_point(struct session *s)
{
	struct rb_run *r = s->run;
	struct rb_result res;

	/* Reversed, the point's figures are the server's, and a cut point
	 * gets no RESULT: the receiver's own are not the point's. */
	if (s->p.reversed)
		return -EINTR;
	if (rb_point_cut(r) <= 0 || sess_keep_samples(s) || s->bench->result(r, &res) ||
	    sess_lat_extras(s, &res))
		return -EINTR;
	res.cut = true;
	sess_emit(s, &res);
	return -EINTR;
}

/*
 * The files' last version: every finished point, and when the run did not
 * finish, "complete": false with the reason.  Nothing is written for a run
 * that never reached its peer's device.
 */
int sess_finish_output(struct session *s, int ret)
{
	static __thread char reason[RB_TEXT_MAX];
	/* The points that finished, also of a run that did not. */
	int sret = rb_samples_file_close(&s->sf);

	if (s->out_begun)
		s->out.ops->end(&s->out, &s->rep);
	fflush(stdout);
	if (!s->rep.test)
		return sret;
	if (ret) {
		s->rep.incomplete = true;
		snprintf(reason, sizeof(reason), "%s",
			 ret == -EINTR || rb_interrupted ? "interrupted" : rb_last_error);
		s->rep.reason = reason;
	}
	if (s->stream.f) {
		s->stream.ops->end(&s->stream, &s->rep);
		fclose(s->stream.f);
		s->stream.f = NULL;
	}
	ret = sess_write_files(s, true);
	return ret ? ret : sret;
}
