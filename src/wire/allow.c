// SPDX-License-Identifier: MIT
/* --allow CIDR[,CIDR...] (allow.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/allow.h"

/* Whether the first @bits bits of @x and @y agree. */
static bool prefix_eq(const uint8_t *x, const uint8_t *y, unsigned int bits)
{
	unsigned int full = bits / 8, rest = bits % 8;

	if (memcmp(x, y, full))
		return false;
	return !rest || !((x[full] ^ y[full]) & (uint8_t)(0xff << (8 - rest)));
}

/* Host bits set past @bits in @addr of @len bytes. */
static bool host_bits(const uint8_t *addr, unsigned int len, unsigned int bits)
{
	uint8_t masked[16];
	unsigned int i;

	memcpy(masked, addr, len);
	for (i = 0; i < len * 8; i++)
		if (i >= bits)
			masked[i / 8] &= (uint8_t) ~(0x80 >> (i % 8));
	return memcmp(masked, addr, len) != 0;
}

static int one_net(const char *s, struct rb_allow_net *n, char *err, size_t errlen)
{
	char addr[64], *slash, *end;
	unsigned int max;
	long bits;

	if (snprintf(addr, sizeof(addr), "%s", s) >= (int)sizeof(addr) || !addr[0])
		goto bad;
	slash = strchr(addr, '/');
	if (slash)
		*slash = '\0';
	if (inet_pton(AF_INET, addr, n->addr) == 1) {
		n->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, addr, n->addr) == 1) {
		n->family = AF_INET6;
		max = 128;
	} else {
		goto bad;
	}
	bits = max;
	if (slash) {
		errno = 0;
		bits = strtol(slash + 1, &end, 10);
		if (!slash[1] || *end || errno || bits < 0 || bits > (long)max) {
			snprintf(err, errlen, "--allow %s: the prefix length must be 0..%u", s,
				 max);
			return -EINVAL;
		}
	}
	n->bits = (uint8_t)bits;
	if (host_bits(n->addr, max / 8, n->bits)) {
		snprintf(err, errlen,
			 "--allow %s: address bits are set past /%ld: give the network's first "
			 "address",
			 s, bits);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--allow '%s': not an IPv4 or IPv6 network (ADDR/LEN, e.g. 10.0.0.0/8 or "
		 "fd00::/64, or one address)",
		 s);
	return -EINVAL;
}

int rb_allow_parse(const char *list, struct rb_allow *a, char *err, size_t errlen)
{
	char buf[1024], *tok, *save = NULL;
	int ret;

	a->n = 0;
	if (!list || !list[0])
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "--allow: the list is over %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->n == RB_ALLOW_MAX) {
			snprintf(err, errlen, "--allow: more than %d networks", RB_ALLOW_MAX);
			return -EINVAL;
		}
		ret = one_net(tok, &a->net[a->n], err, errlen);
		if (ret)
			return ret;
		a->n++;
	}
	if (!a->n) {
		snprintf(err, errlen, "--allow '%s': no network in it", list);
		return -EINVAL;
	}
	return 0;
}

bool rb_allow_ok(const struct rb_allow *a, const struct sockaddr *sa)
{
	const uint8_t *addr;
	int family = sa->sa_family;
	uint32_t i;

	if (!a->n)
		return true;
	if (family == AF_INET) {
		addr = (const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr;
	} else if (family == AF_INET6) {
		const struct in6_addr *v6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;

		addr = v6->s6_addr;
		if (IN6_IS_ADDR_V4MAPPED(v6)) {
			family = AF_INET;
			addr += 12;
		}
	} else {
		return false;
	}
	for (i = 0; i < a->n; i++)
		if (a->net[i].family == family && prefix_eq(a->net[i].addr, addr, a->net[i].bits))
			return true;
	return false;
}
