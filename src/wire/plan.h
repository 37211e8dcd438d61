/* SPDX-License-Identifier: MIT */
/*
 * The one validator of a plan.  The command line (after its defaults) and
 * a plan that arrives from a peer pass through the same checks: every
 * field against its row of the option table, the cross-option rules, and
 * a memory budget.  Pure: the budget is an argument.
 */
#ifndef RB_PLAN_H
#define RB_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "core/rdmabench.h"

/*
 * rb_plan_region() - the bytes of one buffer region (each MR holds two,
 * rx then tx): the largest message and, on UD, the GRH a receive starts
 * with, 64 at least, rounded up to 64 (atomics need 8 aligned bytes).
 */
uint64_t rb_plan_region(const struct rb_params *p);

/*
 * Send credits (plan_credits.c): rb_plan_credit_block() - the bytes at the
 * end of each region that hold the credit words, one u64 per QP (the rx
 * region's: what the peer announced to this side; the tx region's: what
 * this side announces, the WRITE's source); 0 without credits.
 * rb_plan_credits_apply() - whether test @t under @p streams SENDs that
 * consume receives (credits apply).  rb_plan_credits_check() - the plan's
 * credits field, whoever sent it: 0, or -EINVAL with why in @err.
 * rb_plan_credits_need() - the client, its device @dev open: on a
 * transport @xport with no RNR retry (@no_rnr) sets @p->credits where they
 * apply; -EINVAL (the reason, naming @dev, in @err) for what credits
 * cannot run with.
 */
struct rb_bench;
uint64_t rb_plan_credit_block(const struct rb_params *p);
bool rb_plan_credits_apply(const struct rb_bench *t, const struct rb_params *p);
int rb_plan_credits_check(const struct rb_params *p, const struct rb_bench *t, char *err,
			  size_t len);
int rb_plan_credits_need(struct rb_params *p, const struct rb_bench *t, bool no_rnr,
			 const char *dev, const char *xport, char *err, size_t len);

/*
 * rb_plan_mem() - an upper estimate of the bytes a plan takes on one
 * side: both buffers, the WQEs of every QP and CQ (as a provider sizes
 * them), the WR templates and, for latency tests, the samples (bounded:
 * stats.h; bandwidth tests keep none).
 */
uint64_t rb_plan_mem(const struct rb_params *p);

/*
 * rb_plan_validate() - whether plan @p is one this rdmabench can run:
 * a known test, each field within its option's range (0 for the fields
 * where 0 means "unset": iterations, duration, outstanding, MTU), options
 * that do not apply to the test left at their defaults, the cross-option
 * rules, and rb_plan_mem() within @mem_budget bytes (0: not checked).
 * Returns 0, or -EINVAL with a message naming the option in @err.
 */
int rb_plan_validate(const struct rb_params *p, uint64_t mem_budget, char *err, size_t len);

/*
 * rb_mem_budget() - what one side may take on this host: three quarters
 * of MemAvailable (/proc/meminfo), 0 when it cannot be read.
 */
uint64_t rb_mem_budget(void);

/*
 * rb_plan_provider_check() - what plan @p of test @t asks of device @dev,
 * whose provider is @prov (core/provider.h): a transport (-c) the
 * provider makes, atomics where it has them, --probe's RC QP.  Returns 0, or -EINVAL with
 * a message naming the device, its provider and what it offers in @err.
 */
struct rb_provider;
struct rb_bench;
int rb_plan_provider_check(const struct rb_params *p, const struct rb_bench *t,
			   const struct rb_provider *prov, const char *dev, char *err, size_t len);

/*
 * rb_plan_transport_for() - the transport test @t runs over on provider
 * @prov when -c was not given: @tr (the default) where the provider makes
 * it, else the first transport the test and the provider share (EFA: UD
 * for send, SRD for read and write), else @tr (rb_plan_provider_check()
 * then refuses it).  Pure.
 */
unsigned int rb_plan_transport_for(const struct rb_bench *t, const struct rb_provider *prov,
				   unsigned int tr);

/* ---- what a peer sends besides the plan ------------------------------ */

/*
 * What this side's plan needs of the peer's CONN: as many QPs and MRs as
 * here, and each MR at least @mr_len bytes (both buffers of a region).
 */
struct rb_conn_want {
	uint32_t nqp, nmr;
	uint64_t mr_len;
	bool probe; /* --probe: the CONN carries the probe's QP */
	/* The lowest QPN a peer of this side's transport may use: 2 where QPs
	 * 0 and 1 are the SMI and GSI (InfiniBand, RoCE), 1 on iWARP (siw
	 * numbers from 1); 0: 2. */
	uint32_t min_qpn;
};

/*
 * rb_conn_validate() - whether a peer's CONN @c can go to the verbs
 * layer: an MTU of 256..4096 bytes (a power of two), 24-bit QPNs (not the
 * special QPs 0 and 1) and PSNs, a unicast LID on InfiniBand, a known link
 * layer, the plan's QP and MR counts, MRs as large as the plan needs and
 * that do not wrap the address space, and a placement whose fields are in
 * range (rb_place_validate()).  Returns 0, or -EPROTO with a message
 * naming the field and its value in @err.
 */
struct rb_msg_conn;
struct rb_msg_data;
int rb_conn_validate(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err,
		     size_t len);

/*
 * rb_conn_peer_check() - whether this side's CONN @me and the peer's
 * @peer can connect: the same link layer; on InfiniBand both address by
 * GID (-x/--gid-index, a GRH) or both by LID, never one of each (the
 * side without -x sends no GRH and its peer's AH says otherwise).  0, or
 * -EPROTO with both sides named in @err.
 */
int rb_conn_peer_check(const struct rb_msg_conn *me, const struct rb_msg_conn *peer, char *err,
		       size_t len);

/*
 * rb_conn_counts() - the part of rb_conn_validate() a CONN can pass before
 * its CONN_MORE messages are read: the plan's QP and MR counts, exactly.
 */
int rb_conn_counts(const struct rb_msg_conn *c, const struct rb_conn_want *w, char *err,
		   size_t len);

/*
 * rb_data_validate() - a peer's DATA (a socket test's CONN): the server's
 * (@from_server) names its data port, the client's none; the placement as
 * rb_place_validate().  Returns 0, or -EPROTO with a message in @err.
 */
int rb_data_validate(const struct rb_msg_data *m, bool from_server, char *err, size_t len);

/*
 * rb_place_validate() - a peer's placement: NUMA nodes -1..1023, local
 * -1..1, cpus a CPU list ("0-3 8", digits, ' ', ',', '-', "...").  0 or
 * -EPROTO with the field named in @err.
 */
int rb_place_validate(const struct rb_placement *p, char *err, size_t len);

/*
 * The figures of a peer's RESULT, as bits of what rb_result_check()
 * rejects; rb_result_field() names each as the wire and JSON do.
 */
enum {
	RB_PEER_ITERS = 1u << 0,
	RB_PEER_BW_AVG = 1u << 1,
	RB_PEER_CPU = 1u << 2,
	RB_PEER_BW_PEAK = 1u << 3,
	RB_PEER_MSG_RATE = 1u << 4,
	RB_PEER_DURATION = 1u << 5,
	RB_PEER_NFIELDS = 6,
};

/* Sane ceilings for what a peer reports (see rb_result_check()). */
#define RB_PEER_BW_MAX_GBPS   10000.0 /* 10 Tb/s: over 12x an 800 Gb/s port */
#define RB_PEER_RATE_MAX_MPPS 10000.0 /* 10^10 messages/s: 30x what HCAs post */
#define RB_PEER_CPU_MAX_PCT   101.0   /* one thread: 100%, 1% for the clocks */

/*
 * rb_result_check() - the figures of @m that cannot be true, as RB_PEER_*
 * bits: any that is negative, NaN or infinite; CPU above
 * RB_PEER_CPU_MAX_PCT (the peer reports one thread's CPU time, read
 * within the wall-clock interval); bandwidth (average or peak) above
 * RB_PEER_BW_MAX_GBPS, message rate above RB_PEER_RATE_MAX_MPPS; more
 * iterations than the plan's @max_iters (-n; 0: not bounded).  A peer
 * of 0 iterations (it measured nothing) may send NaN as its CPU figure
 * and duration.  0: all plausible.  Pure.
 */
struct rb_msg_result;
uint32_t rb_result_check(const struct rb_msg_result *m, uint64_t max_iters);

/* A connection setup's ceiling (rb_setup_check()): a day. */
#define RB_PEER_SETUP_MAX_MS 864e5

/*
 * rb_setup_check() - whether @m's setup figures (v14) can be true for a
 * plan of @nqp QPs: the same count, times finite, non-negative and under
 * RB_PEER_SETUP_MAX_MS.  Pure.
 */
bool rb_setup_check(const struct rb_msg_result *m, uint32_t nqp);

/* rb_result_field() - "cpu_util_pct" for RB_PEER_CPU, ...; NULL if none. */
const char *rb_result_field(uint32_t bit);

#endif
