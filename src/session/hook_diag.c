// SPDX-License-Identifier: MIT
/*
 * Port counters and --expect (report/diag.h): read before the point and
 * after its STOP; the client takes the server's delta with its RESULT;
 * the point's checks see its final figures.
 */
#include "session/session_int.h"
#include "session/point_hook.h"

static void diag_before(struct session *s)
{
	rb_diag_before(&s->diag);
}

static void diag_after(struct session *s)
{
	rb_diag_after(&s->diag);
}

static void diag_peer(struct session *s, struct sess_point *pt)
{
	(void)pt;
	rb_diag_peer(&s->diag, &s->rep);
}

static void diag_point(struct session *s, struct sess_point *pt)
{
	rb_diag_point(&s->diag, &s->rep, &pt->res, rb_run_total(s->run));
}

const struct sess_point_hook sess_hook_diag = {
	.name = "diag",
	.sides = SESS_CLIENT | SESS_SERVER,
	.setup = diag_before,
	.after_stop = diag_after,
	.peer_in = diag_peer,
	.before_emit = diag_point,
};
