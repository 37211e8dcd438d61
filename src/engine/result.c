// SPDX-License-Identifier: MIT
/*
 * A point's result from what the loops measured: bandwidth, message
 * rate, CPU time, the traffic shape's figures.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"

static void result_bw(struct rb_run *r, struct rb_result *res, uint64_t ns)
{
	uint64_t bytes = r->ops * r->pt.size;

	res->has_bw = true;
	res->bw_avg_gbps = rb_gbps(bytes, ns);
	/* The window runs in ticks: Gb per tick over ns per tick. */
	res->bw_peak_gbps = r->role == RB_ROLE_CLIENT || r->bidir
				    ? rb_bw_window_peak(&r->win, bytes, r->k1) / rb_ns_per_tick(r)
				    : res->bw_avg_gbps;
	res->msg_rate_mpps = ns ? (double)r->ops * 1e3 / (double)ns : 0;
}

/* A sender's WRs per QP: which QPs carried the point, and how evenly. */
static void result_qps(const struct rb_run *r, struct rb_result *res)
{
	uint32_t qi;

	res->has_qp_wrs = true;
	res->qp_wrs_min = UINT64_MAX;
	for (qi = 0; qi < r->pt.qps && qi < r->c.nqp; qi++) {
		res->qp_wrs_used += r->sq_done[qi] > 0;
		if (r->sq_done[qi] < res->qp_wrs_min)
			res->qp_wrs_min = r->sq_done[qi];
		if (r->sq_done[qi] > res->qp_wrs_max)
			res->qp_wrs_max = r->sq_done[qi];
	}
	if (res->qp_wrs_min == UINT64_MAX)
		res->qp_wrs_min = 0;
}

/* The client's intervals (the result takes them) and the rate reached. */
static void result_shape(struct rb_run *r, struct rb_result *res)
{
	res->iv = r->iv.list;
	res->niv = r->iv.n;
	r->iv.list = NULL;
	r->iv.n = r->iv.cap = 0;
	rb_bw_min_interval(res, r->p->interval_ms);
	rb_rate_report(res, r->p->rate, r->p->rate_unit);
}

/*
 * perftest's figures of the same samples (the perftest writer's), sorted by
 * the summary: the client's hold its --latency_gap, as perftest's do (the
 * server's have it already, between an echo and the next ping).
 */
static void result_pt_lat(const struct rb_run *r, struct rb_result *res)
{
	const double k = r->bench->lat_scale;
	const double gap_us = r->role == RB_ROLE_CLIENT ? r->p->latency_gap_us * k : 0;

	res->has_pt_lat = !r->lat.h && !rb_lat_perftest(r->lat.v, r->lat.n, k * rb_ns_per_tick(r),
							gap_us, &res->pt_lat);
}

int rb_result_generic(struct rb_run *r, struct rb_result *res)
{
	uint64_t ns = r->t1 > r->t0 ? r->t1 - r->t0 : 0;
	int ret;

	memset(res, 0, sizeof(*res));
	res->pt = r->pt;
	if (r->qclamp.asked) {
		res->signal_ran = r->pt.signal;
		res->pt.signal = r->qclamp.asked;
		snprintf(res->flag, sizeof(res->flag), "signal %u ran: -Q %u > %u in flight",
			 r->pt.signal, r->qclamp.asked, r->pt.signal);
	}
	res->iters = r->ops;
	/* No operation, no interval: nothing to divide by (and t0 may be 0). */
	if (!r->ops) {
		res->nothing_measured = true;
		res->duration_s = NAN;
		return 0;
	}
	res->duration_s = (double)ns / 1e9;
	if (r->lat.n) {
		ret = rb_lat_summarize(&r->lat, r->bench->lat_scale * rb_ns_per_tick(r), &res->lat);
		if (ret)
			return ret;
		res->has_lat = true;
		result_pt_lat(r, res);
	}
	/* The server of a one-sided stream sees no messages: no bandwidth;
	 * with -b it has its own stream. */
	if (r->bench->mode == RB_MODE_BW &&
	    (r->role == RB_ROLE_CLIENT || r->bidir || rb_bench_receives(r->bench, r->p)))
		result_bw(r, res, ns);
	if (r->role == RB_ROLE_CLIENT)
		result_shape(r, res);
	if (r->bench->mode == RB_MODE_BW && (r->role == RB_ROLE_CLIENT || r->bidir))
		result_qps(r, res);
	res->has_cpu = ns > 0;
	res->cpu_util_pct = ns ? (double)(r->cpu1 - r->cpu0) * 100.0 / (double)ns : 0;
	res->cpu_ns_per_msg = r->ops ? (double)(r->cpu1 - r->cpu0) / (double)r->ops : 0;
	res->has_wakeups = r->ev.chan != NULL;
	res->wakeups = r->ev.ev1 - r->ev.ev0;
	res->wakeups_per_msg = (double)res->wakeups / (double)r->ops;
	rb_rcache_result(r, res, ns);
	return rb_wrlat_result(r, res);
}

void rb_result_msg(const struct rb_result *res, struct rb_msg_result *m)
{
	m->has_lat = res->has_lat;
	m->lat = res->lat;
	m->has_wr_lat = res->has_wr_lat;
	m->wr_lat = res->wr_lat;
	m->wr_lat_n = res->wr_lat_n;
	m->iters = res->iters;
	m->bw_avg_gbps = res->has_bw ? res->bw_avg_gbps : 0;
	m->cpu_util_pct = res->has_cpu ? res->cpu_util_pct : NAN;
	m->bw_peak_gbps = res->has_bw ? res->bw_peak_gbps : 0;
	m->msg_rate_mpps = res->has_bw ? res->msg_rate_mpps : 0;
	m->duration_s = res->duration_s;
	m->has_wakeups = res->has_wakeups;
	m->wakeups = res->wakeups;
}

void rb_result_sender_wakeups(struct rb_result *res, const struct rb_msg_result *m)
{
	res->has_wakeups = m->has_wakeups && m->iters;
	res->wakeups = res->has_wakeups ? m->wakeups : 0;
	res->wakeups_per_msg = res->has_wakeups ? (double)m->wakeups / (double)m->iters : 0;
}
