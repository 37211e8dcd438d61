// SPDX-License-Identifier: MIT
/*
 * The run's life as the session sees it: made once (rb_run_init()), told
 * of its connection (rb_run_conn()), put at each point's start
 * (rb_point_begin()) and end (rb_point_end(), or rb_point_cut() for a
 * loop ^C stopped), closed (rb_run_close()).
 * The session writes none of the run's fields: it hands over what it
 * built (struct rb_conn) and what the point is (struct rb_point_at).
 */
#include <errno.h>
#include <stdlib.h>

#include "core/rdmabench.h"
#include "engine/run.h"

int rb_conn_lists_alloc(struct rb_conn *c)
{
	c->qp = calloc(c->nqp, sizeof(*c->qp));
	c->ah = calloc(c->nqp, sizeof(*c->ah));
	c->mr = calloc(c->nmr, sizeof(*c->mr));
	if (c->qp && c->ah && c->mr)
		return 0;
	rb_conn_lists_free(c);
	rb_err("no memory for the lists of %u QPs", c->nqp);
	return -ENOMEM;
}

void rb_conn_lists_free(struct rb_conn *c)
{
	free(c->qp);
	free(c->ah);
	free(c->mr);
	c->qp = NULL;
	c->ah = NULL;
	c->mr = NULL;
	rb_conn_free(&c->remote);
}

void rb_run_init(struct rb_run *r, const struct rb_run_cfg *cfg)
{
	r->bench = cfg->bench;
	r->role = cfg->role;
	r->p = cfg->p;
	r->ctl = cfg->ctl;
	r->timeout_ns = cfg->timeout_ns;
	r->threads.cancel = cfg->cancel;
	r->threads.progress_ns = cfg->progress_ns;
	r->on_beat = cfg->on_beat;
	r->iv.on_end = cfg->on_interval;
	r->iv.ctx = cfg->iv_ctx;
}

/* Per QP, the send queues' accounting; --cq-per-qp --poll event, each CQ's state. */
static int run_lists(struct rb_run *r)
{
	if (!r->sq)
		r->sq = calloc(r->c.nqp, sizeof(*r->sq));
	if (!r->sq_done)
		r->sq_done = calloc(r->c.nqp, sizeof(*r->sq_done));
	if (!r->sq || !r->sq_done)
		goto nomem;
	if (r->c.cqs && r->c.channel && r->c.nqp > 1 && !r->cpq.state) {
		r->cpq.state = calloc(r->c.nqp, sizeof(*r->cpq.state));
		if (!r->cpq.state)
			goto nomem;
	}
	return 0;
nomem:
	rb_err("no memory for the run state of %u QPs", r->c.nqp);
	return -ENOMEM;
}

/* The run's copy of @c, and its per-QP state made once. */
static int run_take(struct rb_run *r, const struct rb_conn *c)
{
	int ret;

	r->c = *c;
	r->cq = c->cq; /* --cq-per-qp: each point's first (rb_cqs_point()) */
	ret = r->c.nqp ? run_lists(r) : 0;
	if (!ret)
		ret = rb_credit_open(r);
	return ret ? ret : rb_wrlat_open(r);
}

int rb_run_conn(struct rb_run *r, const struct rb_conn *c)
{
	int ret = run_take(r, c);

	/* The test's own, once a connection (send's first receives). */
	return !ret && r->bench->setup ? r->bench->setup(r) : ret;
}

int rb_point_begin(struct rb_run *r, const struct rb_conn *c, const struct rb_point_at *at)
{
	int ret = run_take(r, c);

	if (ret)
		return ret;
	r->point = at->index;
	r->pt = at->pt;
	r->role = at->role;
	r->bidir = r->p->bidir;
	r->ev.chan = r->pt.poll == RB_POLL_EVENT ? r->c.channel : NULL;
	rb_cqs_point(r);
	ret = rb_cqmod_point(r);
	if (ret)
		return ret;
	rb_point_queues(r);
	rb_samples_reset(&r->lat);
	r->ops = r->total = 0;
	r->t0 = r->t1 = r->cpu0 = r->cpu1 = 0;
	r->stopped = r->stop_sent = false;
	r->stop_count = 0;
	r->rx_count = 0;
	r->verify.status = 0;
	rb_iv_free(r);
	/* The verbs loops': no receive seen yet, the WR templates built. */
	if (r->bench->path == RB_PATH_VERBS) {
		rb_rx_plan(r);
		ret = rb_wrs_prepare(r);
	}
	/* Then the test's own (its buffers, receives, --verify's pattern). */
	if (!ret && r->bench->prepare)
		ret = r->bench->prepare(r);
	return ret;
}

int rb_point_end(struct rb_run *r)
{
	return r->verify.status ? r->verify.status : rb_iv_finish(r);
}

int rb_point_cut(struct rb_run *r)
{
	int ret;

	if (!rb_run_cut(r))
		return 0;
	ret = rb_iv_finish(r);
	return ret ? ret : 1;
}

void rb_run_close(struct rb_run *r)
{
	/* ibv_destroy_cq() waits until every event taken from the CQ is acked. */
	rb_events_ack(r);
	rb_samples_free(&r->lat);
	rb_iv_free(r);
	rb_wrs_free(r);
	rb_wrlat_close(r);
	rb_credit_close(r);
	free(r->sq);
	free(r->sq_done);
	free(r->cpq.state);
	r->sq = NULL;
	r->sq_done = NULL;
	r->cpq.state = NULL;
	r->cpq.ready = 0;
	r->cpq.n = 0;
	r->cq = NULL;
}

struct rb_run *rb_run_new(void)
{
	struct rb_run *r = calloc(1, sizeof(*r));

	if (!r)
		rb_err("no memory for a run");
	return r;
}

void rb_run_free(struct rb_run *r)
{
	if (!r)
		return;
	rb_run_close(r);
	free(r);
}

const struct rb_point *rb_run_point(const struct rb_run *r)
{
	return &r->pt;
}

uint32_t rb_run_signal_asked(const struct rb_run *r)
{
	return r->qclamp.asked;
}

uint64_t rb_run_total(const struct rb_run *r)
{
	return r->total;
}

int rb_run_verify_status(const struct rb_run *r)
{
	return r->verify.status;
}

bool rb_run_stop_sent(const struct rb_run *r)
{
	return r->stop_sent;
}

size_t rb_run_intervals(const struct rb_run *r)
{
	return r->iv.n;
}

struct rb_samples *rb_run_samples(struct rb_run *r)
{
	return &r->lat;
}

void rb_run_progress(const struct rb_run *r, struct rb_run_progress *o)
{
	const struct rb_bw_window *w = &r->win;
	uint32_t last = w->n ? (w->head + RB_BW_WINDOW - 1) % RB_BW_WINDOW : 0;

	*o = (struct rb_run_progress){ .t0 = r->t0, .size = r->pt.size };
	/* The window counts ticks from this point's measured start. */
	if (!w->n || w->t0 != r->k0 || w->t[last] <= w->t0 || !rb_ticks_per_ms())
		return;
	o->marked = true;
	o->gbps = (double)w->bytes[last] * 8 /
		  ((double)(w->t[last] - w->t0) * 1e6 / (double)rb_ticks_per_ms());
	o->done = r->pt.size ? (double)w->bytes[last] / (double)r->pt.size : 0;
}
