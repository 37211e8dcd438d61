/* SPDX-License-Identifier: MIT */
/*
 * The benchmark table: each test kind is one row, struct rb_bench, in one
 * src/bench/bench_*.c file, listed once in rb_bench_list[] (bench/benches.c,
 * which hands it to rb_benches at start).  The
 * row drives everything that lists tests: dispatch of the subcommand,
 * --help, the man page's "Applies to" lines, which options a test takes
 * (its scope), the server's acceptance of a client's test, and the
 * resources the session creates.  What differs between tests is a field of
 * the row; the shared loops live in src/engine/.  doc/development.md
 * ("Adding a test") walks through a new row.
 */
#ifndef RB_BENCH_H
#define RB_BENCH_H

#include "core/rdmabench.h"

struct rb_run;
struct ibv_send_wr;

/*
 * Scope bits: what a command is, for the option table.  A test's scope
 * comes from its row (rb_bench_scope()); an option applies to a command
 * whose scope holds every bit of the option's .need and, when .any is set,
 * at least one bit of it.
 */
enum {
	RB_S_TEST = 1 << 0,    /* any test: opens QPs and measures */
	RB_S_LAT = 1 << 1,     /* mode lat */
	RB_S_BW = 1 << 2,      /* mode bw */
	RB_S_RECV = 1 << 3,    /* .needs_recv */
	RB_S_INLINE = 1 << 4,  /* .inline_ok */
	RB_S_RD_ATOM = 1 << 5, /* .bounded_by_rd_atom */
	RB_S_ATOMIC = 1 << 6,  /* .atomic */
	RB_S_SIZED = 1 << 7,   /* not .fixed_size: -a sweeps sizes */
	RB_S_FAMILY = 1 << 8,  /* a family command: --mode picks the row */
	RB_S_SERVER = 1 << 9,  /* the generic server */
	RB_S_TOPO = 1 << 10,
	RB_S_OWN = 1 << 11,	  /* parses its own options: none of the table's apply */
	RB_S_MATRIX = 1 << 12,	  /* rdmabench matrix TEST: ORed with the test's scope */
	RB_S_BIDIR = 1 << 13,	  /* .bidir_ok: -b */
	RB_S_SEND_IMM = 1 << 14,  /* .imm_ops SEND_WITH_IMM: --send-with-imm */
	RB_S_WRITE_IMM = 1 << 15, /* .imm_ops RDMA_WRITE_WITH_IMM: --write-with-imm */
	RB_S_REG = 1 << 16,	  /* unused: reg parses its own options (reg_opts.c) */
	RB_S_VERBS = 1 << 17,	  /* .path RB_PATH_VERBS: device, QPs; the RDMA options */
	RB_S_LOCK =
		1 << 18,    /* .lock: --locks, --hold, --cs-bytes (with VERBS: --lock, --backoff) */
	RB_S_QPS = 1 << 19, /* -q: a verbs bandwidth test's QPs, a lock test's contenders */
};
#define RB_S_RUN (RB_S_TEST | RB_S_SERVER) /* anything that opens a QP */

/*
 * What carries a test's data.  The session asks the row: verbs resources
 * (device, CQ, QPs, MRs; the CONN exchange), or a TCP connection of the
 * test's own beside the control channel (its port in the DATA exchange).
 */
enum rb_path {
	RB_PATH_VERBS = 0,
	RB_PATH_TCP,
	RB_PATH_COUNT,
};

struct rb_bench {
	const char *name;   /* subcommand, wire and output name: "send_lat" */
	const char *desc;   /* one line for --help */
	const char *family; /* "atomic": "atomic --mode lat|bw" reaches the row too */
	enum rb_mode mode;
	enum rb_path path;   /* verbs (the default) or a TCP socket */
	const char *wr_name; /* what its WRs are, in messages: "RDMA WRITE" */

	/* Capabilities: what the session, the loops and the options ask. */
	bool needs_recv;	  /* receives posted (-r); the CQ holds them too */
	bool inline_ok;		  /* payload may go inline (-I) */
	bool bounded_by_rd_atom;  /* on the wire per QP <= max_qp_rd_atom (-o) */
	bool atomic;		  /* needs atomic_cap; --op applies */
	bool payload_from_server; /* the data moves server -> client (reads, atomics) */
	unsigned int transports;  /* RB_TR_BIT()s of the transports it runs over (-c) */
	bool bidir_ok;		  /* -b: the server streams the same WRs to the client */
	uint32_t fixed_size;	  /* the only message size (8 for atomics), 0: any */
	uint32_t default_size;	  /* -s when not given */
	uint32_t default_inline;  /* -I when not given (latency tests inline small sends) */
	int client_access;	  /* remote rights on each side's MR */
	int server_access;
	uint32_t odp_caps; /* rc_odp_caps bits (IBV_ODP_SUPPORT_*) --odp needs */
	uint64_t send_ops; /* IBV_QP_EX_WITH_* its WRs need through ibv_wr_* (--post-api) */
	/* With an immediate (--send-with-imm, --write-with-imm): what
	 * send_ops becomes; 0: not taken.  Each such WR consumes a receive. */
	uint64_t imm_ops;
	/* A receiver learns of arrival by polling the buffer's last byte:
	 * never with relaxed ordering, which may place it before the rest. */
	bool polls_buffer;
	double lat_scale; /* 0.5: one-way from a round trip; 1: round trip */
	/* A lock test (engine/lock.h): its options (RB_S_LOCK); --op does not apply. */
	bool lock;
	/* The bytes each region needs beyond -s (the lock's words, data and
	 * scratch); NULL: the message size alone (rb_plan_region()). */
	uint64_t (*region)(const struct rb_params *p);

	/* Hooks.  Once per connection, after the QPs reached RTS. */
	int (*setup)(struct rb_run *r);
	/* Before a point: fill patterns, reset counters (both sides). */
	int (*prepare)(struct rb_run *r);
	/* One point, on this side's role. */
	int (*run)(struct rb_run *r);
	/* After a point: compute this side's result. */
	int (*result)(struct rb_run *r, struct rb_result *res);
	/* Fill the verb's part of a WR template of QP @qi, once per point. */
	void (*prep_wr)(struct rb_run *r, struct ibv_send_wr *wr, uint32_t qi);
	/* Optional: what changes with each iteration @it, at post time. */
	void (*iter_wr)(struct rb_run *r, struct ibv_send_wr *wr, uint64_t it);
};

extern const struct rb_bench rb_bench_send_lat, rb_bench_send_bw;
extern const struct rb_bench rb_bench_write_lat, rb_bench_write_bw;
extern const struct rb_bench rb_bench_read_lat, rb_bench_read_bw;
extern const struct rb_bench rb_bench_atomic_lat, rb_bench_atomic_bw;
extern const struct rb_bench rb_bench_tcp_lat, rb_bench_tcp_bw;
extern const struct rb_bench rb_bench_lock, rb_bench_tcp_lock;

/*
 * rb_benches - every row, NULL-terminated, in help order: bench/'s
 * rb_bench_list[], which rb_benches_set() registers before main() runs
 * (src/bench/benches.c); an empty list before.
 */
extern const struct rb_bench *const *rb_benches;
void rb_benches_set(const struct rb_bench *const *rows);

/* rb_bench_find() - the row named @name ("atomic_lat", ...), or NULL. */
const struct rb_bench *rb_bench_find(const char *name);

/*
 * rb_bench_receives() - whether row @b under plan @p posts receives and
 * sees the peer's messages: its SENDs, or its WRITEs with immediates.
 * Such a side keeps -r receives per QP, and a bandwidth server counts
 * the messages and reports its own bandwidth.
 */
bool rb_bench_receives(const struct rb_bench *b, const struct rb_params *p);

/*
 * rb_bench_odp_need() - the IBV_ODP_SUPPORT_* verbs --odp needs of the
 * device for row @b under plan @p: the row's own, RECV wherever the plan
 * posts receives (a SEND's, --write-with-imm's), SRQ_RECV instead with
 * --use-srq.  Checked against the plan's transport's odp_caps.
 */
uint32_t rb_bench_odp_need(const struct rb_bench *b, const struct rb_params *p);

/* rb_bench_scope() - the RB_S_* bits of row @b. */
unsigned int rb_bench_scope(const struct rb_bench *b);

/*
 * rb_family_scope() - the union of the scopes of family @family's rows,
 * with RB_S_FAMILY; 0 when no row belongs to it.
 */
unsigned int rb_family_scope(const char *family);

/* rb_family_pick() - the row of family @family in @mode, or NULL. */
const struct rb_bench *rb_family_pick(const char *family, enum rb_mode mode);

/*
 * rb_bench_in() - whether row @b is what @what names: a row's name, a
 * family's, or NULL for any row (the generic server).
 */
bool rb_bench_in(const struct rb_bench *b, const char *what);

#endif
