// SPDX-License-Identifier: MIT
/*
 * rdmabench reg, the measuring: the device, one buffer per size, and the
 * timed ibv_reg_mr(), ibv_dereg_mr() and ibv_advise_mr() calls.  The
 * figures and writers are reg.c's.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/atomic_file.h"
#include "rdma/memlock.h"
#include "cli/opts.h"
#include "wire/wire.h"
#include "report/output.h"
#include "reg/reg.h"
#include "reg/reg_int.h"
#include "core/stats.h"
#include "topo/topo.h"
#include "rdma/verbs.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

struct reg_ctx {
	struct rb_dev dev;
	const struct rb_reg_cfg *cfg;
	struct ibv_mr *implicit; /* --odp-mode implicit */
	struct rb_samples reg, dereg, pre;
	struct rb_reg_run *run;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int rb_reg_timed(struct ibv_pd *pd, void *buf, size_t len, int access, struct ibv_mr **mr,
		 uint64_t *ns)
{
	uint64_t t0 = now_ns();

	*mr = ibv_reg_mr(pd, buf, len, access);
	*ns = now_ns() - t0;
	return *mr ? 0 : -(errno ? errno : EIO);
}

int rb_reg_dereg_timed(struct ibv_mr *mr, uint64_t *ns)
{
	uint64_t t0 = now_ns();
	int ret = ibv_dereg_mr(mr);

	*ns = now_ns() - t0;
	return ret ? -ret : 0;
}

/* A synchronous prefetch (IBV_ADVISE_MR_FLAG_FLUSH) of @len bytes at @buf. */
static int prefetch_timed(struct ibv_pd *pd, struct ibv_mr *mr, int access, void *buf, size_t len,
			  uint64_t *ns)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = (uint32_t)len, .lkey = mr->lkey };
	enum ibv_advise_mr_advice adv = access & IBV_ACCESS_LOCAL_WRITE
						? IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE
						: IBV_ADVISE_MR_ADVICE_PREFETCH;
	uint64_t t0 = now_ns();
	int ret = ibv_advise_mr(pd, adv, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);

	*ns = now_ns() - t0;
	return ret ? -ret : 0;
}

/* Why @d cannot register what --odp asks; "" when it can. */
static void odp_why(struct rb_dev *d, enum rb_reg_odp mode, char *why, size_t len)
{
	struct ibv_device_attr_ex ex;
	uint64_t caps;
	int ret;

	why[0] = '\0';
	if (mode == RB_REG_ODP_NONE)
		return;
	memset(&ex, 0, sizeof(ex));
	ret = ibv_query_device_ex(d->ctx, NULL, &ex);
	caps = ret ? 0 : ex.odp_caps.general_caps;
	if (!(caps & IBV_ODP_SUPPORT))
		snprintf(why, len,
			 "%s has no on-demand paging (odp_caps.general_caps lacks "
			 "IBV_ODP_SUPPORT%s)",
			 d->name, ret ? ", ibv_query_device_ex not supported" : "");
	else if (mode == RB_REG_ODP_IMPLICIT && !(caps & IBV_ODP_SUPPORT_IMPLICIT))
		snprintf(why, len,
			 "%s has no implicit on-demand paging (odp_caps.general_caps lacks "
			 "IBV_ODP_SUPPORT_IMPLICIT)",
			 d->name);
}

/* A registration refused: the run's error, logged once with the memlock hint. */
static int reg_failed(struct reg_ctx *x, struct rb_reg_point *pt, size_t len, int ret)
{
	char why[384];

	rb_err("reg: %s: ibv_reg_mr(%zu bytes): %s%s", x->dev.name, len, strerror(-ret),
	       rb_memlock_why(-ret, len, why, sizeof(why)));
	snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
	pt->failed = true;
	return ret;
}

/* The device says it has ODP but refused an ODP registration: n/a, as without. */
static int odp_refused(struct reg_ctx *x, struct rb_reg_point *pt, int ret)
{
	snprintf(pt->reason, sizeof(pt->reason),
		 "%s: ibv_reg_mr with IBV_ACCESS_ON_DEMAND refused: %s", x->dev.name,
		 strerror(-ret));
	rb_samples_reset(&x->reg);
	rb_samples_reset(&x->dereg);
	rb_samples_reset(&x->pre);
	return 0;
}

/* One prefetch of the point; a refusal ends its prefetches, said in the point. */
static void prefetch_sample(struct reg_ctx *x, struct ibv_mr *mr, void *buf,
			    struct rb_reg_point *pt)
{
	uint64_t ns;
	int ret;

	if (pt->prefetch_na[0])
		return;
	ret = prefetch_timed(x->dev.pd, mr, x->cfg->access, buf, pt->size, &ns);
	if (ret)
		snprintf(pt->prefetch_na, sizeof(pt->prefetch_na), "ibv_advise_mr on %s: %s",
			 x->dev.name, strerror(-ret));
	else
		rb_samples_push(&x->pre, ns);
}

bool rb_reg_over_budget(uint64_t t0, uint64_t i)
{
	return i > 0 && now_ns() - t0 > RB_REG_BUDGET_NS;
}

/* COUNT registrations of @buf, each deregistered at once. */
static int point_reg(struct reg_ctx *x, void *buf, struct rb_reg_point *pt)
{
	int access = x->cfg->access | (x->cfg->odp ? IBV_ACCESS_ON_DEMAND : 0);
	uint64_t i, ns, t0 = now_ns();
	struct ibv_mr *mr;
	int ret;

	for (i = 0; i < pt->asked && !rb_interrupted && !rb_reg_over_budget(t0, i); i++) {
		ret = rb_reg_timed(x->dev.pd, buf, pt->size, access, &mr, &ns);
		if (ret && x->cfg->odp && (ret == -EOPNOTSUPP || ret == -EINVAL))
			return odp_refused(x, pt, ret);
		if (ret)
			return reg_failed(x, pt, pt->size, ret);
		rb_samples_push(&x->reg, ns);
		if (x->cfg->prefetch)
			prefetch_sample(x, mr, buf, pt);
		ret = rb_reg_dereg_timed(mr, &ns);
		if (ret) {
			rb_err("reg: %s: ibv_dereg_mr(%" PRIu64 " bytes): %s", x->dev.name,
			       pt->size, strerror(-ret));
			snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
			pt->failed = true;
			return ret;
		}
		rb_samples_push(&x->dereg, ns);
	}
	return 0;
}

/* --odp-mode implicit: COUNT prefetches of @buf through the one implicit MR. */
static int point_implicit(struct reg_ctx *x, void *buf, struct rb_reg_point *pt)
{
	uint64_t i, t0 = now_ns();

	for (i = 0; i < pt->asked && !rb_interrupted && !rb_reg_over_budget(t0, i); i++) {
		prefetch_sample(x, x->implicit, buf, pt);
		if (pt->prefetch_na[0])
			break;
	}
	return 0;
}

/* The buffer of a point: @size bytes, 64 into a page with --unaligned. */
static void *point_buf(const struct rb_reg_cfg *c, uint64_t size, size_t *map_len, void **map)
{
	uint64_t off = c->unaligned ? RB_REG_OFFSET : 0, page = c->page_size;

	*map_len = (size_t)((size + off + page - 1) / page * page);
	*map = rb_place_alloc(*map_len, -1, c->hugepages);
	return *map ? (char *)*map + off : NULL;
}

static int run_point(struct reg_ctx *x, uint64_t size, struct rb_reg_point *pt)
{
	const struct rb_reg_cfg *c = x->cfg;
	size_t map_len;
	void *map, *buf;
	int ret;

	memset(pt, 0, sizeof(*pt));
	pt->size = size;
	pt->offset = c->unaligned ? RB_REG_OFFSET : 0;
	pt->pages = rb_reg_pages(size, pt->offset, c->page_size);
	pt->asked = c->count;
	if (x->run->odp_na[0]) {
		snprintf(pt->reason, sizeof(pt->reason), "%s", x->run->odp_na);
		return 0;
	}
	buf = point_buf(c, size, &map_len, &map);
	if (!buf) {
		snprintf(pt->reason, sizeof(pt->reason), "%s", rb_last_error);
		pt->failed = true;
		return -ENOMEM;
	}
	rb_samples_reset(&x->reg);
	rb_samples_reset(&x->dereg);
	rb_samples_reset(&x->pre);
	ret = x->implicit ? point_implicit(x, buf, pt) : point_reg(x, buf, pt);
	rb_place_free(map, map_len);
	if (!ret && rb_reg_figures(&x->reg, &x->dereg, &x->pre, pt) && !pt->reason[0])
		snprintf(pt->reason, sizeof(pt->reason), "%s",
			 rb_interrupted	      ? "interrupted before a call was timed"
			 : pt->prefetch_na[0] ? pt->prefetch_na
					      : "nothing measured");
	return ret;
}

/* --odp-mode implicit: the whole address space registered once, timed. */
static void implicit_open(struct reg_ctx *x)
{
	int access = x->cfg->access | IBV_ACCESS_ON_DEMAND;
	uint64_t ns;
	int ret;

	if (x->cfg->odp != RB_REG_ODP_IMPLICIT || x->run->odp_na[0])
		return;
	ret = rb_reg_timed(x->dev.pd, NULL, SIZE_MAX, access, &x->implicit, &ns);
	if (ret) {
		snprintf(x->run->odp_na, sizeof(x->run->odp_na),
			 "%s: ibv_reg_mr of an implicit ODP MR: %s", x->dev.name, strerror(-ret));
		return;
	}
	x->run->implicit_reg_us = (double)ns / 1e3;
}

static int open_dev(struct reg_ctx *x)
{
	struct rb_dev_want w = { .name = x->cfg->device,
				 .gid_index = -1,
				 .peer_family = AF_UNSPEC,
				 .gid_family = AF_UNSPEC };

	return rb_dev_open_want(&w, &x->dev);
}

int rb_reg_points(struct rb_reg_run *r, rb_reg_point_fn *fn, void *arg)
{
	const struct rb_reg_cfg *c = r->cfg;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < c->size.n && !ret && !rb_interrupted; i++) {
		struct rb_reg_point *p = &r->pt[i];

		ret = fn(arg, c->size.v[i], p);
		r->npt = i + 1;
		if (!ret && i + 1 < c->size.n)
			rb_reg_write(r); /* rewritten whole after every point */
		if (!ret && p->ok)
			rb_info("reg: %" PRIu64 " bytes: %" PRIu64 " %s", p->size, p->done,
				p->has_rgn   ? "rounds"
				: p->has_reg ? "registrations"
					     : "prefetches");
	}
	if (ret)
		snprintf(r->reason, sizeof(r->reason), "%s", r->pt[r->npt - 1].reason);
	else if (rb_interrupted)
		snprintf(r->reason, sizeof(r->reason), "interrupted by signal %d",
			 (int)rb_interrupted);
	r->complete = !ret && !rb_interrupted;
	return ret;
}

static int plain_point(void *arg, uint64_t size, struct rb_reg_point *pt)
{
	return run_point(arg, size, pt);
}

static int measure(struct reg_ctx *x)
{
	int ret = open_dev(x);

	if (ret) {
		snprintf(x->run->reason, sizeof(x->run->reason), "%s", rb_last_error);
		return ret;
	}
	snprintf(x->run->device, sizeof(x->run->device), "%s", x->dev.name);
	odp_why(&x->dev, x->cfg->odp, x->run->odp_na, sizeof(x->run->odp_na));
	implicit_open(x);
	ret = x->cfg->regions ? rb_reg_rgn_measure(&x->dev, x->run)
			      : rb_reg_points(x->run, plain_point, x);
	if (x->implicit && ibv_dereg_mr(x->implicit))
		rb_warn("reg: %s: ibv_dereg_mr of the implicit MR failed", x->dev.name);
	rb_dev_close(&x->dev);
	return ret;
}

static int check_outputs(const struct rb_reg_cfg *c, char *err, size_t len)
{
	if (c->json_path && strcmp(c->json_path, "-") && rb_output_check(c->json_path, err, len))
		return -EINVAL;
	if (c->csv_path && rb_output_check(c->csv_path, err, len))
		return -EINVAL;
	return 0;
}

static int report(const struct rb_reg_run *r)
{
	bool json_out = r->cfg->json_path && !strcmp(r->cfg->json_path, "-");
	void *doc;
	int ret;

	if (!json_out) {
		rb_reg_table(stdout, r);
		return rb_reg_write(r);
	}
	doc = rb_reg_json(r);
	ret = doc && !json_dumpf(doc, stdout, RB_JSON_DUMP) ? 0 : -EIO;
	json_decref(doc);
	printf("\n");
	return ret ? ret : rb_reg_write(r);
}

/* reg's command line: 0 to run, else the exit status (--help, --version, a usage error). */
static int reg_args(int argc, char **argv, struct rb_reg_opts *o, struct rb_reg_cfg *cfg)
{
	char err[256];

	if (rb_reg_parse(argc, argv, o, err, sizeof(err))) {
		fprintf(stderr, "rdmabench reg: %s\n", err);
		return RB_EXIT_USAGE;
	}
	if (o->help || o->help_all) {
		rb_reg_usage(stdout, o->help_all);
		return RB_EXIT_OK;
	}
	if (o->version) {
		printf("rdmabench %s (wire protocol %d, commit %s)\n", PACKAGE_VERSION,
		       RB_WIRE_VERSION, RB_COMMIT);
		return RB_EXIT_OK;
	}
	rb_quiet = o->quiet;
	rb_verbose = o->verbose;
	if (rb_reg_config(o, (uint64_t)sysconf(_SC_PAGESIZE), cfg, err, sizeof(err)) ||
	    check_outputs(cfg, err, sizeof(err))) {
		fprintf(stderr, "rdmabench reg: %s\n", err);
		return RB_EXIT_USAGE;
	}
	return 0;
}

int rb_reg_main(int argc, char **argv)
{
	static struct rb_reg_point pts[RB_MAX_AXIS];
	static struct rb_reg_opts o; /* cfg's strings point into it */
	struct rb_reg_cfg cfg;
	struct rb_reg_run run = { .cfg = &cfg, .pt = pts, .implicit_reg_us = -1 };
	struct reg_ctx x = { .cfg = &cfg, .run = &run };
	int ret = reg_args(argc, argv, &o, &cfg);

	if (ret || o.help || o.help_all || o.version)
		return ret;
	cfg.memlock = rb_memlock_limit();
	rb_timestamp(run.timestamp, sizeof(run.timestamp));
	if (gethostname(run.host, sizeof(run.host) - 1))
		run.host[0] = '\0';
	ret = measure(&x);
	rb_samples_free(&x.reg);
	rb_samples_free(&x.dereg);
	rb_samples_free(&x.pre);
	if (!run.device[0])
		return RB_EXIT_FAIL; /* no device: nothing to report, said */
	if (report(&run) && !ret)
		ret = -EIO;
	if (rb_interrupted)
		return 128 + (int)rb_interrupted;
	return ret ? RB_EXIT_FAIL : RB_EXIT_OK;
}
