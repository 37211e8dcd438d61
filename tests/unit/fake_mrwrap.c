// SPDX-License-Identifier: MIT
/* ibv_reg_mr and ibv_dereg_mr on the fake provider (fake_mrwrap.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fake_mrwrap.h"

struct fake_mrs fake_mrs;

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access)
{
	struct ibv_mr *mr;

	(void)iova;
	(void)access;
	if (fake_mrs.refuse) {
		errno = fake_mrs.refuse;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	assert_non_null(mr);
	mr->pd = pd;
	mr->addr = addr;
	mr->length = len;
	mr->lkey = 0x7000 + (uint32_t)fake_mrs.regs++;
	fake_mrs.len = len;
	if (fake_mrs.f)
		fake_mr_add(fake_mrs.f, mr);
	if (++fake_mrs.live > fake_mrs.max_live)
		fake_mrs.max_live = fake_mrs.live;
	return mr;
}

int __wrap_ibv_dereg_mr(struct ibv_mr *mr)
{
	if (fake_mrs.f)
		fake_mr_del(fake_mrs.f, mr);
	free(mr);
	fake_mrs.deregs++;
	fake_mrs.live--;
	return 0;
}
