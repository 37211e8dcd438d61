// SPDX-License-Identifier: MIT
/*
 * rdmabench lock (lock.h): the contenders' state machines on their QPs,
 * the algorithms' rows, and --verify's checks of the server's memory.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/lockstat.h"
#include "core/sweep.h"
#include "engine/lock.h"
#include "engine/loop.h"

/* The engine's answers from .acquired beside 1 (owned) and -errno. */
enum { LK_AGAIN = 0, LK_AGAIN_BACKOFF = 2 };

static uint64_t round64(uint64_t v)
{
	return (v + 63) & ~63ULL;
}

void rb_lock_layout(const struct rb_params *p, uint64_t qps, struct rb_lock_layout *l)
{
	l->locks = p->locks ? p->locks : 1;
	l->stride = round64(rb_lock_data_len(p));
	l->data_off = (uint64_t)l->locks * 64;
	l->server_bytes = l->data_off + l->locks * l->stride;
	l->scratch = (64 + 2 * l->stride) * (qps ? 1 : 0);
}

uint64_t rb_lock_region(const struct rb_params *p)
{
	uint64_t qps = rb_axis_max(&p->qps);
	struct rb_lock_layout l;

	rb_lock_layout(p, qps, &l);
	return l.server_bytes > qps * l.scratch ? l.server_bytes : qps * l.scratch;
}

int rb_lock_post(struct rb_lock_run *lk, struct rb_lock_cont *c, enum ibv_wr_opcode opcode,
		 uint8_t *laddr, uint32_t len, uint64_t roff, uint64_t cmp_add, uint64_t swap)
{
	struct rb_run *r = lk->r;
	struct ibv_sge sge = { .addr = (uintptr_t)laddr, .length = len, .lkey = r->c.mr[0]->lkey };
	struct ibv_send_wr wr = { .wr_id = (uint64_t)c->qi << 32 | 1,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = opcode,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	uint64_t raddr = rb_remote_addr(r, c->qi) + roff;
	uint32_t rkey = rb_remote_rkey(r, c->qi);
	int ret;

	if (opcode == IBV_WR_ATOMIC_CMP_AND_SWP || opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = raddr;
		wr.wr.atomic.rkey = rkey;
		wr.wr.atomic.compare_add = cmp_add;
		wr.wr.atomic.swap = swap;
	} else {
		wr.wr.rdma.remote_addr = raddr;
		wr.wr.rdma.rkey = rkey;
	}
	ret = r->c.post_send(r->c.qp[c->qi], &wr, &bad);
	if (ret)
		return rb_post_failed(r, c->qi, 1, ret);
	return rb_heartbeat(r);
}

/* Spin: CAS the word from 0 to the contender's id; release by a WRITE of 0. */
static int spin_acquire(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	return rb_lock_post(lk, c, IBV_WR_ATOMIC_CMP_AND_SWP, c->scr, 8, (uint64_t)c->lock * 64, 0,
			    c->qi + 1);
}

static int spin_acquired(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	(void)lk;
	return rb_lock_fetched(c) == 0 ? 1 : LK_AGAIN_BACKOFF;
}

static int spin_release(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	return rb_lock_post(lk, c, IBV_WR_RDMA_WRITE, c->scr + 8, 8, (uint64_t)c->lock * 64, 0, 0);
}

static bool spin_free(const uint64_t *w)
{
	return w[0] == 0;
}

/*
 * Ticket: FADD the next-ticket word (the fetched value is ours), READ the
 * now-serving word until it is ours; release by FADD of now-serving.
 * c->ticket holds the ticket + 1 (0: none drawn yet).
 */
static int ticket_acquire(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	uint64_t at = (uint64_t)c->lock * 64;

	if (!c->ticket)
		return rb_lock_post(lk, c, IBV_WR_ATOMIC_FETCH_AND_ADD, c->scr, 8, at, 1, 0);
	return rb_lock_post(lk, c, IBV_WR_RDMA_READ, c->scr, 8, at + 8, 0, 0);
}

static int ticket_acquired(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	(void)lk;
	if (!c->ticket) {
		c->ticket = rb_lock_fetched(c) + 1;
		return LK_AGAIN;
	}
	if (rb_lock_fetched(c) != c->ticket - 1)
		return LK_AGAIN_BACKOFF;
	c->ticket = 0;
	return 1;
}

static int ticket_release(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	return rb_lock_post(lk, c, IBV_WR_ATOMIC_FETCH_AND_ADD, c->scr, 8,
			    (uint64_t)c->lock * 64 + 8, 1, 0);
}

static bool ticket_free(const uint64_t *w)
{
	return w[0] == w[1];
}

const struct rb_lock_algo rb_lock_algos[RB_LOCK_ALGO_COUNT] = {
	[RB_LOCK_SPIN] = { "spin", spin_acquire, spin_acquired, spin_release, spin_free },
	[RB_LOCK_TICKET] = { "ticket", ticket_acquire, ticket_acquired, ticket_release,
			     ticket_free },
};

static bool measured(const struct rb_lock_run *lk, const struct rb_lock_cont *c)
{
	return c->seq >= lk->r->pt.warmup;
}

void rb_lock_attempted(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	c->attempts++;
	if (measured(lk, c))
		lk->attempts++;
	c->st = RB_LK_ACQ;
}

static int attempt(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	rb_lock_attempted(lk, c);
	return lk->algo->acquire(lk, c);
}

static uint8_t *data_rd(const struct rb_lock_run *lk, const struct rb_lock_cont *c)
{
	(void)lk;
	return c->scr + 64;
}

static uint8_t *data_wr(const struct rb_lock_run *lk, const struct rb_lock_cont *c)
{
	return c->scr + 64 + lk->l.stride;
}

static uint64_t data_at(const struct rb_lock_run *lk, const struct rb_lock_cont *c)
{
	return lk->l.data_off + (uint64_t)c->lock * lk->l.stride;
}

static uint32_t data_len(const struct rb_lock_run *lk)
{
	return rb_lock_data_len(lk->r->p);
}

uint32_t rb_lock_data_len(const struct rb_params *p)
{
	return 8 + RB_LOCK_MARK_BYTES + p->cs_bytes;
}

static void put32(uint8_t *d, uint32_t v)
{
	v = htobe32(v);
	memcpy(d, &v, 4);
}

static uint32_t get32(const uint8_t *d)
{
	uint32_t v;

	memcpy(&v, d, 4);
	return be32toh(v);
}

void rb_lock_mark(const struct rb_lock_run *lk, const struct rb_lock_cont *c, uint8_t *m)
{
	put32(m, lk->host);
	put32(m + 4, c->qi);
	memset(m + RB_LOCK_MARK_BYTES, (int)((c->seq * 131 + c->qi * 7 + 1) & 0xff),
	       lk->r->p->cs_bytes);
}

/* Whose mark @m is, as "host 0x... QP q" (this host's own named as such). */
static void mark_name(const struct rb_lock_run *lk, const uint8_t *m, char *buf, size_t len)
{
	uint32_t host = get32(m), qi = get32(m + 4);

	if (!host)
		snprintf(buf, len, "no holder's mark");
	else if (host == lk->host)
		snprintf(buf, len, "the mark of this host's QP %u", qi);
	else
		snprintf(buf, len, "the mark of host 0x%08x's QP %u", host, qi);
}

int rb_lock_mark_check(const struct rb_lock_run *lk, const struct rb_lock_cont *c,
		       const uint8_t *rd, const uint8_t *wr, uint64_t got, uint64_t want,
		       const char *what)
{
	char host[64] = "", who[64];

	if (!memcmp(rd, wr, rb_lock_data_len(lk->r->p)))
		return 0;
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	mark_name(lk, rd + 8, who, sizeof(who));
	rb_err("verify: %s: lock %u changed under its holder (host %s, mark 0x%08x, QP %u, "
	       "acquisition %" PRIu64 "): it holds %s, counter %" PRIu64 " where it wrote %" PRIu64
	       ": mutual exclusion is broken",
	       what, c->lock, host, lk->host, c->qi, c->seq, who, got, want);
	return -EILSEQ;
}

/*
 * A handoff counts from the release's post: the next owner can only see
 * the lock free after it, whenever the release's own completion is
 * reaped (one CQ serves every contender, so the new owner's may come
 * first).
 */
void rb_lock_releasing(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	c->t_rel = rb_ticks();
	c->st = RB_LK_REL;
	lk->last_rel[c->lock] = c->t_rel;
	lk->last_by[c->lock] = c->qi;
}

static int release(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	rb_lock_releasing(lk, c);
	return lk->algo->release(lk, c);
}

/* After the hold: --verify reads the data back, else the release. */
static int held(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	if (!lk->r->p->verify)
		return release(lk, c);
	c->st = RB_LK_CHECK;
	return rb_lock_post(lk, c, IBV_WR_RDMA_READ, data_rd(lk, c), data_len(lk), data_at(lk, c),
			    0, 0);
}

int rb_lock_owned(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	uint64_t k = rb_ticks();
	int ret;

	if (!measured(lk, c))
		return 0;
	ret = lat_sample(lk->r, c->t_first);
	/* A handoff: the lock passes to another contender that was already
	 * waiting (its releaser re-taking it is none; one that came after
	 * the release found it free: no handoff either, or the idle time and
	 * the warm-up's drain would count). */
	if (lk->last_rel[c->lock] && lk->last_by[c->lock] != c->qi &&
	    c->t_first <= lk->last_rel[c->lock]) {
		lk->handoff_ticks += k - lk->last_rel[c->lock];
		lk->handoffs++;
	}
	return ret;
}

/* Owned: the acquire's figures, then the critical section's READ. */
static int owned(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	int ret = rb_lock_owned(lk, c);

	c->wait_ns = lk->backoff_min;
	c->st = RB_LK_READ;
	return ret ? ret
		   : rb_lock_post(lk, c, IBV_WR_RDMA_READ, data_rd(lk, c), data_len(lk),
				  data_at(lk, c), 0, 0);
}

/* The data as read: its counter + 1 and this holder's mark, written back. */
static int modify(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	uint8_t *w = data_wr(lk, c);
	uint64_t count;

	memcpy(&count, data_rd(lk, c), 8);
	count++;
	memcpy(w, &count, 8);
	rb_lock_mark(lk, c, w + 8);
	c->st = RB_LK_WRITE;
	return rb_lock_post(lk, c, IBV_WR_RDMA_WRITE, w, data_len(lk), data_at(lk, c), 0, 0);
}

static int check_mark(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	uint64_t got, want;
	char what[48];

	memcpy(&got, data_rd(lk, c), 8);
	memcpy(&want, data_wr(lk, c), 8);
	snprintf(what, sizeof(what), "lock (%s)", lk->algo->name);
	if (rb_lock_mark_check(lk, c, data_rd(lk, c), data_wr(lk, c), got, want, what))
		return -EILSEQ;
	return release(lk, c);
}

void rb_lock_released(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	uint64_t k = rb_ticks();

	if (measured(lk, c)) {
		lk->rel_ticks += k - c->t_rel;
		c->acquired++;
	}
	if (++lk->done == lk->r->pt.warmup)
		rb_mark_start(lk->r);
	c->st = RB_LK_IDLE;
}

/* Contender @c's completion: its next step. */
static int step(struct rb_lock_run *lk, struct rb_lock_cont *c)
{
	int ret;

	switch (c->st) {
	case RB_LK_ACQ:
		ret = lk->algo->acquired(lk, c);
		if (ret < 0)
			return ret;
		if (ret == 1)
			return owned(lk, c);
		if (ret == LK_AGAIN_BACKOFF && c->wait_ns) {
			c->st = RB_LK_BACKOFF;
			c->due = rb_now_ns() + c->wait_ns;
			c->wait_ns = c->wait_ns * 2 > lk->backoff_max ? lk->backoff_max
								      : c->wait_ns * 2;
			return 0;
		}
		return attempt(lk, c);
	case RB_LK_READ:
		return modify(lk, c);
	case RB_LK_WRITE:
		if (!lk->hold_ns)
			return held(lk, c);
		c->st = RB_LK_HOLD;
		c->due = rb_now_ns() + lk->hold_ns;
		return 0;
	case RB_LK_CHECK:
		return check_mark(lk, c);
	case RB_LK_REL:
		rb_lock_released(lk, c);
		return 0;
	default:
		rb_err("lock: a completion on QP %u, whose contender waits for none", c->qi);
		return -EPROTO;
	}
}

/* Whether the point takes no more acquisitions: -n counted, or -D over. */
static bool ending(struct rb_lock_run *lk, uint64_t deadline)
{
	if (lk->started >= lk->end)
		return true;
	return deadline && lk->done >= lk->r->pt.warmup && rb_now_ns() >= deadline;
}

/*
 * The warm-up's acquisitions are all begun but not all released: the
 * measured ones wait, so that each starts and ends after rb_mark_start()
 * (called at the last warm-up release), inside the measured interval and
 * its first --interval slice.
 */
bool rb_lock_warming(const struct rb_lock_run *lk)
{
	return lk->started == lk->r->pt.warmup && lk->done < lk->r->pt.warmup;
}

/* Start what is due: new acquisitions, attempts after a backoff, ends of holds. */
static int tick(struct rb_lock_run *lk, uint64_t deadline, uint32_t *busy)
{
	uint64_t now = 0;
	uint32_t i;
	int ret = 0;

	*busy = 0;
	for (i = 0; i < lk->n && !ret; i++) {
		struct rb_lock_cont *c = &lk->c[i];

		if (c->st == RB_LK_IDLE) {
			if (ending(lk, deadline)) {
				c->st = RB_LK_DONE;
				continue;
			}
			if (rb_lock_warming(lk)) {
				*busy += 1;
				continue;
			}
			c->seq = lk->started++;
			c->lock = (uint32_t)(c->seq % lk->l.locks);
			c->t_first = rb_ticks();
			ret = attempt(lk, c);
		} else if (c->st == RB_LK_BACKOFF || c->st == RB_LK_HOLD) {
			if (!now)
				now = rb_now_ns();
			if (now < c->due) {
				*busy += 1;
				continue;
			}
			ret = c->st == RB_LK_HOLD ? held(lk, c) : attempt(lk, c);
		}
		*busy += c->st != RB_LK_DONE;
	}
	return ret;
}

/* Poll once (--cqe-poll completions at most) and step each contender a completion is for. */
static int reap(struct rb_lock_run *lk)
{
	struct ibv_wc wc[RB_REAP_STACK];
	int n = rb_poll_ids(lk->r, lk->r->cq, rb_cqe_poll(lk->r), wc), i, ret;

	if (n < 0)
		return rb_poll_failed(lk->r);
	for (i = 0; i < n; i++) {
		uint32_t qi = (uint32_t)(wc[i].wr_id >> 32);

		if (wc[i].status != IBV_WC_SUCCESS)
			return rb_wc_error(lk->r, &wc[i]);
		if (qi >= lk->n) {
			rb_err("lock: a completion for QP %u of %u", qi, lk->n);
			return -EPROTO;
		}
		ret = step(lk, &lk->c[qi]);
		if (ret)
			return ret;
	}
	return n;
}

/*
 * A lock whose release was lost keeps its contenders busy (each failed
 * attempt completes), so the idle timeout, which counts completions,
 * never fires: the loop's own counts acquisitions.  -ETIMEDOUT (logged)
 * when none was released within the timeout; the clock is read every
 * 256 turns of the loop.
 */
static int progress_check(struct rb_lock_run *lk, uint64_t *turns, uint64_t *done0, uint64_t *t0)
{
	uint64_t now;
	uint32_t i;

	if (++*turns & 255)
		return 0;
	now = rb_now_ns();
	if (lk->done != *done0 || !*t0) {
		*done0 = lk->done;
		*t0 = now;
		return 0;
	}
	if (!lk->r->timeout_ns || now - *t0 < lk->r->timeout_ns)
		return 0;
	for (i = 0; i < lk->n && lk->c[i].st != RB_LK_ACQ && lk->c[i].st != RB_LK_BACKOFF; i++)
		;
	rb_err("lock (%s): no acquisition in %.1f s (--timeout): %s waits for lock %u, which "
	       "is never released (a lost release, or a holder gone)",
	       lk->algo->name, (double)(now - *t0) / 1e9, i < lk->n ? "a contender" : "nobody",
	       i < lk->n ? lk->c[i].lock : 0);
	return -ETIMEDOUT;
}

static int lock_loop(struct rb_lock_run *lk)
{
	const struct rb_params *p = lk->r->p;
	uint64_t deadline = 0, turns = 0, done0 = 0, t0 = 0;
	struct rb_idle idle;
	bool idling = false;
	uint32_t busy;
	int ret;

	if (!lk->r->pt.warmup)
		rb_mark_start(lk->r);
	for (;;) {
		if (rb_interrupted)
			return -EINTR;
		if (!p->iters && !deadline && lk->done >= lk->r->pt.warmup)
			deadline = rb_now_ns() + (uint64_t)p->duration_s * 1000000000ULL;
		ret = tick(lk, deadline, &busy);
		if (ret)
			return ret;
		if (!busy)
			break;
		ret = reap(lk);
		if ((ret = after_poll(lk->r, &idle, &idling, ret, "a lock's completion")))
			return ret;
		if ((ret = progress_check(lk, &turns, &done0, &t0)))
			return ret;
	}
	rb_mark_end(lk->r);
	return 0;
}

/* Every lock free and the counters' sum @count in the server's memory at @m. */
static int check_memory(const struct rb_lock_layout *l, const struct rb_lock_algo *algo,
			const uint8_t *m, uint64_t count, const char *who)
{
	uint64_t sum = 0, w[2], v;
	uint32_t k;

	for (k = 0; k < l->locks; k++) {
		memcpy(w, m + (size_t)k * 64, sizeof(w));
		if (!algo->is_free(w)) {
			rb_err("verify: lock (%s), %s: lock %u is still held after the point "
			       "(words %" PRIu64 ", %" PRIu64 "): a release was lost",
			       algo->name, who, k, w[0], w[1]);
			return -EILSEQ;
		}
		memcpy(&v, m + l->data_off + k * l->stride, 8);
		sum += v;
	}
	if (sum == count)
		return 0;
	rb_err("verify: lock (%s), %s: the counters under the locks add up to %" PRIu64
	       " after %" PRIu64 " acquisitions: mutual exclusion is broken",
	       algo->name, who, sum, count);
	return -EILSEQ;
}

/*
 * --verify, client: read the server's lock words and data back and check
 * them.  With --run-id the other hosts may hold the locks still: the
 * server checks the run once every host has stopped (bench_lock.c).
 */
static int verify_end(struct rb_lock_run *lk)
{
	struct rb_lock_cont *c = &lk->c[0];
	struct rb_idle idle;
	bool idling = false;
	int ret;

	if (lk->r->p->lock_run_id)
		return 0;
	c->st = RB_LK_CHECK;
	ret = rb_lock_post(lk, c, IBV_WR_RDMA_READ, c->scr, (uint32_t)lk->l.server_bytes, 0, 0, 0);
	while (!ret) {
		struct ibv_wc wc;
		int n = rb_poll_ids(lk->r, lk->r->cq, 1, &wc);

		if (n > 0) {
			if (wc.status != IBV_WC_SUCCESS)
				return rb_wc_error(lk->r, &wc);
			break;
		}
		if (n < 0)
			return rb_poll_failed(lk->r);
		ret = after_poll(lk->r, &idle, &idling, 0, "the lock words' read");
	}
	return ret ? ret : check_memory(&lk->l, lk->algo, c->scr, lk->done, "client");
}

static int lock_open(struct rb_run *r, const struct rb_lock_algo *algo, struct rb_lock_run *lk)
{
	uint32_t i;
	int ret;

	memset(lk, 0, sizeof(*lk));
	lk->r = r;
	lk->algo = algo;
	if (r->c.gpu) { /* the contenders' scratch is read and written by the CPU */
		rb_err("lock: not with --use-cuda: its data and words are the CPU's");
		return -EINVAL;
	}
	lk->n = r->pt.qps < r->c.nqp ? r->pt.qps : r->c.nqp;
	rb_lock_layout(r->p, lk->n, &lk->l);
	lk->backoff_min = r->p->backoff_min_ns;
	lk->backoff_max = r->p->backoff_max_ns;
	lk->hold_ns = (uint64_t)r->pt.hold_us * 1000; /* the point's --hold */
	lk->end = r->p->iters ? r->pt.warmup + r->p->iters : UINT64_MAX;
	ret = rb_lock_host_mark(&lk->host);
	if (ret)
		return ret;
	lk->c = calloc(lk->n, sizeof(*lk->c));
	lk->last_rel = calloc(lk->l.locks, sizeof(*lk->last_rel));
	lk->last_by = calloc(lk->l.locks, sizeof(*lk->last_by));
	if (!lk->c || !lk->last_rel || !lk->last_by) {
		rb_err("lock: no memory for %u contenders", lk->n);
		return -ENOMEM;
	}
	for (i = 0; i < lk->n; i++) {
		lk->c[i].qi = i;
		lk->c[i].scr = rb_tx_of(r, 0) + (size_t)i * lk->l.scratch;
		memset(lk->c[i].scr, 0, lk->l.scratch);
	}
	return 0;
}

int rb_run_lock_with(struct rb_run *r, const struct rb_lock_algo *algo, struct rb_lock_run *lk)
{
	int ret = lock_open(r, algo, lk);

	if (!ret)
		ret = lock_loop(lk);
	r->total = lk->done;
	r->ops = lk->done > r->pt.warmup ? lk->done - r->pt.warmup : 0;
	if (!ret && r->p->verify)
		ret = verify_end(lk);
	return ret;
}

void rb_lock_run_free(struct rb_lock_run *lk)
{
	free(lk->c);
	free(lk->last_rel);
	free(lk->last_by);
	lk->c = NULL;
	lk->last_rel = NULL;
	lk->last_by = NULL;
}

void rb_lock_result(const struct rb_lock_run *lk, struct rb_result *res)
{
	double us = rb_ns_per_tick(lk->r) / 1000.0;
	uint64_t *counts;
	uint32_t i;

	if (!lk->r->ops || !lk->c)
		return;
	res->has_lock = true;
	res->lock_acq_per_s = res->duration_s > 0 ? (double)lk->r->ops / res->duration_s : 0;
	res->lock_release_us = (double)lk->rel_ticks * us / (double)lk->r->ops;
	res->lock_handoff_us = lk->handoffs ? (double)lk->handoff_ticks * us / (double)lk->handoffs
					    : 0;
	res->lock_attempts = (double)lk->attempts / (double)lk->r->ops;
	counts = malloc(lk->n * sizeof(*counts));
	if (!counts)
		return;
	for (i = 0; i < lk->n; i++)
		counts[i] = lk->c[i].acquired;
	res->lock_jain = rb_lock_jain(counts, lk->n);
	res->lock_share_min = lk->n == 1 ? 1.0 : 0;
	if (lk->n > 1) {
		double *s = malloc(lk->n * sizeof(*s));

		res->lock_share_min = s ? rb_lock_shares(counts, lk->n, s) : 0;
		free(s);
	}
	/* Each contender's count, for the JSON (the result owns it). */
	free(res->lock_acq);
	res->lock_acq = counts;
	res->lock_n = lk->n;
	res->lock_verify = !lk->r->p->verify	   ? RB_LOCK_VERIFY_NONE
			   : lk->r->p->lock_run_id ? RB_LOCK_VERIFY_RUN
						   : RB_LOCK_VERIFY_POINT;
	if (gethostname(res->lock_host, sizeof(res->lock_host) - 1))
		snprintf(res->lock_host, sizeof(res->lock_host), "?");
	res->lock_mark = lk->host;
}

int rb_lock_server_check(struct rb_run *r, uint64_t count)
{
	struct rb_lock_layout l;
	const struct rb_lock_algo *algo;

	if (r->pt.lock >= RB_LOCK_ALGO_COUNT) /* the point's --lock */
		return -EINVAL;
	algo = &rb_lock_algos[r->pt.lock];
	rb_lock_layout(r->p, 1, &l);
	return check_memory(&l, algo, rb_rx_of(r, 0), count, "server");
}
