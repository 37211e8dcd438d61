// SPDX-License-Identifier: MIT
/*
 * LD_PRELOAD shim for scripts/cost: counts what a benchmark's client does
 * on the data path and tells callgrind (valgrind --tool=callgrind
 * --collect-atstart=no) what to count, the same way for any tool, with
 * or without symbols.
 *
 * After the real ibv_open_device() it replaces the context's post_send,
 * post_recv and poll_cq (the inline ibv_post_send(), ibv_post_recv() and
 * ibv_poll_cq() call through them) with wrappers.  Each wrapper calls the
 * provider through a thunk of its own name (cost_prov_*), so callgrind's
 * inclusive cost of a thunk is ibv_*() plus the provider.
 *
 * The window: collection goes on at the first post_send and off for good
 * at the return of the data-path call after which the client has posted
 * COST_SENDS send WRs, every signaled one has completed, and it has reaped
 * COST_RECVS receives: the end of the measuring loop, before any report.
 * Inside it, a poll that returns nothing turns collection off until the
 * next data-path call: a spin is waiting, not cost.  The provider's part
 * of those empty polls is still in the poll thunk; its exact size is
 * measured on a CQ of the shim's own, which is always empty (the thunk
 * cost_prov_poll_probe, COST_PROBES calls), and subtracted by the report.
 *
 * How completions fall into polls depends on timing: a ping-pong client
 * on one CQ finds its send's completion and the echo in one poll or in
 * two.  With COST_SETTLE_US set, every poll in the window first waits
 * that long, not counted: each poll then finds every completion that was
 * due, and the figures do not depend on the emulator's speed.
 *
 * The extended post API (rdmabench --post-api wr, perftest on mlx5): after
 * the real create_qp_ex of a QP made with send_ops_flags, the QP's
 * ibv_qp_ex callbacks that the data path calls (wr_start, the verbs, the
 * SGE, inline data and UD address, wr_complete) are replaced the same
 * way, each calling the provider through a cost_prov_wr_* thunk: the
 * report adds them to post_send's.  wr_start opens the window as the
 * first post_send does; wr_complete counts the chain's WRs as posted.
 *
 * The extended CQ (rdmabench --cq-api ex, issue 40): after the real
 * create_cq_ex, the CQ's start_poll, next_poll and end_poll are replaced
 * the same way (cost_prov_start_poll, cost_prov_next_poll,
 * cost_prov_end_poll: the report adds them to poll_cq's).  start_poll
 * settles and opens collection as a poll does; one that finds nothing
 * (ENOENT) is an empty poll; end_poll ends the poll, counted full.  The
 * opcode that tells a receive from a send is read with collection off.
 * Once an extended CQ was made, the empty-poll probe runs start_poll on
 * an extended CQ of the shim's own.
 *
 * At the window's end the counts go to COST_OUT as key=value lines.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <infiniband/verbs.h>
#include <valgrind/callgrind.h>

#define COST_PROBES 64
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif
/* Keeps a thunk's call a call (no tail jump), so callgrind sees the edge. */
#define BARRIER() __asm__ __volatile__("" ::: "memory")

typedef int (*post_send_fn)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **);
typedef int (*post_recv_fn)(struct ibv_qp *, struct ibv_recv_wr *, struct ibv_recv_wr **);
typedef int (*poll_cq_fn)(struct ibv_cq *, int, struct ibv_wc *);

typedef struct ibv_qp *(*create_qp_ex_fn)(struct ibv_context *, struct ibv_qp_init_attr_ex *);

static post_send_fn real_post_send;
static post_recv_fn real_post_recv;
static poll_cq_fn real_poll_cq;

static struct {
	int window; /* 0 before, 1 open, 2 closed */
	int collecting;
	int bad; /* something the figures cannot stand on */
	uint64_t want_sends, want_recvs;
	long settle_ns; /* wait before each poll in the window */
	/* Whole process. */
	uint64_t sends, signaled, send_cqes, recv_cqes, errors;
	/* Inside the window. */
	uint64_t w_sends, w_chains, w_recv_wrs, w_recv_calls;
	uint64_t w_polls_empty, w_polls_full, w_send_cqes, w_recv_cqes;
	uint64_t w_max_per_poll;
	/* After the window: anything posted then means the window was wrong. */
	uint64_t late_sends;
	int probes;
} st;

static void col_on(void)
{
	if (!st.collecting) {
		CALLGRIND_TOGGLE_COLLECT;
		st.collecting = 1;
	}
}

static void col_off(void)
{
	if (st.collecting) {
		CALLGRIND_TOGGLE_COLLECT;
		st.collecting = 0;
	}
}

/* Let what is in flight land before a poll; the wait is not counted. */
static void settle(void)
{
	struct timespec ts = { .tv_sec = st.settle_ns / 1000000000L,
			       .tv_nsec = st.settle_ns % 1000000000L };

	col_off();
	while (nanosleep(&ts, &ts))
		;
}

NOINLINE int cost_prov_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
				 struct ibv_send_wr **bad)
{
	int ret = real_post_send(qp, wr, bad);

	BARRIER();
	return ret;
}

NOINLINE int cost_prov_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
				 struct ibv_recv_wr **bad)
{
	int ret = real_post_recv(qp, wr, bad);

	BARRIER();
	return ret;
}

NOINLINE int cost_prov_poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	int ret = real_poll_cq(cq, num, wc);

	BARRIER();
	return ret;
}

/* The provider's extended CQ callbacks (one provider: the first CQ's). */
static struct {
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *, struct ibv_cq_init_attr_ex *);
	int (*start)(struct ibv_cq_ex *, struct ibv_poll_cq_attr *);
	int (*next)(struct ibv_cq_ex *);
	void (*end)(struct ibv_cq_ex *);
	enum ibv_wc_opcode (*opcode)(struct ibv_cq_ex *);
	uint64_t wc_flags; /* the first extended CQ's, for the probe's */
	int hooked;
	int n; /* completions of the poll between start and end */
} cx;

/*
 * The same code as cost_prov_poll_cq, under another name: empty polls
 * only; with an extended CQ, start_poll's (ENOENT) as cost_prov_start_poll.
 */
NOINLINE int cost_prov_poll_probe(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int ret;

	if (cx.hooked)
		ret = cx.start((struct ibv_cq_ex *)(void *)cq, &attr) == ENOENT ? 0 : 1;
	else
		ret = real_poll_cq(cq, num, wc);
	BARRIER();
	return ret;
}

static void report(const char *why)
{
	const char *path = getenv("COST_OUT");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f,
		"state=%s\nbad=%d\nwant_sends=%llu\nwant_recvs=%llu\nsends=%llu\nsignaled=%llu\n"
		"send_cqes=%llu\nrecv_cqes=%llu\nerrors=%llu\nw_sends=%llu\nw_chains=%llu\n"
		"w_recv_wrs=%llu\nw_recv_calls=%llu\nw_polls_empty=%llu\nw_polls_full=%llu\n"
		"w_send_cqes=%llu\nw_recv_cqes=%llu\nw_max_per_poll=%llu\nlate_sends=%llu\n"
		"probes=%d\nsettle_ns=%ld\n",
		why, st.bad, (unsigned long long)st.want_sends, (unsigned long long)st.want_recvs,
		(unsigned long long)st.sends, (unsigned long long)st.signaled,
		(unsigned long long)st.send_cqes, (unsigned long long)st.recv_cqes,
		(unsigned long long)st.errors, (unsigned long long)st.w_sends,
		(unsigned long long)st.w_chains, (unsigned long long)st.w_recv_wrs,
		(unsigned long long)st.w_recv_calls, (unsigned long long)st.w_polls_empty,
		(unsigned long long)st.w_polls_full, (unsigned long long)st.w_send_cqes,
		(unsigned long long)st.w_recv_cqes, (unsigned long long)st.w_max_per_poll,
		(unsigned long long)st.late_sends, st.probes, st.settle_ns);
	fclose(f);
}

/* The cost of a poll that finds nothing, on a CQ nobody posts to. */
static void probe_empty(struct ibv_context *ctx)
{
	struct ibv_cq_init_attr_ex a = { .cqe = 16, .wc_flags = cx.wc_flags };
	struct ibv_wc wc[32];
	struct ibv_cq *cq = cx.hooked ? ibv_cq_ex_to_cq(cx.create_cq_ex(ctx, &a))
				      : ibv_create_cq(ctx, 16, NULL, NULL, 0);
	int i, n;

	if (!cq) {
		st.bad = 1;
		return;
	}
	for (i = 0; i < COST_PROBES; i++) {
		col_on();
		n = cost_prov_poll_probe(cq, 32, wc);
		col_off();
		if (n)
			st.bad = 1;
	}
	st.probes = COST_PROBES;
	ibv_destroy_cq(cq);
}

/* ---- the extended post API ---- */

/* The provider's ibv_qp_ex callbacks (one provider: the first QP's). */
static struct {
	create_qp_ex_fn create_qp_ex;
	void (*start)(struct ibv_qp_ex *);
	int (*complete)(struct ibv_qp_ex *);
	void (*send)(struct ibv_qp_ex *);
	void (*rdma_write)(struct ibv_qp_ex *, uint32_t, uint64_t);
	void (*rdma_read)(struct ibv_qp_ex *, uint32_t, uint64_t);
	void (*cmp_swp)(struct ibv_qp_ex *, uint32_t, uint64_t, uint64_t, uint64_t);
	void (*fetch_add)(struct ibv_qp_ex *, uint32_t, uint64_t, uint64_t);
	void (*set_sge)(struct ibv_qp_ex *, uint32_t, uint64_t, uint32_t);
	void (*set_inline)(struct ibv_qp_ex *, void *, size_t);
	void (*set_ud_addr)(struct ibv_qp_ex *, struct ibv_ah *, uint32_t, uint32_t);
	int hooked;
} rx;

/* The chain between wr_start and wr_complete: its WRs, and those signaled. */
static uint64_t chain_n, chain_sig;

NOINLINE void cost_prov_wr_start(struct ibv_qp_ex *x)
{
	rx.start(x);
	BARRIER();
}

NOINLINE int cost_prov_wr_complete(struct ibv_qp_ex *x)
{
	int ret = rx.complete(x);

	BARRIER();
	return ret;
}

NOINLINE void cost_prov_wr_send(struct ibv_qp_ex *x)
{
	rx.send(x);
	BARRIER();
}

NOINLINE void cost_prov_wr_rdma_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	rx.rdma_write(x, rkey, addr);
	BARRIER();
}

NOINLINE void cost_prov_wr_rdma_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	rx.rdma_read(x, rkey, addr);
	BARRIER();
}

NOINLINE void cost_prov_wr_cmp_swp(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, uint64_t cmp,
				   uint64_t swp)
{
	rx.cmp_swp(x, rkey, addr, cmp, swp);
	BARRIER();
}

NOINLINE void cost_prov_wr_fetch_add(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
				     uint64_t add)
{
	rx.fetch_add(x, rkey, addr, add);
	BARRIER();
}

NOINLINE void cost_prov_wr_set_sge(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr, uint32_t len)
{
	rx.set_sge(x, lkey, addr, len);
	BARRIER();
}

NOINLINE void cost_prov_wr_set_inline(struct ibv_qp_ex *x, void *addr, size_t len)
{
	rx.set_inline(x, addr, len);
	BARRIER();
}

NOINLINE void cost_prov_wr_set_ud_addr(struct ibv_qp_ex *x, struct ibv_ah *ah, uint32_t qpn,
				       uint32_t qkey)
{
	rx.set_ud_addr(x, ah, qpn, qkey);
	BARRIER();
}

/* A verb: one WR more in the chain, signaled as wr_flags says now. */
static void wr_counted(struct ibv_qp_ex *x)
{
	chain_n++;
	chain_sig += !!(x->wr_flags & IBV_SEND_SIGNALED);
}

static void cost_wr_start(struct ibv_qp_ex *x)
{
	if (!st.window)
		st.window = 1;
	if (st.window == 1)
		col_on();
	chain_n = chain_sig = 0;
	cost_prov_wr_start(x);
}

static void cost_wr_send(struct ibv_qp_ex *x)
{
	wr_counted(x);
	cost_prov_wr_send(x);
}

static void cost_wr_rdma_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	wr_counted(x);
	cost_prov_wr_rdma_write(x, rkey, addr);
}

static void cost_wr_rdma_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	wr_counted(x);
	cost_prov_wr_rdma_read(x, rkey, addr);
}

static void cost_wr_cmp_swp(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, uint64_t cmp,
			    uint64_t swp)
{
	wr_counted(x);
	cost_prov_wr_cmp_swp(x, rkey, addr, cmp, swp);
}

static void cost_wr_fetch_add(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, uint64_t add)
{
	wr_counted(x);
	cost_prov_wr_fetch_add(x, rkey, addr, add);
}

static void check_end(struct ibv_context *ctx);

/* The chain is posted: counted as post_send counts its WRs. */
static int cost_wr_complete(struct ibv_qp_ex *x)
{
	int ret = cost_prov_wr_complete(x);

	if (ret)
		st.bad = 1;
	st.sends += chain_n;
	st.signaled += chain_sig;
	if (st.window == 1) {
		st.w_sends += chain_n;
		st.w_chains++;
	} else if (st.window == 2) {
		st.late_sends += chain_n;
	}
	chain_n = chain_sig = 0;
	check_end(x->qp_base.context);
	return ret;
}

/* Save the provider's callbacks of @x (the first QP's) and put ours in. */
static void hook_qp_ex(struct ibv_qp_ex *x)
{
	if (!rx.hooked) {
		rx.start = x->wr_start;
		rx.complete = x->wr_complete;
		rx.send = x->wr_send;
		rx.rdma_write = x->wr_rdma_write;
		rx.rdma_read = x->wr_rdma_read;
		rx.cmp_swp = x->wr_atomic_cmp_swp;
		rx.fetch_add = x->wr_atomic_fetch_add;
		rx.set_sge = x->wr_set_sge;
		rx.set_inline = x->wr_set_inline_data;
		rx.set_ud_addr = x->wr_set_ud_addr;
		rx.hooked = 1;
	} else if (x->wr_start != rx.start || x->wr_complete != rx.complete) {
		st.bad = 1; /* two providers' QPs: one set of thunks */
	}
	x->wr_start = cost_wr_start;
	x->wr_complete = cost_wr_complete;
	x->wr_send = cost_wr_send;
	x->wr_rdma_write = cost_wr_rdma_write;
	x->wr_rdma_read = cost_wr_rdma_read;
	x->wr_atomic_cmp_swp = cost_wr_cmp_swp;
	x->wr_atomic_fetch_add = cost_wr_fetch_add;
	x->wr_set_sge = cost_prov_wr_set_sge;
	x->wr_set_inline_data = cost_prov_wr_set_inline;
	x->wr_set_ud_addr = cost_prov_wr_set_ud_addr;
}

static struct ibv_qp *cost_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a)
{
	struct ibv_qp *qp = rx.create_qp_ex(ctx, a);
	struct ibv_qp_ex *x;

	if (qp && (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) {
		x = ibv_qp_to_qp_ex(qp);
		if (x)
			hook_qp_ex(x);
	}
	return qp;
}

/* After every data-path call: has the measuring loop ended? */
static void check_end(struct ibv_context *ctx)
{
	if (st.window != 1 || st.sends < st.want_sends || st.signaled > st.send_cqes ||
	    st.recv_cqes < st.want_recvs)
		return;
	col_off();
	st.window = 2;
	probe_empty(ctx);
	report("closed");
}

static int cost_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct ibv_send_wr *w;
	uint64_t n = 0, sig = 0;
	int ret;

	if (!st.window)
		st.window = 1;
	if (st.window == 1)
		col_on();
	ret = cost_prov_post_send(qp, wr, bad);
	for (w = wr; w && !(ret && w == *bad); w = w->next) {
		n++;
		sig += !!(w->send_flags & IBV_SEND_SIGNALED);
	}
	if (ret)
		st.bad = 1;
	st.sends += n;
	st.signaled += sig;
	if (st.window == 1) {
		st.w_sends += n;
		st.w_chains++;
	} else if (st.window == 2) {
		st.late_sends += n;
	}
	check_end(qp->context);
	return ret;
}

static int cost_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct ibv_recv_wr *w;
	int ret;

	if (st.window == 1)
		col_on();
	ret = cost_prov_post_recv(qp, wr, bad);
	if (st.window == 1) {
		for (w = wr; w && !(ret && w == *bad); w = w->next)
			st.w_recv_wrs++;
		st.w_recv_calls++;
	}
	return ret;
}

static int cost_poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	int n, i;

	if (st.window == 1) {
		if (st.settle_ns)
			settle();
		col_on();
	}
	n = cost_prov_poll_cq(cq, num, wc);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			st.errors++;
			st.bad = 1;
		} else if (wc[i].opcode & IBV_WC_RECV) {
			st.recv_cqes++;
			st.w_recv_cqes += st.window == 1;
		} else {
			st.send_cqes++;
			st.w_send_cqes += st.window == 1;
		}
	}
	if (st.window == 1) {
		if (n > 0) {
			st.w_polls_full++;
			if ((uint64_t)n > st.w_max_per_poll)
				st.w_max_per_poll = (uint64_t)n;
		} else if (!n) {
			st.w_polls_empty++;
			col_off();
		}
	}
	check_end(cq->context);
	return n;
}

/* ---- the extended CQ ---- */

NOINLINE int cost_prov_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	int ret = cx.start(cq, attr);

	BARRIER();
	return ret;
}

NOINLINE int cost_prov_next_poll(struct ibv_cq_ex *cq)
{
	int ret = cx.next(cq);

	BARRIER();
	return ret;
}

NOINLINE void cost_prov_end_poll(struct ibv_cq_ex *cq)
{
	cx.end(cq);
	BARRIER();
}

/* A completion taken: counted as poll_cq counts it, its opcode read uncounted. */
static void cx_took(struct ibv_cq_ex *cq)
{
	int was = st.collecting;
	enum ibv_wc_opcode op;

	cx.n++;
	if (cq->status != IBV_WC_SUCCESS) {
		st.errors++;
		st.bad = 1;
		return;
	}
	col_off();
	op = cx.opcode(cq);
	if (was)
		col_on();
	if (op & IBV_WC_RECV) {
		st.recv_cqes++;
		st.w_recv_cqes += st.window == 1;
	} else {
		st.send_cqes++;
		st.w_send_cqes += st.window == 1;
	}
}

static int cost_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
{
	int ret;

	if (st.window == 1) {
		if (st.settle_ns)
			settle();
		col_on();
	}
	cx.n = 0;
	ret = cost_prov_start_poll(cq, attr);
	if (!ret) {
		cx_took(cq);
	} else if (st.window == 1 && ret == ENOENT) {
		st.w_polls_empty++;
		col_off();
	}
	if (ret)
		check_end(cq->context);
	return ret;
}

static int cost_next_poll(struct ibv_cq_ex *cq)
{
	int ret = cost_prov_next_poll(cq);

	if (!ret)
		cx_took(cq);
	return ret;
}

static void cost_end_poll(struct ibv_cq_ex *cq)
{
	cost_prov_end_poll(cq);
	if (st.window == 1) {
		st.w_polls_full++;
		if ((uint64_t)cx.n > st.w_max_per_poll)
			st.w_max_per_poll = (uint64_t)cx.n;
	}
	check_end(cq->context);
}

static struct ibv_cq_ex *cost_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a)
{
	struct ibv_cq_ex *cq = cx.create_cq_ex(ctx, a);

	if (!cq)
		return cq;
	if (!cx.hooked) {
		cx.start = cq->start_poll;
		cx.next = cq->next_poll;
		cx.end = cq->end_poll;
		cx.opcode = cq->read_opcode;
		cx.wc_flags = a->wc_flags;
		cx.hooked = 1;
	} else if (cq->start_poll != cx.start || cq->end_poll != cx.end) {
		st.bad = 1; /* one set of thunks */
	}
	cq->start_poll = cost_start_poll;
	cq->next_poll = cost_next_poll;
	cq->end_poll = cost_end_poll;
	return cq;
}

struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	static struct ibv_context *(*real)(struct ibv_device *);
	struct verbs_context *vctx;
	struct ibv_context *ctx;

	if (!real)
		real = (struct ibv_context * (*)(struct ibv_device *)) dlsym(RTLD_NEXT, "ibv_open_"
											"device");
	if (!real)
		abort();
	ctx = real(dev);
	if (!ctx)
		return ctx;
	if (!real_post_send) {
		real_post_send = ctx->ops.post_send;
		real_post_recv = ctx->ops.post_recv;
		real_poll_cq = ctx->ops.poll_cq;
		st.want_sends =
			strtoull(getenv("COST_SENDS") ? getenv("COST_SENDS") : "1", NULL, 0);
		st.want_recvs =
			strtoull(getenv("COST_RECVS") ? getenv("COST_RECVS") : "0", NULL, 0);
		st.settle_ns =
			strtol(getenv("COST_SETTLE_US") ? getenv("COST_SETTLE_US") : "0", NULL, 0) *
			1000L;
	} else if (ctx->ops.post_send != real_post_send || ctx->ops.poll_cq != real_poll_cq) {
		st.bad = 1; /* two providers: one set of thunks cannot tell them apart */
	}
	ctx->ops.post_send = cost_post_send;
	ctx->ops.post_recv = cost_post_recv;
	ctx->ops.poll_cq = cost_poll_cq;
	vctx = verbs_get_ctx(ctx);
	if (vctx && vctx->sz >= sizeof(*vctx) - offsetof(struct verbs_context, create_qp_ex) &&
	    vctx->create_qp_ex && vctx->create_qp_ex != cost_create_qp_ex) {
		if (!rx.create_qp_ex)
			rx.create_qp_ex = vctx->create_qp_ex;
		else if (vctx->create_qp_ex != rx.create_qp_ex)
			st.bad = 1;
		vctx->create_qp_ex = cost_create_qp_ex;
	}
	if (vctx && vctx->sz >= sizeof(*vctx) - offsetof(struct verbs_context, create_cq_ex) &&
	    vctx->create_cq_ex && vctx->create_cq_ex != cost_create_cq_ex) {
		if (!cx.create_cq_ex)
			cx.create_cq_ex = vctx->create_cq_ex;
		else if (vctx->create_cq_ex != cx.create_cq_ex)
			st.bad = 1;
		vctx->create_cq_ex = cost_create_cq_ex;
	}
	return ctx;
}

__attribute__((destructor)) static void cost_fini(void)
{
	/* A process that never posted (a wrapper such as timeout) says nothing. */
	if (st.window == 1)
		report("open");
	else if (st.late_sends)
		report("late");
}
