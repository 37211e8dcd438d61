/* SPDX-License-Identifier: MIT */
/*
 * The metric table: one row per figure a point reports (latency
 * percentiles, bandwidth, message rate, CPU, the peer's figures).  A row
 * says what the figure is called (CSV column, JSON member, table column,
 * compare's and --expect's names), its unit, which way is better, how the
 * table prints it, where struct rb_result keeps it, whether a result has
 * it, and how the threads of a --threads run add up.  The writers
 * (output.c), compare.c, expect.c, matrix and threads.c read it; adding
 * a metric is adding a row (doc/development.md, "Adding a metric").
 *
 * The rows are in the CSV's column order; the JSON writes them group by
 * group (enum rb_metric_group), in row order within a group.
 */
#ifndef RB_METRICS_H
#define RB_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/rdmabench.h"

/* Which has_* flag of struct rb_result says the figure is there. */
enum rb_metric_group {
	RB_MG_LAT,    /* has_lat: JSON members of "lat_us" (and "lat_ticks" with -C) */
	RB_MG_BW,     /* has_bw */
	RB_MG_CPU,    /* has_cpu */
	RB_MG_PEER,   /* has_peer */
	RB_MG_WAKE,   /* has_wakeups: --poll event's */
	RB_MG_PROBE,  /* has_probe: --probe's round trips */
	RB_MG_WRLAT,  /* has_wr_lat: --wr-lat's signaled WRs */
	RB_MG_RCACHE, /* has_rcache: --reg-mode cache's (issue 42) */
	RB_MG_LOCK,   /* has_lock: rdmabench lock's own figures (issue 42) */
	RB_MG_COUNT
};

enum rb_better { RB_BETTER_LOWER, RB_BETTER_HIGHER };

/*
 * The chart a figure is drawn in against the message size by `rdmabench
 * report` (src/report/html_run.c) and rdmabench-plot (scripts/plot, which
 * reads the table from `rdmabench --list-metrics`): the figures of one
 * chart share its unit.
 */
enum rb_chart {
	RB_CHART_NONE,	/* not drawn */
	RB_CHART_LAT,	/* latency percentiles, bands between them */
	RB_CHART_BW,	/* bandwidth, with the port's line rate as reference */
	RB_CHART_RATE,	/* message rate */
	RB_CHART_CPU,	/* CPU per message */
	RB_CHART_PROBE, /* --probe: idle against loaded */
	RB_CHART_WRLAT, /* --wr-lat: WRs' post to completion */
	RB_CHART_COUNT
};

struct rb_chart_info {
	const char *name;  /* "latency": the report's anchors */
	const char *title; /* "Latency against message size" */
	bool logy;	   /* a log scale on y (latencies span decades) */
};

/* rb_charts[] - one row per enum rb_chart. */
extern const struct rb_chart_info rb_charts[RB_CHART_COUNT];

/* How the table prints a figure. */
enum rb_metric_fmt {
	RB_MF_FIXED2, /* "%.2f" */
	RB_MF_SIG4,   /* "%.4g": message rates span 0.0007 to 200 Mpps */
};

/* How a --threads run's figure follows from its threads' (threads.c). */
enum rb_metric_agg {
	RB_AGG_NONE,   /* does not add (latency percentiles): the run has none */
	RB_AGG_SUM,    /* the sum (bandwidth, rates, CPU percent of one CPU) */
	RB_AGG_PER_OP, /* the mean weighed by each thread's iterations */
};

struct rb_metric {
	const char *name;     /* CSV column, compare's --metric name: "lat_p99_us" */
	const char *json_key; /* JSON member ("p99" inside the group's "lat_us") */
	const char *unit;     /* "us", "Gb/s", "MiB/s", "Mpps", "%", "ns/msg" */
	enum rb_better better;
	enum rb_metric_group group;
	/* Where struct rb_result keeps it (offsetof a double); with derive,
	 * the figure it is computed from. */
	size_t off;
	double (*derive)(double v); /* NULL: the figure itself */
	bool zero_absent;	    /* 0 means not measured (CSV empty, JSON null) */
	/* The table: column name without its unit, NULL when not shown. */
	const char *table;
	int table_width;
	enum rb_metric_fmt fmt;
	enum rb_metric_agg agg;
	/* compare: a metric it takes (--metric), its short alias, a default. */
	bool compare;
	const char *alias;
	bool compare_default;
	/* rdmabench matrix judges a pair by it: one latency row, one other. */
	bool matrix_rank;
	/* The chart that draws it (report, rdmabench-plot); NONE: none. */
	enum rb_chart chart;
	/* --expect's names for it, the first in messages ("p99"; lat_ may
	 * prefix a latency's); none: --expect does not take it. */
	const char *expect[3];
};

/* rb_gbps_to_mibps() - a bandwidth in Gb/s as MiB/s (perftest's MB/sec). */
double rb_gbps_to_mibps(double gbps);

/* At most this many rows (what the table writer makes room for). */
#define RB_METRICS_MAX 40

extern const struct rb_metric rb_metrics[];
extern const size_t rb_nmetrics;

/* rb_metric_has() - whether @res has metric @m (its group's has_* flag, and
 * not 0 where 0 means not measured). */
bool rb_metric_has(const struct rb_metric *m, const struct rb_result *res);

/* rb_metric_group_has() - whether @res has the figures of group @g. */
bool rb_metric_group_has(enum rb_metric_group g, const struct rb_result *res);

/* rb_metric_group_set() - set or clear @res's has_* flag of group @g. */
void rb_metric_group_set(enum rb_metric_group g, struct rb_result *res, bool has);

/* rb_metric_set() - store @v as @m's figure in @res (not for a derived row). */
void rb_metric_set(const struct rb_metric *m, struct rb_result *res, double v);

/* rb_metric_value() - @m's figure in @res (derived when the row says so). */
double rb_metric_value(const struct rb_metric *m, const struct rb_result *res);

/* rb_metric_lat() - a latency row's figure in @l (lat_us, lat_ticks, a slice's). */
double rb_metric_lat(const struct rb_metric *m, const struct rb_lat_summary *l);

/* rb_metric_find() - the row named @name (its name, or its compare alias
 * when @alias), of @n bytes; NULL when none. */
const struct rb_metric *rb_metric_find(const char *name, size_t n, bool alias);

/* rb_metric_rank() - the row rdmabench matrix judges a pair by: the
 * latency one for a latency test (@lat), else the other. */
const struct rb_metric *rb_metric_rank(bool lat);

/*
 * rb_metrics_aggregate() - a --threads run's figures from its @n threads'
 * @per, by each row's .agg: sums, or means weighed by iterations.  A
 * group (has_*) is in @agg when the first thread has it and one of its
 * rows adds up: a latency test's run has no latency of its own.
 */
void rb_metrics_aggregate(const struct rb_result *per, uint32_t n, struct rb_result *agg);

/* rb_metric_index() - @m's row number in rb_metrics[]. */
static inline int rb_metric_index(const struct rb_metric *m)
{
	return (int)(m - rb_metrics);
}

#endif
