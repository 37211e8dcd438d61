// SPDX-License-Identifier: MIT
/*
 * rtt.so: one ruler for both tools (bench-results/perftest/README.md,
 * "The same ruler").  An LD_PRELOAD shim, a diagnostic outside the build:
 *
 *   gcc -O2 -fPIC -shared -o rtt.so rtt.c -ldl
 *
 * After the real ibv_open_device() it wraps the context's post_send and
 * poll_cq, and times with the TSC, per process:
 *   in_post_send  the call itself (rxe: a system call that runs the
 *                 requester, and over loopback much of the peer's side);
 *   post_to_comp  from a post to the next completion that ends a round
 *                 trip (a receive, or an RDMA READ's own completion);
 *   comp_to_post  from that completion to the next post: the tool's own
 *                 turnaround, its user-space share of a round trip.
 * The first 200 of each are dropped (warm-up, set-up); min, p10, p50, p90
 * go to RTT_OUT (default stderr) at exit.  RTT_MHZ: the TSC's rate
 * (default 2445.4, the lab guest's).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <infiniband/verbs.h>
#include <x86intrin.h>
#define MAXS (1 << 20)
typedef int (*ps_fn)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **);
typedef int (*pc_fn)(struct ibv_cq *, int, struct ibv_wc *);
static ps_fn rps;
static pc_fn rpc;
static uint64_t t_post = 0, t_recv = 0;
static uint32_t *in_post, *rtt, *turn;
static size_t n_in, n_rtt, n_turn;
static uint64_t polls_empty, polls_full;
static int wrap_ps(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	uint64_t a = __rdtsc();
	int r;
	if (t_recv && n_turn < MAXS)
		turn[n_turn++] = (uint32_t)(a - t_recv);
	t_recv = 0;
	r = rps(qp, wr, bad);
	uint64_t b = __rdtsc();
	if (n_in < MAXS)
		in_post[n_in++] = (uint32_t)(b - a);
	t_post = a;
	return r;
}
static int wrap_pc(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int r = rpc(cq, n, wc), i;
	if (r <= 0) {
		polls_empty++;
		return r;
	}
	polls_full++;
	uint64_t now = __rdtsc();
	for (i = 0; i < r; i++)
		if ((wc[i].opcode & IBV_WC_RECV) || wc[i].opcode == IBV_WC_RDMA_READ) {
			if (t_post && n_rtt < MAXS)
				rtt[n_rtt++] = (uint32_t)(now - t_post);
			t_post = 0;
			t_recv = now;
		}
	return r;
}
struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
	static struct ibv_context *(*real)(struct ibv_device *);
	if (!real)
		real = dlsym(RTLD_NEXT, "ibv_open_device");
	struct ibv_context *ctx = real(dev);
	if (!ctx)
		return ctx;
	if (!rps) {
		rps = ctx->ops.post_send;
		rpc = ctx->ops.poll_cq;
		in_post = calloc(MAXS, 4);
		rtt = calloc(MAXS, 4);
		turn = calloc(MAXS, 4);
	}
	ctx->ops.post_send = wrap_ps;
	ctx->ops.poll_cq = wrap_pc;
	return ctx;
}
static int cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}
static void rep(FILE *f, const char *name, uint32_t *v, size_t n, double mhz)
{
	if (!n) {
		fprintf(f, "%s n=0\n", name);
		return;
	}
	/* skip the first 200 (warmup, setup) */
	size_t s = n > 400 ? 200 : 0;
	qsort(v + s, n - s, 4, cmp);
	fprintf(f, "%s n=%zu min=%.2f p10=%.2f p50=%.2f p90=%.2f us\n", name, n - s, v[s] / mhz,
		v[s + (n - s) / 10] / mhz, v[s + (n - s) / 2] / mhz, v[s + (n - s) * 9 / 10] / mhz);
}
__attribute__((destructor)) static void fini(void)
{
	const char *o = getenv("RTT_OUT");
	FILE *f;

	if (!rps)
		return; /* not a verbs process (timeout, taskset): nothing to say */
	f = o ? fopen(o, "w") : stderr;
	double mhz = getenv("RTT_MHZ") ? atof(getenv("RTT_MHZ")) : 2445.4;
	if (!f)
		return;
	rep(f, "in_post_send", in_post, n_in, mhz);
	rep(f, "post_to_comp", rtt, n_rtt, mhz);
	rep(f, "comp_to_post", turn, n_turn, mhz);
	fprintf(f, "polls_empty=%llu polls_full=%llu\n", (unsigned long long)polls_empty,
		(unsigned long long)polls_full);
	if (o)
		fclose(f);
}
