// SPDX-License-Identifier: MIT
/*
 * --cq-moderation as an axis (issue 40): at each point's start both
 * sides moderate their CQs (every one, with --cq-per-qp) to the point's
 * value, so that a sweep 1,16/10,64/50 measures each setting; nothing when
 * the plan's axis is empty.  A provider without ibv_modify_cq is refused
 * by rb_cq_moderate(), naming the device.
 */
#include "core/cqmod.h"
#include "rdma/cqx.h"
#include "engine/run.h"

int rb_cqmod_point(struct rb_run *r)
{
	uint32_t i, n = r->c.cqs ? r->c.nqp : 1;
	int ret = 0;

	if (!r->p->cq_mod.n || !r->c.cq)
		return 0;
	for (i = 0; !ret && i < n; i++)
		ret = rb_cq_moderate(&r->c.dev, r->c.cqs ? r->c.cqs[i] : r->c.cq,
				     RB_CQMOD_COUNT(r->pt.cq_mod), RB_CQMOD_USEC(r->pt.cq_mod));
	return ret;
}
