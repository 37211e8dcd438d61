/* SPDX-License-Identifier: MIT */
/*
 * libibverbs resources and QP state moves.  Knows no test: callers say
 * what access, depths and attributes they need.  Every failure is logged
 * here, naming the device, port or QP, and returned as -errno.
 *
 * src/rdma/ (layer 2, over wire and core): the device and what it owns:
 * verbs.c (device, PD, CQ, QP, MR, state moves), addr.c (a GID by
 * address), cm.c (librdmacm, -R), counters.c (the port's counters).
 */
#ifndef RB_VERBS_H
#define RB_VERBS_H

#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/provider.h"
#include "rdma/transport.h"
#include "wire/wire.h"

struct rb_dev {
	struct ibv_context *ctx;
	/* What the device's provider offers and how it behaves (never NULL
	 * once open: the generic row when none matched). */
	const struct rb_provider *prov;
	struct ibv_pd *pd;
	struct ibv_device_attr attr;
	struct ibv_port_attr port_attr;
	uint8_t port;
	const struct rb_xport *tr; /* the device's transport (transport_type) */
	int gid_index;		   /* -1: InfiniBand addressed by LID, no GRH */
	union ibv_gid gid;
	char name[64];
	char gid_type[8];		 /* "RoCE v2", "RoCE v1", "IB"; "" without a GID */
	char gid_addr[INET6_ADDRSTRLEN]; /* the GID as text, "::ffff:192.0.2.1"; "" without */
	char why_dev[192];		 /* why this device and port, for -v and JSON */
	char why_gid[192];		 /* why this GID, or why none */
	/* errno with which ibv_reg_mr() refused IBV_ACCESS_RELAXED_ORDERING
	 * (rb_mr_reg() then registers without it, here on); 0: none did. */
	int relaxed_err;
};

/* What a run asks of rb_dev_open_want(). */
struct rb_dev_want {
	const char *name;	      /* -d/--device; NULL: choose */
	int port;		      /* -i/--ib-port; 0: choose */
	int gid_index;		      /* -x/--gid-index; -1: choose */
	const struct sockaddr *local; /* local address of the OOB connection; NULL: unknown */
	int peer_family;	      /* AF_INET/AF_INET6 when @local is NULL; AF_UNSPEC: unknown */
	int gid_family;		      /* --ipv6: AF_INET6; AF_UNSPEC: the OOB's */
	/* The option that chose @port, for a message: "-O/--dualport"; NULL: -i/--ib-port. */
	const char *port_by;
};

/*
 * rb_dev_open_want() - open the device and port @w asks for, query them,
 * choose the GID (addr.h says how) and allocate a PD; @d->why_dev and
 * @d->why_gid say why each was chosen.
 *
 * Without a name, the device and port whose GID table holds @w->local,
 * else the first device with an active port (@w->port when > 0).  Without
 * a port, the device's port holding @w->local, else its first active one.
 * A port that is not ACTIVE is an error naming its state (an InfiniBand
 * port in INIT waits for the subnet manager, not a cable).  With no RDMA
 * device at all, a hint names the Soft-RoCE command that would make one.
 *
 * Returns 0 or -errno, logged once naming the device and port.  -EINVAL
 * means a usage error only (-i or -x out of range, -x empty or of the
 * wrong address family): a library call failing with EINVAL returns -EIO.
 */
int rb_dev_open_want(const struct rb_dev_want *w, struct rb_dev *d);

/*
 * rb_dev_check() - what rb_dev_open_want() would refuse in @w before any
 * connection is known (a server checks it before it listens): the device
 * @w->name exists (else -ENODEV, naming those that do), the port is in
 * range (-EINVAL) and ACTIVE, and GID @w->gid_index, when the device and
 * port are fixed, is in range and not empty (-EINVAL).  The device is
 * closed again.  Returns 0 or -errno, logged as rb_dev_open_want() does.
 */
int rb_dev_check(const struct rb_dev_want *w);

/*
 * rb_verbs_lib_version() - the libibverbs loaded, by the file the dynamic
 * linker took it from after its links ("1.14.44.0" of
 * libibverbs.so.1.14.44.0): the version that runs, not the one built
 * against; @buf, or NULL when it cannot be told.
 */
const char *rb_verbs_lib_version(char *buf, size_t len);

/*
 * rb_rdma_core_version() - the rdma-core release of the libibverbs this
 * process runs ("44.0": its file libibverbs.so.1.14.44.0), into @buf;
 * -ENOENT when it cannot be told.
 */
int rb_rdma_core_version(char *buf, size_t len);

/* rb_dev_board_id() - sysfs's board_id of @d's device ("MT_0000000222"), "" when none. */
void rb_dev_board_id(const struct rb_dev *d, char *buf, size_t len);

/* rb_dev_count() - how many RDMA devices libibverbs finds here, or -errno. */
int rb_dev_count(void);

void rb_dev_close(struct rb_dev *d);

/*
 * rb_dev_netdev() - the network device behind the GID in use (RoCE), as
 * sysfs's gid_attrs/ndevs names it, into @buf; "" when none (InfiniBand).
 */
void rb_dev_netdev(const struct rb_dev *d, char *buf, size_t len);

/*
 * rb_resources_close() - destroy @res's QPs, SRQ, CQ and MRs (NULL entries
 * skipped); a failure is a warning naming the object.  Call before
 * rb_dev_close().
 */
struct rb_res {
	struct ibv_qp **qp;
	uint32_t nqp;
	struct ibv_srq *srq;
	struct ibv_cq *cq;
	struct ibv_mr **mr;
	uint32_t nmr;
	/* --poll event: the CQ's completion channel, destroyed after it
	 * (every event taken from it must be acked before: rb_events_ack()). */
	struct ibv_comp_channel *channel;
};
void rb_resources_close(struct rb_dev *d, const struct rb_res *res);

/* rb_link_layer_str() - "Ethernet", "InfiniBand" or "Unspecified" (EFA). */
const char *rb_link_layer_str(const struct rb_dev *d);

/* MTU enum <-> bytes; rb_mtu_from_bytes() returns 0 for a non-MTU value. */
uint32_t rb_mtu_bytes(enum ibv_mtu m);
enum ibv_mtu rb_mtu_from_bytes(uint32_t bytes);

/*
 * rb_cq_entries() - the completions that can be outstanding at once on a
 * CQ that @nqp QPs share: every send WR each QP may hold (@send_wr;
 * unsignaled ones too, as an error flushes each of them as a completion)
 * and every receive posted: @recv_wr per QP or, with @srq, @recv_wr on
 * the SRQ they share.  Pure.
 */
uint64_t rb_cq_entries(uint32_t nqp, uint32_t send_wr, uint32_t recv_wr, bool srq);

/*
 * rb_cq_create() - a CQ of at least @cqe entries; more than the device's
 * max_cqe is refused (-EINVAL, logged), never cut: the caller sizes @cqe
 * to what can be outstanding (rb_cq_entries()).
 */
int rb_cq_create(struct rb_dev *d, uint64_t cqe, struct ibv_cq **cq);

/*
 * rb_cq_create_on() - rb_cq_create() on completion channel @chan (NULL:
 * none) with completion vector @vector, which must be below the device's
 * num_comp_vectors (else -ERANGE, logged naming -X/--vector).
 */
int rb_cq_create_on(struct rb_dev *d, uint64_t cqe, struct ibv_comp_channel *chan, uint32_t vector,
		    struct ibv_cq **cq);

/* rb_cq_check() - rb_cq_create_on()'s checks of @cqe and @vector: 0, -ERANGE or -EINVAL (logged). */
int rb_cq_check(const struct rb_dev *d, uint64_t cqe, uint32_t vector);

/*
 * rb_channel_create() - a completion channel (--poll event) whose fd does
 * not block: the loops wait on it with poll(2) and a deadline.  0 or
 * -errno, logged.  rb_resources_close() destroys it, after the CQ.
 */
int rb_channel_create(struct rb_dev *d, struct ibv_comp_channel **chan);

struct rb_qp_caps {
	uint32_t send_wr, recv_wr, inline_size; /* in: wanted; out: granted */
	struct ibv_srq *srq;			/* receives from this SRQ; NULL: its own */
	/* in: the IBV_QP_EX_WITH_* verbs the extended post API (ibv_wr_*)
	 * needs; 0: an ordinary QP (ibv_post_send() only). */
	uint64_t send_ops;
	bool ex_only; /* in: without the extended API, fail (-EOPNOTSUPP) */
	bool ex;      /* out: the QP takes ibv_wr_* (rb_post_send_ex()) */
};

/*
 * rb_qp_create() - a QP of @type (RC, UC, UD; IBV_QPT_DRIVER: SRD, srd.c,
 * which needs @caps->send_ops and takes only what rb_srd_ops() says) on @cq for both queues; @caps
 * updated.  With @caps->send_ops, made by ibv_create_qp_ex() with those
 * send_ops_flags; a provider that refuses them gets an ordinary QP
 * (caps->ex false), unless @caps->ex_only.  Inline: rb_inline_ask()'s,
 * lowered by quarters while the provider refuses it; @caps->inline_size
 * comes back as what the QP took (ibv_query_qp), -I's N at most.  A
 * provider that returns no QP and
 * sets no errno (bnxt_re for UC) gets -EOPNOTSUPP and a message naming
 * the call, its attributes and what the provider offers: never 0 with
 * *@qp NULL.
 */
int rb_qp_create(struct rb_dev *d, struct ibv_cq *cq, enum ibv_qp_type type,
		 struct rb_qp_caps *caps, struct ibv_qp **qp);

/*
 * rb_inline_ask() - the inline bytes to ask a QP of @d for, -I being
 * @want: with RB_INLINE_AUTO the provider's max_inline (RB_INLINE_GENERIC
 * for a provider without one), else @want cut to max_inline.
 */
uint32_t rb_inline_ask(const struct rb_dev *d, uint32_t want);

/*
 * rb_qp_inline_took() - what @qp took inline: ibv_query_qp()'s cap (mlx5
 * rounds the ask up to whole 64-byte WQE blocks: 220 asked is 236 taken),
 * else what the create left in @created's cap.
 */
uint32_t rb_qp_inline_took(struct ibv_qp *qp, const struct ibv_qp_init_attr_ex *created);

/*
 * SRD (srd.c): EFA's reliable datagram, a QP of type IBV_QPT_DRIVER that
 * rb_qp_create() makes through efadv_create_qp_ex() (extended API only).
 * rb_srd_built() - whether configure found libefa (HAVE_EFADV).
 * rb_srd_ops() - the IBV_QP_EX_WITH_* verbs @d's SRD QPs take: SEND
 * always, RDMA READ and WRITE where efadv_query_device() reports them; 0
 * for a device without SRD or a build without efadv.
 * rb_srd_create() - efadv_create_qp_ex() of @a as SRD; NULL with errno.
 * rb_wr_ops_str() - IBV_QP_EX_WITH_* bits as "SEND, RDMA_READ", "none".
 */
bool rb_srd_built(void);
uint64_t rb_srd_ops(struct rb_dev *d);
struct ibv_qp *rb_srd_create(struct rb_dev *d, struct ibv_qp_init_attr_ex *a);
const char *rb_wr_ops_str(uint64_t ops, char *buf, size_t len);

/*
 * rb_srq_create() - a shared receive queue of @max_wr receives; a device
 * without SRQs, or fewer than @max_wr, is a usage error (-EINVAL, logged).
 */
int rb_srq_create(struct rb_dev *d, uint32_t max_wr, struct ibv_srq **srq);

/*
 * rb_odp_missing() - what on-demand paging lacks for transport @tr (enum
 * rb_transport: RC, UC, UD each have their own odp_caps, and mlx5 gives UC
 * none and UD no RECV) with the verbs @need (IBV_ODP_SUPPORT_* bits),
 * given a device's @caps: "" when nothing, else the missing capabilities,
 * named as the odp_caps fields spell them, into @buf.  Pure.
 */
const char *rb_odp_missing(const struct ibv_odp_caps *caps, unsigned int tr, uint32_t need,
			   char *buf, size_t len);

/*
 * rb_odp_check() - whether @d can register on-demand paging MRs for QPs of
 * transport @tr doing the verbs @need; -EOPNOTSUPP (logged, naming the
 * device, the transport and what it lacks) when not.
 */
int rb_odp_check(struct rb_dev *d, unsigned int tr, uint32_t need);

/*
 * rb_mr_reg() - register @len bytes at @buf with @access.  When @access
 * holds IBV_ACCESS_RELAXED_ORDERING and the provider or kernel refuses it
 * (EINVAL, EOPNOTSUPP), registers without it and keeps the errno in
 * @d->relaxed_err: later registrations on @d go without it at once.
 */
int rb_mr_reg(struct rb_dev *d, void *buf, size_t len, int access, struct ibv_mr **mr);

/* How a chain of send WRs is posted: ibv_post_send()'s signature and contract. */
typedef int (*rb_post_fn)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);

/*
 * rb_post_send_ex() - post the chain @wr on @qp, made with caps.ex, through
 * the extended API: one ibv_wr_start(), a verb, its address (UD), its
 * SGE or inline data for each WR, one ibv_wr_complete().  SEND, RDMA
 * WRITE and READ, and both atomics.  Returns 0 or an errno value, with
 * *@bad the first WR (the API does not say which failed).
 */
int rb_post_send_ex(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);

/*
 * struct rb_qp_peer - the peer of a QP that addresses every WR from its
 * own (qp_context points at it; the session keeps one per QP): an SRD
 * QP's (rb_post_send_ex(): ibv_wr_set_ud_addr()) or a DCI's, its DCT
 * (rb_post_send_dc(): mlx5dv_wr_set_dc_addr(), @mqp set by
 * rb_dc_connect()).  An SRD RDMA WRITE or READ cannot carry the address
 * in the WR as a UD send does: wr.ud and wr.rdma share the WR's union
 * (the AH would overwrite remote_addr, the peer's QP number the rkey).
 */
struct rb_qp_peer {
	struct ibv_ah *ah;
	uint32_t qpn;	 /* SRD: the peer's QP; DC: its DCT's number */
	uint32_t qkey;	 /* SRD */
	uint64_t dc_key; /* DC: the DCT's access key */
	void *mqp;	 /* DC: the DCI's struct mlx5dv_qp_ex, found once; NULL: SRD */
};

/*
 * rb_qp_post_fn() - what posts to @qp: rb_post_send_ex() when @ex, else
 * the provider's post_send, the very function ibv_post_send() calls (one
 * pointer for the loops, chosen once, not a test per message).
 */
rb_post_fn rb_qp_post_fn(struct ibv_qp *qp, bool ex);

/* rb_qp_info() - what the peer needs to reach @qp. */
void rb_qp_info(const struct rb_dev *d, const struct ibv_qp *qp, uint32_t psn,
		struct rb_qp_info *out);

/* The Q_Key of every UD QP and WR: a constant, so it needs no exchange. */
#define RB_UD_QKEY 0x11111111u

/* What the address vector carries besides the peer's address. */
struct rb_av {
	uint8_t sl;	     /* service level */
	uint8_t tclass;	     /* GRH traffic class */
	uint32_t flow_label; /* GRH flow label, 20 bits */
	struct rb_qp_attrs qp;
};

/*
 * rb_qp_connect() - RESET -> INIT -> RTR -> RTS with what @qp's transport
 * needs: RC and UC towards @remote (address vector with @av, path @mtu;
 * RC with @access remote rights and @rd_atom reads/atomics each way, UC
 * with @access alone); UD with the Q_Key, and no peer at all (each WR
 * names its own, through rb_ah_create()).
 */
/*
 * rb_qp_path_ok() - whether @mtu is one of IBV_MTU_256..IBV_MTU_4096 and
 * @remote's QPN and PSN fit their 24 bits: what rb_qp_connect() requires
 * of a connected QP's peer (it refuses the rest with -EINVAL).
 */
bool rb_qp_path_ok(enum ibv_mtu mtu, const struct rb_qp_info *remote);

int rb_qp_connect(struct rb_dev *d, struct ibv_qp *qp, int access, uint32_t local_psn,
		  const struct rb_qp_info *remote, enum ibv_mtu mtu, uint8_t rd_atom,
		  const struct rb_av *av);

/* rb_ah_attr_fill() - @remote's address with @av's path fields: a GRH whenever a GID is in use. */
void rb_ah_attr_fill(const struct rb_dev *d, const struct rb_qp_info *remote,
		     const struct rb_av *av, struct ibv_ah_attr *ah);

/* rb_ah_create() - an address handle for UD sends to @remote, with @av. */
int rb_ah_create(struct rb_dev *d, const struct rb_qp_info *remote, const struct rb_av *av,
		 struct ibv_ah **ah);

/* rb_ah_destroy() - destroy @ah (NULL: nothing); a failure is a warning. */
void rb_ah_destroy(struct rb_dev *d, struct ibv_ah *ah);

#endif
