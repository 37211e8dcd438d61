/* SPDX-License-Identifier: MIT */
/*
 * Out-of-band messages, packed and unpacked without sockets.
 *
 * Every message is a 12-byte header -- magic "RDMB" (u32), protocol
 * version (u16), type (u16), body length (u32), all big-endian -- then a
 * body: keyed fields for PARAMS, HELLO and CONN (wire_keyed.h), fixed
 * big-endian fields for the others.  Bodies are capped at RB_WIRE_MAX_BODY.
 * The header and the ERROR body (a length-prefixed string) never change
 * between versions, so a peer of another version can always be told why
 * it is refused.
 *
 * src/wire/ (layer 1, over core): what crosses the out-of-band channel: the
 * versioned messages (wire.c, matrix_wire.c), the TCP under them with
 * deadlines (oob.c), and the one validator of a plan (plan.c), whether it
 * came from the command line or from a peer.  Knows no device.
 */
#ifndef RB_WIRE_H
#define RB_WIRE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "core/rdmabench.h"

#define RB_WIRE_MAGIC 0x52444d42u /* "RDMB" */
/*
 * v19: HELLO and CONN are keyed fields as PARAMS is (wire_keyed.h, the
 * one codec of the three; their rows in wire_conn.c): a field added to
 * either costs no version, a reader skipping one it does not know unless
 * it is marked must-understand, and then refusing the message naming it;
 * CONN's PCIe link speeds travel as doubles;
 * v18: PARAMS is keyed fields (tag, length, value: wire/wire_plan.c); a
 * field added later costs no version: a reader skips a tag it does not
 * know unless it is marked must-understand (RB_WIRE_MUST), and then
 * refuses the plan naming it.  The version steps only when a field
 * changes meaning (doc/development.md, "Adding a wire field");
 * and CONN ends with the DC block (-c DC, rdma/dc.h): the sender's DC
 * role (0 none, 1 its QPs are DC initiators, 2 DC targets, whose numbers
 * are the QP list's) and a u64, the targets' access key (0 unless 2);
 * PARAMS's transport may be 4 (DC); HELLO ends with the client's
 * --auth-key flag (u8, 0 or 1) and its nonce (32 bytes, zero without a
 * key); AUTH (13), the challenge-response (auth.h), and with a key every
 * later frame followed by its tag; CONN's last block, after DC's, the
 * sender's fingerprint (struct rb_fingerprint: kernel, rdma_core, fw_ver,
 * board_id as strings, then vendor_id, vendor_part_id, hw_ver as u32,
 * then its device's PCI function as a string and that function's PCIe
 * link: current and max speed in MT/s as u32, current and max width in
 * lanes as u16; 0 unknown), for the peer's JSON;
 * v17: RESULT flag bit 5 (32): the server's completion events under
 * --poll event follow, a u64 last in the body (--reversed shows the
 * sender's wake-ups);
 * v16: CONN ends with the sender's transport (IBV_TRANSPORT_*: iWARP apart
 * from InfiniBand/RoCE, which share a link layer);
 * v15: a counter set's driver byte is a provider id (core/provider.h,
 * 0..RB_PROV_COUNT-1: generic, rxe, mlx5 as before, then bnxt_re, irdma,
 * hns, efa, erdma, siw, cxgb4, qedr, mlx4); a CONN of link layer 0
 * (unspecified: EFA) needs no LID (addressed by GID); PARAMS's transport
 * may be 3 (SRD); v14: RESULT with
 * the server's setup figures; v13: CONN's QP and MR lists at any length up to RB_MAX_QPS: CONN
 * carries both counts and the first RB_CONN_CHUNK entries of each, and
 * CONN_MORE messages the rest, in order (rb_conn_chunks()); PARAMS ends
 * with --cq-per-qp; v12: PARAMS ends with --wr-lat, RESULT may carry the server's --wr-lat
 * summary; v11: PARAMS ends with --probe and --probe-rate, CONN with the
 * probe's QP; v10: DATA, the socket tests' connection, and DOCTOR; v9: PARAMS ends
 * with the --poll axis and the --cqe-poll axis; v8: PARAMS ends with
 * --poll; v7: with --reversed and the immediate flag, RESULT with the
 * server's latency summary
 */
#define RB_WIRE_VERSION 19
#define RB_WIRE_HDR_LEN 12
/* A keyed field's tag: bit 15 set, the reader must understand it. */
#define RB_WIRE_MUST	 0x8000u
#define RB_WIRE_TAG_MAX	 0x7fffu
#define RB_WIRE_MAX_BODY 65536

enum rb_msg_type {
	RB_MSG_HELLO = 1,    /* client -> server: tool version, test */
	RB_MSG_PARAMS = 2,   /* client -> server: the whole plan */
	RB_MSG_CONN = 3,     /* both ways: QPs, MR, placement */
	RB_MSG_SYNC = 4,     /* both ways: barrier around a point */
	RB_MSG_RESULT = 5,   /* server -> client: its view of a point */
	RB_MSG_ERROR = 6,    /* either way: why the peer gives up */
	RB_MSG_BYE = 7,	     /* client -> server: plan done */
	RB_MSG_OK = 8,	     /* server -> client: accepted */
	RB_MSG_COUNTERS = 9, /* server -> client: its device counters over a point (v3) */
	RB_MSG_DATA = 10,    /* both ways, in CONN's place for a socket test: port, buffers (v10) */
	RB_MSG_DOCTOR = 11,  /* server -> client: its doctor checks, as JSON (a blob) (v10) */
	RB_MSG_CONN_MORE = 12, /* both ways, after CONN: the rest of its lists (v13) */
	RB_MSG_AUTH = 13,      /* both ways, after HELLO with a key: nonce, proof (v18) */
};

struct rb_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;
};

struct rb_msg_hello {
	char tool_version[32];
	char test[32];
	/* Whether both sides share a host: its name and boot id ... */
	char host[64];
	char boot_id[40];
	/* ... and then the CPUs the client measures on, for the server to avoid. */
	char cpus[128];
	/* v18: --auth-key (auth.h): whether the client has a key, its nonce. */
	uint8_t auth;
	uint8_t nonce[32];
};

struct rb_qp_info {
	uint32_t qpn;
	uint32_t psn;
	uint16_t lid;
	uint8_t gid[16];
};

struct rb_mr_info {
	uint64_t addr;
	uint32_t rkey;
};

/*
 * QP or MR entries per frame: CONN carries the first RB_CONN_CHUNK of
 * each list, a CONN_MORE up to RB_CONN_CHUNK more of one list.  A CONN of
 * full lists is about 40 KiB, under RB_WIRE_MAX_BODY.
 */
#define RB_CONN_CHUNK 1024

/*
 * What each side needs to reach the other's QPs and memory.  qp and mr
 * hold nqp and nmr entries: rb_conn_alloc() (or rb_unpack_conn()) makes
 * them, rb_conn_free() releases them.
 */
struct rb_msg_conn {
	uint32_t mtu;	      /* active MTU of the sender's port, bytes */
	uint32_t max_rd_atom; /* sender's max_qp_rd_atom */
	uint32_t rkey;
	uint64_t addr;
	uint64_t len;
	uint32_t nqp;
	struct rb_qp_info *qp;
	struct rb_placement place;
	char device[64];    /* the sender's device, for messages */
	uint8_t link_layer; /* IBV_LINK_LAYER_* of the sender's port */
	/* v4: every MR of the sender, one per QP with --mr-per-qp (1..nqp);
	 * rkey and addr above are the first's. */
	uint32_t nmr;
	struct rb_mr_info *mr;
	/* v10: --probe's QP (an RC QP of its own, engine/probe.h), when the
	 * plan asks for it. */
	uint8_t has_probe;
	struct rb_qp_info probe_qp;
	/* v15: IBV_TRANSPORT_* of the sender's device (0 InfiniBand/RoCE, 1 iWARP). */
	uint8_t transport;
	/* v18: -c DC's asymmetric QPs: the sender's role (enum rb_dc_role) and,
	 * from targets, the key their initiators name (0 otherwise). */
	uint8_t dc_role;
	uint64_t dc_key;
	/* v18: what the sender runs (kernel, rdma-core, firmware, board). */
	struct rb_fingerprint fp;
};

/* A CONN's DC role: what the QP list holds under -c DC. */
enum rb_dc_role { RB_DC_NONE, RB_DC_INITIATOR, RB_DC_TARGET };

/*
 * A socket test's CONN (tcp_lat, tcp_bw): the server's data listener, and
 * each side's socket as it was set up, for the report.  The client's port
 * is 0: it connects.
 */
struct rb_msg_data {
	uint16_t port;	 /* the server's data listener; 0 from the client */
	uint32_t sndbuf; /* SO_SNDBUF and SO_RCVBUF as the kernel set them, bytes */
	uint32_t rcvbuf;
	uint32_t mss;	 /* TCP_MAXSEG of the data connection, 0 before it exists */
	uint8_t nodelay; /* TCP_NODELAY set */
	char ifname[32]; /* the interface of the sender's address, "" when unknown */
	struct rb_placement place;
};

/*
 * ALIVE: the client's heartbeat during a point the server cannot see and
 * (v5) while a --threads client waits for its other threads, before a
 * point's START or the BYE.
 */
enum { RB_SYNC_START = 1, RB_SYNC_STOP = 2, RB_SYNC_ALIVE = 3 };

struct rb_msg_sync {
	uint32_t point;
	uint32_t what;	/* RB_SYNC_* */
	uint64_t count; /* STOP: operations the client did, warmup included */
};

/* The server's view of one point. */
struct rb_msg_result {
	uint32_t point;
	int32_t status; /* 0 or -errno */
	uint64_t iters;
	double bw_avg_gbps; /* 0 when the server does not measure bandwidth */
	double cpu_util_pct;
	/* v4: the rest of the server's bandwidth view (its own stream with -b). */
	double bw_peak_gbps;
	double msg_rate_mpps;
	double duration_s;
	/* v7: the server's latency figures, where it timed operations
	 * (--reversed): the client shows them as the point's. */
	bool has_lat;
	struct rb_lat_summary lat;
	/* v12: --wr-lat, the server's signaled WRs when it streamed. */
	bool has_wr_lat;
	uint64_t wr_lat_n;
	struct rb_lat_summary wr_lat;
	/* v14: the server's connection setup (JSON setup.peer), once its
	 * QPs are connected: how many, and the time to create and connect
	 * them.  Its destroy time comes after the last RESULT. */
	bool has_setup;
	uint32_t setup_qps;
	double setup_create_ms, setup_connect_ms;
	/* v15: --poll event, the server's wake-ups over its measured
	 * interval: the sender's with --reversed, the point's figure. */
	bool has_wakeups;
	uint64_t wakeups;
};

/* A human-readable reason; also what an ERROR body carries. */
struct rb_msg_text {
	char text[RB_TEXT_MAX];
};

/*
 * rb_hdr_pack() - write a header for a @type message with a @len body.
 */
void rb_hdr_pack(uint8_t buf[RB_WIRE_HDR_LEN], uint16_t type, uint32_t len);

/*
 * rb_hdr_unpack() - decode and check a header: magic, protocol version
 * (a mismatch names both versions), body length cap.  Returns 0,
 * -EBADMSG (not rdmabench), -EPROTO (other version) or -EMSGSIZE, with a
 * message in @err.
 */
int rb_hdr_unpack(const uint8_t buf[RB_WIRE_HDR_LEN], struct rb_hdr *h, char *err, size_t errlen);

/*
 * Body packers write into @buf of @cap bytes and return the body length, or
 * -EMSGSIZE.  Unpackers return 0 or -EBADMSG on a truncated, oversized or
 * inconsistent body; they never read past @len.
 */
int rb_pack_hello(const struct rb_msg_hello *m, uint8_t *buf, size_t cap);
int rb_unpack_hello(const uint8_t *buf, size_t len, struct rb_msg_hello *m);
/*
 * rb_unpack_hello_why(), rb_unpack_conn_why() - the unpackers, with why
 * in @err: -EBADMSG (truncated, a tag twice, a known field at a wrong
 * length, a value out of range) or -ENOTSUP (a field this build does not
 * know, marked must-understand: named by message and tag).
 */
int rb_unpack_hello_why(const uint8_t *buf, size_t len, struct rb_msg_hello *m, char *err,
			size_t errlen);
int rb_pack_params(const struct rb_params *m, uint8_t *buf, size_t cap);
int rb_unpack_params(const uint8_t *buf, size_t len, struct rb_params *m);
/*
 * rb_unpack_params_why() - rb_unpack_params(), with why in @err: -EBADMSG
 * (truncated, a tag twice, a known field at a wrong length) or -ENOTSUP
 * (a tag this build does not know, marked must-understand: named).
 */
/*
 * rb_wire_plan_list() - the plan's keyed fields, one line each:
 * "TAG<TAB>must|optional<TAB>KIND<TAB>NAME" (KIND: u8, u32, u64, axis,
 * str, flows; NAME: the member in the JSON's "params", or for a field no
 * option sets its name in struct rb_params), for
 * `rdmabench --list-plan` and the lab's hostile peer.
 */
void rb_wire_plan_list(FILE *f);
int rb_unpack_params_why(const uint8_t *buf, size_t len, struct rb_params *m, char *err,
			 size_t errlen);
int rb_pack_conn(const struct rb_msg_conn *m, uint8_t *buf, size_t cap);
/* rb_unpack_conn() allocates @m's lists (rb_conn_free()); none on error. */
int rb_unpack_conn(const uint8_t *buf, size_t len, struct rb_msg_conn *m);
int rb_unpack_conn_why(const uint8_t *buf, size_t len, struct rb_msg_conn *m, char *err,
		       size_t errlen);
/*
 * rb_wire_list() - every keyed message's fields, one line each:
 * "PARAMS|HELLO|CONN<TAB>TAG<TAB>must|optional<TAB>KIND<TAB>NAME", for
 * `rdmabench --list-wire` (one call: the lab's hostile peer asks once,
 * its slot cases timed from their start) and tests/wire_compat.sh.
 */
void rb_wire_list(FILE *f);

/*
 * rb_conn_alloc() - @m's lists for @nqp QPs and @nmr MRs (1..RB_MAX_QPS
 * each, nmr <= nqp), zeroed.  0, -EINVAL or -ENOMEM.  rb_conn_free()
 * releases them (and is a no-op on freed or zeroed lists).
 */
int rb_conn_alloc(struct rb_msg_conn *m, uint32_t nqp, uint32_t nmr);
void rb_conn_free(struct rb_msg_conn *m);

/*
 * rb_conn_chunks() - how many CONN_MORE messages follow @m's CONN: the QP
 * list's entries past the first RB_CONN_CHUNK, RB_CONN_CHUNK a message,
 * then the MR list's the same way.
 */
uint32_t rb_conn_chunks(const struct rb_msg_conn *m);

/*
 * rb_pack_conn_more() - CONN_MORE number @k (0..rb_conn_chunks() - 1) of
 * @m: the list (1 QPs, 2 MRs), the first entry's index, the count, the
 * entries.  rb_unpack_conn_more() takes only chunk @k into @m, whose
 * lists rb_unpack_conn() sized: another list, first index or count (out
 * of order, short, long) is -EBADMSG.
 */
int rb_pack_conn_more(const struct rb_msg_conn *m, uint32_t k, uint8_t *buf, size_t cap);
int rb_unpack_conn_more(const uint8_t *buf, size_t len, struct rb_msg_conn *m, uint32_t k);
int rb_pack_data(const struct rb_msg_data *m, uint8_t *buf, size_t cap);
int rb_unpack_data(const uint8_t *buf, size_t len, struct rb_msg_data *m);
int rb_pack_sync(const struct rb_msg_sync *m, uint8_t *buf, size_t cap);
int rb_unpack_sync(const uint8_t *buf, size_t len, struct rb_msg_sync *m);
int rb_pack_result(const struct rb_msg_result *m, uint8_t *buf, size_t cap);
int rb_unpack_result(const uint8_t *buf, size_t len, struct rb_msg_result *m);
int rb_pack_text(const struct rb_msg_text *m, uint8_t *buf, size_t cap);
int rb_unpack_text(const uint8_t *buf, size_t len, struct rb_msg_text *m);

/*
 * A blob: a u32 length, then that many bytes of text (JSON) without a NUL,
 * the whole body (a DOCTOR's).  rb_unpack_blob() points *@p into @buf.
 */
int rb_pack_blob(const char *s, size_t n, uint8_t *buf, size_t cap);
int rb_unpack_blob(const uint8_t *buf, size_t len, const char **p, size_t *n);

/*
 * rb_msg_name() - "HELLO", "PARAMS", ... for messages about messages, and
 * the matrix coordinator's "JOIN", "ROUND", ... (matrix_wire.h: its types
 * share these frames); "unknown" for any other type.
 */
const char *rb_msg_name(uint16_t type);

/*
 * rb_msg_type_str() - rb_msg_name() of @type, or for a type without a
 * name "message type N", written into @buf: for types that came from a
 * peer.
 */
const char *rb_msg_type_str(uint16_t type, char *buf, size_t len);

#endif
