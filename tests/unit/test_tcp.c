// SPDX-License-Identifier: MIT
/*
 * The socket tests' loops (src/engine/sock.c) over a real TCP connection
 * on the loopback, each side in its thread, with a fake control channel
 * that carries the STOPs between them: what only the lab reached before.
 *
 * - tcp_lat: as many round trips as -n on both sides, positive one-way
 *   latencies, the server's samples as many as the client's;
 * - tcp_bw: the server counts every message the client sent, both report
 *   bandwidth; -b: each side sends its -n and receives the peer's;
 * - a peer that closes the connection ends the point with ECONNRESET, and
 *   a silent one with ETIMEDOUT after the timeout.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "engine/run.h"

/* Each side's STOP, for the other side's poll. */
struct fctl {
	pthread_mutex_t m;
	bool stop[2];
	uint64_t count[2];
};

static int side(const struct rb_ctl *c)
{
	return c->role == RB_ROLE_SERVER;
}

static int f_poll(struct rb_ctl *c, uint32_t point, int wait_ms, uint64_t *count)
{
	struct fctl *f = c->priv;
	int other = !side(c), ret = RB_CTL_NOTHING;

	(void)point;
	(void)wait_ms;
	pthread_mutex_lock(&f->m);
	if (f->stop[other]) {
		f->stop[other] = false;
		*count = f->count[other];
		ret = RB_CTL_STOP;
	}
	pthread_mutex_unlock(&f->m);
	return ret;
}

static int f_stop(struct rb_ctl *c, uint32_t point, uint64_t count)
{
	struct fctl *f = c->priv;

	(void)point;
	pthread_mutex_lock(&f->m);
	f->stop[side(c)] = true;
	f->count[side(c)] = count;
	pthread_mutex_unlock(&f->m);
	return 0;
}

static int f_alive(struct rb_ctl *c, uint32_t point)
{
	(void)c;
	(void)point;
	return 0;
}

static const struct rb_ctl_ops fctl_ops = { .poll = f_poll, .stop = f_stop, .alive = f_alive };

struct side {
	struct rb_run r;
	struct rb_ctl ctl;
	struct rb_result res;
	int ret;
};

struct pair {
	struct rb_params p;
	struct fctl f;
	struct side s[2]; /* client, server */
};

/* A connected pair of TCP sockets on the loopback, with 10 ms timeouts as the session sets. */
static void connect_pair(int fd[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_usec = 10000 };
	socklen_t alen = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), i;

	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(l, 1), 0);
	assert_int_equal(getsockname(l, (struct sockaddr *)&a, &alen), 0);
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(connect(fd[0], (struct sockaddr *)&a, sizeof(a)), 0);
	fd[1] = accept(l, NULL, NULL);
	assert_true(fd[1] >= 0);
	close(l);
	for (i = 0; i < 2; i++) {
		assert_int_equal(setsockopt(fd[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
		assert_int_equal(setsockopt(fd[i], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)), 0);
	}
}

static void pair_init(struct pair *x, const char *test, uint32_t size, uint64_t iters, bool bidir)
{
	const struct rb_bench *b = rb_bench_find(test);
	int fd[2], i;

	assert_non_null(b);
	memset(x, 0, sizeof(*x));
	pthread_mutex_init(&x->f.m, NULL);
	snprintf(x->p.test, sizeof(x->p.test), "%s", test);
	rb_axis_set1(&x->p.size, size);
	x->p.iters = iters;
	x->p.warmup = 10;
	x->p.bidir = bidir;
	connect_pair(fd);
	for (i = 0; i < 2; i++) {
		struct side *s = &x->s[i];

		s->ctl = (struct rb_ctl){ .ops = &fctl_ops,
					  .role = i ? RB_ROLE_SERVER : RB_ROLE_CLIENT,
					  .peer = "fake",
					  .priv = &x->f };
		s->r.bench = b;
		s->r.role = s->ctl.role;
		s->r.bidir = bidir;
		s->r.p = &x->p;
		s->r.ctl = &s->ctl;
		s->r.timeout_ns = 5000000000ULL;
		s->r.c.data_fd = fd[i];
		s->r.c.nmr = 1;
		s->r.c.region = ((size < 64 ? 64 : size) + 63) & ~63ULL;
		s->r.c.data_len = 2 * s->r.c.region;
		s->r.c.buf = calloc(1, s->r.c.data_len);
		assert_non_null(s->r.c.buf);
		s->r.pt.size = size;
		s->r.pt.warmup = 10;
		s->r.iv.next = UINT64_MAX;
		rb_samples_reset(&s->r.lat);
	}
}

static void pair_free(struct pair *x)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (x->s[i].r.c.data_fd >= 0)
			close(x->s[i].r.c.data_fd);
		free(x->s[i].r.c.buf);
		rb_samples_free(&x->s[i].r.lat);
		rb_result_free(&x->s[i].res);
	}
	pthread_mutex_destroy(&x->f.m);
}

static void *run_side(void *arg)
{
	struct side *s = arg;

	s->ret = s->r.bench->run(&s->r);
	/* The session sends the client's STOP after its loop (the server's
	 * with -b comes from the loop itself). */
	if (!s->ret && s->r.role == RB_ROLE_CLIENT && !s->r.stop_sent)
		s->ret = s->ctl.ops->stop(&s->ctl, 0, s->r.total);
	if (!s->ret)
		s->ret = s->r.bench->result(&s->r, &s->res);
	return NULL;
}

static void run_pair(struct pair *x)
{
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, run_side, &x->s[1]), 0);
	run_side(&x->s[0]);
	assert_int_equal(pthread_join(t, NULL), 0);
}

static void tcp_lat_pingpong(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_lat", 64, 300, false);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		const struct rb_result *r = &x.s[i].res;

		assert_int_equal(x.s[i].ret, 0);
		assert_int_equal(r->iters, 300);
		assert_true(r->has_lat);
		assert_true(r->lat.min > 0 && r->lat.min <= r->lat.p50 && r->lat.p50 <= r->lat.max);
		assert_true(r->has_cpu && r->cpu_ns_per_msg > 0);
		assert_false(r->has_bw);
	}
	assert_int_equal(x.s[0].r.total, 310);
	pair_free(&x);
}

static void tcp_bw_stream(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_bw", 4096, 2000, false);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		const struct rb_result *r = &x.s[i].res;

		assert_int_equal(x.s[i].ret, 0);
		assert_int_equal(r->iters, 2000);
		assert_true(r->has_bw && r->bw_avg_gbps > 0 && r->msg_rate_mpps > 0);
		assert_true(r->bw_peak_gbps >= r->bw_avg_gbps * 0.999);
		assert_false(r->has_lat);
	}
	/* Every byte the client counted arrived. */
	assert_int_equal(x.s[1].r.total, x.s[0].r.total);
	pair_free(&x);
}

static void tcp_bw_bidir(void **state)
{
	struct pair x;
	int i;

	(void)state;
	pair_init(&x, "tcp_bw", 65536, 500, true);
	run_pair(&x);
	for (i = 0; i < 2; i++) {
		assert_int_equal(x.s[i].ret, 0);
		assert_true(x.s[i].r.stop_sent);
		assert_int_equal(x.s[i].res.iters, 500);
		assert_true(x.s[i].res.has_bw && x.s[i].res.bw_avg_gbps > 0);
	}
	pair_free(&x);
}

/* The server's peer goes away mid-point: named, ECONNRESET. */
static void tcp_peer_closes(void **state)
{
	struct pair x;

	(void)state;
	pair_init(&x, "tcp_lat", 64, 300, false);
	close(x.s[0].r.c.data_fd);
	x.s[0].r.c.data_fd = -1;
	assert_int_equal(x.s[1].r.bench->run(&x.s[1].r), -ECONNRESET);
	pair_free(&x);
}

/* A client that sends nothing: the server gives up after the timeout. */
static void tcp_silent_peer(void **state)
{
	struct pair x;

	(void)state;
	pair_init(&x, "tcp_bw", 4096, 100, false);
	x.s[1].r.timeout_ns = 200000000ULL;
	assert_int_equal(x.s[1].r.bench->run(&x.s[1].r), -ETIMEDOUT);
	pair_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tcp_lat_pingpong), cmocka_unit_test(tcp_bw_stream),
		cmocka_unit_test(tcp_bw_bidir),	    cmocka_unit_test(tcp_peer_closes),
		cmocka_unit_test(tcp_silent_peer),
	};

	rb_quiet = true;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
