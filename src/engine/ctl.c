// SPDX-License-Identifier: MIT
/*
 * The control channel over the out-of-band TCP connection: SYNC, RESULT,
 * BYE and ERROR messages (wire.h) with the connection's deadlines (oob.c).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "core/clock.h"
#include "engine/ctl.h"

/* Every message a point exchanges fits; the server's barrier reads any. */
static __thread uint8_t body[RB_WIRE_MAX_BODY];

static struct rb_oob *oob_of(struct rb_ctl *c)
{
	return c->priv;
}

static int send_sync(struct rb_ctl *c, uint32_t point, uint32_t what, uint64_t count)
{
	struct rb_msg_sync m = { .point = point, .what = what, .count = count };
	uint8_t b[64];
	int len = rb_pack_sync(&m, b, sizeof(b));

	return len < 0 ? len : rb_oob_send(oob_of(c), RB_MSG_SYNC, b, (uint32_t)len);
}

/* The next message must be SYNC @what for @point. */
static int expect_sync(struct rb_ctl *c, uint32_t point, uint32_t what)
{
	struct rb_msg_sync m;
	uint32_t len;
	int ret = rb_oob_expect(oob_of(c), RB_MSG_SYNC, body, sizeof(body), &len);

	if (ret)
		return ret;
	if (rb_unpack_sync(body, len, &m) || m.point != point || m.what != what) {
		rb_err("peer %s is out of step at point %u", c->peer, point);
		return -EPROTO;
	}
	return 0;
}

/*
 * The next message of a barrier that ends at @until (ns; 0: only the
 * message's own --timeout): the wait, and the frame itself, end by then.
 */
static int barrier_recv(struct rb_ctl *c, uint32_t point, uint64_t until, uint16_t *type,
			uint32_t *len)
{
	struct rb_oob *o = oob_of(c);
	int keep = o->timeout_ms, left, ret;
	struct pollfd p = { .fd = o->fd, .events = POLLIN };
	uint64_t now = rb_now_ns();

	left = !until ? keep : now >= until ? 0 : (int)((until - now + 999999) / 1000000);
	if (left < keep && poll(&p, 1, left) <= 0) {
		if (rb_interrupted)
			return -EINTR;
		rb_err("client %s: a --threads run that kept point %u waiting for its other "
		       "threads over %u s (--timeout), saying it was alive: its slot is freed",
		       c->peer, point, (unsigned)(c->alive_ns / 1000000000ULL));
		return -ETIMEDOUT;
	}
	o->timeout_ms = left < keep ? (left > 0 ? left : 1) : keep;
	ret = rb_oob_recv(o, type, body, sizeof(body), len);
	o->timeout_ms = keep;
	return ret;
}

/*
 * Server: the client's START for @point, its BYE (1), or why it gave up.
 * Before either, a client of a --threads run that waits for its other
 * threads says it is alive (SYNC ALIVE for @point, v5): each resets the
 * --timeout wait.  Point 0's wait, for threads that have not all come,
 * ends @c's alive_ns after admission whatever ALIVEs arrive; a later
 * point's may be longer (a thread ending its point far behind the others:
 * --max-run-time bounds those).  Only such a client: one of a single
 * thread would hold its slot for as long as it kept saying so.
 */
static int server_barrier(struct rb_ctl *c, uint32_t point)
{
	uint64_t from = c->since_ns ? c->since_ns : rb_now_ns();
	uint64_t until = c->threads && c->alive_ns && point == 0 ? from + c->alive_ns : 0;
	char safe[RB_TEXT_MAX * 4];
	struct rb_msg_text t = { "" };
	struct rb_msg_sync m;
	uint16_t type;
	uint32_t len;
	int ret;

	do
		ret = barrier_recv(c, point, until, &type, &len);
	while (!ret && c->threads && type == RB_MSG_SYNC && !rb_unpack_sync(body, len, &m) &&
	       m.point == point && m.what == RB_SYNC_ALIVE);
	if (ret)
		return ret;
	if (type == RB_MSG_BYE)
		return RB_CTL_ENDED;
	if (type == RB_MSG_ERROR) {
		rb_unpack_text(body, len, &t);
		rb_err("client %s gave up: %s", c->peer, rb_escape(t.text, safe, sizeof(safe)));
		return -ECONNABORTED;
	}
	if (type != RB_MSG_SYNC || rb_unpack_sync(body, len, &m) || m.point != point ||
	    m.what != RB_SYNC_START) {
		rb_err("client %s sent %s out of step at point %u", c->peer, rb_msg_name(type),
		       point);
		return -EPROTO;
	}
	return send_sync(c, point, RB_SYNC_START, 0);
}

static int oob_barrier(struct rb_ctl *c, uint32_t point)
{
	int ret;

	if (c->role == RB_ROLE_SERVER)
		return server_barrier(c, point);
	ret = send_sync(c, point, RB_SYNC_START, 0);
	return ret ? ret : expect_sync(c, point, RB_SYNC_START);
}

static int oob_alive(struct rb_ctl *c, uint32_t point)
{
	return send_sync(c, point, RB_SYNC_ALIVE, 0);
}

static int oob_poll(struct rb_ctl *c, uint32_t point, int wait_ms, uint64_t *count)
{
	struct pollfd pfd = { .fd = oob_of(c)->fd, .events = POLLIN };
	struct rb_msg_sync s;
	uint32_t len;
	int ret;

	if (poll(&pfd, 1, wait_ms) <= 0)
		return RB_CTL_NOTHING;
	/* SYNC ALIVE or STOP: the client's, or with -b the server's too; an
	 * ERROR is the peer giving up (-ECONNABORTED). */
	ret = rb_oob_expect(oob_of(c), RB_MSG_SYNC, body, sizeof(body), &len);
	if (ret)
		return ret;
	if (rb_unpack_sync(body, len, &s) || s.point != point ||
	    (s.what != RB_SYNC_STOP && s.what != RB_SYNC_ALIVE)) {
		rb_err("peer %s: unexpected SYNC during point %u", c->peer, point);
		return -EPROTO;
	}
	if (s.what == RB_SYNC_ALIVE)
		return RB_CTL_ALIVE;
	*count = s.count;
	return RB_CTL_STOP;
}

static int oob_stop(struct rb_ctl *c, uint32_t point, uint64_t count)
{
	return send_sync(c, point, RB_SYNC_STOP, count);
}

/* A status is 0 or -errno: anything else is a malformed message. */
static int client_result(struct rb_ctl *c, struct rb_msg_result *m)
{
	uint32_t len, want = m->point;
	int ret = rb_oob_expect(oob_of(c), RB_MSG_RESULT, body, sizeof(body), &len);

	if (!ret && (rb_unpack_result(body, len, m) || m->point != want || m->status > 0 ||
		     m->status < -4095)) {
		rb_err("peer %s sent a malformed RESULT for point %u", c->peer, want);
		ret = -EPROTO;
	}
	return ret;
}

static int oob_result(struct rb_ctl *c, struct rb_msg_result *m)
{
	uint8_t b[256];
	int len;

	if (c->role == RB_ROLE_CLIENT)
		return client_result(c, m);
	len = rb_pack_result(m, b, sizeof(b));
	return len < 0 ? len : rb_oob_send(oob_of(c), RB_MSG_RESULT, b, (uint32_t)len);
}

static int oob_counters(struct rb_ctl *c, struct rb_counter_set *s)
{
	uint32_t len;
	int ret;

	if (c->role == RB_ROLE_SERVER) {
		ret = rb_counters_pack(s, body, sizeof(body));
		return ret < 0 ? ret : rb_oob_send(oob_of(c), RB_MSG_COUNTERS, body, (uint32_t)ret);
	}
	ret = rb_oob_expect(oob_of(c), RB_MSG_COUNTERS, body, sizeof(body), &len);
	if (!ret && rb_counters_unpack(body, len, s)) {
		rb_err("peer %s sent malformed COUNTERS", c->peer);
		ret = -EPROTO;
	}
	return ret;
}

static const struct rb_ctl_ops oob_ops = {
	.barrier = oob_barrier,
	.alive = oob_alive,
	.poll = oob_poll,
	.stop = oob_stop,
	.result = oob_result,
	.counters = oob_counters,
};

void rb_ctl_oob_init(struct rb_ctl *c, struct rb_oob *o, enum rb_role role)
{
	*c = (struct rb_ctl){ .ops = &oob_ops, .role = role, .peer = o->peer, .priv = o };
}
