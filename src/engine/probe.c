// SPDX-License-Identifier: MIT
/*
 * --probe (probe.h): a slow ping-pong on a QP of its own, beside the
 * stream.  Pure helpers first, then the verbs and the threads.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "engine/probe.h"

uint32_t rb_probe_idle_count(uint32_t rate)
{
	uint32_t n = (rate ? rate : RB_PROBE_RATE_DEFAULT) / 5;

	if (n < RB_PROBE_IDLE_MIN)
		return RB_PROBE_IDLE_MIN;
	return n > RB_PROBE_IDLE_MAX ? RB_PROBE_IDLE_MAX : n;
}

uint64_t rb_probe_period_ns(uint32_t rate)
{
	return 1000000000ULL / (rate ? rate : RB_PROBE_RATE_DEFAULT);
}

uint64_t rb_probe_next(uint64_t due, uint64_t now, uint64_t period)
{
	uint64_t next = due + period;

	return next + period < now ? now : next;
}

int rb_probe_summary(struct rb_samples *s, uint64_t k, uint64_t ns, struct rb_lat_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->n || !k || !ns)
		return -EINVAL;
	return rb_lat_summarize(s, (double)ns / (double)k, out);
}

/* ---- verbs ------------------------------------------------------------ */

static uint8_t *tx_slot(const struct rb_probe *pr)
{
	return pr->buf + RB_PROBE_DEPTH * RB_PROBE_SLOT;
}

static int post_recv(struct rb_probe *pr, uint32_t slot)
{
	struct ibv_sge sge = { (uintptr_t)(pr->buf + slot * RB_PROBE_SLOT), RB_PROBE_SLOT,
			       pr->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;
	int ret = ibv_post_recv(pr->qp, &wr, &bad);

	if (ret)
		rb_err("%s: probe QP: ibv_post_recv: %s", pr->dev->name, strerror(ret));
	return -ret;
}

/* The 8 bytes of the send slot, as one SEND (signaled: its completion frees the slot). */
static int post_send(struct rb_probe *pr)
{
	struct ibv_sge sge = { (uintptr_t)tx_slot(pr), RB_PROBE_MSG, pr->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = UINT64_MAX,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret = ibv_post_send(pr->qp, &wr, &bad);

	if (ret) {
		rb_err("%s: probe QP: ibv_post_send: %s", pr->dev->name, strerror(ret));
		return -ret;
	}
	pr->sends++;
	return 0;
}

int rb_probe_open(struct rb_probe *pr, struct rb_dev *d, bool server, uint32_t rate)
{
	size_t len = (RB_PROBE_DEPTH + 1) * RB_PROBE_SLOT;
	struct rb_qp_caps caps = { .send_wr = RB_PROBE_DEPTH, .recv_wr = RB_PROBE_DEPTH };
	int ret;

	memset(pr, 0, sizeof(*pr));
	pr->dev = d;
	pr->server = server;
	pr->cpu = -1;
	pr->rate = rate ? rate : RB_PROBE_RATE_DEFAULT;
	pr->psn = (uint32_t)(lrand48() & 0xffffff);
	pr->buf = aligned_alloc(RB_PROBE_SLOT, len);
	if (!pr->buf)
		return -ENOMEM;
	memset(pr->buf, 0, len);
	ret = rb_channel_create(d, &pr->chan);
	if (!ret)
		ret = rb_cq_create_on(d, 2 * RB_PROBE_DEPTH, pr->chan, 0, &pr->cq);
	if (!ret)
		ret = rb_qp_create(d, pr->cq, IBV_QPT_RC, &caps, &pr->qp);
	if (!ret)
		ret = rb_mr_reg(d, pr->buf, len, IBV_ACCESS_LOCAL_WRITE, &pr->mr);
	return ret;
}

void rb_probe_info(const struct rb_probe *pr, struct rb_qp_info *out)
{
	rb_qp_info(pr->dev, pr->qp, pr->psn, out);
}

int rb_probe_connect(struct rb_probe *pr, const struct rb_qp_info *remote, enum ibv_mtu mtu,
		     const struct rb_av *av)
{
	uint32_t i;
	int ret;

	ret = rb_qp_connect(pr->dev, pr->qp, 0, pr->psn, remote, mtu, 1, av);
	for (i = 0; !ret && i < RB_PROBE_DEPTH; i++)
		ret = post_recv(pr, i);
	return ret;
}

static bool stopping(struct rb_probe *pr)
{
	return __atomic_load_n(&pr->stop, __ATOMIC_ACQUIRE);
}

/* Sleep on the channel until an event, @ms at most; 0 or -errno. */
static int sleep_on_cq(struct rb_probe *pr, int ms)
{
	struct pollfd pfd = { .fd = pr->chan->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;

	if (poll(&pfd, 1, ms) < 0)
		return errno == EINTR ? 0 : -errno;
	if (ibv_get_cq_event(pr->chan, &cq, &ctx))
		return errno == EAGAIN ? 0 : -errno;
	pr->armed = false;
	if (++pr->unacked >= RB_PROBE_DEPTH) {
		ibv_ack_cq_events(pr->cq, pr->unacked);
		pr->unacked = 0;
	}
	return 0;
}

/*
 * The next completion into @wc, with its ticks in @k: 1, 0 when @until
 * (ns) passed or the probe is stopping first, or -errno.  An empty CQ is
 * armed, polled again, then slept on.
 */
static int next_wc(struct rb_probe *pr, uint64_t until, struct ibv_wc *wc, uint64_t *k)
{
	uint64_t now;
	int n, ret;

	for (;;) {
		n = ibv_poll_cq(pr->cq, 1, wc);
		*k = rb_ticks();
		if (n < 0)
			return -EIO;
		if (n && wc->status != IBV_WC_SUCCESS) {
			rb_err("%s: probe QP: %s completion failed: %s", pr->dev->name,
			       wc->wr_id == UINT64_MAX ? "SEND" : "RECV",
			       ibv_wc_status_str(wc->status));
			return -EIO;
		}
		if (n) {
			if (wc->wr_id == UINT64_MAX)
				pr->sends--;
			return 1;
		}
		if (!pr->armed) {
			if (ibv_req_notify_cq(pr->cq, 0))
				return -EIO;
			pr->armed = true;
			continue;
		}
		now = rb_now_ns();
		if (stopping(pr) || now >= until)
			return 0;
		n = (int)((until - now) / 1000000) + 1;
		ret = sleep_on_cq(pr, n < RB_PROBE_WAIT_MS ? n : RB_PROBE_WAIT_MS);
		if (ret)
			return ret;
	}
}

/* A receive's sequence number, the slot reposted. */
static int take_recv(struct rb_probe *pr, const struct ibv_wc *wc, uint64_t *seq)
{
	uint32_t slot = (uint32_t)wc->wr_id;

	if (slot >= RB_PROBE_DEPTH)
		return -EIO;
	memcpy(seq, pr->buf + slot * RB_PROBE_SLOT, sizeof(*seq));
	return post_recv(pr, slot);
}

/* Room for one send: completions taken until fewer than the depth are out. */
static int send_room(struct rb_probe *pr, uint64_t until)
{
	struct ibv_wc wc;
	uint64_t k, seq;
	int ret = 1;

	while (pr->sends >= RB_PROBE_DEPTH - 1 && ret > 0) {
		ret = next_wc(pr, until, &wc, &k);
		if (ret > 0 && wc.wr_id != UINT64_MAX)
			ret = take_recv(pr, &wc, &seq) ? -EIO : 1; /* a late echo */
	}
	return ret < 0 ? ret : pr->sends < RB_PROBE_DEPTH - 1 ? 0 : -EAGAIN;
}

/*
 * One round trip into @into (when not NULL): 0 (a late echo, or a stop
 * before it, records nothing), or -errno.
 */
static int ping(struct rb_probe *pr, struct rb_samples *into)
{
	uint64_t until = rb_now_ns() + RB_PROBE_LOST_NS, seq = ++pr->seq, got, k0, k;
	struct ibv_wc wc;
	int ret = send_room(pr, until);

	if (ret)
		return ret == -EAGAIN ? 0 : ret;
	memcpy(tx_slot(pr), &seq, sizeof(seq));
	k0 = rb_ticks();
	ret = post_send(pr);
	while (!ret) {
		ret = next_wc(pr, until, &wc, &k);
		if (ret <= 0)
			break;
		ret = wc.wr_id == UINT64_MAX ? 0 : take_recv(pr, &wc, &got);
		if (!ret && wc.wr_id != UINT64_MAX && got == seq) {
			pr->lost_run = 0;
			return into ? rb_samples_push(into, k - k0) : 0;
		}
	}
	if (ret || stopping(pr))
		return ret < 0 ? ret : 0;
	if (!pr->lost++)
		rb_warn("%s: a probe's echo took over %llu ms: counted lost", pr->dev->name,
			RB_PROBE_LOST_NS / 1000000);
	if (++pr->lost_run < RB_PROBE_LOST_MAX)
		return 0;
	rb_err("%s: --probe: %d echoes in a row lost: is the peer's probe gone?", pr->dev->name,
	       RB_PROBE_LOST_MAX);
	return -ETIMEDOUT;
}

/* Sleep until @t (ns), waking every RB_PROBE_WAIT_MS to see a stop. */
static void sleep_until(struct rb_probe *pr, uint64_t t)
{
	uint64_t now, d;
	struct timespec ts;

	while (!stopping(pr) && (now = rb_now_ns()) < t) {
		d = t - now;
		if (d > RB_PROBE_WAIT_MS * 1000000ULL)
			d = RB_PROBE_WAIT_MS * 1000000ULL;
		ts.tv_sec = (time_t)(d / 1000000000ULL);
		ts.tv_nsec = (long)(d % 1000000000ULL);
		nanosleep(&ts, NULL);
	}
}

/* Pings at the rate into @into: @n of them, or until stopped (@n 0). */
static int pings(struct rb_probe *pr, struct rb_samples *into, uint32_t n, uint64_t k[2],
		 uint64_t t[2])
{
	uint64_t period = rb_probe_period_ns(pr->rate), due = rb_now_ns();
	uint32_t i;
	int ret = 0;

	k[0] = rb_ticks();
	t[0] = rb_now_ns();
	for (i = 0; !ret && (!n || i < n) && !stopping(pr); i++) {
		sleep_until(pr, due);
		ret = ping(pr, into);
		due = rb_probe_next(due, rb_now_ns(), period);
	}
	k[1] = rb_ticks();
	t[1] = rb_now_ns();
	return ret;
}

static int idle_pings(struct rb_probe *pr)
{
	int ret;

	/* One ping unsampled: the first after connecting may find the peer's
	 * QP not yet ready and wait for a retry. */
	ret = ping(pr, NULL);
	if (!ret)
		ret = pings(pr, &pr->idle, rb_probe_idle_count(pr->rate), pr->idle_k, pr->idle_t);
	return ret;
}

/* The server's echo: each ping's 8 bytes sent back, until stopped. */
static int echo(struct rb_probe *pr)
{
	struct ibv_wc wc;
	uint64_t k, seq;
	int ret = 0;

	while (!ret && !stopping(pr)) {
		ret = next_wc(pr, rb_now_ns() + 100000000ULL, &wc, &k);
		if (ret <= 0 || wc.wr_id == UINT64_MAX) {
			ret = ret < 0 ? ret : 0; /* nothing, or an echo's send done */
			continue;
		}
		ret = take_recv(pr, &wc, &seq);
		if (!ret && pr->sends < RB_PROBE_DEPTH - 1) {
			memcpy(tx_slot(pr), &seq, sizeof(seq));
			ret = post_send(pr);
		}
	}
	return ret < 0 ? ret : 0;
}

static void *probe_thread(void *arg)
{
	struct rb_probe *pr = arg;

	if (pr->server)
		pr->status = echo(pr);
	else if (pr->idle_phase)
		pr->status = idle_pings(pr);
	else
		pr->status = pings(pr, &pr->loaded, 0, pr->load_k, pr->load_t);
	return NULL;
}

/* The probe's thread for a phase, on its CPU (pr->cpu) when it has one. */
static int thread_start(struct rb_probe *pr, bool idle)
{
	pthread_attr_t attr;
	sigset_t all, old;
	cpu_set_t set;
	int ret;

	__atomic_store_n(&pr->stop, 0, __ATOMIC_RELEASE);
	pr->status = 0;
	pr->idle_phase = idle;
	ret = pthread_attr_init(&attr);
	if (!ret && pr->cpu >= 0 && pr->cpu < CPU_SETSIZE) {
		CPU_ZERO(&set);
		CPU_SET(pr->cpu, &set);
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	/* Signals (^C, -D 0's stop) stay the measuring thread's: the probe's
	 * starts with all of them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!ret)
		ret = pthread_create(&pr->th, &attr, probe_thread, pr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret) {
		rb_err("probe thread%s: %s", pr->cpu >= 0 ? " on its CPU" : "", strerror(ret));
		return -ret;
	}
	pr->running = true;
	return 0;
}

int rb_probe_idle(struct rb_probe *pr)
{
	int ret;

	rb_samples_reset(&pr->idle);
	/* On the probe's CPU, as the loaded phase: the two compare. */
	ret = thread_start(pr, true);
	if (ret)
		return ret;
	pthread_join(pr->th, NULL);
	pr->running = false;
	return pr->status;
}

int rb_probe_start(struct rb_probe *pr)
{
	if (!pr->server)
		rb_samples_reset(&pr->loaded);
	return thread_start(pr, false);
}

int rb_probe_stop(struct rb_probe *pr)
{
	if (!pr->running)
		return 0;
	__atomic_store_n(&pr->stop, 1, __ATOMIC_RELEASE);
	pthread_join(pr->th, NULL);
	pr->running = false;
	/* The next point's idle phase runs on this thread: not stopped. */
	__atomic_store_n(&pr->stop, 0, __ATOMIC_RELEASE);
	return pr->status;
}

void rb_probe_result(struct rb_probe *pr, struct rb_result *res)
{
	int a, b;

	res->probe_idle_n = pr->idle.n;
	res->probe_loaded_n = pr->loaded.n;
	a = rb_probe_summary(&pr->idle, pr->idle_k[1] - pr->idle_k[0],
			     pr->idle_t[1] - pr->idle_t[0], &res->probe_idle);
	b = rb_probe_summary(&pr->loaded, pr->load_k[1] - pr->load_k[0],
			     pr->load_t[1] - pr->load_t[0], &res->probe_loaded);
	/* Both phases or neither: a point too short for one loaded round
	 * trip has no figure (rather than a loaded one of 0). */
	res->has_probe = !a && !b;
	if (!res->has_probe)
		rb_warn("--probe: no %s round trip in this point (a stream shorter than one "
			"probe)",
			a ? "idle" : "loaded");
	rb_samples_reset(&pr->idle);
	rb_samples_reset(&pr->loaded);
}

void rb_probe_close(struct rb_probe *pr)
{
	struct rb_res res = { &pr->qp, 1, NULL, pr->cq, &pr->mr, 1, pr->chan };

	if (!pr->dev)
		return;
	rb_probe_stop(pr);
	if (pr->unacked)
		ibv_ack_cq_events(pr->cq, pr->unacked);
	pr->unacked = 0;
	rb_resources_close(pr->dev, &res);
	free(pr->buf);
	rb_samples_free(&pr->idle);
	rb_samples_free(&pr->loaded);
	memset(pr, 0, sizeof(*pr));
}
