// SPDX-License-Identifier: MIT
/*
 * rdmabench compare --vs-tcp RDMA.json TCP.json: an RDMA run and a TCP
 * run (tcp_lat, tcp_bw) of the same kind side by side, size by size: the
 * throughput or latency ratio, and what each costs in CPU on both sides.
 * Latencies compare on one basis: each test's lat_us is one-way (half the
 * round trip: send_lat, write_lat, tcp_lat) or the round trip (read_lat,
 * atomic_lat) by its row's lat_scale, so a pair of different bases is
 * compared as round trips.  A lock run pairs with a tcp_lock run (issue
 * 42) point by point: the same -q (contenders), --locks, --hold,
 * --cs-bytes and --verify, and lock's figures side by side.  Pure: two
 * documents in, a table out.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/compare.h"
#include "core/bench.h"

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

/*
 * What turns each file's lat_us into the table's basis: 1 when both are
 * of one basis (their own), else 1 / lat_scale (a one-way figure doubled:
 * round trips).
 */
struct basis {
	double rk, tk;
	bool round_trip;
};

static struct basis basis_of(const struct rb_bench *rb, const struct rb_bench *tb)
{
	struct basis b = { 1, 1, rb->lat_scale == 1.0 };

	if (rb->lat_scale != tb->lat_scale) {
		b.rk = 1 / rb->lat_scale;
		b.tk = 1 / tb->lat_scale;
		b.round_trip = true;
	}
	return b;
}

static void lat_row(FILE *out, double size, json_t *r, json_t *t, const struct basis *k)
{
	json_t *rl = json_object_get(r, "lat_us"), *tl = json_object_get(t, "lat_us");
	double r50 = num(rl, "p50") * k->rk, t50 = num(tl, "p50") * k->tk;
	double r99 = num(rl, "p99") * k->rk, t99 = num(tl, "p99") * k->tk;
	double rc = num(r, "cpu_ns_per_msg"), tc = num(t, "cpu_ns_per_msg");

	fprintf(out, "%10.0f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f %10.4g %10.4g %8.2f\n", size,
		r50, t50, ratio(t50, r50), r99, t99, ratio(t99, r99), rc, tc, ratio(rc, tc));
}

/* The latency table's basis, in words. */
static void basis_line(FILE *out, const char *rt, const char *tt, const struct basis *k)
{
	if (!k->round_trip)
		fprintf(out, "# latency: one-way (half the round trip), as both tests report it\n");
	else if (k->rk == 1 && k->tk == 1)
		fprintf(out, "# latency: round trips, as both tests report them\n");
	else
		fprintf(out, "# latency: round trips (%s's one-way figures doubled)\n",
			k->rk != 1 ? rt : tt);
}

/* @k: a latency table's basis; NULL: bandwidth. */
static void header(FILE *out, const char *rt, const char *tt, const struct basis *k)
{
	fprintf(out, "# %s (RDMA) against %s (TCP), size by size%s\n", rt, tt,
		k ? "; latency ratio TCP/RDMA, CPU per message"
		  : "; throughput ratio RDMA/TCP, CPU ns per byte (client, server)");
	if (k) {
		basis_line(out, rt, tt, k);
		fprintf(out, "%10s %10s %10s %8s %10s %10s %8s %10s %10s %8s\n", "size", "rdma_p50",
			"tcp_p50", "tcp/rdma", "rdma_p99", "tcp_p99", "tcp/rdma", "rdma_cpu",
			"tcp_cpu", "rdma/tcp");
	} else {
		fprintf(out, "%10s %10s %10s %8s %10s %10s %8s %10s %10s %8s\n", "size",
			"rdma_Gb/s", "tcp_Gb/s", "rdma/tcp", "rdma_cli", "tcp_cli", "rdma/tcp",
			"rdma_srv", "tcp_srv", "rdma/tcp");
	}
}

/*
 * What else changes a figure and the two files must share, as plain
 * compare asks: -b (two streams' totals), --threads (sums over threads)
 * and --reversed (the server's figures).  Absent: the default.
 */
struct same_param {
	const char *key, *opt, *absent;
};

static const struct same_param same_params[] = {
	{ "bidirectional", "-b", "false" },
	{ "threads", "--threads", "1" },
	{ "reversed", "--reversed", "false" },
};

/* issue 42: what else a lock run and a tcp_lock run must share (--hold is
 * an axis: the points pair on theirs). */
static const struct same_param same_lock[] = {
	{ "locks", "--locks", "1" },
	{ "cs_bytes", "--cs-bytes", "0" },
	{ "verify", "--verify", "false" },
	{ "lock_hosts", "--run-hosts", "0" }, /* tcp_lock has one host's contenders */
};

#define NPARAMS(t) (sizeof(t) / sizeof((t)[0]))

/* A value as JSON text ("true", "4"); "?" when too long. */
static void val_text(json_t *v, char *buf, size_t len)
{
	size_t n = json_dumpb(v, buf, len - 1, JSON_ENCODE_ANY | JSON_COMPACT);

	if (n && n < len)
		buf[n] = '\0';
	else
		snprintf(buf, len, "?");
}

static int check_params(json_t *rdma, json_t *tcp, const struct same_param *sp, size_t np,
			char *err, size_t len)
{
	json_t *rp = json_object_get(rdma, "params"), *tp = json_object_get(tcp, "params");
	json_t *dflt, *a, *b;
	char as[32], bs[32];
	size_t i;
	bool same;

	for (i = 0; i < np; i++) {
		dflt = json_loads(sp[i].absent, JSON_DECODE_ANY, NULL);
		a = json_object_get(rp, sp[i].key);
		b = json_object_get(tp, sp[i].key);
		a = a ? a : dflt;
		b = b ? b : dflt;
		same = json_equal(a, b);
		if (!same) {
			val_text(a, as, sizeof(as));
			val_text(b, bs, sizeof(bs));
		}
		json_decref(dflt);
		if (!same)
			return fail(err, len,
				    "--vs-tcp: different %s (%s): the RDMA file %s, the TCP file "
				    "%s; "
				    "their figures do not compare",
				    sp[i].key, sp[i].opt, as, bs);
	}
	return 0;
}

int rb_compare_vs_tcp(json_t *rdma, json_t *tcp, FILE *out, char *err, size_t len)
{
	const char *rt = str(rdma, "test"), *tt = str(tcp, "test");
	json_t *r, *t, *results = json_object_get(rdma, "results");
	const struct rb_bench *rb = rb_bench_find(rt), *tb = rb_bench_find(tt);
	struct basis k;
	size_t i, n = 0;
	bool lat;

	if (!rt[0] || is_tcp(rt) || !rb)
		return fail(err, len, "--vs-tcp: the first file must be an RDMA test's, not '%s'",
			    rt);
	if (!is_tcp(tt) || !tb)
		return fail(err, len,
			    "--vs-tcp: the second file must be tcp_lat's or tcp_bw's (tcp_lock's "
			    "for a lock run), not '%s'",
			    tt);
	if (rb->lock != tb->lock)
		return fail(err, len,
			    "--vs-tcp: %s and %s are no pair: lock goes with tcp_lock, the other "
			    "RDMA tests with tcp_lat or tcp_bw",
			    rt, tt);
	if (rb->mode != tb->mode)
		return fail(err, len,
			    "--vs-tcp: %s and %s measure different things (latency, bandwidth)", rt,
			    tt);
	if (strcmp(str(rdma, "role"), str(tcp, "role")))
		return fail(err, len, "--vs-tcp: one file is a client's, the other a server's");
	if (check_params(rdma, tcp, same_params, NPARAMS(same_params), err, len))
		return RB_CMP_INCOMPARABLE;
	if (rb->lock)
		return check_params(rdma, tcp, same_lock, NPARAMS(same_lock), err, len)
			       ? RB_CMP_INCOMPARABLE
			       : rb_compare_vs_tcp_lock(rdma, tcp, out, err, len);
	lat = rb->mode == RB_MODE_LAT;
	k = basis_of(rb, tb);
	json_array_foreach(results, i, r)
	{
		double size = num(r, "size");

		t = point_of(tcp, size);
		if (!t || point_of(rdma, size) != r)
			continue; /* a size the other lacks, or not its first point */
		if (!n++)
			header(out, rt, tt, lat ? &k : NULL);
		if (lat)
			lat_row(out, size, r, t, &k);
		else
			bw_row(out, size, r, t);
	}
	if (!n)
		return fail(err, len, "--vs-tcp: %s and %s share no message size", rt, tt);
	return RB_CMP_SAME;
}
