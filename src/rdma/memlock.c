// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>

#include "rdma/memlock.h"

uint64_t rb_memlock_pinned(uint64_t bytes, bool odp, bool gpu, bool gpu_host)
{
	if (odp || (gpu && !gpu_host))
		return 0;
	return bytes;
}

uint64_t rb_memlock_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return RB_MEMLOCK_INF;
	return (uint64_t)rl.rlim_cur;
}

/* CAP_IPC_LOCK (linux/capability.h): locks memory past RLIMIT_MEMLOCK. */
#define RB_CAP_IPC_LOCK 14

bool rb_memlock_binds(void)
{
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	bool found = false;

	if (rb_memlock_limit() == RB_MEMLOCK_INF)
		return false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	if (f)
		fclose(f);
	return !found || !(caps >> RB_CAP_IPC_LOCK & 1);
}

const char *rb_memlock_fmt(uint64_t limit, char *buf, size_t len)
{
	if (limit == RB_MEMLOCK_INF)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%" PRIu64 " bytes (%" PRIu64 " KiB)", limit, limit >> 10);
	return buf;
}

const char *rb_memlock_explain(int err, size_t bytes, uint64_t limit, char *buf, size_t len)
{
	char l[64];

	if (len)
		buf[0] = '\0';
	if ((err != ENOMEM && err != EPERM) || limit == RB_MEMLOCK_INF)
		return buf;
	snprintf(buf, len,
		 "; registering pins the memory and RLIMIT_MEMLOCK allows this process %s of "
		 "locked memory (%zu bytes asked%s): raise it with 'ulimit -l unlimited' in "
		 "the shell, a memlock line in /etc/security/limits.conf ('* - memlock "
		 "unlimited') or LimitMEMLOCK=infinity in a systemd unit",
		 rb_memlock_fmt(limit, l, sizeof(l)), bytes,
		 bytes > limit ? ", more than the limit" : ", with what is already pinned");
	return buf;
}

const char *rb_memlock_why(int err, size_t bytes, char *buf, size_t len)
{
	return rb_memlock_explain(err, bytes, rb_memlock_limit(), buf, len);
}
