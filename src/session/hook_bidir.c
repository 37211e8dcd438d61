// SPDX-License-Identifier: MIT
/* -b: both sides stream; the point's totals are the two directions' sums. */
#include "session/session_int.h"
#include "session/point_hook.h"

static bool bidir_on(const struct session *s)
{
	return s->p.bidir;
}

/*
 * -b: the client's stream and the server's each move one direction of the
 * data (a read brings it to its initiator); the totals become their sums.
 * The server's figures are its direction's: no peer_bw_avg_gbps.
 */
static void apply_bidir(const struct session *s, struct rb_result *res,
			const struct rb_msg_result *m)
{
	bool toward = s->bench->payload_from_server;
	struct rb_dir_result *mine = &res->dir[toward ? RB_DIR_S2C : RB_DIR_C2S];
	struct rb_dir_result *peer = &res->dir[toward ? RB_DIR_C2S : RB_DIR_S2C];

	*mine = (struct rb_dir_result){ .iters = res->iters,
					.duration_s = res->duration_s,
					.bw_avg_gbps = res->bw_avg_gbps,
					.bw_peak_gbps = res->bw_peak_gbps,
					.msg_rate_mpps = res->msg_rate_mpps };
	*peer = (struct rb_dir_result){ .by_server = true,
					.iters = m->iters,
					.duration_s = m->duration_s,
					.bw_avg_gbps = m->bw_avg_gbps,
					.bw_peak_gbps = m->bw_peak_gbps,
					.msg_rate_mpps = m->msg_rate_mpps };
	res->has_bidir = true;
	res->bw_avg_gbps = mine->bw_avg_gbps + peer->bw_avg_gbps;
	/* The peaks need not coincide: their sum is an upper bound. */
	res->bw_peak_gbps = mine->bw_peak_gbps + peer->bw_peak_gbps;
	res->msg_rate_mpps = mine->msg_rate_mpps + peer->msg_rate_mpps;
	res->peer_bw_avg_gbps = 0;
}

static void bidir_merge(struct session *s, struct sess_point *pt)
{
	apply_bidir(s, &pt->res, &pt->m);
}

const struct sess_point_hook sess_hook_bidir = {
	.name = "bidir",
	.sides = SESS_CLIENT,
	.on = bidir_on,
	.merge_peer = bidir_merge,
};
