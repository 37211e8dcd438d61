// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/ident.h"

static struct rb_ident ident;

void rb_uuid_text(const unsigned char b[16], char *buf, size_t len)
{
	unsigned char u[16];

	memcpy(u, b, sizeof(u));
	u[6] = (unsigned char)((u[6] & 0x0f) | 0x40); /* version 4: random */
	u[8] = (unsigned char)((u[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}

void rb_ident_init(int argc, char **argv)
{
	unsigned char b[16] = { 0 };
	struct utsname u;
	size_t i;

	memset(&ident, 0, sizeof(ident));
	/* GRND_NONBLOCK: early in boot a run id of less entropy beats a hang. */
	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b) &&
	    getrandom(b, sizeof(b), GRND_INSECURE) != (ssize_t)sizeof(b)) {
		/* Kernels before 5.6 and no entropy yet: unique enough for an id. */
		struct timespec t;
		pid_t pid = getpid();

		clock_gettime(CLOCK_REALTIME, &t);
		memcpy(b, &t, sizeof(t) < 12 ? sizeof(t) : 12);
		memcpy(b + 12, &pid, sizeof(pid));
	}
	rb_uuid_text(b, ident.run_id, sizeof(ident.run_id));
	for (i = 0; i < (size_t)argc; i++) {
		if (i < RB_IDENT_ARGS)
			ident.argv[ident.argc++] = argv[i];
		else
			ident.more++;
	}
	if (!uname(&u))
		snprintf(ident.kernel, sizeof(ident.kernel), "%.32s %.64s %.96s", u.sysname,
			 u.release, u.version);
}

void rb_ident_reset(void)
{
	memset(&ident, 0, sizeof(ident));
}

const struct rb_ident *rb_ident(void)
{
	return &ident;
}
