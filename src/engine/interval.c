// SPDX-License-Identifier: MIT
/*
 * The measured interval of a point: its start and end marks (clock,
 * ticks, CPU time), the --interval slices within it, and the cut of a
 * point that ended early.
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"

/*
 * The first interval starts with the measured interval (client only).
 * Slices are due on CLOCK_MONOTONIC_RAW; the ticks only say when to look
 * at it, about 16 times a slice, so that a tick rate misjudged over the
 * 2 ms calibration (a VM, a preempted start) moves no boundary.
 */
static void iv_start(struct rb_run *r)
{
	r->iv.next = UINT64_MAX;
	if (!r->p->interval_ms || r->role != RB_ROLE_CLIENT)
		return;
	r->iv.len = r->p->interval_ms * 1000000ULL;
	r->iv.step = r->p->interval_ms * rb_ticks_per_ms() / 16;
	r->iv.due = r->t0 + r->iv.len;
	r->iv.k0 = r->k0;
	r->iv.t0 = r->t0;
	r->iv.ops0 = 0;
	rb_samples_mark(&r->lat);
	r->iv.next = r->k0 + r->iv.step;
}

/* CPU time is read inside the wall-clock interval, never around it. */
void rb_mark_start(struct rb_run *r)
{
	r->t0 = rb_now_ns();
	r->k0 = rb_ticks();
	r->cpu0 = rb_thread_cpu_ns();
	r->ev.ev0 = r->ev.events;
	r->next_clock = 0;
	iv_start(r);
}

/* Keep slice @iv of the point, and tell the session. */
static int iv_keep(struct rb_run *r, const struct rb_interval *iv)
{
	struct rb_interval *n;

	if (r->iv.n == r->iv.cap) {
		n = realloc(r->iv.list, (r->iv.cap ? r->iv.cap * 2 : 16) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->iv.list = n;
		r->iv.cap = r->iv.cap ? r->iv.cap * 2 : 16;
	}
	r->iv.list[r->iv.n++] = *iv;
	if (r->iv.on_end)
		r->iv.on_end(r->iv.ctx, r, iv);
	return 0;
}

/* The slice from the last close to (@k ticks, @t ns, @ops operations). */
static int iv_make(struct rb_run *r, uint64_t k, uint64_t t, uint64_t ops)
{
	struct rb_interval iv = { 0 };
	uint64_t ns = t > r->iv.t0 ? t - r->iv.t0 : 0;
	int ret = 0;

	iv.start_s = (double)(r->iv.t0 - r->t0) / 1e9;
	iv.duration_s = (double)ns / 1e9;
	iv.ops = ops - r->iv.ops0;
	iv.bw_gbps = rb_gbps(iv.ops * r->pt.size, ns);
	iv.msg_rate_mpps = ns ? (double)iv.ops * 1e3 / (double)ns : 0;
	/* Percentiles of this slice only: sorting it in place loses nothing;
	 * once the point is bucketed, the slice has buckets of its own. */
	if (rb_samples_slice_n(&r->lat) && k > r->iv.k0) {
		ret = rb_lat_summarize_slice(
			&r->lat, r->bench->lat_scale * (double)ns / (double)(k - r->iv.k0),
			&iv.lat);
		iv.has_lat = !ret;
	}
	return ret ? ret : iv_keep(r, &iv);
}

int rb_iv_close(struct rb_run *r, uint64_t k, uint64_t ops)
{
	uint64_t t = rb_now_ns();
	int ret;

	r->iv.next = k + r->iv.step;
	if (t < r->iv.due)
		return 0;
	ret = iv_make(r, k, t, ops);
	/* Look 16 times a slice at the rate the ticks really went. */
	if (k > r->iv.k0 && t > r->iv.t0)
		r->iv.step = (uint64_t)((double)(k - r->iv.k0) / (double)(t - r->iv.t0) *
					(double)r->iv.len / 16) +
			     1;
	r->iv.next = k + r->iv.step;
	r->iv.k0 = k;
	r->iv.t0 = t;
	r->iv.ops0 = ops;
	rb_samples_mark(&r->lat);
	/* On the schedule, unless a stall passed it: no burst of empty slices. */
	r->iv.due += r->iv.len;
	if (r->iv.due <= t)
		r->iv.due = t + r->iv.len;
	return ret;
}

int rb_iv_finish(struct rb_run *r)
{
	int ret = 0;

	if (r->iv.next == UINT64_MAX)
		return 0;
	r->iv.next = UINT64_MAX;
	/* The remainder, unless it is an empty sliver. */
	if (r->t1 > r->iv.t0 && (r->ops > r->iv.ops0 || (r->t1 - r->iv.t0) * 2 >= r->iv.len))
		ret = iv_make(r, r->k1, r->t1, r->ops);
	return ret;
}

void rb_iv_free(struct rb_run *r)
{
	free(r->iv.list);
	r->iv.list = NULL;
	r->iv.n = r->iv.cap = 0;
}

void rb_mark_end(struct rb_run *r)
{
	r->cpu1 = rb_thread_cpu_ns();
	r->ev.ev1 = r->ev.events;
	r->k1 = rb_ticks();
	r->t1 = rb_now_ns();
}

double rb_ns_per_tick(const struct rb_run *r)
{
	if (r->k1 <= r->k0 || r->t1 <= r->t0)
		return 1.0;
	return (double)(r->t1 - r->t0) / (double)(r->k1 - r->k0);
}

/*
 * The measured interval ends at this side's last receive (@r->k_last), not
 * when the loop learnt that it was over: the peer's STOP is a control
 * message that comes after its own last completion and its bookkeeping,
 * and lost messages add the wait for the rest.  The CPU time (busy polling
 * throughout) shrinks in proportion.
 */
void rb_end_at_last(struct rb_run *r)
{
	double ns_tick = rb_ns_per_tick(r), was = (double)(r->t1 - r->t0), now;

	/* Nothing measured (all lost in the warmup): nothing to move. */
	if (!r->t0 || r->k_last <= r->k0 || r->k_last >= r->k1 || was <= 0)
		return;
	r->t1 = r->t0 + (uint64_t)((double)(r->k_last - r->k0) * ns_tick);
	r->k1 = r->k_last;
	now = (double)(r->t1 - r->t0);
	r->cpu1 = r->cpu0 + (uint64_t)((double)(r->cpu1 - r->cpu0) * now / was);
}

bool rb_run_cut(struct rb_run *r)
{
	if (!r->t0)
		return false; /* still in the warmup */
	if (!r->t1) {
		/* A one-at-a-time loop: each sample is one finished operation. */
		rb_mark_end(r);
		r->ops = r->lat.n;
	}
	return r->ops > 0;
}
