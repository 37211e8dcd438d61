// SPDX-License-Identifier: MIT
/*
 * The words of an MR's access rights (--access local-write,remote-read,...)
 * as IBV_ACCESS_* bits.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <string.h>

#include "rdma/access.h"

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

static const struct {
	const char *word;
	int bit;
} access_words[] = {
	{ "local-write", IBV_ACCESS_LOCAL_WRITE },
	{ "remote-read", IBV_ACCESS_REMOTE_READ },
	{ "remote-write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote-atomic", IBV_ACCESS_REMOTE_ATOMIC },
	{ "relaxed-ordering", IBV_ACCESS_RELAXED_ORDERING },
};

#define NWORDS (sizeof(access_words) / sizeof(access_words[0]))

static int access_word(const char *w, size_t l)
{
	size_t i;

	for (i = 0; i < NWORDS; i++)
		if (strlen(access_words[i].word) == l && !strncmp(access_words[i].word, w, l))
			return access_words[i].bit;
	return 0;
}

int rb_reg_access_parse(const char *arg, int *access, char *err, size_t len)
{
	const char *s = arg;
	int bit, need_lw = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC;

	*access = 0;
	for (;;) {
		size_t l = strcspn(s, ",");

		bit = access_word(s, l);
		if (!bit)
			return fail(err, len,
				    "--access '%s': '%.*s' is not one of local-write, remote-read, "
				    "remote-write, remote-atomic, relaxed-ordering",
				    arg, (int)l, s);
		*access |= bit;
		if (!s[l])
			break;
		s += l + 1;
	}
	if ((*access & need_lw) && !(*access & IBV_ACCESS_LOCAL_WRITE))
		return fail(err, len,
			    "--access '%s': remote-write and remote-atomic need local-write too",
			    arg);
	return 0;
}

int rb_reg_access_check(const char *arg, char *err, size_t len)
{
	int access;

	return rb_reg_access_parse(arg, &access, err, len);
}
