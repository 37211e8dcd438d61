// SPDX-License-Identifier: MIT
/* The lock's unit tests' fixture (lock_fx.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/sweep.h"
#include "lock_fx.h"
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
