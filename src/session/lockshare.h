/* SPDX-License-Identifier: MIT */
/*
 * The generic server's side of lock --run-id (issue 42): the segment that
 * the processes serving one run's hosts map (engine/lockshare.h).  It is
 * a POSIX shared memory object named by the server's pid and the run id
 * ("/rdmabench.lock.PID.ID": no client names a path), made by the run's
 * first connection, joined by the others (the same plan's lock words,
 * --run-hosts and points, or refused), and unlinked when the last one
 * ends; a crashed child's place is marked dead by the listener that
 * reaps it (sess_lockshare_reaped()), else dropped by the next wait or
 * attach (its pid is gone), and the server unlinks what is left when it
 * exits.
 * Attach and detach run under the table of connections' lock (admit.h).
 */
#ifndef RB_SESS_LOCKSHARE_H
#define RB_SESS_LOCKSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/rdmabench.h"

struct rb_lock_share;

struct sess_lockshare {
	struct rb_lock_share *sh; /* the header page, mapped */
	int fd;
	bool first;    /* this connection made it (it takes the measuring slot) */
	uint32_t host; /* its place in the run (struct rb_lock_share's host[]) */
	char name[64];
};

/* sess_lockshare_server() - the listener's pid, before it forks (names the segments). */
void sess_lockshare_server(pid_t pid);

/*
 * sess_lockshare_attach() - plan @p's run: make or join its segment
 * (@lock_fd: the table's lock, admit.h) for client @who, into *@out
 * (malloc'd).  A segment whose hosts are all gone (their processes were
 * killed) is made anew.  0; -EINVAL (logged: the plan differs from the
 * run's, or the run has its hosts), -ENOTSUP (not a generic server), or
 * -errno.
 */
int sess_lockshare_attach(const struct rb_params *p, int lock_fd, const char *who,
			  struct sess_lockshare **out);

/* sess_lockshare_map() - the run's words and data over the start of @buf (@len bytes). */
int sess_lockshare_map(struct sess_lockshare *ls, void *buf, size_t len);

/* sess_lockshare_detach() - this connection is done; the last one unlinks. */
void sess_lockshare_detach(struct sess_lockshare *ls, int lock_fd);

/* sess_lockshare_sweep() - the server exits: unlink its segments that are left. */
void sess_lockshare_sweep(void);

/*
 * sess_lockshare_reaped() - the listener reaped its child @pid (under the
 * table's lock): in each of its segments, that process's place, if still
 * here, is dead (rb_lockshare_reaped()), so that the others' waits end at
 * once even where the pid is used again before they look.
 */
void sess_lockshare_reaped(pid_t pid);

#endif
