/* SPDX-License-Identifier: MIT */
/*
 * Traffic shape: the syntax of --rate and --interval, and the token bucket
 * that paces a sender.  Pure: no clock is read here, the caller passes the
 * time in ticks (clock.h), so that tests drive it with a fake clock.
 */
#ifndef RB_SHAPE_H
#define RB_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rdmabench.h"

/* Limits of --rate, per unit (rates per second). */
#define RB_RATE_BPS_MIN 1000ULL		  /* 1 Kbps */
#define RB_RATE_BPS_MAX 10000000000000ULL /* 10 Tbps */
#define RB_RATE_PPS_MIN 1ULL		  /* 1 pps */
#define RB_RATE_PPS_MAX 10000000000ULL	  /* 10 Gpps */
/* Limits of --interval, in ms. */
#define RB_INTERVAL_MS_MIN 100
#define RB_INTERVAL_MS_MAX 86400000

/*
 * rb_rate_parse() - "10Gbps", "500Mbps", "2.5Gb/s", "1Mpps", "200Kpps", or
 * a bare number, which is Gb/s as perftest's --rate_limit.  Prefixes K, M,
 * G, T are powers of 1000.  Sets *@rate (per second, rounded) and *@unit
 * (RB_RATE_BPS or RB_RATE_PPS).  Returns 0, or -EINVAL with the reason in
 * @err naming the option @opt.
 */
int rb_rate_parse(const char *opt, const char *arg, uint64_t *rate, uint8_t *unit, char *err,
		  size_t len);

/* rb_rate_check() - a rate and unit as the plan holds them; 0 or -EINVAL. */
int rb_rate_check(uint64_t rate, uint8_t unit, char *err, size_t len);

/* rb_rate_str() - "10Gbps", "1.5Mpps": @rate in @unit as --rate takes it. */
const char *rb_rate_str(uint64_t rate, uint8_t unit, char *buf, size_t len);

/*
 * rb_rate_msgs_per_s() - messages per second that @rate in @unit means at
 * message size @size (bits, not counting headers, for RB_RATE_BPS).
 */
double rb_rate_msgs_per_s(uint64_t rate, uint8_t unit, uint64_t size);

/*
 * rb_interval_parse() - seconds, whole or with up to three decimals
 * ("1", "0.5", "2.25"), into *@ms.  0 or -EINVAL with the reason in @err.
 */
int rb_interval_parse(const char *opt, const char *arg, uint32_t *ms, char *err, size_t len);

/*
 * A token bucket in ticks: tokens (messages) accrue at @per_tick up to
 * @cap; a post of n messages takes n tokens.  A sender held up (a full send
 * queue waiting for a completion, a busy host preempting it) catches up
 * with a burst of at most @cap; after a longer stall it falls short of the
 * rate rather than flood the link.
 */
#define RB_PACE_BURST_MS 10
struct rb_pace {
	double per_tick; /* messages per tick */
	double tokens;
	double cap;
	uint64_t last; /* ticks */
};

/*
 * rb_pace_init() - @msgs_per_s at @ticks_per_s; the bucket holds
 * RB_PACE_BURST_MS of the rate or @burst messages (the loops: one send
 * queue, -t), whichever is more, and starts empty at @now.
 */
void rb_pace_init(struct rb_pace *p, double msgs_per_s, double ticks_per_s, uint32_t burst,
		  uint64_t now);

/* rb_pace_take() - take @n tokens at @now if there are enough. */
static inline bool rb_pace_take(struct rb_pace *p, uint64_t now, uint32_t n)
{
	if (now > p->last) {
		p->tokens += (double)(now - p->last) * p->per_tick;
		if (p->tokens > p->cap)
			p->tokens = p->cap;
		p->last = now;
	}
	if (p->tokens < (double)n)
		return false;
	p->tokens -= (double)n;
	return true;
}

/*
 * rb_pace_due() - after rb_pace_take() refused @n tokens: the ticks until
 * they are there (at least 1).  --poll event sleeps that long.
 */
static inline uint64_t rb_pace_due(const struct rb_pace *p, uint32_t n)
{
	double need = (double)n - p->tokens;

	if (need <= 0 || p->per_tick <= 0)
		return 1;
	return (uint64_t)(need / p->per_tick) + 1;
}

/*
 * rb_rate_report() - the rate part of @res for a point of message size
 * @size: target in Gb/s (bits) or Mpps (packets), achieved in the same
 * unit from the point's averages, and the deviation in % of the target.
 */
void rb_rate_report(struct rb_result *res, uint64_t rate, uint8_t unit);

/*
 * rb_bw_min_interval() - the lowest bandwidth over the intervals of @res
 * at least half of @interval_ms long (a short last remainder is noise, not
 * a dip); sets has_bw_min_iv when there is one.
 */
void rb_bw_min_interval(struct rb_result *res, uint32_t interval_ms);

/* rb_result_free() - what a result owns (its intervals, a lock's contenders). */
void rb_result_free(struct rb_result *res);

#endif
