/* SPDX-License-Identifier: MIT */
/*
 * rdmabench lock from several client hosts (issue 42): the --run-hosts N
 * hosts that give one --run-id contend on one server's lock words.  The
 * generic server serves each connection in a process of its own; the
 * processes of one run map one segment (src/session/lockshare.c makes
 * it: named by the server's pid and the run id, never by a client), a
 * header page no MR covers, then the lock words and data, which each
 * process maps over the start of its rx region.
 *
 * The points of the run are aligned: a point starts when every host's
 * process has reached it (the last to arrive zeroes the words and
 * data), and with --verify each process, once every host has stopped,
 * checks the counters against the sum of every host's acquisitions in
 * the point (struct rb_msg_sync's STOP count).  The counters below only
 * grow, so that no process resets what another still reads.
 */
#ifndef RB_ENGINE_LOCKSHARE_H
#define RB_ENGINE_LOCKSHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rdmabench.h"

#define RB_LOCKSHARE_MAGIC 0x726273686172656bULL /* "rbsharek" */

struct rb_lock_share {
	uint64_t magic; /* set last, once the rest is */
	uint64_t run_id;
	uint64_t bytes;	   /* the shared bytes, after the header page */
	uint32_t hosts;	   /* --run-hosts */
	uint32_t attached; /* connections mapping it now */
	uint32_t joined;   /* connections that ever joined: at most hosts */
	/* What every host's plan must agree on. */
	uint32_t algo, locks, cs_bytes, points, verify;
	uint32_t hold, duration_s; /* --hold's list (folded), -D */
	uint64_t iters, warmup;
	/* The points (all hosts together). */
	uint32_t arrived; /* point starts reached */
	uint32_t started; /* points begun: the last arrival zeroed the memory */
	uint32_t stopped; /* point ends reached */
	uint64_t acq[2];  /* point k's acquisitions (warm-up in), acq[k & 1] */
};

/*
 * rb_lockshare_init() - a new segment's header for plan @p (@points
 * points), its shared bytes rb_lockshare_bytes(@p, @page); the magic
 * last.  rb_lockshare_differs() - why plan @p (@points) cannot join the
 * run of @sh, into @why; false when it can.
 */
uint64_t rb_lockshare_bytes(const struct rb_params *p, uint64_t page);
void rb_lockshare_init(struct rb_lock_share *sh, const struct rb_params *p, uint32_t points,
		       uint64_t page);
bool rb_lockshare_differs(const struct rb_lock_share *sh, const struct rb_params *p,
			  uint32_t points, char *why, size_t len);

/*
 * rb_lockshare_begin() - this host's process reached point @k (0, 1, ...):
 * wait until every host has, the last zeroing @mem (the shared bytes).
 * 0, -ETIMEDOUT after @timeout_ns (logged, naming the run and how many
 * hosts came), or -EINTR.
 */
int rb_lockshare_begin(struct rb_lock_share *sh, uint32_t k, uint8_t *mem, uint64_t timeout_ns);

/*
 * rb_lockshare_end() - this host's client stopped point @k after @count
 * acquisitions (warm-up in).  With @wait, wait until every host has
 * stopped and give the point's sum of acquisitions in *@total.  0,
 * -ETIMEDOUT (logged) or -EINTR.
 */
int rb_lockshare_end(struct rb_lock_share *sh, uint32_t k, uint64_t count, bool wait,
		     uint64_t timeout_ns, uint64_t *total);

#endif
