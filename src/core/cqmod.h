/* SPDX-License-Identifier: MIT */
/*
 * --cq-moderation COUNT[/USEC][,...] (issue 40): a CQ raises a completion
 * event only once COUNT completions are in it, or USEC microseconds after
 * the first (ibv_modify_cq with IBV_CQ_ATTR_MODERATE, rdma/cqx.h).  A
 * sweep axis: each point's value is applied to both sides' CQs at its
 * start (the engine's rb_point_begin()).  Pure.
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

/*
 * A point's moderation as one axis value (struct rb_params' cq_mod, the
 * wire's tag 52): COUNT in bits 16..31, USEC in 0..15; 0: none (COUNT is
 * never 0), so the option row's range, RB_CQMOD(1, 0) to
 * RB_CQMOD(65535, 65535), refuses a value of no COUNT.
 */
#define RB_CQMOD(count, usec) (((uint32_t)(count) << 16) | (uint32_t)(usec))
#define RB_CQMOD_COUNT(v)     ((uint16_t)((v) >> 16))
#define RB_CQMOD_USEC(v)      ((uint16_t)((v)&0xffff))

/*
 * rb_cqmod_item() - one item of the axis, "COUNT[/USEC]", into @v as
 * RB_CQMOD(); the option row's .item.  0, or -EINVAL as rb_cqmod_parse().
 */
int rb_cqmod_item(const char *item, uint64_t *v, char *err, size_t len);

/* rb_cqmod_str() - value @v as "16/10" ("none" for 0) into @buf; returns @buf. */
const char *rb_cqmod_str(uint64_t v, char *buf, size_t len);

/* rb_cqmod_list() - axis @a as "1,16/10" ("" when empty; cut at @len) into @buf. */
struct rb_axis;
void rb_cqmod_list(const struct rb_axis *a, char *buf, size_t len);

#endif
