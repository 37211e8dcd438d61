// SPDX-License-Identifier: MIT
/*
 * rdmabench server --allow (src/wire/allow.c): networks parsed and refused
 * with their reason, addresses matched at the prefix's edge, IPv4 clients
 * seen through a dual-stack listener (::ffff:a.b.c.d).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "wire/allow.h"

/* @text as a socket address (IPv4 or IPv6). */
static const struct sockaddr *sa(const char *text)
{
	static struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, text, &a4->sin_addr) == 1)
		a4->sin_family = AF_INET;
	else if (inet_pton(AF_INET6, text, &a6->sin6_addr) == 1)
		a6->sin6_family = AF_INET6;
	else
		fail_msg("bad test address %s", text);
	return (const struct sockaddr *)&ss;
}

static void test_empty_allows_all(void **state)
{
	struct rb_allow a;
	char err[256];

	(void)state;
	assert_int_equal(rb_allow_parse("", &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 0);
	assert_true(rb_allow_ok(&a, sa("203.0.113.9")));
	assert_true(rb_allow_ok(&a, sa("2001:db8::1")));
}

static void test_edges(void **state)
{
	struct rb_allow a;
	char err[256];

	(void)state;
	assert_int_equal(rb_allow_parse("10.2.0.0/15,192.0.2.7,fd00:1::/33", &a, err, sizeof(err)),
			 0);
	assert_int_equal(a.n, 3);
	/* 10.2.0.0/15: 10.2.0.0 to 10.3.255.255 */
	assert_true(rb_allow_ok(&a, sa("10.2.0.0")));
	assert_true(rb_allow_ok(&a, sa("10.3.255.255")));
	assert_false(rb_allow_ok(&a, sa("10.1.255.255")));
	assert_false(rb_allow_ok(&a, sa("10.4.0.0")));
	/* one host */
	assert_true(rb_allow_ok(&a, sa("192.0.2.7")));
	assert_false(rb_allow_ok(&a, sa("192.0.2.6")));
	/* IPv4 through a dual-stack listener */
	assert_true(rb_allow_ok(&a, sa("::ffff:10.3.0.1")));
	assert_false(rb_allow_ok(&a, sa("::ffff:10.4.0.1")));
	/* fd00:1::/33: fd00:1:0:: to fd00:1:7fff:ffff:... */
	assert_true(rb_allow_ok(&a, sa("fd00:1:7fff::1")));
	assert_false(rb_allow_ok(&a, sa("fd00:1:8000::1")));
	assert_false(rb_allow_ok(&a, sa("fd00:2::1")));
	/* An IPv6 network never takes an IPv4 client, nor the reverse. */
	assert_false(rb_allow_ok(&a, sa("::a02:1")));
	/* /0: everyone of that family */
	assert_int_equal(rb_allow_parse("0.0.0.0/0", &a, err, sizeof(err)), 0);
	assert_true(rb_allow_ok(&a, sa("203.0.113.9")));
	assert_false(rb_allow_ok(&a, sa("2001:db8::1")));
}

static void refused(const char *list, const char *want)
{
	struct rb_allow a;
	char err[256];

	assert_int_equal(rb_allow_parse(list, &a, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
}

static void test_refused(void **state)
{
	(void)state;
	refused("10.1.0.0/15", "--allow 10.1.0.0/15: address bits are set past /15: give the "
			       "network's first "
			       "address");
	refused("10.0.0.0/33", "--allow 10.0.0.0/33: the prefix length must be 0..32");
	refused("fd00::/129", "--allow fd00::/129: the prefix length must be 0..128");
	refused("10.0.0.0/", "--allow 10.0.0.0/: the prefix length must be 0..32");
	refused("10.0.0.0/8x", "--allow 10.0.0.0/8x: the prefix length must be 0..32");
	refused("host.example", "--allow 'host.example': not an IPv4 or IPv6 network (ADDR/LEN, "
				"e.g. 10.0.0.0/8 or "
				"fd00::/64, or one address)");
	refused(",", "--allow ',': no network in it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_allows_all),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
