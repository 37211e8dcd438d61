/* SPDX-License-Identifier: MIT */
/*
 * tcp_lock (issue 42): lock's workload through a conventional lock server
 * over TCP, for `rdmabench lock` to be judged against.  The server holds
 * --locks K lock words and the data each protects (lock's layout,
 * lock.h) and queues waiters FIFO: ACQUIRE is answered by GRANT when the
 * lock is free or, later, when the holder before in the queue releases
 * it; RELEASE by RELEASED, then the next waiter's GRANT.  The critical
 * section reads and writes the lock's data through the server: READ ->
 * DATA, WRITE -> WRITTEN (the work of lock's RDMA READ and WRITE).  The
 * client's -q contenders share its one data connection, each message
 * naming its contender, as the threads of one client process share their
 * connection to a lock service; they run at once, on one clock, through
 * lock's state machine and figures (struct rb_lock_run, rb_lock_result()).
 *
 * A message is a 16-byte header, big-endian: type u8, 0 u8, contender
 * u16, lock u32, value u64 (STATE_IS: the lock's counter, and flags 1
 * when the lock is free), then for DATA and WRITE the lock's data: 16 +
 * --cs-bytes bytes (a big-endian counter, the holder's mark, then the
 * --cs-bytes of its fill: rb_lock_data_len()).
 *
 * Private to src/engine/, the tcp_lock row and the unit tests.
 */
#ifndef RB_ENGINE_TCPLOCK_H
#define RB_ENGINE_TCPLOCK_H

#include "engine/lock.h"

enum rb_tlk_type {
	RB_TLK_ACQUIRE = 1, /* client: contender wants lock */
	RB_TLK_GRANT,	    /* server: contender owns lock */
	RB_TLK_RELEASE,	    /* client: the owner gives it back */
	RB_TLK_RELEASED,    /* server: done (before the next owner's GRANT) */
	RB_TLK_READ,	    /* client: the owner reads the lock's data */
	RB_TLK_DATA,	    /* server: the data follows */
	RB_TLK_WRITE,	    /* client: the owner's data follows */
	RB_TLK_WRITTEN,	    /* server: stored */
	RB_TLK_STATE,	    /* client, --verify after the point: how is lock? */
	RB_TLK_STATE_IS,    /* server: value = the counter; flags = 1 when free */
	RB_TLK_TYPES
};

#define RB_TLK_HDR 16

struct rb_tlk_msg {
	uint8_t type, flags;
	uint16_t who;
	uint32_t lock;
	uint64_t value;
};

/* rb_tlk_pack() - @m's header into @b (RB_TLK_HDR bytes). */
void rb_tlk_pack(const struct rb_tlk_msg *m, uint8_t *b);

/* rb_tlk_unpack() - a header from @b. */
void rb_tlk_unpack(const uint8_t *b, struct rb_tlk_msg *m);

/* rb_tlk_has_data() - whether a message of @type carries the lock's data. */
bool rb_tlk_has_data(uint8_t type);

/*
 * The server: per lock its owner and its FIFO of waiters (contender + 1,
 * 0 none), per contender the lock it waits for or owns (+ 1) and its
 * successor in that lock's queue; the data at @data (lock.h's layout).
 */
struct rb_tlk_srv {
	struct rb_lock_layout l;
	uint32_t n;		       /* contenders the plan allows: -q's largest */
	uint32_t dlen;		       /* 16 + --cs-bytes (rb_lock_data_len()) */
	uint32_t *owner, *head, *tail; /* per lock */
	uint32_t *at, *next;	       /* per contender */
	uint8_t *data;		       /* the server's region: the words' room, then the data */
	uint64_t grants;
};

/* Where a reply goes: header @m and, for DATA, @data (dlen bytes). */
typedef int rb_tlk_out_fn(void *arg, const struct rb_tlk_msg *m, const uint8_t *data);

/* rb_tlk_srv_init() - for plan @p, data at @data; 0 or -ENOMEM.  rb_tlk_srv_free() after. */
int rb_tlk_srv_init(struct rb_tlk_srv *s, const struct rb_params *p, uint8_t *data);
void rb_tlk_srv_free(struct rb_tlk_srv *s);

/*
 * rb_tlk_srv_handle() - one request @m (@data: WRITE's bytes) and its
 * replies through @out.  0, -EPROTO on a request the protocol forbids
 * (logged, naming it: a contender or lock out of range, a second
 * ACQUIRE, RELEASE, READ or WRITE of a lock it does not own), or @out's
 * error.
 */
int rb_tlk_srv_handle(struct rb_tlk_srv *s, const struct rb_tlk_msg *m, const uint8_t *data,
		      rb_tlk_out_fn *out, void *arg);

/*
 * rb_tlk_srv_check() - --verify, the server after the point: every lock
 * free, no waiter, the counters adding up to the client's @count.  0 or
 * -EILSEQ (logged).
 */
int rb_tlk_srv_check(const struct rb_tlk_srv *s, uint64_t count);

/* The row's run and result: either side's point (r->c.data_fd). */
int rb_run_tcp_lock(struct rb_run *r);
int rb_result_tcp_lock(struct rb_run *r, struct rb_result *res);

#endif
