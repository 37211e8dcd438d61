// SPDX-License-Identifier: MIT
/*
 * rdmabench server, once it listens: every capability but CAP_IPC_LOCK
 * dropped (registered memory past RLIMIT_MEMLOCK needs it; nothing else
 * the server does needs one), from the bounding set too, and no new
 * privileges for anything it runs.  Through libcap.
 */
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "session/session.h"

/* The bounding set: every capability but @keep (needs CAP_SETPCAP, held until now). */
static void drop_bound(cap_value_t keep)
{
	cap_value_t c;

	for (c = 0; cap_valid(c); c++)
		if (c != keep && CAP_IS_SUPPORTED(c))
			cap_drop_bound(c);
}

int rb_drop_privs(void)
{
	cap_value_t keep = CAP_IPC_LOCK;
	cap_flag_value_t had = CAP_CLEAR;
	cap_t now = cap_get_proc(), want = cap_init();
	int ret = 0, same;

	if (!now || !want) {
		ret = -errno;
		rb_warn("server: cannot read this process's capabilities: %s", strerror(errno));
		goto out;
	}
	cap_get_flag(now, keep, CAP_PERMITTED, &had);
	if (had == CAP_SET) {
		cap_set_flag(want, CAP_PERMITTED, 1, &keep, CAP_SET);
		cap_set_flag(want, CAP_EFFECTIVE, 1, &keep, CAP_SET);
	}
	same = !cap_compare(now, want);
	if (!same)
		drop_bound(keep);
	if (!same && cap_set_proc(want)) {
		ret = -errno;
		rb_warn("server: cannot drop its capabilities: %s", strerror(errno));
		goto out;
	}
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (!same)
		rb_info("server: capabilities dropped but %s",
			had == CAP_SET ? "CAP_IPC_LOCK" : "none");
out:
	if (now)
		cap_free(now);
	if (want)
		cap_free(want);
	return ret;
}
