// SPDX-License-Identifier: MIT
/*
 * Which GID a run uses, and why (see addr.h): pure decisions on a GID
 * table, plus the guess of a network interface for the Soft-RoCE hint.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rdma/addr.h"

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* Text appended piece by piece into a caller's buffer, cut at its end. */
struct sbuf {
	char *p;
	size_t len, off;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (!b->len || b->off >= b->len - 1)
		return;
	va_start(ap, fmt);
	r = vsnprintf(b->p + b->off, b->len - b->off, fmt, ap);
	va_end(ap);
	if (r > 0)
		b->off = b->off + (size_t)r < b->len ? b->off + (size_t)r : b->len - 1;
}

static bool gid_empty(const struct ibv_gid_entry *e)
{
	static const union ibv_gid zero;

	return !memcmp(&e->gid, &zero, sizeof(zero));
}

static int gid_family(const uint8_t raw[16])
{
	return memcmp(raw, v4_prefix, sizeof(v4_prefix)) ? AF_INET6 : AF_INET;
}

static const char *family_str(int family)
{
	return family == AF_INET ? "IPv4" : "IPv6";
}

/* @sa as the 16 bytes a GID holds it in; returns its family, or AF_UNSPEC. */
static int addr_raw(const struct sockaddr *sa, uint8_t raw[16])
{
	const struct sockaddr_in *in4 = (const void *)sa;
	const struct sockaddr_in6 *in6 = (const void *)sa;

	if (sa && sa->sa_family == AF_INET) {
		memcpy(raw, v4_prefix, sizeof(v4_prefix));
		memcpy(raw + 12, &in4->sin_addr, 4);
		return AF_INET;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(raw, &in6->sin6_addr, 16);
		return gid_family(raw);
	}
	return AF_UNSPEC;
}

int rb_addr_family(const struct sockaddr *sa)
{
	uint8_t raw[16];

	return addr_raw(sa, raw);
}

void rb_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	uint8_t raw[16];
	int fam = addr_raw(sa, raw);

	if (fam == AF_UNSPEC || !inet_ntop(fam, fam == AF_INET ? raw + 12 : raw, buf, len))
		snprintf(buf, len, "?");
}

void rb_gid_str(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid->raw, buf, len))
		snprintf(buf, len, "?");
}

const char *rb_gid_type_str(uint32_t type)
{
	switch (type) {
	case IBV_GID_TYPE_ROCE_V2:
		return "RoCE v2";
	case IBV_GID_TYPE_ROCE_V1:
		return "RoCE v1";
	default:
		return "IB";
	}
}

/*
 * The non-empty entry of @type with the lowest index that holds @raw
 * (when not NULL) and is of @family (when not AF_UNSPEC); NULL if none.
 */
static const struct ibv_gid_entry *first(const struct ibv_gid_entry *tbl, size_t n, uint32_t type,
					 int family, const uint8_t *raw)
{
	const struct ibv_gid_entry *best = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ibv_gid_entry *e = &tbl[i];

		if (e->gid_type != type || gid_empty(e))
			continue;
		if (raw && memcmp(e->gid.raw, raw, 16))
			continue;
		if (family != AF_UNSPEC && gid_family(e->gid.raw) != family)
			continue;
		if (!best || e->gid_index < best->gid_index)
			best = e;
	}
	return best;
}

int rb_gid_find(const struct ibv_gid_entry *tbl, size_t n, const struct sockaddr *addr)
{
	const struct ibv_gid_entry *e;
	uint8_t raw[16];

	if (addr_raw(addr, raw) == AF_UNSPEC)
		return -1;
	e = first(tbl, n, IBV_GID_TYPE_ROCE_V2, AF_UNSPEC, raw);
	if (!e)
		e = first(tbl, n, IBV_GID_TYPE_ROCE_V1, AF_UNSPEC, raw);
	return e ? (int)e->gid_index : -1;
}

/* A GID may serve a peer of @family (AF_UNSPEC: any); IB GIDs hold no IP. */
static bool fits(const struct ibv_gid_entry *e, int family)
{
	return !gid_empty(e) && (family == AF_UNSPEC || e->gid_type == IBV_GID_TYPE_IB ||
				 gid_family(e->gid.raw) == family);
}

/* "1 (RoCE v2 ::ffff:192.0.2.1)" */
static void sb_entry(struct sbuf *b, const struct ibv_gid_entry *e)
{
	char a[INET6_ADDRSTRLEN];

	rb_gid_str(&e->gid, a, sizeof(a));
	sb_add(b, "%u (%s %s)", e->gid_index, rb_gid_type_str(e->gid_type), a);
}

/* "0 (RoCE v2 fe80::1), 1 (RoCE v2 ::ffff:192.0.2.1)" in table order, or "none". */
static void sb_list(struct sbuf *b, const struct ibv_gid_entry *tbl, size_t n, int family)
{
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!fits(&tbl[i], family))
			continue;
		sb_add(b, any ? ", " : "");
		sb_entry(b, &tbl[i]);
		any = true;
	}
	if (!any)
		sb_add(b, "none");
}

static const struct ibv_gid_entry *by_index(const struct ibv_gid_entry *tbl, size_t n, int index)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (index >= 0 && tbl[i].gid_index == (uint32_t)index)
			return &tbl[i];
	return NULL;
}

/* The family the peer is reached over: the local address's, else the caller's. */
static int peer_family(const struct rb_gid_want *w)
{
	int fam = w->family != AF_UNSPEC ? w->family : rb_addr_family(w->local);

	if (fam == AF_UNSPEC && (w->peer_family == AF_INET || w->peer_family == AF_INET6))
		fam = w->peer_family;
	return fam;
}

static int check_forced(const struct ibv_gid_entry *tbl, size_t n, const struct rb_gid_want *w,
			int *index, struct sbuf *b)
{
	const struct ibv_gid_entry *e = by_index(tbl, n, w->forced);
	int fam = peer_family(w);

	if (e && fits(e, fam)) {
		sb_add(b, "GID ");
		sb_entry(b, e);
		sb_add(b, ", set by -x/--gid-index");
		*index = w->forced;
		return 0;
	}
	if (!e || gid_empty(e)) {
		sb_add(b, "-x/--gid-index %d: GID %d is empty", w->forced, w->forced);
	} else {
		sb_add(b, "-x/--gid-index %d: GID ", w->forced);
		sb_entry(b, e);
		sb_add(b, " holds an %s address, the peer is reached over %s",
		       family_str(gid_family(e->gid.raw)), family_str(fam));
	}
	sb_add(b, "; valid: ");
	sb_list(b, tbl, n, fam);
	return -EINVAL;
}

/* Why a GID that only matches the peer's family @fam: what was known of the peer. */
static void why_first(struct sbuf *b, const struct rb_gid_want *w, int fam)
{
	char a[INET6_ADDRSTRLEN];

	sb_add(b, "is the first %s one", family_str(fam));
	if (w->family != AF_UNSPEC) {
		sb_add(b, " (--ipv6)");
	} else if (rb_addr_family(w->local) != AF_UNSPEC) {
		rb_addr_str(w->local, a, sizeof(a));
		sb_add(b, "; no GID holds %s, the local address of the out-of-band connection", a);
	} else if (fam == w->peer_family) {
		sb_add(b, ", the peer's family");
	} else {
		sb_add(b, " (the peer's address family is unknown)");
	}
}

static int choose_auto(const struct ibv_gid_entry *tbl, size_t n, const struct rb_gid_want *w,
		       int *index, struct sbuf *b)
{
	static const uint32_t types[] = { IBV_GID_TYPE_ROCE_V2, IBV_GID_TYPE_ROCE_V1 };
	const struct ibv_gid_entry *e;
	char a[INET6_ADDRSTRLEN];
	int fam = peer_family(w);
	uint8_t raw[16];
	int lf = addr_raw(w->local, raw);
	/* The local address's GID, when it is of the family wanted (--ipv6) */
	bool have = lf != AF_UNSPEC && lf == fam;
	size_t t;

	if (fam == AF_UNSPEC)
		fam = AF_INET; /* as perftest users expect */
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		e = have ? first(tbl, n, types[t], AF_UNSPEC, raw) : NULL;
		if (e) {
			rb_addr_str(w->local, a, sizeof(a));
			sb_add(b,
			       "%s GID %u holds %s, the local address of the out-of-band "
			       "connection",
			       rb_gid_type_str(types[t]), e->gid_index, a);
		} else {
			e = first(tbl, n, types[t], fam, NULL);
			if (e) {
				sb_add(b, "%s GID %u ", rb_gid_type_str(types[t]), e->gid_index);
				why_first(b, w, fam);
			}
		}
		if (e) {
			if (t)
				sb_add(b, "; no %s RoCE v2 GID", family_str(fam));
			*index = (int)e->gid_index;
			return 0;
		}
	}
	sb_add(b, "no RoCE GID with an %s address (GIDs: ", family_str(fam));
	sb_list(b, tbl, n, AF_UNSPEC);
	sb_add(b,
	       "); give the network interface an %s address, or choose a GID with "
	       "-x/--gid-index",
	       family_str(fam));
	return -ENOENT;
}

int rb_gid_choose(const struct ibv_gid_entry *tbl, size_t n, const struct rb_gid_want *w,
		  int *index, char *msg, size_t len)
{
	struct sbuf b = { msg, len, 0 };

	if (len)
		msg[0] = '\0';
	*index = -1;
	if (w->forced >= 0)
		return check_forced(tbl, n, w, index, &b);
	if (!w->ethernet) {
		sb_add(&b, "%s",
		       w->no_gid_why ? w->no_gid_why : "InfiniBand port: addressed by LID, no GRH");
		return 0;
	}
	return choose_auto(tbl, n, w, index, &b);
}

/* ---- the network interface for the Soft-RoCE hint -------------------- */

int rb_route_default_if(const char *text, char *ifname, size_t len)
{
	const char *line = text;
	unsigned long dest, mask, gw;
	unsigned int flags;
	int metric, best = -1;
	char name[IF_NAMESIZE + 1];

	while (line && *line) {
		if (sscanf(line, "%16s %lx %lx %x %*d %*d %d %lx", name, &dest, &gw, &flags,
			   &metric, &mask) == 6 &&
		    !dest && !mask && (flags & 1 /* RTF_UP */) && (best < 0 || metric < best)) {
			best = metric;
			snprintf(ifname, len, "%s", name);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return best < 0 ? -ENOENT : 0;
}

static int default_route_if(char *ifname, size_t len)
{
	char text[16384];
	size_t got;
	FILE *f = fopen("/proc/net/route", "r");

	if (!f)
		return -errno;
	got = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[got] = '\0';
	return rb_route_default_if(text, ifname, len);
}

int rb_guess_netdev(char *ifname, size_t len)
{
	struct ifaddrs *list, *i;
	int ret = -ENOENT;

	if (!default_route_if(ifname, len))
		return 0;
	if (getifaddrs(&list))
		return -errno;
	for (i = list; i && ret; i = i->ifa_next) {
		if (!i->ifa_addr || (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP) ||
		    (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
			continue;
		snprintf(ifname, len, "%s", i->ifa_name);
		ret = 0;
	}
	freeifaddrs(list);
	return ret;
}
