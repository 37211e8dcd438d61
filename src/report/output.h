/* SPDX-License-Identifier: MIT */
/*
 * Output writers: a human table, CSV and JSON (schema_version 1), each a
 * begin/row/end triple over a FILE.  stats.c computes; writers only format.
 * Files are written whole (atomic_file.h: temp file + rename) so that a crash or ^C never
 * leaves half a file, and are rewritten after every point so that an
 * interrupted sweep keeps every finished point.
 *
 * src/report/ (layer 4, over topo, rdma, wire and core): what a run says:
 * the writers (output.c: table, CSV, JSON; out_perftest.c; writer.c picks
 * one), the samples file, --expect, compare, and diag.c's counters and
 * gates around each point.
 */
#ifndef RB_OUTPUT_H
#define RB_OUTPUT_H

#include <stdio.h>
#include <jansson.h>
#include "core/atomic_file.h"
#include "core/rdmabench.h"
#include "report/verdict.h"
#include "rdma/cuda.h"

/* RB_FMT_JSONL: --json-stream's JSON lines (out_jsonl.c). */
enum rb_format {
	RB_FMT_TABLE,
	RB_FMT_CSV,
	RB_FMT_JSON,
	RB_FMT_PERFTEST,
	RB_FMT_VALUE,
	RB_FMT_JSONL
};
/* --output (RB_FMT_VALUE): the one figure each point prints; the option's choices' order. */
enum rb_output { RB_OUTPUT_BANDWIDTH, RB_OUTPUT_MSG_RATE, RB_OUTPUT_LATENCY };
enum rb_units { RB_UNITS_MIBS, RB_UNITS_GBITS, RB_UNITS_MBS, RB_UNITS_GBYTES };

/* What a run is: everything but the points. */
/* A socket test's data connection (JSON "socket"), each side's as it set it up. */
struct rb_sock_info {
	bool on;		      /* a socket test: the rest is filled */
	const char *local, *peer;     /* "addr:port" of the data connection */
	bool nodelay;		      /* TCP_NODELAY (latency tests) */
	int sndbuf, rcvbuf, mss;      /* SO_SNDBUF, SO_RCVBUF, TCP_MAXSEG here, bytes */
	int peer_sndbuf, peer_rcvbuf; /* the peer's, from its DATA */
};

/*
 * Connection setup as a figure (JSON "setup"): this side's time to create
 * its QPs (with their CQ), connect them (INIT, RTR, RTS; the CM's
 * exchange with -R) and destroy them.
 */
struct rb_setup {
	bool on; /* QPs were made: qps, create_ms filled */
	uint32_t qps;
	double create_ms, connect_ms, destroy_ms; /* < 0: not done (yet) */
	/* -R: the CM events this side's connections took (client: address,
	 * route and reply per QP; server: request and established); 0 without. */
	uint32_t cm_events;
	/* The client's copy of the server's (RESULT v14): create and connect,
	 * its destroy never known here (-1). */
	bool peer_on;
	uint32_t peer_qps;
	double peer_create_ms, peer_connect_ms;
};

struct rb_doc {
	const char *test; /* "send_lat" */
	enum rb_mode mode;
	const char *op;	    /* "fadd"/"cswap" for atomics, else NULL */
	const char *role;   /* "client" or "server" */
	const char *host;   /* this host's name */
	const char *peer;   /* "addr:port" of the other side */
	char timestamp[32]; /* ISO 8601 UTC, start of run */
	/* The device's identity (JSON device.*): empty, 0 without one. */
	char fw_ver[64], board_id[64];
	uint32_t vendor_id, vendor_part_id, hw_ver;
	char rdma_core[32];	       /* the libibverbs run: "44.0"; "" unknown */
	const struct rb_strlist *tags; /* --tag K=V; NULL: none */
	const char *device;
	int port;
	int gid_index;		 /* -1: none (InfiniBand LID) */
	const char *gid_type;	 /* "RoCE v2", ...; NULL or "" without a GID */
	const char *gid;	 /* the GID as an address */
	const char *why_device;	 /* why this device and port */
	const char *why_gid;	 /* why this GID */
	const char *link_layer;	 /* "Ethernet" / "InfiniBand" */
	const char *transport;	 /* "RoCE", "InfiniBand", "iWARP"; NULL: not said */
	unsigned int active_mtu; /* bytes */
	unsigned int path_mtu;	 /* bytes, as negotiated with the peer */
	struct rb_qp_attrs qp;	 /* this side's -u, --retry-count, --pkey-index, -L */
	bool freq_quiet;	 /* -F: no warning about a CPU's governor */
	enum rb_output output;	 /* RB_FMT_VALUE: which figure */
	bool relaxed_ordering;	 /* IBV_ACCESS_RELAXED_ORDERING requested for the MRs */
	int relaxed_honoured;	 /* 0: not in effect, -1: unknown (rb_relaxed_known()) */
	const char *why_relaxed; /* why, or why not, and what is known */
	const char *post_api;	 /* "wr" (ibv_wr_*) or "post" (ibv_post_send); NULL: no QP */
	int comp_vector;	 /* -X/--vector of this side's CQ (with post_api) */
	/* issue 40: once there is a CQ (NULL before), "ex" or "classic"
	 * (--cq-api), why comp_vector, and --cq-moderation as given ("": none) */
	const char *cq_api;
	const char *cq_poll; /* with cq_api "ex": "batch" or "one" (rb_cqx_kind_for()) */
	char why_comp_vector[160];
	char cq_moderation[128]; /* --cq-moderation's list (rb_cqmod_list()) */
	/* Bytes a WR carries inline at most (-I as this side's QPs took it;
	 * 0: none, as for GPU device memory or a verb that sends none). */
	uint32_t inline_used; /* with post_api */
	/* --use-cuda: this side's GPU, its memory and how it was registered
	 * (JSON: gpu); NULL: host memory. */
	const struct rb_cuda_gpu *gpu;
	const char *gpu_mem, *gpu_reg, *gpu_reg_path, *gpu_why_reg;
	const struct rb_params *params;
	struct rb_placement place;
	bool has_peer_place;
	struct rb_placement peer_place;
	bool has_peer_fp; /* the peer's CONN said what it runs (JSON peer_fingerprint) */
	struct rb_fingerprint peer_fp;
	enum rb_units units; /* table only; CSV/JSON carry fixed units */
	/* Filled in by the sweep when --recommend is on (JSON only). */
	json_t *recommendation;
	/* Device counters (--counters): the set's name and each side's driver. */
	bool has_counters, has_peer_counters;
	bool csv_counters; /* --csv-counters: the CSV's ctr_ and peer_ctr_ columns */
	const char *counters_spec;
	const char *driver, *peer_driver;      /* "rxe", "mlx5", "generic" */
	int driver_id, peer_driver_id;	       /* enum rb_prov_id, for the CSV columns */
	double link_gbps;		       /* 0: unknown */
	const struct rb_strlist *expectations; /* NULL or empty: none */
	/* Latency tests: --samples' file (NULL: none); -C: what the ticks
	 * count (clock.h rb_tick_clock(); NULL without -C). */
	const char *samples_path;
	const char *tick_clock;
	/* A run that failed or was interrupted: "complete": false, "reason". */
	bool incomplete;
	const char *reason;
	struct rb_sock_info sock;
	struct rb_setup setup;
	/* --probe: where this side's probe thread ran (JSON "probe_placement"):
	 * probe_cpu -1 not bound (as the stream: not one CPU); shared: on the
	 * stream's CPU, none other in reach; elsewhere: another node's. */
	bool has_probe_place;
	int probe_cpu;
	bool probe_shared, probe_elsewhere;
	int rail_width; /* -d LIST: the table's rail column, as wide as its longest; 0: none */
};

struct rb_writer;

struct rb_writer_ops {
	int (*begin)(struct rb_writer *w, const struct rb_doc *r);
	int (*row)(struct rb_writer *w, const struct rb_doc *r, const struct rb_result *res);
	int (*end)(struct rb_writer *w, const struct rb_doc *r);
	/*
	 * Optional: slice @idx (0-based) of the point @pt being measured, as
	 * it ends (the table prints it live; CSV and JSON write the slices
	 * with their point's row).
	 */
	int (*interval)(struct rb_writer *w, const struct rb_doc *r, const struct rb_point *pt,
			const struct rb_interval *iv, size_t idx);
};

struct rb_writer {
	const struct rb_writer_ops *ops;
	FILE *f;
	json_t *doc;	       /* JSON writer: the document being built */
	struct rb_tally tally; /* the table's verdict (verdict.h) */
};

/*
 * rb_writer_init() - a writer of @fmt onto @f: output.c's table, CSV or
 * JSON, or out_perftest.c's perftest report or --output value (writer.c,
 * which knows both, so that neither file includes the other's header).
 */
void rb_writer_init(struct rb_writer *w, enum rb_format fmt, FILE *f);

/* rb_std_writer_ops() - output.c's writer of @fmt: table, CSV or JSON
 * (the table for any other format). */
const struct rb_writer_ops *rb_std_writer_ops(enum rb_format fmt);

/*
 * rb_write_file() - write @n results of @r to @path in @fmt (table, CSV
 * or JSON), whole, as atomic_file.h does.  Returns 0 or -errno, logged
 * with the path.
 */
int rb_write_file(const char *path, enum rb_format fmt, const struct rb_doc *r,
		  const struct rb_result *res, size_t n);

/*
 * rb_csv_header() - the CSV column names, comma-separated, no newline,
 * into @buf (@len bytes, cut to fit); returns @buf.
 */
const char *rb_csv_header(char *buf, size_t len);

/* rb_json_doc() - the whole JSON document (new reference). */
json_t *rb_json_doc(const struct rb_doc *r, const struct rb_result *res, size_t n);

/* rb_json_result() - one result as the JSON "results" array holds it. */
json_t *rb_json_result(const struct rb_result *res);

/* rb_json_interval() - one --interval slice as a point's "intervals" holds it. */
json_t *rb_json_interval(const struct rb_interval *iv);

/* rb_json_head() - the JSON document's members known before any point (no "results"). */
json_t *rb_json_head(const struct rb_doc *r);

/* rb_json_params() - a plan as JSON "params" spells it; null for NULL. */
json_t *rb_json_params(const struct rb_params *p);

/* rb_json_placement() - a placement as JSON "placement" spells it. */
json_t *rb_json_placement(const struct rb_placement *p);

/*
 * rb_plan_lock() - plan @p (NULL: none) is a lock test's: its points have
 * a hold (lock, tcp_lock).  rb_plan_lock_algo() - and an algorithm of
 * --lock's (lock; tcp_lock's is its server's FIFO).  The JSON's params
 * and points, the CSV, the table and matrix's points ask these.
 */
bool rb_plan_lock(const struct rb_params *p);
bool rb_plan_lock_algo(const struct rb_params *p);

/*
 * rb_json_axes42() - point @pt's lock, hold_us and cq_moderation members
 * into @o, those plan @p has (the JSON's points, --recommend's choices):
 * 0 or -ENOMEM.
 */
int rb_json_axes42(json_t *o, const struct rb_params *p, const struct rb_point *pt);

/* rb_timestamp() - current UTC time as "2026-11-29T11:48:32Z". */
void rb_timestamp(char *buf, size_t len);

#endif
