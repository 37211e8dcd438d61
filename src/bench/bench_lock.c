// SPDX-License-Identifier: MIT
/*
 * rdmabench lock (issue 42): a lock on the server's memory taken with RDMA
 * atomics by the point's -q QPs, each a contender (engine/lock.h): --lock
 * spin|ticket, --locks, --backoff, --hold, --cs-bytes.  A latency test:
 * its latency is the acquire latency (first attempt to owning); the
 * lock's own figures (acquisitions/s, release, handoff, attempts,
 * fairness) are a group of their own (RB_MG_LOCK).
 *
 * --verify: each holder reads the data back before its release (its
 * counter and mark intact), and at the end the client reads the server's
 * memory (every lock free, the counters adding up to the acquisitions);
 * the server checks its own memory against the client's count.
 *
 * --run-id ID --run-hosts N: the N client hosts' connections share the
 * server's words (engine/lockshare.h); the points start together, each
 * client skips its own read-back of the memory (the others may hold the
 * locks), and the server checks the counters against every host's
 * acquisitions once all have stopped.
 */
#include <errno.h>
#include <string.h>

#include "engine/lock.h"
#include "engine/lockshare.h"

/* The point's lock run, between its run and its result (one per process side). */
static __thread struct rb_lock_run lock_point;

static int lock_prepare(struct rb_run *r)
{
	struct rb_lock_layout l;

	if (r->role != RB_ROLE_SERVER)
		return 0;
	/* --run-id: the point starts when every host's has; the first out of the wait zeroes. */
	if (r->c.lock_share)
		return rb_lockshare_begin(r->c.lock_share, r->c.lock_host, r->point, rb_rx_of(r, 0),
					  r->timeout_ns);
	rb_lock_layout(r->p, 1, &l);
	/* The server's words and data start free and at 0 at every point. */
	return rb_buf_zero(r, rb_rx_of(r, 0), l.server_bytes);
}

/* Server, after the client's STOP: --verify's check, of the run's hosts with --run-id. */
static int lock_server_end(struct rb_run *r)
{
	uint64_t total = r->stop_count;
	int ret = 0;

	if (r->c.lock_share)
		ret = rb_lockshare_end(r->c.lock_share, r->c.lock_host, r->point, r->stop_count,
				       r->p->verify, r->timeout_ns, &total);
	if (!ret && r->p->verify && rb_lock_server_check(r, total))
		r->verify.status = -EILSEQ;
	return ret;
}

static int lock_run(struct rb_run *r)
{
	int ret;

	if (r->role == RB_ROLE_SERVER) {
		ret = rb_run_server_wait(r);
		return ret ? ret : lock_server_end(r);
	}
	rb_lock_run_free(&lock_point);
	return rb_run_lock_with(r, &rb_lock_algos[r->pt.lock], &lock_point);
}

static int lock_result(struct rb_run *r, struct rb_result *res)
{
	int ret = rb_result_generic(r, res);

	if (!ret && r->role == RB_ROLE_CLIENT && lock_point.r == r)
		rb_lock_result(&lock_point, res);
	return ret;
}

/* The templates' WR (the loop posts its own): an 8-byte READ of the lock word. */
static void lock_prep(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi)
{
	wr->opcode = IBV_WR_RDMA_READ;
	wr->sg_list->length = 8;
	wr->wr.rdma.remote_addr = rb_remote_addr(r, qi);
	wr->wr.rdma.rkey = rb_remote_rkey(r, qi);
}

static uint64_t lock_region(const struct rb_params *p)
{
	return rb_lock_region(p);
}

const struct rb_bench rb_bench_lock = {
	.name = "lock",
	.desc = "a lock on the server's memory, RDMA atomics, -q contenders; acquisitions/s",
	.mode = RB_MODE_LAT,
	.wr_name = "lock WR",
	.lock = true,
	.atomic = true,
	.transports = RB_TR_BIT(RB_TR_RC),
	.payload_from_server = true,
	.fixed_size = 8,
	.default_size = 8,
	.server_access = IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_REMOTE_READ |
			 IBV_ACCESS_REMOTE_WRITE,
	.odp_caps = IBV_ODP_SUPPORT_ATOMIC | IBV_ODP_SUPPORT_READ | IBV_ODP_SUPPORT_WRITE,
	.send_ops = IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
		    IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_RDMA_WRITE,
	.lat_scale = 1.0,
	.region = lock_region,
	.prepare = lock_prepare,
	.run = lock_run,
	.result = lock_result,
	.prep_wr = lock_prep,
};
