// SPDX-License-Identifier: MIT
/*
 * --probe: thread 0's probe QP pings alone before the stream (the steps,
 * rb_point_steps()) and beside it; its thread ends with the loop, and its
 * idle and loaded summaries join the point's result.
 */
#include "session/session_int.h"
#include "session/point_hook.h"

static bool probe_on(const struct session *s)
{
	return sess_probing(s);
}

static int probe_stop(struct session *s, int ret)
{
	int pret = rb_probe_stop(&s->probe);

	return ret ? ret : pret;
}

static int probe_result(struct session *s, struct sess_point *pt)
{
	rb_probe_result(&s->probe, &pt->res);
	return 0;
}

const struct sess_point_hook sess_hook_probe = {
	.name = "probe",
	.sides = SESS_CLIENT,
	.on = probe_on,
	.run_end = probe_stop,
	.after_result = probe_result,
};
