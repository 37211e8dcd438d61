// SPDX-License-Identifier: MIT
/* --cq-moderation's grammar (core/cqmod.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cqmod.h"

/* A decimal in 0..65535 at *@p, moved past it; -1 when there is none. */
static long number(const char **p)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > 65535)
		return -1;
	*p = end;
	return v;
}

int rb_cqmod_parse(const char *arg, struct rb_cqmod *m, char *err, size_t len)
{
	const char *p = arg;
	long count, usec = 0;

	*m = (struct rb_cqmod){ 0, 0 };
	if (!arg || !*arg)
		return 0;
	count = number(&p);
	if (count >= 1 && *p == '/') {
		p++;
		usec = number(&p);
	}
	if (count < 1 || usec < 0 || *p) {
		snprintf(err, len,
			 "--cq-moderation '%s': want COUNT[/USEC], COUNT 1 to 65535 completions "
			 "and USEC 0 to 65535 microseconds (16, 16/10)",
			 arg);
		return -EINVAL;
	}
	m->count = (uint16_t)count;
	m->usec = (uint16_t)usec;
	return 0;
}

int rb_cqmod_check(const char *arg, char *err, size_t len)
{
	struct rb_cqmod m;

	return rb_cqmod_parse(arg, &m, err, len);
}
