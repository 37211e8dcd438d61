// SPDX-License-Identifier: MIT
/*
 * The loops of the socket tests (tcp_lat, tcp_bw) over r->c.data_fd, a TCP
 * connection of their own beside the control channel: the same marks,
 * samples, STOP and timeout as the verbs loops.  Every call blocks for a
 * slice at most (SO_RCVTIMEO and SO_SNDTIMEO, set by the session), after
 * which the loop looks at ^C, the peer and the timeout.
 */
#include <errno.h>
#include <linux/sockios.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "engine/loop.h"
#include "engine/sock.h"

/* The session's SO_RCVTIMEO/SO_SNDTIMEO, and -b's poll(): a look around this often. */
#define SOCK_SLICE_MS 10

/* What the peer said on the control channel: every message waiting. */
static int peer_news(struct rb_run *r)
{
	uint64_t count = 0;
	int ret;

	while (!r->stopped) {
		ret = r->ctl->ops->poll(r->ctl, r->point, 0, &count);
		if (ret <= RB_CTL_NOTHING)
			return ret;
		r->hb.heard = rb_now_ns();
		if (ret == RB_CTL_STOP) {
			r->stopped = true;
			r->stop_count = count;
		}
	}
	return 0;
}

static void touch(struct rb_run *r, uint64_t now)
{
	if (r->threads.progress_ns)
		__atomic_store_n(r->threads.progress_ns, now, __ATOMIC_RELAXED);
}

/*
 * A call that moved nothing for a slice: ^C, another thread's failure,
 * the peer's news, and the timeout since *@since (0: the first such
 * slice) ended the wait for @what.
 */
static int sock_idle(struct rb_run *r, uint64_t *since, const char *what)
{
	uint64_t now = rb_now_ns();
	int ret;

	if (rb_interrupted)
		return -EINTR;
	if (rb_run_canceled(r))
		return -ECANCELED;
	ret = peer_news(r);
	if (ret)
		return ret;
	touch(r, now);
	if (!*since) {
		*since = now;
	} else if (now - *since > r->timeout_ns) {
		rb_err("%s point %u: nothing moved for %llu s waiting for %s (--timeout)",
		       r->bench->name, r->point,
		       (unsigned long long)(r->timeout_ns / 1000000000ULL), what);
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * A failed call on the data connection: logged; -errno.  A connection the
 * peer closed (@err 0) is, most often, a peer that gave up and said why on
 * the control channel just before: that is the message, when it came.
 */
static int sock_failed(struct rb_run *r, const char *call, int err)
{
	uint64_t count = 0;
	int ret;

	if (!err) {
		ret = r->ctl->ops->poll(r->ctl, r->point, 200, &count);
		if (ret < 0)
			return ret;
	}
	rb_err("%s point %u: %s on the data connection: %s", r->bench->name, r->point, call,
	       err ? strerror(err) : "the peer closed it");
	return err ? -err : -ECONNRESET;
}

static bool transient(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

static int send_full(struct rb_run *r, const uint8_t *buf, size_t len)
{
	uint64_t since = 0;
	size_t done = 0;
	ssize_t n;
	int ret;

	while (done < len) {
		n = send(r->c.data_fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n > 0) {
			done += (size_t)n;
			since = 0;
			continue;
		}
		if (n < 0 && !transient(errno))
			return sock_failed(r, "send", errno);
		ret = sock_idle(r, &since, "room to send");
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Receive @len bytes.  With @stoppable (the server's wait for a ping),
 * RB_WAIT_STOPPED when the client has stopped and every ping it sent was
 * received, before any byte of another came.
 */
static int recv_full(struct rb_run *r, uint8_t *buf, size_t len, bool stoppable)
{
	uint64_t since = 0;
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		n = recv(r->c.data_fd, buf + got, len - got, 0);
		/* ^C or the server's --max-run-time while data flows, not only
		 * when it stalls: a busy loop never idles. */
		if (n > 0 && rb_interrupted)
			return -EINTR;
		if (n > 0) {
			got += (size_t)n;
			since = 0;
			continue;
		}
		if (!n || !transient(errno))
			return sock_failed(r, "recv", n ? errno : 0);
		ret = sock_idle(r, &since, "the peer's data");
		if (ret)
			return ret;
		if (stoppable && !got && r->stopped && r->rx_count >= r->stop_count)
			return RB_WAIT_STOPPED;
	}
	return 0;
}

/* The client's pings: each a round trip of -s bytes each way, timed. */
static int pingpong_client(struct rb_run *r)
{
	const uint64_t warmup = r->pt.warmup, end = r->p->iters ? warmup + r->p->iters : 0;
	const uint64_t gap = rb_gap_ns(r);
	const size_t len = r->pt.size;
	uint64_t it, t;
	int ret = 0;

	for (it = 0; end ? it < end : it < warmup || !rb_duration_over(r, it); it++) {
		if (it == warmup)
			rb_mark_start(r);
		t = rb_ticks();
		if (gap)
			t = gap_wait(gap);
		ret = send_full(r, rb_tx(r), len);
		if (!ret)
			ret = recv_full(r, rb_rx(r), len, false);
		if (!ret && it >= warmup)
			ret = lat_sample(r, t);
		if (ret)
			break;
		if (!(it & 1023))
			touch(r, rb_now_ns());
	}
	r->total = it;
	if (ret)
		return ret;
	rb_mark_end(r);
	r->ops = it > warmup ? it - warmup : 0;
	return 0;
}

/*
 * The server echoes each ping.  As the verbs ping-pong's server, it times
 * the round trips it sees, from one echo to the next ping, and ends when
 * the client's STOP is in and every ping it counted was echoed.
 */
static int pingpong_server(struct rb_run *r)
{
	const uint64_t start = r->pt.warmup ? r->pt.warmup - 1 : 0;
	const size_t len = r->pt.size;
	uint64_t it, t = 0, now;
	int ret;

	for (it = 0;; it++) {
		ret = recv_full(r, rb_rx(r), len, true);
		if (ret == RB_WAIT_STOPPED)
			break;
		now = rb_ticks();
		if (!ret && it > start)
			ret = rb_samples_push(&r->lat, now - t);
		if (ret)
			return ret;
		if (it == start)
			rb_mark_start(r);
		t = now;
		r->rx_count++;
		ret = send_full(r, rb_tx(r), len);
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	r->k_last = t;
	rb_end_at_last(r);
	r->total = it;
	r->ops = r->lat.n;
	return 0;
}

int rb_run_tcp_pingpong(struct rb_run *r)
{
	r->rx_count = 0;
	return r->role == RB_ROLE_SERVER ? pingpong_server(r) : pingpong_client(r);
}

/*
 * A send returns once the kernel holds the bytes: the stream ends when the
 * peer has acknowledged every one (SIOCOUTQ: bytes not yet acknowledged),
 * so that the client's interval is the wire's and not its socket buffer's.
 */
static int drain(struct rb_run *r)
{
	uint64_t since = 0, next = rb_now_ns() + 10000000ULL;
	int left = 0, ret;

	while (!ioctl(r->c.data_fd, SIOCOUTQ, &left) && left > 0) {
		usleep(20);
		if (rb_now_ns() < next)
			continue;
		next = rb_now_ns() + 10000000ULL;
		ret = sock_idle(r, &since, "the peer to acknowledge the stream");
		if (ret)
			return ret;
	}
	return 0;
}

/* The client streams -s byte messages for -n or -D. */
static int stream_client(struct rb_run *r)
{
	const uint64_t warmup = r->pt.warmup, end = r->p->iters ? warmup + r->p->iters : 0;
	const size_t len = r->pt.size;
	uint64_t it, k;
	int ret = 0;

	for (it = 0; end ? it < end : it < warmup || !rb_duration_over(r, it); it++) {
		if (it == warmup) {
			rb_mark_start(r);
			rb_bw_window_init(&r->win, r->k0, 0);
		}
		ret = send_full(r, rb_tx(r), len);
		if (ret)
			break;
		if (it < warmup || (it + 1 - warmup) & 63)
			continue;
		k = rb_ticks();
		rb_bw_window_mark(&r->win, k, (it + 1 - warmup) * len);
		ret = rb_iv_tick(r, k, it + 1 - warmup);
		if (ret)
			break;
		if (!((it + 1 - warmup) & 1023))
			touch(r, rb_now_ns());
	}
	r->total = it;
	if (!ret)
		ret = drain(r);
	/* ^C: the point is cut where it stopped (rb_run_cut()), with what was sent. */
	if (ret && ret != -EINTR)
		return ret;
	rb_mark_end(r);
	r->ops = it > warmup ? it - warmup : 0;
	return ret;
}

/*
 * The server reads whatever arrived and counts it in messages of -s
 * bytes; its interval runs from the end of the warm-up's bytes to the
 * last byte, and the stream is over when the client's STOP is in and
 * every byte it counted has arrived.
 */
static int stream_server(struct rb_run *r)
{
	const uint64_t len = r->pt.size, warm = r->pt.warmup * len;
	uint64_t bytes = 0, since = 0;
	ssize_t n;
	int ret;

	r->k_last = 0;
	if (!warm)
		rb_mark_start(r);
	while (!r->stopped || bytes < r->stop_count * len) {
		n = recv(r->c.data_fd, r->c.buf, r->c.data_len, 0);
		if (n > 0) {
			if (bytes < warm && bytes + (uint64_t)n >= warm)
				rb_mark_start(r);
			bytes += (uint64_t)n;
			r->k_last = rb_ticks();
			since = 0;
			continue;
		}
		if (!n || !transient(errno))
			return sock_failed(r, "recv", n ? errno : 0);
		ret = sock_idle(r, &since, "the client's stream");
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	rb_end_at_last(r);
	r->total = bytes / len;
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	return 0;
}

/* -b: what one side of a two-way stream is doing with its own messages. */
enum { BI_SENDING, BI_DRAINING, BI_DONE };

struct bidir {
	uint64_t it, off; /* messages sent, bytes of the next one sent */
	uint64_t got;	  /* bytes received from the peer */
	uint64_t since;	  /* idle since (sock_idle()) */
	uint64_t next_look;
	int state;
};

/* This side's stream is over: -n sent, or -D passed (read every 64 messages). */
static bool bi_ended(struct rb_run *r, uint64_t it)
{
	if (r->p->iters)
		return it >= r->pt.warmup + r->p->iters;
	return it >= r->pt.warmup && rb_duration_over(r, it);
}

/* Send what the socket takes of the current message; a whole one counts. */
static int bi_send(struct rb_run *r, struct bidir *b)
{
	const size_t len = r->pt.size;
	ssize_t n =
		send(r->c.data_fd, rb_tx(r) + b->off, len - b->off, MSG_DONTWAIT | MSG_NOSIGNAL);

	if (n < 0)
		return transient(errno) ? 0 : sock_failed(r, "send", errno);
	b->since = 0;
	b->off += (uint64_t)n;
	if (b->off < len)
		return 0;
	b->off = 0;
	if (++b->it == r->pt.warmup) {
		rb_mark_start(r);
		rb_bw_window_init(&r->win, r->k0, 0);
	} else if (b->it > r->pt.warmup && !((b->it - r->pt.warmup) & 63)) {
		rb_bw_window_mark(&r->win, rb_ticks(), (b->it - r->pt.warmup) * len);
	}
	if (bi_ended(r, b->it))
		b->state = BI_DRAINING;
	return 0;
}

static int bi_recv(struct rb_run *r, struct bidir *b)
{
	ssize_t n = recv(r->c.data_fd, rb_rx(r), r->c.region, MSG_DONTWAIT);

	if (n < 0)
		return transient(errno) ? 0 : sock_failed(r, "recv", errno);
	if (!n)
		return sock_failed(r, "recv", 0);
	b->got += (uint64_t)n;
	b->since = 0;
	return 0;
}

/* Draining: once the peer acknowledged every byte, this side's point ends: STOP. */
static int bi_drained(struct rb_run *r, struct bidir *b)
{
	int left = 0, ret;

	if (ioctl(r->c.data_fd, SIOCOUTQ, &left) || left > 0)
		return 0;
	rb_mark_end(r);
	r->total = b->it;
	r->ops = b->it > r->pt.warmup ? b->it - r->pt.warmup : 0;
	ret = r->ctl->ops->stop(r->ctl, r->point, r->total);
	r->stop_sent = !ret;
	b->state = BI_DONE;
	return ret;
}

/*
 * -b: both sides send their -n (or -D) messages and read the peer's at
 * once, on the one connection, without blocking.  Each side's interval
 * ends when the peer acknowledged its last byte; it then sends STOP with
 * its count, and reads on until the peer's STOP and every byte it counted
 * are in.
 */
static int stream_bidir(struct rb_run *r)
{
	struct pollfd p = { .fd = r->c.data_fd };
	struct bidir b = { .state = BI_SENDING };
	uint64_t now;
	int n, ret = 0;

	if (!r->pt.warmup) {
		rb_mark_start(r);
		rb_bw_window_init(&r->win, r->k0, 0);
	}
	while (!ret && (b.state != BI_DONE || !r->stopped || b.got < r->stop_count * r->pt.size)) {
		p.events = POLLIN | (b.state == BI_SENDING ? POLLOUT : 0);
		n = poll(&p, 1, b.state == BI_DRAINING ? 1 : SOCK_SLICE_MS);
		if (n < 0 && errno != EINTR)
			return sock_failed(r, "poll", errno);
		if (n > 0 && p.revents & (POLLIN | POLLHUP | POLLERR))
			ret = bi_recv(r, &b);
		if (!ret && n > 0 && p.revents & POLLOUT)
			ret = bi_send(r, &b);
		if (!ret && b.state == BI_DRAINING)
			ret = bi_drained(r, &b);
		if (ret || (n > 0 && b.state != BI_DRAINING))
			continue;
		/* Nothing moved for a while: ^C, the peer's news, the timeout. */
		now = rb_now_ns();
		if (now >= b.next_look) {
			b.next_look = now + SOCK_SLICE_MS * 1000000ULL;
			ret = sock_idle(r, &b.since, "the peer's stream");
		}
	}
	return ret;
}

int rb_run_tcp_stream(struct rb_run *r)
{
	if (r->bidir)
		return stream_bidir(r);
	return r->role == RB_ROLE_SERVER ? stream_server(r) : stream_client(r);
}

/* For another loop on the data connection (sock.h: tcp_lock's). */
int rb_sock_send(struct rb_run *r, const uint8_t *buf, size_t len)
{
	return send_full(r, buf, len);
}

int rb_sock_idle(struct rb_run *r, uint64_t *since, const char *what)
{
	return sock_idle(r, since, what);
}

int rb_sock_failed(struct rb_run *r, const char *call, int err)
{
	return sock_failed(r, call, err);
}
