// SPDX-License-Identifier: MIT
/*
 * One point of each side, as fixed stages (point_hook.h): the stages
 * walk sess_point_hooks[], and name no run feature.
 */
#include "session/session_int.h"
#include "session/point_hook.h"

const struct sess_point_hook *const sess_point_hooks[] = {
	&sess_hook_forever,
	&sess_hook_probe,
	&sess_hook_diag,
	&sess_hook_reversed,
	&sess_hook_peer,
	&sess_hook_bidir,
#ifdef RB_POINT_TEST_HOOK
	RB_POINT_TEST_HOOK, /* test_feature_extra's throw-away hook */
#endif
	NULL,
};

/* Whether hook @h acts in @s: its side, and its plan's feature. */
static bool hook_on(const struct session *s, const struct sess_point_hook *h)
{
	unsigned int side = s->role == RB_ROLE_CLIENT ? SESS_CLIENT : SESS_SERVER;

	return (h->sides & side) && (!h->on || h->on(s));
}

/* Whether a hook on has the server send the point's STOP. */
static bool server_stops(const struct session *s)
{
	const struct sess_point_hook *const *h;

	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->server_stops)
			return true;
	return false;
}

/* Put the run at the start of point @i: WRs built, buffers ready, hooks told. */
int sess_point_start(struct session *s, uint32_t i)
{
	struct rb_point_at at = { .index = i, .role = sess_data_role(s) };
	const struct sess_point_hook *const *h;
	struct rb_run *r = s->run;
	uint32_t asked, ran;
	int ret;

	rb_plan_point(&s->p, i, &at.pt);
	ret = rb_point_begin(r, &s->conn, &at);
	asked = rb_run_signal_asked(r);
	ran = rb_run_point(r)->signal;
	if (!ret && asked && s->role == RB_ROLE_CLIENT && s->said_signal != asked) {
		/* Said once per -Q value, as -o's clamp is (negotiate()). */
		s->said_signal = asked;
		rb_info("-Q/--signal %u: %s has %u %s WRs in flight per QP (-t): "
			"signalling every %u, recorded as the point's signal_ran",
			asked, s->bench->name, ran, s->bench->wr_name, ran);
	}
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && !ret && (*h)->setup)
			(*h)->setup(s);
	return ret;
}

/*
 * The server's figures that cannot be true (rb_result_check()) are not
 * shown as measured: each becomes NaN (null in JSON, "-" in the table,
 * empty in CSV; a count becomes 0), and is named in the point's
 * peer_result_rejected and its table flag.
 */
static uint32_t reject_figures(const struct session *s, struct rb_msg_result *m, char *list,
			       size_t len)
{
	double *fig[RB_PEER_NFIELDS] = { NULL,
					 &m->bw_avg_gbps,
					 &m->cpu_util_pct,
					 &m->bw_peak_gbps,
					 &m->msg_rate_mpps,
					 &m->duration_s };
	uint32_t bad = rb_result_check(m, s->p.iters), i;
	size_t used = 0;

	list[0] = '\0';
	for (i = 0; i < RB_PEER_NFIELDS; i++) {
		if (!(bad & (1u << i)))
			continue;
		if (used < len)
			used += (size_t)snprintf(list + used, len - used, "%s%s", used ? ", " : "",
						 rb_result_field(1u << i));
		if (fig[i])
			*fig[i] = NAN;
		else
			m->iters = 0;
	}
	if (bad)
		rb_warn("server %s reported figures that cannot be true at point %u (%s): left "
			"out",
			s->oob.peer, m->point, list);
	return bad;
}

/* --threads: waiting for the other threads before point @i (or BYE). */
int sess_thread_beat(void *arg, uint32_t i)
{
	struct session *s = arg;

	return s->ctl.ops->alive(&s->ctl, i);
}

size_t rb_point_steps(bool threads, bool probe, bool probing,
		      enum rb_point_step out[RB_POINT_STEPS_MAX])
{
	size_t n = 0;

	/* --threads: every thread has finished the last point. */
	if (threads)
		out[n++] = RB_STEP_THREADS;
	/* --probe: alone first, then beside the stream (its own thread). */
	if (probing)
		out[n++] = RB_STEP_IDLE;
	/* ... alone on the path: no thread streams before thread 0's idle
	 * pings are done, and all streams start together after them. */
	if (threads && probe)
		out[n++] = RB_STEP_THREADS;
	out[n++] = RB_STEP_START;
	if (probing)
		out[n++] = RB_STEP_LOADED;
	return n;
}

static int point_step(struct session *s, uint32_t i, enum rb_point_step step)
{
	const struct rb_thread_hooks *th = s->h.thread_hooks;

	switch (step) {
	case RB_STEP_THREADS:
		return th->point(th->ctx, i, sess_thread_beat, s);
	case RB_STEP_IDLE:
		return rb_probe_idle(&s->probe);
	case RB_STEP_START:
		return s->ctl.ops->barrier(&s->ctl, i);
	case RB_STEP_LOADED:
		return rb_probe_start(&s->probe);
	}
	return -EINVAL;
}

/* The row's loop (unless a step before failed: @ret), the hooks around it. */
static int point_run(struct session *s, int ret)
{
	const struct sess_point_hook *const *h;

	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->run_begin)
			(*h)->run_begin(s);
	if (!ret)
		ret = s->bench->run(s->run);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->run_end)
			ret = (*h)->run_end(s, ret);
	return ret;
}

/* STOP is out (or in): the hooks that read the counters. */
static void point_stopped(struct session *s)
{
	const struct sess_point_hook *const *h;

	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->after_stop)
			(*h)->after_stop(s);
}

/* Client: STOP (unless sent), RESULT, the server's counters and status. */
static int client_exchange(struct session *s, struct sess_point *pt)
{
	const struct sess_point_hook *const *h;
	int ret = 0;

	/* With -b the loop sent it, and then waited for the server's.  Before
	 * the counters: the server that waits for it (reads, writes, atomics)
	 * ends its interval on it, and reading them waits out their lifespan.
	 * Reversed, the server sent it: its stream ended the point. */
	if (!rb_run_stop_sent(s->run) && !server_stops(s))
		ret = s->ctl.ops->stop(&s->ctl, pt->i, rb_run_total(s->run));
	point_stopped(s);
	if (!ret)
		ret = s->ctl.ops->result(&s->ctl, &pt->m);
	if (!ret)
		ret = s->ctl.ops->counters(&s->ctl, &s->diag.peer);
	if (ret)
		return ret;
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->peer_in)
			(*h)->peer_in(s, pt);
	sess_setup_take(s, &pt->m);
	if (pt->m.status) {
		rb_err("server %s: %s at point %u (see the server's log)", s->oob.peer,
		       pt->m.status == -EILSEQ ? "--verify found a mismatch"
					       : strerror(-pt->m.status),
		       pt->i);
		return pt->m.status;
	}
	return 0;
}

/* Client: the row's result, the hooks' additions, -H and -C. */
static int client_result(struct session *s, struct sess_point *pt)
{
	const struct sess_point_hook *const *h;
	int ret = sess_keep_samples(s);

	if (!ret)
		ret = s->bench->result(s->run, &pt->res);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && !ret && (*h)->after_result)
			ret = (*h)->after_result(s, pt);
	return ret ? ret : sess_lat_extras(s, &pt->res);
}

/* Client: the server's figures checked, then merged by the hooks; emitted. */
static int client_merge(struct session *s, struct sess_point *pt)
{
	const struct sess_point_hook *const *h;
	char list[128];

	pt->res.peer_rejected = reject_figures(s, &pt->m, list, sizeof(list));
	if (pt->res.peer_rejected)
		snprintf(pt->res.flag, sizeof(pt->res.flag), "peer figures rejected: %s", list);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->merge_peer)
			(*h)->merge_peer(s, pt);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && (*h)->before_emit)
			(*h)->before_emit(s, pt);
	return sess_emit(s, &pt->res);
}

int sess_client_point(struct session *s, uint32_t i)
{
	struct sess_point pt = { .i = i, .m = { .point = i } };
	enum rb_point_step steps[RB_POINT_STEPS_MAX];
	size_t k, n;
	int ret;

	ret = sess_point_start(s, i);
	n = rb_point_steps(s->h.thread_hooks != NULL, s->p.probe, sess_probing(s), steps);
	for (k = 0; !ret && k < n; k++)
		ret = point_step(s, i, steps[k]);
	ret = point_run(s, ret);
	if (ret == -EINTR)
		return sess_cut_point(s);
	/* A mismatch in what this side received (reads, -b); the last interval. */
	if (!ret)
		ret = rb_point_end(s->run);
	if (!ret)
		ret = client_exchange(s, &pt);
	if (!ret)
		ret = client_result(s, &pt);
	return ret ? ret : client_merge(s, &pt);
}

/* Server: the rest of point @i, once the barrier passed. */
int sess_server_point(struct session *s, uint32_t i)
{
	struct sess_point pt = { .i = i, .m = { .point = i } };
	const struct sess_point_hook *const *h;
	int ret;

	ret = point_run(s, 0);
	/* This side streamed or pinged (--reversed): its STOP ends the point,
	 * as the client's does otherwise (with -b the loop sent it). */
	if (!ret && server_stops(s) && !rb_run_stop_sent(s->run))
		ret = s->ctl.ops->stop(&s->ctl, i, rb_run_total(s->run));
	if (!ret) {
		point_stopped(s);
		ret = s->bench->result(s->run, &pt.res);
	}
	if (ret)
		return ret;
	pt.m.status = rb_run_verify_status(s->run);
	rb_result_msg(&pt.res, &pt.m);
	sess_setup_put(s, &pt.m);
	ret = s->ctl.ops->result(&s->ctl, &pt.m);
	/* All of them, whatever this side shows: the client chooses its own. */
	if (!ret)
		ret = s->ctl.ops->counters(&s->ctl, &s->diag.delta);
	for (h = sess_point_hooks; *h; h++)
		if (hook_on(s, *h) && !ret && (*h)->before_emit)
			(*h)->before_emit(s, &pt);
	if (!ret)
		ret = sess_emit(s, &pt.res);
	return ret ? ret : pt.m.status;
}
