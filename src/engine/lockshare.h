/* SPDX-License-Identifier: MIT */
/*
 * rdmabench lock from several client hosts (issue 42): the --run-hosts N
 * hosts that give one --run-id contend on one server's lock words.  The
 * generic server serves each connection in a process of its own; the
 * processes of one run map one segment (src/session/lockshare.c makes
 * it: named by the server's pid and the run id, never by a client), a
 * header no MR covers (rb_lockshare_hdr() bytes), then the lock words and
 * data, which each process maps over the start of its rx region.
 *
 * Each host has a place in the header: the pid of the server process
 * that serves it, whether it is there, and how far it came.  The points
 * of the run are aligned point by point: point k starts when every host
 * has reached it (the first host out of the wait zeroes the words and
 * data, taking the point by a CAS; the others wait for it), and
 * with --verify each process, once every host has stopped point k,
 * checks the counters against the sum of every host's acquisitions in
 * it (struct rb_msg_sync's STOP count).  A host that left the run (its
 * connection ended, or its server process died) before a point ends
 * the others' waits for that point at once, naming it: the run's
 * figures are those of its N hosts contending, so the others do not go
 * on without it.  A process that died leaves its place attached: the
 * listener, reaping it, marks it dead (rb_lockshare_reaped()), and
 * failing that the next wait or attach finds its pid gone and drops it
 * (rb_lockshare_prune()), so that a crashed connection holds no run.
 */
#ifndef RB_ENGINE_LOCKSHARE_H
#define RB_ENGINE_LOCKSHARE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/rdmabench.h"

#define RB_LOCKSHARE_MAGIC 0x726273686172656cULL /* "rbsharel" */
#define RB_LOCKSHARE_HOSTS 64			 /* --run-hosts' most */

/* A host's place's state. */
enum { RB_LKH_FREE, RB_LKH_HERE, RB_LKH_LEFT, RB_LKH_DEAD };

struct rb_lock_host {
	int32_t pid;	  /* the server process serving it */
	uint32_t state;	  /* RB_LKH_* */
	uint32_t reached; /* points it began: point k's start makes it k + 1 */
	uint32_t ended;	  /* points it stopped */
	uint64_t acq;	  /* its acquisitions in the last point it stopped (warm-up in) */
	char who[40];	  /* the client, as the server names it */
};

struct rb_lock_share {
	uint64_t magic; /* set last, once the rest is */
	uint64_t run_id;
	uint64_t bytes;	   /* the shared bytes, after the header */
	uint32_t hosts;	   /* --run-hosts */
	uint32_t attached; /* hosts here now (RB_LKH_HERE) */
	uint32_t joined;   /* hosts that ever joined: at most hosts */
	/* What every host's plan must agree on. */
	uint32_t algo, locks, cs_bytes, points, verify;
	uint32_t hold, duration_s; /* --hold's list (folded), -D */
	uint64_t iters, warmup;
	uint32_t started; /* points begun: the first out of the wait zeroed the memory */
	struct rb_lock_host host[RB_LOCKSHARE_HOSTS];
};

/*
 * rb_lockshare_hdr() - the header's bytes, whole pages of @page.
 * rb_lockshare_init() - a new segment's header for plan @p (@points
 * points), its shared bytes rb_lockshare_bytes(@p, @page); the magic
 * last.  rb_lockshare_differs() - why plan @p (@points) cannot join the
 * run of @sh, into @why; false when it can.
 */
uint64_t rb_lockshare_hdr(uint64_t page);
uint64_t rb_lockshare_bytes(const struct rb_params *p, uint64_t page);
void rb_lockshare_init(struct rb_lock_share *sh, const struct rb_params *p, uint32_t points,
		       uint64_t page);
bool rb_lockshare_differs(const struct rb_lock_share *sh, const struct rb_params *p,
			  uint32_t points, char *why, size_t len);

/*
 * rb_lockshare_add() - a host joins (server process @pid, client @who):
 * its place, the next of @sh's (the caller checked one is free).
 * rb_lockshare_leave() - host @me's connection ends: the hosts still
 * here.  rb_lockshare_reaped() - server process @pid ended (the listener
 * reaped it, so the pid is exact): its place, if still here, becomes
 * RB_LKH_DEAD; how many it marked.  rb_lockshare_prune() - the fallback:
 * the places whose server process is gone by kill(pid, 0) (a pid used
 * again looks alive) become RB_LKH_DEAD: how many it found.  The callers
 * of add, leave and reaped hold the server's table lock (admit.h); prune
 * is safe beside them and beside another prune.
 */
uint32_t rb_lockshare_add(struct rb_lock_share *sh, pid_t pid, const char *who);
uint32_t rb_lockshare_leave(struct rb_lock_share *sh, uint32_t me);
uint32_t rb_lockshare_reaped(struct rb_lock_share *sh, pid_t pid);
uint32_t rb_lockshare_prune(struct rb_lock_share *sh);

/*
 * rb_lockshare_begin() - host @me reached point @k (0, 1, ...): wait
 * until every host has; the first out of the wait zeroes @mem (the
 * shared bytes), the others wait for that.  0, -ENOTCONN at once when a
 * host left the run before point @k (logged, naming it), -ETIMEDOUT
 * after @timeout_ns (logged, naming the run and how many hosts came, or
 * a zeroer that died), or -EINTR.
 */
int rb_lockshare_begin(struct rb_lock_share *sh, uint32_t me, uint32_t k, uint8_t *mem,
		       uint64_t timeout_ns);

/*
 * rb_lockshare_end() - host @me's client stopped point @k after @count
 * acquisitions (warm-up in).  With @wait, wait until every host has
 * stopped it and give the point's sum of acquisitions in *@total.  0,
 * -ENOTCONN (a host left before stopping it), -ETIMEDOUT (both logged)
 * or -EINTR.
 */
int rb_lockshare_end(struct rb_lock_share *sh, uint32_t me, uint32_t k, uint64_t count, bool wait,
		     uint64_t timeout_ns, uint64_t *total);

#endif
