// SPDX-License-Identifier: MIT
/*
 * On-demand paging: what a device lacks of it for a transport (verbs.h).
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

const char *rb_odp_missing(const struct ibv_odp_caps *caps, unsigned int tr, uint32_t need,
			   char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} verbs[] = {
		{ IBV_ODP_SUPPORT_SEND, "SEND" },     { IBV_ODP_SUPPORT_RECV, "RECV" },
		{ IBV_ODP_SUPPORT_WRITE, "WRITE" },   { IBV_ODP_SUPPORT_READ, "READ" },
		{ IBV_ODP_SUPPORT_ATOMIC, "ATOMIC" }, { IBV_ODP_SUPPORT_SRQ_RECV, "SRQ_RECV" }
	};
	/* SRD (EFA) has no odp_caps of its own: tr past UD is refused below. */
	static const char *const fields[RB_TR_SRD] = { "rc_odp_caps", "uc_odp_caps",
						       "ud_odp_caps" };
	const uint32_t have[RB_TR_SRD] = { caps->per_transport_caps.rc_odp_caps,
					   caps->per_transport_caps.uc_odp_caps,
					   caps->per_transport_caps.ud_odp_caps };
	size_t i, off = 0;
	int n;

	buf[0] = '\0';
	if (!(caps->general_caps & IBV_ODP_SUPPORT)) {
		snprintf(buf, len,
			 "no on-demand paging at all (odp_caps.general_caps lacks "
			 "IBV_ODP_SUPPORT)");
		return buf;
	}
	if (tr >= RB_TR_SRD) {
		snprintf(buf, len, "%s has no odp_caps", rb_transport_name(tr));
		return buf;
	}
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]) && off < len; i++) {
		if (!(need & verbs[i].bit) || (have[tr] & verbs[i].bit))
			continue;
		n = off ? snprintf(buf + off, len - off, ", IBV_ODP_SUPPORT_%s", verbs[i].name)
			: snprintf(buf, len,
				   "odp_caps.per_transport_caps.%s lacks IBV_ODP_SUPPORT_%s",
				   fields[tr], verbs[i].name);
		off += n > 0 ? (size_t)n : 0;
	}
	return buf;
}

int rb_odp_check(struct rb_dev *d, unsigned int tr, uint32_t need)
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
	if (ret)
		memset(&ex.odp_caps, 0, sizeof(ex.odp_caps));
	rb_odp_missing(&ex.odp_caps, tr, need, why, sizeof(why));
	if (!why[0])
		return 0;
	rb_err("--odp: %s cannot register on-demand paging memory for %s: %s", d->name,
	       rb_transport_name(tr), why);
	return -EOPNOTSUPP;
}
