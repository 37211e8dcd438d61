// SPDX-License-Identifier: MIT
/*
 * rdmabench reg --regions (issue 42; src/reg/reg_rgn.c, reg_stream.c):
 * what fits (each limit named with its fix), where each stream WR reads,
 * a size's figures from known samples, the writers' columns and members,
 * and the stream itself on the fake provider (fake_verbs.c, a QP
 * connected to itself): every WR of the N-region pass carries the lkey of
 * the region its address lies in, every WR of the one-region pass the one
 * lkey, both passes read the same addresses, every region and every page
 * of each is touched; and the rate is the measured WRs over the interval
 * from after the warm-up's last completion to the last measured one,
 * traced through a clock (clock_gettime wrapped) that reads the fake's
 * own counters.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/stats.h"
#include "core/sweep.h"
#include "rdma/memlock.h"
#include "reg/reg.h"
#include "rdma/verbs.h"
#include "reg/reg_int.h"
#include "fake_verbs.h"

/* ---- the clock: the fake's counters, each reading logged ---------------- */

struct tick {
	uint64_t t, polls, nwrs, retired;
};

static struct fake *clock_fake; /* NULL: the real clock (or the virtual one) */
static bool vclock;		/* the clock reads vtime, which the MR calls advance */
static uint64_t vtime;
static struct tick ticks[1 << 16];
static size_t nticks;

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

/*
 * 1 us a poll, 10 ns a WR posted, 1 ns a reading (so that each reading is
 * its own): a time that says where the stream stood when it was read.
 */
int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	const struct fake *f = clock_fake;
	struct tick *k;

	if (!f && vclock) {
		ts->tv_sec = (time_t)(vtime / 1000000000ULL);
		ts->tv_nsec = (long)(vtime % 1000000000ULL);
		return 0;
	}
	if (!f)
		return __real_clock_gettime(id, ts);
	assert_true(nticks < sizeof(ticks) / sizeof(ticks[0]));
	k = &ticks[nticks];
	*k = (struct tick){ f->polls * 1000 + f->nwrs * 10 + ++nticks, f->polls, f->nwrs,
			    f->retired };
	ts->tv_sec = (time_t)(k->t / 1000000000ULL);
	ts->tv_nsec = (long)(k->t % 1000000000ULL);
	return 0;
}

static const struct tick *tick_at(uint64_t t)
{
	size_t i;

	for (i = 0; i < nticks; i++)
		if (ticks[i].t == t)
			return &ticks[i];
	fail_msg("no clock reading gave %llu", (unsigned long long)t);
	return NULL;
}

/*
 * ---- registrations: each ibv_reg_mr costs 1 us + 1 ns per 64 bytes of
 * virtual time, each ibv_dereg_mr 500 ns; the fail_at-th registration
 * (from 1) is refused with ENOMEM.
 */
static struct {
	uint64_t regs, deregs, fail_at;
	int64_t live;
} mrs;

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access);
int __wrap_ibv_dereg_mr(struct ibv_mr *mr);

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access)
{
	struct ibv_mr *mr;

	(void)iova;
	(void)access;
	vtime += 1000 + len / 64;
	if (++mrs.regs == mrs.fail_at) {
		errno = ENOMEM;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	assert_non_null(mr);
	*mr = (struct ibv_mr){ .pd = pd, .addr = addr, .length = len, .lkey = (uint32_t)mrs.regs };
	mrs.live++;
	return mr;
}

int __wrap_ibv_dereg_mr(struct ibv_mr *mr)
{
	vtime += 500;
	free(mr);
	mrs.deregs++;
	mrs.live--;
	return 0;
}

/* -n 3 rounds of --regions 8 x -s 64K on a device of nothing but a name. */
static int run_rounds(struct rb_reg_point *pt, uint64_t fail_at)
{
	static char buf[8 * 65536];
	struct rb_reg_cfg c = { .count = 3, .regions = 8, .access = IBV_ACCESS_LOCAL_WRITE };
	struct rb_dev d = { .name = "fake0" };
	int ret;

	memset(pt, 0, sizeof(*pt));
	pt->size = 65536;
	pt->asked = c.count;
	pt->rgn.n = c.regions;
	memset(&mrs, 0, sizeof(mrs));
	mrs.fail_at = fail_at;
	vclock = true;
	ret = rb_reg_rgn_rounds(&d, &c, buf, pt);
	vclock = false;
	return ret;
}

/* A round: the N registrations' times summed, then the one region's; per region the median / N. */
static void rounds_sum_each_call(void **state)
{
	struct rb_reg_point pt;
	const struct rb_reg_rgn *g = &pt.rgn;

	(void)state;
	assert_int_equal(run_rounds(&pt, 0), 0);
	assert_int_equal(mrs.regs, 3 * (8 + 1));
	assert_int_equal(mrs.deregs, mrs.regs);
	assert_int_equal(mrs.live, 0);
	assert_int_equal(g->rounds, 3);
	/* 8 x (1000 + 65536 / 64) ns = 16.192 us a round; 2.024 us a region. */
	assert_float_equal(g->reg_n.p50, 16.192, 1e-9);
	assert_float_equal(g->reg_n.p99, 16.192, 1e-9);
	assert_float_equal(g->reg_per_region_us, 2.024, 1e-9);
	assert_float_equal(g->dereg_n.p50, 4.0, 1e-9);
	assert_float_equal(g->dereg_per_region_us, 0.5, 1e-9);
	/* One region of 512 KiB: 1000 + 8192 ns. */
	assert_float_equal(g->reg_one.p50, 9.192, 1e-9);
	assert_float_equal(g->dereg_one.p50, 0.5, 1e-9);
}

/* A registration refused mid-round: the round's others undone, the point failed, said. */
static void rounds_refusal_undoes(void **state)
{
	struct rb_reg_point pt;

	(void)state;
	assert_int_equal(run_rounds(&pt, 9 + 5), -ENOMEM); /* the 2nd round's 5th region */
	assert_int_equal(mrs.live, 0);
	assert_int_equal(mrs.deregs, 9 + 4);
	assert_true(pt.failed);
	assert_non_null(strstr(pt.reason, "fake0: ibv_reg_mr(65536 bytes): Cannot allocate "
					  "memory"));
	assert_int_equal(run_rounds(&pt, 9), -ENOMEM); /* the one region */
	assert_int_equal(mrs.live, 0);
	assert_non_null(strstr(pt.reason, "ibv_reg_mr(524288 bytes)"));
}

/* ---- pure parts ------------------------------------------------------- */

static void fit_names_each_limit(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(rb_reg_rgn_fit(64, 65536, 1 << 20, true, 1000, 1ULL << 40, "rxe0", err,
					sizeof(err)),
			 -ENOMEM);
	assert_non_null(strstr(err, "--regions 64 x -s 65536: 4194304 bytes pinned at once, "
				    "over RLIMIT_MEMLOCK 1048576 bytes (1024 KiB)"));
	assert_non_null(strstr(err, "ulimit -l unlimited"));
	/* A limit that does not bind (CAP_IPC_LOCK) or none: fits. */
	assert_int_equal(rb_reg_rgn_fit(64, 65536, 1 << 20, false, 1000, 1ULL << 40, "rxe0", err,
					sizeof(err)),
			 0);
	assert_int_equal(rb_reg_rgn_fit(64, 65536, RB_MEMLOCK_INF, true, 1000, 1ULL << 40, "rxe0",
					err, sizeof(err)),
			 0);
	/* max_mr: the N and the stream's target. */
	assert_int_equal(rb_reg_rgn_fit(64, 4096, RB_MEMLOCK_INF, true, 64, 1ULL << 40, "mlx5_0",
					err, sizeof(err)),
			 -E2BIG);
	assert_non_null(strstr(err, "mlx5_0 registers at most 64 memory regions (max_mr)"));
	assert_non_null(strstr(err, "ask --regions 63 or fewer"));
	assert_int_equal(rb_reg_rgn_fit(63, 4096, RB_MEMLOCK_INF, true, 64, 1ULL << 40, "mlx5_0",
					err, sizeof(err)),
			 0);
	/* max_mr_size: the one region of N x size. */
	assert_int_equal(rb_reg_rgn_fit(16, 1 << 20, RB_MEMLOCK_INF, true, 1000, 8 << 20, "rxe0",
					err, sizeof(err)),
			 -E2BIG);
	assert_non_null(strstr(err, "the one region of 16777216 bytes is over rxe0's "
				    "max_mr_size 8388608"));
	/* 0: a limit the device does not say, not one of nothing. */
	assert_int_equal(rb_reg_rgn_fit(16, 1 << 20, RB_MEMLOCK_INF, true, 0, 0, "siw0", err,
					sizeof(err)),
			 0);
}

/* Region j mod N, page (j / N) mod pages: every region, then each one's next page. */
static void source_walks_regions_then_pages(void **state)
{
	uint32_t r;

	(void)state;
	assert_int_equal(rb_reg_rgn_src(0, 4, 16384, 4096, &r), 0);
	assert_int_equal(r, 0);
	assert_int_equal(rb_reg_rgn_src(3, 4, 16384, 4096, &r), 3 * 16384);
	assert_int_equal(r, 3);
	assert_int_equal(rb_reg_rgn_src(5, 4, 16384, 4096, &r), 16384 + 4096);
	assert_int_equal(r, 1);
	assert_int_equal(rb_reg_rgn_src(16 + 2, 4, 16384, 4096, &r), 2 * 16384); /* wrapped */
	/* A region within one page (huge pages): its start, always. */
	assert_int_equal(rb_reg_rgn_src(9, 4, 65536, 2 << 20, &r), 65536);
	assert_int_equal(rb_reg_rgn_msg(65536), RB_REG_RGN_MSG);
	assert_int_equal(rb_reg_rgn_msg(8), 8);
}

static void push(struct rb_samples *s, uint64_t a, uint64_t b, uint64_t c)
{
	assert_int_equal(rb_samples_push(s, a), 0);
	assert_int_equal(rb_samples_push(s, b), 0);
	assert_int_equal(rb_samples_push(s, c), 0);
}

static void figures_per_round_and_region(void **state)
{
	struct rb_samples rn = { 0 }, dn = { 0 }, r1 = { 0 }, d1 = { 0 };
	struct rb_reg_rgn g = { .n = 8 };

	(void)state;
	push(&rn, 80000, 40000, 60000); /* ns a round, all 8 */
	push(&dn, 16000, 8000, 24000);
	push(&r1, 9000, 7000, 8000);
	assert_int_equal(rb_reg_rgn_figures(&rn, &dn, &r1, &d1, &g), -EINVAL); /* a round short */
	push(&d1, 1000, 2000, 3000);
	assert_int_equal(rb_reg_rgn_figures(&rn, &dn, &r1, &d1, &g), 0);
	assert_int_equal(g.rounds, 3);
	assert_float_equal(g.reg_n.p50, 60.0, 1e-9);
	assert_float_equal(g.reg_per_region_us, 7.5, 1e-9);
	assert_float_equal(g.dereg_n.p50, 16.0, 1e-9);
	assert_float_equal(g.dereg_per_region_us, 2.0, 1e-9);
	assert_float_equal(g.reg_one.p50, 8.0, 1e-9);
	assert_float_equal(g.dereg_one.p50, 2.0, 1e-9);
	rb_samples_free(&rn);
	rb_samples_free(&dn);
	rb_samples_free(&r1);
	rb_samples_free(&d1);
}

/* "reg ARGS..." parsed and configured: the config's return. */
static int config(struct rb_reg_cfg *c, char *err, size_t len, int argc, char **argv)
{
	static struct rb_reg_opts o;
	int ret = rb_reg_parse(argc, argv, &o, err, len);

	return ret ? ret : rb_reg_config(&o, 4096, c, err, len);
}

static void config_defaults_and_refusals(void **state)
{
	char a0[] = "reg", a1[] = "--regions", a2[] = "64", a3[] = "-t", a4[] = "16",
	     a5[] = "--odp", err[256];
	char *argv[] = { a0, a1, a2, a3, a4, a5, NULL };
	struct rb_reg_cfg c;

	(void)state;
	assert_int_equal(config(&c, err, sizeof(err), 3, argv), 0);
	assert_int_equal(c.regions, 64);
	assert_int_equal(c.depth, RB_REG_RGN_DEF_DEPTH);
	assert_int_equal(c.size.n, 1);
	assert_int_equal(c.size.v[0], 65536); /* RB_REG_RGN_DEF_SIZE */
	assert_int_equal(config(&c, err, sizeof(err), 5, argv), 0);
	assert_int_equal(c.depth, 16);
	assert_int_equal(config(&c, err, sizeof(err), 6, argv), -EINVAL);
	assert_non_null(strstr(err, "not with --odp"));
	argv[1] = a3;
	argv[2] = a4;
	assert_int_equal(config(&c, err, sizeof(err), 3, argv), -EINVAL);
	assert_string_equal(err, "-t/--tx-depth is the --regions stream's: give --regions N");
	/* Without --regions: one buffer per size, as before. */
	assert_int_equal(config(&c, err, sizeof(err), 1, argv), 0);
	assert_int_equal(c.regions, 0);
	assert_int_equal(c.size.n, 9);
}

/* ---- the stream on the fake --------------------------------------------- */

#define NRGN  8
#define RSIZE 16384
#define PAGE  4096
#define DEPTH 16
#define PER   8 /* WRs per region */

struct rig {
	struct fake *f;
	char *buf, *target;
	struct ibv_mr small[NRGN], one, tmr;
	uint32_t lkeys[NRGN];
};

static void rig_open(struct rig *g)
{
	uint32_t i;

	memset(g, 0, sizeof(*g));
	g->f = fake_new(1, DEPTH);
	g->f->loopback = true;
	g->buf = aligned_alloc(PAGE, NRGN * RSIZE);
	g->target = calloc(DEPTH, RB_REG_RGN_MSG);
	assert_non_null(g->buf);
	assert_non_null(g->target);
	for (i = 0; i < NRGN * RSIZE; i++)
		g->buf[i] = (char)(i / PAGE);
	for (i = 0; i < NRGN; i++) {
		g->small[i] = (struct ibv_mr){ .addr = g->buf + i * RSIZE,
					       .length = RSIZE,
					       .lkey = 0x3000 + i,
					       .rkey = 0x3100 + i };
		g->lkeys[i] = g->small[i].lkey;
		fake_mr_add(g->f, &g->small[i]);
	}
	g->one = (struct ibv_mr){ .addr = g->buf, .length = NRGN * RSIZE, .lkey = 0x4000 };
	g->tmr = (struct ibv_mr){
		.addr = g->target, .length = DEPTH * RB_REG_RGN_MSG, .lkey = 0x5000, .rkey = 0x5100
	};
	fake_mr_add(g->f, &g->one);
	fake_mr_add(g->f, &g->tmr);
}

static void rig_close(struct rig *g)
{
	free(g->buf);
	free(g->target);
	fake_free(g->f);
}

/* One pass on the rig, on the tracing clock. */
static void pass(struct rig *g, bool one, struct rb_reg_pass *p)
{
	uint32_t lk = g->one.lkey;
	struct rb_reg_stream s = { .qp = fake_qp(g->f, 0),
				   .cq = &g->f->cq,
				   .base = g->buf,
				   .lkey = one ? &lk : g->lkeys,
				   .one = one,
				   .n = NRGN,
				   .msg = RB_REG_RGN_MSG,
				   .depth = DEPTH,
				   .size = RSIZE,
				   .page = PAGE,
				   .wrs = (uint64_t)PER * NRGN,
				   .warmup = NRGN,
				   .raddr = (uintptr_t)g->target,
				   .rkey = g->tmr.rkey,
				   .what = "fake" };

	nticks = 0;
	clock_fake = g->f;
	assert_int_equal(rb_reg_stream_run(&s, p), 0);
	clock_fake = NULL;
}

/* The interval: after the warm-up, before the first measured post; after the last reap. */
static void check_interval(const struct rig *g, const struct rb_reg_pass *p, uint64_t before)
{
	const struct tick *a = tick_at(p->t0), *b = tick_at(p->t1);
	uint64_t wrs = (uint64_t)PER * NRGN;

	assert_int_equal(p->wrs, wrs);
	assert_int_equal(a->nwrs, before + NRGN);    /* the warm-up posted ... */
	assert_int_equal(a->retired, before + NRGN); /* ... and reaped, nothing measured yet */
	assert_int_equal(b->nwrs, before + NRGN + wrs);
	assert_int_equal(b->retired, before + NRGN + wrs);
	assert_int_equal(b->polls, g->f->polls); /* no poll after it */
	assert_float_equal(p->mpps, (double)wrs / (double)(p->t1 - p->t0) * 1e3, 1e-12);
}

static void stream_keys_addresses_interval(void **state)
{
	bool touched[NRGN][RSIZE / PAGE] = { { false } };
	uint64_t j, wrs = (uint64_t)PER * NRGN, per = NRGN + wrs;
	struct rb_reg_pass pn, p1;
	struct rig g;
	uint32_t r, p;

	(void)state;
	rig_open(&g);
	pass(&g, false, &pn);
	check_interval(&g, &pn, 0);
	pass(&g, true, &p1);
	check_interval(&g, &p1, per);
	assert_int_equal(g.f->nwrs, 2 * per);
	assert_int_equal(g.f->access_errors, 0);
	assert_int_equal(g.f->overflows, 0);
	for (j = 0; j < per; j++) {
		const struct fake_wr *a = &g.f->wrs[j], *b = &g.f->wrs[per + j];
		uint64_t off = a->addr - (uintptr_t)g.buf;

		assert_int_equal(a->opcode, IBV_WR_RDMA_WRITE);
		assert_int_equal(a->length, RB_REG_RGN_MSG);
		assert_true(a->flags & IBV_SEND_SIGNALED);
		/* N regions: the key of the region the address lies in. */
		r = (uint32_t)(off / RSIZE);
		assert_true(r < NRGN);
		assert_int_equal(a->lkey, g.small[r].lkey);
		/* The one region: its key, the same address. */
		assert_int_equal(b->lkey, g.one.lkey);
		assert_int_equal(b->addr, a->addr);
		assert_int_equal(a->remote_addr,
				 (uintptr_t)g.target + (j % DEPTH) * RB_REG_RGN_MSG);
		assert_int_equal(a->rkey, g.tmr.rkey);
		if (j >= NRGN)
			touched[r][off % RSIZE / PAGE] = true;
	}
	for (r = 0; r < NRGN; r++)
		for (p = 0; p < RSIZE / PAGE; p++)
			assert_true(touched[r][p]);
	/* The WRITEs landed: the last one's slot holds its page's bytes. */
	assert_int_equal(g.target[((per - 1) % DEPTH) * RB_REG_RGN_MSG],
			 g.buf[g.f->wrs[per - 1].addr - (uintptr_t)g.buf]);
	rig_close(&g);
}

/* A failed completion: the pass fails, naming it, never a figure. */
static void stream_failure_is_an_error(void **state)
{
	struct rb_reg_pass p;
	struct rig g;
	uint32_t lk;
	struct rb_reg_stream s;

	(void)state;
	rig_open(&g);
	lk = 0x9999; /* no MR has it: a local protection error */
	s = (struct rb_reg_stream){ .qp = fake_qp(g.f, 0),
				    .cq = &g.f->cq,
				    .base = g.buf,
				    .lkey = &lk,
				    .one = true,
				    .n = NRGN,
				    .msg = RB_REG_RGN_MSG,
				    .depth = DEPTH,
				    .size = RSIZE,
				    .page = PAGE,
				    .wrs = 64,
				    .warmup = NRGN,
				    .raddr = (uintptr_t)g.target,
				    .rkey = g.tmr.rkey,
				    .what = "fake: one" };
	assert_int_equal(rb_reg_stream_run(&s, &p), -EIO);
	assert_non_null(strstr(rb_last_error, "fake: one: WR 0 completed with"));
	assert_int_equal(p.wrs, 0);
	rig_close(&g);
}

/* ---- writers ---------------------------------------------------------- */

static void one_point(struct rb_reg_run *r, struct rb_reg_cfg *c, struct rb_reg_point *p)
{
	memset(c, 0, sizeof(*c));
	memset(p, 0, sizeof(*p));
	rb_axis_parse("64K", true, &c->size, NULL, 0);
	c->count = 5;
	c->regions = 64;
	c->depth = 128;
	c->page_size = 4096;
	c->memlock = RB_MEMLOCK_INF;
	strcpy(c->access_text, "local-write");
	*p = (struct rb_reg_point){
		.size = 65536, .pages = 1024, .asked = 5, .done = 5, .ok = true, .has_rgn = true
	};
	p->rgn = (struct rb_reg_rgn){ .n = 64, .rounds = 5, .msg = 64, .depth = 128 };
	p->rgn.reg_n.p50 = 640;
	p->rgn.reg_per_region_us = 10;
	p->rgn.reg_one.p50 = 20;
	p->rgn.pass_n = (struct rb_reg_pass){ .wrs = 320, .t0 = 0, .t1 = 1000000, .mpps = 0.32 };
	p->rgn.pass_one = (struct rb_reg_pass){ .wrs = 320, .t0 = 0, .t1 = 500000, .mpps = 0.64 };
	*r = (struct rb_reg_run){
		.cfg = c, .pt = p, .npt = 1, .complete = true, .implicit_reg_us = -1
	};
	strcpy(r->device, "rxe0");
}

static void writers_carry_the_figures(void **state)
{
	struct rb_reg_point p;
	struct rb_reg_cfg c;
	struct rb_reg_run r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *d, *g;

	(void)state;
	one_point(&r, &c, &p);
	assert_int_equal(rb_reg_csv(f, &r), 0);
	fclose(f);
	assert_non_null(strstr(buf, ",reason,regions,rgn_rounds,rgn_reg_p50_us,"));
	assert_non_null(strstr(buf, ",64,5,640,10,"));
	assert_non_null(strstr(buf, ",64,128,320,0.32,0.64\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	rb_reg_table(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "reg on rxe0: 5 rounds per size, access local-write, "
				    "4 KiB pages"));
	assert_non_null(strstr(buf, "N[Mpps]"));
	assert_non_null(strstr(buf, "       65536       64      5         640.00       10.000"));
	assert_non_null(strstr(buf, "320 RDMA WRITEs of 64 bytes a pass, 128 in flight"));
	free(buf);
	d = rb_reg_json(&r);
	assert_non_null(d);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "params"), "region"
											  "s")),
			 64);
	g = json_object_get(json_array_get(json_object_get(d, "results"), 0), "regions");
	assert_int_equal(json_integer_value(json_object_get(g, "n")), 64);
	assert_float_equal(json_real_value(json_object_get(g, "reg_per_region_us")), 10, 1e-9);
	assert_float_equal(json_real_value(json_object_get(json_object_get(g, "stream_one"), "msg_"
											     "rate_"
											     "mpp"
											     "s")),
			   0.64, 1e-9);
	assert_float_equal(json_real_value(json_object_get(json_object_get(g, "stream_regions"),
							   "duration_"
							   "s")),
			   0.001, 1e-12);
	assert_null(json_object_get(json_array_get(json_object_get(d, "results"), 0), "reg_us"));
	/* RB_JSON_DUMP=DIR: the document, as tests/data/schema/regions.json was made. */
	if (getenv("RB_JSON_DUMP")) {
		char path[512];

		snprintf(path, sizeof(path), "%s/doc-regions.json", getenv("RB_JSON_DUMP"));
		assert_int_equal(json_dump_file(d, path, JSON_INDENT(2) | JSON_SORT_KEYS), 0);
	}
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fit_names_each_limit),
		cmocka_unit_test(source_walks_regions_then_pages),
		cmocka_unit_test(figures_per_round_and_region),
		cmocka_unit_test(config_defaults_and_refusals),
		cmocka_unit_test(rounds_sum_each_call),
		cmocka_unit_test(rounds_refusal_undoes),
		cmocka_unit_test(stream_keys_addresses_interval),
		cmocka_unit_test(stream_failure_is_an_error),
		cmocka_unit_test(writers_carry_the_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
