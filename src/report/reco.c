// SPDX-License-Identifier: MIT
/*
 * --recommend BOUND: the choice (reco.h); --recommend with or without one:
 * what is printed and stored of it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/cqmod.h"
#include "report/out_int.h"
#include "report/reco.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static bool has_cpu(const struct rb_result *r)
{
	return r->has_cpu && r->cpu_ns_per_msg > 0 && isfinite(r->cpu_ns_per_msg);
}

/*
 * Whether point @pt is of @o's workload: its size and, where -q counts
 * contenders (a lock test), its -q and --hold.  The other axes are the
 * strategies chosen between.
 */
static bool of_work(const struct rb_reco_bound *o, const struct rb_point *pt)
{
	return pt->size == o->size &&
	       (!o->contenders || (pt->qps == o->qps && pt->hold_us == o->hold_us));
}

/* Fill @o for the workload of point @w (@contenders: a lock test's) from every point of it. */
static void bound_work(const struct rb_result *res, size_t n, const struct rb_expect *bound,
		       const struct rb_point *w, bool contenders, struct rb_reco_bound *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->size = w->size;
	o->contenders = contenders;
	o->qps = contenders ? w->qps : 0;
	o->hold_us = contenders ? w->hold_us : 0;
	for (i = 0; i < n; i++) {
		struct rb_expect_ctx ctx = { .res = &res[i] };
		double v;

		if (!of_work(o, &res[i].pt) || !has_cpu(&res[i]))
			continue;
		o->points++;
		if (rb_expect_eval(bound, &ctx, &v, NULL) != RB_VERDICT_PASS)
			continue;
		o->within++;
		if (o->found && res[i].cpu_ns_per_msg >= o->cpu_ns_per_msg)
			continue;
		o->found = true;
		o->pt = res[i].pt;
		o->cpu_ns_per_msg = res[i].cpu_ns_per_msg;
		o->value = v;
	}
}

size_t rb_recommend_bound(const struct rb_result *res, size_t n, const struct rb_expect *bound,
			  const struct rb_params *p, struct rb_reco_bound *out, size_t max)
{
	bool contenders = rb_plan_lock(p);
	size_t i, j, k = 0;

	for (i = 0; i < n && k < max; i++) {
		for (j = 0; j < k && !of_work(&out[j], &res[i].pt); j++)
			;
		if (j < k)
			continue;
		bound_work(res, n, bound, &res[i].pt, contenders, &out[k++]);
	}
	return k;
}

int rb_reco_bound_check(const struct rb_expect *bound, const char *test, enum rb_mode mode,
			char *err, size_t len)
{
	if (bound->metric != RB_EXP_METRIC || bound->of_link)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a bound is a figure of each point (p99<=20us, "
				  "rate>=1Mpps, bw>=10Gbps), not a counter or a share of the link",
				  bound->text);
	if (bound->row->group == RB_MG_LAT && mode != RB_MODE_LAT)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a latency, which %s does not measure",
				  bound->text, test);
	if (bound->row->group == RB_MG_BW && mode != RB_MODE_BW)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a bandwidth figure, which %s does not measure",
				  bound->text, test);
	return 0;
}

/*
 * A point's axes: each one's option, its plan axis and its value in the
 * point.  From RA_LOCK on, a feature's (issue 42/40: lock's --lock and
 * --hold, --cq-moderation): without a plan, named where the point's
 * value is not 0.
 */
enum reco_axis {
	RA_SIZE,
	RA_POLL,
	RA_CQE_POLL,
	RA_BATCH,
	RA_SIGNAL,
	RA_QPS,
	RA_TX_DEPTH,
	RA_LOCK,
	RA_HOLD,
	RA_CQ_MOD,
};

static const char *const axis_opt[] = { "-s", "--poll", "--cqe-poll", "-l",	"-Q",
					"-q", "-t",	"--lock",     "--hold", "--cq-moderation" };

static const struct rb_axis *plan_axis(const struct rb_params *p, enum reco_axis a)
{
	const struct rb_axis *const ax[] = { &p->size,	  &p->poll,  &p->cqe_poll, &p->batch,
					     &p->signal,  &p->qps,   &p->tx_depth, &p->lock_algo,
					     &p->hold_us, &p->cq_mod };

	return ax[a];
}

static uint64_t point_axis(const struct rb_point *pt, enum reco_axis a)
{
	const uint64_t v[] = { pt->size, pt->poll,     pt->cqe_poll, pt->batch,	  pt->signal,
			       pt->qps,	 pt->tx_depth, pt->lock,     pt->hold_us, pt->cq_mod };

	return v[a];
}

static const char *poll_word(uint64_t poll)
{
	return poll == RB_POLL_EVENT ? "event" : "busy";
}

/* Axis @a's value in point @pt as its option takes it. */
static void axis_word(const struct rb_point *pt, enum reco_axis a, char *v, size_t len)
{
	if (a == RA_SIZE)
		rb_size_str(pt->size, v, len);
	else if (a == RA_POLL)
		snprintf(v, len, "%s", poll_word(pt->poll));
	else if (a == RA_LOCK)
		rb_out_lock_word(pt->lock, v, len);
	else if (a == RA_CQ_MOD)
		rb_cqmod_str(pt->cq_mod, v, len);
	else
		snprintf(v, len, "%llu", (unsigned long long)point_axis(pt, a));
}

const char *rb_reco_args(const struct rb_point *pt, const struct rb_params *p, char *buf,
			 size_t len)
{
	size_t off = 0, i;
	char v[24];
	int n;

	buf[0] = '\0';
	for (i = 0; i < NELEM(axis_opt) && off < len; i++) {
		if (p && plan_axis(p, (enum reco_axis)i)->n < 2)
			continue;
		if (!p && i >= RA_LOCK && !point_axis(pt, (enum reco_axis)i))
			continue;
		axis_word(pt, (enum reco_axis)i, v, sizeof(v));
		n = snprintf(buf + off, len - off, "%s%s %s", off ? " " : "", axis_opt[i], v);
		off += n > 0 ? (size_t)n : 0;
	}
	return buf;
}

const char *rb_reco_groups(const struct rb_params *p)
{
	return rb_plan_lock(p) ? "size, -q and --hold" : "size";
}

/*
 * @o's workload: after its size, a lock test's -q and --hold (" -q 2
 * --hold 50") into @buf; and the plan @p less the workload's axes into
 * *@rest, so that the line's choice names the strategies alone.
 */
static const char *work_words(const struct rb_reco_bound *o, const struct rb_params *p,
			      struct rb_params *rest, char *buf, size_t len)
{
	*rest = *p;
	rest->size.n = 1;
	buf[0] = '\0';
	if (!o->contenders)
		return buf;
	rest->qps.n = rest->hold_us.n = 1;
	snprintf(buf, len, " -q %u --hold %u", o->qps, o->hold_us);
	return buf;
}

/* An @o that found no point within the bound, as JSON (new reference): its workload, its counts. */
static json_t *none_json(const struct rb_reco_bound *o, const char *work)
{
	json_t *j = json_pack("{sI sb ss sI sI}", "size", (json_int_t)o->size, "found", 0,
			      "workload", work, "points", (json_int_t)o->points, "within",
			      (json_int_t)0);

	if (j && o->contenders &&
	    (json_object_set_new(j, "qps", json_integer(o->qps)) ||
	     json_object_set_new(j, "hold_us", json_integer(o->hold_us)))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

json_t *rb_reco_bound_report(FILE *f, const struct rb_reco_bound *o, const struct rb_params *p,
			     const char *bound, const char *unit)
{
	char sz[16], work[48], wopt[64], args[RB_RECO_ARGS];
	struct rb_params rest;
	json_t *j;

	rb_size_str(o->size, sz, sizeof(sz));
	work_words(o, p, &rest, work, sizeof(work));
	snprintf(wopt, sizeof(wopt), "-s %s%s", sz, work); /* the JSON's "workload" */
	if (!o->found) {
		fprintf(f, "# size %s%s: none of %zu points within %s\n", sz, work, o->points,
			bound);
		return none_json(o, wopt);
	}
	rb_reco_args(&o->pt, &rest, args, sizeof(args));
	fprintf(f, "# size %s%s: %s -> %.0f ns/msg of CPU, %.4g %s (%zu of %zu points within)\n",
		sz, work, args, o->cpu_ns_per_msg, o->value, unit, o->within, o->points);
	rb_reco_args(&o->pt, p, args, sizeof(args));
	j = json_pack("{sI sb ss ss sI sI sI sI sI ss sf sf sI sI}", "size", (json_int_t)o->size,
		      "found", 1, "workload", wopt, "poll", poll_word(o->pt.poll), "cqe_poll",
		      (json_int_t)o->pt.cqe_poll, "batch", (json_int_t)o->pt.batch, "signal",
		      (json_int_t)o->pt.signal, "qps", (json_int_t)o->pt.qps, "tx_depth",
		      (json_int_t)o->pt.tx_depth, "args", args, "cpu_ns_per_msg", o->cpu_ns_per_msg,
		      "value", o->value, "points", (json_int_t)o->points, "within",
		      (json_int_t)o->within);
	if (j && rb_json_axes42(j, p, &o->pt)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

json_t *rb_reco_report(FILE *f, const struct rb_reco *o, const struct rb_params *p)
{
	struct rb_params rest = *p;
	char sz[16], args[RB_RECO_ARGS];
	json_t *j;

	/* The size, batch and signal are the line's own words; the other swept axes follow. */
	rest.size.n = rest.batch.n = rest.signal.n = 1;
	rb_reco_args(&o->pt, &rest, args, sizeof(args));
	fprintf(f,
		"# size %s: batch %u signal %u%s%s -> %.4g Mpps (best %.4g Mpps at batch %u signal "
		"%u)\n",
		rb_size_str(o->size, sz, sizeof(sz)), o->batch, o->signal, args[0] ? " at " : "",
		args, o->msg_rate_mpps, o->best_msg_rate_mpps, o->best_batch, o->best_signal);
	rb_reco_args(&o->pt, p, args, sizeof(args));
	j = json_pack("{sI sI sI ss sI sI sI ss sf sI sI sf}", "size", (json_int_t)o->size, "batch",
		      (json_int_t)o->batch, "signal", (json_int_t)o->signal, "poll",
		      poll_word(o->pt.poll), "cqe_poll", (json_int_t)o->pt.cqe_poll, "qps",
		      (json_int_t)o->pt.qps, "tx_depth", (json_int_t)o->pt.tx_depth, "args", args,
		      "msg_rate_mpps", o->msg_rate_mpps, "best_batch", (json_int_t)o->best_batch,
		      "best_signal", (json_int_t)o->best_signal, "best_msg_rate_mpps",
		      o->best_msg_rate_mpps);
	if (j && rb_json_axes42(j, p, &o->pt)) {
		json_decref(j);
		return NULL;
	}
	return j;
}
