/* SPDX-License-Identifier: MIT */
/*
 * The control channel as a point sees it: a barrier at its start, the
 * client's heartbeats and STOP, the server's RESULT.  The measuring loops
 * (src/engine/) and the point flow (session.c) call only these; the socket
 * implementation (rb_ctl_oob_init) speaks wire.h over the out-of-band TCP
 * connection, a unit test can drive the loops with a fake, and a cluster
 * coordinator can put its own behind the same calls.
 */
#ifndef RB_CTL_H
#define RB_CTL_H

#include "rdma/counters.h"
#include "wire/oob.h"
#include "core/rdmabench.h"

/* What rb_ctl_ops.poll heard. */
enum { RB_CTL_NOTHING = 0, RB_CTL_ALIVE = 1, RB_CTL_STOP = 2 };
/* barrier(): the peer ended the plan (BYE). */
enum { RB_CTL_ENDED = 1 };

struct rb_ctl;

struct rb_ctl_ops {
	/*
	 * Both sides at the start of point @point.  Returns 0, RB_CTL_ENDED
	 * when the peer ended the plan before it (a server meets the client's BYE),
	 * or -errno, logged (a peer that gave up is -ECONNABORTED).
	 */
	int (*barrier)(struct rb_ctl *c, uint32_t point);
	/* Client: this side is alive, during point @point. */
	int (*alive)(struct rb_ctl *c, uint32_t point);
	/*
	 * During a point, wait up to @wait_ms (0: just look) for the peer.
	 * The server hears RB_CTL_ALIVE, or RB_CTL_STOP with the client's
	 * operation count in *@count; the client hears an error (the server
	 * gave up: -ECONNABORTED), and with -b, where the server streams too,
	 * its ALIVE and STOP.  RB_CTL_NOTHING when silent.
	 */
	int (*poll)(struct rb_ctl *c, uint32_t point, int wait_ms, uint64_t *count);
	/* Point @point is over after @count operations: the client's, and
	 * with -b the server's too. */
	int (*stop)(struct rb_ctl *c, uint32_t point, uint64_t count);
	/*
	 * The server's view of the point: the server sends @m, the client
	 * receives it into @m (m->point says which point it expects).
	 */
	int (*result)(struct rb_ctl *c, struct rb_msg_result *m);
	/*
	 * After the result: the server's device counters over the point; the
	 * server sends @s, the client receives it into @s.
	 */
	int (*counters)(struct rb_ctl *c, struct rb_counter_set *s);
};

struct rb_ctl {
	const struct rb_ctl_ops *ops;
	enum rb_role role;
	const char *peer; /* for messages: "host:port" */
	void *priv;	  /* the implementation's */
	/* Server: the plan's client is a thread of a --threads run, which
	 * may say it is alive between points; no other client may. */
	bool threads;
	/* Server, --threads: how long ALIVEs may hold point 0's barrier
	 * (the --timeout, ns; 0: no bound), from @since_ns (the connection's
	 * admission; 0: the barrier's start): a run whose other threads never
	 * come frees the slot then, whatever ALIVEs arrive. */
	uint64_t alive_ns, since_ns;
};

/*
 * rb_ctl_oob_init() - @c over the out-of-band connection @o (which may be
 * connected later: @c keeps the pointer).
 */
void rb_ctl_oob_init(struct rb_ctl *c, struct rb_oob *o, enum rb_role role);

#endif
