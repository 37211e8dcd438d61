/* SPDX-License-Identifier: MIT */
/*
 * rdmabench lock (issue 42): a lock on RDMA atomics, the server's memory
 * holding the lock words and the data they protect, each of the point's
 * -q QPs a contender of the client's.  The contenders run at once, each
 * a small state machine on its own QP (acquire, read-modify-write of the
 * protected data, --hold, release), all polled from one CQ: the server's
 * words see real contention, and every time is read on one clock.
 *
 * An algorithm is one row (struct rb_lock_algo); --lock picks it by its
 * index (the option's choices, enum rb_lock_algo_id).  Private to
 * src/engine/ and the lock row (src/bench/bench_lock.c), and the unit
 * tests, which run a broken row of their own against --verify.
 */
#ifndef RB_ENGINE_LOCK_H
#define RB_ENGINE_LOCK_H

#include "engine/run.h"

/*
 * Where things are.  The server's rx region: lock k's words at k * 64
 * (+0 the lock word, or the next ticket; +8 now serving), then lock k's
 * data at data_off + k * stride (a counter, u64; the last holder's mark,
 * RB_LOCK_MARK_BYTES: its host's rb_lock_host_mark() and its QP, each a
 * big-endian u32; then --cs-bytes of its fill).  The client's tx region: contender c's scratch at
 * c * scratch (+0 an atomic's fetched word, +8 a zero word, +64 the data
 * as read, +64 + stride the data as written).
 */
struct rb_lock_layout {
	uint32_t locks;
	uint64_t data_off, stride, server_bytes, scratch;
};

/* rb_lock_layout() - plan @p's layout for @qps contenders. */
void rb_lock_layout(const struct rb_params *p, uint64_t qps, struct rb_lock_layout *l);

/* rb_lock_data_len() - a lock's data for plan @p: counter, mark, --cs-bytes. */
#define RB_LOCK_MARK_BYTES 8
uint32_t rb_lock_data_len(const struct rb_params *p);

/* rb_lock_region() - the bytes a region needs for plan @p (the row's .region). */
uint64_t rb_lock_region(const struct rb_params *p);

struct rb_lock_run;
struct rb_lock_cont;

/*
 * An algorithm.  .acquire posts a contender's next acquire attempt;
 * .acquired reads that attempt's completion: 1 owned, 0 not yet (the
 * engine backs off and calls .acquire again), or -errno; .release posts
 * the release; .is_free says whether lock words @w (the lock's 16 bytes,
 * as read at the end) show the lock free.
 */
struct rb_lock_algo {
	const char *name;
	int (*acquire)(struct rb_lock_run *lk, struct rb_lock_cont *c);
	int (*acquired)(struct rb_lock_run *lk, struct rb_lock_cont *c);
	int (*release)(struct rb_lock_run *lk, struct rb_lock_cont *c);
	bool (*is_free)(const uint64_t *w);
};

/* rb_lock_algos[] - the rows, in --lock's order (enum rb_lock_algo_id). */
extern const struct rb_lock_algo rb_lock_algos[RB_LOCK_ALGO_COUNT];

/* A contender's state. */
enum rb_lock_st {
	RB_LK_IDLE,    /* nothing in flight: start an acquisition */
	RB_LK_ACQ,     /* an acquire attempt in flight */
	RB_LK_BACKOFF, /* waiting until .due before the next attempt */
	RB_LK_READ,    /* owner: the data's READ in flight */
	RB_LK_WRITE,   /* owner: the data's WRITE in flight */
	RB_LK_HOLD,    /* owner: --hold until .due */
	RB_LK_CHECK,   /* owner, --verify: the data read back */
	RB_LK_REL,     /* the release in flight */
	RB_LK_DONE,    /* no more acquisitions for this point */
};

struct rb_lock_cont {
	uint32_t qi;   /* its QP */
	uint32_t lock; /* the lock of the acquisition under way */
	enum rb_lock_st st;
	uint64_t seq;	  /* the acquisition's number in the point (warmup in) */
	uint64_t ticket;  /* ticket: the ticket drawn */
	uint64_t t_first; /* ticks: its first attempt */
	uint64_t t_rel;	  /* ticks: the release posted */
	uint64_t due;	  /* ns: a backoff's or hold's end */
	uint64_t wait_ns; /* the next backoff */
	uint64_t attempts;
	uint64_t acquired; /* measured acquisitions: its share */
	uint8_t *scr;	   /* its scratch (local) */
};

/* One point's lock run, the client's. */
struct rb_lock_run {
	struct rb_run *r;
	const struct rb_lock_algo *algo;
	struct rb_lock_layout l;
	struct rb_lock_cont *c;
	uint32_t n;			   /* contenders: the point's QPs */
	uint64_t started, done, end;	   /* acquisitions begun, released; the point's total */
	uint32_t backoff_min, backoff_max; /* ns; 0: none */
	uint64_t hold_ns;
	uint32_t host;	    /* this host's mark (rb_lock_host_mark()) */
	uint64_t *last_rel; /* per lock: ticks of its last release's post (or send), 0: none */
	uint32_t *last_by;  /* per lock: the contender (QP) whose release that was */
	/* Measured figures, in ticks. */
	uint64_t attempts, rel_ticks, handoff_ticks, handoffs;
};

/*
 * rb_lock_post() - post one signaled WR of @opcode on contender @c's QP:
 * @len bytes at local @laddr, remote @roff into the server's region
 * (atomics: @cmp_add, @swap).  0 or -errno (logged).
 */
int rb_lock_post(struct rb_lock_run *lk, struct rb_lock_cont *c, enum ibv_wr_opcode opcode,
		 uint8_t *laddr, uint32_t len, uint64_t roff, uint64_t cmp_add, uint64_t swap);

/* The 8 bytes an atomic or a READ of a word fetched into @c's scratch. */
static inline uint64_t rb_lock_fetched(const struct rb_lock_cont *c)
{
	return *(const volatile uint64_t *)c->scr;
}

/*
 * rb_run_lock_with() - the client's point with algorithm @algo: every
 * contender acquires, works on the data and releases until the point's
 * acquisitions are done, then (--verify) the server's memory is read
 * back: each lock free and the counters' sum the acquisitions.  Its
 * figures go to r (lat: acquire latencies) and *@lk.  0, -EILSEQ when
 * --verify found mutual exclusion broken (logged), or -errno.
 */
int rb_run_lock_with(struct rb_run *r, const struct rb_lock_algo *algo, struct rb_lock_run *lk);

/*
 * A contender's steps that count the figures, whatever carries its
 * messages (lock's verbs, tcp_lock's socket): rb_lock_attempted() - an
 * attempt begins (state RB_LK_ACQ); rb_lock_owned() - it owns the lock:
 * the acquire latency and, to a contender already waiting, the handoff
 * (0 or rb_samples_push()'s error); rb_lock_releasing() - its release
 * goes out (RB_LK_REL), from which the next owner's handoff counts;
 * rb_lock_released() - the release is done (RB_LK_IDLE), the last
 * warm-up one starting the measured interval.  rb_lock_warming() - the
 * measured acquisitions wait for the warm-up's releases.  Warm-up steps
 * (c->seq below the point's warm-up) count none.
 */
void rb_lock_attempted(struct rb_lock_run *lk, struct rb_lock_cont *c);
int rb_lock_owned(struct rb_lock_run *lk, struct rb_lock_cont *c);
void rb_lock_releasing(struct rb_lock_run *lk, struct rb_lock_cont *c);
void rb_lock_released(struct rb_lock_run *lk, struct rb_lock_cont *c);
bool rb_lock_warming(const struct rb_lock_run *lk);

/*
 * rb_lock_host_mark() - this host's part of a holder's mark (lockmark.c):
 * its name, the process's pid and a random nonce the process drew
 * (getrandom(2)) folded, never 0, so that each client host of a --run-id
 * run, each process of one host, and identical containers (one name, one
 * pid) mark differently; 0 or -errno (logged).  rb_lock_host_mark_of()
 * - the same for host name @name and pid @pid.
 * rb_lock_mark() - contender @c's mark (host, QP, its fill) at @m.
 * rb_lock_mark_check() - the data as read back, @rd, is what @c wrote,
 * @wr (the counters @got and @want): 0, or -EILSEQ (logged, naming this
 * holder and the one whose mark it found, @what the test).
 */
int rb_lock_host_mark(uint32_t *mark);
int rb_lock_host_mark_of(const char *name, pid_t pid, uint32_t *mark);
void rb_lock_mark(const struct rb_lock_run *lk, const struct rb_lock_cont *c, uint8_t *m);
int rb_lock_mark_check(const struct rb_lock_run *lk, const struct rb_lock_cont *c,
		       const uint8_t *rd, const uint8_t *wr, uint64_t got, uint64_t want,
		       const char *what);

/* rb_lock_result() - the point's figures of @lk into @res (after rb_result_generic()). */
void rb_lock_result(const struct rb_lock_run *lk, struct rb_result *res);

/* rb_lock_run_free() - what rb_run_lock_with() allocated. */
void rb_lock_run_free(struct rb_lock_run *lk);

/*
 * rb_lock_server_check() - the server, after the client's STOP, with
 * --verify: its own memory holds every lock free and counters that add
 * up to the client's @count acquisitions.  0 or -EILSEQ (logged).
 */
int rb_lock_server_check(struct rb_run *r, uint64_t count);

#endif
