// SPDX-License-Identifier: MIT
/*
 * Output writers: table (for people), CSV and JSON (for programs).  Each
 * writer only formats what stats.c computed; all data goes to the writer's
 * FILE, diagnostics to stderr through rb_err().
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdma/counters.h"
#include "core/csv.h"
#include "core/metrics.h"
#include "report/output.h"
#include "wire/plan.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static int file_status(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* ---- JSON -------------------------------------------------------------- */

/*
 * Objects are built with json_object_set_new(), which takes the value's
 * reference even when it fails and fails on a NULL value or object, so a
 * builder ORs the results together and checks once at the end.
 */
static json_t *jdone(json_t *o, int bad)
{
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* NaN and infinity are not JSON numbers: they become null. */
static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *juint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* A count where a negative value means "none". */
static json_t *jint_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/*
 * A string, or null for NULL.  json_string() refuses invalid UTF-8; such a
 * name (a host name could be anything) keeps its ASCII and gets '?' for
 * the other bytes rather than failing the whole document.
 */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *copy, *p;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *jaxis(const struct rb_axis *a)
{
	json_t *arr = json_array();
	int bad = !arr;
	uint32_t i;

	for (i = 0; i < a->n && i < RB_MAX_AXIS; i++)
		bad |= json_array_append_new(arr, juint(a->v[i]));
	return jdone(arr, bad);
}

/* A string, or null when absent or empty (no GID on InfiniBand). */
static json_t *jstr_or_null(const char *s)
{
	return s && s[0] ? jstr(s) : json_null();
}

static json_t *jdevice(const struct rb_report *r)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "name", jstr(r->device));
	bad |= json_object_set_new(o, "port", json_integer(r->port));
	bad |= json_object_set_new(o, "gid_index", jint_or_null(r->gid_index));
	bad |= json_object_set_new(o, "link_layer", jstr(r->link_layer));
	bad |= json_object_set_new(o, "active_mtu", json_integer(r->active_mtu));
	bad |= json_object_set_new(o, "path_mtu", json_integer(r->path_mtu));
	bad |= json_object_set_new(o, "gid_type", jstr_or_null(r->gid_type));
	bad |= json_object_set_new(o, "gid", jstr_or_null(r->gid));
	bad |= json_object_set_new(o, "why_device", jstr_or_null(r->why_device));
	bad |= json_object_set_new(o, "why_gid", jstr_or_null(r->why_gid));
	bad |= json_object_set_new(o, "qp_timeout", json_integer(r->qp.timeout));
	bad |= json_object_set_new(o, "retry_count", json_integer(r->qp.retry_count));
	bad |= json_object_set_new(o, "pkey_index", json_integer(r->qp.pkey_index));
	bad |= json_object_set_new(o, "hop_limit", json_integer(r->qp.hop_limit));
	bad |= json_object_set_new(o, "relaxed_ordering", json_boolean(r->relaxed_ordering));
	bad |= json_object_set_new(o, "why_relaxed_ordering", jstr_or_null(r->why_relaxed));
	bad |= json_object_set_new(o, "post_api", jstr_or_null(r->post_api));
	/* The CQ's vector, once there is one (with the QPs: post_api). */
	bad |= json_object_set_new(o, "comp_vector",
				   r->post_api ? json_integer(r->comp_vector) : json_null());
	return jdone(o, bad);
}

/* --flow-label: a number as before, a list when it is one (QP i: label i mod n). */
static json_t *jflows(const struct rb_params *p)
{
	json_t *arr;
	uint32_t i;
	int bad;

	if (p->nflow <= 1)
		return json_integer(p->nflow ? p->flow_label[0] : 0);
	arr = json_array();
	bad = !arr;
	for (i = 0; i < p->nflow && i < RB_FLOW_MAX; i++)
		bad |= json_array_append_new(arr, juint(p->flow_label[i]));
	return jdone(arr, bad);
}

json_t *rb_json_params(const struct rb_params *p)
{
	char rate[32];
	json_t *o;
	int bad;

	if (!p)
		return json_null();
	o = json_object();
	bad = !o;
	bad |= json_object_set_new(o, "size", jaxis(&p->size));
	bad |= json_object_set_new(o, "batch", jaxis(&p->batch));
	bad |= json_object_set_new(o, "signal", jaxis(&p->signal));
	bad |= json_object_set_new(o, "qps", jaxis(&p->qps));
	bad |= json_object_set_new(o, "tx_depth", jaxis(&p->tx_depth));
	bad |= json_object_set_new(o, "iterations", p->iters ? juint(p->iters) : json_null());
	bad |= json_object_set_new(o, "duration_s",
				   p->duration_s || p->forever ? json_integer(p->duration_s)
							       : json_null());
	if (p->interval_ms)
		bad |= json_object_set_new(o, "interval_s", jreal(p->interval_ms / 1000.0));
	if (p->rate_unit)
		bad |= json_object_set_new(
			o, "rate", jstr(rb_rate_str(p->rate, p->rate_unit, rate, sizeof(rate))));
	if (p->latency_gap_us)
		bad |= json_object_set_new(o, "latency_gap_us", json_integer(p->latency_gap_us));
	if (p->recv_post_list)
		bad |= json_object_set_new(o, "recv_post_list", json_integer(p->recv_post_list));
	if (p->imm)
		bad |= json_object_set_new(o, "with_imm", json_true());
	bad |= json_object_set_new(o, "poll", jstr(p->poll == RB_POLL_EVENT ? "event" : "busy"));
	bad |= json_object_set_new(
		o, "warmup", p->warmup == RB_WARMUP_AUTO ? json_string("auto") : juint(p->warmup));
	bad |= json_object_set_new(o, "rx_depth", json_integer(p->rx_depth));
	bad |= json_object_set_new(o, "inline_size", json_integer(p->inline_size));
	bad |= json_object_set_new(o, "outstanding", json_integer(p->outstanding));
	bad |= json_object_set_new(o, "mtu", p->mtu ? json_integer(p->mtu) : json_null());
	bad |= json_object_set_new(o, "verify", json_boolean(p->verify));
	bad |= json_object_set_new(o, "rdma_cm", json_boolean(p->use_cm));
	bad |= json_object_set_new(o, "transport", jstr(rb_transport_name(p->transport)));
	bad |= json_object_set_new(o, "sl", json_integer(p->sl));
	bad |= json_object_set_new(o, "tclass", json_integer(p->tclass));
	bad |= json_object_set_new(o, "flow_label", jflows(p));
	bad |= json_object_set_new(o, "hugepages", json_boolean(p->hugepages));
	bad |= json_object_set_new(o, "odp", json_boolean(p->odp));
	bad |= json_object_set_new(o, "mr_per_qp", json_boolean(p->mr_per_qp));
	bad |= json_object_set_new(o, "srq", json_boolean(p->srq));
	bad |= json_object_set_new(o, "threads", json_integer(p->threads ? p->threads : 1));
	bad |= json_object_set_new(o, "bidirectional", json_boolean(p->bidir));
	/* Only when set: files of every earlier run keep their members. */
	if (p->reversed)
		bad |= json_object_set_new(o, "reversed", json_true());
	return jdone(o, bad);
}

json_t *rb_json_placement(const struct rb_placement *p)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "device_numa_node", jint_or_null(p->device_numa_node));
	bad |= json_object_set_new(o, "cpus", p->cpus[0] ? jstr(p->cpus) : json_null());
	bad |= json_object_set_new(o, "mem_node", jint_or_null(p->mem_node));
	bad |= json_object_set_new(o, "local", p->local < 0 ? json_null() : json_boolean(p->local));
	bad |= json_object_set_new(o, "freq_cpu", jint_or_null(p->freq_cpu));
	bad |= json_object_set_new(o, "cpu_governor", jstr_or_null(p->governor));
	bad |= json_object_set_new(o, "cpu_mhz", p->cpu_mhz ? juint(p->cpu_mhz) : json_null());
	return jdone(o, bad);
}

/* The latency rows of rb_metrics[] in @l, by their JSON keys. */
static json_t *jlat(const struct rb_lat_summary *l)
{
	const struct rb_metric *m;
	json_t *o = json_object();
	int bad = !o;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if (m->group == RB_MG_LAT)
			bad |= json_object_set_new(o, m->json_key, jreal(rb_metric_lat(m, l)));
	return jdone(o, bad);
}

/*
 * The rows of group @g (not latency) where @res has the group: each by its
 * name, null where it is not a number or 0 means not measured.
 */
static int jgroup(json_t *o, const struct rb_result *res, enum rb_metric_group g)
{
	const struct rb_metric *m;
	int bad = 0;

	if (!rb_metric_group_has(g, res))
		return 0;
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if (m->group == g)
			bad |= json_object_set_new(o, m->name,
						   rb_metric_has(m, res)
							   ? jreal(rb_metric_value(m, res))
							   : json_null());
	return bad;
}

/* How lat_us's percentiles were found: from every sample, or from buckets (stats.h). */
static json_t *jpercentiles(const struct rb_lat_summary *l)
{
	return jstr(l->bucketed ? "bucketed" : "exact");
}

static json_t *jreals(const double *v, uint32_t n)
{
	json_t *a = json_array();
	int bad = !a;
	uint32_t i;

	for (i = 0; i < n; i++)
		bad |= json_array_append_new(a, jreal(v[i]));
	return jdone(a, bad);
}

/* -H: edges (one more than buckets) and counts; with -C the edges in ticks too. */
static json_t *jhist(const struct rb_result *res)
{
	const struct rb_lat_hist *h = &res->hist;
	json_t *o = json_object(), *c = json_array();
	int bad = !o || !c;
	uint32_t i;

	for (i = 0; i < h->n; i++)
		bad |= json_array_append_new(c, juint(h->count[i]));
	bad |= json_object_set_new(o, "edges_us", jreals(h->edge_us, h->n + 1));
	if (res->has_ticks)
		bad |= json_object_set_new(o, "edges_ticks", jreals(h->edge_ticks, h->n + 1));
	bad |= json_object_set_new(o, "counts", c);
	bad |= json_object_set_new(o, "tail", json_boolean(h->tail));
	return jdone(o, bad);
}

/* One direction of a -b point. */
static json_t *jdir(const struct rb_dir_result *d)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "initiator", jstr(d->by_server ? "server" : "client"));
	bad |= json_object_set_new(o, "iterations", juint(d->iters));
	bad |= json_object_set_new(o, "duration_s", jreal(d->duration_s));
	bad |= json_object_set_new(o, "bw_avg_gbps", jreal(d->bw_avg_gbps));
	bad |= json_object_set_new(o, "bw_peak_gbps", jreal(d->bw_peak_gbps));
	bad |= json_object_set_new(o, "msg_rate_mpps", jreal(d->msg_rate_mpps));
	return jdone(o, bad);
}

static json_t *jbidir(const struct rb_result *res)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "client_to_server", jdir(&res->dir[RB_DIR_C2S]));
	bad |= json_object_set_new(o, "server_to_client", jdir(&res->dir[RB_DIR_S2C]));
	return jdone(o, bad);
}

/* The names of the peer's figures that failed their check (RB_PEER_*). */
static json_t *jrejected(uint32_t bits)
{
	json_t *a = json_array();
	int bad = !a;
	uint32_t i;

	for (i = 0; i < RB_PEER_NFIELDS && !bad; i++)
		if (bits & (1u << i))
			bad |= json_array_append_new(a, jstr(rb_result_field(1u << i)));
	return jdone(a, bad);
}

/* The metrics of one result; those that do not apply are left out. */
static int jmetrics(json_t *o, const struct rb_result *res)
{
	int bad = 0;

	if (res->has_lat) {
		bad |= json_object_set_new(o, "lat_us", jlat(&res->lat));
		bad |= json_object_set_new(o, "percentiles", jpercentiles(&res->lat));
	}
	if (res->has_lat && res->has_ticks) {
		bad |= json_object_set_new(o, "lat_ticks", jlat(&res->lat_ticks));
		bad |= json_object_set_new(o, "ticks_per_us", jreal(res->ticks_per_us));
	}
	if (res->has_lat && res->has_hist)
		bad |= json_object_set_new(o, "histogram", jhist(res));
	bad |= jgroup(o, res, RB_MG_BW);
	bad |= jgroup(o, res, RB_MG_CPU);
	bad |= jgroup(o, res, RB_MG_PEER);
	/* --poll event's wake-ups: outside the metric table (a count and a
	 * ratio that only event mode has; the CSV column is event mode's). */
	if (res->has_wakeups) {
		bad |= json_object_set_new(o, "wakeups", juint(res->wakeups));
		bad |= json_object_set_new(o, "wakeups_per_msg", jreal(res->wakeups_per_msg));
	}
	/* -b: bw_avg_gbps and msg_rate_mpps above are the sums of these. */
	if (res->has_bidir)
		bad |= json_object_set_new(o, "bidir", jbidir(res));
	if (res->peer_rejected)
		bad |= json_object_set_new(o, "peer_result_rejected",
					   jrejected(res->peer_rejected));
	return bad;
}

static json_t *jinterval(const struct rb_interval *iv)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "start_s", jreal(iv->start_s));
	bad |= json_object_set_new(o, "duration_s", jreal(iv->duration_s));
	bad |= json_object_set_new(o, "iterations", juint(iv->ops));
	bad |= json_object_set_new(o, "bw_avg_gbps", jreal(iv->bw_gbps));
	bad |= json_object_set_new(o, "msg_rate_mpps", jreal(iv->msg_rate_mpps));
	if (iv->has_lat) {
		bad |= json_object_set_new(o, "lat_us", jlat(&iv->lat));
		bad |= json_object_set_new(o, "percentiles", jpercentiles(&iv->lat));
	}
	return jdone(o, bad);
}

/* --interval's slices, --rate's outcome, a point cut short: where they apply. */
static int jshape(json_t *o, const struct rb_result *res)
{
	const char *unit = res->rate_pps ? "mpps" : "gbps";
	char name[32];
	json_t *arr;
	size_t i;
	int bad = 0;

	if (res->cut)
		bad |= json_object_set_new(o, "interrupted", json_true());
	if (res->nothing_measured)
		bad |= json_object_set_new(o, "nothing_measured", json_true());
	if (res->peer_nothing_measured)
		bad |= json_object_set_new(o, "peer_nothing_measured", json_true());
	if (res->has_rate) {
		snprintf(name, sizeof(name), "rate_target_%s", unit);
		bad |= json_object_set_new(o, name, jreal(res->rate_target));
		snprintf(name, sizeof(name), "rate_achieved_%s", unit);
		bad |= json_object_set_new(o, name, jreal(res->rate_achieved));
		bad |= json_object_set_new(o, "rate_deviation_pct", jreal(res->rate_dev_pct));
	}
	if (!res->iv)
		return bad;
	if (res->has_bw_min_iv)
		bad |= json_object_set_new(o, "bw_min_interval_gbps", jreal(res->bw_min_iv_gbps));
	arr = json_array();
	for (i = 0; arr && i < res->niv; i++)
		bad |= json_array_append_new(arr, jinterval(&res->iv[i]));
	return bad | json_object_set_new(o, "intervals", arr);
}

json_t *rb_json_result(const struct rb_result *res)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "size", juint(res->pt.size));
	bad |= json_object_set_new(o, "batch", juint(res->pt.batch));
	bad |= json_object_set_new(o, "signal", juint(res->pt.signal));
	bad |= json_object_set_new(o, "qps", juint(res->pt.qps));
	bad |= json_object_set_new(o, "tx_depth", juint(res->pt.tx_depth));
	bad |= json_object_set_new(o, "iterations", juint(res->iters));
	bad |= json_object_set_new(o, "warmup", juint(res->pt.warmup));
	bad |= json_object_set_new(o, "duration_s", jreal(res->duration_s));
	if (o)
		bad |= jmetrics(o, res) | jshape(o, res);
	/* counters, peer_counters, expect...: built by the session per point. */
	if (o && res->diag)
		bad |= json_object_update(o, res->diag);
	return jdone(o, bad);
}

/* Everything but the results (left empty) and the recommendation. */
static json_t *jdoc(const struct rb_report *r)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "schema_version", json_integer(RB_SCHEMA_VERSION));
	bad |= json_object_set_new(o, "tool", json_string(RB_TOOL));
	bad |= json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
	bad |= json_object_set_new(o, "test", jstr(r->test));
	if (r->op)
		bad |= json_object_set_new(o, "op", jstr(r->op));
	bad |= json_object_set_new(o, "role", jstr(r->role));
	bad |= json_object_set_new(o, "timestamp", jstr(r->timestamp));
	bad |= json_object_set_new(o, "host", jstr(r->host));
	bad |= json_object_set_new(o, "peer", jstr(r->peer));
	bad |= json_object_set_new(o, "device", jdevice(r));
	bad |= json_object_set_new(o, "params", rb_json_params(r->params));
	bad |= json_object_set_new(o, "placement", rb_json_placement(&r->place));
	if (r->has_peer_place)
		bad |= json_object_set_new(o, "peer_placement", rb_json_placement(&r->peer_place));
	bad |= json_object_set_new(o, "results", json_array());
	return jdone(o, bad);
}

/* Which counters and gates the run had (known once the peers met). */
static int jdiag(json_t *doc, const struct rb_report *r)
{
	json_t *ex;
	uint32_t i;
	int bad = 0;

	if (r->samples_path)
		bad |= json_object_set_new(doc, "samples_file", jstr(r->samples_path));
	if (r->tick_clock)
		bad |= json_object_set_new(doc, "tick_clock", jstr(r->tick_clock));
	if (r->counters_spec)
		bad |= json_object_set_new(doc, "counters_spec", jstr(r->counters_spec));
	if (r->has_counters)
		bad |= json_object_set_new(doc, "driver", jstr(r->driver));
	if (r->has_peer_counters)
		bad |= json_object_set_new(doc, "peer_driver", jstr(r->peer_driver));
	if (r->counters_spec)
		bad |= json_object_set_new(doc, "link_gbps",
					   r->link_gbps > 0 ? jreal(r->link_gbps) : json_null());
	if (!r->expectations || !r->expectations->n)
		return bad;
	ex = json_array();
	for (i = 0; ex && i < r->expectations->n; i++)
		bad |= json_array_append_new(ex, jstr(r->expectations->v[i]));
	return bad | json_object_set_new(doc, "expectations", ex);
}

/* What may be filled in while the sweep runs: set last, after the results. */
static int jfinish(json_t *doc, const struct rb_report *r)
{
	int bad = json_object_set_new(doc, "complete", json_boolean(!r->incomplete));

	bad |= jdiag(doc, r);
	if (r->incomplete)
		bad |= json_object_set_new(doc, "reason", jstr(r->reason ? r->reason : "unknown"));
	if (r->recommendation)
		bad |= json_object_set(doc, "recommendation", r->recommendation);
	return bad ? -ENOMEM : 0;
}

static int json_begin(struct rb_writer *w, const struct rb_report *r)
{
	json_decref(w->doc);
	w->doc = jdoc(r);
	return w->doc ? 0 : -ENOMEM;
}

static int json_row(struct rb_writer *w, const struct rb_report *r, const struct rb_result *res)
{
	json_t *results = json_object_get(w->doc, "results");

	(void)r;
	if (!results)
		return -EINVAL;
	return json_array_append_new(results, rb_json_result(res)) ? -ENOMEM : 0;
}

/* Dumps the document and releases it. */
static int json_end(struct rb_writer *w, const struct rb_report *r)
{
	int ret = w->doc ? jfinish(w->doc, r) : -EINVAL;

	if (!ret && json_dumpf(w->doc, w->f, JSON_INDENT(2)))
		ret = -EIO;
	if (!ret && fputc('\n', w->f) == EOF)
		ret = -EIO;
	json_decref(w->doc);
	w->doc = NULL;
	if (!ret)
		fflush(w->f);
	return ret ? ret : file_status(w->f);
}

/* ---- CSV --------------------------------------------------------------- */

/* The columns before and after the metrics' (rb_metrics[], in its order). */
static const char csv_head[] = "test,op,device,host,size,batch,signal,qps,tx_depth,iterations,"
			       "duration_s";
static const char csv_tail[] = ",device_numa_node,cpus,mem_node,local,interval,interval_start_s,"
			       "bw_min_interval_gbps,rate_target_gbps,rate_target_mpps,"
			       "rate_deviation_pct";

/* A text cell after its separator (csv.c quotes it when it must). */
static void csv_str(FILE *f, const char *s)
{
	fputc(',', f);
	rb_csv_str(f, s);
}

/* A figure after its separator; an empty cell when the metric does not apply. */
static void csv_dbl(FILE *f, bool has, double v)
{
	fputc(',', f);
	if (has)
		rb_csv_num(f, v);
}

static void csv_int(FILE *f, int v)
{
	fputc(',', f);
	if (v >= 0)
		fprintf(f, "%d", v);
}

/* Every metric's cell, in rb_metrics[]'s order: empty where it does not apply. */
static void csv_metrics(FILE *f, const struct rb_result *res)
{
	const struct rb_metric *m;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		csv_dbl(f, rb_metric_has(m, res), rb_metric_value(m, res));
}

static void csv_place(FILE *f, const struct rb_placement *p)
{
	csv_int(f, p->device_numa_node);
	csv_str(f, p->cpus);
	csv_int(f, p->mem_node);
	fprintf(f, ",%s", p->local < 0 ? "" : p->local ? "true" : "false");
}

/* A --threads run's rows: a column says whose (a thread's, or "all"). */
static bool by_thread(const struct rb_report *r)
{
	return r->params && r->params->threads > 1;
}

static const char *thread_cell(const struct rb_result *res, char *buf, size_t len)
{
	if (!res->thread_row)
		return "all";
	snprintf(buf, len, "%u", res->thread_row - 1);
	return buf;
}

/* The default counters of each side's driver follow the fixed columns. */
/* -b: each direction's columns, after the common ones (empty on a server). */
static const char csv_bidir_header[] = ",c2s_bw_avg_gbps,c2s_msg_rate_mpps,"
				       "s2c_bw_avg_gbps,s2c_msg_rate_mpps";

static bool bidir_cols(const struct rb_report *r)
{
	return r->params && r->params->bidir;
}

/* The header's columns up to the placement's (rb_csv_header()'s text). */
static void csv_header(FILE *f)
{
	const struct rb_metric *m;

	fputs(csv_head, f);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		fprintf(f, ",%s", m->name);
	fputs(csv_tail, f);
}

/* --poll event: a column of wake-ups per message. */
static bool event_cols(const struct rb_report *r)
{
	return r->params && r->params->poll == RB_POLL_EVENT;
}

static int csv_begin(struct rb_writer *w, const struct rb_report *r)
{
	csv_header(w->f);
	if (event_cols(r))
		fputs(",wakeups_per_msg", w->f);
	if (by_thread(r))
		fputs(",thread", w->f);
	if (bidir_cols(r))
		fputs(csv_bidir_header, w->f);
	if (r->has_counters)
		rb_counters_csv_header(w->f, "ctr_", (enum rb_ctr_driver)r->driver_id);
	if (r->has_peer_counters)
		rb_counters_csv_header(w->f, "peer_ctr_", (enum rb_ctr_driver)r->peer_driver_id);
	fputc('\n', w->f);
	return file_status(w->f);
}

static void csv_counters(FILE *f, const struct rb_report *r, const struct rb_result *res)
{
	json_t *d = res->diag;

	if (r->has_counters)
		rb_counters_csv_json(f, (enum rb_ctr_driver)r->driver_id,
				     json_object_get(d, "counters"),
				     json_object_get(d, "counters_derived"));
	if (r->has_peer_counters)
		rb_counters_csv_json(f, (enum rb_ctr_driver)r->peer_driver_id,
				     json_object_get(d, "peer_counters"),
				     json_object_get(d, "peer_counters_derived"));
}

static void csv_bidir(FILE *f, const struct rb_result *res)
{
	int d;

	for (d = RB_DIR_C2S; d <= RB_DIR_S2C; d++) {
		csv_dbl(f, res->has_bidir, res->dir[d].bw_avg_gbps);
		csv_dbl(f, res->has_bidir, res->dir[d].msg_rate_mpps);
	}
}

/*
 * A slice as a result of its own: its point's axes, its figures, nothing
 * it does not have (peak, CPU, peer, counters).
 */
static struct rb_result iv_result(const struct rb_point *pt, const struct rb_interval *iv)
{
	struct rb_result x = { .pt = *pt, .iters = iv->ops, .duration_s = iv->duration_s };

	x.has_lat = iv->has_lat;
	x.lat = iv->lat;
	x.has_bw = true;
	x.bw_avg_gbps = iv->bw_gbps;
	x.bw_peak_gbps = NAN;
	x.msg_rate_mpps = iv->msg_rate_mpps;
	return x;
}

/* The shape columns: slice @idx (1-based; 0 for the point's own row). */
static void csv_shape(FILE *f, const struct rb_result *res, size_t idx, double start_s)
{
	fputc(',', f);
	if (idx)
		fprintf(f, "%zu", idx);
	csv_dbl(f, idx, start_s);
	csv_dbl(f, res->has_bw_min_iv, res->bw_min_iv_gbps);
	csv_dbl(f, res->has_rate && !res->rate_pps, res->rate_target);
	csv_dbl(f, res->has_rate && res->rate_pps, res->rate_target);
	csv_dbl(f, res->has_rate, res->rate_dev_pct);
}

static int csv_line(FILE *f, const struct rb_report *r, const struct rb_result *res, size_t idx,
		    double start_s)
{
	char th[16];

	/* csv_str() writes the separator first: not before the row's first cell. */
	rb_csv_str(f, r->test);
	csv_str(f, r->op);
	csv_str(f, r->device);
	csv_str(f, r->host);
	fprintf(f, ",%llu,%u,%u,%u,%u,%llu", (unsigned long long)res->pt.size, res->pt.batch,
		res->pt.signal, res->pt.qps, res->pt.tx_depth, (unsigned long long)res->iters);
	csv_dbl(f, true, res->duration_s);
	csv_metrics(f, res);
	csv_place(f, res->thread_place ? res->thread_place : &r->place);
	csv_shape(f, res, idx, start_s);
	if (event_cols(r))
		csv_dbl(f, res->has_wakeups, res->wakeups_per_msg);
	if (by_thread(r))
		csv_str(f, thread_cell(res, th, sizeof(th)));
	if (bidir_cols(r))
		csv_bidir(f, res);
	csv_counters(f, r, res);
	fputc('\n', f);
	return file_status(f);
}

/* A point's slices (interval 1, 2, ...), then its own row (interval empty). */
static int csv_row(struct rb_writer *w, const struct rb_report *r, const struct rb_result *res)
{
	struct rb_result x;
	size_t i;
	int ret;

	for (i = 0; i < res->niv; i++) {
		x = iv_result(&res->pt, &res->iv[i]);
		ret = csv_line(w->f, r, &x, i + 1, res->iv[i].start_s);
		if (ret)
			return ret;
	}
	return csv_line(w->f, r, res, 0, 0);
}

static int csv_end(struct rb_writer *w, const struct rb_report *r)
{
	(void)r;
	fflush(w->f);
	return file_status(w->f);
}

/* ---- table ------------------------------------------------------------- */

/* the point's 5, the metrics, thread, -b's 4 */
#define TABLE_MAX_COLS (5 + RB_METRICS_MAX + 1 + 4)
#define TABLE_CELL     32

/* A right-aligned column, as wide as its name (tcol_add()'s @minw at least). */
struct tcol {
	char name[TABLE_CELL];
	int width;
};

static void tcol_add(struct tcol *c, int *n, const char *name, int minw)
{
	struct tcol *t = &c[(*n)++];
	int len = (int)strlen(name);

	snprintf(t->name, sizeof(t->name), "%s", name);
	t->width = len > minw ? len : minw;
}

static const char *units_name(enum rb_units u)
{
	switch (u) {
	case RB_UNITS_GBITS:
		return "Gb/s";
	case RB_UNITS_MBS:
		return "MB/s";
	default:
		return "MiB/s";
	}
}

static double units_value(enum rb_units u, double gbps)
{
	switch (u) {
	case RB_UNITS_GBITS:
		return gbps;
	case RB_UNITS_MBS:
		return gbps * 1e9 / 8 / 1e6;
	default:
		return rb_gbps_to_mibps(gbps);
	}
}

/* Whether the table shows metric @m in a run of @r's mode: latency or the rest. */
static bool table_shows(const struct rb_report *r, const struct rb_metric *m)
{
	return m->table && (m->group == RB_MG_LAT) == (r->mode == RB_MODE_LAT);
}

/* The unit in @m's column: -C's ticks for latency, --units for bandwidth. */
static const char *table_unit(const struct rb_report *r, const struct rb_metric *m)
{
	if (m->group == RB_MG_LAT)
		return r->tick_clock ? "ticks" : m->unit;
	return strcmp(m->unit, "Gb/s") ? m->unit : units_name(r->units);
}

static int table_columns(const struct rb_report *r, struct tcol *c)
{
	const struct rb_metric *m;
	char name[TABLE_CELL];
	int n = 0;

	tcol_add(c, &n, "size", 7);
	tcol_add(c, &n, "batch", 5);
	tcol_add(c, &n, "signal", 6);
	tcol_add(c, &n, "qps", 4);
	tcol_add(c, &n, "iters", 10);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++) {
		if (!table_shows(r, m))
			continue;
		snprintf(name, sizeof(name), "%s[%s]", m->table, table_unit(r, m));
		tcol_add(c, &n, name, m->table_width);
	}
	if (by_thread(r))
		tcol_add(c, &n, "thread", 6);
	if (r->mode == RB_MODE_LAT || !bidir_cols(r))
		return n;
	snprintf(name, sizeof(name), "c2s[%s]", units_name(r->units));
	tcol_add(c, &n, name, 10);
	snprintf(name, sizeof(name), "s2c[%s]", units_name(r->units));
	tcol_add(c, &n, name, 10);
	tcol_add(c, &n, "c2s[Mpps]", 9);
	tcol_add(c, &n, "s2c[Mpps]", 9);
	return n;
}

static void cell_dbl(char *cell, bool has, int prec, double v)
{
	if (has && isfinite(v))
		snprintf(cell, TABLE_CELL, "%.*f", prec, v);
	else
		snprintf(cell, TABLE_CELL, "-");
}

/* Four significant digits: message rates span 0.0007 to 200 Mpps. */
static void cell_sig(char *cell, bool has, double v)
{
	if (has && isfinite(v))
		snprintf(cell, TABLE_CELL, "%.4g", v);
	else
		snprintf(cell, TABLE_CELL, "-");
}

/* The last cell of a --threads run's row: whose it is. */
static void thread_cell_at(const struct rb_report *r, const struct rb_result *res, char *cell)
{
	char th[16];

	if (by_thread(r))
		snprintf(cell, TABLE_CELL, "%s", thread_cell(res, th, sizeof(th)));
}

/* @m's cell: in --units for bandwidth, from lat_ticks under -C. */
static void metric_cell(const struct rb_report *r, const struct rb_result *res,
			const struct rb_metric *m, char *cell)
{
	bool has = rb_metric_has(m, res);
	double v;

	if (m->group == RB_MG_LAT && r->tick_clock) {
		has = has && res->has_ticks;
		v = rb_metric_lat(m, &res->lat_ticks);
	} else {
		v = rb_metric_value(m, res);
	}
	if (!strcmp(m->unit, "Gb/s"))
		v = units_value(r->units, v);
	if (m->fmt == RB_MF_SIG4)
		cell_sig(cell, has, v);
	else
		cell_dbl(cell, has, 2, v);
}

/* The cells of @res, in the order of table_columns(). */
static void table_cells(const struct rb_report *r, const struct rb_result *res,
			char (*cell)[TABLE_CELL])
{
	const struct rb_metric *m;
	int k = 5;

	rb_size_str(res->pt.size, cell[0], TABLE_CELL);
	snprintf(cell[1], TABLE_CELL, "%u", res->pt.batch);
	snprintf(cell[2], TABLE_CELL, "%u", res->pt.signal);
	snprintf(cell[3], TABLE_CELL, "%u", res->pt.qps);
	snprintf(cell[4], TABLE_CELL, "%llu", (unsigned long long)res->iters);
	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if (table_shows(r, m))
			metric_cell(r, res, m, cell[k++]);
	if (by_thread(r))
		thread_cell_at(r, res, cell[k++]);
	if (r->mode == RB_MODE_LAT || !bidir_cols(r))
		return;
	cell_dbl(cell[k++], res->has_bidir, 2,
		 units_value(r->units, res->dir[RB_DIR_C2S].bw_avg_gbps));
	cell_dbl(cell[k++], res->has_bidir, 2,
		 units_value(r->units, res->dir[RB_DIR_S2C].bw_avg_gbps));
	cell_sig(cell[k++], res->has_bidir, res->dir[RB_DIR_C2S].msg_rate_mpps);
	cell_sig(cell[k], res->has_bidir, res->dir[RB_DIR_S2C].msg_rate_mpps);
}

/* The cells, aligned, then @tail and the line's end. */
static void table_line(FILE *f, const struct tcol *c, int n, char (*cell)[TABLE_CELL],
		       const char *tail)
{
	int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%*s", i ? " " : "", c[i].width, cell[i]);
	fprintf(f, "%s\n", tail);
}

static const char *local_name(int local)
{
	if (local < 0)
		return "unknown";
	return local ? "local" : "remote";
}

/* The measuring CPU's clock, and the warning perftest gives unless -F. */
static void table_freq(FILE *f, const char *what, const struct rb_placement *p, bool quiet)
{
	char gov[4 * sizeof(p->governor)], mhz[24] = "";

	if (!p->governor[0] && !p->cpu_mhz)
		return;
	rb_escape(p->governor, gov, sizeof(gov));
	if (p->cpu_mhz)
		snprintf(mhz, sizeof(mhz), " at %u MHz", p->cpu_mhz);
	fprintf(f, "# %s cpu %d: governor %s%s\n", what, p->freq_cpu, str_or(gov, "unknown"), mhz);
	if (!quiet && rb_freq_varies(p))
		fprintf(f,
			"# warning: %s cpu %d runs the %s governor, not performance: its clock "
			"follows its load, and latencies with it (-F/--cpu-freq silences this)\n",
			what, p->freq_cpu, gov);
}

/* A peer's placement is the peer's text: printed escaped (rb_escape()). */
static void table_place(FILE *f, const char *what, const struct rb_placement *p, bool quiet)
{
	char node[16] = "unknown", mem[16] = "any", cpus[4 * sizeof(p->cpus)];

	if (p->device_numa_node >= 0)
		snprintf(node, sizeof(node), "%d", p->device_numa_node);
	if (p->mem_node >= 0)
		snprintf(mem, sizeof(mem), "%d", p->mem_node);
	fprintf(f, "# %s: device NUMA node %s, cpus %s, memory node %s (%s)\n", what, node,
		str_or(rb_escape(p->cpus, cpus, sizeof(cpus)), "any"), mem, local_name(p->local));
	table_freq(f, what, p, quiet);
}

static void table_title(FILE *f, const struct rb_report *r)
{
	fprintf(f, "# %s %s %s%s%s %s  %s -> %s\n", RB_TOOL, PACKAGE_VERSION, str_or(r->test, "-"),
		r->op ? " " : "", r->op ? r->op : "", str_or(r->role, "-"), str_or(r->host, "-"),
		str_or(r->peer, "-"));
	fprintf(f, "# device %s port %d", str_or(r->device, "-"), r->port);
	if (r->gid_index >= 0)
		fprintf(f, " gid %d", r->gid_index);
	fprintf(f, " (%s)  MTU active %u, path %u\n", str_or(r->link_layer, "-"), r->active_mtu,
		r->path_mtu);
	table_place(f, "placement", &r->place, r->freq_quiet);
	if (r->has_peer_place)
		table_place(f, "peer placement", &r->peer_place, r->freq_quiet);
	if (r->samples_path)
		fprintf(f, "# samples: every latency sample, in measurement order, in %s\n",
			r->samples_path);
	if (r->tick_clock)
		fprintf(f,
			"# latency in ticks of the %s clock (-C); the JSON has microseconds too\n",
			r->tick_clock);
	if (r->params && r->params->reversed)
		fprintf(f, "# reversed: the server sent and timed each point; a client's row shows "
			   "the server's figures, its peer columns the client's\n");
	if (bidir_cols(r))
		fprintf(f, "# bidirectional: the client's BW and MsgRate are the sums of c2s "
			   "(client to server) and s2c; a server's rows show only its own "
			   "stream\n");
}

static int table_begin(struct rb_writer *w, const struct rb_report *r)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int i, n, len = 0;

	table_title(w->f, r);
	n = table_columns(r, c);
	for (i = 0; i < n; i++) {
		memcpy(cell[i], c[i].name, TABLE_CELL);
		len += c[i].width + (i ? 1 : 0);
	}
	table_line(w->f, c, n, cell, "");
	for (i = 0; i < len; i++)
		fputc('-', w->f);
	fputc('\n', w->f);
	fflush(w->f);
	return file_status(w->f);
}

/* One line per point, flushed: rows appear as points finish. */
/* Under a point: its lowest slice, its rate, that it was cut short or measured nothing. */
static void table_shape(FILE *f, const struct rb_report *r, const struct rb_result *res)
{
	if (res->has_bw_min_iv)
		fprintf(f, "  # lowest interval bandwidth %.2f %s over %zu interval(s)\n",
			units_value(r->units, res->bw_min_iv_gbps), units_name(r->units), res->niv);
	if (res->has_rate)
		fprintf(f, "  # rate: target %.4g %s, achieved %.4g %s (%+.1f%%)\n",
			res->rate_target, res->rate_pps ? "Mpps" : "Gb/s", res->rate_achieved,
			res->rate_pps ? "Mpps" : "Gb/s", res->rate_dev_pct);
	if (res->cut)
		fprintf(f, "  # interrupted: what the point measured until the signal\n");
	if (res->has_lat && res->lat.bucketed)
		fprintf(f, "  # percentiles from buckets (within 0.4%%): more than %zu samples\n",
			RB_SAMPLES_EXACT_MAX);
	if (res->nothing_measured)
		fprintf(f, "  # nothing measured: no operation completed here after the warm-up\n");
	if (res->peer_nothing_measured)
		fprintf(f, "  # the peer measured nothing: no operation completed there after the "
			   "warm-up\n");
}

/* -H: a bar per bucket under the point, the longest HIST_BAR wide. */
#define HIST_BAR 40

static void table_hist(FILE *f, const struct rb_report *r, const struct rb_result *res)
{
	const struct rb_lat_hist *h = &res->hist;
	const double *e = r->tick_clock && res->has_ticks ? h->edge_ticks : h->edge_us;
	const char *unit = e == h->edge_ticks ? "ticks" : "us";
	uint64_t most = 0;
	uint32_t i;
	int bar;

	for (i = 0; i < h->n; i++)
		if (h->count[i] > most)
			most = h->count[i];
	fprintf(f, "  # histogram [%s]: %u buckets from the minimum to p99.9%s\n", unit, h->n,
		h->tail ? ", the last one the tail to the maximum" : "");
	for (i = 0; i < h->n && most; i++) {
		bar = (int)((h->count[i] * HIST_BAR + most - 1) / most);
		fprintf(f, "  # %10.2f - %10.2f %10llu%s%.*s\n", e[i], e[i + 1],
			(unsigned long long)h->count[i], bar ? " " : "", bar,
			"########################################");
	}
}

static int table_row(struct rb_writer *w, const struct rb_report *r, const struct rb_result *res)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int n = table_columns(r, c);

	table_cells(r, res, cell);
	table_line(w->f, c, n, cell, "");
	table_shape(w->f, r, res);
	if (res->has_lat && res->has_hist)
		table_hist(w->f, r, res);
	/* Under the point: the error counters that moved, the gates it failed. */
	if (res->flag[0])
		fprintf(w->f, "  ! %s\n", res->flag);
	fflush(w->f);
	return file_status(w->f);
}

/* A slice, live, in the columns of its point, with when it was. */
static int table_interval(struct rb_writer *w, const struct rb_report *r, const struct rb_point *pt,
			  const struct rb_interval *iv, size_t idx)
{
	struct tcol c[TABLE_MAX_COLS];
	char cell[TABLE_MAX_COLS][TABLE_CELL];
	int n = table_columns(r, c);
	struct rb_result x = iv_result(pt, iv);
	char tail[64];

	table_cells(r, &x, cell);
	snprintf(tail, sizeof(tail), "  [interval %zu: %.2f-%.2f s]", idx + 1, iv->start_s,
		 iv->start_s + iv->duration_s);
	table_line(w->f, c, n, cell, tail);
	fflush(w->f);
	return file_status(w->f);
}

static int table_end(struct rb_writer *w, const struct rb_report *r)
{
	(void)r;
	fflush(w->f);
	return file_status(w->f);
}

/* ---- entry points ------------------------------------------------------ */

static const struct rb_writer_ops writer_ops[] = {
	[RB_FMT_TABLE] = { table_begin, table_row, table_end, table_interval },
	[RB_FMT_CSV] = { csv_begin, csv_row, csv_end },
	[RB_FMT_JSON] = { json_begin, json_row, json_end },
};

const struct rb_writer_ops *rb_std_writer_ops(enum rb_format fmt)
{
	return &writer_ops[fmt <= RB_FMT_JSON ? fmt : RB_FMT_TABLE];
}

static void std_init(struct rb_writer *w, enum rb_format fmt, FILE *f)
{
	w->ops = rb_std_writer_ops(fmt);
	w->f = f;
	w->doc = NULL;
}

const char *rb_csv_header(char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	if (!len)
		return "";
	buf[0] = '\0';
	if (!f)
		return buf;
	csv_header(f);
	fclose(f);
	buf[len - 1] = '\0';
	return buf;
}

json_t *rb_json_report(const struct rb_report *r, const struct rb_result *res, size_t n)
{
	struct rb_writer w;
	size_t i;

	std_init(&w, RB_FMT_JSON, NULL);
	if (json_begin(&w, r))
		return NULL;
	for (i = 0; i < n; i++)
		if (json_row(&w, r, &res[i]))
			goto err_doc;
	if (jfinish(w.doc, r))
		goto err_doc;
	return w.doc;

err_doc:
	json_decref(w.doc);
	return NULL;
}

static int write_all(FILE *f, enum rb_format fmt, const struct rb_report *r,
		     const struct rb_result *res, size_t n)
{
	struct rb_writer w;
	size_t i;
	int ret;

	std_init(&w, fmt, f);
	ret = w.ops->begin(&w, r);
	for (i = 0; !ret && i < n; i++)
		ret = w.ops->row(&w, r, &res[i]);
	if (!ret)
		ret = w.ops->end(&w, r);
	json_decref(w.doc); /* left over when a step failed */
	return ret;
}

int rb_write_file(const char *path, enum rb_format fmt, const struct rb_report *r,
		  const struct rb_result *res, size_t n)
{
	struct rb_afile af;
	FILE *f;
	int ret;

	ret = rb_afile_open(&af, path, &f);
	if (!ret)
		ret = rb_afile_close(&af, f, write_all(f, fmt, r, res, n));
	if (ret)
		rb_err("cannot write %s: %s", path, strerror(-ret));
	return ret;
}

void rb_timestamp(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!len)
		return;
	if (!gmtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}
