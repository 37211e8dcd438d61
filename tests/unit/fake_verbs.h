/* SPDX-License-Identifier: MIT */
/*
 * A fake verbs provider for unit tests of the data path (src/engine/).
 *
 * libibverbs' ibv_post_send(), ibv_post_recv() and ibv_poll_cq() are
 * static inlines that call through qp->context->ops and cq->context->ops,
 * so a struct ibv_context whose ops are ours, and QP, CQ and MR objects
 * that point at it, run the real loops of src/engine/ without a device.
 *
 * The fake records the WRs posted (the first FAKE_LOG_MAX of them one by
 * one, all of them in counters), keeps its own count of the send WRs
 * each QP holds (freed, as on hardware, only when a completion that covers
 * them is polled) and refuses a post that would overflow a QP.  Like a
 * NIC it checks keys and bounds: an SGE outside the MR of its lkey fails
 * with IBV_WC_LOC_PROT_ERR, an RDMA or atomic WR outside the MR of its
 * rkey with IBV_WC_REM_ACCESS_ERR (the MRs are fake_run_init()'s and
 * fake_mr_per_qp()'s, f->mr and f->mrs), signaled or not, and is not
 * carried out.  A signaled
 * WR completes after a configurable number of polls, or never ("stuck"),
 * or with an error status; a receive completes at the next poll.  In loopback mode each QP is connected to
 * itself: an RDMA WRITE copies its bytes to remote_addr and a SEND lands
 * in the QP's oldest posted receive.
 */
#ifndef RB_FAKE_VERBS_H
#define RB_FAKE_VERBS_H

#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "engine/run.h"

#define FAKE_QPN_BASE 0x100 /* QP i has qp_num FAKE_QPN_BASE + i */
#define FAKE_MAX_QPS  64    /* QPs a fake device holds */
#define FAKE_RQ_MAX   1024  /* receives a fake QP holds */
#define FAKE_LOG_MAX  65536 /* WRs recorded one by one; the rest only counted */
#define FAKE_LKEY     0x1111
#define FAKE_RKEY     0x2222
#define FAKE_REG_MAX  64 /* MRs a test registers beside the run's (fake_mr_add()) */

/* One WR as the fake saw it posted. */
struct fake_wr {
	uint32_t qi;
	uint64_t chain; /* which ibv_post_send() call, from 0 */
	uint64_t wr_id;
	unsigned int flags;
	enum ibv_wr_opcode opcode;
	uint32_t length; /* sum of the SGEs */
	uint64_t addr;	 /* the first SGE's address and key */
	uint32_t lkey;
	uint64_t remote_addr; /* RDMA and atomic WRs: the peer's memory */
	uint32_t rkey;
};

struct fake_cqe {
	struct ibv_wc wc;
	uint64_t due;	 /* the poll from which it can be reaped */
	uint32_t covers; /* send: WRs it retires, by the fake's own count */
};

struct fake_recv {
	uint64_t wr_id;
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct fake {
	/* An extended context (verbs_get_ctx() finds it) whose ibv_context,
	 * its last member, is ctx. */
	union {
		struct verbs_context vctx;
		struct {
			char ctx_at[offsetof(struct verbs_context, context)];
			struct ibv_context ctx;
		};
	};
	/* The one CQ; an extended one too (fake_cqex.c, issue 40: its poll
	 * ops, the completion between ibv_start_poll and ibv_end_poll, and
	 * how often each was called). */
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cqx;
	};
	struct ibv_wc cqx_wc;
	uint64_t cqx_starts, cqx_nexts, cqx_ends, cqx_made, cqx_mods;
	struct ibv_cq_init_attr_ex cqx_attr;
	struct ibv_modify_cq_attr cqx_mod;
	/* fake_cq_per_qp(): QP i completes on cqs[i], armed on its own. */
	bool cq_per_qp;
	struct ibv_cq cqs[FAKE_MAX_QPS];
	bool cq_armed[FAKE_MAX_QPS];
	uint64_t cq_polls[FAKE_MAX_QPS]; /* polls of each */
	/* The QPs, each the ibv_qp_ex whose wr_* callbacks are the fake's
	 * (fake_qp(): its ibv_qp). */
	struct ibv_qp_ex qpx[FAKE_MAX_QPS];
	struct ibv_mr mr;
	struct ibv_mr mrs[FAKE_MAX_QPS];	/* fake_mr_per_qp(): lkey FAKE_LKEY + i */
	const struct ibv_mr *reg[FAKE_REG_MAX]; /* fake_mr_add()'s, live */
	uint32_t nreg;
	struct ibv_srq srq; /* receives posted on it are only counted */
	uint64_t srq_recvs;
	uint32_t nqp;
	struct rb_ctl ctl; /* over the socketpair fake_run_init() is given */

	/* Knobs. */
	unsigned int delay;	  /* polls before a send completion shows */
	unsigned int delay_write; /* more of them for an RDMA WRITE's (issue 42) */
	bool stuck;		  /* signaled WRs never complete */
	uint64_t fail_nth;	  /* the nth signaled WR (from 1) fails */
	enum ibv_wc_status fail_status;
	int post_send_ret;	       /* the next ibv_post_send() fails so, once */
	bool loopback;		       /* each QP is connected to itself */
	uint64_t peer_sends;	       /* SENDs the peer makes, one per poll */
	uint64_t peer_imm;	       /* with bit 32: their immediate (low 32 bits, host order) */
	uint64_t drop_nth;	       /* loopback: the nth SEND (from 1) is lost, as on UC/UD */
	uint32_t sq_cap[FAKE_MAX_QPS]; /* WRs each send queue holds */
	bool wr_api;		       /* fake_run_init(): r posts through ibv_wr_* */
	bool no_ex;		       /* ibv_create_qp_ex() refuses send_ops_flags */
	/* A personality's ibv_create_qp (fake_persona()): bits 1 << IBV_QPT_*. */
	uint32_t qpt_silent;   /* no QP and errno untouched (bnxt_re's UC) */
	uint32_t qpt_refused;  /* no QP, EOPNOTSUPP (EFA's RC and UC) */
	uint32_t inline_limit; /* more inline is refused with EINVAL; 0: any */
	uint32_t creates;      /* ibv_create_qp(_ex) calls, refused ones too */
	/* iWARP (issue 45): no RNR retry, a loopback SEND that finds no
	 * receive fails (IBV_WC_LOC_QP_OP_ERR, as siw) and is not carried out. */
	bool no_rnr;
	uint64_t no_recv; /* such SENDs */
	/* issue 40: inline as the provider grants it, per QP: the ask rounded
	 * up so that the WQE fills whole 64-byte blocks after inline_ovh
	 * bytes (mlx5: a 16-byte control segment, a 4-byte inline header;
	 * 0: as asked).  The create leaves the caller's cap as asked;
	 * ibv_query_qp (__wrap_ibv_query_qp, with -Wl,--wrap) says what the
	 * QP took. */
	uint32_t inline_ovh;
	uint32_t qp_inline[FAKE_MAX_QPS];
	uint32_t queries; /* ibv_query_qp calls */

	/* What happened. */
	struct fake_wr *wrs; /* the first FAKE_LOG_MAX WRs */
	size_t nwrs;	     /* every send WR posted */
	uint64_t chains;
	uint32_t in_flight[FAKE_MAX_QPS]; /* send WRs not yet retired */
	uint32_t max_in_flight[FAKE_MAX_QPS];
	uint32_t since_signal[FAKE_MAX_QPS];  /* unsignaled WRs since the last signaled */
	uint32_t max_unsig_run[FAKE_MAX_QPS]; /* the longest such run */
	uint64_t signaled;
	uint64_t covered; /* WRs that signaled WRs cover, by the fake's count */
	/* Signaled WRs whose wr_id is not (QP index << 32 | WRs covered), the
	 * convention of xfer.h; the first one described. */
	uint64_t wr_id_errors;
	char first_wr_id_error[128];
	uint64_t retired;		   /* send WRs retired by polled completions */
	uint64_t retired_qp[FAKE_MAX_QPS]; /* the same, QP by QP */
	/* WRs and receives the keys or bounds refused, as a NIC would (an
	 * error completion, nothing carried out), and the first one's status. */
	uint64_t access_errors;
	enum ibv_wc_status first_access_error;
	uint64_t overflows;
	uint64_t rnr;		      /* loopback SENDs that found no receive */
	uint64_t loop_sends, dropped; /* loopback SENDs carried out; lost by drop_nth */
	uint64_t polls;
	/* --cqe-poll: the most completions a poll asked for, and got */
	int poll_max_asked, poll_max_got;
	struct fake_cqe *cqes;
	size_t cq_n, cq_cap; /* completions queued, due or not */
	struct fake_recv rq[FAKE_MAX_QPS][FAKE_RQ_MAX];
	uint32_t rq_head[FAKE_MAX_QPS], rq_n[FAKE_MAX_QPS];
	uint64_t recvs_posted;
	uint64_t recv_calls; /* ibv_post_recv() calls */
	uint32_t peer_next_qp;
	/* The extended API: the chain ibv_wr_start() began, WR by WR. */
	struct ibv_send_wr *pend;
	struct ibv_sge *pend_sge;
	uint32_t npend;
	int building;	    /* the QP index + 1 between wr_start and wr_complete; 0: none */
	uint64_t wr_chains; /* ibv_wr_complete() calls */
	/* Calls out of order (a verb outside start/complete, a WR without or
	 * with two SGEs); the first described. */
	uint64_t wr_misuse;
	/* The address the last ibv_wr_set_ud_addr() gave (UD, SRD). */
	struct ibv_ah *ud_ah;
	uint32_t ud_qpn, ud_qkey;
	char first_wr_misuse[128];
	/*
	 * --poll event (fake_events()): the CQ's completion channel over a
	 * pipe, whose read end is the channel's fd: libibverbs'
	 * ibv_get_cq_event() reads one struct ib_uverbs_comp_event_desc
	 * (the CQ as cq_handle) from it, then calls the provider's cq_event
	 * op (priv_ops: every slot that op).  ibv_req_notify_cq() arms the
	 * CQ; a completion that lands while it is armed writes one event
	 * and disarms it.  The loop sleeps instead of polling, so the fake's
	 * clock (its polls) stands still then: at an arm, completions not
	 * yet due land (an event), or else one of the peer's SENDs; a
	 * completion made while armed lands at once (an event).  With
	 * land_before_arm, what lands at an arm landed just before it: no
	 * event (races counts them), and only a poll after the arm finds it.
	 */
	struct ibv_comp_channel *chan;
	int chan_wfd;
	void (*priv_ops[256])(void);
	bool armed;
	bool notify_lost;     /* knob: arming succeeds, no event is ever written */
	bool land_before_arm; /* knob: what lands at an arm lands just before it (no event) */
	uint64_t arms, races, events_written, cq_event_calls;
	/* QPs made by ibv_create_qp(_ex) (test_verbs) and the last attributes. */
	uint32_t made;
	bool made_ex[FAKE_MAX_QPS];
	struct ibv_qp_init_attr_ex made_attr;
};

/* fake_qp() - QP @i's ibv_qp. */
static inline struct ibv_qp *fake_qp(struct fake *f, uint32_t i)
{
	return &f->qpx[i].qp_base;
}

/*
 * What libibverbs' ibv_create_qp(), ibv_qp_to_qp_ex() and (through the
 * context) ibv_create_qp_ex() would do on the fake; a test that wraps
 * them (-Wl,--wrap) calls these.  The next of the fake's QPs, with @a's
 * capabilities granted; with send_ops_flags it takes ibv_wr_*, refused
 * (EOPNOTSUPP) when f->no_ex.
 */
struct ibv_qp *fake_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a);
struct ibv_qp_ex *fake_qp_to_qp_ex(struct ibv_qp *qp);

/*
 * fake_verbs_ex.c: the ibv_wr_* of QP @x (ibv_qp_ex), set by fake_new();
 * and the fake a context belongs to.
 */
void fake_qpx_init(struct ibv_qp_ex *x);
struct fake *fake_of_ctx(struct ibv_context *ctx);

/*
 * fake_wrap.c, for a test linked with -Wl,--wrap=ibv_create_qp,
 * --wrap=ibv_qp_to_qp_ex and --wrap=ibv_modify_qp (test_verbs*, test_dc):
 * the first two are the fake's; ibv_modify_qp() records each move, by the
 * state it goes to, in fake_mod.
 */
struct fake_mod {
	struct ibv_qp_attr at[IBV_QPS_RTS + 1];
	int mask[IBV_QPS_RTS + 1];
	int calls;
};
extern struct fake_mod fake_mod;

/*
 * A provider's personality: what its device shows (name, PCI vendor id,
 * link layer) and how its ibv_create_qp() behaves, as rdma-core's
 * provider does (providers/efa, bnxt_re, mlx5).
 */
enum fake_persona {
	FAKE_EFA,     /* "rdmap0s31", Amazon: UD only (SRD is efadv's), link layer
		       * unspecified, 32 bytes inline */
	FAKE_BNXT_RE, /* "bnxt_re0", Broadcom: RC and UD; UC refused without errno;
		       * 96 bytes inline */
	FAKE_MLX5,    /* "mlx5_0", Mellanox: one port per device, RC, UC, UD; 492
		       * bytes inline (a 512-byte WQE), the ask rounded up */
};

struct fake_view {
	const char *name;
	uint32_t vendor_id;
	uint8_t link_layer;
	uint8_t ports;
};

/* fake_persona() - give @f the create_qp behaviour of @p; @v what its device shows. */
void fake_persona(struct fake *f, enum fake_persona p, struct fake_view *v);

/* fake_new() - a provider with @nqp QPs whose send queues hold @sq_cap WRs. */
struct fake *fake_new(uint32_t nqp, uint32_t sq_cap);
void fake_free(struct fake *f);

/*
 * fake_events() - give the CQ a completion channel (a pipe) and set
 * r->chan to it, as session.c does for --poll event.
 */
void fake_events(struct fake *f, struct rb_run *r);

/*
 * fake_cq_per_qp() - lay @r out as session.c does with --cq-per-qp: QP
 * i completes on the fake's cqs[i], r->cqs lists them (r->cq the first),
 * rb_reap() takes the slow path; with fake_events() (before or after)
 * the CQs share its channel and r->cq_ev is made.
 */
void fake_cq_per_qp(struct fake *f, struct rb_run *r);

/* fake_push_wc() - a completion that the next poll returns, as given. */
void fake_push_wc(struct fake *f, const struct ibv_wc *wc);

/*
 * fake_mr_add() - @mr (a test's ibv_reg_mr wrapper made it) holds memory
 * the fake's key checks accept until fake_mr_del(), as a NIC's MR table.
 */
void fake_mr_add(struct fake *f, const struct ibv_mr *mr);
void fake_mr_del(struct fake *f, const struct ibv_mr *mr);

/* fake_qi() - the index of @qp among the fake's QPs. */
uint32_t fake_qi(const struct fake *f, const struct ibv_qp *qp);

/*
 * fake_run_init() - fill @r by hand as session.c would for point 0 of
 * plan @p: test @t, @role, the fake's QPs, CQ and MR, buffers, a
 * socketpair end @oob_fd as the control channel, a @timeout_ms idle
 * timeout, send queue depths (reads: capped at @rd_atom), and the WR
 * templates.  The peer's memory (remote.addr) is this side's own buffer,
 * so loopback WRITEs land in rb_rx().
 */
void fake_run_init(struct fake *f, struct rb_run *r, const struct rb_bench *t, enum rb_role role,
		   const struct rb_params *p, struct rb_oob *oob, int oob_fd,
		   unsigned int timeout_ms);
void fake_run_free(struct rb_run *r);

/*
 * fake_mr_per_qp() - lay @r out as session.c does with --mr-per-qp: a
 * buffer and an MR (lkey FAKE_LKEY + i, rkey FAKE_RKEY + i) per QP, the
 * peer's MRs the same memory, and the WR templates rebuilt.
 */
void fake_mr_per_qp(struct fake *f, struct rb_run *r);

/* fake_plan() - the plan "rdmabench TEST HOST" makes (defaults applied). */
struct rb_params fake_plan(const char *test);

/*
 * A personality: what a family of devices says of itself and how its
 * connection manager answers, for the tests of the layers that read it
 * (verbs.c, cm.c, the session's refusals).
 *  - FAKE_ROCE: InfiniBand transport on Ethernet, atomics, RC/UC/UD; the
 *    CM answers a connect with CONNECT_RESPONSE (the caller moves the QP
 *    to RTS and establishes).
 *  - FAKE_IWARP: iWARP transport (irdma in iWARP mode, cxgb4, qedr, siw),
 *    Ethernet, no atomics; the kernel turns the peer's reply straight into
 *    ESTABLISHED (no CONNECT_RESPONSE) and moves the QP itself: its CM
 *    gives attributes for INIT and RTR only.  QP numbers from 1 (siw).
 */
enum fake_personality { FAKE_ROCE, FAKE_IWARP };

struct fake_xport_persona {
	const char *name; /* the device: "rxe0", "siw0" */
	enum ibv_transport_type transport;
	enum ibv_node_type node_type;
	enum ibv_atomic_cap atomic_cap;
	/* The CM event a successful rdma_connect() brings. */
	int connect_event; /* enum rdma_cm_event_type */
	/* The last state rdma_init_qp_attr() computes attributes for. */
	enum ibv_qp_state cm_last_state;
	uint32_t first_qpn;
};

const struct fake_xport_persona *fake_xport(enum fake_personality p);

/* fake_xport_device() - @d, @a and @pa as a device of personality @p says them. */
void fake_xport_device(enum fake_personality p, struct ibv_device *d, struct ibv_device_attr *a,
		       struct ibv_port_attr *pa);

/*
 * fake_cqex() - issue 40: the fake's CQ polls as an extended one
 * (ibv_start_poll() takes what one ibv_poll_cq() of one entry would, on
 * the fake's clock; ibv_next_poll() the next without a tick of it), and
 * @r polls it so (r->c.cq_ex = RB_CQX_BATCH); its context makes extended CQs
 * (ibv_create_cq_ex: the fake's CQ) and, with @moderate, moderates them.
 */
void fake_cqex(struct fake *f, struct rb_run *r, bool moderate);

#endif
