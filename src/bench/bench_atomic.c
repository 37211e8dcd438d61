// SPDX-License-Identifier: MIT
/*
 * 8-byte atomics on the server's first word: fetch-and-add (+1) or
 * compare-and-swap.  Latency mode runs one at a time (full round trip);
 * bandwidth mode streams with -o in flight.
 *
 * --verify: in latency mode each fetch must return the count so far
 * (fadd +1; cswap swaps it for it+1), and the final word must equal the
 * number of operations.  In bandwidth mode cswap compares and swaps 0
 * (the word stays 0) while fadd must end at the count.  Some HCAs return
 * the fetched value big-endian, so either byte order is accepted.
 */
#include <byteswap.h>
#include <errno.h>
#include <string.h>
#include <inttypes.h>

#include "engine/run.h"

static void atomic_prep(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi)
{
	bool cswap = r->p->atomic_op == RB_OP_CSWAP;

	wr->opcode = cswap ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr->sg_list->addr = (uintptr_t)rb_rx_of(r, qi); /* the fetched value */
	wr->sg_list->length = 8;
	wr->wr.atomic.remote_addr = rb_remote_addr(r, qi);
	wr->wr.atomic.rkey = rb_remote_rkey(r, qi);
	wr->wr.atomic.compare_add = cswap ? 0 : 1;
	wr->wr.atomic.swap = 0;
}

/* Latency mode's cswap takes the word from it to it + 1. */
static void atomic_lat_iter(struct rb_run *r, struct ibv_send_wr *wr, uint64_t it)
{
	if (r->p->atomic_op != RB_OP_CSWAP)
		return;
	wr->wr.atomic.compare_add = it;
	wr->wr.atomic.swap = it + 1;
}

static bool same_word(uint64_t v, uint64_t want)
{
	return v == want || bswap_64(v) == want;
}

static int atomic_prepare(struct rb_run *r)
{
	uint32_t mi;
	int ret = 0;

	for (mi = 0; mi < r->c.nmr && !ret; mi++)
		ret = rb_buf_zero(r, rb_rx_of(r, mi), 8);
	return ret;
}

/* The word at @p, as the NIC left it (copied out of GPU memory). */
static int word_at(struct rb_run *r, const uint8_t *p, uint64_t *w)
{
	if (!r->c.gpu) {
		*w = *(const volatile uint64_t *)p;
		return 0;
	}
	return rb_buf_read(r, w, p, sizeof(*w));
}

/* The server's words: one per MR with --mr-per-qp; fetch-and-adds add up. */
static bool words_hold(struct rb_run *r, uint64_t want, uint64_t *v)
{
	uint64_t sum = 0, swapped = 0, w;
	uint32_t mi;

	*v = 0;
	for (mi = 0; mi < r->c.nmr; mi++) {
		if (word_at(r, rb_rx_of(r, mi), &w))
			return false; /* logged */
		sum += w;
		swapped += bswap_64(w);
	}
	*v = sum;
	return sum == want || swapped == want;
}

static int atomic_check(struct rb_run *r, uint64_t it)
{
	uint64_t v;
	int ret = word_at(r, rb_rx(r), &v);

	if (ret)
		return ret;
	if (same_word(v, it))
		return 0;
	rb_err("verify: %s %s: operation %" PRIu64 " fetched %" PRIu64 ", expected %" PRIu64,
	       r->bench->name, rb_op_name(r->p->atomic_op), it, v, it);
	return -EILSEQ;
}

/* Server: after the STOP, the word must hold what the client's ops made. */
static int atomic_server(struct rb_run *r)
{
	uint64_t v = 0, want;
	int ret = rb_run_server_wait(r);

	if (ret || !r->p->verify)
		return ret;
	want = r->p->atomic_op == RB_OP_CSWAP && r->bench->mode == RB_MODE_BW ? 0 : r->stop_count;
	if (!words_hold(r, want, &v)) {
		rb_err("verify: %s %s: after %" PRIu64 " operations the word holds %" PRIu64
		       ", expected %" PRIu64,
		       r->bench->name, rb_op_name(r->p->atomic_op), r->stop_count, v, want);
		r->verify.status = -EILSEQ;
	}
	return 0;
}

static int atomic_lat_run(struct rb_run *r)
{
	if (r->role == RB_ROLE_SERVER)
		return atomic_server(r);
	return rb_run_oneshot(r, r->p->verify ? atomic_check : NULL);
}

static int atomic_bw_run(struct rb_run *r)
{
	return r->role == RB_ROLE_SERVER ? atomic_server(r) : rb_run_stream(r);
}

/* What both modes share: 8 bytes, on the server's word, capped by rd_atom. */
#define ATOMIC_ROW                                                                           \
	.family = "atomic", .wr_name = "atomic", .atomic = true, .bounded_by_rd_atom = true, \
	.transports = RB_TR_BIT(RB_TR_RC), .payload_from_server = true, .fixed_size = 8,     \
	.default_size = 8, .server_access = IBV_ACCESS_REMOTE_ATOMIC,                        \
	.odp_caps = IBV_ODP_SUPPORT_ATOMIC, .lat_scale = 1.0, .prepare = atomic_prepare,     \
	.send_ops = IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, \
	.result = rb_result_generic, .prep_wr = atomic_prep

const struct rb_bench rb_bench_atomic_lat = {
	.name = "atomic_lat",
	.desc = "8-byte atomic (--op), one at a time; round-trip latency",
	.mode = RB_MODE_LAT,
	ATOMIC_ROW,
	.run = atomic_lat_run,
	.iter_wr = atomic_lat_iter,
};

const struct rb_bench rb_bench_atomic_bw = {
	.name = "atomic_bw",
	.desc = "8-byte atomic stream, -o in flight; message rate",
	.mode = RB_MODE_BW,
	ATOMIC_ROW,
	.run = atomic_bw_run,
};
