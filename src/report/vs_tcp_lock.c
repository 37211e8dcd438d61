// SPDX-License-Identifier: MIT
/*
 * compare --vs-tcp lock.json tcp_lock.json (issue 42): an RDMA lock run
 * against a lock server over TCP, point by point (the same contenders,
 * -q, and --hold; each --lock of a sweep against the same tcp_lock
 * point; vs_tcp.c has checked that the files share --locks, --cs-bytes,
 * --verify and one host), each of lock's
 * figures on a line: both values, the ratio TCP/RDMA and the side that
 * is better by the metric's own direction.  Pure: two documents in, a
 * table out.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/metrics.h"
#include "report/compare.h"

/* The figures compared, by their metric rows, with the table's names. */
static const struct {
	const char *metric, *label;
} figs[] = {
	{ "lat_p50_us", "acquire_p50_us" },
	{ "lat_p99_us", "acquire_p99_us" },
	{ "lock_acq_per_s", "acq_per_s" },
	{ "lock_handoff_us", "handoff_us" },
};

#define NFIGS (sizeof(figs) / sizeof(figs[0]))

/* A point's @key (an axis), -1 when absent. */
static double axis(json_t *pt, const char *key)
{
	json_t *v = json_object_get(pt, key);

	return json_is_number(v) ? json_number_value(v) : -1;
}

static bool same_point(json_t *a, json_t *b)
{
	return axis(a, "qps") == axis(b, "qps") && axis(a, "hold_us") == axis(b, "hold_us");
}

/* The first point of @doc like @pt, or NULL. */
static json_t *first_like(json_t *doc, json_t *pt)
{
	json_t *r, *results = json_object_get(doc, "results");
	size_t i;

	json_array_foreach(results, i, r) if (same_point(r, pt)) return r;
	return NULL;
}

/* Which side figure @m favours: "rdma", "tcp", "same", or "-" when one is absent. */
static const char *better(const struct rb_metric *m, double r, double t)
{
	if (!isfinite(r) || !isfinite(t))
		return "-";
	if (r == t)
		return "same";
	return (m->better == RB_BETTER_LOWER) == (r < t) ? "rdma" : "tcp";
}

/* @v by @fmt into @buf, or "-" when not a number. */
static const char *cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* A lock point's --lock ("spin" in files from before it was an axis). */
static const char *algo(json_t *pt)
{
	const char *a = json_string_value(json_object_get(pt, "lock"));

	return a ? a : "spin";
}

static void rows(FILE *out, json_t *r, json_t *t)
{
	const struct rb_metric *m;
	char ab[32], bb[32], rb[32];
	double a, b;
	size_t i;

	for (i = 0; i < NFIGS; i++) {
		m = rb_metric_find(figs[i].metric, strlen(figs[i].metric), false);
		a = m ? rb_compare_point_value(r, m) : NAN;
		b = m ? rb_compare_point_value(t, m) : NAN;
		fprintf(out, "%8.0f %7.0f  %-6s  %-15s %11s %11s %9s  %s\n", axis(r, "qps"),
			axis(r, "hold_us") < 0 ? 0 : axis(r, "hold_us"), algo(r), figs[i].label,
			cell(ab, sizeof(ab), "%.4g", a), cell(bb, sizeof(bb), "%.4g", b),
			cell(rb, sizeof(rb), "%.2f", a > 0 ? b / a : NAN),
			m ? better(m, a, b) : "-");
	}
}

int rb_compare_vs_tcp_lock(json_t *rdma, json_t *tcp, FILE *out, char *err, size_t len)
{
	json_t *r, *t, *results = json_object_get(rdma, "results");
	size_t i, n = 0;

	json_array_foreach(results, i, r)
	{
		/* Every lock point (each --lock of a sweep its own) against the
		 * tcp_lock point of its -q and --hold. */
		t = first_like(tcp, r);
		if (!t)
			continue; /* a point tcp_lock lacks */
		if (!n++) {
			fprintf(out, "# lock (RDMA) against tcp_lock (TCP), point by point (the "
				     "same -q contenders and --hold; the same --locks, "
				     "--cs-bytes and --verify)\n");
			fprintf(out, "# tcp/rdma: the ratio; better: the side with the lower time "
				     "or the more acquisitions/s\n");
			fprintf(out, "%8s %7s  %-6s  %-15s %11s %11s %9s  %s\n", "qps", "hold_us",
				"lock", "figure", "rdma", "tcp", "tcp/rdma", "better");
		}
		rows(out, r, t);
	}
	if (n)
		return RB_CMP_SAME;
	snprintf(err, len, "--vs-tcp: lock and tcp_lock share no point (the same -q and --hold)");
	return RB_CMP_INCOMPARABLE;
}
