/* SPDX-License-Identifier: MIT */
/*
 * Device counters around a point (issue 12): read a port's counters from
 * sysfs, choose which (--counters), take deltas, derive wire overhead and
 * retransmission rates, flag error counters that moved, and carry a delta
 * set over the wire.
 *
 * Where they come from, under a sysfs root (@sysroot: "/sys" live, a fake
 * tree in the unit tests):
 *   class/infiniband/DEV/ports/P/counters/NAME     source "port": the IB
 *       PMA counters (port_xmit_data, port_rcv_packets, ...); *_data count
 *       4-byte words (scale 4); a 32-bit PMA counter stops at 2^32-1.
 *   class/infiniband/DEV/ports/P/hw_counters/NAME  source "hw": the
 *       driver's own (rxe: sent_pkts, completer_retry_err, ...; mlx5:
 *       out_of_sequence, np_cnp_sent, ...).  A name that counters/ has too
 *       is prefixed "hw_".
 *   class/net/NETDEV/statistics/NAME               source "netdev", RoCE
 *       only, named "netdev_" + NAME: rx/tx bytes, packets, dropped,
 *       errors, rx_missed_errors, rx_crc_errors.
 *
 * Which counters count as what, per driver (also in doc/json-schema.md):
 *   wire bytes   port_xmit_data x 4 (port_rcv_data x 4 for received
 *                payload), else netdev_tx_bytes (netdev_rx_bytes) where the
 *                driver's netdev counts RDMA (rxe, siw: core/provider.h; not
 *                hardware RoCE, whose RDMA bypasses it): headers and
 *                retransmissions included.  None (wire_unknown says why)
 *                from a netdev that does not count RDMA, or from a PMA
 *                counter that saturated at 2^32-1.
 *   packets      rxe: sent_pkts; mlx5 and others: port_xmit_packets, else
 *                netdev_tx_packets.
 *   retrans      rxe: completer_retry_err + rcvd_rnr_err; mlx5:
 *                local_ack_timeout_err + packet_seq_err + implied_nak_seq_err
 *                + rnr_nak_retry_err; others: none (n/a).  These count
 *                retry events of the requester, each of which resends one
 *                or more packets (go-back-N): a lower bound on packets
 *                resent.
 *
 * Everything but rb_counters_read() and rb_port_rate_gbps() (which read
 * sysfs) and the CSV helpers (which print to the FILE given) is pure: no
 * I/O, no logging.
 */
#ifndef RB_COUNTERS_H
#define RB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "core/bench.h"
#include "core/provider.h"
#include "core/rdmabench.h"

#define RB_CTR_NAME_MAX 48   /* a counter's name, with its NUL */
#define RB_CTR_MAX	160  /* counters per set: mlx5 with its netdev has ~100 */
#define RB_CTR_LIST_MAX 64   /* names in a --counters list */
#define RB_CTR_SPEC_MAX 1024 /* the longest --counters argument */

enum rb_ctr_src { RB_CTR_SRC_PORT, RB_CTR_SRC_HW, RB_CTR_SRC_NETDEV };

enum rb_ctr_kind {
	RB_CTR_OTHER,
	RB_CTR_TRAFFIC,	   /* bytes and packets that carry the test */
	RB_CTR_ERROR,	   /* moved: something went wrong; flagged per point */
	RB_CTR_CONGESTION, /* ECN marks, CNPs, time waiting to send */
};

/* Flags of a delta (rb_counters_delta()). */
#define RB_CTRF_WRAPPED	  0x1 /* went backwards: taken as a 32- or 64-bit wrap */
#define RB_CTRF_SATURATED 0x2 /* a PMA counter at 2^32-1: the delta is a lower bound */

struct rb_counter {
	char name[RB_CTR_NAME_MAX];
	uint64_t value; /* as sysfs counts; in a delta set, the increase */
	uint8_t src;	/* enum rb_ctr_src */
	uint8_t kind;	/* enum rb_ctr_kind */
	uint8_t scale;	/* bytes per unit of a byte counter (4: *_data), else 1 */
	uint8_t flags;	/* RB_CTRF_* (delta sets only) */
};

struct rb_counter_set {
	uint8_t driver; /* enum rb_prov_id */
	char device[64];
	int port;
	/*
	 * hw_counters/lifespan: the kernel serves hw counters from a cache
	 * this many ms old (10 by default); 0 without hw counters.  Local:
	 * not on the wire.
	 */
	int lifespan_ms;
	/*
	 * Its driver's netdev statistics count the RDMA traffic (rxe, siw:
	 * core/provider.h), so netdev_tx/rx_bytes may stand in for a missing
	 * port_xmit/rcv_data.  Set by rb_counters_read() from the device,
	 * by rb_counters_unpack() from the driver on the wire.  Local.
	 */
	bool netdev_rdma;
	uint32_t n;
	struct rb_counter c[RB_CTR_MAX];
};

/* A parsed --counters argument. */
enum rb_ctr_mode { RB_CTRS_NONE, RB_CTRS_DEFAULT, RB_CTRS_ALL, RB_CTRS_LIST };

struct rb_counter_spec {
	uint8_t mode;	   /* enum rb_ctr_mode */
	bool with_default; /* LIST only: "default" was one of the items */
	uint32_t n;
	char names[RB_CTR_LIST_MAX][RB_CTR_NAME_MAX];
};

/* Figures derived from a delta set; has_* say which could be computed. */
struct rb_counter_derived {
	bool has_wire;
	const char *wire_counter; /* the counter the wire bytes come from */
	/* A byte counter moved but gives no figure: why (has_wire false;
	 * wire_counter names it), else NULL. */
	const char *wire_unknown;
	double wire_bytes, payload_bytes;
	double wire_per_payload; /* bytes on the wire per payload byte */
	bool has_retrans;
	uint64_t retrans, packets;
	double retrans_per_mpkt; /* retransmission events per million packets */
};

/*
 * rb_counters_read() - every counter of port @port of RDMA device @dev
 * under @sysroot, and the statistics of @netdev (NULL or "": none), with
 * the driver (the device's driver link, else its name: "rxe*", "mlx5_*").
 * Missing directories and unreadable files are skipped (mlx5 refuses some
 * hw counters on some firmware); at most RB_CTR_MAX counters are kept.
 * The kernel caches hw counters for @out->lifespan_ms: a reading less
 * than that after the previous one may repeat its values, so the reading
 * after a point must wait that long past the one before it (sleep
 * lifespan_ms + 1 after a shorter point).
 * Returns 0, -EINVAL for a name that is not a plain name or a port out of
 * 1..255, -ENOENT when the device or the port does not exist,
 * -ENAMETOOLONG for a path over PATH_MAX.  Logs
 * nothing: the caller names what failed.  Not pure: reads files.
 */
int rb_counters_read(const char *sysroot, const char *dev, int port, const char *netdev,
		     struct rb_counter_set *out);

/* "rxe", "mlx5", "generic". */
const char *rb_counters_driver_name(enum rb_prov_id d);

/*
 * rb_counters_netdev_rdma() - whether driver @d's netdev statistics count
 * its RDMA traffic (core/provider.h), for a set known by its driver alone
 * (a peer's, from the wire).  Pure.
 */
bool rb_counters_netdev_rdma(enum rb_prov_id d);

/*
 * rb_counters_defaults() - the default names of driver @d, NULL-terminated
 * (a device may lack some: they are skipped).  Also the CSV's columns.
 */
const char *const *rb_counters_defaults(enum rb_prov_id d);

/*
 * rb_counters_retrans() - the counters of driver @d whose sum is the
 * retransmissions (see above), NULL-terminated; empty when none is known.
 */
const char *const *rb_counters_retrans(enum rb_prov_id d);

/*
 * rb_port_rate_gbps() - the active rate of port @port of @dev from
 * @sysroot/class/infiniband/DEV/ports/P/rate ("100 Gb/sec (2X HDR)"), for
 * --expect bw>=N%link.  Returns 0, -EINVAL (bad name or port, a rate
 * that does not parse), or -errno of the read.  Not pure: reads a file.
 */
int rb_port_rate_gbps(const char *sysroot, const char *dev, int port, double *gbps);

/* rb_counters_kind() - what a counter of this name is (known names, then keywords). */
enum rb_ctr_kind rb_counters_kind(const char *name);
const char *rb_counters_kind_name(enum rb_ctr_kind k);

/* rb_counters_find() - the counter @name in @s, or NULL. */
const struct rb_counter *rb_counters_find(const struct rb_counter_set *s, const char *name);

/*
 * rb_counters_spec_parse() - parse a --counters argument: "none",
 * "default", "all", or a comma-separated list of names, which may include
 * "default".  Checks the syntax only (see rb_counters_spec_check()).
 * Returns 0, or -EINVAL with the reason in @err.
 */
int rb_counters_spec_parse(const char *arg, struct rb_counter_spec *spec, char *err, size_t len);

/*
 * rb_counters_spec_check() - every name of a list against what device set
 * @avail has (a local check, before anything is measured).  Returns 0, or
 * -EINVAL naming the first unknown name and some that exist, in @err.
 */
int rb_counters_spec_check(const struct rb_counter_spec *spec, const struct rb_counter_set *avail,
			   char *err, size_t len);

/*
 * rb_counters_apply() - the counters of @in that @spec chooses, into @out,
 * in @in's order.  Names @in lacks are skipped: the peer's device may be
 * of another driver.  "default" is the default list of @in's driver.
 */
void rb_counters_apply(const struct rb_counter_spec *spec, const struct rb_counter_set *in,
		       struct rb_counter_set *out);

/*
 * rb_counters_delta() - @after minus @before, per name; a counter missing
 * from @before is left out.  A counter that went backwards wrapped: at 32
 * bits when @before fits in 32 bits, else at 64 (RB_CTRF_WRAPPED); a port
 * counter at 2^32-1 in either reading has stopped (RB_CTRF_SATURATED).
 */
void rb_counters_delta(const struct rb_counter_set *before, const struct rb_counter_set *after,
		       struct rb_counter_set *delta);

/*
 * rb_counters_derive() - wire bytes per payload byte and retransmissions
 * per million packets from the whole (unfiltered) delta set of one side.
 * @payload_bytes: the payload that left this side (@payload_rx false:
 * send, write, both sides of a ping-pong) or arrived (true: the client of
 * read), warmup included -- what moved between the two readings.  Wire
 * bytes of 0 (rxe loopback: no wire) leave has_wire false.
 */
void rb_counters_derive(const struct rb_counter_set *delta, uint64_t payload_bytes, bool payload_rx,
			struct rb_counter_derived *out);

/*
 * rb_counters_payload_rx() - the @payload_rx of rb_counters_derive() for
 * one side of a test: reads and atomics bring their data back to the
 * client (rx there, tx on the server), send and write streams carry it
 * from the client (tx there, rx on the server), and in a send or write
 * ping-pong each side sends its own (tx on both).
 */
bool rb_counters_payload_rx(const struct rb_bench *b, bool server);

/*
 * rb_counters_errors() - the error counters of @delta that moved, as
 * "name,name" into @buf (cut with "..." when it does not fit); returns
 * how many moved.  The table flags a point with this text.
 */
size_t rb_counters_errors(const struct rb_counter_set *delta, char *buf, size_t len);

/*
 * rb_counters_json() - {"name": delta, ...} for a point's "counters" or
 * "peer_counters"; rb_counters_errors_json() - ["name", ...] of the error
 * counters that moved; rb_counters_derived_json() - the derived figures
 * that could be computed.  New references, NULL on ENOMEM.
 */
json_t *rb_counters_json(const struct rb_counter_set *delta);
json_t *rb_counters_errors_json(const struct rb_counter_set *delta);
json_t *rb_counters_derived_json(const struct rb_counter_derived *d);

/*
 * CSV columns (the run's CSV carries the default set of each side's
 * driver, known once the peers have exchanged CONN): rb_counters_csv_header()
 * writes ",PREFIXname" for each default name of driver @d, then
 * ",PREFIXwire_bytes_per_payload_byte,PREFIXretrans_per_mpkt";
 * rb_counters_csv_row() writes the matching cells of @delta and @der, empty
 * where a counter is missing or a figure could not be derived (either may
 * be NULL: all empty).  Prefix "ctr_" for this side, "peer_ctr_" for the
 * peer, say.  They print to @f: writer helpers, the one exception here.
 */
void rb_counters_csv_header(FILE *f, const char *prefix, enum rb_prov_id d);
void rb_counters_csv_row(FILE *f, enum rb_prov_id d, const struct rb_counter_set *delta,
			 const struct rb_counter_derived *der);
/*
 * rb_counters_csv_json() - the same cells from what rb_counters_json() and
 * rb_counters_derived_json() built (either may be NULL), for a writer
 * that keeps each point's JSON rather than its sets.
 */
void rb_counters_csv_json(FILE *f, enum rb_prov_id d, json_t *counters, json_t *derived);

/*
 * The wire form of a set (counters_wire.c): driver u8, count u16, then
 * per counter name (u16 length + bytes), value u64, source, kind, scale,
 * flags (u8 each), big-endian.  The device name and port stay local.
 * rb_counters_pack() returns the length written into @buf (@cap bytes) or
 * -EMSGSIZE.  rb_counters_unpack() returns 0 or -EBADMSG on a truncated,
 * oversized or inconsistent body (a count over RB_CTR_MAX, an empty,
 * too long or non-[A-Za-z0-9_.-] name, a duplicate name, a source, kind
 * or driver out of range, a scale of 0, trailing bytes); it never reads
 * past @len, and leaves an empty set on failure.
 */
#define RB_CTR_WIRE_MAX (3 + RB_CTR_MAX * (2 + RB_CTR_NAME_MAX - 1 + 12))
int rb_counters_pack(const struct rb_counter_set *s, uint8_t *buf, size_t cap);
int rb_counters_unpack(const uint8_t *buf, size_t len, struct rb_counter_set *s);

#endif
