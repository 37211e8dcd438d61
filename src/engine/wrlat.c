// SPDX-License-Identifier: MIT
/*
 * --wr-lat: how long each signaled WR of a stream takes from its post to
 * its completion, the queueing a storage or RPC application sees under
 * load.  Each QP's chains in flight are kept in order with the tick of
 * their post; a send completion covers its QP's WRs up to the signaled
 * one, whose chain gives the sample.  Completions of one QP's send queue
 * come in order, so nothing but counts is needed from the wr_id.
 *
 * Off the default path: with --wr-lat the stream posts chain by chain
 * (stream_post()) and rb_reap() takes rb_reap_srq(), which times what it
 * reaped (rb_wrlat_stamp()), so the loops without
 * it execute what they did (tests/lab/cost.sh).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"

struct wl_chain {
	uint64_t end;  /* the QP's WR count after this chain */
	uint64_t tick; /* when it was posted */
};

struct wl_q {
	uint64_t posted, done; /* WRs, this phase */
	uint32_t head, n;
	struct wl_chain *e;
};

struct rb_wrlat {
	uint32_t cap; /* chains per QP: no more are in flight than WRs */
	bool measure;
	struct rb_samples s; /* ticks */
	struct wl_q q[];
};

int rb_wrlat_open(struct rb_run *r)
{
	uint32_t cap = (uint32_t)rb_axis_max(&r->p->tx_depth), qi;
	struct rb_wrlat *w;

	if (!r->p->wr_lat || r->wl)
		return 0;
	w = calloc(1, sizeof(*w) + r->c.nqp * sizeof(w->q[0]));
	if (!w)
		return -ENOMEM;
	w->cap = cap;
	r->wl = w;
	for (qi = 0; qi < r->c.nqp; qi++) {
		w->q[qi].e = calloc(cap, sizeof(*w->q[qi].e));
		if (!w->q[qi].e) {
			rb_wrlat_close(r);
			return -ENOMEM;
		}
	}
	return 0;
}

void rb_wrlat_close(struct rb_run *r)
{
	uint32_t qi;

	if (!r->wl)
		return;
	for (qi = 0; qi < r->c.nqp; qi++)
		free(r->wl->q[qi].e);
	rb_samples_free(&r->wl->s);
	free(r->wl);
	r->wl = NULL;
}

void rb_wrlat_phase(struct rb_run *r, bool measure)
{
	uint32_t qi;

	r->wl->measure = measure;
	if (measure)
		rb_samples_reset(&r->wl->s);
	for (qi = 0; qi < r->c.nqp; qi++) {
		struct wl_q *q = &r->wl->q[qi];

		q->posted = q->done = 0;
		q->head = q->n = 0;
	}
}

int rb_wrlat_post(struct rb_run *r, uint32_t qi, uint32_t n, uint64_t it0, bool force)
{
	struct wl_q *q = &r->wl->q[qi];
	uint64_t k = rb_ticks();
	int ret = rb_post_chain(r, qi, n, it0, force);

	if (ret)
		return ret;
	/* Cannot happen while each chain holds one WR of the queue or more. */
	if (q->n == r->wl->cap) {
		rb_err("%s qp 0x%x: --wr-lat: more than %u chains in flight", r->c.dev.name,
		       r->c.qp[qi]->qp_num, r->wl->cap);
		return -EOVERFLOW;
	}
	q->posted += n;
	q->e[(q->head + q->n++) % r->wl->cap] = (struct wl_chain){ q->posted, k };
	return 0;
}

/* A completion covering @covered more WRs of QP @qi, seen at tick @k. */
static int wl_done(struct rb_run *r, uint32_t qi, uint32_t covered, uint64_t k)
{
	struct rb_wrlat *w = r->wl;
	struct wl_q *q = &w->q[qi];
	struct wl_chain *c;

	q->done += covered;
	/* Chains that ended before the signaled WR: covered by it, unsignaled. */
	while (q->n && q->e[q->head].end < q->done) {
		q->head = (q->head + 1) % w->cap;
		q->n--;
	}
	if (!q->n)
		return 0; /* not posted through rb_wrlat_post(): no tick to take */
	c = &q->e[q->head];
	if (w->measure) {
		int ret = rb_samples_push(&w->s, k > c->tick ? k - c->tick : 0);

		if (ret)
			return ret;
	}
	if (c->end == q->done) {
		q->head = (q->head + 1) % w->cap;
		q->n--;
	}
	return 0;
}

int rb_wrlat_stamp(struct rb_run *r, const struct ibv_wc *wc, int n)
{
	uint64_t k = rb_ticks();
	int i, ret;

	for (i = 0; i < n; i++) {
		if (wc[i].wr_id & RB_WRID_RECV)
			continue;
		ret = wl_done(r, (uint32_t)(wc[i].wr_id >> 32), (uint32_t)wc[i].wr_id, k);
		if (ret)
			return ret;
	}
	return n;
}

int rb_wrlat_result(struct rb_run *r, struct rb_result *res)
{
	int ret;

	if (!r->wl)
		return 0;
	res->wr_lat_n = r->wl->s.n;
	if (r->wl->s.n) {
		ret = rb_lat_summarize(&r->wl->s, rb_ns_per_tick(r), &res->wr_lat);
		if (ret)
			return ret;
		res->has_wr_lat = true;
	}
	return 0;
}
