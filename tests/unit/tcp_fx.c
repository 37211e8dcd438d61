// SPDX-License-Identifier: MIT
/* The socket tests' pair of sides (tcp_fx.h). */
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "tcp_fx.h"

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

/* A connected pair of TCP sockets on the loopback, with 10 ms timeouts as the session sets. */
void connect_pair(int fd[2])
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

void pair_init(struct pair *x, const char *test, uint32_t size, uint64_t iters, bool bidir)
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

void pair_free(struct pair *x)
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

void *run_side(void *arg)
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

void run_pair(struct pair *x)
{
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, run_side, &x->s[1]), 0);
	run_side(&x->s[0]);
	assert_int_equal(pthread_join(t, NULL), 0);
}
