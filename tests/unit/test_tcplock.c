// SPDX-License-Identifier: MIT
/*
 * tcp_lock (issue 42; src/engine/tcplock.c):
 * - the message header's bytes, worked out by hand;
 * - the server's FIFO: waiters granted in the order they asked, each at
 *   its predecessor's release, RELEASED before the next GRANT; requests
 *   the protocol forbids refused; its own --verify check;
 * - the client against the real server over the loopback (tcp_fx.h): -q 4
 *   on one lock with --verify, the counter in the server's data equal to
 *   the acquisitions, lock's figures in their units;
 * - broken servers, each in a thread of the test: one that grants a held
 *   lock (refused at the second GRANT), one that acknowledges a WRITE
 *   without storing it (--verify's read-back catches it; without
 *   --verify the run cannot see it), one that never grants after a
 *   release (-ETIMEDOUT naming the lock, never a hang).
 */
#include <endian.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "engine/tcplock.h"
#include "plan_fx.h"
#include "tcp_fx.h"

/* ---- The server's state machine, its replies kept ---- */

#define MAXR 16

struct replies {
	struct rb_tlk_msg m[MAXR];
	size_t n;
};

static int keep(void *arg, const struct rb_tlk_msg *m, const uint8_t *data)
{
	struct replies *r = arg;

	(void)data;
	assert_true(r->n < MAXR);
	r->m[r->n++] = *m;
	return 0;
}

static int req(struct rb_tlk_srv *s, struct replies *out, uint8_t type, uint16_t who, uint32_t lock,
	       const uint8_t *data)
{
	struct rb_tlk_msg m = { .type = type, .who = who, .lock = lock };

	out->n = 0;
	return rb_tlk_srv_handle(s, &m, data, keep, out);
}

static void expect(const struct replies *r, size_t i, uint8_t type, uint16_t who, uint32_t lock)
{
	assert_true(i < r->n);
	assert_int_equal(r->m[i].type, type);
	assert_int_equal(r->m[i].who, who);
	assert_int_equal(r->m[i].lock, lock);
}

/* A server of -q @qps, --locks @locks, --cs-bytes @cs over @mem. */
static void srv_open(struct rb_tlk_srv *s, uint8_t *mem, uint64_t qps, uint32_t locks, uint32_t cs)
{
	struct rb_params p;

	memset(&p, 0, sizeof(p));
	snprintf(p.test, sizeof(p.test), "tcp_lock");
	rb_axis_set1(&p.qps, qps);
	rb_axis_set1(&p.size, 8);
	p.locks = locks;
	p.cs_bytes = cs;
	assert_int_equal(rb_tlk_srv_init(s, &p, mem), 0);
}

/* GRANT, contender 0x0102, lock 0x03040506, value 0x0708090a0b0c0d0e: big-endian. */
static void header_bytes(void **state)
{
	const uint8_t want[RB_TLK_HDR] = { 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
	struct rb_tlk_msg m = { .type = RB_TLK_GRANT,
				.who = 0x0102,
				.lock = 0x03040506,
				.value = 0x0708090a0b0c0d0eULL },
			  back;
	uint8_t b[RB_TLK_HDR];

	(void)state;
	rb_tlk_pack(&m, b);
	assert_memory_equal(b, want, sizeof(want));
	rb_tlk_unpack(b, &back);
	assert_memory_equal(&back, &m, sizeof(m));
	assert_true(rb_tlk_has_data(RB_TLK_DATA) && rb_tlk_has_data(RB_TLK_WRITE));
	assert_false(rb_tlk_has_data(RB_TLK_READ) || rb_tlk_has_data(RB_TLK_GRANT));
}

/*
 * Four contenders, two locks: 0 takes lock 0, 1 and 2 queue behind it, 3
 * takes lock 1 at once; each release hands lock 0 to the first waiter,
 * RELEASED first; 0 asking again queues behind 2.
 */
/* A request and the replies it must get, in order. */
#define M(t, w, l)                                          \
	{                                                   \
		.type = RB_TLK_##t, .who = (w), .lock = (l) \
	}
static const struct {
	struct rb_tlk_msg in;
	size_t n;
	struct rb_tlk_msg out[2];
} fifo[] = {
	{ M(ACQUIRE, 0, 0), 1, { M(GRANT, 0, 0) } },
	{ M(ACQUIRE, 1, 0), 0, { { 0 } } },
	{ M(ACQUIRE, 2, 0), 0, { { 0 } } },
	{ M(ACQUIRE, 3, 1), 1, { M(GRANT, 3, 1) } },
	{ M(RELEASE, 0, 0), 2, { M(RELEASED, 0, 0), M(GRANT, 1, 0) } },
	{ M(ACQUIRE, 0, 0), 0, { { 0 } } },
	{ M(RELEASE, 1, 0), 2, { M(RELEASED, 1, 0), M(GRANT, 2, 0) } },
	{ M(RELEASE, 2, 0), 2, { M(RELEASED, 2, 0), M(GRANT, 0, 0) } },
	/* The last release of each lock grants nobody. */
	{ M(RELEASE, 0, 0), 1, { M(RELEASED, 0, 0) } },
	{ M(RELEASE, 3, 1), 1, { M(RELEASED, 3, 1) } },
};

static void fifo_order(void **state)
{
	uint8_t mem[4096] = { 0 };
	struct rb_tlk_srv s;
	struct replies r;
	size_t i, j;

	(void)state;
	srv_open(&s, mem, 4, 2, 0);
	for (i = 0; i < sizeof(fifo) / sizeof(fifo[0]); i++) {
		assert_int_equal(
			req(&s, &r, fifo[i].in.type, fifo[i].in.who, fifo[i].in.lock, NULL), 0);
		assert_int_equal(r.n, fifo[i].n);
		for (j = 0; j < r.n; j++)
			expect(&r, j, fifo[i].out[j].type, fifo[i].out[j].who, fifo[i].out[j].lock);
	}
	assert_int_equal(s.grants, 5);
	rb_tlk_srv_free(&s);
}

/* What the protocol forbids; the server's data and its --verify check. */
static void refusals_and_check(void **state)
{
	uint8_t mem[4096] = { 0 },
		d[16 + 4] = { 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 'm', 'a', 'r', 'k' };
	struct rb_tlk_srv s;
	struct replies r;

	(void)state;
	srv_open(&s, mem, 2, 2, 4);
	assert_int_equal(req(&s, &r, RB_TLK_RELEASE, 0, 0, NULL), -EPROTO);
	assert_int_equal(req(&s, &r, RB_TLK_ACQUIRE, 2, 0, NULL), -EPROTO); /* beyond -q 2 */
	assert_int_equal(req(&s, &r, RB_TLK_ACQUIRE, 0, 2, NULL), -EPROTO); /* beyond --locks 2 */
	assert_int_equal(req(&s, &r, RB_TLK_GRANT, 0, 0, NULL), -EPROTO);
	assert_int_equal(req(&s, &r, RB_TLK_ACQUIRE, 0, 1, NULL), 0);
	assert_int_equal(req(&s, &r, RB_TLK_ACQUIRE, 0, 0, NULL), -EPROTO); /* a second */
	assert_int_equal(req(&s, &r, RB_TLK_READ, 1, 1, NULL), -EPROTO);    /* not its own */
	assert_int_equal(req(&s, &r, RB_TLK_WRITE, 1, 1, d), -EPROTO);
	/* Held: verify refuses; the holder's WRITE lands in lock 1's data. */
	assert_int_equal(rb_tlk_srv_check(&s, 0), -EILSEQ);
	assert_int_equal(req(&s, &r, RB_TLK_WRITE, 0, 1, d), 0);
	expect(&r, 0, RB_TLK_WRITTEN, 0, 1);
	assert_memory_equal(mem + s.l.data_off + s.l.stride, d, sizeof(d));
	assert_int_equal(req(&s, &r, RB_TLK_STATE, 0, 1, NULL), 0);
	expect(&r, 0, RB_TLK_STATE_IS, 0, 1);
	assert_int_equal(r.m[0].value, 7);
	assert_int_equal(r.m[0].flags, 0); /* held */
	assert_int_equal(req(&s, &r, RB_TLK_RELEASE, 0, 1, NULL), 0);
	assert_int_equal(req(&s, &r, RB_TLK_STATE, 1, 1, NULL), 0);
	assert_int_equal(r.m[0].flags, 1);
	assert_int_equal(rb_tlk_srv_check(&s, 6), -EILSEQ);
	assert_int_equal(rb_tlk_srv_check(&s, 7), 0);
	rb_tlk_srv_free(&s);
}

/* ---- The client against a server over the loopback ---- */

/* tcp_lock's pair: -q @qps, one lock, --cs-bytes 16, -n @iters, the server's data region. */
static void lock_pair(struct pair *x, uint64_t qps, uint64_t iters, bool verify)
{
	int i;

	pair_init(x, "tcp_lock", 8, iters, false);
	rb_axis_set1(&x->p.qps, qps);
	x->p.locks = 1;
	x->p.cs_bytes = 16;
	x->p.verify = verify;
	for (i = 0; i < 2; i++) {
		free(x->s[i].r.c.buf);
		x->s[i].r.c.region = rb_lock_region(&x->p);
		x->s[i].r.c.buf = calloc(2, x->s[i].r.c.region);
		assert_non_null(x->s[i].r.c.buf);
		x->s[i].r.pt.qps = (uint32_t)qps;
	}
}

static void real_server(void **state)
{
	struct pair x;
	const struct rb_result *r;
	struct rb_tlk_srv s;
	uint64_t counter;

	(void)state;
	lock_pair(&x, 4, 400, true);
	run_pair(&x);
	assert_int_equal(x.s[0].ret, 0);
	assert_int_equal(x.s[1].ret, 0);
	assert_int_equal(x.s[1].r.verify.status, 0);
	r = &x.s[0].res;
	assert_int_equal(r->iters, 400);
	assert_int_equal(x.s[0].r.total, 410);
	/* The server's own count: its counter is every acquisition, warm-up in. */
	assert_int_equal(rb_tlk_srv_init(&s, &x.p, x.s[1].r.c.buf), 0);
	memcpy(&counter, x.s[1].r.c.buf + s.l.data_off, 8);
	assert_int_equal(be64toh(counter), 410);
	rb_tlk_srv_free(&s);
	/* lock's figures: one attempt each (the server queues), a rate that is
	 * the acquisitions over the interval, times in microseconds: each
	 * contender's acquisitions one after the other within the interval. */
	assert_true(r->has_lock && r->has_lat);
	assert_true(r->lock_attempts == 1.0);
	assert_true(r->duration_s > 0);
	assert_true(fabs(r->lock_acq_per_s * r->duration_s - 400) < 1e-6);
	assert_true(r->lat.p50 > 0 && r->lock_release_us > 0 && r->lock_handoff_us > 0);
	assert_true(r->lat.avg * 400 / 4 / 1e6 <= r->duration_s);
	assert_true(r->lock_release_us * 400 / 4 / 1e6 <= r->duration_s);
	/* The handoff counts from the RELEASE's send: the server grants the
	 * next waiter on reading it, with the RELEASED in the same send, so a
	 * handoff is at least the release's own round trip (from RELEASED, it
	 * timed one read: a fraction of a microsecond). */
	if (r->lock_handoff_us < 0.5 * r->lock_release_us)
		fail_msg("handoff %.3f us, release %.3f us: the handoff does not count from the "
			 "RELEASE",
			 r->lock_handoff_us, r->lock_release_us);
	assert_true(r->lock_jain > 0 && r->lock_jain <= 1 + 1e-9);
	assert_true(r->lock_share_min > 0 && r->lock_share_min <= 0.25 + 1e-9);
	assert_true(r->has_cpu && r->cpu_ns_per_msg > 0);
	pair_free(&x);
}

/* A broken server: the real one, with its fault (tcp_fx's server side replaced). */
enum fault { GRANT_HELD, DROP_WRITE, NO_HANDOFF };

struct broken {
	struct rb_tlk_srv s;
	enum fault f;
	int fd;
	uint8_t out[1 << 16];
	size_t len;
};

static int b_out(void *arg, const struct rb_tlk_msg *m, const uint8_t *data)
{
	struct broken *b = arg;
	size_t n = RB_TLK_HDR + (rb_tlk_has_data(m->type) ? b->s.dlen : 0);

	if (b->f == NO_HANDOFF && m->type == RB_TLK_GRANT && b->s.grants > 1)
		return 0; /* the waiter's grant, lost */
	assert_true(b->len + n <= sizeof(b->out));
	rb_tlk_pack(m, b->out + b->len);
	if (n > RB_TLK_HDR)
		memcpy(b->out + b->len + RB_TLK_HDR, data, b->s.dlen);
	b->len += n;
	return 0;
}

/* One request through the broken server. */
static int b_handle(struct broken *b, struct rb_tlk_msg *m, const uint8_t *data)
{
	if (b->f == GRANT_HELD && m->type == RB_TLK_ACQUIRE)
		b->s.owner[m->lock] = 0; /* grants what is held */
	if (b->f == GRANT_HELD && m->type == RB_TLK_RELEASE)
		b->s.owner[m->lock] = m->who + 1u;
	if (b->f == DROP_WRITE && m->type == RB_TLK_WRITE) {
		struct rb_tlk_msg ack = { .type = RB_TLK_WRITTEN, .who = m->who, .lock = m->lock };

		return b_out(b, &ack, NULL); /* acknowledged, not stored */
	}
	return rb_tlk_srv_handle(&b->s, m, data, b_out, b);
}

/* Serve until the client closes its end. */
static void *b_serve(void *arg)
{
	struct broken *b = arg;
	uint8_t in[1 << 16];
	size_t have = 0, off, need;
	struct rb_tlk_msg m;
	ssize_t n;

	for (;;) {
		n = recv(b->fd, in + have, sizeof(in) - have, 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			break;
		have += n > 0 ? (size_t)n : 0;
		for (off = 0; have - off >= RB_TLK_HDR; off += need) {
			rb_tlk_unpack(in + off, &m);
			need = RB_TLK_HDR + (rb_tlk_has_data(m.type) ? b->s.dlen : 0);
			if (have - off < need || b_handle(b, &m, in + off + RB_TLK_HDR))
				break;
		}
		memmove(in, in + off, have - off);
		have -= off;
		if (b->len && send(b->fd, b->out, b->len, MSG_NOSIGNAL) != (ssize_t)b->len)
			break;
		b->len = 0;
	}
	return NULL;
}

/* The client's point against server fault @f; its return. */
static int against(enum fault f, uint64_t qps, bool verify)
{
	struct broken b = { .f = f };
	struct pair x;
	pthread_t t;
	int ret;

	lock_pair(&x, qps, 50, verify);
	x.s[0].r.timeout_ns = 1000000000ULL;
	assert_int_equal(rb_tlk_srv_init(&b.s, &x.p, x.s[1].r.c.buf), 0);
	b.fd = x.s[1].r.c.data_fd;
	assert_int_equal(pthread_create(&t, NULL, b_serve, &b), 0);
	ret = x.s[0].r.bench->run(&x.s[0].r);
	if (!ret)
		ret = x.s[0].r.bench->result(&x.s[0].r, &x.s[0].res);
	shutdown(x.s[0].r.c.data_fd, SHUT_RDWR);
	assert_int_equal(pthread_join(t, NULL), 0);
	rb_tlk_srv_free(&b.s);
	pair_free(&x);
	return ret;
}

static void broken_servers(void **state)
{
	(void)state;
	/* Two contenders ask at once; the second is granted the held lock. */
	assert_int_equal(against(GRANT_HELD, 2, false), -EILSEQ);
	/* A lost WRITE: --verify's read-back sees the counter unchanged. */
	assert_int_equal(against(DROP_WRITE, 1, true), -EILSEQ);
	assert_int_equal(against(DROP_WRITE, 1, false), 0);
	/* The waiter's grant never comes: the timeout, not a hang. */
	assert_int_equal(against(NO_HANDOFF, 2, false), -ETIMEDOUT);
}

/*
 * The plan, as the server validates a client's: -q and --verify taken,
 * --lock (the server's FIFO is its algorithm) and --threads refused;
 * tcp_bw takes no -q.
 */
static void plan_rules(void **state)
{
	struct rb_params p = plan_of("tcp_lock");
	char e[512];

	(void)state;
	rb_axis_set1(&p.qps, 4);
	p.verify = 1;
	p.locks = 3;
	p.cs_bytes = 64;
	assert_int_equal(rb_plan_validate(&p, 0, e, sizeof(e)), 0);
	rb_axis_set1(&p.lock_algo, RB_LOCK_TICKET);
	REFUSED(p, 0, "--lock does not apply to tcp_lock");
	p = plan_of("tcp_lock");
	p.threads = 2;
	REFUSED(p, 0, "tcp_lock does not take --threads");
	p = plan_of("tcp_bw");
	rb_axis_set1(&p.qps, 2);
	REFUSED(p, 0, "-q/--qps does not apply to tcp_bw");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_bytes),	      cmocka_unit_test(fifo_order),
		cmocka_unit_test(refusals_and_check), cmocka_unit_test(real_server),
		cmocka_unit_test(broken_servers),     cmocka_unit_test(plan_rules),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
