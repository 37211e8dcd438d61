// SPDX-License-Identifier: MIT
/*
 * --reversed: the server sends (or pings) and times the point; its STOP
 * ends it, and its figures are the point's.
 */
#include "session/session_int.h"
#include "session/point_hook.h"

static bool reversed_on(const struct session *s)
{
	return s->p.reversed;
}

/* A server's latency summary that can be true: finite, and in order. */
static bool lat_plausible(const struct rb_lat_summary *l)
{
	const double v[] = { l->min, l->p50, l->p90, l->p99, l->p999, l->max };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]) || v[i] < 0 || (i && v[i] < v[i - 1]))
			return false;
	return isfinite(l->avg) && l->avg >= l->min && l->avg <= l->max && isfinite(l->stdev) &&
	       l->stdev >= 0;
}

/*
 * --reversed: the server sent and timed the point, so its figures are the
 * point's; this side's (the receiver's CPU, and its own bandwidth where it
 * counts arrivals) take the peer's place.  A rejected server figure stays
 * NaN (reject_figures()).
 */
static void apply_reversed(const struct session *s, struct rb_result *res,
			   const struct rb_msg_result *m)
{
	const struct rb_result own = *res;
	bool bw = s->bench->mode == RB_MODE_BW;
	double cpu_ns = m->cpu_util_pct / 100 * m->duration_s * 1e9;

	res->iters = m->iters;
	res->nothing_measured = !m->iters;
	res->duration_s = m->iters ? m->duration_s : NAN;
	res->has_lat = m->has_lat && lat_plausible(&m->lat);
	res->lat = m->lat;
	/* perftest's statistics need the server's samples, which stay there */
	res->has_pt_lat = false;
	if (m->has_lat && !res->has_lat)
		rb_warn("server %s reported a latency summary that cannot be true at point %u: "
			"left out",
			s->oob.peer, m->point);
	res->has_wr_lat = m->has_wr_lat && lat_plausible(&m->wr_lat);
	res->wr_lat = m->wr_lat;
	res->wr_lat_n = m->wr_lat_n;
	if (m->has_wr_lat && !res->has_wr_lat)
		rb_warn("server %s reported a --wr-lat summary that cannot be true at point %u: "
			"left out",
			s->oob.peer, m->point);
	res->has_bw = bw && m->iters;
	res->bw_avg_gbps = m->bw_avg_gbps;
	res->bw_peak_gbps = m->bw_peak_gbps;
	res->msg_rate_mpps = m->msg_rate_mpps;
	res->has_cpu = m->iters && !isnan(m->cpu_util_pct);
	res->cpu_util_pct = m->cpu_util_pct;
	res->cpu_ns_per_msg = m->iters ? cpu_ns / (double)m->iters : 0;
	res->has_peer = true;
	res->peer_nothing_measured = own.nothing_measured;
	res->peer_cpu_util_pct = own.has_cpu ? own.cpu_util_pct : NAN;
	res->peer_bw_avg_gbps = own.has_bw && rb_bench_receives(s->bench, &s->p) ? own.bw_avg_gbps
										 : 0;
	/* --poll event: the sender's wake-ups, as every other figure is. */
	rb_result_sender_wakeups(res, m);
	/* --rate: the server paced its stream; the rate reached is its. */
	rb_rate_report(res, s->p.rate, s->p.rate_unit);
}

static void reversed_merge(struct session *s, struct sess_point *pt)
{
	apply_reversed(s, &pt->res, &pt->m);
}

const struct sess_point_hook sess_hook_reversed = {
	.name = "reversed",
	.sides = SESS_CLIENT | SESS_SERVER,
	.on = reversed_on,
	.server_stops = true,
	.merge_peer = reversed_merge,
};
