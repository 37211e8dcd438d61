// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/reco.h"

static bool has_cpu(const struct rb_result *r)
{
	return r->has_cpu && r->cpu_ns_per_msg > 0 && isfinite(r->cpu_ns_per_msg);
}

/* Fill @o for size @size from every point of that size. */
static void bound_size(const struct rb_result *res, size_t n, const struct rb_expect *bound,
		       uint64_t size, struct rb_reco_bound *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->size = size;
	for (i = 0; i < n; i++) {
		struct rb_expect_ctx ctx = { .res = &res[i] };
		double v;

		if (res[i].pt.size != size || !has_cpu(&res[i]))
			continue;
		o->points++;
		if (rb_expect_eval(bound, &ctx, &v, NULL) != RB_VERDICT_PASS)
			continue;
		o->within++;
		if (o->found && res[i].cpu_ns_per_msg >= o->cpu_ns_per_msg)
			continue;
		o->found = true;
		o->pt = res[i].pt;
		o->cpu_ns_per_msg = res[i].cpu_ns_per_msg;
		o->value = v;
	}
}

size_t rb_recommend_bound(const struct rb_result *res, size_t n, const struct rb_expect *bound,
			  struct rb_reco_bound *out, size_t max)
{
	size_t i, j, k = 0;

	for (i = 0; i < n && k < max; i++) {
		for (j = 0; j < k && out[j].size != res[i].pt.size; j++)
			;
		if (j < k)
			continue;
		bound_size(res, n, bound, res[i].pt.size, &out[k++]);
	}
	return k;
}

int rb_reco_bound_check(const struct rb_expect *bound, const char *test, enum rb_mode mode,
			char *err, size_t len)
{
	if (bound->metric != RB_EXP_METRIC || bound->of_link)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a bound is a figure of each point (p99<=20us, "
				  "rate>=1Mpps, bw>=10Gbps), not a counter or a share of the link",
				  bound->text);
	if (bound->row->group == RB_MG_LAT && mode != RB_MODE_LAT)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a latency, which %s does not measure",
				  bound->text, test);
	if (bound->row->group == RB_MG_BW && mode != RB_MODE_BW)
		return rb_set_err(err, len, -EINVAL,
				  "--recommend '%s': a bandwidth figure, which %s does not measure",
				  bound->text, test);
	return 0;
}
