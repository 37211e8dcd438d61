// SPDX-License-Identifier: MIT
/*
 * rdmabench compare --vs-tcp RDMA.json TCP.json: an RDMA run and a TCP
 * run (tcp_lat, tcp_bw) of the same kind side by side, size by size: the
 * throughput or latency ratio, and what each costs in CPU on both sides.
 * Pure: two documents in, a table out.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/compare.h"

#define fail(err, len, ...) (snprintf(err, len, __VA_ARGS__), RB_CMP_INCOMPARABLE)

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static bool is_tcp(const char *test)
{
	return !strncmp(test, "tcp_", 4);
}

static bool is_lat(const char *test)
{
	size_t n = strlen(test);

	return n > 4 && !strcmp(test + n - 4, "_lat");
}

/* The first point of @size in @doc, or NULL. */
static json_t *point_of(json_t *doc, double size)
{
	json_t *r, *results = json_object_get(doc, "results");
	size_t i;

	json_array_foreach(results, i, r) if (num(r, "size") == size) return r;
	return NULL;
}

/*
 * CPU time per payload byte of one side, from its CPU use (percent of a
 * CPU) and the bandwidth (Gb/s): ns of CPU per byte moved.
 */
static double ns_per_byte(double cpu_pct, double gbps)
{
	return gbps > 0 ? cpu_pct / 100 * 8 / gbps : NAN;
}

static double ratio(double a, double b)
{
	return isfinite(a) && isfinite(b) && b > 0 ? a / b : NAN;
}

static void bw_row(FILE *out, double size, json_t *r, json_t *t)
{
	double rb = num(r, "bw_avg_gbps"), tb = num(t, "bw_avg_gbps");
	double rc = ns_per_byte(num(r, "cpu_util_pct"), rb);
	double tc = ns_per_byte(num(t, "cpu_util_pct"), tb);
	double rs = ns_per_byte(num(r, "peer_cpu_util_pct"), rb);
	double ts = ns_per_byte(num(t, "peer_cpu_util_pct"), tb);

	fprintf(out, "%10.0f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f\n", size,
		rb, tb, ratio(rb, tb), rc, tc, ratio(rc, tc), rs, ts, ratio(rs, ts));
}

static void lat_row(FILE *out, double size, json_t *r, json_t *t)
{
	json_t *rl = json_object_get(r, "lat_us"), *tl = json_object_get(t, "lat_us");
	double r50 = num(rl, "p50"), t50 = num(tl, "p50"), r99 = num(rl, "p99"),
	       t99 = num(tl, "p99");
	double rc = num(r, "cpu_ns_per_msg"), tc = num(t, "cpu_ns_per_msg");

	fprintf(out, "%10.0f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f\n", size,
		r50, t50, ratio(t50, r50), r99, t99, ratio(t99, r99), rc, tc, ratio(rc, tc));
}

static void header(FILE *out, const char *rt, const char *tt, bool lat)
{
	fprintf(out, "# %s (RDMA) against %s (TCP), size by size%s\n", rt, tt,
		lat ? "; latency ratio TCP/RDMA, CPU per message"
		    : "; throughput ratio RDMA/TCP, CPU ns per byte (client, server)");
	if (lat)
		fprintf(out, "%10s %10s %10s %8s %10s %10s %8s %10s %10s %8s\n", "size", "rdma_p50",
			"tcp_p50", "tcp/rdma", "rdma_p99", "tcp_p99", "tcp/rdma", "rdma_cpu",
			"tcp_cpu", "rdma/tcp");
	else
		fprintf(out, "%10s %10s %10s %8s %10s %10s %8s %10s %10s %8s\n", "size",
			"rdma_Gb/s", "tcp_Gb/s", "rdma/tcp", "rdma_cli", "tcp_cli", "rdma/tcp",
			"rdma_srv", "tcp_srv", "rdma/tcp");
}

int rb_compare_vs_tcp(json_t *rdma, json_t *tcp, FILE *out, char *err, size_t len)
{
	const char *rt = str(rdma, "test"), *tt = str(tcp, "test");
	json_t *r, *t, *results = json_object_get(rdma, "results");
	size_t i, n = 0;

	if (!rt[0] || is_tcp(rt))
		return fail(err, len, "--vs-tcp: the first file must be an RDMA test's, not '%s'",
			    rt);
	if (!is_tcp(tt))
		return fail(err, len,
			    "--vs-tcp: the second file must be tcp_lat's or tcp_bw's, not '%s'",
			    tt);
	if (is_lat(rt) != is_lat(tt))
		return fail(err, len,
			    "--vs-tcp: %s and %s measure different things (latency, bandwidth)", rt,
			    tt);
	if (strcmp(str(rdma, "role"), str(tcp, "role")))
		return fail(err, len, "--vs-tcp: one file is a client's, the other a server's");
	json_array_foreach(results, i, r)
	{
		double size = num(r, "size");

		t = point_of(tcp, size);
		if (!t || point_of(rdma, size) != r)
			continue; /* a size the other lacks, or not its first point */
		if (!n++)
			header(out, rt, tt, is_lat(rt));
		if (is_lat(rt))
			lat_row(out, size, r, t);
		else
			bw_row(out, size, r, t);
	}
	if (!n)
		return fail(err, len, "--vs-tcp: %s and %s share no message size", rt, tt);
	return RB_CMP_SAME;
}
