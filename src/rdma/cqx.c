// SPDX-License-Identifier: MIT
/* The extended CQ (rdma/cqx.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/rdmabench.h"
#include "core/provider.h"
#include "rdma/cqx.h"

uint8_t rb_cqx_kind_for(const struct rb_provider *p, const char *release)
{
	unsigned int major = 0;

	if (!p || !p->cqx_batch_from)
		return RB_CQX_BATCH;
	/* "" or not a release: unknown, 0 */
	if (!release || sscanf(release, "%u.", &major) != 1)
		major = 0;
	return major >= p->cqx_batch_from ? RB_CQX_BATCH : RB_CQX_ONE;
}

int rb_cq_create_ex_on(struct rb_dev *d, uint64_t cqe, struct ibv_comp_channel *chan,
		       uint32_t vector, struct ibv_cq **cq)
{
	struct ibv_cq_init_attr_ex a = {
		.comp_vector = vector,
		.channel = chan,
		.wc_flags = RB_CQX_WC_FLAGS,
	};
	struct ibv_cq_ex *x;
	int ret = rb_cq_check(d, cqe, vector);

	if (ret)
		return ret;
	a.cqe = (uint32_t)cqe;
	x = ibv_create_cq_ex(d->ctx, &a);
	if (!x) {
		ret = errno ? -errno : -EOPNOTSUPP;
		if (ret == -EOPNOTSUPP)
			return ret;
		rb_err("%s: ibv_create_cq_ex(%llu entries): %s", d->name, (unsigned long long)cqe,
		       strerror(-ret));
		return ret;
	}
	*cq = ibv_cq_ex_to_cq(x);
	return 0;
}

void rb_cqx_fill_error(struct ibv_cq_ex *cq, struct ibv_wc *wc)
{
	wc->vendor_err = ibv_wc_read_vendor_err(cq);
	wc->qp_num = ibv_wc_read_qp_num(cq);
	wc->wc_flags = 0;
}

/* One completion, everything a slow path reads of it. */
static void fill_full(struct ibv_cq_ex *cq, struct ibv_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = cq->wr_id;
	wc->status = cq->status;
	if (cq->status != IBV_WC_SUCCESS) {
		rb_cqx_fill_error(cq, wc);
		return;
	}
	wc->opcode = ibv_wc_read_opcode(cq);
	wc->byte_len = ibv_wc_read_byte_len(cq);
	wc->qp_num = ibv_wc_read_qp_num(cq);
	wc->wc_flags = (unsigned int)ibv_wc_read_wc_flags(cq);
	if (wc->wc_flags & IBV_WC_WITH_IMM)
		wc->imm_data = ibv_wc_read_imm_data(cq);
}

int rb_cqx_poll_one(struct ibv_cq *ibcq, int max, struct ibv_wc *wc, bool full)
{
	struct ibv_cq_ex *cq = rb_cqx_of(ibcq);
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n, ret = 0;

	for (n = 0; n < max; n++) {
		ret = ibv_start_poll(cq, &attr);
		if (ret)
			break;
		if (full) {
			fill_full(cq, &wc[n]);
		} else {
			wc[n].wr_id = cq->wr_id;
			wc[n].status = cq->status;
			if (cq->status != IBV_WC_SUCCESS)
				rb_cqx_fill_error(cq, &wc[n]);
		}
		ibv_end_poll(cq);
	}
	return ret && ret != ENOENT ? -ret : n;
}

int rb_cqx_poll_full(struct ibv_cq *ibcq, int max, struct ibv_wc *wc, uint8_t kind)
{
	struct ibv_cq_ex *cq = rb_cqx_of(ibcq);
	struct ibv_poll_cq_attr attr = { .comp_mask = 0 };
	int n = 0, ret;

	if (kind == RB_CQX_ONE)
		return rb_cqx_poll_one(ibcq, max, wc, true);
	ret = ibv_start_poll(cq, &attr);
	if (ret)
		return ret == ENOENT ? 0 : -ret;
	for (;;) {
		fill_full(cq, &wc[n]);
		if (++n == max)
			break;
		ret = ibv_next_poll(cq);
		if (ret)
			break;
	}
	ibv_end_poll(cq);
	return ret && ret != ENOENT ? -ret : n;
}

int rb_cq_moderate(struct rb_dev *d, struct ibv_cq *cq, uint16_t count, uint16_t usec)
{
	struct ibv_modify_cq_attr a = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = { .cq_count = count, .cq_period = usec },
	};
	int ret = ibv_modify_cq(cq, &a);

	if (!ret)
		return 0;
	if (ret == EOPNOTSUPP || ret == ENOSYS) {
		rb_err("--cq-moderation %u/%u: %s (provider %s) cannot moderate a CQ "
		       "(ibv_modify_cq: "
		       "%s); leave --cq-moderation out on this side",
		       count, usec, d->name, d->prov ? d->prov->name : "unknown", strerror(ret));
		return -EOPNOTSUPP;
	}
	rb_err("--cq-moderation %u/%u: %s: ibv_modify_cq: %s", count, usec, d->name, strerror(ret));
	return -ret;
}
