// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "report/diag.h"

/* --expect: each expression must be able to apply to this run. */
static int expect_setup(struct rb_diag *g, const struct rb_local *l, struct rb_doc *rep)
{
	struct rb_expect_env env = {
		.test = g->bench->name,
		.mode = g->bench->mode,
		.link_gbps = rep->link_gbps,
		.avail = rep->has_counters ? &g->before : NULL,
	};
	char err[RB_TEXT_MAX];
	size_t i;

	for (i = 0; i < l->expect.n; i++) {
		if (rb_expect_parse(l->expect.v[i], &g->expect[i], err, sizeof(err)) ||
		    rb_expect_check(&g->expect[i], &env, err, sizeof(err))) {
			rb_err("%s", err);
			return -EINVAL;
		}
	}
	g->nexpect = i;
	rep->expectations = &l->expect;
	return 0;
}

int rb_diag_setup(struct rb_diag *g, const struct rb_dev *d, const struct rb_bench *t,
		  enum rb_role role, const struct rb_local *l, struct rb_doc *rep)
{
	const char *spec = l->counters[0] ? l->counters : "default";
	char err[RB_TEXT_MAX];
	int ret;

	g->dev = d;
	g->bench = t;
	g->server = role == RB_ROLE_SERVER;
	/* No device (a socket test): no counters, and --expect on its figures. */
	if (!d) {
		g->spec.mode = RB_CTRS_NONE;
		rep->link_gbps = 0;
		return g->server ? 0 : expect_setup(g, l, rep);
	}
	if (rb_counters_spec_parse(spec, &g->spec, err, sizeof(err))) {
		rb_err("--counters '%s': %s", spec, err);
		return -EINVAL;
	}
	rb_dev_netdev(d, g->netdev, sizeof(g->netdev));
	ret = rb_counters_read("/sys", d->name, d->port, g->netdev, &g->before);
	/* The server reads its own whatever it shows: the client chooses. */
	g->on = !ret && (g->server || g->spec.mode != RB_CTRS_NONE);
	if (ret && g->spec.mode != RB_CTRS_NONE)
		rb_warn("%s port %u: no counters in sysfs (%s): measuring without them", d->name,
			d->port, strerror(-ret));
	if (g->on && rb_counters_spec_check(&g->spec, &g->before, err, sizeof(err))) {
		rb_err("--counters: %s", err);
		return -EINVAL;
	}
	if (rb_port_rate_gbps("/sys", d->name, d->port, &rep->link_gbps))
		rep->link_gbps = 0;
	rep->has_counters = g->on && g->spec.mode != RB_CTRS_NONE;
	rep->counters_spec = spec;
	rep->driver_id = g->before.driver;
	rep->driver = rb_counters_driver_name((enum rb_prov_id)g->before.driver);
	return g->server ? 0 : expect_setup(g, l, rep);
}

/* A reading that fails mid-run ends the counters, said once. */
static bool counters_read(struct rb_diag *g, struct rb_counter_set *out)
{
	int ret = rb_counters_read("/sys", g->dev->name, g->dev->port, g->netdev, out);

	if (ret) {
		rb_warn("%s port %u: reading counters failed (%s): going on without them",
			g->dev->name, g->dev->port, strerror(-ret));
		g->on = false;
	}
	return !ret;
}

void rb_diag_before(struct rb_diag *g)
{
	g->delta.n = 0;
	if (g->on && counters_read(g, &g->before))
		g->before_ns = rb_now_ns();
}

void rb_diag_after(struct rb_diag *g)
{
	uint64_t wait = (uint64_t)(g->before.lifespan_ms + 1) * 1000000ULL, el;

	g->delta.n = 0;
	if (!g->on)
		return;
	el = rb_now_ns() - g->before_ns;
	if (el < wait)
		usleep((useconds_t)((wait - el) / 1000));
	if (counters_read(g, &g->after))
		rb_counters_delta(&g->before, &g->after, &g->delta);
}

void rb_diag_peer(struct rb_diag *g, struct rb_doc *rep)
{
	if (!g->peer.n || g->spec.mode == RB_CTRS_NONE || rep->has_peer_counters)
		return;
	rep->has_peer_counters = true;
	rep->peer_driver_id = g->peer.driver;
	rep->peer_driver = rb_counters_driver_name((enum rb_prov_id)g->peer.driver);
}

/* Appends "; @what" (or just @what) to the table's flag of a point. */
static void flag_add(char *flag, size_t len, const char *pre, const char *what)
{
	size_t used = strlen(flag);

	if (used < len)
		snprintf(flag + used, len - used, "%s%s%s", used ? "; " : "", pre, what);
}

/*
 * One side's counters into the point's JSON @o, keys prefixed @prefix: the
 * chosen ones, the figures derived from all of them, and the error counters
 * that moved, which also go into the table's flag.
 */
static int side_json(const struct rb_diag *g, json_t *o, const char *prefix,
		     const struct rb_counter_set *delta, const struct rb_counter_derived *der,
		     struct rb_result *res)
{
	struct rb_counter_set shown;
	char key[40], errs[128];
	int bad = 0;

	rb_counters_apply(&g->spec, delta, &shown);
	snprintf(key, sizeof(key), "%scounters", prefix);
	bad |= json_object_set_new(o, key, rb_counters_json(&shown));
	snprintf(key, sizeof(key), "%scounters_derived", prefix);
	bad |= json_object_set_new(o, key, rb_counters_derived_json(der));
	snprintf(key, sizeof(key), "%scounter_errors", prefix);
	bad |= json_object_set_new(o, key, rb_counters_errors_json(delta));
	if (rb_counters_errors(delta, errs, sizeof(errs)))
		flag_add(res->flag, sizeof(res->flag), *prefix ? "peer " : "", errs);
	return bad;
}

/* The --expect verdicts of point @res into @o; a failure marks the run. */
static int expect_json(struct rb_diag *g, const struct rb_doc *rep, json_t *o,
		       struct rb_result *res, const struct rb_counter_derived *der)
{
	struct rb_expect_ctx ctx = { res, rep->link_gbps, rep->has_counters ? &g->delta : NULL,
				     rep->has_counters ? der : NULL };
	json_t *ex = NULL;
	char failed[128];

	if (rb_expect_point(g->expect, g->nexpect, &ctx, &ex, failed, sizeof(failed))) {
		g->failed = true;
		flag_add(res->flag, sizeof(res->flag), "expect failed: ", failed);
	}
	return ex ? json_object_set_new(o, "expect", ex) : -1;
}

void rb_diag_point(struct rb_diag *g, const struct rb_doc *rep, struct rb_result *res, uint64_t ops)
{
	struct rb_counter_derived der, peer;
	uint64_t payload = ops * res->pt.size;
	json_t *o = json_object();
	int bad = !o;

	rb_counters_derive(&g->delta, payload,
			   rb_counters_payload_rx(g->bench, g->server != g->reversed), &der);
	if (!bad && rep->has_counters)
		bad |= side_json(g, o, "", &g->delta, &der, res);
	if (!bad && rep->has_peer_counters) {
		rb_counters_derive(&g->peer, payload,
				   rb_counters_payload_rx(g->bench, !g->reversed), &peer);
		bad |= side_json(g, o, "peer_", &g->peer, &peer, res);
	}
	if (!bad && g->nexpect)
		bad |= expect_json(g, rep, o, res, &der);
	if (bad)
		rb_warn("out of memory for a point's counters and expectations");
	res->diag = o;
}
