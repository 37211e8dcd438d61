// SPDX-License-Identifier: MIT
/*
 * The host's part of a lock holder's mark (lock.h): its name, the
 * process's pid and a random nonce of the process's own, folded.  Two
 * identical containers or VMs (one host name, one small pid) draw
 * different nonces, so that one's holder trampling the other's critical
 * section reads back a mark that is not its own.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/hash.h"
#include "engine/lock.h"

/* The nonce and the process that drew it: a forked child draws its own. */
static struct {
	pthread_mutex_t mu;
	pid_t pid;
	uint8_t v[8];
} nonce = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* This process's nonce into @v: 0 or -errno (logged). */
static int nonce_get(uint8_t *v)
{
	int ret = 0;

	pthread_mutex_lock(&nonce.mu);
	if (nonce.pid != getpid()) {
		/* Blocks only until the kernel's generator is seeded, early in a boot. */
		if (getrandom(nonce.v, sizeof(nonce.v), 0) == (ssize_t)sizeof(nonce.v))
			nonce.pid = getpid();
		else
			ret = errno ? -errno : -EIO;
	}
	if (!ret)
		memcpy(v, nonce.v, sizeof(nonce.v));
	pthread_mutex_unlock(&nonce.mu);
	if (ret)
		rb_err("lock: no random nonce for the holder's mark (getrandom: %s)",
		       strerror(-ret));
	return ret;
}

int rb_lock_host_mark_of(const char *name, pid_t pid, uint32_t *mark)
{
	uint8_t v[sizeof(nonce.v)];
	uint32_t h = RB_FNV1A_SEED;
	int ret = nonce_get(v);

	if (ret)
		return ret;
	h = rb_fnv1a(h, name, strlen(name));
	h = rb_fnv1a(h, &pid, sizeof(pid));
	h = rb_fnv1a(h, v, sizeof(v));
	*mark = h ? h : 1;
	return 0;
}

int rb_lock_host_mark(uint32_t *mark)
{
	char name[64] = "";

	if (gethostname(name, sizeof(name) - 1))
		name[0] = 0;
	return rb_lock_host_mark_of(name, getpid(), mark);
}
