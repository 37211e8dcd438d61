// SPDX-License-Identifier: MIT
/* The lock's unit tests' fixture (lock_fx.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "lock_fx.h"
#include "session/lockshare.h"
#include "wire/plan.h"

void lx_start(struct lx *x, enum rb_lock_algo_id algo, uint32_t contenders, uint32_t locks,
	      uint32_t cs, unsigned int timeout_ms)
{
	char err[256];
	int sv[2];

	memset(x, 0, sizeof(*x));
	x->p = fake_plan("lock");
	rb_axis_set1(&x->p.qps, contenders);
	rb_axis_set1(&x->p.lock_algo, algo);
	x->p.locks = locks;
	x->p.cs_bytes = cs;
	x->p.iters = 300;
	x->p.warmup = 20;
	x->p.verify = 1;
	if (rb_plan_validate(&x->p, 0, err, sizeof(err)))
		fail_msg("plan refused: %s", err);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	x->f = fake_new(contenders, 8);
	fake_run_init(x->f, &x->r, rb_bench_find("lock"), RB_ROLE_CLIENT, &x->p, &x->oob, sv[0],
		      timeout_ms);
	x->peer_fd = sv[1];
	x->f->loopback = true;
	x->f->delay = 3; /* completions lag: contenders' WRs interleave at the word */
	rb_lock_layout(&x->p, contenders, &x->l);
}

void lx_end(struct lx *x)
{
	rb_lock_run_free(&x->lk);
	fake_run_free(&x->r);
	fake_free(x->f);
	rb_oob_close(&x->oob);
	close(x->peer_fd);
}

int lx_host_open(struct lx_host *h, struct rb_params *p, int lock_fd)
{
	int sv[2];

	memset(h, 0, sizeof(*h));
	h->lock_fd = lock_fd;
	if (sess_lockshare_attach(p, lock_fd, "test-host", &h->ls) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 10;
	h->f = fake_new((uint32_t)rb_axis_max(&p->qps), 8);
	fake_run_init(h->f, &h->r, rb_bench_find("lock"), RB_ROLE_CLIENT, p, &h->oob, sv[0], 5000);
	h->f->loopback = true;
	h->f->delay = 2;
	h->buf = mmap(NULL, 2 * h->r.c.region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (h->buf == MAP_FAILED || sess_lockshare_map(h->ls, h->buf, 2 * h->r.c.region))
		return 11;
	free(h->r.c.buf);
	h->r.c.buf = h->buf;
	h->f->mr.addr = h->buf;
	h->r.c.remote.addr = (uintptr_t)h->buf;
	rb_wrs_free(&h->r);
	return rb_wrs_prepare(&h->r) ? 12 : 0;
}

void lx_host_close(struct lx_host *h)
{
	munmap(h->buf, 2 * h->r.c.region);
	h->r.c.buf = NULL;
	fake_run_free(&h->r);
	fake_free(h->f);
	sess_lockshare_detach(h->ls, h->lock_fd);
}
