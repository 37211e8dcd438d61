// SPDX-License-Identifier: MIT
/*
 * Send credits (issue 45), the session's part: each side, its device
 * open, sees whether its transport needs them (struct rb_xport's
 * send_credits: no RNR retry).  The client puts them in the plan, which
 * carries them as a must-understand field (an older server refuses the
 * plan rather than let the stream break its QP); the server refuses a
 * plan without them on such a device.  The rule and the words' place:
 * wire/plan_credits.c; the counts: engine/credit.c.
 */
#include <errno.h>

#include "session/session_int.h"

int sess_credits(struct session *s)
{
	static int said;
	const struct rb_dev *d = &s->conn.dev;
	char err[RB_TEXT_MAX];
	int ret = 0;

	if (!d->tr || !d->tr->send_credits || !rb_plan_credits_apply(s->bench, &s->p))
		return 0;
	if (s->role == RB_ROLE_CLIENT)
		ret = rb_plan_credits_need(&s->p, s->bench, true, d->name, d->tr->name, err,
					   sizeof(err));
	else if (!s->p.credits) {
		snprintf(err, sizeof(err),
			 "%s is %s, which has no RNR retry: %s's SENDs need send credits, which "
			 "client %s did not ask for (an rdmabench without them?)",
			 d->name, d->tr->name, s->bench->name, s->oob.peer);
		ret = -EINVAL;
	}
	/* The credit words are read and written by the CPU. */
	if (!ret && s->l->use_cuda) {
		snprintf(err, sizeof(err),
			 "%s is %s: %s's send credits live in the buffers, which the CPU "
			 "cannot reach in GPU memory (--use-cuda)",
			 d->name, d->tr->name, s->bench->name);
		ret = -EINVAL;
	}
	if (!ret && s->role == RB_ROLE_CLIENT && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		rb_info("%s is %s, which has no RNR retry: %s's SENDs are held to the server's "
			"posted receives by send credits",
			d->name, d->tr->name, s->bench->name);
	if (!ret)
		return 0;
	rb_err("%s", err);
	s->usage = true;
	return ret;
}
