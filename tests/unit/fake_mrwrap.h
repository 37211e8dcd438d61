/* SPDX-License-Identifier: MIT */
/*
 * ibv_reg_mr and ibv_dereg_mr on the fake provider, for the streams that
 * register per message (--reg-mode per-msg and cache): a test links
 * fake_mrwrap.c and -Wl,--wrap=ibv_reg_mr_iova2 -Wl,--wrap=ibv_dereg_mr.
 * Each MR is made in memory, with lkey 0x7000 + its number, and entered
 * in (left from) fake_mrs.f's table of keys, so that the fake checks
 * every WR's SGE against it as a NIC does.
 */
#ifndef FAKE_MRWRAP_H
#define FAKE_MRWRAP_H

#include "fake_verbs.h"

struct fake_mrs {
	int regs, deregs, live, max_live; /* counts since the test zeroed them */
	int refuse;			  /* not 0: ibv_reg_mr fails with this errno */
	size_t len;			  /* the last MR's length */
	struct fake *f;			  /* NULL: the MRs are in no fake's table */
};
extern struct fake_mrs fake_mrs;

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				       unsigned int access);
int __wrap_ibv_dereg_mr(struct ibv_mr *mr);

#endif
