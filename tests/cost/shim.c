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
 * At the window's end the counts go to COST_OUT as key=value lines.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
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

/* The same code as cost_prov_poll_cq, under another name: empty polls only. */
NOINLINE int cost_prov_poll_probe(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	int ret = real_poll_cq(cq, num, wc);

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
	struct ibv_wc wc[32];
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
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

struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	static struct ibv_context *(*real)(struct ibv_device *);
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
