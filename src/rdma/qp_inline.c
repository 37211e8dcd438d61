// SPDX-License-Identifier: MIT
/*
 * Inline data (issue 40): what a QP is asked for, from -I and the
 * provider's row, and what it took (verbs.h).
 */
#include <string.h>

#include "core/provider.h"
#include "core/rdmabench.h"
#include "rdma/verbs.h"

uint32_t rb_inline_ask(const struct rb_dev *d, uint32_t want)
{
	uint32_t most = d->prov && d->prov->max_inline ? d->prov->max_inline : RB_INLINE_GENERIC;

	if (want == RB_INLINE_AUTO)
		return most;
	/* A provider without a known limit is asked what -I says. */
	return d->prov && d->prov->max_inline && want > most ? most : want;
}

uint32_t rb_qp_inline_took(struct ibv_qp *qp, const struct ibv_qp_init_attr_ex *created)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	memset(&attr, 0, sizeof(attr));
	memset(&init, 0, sizeof(init));
	if (ibv_query_qp(qp, &attr, IBV_QP_CAP, &init))
		return created->cap.max_inline_data;
	return attr.cap.max_inline_data;
}
