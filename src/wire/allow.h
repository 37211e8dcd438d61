/* SPDX-License-Identifier: MIT */
/*
 * rdmabench server --allow CIDR[,CIDR...]: which client addresses may
 * connect (IPv4 and IPv6; an IPv4 client on a dual-stack listener, seen
 * as ::ffff:a.b.c.d, is matched against the IPv4 networks).  Pure.
 */
#ifndef RB_ALLOW_H
#define RB_ALLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define RB_ALLOW_MAX 32

struct rb_allow_net {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	uint8_t bits;
};

struct rb_allow {
	uint32_t n; /* 0: everyone */
	struct rb_allow_net net[RB_ALLOW_MAX];
};

/*
 * rb_allow_parse() - @list ("" or NULL: everyone) into @a: networks
 * ADDR/LEN, or an address alone (one host).  A malformed network, a
 * length out of range, host bits set past it, or more than RB_ALLOW_MAX
 * networks: -EINVAL with the reason in @err, naming --allow and the entry.
 */
int rb_allow_parse(const char *list, struct rb_allow *a, char *err, size_t errlen);

/* rb_allow_ok() - whether @sa may connect: in one of @a's networks (or @a is empty). */
bool rb_allow_ok(const struct rb_allow *a, const struct sockaddr *sa);

#endif
