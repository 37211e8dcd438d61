// SPDX-License-Identifier: MIT
/*
 * Rank 0 of rdmabench matrix: the coordinator.  It listens, starts rank
 * 0's own worker (a child that joins like any rank), takes every rank's
 * JOIN (reading all connections not yet joined at once, so that none that
 * stays silent holds up the others: see RB_MX_JOIN_MS), then runs the
 * rounds of the schedule: ROUND to each rank with a
 * pair in it, READY from them all, GO, then RESULTs and DONE.  Every wait
 * is bounded: a rank silent for --timeout (it sends a BEAT every second
 * while its pairs run), or whose connection breaks, or that speaks out of
 * turn, is declared dead, named with its host, and its pairs fail; the
 * rest go on.  Then the outliers are retested alone (matrix_out.c writes
 * the verdict).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "matrix/matrix_auth.h"
#include "matrix/matrix_coord.h"
#include "matrix/matrix_out.h"

#define NS_PER_MS 1000000ULL

static uint8_t cbuf[RB_WIRE_MAX_BODY];
static struct rb_mx_round cround;

static uint64_t timeout_ns(const struct rb_mx_coord *c)
{
	return (uint64_t)c->j->timeout_ms * NS_PER_MS;
}

/* ---- ranks ---------------------------------------------------------------- */

static bool alive(const struct rb_mx_coord *c, uint32_t i)
{
	return c->r[i].joined && !c->r[i].dead;
}

static bool involves(const struct rb_mx_pair *p, uint32_t i)
{
	return p->src == i || p->dst == i;
}

static void __attribute__((format(printf, 3, 4)))
fail_pair(struct rb_mx_coord *c, size_t pi, const char *fmt, ...)
{
	struct rb_mx_outcome *o = &c->out[pi];
	char why[RB_MX_REASON];
	va_list ap;

	if (o->st != RB_MX_PENDING)
		return;
	o->st = RB_MX_FAILED;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	rb_mx_set_reason(o, why);
}

static void send_over(struct rb_mx_coord *c, size_t pi);

/*
 * Rank @i is gone: say so once, naming it; the pairs of this round it is
 * in fail, and a server waiting for its client is told to end.
 */
static void declare_dead(struct rb_mx_coord *c, uint32_t i, const char *why)
{
	struct rb_mx_rank *r = &c->r[i];
	size_t pi;

	if (r->dead)
		return;
	r->dead = true;
	r->await = 0;
	snprintf(r->why, sizeof(r->why), "%s", why);
	rb_oob_close(&r->o);
	rb_err("rank %u (%s) %s: its pairs are marked failed", i, r->host[0] ? r->host : "?", why);
	for (pi = 0; pi < c->s.n; pi++) {
		if (c->out[pi].round_id != c->round || !involves(&c->s.pairs[pi], i))
			continue;
		fail_pair(c, pi, "rank %u (%s) %s", i, r->host, why);
		if (c->s.pairs[pi].src == i)
			send_over(c, pi);
	}
}

static int send_to(struct rb_mx_coord *c, uint32_t i, uint16_t type, int n)
{
	int ret;

	if (!alive(c, i))
		return -ENOTCONN;
	ret = rb_mx_send(&c->r[i].o, type, cbuf, n);
	if (ret)
		declare_dead(c, i, "could not be told (the connection broke)");
	return ret;
}

static void send_tick(struct rb_mx_coord *c, uint32_t i, uint16_t type, uint32_t pair)
{
	struct rb_mx_tick t = { .round = c->round, .pair = pair };

	send_to(c, i, type, rb_mx_pack_tick(&t, cbuf, sizeof(cbuf)));
}

/* The pair's client is done: its server need not wait any longer. */
static void send_over(struct rb_mx_coord *c, size_t pi)
{
	send_tick(c, c->s.pairs[pi].dst, RB_MX_MSG_OVER, (uint32_t)pi);
}

static void beat_all(struct rb_mx_coord *c)
{
	uint32_t i;

	if (rb_now_ns() < c->beat_at)
		return;
	for (i = 0; i < c->n; i++)
		if (alive(c, i))
			send_to(c, i, RB_MX_MSG_BEAT, 0);
	c->beat_at = rb_now_ns() + 1000 * NS_PER_MS;
}

/* ---- messages from ranks --------------------------------------------------- */

static void bad_msg(struct rb_mx_coord *c, uint32_t i, const char *what)
{
	char why[128];

	snprintf(why, sizeof(why), "sent %s in round %u", what, c->round);
	declare_dead(c, i, why);
}

/* Side @k (0 src, 1 dst) of @o as RESULT @m tells it; a placement only with a result. */
static void keep_side(struct rb_mx_coord *c, struct rb_mx_outcome *o, int k,
		      const struct rb_mx_report *m)
{
	struct rb_mx_side s;

	rb_mx_side_of(&c->pool, o->side[k], &s);
	snprintf(s.dev, sizeof(s.dev), "%s", m->device);
	s.port = m->port;
	s.gid_index = m->gid_index;
	snprintf(s.gid, sizeof(s.gid), "%s", m->gid);
	if (m->has_res)
		s.place = m->place;
	if (rb_mx_keep_side(&c->pool, &s, &o->side[k]))
		rb_err("the coordinator ran out of memory for pair %u's side", m->pair);
}

/* A RESULT from rank @i: one side of a pair of this round. */
static void on_report(struct rb_mx_coord *c, uint32_t i, const struct rb_mx_report *m)
{
	const struct rb_mx_pair *p = m->pair < c->s.n ? &c->s.pairs[m->pair] : NULL;
	struct rb_mx_outcome *o = p ? &c->out[m->pair] : NULL;
	bool run = m->role == RB_MX_RUN;
	char safe[4 * RB_MX_REASON];

	if (!p || o->round_id != c->round || m->round != c->round || (run ? p->src : p->dst) != i)
		return bad_msg(c, i, "a RESULT for a pair it is not in");
	keep_side(c, o, !run, m);
	if (!run)
		return;
	if (!m->status && m->has_res && o->st == RB_MX_PENDING) {
		if (rb_mx_keep_result(&c->pool, &m->res, &o->res)) {
			fail_pair(c, m->pair, "the coordinator ran out of memory for its result");
		} else {
			o->st = RB_MX_OK;
			o->metric = rb_mx_metric(c, &m->res);
		}
	} else {
		fail_pair(c, m->pair, "%s", rb_escape(m->reason, safe, sizeof(safe)));
	}
	send_over(c, m->pair);
}

static void on_msg(struct rb_mx_coord *c, uint32_t i, uint16_t type, uint32_t len)
{
	struct rb_mx_rank *r = &c->r[i];
	struct rb_mx_report rep;
	struct rb_mx_tick t;
	char tn[24];

	r->heard = rb_now_ns();
	if (type == RB_MX_MSG_BEAT)
		return;
	if (type == RB_MX_MSG_RESULT) {
		if (rb_mx_unpack_report(cbuf, len, &rep))
			return bad_msg(c, i, "a malformed RESULT");
		return on_report(c, i, &rep);
	}
	if ((type == RB_MX_MSG_READY || type == RB_MX_MSG_DONE) && r->await == type &&
	    !rb_mx_unpack_tick(cbuf, len, &t) && t.round == c->round) {
		r->await = 0;
		return;
	}
	bad_msg(c, i, rb_msg_type_str(type, tn, sizeof(tn)));
}

static void read_rank(struct rb_mx_coord *c, uint32_t i)
{
	uint16_t type;
	uint32_t len;
	int ret = rb_oob_recv(&c->r[i].o, &type, cbuf, sizeof(cbuf), &len);

	if (ret == -ECONNRESET)
		declare_dead(c, i, "closed its connection: it exited or was killed");
	else if (ret)
		declare_dead(c, i, "broke the protocol or went silent mid-message");
	else
		on_msg(c, i, type, len);
}

static bool awaiting(const struct rb_mx_coord *c)
{
	uint32_t i;

	for (i = 0; i < c->n; i++)
		if (alive(c, i) && c->r[i].await)
			return true;
	return false;
}

/* One pass: a second at most, reading whatever ranks sent. */
static void listen_once(struct rb_mx_coord *c)
{
	struct pollfd pf[RB_MX_MAX_RANKS];
	uint32_t who[RB_MX_MAX_RANKS], i, n = 0;
	char why[96];

	for (i = 0; i < c->n; i++)
		if (alive(c, i)) {
			who[n] = i;
			pf[n++] = (struct pollfd){ .fd = c->r[i].o.fd, .events = POLLIN };
		}
	if (poll(pf, n, 1000) < 0 && errno != EINTR)
		return;
	for (i = 0; i < n; i++)
		if (pf[i].revents && alive(c, who[i]))
			read_rank(c, who[i]);
	for (i = 0; i < c->n; i++)
		if (alive(c, i) && c->r[i].await && rb_now_ns() - c->r[i].heard > timeout_ns(c)) {
			snprintf(why, sizeof(why), "was silent for %d s (--timeout) in round %u",
				 c->j->timeout_ms / 1000, c->round);
			declare_dead(c, i, why);
		}
}

static int wait_all(struct rb_mx_coord *c)
{
	while (awaiting(c)) {
		if (rb_interrupted)
			return -EINTR;
		beat_all(c);
		listen_once(c);
	}
	return 0;
}

/* ---- rounds ---------------------------------------------------------------- */

/*
 * Each rank's pairs of the round, in round order: chead[rank] is 1 + the
 * first of its links, 0 when it has none.  Built once a round, so that
 * handing every rank its part costs the round's pairs, not ranks x pairs.
 */
static uint32_t chead[RB_MX_MAX_RANKS];
static struct link {
	uint32_t k, next; /* next: 1 + the next link, 0 the last */
} clink[RB_MX_MAX_RANKS * 4];

static void index_round(const struct rb_mx_coord *c, const size_t *idx, size_t np)
{
	uint32_t n = 0, k, side[2];
	int e;

	memset(chead, 0, c->n * sizeof(chead[0]));
	for (k = (uint32_t)np; k-- > 0 && n + 2 <= RB_MX_MAX_RANKS * 4;) {
		side[0] = c->s.pairs[idx[k]].src;
		side[1] = c->s.pairs[idx[k]].dst;
		for (e = 0; e < (side[0] != side[1] ? 2 : 1); e++) {
			clink[n] = (struct link){ .k = k, .next = chead[side[e]] };
			chead[side[e]] = ++n;
		}
	}
}

/* Rank @i's part of the pairs @idx (index_round()'s), into cround. */
static void tasks_of(struct rb_mx_coord *c, uint32_t i, const size_t *idx)
{
	uint32_t l, k;

	cround.round = c->round;
	cround.ntasks = 0;
	for (l = chead[i]; l && cround.ntasks < RB_MX_WIRE_TASKS; l = clink[l - 1].next) {
		struct rb_mx_task *t = &cround.task[cround.ntasks];
		const struct rb_mx_pair *p;

		k = clink[l - 1].k;
		p = &c->s.pairs[idx[k]];
		if (c->out[idx[k]].st != RB_MX_PENDING || !involves(p, i))
			continue;
		*t = (struct rb_mx_task){ .pair = (uint32_t)idx[k],
					  .role = p->src == i ? RB_MX_RUN : RB_MX_SERVE,
					  .peer = p->src == i ? p->dst : p->src,
					  .port = (uint16_t)(c->j->c->l.tcp_port + 1 + k) };
		snprintf(t->addr, sizeof(t->addr), "%s", c->r[p->dst].addr);
		cround.ntasks++;
	}
}

/* Both sides of @o with GID index -1 until their RESULTs say. */
static void no_gid_index(struct rb_mx_coord *c, struct rb_mx_outcome *o)
{
	struct rb_mx_side s;
	int k;

	for (k = 0; k < 2; k++) {
		rb_mx_side_of(&c->pool, o->side[k], &s);
		if (s.gid_index == -1)
			continue;
		s.gid_index = -1;
		if (rb_mx_keep_side(&c->pool, &s, &o->side[k]))
			o->side[k] = RB_MX_SIDE_NONE;
	}
}

/* Pairs with a dead rank fail before the round; the rest are pending. */
static void round_begin(struct rb_mx_coord *c, const size_t *idx, size_t np)
{
	size_t k;

	c->round++;
	for (k = 0; k < np; k++) {
		struct rb_mx_outcome *o = &c->out[idx[k]];
		const struct rb_mx_pair *p = &c->s.pairs[idx[k]];
		uint32_t gone = !alive(c, p->src) ? p->src : p->dst;

		o->round_id = c->round;
		o->st = RB_MX_PENDING;
		no_gid_index(c, o);
		if (!alive(c, p->src) || !alive(c, p->dst))
			fail_pair(c, idx[k], "rank %u (%s) %s", gone, c->r[gone].host,
				  c->r[gone].why);
	}
}

/* Send each rank its part; it then owes @what. */
static void round_send(struct rb_mx_coord *c, const size_t *idx, size_t np, uint16_t what)
{
	uint32_t i;

	if (what == RB_MX_MSG_READY)
		index_round(c, idx, np);
	for (i = 0; i < c->n; i++) {
		if (!alive(c, i))
			continue;
		if (what == RB_MX_MSG_READY) {
			tasks_of(c, i, idx);
			c->r[i].in_round = cround.ntasks > 0;
		}
		/* A rank whose pairs all failed meanwhile still gets its GO. */
		if (!c->r[i].in_round)
			continue;
		c->r[i].heard = rb_now_ns();
		c->r[i].await = what;
		if (what == RB_MX_MSG_READY)
			send_to(c, i, RB_MX_MSG_ROUND,
				rb_mx_pack_round(&cround, cbuf, sizeof(cbuf)));
		else
			send_tick(c, i, RB_MX_MSG_GO, 0);
	}
}

static int run_round(struct rb_mx_coord *c, const size_t *idx, size_t np)
{
	size_t k;
	int ret;

	round_begin(c, idx, np);
	round_send(c, idx, np, RB_MX_MSG_READY);
	ret = wait_all(c);
	if (!ret) {
		round_send(c, idx, np, RB_MX_MSG_DONE);
		ret = wait_all(c);
	}
	for (k = 0; k < np; k++)
		fail_pair(c, idx[k], ret ? "interrupted" : "no result from rank %u (%s)",
			  c->s.pairs[idx[k]].src, c->r[c->s.pairs[idx[k]].src].host);
	return ret;
}

/* ---- joining ---------------------------------------------------------------- */

/* Where rank @i's servers are reached: --bind, else as it reached us. */
static void rank_addr(struct rb_mx_rank *r, const struct rb_mx_join *m)
{
	char *colon;

	if (m->addr[0]) {
		snprintf(r->addr, sizeof(r->addr), "%s", m->addr);
		return;
	}
	snprintf(r->addr, sizeof(r->addr), "%.*s", (int)sizeof(r->addr) - 1, r->o.peer);
	colon = strrchr(r->addr, ':');
	if (colon)
		*colon = '\0';
	if (!strncmp(r->addr, "127.", 4) || !strcmp(r->addr, "::1"))
		snprintf(r->addr, sizeof(r->addr), "%s", m->host);
}

static int check_join(struct rb_mx_coord *c, const struct rb_mx_join *m, char *err, size_t len)
{
	if (m->proto != RB_MX_PROTO)
		return rb_set_err(err, len, -EPROTO,
				  "it speaks matrix protocol v%u, the coordinator v%u (rdmabench "
				  "%s)",
				  m->proto, RB_MX_PROTO, PACKAGE_VERSION);
	if (m->nranks != c->n || m->rank >= c->n)
		return rb_set_err(err, len, -EINVAL,
				  "it is rank %u of %u, the coordinator's job has %u ranks",
				  m->rank, m->nranks, c->n);
	if (c->r[m->rank].joined)
		return rb_set_err(err, len, -EEXIST, "rank %u joined already, from %s", m->rank,
				  c->r[m->rank].host);
	if (strcmp(m->test, c->j->b->name))
		return rb_set_err(err, len, -EINVAL, "it runs %s, the coordinator %s", m->test,
				  c->j->b->name);
	return 0;
}

/* A JOIN that passed its checks: rank m->rank is in, on connection @o. */
static void admit(struct rb_mx_coord *c, struct rb_oob *o, const struct rb_mx_join *m,
		  const struct rb_auth_chan *chan)
{
	struct rb_mx_rank *r = &c->r[m->rank];
	char safe[1024];

	r->o = *o;
	if (chan) { /* --auth-key: WELCOME and every later frame tagged */
		r->auth = *chan;
		r->o.auth = &r->auth;
	}
	r->joined = true;
	r->heard = rb_now_ns();
	snprintf(r->host, sizeof(r->host), "%s", rb_escape(m->host, safe, sizeof(safe)));
	snprintf(r->device, sizeof(r->device), "%s", m->device);
	rank_addr(r, m);
	c->njoined++;
	if (rb_mx_send(&r->o, RB_MX_MSG_WELCOME, cbuf, 0))
		declare_dead(c, m->rank, "could not be welcomed");
}

/* @o is not a rank: say why, once, naming its address, and tell it. */
static void refuse(struct rb_oob *o, const char *err)
{
	char safe[1024];

	rb_err("refused a rank from %s: %s", o->peer, rb_escape(err, safe, sizeof(safe)));
	rb_oob_send_error(o, "coordinator: %s", err);
	rb_oob_close(o);
}

/*
 * Connections not yet joined, read together without blocking, so that a
 * port scanner, a health check or a stuck peer holds up no one: the ranks
 * that joined keep getting their BEATs meanwhile.  Each must deliver its
 * whole JOIN (and with --auth-key its AUTH, matrix_auth.h) within
 * RB_MX_JOIN_MS of being accepted (a rank sends them as soon as it can),
 * else it is dropped with one line naming its address; at most
 * RB_MX_PENDING wait at once, the next ones wait in the listen backlog.
 */
#define RB_MX_JOIN_MS	 2000
#define RB_MX_PENDING	 32
#define RB_MX_JOIN_BYTES 512 /* a JOIN body is under 350 */

struct pending {
	struct rb_oob o; /* fd -1: a free slot */
	uint64_t since;
	uint32_t got;
	/* --auth-key: the JOIN taken, the challenge sent, its AUTH awaited */
	bool authing;
	struct rb_mx_join m;
	uint32_t joinlen;
	uint8_t join[RB_MX_JOIN_BYTES]; /* its body as it crossed the wire */
	uint8_t snonce[RB_AUTH_NONCE_LEN];
	uint8_t buf[RB_WIRE_HDR_LEN + RB_MX_JOIN_BYTES];
};

static struct pending cpend[RB_MX_PENDING];

/*
 * The JOIN body @body of @len bytes on @p: the rank is admitted, or
 * challenged (--auth-key), or told why not.  True: @p stays pending.
 */
static bool join_one(struct rb_mx_coord *c, struct pending *p, const uint8_t *body, uint32_t len)
{
	struct rb_auth_key key;
	uint8_t ch[RB_AUTH_BODY_LEN];
	char err[256];
	int ret, n;

	p->o.timeout_ms = c->j->timeout_ms;
	rb_auth_key_of(&c->j->c->l, &key);
	/* Its version first (named), then its key; the job's facts only to a rank with it. */
	if (rb_mx_unpack_join(body, len, &p->m))
		ret = rb_set_err(err, sizeof(err), -EBADMSG, "a malformed JOIN");
	else if (p->m.proto != RB_MX_PROTO)
		ret = check_join(c, &p->m, err, sizeof(err));
	else
		ret = rb_mx_auth_agree(&key, &p->m, err, sizeof(err));
	if (!ret && !key.set) {
		ret = check_join(c, &p->m, err, sizeof(err));
		if (!ret) {
			admit(c, &p->o, &p->m, NULL);
			return false;
		}
	} else if (!ret) {
		memcpy(p->join, body, len);
		p->joinlen = len;
		n = rb_mx_auth_challenge(&key, &p->m, body, len, p->snonce, ch);
		if (!rb_oob_send(&p->o, RB_MSG_AUTH, ch, (uint32_t)n)) {
			p->authing = true;
			p->got = 0;
			return true;
		}
		snprintf(err, sizeof(err), "its challenge could not be sent");
	}
	refuse(&p->o, err);
	return false;
}

/* The AUTH body @body of @len bytes on @p: the rank proved the key, or is refused. */
static void auth_one(struct rb_mx_coord *c, struct pending *p, const uint8_t *body, uint32_t len)
{
	struct rb_auth_key key;
	struct rb_auth_chan chan;
	char err[256];

	rb_auth_key_of(&c->j->c->l, &key);
	if (rb_mx_auth_verify(&key, &p->m, p->snonce, p->join, p->joinlen, body, len, &chan))
		snprintf(err, sizeof(err), "authentication failed (--auth-key)");
	else if (!check_join(c, &p->m, err, sizeof(err)))
		return admit(c, &p->o, &p->m, &chan);
	refuse(&p->o, err);
}

static void drop(struct pending *p, const char *why)
{
	rb_warn("dropped the connection from %s: %s", p->o.peer, why);
	rb_oob_close(&p->o);
}

/* The bytes @p still needs: the header, then the body it announces. */
static uint32_t wanted(const struct pending *p, struct rb_hdr *h, char *err, size_t len)
{
	uint16_t type = p->authing ? RB_MSG_AUTH : RB_MX_MSG_JOIN;
	uint32_t cap = p->authing ? RB_AUTH_BODY_LEN : RB_MX_JOIN_BYTES;
	char tn[24];

	err[0] = '\0';
	if (p->got < RB_WIRE_HDR_LEN)
		return RB_WIRE_HDR_LEN - p->got;
	if (rb_hdr_unpack(p->buf, h, err, len))
		return 0;
	if (h->type != type) {
		snprintf(err, len, "it sent %s where %s was expected",
			 rb_msg_type_str(h->type, tn, sizeof(tn)), rb_msg_name(type));
		return 0;
	}
	if (h->len > cap) {
		snprintf(err, len, "its %s of %u bytes is over %u", rb_msg_name(type), h->len, cap);
		return 0;
	}
	return RB_WIRE_HDR_LEN + h->len - p->got;
}

/* What arrived on @p; a whole JOIN (then AUTH) is taken, a bad start refused. */
static void read_pending(struct rb_mx_coord *c, struct pending *p)
{
	struct rb_hdr h;
	char err[192];
	uint32_t want = wanted(p, &h, err, sizeof(err));
	ssize_t n = want ? recv(p->o.fd, p->buf + p->got, want, MSG_DONTWAIT) : 0;

	if (!want && err[0])
		return drop(p, err);
	if (n == 0)
		return drop(p, p->authing ? "it closed the connection before its AUTH"
					  : "it closed the connection before its JOIN");
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			drop(p, strerror(errno));
		return;
	}
	p->got += (uint32_t)n;
	want = wanted(p, &h, err, sizeof(err));
	if (!want && err[0])
		return drop(p, err);
	if (want)
		return;
	if (p->authing)
		auth_one(c, p, p->buf + RB_WIRE_HDR_LEN, h.len);
	else if (join_one(c, p, p->buf + RB_WIRE_HDR_LEN, h.len))
		return;
	p->o.fd = -1; /* the rank's now, or closed */
}

/* A free slot for a connection accepted from the listening socket. */
static void accept_pending(struct rb_mx_coord *c)
{
	size_t k;

	for (k = 0; k < RB_MX_PENDING && cpend[k].o.fd >= 0; k++)
		;
	if (k == RB_MX_PENDING || rb_oob_accept(c->lfd, 0, &cpend[k].o))
		return;
	cpend[k].o.timeout_ms = c->j->timeout_ms;
	cpend[k].since = rb_now_ns();
	cpend[k].got = 0;
	cpend[k].authing = false;
}

/* One pass: up to the next BEAT, the listening socket and every pending connection. */
static void poll_joins(struct rb_mx_coord *c)
{
	struct pollfd pf[RB_MX_PENDING + 1];
	size_t who[RB_MX_PENDING], k, n = 0;
	uint64_t now = rb_now_ns();
	char why[64];

	for (k = 0; k < RB_MX_PENDING; k++) {
		if (cpend[k].o.fd < 0)
			continue;
		who[n] = k;
		pf[n++] = (struct pollfd){ .fd = cpend[k].o.fd, .events = POLLIN };
	}
	pf[n] = (struct pollfd){ .fd = n < RB_MX_PENDING ? c->lfd : -1, .events = POLLIN };
	if (poll(pf, n + 1, c->beat_at > now ? (int)((c->beat_at - now) / NS_PER_MS) + 1 : 0) < 0)
		return;
	for (k = 0; k < n; k++)
		if (pf[k].revents)
			read_pending(c, &cpend[who[k]]);
	if (pf[n].revents)
		accept_pending(c);
	for (k = 0; k < RB_MX_PENDING; k++) {
		if (cpend[k].o.fd < 0 || rb_now_ns() - cpend[k].since <= RB_MX_JOIN_MS * NS_PER_MS)
			continue;
		snprintf(why, sizeof(why), "no whole %s within %d ms of connecting",
			 cpend[k].authing ? "AUTH (--auth-key)" : "JOIN", RB_MX_JOIN_MS);
		drop(&cpend[k], why);
	}
}

/* Every rank joins within --timeout of the coordinator's start, or is dead. */
static void take_joins(struct rb_mx_coord *c)
{
	uint64_t until = rb_now_ns() + timeout_ns(c);
	uint32_t i;
	size_t k;

	for (k = 0; k < RB_MX_PENDING; k++)
		cpend[k].o.fd = -1;
	while (c->njoined < c->n && rb_now_ns() < until && !rb_interrupted) {
		beat_all(c);
		poll_joins(c);
	}
	for (k = 0; k < RB_MX_PENDING; k++)
		if (cpend[k].o.fd >= 0)
			drop(&cpend[k], cpend[k].authing ? "no AUTH (--auth-key) before the joins "
							   "ended"
							 : "no JOIN before the joins ended");
	for (i = 0; i < c->n; i++)
		if (!c->r[i].joined) {
			c->r[i].joined = true;
			c->r[i].dead = true;
			snprintf(c->r[i].host, sizeof(c->r[i].host), "?");
			snprintf(c->r[i].why, sizeof(c->r[i].why), "never joined within %d s",
				 c->j->timeout_ms / 1000);
			rb_err("rank %u never joined within %d s (--timeout): its pairs are marked "
			       "failed",
			       i, c->j->timeout_ms / 1000);
		}
}

/* ---- rank 0's own worker ---------------------------------------------------- */

/* Rank @rank's worker, a child of the coordinator; the job as rank @rank's. */
static pid_t start_rank(struct rb_mx_coord *c, uint32_t rank)
{
	static struct rb_mx_job kj;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(c->lfd);
		kj = *c->j;
		kj.id.rank = rank;
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* no rank outlives its coordinator */
		_exit(rb_mx_worker(&kj));
	}
	if (pid < 0)
		rb_err("cannot fork rank %u's worker: %s", rank, strerror(errno));
	return pid;
}

/*
 * --simulate --nranks N alone: every rank a child of this process, each
 * with a connection to it, so the descriptors' limit is raised to its
 * hard limit first.  Ranks that cannot be forked never join, and are
 * named so.
 */
static int spawn_all(struct rb_mx_coord *c)
{
	struct rlimit rl;
	uint32_t i;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)c->n + 64)
		rb_warn("%u ranks need %u descriptors; the limit is %llu (ulimit -n)", c->n,
			c->n + 64, (unsigned long long)rl.rlim_cur);
	c->spawned = calloc(c->n, sizeof(*c->spawned));
	if (!c->spawned)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		c->spawned[i] = start_rank(c, i);
	return 0;
}

/* @pid ends within the deadline @until, or is killed. */
static void end_child(pid_t pid, uint64_t until)
{
	if (pid <= 0)
		return;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (rb_now_ns() >= until) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return;
		}
		usleep(2000);
	}
}

static void end_self(struct rb_mx_coord *c)
{
	uint64_t until = rb_now_ns() + timeout_ns(c);
	uint32_t i;

	end_child(c->self, until);
	for (i = 0; c->spawned && i < c->n; i++)
		end_child(c->spawned[i], until);
}

static void end_all(struct rb_mx_coord *c)
{
	uint32_t i;

	for (i = 0; i < c->n; i++) {
		if (alive(c, i))
			send_to(c, i, RB_MX_MSG_END, 0);
		if (c->r[i].o.fd >= 0)
			rb_oob_close(&c->r[i].o);
	}
	end_self(c);
}

static int coord_init(struct rb_mx_coord *c, const struct rb_mx_job *j, char *err, size_t len)
{
	uint32_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->j = j;
	c->n = j->id.nranks;
	c->lfd = -1;
	ret = rb_mx_job_schedule(j, &c->s, err, len);
	if (ret)
		return ret;
	c->r = calloc(c->n, sizeof(*c->r));
	c->out = calloc(c->s.n, sizeof(*c->out));
	if (!c->r || !c->out || rb_mx_pool_init(&c->pool))
		return rb_set_err(err, len, -ENOMEM, "no memory for %u ranks", c->n);
	for (i = 0; i < c->n; i++)
		c->r[i].o.fd = -1;
	return 0;
}

static void coord_free(struct rb_mx_coord *c)
{
	if (c->lfd >= 0)
		close(c->lfd);
	rb_mx_free_outcomes(c);
	rb_mx_sched_free(&c->s);
	free(c->r);
	free(c->spawned);
	free(c->suspects);
	free(c->bad_ranks);
}

int rb_mx_coordinate(const struct rb_mx_job *j)
{
	static struct rb_mx_coord c;
	char err[RB_TEXT_MAX];
	int ret;

	ret = coord_init(&c, j, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "rdmabench matrix: %s\n", err);
		coord_free(&c);
		return ret == -ENOMEM ? RB_EXIT_FAIL : RB_EXIT_USAGE;
	}
	ret = rb_mx_check_outputs(j);
	if (!ret && rb_oob_listen(j->coord_port, NULL, &c.lfd))
		ret = RB_EXIT_FAIL;
	if (ret) {
		coord_free(&c);
		return ret;
	}
	c.t0 = rb_now_ns();
	if (j->spawn_all)
		ret = spawn_all(&c);
	else
		c.self = start_rank(&c, 0);
	take_joins(&c);
	c.t_joined = rb_now_ns();
	if (!ret)
		ret = rb_mx_run_all(&c, run_round);
	c.t_rounds = rb_now_ns();
	end_all(&c);
	ret = rb_mx_verdict_out(&c, ret);
	coord_free(&c);
	return ret;
}
