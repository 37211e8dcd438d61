// SPDX-License-Identifier: MIT
/*
 * reg --regions (issue 42), measured: for each size, -n rounds of
 * registering N regions of it and deregistering them, then the one region
 * of N times it over the same memory (each call timed, a round's sum its
 * sample); then the stream (reg_stream.c) from a QP connected to itself,
 * once through the N regions' keys and once through the one region's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/stats.h"
#include "rdma/memlock.h"
#include "rdma/verbs.h"
#include "reg/reg.h"
#include "reg/reg_int.h"
#include "topo/topo.h"

struct rgn_ctx {
	struct rb_dev *dev;
	const struct rb_reg_cfg *cfg;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	char *target; /* the stream's destination: depth x RB_REG_RGN_MSG bytes */
	struct ibv_mr *tmr;
	struct ibv_mr **mr; /* the N regions' (or the one's, mr[0]) while registered */
	uint32_t *lkey;
	struct rb_samples reg_n, dereg_n, reg_one, dereg_one;
	char what[96];
};

/* The QP connected to itself, its CQ and the stream's target MR. */
static int loop_open(struct rgn_ctx *x)
{
	struct rb_av av = { .qp = { .timeout = RB_QP_TIMEOUT_DEFAULT,
				    .retry_count = RB_RETRY_DEFAULT,
				    .hop_limit = RB_HOP_LIMIT_DEFAULT } };
	struct rb_qp_caps caps = { .send_wr = x->cfg->depth, .recv_wr = 1 };
	size_t tlen = (size_t)x->cfg->depth * RB_REG_RGN_MSG;
	struct rb_qp_info me;
	int ret;

	ret = rb_cq_create(x->dev, x->cfg->depth, &x->cq);
	if (!ret)
		ret = rb_qp_create(x->dev, x->cq, IBV_QPT_RC, &caps, &x->qp);
	if (ret)
		return ret;
	rb_qp_info(x->dev, x->qp, 0, &me);
	ret = rb_qp_connect(x->dev, x->qp, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 0, &me,
			    x->dev->port_attr.active_mtu, 1, &av);
	if (ret)
		return ret;
	x->target = calloc(1, tlen);
	if (!x->target) {
		rb_err("reg: %s: no memory for the stream's %zu-byte target", x->dev->name, tlen);
		return -ENOMEM;
	}
	return rb_mr_reg(x->dev, x->target, tlen, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
			 &x->tmr);
}

static void loop_close(struct rgn_ctx *x)
{
	struct rb_res res = { .qp = &x->qp,
			      .nqp = x->qp ? 1 : 0,
			      .cq = x->cq,
			      .mr = &x->tmr,
			      .nmr = x->tmr ? 1 : 0 };

	rb_resources_close(x->dev, &res);
	free(x->target);
}

/* A registration refused: the point's error, logged once with the memlock hint. */
static int refused(struct rgn_ctx *x, struct rb_reg_point *pt, const char *call, size_t len,
		   int ret)
{
	char why[384];

	rb_err("reg: %s: %s(%zu bytes): %s%s", x->dev->name, call, len, strerror(-ret),
	       rb_memlock_why(-ret, len, why, sizeof(why)));
	snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
	pt->failed = true;
	return ret;
}

/* Deregister regions [0, @k) of x->mr, timed into *@ns; 0 or -errno. */
static int dereg_all(struct rgn_ctx *x, struct rb_reg_point *pt, uint32_t k, uint64_t *ns)
{
	uint64_t one;
	uint32_t i;
	int ret = 0, r;

	*ns = 0;
	for (i = 0; i < k; i++) {
		r = rb_reg_dereg_timed(x->mr[i], &one);
		*ns += one;
		if (r && !ret)
			ret = refused(x, pt, "ibv_dereg_mr", pt->size, r);
	}
	return ret;
}

/* @k regions of @len bytes from @buf into x->mr, timed into *@ns; undone on failure. */
static int reg_all(struct rgn_ctx *x, struct rb_reg_point *pt, char *buf, uint32_t k, size_t len,
		   uint64_t *ns)
{
	uint64_t one, ignore;
	uint32_t i;
	int ret;

	*ns = 0;
	for (i = 0; i < k; i++) {
		ret = rb_reg_timed(x->dev->pd, buf + i * len, len, x->cfg->access, &x->mr[i], &one);
		*ns += one;
		if (ret) {
			dereg_all(x, pt, i, &ignore);
			return refused(x, pt, "ibv_reg_mr", len, ret);
		}
		x->lkey[i] = x->mr[i]->lkey;
	}
	return 0;
}

/* One round: the N regions registered and deregistered, then the one region. */
static int round_once(struct rgn_ctx *x, struct rb_reg_point *pt, char *buf)
{
	uint32_t n = x->cfg->regions;
	uint64_t ns;
	int ret = reg_all(x, pt, buf, n, pt->size, &ns);

	if (!ret && !rb_samples_push(&x->reg_n, ns))
		ret = dereg_all(x, pt, n, &ns);
	if (!ret && !rb_samples_push(&x->dereg_n, ns))
		ret = reg_all(x, pt, buf, 1, (size_t)n * pt->size, &ns);
	if (!ret && !rb_samples_push(&x->reg_one, ns))
		ret = dereg_all(x, pt, 1, &ns);
	if (!ret)
		rb_samples_push(&x->dereg_one, ns);
	return ret;
}

/* The stream through the N regions' keys (@one: the one region's). */
static int stream(struct rgn_ctx *x, struct rb_reg_point *pt, char *buf, bool one,
		  struct rb_reg_pass *p)
{
	uint32_t n = x->cfg->regions, k = one ? 1 : n;
	struct rb_reg_stream s = { .qp = x->qp,
				   .cq = x->cq,
				   .base = buf,
				   .lkey = x->lkey,
				   .one = one,
				   .n = n,
				   .msg = pt->rgn.msg,
				   .depth = x->cfg->depth,
				   .size = pt->size,
				   .page = x->cfg->page_size,
				   .wrs = x->cfg->count * n,
				   .warmup = n,
				   .raddr = (uintptr_t)x->target,
				   .rkey = x->tmr->rkey,
				   .what = x->what };
	uint64_t ns;
	int ret = reg_all(x, pt, buf, k, one ? (size_t)n * pt->size : pt->size, &ns);

	snprintf(x->what, sizeof(x->what), "%s: the stream through %s", x->dev->name,
		 one ? "one region" : "the regions");
	if (!ret)
		ret = rb_reg_stream_run(&s, p);
	if (ret && ret != -EINTR && !pt->reason[0]) {
		snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
		pt->failed = true;
	}
	if (dereg_all(x, pt, k, &ns) && !ret)
		ret = -EIO;
	return ret;
}

static int rounds(struct rgn_ctx *x, struct rb_reg_point *pt, char *buf)
{
	uint64_t i, t0 = rb_now_ns();
	int ret = 0;

	rb_samples_reset(&x->reg_n);
	rb_samples_reset(&x->dereg_n);
	rb_samples_reset(&x->reg_one);
	rb_samples_reset(&x->dereg_one);
	for (i = 0; !ret && i < pt->asked && !rb_interrupted && !rb_reg_over_budget(t0, i); i++)
		ret = round_once(x, pt, buf);
	if (!ret &&
	    rb_reg_rgn_figures(&x->reg_n, &x->dereg_n, &x->reg_one, &x->dereg_one, &pt->rgn))
		ret = -EINTR; /* interrupted before a round was timed */
	return ret;
}

/* @x's arrays of N MRs and lkeys; 0 or -ENOMEM.  ctx_free() frees them and the samples. */
static int ctx_alloc(struct rgn_ctx *x)
{
	x->mr = calloc(x->cfg->regions, sizeof(*x->mr));
	x->lkey = calloc(x->cfg->regions, sizeof(*x->lkey));
	return x->mr && x->lkey ? 0 : -ENOMEM;
}

static void ctx_free(struct rgn_ctx *x)
{
	free(x->mr);
	free(x->lkey);
	rb_samples_free(&x->reg_n);
	rb_samples_free(&x->dereg_n);
	rb_samples_free(&x->reg_one);
	rb_samples_free(&x->dereg_one);
}

int rb_reg_rgn_rounds(struct rb_dev *d, const struct rb_reg_cfg *c, char *buf,
		      struct rb_reg_point *pt)
{
	struct rgn_ctx x = { .dev = d, .cfg = c };
	int ret = ctx_alloc(&x);

	if (!ret)
		ret = rounds(&x, pt, buf);
	ctx_free(&x);
	return ret;
}

static int rgn_point(void *arg, uint64_t size, struct rb_reg_point *pt)
{
	struct rgn_ctx *x = arg;
	const struct rb_reg_cfg *c = x->cfg;
	uint64_t off = c->unaligned ? RB_REG_OFFSET : 0, total = c->regions * size;
	size_t map_len = (size_t)((total + off + c->page_size - 1) / c->page_size * c->page_size);
	void *map;
	int ret;

	memset(pt, 0, sizeof(*pt));
	pt->size = size;
	pt->offset = off;
	pt->pages = rb_reg_pages(total, off, c->page_size);
	pt->asked = c->count;
	pt->rgn.n = c->regions;
	pt->rgn.msg = rb_reg_rgn_msg(size);
	pt->rgn.depth = c->depth;
	map = rb_place_alloc(map_len, -1, c->hugepages);
	if (!map) {
		snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
		pt->failed = true;
		return -ENOMEM;
	}
	ret = rounds(x, pt, (char *)map + off);
	if (!ret)
		ret = stream(x, pt, (char *)map + off, false, &pt->rgn.pass_n);
	if (!ret)
		ret = stream(x, pt, (char *)map + off, true, &pt->rgn.pass_one);
	rb_place_free(map, map_len);
	if (ret == -EINTR && rb_interrupted) {
		snprintf(pt->reason, sizeof(pt->reason), "interrupted");
		return 0; /* the run says it was interrupted */
	}
	pt->ok = pt->has_rgn = !ret;
	pt->done = pt->rgn.rounds;
	return ret;
}

/* What the largest size needs, against the device and RLIMIT_MEMLOCK. */
static int fit(struct rgn_ctx *x)
{
	const struct rb_reg_cfg *c = x->cfg;
	uint64_t big = 0;
	char err[RB_TEXT_MAX];
	uint32_t i;
	int ret;

	for (i = 0; i < c->size.n; i++)
		big = c->size.v[i] > big ? c->size.v[i] : big;
	ret = rb_reg_rgn_fit(c->regions, big, c->memlock, rb_memlock_binds(),
			     (uint64_t)x->dev->attr.max_mr, x->dev->attr.max_mr_size, x->dev->name,
			     err, sizeof(err));
	if (ret)
		rb_err("reg: %s", err);
	return ret;
}

int rb_reg_rgn_measure(struct rb_dev *d, struct rb_reg_run *r)
{
	struct rgn_ctx x = { .dev = d, .cfg = r->cfg };
	int ret = fit(&x);

	if (!ret && ctx_alloc(&x)) {
		rb_err("reg: %s: no memory for %u regions' MRs", d->name, r->cfg->regions);
		ret = -ENOMEM;
	}
	if (!ret)
		ret = loop_open(&x);
	if (ret)
		snprintf(r->reason, sizeof(r->reason), "%s", rb_last_error);
	else
		ret = rb_reg_points(r, rgn_point, &x);
	loop_close(&x);
	ctx_free(&x);
	return ret;
}
