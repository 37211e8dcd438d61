/* SPDX-License-Identifier: MIT */
/*
 * The extended CQ (--cq-api ex): ibv_create_cq_ex, and polling through
 * ibv_start_poll()/ibv_next_poll()/ibv_end_poll(), which reads from the
 * provider's CQE only the fields asked for instead of building a whole
 * struct ibv_wc per completion.  A CQ made so is still an ibv_cq
 * (ibv_cq_ex_to_cq() is a cast): QPs, channels, ibv_req_notify_cq() and
 * ibv_destroy_cq() take it as any other, and the cast back gives the
 * ibv_cq_ex to poll.
 */
#ifndef RB_CQX_H
#define RB_CQX_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "rdma/verbs.h"

/* How a connection's CQs are polled (struct rb_conn's cq_ex). */
enum rb_cqx_kind {
	RB_CQX_OFF,   /* classic: ibv_poll_cq() */
	RB_CQX_BATCH, /* ibv_start_poll(), ibv_next_poll() up to the poll's max, ibv_end_poll() */
	RB_CQX_ONE,   /* one completion per ibv_start_poll() (rb_cqx_kind_for(): a library
		       * older than the provider row's cqx_batch_from) */
};

struct rb_provider;

/*
 * rb_cqx_kind_for() - how provider @p's extended CQ is polled with the
 * libibverbs of rdma-core @release ("64.0", as rb_rdma_core_version()
 * gives it; NULL or "": unknown): RB_CQX_BATCH where @p's row has no
 * cqx_batch_from or @release is that or later, else RB_CQX_ONE (the safe
 * default while the library is not known to be fixed).  A provider is
 * always of its libibverbs' release (their private ABI is one release's).
 * @p NULL: no row, RB_CQX_BATCH.  Pure.
 */
uint8_t rb_cqx_kind_for(const struct rb_provider *p, const char *release);

/*
 * rb_cqx_poll_one() - rb_cqx_poll() (@full: rb_cqx_poll_full()) for
 * RB_CQX_ONE: start_poll and end_poll around each completion, never
 * next_poll.
 */
int rb_cqx_poll_one(struct ibv_cq *cq, int max, struct ibv_wc *wc, bool full);

/* What an extended CQ lets its completions say beyond wr_id and status:
 * read only on the paths that need them (rb_cqx_poll_full()). */
#define RB_CQX_WC_FLAGS (IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM)

/*
 * rb_cq_create_ex_on() - rb_cq_create_on() through ibv_create_cq_ex (with
 * RB_CQX_WC_FLAGS); the CQ comes back as its ibv_cq.  -EOPNOTSUPP, not
 * logged, where the provider has no extended CQ (the caller decides: --cq-api
 * auto falls back, ex refuses); another failure is logged.
 */
int rb_cq_create_ex_on(struct rb_dev *d, uint64_t cqe, struct ibv_comp_channel *chan,
		       uint32_t vector, struct ibv_cq **cq);

/* rb_cqx_of() - the extended CQ behind @cq, which rb_cq_create_ex_on() made. */
static inline struct ibv_cq_ex *rb_cqx_of(struct ibv_cq *cq)
{
	return (struct ibv_cq_ex *)(void *)cq;
}

/* rb_cqx_fill_error() - a failed completion's vendor_err and qp_num into @wc. */
void rb_cqx_fill_error(struct ibv_cq_ex *cq, struct ibv_wc *wc);

/*
 * rb_cqx_poll() - up to @max (>= 1) completions of @cq into @wc, each
 * with its wr_id and status only (a failed one also vendor_err and
 * qp_num): all the loops read of a completion without --srq or
 * immediates.  @kind: RB_CQX_BATCH, or RB_CQX_ONE (rb_cqx_poll_one()).
 * The number taken, or -errno.  Inline: the hot loops' poll.
 */
static inline __attribute__((always_inline)) int rb_cqx_poll(struct ibv_cq *ibcq, int max,
							     struct ibv_wc *wc, uint8_t kind)
{
	struct ibv_cq_ex *cq = rb_cqx_of(ibcq);
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n = 0, ret;

	if (__builtin_expect(kind == RB_CQX_ONE, 0))
		return rb_cqx_poll_one(ibcq, max, wc, false);
	ret = ibv_start_poll(cq, &attr);
	if (ret)
		return ret == ENOENT ? 0 : -ret;
	for (;;) {
		wc[n].wr_id = cq->wr_id;
		wc[n].status = cq->status;
		if (__builtin_expect(cq->status != IBV_WC_SUCCESS, 0))
			rb_cqx_fill_error(cq, &wc[n]);
		if (++n == max)
			break;
		ret = ibv_next_poll(cq);
		if (ret)
			break;
	}
	ibv_end_poll(cq);
	return ret && ret != ENOENT ? -ret : n;
}

/* rb_cqx_poll_ok()'s flag: the poll ended at a failed completion, wc[n]. */
#define RB_CQX_FAILED (1 << 30)

/*
 * rb_cqx_poll_ok() - rb_cqx_poll() for RB_CQX_BATCH, the status checked
 * here: the n completions it returns all succeeded and only their wr_id
 * is stored (the reap tests no status: rb_reap_wcs_as() @checked false);
 * a failed one ends the poll, stored at wc[n] as rb_cqx_poll() stores
 * it, and the return is n | RB_CQX_FAILED.  Or -errno.  No test of the
 * CQ's kind: the caller knows it is RB_CQX_BATCH.  Against rb_cqx_poll(),
 * 3 instructions a completion and 4 a poll less in the caller (issue 40:
 * scripts/cost on rxe with rdma-core 64, doc/performance.md).
 */
static inline __attribute__((always_inline)) int rb_cqx_poll_ok(struct ibv_cq *ibcq, int max,
								struct ibv_wc *wc)
{
	struct ibv_cq_ex *cq = rb_cqx_of(ibcq);
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n = 0, ret;

	ret = ibv_start_poll(cq, &attr);
	if (ret)
		return ret == ENOENT ? 0 : -ret;
	do {
		wc[n].wr_id = cq->wr_id;
		if (__builtin_expect(cq->status != IBV_WC_SUCCESS, 0)) {
			wc[n].status = cq->status;
			rb_cqx_fill_error(cq, &wc[n]);
			ibv_end_poll(cq);
			return n | RB_CQX_FAILED;
		}
		if (++n == max)
			break;
		ret = ibv_next_poll(cq);
	} while (!ret);
	ibv_end_poll(cq);
	return __builtin_expect(ret && ret != ENOENT, 0) ? -ret : n;
}

/*
 * rb_cqx_poll_full() - rb_cqx_poll() with what --srq, immediates and
 * --wr-lat read too: opcode, byte_len, wc_flags, imm_data, qp_num.
 */
int rb_cqx_poll_full(struct ibv_cq *cq, int max, struct ibv_wc *wc, uint8_t kind);

/*
 * rb_cq_moderate() - --cq-moderation: @cq raises its event once @count
 * completions are in it or @usec microseconds after the first
 * (ibv_modify_cq, IBV_CQ_ATTR_MODERATE).  0; -EOPNOTSUPP, logged naming
 * the device and its provider, where the provider has no CQ moderation;
 * another -errno, logged.
 */
int rb_cq_moderate(struct rb_dev *d, struct ibv_cq *cq, uint16_t count, uint16_t usec);

#endif
