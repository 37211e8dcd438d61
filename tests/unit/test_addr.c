// SPDX-License-Identifier: MIT
/*
 * Unit tests for the GID choice (src/addr.c) on GID tables written here:
 * the local address of the out-of-band connection first, then the peer's
 * family, RoCE v2 before v1, LID on InfiniBand, and -x refused with the
 * valid indexes listed.  Also the default-route reading behind the
 * Soft-RoCE hint.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rdma/addr.h"

#define V1   IBV_GID_TYPE_ROCE_V1
#define V2   IBV_GID_TYPE_ROCE_V2
#define IB   IBV_GID_TYPE_IB
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const LL = "fe80::5054:ff:fe12:3456";

/* One GID table entry; @addr is IPv6 text ("::ffff:192.0.2.1" for IPv4), NULL: empty. */
static struct ibv_gid_entry ent(uint32_t index, uint32_t type, const char *addr)
{
	struct ibv_gid_entry e = { .gid_index = index, .port_num = 1, .gid_type = type };

	if (addr)
		assert_int_equal(inet_pton(AF_INET6, addr, e.gid.raw), 1);
	return e;
}

/* A socket address from text: IPv4 when it parses as such, else IPv6. */
static struct sockaddr_storage sa(const char *addr)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		return ss;
	}
	assert_int_equal(inet_pton(AF_INET6, addr, &in6->sin6_addr), 1);
	in6->sin6_family = AF_INET6;
	return ss;
}

/* The table rxe shows in the lab, plus a second IPv4 and a global IPv6 address. */
static struct ibv_gid_entry rxe_tbl[4];

static int setup_rxe(void **state)
{
	(void)state;
	rxe_tbl[0] = ent(0, V2, LL);
	rxe_tbl[1] = ent(1, V2, "::ffff:192.0.2.1");
	rxe_tbl[2] = ent(2, V2, "::ffff:192.0.2.2");
	rxe_tbl[3] = ent(3, V2, "2001:db8::2");
	return 0;
}

/* Choose with @local ("" or NULL: unknown), @peer_family and -x @forced. */
static int choose(const struct ibv_gid_entry *tbl, size_t n, bool eth, const char *local,
		  int peer_family, int forced, int *index, char *msg, size_t len)
{
	struct sockaddr_storage ss;
	struct rb_gid_want w = { .ethernet = eth, .peer_family = peer_family, .forced = forced };

	if (local) {
		ss = sa(local);
		w.local = (const struct sockaddr *)&ss;
	}
	return rb_gid_choose(tbl, n, &w, index, msg, len);
}

#define CHOSEN(tbl, eth, local, fam, forced, want_index, needle)                                 \
	do {                                                                                     \
		char m_[512];                                                                    \
		int i_ = -2;                                                                     \
		assert_int_equal(choose((tbl), N(tbl), (eth), (local), (fam), (forced), &i_, m_, \
					sizeof(m_)),                                             \
				 0);                                                             \
		assert_int_equal(i_, (want_index));                                              \
		if (!strstr(m_, (needle)))                                                       \
			fail_msg("why '%s' lacks '%s'", m_, (needle));                           \
	} while (0)

#define REFUSED(tbl, eth, local, fam, forced, err, needle)                                       \
	do {                                                                                     \
		char m_[512];                                                                    \
		int i_ = -2;                                                                     \
		assert_int_equal(choose((tbl), N(tbl), (eth), (local), (fam), (forced), &i_, m_, \
					sizeof(m_)),                                             \
				 (err));                                                         \
		if (!strstr(m_, (needle)))                                                       \
			fail_msg("message '%s' lacks '%s'", m_, (needle));                       \
	} while (0)

static void ipv4_local_picks_mapped_gid(void **state)
{
	/* mlx5 lists each address twice, RoCE v1 then v2. */
	struct ibv_gid_entry mlx[] = { ent(0, V1, LL), ent(1, V2, LL),
				       ent(2, V1, "::ffff:192.0.2.2"),
				       ent(3, V2, "::ffff:192.0.2.2") };

	(void)state;
	CHOSEN(rxe_tbl, true, "192.0.2.2", AF_INET, -1, 2,
	       "RoCE v2 GID 2 holds 192.0.2.2, the local address of the out-of-band connection");
	CHOSEN(rxe_tbl, true, "192.0.2.1", AF_UNSPEC, -1, 1, "GID 1 holds 192.0.2.1");
	CHOSEN(mlx, true, "192.0.2.2", AF_INET, -1, 3, "RoCE v2 GID 3 holds 192.0.2.2");
}

static void ipv6_local_picks_ipv6_gid(void **state)
{
	(void)state;
	CHOSEN(rxe_tbl, true, "2001:db8::2", AF_INET6, -1, 3, "RoCE v2 GID 3 holds 2001:db8::2");
	CHOSEN(rxe_tbl, true, LL, AF_INET6, -1, 0, "GID 0 holds fe80::5054:ff:fe12:3456");
}

/* --ipv6: the first IPv6 RoCE v2 GID though the OOB connection is IPv4. */
static void ipv6_flag_over_ipv4(void **state)
{
	struct rb_gid_want w = { .ethernet = true, .forced = -1, .family = AF_INET6 };
	struct sockaddr_storage ss = sa("192.0.2.2");
	char m[512];
	int i = -2;

	(void)state;
	w.local = (const struct sockaddr *)&ss;
	assert_int_equal(rb_gid_choose(rxe_tbl, N(rxe_tbl), &w, &i, m, sizeof(m)), 0);
	assert_int_equal(i, 0);
	assert_non_null(strstr(m, "RoCE v2 GID 0 is the first IPv6 one (--ipv6)"));
	/* -x of an IPv4 GID with it: refused, the IPv6 ones listed */
	w.forced = 2;
	assert_int_equal(rb_gid_choose(rxe_tbl, N(rxe_tbl), &w, &i, m, sizeof(m)), -EINVAL);
	assert_non_null(strstr(m, "the peer is reached over IPv6"));
	w.forced = 3;
	assert_int_equal(rb_gid_choose(rxe_tbl, N(rxe_tbl), &w, &i, m, sizeof(m)), 0);
	assert_int_equal(i, 3);
	/* no IPv6 GID at all: refused, naming the family */
	w.forced = -1;
	assert_int_equal(rb_gid_choose(rxe_tbl + 1, 2, &w, &i, m, sizeof(m)), -ENOENT);
	assert_non_null(strstr(m, "no RoCE GID with an IPv6 address"));
}

/* An AF_INET6 socket to an IPv4 peer has a ::ffff:a.b.c.d local address. */
static void mapped_sockaddr_is_ipv4(void **state)
{
	struct sockaddr_storage ss = sa("::ffff:192.0.2.2");
	char buf[64];

	(void)state;
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(rb_addr_family((struct sockaddr *)&ss), AF_INET);
	rb_addr_str((struct sockaddr *)&ss, buf, sizeof(buf));
	assert_string_equal(buf, "192.0.2.2");
	/* Held: the IPv4 GID, named as IPv4; the caller's AF_INET6 is overruled. */
	CHOSEN(rxe_tbl, true, "::ffff:192.0.2.2", AF_INET6, -1, 2, "GID 2 holds 192.0.2.2,");
	/* Not held: the first IPv4 GID, not the link-local IPv6 one. */
	CHOSEN(rxe_tbl, true, "::ffff:10.0.0.5", AF_INET6, -1, 1,
	       "RoCE v2 GID 1 is the first IPv4 one; no GID holds 10.0.0.5");
	/* And -x of an IPv6 GID is the wrong family for it. */
	REFUSED(rxe_tbl, true, "::ffff:192.0.2.2", AF_INET6, 0, -EINVAL,
		"the peer is reached over IPv4");
}

static void fallbacks_in_order(void **state)
{
	struct ibv_gid_entry v1_only[] = { ent(0, V1, LL), ent(1, V1, "::ffff:192.0.2.1"),
					   ent(2, V1, "::ffff:192.0.2.2") };
	struct ibv_gid_entry mixed[] = { ent(0, V1, "::ffff:192.0.2.2"),
					 ent(1, V2, "::ffff:192.0.2.9") };
	struct ibv_gid_entry unordered[] = { ent(7, V2, "::ffff:192.0.2.7"), ent(4, V2, NULL),
					     ent(5, V2, "::ffff:192.0.2.5"), ent(0, V2, LL) };
	struct ibv_gid_entry v6_only[] = { ent(0, V2, LL), ent(1, V2, "2001:db8::1") };

	(void)state;
	/* 1. Not held: the first RoCE v2 GID of the peer's family. */
	CHOSEN(rxe_tbl, true, "10.0.0.5", AF_INET, -1, 1,
	       "RoCE v2 GID 1 is the first IPv4 one; no GID holds 10.0.0.5, the local address");
	CHOSEN(rxe_tbl, true, "2001:db8::99", AF_INET6, -1, 0,
	       "RoCE v2 GID 0 is the first IPv6 one");
	/* ... which comes before a RoCE v1 GID holding the address. */
	CHOSEN(mixed, true, "192.0.2.2", AF_INET, -1, 1, "RoCE v2 GID 1 is the first IPv4 one");
	/* 2. RoCE v1: the GID holding the address, else the first of the family. */
	CHOSEN(v1_only, true, "192.0.2.2", AF_INET, -1, 2,
	       "RoCE v1 GID 2 holds 192.0.2.2, the local address of the out-of-band connection; "
	       "no IPv4 RoCE v2 GID");
	CHOSEN(v1_only, true, "10.0.0.5", AF_INET, -1, 1, "RoCE v1 GID 1 is the first IPv4 one");
	/* First means the lowest index, whatever the order; empty entries do not count. */
	CHOSEN(unordered, true, "10.0.0.5", AF_INET, -1, 5, "GID 5 is the first IPv4 one");
	/* Local address unknown: the peer's family when given, else IPv4 as before. */
	CHOSEN(rxe_tbl, true, NULL, AF_INET6, -1, 0,
	       "GID 0 is the first IPv6 one, the peer's family");
	CHOSEN(rxe_tbl, true, NULL, AF_INET, -1, 1,
	       "GID 1 is the first IPv4 one, the peer's family");
	CHOSEN(rxe_tbl, true, NULL, AF_UNSPEC, -1, 1, "the peer's address family is unknown");
	/* 3. Nothing of the family on Ethernet: an error saying what there is. */
	REFUSED(v6_only, true, "192.0.2.2", AF_INET, -1, -ENOENT,
		"no RoCE GID with an IPv4 address (GIDs: 0 (RoCE v2 fe80::5054:ff:fe12:3456), "
		"1 (RoCE v2 2001:db8::1)); give the network interface an IPv4 address, or choose "
		"a GID with -x/--gid-index");
}

static void infiniband_uses_lid(void **state)
{
	struct ibv_gid_entry ib[] = { ent(0, IB, "fe80::2:c903:a:1b2c"),
				      ent(1, IB, "fec0::2:c903:a:1b2c") };
	char m[256];
	int i = 5;

	(void)state;
	CHOSEN(ib, false, "192.0.2.2", AF_INET, -1, -1, "InfiniBand port: addressed by LID");
	CHOSEN(ib, false, NULL, AF_UNSPEC, -1, -1, "addressed by LID, no GRH");
	/* verbs.c does not read the table for this: none is needed. */
	assert_int_equal(choose(NULL, 0, false, NULL, AF_UNSPEC, -1, &i, m, sizeof(m)), 0);
	assert_int_equal(i, -1);
	/* -x on InfiniBand: a GRH with that GID, whatever the peer's IP family. */
	CHOSEN(ib, false, "192.0.2.2", AF_INET, 1, 1, "GID 1 (IB fec0::2:c903:a:1b2c), set by -x");
}

static void forced_index(void **state)
{
	struct ibv_gid_entry holes[] = { ent(0, V2, LL), ent(1, V2, NULL),
					 ent(2, V2, "::ffff:192.0.2.2") };

	(void)state;
	CHOSEN(rxe_tbl, true, "192.0.2.2", AF_INET, 1, 1,
	       "GID 1 (RoCE v2 ::ffff:192.0.2.1), set by -x/--gid-index");
	/* Missing from the table, or all zero: empty, and the valid ones listed. */
	REFUSED(rxe_tbl, true, "192.0.2.2", AF_INET, 9, -EINVAL,
		"-x/--gid-index 9: GID 9 is empty; valid: 1 (RoCE v2 ::ffff:192.0.2.1), "
		"2 (RoCE v2 ::ffff:192.0.2.2)");
	REFUSED(holes, true, NULL, AF_UNSPEC, 1, -EINVAL,
		"-x/--gid-index 1: GID 1 is empty; valid: 0 (RoCE v2 fe80::5054:ff:fe12:3456), "
		"2 (RoCE v2 ::ffff:192.0.2.2)");
	/* Another family than the peer's. */
	REFUSED(rxe_tbl, true, "192.0.2.2", AF_INET, 0, -EINVAL,
		"-x/--gid-index 0: GID 0 (RoCE v2 fe80::5054:ff:fe12:3456) holds an IPv6 "
		"address, the peer is reached over IPv4; valid: 1 (RoCE v2 ::ffff:192.0.2.1), "
		"2 (RoCE v2 ::ffff:192.0.2.2)");
	REFUSED(rxe_tbl, true, NULL, AF_INET6, 2, -EINVAL,
		"holds an IPv4 address, the peer is reached over IPv6; valid: 0 (RoCE v2 "
		"fe80::5054:ff:fe12:3456), 3 (RoCE v2 2001:db8::2)");
	/* Family unknown (the old call): any non-empty GID, as before. */
	CHOSEN(rxe_tbl, true, NULL, AF_UNSPEC, 0, 0, "set by -x/--gid-index");
}

/* A short buffer cuts the message, never overruns it. */
static void message_cut_to_buffer(void **state)
{
	char m[24];
	int i;

	(void)state;
	memset(m, 'x', sizeof(m));
	assert_int_equal(choose(rxe_tbl, N(rxe_tbl), true, "192.0.2.2", AF_INET, 9, &i, m, 16),
			 -EINVAL);
	assert_int_equal(strlen(m), 15);
	assert_int_equal(m[16], 'x');
}

static void find_for_device_choice(void **state)
{
	struct ibv_gid_entry mixed[] = { ent(0, V1, "::ffff:192.0.2.2"),
					 ent(3, V2, "::ffff:192.0.2.2"), ent(5, IB, LL) };
	struct sockaddr_storage ss;
	struct sockaddr un = { .sa_family = AF_UNIX };

	(void)state;
	ss = sa("192.0.2.2");
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), (struct sockaddr *)&ss), 2);
	assert_int_equal(rb_gid_find(mixed, N(mixed), (struct sockaddr *)&ss), 3);
	assert_int_equal(rb_gid_find(mixed, 1, (struct sockaddr *)&ss), 0);
	ss = sa("::ffff:192.0.2.1");
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), (struct sockaddr *)&ss), 1);
	ss = sa("2001:db8::2");
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), (struct sockaddr *)&ss), 3);
	ss = sa("192.0.2.3");
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), (struct sockaddr *)&ss), -1);
	/* InfiniBand GIDs hold no IP address, even when the bytes agree. */
	ss = sa(LL);
	assert_int_equal(rb_gid_find(mixed, N(mixed), (struct sockaddr *)&ss), -1);
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), NULL), -1);
	assert_int_equal(rb_gid_find(rxe_tbl, N(rxe_tbl), &un), -1);
}

static void names(void **state)
{
	union ibv_gid g = { 0 };
	char buf[64];

	(void)state;
	assert_string_equal(rb_gid_type_str(V2), "RoCE v2");
	assert_string_equal(rb_gid_type_str(V1), "RoCE v1");
	assert_string_equal(rb_gid_type_str(IB), "IB");
	g.raw[10] = g.raw[11] = 0xff;
	g.raw[12] = 192;
	g.raw[14] = 2;
	g.raw[15] = 1;
	rb_gid_str(&g, buf, sizeof(buf));
	assert_string_equal(buf, "::ffff:192.0.2.1");
	rb_addr_str(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "?");
	assert_int_equal(rb_addr_family(NULL), AF_UNSPEC);
}

static void default_route(void **state)
{
	static const char hdr[] = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\t"
				  "Mask\t\tMTU\tWindow\tIRTT\n";
	char text[1024], ifname[17];

	(void)state;
	snprintf(text, sizeof(text),
		 "%s"
		 "eth1\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
		 "wlan0\t00000000\t0102A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
		 "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
		 "down0\t00000000\t0100000A\t0002\t0\t0\t1\t00000000\t0\t0\t0\n",
		 hdr);
	assert_int_equal(rb_route_default_if(text, ifname, sizeof(ifname)), 0);
	assert_string_equal(ifname, "eth0");
	snprintf(text, sizeof(text),
		 "%seth1\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n", hdr);
	assert_int_equal(rb_route_default_if(text, ifname, sizeof(ifname)), -ENOENT);
	assert_int_equal(rb_route_default_if("", ifname, sizeof(ifname)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipv4_local_picks_mapped_gid),
		cmocka_unit_test(ipv6_local_picks_ipv6_gid),
		cmocka_unit_test(ipv6_flag_over_ipv4),
		cmocka_unit_test(mapped_sockaddr_is_ipv4),
		cmocka_unit_test(fallbacks_in_order),
		cmocka_unit_test(infiniband_uses_lid),
		cmocka_unit_test(forced_index),
		cmocka_unit_test(message_cut_to_buffer),
		cmocka_unit_test(find_for_device_choice),
		cmocka_unit_test(names),
		cmocka_unit_test(default_route),
	};

	return cmocka_run_group_tests(tests, setup_rxe, NULL);
}
