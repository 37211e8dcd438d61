// SPDX-License-Identifier: MIT
/*
 * tcp_lock (tcplock.h): the lock server's FIFO queues, its loop, and the
 * client's contenders on the one data connection, through lock's state
 * machine states and figures (struct rb_lock_run).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/clock.h"
#include "core/sweep.h"
#include "engine/loop.h"
#include "engine/sock.h"
#include "engine/tcplock.h"

/* A look at ^C, the peer and --timeout this often while the client spins. */
#define LOOK_NS 10000000ULL

static const char *const type_names[RB_TLK_TYPES] = {
	[RB_TLK_ACQUIRE] = "ACQUIRE",	[RB_TLK_GRANT] = "GRANT",     [RB_TLK_RELEASE] = "RELEASE",
	[RB_TLK_RELEASED] = "RELEASED", [RB_TLK_READ] = "READ",	      [RB_TLK_DATA] = "DATA",
	[RB_TLK_WRITE] = "WRITE",	[RB_TLK_WRITTEN] = "WRITTEN", [RB_TLK_STATE] = "STATE",
	[RB_TLK_STATE_IS] = "STATE_IS",
};

static const char *type_name(uint8_t t)
{
	return t < RB_TLK_TYPES && type_names[t] ? type_names[t] : "an unknown message";
}

void rb_tlk_pack(const struct rb_tlk_msg *m, uint8_t *b)
{
	uint16_t who = htobe16(m->who);
	uint32_t lock = htobe32(m->lock);
	uint64_t v = htobe64(m->value);

	b[0] = m->type;
	b[1] = m->flags;
	memcpy(b + 2, &who, 2);
	memcpy(b + 4, &lock, 4);
	memcpy(b + 8, &v, 8);
}

void rb_tlk_unpack(const uint8_t *b, struct rb_tlk_msg *m)
{
	uint16_t who;
	uint32_t lock;
	uint64_t v;

	memcpy(&who, b + 2, 2);
	memcpy(&lock, b + 4, 4);
	memcpy(&v, b + 8, 8);
	m->type = b[0];
	m->flags = b[1];
	m->who = be16toh(who);
	m->lock = be32toh(lock);
	m->value = be64toh(v);
}

bool rb_tlk_has_data(uint8_t type)
{
	return type == RB_TLK_DATA || type == RB_TLK_WRITE;
}

/* The big-endian counter at the head of a lock's data. */
static uint64_t counter_of(const uint8_t *d)
{
	uint64_t v;

	memcpy(&v, d, 8);
	return be64toh(v);
}

static void counter_put(uint8_t *d, uint64_t c)
{
	uint64_t v = htobe64(c);

	memcpy(d, &v, 8);
}

/* ---- The server ---- */

int rb_tlk_srv_init(struct rb_tlk_srv *s, const struct rb_params *p, uint8_t *data)
{
	uint64_t n = rb_axis_max(&p->qps);

	memset(s, 0, sizeof(*s));
	rb_lock_layout(p, 1, &s->l);
	s->n = (uint32_t)(n ? n : 1);
	s->dlen = rb_lock_data_len(p);
	s->data = data;
	s->owner = calloc(s->l.locks, sizeof(uint32_t));
	s->head = calloc(s->l.locks, sizeof(uint32_t));
	s->tail = calloc(s->l.locks, sizeof(uint32_t));
	s->at = calloc(s->n, sizeof(uint32_t));
	s->next = calloc(s->n, sizeof(uint32_t));
	if (s->owner && s->head && s->tail && s->at && s->next)
		return 0;
	rb_err("tcp_lock server: no memory for %u locks and %u contenders", s->l.locks, s->n);
	rb_tlk_srv_free(s);
	return -ENOMEM;
}

void rb_tlk_srv_free(struct rb_tlk_srv *s)
{
	free(s->owner);
	free(s->head);
	free(s->tail);
	free(s->at);
	free(s->next);
	s->owner = s->head = s->tail = s->at = s->next = NULL;
}

static uint8_t *srv_data(const struct rb_tlk_srv *s, uint32_t k)
{
	return s->data + s->l.data_off + (uint64_t)k * s->l.stride;
}

static int reply(rb_tlk_out_fn *out, void *arg, uint8_t type, uint32_t who, uint32_t k,
		 uint64_t value, uint8_t flags, const uint8_t *data)
{
	struct rb_tlk_msg m = {
		.type = type, .flags = flags, .who = (uint16_t)who, .lock = k, .value = value
	};

	return out(arg, &m, data);
}

static int grant(struct rb_tlk_srv *s, uint32_t c, uint32_t k, rb_tlk_out_fn *out, void *arg)
{
	s->owner[k] = c + 1;
	s->grants++;
	return reply(out, arg, RB_TLK_GRANT, c, k, 0, 0, NULL);
}

/* RELEASE: RELEASED to the holder, then the lock to the first waiter, if any. */
static int srv_release(struct rb_tlk_srv *s, uint32_t c, uint32_t k, rb_tlk_out_fn *out, void *arg)
{
	uint32_t w;
	int ret;

	s->owner[k] = 0;
	s->at[c] = 0;
	ret = reply(out, arg, RB_TLK_RELEASED, c, k, 0, 0, NULL);
	if (ret || !s->head[k])
		return ret;
	w = s->head[k] - 1;
	s->head[k] = s->next[w];
	if (!s->head[k])
		s->tail[k] = 0;
	s->next[w] = 0;
	return grant(s, w, k, out, arg);
}

/* ACQUIRE: the lock at once when free, else the end of its queue. */
static int srv_acquire(struct rb_tlk_srv *s, uint32_t c, uint32_t k, rb_tlk_out_fn *out, void *arg)
{
	s->at[c] = k + 1;
	if (!s->owner[k])
		return grant(s, c, k, out, arg);
	s->next[c] = 0;
	if (s->tail[k])
		s->next[s->tail[k] - 1] = c + 1;
	else
		s->head[k] = c + 1;
	s->tail[k] = c + 1;
	return 0;
}

/* Why request @m is refused, or NULL. */
static const char *refused(const struct rb_tlk_srv *s, const struct rb_tlk_msg *m)
{
	if (m->who >= s->n)
		return "from a contender beyond the plan's -q";
	if (m->lock >= s->l.locks)
		return "for a lock beyond --locks";
	switch (m->type) {
	case RB_TLK_ACQUIRE:
		return s->at[m->who] ? "from a contender that already waits for or holds a lock"
				     : NULL;
	case RB_TLK_RELEASE:
	case RB_TLK_READ:
	case RB_TLK_WRITE:
		return s->owner[m->lock] != (uint32_t)m->who + 1 ? "from a contender not holding it"
								 : NULL;
	case RB_TLK_STATE:
		return NULL;
	default:
		return "that is no request";
	}
}

int rb_tlk_srv_handle(struct rb_tlk_srv *s, const struct rb_tlk_msg *m, const uint8_t *data,
		      rb_tlk_out_fn *out, void *arg)
{
	const char *why = refused(s, m);
	uint32_t k = m->lock, c = m->who;

	if (why) {
		rb_err("tcp_lock server: %s (contender %u, lock %u) %s: the client breaks the "
		       "lock protocol",
		       type_name(m->type), c, k, why);
		return -EPROTO;
	}
	switch (m->type) {
	case RB_TLK_ACQUIRE:
		return srv_acquire(s, c, k, out, arg);
	case RB_TLK_RELEASE:
		return srv_release(s, c, k, out, arg);
	case RB_TLK_READ:
		return reply(out, arg, RB_TLK_DATA, c, k, 0, 0, srv_data(s, k));
	case RB_TLK_WRITE:
		memcpy(srv_data(s, k), data, s->dlen);
		return reply(out, arg, RB_TLK_WRITTEN, c, k, 0, 0, NULL);
	default: /* RB_TLK_STATE */
		return reply(out, arg, RB_TLK_STATE_IS, c, k, counter_of(srv_data(s, k)),
			     !s->owner[k] && !s->head[k], NULL);
	}
}

int rb_tlk_srv_check(const struct rb_tlk_srv *s, uint64_t count)
{
	uint64_t sum = 0;
	uint32_t k;

	for (k = 0; k < s->l.locks; k++) {
		if (s->owner[k] || s->head[k]) {
			rb_err("verify: tcp_lock, server: lock %u is still held after the point "
			       "(by contender %u%s): a release was lost",
			       k, s->owner[k] ? s->owner[k] - 1 : 0,
			       s->head[k] ? ", with waiters" : "");
			return -EILSEQ;
		}
		sum += counter_of(srv_data(s, k));
	}
	if (sum == count)
		return 0;
	rb_err("verify: tcp_lock, server: the counters under the locks add up to %" PRIu64
	       " after %" PRIu64 " acquisitions: mutual exclusion is broken",
	       sum, count);
	return -EILSEQ;
}

/* ---- Byte buffers of either side ---- */

struct tlk_buf {
	uint8_t *b;
	size_t off, len, cap; /* out: sent up to off; in: parsed up to off */
};

static int buf_room(struct tlk_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *nb;

	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	nb = realloc(b->b, cap);
	if (!nb) {
		rb_err("tcp_lock: no memory for %zu bytes of messages", cap);
		return -ENOMEM;
	}
	b->b = nb;
	b->cap = cap;
	return 0;
}

/* Append a message (@data: dlen bytes when the type carries data). */
static int buf_push(struct tlk_buf *b, const struct rb_tlk_msg *m, const uint8_t *data,
		    uint32_t dlen)
{
	size_t n = RB_TLK_HDR + (rb_tlk_has_data(m->type) ? dlen : 0);
	int ret = buf_room(b, n);

	if (ret)
		return ret;
	rb_tlk_pack(m, b->b + b->len);
	if (n > RB_TLK_HDR && data) /* a type with data is never pushed without */
		memcpy(b->b + b->len + RB_TLK_HDR, data, dlen);
	b->len += n;
	return 0;
}

static bool transient(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/*
 * Read what the data connection has into @in (blocking a slice unless
 * @nowait): > 0 bytes came, 0 none, or -errno (logged).
 */
static int buf_recv(struct rb_run *r, struct tlk_buf *in, uint32_t dlen, bool nowait)
{
	ssize_t n;
	int ret = 0;

	if (in->off) { /* what was parsed goes */
		memmove(in->b, in->b + in->off, in->len - in->off);
		in->len -= in->off;
		in->off = 0;
	}
	if (in->cap - in->len < RB_TLK_HDR + dlen)
		ret = buf_room(in, in->cap ? in->cap : 65536 + 2 * (RB_TLK_HDR + (size_t)dlen));
	if (ret)
		return ret;
	n = recv(r->c.data_fd, in->b + in->len, in->cap - in->len, nowait ? MSG_DONTWAIT : 0);
	if (n > 0) {
		in->len += (size_t)n;
		return 1;
	}
	if (!n || !transient(errno))
		return rb_sock_failed(r, "recv", n ? errno : 0);
	return 0;
}

/* The next whole message of @in, or false. */
static bool buf_next(struct tlk_buf *in, uint32_t dlen, struct rb_tlk_msg *m, const uint8_t **data)
{
	size_t need;

	if (in->len - in->off < RB_TLK_HDR)
		return false;
	rb_tlk_unpack(in->b + in->off, m);
	need = RB_TLK_HDR + (rb_tlk_has_data(m->type) ? dlen : 0);
	if (in->len - in->off < need)
		return false;
	*data = in->b + in->off + RB_TLK_HDR;
	in->off += need;
	return true;
}

/* ---- The server's loop ---- */

struct tlk_srv_run {
	struct rb_run *r;
	struct rb_tlk_srv s;
	struct tlk_buf in, out;
};

static int srv_out(void *arg, const struct rb_tlk_msg *m, const uint8_t *data)
{
	struct tlk_srv_run *t = arg;

	return buf_push(&t->out, m, data, t->s.dlen);
}

/* The requests that came, handled in order; their replies in one send. */
static int srv_serve(struct tlk_srv_run *t)
{
	struct rb_tlk_msg m;
	const uint8_t *data;
	int ret = 0;

	while (!ret && buf_next(&t->in, t->s.dlen, &m, &data))
		ret = rb_tlk_srv_handle(&t->s, &m, data, srv_out, t);
	if (!ret && t->out.len)
		ret = rb_sock_send(t->r, t->out.b, t->out.len);
	t->out.len = 0;
	return ret;
}

/*
 * The server serves until the client's STOP is in and no request is
 * left: the client sends STOP once every reply it waited for came.
 */
static int srv_loop(struct tlk_srv_run *t)
{
	struct rb_run *r = t->r;
	uint64_t since = 0;
	int ret;

	rb_mark_start(r);
	for (;;) {
		ret = buf_recv(r, &t->in, t->s.dlen, false);
		if (ret > 0 && rb_interrupted)
			return -EINTR;
		if (ret > 0) {
			since = 0;
			ret = srv_serve(t);
		} else if (!ret) {
			ret = rb_sock_idle(r, &since, "the client's lock requests");
			if (!ret && r->stopped && t->in.len == t->in.off)
				break;
		}
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	return 0;
}

static int srv_run(struct rb_run *r)
{
	struct tlk_srv_run t = { .r = r };
	int ret = rb_tlk_srv_init(&t.s, r->p, rb_rx_of(r, 0));

	if (!ret)
		ret = srv_loop(&t);
	/* The client's acquisitions, as its STOP counted them. */
	r->total = r->stop_count;
	r->ops = r->total > r->pt.warmup ? r->total - r->pt.warmup : 0;
	if (!ret && r->p->verify && rb_tlk_srv_check(&t.s, r->stop_count))
		r->verify.status = -EILSEQ;
	rb_tlk_srv_free(&t.s);
	free(t.in.b);
	free(t.out.b);
	return ret;
}

/* ---- The client ---- */

struct tlk_cli {
	struct rb_lock_run lk; /* lock's contenders and figures */
	uint32_t dlen;
	uint32_t *holder; /* per lock: the contender (+ 1) granted it, until its RELEASE */
	uint8_t *scr;	  /* the contenders' scratch (lock.h's layout) */
	struct tlk_buf in, out;
	uint64_t since, next_look;
	uint32_t states; /* --verify: STATE_IS replies in */
	uint64_t sum;	 /* ... and their counters' sum */
};

static int push(struct tlk_cli *t, const struct rb_lock_cont *c, uint8_t type, const uint8_t *data)
{
	struct rb_tlk_msg m = { .type = type, .who = (uint16_t)c->qi, .lock = c->lock };

	return buf_push(&t->out, &m, data, t->dlen);
}

static uint8_t *data_rd(const struct rb_lock_cont *c)
{
	return c->scr + 64;
}

static uint8_t *data_wr(const struct tlk_cli *t, const struct rb_lock_cont *c)
{
	return c->scr + 64 + t->lk.l.stride;
}

/* One attempt per acquisition: the server queues it. */
static int attempt(struct tlk_cli *t, struct rb_lock_cont *c)
{
	rb_lock_attempted(&t->lk, c);
	return push(t, c, RB_TLK_ACQUIRE, NULL);
}

/*
 * A handoff counts from the RELEASE's send, as lock's from its release's
 * post: the server can grant the next waiter only after it reads it (its
 * RELEASED and that GRANT then leave together, so counting from RELEASED
 * would time nothing but the client's read of one send).
 */
static int release(struct tlk_cli *t, struct rb_lock_cont *c)
{
	t->holder[c->lock] = 0;
	rb_lock_releasing(&t->lk, c);
	return push(t, c, RB_TLK_RELEASE, NULL);
}

/* After the hold: --verify reads the data back, else the release. */
static int held(struct tlk_cli *t, struct rb_lock_cont *c)
{
	if (!t->lk.r->p->verify)
		return release(t, c);
	c->st = RB_LK_CHECK;
	return push(t, c, RB_TLK_READ, NULL);
}

/*
 * GRANT: the acquire's figures (lock's: latency from the ACQUIRE, the
 * handoff from another contender's RELEASE of the lock), then
 * the critical section's READ.  A lock granted while another of this
 * client's contenders holds it breaks mutual exclusion: always refused.
 */
static int granted(struct tlk_cli *t, struct rb_lock_cont *c)
{
	uint32_t *h = &t->holder[c->lock];
	int ret;

	if (*h) {
		rb_err("verify: tcp_lock: the server granted lock %u to contender %u while "
		       "contender "
		       "%u holds it: mutual exclusion is broken",
		       c->lock, c->qi, *h - 1);
		return -EILSEQ;
	}
	*h = c->qi + 1;
	ret = rb_lock_owned(&t->lk, c);
	c->st = RB_LK_READ;
	return ret ? ret : push(t, c, RB_TLK_READ, NULL);
}

/* The data as read: its counter + 1 and this holder's mark, written back. */
static int modify(struct tlk_cli *t, struct rb_lock_cont *c)
{
	uint8_t *w = data_wr(t, c);

	counter_put(w, counter_of(data_rd(c)) + 1);
	rb_lock_mark(&t->lk, c, w + 8);
	c->st = RB_LK_WRITE;
	return push(t, c, RB_TLK_WRITE, w);
}

static int check_mark(struct tlk_cli *t, struct rb_lock_cont *c)
{
	uint64_t got = counter_of(data_rd(c)), want = counter_of(data_wr(t, c));

	if (rb_lock_mark_check(&t->lk, c, data_rd(c), data_wr(t, c), got, want, "tcp_lock"))
		return -EILSEQ;
	return release(t, c);
}

static int written(struct tlk_cli *t, struct rb_lock_cont *c)
{
	if (!t->lk.hold_ns)
		return held(t, c);
	c->st = RB_LK_HOLD;
	c->due = rb_now_ns() + t->lk.hold_ns;
	return 0;
}

/* --verify, after the point: the server's answer for one lock. */
static int state_is(struct tlk_cli *t, const struct rb_tlk_msg *m)
{
	if (m->lock >= t->lk.l.locks || t->states >= t->lk.l.locks) {
		rb_err("tcp_lock: the server sent STATE_IS for lock %u, which was not asked",
		       m->lock);
		return -EPROTO;
	}
	if (!(m->flags & 1)) {
		rb_err("verify: tcp_lock, client: lock %u is still held after the point, by the "
		       "server's answer: a release was lost",
		       m->lock);
		return -EILSEQ;
	}
	t->sum += m->value;
	t->states++;
	return 0;
}

/* What contender @c's state waits for. */
static uint8_t awaited(const struct rb_lock_cont *c)
{
	switch (c->st) {
	case RB_LK_ACQ:
		return RB_TLK_GRANT;
	case RB_LK_READ:
	case RB_LK_CHECK:
		return RB_TLK_DATA;
	case RB_LK_WRITE:
		return RB_TLK_WRITTEN;
	case RB_LK_REL:
		return RB_TLK_RELEASED;
	default:
		return 0;
	}
}

/* A reply from the server: its contender's next step. */
static int on_reply(struct tlk_cli *t, const struct rb_tlk_msg *m, const uint8_t *data)
{
	struct rb_lock_cont *c = m->who < t->lk.n ? &t->lk.c[m->who] : NULL;

	if (m->type == RB_TLK_STATE_IS)
		return state_is(t, m);
	if (!c || m->lock != c->lock || m->type != awaited(c)) {
		rb_err("tcp_lock: the server sent %s for contender %u, lock %u, which waits for "
		       "%s",
		       type_name(m->type), m->who, m->lock, c ? type_name(awaited(c)) : "nothing");
		return -EPROTO;
	}
	switch (c->st) {
	case RB_LK_ACQ:
		return granted(t, c);
	case RB_LK_READ:
		memcpy(data_rd(c), data, t->dlen);
		return modify(t, c);
	case RB_LK_CHECK:
		memcpy(data_rd(c), data, t->dlen);
		return check_mark(t, c);
	case RB_LK_WRITE:
		return written(t, c);
	default: /* RB_LK_REL */
		rb_lock_released(&t->lk, c);
		return 0;
	}
}

/* Send what the connection takes now, never blocking (the replies keep coming). */
static int flush(struct tlk_cli *t)
{
	struct tlk_buf *o = &t->out;
	ssize_t n;

	while (o->off < o->len) {
		n = send(t->lk.r->c.data_fd, o->b + o->off, o->len - o->off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0)
			return transient(errno) ? 0 : rb_sock_failed(t->lk.r, "send", errno);
		o->off += (size_t)n;
		t->since = 0;
	}
	o->off = o->len = 0;
	return 0;
}

/* Nothing came: ^C, the peer's news and --timeout, naming what is awaited. */
static int idle(struct tlk_cli *t)
{
	char what[96] = "the lock server's replies";
	uint32_t i;

	for (i = 0; i < t->lk.n; i++)
		if (t->lk.c[i].st == RB_LK_ACQ) {
			snprintf(what, sizeof(what),
				 "lock %u's GRANT (contender %u; a lost release, or a server that "
				 "does not grant)",
				 t->lk.c[i].lock, i);
			break;
		}
	return rb_sock_idle(t->lk.r, &t->since, what);
}

/*
 * Read and handle the server's replies; with @nowait (a hold under way,
 * or bytes left to send) without blocking, looking around every LOOK_NS.
 */
static int pump(struct tlk_cli *t, bool nowait)
{
	struct rb_tlk_msg m;
	const uint8_t *data;
	uint64_t now;
	int ret = buf_recv(t->lk.r, &t->in, t->dlen, nowait);

	if (ret < 0)
		return ret;
	if (ret > 0) {
		t->since = 0;
		ret = 0;
		while (!ret && buf_next(&t->in, t->dlen, &m, &data))
			ret = on_reply(t, &m, data);
		return ret;
	}
	if (nowait) {
		now = rb_now_ns();
		if (now < t->next_look)
			return 0;
		t->next_look = now + LOOK_NS;
	}
	return idle(t);
}

/* Whether the point takes no more acquisitions: -n counted, or -D over. */
static bool ending(const struct tlk_cli *t, uint64_t deadline)
{
	if (t->lk.started >= t->lk.end)
		return true;
	return deadline && rb_now_ns() >= deadline;
}

/* Start what is due: new acquisitions, ends of holds; *@busy contenders left, *@holding. */
static int tick(struct tlk_cli *t, uint64_t deadline, uint32_t *busy, bool *holding)
{
	uint64_t now = 0;
	uint32_t i;
	int ret = 0;

	*busy = 0;
	*holding = false;
	for (i = 0; i < t->lk.n && !ret; i++) {
		struct rb_lock_cont *c = &t->lk.c[i];

		if (c->st == RB_LK_IDLE) {
			if (ending(t, deadline)) {
				c->st = RB_LK_DONE;
				continue;
			}
			/* As lock's: the measured acquisitions wait for the last
			 * warm-up release, which starts the interval, so that no
			 * warm-up queueing or hold lies inside it. */
			if (rb_lock_warming(&t->lk)) {
				*busy += 1;
				continue;
			}
			c->seq = t->lk.started++;
			c->lock = (uint32_t)(c->seq % t->lk.l.locks);
			c->t_first = rb_ticks();
			ret = attempt(t, c);
		} else if (c->st == RB_LK_HOLD) {
			now = now ? now : rb_now_ns();
			if (now >= c->due)
				ret = held(t, c);
			else
				*holding = true;
		}
		*busy += c->st != RB_LK_DONE;
	}
	return ret;
}

static int cli_loop(struct tlk_cli *t)
{
	struct rb_run *r = t->lk.r;
	uint64_t deadline = 0;
	uint32_t busy;
	bool holding;
	int ret;

	if (!r->pt.warmup)
		rb_mark_start(r);
	for (;;) {
		if (rb_interrupted)
			return -EINTR;
		/* -D: from the interval's start (the first measured acquisition). */
		if (!r->p->iters && !deadline && t->lk.started > r->pt.warmup)
			deadline = r->t0 + (uint64_t)r->p->duration_s * 1000000000ULL;
		ret = tick(t, deadline, &busy, &holding);
		if (!ret && !busy)
			break;
		if (!ret)
			ret = flush(t);
		if (!ret)
			ret = pump(t, holding || t->out.len > 0);
		if (ret)
			return ret;
	}
	rb_mark_end(r);
	return 0;
}

/* --verify, after the point: each lock free and the counters' sum the acquisitions. */
static int verify_end(struct tlk_cli *t)
{
	struct rb_lock_cont c0 = { 0 };
	int ret = 0;

	for (c0.lock = 0; !ret && c0.lock < t->lk.l.locks; c0.lock++)
		ret = push(t, &c0, RB_TLK_STATE, NULL);
	while (!ret && t->states < t->lk.l.locks) {
		ret = flush(t);
		if (!ret)
			ret = pump(t, t->out.len > 0);
	}
	if (ret || t->sum == t->lk.done)
		return ret;
	rb_err("verify: tcp_lock, client: the counters under the locks add up to %" PRIu64
	       " after %" PRIu64 " acquisitions: mutual exclusion is broken",
	       t->sum, t->lk.done);
	return -EILSEQ;
}

static void cli_free(struct tlk_cli *t)
{
	rb_lock_run_free(&t->lk);
	free(t->holder);
	free(t->scr);
	free(t->in.b);
	free(t->out.b);
	memset(t, 0, sizeof(*t));
}

static int cli_open(struct rb_run *r, struct tlk_cli *t)
{
	struct rb_lock_run *lk = &t->lk;
	uint32_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	lk->r = r;
	lk->n = r->pt.qps ? r->pt.qps : 1;
	rb_lock_layout(r->p, lk->n, &lk->l);
	lk->hold_ns = (uint64_t)r->pt.hold_us * 1000; /* the point's --hold */
	lk->end = r->p->iters ? r->pt.warmup + r->p->iters : UINT64_MAX;
	ret = rb_lock_host_mark(&lk->host);
	if (ret)
		return ret;
	t->dlen = rb_lock_data_len(r->p);
	lk->c = calloc(lk->n, sizeof(*lk->c));
	lk->last_rel = calloc(lk->l.locks, sizeof(*lk->last_rel));
	lk->last_by = calloc(lk->l.locks, sizeof(*lk->last_by));
	t->holder = calloc(lk->l.locks, sizeof(*t->holder));
	t->scr = calloc(lk->n, lk->l.scratch);
	if (!lk->c || !lk->last_rel || !lk->last_by || !t->holder || !t->scr) {
		rb_err("tcp_lock: no memory for %u contenders", lk->n);
		return -ENOMEM;
	}
	for (i = 0; i < lk->n; i++) {
		lk->c[i].qi = i;
		lk->c[i].scr = t->scr + (size_t)i * lk->l.scratch;
	}
	return 0;
}

static int cli_run(struct rb_run *r, struct tlk_cli *t)
{
	int ret = cli_open(r, t);

	if (!ret)
		ret = cli_loop(t);
	r->total = t->lk.done;
	r->ops = t->lk.done > r->pt.warmup ? t->lk.done - r->pt.warmup : 0;
	if (!ret && r->p->verify)
		ret = verify_end(t);
	if (ret)
		cli_free(t);
	return ret;
}

/* The point's client, from its run to its result (one per thread). */
static __thread struct tlk_cli cli_point;

int rb_run_tcp_lock(struct rb_run *r)
{
	if (r->role == RB_ROLE_SERVER)
		return srv_run(r);
	cli_free(&cli_point);
	return cli_run(r, &cli_point);
}

int rb_result_tcp_lock(struct rb_run *r, struct rb_result *res)
{
	int ret = rb_result_generic(r, res);

	if (!ret && r->role == RB_ROLE_CLIENT && cli_point.lk.r == r)
		rb_lock_result(&cli_point.lk, res);
	if (r->role == RB_ROLE_CLIENT)
		cli_free(&cli_point);
	return ret;
}
