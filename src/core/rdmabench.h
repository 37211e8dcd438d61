/* SPDX-License-Identifier: MIT */
/*
 * Types shared by every layer: the run parameters a client sends, one
 * measured point, and logging.  Nothing here touches verbs or sockets.
 *
 * src/core/ (layer 0, the bottom): the types every layer shares (struct
 * rb_params, rb_result, the test row rb_bench, the command list), logging,
 * the clock, the axis and shape grammars, stats, the metric table, CSV,
 * the byte cursor and the atomic file writer.  Pure; includes nothing of
 * rdmabench outside core/.
 */
#ifndef RDMABENCH_H
#define RDMABENCH_H

/*
 * How every JSON document is printed: indented, and reals to 9 significant
 * digits (jansson's default of 17 prints 0.078890569999999993 for
 * 0.07889057); 9 keep a nanosecond in a second and a byte in a gigabyte.
 */
#define RB_JSON_DUMP (JSON_INDENT(2) | JSON_REAL_PRECISION(9))

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RB_TOOL		  "rdmabench"
#define RB_SCHEMA_VERSION 1
#define RB_DEFAULT_PORT	  18515
#define RB_MAX_AXIS	  64	       /* values per sweep axis */
#define RB_MAX_POINTS	  10000	       /* points per plan */
#define RB_MAX_QPS	  16384	       /* -q: QPs per connection (wire lists in chunks) */
#define RB_MAX_CONNS	  4096	       /* rdmabench server --max-conns: its largest */
#define RB_CONNS_DEFAULT  64	       /* and its default */
#define RB_MAX_THREADS	  1024	       /* --threads: a connection each; the CPUs bound it first */
#define RB_MAX_SIZE	  (1ULL << 30) /* 1 GiB: the largest buffer we register */
#define RB_TEXT_MAX	  1024	       /* an error message, here and on the wire */
/* A UD receive starts with room for the GRH, whether one came or not. */
#define RB_GRH_BYTES 40
/* rdmabench matrix: N(N-1) pairs are kept in memory. */
#define RB_MX_MAX_RANKS		1024
#define RB_MX_DEFAULT_TOLERANCE 10 /* percent */

static inline uint32_t rb_min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Exit codes, documented in the man page. */
enum {
	RB_EXIT_OK = 0,
	RB_EXIT_FAIL = 1,
	RB_EXIT_USAGE = 2,
	RB_EXIT_EXPECT = 3, /* a point failed an --expect */
	RB_EXIT_INTR = 130, /* SIGINT */
	RB_EXIT_TERM = 143, /* SIGTERM */
};

enum rb_mode { RB_MODE_LAT, RB_MODE_BW };
enum rb_atomic_op { RB_OP_FADD, RB_OP_CSWAP };
enum rb_role { RB_ROLE_CLIENT, RB_ROLE_SERVER };
/*
 * The QP transport (-c); the order is the option's choices
 * "RC|UC|UD|SRD|DC".  SRD is EFA's reliable datagram (efadv): addressed per
 * WR as UD is, reliable as RC is, not ordered.  DC is mlx5's Dynamically
 * Connected transport (mlx5dv, rdma/dc.h): the client's DC initiators
 * reach the server's DC targets, one way.
 */
enum rb_transport { RB_TR_RC, RB_TR_UC, RB_TR_UD, RB_TR_SRD, RB_TR_DC, RB_TR_COUNT };
#define RB_TR_BIT(t) (1u << (t))

/* rb_tr_datagram() - each WR names its peer (an address handle): UD and SRD. */
static inline bool rb_tr_datagram(unsigned int t)
{
	return t == RB_TR_UD || t == RB_TR_SRD;
}

/* One sweep axis: the values a parameter takes, in order. */
struct rb_axis {
	uint32_t n;
	uint64_t v[RB_MAX_AXIS];
};

/*
 * --warmup auto (the default): RB_WARMUP_MAX messages, fewer when they
 * would pass RB_WARMUP_BYTES (one at least).  A fixed 100 doubled the bytes
 * of a -n 100 sweep at large sizes (write_bw -a took twice perftest's wall
 * time); a warm-up is there to touch the buffers and fill the pipeline, and
 * a MiB does that at any size.
 */
#define RB_WARMUP_AUTO	UINT64_MAX
#define RB_WARMUP_MAX	100
#define RB_WARMUP_BYTES (1ULL << 20)

/*
 * -I auto (send_lat's and write_lat's default, issue 40): ask the QP for
 * the provider's maximum (provider.c's max_inline; RB_INLINE_GENERIC
 * where the table has none) and inline every message that fits in what
 * the QP took (ibv_query_qp).  It is -I's most, 64 KiB, which asks for
 * as much as the QP takes as well: so the plan's field keeps its meaning
 * on the wire, and a v18 peer of before it reads a number it accepts.
 */
#define RB_INLINE_AUTO	  65536u
#define RB_INLINE_GENERIC 220

#define RB_FLOW_MAX 16 /* --flow-label values */

/*
 * Everything the client decides and the server adopts.  Local choices
 * (device, port, GID index, CPU, output files) live in struct rb_local.
 */
struct rb_params {
	char test[32];		 /* row name, e.g. "send_lat" */
	struct rb_axis size;	 /* bytes */
	struct rb_axis batch;	 /* WRs chained per ibv_post_send */
	struct rb_axis signal;	 /* one signaled WR every N */
	struct rb_axis qps;	 /* RC QPs used by the point */
	struct rb_axis tx_depth; /* send queue depth per QP */
	uint64_t iters;		 /* measured iterations (0 when duration) */
	uint32_t duration_s;	 /* time bound instead of iters */
	uint64_t warmup;	 /* unmeasured iterations before each point, or RB_WARMUP_AUTO */
	uint32_t rx_depth;	 /* receive queue depth (send tests) */
	uint32_t inline_size;	 /* max inline bytes; 0 = off; RB_INLINE_AUTO */
	uint32_t outstanding;	 /* reads/atomics in flight (bw) */
	uint32_t mtu;		 /* requested path MTU in bytes; 0 = port's */
	uint8_t atomic_op;	 /* enum rb_atomic_op */
	uint8_t verify;		 /* check payloads */
	uint8_t use_cm;		 /* connect with librdmacm */
	uint8_t transport;	 /* enum rb_transport */
	uint32_t sl;		 /* service level of the path */
	uint32_t tclass;	 /* GRH traffic class */
	/* GRH flow labels, 20 bits: QP i takes flow_label[i % nflow] (wire
	 * v6: a list, as perftest's --flow_label 1,2,3); nflow 0: label 0. */
	uint32_t flow_label[RB_FLOW_MAX];
	uint32_t nflow;
	/* Memory (wire v4): where buffers come from and how they are registered. */
	uint8_t hugepages; /* buffers in 2 MiB huge pages */
	uint8_t odp;	   /* on-demand paging MRs (IBV_ACCESS_ON_DEMAND) */
	uint8_t mr_per_qp; /* one buffer and MR per QP instead of one shared */
	uint8_t srq;	   /* one shared receive queue for the point's QPs */
	uint32_t threads;  /* --threads: the run's measuring threads (1..) */
	uint32_t thread;   /* which of them this connection is (0..threads-1) */
	uint8_t bidir;	   /* -b: both sides stream to each other (wire v4) */
	/* Traffic shape (wire v4): a row every interval_ms (0: none); -D 0
	 * (forever) measures one point until SIGINT/SIGTERM; the client
	 * paces posts to rate (enum rb_rate_unit per second; 0: as fast as
	 * it can). */
	uint32_t interval_ms;
	uint8_t forever;
	uint8_t rate_unit;
	uint64_t rate;
	/* --threads (wire v5): the run's id, drawn by the client and the same
	 * in every thread's plan, by which the server knows a thread k > 0
	 * for one of a run it serves; 0 in a run of one thread. */
	uint64_t run_id;
	/* --recv_post_list (wire v6): receives reposted in one chain; 0: the
	 * receiver's choice (a quarter of -r, one when lossy or with -b). */
	uint32_t recv_post_list;
	/* --reversed (wire v7): the server streams and the client receives;
	 * the point's figures are the server's. */
	uint8_t reversed;
	/* --send_with_imm, --write_with_imm (wire v7): each message carries
	 * an immediate and consumes one receive at the receiver, which checks
	 * it. */
	uint8_t imm;
	/* --poll (wire v8; an axis since v9): how both sides wait on their
	 * CQ, enum rb_poll per value. */
	struct rb_axis poll;
	/* --cqe-poll (wire v9): completions reaped per ibv_poll_cq, at most
	 * (an axis). */
	struct rb_axis cqe_poll;
	/* --latency_gap: the client waits this long after each round trip
	 * before its next ping, outside the sample.  Client only, not on the
	 * wire: the server just echoes. */
	uint32_t latency_gap_us;
	/* --reg-mode, enum rb_reg_mode: the client registers each message's
	 * buffer (per-msg).  Client only, not on the wire: the server's
	 * buffers are its pool either way. */
	uint8_t reg_mode;
	/* --reg-mode cache (issue 42; client only, as reg_mode): the cache's
	 * entries (--reg-cache), the application's buffers (--buffers), and
	 * how it picks one per message (--reuse: enum rb_reuse_kind,
	 * core/regcache.h; zipf's S in thousandths). */
	uint32_t reg_cache;
	uint32_t buffers;
	uint8_t reuse;
	uint32_t reuse_zipf;
	/* --probe, --probe-rate (wire v10): bandwidth tests ping a QP of their
	 * own at probe_rate Hz (0: RB_PROBE_RATE_DEFAULT), alone before the
	 * stream and beside it (engine/probe.h). */
	uint8_t probe;
	uint32_t probe_rate;
	/* --wr-lat (wire v12): the streaming side times each signaled WR from
	 * its post to its completion (engine/wrlat.c). */
	uint8_t wr_lat;
	/* --cq-per-qp (wire v13): one CQ per QP, polled round robin. */
	uint8_t cq_per_qp;
	/* Send credits (issue 45; a keyed plan field, no option sets it):
	 * the receiver announces its posted receives by an RDMA WRITE into
	 * the sender's credit words, and the sender never sends beyond
	 * them.  The client sets it when its device's transport has no RNR
	 * retry (iWARP: struct rb_xport's send_credits). */
	uint8_t credits;
	/* issue 42: rdmabench lock (engine/lock.c).  --lock (enum
	 * rb_lock_algo_id), --locks and --cs-bytes shape the server's memory
	 * and its --verify (keyed plan fields); --backoff is the client's
	 * alone, not on the wire (the JSON's params keep it).  locks is 0
	 * outside lock.  --lock and --hold are sweep axes (keyed, so that the
	 * server counts the same points): empty when not given, one point
	 * at 0 (spin, no hold); the point's value is rb_point's. */
	struct rb_axis lock_algo;
	uint32_t locks;
	uint32_t cs_bytes;
	struct rb_axis hold_us;
	uint32_t backoff_min_ns, backoff_max_ns; /* --backoff exp:MIN..MAX; 0: none */
	/* issue 42: the lock from several client hosts.  --run-id ID (plan
	 * tag 48) and --run-hosts N (49): the N client hosts that give the
	 * same ID contend on one server's lock words (engine/lockshare.h);
	 * 0 and 0: this host's lock alone. */
	uint64_t lock_run_id;
	uint32_t lock_hosts;
	/* The layout of a lock's data the client's build uses (plan tag 53,
	 * must-understand; no option sets it): RB_LOCK_LAYOUT for a lock
	 * test, 0 otherwise.  A build of before the holder's mark named its
	 * host (an 8-byte counter, then the fill) sent none and refuses it. */
	uint8_t lock_layout;
	/* issue 40: --cq-moderation COUNT[/USEC] as an axis, both sides'
	 * CQs moderated at each point's start (engine): each value
	 * RB_CQMOD(count, usec) (core/cqmod.h); empty: never moderated. */
	struct rb_axis cq_mod;
};

/*
 * Which --verify check a lock point ran (JSON lock_verify): none; the
 * point's, on one host (every lock free and the counters equal to its
 * acquisitions, client and server); the run's, across --run-hosts (each
 * holder's read-back, and the server's check of the shared memory
 * against every host's acquisitions in the point).
 */
enum rb_lock_verify { RB_LOCK_VERIFY_NONE, RB_LOCK_VERIFY_POINT, RB_LOCK_VERIFY_RUN };

/* --lock: the option's choices' order, "spin|ticket" (engine/lock.c's rows). */
enum rb_lock_algo_id { RB_LOCK_SPIN, RB_LOCK_TICKET, RB_LOCK_ALGO_COUNT };
#define RB_LOCK_CHOICES "spin|ticket" /* the option's and the writers' words */
/* A lock's data: counter, the holder's mark (host and QP), the fill. */
#define RB_LOCK_LAYOUT 2

#define RB_PROBE_RATE_DEFAULT 1000

/* --reg-mode: the option's choices' order, "pool|per-msg|cache". */
enum rb_reg_mode { RB_REG_POOL, RB_REG_PER_MSG, RB_REG_CACHE };

enum rb_rate_unit { RB_RATE_NONE, RB_RATE_BPS, RB_RATE_PPS };
/*
 * --poll: busy-poll the CQ, or sleep on its completion channel when it is
 * empty (perftest's -e); the order is the option's choices "busy|event".
 */
enum rb_poll { RB_POLL_BUSY, RB_POLL_EVENT };
/*
 * --cqe-poll: completions asked of each ibv_poll_cq, at most.  The
 * default is what the loops always asked (a latency loop asks for no
 * more than can be due: 1, or 2 in send_lat's ping-pong).
 */
#define RB_CQE_POLL_DEFAULT 32
#define RB_CQE_POLL_MAX	    4096

/* A repeatable option's values, in the order given. */
#define RB_LIST_MAX  32
#define RB_LIST_TEXT 128
struct rb_strlist {
	uint32_t n;
	char v[RB_LIST_MAX][RB_LIST_TEXT];
};

struct rb_doc;
struct rb_result;

/* What each side chooses for itself: never sent to the peer. */
/* perftest's --out_json file, in the working directory */
#define RB_OUT_JSON_DEFAULT "perftest_out.json"
/* -U without --samples: the raw samples' file, in the working directory */
#define RB_SAMPLES_DEFAULT "rdmabench_samples.csv"

/*
 * A QP's timers and path fields that each side sets for itself, as
 * perftest's -u, --retry_count, --pkey_index and -L are (never sent).
 */
struct rb_qp_attrs {
	uint32_t timeout;     /* RC ACK timeout: 4.096 us * 2^timeout a try */
	uint32_t retry_count; /* RC retries before the QP errors */
	uint32_t pkey_index;  /* P_Key table index of the port */
	uint32_t hop_limit;   /* GRH hop limit (the IP TTL on RoCE) */
};
#define RB_QP_TIMEOUT_DEFAULT 14 /* 67 ms a try */
#define RB_RETRY_DEFAULT      7
#define RB_HOP_LIMIT_DEFAULT  64

/* How send WRs are posted (--post-api): the row order of its choices. */
enum rb_post_api {
	RB_POST_AUTO, /* ibv_wr_* where the provider takes them, else ibv_post_send() */
	RB_POST_POST, /* ibv_post_send() */
	RB_POST_WR,   /* ibv_wr_* (ibv_qp_ex), or fail */
};

/* How completions are polled (--cq-api): the row order of its choices. */
enum rb_cq_api {
	RB_CQ_AUTO,    /* the extended CQ where the provider makes one, else classic */
	RB_CQ_CLASSIC, /* ibv_create_cq, ibv_poll_cq() */
	RB_CQ_EX,      /* ibv_create_cq_ex, ibv_start_poll()...; or fail */
};
/* -X/--vector not given: each CQ's vector spread by its CPU (session/vector.c). */
#define RB_VECTOR_SPREAD UINT32_MAX

enum rb_progress { RB_PROGRESS_AUTO, RB_PROGRESS_ALWAYS, RB_PROGRESS_NEVER };

struct rb_local {
	const char *host; /* client: the server to reach; NULL on a server */
	char device[64];  /* empty: the one holding the OOB connection's address */
	char bind[64];	  /* local address of the OOB connection; empty: any */
	int32_t ib_port;  /* 0: the port holding the address */
	uint8_t dualport; /* -O: rails on ports 1 and 2 of the device (session/rails.h) */
	/* -c not given: a client whose device does not make RC takes the
	 * first transport the test and the device share (EFA: UD). */
	uint8_t transport_auto;
	int32_t gid_index; /* -1: by address */
	struct rb_qp_attrs qp;
	uint32_t tcp_port;
	uint32_t timeout_s;
	char cpu[64];  /* auto|none|LIST */
	char numa[16]; /* auto|none|N */
	char json_path[256];
	uint8_t out_json; /* --out_json: json_path defaults to RB_OUT_JSON_DEFAULT */
	/* Latency tests (client): --samples FILE, -U (samples_path defaults to
	 * RB_SAMPLES_DEFAULT), -H and -C. */
	char samples_path[256];
	uint8_t unsorted;
	uint8_t histogram;
	uint8_t cycles;
	char csv_path[256];
	uint8_t csv_counters; /* --csv-counters: the CSV's counter block */
	char logfile[256]; /* --logfile: diagnostics and stdout also here; a server's line per run */
	uint8_t timestamps;    /* --timestamps: diagnostics stamped with the time */
	char json_stream[256]; /* --json-stream: a JSON object a line, as each point ends */
	uint8_t format;	       /* enum rb_format, for stdout */
	uint8_t progress;      /* --progress: 0 auto (stderr a terminal), 1 always, 2 never */
	uint8_t units;	       /* enum rb_units */
	uint8_t recommend;     /* client: print a batch/signal recommendation */
	/* --recommend BOUND (--expect's syntax): the cheapest point in CPU
	 * within it, per size; "": by message rate, as without */
	char recommend_bound[RB_LIST_TEXT];
	uint8_t freq_quiet;	  /* -F: no warning about a CPU's frequency governor */
	uint8_t ipv6;		  /* --ipv6: an IPv6 GID whatever the OOB address's family */
	uint8_t output;		  /* --output: enum rb_output (RB_FMT_VALUE) */
	char counters[256];	  /* --counters: "" (default), none, all or a list */
	struct rb_strlist expect; /* client: --expect expressions */
	struct rb_strlist tags;	  /* --tag K=V: annotations kept in the JSON */
	uint8_t post_api;	  /* enum rb_post_api: --post-api */
	uint8_t no_relaxed;	  /* --disable-pcie-relaxed */
	uint32_t comp_vector;	  /* -X/--vector: the CQ's completion vector; RB_VECTOR_SPREAD */
	/* issue 40: --cq-api (enum rb_cq_api); --cq-moderation is the plan's (cq_mod) */
	uint8_t cq_api;
	/* --use-cuda[=GPU]: this side's buffers in GPU memory (each side its
	 * own, never in the plan); cuda "" or "auto": the GPU nearest the HCA. */
	uint8_t use_cuda;
	char cuda[64];	  /* an index or a PCI address */
	uint8_t cuda_mem; /* enum rb_cuda_mem (rdma/cuda.h): --cuda-mem */
	uint8_t cuda_reg; /* enum rb_cuda_reg: --cuda-reg */
	/* rdmabench server --max-conns: connections served at once (0: the
	 * default), a --threads run needing one per thread */
	uint32_t max_conns;
	/* --auth-key FILE (else RDMABENCH_AUTH_KEY): "" none; its key, once
	 * rb_auth_local() (wire/auth.h) read it before any connection */
	char auth_key[256];
	bool auth_loaded;
	uint8_t auth_k[32];
	/* rdmabench server: --allow CIDR[,CIDR...] ("": anyone); --max-run-time
	 * SEC, a connection's time from admission (0: no bound) */
	char allow[256];
	uint32_t max_run_s;
	/* rdmabench server: --max-client-conns, --max-client-mem (bytes):
	 * what one client address may have at once (0: only the global caps) */
	uint32_t max_client_conns;
	uint64_t max_client_mem;
};

/* One point of the plan: the axis values in force. */
struct rb_point {
	uint64_t size;
	uint32_t batch;
	uint32_t signal;
	uint32_t qps;
	uint32_t tx_depth;
	uint32_t cqe_poll; /* completions per ibv_poll_cq, at most */
	uint8_t poll;	   /* enum rb_poll */
	uint64_t warmup;   /* unmeasured iterations before it (rb_point_warmup) */
	/* issue 42: lock's algorithm (enum rb_lock_algo_id) and hold (us);
	 * issue 40: the CQs' moderation, RB_CQMOD() (0: none).  0 where the
	 * plan's axis is empty. */
	uint8_t lock;
	uint32_t hold_us;
	uint32_t cq_mod;
};

struct rb_lat_summary {
	double min, p50, avg, p90, p99, p999, max, stdev; /* microseconds */
	bool bucketed; /* percentiles from buckets (stats.h), not every sample */
};

/*
 * The latency line as perftest's print_report_lat() (perftest_parameters.c)
 * computes it, for the perftest writer alone (rb_lat_perftest(), stats.h):
 * over the samples less the two largest, t_max the second largest sample,
 * the median of an even count the truncated mean of the middle two ticks,
 * stdev over deviations truncated to whole microseconds, 99% and 99.9% the
 * sample at index ceil(q * m).  Microseconds.
 */
struct rb_pt_lat {
	double min, max, typical, avg, stdev, p99, p999;
};

/*
 * -H: a point's latency histogram (rb_lat_buckets(), stats.h): bucket i
 * holds the samples v with edge[i] <= v < edge[i+1], in microseconds and
 * in clock ticks (one-way as lat_us).  RB_LAT_HIST_BODY buckets of equal
 * width from the minimum to p99.9, then, when samples lie beyond, one
 * more (the tail) up to the maximum.
 */
#define RB_LAT_HIST_BODY 20
#define RB_LAT_HIST_MAX	 (RB_LAT_HIST_BODY + 1)
struct rb_lat_hist {
	uint32_t n; /* buckets */
	bool tail;  /* the last bucket is the tail */
	double edge_us[RB_LAT_HIST_MAX + 1];
	double edge_ticks[RB_LAT_HIST_MAX + 1];
	uint64_t count[RB_LAT_HIST_MAX];
};

/* One direction of a bidirectional point, as the side that posted it saw it. */
enum { RB_DIR_C2S, RB_DIR_S2C };
struct rb_dir_result {
	bool by_server; /* the server's stream (its WRs) moved this data */
	uint64_t iters;
	double duration_s;
	double bw_avg_gbps, bw_peak_gbps, msg_rate_mpps;
};

/* One --interval slice of a point, as the client measured it. */
struct rb_interval {
	double start_s, duration_s; /* since the point's measured start */
	uint64_t ops;
	double bw_gbps, msg_rate_mpps;
	bool has_lat;
	struct rb_lat_summary lat;
};

/* What one point measured.  has_* say which metrics apply. */
struct rb_result {
	struct rb_point pt;
	uint64_t iters;
	double duration_s;
	bool has_lat;
	struct rb_lat_summary lat;
	bool has_bw;
	double bw_avg_gbps, bw_peak_gbps, msg_rate_mpps;
	bool has_cpu;
	double cpu_util_pct, cpu_ns_per_msg;
	/* --poll event: completion events this side took over the measured
	 * interval (its wake-ups), and per measured message. */
	bool has_wakeups;
	uint64_t wakeups;
	double wakeups_per_msg;
	/* A stream's sender: the WRs each QP completed over the point (warmup
	 * included): how many of its QPs completed any, the fewest and the
	 * most one QP did (JSON qp_wrs). */
	bool has_qp_wrs;
	uint32_t qp_wrs_used;
	uint64_t qp_wrs_min, qp_wrs_max;
	/* --probe: the probe's round trips alone before the stream (idle) and
	 * beside it (loaded), and how many of each. */
	bool has_probe;
	struct rb_lat_summary probe_idle, probe_loaded;
	uint64_t probe_idle_n, probe_loaded_n;
	/* --wr-lat: signaled WRs from post to completion, and how many. */
	bool has_wr_lat;
	struct rb_lat_summary wr_lat;
	uint64_t wr_lat_n;
	/* --reg-mode cache (issue 42): the measured messages that found their
	 * buffer's MR in the cache, in percent, and the registrations and
	 * deregistrations (evictions) per second of the measured interval. */
	bool has_rcache;
	double rcache_hit_pct, regs_per_s, deregs_per_s;
	/* issue 42: lock (its latency is the acquire latency): acquisitions
	 * per second, release latency and handoff (a release's post to the
	 * next owner's acquire completion) averages, attempts per acquire, Jain's index and the
	 * smallest contender share of the point's acquisitions. */
	bool has_lock;
	double lock_acq_per_s, lock_release_us, lock_handoff_us;
	double lock_attempts, lock_jain, lock_share_min;
	/* issue 42: each contender's (QP's) measured acquisitions, lock_n of
	 * them (malloc'd, freed with rb_result_free()), this host's (JSON
	 * only, labelled with the host); which --verify check ran
	 * (enum rb_lock_verify). */
	uint64_t *lock_acq;
	uint32_t lock_n;
	uint8_t lock_verify;
	char lock_host[64];
	uint32_t lock_mark; /* the host's mark in the lock's data (engine/lock.h) */
	bool has_peer;
	double peer_cpu_util_pct, peer_bw_avg_gbps;
	/* RB_PEER_* (plan.h): the peer's figures that failed their check, left out */
	uint32_t peer_rejected;
	/*
	 * -b: each direction of the data, [RB_DIR_C2S] client to server and
	 * [RB_DIR_S2C] server to client, as its initiator measured it; the
	 * bw and msg rate above are then their sums.
	 */
	bool has_bidir;
	struct rb_dir_result dir[2];
	/* --interval: the point's slices (owned by whoever keeps the result:
	 * malloc'd, freed with rb_result_free()); the lowest slice bandwidth. */
	struct rb_interval *iv;
	size_t niv;
	bool has_bw_min_iv;
	double bw_min_iv_gbps;
	/* --rate: the target, in Gb/s or Mpps (rate_pps), what was achieved in
	 * the same unit, and the difference in percent of the target. */
	bool has_rate, rate_pps;
	double rate_target, rate_achieved, rate_dev_pct;
	/* The point was cut short by SIGINT/SIGTERM: what it measured until then. */
	bool cut;
	/*
	 * This side measured no operation (a UC/UD server whose messages were
	 * all lost in the warm-up): no duration, rate or CPU figure; and the
	 * same of the peer (client: the server's RESULT said so).
	 */
	bool nothing_measured, peer_nothing_measured;
	/* Diagnostics: the point's JSON members for counters and --expect (a
	 * json_t object owned by whoever keeps the result, or NULL), and what
	 * the table flags ("" when nothing). */
	void *diag;
	char flag[192];
	/*
	 * --threads: 1 + the thread whose own row this is (CSV, table), with
	 * its placement; 0 for a run's row (the threads' sum).
	 */
	uint32_t thread_row;
	const struct rb_placement *thread_place;
	const char *rail; /* -d LIST: that thread's rail ("mlx5_0", "DEV:2"); else NULL */
	/* -H/--report-histogram: the point's latency histogram. */
	bool has_hist;
	struct rb_lat_hist hist;
	/* -C/--report-cycles: lat in clock ticks (clock.h), and their rate
	 * over this point (calibrated against CLOCK_MONOTONIC_RAW). */
	bool has_ticks;
	struct rb_lat_summary lat_ticks;
	double ticks_per_us;
	/* The signal interval that ran when -Q (pt.signal, the point's label)
	 * exceeded the reads or atomics in flight and was clamped; 0: as asked. */
	uint32_t signal_ran;
	/* perftest's statistics of the same samples (the client's with its
	 * --latency_gap inside, as perftest's): the perftest writer's. */
	bool has_pt_lat;
	struct rb_pt_lat pt_lat;
};

/* PCIe link of a device's PCI function (topo reads it); 0 means unknown. */
struct rb_pcie_link {
	double cur_gts, max_gts;  /* GT/s per lane */
	int cur_width, max_width; /* lanes */
};

/* Where the measuring thread and the buffers sit. */
struct rb_placement {
	int device_numa_node; /* -1 when unknown */
	char cpus[128];	      /* bound CPUs, "1" or "0-3 8" */
	int mem_node;	      /* -1 when unbound */
	int local;	      /* 1 local, 0 remote, -1 unknown */
	/* The measuring CPU's clock (perftest's -F): the first bound one, or
	 * where the thread ran when placed; "" and 0 where cpufreq is absent. */
	int freq_cpu; /* -1 when unknown */
	char governor[16];
	uint32_t cpu_mhz;
	/* The device's PCI function ("" none: rxe or siw over no PCI netdev)
	 * and its link, as placement read them (JSON device.pcie). */
	char pci[16];
	struct rb_pcie_link pcie;
	/* The completion vector of this side's CQ, once made (JSON: each
	 * thread's comp_vector). */
	bool has_comp_vector;
	uint32_t comp_vector;
};

/*
 * rb_freq_varies() - whether @p's governor is known and not "performance":
 * the CPU's clock then follows its load, and latencies with it (perftest
 * warns the same unless -F).
 */
static inline bool rb_freq_varies(const struct rb_placement *p)
{
	return p->governor[0] && strcmp(p->governor, "performance");
}

/*
 * What a side runs (JSON system.* and device's identity): sent to the peer
 * in CONN (wire v18), for the peer's JSON peer_fingerprint.  Empty, 0:
 * not known.
 */
struct rb_fingerprint {
	char kernel[128];   /* uname -srv, cut */
	char rdma_core[32]; /* the libibverbs loaded: "44.0" */
	char fw_ver[64];
	char board_id[64];
	uint32_t vendor_id, vendor_part_id, hw_ver;
	char pci[16];		  /* its device's PCI function, "" none */
	struct rb_pcie_link pcie; /* that function's link, 0 unknown */
};

/* Logging: diagnostics go to stderr, prefixed with the tool name. */
void rb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int rb_verbose;
extern __thread char rb_last_error[RB_TEXT_MAX]; /* the last rb_err() of this thread */

/*
 * rb_log_setup() - --timestamps (@stamps: each diagnostic line starts with
 * the UTC time, ISO 8601 to the millisecond) and --logfile (@path, "" for
 * none: every diagnostic line and every line of stdout also appended to
 * it, stamped with @stamps).  0, or -errno (said) when @path cannot be opened.
 */
int rb_log_setup(const char *path, bool stamps);
/* rb_log_stamp() - "2026-12-07T02:30:00.123Z " into @buf; its length. */
size_t rb_log_stamp(char *buf, size_t len);

/*
 * rb_set_err() - a message into @err (@len bytes) for the caller to log or
 * pass on, as the pure layers report; returns @ret, so that
 * "return rb_set_err(err, len, -EINVAL, ...)" reads as one step.
 */
int rb_set_err(char *err, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * rb_escape() - @in with control characters and non-ASCII bytes written
 * as \xNN, into @out: text from a peer is printed only through this.
 */
const char *rb_escape(const char *in, char *out, size_t len);
extern int rb_quiet;

/* The signal that ended the run (main.c sets it), or 0. */
extern volatile sig_atomic_t rb_interrupted;
/*
 * -D 0: while rb_stop_armed, the first SIGINT/SIGTERM goes to rb_stop_asked
 * instead, and ends the point being measured as -D would.
 */
extern volatile sig_atomic_t rb_stop_armed, rb_stop_asked;

/* The atomic operation as the wire and the outputs spell it. */
const char *rb_op_name(enum rb_atomic_op op);

/* The transport as -c, the wire and the outputs spell it: "RC", "UC", "UD". */
const char *rb_transport_name(unsigned int t);

#endif
