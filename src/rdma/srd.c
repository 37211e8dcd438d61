// SPDX-License-Identifier: MIT
/*
 * EFA's SRD QPs (-c SRD) through efadv, when configure found libefa
 * (HAVE_EFADV): which verbs a device's SRD QPs take (efadv_query_device)
 * and the QP itself (efadv_create_qp_ex).  Built without it, -c SRD is
 * refused naming the build.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef HAVE_EFADV
#include <infiniband/efadv.h>
#endif

#include "rdma/verbs.h"

/* EFADV_DEVICE_ATTR_CAPS_RDMA_WRITE, rdma-core 45 on (an enum: no #ifdef). */
#define SRD_CAPS_RDMA_WRITE (1u << 3)

bool rb_srd_built(void)
{
#ifdef HAVE_EFADV
	return true;
#else
	return false;
#endif
}

uint64_t rb_srd_ops(struct rb_dev *d)
{
#ifdef HAVE_EFADV
	struct efadv_device_attr a;
	uint64_t ops = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;

	memset(&a, 0, sizeof(a));
	if (efadv_query_device(d->ctx, &a, sizeof(a)))
		return 0;
	if (a.device_caps & EFADV_DEVICE_ATTR_CAPS_RDMA_READ)
		ops |= IBV_QP_EX_WITH_RDMA_READ;
	if (a.device_caps & SRD_CAPS_RDMA_WRITE)
		ops |= IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	return ops;
#else
	(void)d;
	return 0;
#endif
}

const char *rb_wr_ops_str(uint64_t ops, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = {
		{ IBV_QP_EX_WITH_SEND, "SEND" },
		{ IBV_QP_EX_WITH_SEND_WITH_IMM, "SEND_WITH_IMM" },
		{ IBV_QP_EX_WITH_RDMA_WRITE, "RDMA_WRITE" },
		{ IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM, "RDMA_WRITE_WITH_IMM" },
		{ IBV_QP_EX_WITH_RDMA_READ, "RDMA_READ" },
		{ IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP" },
		{ IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, "ATOMIC_FETCH_AND_ADD" },
	};
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && off < len; i++)
		if (ops & names[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						names[i].name);
	if (!off && len)
		snprintf(buf, len, "none");
	return buf;
}

struct ibv_qp *rb_srd_create(struct rb_dev *d, struct ibv_qp_init_attr_ex *a)
{
#ifdef HAVE_EFADV
	struct efadv_qp_init_attr e = { .driver_qp_type = EFADV_QP_DRIVER_TYPE_SRD };

	a->qp_type = IBV_QPT_DRIVER;
	a->comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	return efadv_create_qp_ex(d->ctx, a, &e, sizeof(e));
#else
	(void)d;
	(void)a;
	errno = EOPNOTSUPP;
	return NULL;
#endif
}
