// SPDX-License-Identifier: MIT
/* --cq-moderation's grammar (core/cqmod.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cqmod.h"
#include "core/rdmabench.h"

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

int rb_cqmod_item(const char *item, uint64_t *v, char *err, size_t len)
{
	struct rb_cqmod m;
	int ret = rb_cqmod_parse(item, &m, err, len);

	*v = 0;
	if (!ret && !m.count) { /* "": an empty item of the list */
		snprintf(err, len,
			 "--cq-moderation: an empty item; want COUNT[/USEC][,...] (16, 1,16/10)");
		return -EINVAL;
	}
	if (!ret)
		*v = RB_CQMOD(m.count, m.usec);
	return ret;
}

const char *rb_cqmod_str(uint64_t v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "none");
	else if (!RB_CQMOD_USEC(v))
		snprintf(buf, len, "%u", RB_CQMOD_COUNT(v));
	else
		snprintf(buf, len, "%u/%u", RB_CQMOD_COUNT(v), RB_CQMOD_USEC(v));
	return buf;
}

void rb_cqmod_list(const struct rb_axis *a, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;
	char one[16];

	if (len)
		buf[0] = '\0';
	for (i = 0; i < a->n && off + 1 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "",
					rb_cqmod_str(a->v[i], one, sizeof(one)));
}
