// SPDX-License-Identifier: MIT
/*
 * -d LIST (session/rails.c): the lists of devices, --bind addresses and
 * servers; which thread gets which rail; which rail is out of line; -d
 * all over a host of fake devices (the library calls that list, open and
 * query them wrapped, Makefile.am): every ACTIVE port, the others named.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <infiniband/verbs.h>
#include <cmocka.h>

#include "session/rails.h"

/* The fake host: devices, their port counts and each port's state. */
#define NDEV 3
static struct {
	int ndev;
	struct ibv_device dev[NDEV];
	struct ibv_context ctx[NDEV];
	int ports[NDEV];
	enum ibv_port_state state[NDEV][2];
	int opens, closes;
} fh;

struct ibv_device **__wrap_ibv_get_device_list(int *n);
void __wrap_ibv_free_device_list(struct ibv_device **list);
struct ibv_context *__wrap_ibv_open_device(struct ibv_device *d);
int __wrap_ibv_close_device(struct ibv_context *ctx);
int __wrap_ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *a);
int __wrap_ibv_query_port(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *a);

struct ibv_device **__wrap_ibv_get_device_list(int *n)
{
	struct ibv_device **list = calloc((size_t)fh.ndev + 1, sizeof(*list));
	int i;

	assert_non_null(list);
	for (i = 0; i < fh.ndev; i++)
		list[i] = &fh.dev[i];
	if (n)
		*n = fh.ndev;
	return list;
}

void __wrap_ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

struct ibv_context *__wrap_ibv_open_device(struct ibv_device *d)
{
	int i = (int)(d - fh.dev);

	fh.opens++;
	fh.ctx[i].device = d;
	return &fh.ctx[i];
}

int __wrap_ibv_close_device(struct ibv_context *ctx)
{
	(void)ctx;
	fh.closes++;
	return 0;
}

int __wrap_ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->phys_port_cnt = (uint8_t)fh.ports[ctx - fh.ctx];
	return 0;
}

int __wrap_ibv_query_port(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *a)
{
	struct ibv_port_attr *pa = (struct ibv_port_attr *)(void *)a;
	int i = (int)(ctx - fh.ctx);

	if (port < 1 || port > fh.ports[i])
		return EINVAL;
	memset(pa, 0, sizeof(*pa));
	pa->state = fh.state[i][port - 1];
	pa->link_layer = IBV_LINK_LAYER_ETHERNET;
	pa->active_mtu = IBV_MTU_1024;
	return 0;
}

/* rxe0 (one port, ACTIVE), rxe1 (one port, DOWN), mlx5_0 (two ports, both ACTIVE). */
static void fake_host(void)
{
	static const char *const names[NDEV] = { "rxe0", "rxe1", "mlx5_0" };
	int i;

	memset(&fh, 0, sizeof(fh));
	fh.ndev = NDEV;
	for (i = 0; i < NDEV; i++) {
		snprintf(fh.dev[i].name, sizeof(fh.dev[i].name), "%s", names[i]);
		fh.ports[i] = i == 2 ? 2 : 1;
		fh.state[i][0] = fh.state[i][1] = IBV_PORT_ACTIVE;
	}
	fh.state[1][0] = IBV_PORT_DOWN;
}

static struct rb_local local(const char *dev, const char *bind, const char *host)
{
	struct rb_local l;

	memset(&l, 0, sizeof(l));
	snprintf(l.device, sizeof(l.device), "%s", dev);
	snprintf(l.bind, sizeof(l.bind), "%s", bind);
	l.host = host;
	return l;
}

static void test_parse(void **state)
{
	struct rb_local l = local("mlx5_0,mlx5_1", "10.0.0.1,10.0.1.1", "srv");
	struct rb_rails r;
	char err[256];

	(void)state;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.dev[1], "mlx5_1");
	assert_string_equal(r.bind[1], "10.0.1.1");
	assert_string_equal(r.host[0], "srv");
	assert_string_equal(r.host[1], "srv");
	/* One device: not a run of rails. */
	l = local("mlx5_0", "", "srv");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 0);
	/* One --bind for every rail, a server per rail. */
	l = local("a,b,c", "10.0.0.9", "s0,s1,s2");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_string_equal(r.bind[2], "10.0.0.9");
	assert_string_equal(r.host[2], "s2");
	l = local("a,b,c", "", "srv");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_string_equal(r.bind[2], "");
}

static void test_parse_errors(void **state)
{
	struct rb_local l = local("a,,b", "", "srv");
	struct rb_rails r;
	char err[256];

	(void)state;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-d/--device 'a,,b'"));
	l = local("a,b,", "", "srv");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	l = local("a,b", "x,y,z", "srv");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--bind 'x,y,z': one address for every rail, or one per rail "
				    "(2)"));
	l = local("a,b", "", "s0,s1,s2");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the server's address 's0,s1,s2'"));
}

static void test_apply(void **state)
{
	struct rb_local l = local("a,b", "10.0.0.1,10.0.1.1", "s0,s1"), t;
	struct rb_rails r;
	char err[256];

	(void)state;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	t = l;
	rb_rails_apply(&r, 1, &t);
	assert_string_equal(t.device, "b");
	assert_string_equal(t.bind, "10.0.1.1");
	assert_string_equal(t.host, "s1");
	rb_rails_apply(&r, 2, &t); /* thread 2 of 2 rails: rail 0 */
	assert_string_equal(t.device, "a");
}

/* -O: ports 1 and 2 of the one device. */
static void test_dualport(void **state)
{
	struct rb_local l = local("mlx5_0", "", "srv"), t;
	struct rb_rails r;
	char err[256];

	(void)state;
	l.dualport = 1;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.name[1], "mlx5_0:2");
	assert_int_equal(rb_rails_width(&r), 8);
	t = l;
	rb_rails_apply(&r, 1, &t);
	assert_int_equal(t.ib_port, 2);
	assert_string_equal(t.device, "mlx5_0");
	l.device[0] = '\0';
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_string_equal(r.name[0], "port:1");
	assert_int_equal(rb_rails_width(&r), 6);
	/* One device, no rails: no column. */
	l.dualport = 0;
	snprintf(l.device, sizeof(l.device), "mlx5_0");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(rb_rails_width(&r), 0);
	l.dualport = 1;
	l.device[0] = '\0';
	l.ib_port = 2;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-i/--ib-port 2 does not go with it"));
	l.ib_port = 0;
	snprintf(l.device, sizeof(l.device), "a,b");
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-O/--dualport takes one device"));
}

/*
 * -d all: every ACTIVE port of every device, a rail each ("DEV:PORT" on a
 * device of several ports); rxe1, whose port is down, left out and named
 * (before: a rail of its own, whose thread failed after the others had
 * started).  No active port at all, and no device at all, say so.
 */
static void test_all(void **state)
{
	struct rb_local l = local("all", "", "srv");
	struct rb_rails r;
	char err[256];

	(void)state;
	fake_host();
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.name[0], "rxe0");
	assert_string_equal(r.name[1], "mlx5_0:1");
	assert_string_equal(r.name[2], "mlx5_0:2");
	assert_int_equal(r.port[0], 0);
	assert_int_equal(r.port[2], 2);
	assert_string_equal(r.left_out, "rxe1 port 1 (down)");
	assert_int_equal(fh.opens, fh.closes);
	/* Every port down. */
	fh.state[0][0] = fh.state[2][0] = fh.state[2][1] = IBV_PORT_INIT;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -ENETDOWN);
	assert_string_equal(err, "-d all: no ACTIVE port on this host's devices: rxe0 port 1 "
				 "(init), rxe1 port 1 (down), mlx5_0 port 1 (init), "
				 "mlx5_0 port 2 (init)");
	/* No device. */
	fh.ndev = 0;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "-d all: this host has no RDMA device");
}

/* -d rxe0,rxe1 with rxe1's port down: refused before any thread starts, naming it. */
static void test_listed_down(void **state)
{
	struct rb_local l = local("rxe0,rxe1", "", "srv");
	struct rb_rails r;
	char err[256];

	(void)state;
	fake_host();
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 2);
	rb_last_error[0] = '\0';
	assert_int_equal(rb_rails_ready(&r, 0), -ENETDOWN);
	assert_string_equal(rb_last_error, "-d: rail rxe1 cannot run (2 rails): nothing was "
					   "started");
	assert_int_equal(fh.opens, fh.closes);
	fh.state[1][0] = IBV_PORT_ACTIVE;
	assert_int_equal(rb_rails_ready(&r, 0), 0);
}

/*
 * -O on an mlx5 of one port per device: refused before any thread starts,
 * naming -O, the device and the fix (before: "-i/--ib-port 2", an option
 * not given, and a failure rather than a usage error).
 */
static void test_dualport_one_port(void **state)
{
	struct rb_local l = local("mlx5_0", "", "srv");
	struct rb_rails r;
	char err[256];

	(void)state;
	fake_host();
	fh.ports[2] = 1;
	l.dualport = 1;
	assert_int_equal(rb_rails_parse(&l, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, 2);
	rb_last_error[0] = '\0';
	assert_int_equal(rb_rails_ready(&r, 0), -EINVAL);
	assert_string_equal(rb_last_error, "-O/--dualport runs ports 1 and 2: mlx5_0 has 1 "
					   "port(s); each port is a "
					   "device of its own: for two ports, where -O/--dualport "
					   "would run one "
					   "device's, give -d mlx5_0,mlx5_1");
	assert_int_equal(fh.opens, fh.closes);
	/* Two ports: ready. */
	fh.ports[2] = 2;
	assert_int_equal(rb_rails_ready(&r, 0), 0);
}

static struct rb_result bw(double gbps)
{
	struct rb_result r;

	memset(&r, 0, sizeof(r));
	r.has_bw = true;
	r.bw_avg_gbps = gbps;
	return r;
}

static void test_flag(void **state)
{
	struct rb_result per[4] = { bw(100), bw(98), bw(60), bw(101) };
	bool bad[4];

	(void)state;
	assert_int_equal(rb_rails_flag(per, 4, RB_MODE_BW, bad), 1);
	assert_true(bad[2] && !bad[0] && !bad[1] && !bad[3]);
	/* 10%: 91 of a median 100 is in line, 89 is not. */
	per[2] = bw(91);
	per[1] = bw(100);
	assert_int_equal(rb_rails_flag(per, 4, RB_MODE_BW, bad), 0);
	per[2] = bw(89);
	assert_int_equal(rb_rails_flag(per, 4, RB_MODE_BW, bad), 1);
	/* One rail, or one with a figure: nothing to compare with. */
	assert_int_equal(rb_rails_flag(per + 2, 1, RB_MODE_BW, bad), 0);
	per[0].has_bw = per[1].has_bw = per[3].has_bw = false;
	assert_int_equal(rb_rails_flag(per, 4, RB_MODE_BW, bad), 0);
	assert_false(bad[2]);
	/* Latency: above the median is out of line. */
	memset(per, 0, sizeof(per));
	per[0].has_lat = per[1].has_lat = per[2].has_lat = true;
	per[0].lat.p50 = 2;
	per[1].lat.p50 = 2.1;
	per[2].lat.p50 = 3;
	assert_int_equal(rb_rails_flag(per, 3, RB_MODE_LAT, bad), 1);
	assert_true(bad[2]);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),	    cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_apply),	    cmocka_unit_test(test_dualport),
		cmocka_unit_test(test_flag),	    cmocka_unit_test(test_all),
		cmocka_unit_test(test_listed_down), cmocka_unit_test(test_dualport_one_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
