// SPDX-License-Identifier: MIT
/*
 * -d LIST: one thread per rail (rails.h).
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

#include "core/metrics.h"
#include "core/stats.h"
#include "rdma/verbs.h"
#include "session/rails.h"

/* Split @s at commas into @out (at most RB_RAILS_MAX of @size bytes); the count, or -1. */
static int split(const char *s, char *out, size_t size)
{
	const char *p = s, *c;
	int n = 0;

	for (;;) {
		size_t k;

		c = strchr(p, ',');
		k = c ? (size_t)(c - p) : strlen(p);
		if (n == RB_RAILS_MAX || !k || k >= size)
			return -1;
		memcpy(out + (size_t)n * size, p, k);
		out[(size_t)n * size + k] = '\0';
		n++;
		if (!c)
			return n;
		p = c + 1;
	}
}

/* -d all: port @port of @dev (0: the device) left out, for @why. */
static void left_out(struct rb_rails *r, const char *dev, int port, const char *why)
{
	size_t off = strlen(r->left_out);

	if (port)
		snprintf(r->left_out + off, sizeof(r->left_out) - off, "%s%s port %d (%s)",
			 off ? ", " : "", dev, port, why);
	else
		snprintf(r->left_out + off, sizeof(r->left_out) - off, "%s%s (%s)", off ? ", " : "",
			 dev, why);
}

/* -d all: device @d's ACTIVE ports as rails @n on, the others left out; the new count. */
static int device_rails(struct rb_rails *r, struct ibv_device *d, int n)
{
	const char *name = ibv_get_device_name(d);
	struct ibv_context *ctx = ibv_open_device(d);
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int p;

	if (!ctx || ibv_query_device(ctx, &da)) {
		left_out(r, name, 0, ctx ? "ibv_query_device failed" : "cannot be opened");
		if (ctx)
			ibv_close_device(ctx);
		return n;
	}
	for (p = 1; p <= da.phys_port_cnt && n < RB_RAILS_MAX; p++) {
		if (ibv_query_port(ctx, (uint8_t)p, &pa)) {
			left_out(r, name, p, "ibv_query_port failed");
			continue;
		}
		if (pa.state != IBV_PORT_ACTIVE) {
			left_out(r, name, p, ibv_port_state_str(pa.state));
			continue;
		}
		snprintf(r->dev[n], sizeof(r->dev[0]), "%s", name);
		r->port[n++] = da.phys_port_cnt > 1 ? p : 0;
	}
	ibv_close_device(ctx);
	return n;
}

/* -d all: every ACTIVE port of every device this host has. */
static int all_devices(struct rb_rails *r, char *err, size_t len)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	int n = 0, i;

	if (!list)
		return rb_set_err(err, len, -ENODEV, "-d all: ibv_get_device_list: %s",
				  strerror(errno));
	for (i = 0; list[i] && n < RB_RAILS_MAX; i++)
		n = device_rails(r, list[i], n);
	ibv_free_device_list(list);
	if (!n && r->left_out[0])
		return rb_set_err(err, len, -ENETDOWN,
				  "-d all: no ACTIVE port on this host's devices: %s", r->left_out);
	if (!n)
		return rb_set_err(err, len, -ENODEV, "-d all: this host has no RDMA device");
	return n;
}

int rb_rails_ready(const struct rb_rails *r, int ib_port)
{
	uint32_t k;
	int ret;

	for (k = 0; k < r->n; k++) {
		struct rb_dev_want w = { .name = r->dev[k][0] ? r->dev[k] : NULL,
					 .port = r->port[k] ? r->port[k] : ib_port,
					 .gid_index = -1,
					 .peer_family = AF_UNSPEC,
					 .port_by = r->dual ? "-O/--dualport" : NULL };

		ret = rb_dev_check(&w);
		if (ret && r->dual) /* one device, named with -O in the cause */
			return ret;
		if (ret) {
			rb_err("-d: rail %s cannot run (%u rails): nothing was started", r->name[k],
			       r->n);
			return ret;
		}
	}
	return 0;
}

/* --bind or the server: @n of them (one per rail), or one for all. */
static int per_rail(const char *what, const char *s, uint32_t n, char *out, size_t size, char *err,
		    size_t len)
{
	int k = s && s[0] ? split(s, out, size) : 0;
	uint32_t i;

	if (k < 0 || (k > 1 && (uint32_t)k != n))
		return rb_set_err(err, len, -EINVAL,
				  "%s '%s': one address for every rail, or one per rail (%u)", what,
				  s, n);
	/* None given: "" for every rail; one: the same for every rail. */
	for (i = (uint32_t)k; i < n; i++)
		snprintf(out + i * size, size, "%s", k == 1 ? out : "");
	return 0;
}

/* -O: ports 1 and 2 of one device. */
static int dual_ports(const struct rb_local *l, struct rb_rails *r, char *err, size_t len)
{
	int k;

	if (strchr(l->device, ',') || !strcmp(l->device, "all"))
		return rb_set_err(err, len, -EINVAL,
				  "-O/--dualport takes one device (-d DEV), not the list '%s'",
				  l->device);
	if (l->ib_port)
		return rb_set_err(err, len, -EINVAL,
				  "-O/--dualport runs ports 1 and 2: -i/--ib-port %d does not go "
				  "with "
				  "it",
				  l->ib_port);
	for (k = 0; k < 2; k++) {
		snprintf(r->dev[k], sizeof(r->dev[0]), "%s", l->device);
		r->port[k] = k + 1;
	}
	r->dual = true;
	return 2;
}

int rb_rails_parse(const struct rb_local *l, struct rb_rails *r, char *err, size_t len)
{
	uint32_t k;
	int n;

	memset(r, 0, sizeof(*r));
	if (!l->dualport && strcmp(l->device, "all") && !strchr(l->device, ','))
		return 0;
	if (l->dualport)
		n = dual_ports(l, r, err, len);
	else
		n = strcmp(l->device, "all") ? split(l->device, r->dev[0], sizeof(r->dev[0]))
					     : all_devices(r, err, len);
	if (n == -1)
		return rb_set_err(err, len, -EINVAL,
				  "-d/--device '%s': device names separated by commas, at most %d",
				  l->device, RB_RAILS_MAX);
	if (n < 0)
		return n;
	r->n = (uint32_t)n;
	for (k = 0; k < r->n; k++)
		if (r->port[k])
			snprintf(r->name[k], sizeof(r->name[0]), "%s:%d",
				 r->dev[k][0] ? r->dev[k] : "port", r->port[k]);
		else
			snprintf(r->name[k], sizeof(r->name[0]), "%s", r->dev[k]);
	if (per_rail("--bind", l->bind, r->n, r->bind[0], sizeof(r->bind[0]), err, len) ||
	    per_rail("the server's address", l->host, r->n, r->host[0], sizeof(r->host[0]), err,
		     len))
		return -EINVAL;
	return 0;
}

void rb_rails_apply(const struct rb_rails *r, uint32_t k, struct rb_local *l)
{
	k %= r->n;
	snprintf(l->device, sizeof(l->device), "%s", r->dev[k]);
	snprintf(l->bind, sizeof(l->bind), "%s", r->bind[k]);
	if (r->port[k])
		l->ib_port = r->port[k];
	if (r->host[k][0])
		l->host = r->host[k];
}

int rb_rails_width(const struct rb_rails *r)
{
	int w = r->n ? 4 : 0;
	uint32_t k;

	for (k = 0; k < r->n; k++)
		if ((int)strlen(r->name[k]) > w)
			w = (int)strlen(r->name[k]);
	return w;
}

uint32_t rb_rails_flag(const struct rb_result *per, uint32_t n, enum rb_mode mode, bool *bad)
{
	const struct rb_metric *m = rb_metric_rank(mode == RB_MODE_LAT);
	double v[RB_RAILS_MAX], med;
	uint32_t k, nbad = 0, have = 0;

	for (k = 0; k < n && k < RB_RAILS_MAX; k++) {
		bad[k] = false;
		if (rb_metric_has(m, &per[k]))
			v[have++] = rb_metric_value(m, &per[k]);
	}
	if (have < 2)
		return 0; /* one rail is in line with itself */
	med = rb_median(v, have);
	for (k = 0; k < n && k < RB_RAILS_MAX; k++)
		if (rb_metric_has(m, &per[k]) &&
		    rb_out_of_line(rb_metric_value(m, &per[k]), med, RB_RAILS_TOL, mode))
			nbad += bad[k] = true;
	return nbad;
}

int rb_rails_note(const struct rb_rails *r, const struct rb_result *per, enum rb_mode mode,
		  uint32_t point, json_t *arr)
{
	const struct rb_metric *m = rb_metric_rank(mode == RB_MODE_LAT);
	bool bad[RB_RAILS_MAX];
	uint32_t k, n = (uint32_t)json_array_size(arr);
	int fail = 0;

	if (n > RB_RAILS_MAX)
		n = RB_RAILS_MAX;
	rb_rails_flag(per, n, mode, bad);
	for (k = 0; k < n; k++) {
		json_t *o = json_array_get(arr, k);

		fail |= json_object_set_new(o, "rail", json_string(r->name[k % r->n]));
		fail |= json_object_set_new(o, "out_of_line", json_boolean(bad[k]));
		if (bad[k])
			rb_warn("point %u: rail %s: %s %.4g %s, out of line with the rails (more "
				"than %.0f%% %s their median)",
				point, r->name[k % r->n], m->name, rb_metric_value(m, &per[k]),
				m->unit, RB_RAILS_TOL * 100,
				mode == RB_MODE_BW ? "below" : "above");
	}
	return fail ? -ENOMEM : 0;
}
