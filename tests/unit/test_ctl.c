// SPDX-License-Identifier: MIT
/*
 * The control channel's server barrier over a socket pair: a client of a
 * --threads run may say it is alive before a point's START, any other
 * client is out of step when it does (it could hold its slot forever).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctl.h"
#include "wire.h"

static void send_sync(struct rb_oob *o, uint32_t point, uint32_t what)
{
	struct rb_msg_sync m = { .point = point, .what = what };
	uint8_t buf[64];
	int len = rb_pack_sync(&m, buf, sizeof(buf));

	assert_true(len > 0);
	assert_int_equal(rb_oob_send(o, RB_MSG_SYNC, buf, (uint32_t)len), 0);
}

/* The barrier of a server whose client says ALIVE twice, then START. */
static int barrier_after_alive(bool threads)
{
	struct rb_oob srv = { .timeout_ms = 1000 }, cli = { .timeout_ms = 1000 };
	struct rb_ctl c;
	int sv[2], ret;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	srv.fd = sv[0];
	cli.fd = sv[1];
	rb_ctl_oob_init(&c, &srv, RB_ROLE_SERVER);
	c.peer = "test";
	c.threads = threads;
	send_sync(&cli, 3, RB_SYNC_ALIVE);
	send_sync(&cli, 3, RB_SYNC_ALIVE);
	send_sync(&cli, 3, RB_SYNC_START);
	ret = c.ops->barrier(&c, 3);
	close(sv[0]);
	close(sv[1]);
	return ret;
}

static void test_alive_threads(void **state)
{
	(void)state;
	assert_int_equal(barrier_after_alive(true), 0);
}

static void test_alive_single(void **state)
{
	(void)state;
	assert_int_equal(barrier_after_alive(false), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alive_threads),
		cmocka_unit_test(test_alive_single),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
