// SPDX-License-Identifier: MIT
/*
 * -D 0: the run goes on until a signal; while the row's loop runs, the
 * first SIGINT/SIGTERM ends the point (main.c), which is then reported.
 */
#include "session/session_int.h"
#include "session/point_hook.h"

static bool forever_on(const struct session *s)
{
	return s->p.forever;
}

static void forever_arm(struct session *s)
{
	(void)s;
	rb_stop_armed = 1;
}

static int forever_disarm(struct session *s, int ret)
{
	(void)s;
	rb_stop_armed = 0;
	return ret;
}

const struct sess_point_hook sess_hook_forever = {
	.name = "forever",
	.sides = SESS_CLIENT,
	.on = forever_on,
	.run_begin = forever_arm,
	.run_end = forever_disarm,
};
