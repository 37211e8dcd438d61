/* SPDX-License-Identifier: MIT */
/*
 * What the generic server has admitted: one entry per connection being
 * served (a process of its own), the --threads run it belongs to and the
 * memory it was admitted for.  A run of threads is admitted through its
 * thread 0, which holds the measuring slot and the memory of all its
 * threads; a thread k > 0 joins a run whose thread 0 is being served for
 * the same client and takes its share of that memory.  What every entry
 * holds counts against the memory budget, so that plans admitted at once
 * cannot overcommit the host.
 *
 * The table has one entry per connection the server may serve at once
 * (--max-conns), and a thread 0 reserves entries for its threads to come,
 * so that another run admitted meanwhile does not take them.
 * It lives in memory the server's processes share, under a record lock
 * (rb_admit_lock); the rb_admit_try/held/release functions are pure.
 */
#ifndef RB_ADMIT_H
#define RB_ADMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_admit_entry {
	int32_t pid;	 /* the process serving it; 0: a free entry */
	uint64_t run_id; /* its --threads run (PARAMS run_id); 0: a run of one thread */
	uint32_t thread, threads;
	uint64_t share;	  /* bytes one thread of its plan takes (rb_plan_mem) */
	uint64_t held;	  /* bytes counted for it: a thread 0 also its threads to come */
	uint32_t to_join; /* a thread 0: its run's threads not yet joined */
	char client[64];  /* the client's address, without the port */
};

struct rb_admit {
	uint32_t max;		   /* entries: the server's --max-conns */
	uint64_t client_mem;	   /* --max-client-mem: bytes one client may hold (0: no cap) */
	struct rb_admit_entry e[]; /* max of them */
};

/* rb_admit_held() - the bytes every admitted connection holds. */
uint64_t rb_admit_held(const struct rb_admit *a);

/*
 * rb_admit_try() - admit connection @want (every field but held) within
 * @budget bytes (0: not checked).  A thread 0, or a run of one thread,
 * holds share x threads, which must fit in the budget beside what the
 * table holds; a thread k > 0 takes one share from the thread 0 of its run
 * (same run id and client, being served) and must need no more than it.
 * Returns 0 (entry taken); -EAGAIN when its thread 0 is not (yet) being
 * served; -EEXIST when that thread of that run, or a thread 0 of that run
 * id, is served already; -ENOMEM when over the budget or its share;
 * -EDQUOT when the client's entries would hold more than
 * a->client_mem; -EINVAL for a run of threads without a run id; -ENOSPC for a run of
 * more threads than the table has entries, or when the entries not taken
 * or reserved are fewer than it needs (--max-conns named).  Every refusal
 * has a message in @err naming the field.
 */
int rb_admit_try(struct rb_admit *a, const struct rb_admit_entry *want, uint64_t budget, char *err,
		 size_t len);

/* rb_admit_release() - process @pid ended: its entry, and what it held, are free. */
void rb_admit_release(struct rb_admit *a, int32_t pid);

/*
 * rb_admit_map() - a table of @max entries (1..RB_MAX_CONNS), zeroed, in
 * memory shared with the processes forked after it; NULL (logged) when
 * none can be had.
 */
struct rb_admit *rb_admit_map(uint32_t max);
void rb_admit_unmap(struct rb_admit *a);

/*
 * rb_admit_lock() - take (@on) or drop the table's lock: a record lock on
 * byte 1 of @fd (byte 0 is the measuring slot's), which dies with the
 * process that holds it.  Returns 0 or -errno.
 */
int rb_admit_lock(int fd, bool on);

#endif
