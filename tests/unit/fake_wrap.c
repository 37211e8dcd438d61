// SPDX-License-Identifier: MIT
/* The wraps of libibverbs calls that the device tests share (fake_verbs.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fake_verbs.h"

struct fake_mod fake_mod;

struct ibv_qp *__wrap_ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a);
struct ibv_qp_ex *__wrap_ibv_qp_to_qp_ex(struct ibv_qp *qp);
int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask);

/* dc.c's DCT: ibv_create_qp_ex() without send_ops_flags is ibv_create_qp(). */
struct ibv_qp *__wrap_ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	return fake_create_qp(pd, a);
}

struct ibv_qp_ex *__wrap_ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	return fake_qp_to_qp_ex(qp);
}

int __wrap_ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	(void)qp;
	assert_true(a->qp_state <= IBV_QPS_RTS);
	fake_mod.at[a->qp_state] = *a;
	fake_mod.mask[a->qp_state] = mask;
	fake_mod.calls++;
	return 0;
}
