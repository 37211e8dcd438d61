// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/shape.h"

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

/* The power of 1000 a prefix letter stands for; 1 for none, 0 unknown. */
static double prefix_scale(char c)
{
	switch (c) {
	case 'K':
	case 'k':
		return 1e3;
	case 'M':
		return 1e6;
	case 'G':
		return 1e9;
	case 'T':
		return 1e12;
	default:
		return 0;
	}
}

/* "bps", "b/s" or "pps" after an optional prefix; 0 when not a unit. */
static uint8_t unit_of(const char *s, double *scale)
{
	*scale = prefix_scale(*s);
	if (*scale)
		s++;
	else
		*scale = 1;
	if (!strcmp(s, "bps") || !strcmp(s, "b/s"))
		return RB_RATE_BPS;
	if (!strcmp(s, "pps"))
		return RB_RATE_PPS;
	return RB_RATE_NONE;
}

int rb_rate_check(uint64_t rate, uint8_t unit, char *err, size_t len)
{
	char a[32], b[32];
	uint64_t lo = unit == RB_RATE_PPS ? RB_RATE_PPS_MIN : RB_RATE_BPS_MIN;
	uint64_t hi = unit == RB_RATE_PPS ? RB_RATE_PPS_MAX : RB_RATE_BPS_MAX;

	if (unit == RB_RATE_NONE)
		return rate ? fail(err, len, "--rate %llu has no unit", (unsigned long long)rate)
			    : 0;
	if (unit > RB_RATE_PPS)
		return fail(err, len, "--rate: unknown unit %u", unit);
	if (rate < lo || rate > hi)
		return fail(err, len, "--rate %s is out of range (%s..%s)",
			    rb_rate_str(rate, unit, (char[32]){ 0 }, 32),
			    rb_rate_str(lo, unit, a, 32), rb_rate_str(hi, unit, b, 32));
	return 0;
}

int rb_rate_parse(const char *opt, const char *arg, uint64_t *rate, uint8_t *unit, char *err,
		  size_t len)
{
	double v, scale = 1e9;
	char *end;

	v = strtod(arg, &end);
	if (end == arg || !isfinite(v) || v <= 0 || arg[0] == '-' || arg[0] == '+')
		return fail(err, len,
			    "%s '%s' is not a rate: a positive number and a unit, e.g. 10Gbps, "
			    "500Mbps, 1Mpps, 200Kpps",
			    opt, arg);
	*unit = *end ? unit_of(end, &scale) : RB_RATE_BPS;
	if (!*unit)
		return fail(err, len,
			    "%s '%s': unit '%s' is not one of bps, b/s, pps with an optional K, M, "
			    "G or T (powers of 1000); bytes per second are not taken",
			    opt, arg, end);
	v *= scale;
	if (v > (double)RB_RATE_BPS_MAX * 10)
		v = (double)RB_RATE_BPS_MAX * 10;
	*rate = (uint64_t)llround(v);
	return rb_rate_check(*rate, *unit, err, len);
}

const char *rb_rate_str(uint64_t rate, uint8_t unit, char *buf, size_t len)
{
	static const char pre[] = " KMGT";
	double v = (double)rate;
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.6g%.*s%s", v, i ? 1 : 0, &pre[i],
		 unit == RB_RATE_PPS ? "pps" : "bps");
	return buf;
}

double rb_rate_msgs_per_s(uint64_t rate, uint8_t unit, uint64_t size)
{
	if (unit == RB_RATE_PPS)
		return (double)rate;
	return size ? (double)rate / 8.0 / (double)size : 0;
}

int rb_interval_parse(const char *opt, const char *arg, uint32_t *ms, char *err, size_t len)
{
	unsigned long long whole = 0, frac = 0;
	const char *p = arg;
	int digits = 0, n = 0;

	for (; *p >= '0' && *p <= '9' && n < 12; p++, n++)
		whole = whole * 10 + (unsigned long long)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && digits < 3; p++, digits++)
			frac = frac * 10 + (unsigned long long)(*p - '0');
	for (; digits && digits < 3; digits++)
		frac *= 10;
	if (*p || p == arg || (!n && !frac && p[-1] == '.'))
		return fail(err, len,
			    "%s '%s' is not a number of seconds (whole, or with up to three "
			    "decimals: 1, 0.5)",
			    opt, arg);
	if (whole * 1000 + frac < RB_INTERVAL_MS_MIN || whole * 1000 + frac > RB_INTERVAL_MS_MAX)
		return fail(err, len, "%s %s is out of range (0.1..%d seconds)", opt, arg,
			    RB_INTERVAL_MS_MAX / 1000);
	*ms = (uint32_t)(whole * 1000 + frac);
	return 0;
}

void rb_pace_init(struct rb_pace *p, double msgs_per_s, double ticks_per_s, uint32_t burst,
		  uint64_t now)
{
	p->per_tick = ticks_per_s > 0 ? msgs_per_s / ticks_per_s : 0;
	p->cap = msgs_per_s * RB_PACE_BURST_MS / 1000.0;
	if (p->cap < (double)burst)
		p->cap = (double)burst;
	p->tokens = 0; /* a full bucket would start with a burst above the rate */
	p->last = now;
}

void rb_rate_report(struct rb_result *res, uint64_t rate, uint8_t unit)
{
	if (unit == RB_RATE_NONE || !res->has_bw)
		return;
	res->has_rate = true;
	res->rate_pps = unit == RB_RATE_PPS;
	res->rate_target = res->rate_pps ? (double)rate / 1e6 : (double)rate / 1e9;
	res->rate_achieved = res->rate_pps ? res->msg_rate_mpps : res->bw_avg_gbps;
	res->rate_dev_pct = (res->rate_achieved - res->rate_target) * 100.0 / res->rate_target;
}

void rb_bw_min_interval(struct rb_result *res, uint32_t interval_ms)
{
	size_t i;

	for (i = 0; i < res->niv; i++) {
		if (res->iv[i].duration_s * 2000.0 < (double)interval_ms)
			continue;
		if (!res->has_bw_min_iv || res->iv[i].bw_gbps < res->bw_min_iv_gbps)
			res->bw_min_iv_gbps = res->iv[i].bw_gbps;
		res->has_bw_min_iv = true;
	}
}

void rb_result_free(struct rb_result *res)
{
	free(res->iv);
	res->iv = NULL;
	res->niv = 0;
	free(res->lock_acq);
	res->lock_acq = NULL;
	res->lock_n = 0;
}
