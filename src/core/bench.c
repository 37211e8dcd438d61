// SPDX-License-Identifier: MIT
#include <string.h>

#include <infiniband/verbs.h>

#include "core/bench.h"

/*
 * The rows, NULL-terminated, in help order: bench/'s list
 * (src/bench/benches.c), which registers itself at start, as fio's
 * engines do; core/ names no row of the layer above.  Empty until then.
 */
static const struct rb_bench *const no_rows[] = { NULL };
const struct rb_bench *const *rb_benches = no_rows;

void rb_benches_set(const struct rb_bench *const *rows)
{
	rb_benches = rows ? rows : no_rows;
}

const struct rb_bench *rb_bench_find(const char *name)
{
	size_t i;

	for (i = 0; rb_benches[i]; i++)
		if (!strcmp(rb_benches[i]->name, name))
			return rb_benches[i];
	return NULL;
}

unsigned int rb_bench_scope(const struct rb_bench *b)
{
	unsigned int s = RB_S_TEST | (b->mode == RB_MODE_LAT ? RB_S_LAT : RB_S_BW);

	if (b->path == RB_PATH_VERBS)
		s |= RB_S_VERBS;
	if (b->needs_recv)
		s |= RB_S_RECV;
	if (b->inline_ok)
		s |= RB_S_INLINE;
	if (b->bounded_by_rd_atom)
		s |= RB_S_RD_ATOM;
	if (b->atomic && !b->lock)
		s |= RB_S_ATOMIC;
	if (b->lock)
		s |= RB_S_LOCK;
	if (b->lock || (b->path == RB_PATH_VERBS && b->mode == RB_MODE_BW))
		s |= RB_S_QPS;
	if (!b->fixed_size)
		s |= RB_S_SIZED;
	if (b->bidir_ok)
		s |= RB_S_BIDIR;
	if (b->imm_ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		s |= RB_S_SEND_IMM;
	if (b->imm_ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		s |= RB_S_WRITE_IMM;
	return s;
}

bool rb_bench_receives(const struct rb_bench *b, const struct rb_params *p)
{
	return b->needs_recv || (p->imm && b->imm_ops);
}

uint32_t rb_bench_odp_need(const struct rb_bench *b, const struct rb_params *p)
{
	uint32_t need = b->odp_caps;

	if (rb_bench_receives(b, p))
		need |= IBV_ODP_SUPPORT_RECV;
	if (p->srq && (need & IBV_ODP_SUPPORT_RECV))
		need = (need & ~(uint32_t)IBV_ODP_SUPPORT_RECV) | IBV_ODP_SUPPORT_SRQ_RECV;
	return need;
}

unsigned int rb_family_scope(const char *family)
{
	unsigned int s = 0;
	size_t i;

	for (i = 0; rb_benches[i]; i++)
		if (rb_benches[i]->family && !strcmp(rb_benches[i]->family, family))
			s |= rb_bench_scope(rb_benches[i]) | RB_S_FAMILY;
	return s;
}

const struct rb_bench *rb_family_pick(const char *family, enum rb_mode mode)
{
	size_t i;

	for (i = 0; rb_benches[i]; i++)
		if (rb_benches[i]->family && !strcmp(rb_benches[i]->family, family) &&
		    rb_benches[i]->mode == mode)
			return rb_benches[i];
	return NULL;
}

bool rb_bench_in(const struct rb_bench *b, const char *what)
{
	return !what || !strcmp(b->name, what) || (b->family && !strcmp(b->family, what));
}
