// SPDX-License-Identifier: MIT
#include <jansson.h>
#include <stdbool.h>
#include <string.h>

#include "rdma/counters.h"
#include "report/output.h"
#include "report/verdict.h"

static bool listed(const char *const *l, const char *name)
{
	for (; l && *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

/* Adds "@pre@name" to @t's list of error names unless it is there. */
static void name_add(struct rb_tally *t, const char *pre, const char *name)
{
	char n[64];
	size_t used = strlen(t->errors);
	const char *p = t->errors;
	size_t l;

	snprintf(n, sizeof(n), "%s%s", pre, name);
	l = strlen(n);
	for (; (p = strstr(p, n)); p += l)
		if ((p == t->errors || p[-2] == ',') && (p[l] == ',' || !p[l]))
			return;
	if (used + l + 3 < sizeof(t->errors))
		snprintf(t->errors + used, sizeof(t->errors) - used, "%s%s", used ? ", " : "", n);
}

/* One side's errors of @diag (keys prefixed @prefix); true when another than a retransmission moved. */
static bool side(struct rb_tally *t, json_t *diag, const char *prefix, int driver,
		 uint64_t *retrans)
{
	const char *const *rl = rb_counters_retrans((enum rb_prov_id)driver);
	char key[48];
	json_t *a, *v, *n;
	bool other = false;
	size_t i;

	snprintf(key, sizeof(key), "%scounters_derived", prefix);
	n = json_object_get(json_object_get(diag, key), "retrans");
	if (json_is_integer(n) && json_integer_value(n) > 0)
		*retrans += (uint64_t)json_integer_value(n);
	snprintf(key, sizeof(key), "%scounter_errors", prefix);
	a = json_object_get(diag, key);
	json_array_foreach(a, i, v)
	{
		const char *name = json_string_value(v);

		if (!name)
			continue;
		if (listed(rl, name)) {
			if (!*retrans) /* moved, with no packet base to count them by */
				*retrans = 1;
			continue;
		}
		other = true;
		name_add(t, *prefix ? "peer " : "", name);
	}
	return other;
}

static bool expect_failed(json_t *diag)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(diag, "expect"), i,
			   v) if (!strcmp(json_string_value(json_object_get(v, "result")) ?: "",
					  "fail")) return true;
	return false;
}

void rb_tally_point(struct rb_tally *t, const struct rb_doc *r, const struct rb_result *res)
{
	json_t *diag = res->diag;
	uint64_t retrans = 0;
	bool other = false;

	if (res->thread_row)
		return;
	t->points++;
	if (res->flag[0])
		t->flagged++;
	if (!diag)
		return;
	if (r->has_counters)
		other |= side(t, diag, "", r->driver_id, &retrans);
	if (r->has_peer_counters)
		other |= side(t, diag, "peer_", r->peer_driver_id, &retrans);
	if (retrans) {
		t->retrans_pts++;
		t->retrans += retrans;
	}
	if (other)
		t->error_pts++;
	if (expect_failed(diag))
		t->expect_pts++;
}

static const char *pts(uint32_t n)
{
	return n == 1 ? "point" : "points";
}

void rb_tally_print(FILE *f, const struct rb_doc *r, const struct rb_tally *t)
{
	bool gated = r->expectations && r->expectations->n;
	uint32_t clean = t->points - t->flagged;

	if (!t->points || (!r->has_counters && !r->has_peer_counters && !gated))
		return;
	if (t->retrans_pts)
		fprintf(f,
			"! %u of %u %s retransmitted (%llu retransmission events, both sides): "
			"the figures of those points include loss recovery\n",
			t->retrans_pts, t->points, pts(t->points), (unsigned long long)t->retrans);
	if (t->error_pts)
		fprintf(f,
			"! %u of %u %s moved error counters (%s): something on the path went "
			"wrong; the JSON's counter_errors names them per point, and 'rdmabench "
			"doctor' checks a host\n",
			t->error_pts, t->points, pts(t->points), t->errors);
	if (t->expect_pts)
		fprintf(f, "! %u of %u %s failed --expect: the run exits 3\n", t->expect_pts,
			t->points, pts(t->points));
	if (!t->flagged && t->points == 1)
		fprintf(f, "verdict: the point is clean (no error counter moved%s)\n",
			gated ? ", every --expect held" : "");
	else if (!t->flagged)
		fprintf(f, "verdict: all %u points clean (no error counter moved%s)\n", t->points,
			gated ? ", every --expect held" : "");
	else
		fprintf(f, "verdict: %u of %u %s flagged, %u clean\n", t->flagged, t->points,
			pts(t->points), clean);
}
