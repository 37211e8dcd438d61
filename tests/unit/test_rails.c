// SPDX-License-Identifier: MIT
/*
 * -d LIST (session/rails.c): the lists of devices, --bind addresses and
 * servers; which thread gets which rail; which rail is out of line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "session/rails.h"

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

/* -d all: this host's devices; without any, the error says so. */
static void test_all(void **state)
{
	struct rb_local l = local("all", "", "srv");
	struct rb_rails r;
	char err[256];
	int ret;

	(void)state;
	ret = rb_rails_parse(&l, &r, err, sizeof(err));
	if (ret) {
		assert_int_equal(ret, -ENODEV);
		assert_non_null(strstr(err, "-d all: "));
	} else {
		assert_true(r.n >= 1 && r.dev[0][0]);
	}
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
		cmocka_unit_test(test_parse), cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_apply), cmocka_unit_test(test_dualport),
		cmocka_unit_test(test_flag),  cmocka_unit_test(test_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
