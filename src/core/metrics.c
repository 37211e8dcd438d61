// SPDX-License-Identifier: MIT
/*
 * The metric table (metrics.h): every per-point figure, one row each.
 */
#include <string.h>

#include "core/metrics.h"

double rb_gbps_to_mibps(double gbps)
{
	return gbps * 1e9 / 8 / 1048576;
}

/*
 * A latency percentile: lat_us.KEY in microseconds, lower is better, no
 * sum over threads; compare takes it by its --expect name as alias.  The
 * rest (...) are more designators: .compare_default, .matrix_rank.
 */
#define LAT(csv, key, tab, exp, xexp, ...)                                                    \
	{                                                                                     \
		.name = csv, .json_key = #key, .unit = "us", .better = RB_BETTER_LOWER,       \
		.group = RB_MG_LAT, .off = offsetof(struct rb_result, lat.key), .table = tab, \
		.table_width = 9, .fmt = RB_MF_FIXED2, .agg = RB_AGG_NONE,                    \
		.compare = (exp) != NULL, .alias = exp, .expect = { exp, xexp }, __VA_ARGS__  \
	}

#define AT(field) offsetof(struct rb_result, field)

/*
 * A percentile of a summary of its own (--probe's, --wr-lat's) in group
 * @g: microseconds, no sum over threads.
 */
#define PCT(g, ch, csv, field, tab, exp)                                               \
	{                                                                              \
		.name = csv, .unit = "us", .better = RB_BETTER_LOWER, .group = g,      \
		.off = AT(field), .table = tab, .table_width = 9, .fmt = RB_MF_FIXED2, \
		.agg = RB_AGG_NONE, .compare = true, .chart = ch, .expect = {          \
			exp                                                            \
		}                                                                      \
	}
#define PROBE(...) PCT(RB_MG_PROBE, RB_CHART_PROBE, __VA_ARGS__)
#define WRLAT(...) PCT(RB_MG_WRLAT, RB_CHART_WRLAT, __VA_ARGS__)
/* issue 42: a figure of lock's group, compared, not summed over threads. */
#define LOCK(csv, f, u, b, tab, w, fm, ...)                                                     \
	{                                                                                       \
		.name = csv, .unit = u, .better = b, .group = RB_MG_LOCK, .off = AT(f),         \
		.table = tab, .table_width = w, .fmt = fm, .agg = RB_AGG_NONE, .compare = true, \
		__VA_ARGS__                                                                     \
	}

const struct rb_chart_info rb_charts[RB_CHART_COUNT] = {
	[RB_CHART_NONE] = { "none", "", false },
	[RB_CHART_LAT] = { "latency", "Latency against message size", true },
	[RB_CHART_BW] = { "bandwidth", "Bandwidth against message size", false },
	[RB_CHART_RATE] = { "msgrate", "Message rate against message size", true },
	[RB_CHART_CPU] = { "cpu", "CPU per message against message size", true },
	[RB_CHART_PROBE] = { "probe", "Probe round trips, idle and under load", true },
	[RB_CHART_WRLAT] = { "wr_lat", "Signaled WRs, post to completion", true },
};

/* Rows in the CSV's column order. */
const struct rb_metric rb_metrics[] = {
	LAT("lat_min_us", min, "t_min", "min", NULL),
	LAT("lat_p50_us", p50, "t_p50", "p50", NULL, .compare_default = true, .matrix_rank = true,
	    .chart = RB_CHART_LAT),
	LAT("lat_avg_us", avg, "t_avg", "avg", NULL),
	LAT("lat_p90_us", p90, "t_p90", "p90", NULL),
	LAT("lat_p99_us", p99, "t_p99", "p99", NULL, .compare_default = true,
	    .chart = RB_CHART_LAT),
	LAT("lat_p999_us", p999, "t_p99.9", "p999", "p99.9", .chart = RB_CHART_LAT),
	LAT("lat_max_us", max, "t_max", "max", NULL, .chart = RB_CHART_LAT),
	LAT("lat_stdev_us", stdev, "t_stdev", NULL, NULL),
	{
		.name = "bw_avg_gbps",
		.chart = RB_CHART_BW,
		.unit = "Gb/s",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_BW,
		.off = AT(bw_avg_gbps),
		.table = "BW_avg",
		.table_width = 10,
		.agg = RB_AGG_SUM,
		.compare = true,
		.alias = "bw",
		.compare_default = true,
		.matrix_rank = true,
		.expect = { "bw", "bw_avg" },
	},
	{
		.name = "bw_peak_gbps",
		.unit = "Gb/s",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_BW,
		.off = AT(bw_peak_gbps),
		.table = "BW_peak",
		.table_width = 10,
		/* An upper bound: the threads' peaks need not coincide. */
		.agg = RB_AGG_SUM,
		.compare = true,
		.alias = "bw_peak",
		.expect = { "bw_peak" },
	},
	{
		.name = "bw_avg_mibps",
		.unit = "MiB/s",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_BW,
		.off = AT(bw_avg_gbps),
		.derive = rb_gbps_to_mibps,
	},
	{
		.name = "msg_rate_mpps",
		.chart = RB_CHART_RATE,
		.unit = "Mpps",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_BW,
		.off = AT(msg_rate_mpps),
		.table = "MsgRate",
		.table_width = 10,
		.fmt = RB_MF_SIG4,
		.agg = RB_AGG_SUM,
		.compare = true,
		.alias = "rate",
		.compare_default = true,
		.expect = { "rate", "msg_rate" },
	},
	{
		.name = "cpu_util_pct",
		.unit = "%",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_CPU,
		.off = AT(cpu_util_pct),
		.table = "CPU",
		.table_width = 7,
		.agg = RB_AGG_SUM,
	},
	{
		.name = "peer_cpu_util_pct",
		.unit = "%",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_PEER,
		.off = AT(peer_cpu_util_pct),
		.table = "peerCPU",
		.table_width = 7,
		.agg = RB_AGG_SUM,
	},
	{
		.name = "cpu_ns_per_msg",
		.chart = RB_CHART_CPU,
		.unit = "ns/msg",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_CPU,
		.off = AT(cpu_ns_per_msg),
		.table = "cpu",
		.table_width = 7,
		/* Over all the threads' operations (a latency test's too). */
		.agg = RB_AGG_PER_OP,
		.compare = true,
	},
	{
		.name = "peer_bw_avg_gbps",
		.unit = "Gb/s",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_PEER,
		.off = AT(peer_bw_avg_gbps),
		/* A peer that does not measure bandwidth reports 0. */
		.zero_absent = true,
		.agg = RB_AGG_SUM,
	},
	{
		/* --poll event: completion events per measured message, 0
		 * when none came (a paced stream sleeps in the pacer); busy
		 * polling has none (empty, null). */
		.name = "wakeups_per_msg",
		.unit = "/msg",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_WAKE,
		.off = AT(wakeups_per_msg),
		/* Every thread's wake-ups over every thread's messages. */
		.agg = RB_AGG_PER_OP,
		.compare = true,
		.expect = { "wakeups", "wakeups_per_msg" },
	},
	/* --probe: the probe's round trips beside the stream (loaded) and
	 * alone before it (idle), in microseconds; JSON also gives each
	 * summary whole (loaded_lat_us, idle_lat_us). */
	PROBE("loaded_p50_us", probe_loaded.p50, "load_p50", "loaded_p50"),
	PROBE("loaded_p99_us", probe_loaded.p99, "load_p99", "loaded_p99"),
	PROBE("idle_p50_us", probe_idle.p50, "idle_p50", "idle_p50"),
	PROBE("idle_p99_us", probe_idle.p99, "idle_p99", "idle_p99"),
	/* --wr-lat: the signaled WRs from post to completion, microseconds;
	 * JSON also gives the summary whole (wr_lat_us). */
	WRLAT("wr_p50_us", wr_lat.p50, "wr_p50", "wr_p50"),
	WRLAT("wr_p99_us", wr_lat.p99, "wr_p99", "wr_p99"),
	/* --reg-mode cache (issue 42): the cache's hit rate, registrations
	 * and deregistrations per second (message rate and CPU per message
	 * are the rows above). */
	{
		.name = "rcache_hit_pct",
		.unit = "%",
		.better = RB_BETTER_HIGHER,
		.group = RB_MG_RCACHE,
		.off = AT(rcache_hit_pct),
		.table = "hit%",
		.table_width = 6,
		/* Over all the threads' messages. */
		.agg = RB_AGG_PER_OP,
		.compare = true,
		.expect = { "hit_pct", "rcache_hit_pct" },
	},
	{
		.name = "regs_per_s",
		.unit = "/s",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_RCACHE,
		.off = AT(regs_per_s),
		.table = "regs/s",
		.table_width = 9,
		.fmt = RB_MF_SIG4,
		.agg = RB_AGG_SUM,
		.compare = true,
	},
	{
		.name = "deregs_per_s",
		.unit = "/s",
		.better = RB_BETTER_LOWER,
		.group = RB_MG_RCACHE,
		.off = AT(deregs_per_s),
		.table = "deregs/s",
		.table_width = 9,
		.fmt = RB_MF_SIG4,
		.agg = RB_AGG_SUM,
		.compare = true,
	},
	/* issue 42: lock's own figures (its latency is the acquire latency,
	 * lat_us): acquisitions per second, the release's round trip and the
	 * handoff (a release's post to the acquire completion of a contender
	 * that was waiting for it),
	 * attempts per acquisition, Jain's fairness index over the
	 * contenders' acquisitions and the smallest contender's share. */
	LOCK("lock_acq_per_s", lock_acq_per_s, "/s", RB_BETTER_HIGHER, "acq_rate", 10, RB_MF_SIG4,
	     .expect = { "acq_rate" }),
	LOCK("lock_release_us", lock_release_us, "us", RB_BETTER_LOWER, "release", 9, RB_MF_FIXED2),
	LOCK("lock_handoff_us", lock_handoff_us, "us", RB_BETTER_LOWER, "handoff", 9, RB_MF_FIXED2,
	     .zero_absent = true),
	LOCK("lock_attempts", lock_attempts, "/acq", RB_BETTER_LOWER, "attempts", 8, RB_MF_FIXED2),
	LOCK("lock_jain", lock_jain, "index", RB_BETTER_HIGHER, "jain", 6, RB_MF_FIXED2,
	     .expect = { "jain" }),
	LOCK("lock_share_min", lock_share_min, "share", RB_BETTER_HIGHER, "share_min", 9,
	     RB_MF_FIXED2),
#ifdef RB_METRICS_TEST_ROW
	RB_METRICS_TEST_ROW, /* test_metrics_extra's throw-away row */
#endif
};
const size_t rb_nmetrics = sizeof(rb_metrics) / sizeof(rb_metrics[0]);
_Static_assert(sizeof(rb_metrics) / sizeof(rb_metrics[0]) <= RB_METRICS_MAX, "RB_METRICS_MAX "
									     "(metrics.h) is below "
									     "the rows");

static double field(const struct rb_metric *m, const void *base, size_t off)
{
	double v;

	memcpy(&v, (const char *)base + off, sizeof(v));
	return m->derive ? m->derive(v) : v;
}

double rb_metric_value(const struct rb_metric *m, const struct rb_result *res)
{
	return field(m, res, m->off);
}

double rb_metric_lat(const struct rb_metric *m, const struct rb_lat_summary *l)
{
	return field(m, l, m->off - offsetof(struct rb_result, lat));
}

/* Where struct rb_result keeps each group's has_* flag. */
static const size_t group_flag[RB_MG_COUNT] = {
	[RB_MG_LAT] = AT(has_lat),	[RB_MG_BW] = AT(has_bw),
	[RB_MG_CPU] = AT(has_cpu),	[RB_MG_PEER] = AT(has_peer),
	[RB_MG_WAKE] = AT(has_wakeups), [RB_MG_PROBE] = AT(has_probe),
	[RB_MG_WRLAT] = AT(has_wr_lat), [RB_MG_RCACHE] = AT(has_rcache),
	[RB_MG_LOCK] = AT(has_lock),
};

bool rb_metric_group_has(enum rb_metric_group g, const struct rb_result *res)
{
	bool v;

	memcpy(&v, (const char *)res + group_flag[g], sizeof(v));
	return v;
}

bool rb_metric_has(const struct rb_metric *m, const struct rb_result *res)
{
	return rb_metric_group_has(m->group, res) &&
	       !(m->zero_absent && rb_metric_value(m, res) == 0);
}

const struct rb_metric *rb_metric_rank(bool lat)
{
	const struct rb_metric *m;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if (m->matrix_rank && (m->group == RB_MG_LAT) == lat)
			return m;
	return NULL;
}

const struct rb_metric *rb_metric_find(const char *name, size_t n, bool alias)
{
	const struct rb_metric *m;

	for (m = rb_metrics; m < rb_metrics + rb_nmetrics; m++)
		if ((strlen(m->name) == n && !strncmp(m->name, name, n)) ||
		    (alias && m->alias && strlen(m->alias) == n && !strncmp(m->alias, name, n)))
			return m;
	return NULL;
}

void rb_metric_set(const struct rb_metric *m, struct rb_result *res, double v)
{
	memcpy((char *)res + m->off, &v, sizeof(v));
}

void rb_metric_group_set(enum rb_metric_group g, struct rb_result *res, bool has)
{
	memcpy((char *)res + group_flag[g], &has, sizeof(has));
}

/* One row's figure over @n threads' results, into @agg. */
static void aggregate_row(const struct rb_metric *m, const struct rb_result *per, uint32_t n,
			  struct rb_result *agg)
{
	double sum = 0, ops = 0;
	uint32_t k;

	for (k = 0; k < n; k++) {
		if (m->agg == RB_AGG_PER_OP) {
			ops += (double)per[k].iters;
			sum += rb_metric_value(m, &per[k]) * (double)per[k].iters;
		} else {
			sum += rb_metric_value(m, &per[k]);
		}
	}
	if (m->agg == RB_AGG_PER_OP)
		sum = ops > 0 ? sum / ops : 0;
	rb_metric_set(m, agg, sum);
	rb_metric_group_set(m->group, agg, rb_metric_group_has(m->group, &per[0]));
}

void rb_metrics_aggregate(const struct rb_result *per, uint32_t n, struct rb_result *agg)
{
	const struct rb_metric *m;

	for (m = rb_metrics; n && m < rb_metrics + rb_nmetrics; m++)
		if (m->agg != RB_AGG_NONE && !m->derive)
			aggregate_row(m, per, n, agg);
}
