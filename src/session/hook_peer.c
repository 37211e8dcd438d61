// SPDX-License-Identifier: MIT
/*
 * Without --reversed: the client timed the point; the server's RESULT
 * gives the peer's figures (its CPU, its bandwidth where it counts).
 */
#include "session/session_int.h"
#include "session/point_hook.h"

static bool peer_on(const struct session *s)
{
	return !s->p.reversed;
}

/* A server that measured nothing sends no figures (NaN) and 0 iterations. */
static void apply_peer(struct rb_result *res, const struct rb_msg_result *m)
{
	res->has_peer = true;
	/* A rejected count is 0 too (reject_figures()), but no claim of nothing. */
	res->peer_nothing_measured = !m->iters && !(res->peer_rejected & RB_PEER_ITERS);
	res->peer_cpu_util_pct = m->cpu_util_pct;
	res->peer_bw_avg_gbps = m->bw_avg_gbps;
}

static void peer_merge(struct session *s, struct sess_point *pt)
{
	(void)s;
	apply_peer(&pt->res, &pt->m);
}

const struct sess_point_hook sess_hook_peer = {
	.name = "peer",
	.sides = SESS_CLIENT,
	.on = peer_on,
	.merge_peer = peer_merge,
};
