// SPDX-License-Identifier: MIT
/*
 * The JSON writer (doc/json-schema.md): the document is built whole
 * with jansson and dumped at the end; rb_json_result() and
 * rb_json_params() serve compare, matrix and --dry-run too.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bench.h"
#include "core/ident.h"
#include "core/cqmod.h"
#include "core/csv.h"
#include "core/metrics.h"
#include "core/regcache.h"
#include "core/opts_row.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/counters.h"
#include "topo/topo.h"
#include "report/out_int.h"
#include "wire/plan.h"

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

static const char *poll_name(uint64_t v)
{
	return v == RB_POLL_EVENT ? "event" : "busy";
}

/* --poll: its one word, or (an axis of more) the array of them. */
static json_t *jpoll(const struct rb_axis *a)
{
	json_t *arr;
	uint32_t i;
	int bad;

	if (a->n == 1)
		return jstr(poll_name(a->v[0]));
	arr = json_array();
	bad = !arr;
	for (i = 0; i < a->n && i < RB_MAX_AXIS; i++)
		bad |= json_array_append_new(arr, jstr(poll_name(a->v[i])));
	return jdone(arr, bad);
}

/*
 * issue 42/40: --lock, --hold, --cq-moderation in "params": as --poll is,
 * one value alone, more as an array; an empty axis as its one value, 0.
 */
static json_t *jvalue42(char kind, uint64_t v)
{
	char buf[24];

	if (kind == 'l')
		return jstr(rb_out_lock_word(v, buf, sizeof(buf)));
	if (kind == 'm')
		return jstr(rb_cqmod_str(v, buf, sizeof(buf)));
	return juint(v);
}

static json_t *jaxis42(const struct rb_axis *a, char kind)
{
	json_t *arr;
	uint32_t i;
	int bad;

	if (a->n <= 1)
		return jvalue42(kind, a->n ? a->v[0] : 0);
	arr = json_array();
	bad = !arr;
	for (i = 0; i < a->n && i < RB_MAX_AXIS; i++)
		bad |= json_array_append_new(arr, jvalue42(kind, a->v[i]));
	return jdone(arr, bad);
}

static int jparams42(json_t *o, const struct rb_params *p)
{
	int bad = 0;

	if (rb_plan_lock_algo(p))
		bad |= json_object_set_new(o, "lock", jaxis42(&p->lock_algo, 'l'));
	if (rb_plan_lock(p))
		bad |= json_object_set_new(o, "hold_us", jaxis42(&p->hold_us, 'u'));
	if (p->cq_mod.n)
		bad |= json_object_set_new(o, "cq_moderation", jaxis42(&p->cq_mod, 'm'));
	return bad;
}

int rb_json_axes42(json_t *o, const struct rb_params *p, const struct rb_point *pt)
{
	int bad = 0;

	if (!o)
		return -ENOMEM;
	if (rb_plan_lock_algo(p))
		bad |= json_object_set_new(o, "lock", jvalue42('l', pt->lock));
	if (rb_plan_lock(p))
		bad |= json_object_set_new(o, "hold_us", juint(pt->hold_us));
	if (p && p->cq_mod.n)
		bad |= json_object_set_new(o, "cq_moderation", jvalue42('m', pt->cq_mod));
	return bad ? -ENOMEM : 0;
}

int rb_json_point_axes(json_t *o, const struct rb_doc *r, const struct rb_result *res)
{
	return rb_json_axes42(o, r->params, &res->pt);
}

/* A string, or null when absent or empty (no GID on InfiniBand). */
static json_t *jstr_or_null(const char *s)
{
	return s && s[0] ? jstr(s) : json_null();
}

/* A link's figure, or null where sysfs did not say (0). */
static json_t *jpos(double v)
{
	return v > 0 ? jreal(v) : json_null();
}

static json_t *jlanes(int v)
{
	return v > 0 ? json_integer(v) : json_null();
}

/*
 * JSON "pcie" of a side whose device sits on PCI function @pci with link
 * @k: its speeds, widths and payload ceiling (rb_pcie_ceiling_gbps), or
 * null when sysfs gives no link; *@why then says why, for "why_pcie".
 */
static json_t *jpcie(const char *pci, const struct rb_pcie_link *k, json_t **why)
{
	char buf[160];

	*why = json_null();
	if (!pci[0] ||
	    (k->cur_gts <= 0 && k->cur_width <= 0 && k->max_gts <= 0 && k->max_width <= 0)) {
		if (pci[0])
			snprintf(buf, sizeof(buf),
				 "sysfs gives no PCIe link for PCI function %s "
				 "(not PCI Express: a virtual or legacy PCI device)",
				 pci);
		else
			snprintf(buf, sizeof(buf),
				 "sysfs names no PCI function for the device (a "
				 "software device such as rxe or siw, or none)");
		json_decref(*why);
		*why = jstr(buf);
		return json_null();
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "pci", jstr(pci), "cur_gts",
			 jpos(k->cur_gts), "max_gts", jpos(k->max_gts), "cur_width",
			 jlanes(k->cur_width), "max_width", jlanes(k->max_width), "ceiling_gbps",
			 jpos(rb_pcie_ceiling_gbps(k->cur_gts, k->cur_width)));
}

static json_t *jdevice(const struct rb_doc *r)
{
	json_t *why;
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "name", jstr(r->device));
	bad |= json_object_set_new(o, "fw_ver", jstr_or_null(r->fw_ver[0] ? r->fw_ver : NULL));
	bad |= json_object_set_new(o, "board_id",
				   jstr_or_null(r->board_id[0] ? r->board_id : NULL));
	bad |= json_object_set_new(o, "vendor_id", json_integer(r->vendor_id));
	bad |= json_object_set_new(o, "vendor_part_id", json_integer(r->vendor_part_id));
	bad |= json_object_set_new(o, "hw_ver", json_integer(r->hw_ver));
	bad |= json_object_set_new(o, "port", json_integer(r->port));
	bad |= json_object_set_new(o, "gid_index", jint_or_null(r->gid_index));
	bad |= json_object_set_new(o, "link_layer", jstr(r->link_layer));
	if (r->transport)
		bad |= json_object_set_new(o, "transport", jstr(r->transport));
	bad |= json_object_set_new(o, "active_mtu", json_integer(r->active_mtu));
	bad |= json_object_set_new(o, "path_mtu", json_integer(r->path_mtu));
	bad |= json_object_set_new(o, "gid_type", jstr_or_null(r->gid_type));
	bad |= json_object_set_new(o, "gid", jstr_or_null(r->gid));
	bad |= json_object_set_new(o, "why_device", jstr_or_null(r->why_device));
	bad |= json_object_set_new(o, "why_gid", jstr_or_null(r->why_gid));
	bad |= json_object_set_new(o, "pcie", jpcie(r->place.pci, &r->place.pcie, &why));
	bad |= json_object_set_new(o, "why_pcie", why);
	bad |= json_object_set_new(o, "qp_timeout", json_integer(r->qp.timeout));
	bad |= json_object_set_new(o, "retry_count", json_integer(r->qp.retry_count));
	bad |= json_object_set_new(o, "pkey_index", json_integer(r->qp.pkey_index));
	bad |= json_object_set_new(o, "hop_limit", json_integer(r->qp.hop_limit));
	bad |= json_object_set_new(o, "relaxed_ordering", json_boolean(r->relaxed_ordering));
	bad |= json_object_set_new(o, "why_relaxed_ordering", jstr_or_null(r->why_relaxed));
	if (r->why_relaxed) /* MRs were registered: what is known of it */
		bad |= json_object_set_new(
			o, "relaxed_ordering_honoured",
			r->relaxed_honoured < 0 ? json_null() : json_boolean(r->relaxed_honoured));
	bad |= json_object_set_new(o, "post_api", jstr_or_null(r->post_api));
	bad |= json_object_set_new(o, "inline_size",
				   r->post_api ? json_integer(r->inline_used) : json_null());
	/* The CQ's vector, once there is one (with the QPs: post_api). */
	bad |= json_object_set_new(o, "comp_vector",
				   r->post_api ? json_integer(r->comp_vector) : json_null());
	if (r->cq_api) { /* issue 40: the CQs' API, vector and moderation */
		bad |= json_object_set_new(o, "cq_api", json_string(r->cq_api));
		bad |= json_object_set_new(o, "cq_poll", jstr_or_null(r->cq_poll));
		bad |= json_object_set_new(o, "why_comp_vector", json_string(r->why_comp_vector));
		/* "none" (not null: compare tells a moderated run from one without) */
		bad |= json_object_set_new(o, "cq_moderation",
					   json_string(r->cq_moderation[0] ? r->cq_moderation
									   : "none"));
	}
	return jdone(o, bad);
}

/* --use-cuda: this side's GPU, where it sits, and how its memory was registered. */
static json_t *jgpu(const struct rb_doc *r)
{
	const struct rb_cuda_gpu *g = r->gpu;
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "index", json_integer(g->index));
	bad |= json_object_set_new(o, "bus_id", jstr(g->bus_id));
	bad |= json_object_set_new(o, "gpus", json_integer(g->count));
	bad |= json_object_set_new(o, "why", jstr(g->why));
	bad |= json_object_set_new(o, "numa_node", jint_or_null(g->numa_node));
	bad |= json_object_set_new(o, "hca_numa_node", jint_or_null(g->hca_node));
	bad |= json_object_set_new(o, "relation", jstr_or_null(g->relation));
	bad |= json_object_set_new(o, "memory", jstr(r->gpu_mem));
	bad |= json_object_set_new(o, "reg", jstr_or_null(r->gpu_reg));
	bad |= json_object_set_new(o, "reg_path", jstr_or_null(r->gpu_reg_path));
	bad |= json_object_set_new(o, "why_reg", jstr_or_null(r->gpu_why_reg));
	return jdone(o, bad);
}

/* A socket test's data connection: each side's buffers as the kernel set them. */
static json_t *jsocket(const struct rb_sock_info *i)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "local", jstr_or_null(i->local));
	bad |= json_object_set_new(o, "peer", jstr_or_null(i->peer));
	bad |= json_object_set_new(o, "nodelay", json_boolean(i->nodelay));
	bad |= json_object_set_new(o, "sndbuf", json_integer(i->sndbuf));
	bad |= json_object_set_new(o, "rcvbuf", json_integer(i->rcvbuf));
	bad |= json_object_set_new(o, "mss", json_integer(i->mss));
	bad |= json_object_set_new(o, "peer_sndbuf", json_integer(i->peer_sndbuf));
	bad |= json_object_set_new(o, "peer_rcvbuf", json_integer(i->peer_rcvbuf));
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

/*
 * The plan rows rb_json_params() writes no member for by hand: each one
 * named by its row's .json, only when set (a file of before the option
 * reads the same), as true, a number, or its choice's word.  A new plan
 * option is in the JSON with its row alone.
 */
static int json_rows_rest(json_t *o, const struct rb_params *p)
{
	const struct rb_opt *r;
	const char *f, *c;
	uint64_t v;
	size_t i, n;
	int bad = 0;

	for (i = 0; i < rb_nopts; i++) {
		r = &rb_opts[i];
		if (!r->json || r->type == RB_OPT_AXIS || json_object_get(o, r->json))
			continue;
		f = (const char *)p + (r->off - RB_OPT_PLAN_BEGIN);
		v = r->type == RB_OPT_U64   ? *(const uint64_t *)(const void *)f
		    : r->type == RB_OPT_U32 ? *(const uint32_t *)(const void *)f
					    : *(const uint8_t *)f;
		if (!v)
			continue;
		if (r->type == RB_OPT_FLAG) {
			bad |= json_object_set_new(o, r->json, json_true());
		} else if (r->type == RB_OPT_CHOICE && r->choices) {
			for (c = r->choices, n = v; n && (c = strchr(c, '|')); n--)
				c++;
			if (!c)
				continue; /* out of its range: rb_plan_validate() refuses it */
			bad |= json_object_set_new(o, r->json, json_stringn(c, strcspn(c, "|")));
		} else {
			bad |= json_object_set_new(o, r->json, juint(v));
		}
	}
	return bad;
}

json_t *rb_json_params(const struct rb_params *p)
{
	char rate[32], reuse[24];
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
	/* issue 42: lock's --backoff, as typed (its plan fields have no row) */
	if (p->backoff_max_ns) {
		snprintf(rate, sizeof(rate), "exp:%u..%u", p->backoff_min_ns, p->backoff_max_ns);
		bad |= json_object_set_new(o, "backoff", jstr(rate));
	}
	if (p->probe) {
		bad |= json_object_set_new(o, "probe", json_true());
		bad |= json_object_set_new(o, "probe_rate",
					   juint(p->probe_rate ? p->probe_rate
							       : RB_PROBE_RATE_DEFAULT));
	}
	bad |= json_object_set_new(o, "poll", jpoll(&p->poll));
	bad |= json_object_set_new(o, "cqe_poll", jaxis(&p->cqe_poll));
	bad |= jparams42(o, p);
	bad |= json_object_set_new(o, "reg_mode",
				   jstr(p->reg_mode == RB_REG_CACHE	? "cache"
					: p->reg_mode == RB_REG_PER_MSG ? "per-msg"
									: "pool"));
	if (p->reg_mode == RB_REG_CACHE)
		bad |= json_object_set_new(
			o, "reuse",
			jstr(rb_reuse_str(p->reuse, p->reuse_zipf, reuse, sizeof(reuse))));
	bad |= json_object_set_new(
		o, "warmup", p->warmup == RB_WARMUP_AUTO ? json_string("auto") : juint(p->warmup));
	bad |= json_object_set_new(o, "rx_depth", json_integer(p->rx_depth));
	bad |= json_object_set_new(o, "inline_size",
				   p->inline_size == RB_INLINE_AUTO ? json_string("auto")
								    : juint(p->inline_size));
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
	/* The rest (--latency_gap, --recv-post-list, the immediates,
	 * --reversed, --wr-lat, --cq-per-qp, ...): from their rows. */
	bad |= json_rows_rest(o, p);
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

/* --probe: where this side's probe thread ran. */
static json_t *jprobe_place(const struct rb_doc *r)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "cpu", jint_or_null(r->probe_cpu));
	bad |= json_object_set_new(o, "shared_with_stream", json_boolean(r->probe_shared));
	bad |= json_object_set_new(o, "other_node", json_boolean(r->probe_elsewhere));
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

/* A --probe summary (lat_us's members) and its round trips, "samples". */
static json_t *jprobe(const struct rb_lat_summary *l, uint64_t n)
{
	json_t *o = jlat(l);

	if (o && json_object_set_new(o, "samples", juint(n))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A sender's WRs per QP: "used" (QPs that completed any), "min", "max". */
static json_t *jqp_wrs(const struct rb_result *res)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "used", json_integer(res->qp_wrs_used));
	bad |= json_object_set_new(o, "min", juint(res->qp_wrs_min));
	bad |= json_object_set_new(o, "max", juint(res->qp_wrs_max));
	return jdone(o, bad);
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
	/* --poll event's wake-ups: the count, then the metric table's ratio. */
	if (res->has_wakeups)
		bad |= json_object_set_new(o, "wakeups", juint(res->wakeups));
	bad |= jgroup(o, res, RB_MG_WAKE);
	if (res->has_qp_wrs)
		bad |= json_object_set_new(o, "qp_wrs", jqp_wrs(res));
	/* --probe: both round-trip summaries whole, then the table's rows. */
	if (res->has_probe) {
		bad |= json_object_set_new(o, "loaded_lat_us",
					   jprobe(&res->probe_loaded, res->probe_loaded_n));
		bad |= json_object_set_new(o, "idle_lat_us",
					   jprobe(&res->probe_idle, res->probe_idle_n));
	}
	bad |= jgroup(o, res, RB_MG_PROBE);
	/* --wr-lat: the summary whole, then the table's rows. */
	if (res->has_wr_lat)
		bad |= json_object_set_new(o, "wr_lat_us", jprobe(&res->wr_lat, res->wr_lat_n));
	bad |= jgroup(o, res, RB_MG_WRLAT);
	bad |= jgroup(o, res, RB_MG_RCACHE);
	bad |= jgroup(o, res, RB_MG_LOCK); /* issue 42 */
	/* -b: bw_avg_gbps and msg_rate_mpps above are the sums of these. */
	if (res->has_bidir)
		bad |= json_object_set_new(o, "bidir", jbidir(res));
	if (res->peer_rejected)
		bad |= json_object_set_new(o, "peer_result_rejected",
					   jrejected(res->peer_rejected));
	return bad;
}

json_t *rb_json_interval(const struct rb_interval *iv)
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
		bad |= json_array_append_new(arr, rb_json_interval(&res->iv[i]));
	return bad | json_object_set_new(o, "intervals", arr);
}

/*
 * issue 42: a lock point's contenders, each one's measured acquisitions
 * (index: its QP), labelled with the host they ran on, and which --verify
 * check ran (enum rb_lock_verify).
 */
static int jlock(json_t *o, const struct rb_result *res)
{
	static const char *const verify[] = { NULL, "point", "run" };
	json_t *c, *acq;
	char mark[16];
	uint32_t i;
	int bad;

	if (!res->has_lock || !res->lock_acq)
		return 0;
	c = json_object();
	acq = json_array();
	bad = !c || !acq;
	for (i = 0; !bad && i < res->lock_n; i++)
		bad |= json_array_append_new(acq, juint(res->lock_acq[i]));
	bad |= json_object_set_new(c, "host", jstr(res->lock_host));
	snprintf(mark, sizeof(mark), "0x%08x", res->lock_mark);
	bad |= json_object_set_new(c, "mark", jstr(mark));
	bad |= json_object_set_new(c, "acquisitions", acq);
	bad |= json_object_set_new(o, "lock_contenders", c);
	return bad | json_object_set_new(
			     o, "lock_verify",
			     jstr_or_null(res->lock_verify < 3 ? verify[res->lock_verify] : NULL));
}

json_t *rb_json_result(const struct rb_result *res)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "size", juint(res->pt.size));
	bad |= json_object_set_new(o, "batch", juint(res->pt.batch));
	bad |= json_object_set_new(o, "signal", juint(res->pt.signal));
	if (res->signal_ran)
		bad |= json_object_set_new(o, "signal_ran", juint(res->signal_ran));
	bad |= json_object_set_new(o, "qps", juint(res->pt.qps));
	bad |= json_object_set_new(o, "tx_depth", juint(res->pt.tx_depth));
	bad |= json_object_set_new(o, "poll", jstr(poll_name(res->pt.poll)));
	bad |= json_object_set_new(o, "cqe_poll", juint(res->pt.cqe_poll));
	bad |= json_object_set_new(o, "iterations", juint(res->iters));
	bad |= json_object_set_new(o, "warmup", juint(res->pt.warmup));
	bad |= json_object_set_new(o, "duration_s", jreal(res->duration_s));
	if (o)
		bad |= jmetrics(o, res) | jshape(o, res) | jlock(o, res);
	/* counters, peer_counters, expect...: built by the session per point. */
	if (o && res->diag)
		bad |= json_object_update(o, res->diag);
	return jdone(o, bad);
}

/* What reproduces the run: its id, command line, system and the user's tags. */
static int jident(json_t *o, const struct rb_doc *r)
{
	const struct rb_ident *id = rb_ident();
	json_t *argv = json_array(), *sys = json_object(), *tags = json_object();
	int bad = !argv || !sys || !tags;
	size_t i;

	for (i = 0; !bad && i < id->argc; i++)
		bad |= json_array_append_new(argv, json_string(id->argv[i]));
	bad |= json_object_set_new(sys, "kernel", jstr_or_null(id->kernel[0] ? id->kernel : NULL));
	bad |= json_object_set_new(sys, "rdma_core",
				   jstr_or_null(r->rdma_core[0] ? r->rdma_core : NULL));
	for (i = 0; !bad && r->tags && i < r->tags->n; i++) {
		const char *kv = r->tags->v[i], *eq = strchr(kv, '=');
		char key[RB_LIST_TEXT];

		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - kv : 0), kv);
		bad |= json_object_set_new(tags, key, json_string(eq ? eq + 1 : ""));
	}
	bad |= json_object_set_new(o, "run_id", jstr_or_null(id->run_id[0] ? id->run_id : NULL));
	bad |= json_object_set_new(o, "command_line", argv);
	bad |= json_object_set_new(o, "system", sys);
	bad |= json_object_set_new(o, "tags", tags);
	return bad;
}

/* The peer's kernel, rdma-core, firmware and board, as it said them in CONN. */
static json_t *jpeer_fp(const struct rb_fingerprint *f)
{
	json_t *why, *pcie = jpcie(f->pci, &f->pcie, &why);

	return json_pack("{s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:o, s:o}", "kernel",
			 jstr_or_null(f->kernel[0] ? f->kernel : NULL), "rdma_core",
			 jstr_or_null(f->rdma_core[0] ? f->rdma_core : NULL), "fw_ver",
			 jstr_or_null(f->fw_ver[0] ? f->fw_ver : NULL), "board_id",
			 jstr_or_null(f->board_id[0] ? f->board_id : NULL), "vendor_id",
			 (json_int_t)f->vendor_id, "vendor_part_id", (json_int_t)f->vendor_part_id,
			 "hw_ver", (json_int_t)f->hw_ver, "pcie", pcie, "why_pcie", why);
}

/* Everything but the results (left empty) and the recommendation. */
static json_t *jdoc(const struct rb_doc *r)
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
	if (o)
		bad |= jident(o, r);
	bad |= json_object_set_new(o, "device", jdevice(r));
	if (r->gpu)
		bad |= json_object_set_new(o, "gpu", jgpu(r));
	if (r->sock.on)
		bad |= json_object_set_new(o, "socket", jsocket(&r->sock));
	bad |= json_object_set_new(o, "params", rb_json_params(r->params));
	bad |= json_object_set_new(o, "placement", rb_json_placement(&r->place));
	if (r->has_peer_place)
		bad |= json_object_set_new(o, "peer_placement", rb_json_placement(&r->peer_place));
	if (r->has_peer_fp)
		bad |= json_object_set_new(o, "peer_fingerprint", jpeer_fp(&r->peer_fp));
	if (r->has_probe_place)
		bad |= json_object_set_new(o, "probe_placement", jprobe_place(r));
	bad |= json_object_set_new(o, "results", json_array());
	return jdone(o, bad);
}

json_t *rb_json_head(const struct rb_doc *r)
{
	json_t *o = jdoc(r);

	if (o)
		json_object_del(o, "results");
	return o;
}

/* Which counters and gates the run had (known once the peers met). */
static int jdiag(json_t *doc, const struct rb_doc *r)
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

/* A time in ms, null when not measured (yet). */
static json_t *jms(double ms)
{
	return ms >= 0 ? jreal(ms) : json_null();
}

/* One side's create and connect: "qps", "create_ms", "connect_ms", "qp_setup_us". */
static int jsetup_put(json_t *o, uint32_t qps, double create_ms, double connect_ms)
{
	double both = create_ms + connect_ms;
	int bad = json_object_set_new(o, "qps", json_integer(qps));

	bad |= json_object_set_new(o, "create_ms", jms(create_ms));
	bad |= json_object_set_new(o, "connect_ms", jms(connect_ms));
	bad |= json_object_set_new(o, "qp_setup_us",
				   connect_ms >= 0 ? jreal(both * 1e3 / qps) : json_null());
	return bad;
}

/*
 * "setup": creating, connecting and destroying this side's QPs; on the
 * client, the server's create and connect as "peer" (RESULT v14).
 */
static json_t *jsetup(const struct rb_setup *su)
{
	json_t *o = json_object(), *peer = NULL;
	int bad = !o;

	bad |= jsetup_put(o, su->qps, su->create_ms, su->connect_ms);
	bad |= json_object_set_new(o, "destroy_ms", jms(su->destroy_ms));
	bad |= json_object_set_new(o, "cm_events", json_integer(su->cm_events));
	if (su->peer_on) {
		peer = json_object();
		bad |= !peer ||
		       jsetup_put(peer, su->peer_qps, su->peer_create_ms, su->peer_connect_ms);
		bad |= json_object_set_new(o, "peer", peer);
	}
	return jdone(o, bad);
}

/* What may be filled in while the sweep runs: set last, after the results. */
int rb_json_finish(json_t *doc, const struct rb_doc *r)
{
	int bad = json_object_set_new(doc, "complete", json_boolean(!r->incomplete));

	bad |= jdiag(doc, r);
	if (r->setup.on)
		bad |= json_object_set_new(doc, "setup", jsetup(&r->setup));
	if (r->incomplete)
		bad |= json_object_set_new(doc, "reason", jstr(r->reason ? r->reason : "unknown"));
	if (r->recommendation)
		bad |= json_object_set(doc, "recommendation", r->recommendation);
	return bad ? -ENOMEM : 0;
}

static int json_begin(struct rb_writer *w, const struct rb_doc *r)
{
	json_decref(w->doc);
	w->doc = jdoc(r);
	return w->doc ? 0 : -ENOMEM;
}

static int json_row(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res)
{
	json_t *results = json_object_get(w->doc, "results");

	json_t *o;

	if (!results)
		return -EINVAL;
	o = rb_json_result(res);
	if (rb_json_point_axes(o, r, res)) {
		json_decref(o);
		return -ENOMEM;
	}
	return json_array_append_new(results, o) ? -ENOMEM : 0;
}

/* Dumps the document and releases it. */
static int json_end(struct rb_writer *w, const struct rb_doc *r)
{
	int ret = w->doc ? rb_json_finish(w->doc, r) : -EINVAL;

	if (!ret && json_dumpf(w->doc, w->f, RB_JSON_DUMP))
		ret = -EIO;
	if (!ret && fputc('\n', w->f) == EOF)
		ret = -EIO;
	json_decref(w->doc);
	w->doc = NULL;
	if (!ret)
		fflush(w->f);
	return ret ? ret : file_status(w->f);
}

const struct rb_writer_ops rb_json_ops = { .begin = json_begin, .row = json_row, .end = json_end };
