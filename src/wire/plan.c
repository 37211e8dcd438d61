// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "core/opts_row.h"
#include "core/provider.h"
#include "core/regcache.h"
#include "wire/plan.h"
#include "core/shape.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "core/bench.h"
#include "wire/wire.h"

/* Every rule broken here is a usage error. */
#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

/* Row @o's field in the plan. */
static const void *field(const struct rb_params *p, const struct rb_opt *o)
{
	return (const char *)p + (o->off - RB_OPT_PLAN_BEGIN);
}

static uint64_t scalar(const struct rb_params *p, const struct rb_opt *o)
{
	const void *f = field(p, o);

	switch (o->type) {
	case RB_OPT_U64:
		return *(const uint64_t *)f;
	case RB_OPT_U32:
		return *(const uint32_t *)f;
	default:
		return *(const uint8_t *)f;
	}
}

/* An axis: one to RB_MAX_AXIS values, each in range (.zero_unset: or none). */
static int check_axis(const struct rb_opt *o, const struct rb_axis *a, char *err, size_t len)
{
	char n[40];
	uint32_t i;
	int ret;

	if ((!a->n && !o->zero_unset) || a->n > RB_MAX_AXIS)
		return fail(err, len, "%s has %u values (1..%d)", rb_opt_name(o, n, sizeof(n)),
			    a->n, RB_MAX_AXIS);
	for (i = 0; i < a->n; i++) {
		ret = rb_opt_check_range(o, a->v[i], err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * An option that does not apply to the test stays at what the command
 * line leaves there: an axis at its one default (1, busy, 32), a number
 * or flag at 0.
 */
static int check_unused(const struct rb_params *p, const struct rb_opt *o, const char *test,
			char *err, size_t len)
{
	const struct rb_axis *a;
	char n[40];

	if (o->type == RB_OPT_AXIS) {
		a = field(p, o);
		if ((a->n == 1 && a->v[0] == o->unset) || (!a->n && o->zero_unset))
			return 0;
	} else if (!scalar(p, o)) {
		return 0;
	}
	return fail(err, len, "%s does not apply to %s", rb_opt_name(o, n, sizeof(n)), test);
}

/*
 * Whether some row over the same field as @o applies to @scope: one field
 * may have a row per test kind (--send-with-imm, --write-with-imm).
 */
static bool field_applies(const struct rb_opt *o, unsigned int scope)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++)
		if (rb_opts[i].off == o->off && rb_opt_applies(&rb_opts[i], scope))
			return true;
	return false;
}

/*
 * Every field of the plan against its row of the option table.
 * A row .always filled (-r: 512) has only its range checked.
 */
static int check_rows(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	size_t i;
	uint64_t v;
	int ret;

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		if (o->off - RB_OPT_PLAN_BEGIN >= sizeof(struct rb_params))
			continue; /* a local option, not part of the plan */
		if (o->always)
			ret = rb_opt_check_range(o, scalar(p, o), err, len);
		else if (!field_applies(o, rb_bench_scope(t)))
			/* An axis's twin (-e over --poll's axis): the axis's row checks. */
			ret = rb_opt_axis_twin(o) ? 0 : check_unused(p, o, t->name, err, len);
		else if (!rb_opt_applies(o, rb_bench_scope(t)) || rb_opt_axis_twin(o))
			ret = 0; /* its twin's row checks it */
		else if (o->type == RB_OPT_AXIS)
			ret = check_axis(o, field(p, o), err, len);
		else if ((v = scalar(p, o)) || !o->zero_unset)
			ret = rb_opt_check_range(o, v, err, len);
		else
			ret = 0;
		if (ret)
			return ret;
	}
	return 0;
}

static uint64_t smallest(const struct rb_axis *a)
{
	uint64_t m = UINT64_MAX;
	uint32_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] < m)
			m = a->v[i];
	return m;
}

/* "RC, UC": the transports of test @t, for messages. */
static const char *transports_of(const struct rb_bench *t, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < RB_TR_COUNT && used < len; i++)
		if (t->transports & RB_TR_BIT(i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 rb_transport_name(i));
	return buf;
}

/*
 * What the transport allows: the test's row says which it runs over; a
 * UD message is one packet; the CM path here connects RC and UC only.
 */
static int check_transport(const struct rb_params *p, const struct rb_bench *t, char *err,
			   size_t len)
{
	const char *tr = rb_transport_name(p->transport);
	char list[32];

	/* A socket test has no transport to choose: -c stays unset (check_rows()). */
	if (t->path != RB_PATH_VERBS)
		return 0;
	if (!(t->transports & RB_TR_BIT(p->transport)))
		return fail(err, len, "-c %s does not apply to %s: it runs over %s", tr, t->name,
			    transports_of(t, list, sizeof(list)));
	/* SRD delivers out of order: the last byte is no sign of the rest. */
	if (p->transport == RB_TR_SRD && t->polls_buffer)
		return fail(err, len,
			    "-c SRD does not apply to %s: it polls the buffer's last byte for "
			    "arrival, and SRD delivers out of order",
			    t->name);
	/* DC's QPs are asymmetric: the client's initiators, the server's targets. */
	if (p->transport == RB_TR_DC && (p->bidir || p->use_cm))
		return fail(err, len,
			    "-c DC does not apply with %s: the client's DC initiators send to the "
			    "server's DC targets, one way, connected by the out-of-band exchange",
			    p->bidir ? "-b/--bidirectional" : "-R/--rdma-cm");
	if (!rb_tr_datagram(p->transport))
		return 0;
	if (p->use_cm)
		return fail(err, len,
			    "-R/--rdma-cm does not apply to -c %s: rdmabench connects RC and UC "
			    "QPs through the CM; %s uses the out-of-band exchange",
			    tr, tr);
	if (p->transport != RB_TR_UD)
		return 0;
	if (p->mtu && rb_axis_max(&p->size) > p->mtu)
		return fail(err, len,
			    "-s/--size %llu exceeds -m/--mtu %u: a -c UD message is one packet",
			    (unsigned long long)rb_axis_max(&p->size), p->mtu);
	return 0;
}

/*
 * How a point ends (-n, -D SEC or -D 0), its intervals and its pace: the
 * plan's fields, whoever sent them.
 */
static int check_shape(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	if ((p->iters != 0) + (p->duration_s != 0) + (p->forever != 0) != 1)
		return fail(err, len, "-n/--iters and -D/--duration exclude each other%s",
			    p->iters || p->duration_s || p->forever ? ""
								    : " (and one of them is "
								      "needed)");
	if (p->forever > 1)
		return fail(err, len, "-D 0: bad flag %u", p->forever);
	if (p->forever && rb_plan_count(p) != 1)
		return fail(err, len,
			    "-D 0 measures one point until it is stopped; this sweep has %zu",
			    rb_plan_count(p));
	if (p->interval_ms &&
	    (p->interval_ms < RB_INTERVAL_MS_MIN || p->interval_ms > RB_INTERVAL_MS_MAX))
		return fail(err, len, "--interval %u ms is out of range (%d..%d ms)",
			    p->interval_ms, RB_INTERVAL_MS_MIN, RB_INTERVAL_MS_MAX);
	if (p->interval_ms && p->duration_s && p->interval_ms > p->duration_s * 1000ULL)
		return fail(err, len, "--interval %.3g s is longer than -D/--duration %u s",
			    p->interval_ms / 1000.0, p->duration_s);
	if (p->rate_unit && t->mode != RB_MODE_BW)
		return fail(err, len,
			    "--rate paces bandwidth tests; %s measures one message at a time",
			    t->name);
	/* Slices and pacing are the one-way stream's; -b has its own loop. */
	if (p->bidir && (p->interval_ms || p->rate_unit || p->forever))
		return fail(err, len, "-b/--bidirectional does not go with %s",
			    p->interval_ms ? "--interval"
			    : p->rate_unit ? "--rate"
					   : "-D 0");
	return rb_rate_check(p->rate, p->rate_unit, err, len);
}

/* Rules between options; each message names both sides. */
/* --flow-label: up to RB_FLOW_MAX labels of 20 bits. */
static int check_flows(const struct rb_params *p, char *err, size_t len)
{
	uint32_t i;

	if (p->nflow > RB_FLOW_MAX)
		return fail(err, len, "--flow-label has %u values (up to %d)", p->nflow,
			    RB_FLOW_MAX);
	for (i = 0; i < p->nflow; i++)
		if (p->flow_label[i] > 0xfffff)
			return fail(err, len, "--flow-label %u is out of range (0..1048575)",
				    p->flow_label[i]);
	return 0;
}

/*
 * --reversed: the server runs the client's part of the point and the
 * client the server's; what only the client's loop or its session knows
 * cannot follow the data to the server.
 */
static int check_reversed(const struct rb_params *p, char *err, size_t len)
{
	const char *why = NULL;

	if (!p->reversed)
		return 0;
	if (p->bidir)
		why = "-b: both sides stream already";
	else if (p->threads > 1)
		why = "--threads: the client's threads start each point together and add up "
		      "their own figures";
	else if (p->interval_ms)
		why = "--interval: the slices are the measuring side's, and the server's RESULT "
		      "carries the point's figures only";
	else if (p->forever)
		why = "-D 0: the client's signal ends the point, and the server measures";
	else if (p->latency_gap_us)
		why = "--latency_gap: the client's, not on the wire, and the server pings";
	return why ? fail(err, len, "--reversed and %s", why) : 0;
}

/*
 * --reg-mode cache (issue 42): its options only with it; its pattern in
 * range; its buffers (--buffers x -s of the client's memory) at most
 * RB_RCACHE_BYTES_MAX; the payload is not the pool's, so no --verify.
 */
static int check_reg_cache(const struct rb_params *p, char *err, size_t len)
{
	uint64_t bytes = (uint64_t)p->buffers * rb_axis_max(&p->size);

	if (p->reg_mode != RB_REG_CACHE) {
		if (p->reg_cache || p->buffers || p->reuse || p->reuse_zipf)
			return fail(err, len, "--%s needs --reg-mode cache",
				    p->reg_cache ? "reg-cache"
				    : p->buffers ? "buffers"
						 : "reuse");
		return 0;
	}
	if (!p->reg_cache || !p->buffers)
		return fail(err, len, "--reg-mode cache: --reg-cache and --buffers are 1 or more");
	if (p->reuse > RB_REUSE_SEQ || (p->reuse == RB_REUSE_ZIPF) != (p->reuse_zipf != 0) ||
	    p->reuse_zipf > RB_ZIPF_MILLI_MAX)
		return fail(err, len, "--reuse: bad pattern %u (S %u/1000)", p->reuse,
			    p->reuse_zipf);
	if (bytes > RB_RCACHE_BYTES_MAX)
		return fail(err, len,
			    "--reg-mode cache: --buffers %u x -s %llu is %llu bytes, above %llu "
			    "GiB: "
			    "fewer buffers or a smaller -s",
			    p->buffers, (unsigned long long)rb_axis_max(&p->size),
			    (unsigned long long)bytes, RB_RCACHE_BYTES_MAX >> 30);
	if (p->verify)
		return fail(err, len,
			    "--reg-mode cache and --verify: the messages come from the cache's "
			    "buffers, not the pool whose payload --verify checks");
	return 0;
}

/*
 * --reg-mode per-msg and cache: one WR at a time from one QP, each with
 * an MR of its own (regmsg.c) or the cache's (engine/regcache.c), so
 * nothing that chains, inlines or paces WRs, and the client streams.
 */
static int check_reg_mode(const struct rb_params *p, const struct rb_bench *t, char *err,
			  size_t len)
{
	const char *why = NULL;
	int ret = check_reg_cache(p, err, len);

	if (ret || p->reg_mode == RB_REG_POOL) /* the row checked the range */
		return ret;
	if (t->mode != RB_MODE_BW || t->atomic)
		why = "a bandwidth test of sends, writes or reads";
	else if (rb_axis_max(&p->batch) > 1)
		why = "-l 1: each WR is posted alone, after its registration";
	else if (rb_axis_max(&p->qps) > 1)
		why = "-q 1";
	else if (p->inline_size)
		why = "-I 0: an inline message has no buffer to register";
	else if (p->bidir || p->reversed)
		why = "the client streaming alone (no -b, no --reversed)";
	else if (p->rate_unit)
		why = "no --rate";
	else if (rb_tr_datagram(p->transport))
		why = "RC or UC";
	return why ? fail(err, len, "--reg-mode %s needs %s (%s)",
			  p->reg_mode == RB_REG_CACHE ? "cache" : "per-msg", why, t->name)
		   : 0;
}

/*
 * --poll event: each side sleeps on its CQ's completion channel.  A test
 * whose receiver learns of arrival by polling its buffer (write_lat
 * without immediates) has no completion to sleep for.  An axis: any of
 * its values may be event.
 */
static int check_poll(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	uint32_t i;

	for (i = 0; i < p->poll.n; i++) {
		if (p->poll.v[i] > RB_POLL_EVENT)
			return fail(err, len, "--poll %llu is not one of busy|event",
				    (unsigned long long)p->poll.v[i]);
		if (p->poll.v[i] == RB_POLL_EVENT && t->polls_buffer && !p->imm)
			return fail(err, len,
				    "--poll event does not apply to %s: its receiver polls the "
				    "last "
				    "byte of its buffer for each message, not its CQ "
				    "(--write-with-imm makes it wait for a receive completion)",
				    t->name);
	}
	return 0;
}

/*
 * --probe: a ping-pong on a QP of its own beside the stream, connected out
 * of band by the client's one session (engine/probe.h), with -R too: the
 * CONN that carries its QP goes out before the CM connects the data QPs.
 */
static int check_probe(const struct rb_params *p, char *err, size_t len)
{
	if (p->probe > 1)
		return fail(err, len, "--probe: bad flag %u", p->probe);
	if (!p->probe)
		return p->probe_rate ? fail(err, len, "--probe-rate needs --probe") : 0;
	return 0;
}

/* --wr-lat: the streaming loops time their signaled WRs (engine/wrlat.c). */
static int check_wr_lat(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	if (p->wr_lat > 1)
		return fail(err, len, "--wr-lat: bad flag %u", p->wr_lat);
	if (p->wr_lat && t->mode != RB_MODE_BW)
		return fail(err, len, "--wr-lat applies to bandwidth tests, not %s", t->name);
	if (p->wr_lat && p->reg_mode != RB_REG_POOL)
		return fail(err, len,
			    "--wr-lat and --reg-mode %s: that stream posts one WR at a time "
			    "around its registration, not timed here",
			    p->reg_mode == RB_REG_CACHE ? "cache" : "per-msg");
	return 0;
}

/*
 * --cq-per-qp: the stream's polls go round the QPs' CQs (with --poll
 * event all on one channel); a latency loop polls one CQ.  --wr-lat
 * reads the QP from each completion, --probe has a CQ of its own, and
 * --reg-mode per-msg runs one QP: each works with it.
 */
static int check_cq_per_qp(const struct rb_params *p, const struct rb_bench *t, char *err,
			   size_t len)
{
	if (p->cq_per_qp > 1)
		return fail(err, len, "--cq-per-qp: bad flag %u", p->cq_per_qp);
	if (p->cq_per_qp && t->mode != RB_MODE_BW)
		return fail(err, len, "--cq-per-qp applies to bandwidth tests, not %s", t->name);
	return 0;
}

/*
 * issue 42: lock's contenders are the point's -q QPs of one connection,
 * on one server buffer: what would split them (--threads: a server
 * process and buffer each; --mr-per-qp) or what its loop does not do
 * (--rate, --reversed, --wr-lat, --cq-per-qp) is refused.
 */
static int check_lock(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	const char *why = NULL;

	if (!t->lock)
		return rb_axis_max(&p->lock_algo) || p->backoff_max_ns || p->lock_layout
			       ? fail(err, len, "--lock and --backoff do not apply to %s", t->name)
			       : 0;
	if (p->lock_layout != RB_LOCK_LAYOUT)
		return fail(err, len,
			    "%s: the client's build lays out a lock's data as layout %u, this one "
			    "as %u (the holder's mark names its host): run one rdmabench release "
			    "on the client and the server",
			    t->name, p->lock_layout, RB_LOCK_LAYOUT);
	if (p->backoff_min_ns > p->backoff_max_ns || (!p->backoff_min_ns) != (!p->backoff_max_ns))
		return fail(err, len, "--backoff: MIN %u above MAX %u, or one of them 0",
			    p->backoff_min_ns, p->backoff_max_ns);
	if (rb_axis_max(&p->lock_algo) >= RB_LOCK_ALGO_COUNT)
		return fail(err, len, "--lock %llu is not one of spin|ticket",
			    (unsigned long long)rb_axis_max(&p->lock_algo));
	if (p->threads > 1)
		why = "--threads: each thread would have a server buffer, and a lock, of its own; "
		      "contenders are -q QPs (-q 1,2,4,8)";
	else if (p->mr_per_qp)
		why = "--mr-per-qp: the contenders share the server's one buffer";
	else if (p->reversed || p->latency_gap_us)
		why = "--reversed or --latency_gap: the lock's loop has neither";
	else if (p->lock_run_id && p->hugepages)
		why = "--hugepages with --run-id: the server maps the run's shared lock words in "
		      "normal pages";
	if (!why && !p->lock_run_id != !p->lock_hosts)
		return fail(err, len,
			    "%s: --run-id ID and --run-hosts N go together: N client hosts give "
			    "the same ID (--run-id %llu, --run-hosts %u)",
			    t->name, (unsigned long long)p->lock_run_id, p->lock_hosts);
	return why ? fail(err, len, "%s does not take %s", t->name, why) : 0;
}

static int check_cross(const struct rb_params *p, const struct rb_bench *t, char *err, size_t len)
{
	uint32_t i, j;
	int ret = check_shape(p, t, err, len);

	if (ret)
		return ret;
	if (t->fixed_size && (p->size.n != 1 || p->size.v[0] != t->fixed_size))
		return fail(err, len, "-s/--size: %s messages are %u bytes; omit -s or give %u",
			    t->name, t->fixed_size, t->fixed_size);
	if (p->atomic_op > RB_OP_CSWAP)
		return fail(err, len, "--op %u is not one of fadd|cswap", p->atomic_op);
	if (!t->atomic && p->atomic_op)
		return fail(err, len, "--op does not apply to %s", t->name);
	ret = check_flows(p, err, len);
	if (ret)
		return ret;
	/* Until the loops know it, a peer's plan that asks is refused. */
	if (p->imm > 1)
		return fail(err, len, "--send-with-imm/--write-with-imm: bad flag %u", p->imm);
	if (p->imm && !t->imm_ops)
		return fail(err, len,
			    "--send-with-imm/--write-with-imm do not apply to %s: its %s WRs carry "
			    "no immediate",
			    t->name, t->wr_name);
	ret = check_reversed(p, err, len);
	if (!ret)
		ret = check_poll(p, t, err, len);
	if (!ret)
		ret = check_reg_mode(p, t, err, len);
	if (!ret)
		ret = check_probe(p, err, len);
	if (!ret)
		ret = check_wr_lat(p, t, err, len);
	if (!ret)
		ret = check_cq_per_qp(p, t, err, len);
	if (!ret)
		ret = rb_plan_credits_check(p, t, err, len);
	if (!ret)
		ret = check_lock(p, t, err, len);
	if (ret)
		return ret;
	if (p->recv_post_list > p->rx_depth)
		return fail(err, len, "--recv-post-list %u exceeds -r/--rx-depth %u",
			    p->recv_post_list, p->rx_depth);
	for (i = 0; i < p->signal.n; i++)
		for (j = 0; j < p->tx_depth.n; j++)
			if (p->signal.v[i] > p->tx_depth.v[j])
				return fail(err, len,
					    "-Q/--signal %llu exceeds -t/--tx-depth %llu: the send "
					    "queue would fill with unsignaled WRs",
					    (unsigned long long)p->signal.v[i],
					    (unsigned long long)p->tx_depth.v[j]);
	if (rb_axis_max(&p->batch) > smallest(&p->tx_depth))
		return fail(err, len, "-l/--batch %llu exceeds -t/--tx-depth %llu",
			    (unsigned long long)rb_axis_max(&p->batch),
			    (unsigned long long)smallest(&p->tx_depth));
	if (p->thread >= (p->threads ? p->threads : 1))
		return fail(err, len, "thread %u of a run of %u thread(s)", p->thread, p->threads);
	if (p->run_id && p->threads < 2)
		return fail(err, len, "run_id 0x%016llx: only a run of threads has a run id",
			    (unsigned long long)p->run_id);
	if (rb_plan_count(p) > RB_MAX_POINTS)
		return fail(err, len, "the sweep has %zu points, more than the %d allowed",
			    rb_plan_count(p), RB_MAX_POINTS);
	return 0;
}

/* Rounded up to a power of two, as providers size their queues. */
static uint64_t pow2_up(uint64_t v)
{
	uint64_t r = 1;

	while (r < v && r < (1ULL << 62))
		r <<= 1;
	return r;
}

/* The test of plan @p (its name need not be terminated), or NULL. */
static const struct rb_bench *plan_bench(const struct rb_params *p)
{
	char test[sizeof(p->test) + 1];

	memcpy(test, p->test, sizeof(p->test));
	test[sizeof(p->test)] = '\0';
	return rb_bench_find(test);
}

/*
 * The samples a latency point keeps (stats.h), counted twice for the
 * array's last growth: every one of -n up to RB_SAMPLES_EXACT_MAX, then
 * the buckets (a point of -D or a longer -n); once more with --interval,
 * whose slices are sorted in a copy.  Bandwidth tests keep none.
 */
static uint64_t samples_mem(const struct rb_params *p)
{
	const struct rb_bench *t = plan_bench(p);
	uint64_t exact = RB_SAMPLES_EXACT_MAX, times = p->interval_ms ? 3 : 2;

	if (!t || t->mode != RB_MODE_LAT)
		return 0;
	if (p->iters && p->iters <= exact)
		return p->iters * sizeof(uint64_t) * times;
	return exact * sizeof(uint64_t) * times + 2 * sizeof(struct rb_hist);
}

/* The bytes a region must hold beside the message: the row's (.region), or -s. */
static uint64_t region_need(const struct rb_params *p)
{
	const struct rb_bench *t = plan_bench(p);
	uint64_t size = rb_axis_max(&p->size), need = t && t->region ? t->region(p) : 0;

	return need > size ? need : size;
}

uint64_t rb_plan_region(const struct rb_params *p)
{
	uint64_t size = region_need(p);
	uint64_t grh = p->transport == RB_TR_UD ? RB_GRH_BYTES : 0;

	return (((size < 64 ? 64 : size) + grh + 63) & ~63ULL) + rb_plan_credit_block(p);
}

uint64_t rb_plan_mem(const struct rb_params *p)
{
	uint64_t size = region_need(p), qps = rb_axis_max(&p->qps);
	uint64_t tx = pow2_up(rb_axis_max(&p->tx_depth)), rx = pow2_up(p->rx_depth);
	uint64_t region = ((size < 64 ? 64 : size) + 63) & ~63ULL;
	/* A send WQE: a header of up to 256 bytes (rxe) plus inline data or SGEs. */
	uint32_t inl = p->inline_size == RB_INLINE_AUTO ? 512 : p->inline_size; /* rxe's most */
	uint64_t sq = tx * (256 + pow2_up(inl ? inl : 16));
	uint64_t mem = (p->mr_per_qp ? qps : 1) * 2 * region; /* buffers: one pair per MR */

	mem += qps * (sq + rx * 64);
	mem += pow2_up(qps * (tx + rx) + 16) * 64; /* CQEs */
	mem += rb_axis_max(&p->batch) * 128;	   /* WR templates */
	if (p->reg_mode == RB_REG_CACHE)	   /* --buffers, a point's at a time */
		mem += (uint64_t)p->buffers * size;
	return mem + samples_mem(p);
}

int rb_plan_validate(const struct rb_params *p, uint64_t mem_budget, char *err, size_t len)
{
	const struct rb_bench *t = plan_bench(p);
	uint64_t mem;
	int ret;

	if (!t)
		return fail(err, len, "unknown test in the plan");
	ret = check_rows(p, t, err, len);
	if (!ret)
		ret = check_transport(p, t, err, len);
	if (!ret)
		ret = check_cross(p, t, err, len);
	if (ret)
		return ret;
	/* Each thread (and each of its server's processes) has all of it. */
	mem = rb_plan_mem(p) * (p->threads ? p->threads : 1);
	if (mem_budget && mem > mem_budget)
		return fail(err, len,
			    "the plan needs about %llu MiB (buffers, %llu QPs of depth %llu, CQ, "
			    "samples, per thread); this host can give %llu MiB: lower -q/--qps, "
			    "-t/--tx-depth, -s/--size, -n/--iters or --threads",
			    (unsigned long long)(mem >> 20),
			    (unsigned long long)rb_axis_max(&p->qps),
			    (unsigned long long)rb_axis_max(&p->tx_depth),
			    (unsigned long long)(mem_budget >> 20));
	return 0;
}

uint64_t rb_mem_budget(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024 / 4 * 3;
}

/* ---- what a peer sends besides the plan ------------------------------ */

/* Every refusal of a peer's message is a protocol error. */
#define refuse(err, len, ...) rb_set_err(err, len, -EPROTO, __VA_ARGS__)

/* Linux numbers NUMA nodes below MAX_NUMNODES, at most 1 << 10. */
#define PEER_NUMA_MAX 1023

static bool cpu_list_chars(const char *s)
{
	return strspn(s, "0123456789 ,-.") == strlen(s);
}

int rb_place_validate(const struct rb_placement *p, char *err, size_t len)
{
	char safe[4 * sizeof(p->cpus)];

	if (p->device_numa_node < -1 || p->device_numa_node > PEER_NUMA_MAX)
		return refuse(err, len, "placement device_numa_node %d is out of range (-1..%d)",
			      p->device_numa_node, PEER_NUMA_MAX);
	if (p->mem_node < -1 || p->mem_node > PEER_NUMA_MAX)
		return refuse(err, len, "placement mem_node %d is out of range (-1..%d)",
			      p->mem_node, PEER_NUMA_MAX);
	if (p->local < -1 || p->local > 1)
		return refuse(err, len, "placement local %d is out of range (-1..1)", p->local);
	if (!memchr(p->cpus, '\0', sizeof(p->cpus)) || !cpu_list_chars(p->cpus))
		return refuse(err, len, "placement cpus '%s' is not a CPU list",
			      rb_escape(p->cpus, safe, sizeof(safe)));
	return 0;
}

/* 256, 512, 1024, 2048 or 4096: what IBV_MTU_256..IBV_MTU_4096 name. */
int rb_data_validate(const struct rb_msg_data *m, bool from_server, char *err, size_t len)
{
	if (from_server && !m->port)
		return refuse(err, len, "DATA: no data port");
	if (!from_server && m->port)
		return refuse(err, len, "DATA: a client's has no port (%u)", m->port);
	if (m->nodelay > 1)
		return refuse(err, len, "DATA: bad nodelay flag %u", m->nodelay);
	return rb_place_validate(&m->place, err, len);
}

static bool is_mtu(uint32_t mtu)
{
	return mtu >= 256 && mtu <= 4096 && !(mtu & (mtu - 1));
}

/*
 * QPN and PSN are 24-bit; QPs 0 and 1 are the SMI and GSI, never a peer's.
 * @q is @what (qp[i], or probe_qp with @i -1).
 */
static int check_qp_info(const struct rb_msg_conn *c, const struct rb_conn_want *w,
			 const struct rb_qp_info *q, int i, char *err, size_t len)
{
	uint32_t min = w->min_qpn ? w->min_qpn : 2;
	char what[24];

	if (i < 0)
		snprintf(what, sizeof(what), "probe_qp");
	else
		snprintf(what, sizeof(what), "qp[%d]", i);
	if (q->qpn > 0xffffff || q->qpn < min)
		return refuse(err, len, "CONN %s.qpn 0x%x is not a QP number (%u..0xffffff)", what,
			      q->qpn, min);
	if (q->psn > 0xffffff)
		return refuse(err, len, "CONN %s.psn 0x%x exceeds 24 bits", what, q->psn);
	/* InfiniBand addresses by a unicast LID; RoCE and EFA (link layer
	 * unspecified) by GID. */
	if (c->link_layer == IBV_LINK_LAYER_INFINIBAND && (!q->lid || q->lid >= 0xc000))
		return refuse(err, len, "CONN %s.lid 0x%x is not a unicast LID (1..0xbfff)", what,
			      q->lid);
	return 0;
}

static int check_qp(const struct rb_msg_conn *c, const struct rb_conn_want *w, uint32_t i,
		    char *err, size_t len)
{
	return check_qp_info(c, w, &c->qp[i], (int)i, err, len);
}

/* --probe: its QP exactly when the plan asks for one. */
static int check_probe_qp(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err,
			  size_t len)
{
	if (!c->has_probe != !w->probe)
		return refuse(err, len, "CONN %s a probe QP, but the plan %s --probe",
			      c->has_probe ? "has" : "lacks", w->probe ? "has" : "has no");
	return c->has_probe ? check_qp_info(c, w, &c->probe_qp, -1, err, len) : 0;
}

/* Every MR as large as the plan's region pair, and not past the top of memory. */
static int check_mrs(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err,
		     size_t len)
{
	uint32_t i;

	if (c->len < w->mr_len)
		return refuse(err, len, "CONN len %llu: the plan needs %llu bytes per MR",
			      (unsigned long long)c->len, (unsigned long long)w->mr_len);
	for (i = 0; i < c->nmr; i++)
		if (c->mr[i].addr > UINT64_MAX - c->len)
			return refuse(err, len, "CONN mr[%u].addr 0x%llx + len %llu wraps", i,
				      (unsigned long long)c->mr[i].addr,
				      (unsigned long long)c->len);
	return 0;
}

int rb_conn_counts(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err, size_t len)
{
	if (c->nqp != w->nqp)
		return refuse(err, len, "CONN nqp %u: the plan has %u QP(s)", c->nqp, w->nqp);
	if (c->nmr != w->nmr)
		return refuse(err, len, "CONN nmr %u: the plan has %u MR(s)", c->nmr, w->nmr);
	if (!c->qp || !c->mr)
		return refuse(err, len, "CONN without its lists");
	return 0;
}

int rb_conn_validate(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err,
		     size_t len)
{
	uint32_t i;
	int ret;

	if (!is_mtu(c->mtu))
		return refuse(err, len,
			      "CONN mtu %u is not an MTU (256, 512, 1024, 2048 or 4096 bytes)",
			      c->mtu);
	if (c->link_layer > IBV_LINK_LAYER_ETHERNET)
		return refuse(err, len, "CONN link_layer %u is not a link layer (0..%d)",
			      c->link_layer, IBV_LINK_LAYER_ETHERNET);
	if (c->transport > IBV_TRANSPORT_UNSPECIFIED)
		return refuse(err, len, "CONN transport %u is not a transport (0..%d)",
			      c->transport, IBV_TRANSPORT_UNSPECIFIED);
	ret = rb_conn_counts(c, w, err, len);
	for (i = 0; !ret && i < c->nqp; i++)
		ret = check_qp(c, w, i, err, len);
	if (ret)
		return ret;
	ret = check_mrs(c, w, err, len);
	if (!ret)
		ret = check_probe_qp(c, w, err, len);
	return ret ? ret : rb_place_validate(&c->place, err, len);
}

/* A provider's RB_OFFER_* bit is the transport's RB_TR_BIT. */
_Static_assert(RB_OFFER_SRD == RB_TR_BIT(RB_TR_SRD) && RB_OFFER_DC == RB_TR_BIT(RB_TR_DC),
	       "RB_OFFER_* follow enum rb_transport");

int rb_plan_provider_check(const struct rb_params *p, const struct rb_bench *t,
			   const struct rb_provider *prov, const char *dev, char *err, size_t len)
{
	char offers[64], mine[32], makers[64];
	unsigned int both = t->transports & prov->offers;

	rb_prov_offers_str(prov->offers, offers, sizeof(offers));
	if (t->path != RB_PATH_VERBS)
		return 0;
	if (!(prov->offers & RB_TR_BIT(p->transport)) && !both)
		return fail(err, len, "%s runs over %s; %s is %s (%s), which makes %s QPs only",
			    t->name, transports_of(t, mine, sizeof(mine)), dev, prov->name,
			    prov->family, offers);
	/* A vendor's own transport (SRD, DC): whose it is. */
	if (!(prov->offers & RB_TR_BIT(p->transport)) &&
	    (RB_TR_BIT(p->transport) & (RB_OFFER_SRD | RB_OFFER_DC)))
		return fail(err, len,
			    "-c %s: %s is %s (%s), which makes %s QPs; %s QPs are %s's; give -c %s",
			    rb_transport_name(p->transport), dev, prov->name, prov->family, offers,
			    rb_transport_name(p->transport),
			    rb_prov_makers(RB_TR_BIT(p->transport), makers, sizeof(makers)),
			    rb_transport_name((uint32_t)__builtin_ctz(both)));
	if (!(prov->offers & RB_TR_BIT(p->transport)))
		return fail(err, len, "-c %s: %s is %s (%s), which makes %s QPs; give -c %s",
			    rb_transport_name(p->transport), dev, prov->name, prov->family, offers,
			    rb_transport_name((uint32_t)__builtin_ctz(both)));
	if (t->atomic && !prov->atomics)
		return fail(err, len, "%s: %s is %s (%s), which has no atomic operations", t->name,
			    dev, prov->name, prov->family);
	if (p->probe && !(prov->offers & RB_OFFER_RC))
		return fail(err, len,
			    "--probe pings over an RC QP; %s is %s (%s), which makes %s QPs", dev,
			    prov->name, prov->family, offers);
	return 0;
}

unsigned int rb_plan_transport_for(const struct rb_bench *t, const struct rb_provider *prov,
				   unsigned int tr)
{
	unsigned int both = t->transports & prov->offers;

	if ((prov->offers & RB_TR_BIT(tr)) || !both)
		return tr;
	return (unsigned int)__builtin_ctz(both);
}

/* The peer's GID in @c's first QP: all zeros when it addresses by LID. */
static bool by_gid(const struct rb_msg_conn *c)
{
	static const uint8_t zero[16];

	return c->nqp && c->qp && memcmp(c->qp[0].gid, zero, sizeof(zero));
}

int rb_conn_peer_check(const struct rb_msg_conn *me, const struct rb_msg_conn *peer, char *err,
		       size_t len)
{
	if (peer->link_layer != me->link_layer)
		return rb_set_err(err, len, -EPROTO,
				  "the peer's %s port is %s, this side's %s port is %s: they "
				  "cannot connect",
				  peer->device, rb_prov_link_layer_str(peer->link_layer),
				  me->device, rb_prov_link_layer_str(me->link_layer));
	if (me->link_layer == IBV_LINK_LAYER_INFINIBAND && by_gid(me) != by_gid(peer))
		return rb_set_err(err, len, -EPROTO,
				  "-x/--gid-index on one side only: on InfiniBand %s addresses by "
				  "GID (GRH), the peer's %s by LID; give -x to both sides or to "
				  "neither",
				  by_gid(me) ? me->device : peer->device,
				  by_gid(me) ? peer->device : me->device);
	return 0;
}

/* A figure is a non-negative finite number up to @max. */
static bool plausible(double v, double max)
{
	return isfinite(v) && v >= 0 && v <= max;
}

/*
 * A peer that measured nothing (0 iterations: all its warm-up lost) has
 * no CPU figure and no duration, and sends NaN for them: no lie.
 */
static bool absent(const struct rb_msg_result *m, double v)
{
	return !m->iters && isnan(v);
}

uint32_t rb_result_check(const struct rb_msg_result *m, uint64_t max_iters)
{
	uint32_t bad = 0;

	if (max_iters && m->iters > max_iters)
		bad |= RB_PEER_ITERS;
	if (!plausible(m->bw_avg_gbps, RB_PEER_BW_MAX_GBPS))
		bad |= RB_PEER_BW_AVG;
	if (!plausible(m->cpu_util_pct, RB_PEER_CPU_MAX_PCT) && !absent(m, m->cpu_util_pct))
		bad |= RB_PEER_CPU;
	if (!plausible(m->bw_peak_gbps, RB_PEER_BW_MAX_GBPS))
		bad |= RB_PEER_BW_PEAK;
	if (!plausible(m->msg_rate_mpps, RB_PEER_RATE_MAX_MPPS))
		bad |= RB_PEER_MSG_RATE;
	if (!plausible(m->duration_s, HUGE_VAL) && !absent(m, m->duration_s))
		bad |= RB_PEER_DURATION;
	return bad;
}

bool rb_setup_check(const struct rb_msg_result *m, uint32_t nqp)
{
	return m->setup_qps == nqp && plausible(m->setup_create_ms, RB_PEER_SETUP_MAX_MS) &&
	       plausible(m->setup_connect_ms, RB_PEER_SETUP_MAX_MS);
}

const char *rb_result_field(uint32_t bit)
{
	static const char *const names[RB_PEER_NFIELDS] = { "iterations",    "bw_avg_gbps",
							    "cpu_util_pct",  "bw_peak_gbps",
							    "msg_rate_mpps", "duration_s" };
	unsigned int i;

	for (i = 0; i < RB_PEER_NFIELDS; i++)
		if (bit == 1u << i)
			return names[i];
	return NULL;
}
