/* SPDX-License-Identifier: MIT */
/*
 * The matrix coordinator's messages, packed and unpacked without sockets.
 * They travel in wire.h's frames (header: magic, wire version, type,
 * length) over oob.c's connections, with types of their own from
 * RB_MX_MSG_JOIN on; JOIN carries the matrix protocol version, and the
 * coordinator refuses another version naming both.  Every count and string
 * is bounded; an unpacker never reads past the body and refuses trailing
 * bytes.
 *
 *   rank                         coordinator (rank 0)
 *   JOIN(rank, host, addr)  ->
 *   (--auth-key: AUTH both ways, matrix/matrix_auth.h)
 *                           <-   WELCOME | ERROR(why)
 *   per round:              <-   ROUND(tasks: serve or run pair p)
 *   READY(round)            ->                 (servers started)
 *                           <-   GO(round)      (clients start)
 *   RESULT(pair, ...)       ->                 (each pair, each side)
 *                           <-   OVER(pair)     (server: the client is done)
 *   DONE(round)             ->
 *   BEAT                    <->  while waiting, once a second
 *                           <-   END
 */
#ifndef RB_MATRIX_WIRE_H
#define RB_MATRIX_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include "core/rdmabench.h"
#include "wire/auth.h"

/*
 * v9: RESULT's point carries its --lock, --hold and --cq-moderation
 * (issue 42's review: a lock job's JSON said "spin" and hold 0 whatever
 * it ran); v8: RESULT carries the --reg-mode cache group (rcache_hit_pct, regs_per_s,
 * deregs_per_s; issue 42) and the lock group (lock_acq_per_s ..
 * lock_share_min); v7: JOIN carries --auth-key's flag and the rank's nonce; v6: RESULT carries the side's port, GID index and GID, and the
 * --wr-lat group (p50, p99); v5: RESULT carries the --probe group
 * (loaded/idle p50, p99); v4:
 * RESULT carries wakeups_per_msg (the metric table's group of its own); v3: RESULT's point carries how it waited (--cqe-poll, --poll);
 * v2: RESULT's placement carries the CPU clock (governor, MHz), as CONN's
 * does
 */
#define RB_MX_PROTO	 9
#define RB_MX_WIRE_TASKS 511 /* a receiver of incast:K serves K pairs */
#define RB_MX_STR	 64
#define RB_MX_REASON	 160

enum rb_mx_msg {
	RB_MX_MSG_JOIN = 32,
	RB_MX_MSG_WELCOME,
	RB_MX_MSG_ROUND,
	RB_MX_MSG_READY,
	RB_MX_MSG_GO,
	RB_MX_MSG_RESULT,
	RB_MX_MSG_OVER,
	RB_MX_MSG_DONE,
	RB_MX_MSG_BEAT,
	RB_MX_MSG_END,
};

struct rb_mx_join {
	uint16_t proto;
	uint32_t rank, nranks, local;
	char tool_version[32];
	char test[32];
	char host[RB_MX_STR];
	char device[RB_MX_STR]; /* -d expanded; empty: chosen by address */
	char addr[RB_MX_STR];	/* --bind expanded; empty: as the coordinator sees it */
	/* --auth-key (v7): the rank has a key, and its nonce (zero without) */
	uint8_t auth;
	uint8_t nonce[RB_AUTH_NONCE_LEN];
};

enum { RB_MX_SERVE = 0, RB_MX_RUN = 1 };

/* One pair of a round, as one rank sees it. */
struct rb_mx_task {
	uint32_t pair;
	uint8_t role; /* RB_MX_SERVE or RB_MX_RUN */
	uint32_t peer;
	uint16_t port;	      /* the server's TCP port */
	char addr[RB_MX_STR]; /* RUN: the server's address */
};

struct rb_mx_round {
	uint32_t round;
	uint32_t ntasks;
	struct rb_mx_task task[RB_MX_WIRE_TASKS];
};

/* READY, GO, OVER, DONE: a round, and for OVER a pair. */
struct rb_mx_tick {
	uint32_t round;
	uint32_t pair;
};

/* One side's account of a pair. */
struct rb_mx_report {
	uint32_t round, pair;
	uint8_t role;	/* RB_MX_RUN: the client, whose result counts */
	int32_t status; /* the side's exit code: 0 ok */
	char reason[RB_MX_REASON];
	char device[RB_MX_STR];
	uint8_t port;	     /* the device's port; 0: not known */
	int16_t gid_index;   /* -1: none (InfiniBand LID) or not known */
	char gid[RB_MX_STR]; /* the GID as an address; empty: none */
	struct rb_placement place;
	uint8_t has_res; /* a client that measured */
	struct rb_result res;
};

/*
 * rb_mx_unpack_join() of another protocol version reads the fields every
 * version begins with (proto to addr) and ignores the rest, so that the
 * coordinator can refuse it naming both versions.
 *
 * Packers write into @buf of @cap bytes and return the length or
 * -EMSGSIZE; unpackers return 0 or -EBADMSG.
 */
int rb_mx_pack_join(const struct rb_mx_join *m, uint8_t *buf, size_t cap);
int rb_mx_unpack_join(const uint8_t *buf, size_t len, struct rb_mx_join *m);
int rb_mx_pack_round(const struct rb_mx_round *m, uint8_t *buf, size_t cap);
int rb_mx_unpack_round(const uint8_t *buf, size_t len, struct rb_mx_round *m);
int rb_mx_pack_tick(const struct rb_mx_tick *m, uint8_t *buf, size_t cap);
int rb_mx_unpack_tick(const uint8_t *buf, size_t len, struct rb_mx_tick *m);
int rb_mx_pack_report(const struct rb_mx_report *m, uint8_t *buf, size_t cap);
int rb_mx_unpack_report(const uint8_t *buf, size_t len, struct rb_mx_report *m);

/* rb_mx_msg_name() - "JOIN", "ROUND", ... or NULL when not a matrix message. */
const char *rb_mx_msg_name(uint16_t type);

#endif
