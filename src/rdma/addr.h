/* SPDX-License-Identifier: MIT */
/*
 * Addressing on a real network: which GID of a port a run uses, and why.
 * Pure decisions on a GID table passed in (as ibv_query_gid_table() gives
 * it), so they are unit-tested without hardware; verbs.c reads the tables.
 *
 * The rule: the RoCE v2 GID that carries the local address of the
 * out-of-band TCP connection, since that address is the one the peer
 * reached us on; else the first RoCE v2 GID of the peer's address family,
 * then RoCE v1 the same way; on InfiniBand no GID (LID addressing).
 * IPv4 addresses sit in GIDs as ::ffff:a.b.c.d, and an IPv4-mapped IPv6
 * socket address counts as IPv4.
 */
#ifndef RB_ADDR_H
#define RB_ADDR_H

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* What the GID choice starts from. */
struct rb_gid_want {
	bool ethernet;		      /* link layer: Ethernet (RoCE); false: InfiniBand */
	const struct sockaddr *local; /* local address of the OOB connection; NULL: unknown */
	int peer_family;	      /* AF_INET/AF_INET6, used when @local is NULL;
				       * AF_UNSPEC: unknown (IPv4 preferred, as before) */
	int forced;		      /* -x/--gid-index; -1: choose */
	int family;		      /* --ipv6: AF_INET6, whatever the OOB's; AF_UNSPEC: its */
	/* Why a port that is not @ethernet goes without a GID; NULL: InfiniBand's LID. */
	const char *no_gid_why;
};

/*
 * rb_gid_choose() - the GID of a port's table @tbl (@n entries, any order,
 * empty ones allowed) that a run uses.
 * @index: the chosen GID index, or -1 for none (InfiniBand, LID).
 * @msg:   on success why, e.g. "RoCE v2 GID 1 holds 192.0.2.2, the local
 *         address of the out-of-band connection"; on failure the error,
 *         naming -x/--gid-index and listing the valid indexes.
 * Returns 0; -EINVAL when @w->forced is empty, missing, or of another
 * address family than the peer's (a usage error); -ENOENT when no GID
 * suits an Ethernet port.
 */
int rb_gid_choose(const struct ibv_gid_entry *tbl, size_t n, const struct rb_gid_want *w,
		  int *index, char *msg, size_t len);

/*
 * rb_gid_find() - the index of the GID in @tbl that holds @addr, a RoCE v2
 * one before a RoCE v1 one, the lowest index first; -1 when none does.
 */
int rb_gid_find(const struct ibv_gid_entry *tbl, size_t n, const struct sockaddr *addr);

/* rb_addr_family() - AF_INET (also for IPv4-mapped IPv6), AF_INET6, or AF_UNSPEC. */
int rb_addr_family(const struct sockaddr *sa);

/* rb_addr_str() - @sa as text, IPv4-mapped IPv6 as plain IPv4; "?" if unknown. */
void rb_addr_str(const struct sockaddr *sa, char *buf, size_t len);

/* rb_gid_str() - a GID as IPv6 text ("::ffff:192.0.2.1", "fe80::1"). */
void rb_gid_str(const union ibv_gid *gid, char *buf, size_t len);

/* rb_gid_type_str() - "RoCE v2", "RoCE v1" or "IB". */
const char *rb_gid_type_str(uint32_t type);

/*
 * rb_route_default_if() - the interface of the IPv4 default route with the
 * lowest metric in @text, the contents of /proc/net/route.  Returns 0, or
 * -ENOENT when there is no default route.
 */
int rb_route_default_if(const char *text, char *ifname, size_t len);

/*
 * rb_guess_netdev() - the network interface a Soft-RoCE device would sit
 * on: the one holding the default route, else the first UP non-loopback
 * interface with an address.  Returns 0, or -ENOENT.
 */
int rb_guess_netdev(char *ifname, size_t len);

#endif
