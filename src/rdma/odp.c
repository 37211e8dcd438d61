// SPDX-License-Identifier: MIT
/*
 * On-demand paging: what a device lacks of it for RC (verbs.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rdma/verbs.h"

/* A library call's errno as a return value, as verbs.c's lib_errno(). */
static int lib_errno(int err)
{
	return err == EINVAL || !err ? -EIO : -err;
}

const char *rb_odp_missing(uint64_t general_caps, uint32_t rc_caps, uint32_t need, char *buf,
			   size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} verbs[] = {
		{ IBV_ODP_SUPPORT_SEND, "SEND" },     { IBV_ODP_SUPPORT_RECV, "RECV" },
		{ IBV_ODP_SUPPORT_WRITE, "WRITE" },   { IBV_ODP_SUPPORT_READ, "READ" },
		{ IBV_ODP_SUPPORT_ATOMIC, "ATOMIC" }, { IBV_ODP_SUPPORT_SRQ_RECV, "SRQ_RECV" }
	};
	size_t i, off = 0;

	buf[0] = '\0';
	if (!(general_caps & IBV_ODP_SUPPORT)) {
		snprintf(buf, len,
			 "no on-demand paging at all (odp_caps.general_caps lacks "
			 "IBV_ODP_SUPPORT)");
		return buf;
	}
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]) && off < len; i++)
		if ((need & verbs[i].bit) && !(rc_caps & verbs[i].bit))
			off += (size_t)snprintf(buf + off, len - off, "%s IBV_ODP_SUPPORT_%s",
						off ? ","
						    : "odp_caps.per_transport_caps.rc_odp_caps "
						      "lacks",
						verbs[i].name);
	return buf;
}

int rb_odp_check(struct rb_dev *d, uint32_t need)
{
	struct ibv_device_attr_ex ex;
	char why[256];
	int ret;

	memset(&ex, 0, sizeof(ex));
	ret = ibv_query_device_ex(d->ctx, NULL, &ex);
	if (ret && ret != EOPNOTSUPP && ret != ENOSYS) {
		rb_err("%s: ibv_query_device_ex: %s", d->name, strerror(ret));
		return lib_errno(ret);
	}
	/* A provider without the extended query has no ODP to report. */
	rb_odp_missing(ret ? 0 : ex.odp_caps.general_caps,
		       ret ? 0 : ex.odp_caps.per_transport_caps.rc_odp_caps, need, why,
		       sizeof(why));
	if (!why[0])
		return 0;
	rb_err("--odp: %s cannot register on-demand paging memory for RC: %s", d->name, why);
	return -EOPNOTSUPP;
}
