/* SPDX-License-Identifier: MIT */
/*
 * --cq-moderation COUNT[/USEC] (issue 40): a CQ raises a completion event
 * only once COUNT completions are in it, or USEC microseconds after the
 * first (ibv_modify_cq with IBV_CQ_ATTR_MODERATE, rdma/cqx.h).  Pure.
 */
#ifndef RB_CQMOD_H
#define RB_CQMOD_H

#include <stddef.h>
#include <stdint.h>

struct rb_cqmod {
	uint16_t count; /* 0: no moderation */
	uint16_t usec;
};

/*
 * rb_cqmod_parse() - @arg ("" or NULL: none) into @m: COUNT 1..65535,
 * then optionally "/" and USEC 0..65535.  0, or -EINVAL with @err naming
 * --cq-moderation, the rule and an example.
 */
int rb_cqmod_parse(const char *arg, struct rb_cqmod *m, char *err, size_t len);

/* rb_cqmod_check() - the option row's check: rb_cqmod_parse() of @arg. */
int rb_cqmod_check(const char *arg, char *err, size_t len);

#endif
