// SPDX-License-Identifier: MIT
/*
 * counters.c and counters_wire.c: reading the fake sysfs trees of
 * tests/data/sysfs (see its README), --counters, deltas with wraps, the
 * derived figures, error flags, JSON, and the wire form against truncated
 * and hostile bodies.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/provider.h"
#include "rdma/counters.h"
#include "tree_fx.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

#define ROOT TEST_DATA_DIR "/sysfs/basic"

static struct rb_counter_set set, set2, out;

static uint64_t val(const struct rb_counter_set *s, const char *name)
{
	const struct rb_counter *c = rb_counters_find(s, name);

	if (!c)
		fail_msg("no counter \"%s\"", name);
	return c->value;
}

static void put(struct rb_counter_set *s, const char *name, uint64_t v, enum rb_ctr_src src)
{
	struct rb_counter *c = &s->c[s->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->value = v;
	c->src = (uint8_t)src;
	c->kind = (uint8_t)rb_counters_kind(name);
	c->scale = src == RB_CTR_SRC_PORT && strstr(name, "_data") ? 4 : 1;
}

static void empty(struct rb_counter_set *s, enum rb_prov_id d)
{
	memset(s, 0, offsetof(struct rb_counter_set, c));
	s->driver = (uint8_t)d;
	s->netdev_rdma = rb_counters_netdev_rdma(d); /* as a peer's set has it */
}

/* ---- reading ------------------------------------------------------------ */

static void test_read_rxe(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, "eth0", &set), 0);
	assert_int_equal(set.driver, RB_PROV_RXE);
	assert_string_equal(set.device, "rxe0");
	assert_int_equal(set.port, 1);
	/* 15 hw counters of Debian 12's rxe, then 10 netdev statistics. */
	assert_int_equal(set.n, 25);
	assert_string_equal(set.c[0].name, "ack_deferred"); /* sorted */
	assert_int_equal(val(&set, "sent_pkts"), 1200);
	assert_int_equal(val(&set, "completer_retry_err"), 3);
	assert_int_equal(val(&set, "netdev_tx_bytes"), 1500000);
	assert_null(rb_counters_find(&set, "netdev_collisions"));
	assert_null(rb_counters_find(&set, "lifespan"));
	assert_int_equal(set.lifespan_ms, 10);
	assert_null(rb_counters_find(&set, "port_xmit_data"));
	assert_int_equal(rb_counters_find(&set, "sent_pkts")->kind, RB_CTR_TRAFFIC);
	assert_int_equal(rb_counters_find(&set, "rcvd_seq_err")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "ack_deferred")->kind, RB_CTR_OTHER);
	assert_int_equal(rb_counters_find(&set, "netdev_rx_dropped")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "netdev_tx_bytes")->src, RB_CTR_SRC_NETDEV);
	for (i = 0; i < set.n; i++)
		assert_int_equal(set.c[i].scale, 1);

	/* Without a netdev: the device's own counters only. */
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, NULL, &set), 0);
	assert_int_equal(set.n, 15);
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, "", &set), 0);
	assert_int_equal(set.n, 15);
}

static void test_read_mlx5(void **state)
{
	const struct rb_counter *c;

	(void)state;
	assert_int_equal(rb_counters_read(ROOT, "mlx5_0", 1, "ens1f0np0", &set), 0);
	assert_int_equal(set.driver, RB_PROV_MLX5);
	c = rb_counters_find(&set, "port_xmit_data");
	assert_non_null(c);
	assert_int_equal(c->value, 250000000);
	assert_int_equal(c->scale, 4);
	assert_int_equal(c->src, RB_CTR_SRC_PORT);
	assert_int_equal(rb_counters_find(&set, "port_xmit_packets")->scale, 1);
	/* link_downed in both directories: the hw one is renamed. */
	assert_int_equal(rb_counters_find(&set, "link_downed")->src, RB_CTR_SRC_PORT);
	assert_int_equal(rb_counters_find(&set, "hw_link_downed")->src, RB_CTR_SRC_HW);
	/* A setting and three files that are no counter are skipped. */
	assert_null(rb_counters_find(&set, "lifespan"));
	assert_int_equal(set.lifespan_ms, 20);
	assert_null(rb_counters_find(&set, "bogus_text"));
	assert_null(rb_counters_find(&set, "bogus_neg"));
	assert_null(rb_counters_find(&set, "bogus_big"));
	assert_int_equal(rb_counters_find(&set, "np_cnp_sent")->kind, RB_CTR_CONGESTION);
	assert_int_equal(rb_counters_find(&set, "np_ecn_marked_roce_packets")->kind,
			 RB_CTR_CONGESTION);
	assert_int_equal(rb_counters_find(&set, "port_xmit_wait")->kind, RB_CTR_CONGESTION);
	assert_int_equal(rb_counters_find(&set, "out_of_sequence")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "local_ack_timeout_err")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "VL15_dropped")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "rx_write_requests")->kind, RB_CTR_TRAFFIC);
	assert_int_equal(val(&set, "netdev_rx_packets"), 1150);
}

static void test_read_errors(void **state)
{
	(void)state;
	assert_int_equal(rb_counters_read(ROOT, "../x", 1, NULL, &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "..", 1, NULL, &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "", 1, NULL, &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 0, NULL, &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 256, NULL, &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, "../../etc", &set), -EINVAL);
	assert_int_equal(rb_counters_read(ROOT, "nosuch0", 1, NULL, &set), -ENOENT);
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 2, NULL, &set), -ENOENT);
	assert_int_equal(rb_counters_read("/nonexistent", "rxe0", 1, NULL, &set), -ENOENT);
	/* A netdev that does not exist adds nothing; not an error. */
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, "eth9", &set), 0);
	assert_int_equal(set.n, 15);
	/* A port without counter directories: an empty set, of siw's (by its name). */
	assert_int_equal(rb_counters_read(ROOT, "siw0", 1, NULL, &set), 0);
	assert_int_equal(set.n, 0);
	assert_int_equal(set.driver, RB_PROV_SIW);
	assert_int_equal(set.lifespan_ms, 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The driver link decides; else the name; else what the device counts. */
static void test_driver(void **state)
{
	char root[] = "/tmp/rb-test-counters-XXXXXX", path[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/class", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/device", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/device/driver", root);
	assert_int_equal(symlink("../../../bus/pci/drivers/mlx5_core", path), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/ports", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/ports/1", root);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(rb_counters_read(root, "roce7", 1, NULL, &set), 0);
	assert_int_equal(set.driver, RB_PROV_MLX5);

	/* An rxe device renamed at "rdma link add": no link, no rxe name. */
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/device/driver", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rb_counters_read(root, "roce7", 1, NULL, &set), 0);
	assert_int_equal(set.driver, RB_PROV_GENERIC);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/ports/1/hw_counters", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/roce7/ports/1/hw_counters/sent_pkts",
		 root);
	write_file(path, "5\n");
	snprintf(path, sizeof(path),
		 "%s/class/infiniband/roce7/ports/1/hw_counters/completer_retry_err", root);
	write_file(path, "0\n");
	assert_int_equal(rb_counters_read(root, "roce7", 1, NULL, &set), 0);
	assert_int_equal(set.driver, RB_PROV_RXE);
	assert_int_equal(rm_tree(root), 0);
}

static void test_rate(void **state)
{
	char root[] = "/tmp/rb-test-rate-XXXXXX", path[PATH_MAX];
	double g = 0;

	(void)state;
	assert_int_equal(rb_port_rate_gbps(ROOT, "mlx5_0", 1, &g), 0);
	assert_true(g == 100.0);
	assert_int_equal(rb_port_rate_gbps(ROOT, "rxe0", 1, &g), 0);
	assert_true(g == 10.0);
	assert_int_equal(rb_port_rate_gbps(ROOT, "rxe0", 2, &g), -ENOENT);
	assert_int_equal(rb_port_rate_gbps(ROOT, "../rxe0", 1, &g), -EINVAL);
	assert_int_equal(rb_port_rate_gbps(ROOT, "rxe0", 0, &g), -EINVAL);
	/* A rate that is not one. */
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/class", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/x0", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/x0/ports", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/x0/ports/1", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/x0/ports/1/rate", root);
	write_file(path, "invalid\n");
	assert_int_equal(rb_port_rate_gbps(root, "x0", 1, &g), -EINVAL);
	write_file(path, "0 Gb/sec (1X SDR)\n");
	assert_int_equal(rb_port_rate_gbps(root, "x0", 1, &g), -EINVAL);
	write_file(path, "25 Mb/sec\n");
	assert_int_equal(rb_port_rate_gbps(root, "x0", 1, &g), -EINVAL);
	write_file(path, "");
	assert_int_equal(rb_port_rate_gbps(root, "x0", 1, &g), -EINVAL);
	assert_int_equal(rm_tree(root), 0);
}

/* ---- --counters ------------------------------------------------------------ */

static void test_spec_parse(void **state)
{
	struct rb_counter_spec sp;
	char err[256], many[RB_CTR_SPEC_MAX];
	int i;

	(void)state;
	assert_int_equal(rb_counters_spec_parse("none", &sp, err, sizeof(err)), 0);
	assert_int_equal(sp.mode, RB_CTRS_NONE);
	assert_int_equal(rb_counters_spec_parse("default", &sp, err, sizeof(err)), 0);
	assert_int_equal(sp.mode, RB_CTRS_DEFAULT);
	assert_int_equal(rb_counters_spec_parse("all", &sp, err, sizeof(err)), 0);
	assert_int_equal(sp.mode, RB_CTRS_ALL);
	assert_int_equal(rb_counters_spec_parse("sent_pkts,np_cnp_sent,sent_pkts", &sp, err,
						sizeof(err)),
			 0);
	assert_int_equal(sp.mode, RB_CTRS_LIST);
	assert_int_equal(sp.n, 2); /* the repeated name once */
	assert_string_equal(sp.names[1], "np_cnp_sent");
	assert_false(sp.with_default);
	assert_int_equal(rb_counters_spec_parse("default,np_cnp_sent", &sp, err, sizeof(err)), 0);
	assert_true(sp.with_default);
	assert_int_equal(sp.n, 1);
	/* perftest's own -W example: the sysfs dir before the name */
	assert_int_equal(rb_counters_spec_parse("counters/port_xmit_data,hw_counters/out_of_buffer",
						&sp, err, sizeof(err)),
			 0);
	assert_int_equal(sp.n, 2);
	assert_string_equal(sp.names[0], "port_xmit_data");
	assert_string_equal(sp.names[1], "out_of_buffer");
	assert_int_equal(rb_counters_spec_parse("counters/", &sp, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_counters_spec_parse("x,hw_counters/a/b", &sp, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "--counters 'x,hw_counters/a/b': at 16: '/' cannot be in a "
				 "counter name");

	assert_int_equal(rb_counters_spec_parse("", &sp, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_counters_spec_parse(NULL, &sp, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_counters_spec_parse("a,,b", &sp, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--counters 'a,,b': at 3: empty name");
	assert_int_equal(rb_counters_spec_parse("a,", &sp, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--counters 'a,': at 3: empty name");
	assert_int_equal(rb_counters_spec_parse("sent_pkts,all", &sp, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--counters 'sent_pkts,all': at 11: all stands alone, not in a "
				 "list");
	assert_int_equal(rb_counters_spec_parse("x,a b", &sp, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--counters 'x,a b': at 4: ' ' cannot be in a counter name");
	assert_int_equal(rb_counters_spec_parse("../etc", &sp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at 3: '/'"));
	memset(many, 'a', 60);
	many[60] = '\0';
	assert_int_equal(rb_counters_spec_parse(many, &sp, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "longer than 47"));
	/* 65 distinct names. */
	many[0] = '\0';
	for (i = 0; i <= RB_CTR_LIST_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sc%d", i ? "," : "",
			 i);
	assert_int_equal(rb_counters_spec_parse(many, &sp, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--counters: more than 64 names");
	memset(many, 'a', sizeof(many) - 1);
	many[sizeof(many) - 1] = '\0';
	assert_int_equal(rb_counters_spec_parse(many, &sp, err, sizeof(err)), -EINVAL);
}

static void test_spec_check_apply(void **state)
{
	struct rb_counter_spec sp;
	char err[512];

	(void)state;
	assert_int_equal(rb_counters_read(ROOT, "rxe0", 1, "eth0", &set), 0);
	assert_int_equal(rb_counters_spec_parse("sent_pkts,port_xmit_data", &sp, err, sizeof(err)),
			 0);
	assert_int_equal(rb_counters_spec_check(&sp, &set, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "rxe0 port 1 has no counter \"port_xmit_data\" (it has: "
				    "ack_deferred, "));
	assert_int_equal(rb_counters_spec_parse("default,rcvd_seq_err", &sp, err, sizeof(err)), 0);
	assert_int_equal(rb_counters_spec_check(&sp, &set, err, sizeof(err)), 0);
	/* The peer's device may lack a name: apply() skips it. */
	assert_int_equal(rb_counters_spec_parse("sent_pkts,port_xmit_data", &sp, err, sizeof(err)),
			 0);
	rb_counters_apply(&sp, &set, &out);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.c[0].name, "sent_pkts");
	assert_string_equal(out.device, "rxe0");

	assert_int_equal(rb_counters_spec_parse("default", &sp, err, sizeof(err)), 0);
	rb_counters_apply(&sp, &set, &out);
	/* rxe's 20 defaults, all present here; not ack_deferred nor tx_errors. */
	assert_int_equal(out.n, 20);
	assert_null(rb_counters_find(&out, "ack_deferred"));
	assert_null(rb_counters_find(&out, "netdev_tx_errors"));
	assert_non_null(rb_counters_find(&out, "completer_retry_err"));

	assert_int_equal(rb_counters_spec_parse("default,ack_deferred", &sp, err, sizeof(err)), 0);
	rb_counters_apply(&sp, &set, &out);
	assert_int_equal(out.n, 21);
	assert_string_equal(out.c[0].name, "ack_deferred"); /* the device's order */

	assert_int_equal(rb_counters_spec_parse("all", &sp, err, sizeof(err)), 0);
	rb_counters_apply(&sp, &set, &out);
	assert_int_equal(out.n, set.n);
	assert_int_equal(rb_counters_spec_parse("none", &sp, err, sizeof(err)), 0);
	rb_counters_apply(&sp, &set, &out);
	assert_int_equal(out.n, 0);

	/* mlx5's defaults on the mlx5 fixture: those it has. */
	assert_int_equal(rb_counters_read(ROOT, "mlx5_0", 1, "ens1f0np0", &set), 0);
	assert_int_equal(rb_counters_spec_parse("default", &sp, err, sizeof(err)), 0);
	rb_counters_apply(&sp, &set, &out);
	assert_non_null(rb_counters_find(&out, "np_cnp_sent"));
	assert_non_null(rb_counters_find(&out, "port_xmit_data"));
	assert_null(rb_counters_find(&out, "netdev_tx_bytes"));
	assert_null(rb_counters_find(&out, "VL15_dropped"));
}

static void test_defaults(void **state)
{
	const char *const *d;
	int n;

	(void)state;
	for (n = 0, d = rb_counters_defaults(RB_PROV_RXE); *d; d++, n++)
		assert_int_not_equal(rb_counters_kind(*d), RB_CTR_OTHER);
	assert_int_equal(n, 20);
	for (d = rb_counters_defaults(RB_PROV_MLX5); *d; d++)
		assert_int_not_equal(rb_counters_kind(*d), RB_CTR_OTHER);
	for (d = rb_counters_defaults(RB_PROV_GENERIC); *d; d++)
		assert_int_not_equal(rb_counters_kind(*d), RB_CTR_OTHER);
	assert_string_equal(rb_counters_driver_name(RB_PROV_MLX5), "mlx5");
	assert_string_equal(rb_counters_driver_name((enum rb_prov_id)99), "generic");
	assert_string_equal(rb_counters_kind_name(RB_CTR_CONGESTION), "congestion");
}

/* ---- deltas ------------------------------------------------------------------ */

static void test_delta(void **state)
{
	struct rb_counter_set *b = &set, *a = &set2;

	(void)state;
	empty(b, RB_PROV_MLX5);
	empty(a, RB_PROV_MLX5);
	put(b, "port_xmit_data", 100, RB_CTR_SRC_PORT);
	put(b, "small", 0xfffffff0u, RB_CTR_SRC_HW);
	put(b, "big", UINT64_MAX - 1, RB_CTR_SRC_HW);
	put(b, "stuck", UINT32_MAX, RB_CTR_SRC_PORT);
	put(b, "gone", 5, RB_CTR_SRC_HW);
	/* After: another order, one new counter, one gone. */
	put(a, "big", 3, RB_CTR_SRC_HW);
	put(a, "port_xmit_data", 350, RB_CTR_SRC_PORT);
	put(a, "small", 0x10, RB_CTR_SRC_HW);
	put(a, "stuck", UINT32_MAX, RB_CTR_SRC_PORT);
	put(a, "new", 9, RB_CTR_SRC_HW);
	rb_counters_delta(b, a, &out);
	assert_int_equal(out.n, 4);
	assert_int_equal(out.driver, RB_PROV_MLX5);
	assert_string_equal(out.c[0].name, "big");
	assert_int_equal(out.c[0].value, 5); /* 2 to the top, 3 past it */
	assert_int_equal(out.c[0].flags, RB_CTRF_WRAPPED);
	assert_int_equal(val(&out, "port_xmit_data"), 250);
	assert_int_equal(rb_counters_find(&out, "port_xmit_data")->flags, 0);
	assert_int_equal(rb_counters_find(&out, "port_xmit_data")->scale, 4);
	assert_int_equal(val(&out, "small"), 0x20);
	assert_int_equal(rb_counters_find(&out, "small")->flags, RB_CTRF_WRAPPED);
	assert_int_equal(val(&out, "stuck"), 0);
	assert_int_equal(rb_counters_find(&out, "stuck")->flags, RB_CTRF_SATURATED);
	assert_null(rb_counters_find(&out, "new"));
	assert_null(rb_counters_find(&out, "gone"));
}

static void test_derive(void **state)
{
	struct rb_counter_derived d;

	(void)state;
	/* mlx5: 250 words = 1000 bytes for 800 of payload; 2 retries. */
	empty(&set, RB_PROV_MLX5);
	put(&set, "port_xmit_data", 250, RB_CTR_SRC_PORT);
	put(&set, "port_rcv_data", 50, RB_CTR_SRC_PORT);
	put(&set, "port_xmit_packets", 400000, RB_CTR_SRC_PORT);
	put(&set, "local_ack_timeout_err", 1, RB_CTR_SRC_HW);
	put(&set, "packet_seq_err", 1, RB_CTR_SRC_HW);
	put(&set, "out_of_sequence", 7, RB_CTR_SRC_HW); /* the responder's view: not counted */
	put(&set, "netdev_tx_bytes", 999999, RB_CTR_SRC_NETDEV);
	rb_counters_derive(&set, 800, false, &d);
	assert_true(d.has_wire);
	assert_string_equal(d.wire_counter, "port_xmit_data");
	assert_true(d.wire_bytes == 1000.0);
	assert_true(d.wire_per_payload == 1.25);
	assert_true(d.has_retrans);
	assert_int_equal(d.retrans, 2);
	assert_int_equal(d.packets, 400000);
	assert_true(d.retrans_per_mpkt == 5.0);
	/* Payload received (read): the receive side's bytes. */
	rb_counters_derive(&set, 100, true, &d);
	assert_string_equal(d.wire_counter, "port_rcv_data");
	assert_true(d.wire_per_payload == 2.0);
	/* No payload: no ratio. */
	rb_counters_derive(&set, 0, false, &d);
	assert_false(d.has_wire);

	/* rxe on Debian 12: netdev bytes, sent_pkts, retry and RNR events. */
	empty(&set, RB_PROV_RXE);
	put(&set, "sent_pkts", 1000, RB_CTR_SRC_HW);
	put(&set, "completer_retry_err", 2, RB_CTR_SRC_HW);
	put(&set, "rcvd_rnr_err", 1, RB_CTR_SRC_HW);
	put(&set, "netdev_tx_bytes", 5000, RB_CTR_SRC_NETDEV);
	put(&set, "netdev_tx_packets", 1, RB_CTR_SRC_NETDEV);
	rb_counters_derive(&set, 4000, false, &d);
	assert_string_equal(d.wire_counter, "netdev_tx_bytes");
	assert_true(d.wire_per_payload == 1.25);
	assert_int_equal(d.retrans, 3);
	assert_int_equal(d.packets, 1000);
	assert_true(d.retrans_per_mpkt == 3000.0);
	/* rxe loopback: nothing crossed a wire. */
	set.c[3].value = 0;
	rb_counters_derive(&set, 4000, false, &d);
	assert_false(d.has_wire);
	assert_true(d.has_retrans);

	/* Another driver: bytes, but no retransmission counters known. */
	empty(&set, RB_PROV_GENERIC);
	put(&set, "port_xmit_data", 10, RB_CTR_SRC_PORT);
	put(&set, "port_xmit_packets", 10, RB_CTR_SRC_PORT);
	put(&set, "completer_retry_err", 2, RB_CTR_SRC_HW);
	rb_counters_derive(&set, 40, false, &d);
	assert_true(d.has_wire);
	assert_false(d.has_retrans);
	/* No packets sent: no rate. */
	empty(&set, RB_PROV_MLX5);
	put(&set, "local_ack_timeout_err", 0, RB_CTR_SRC_HW);
	rb_counters_derive(&set, 40, false, &d);
	assert_false(d.has_retrans);
	assert_false(d.has_wire);
}

/*
 * Wire bytes (issue 37 item 18): netdev statistics stand in for a missing
 * PMA byte counter only where the driver's netdev counts RDMA (rxe, siw);
 * on hardware RoCE (irdma here, by its driver link) the figure is null
 * with the reason, and so is a PMA counter saturated at 2^32-1.
 */
static void test_derive_wire_known(void **state)
{
	char root[] = "/tmp/rb-test-counters-XXXXXX", path[PATH_MAX];
	struct rb_counter_derived d;
	json_t *j;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/class/infiniband/irdma0/ports/1", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/class/infiniband/irdma0/device", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/class/infiniband/irdma0/device/driver", root);
	assert_int_equal(symlink("../../../bus/auxiliary/drivers/irdma", path), 0);
	snprintf(path, sizeof(path), "%s/class/infiniband/siw_eth0/ports/1", root);
	mkdirs(path);
	assert_int_equal(rb_counters_read(root, "irdma0", 1, NULL, &set), 0);
	assert_false(set.netdev_rdma);
	put(&set, "netdev_tx_bytes", 5000000, RB_CTR_SRC_NETDEV);
	rb_counters_derive(&set, 4000000, false, &d);
	assert_false(d.has_wire);
	assert_string_equal(d.wire_counter, "netdev_tx_bytes");
	assert_non_null(strstr(d.wire_unknown, "do not count its RDMA traffic"));
	j = rb_counters_derived_json(&d);
	assert_true(json_is_null(json_object_get(j, "wire_bytes_per_payload_byte")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "wire_unknown")), "netdev"));
	json_decref(j);
	/* siw, by its name: its netdev carries its packets. */
	assert_int_equal(rb_counters_read(root, "siw_eth0", 1, NULL, &set), 0);
	assert_true(set.netdev_rdma);
	put(&set, "netdev_tx_bytes", 5000000, RB_CTR_SRC_NETDEV);
	rb_counters_derive(&set, 4000000, false, &d);
	assert_true(d.has_wire);
	assert_null(d.wire_unknown);
	assert_true(d.wire_per_payload == 1.25);
	assert_int_equal(rm_tree(root), 0);
	/* A peer's set knows its driver alone: rxe's netdev counts, a generic one's not. */
	assert_true(rb_counters_netdev_rdma(RB_PROV_RXE));
	assert_false(rb_counters_netdev_rdma(RB_PROV_GENERIC));
	assert_false(rb_counters_netdev_rdma(RB_PROV_MLX5));

	/* A saturated 32-bit PMA counter: no ratio. */
	empty(&set, RB_PROV_GENERIC);
	put(&set, "port_xmit_data", UINT32_MAX, RB_CTR_SRC_PORT);
	set.c[0].flags = RB_CTRF_SATURATED;
	rb_counters_derive(&set, 800, false, &d);
	assert_false(d.has_wire);
	assert_non_null(strstr(d.wire_unknown, "2^32-1"));
}

/*
 * The relaxed-ordering facts (issue 37 item 17) are the provider table's
 * (issue 45: no provider fact outside it): by driver, else by name, else
 * by PCI vendor (an irdma known by its vendor alone: unknown before, when
 * these facts had a table of their own without vendors); the netdev fact
 * beside them.
 */
static void test_driver_facts(void **state)
{
	(void)state;
	assert_int_equal(rb_prov_identify("irdma", "rocep1s0", 0)->relaxed, RB_RELAXED_IGNORED);
	assert_int_equal(rb_prov_identify(NULL, "rocep1s0", 0x8086)->relaxed, RB_RELAXED_IGNORED);
	assert_int_equal(rb_prov_identify("efa", NULL, 0)->relaxed, RB_RELAXED_IGNORED);
	assert_int_equal(rb_prov_identify("bnxt_re", NULL, 0)->relaxed, RB_RELAXED_IGNORED);
	assert_int_equal(rb_prov_identify(NULL, "rxe0", 0)->relaxed, RB_RELAXED_IGNORED);
	assert_string_equal(rb_prov_identify(NULL, "siw0", 0)->relaxed_why, "ignored: a software "
									    "device, with no PCIe "
									    "write to order");
	/* The netdev fact is the provider table's (rxe and siw only). */
	assert_true(rb_prov_identify(NULL, "rxe0", 0)->netdev_carries_rdma);
	assert_true(rb_prov_identify("siw", "siw0", 0)->netdev_carries_rdma);
	assert_int_equal(rb_prov_identify("mlx5_core", "mlx5_0", 0)->relaxed, RB_RELAXED_UNKNOWN);
	assert_false(rb_prov_identify("mlx5_core", "mlx5_0", 0)->netdev_carries_rdma);
	assert_false(rb_prov_identify("irdma", "rocep1s0", 0)->netdev_carries_rdma);
	assert_false(rb_prov_identify("acme", "acme0", 0)->netdev_carries_rdma);
	assert_int_equal(rb_prov_identify("acme", "acme0", 0)->relaxed, RB_RELAXED_UNKNOWN);
	assert_non_null(strstr(rb_prov_identify("acme", "acme0", 0)->relaxed_why, "no facts"));
	assert_int_equal(rb_prov_identify(NULL, NULL, 0)->relaxed, RB_RELAXED_UNKNOWN);
	for (unsigned int i = 0; i < RB_PROV_COUNT; i++) /* the JSON's words, every row */
		assert_non_null(rb_prov_get(i)->relaxed_why);
}

static void test_payload_rx(void **state)
{
	(void)state;
	assert_true(rb_counters_payload_rx(&rb_bench_read_bw, false));
	assert_false(rb_counters_payload_rx(&rb_bench_read_bw, true));
	assert_true(rb_counters_payload_rx(&rb_bench_read_lat, false));
	assert_true(rb_counters_payload_rx(&rb_bench_atomic_lat, false));
	assert_false(rb_counters_payload_rx(&rb_bench_atomic_bw, true));
	assert_false(rb_counters_payload_rx(&rb_bench_write_bw, false));
	assert_true(rb_counters_payload_rx(&rb_bench_write_bw, true));
	assert_true(rb_counters_payload_rx(&rb_bench_send_bw, true));
	assert_false(rb_counters_payload_rx(&rb_bench_send_lat, false));
	assert_false(rb_counters_payload_rx(&rb_bench_send_lat, true));
	assert_false(rb_counters_payload_rx(&rb_bench_write_lat, true));
}

/*
 * Retransmissions per provider (core/provider.h): bnxt_re's three, read
 * from a device known by its PCI vendor only; EFA's retrans_pkts over
 * tx_pkts; mlx5's netdev counts no RDMA, so no wire bytes from it.
 */
static void test_provider_counters(void **state)
{
	struct rb_counter_derived d;

	(void)state;
	assert_int_equal(rb_counters_read(ROOT, "rocep1s0f0", 1, NULL, &set), 0);
	assert_int_equal(set.driver, RB_PROV_BNXT_RE);
	assert_string_equal(rb_counters_driver_name(set.driver), "bnxt_re");
	assert_int_equal(rb_counters_find(&set, "seq_err_naks_rcvd")->kind, RB_CTR_ERROR);
	assert_int_equal(rb_counters_find(&set, "dup_req")->kind, RB_CTR_OTHER);
	rb_counters_derive(&set, 0, false, &d);
	assert_true(d.has_retrans);
	assert_int_equal(d.retrans, 6);
	assert_int_equal(d.packets, 20000);
	assert_true(d.retrans_per_mpkt == 300.0);

	empty(&set, RB_PROV_EFA);
	put(&set, "tx_pkts", 500000, RB_CTR_SRC_HW);
	put(&set, "retrans_pkts", 5, RB_CTR_SRC_HW);
	put(&set, "retrans_timeout_events", 0, RB_CTR_SRC_HW);
	rb_counters_derive(&set, 0, false, &d);
	assert_int_equal(d.retrans, 5);
	assert_true(d.retrans_per_mpkt == 10.0);

	empty(&set, RB_PROV_MLX5);
	put(&set, "netdev_tx_bytes", 5000, RB_CTR_SRC_NETDEV);
	put(&set, "netdev_tx_packets", 10, RB_CTR_SRC_NETDEV);
	put(&set, "local_ack_timeout_err", 1, RB_CTR_SRC_HW);
	rb_counters_derive(&set, 4000, false, &d);
	assert_false(d.has_wire);
	assert_false(d.has_retrans);
}

static void test_errors(void **state)
{
	char buf[64];

	(void)state;
	empty(&set, RB_PROV_RXE);
	put(&set, "sent_pkts", 1000, RB_CTR_SRC_HW);
	put(&set, "rcvd_seq_err", 0, RB_CTR_SRC_HW);
	assert_int_equal(rb_counters_errors(&set, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	put(&set, "retry_exceeded_err", 1, RB_CTR_SRC_HW);
	put(&set, "netdev_rx_dropped", 4, RB_CTR_SRC_NETDEV);
	assert_int_equal(rb_counters_errors(&set, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "retry_exceeded_err,netdev_rx_dropped");
	/* Cut, and still counted. */
	assert_int_equal(rb_counters_errors(&set, buf, 24), 2);
	assert_string_equal(buf, "retry_exceeded_err,n...");
	assert_int_equal(rb_counters_errors(&set, buf, 10), 2);
	assert_string_equal(buf, "retry_...");
	assert_int_equal(rb_counters_errors(&set, buf, 0), 2);
}

static void test_json(void **state)
{
	struct rb_counter_derived d;
	json_t *j;

	(void)state;
	empty(&set, RB_PROV_RXE);
	put(&set, "sent_pkts", 1000, RB_CTR_SRC_HW);
	put(&set, "completer_retry_err", 2, RB_CTR_SRC_HW);
	put(&set, "huge", UINT64_MAX, RB_CTR_SRC_HW);
	j = rb_counters_json(&set);
	assert_non_null(j);
	assert_int_equal(json_object_size(j), 3);
	assert_int_equal(json_integer_value(json_object_get(j, "sent_pkts")), 1000);
	assert_int_equal(json_integer_value(json_object_get(j, "huge")), INT64_MAX);
	json_decref(j);
	j = rb_counters_errors_json(&set);
	assert_int_equal(json_array_size(j), 1);
	assert_string_equal(json_string_value(json_array_get(j, 0)), "completer_retry_err");
	json_decref(j);

	rb_counters_derive(&set, 0, false, &d);
	j = rb_counters_derived_json(&d);
	assert_null(json_object_get(j, "wire_bytes_per_payload_byte"));
	assert_int_equal(json_integer_value(json_object_get(j, "retrans")), 2);
	assert_true(json_real_value(json_object_get(j, "retrans_per_mpkt")) == 2000.0);
	json_decref(j);
}

static void test_csv(void **state)
{
	struct rb_counter_derived d;
	json_t *jc, *jd;
	char *buf = NULL, want[4096] = "";
	const char *const *n;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_counters_csv_header(f, "peer_ctr_", RB_PROV_RXE);
	fclose(f);
	for (n = rb_counters_defaults(RB_PROV_RXE); *n; n++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), ",peer_ctr_%s", *n);
	strcat(want, ",peer_ctr_wire_bytes_per_payload_byte,peer_ctr_retrans_per_mpkt");
	assert_string_equal(buf, want);
	assert_non_null(strstr(buf, ",peer_ctr_sent_pkts,peer_ctr_rcvd_pkts,"));
	free(buf);

	/* Cells: present counters, empty ones, the derived figures. */
	empty(&set, RB_PROV_RXE);
	put(&set, "sent_pkts", 1000, RB_CTR_SRC_HW);
	put(&set, "completer_retry_err", 2, RB_CTR_SRC_HW);
	put(&set, "netdev_tx_bytes", 5000, RB_CTR_SRC_NETDEV);
	rb_counters_derive(&set, 4000, false, &d);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_counters_csv_row(f, RB_PROV_RXE, &set, &d);
	rb_counters_csv_row(f, RB_PROV_RXE, NULL, NULL);
	fclose(f);
	/* 20 defaults: sent_pkts first, completer_retry_err 12th, netdev_tx_bytes 15th. */
	assert_string_equal(buf, ",1000,,,,,,,,,,,2,,,5000,,,,,,1.25,2000"
				 ",,,,,,,,,,,,,,,,,,,,,,");
	free(buf);

	/* From the point's JSON: the very same cells. */
	jc = rb_counters_json(&set);
	jd = rb_counters_derived_json(&d);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_counters_csv_json(f, RB_PROV_RXE, jc, jd);
	rb_counters_csv_json(f, RB_PROV_RXE, NULL, NULL);
	fclose(f);
	assert_string_equal(buf, ",1000,,,,,,,,,,,2,,,5000,,,,,,1.25,2000"
				 ",,,,,,,,,,,,,,,,,,,,,,");
	free(buf);
	json_decref(jc);
	json_decref(jd);
}

/* ---- the wire ---------------------------------------------------------------- */

static void filled(struct rb_counter_set *s)
{
	empty(s, RB_PROV_MLX5);
	put(s, "port_xmit_data", 0x0102030405060708ull, RB_CTR_SRC_PORT);
	put(s, "np_cnp_sent", 7, RB_CTR_SRC_HW);
	put(s, "netdev_rx_dropped", 0, RB_CTR_SRC_NETDEV);
	s->c[1].flags = RB_CTRF_WRAPPED;
}

static void test_wire_roundtrip(void **state)
{
	static uint8_t buf[RB_CTR_WIRE_MAX], buf2[RB_CTR_WIRE_MAX];
	int len, i;

	(void)state;
	filled(&set);
	len = rb_counters_pack(&set, buf, sizeof(buf));
	/* 3 + (2 + 14 + 12) + (2 + 11 + 12) + (2 + 17 + 12) */
	assert_int_equal(len, 87);
	assert_int_equal(buf[0], RB_PROV_MLX5);
	assert_int_equal(buf[2], 3);
	assert_int_equal(rb_counters_unpack(buf, (size_t)len, &set2), 0);
	assert_int_equal(set2.n, 3);
	assert_int_equal(set2.driver, RB_PROV_MLX5);
	for (i = 0; i < 3; i++) {
		assert_string_equal(set.c[i].name, set2.c[i].name);
		assert_true(set.c[i].value == set2.c[i].value);
		assert_int_equal(set.c[i].src, set2.c[i].src);
		assert_int_equal(set.c[i].kind, set2.c[i].kind);
		assert_int_equal(set.c[i].scale, set2.c[i].scale);
		assert_int_equal(set.c[i].flags, set2.c[i].flags);
	}
	/* And back to the very same bytes. */
	assert_int_equal(rb_counters_pack(&set2, buf2, sizeof(buf2)), len);
	assert_memory_equal(buf, buf2, (size_t)len);

	/* Too small a buffer, at every length. */
	for (i = 0; i < len; i++)
		assert_int_equal(rb_counters_pack(&set, buf2, (size_t)i), -EMSGSIZE);
	/* An empty set. */
	empty(&set2, RB_PROV_RXE);
	assert_int_equal(rb_counters_pack(&set2, buf2, sizeof(buf2)), 3);
	assert_int_equal(rb_counters_unpack(buf2, 3, &set), 0);
	assert_int_equal(set.n, 0);
	assert_int_equal(set.driver, RB_PROV_RXE);
}

/* The largest set there can be fits RB_CTR_WIRE_MAX; one more is refused. */
static void test_wire_full(void **state)
{
	static uint8_t buf[RB_CTR_WIRE_MAX];
	char name[RB_CTR_NAME_MAX];
	int i;

	(void)state;
	empty(&set, RB_PROV_GENERIC);
	for (i = 0; i < RB_CTR_MAX; i++) {
		snprintf(name, sizeof(name), "%04d%0*d", i, RB_CTR_NAME_MAX - 5, 0);
		put(&set, name, (uint64_t)i, RB_CTR_SRC_HW);
	}
	assert_int_equal(rb_counters_pack(&set, buf, sizeof(buf)), RB_CTR_WIRE_MAX);
	assert_int_equal(rb_counters_unpack(buf, sizeof(buf), &set2), 0);
	assert_int_equal(set2.n, RB_CTR_MAX);
	set.n = RB_CTR_MAX + 1;
	assert_int_equal(rb_counters_pack(&set, buf, sizeof(buf)), -EMSGSIZE);
	/* A count over the cap, even with the bytes to back it. */
	buf[1] = (RB_CTR_MAX + 1) >> 8;
	buf[2] = (RB_CTR_MAX + 1) & 0xff;
	assert_int_equal(rb_counters_unpack(buf, sizeof(buf), &set2), -EBADMSG);
	/* A name the packer must refuse: empty, or too long. */
	empty(&set, RB_PROV_GENERIC);
	put(&set, "", 1, RB_CTR_SRC_HW);
	assert_int_equal(rb_counters_pack(&set, buf, sizeof(buf)), -EMSGSIZE);
	memset(set.c[0].name, 'a', sizeof(set.c[0].name)); /* no NUL at all */
	assert_int_equal(rb_counters_pack(&set, buf, sizeof(buf)), -EMSGSIZE);
}

static void expect_bad(uint8_t *buf, size_t len)
{
	set2.n = 7;
	assert_int_equal(rb_counters_unpack(buf, len, &set2), -EBADMSG);
	assert_int_equal(set2.n, 0);
}

static void test_wire_hostile(void **state)
{
	uint8_t buf[256], bad[256];
	size_t i;
	int len;

	(void)state;
	filled(&set);
	len = rb_counters_pack(&set, buf, sizeof(buf));
	assert_true(len > 0);
	/* Every truncation, and one byte too many. */
	for (i = 0; i < (size_t)len; i++)
		expect_bad(buf, i);
	memcpy(bad, buf, (size_t)len);
	bad[len] = 0;
	expect_bad(bad, (size_t)len + 1);

#define MUTATE(off, v)                         \
	do {                                   \
		memcpy(bad, buf, (size_t)len); \
		bad[off] = (uint8_t)(v);       \
		expect_bad(bad, (size_t)len);  \
	} while (0)
	MUTATE(0, RB_PROV_COUNT);      /* driver */
	MUTATE(2, 4);		       /* a count the body does not hold */
	MUTATE(4, 0);		       /* first name length 14 -> 0 */
	MUTATE(4, RB_CTR_NAME_MAX);    /* ... -> too long */
	MUTATE(5, '/');		       /* a character no name has */
	MUTATE(5, 0);		       /* a NUL inside the name */
	MUTATE(3 + 2 + 14 + 8, 3);     /* source */
	MUTATE(3 + 2 + 14 + 9, 4);     /* kind */
	MUTATE(3 + 2 + 14 + 10, 0);    /* scale */
	MUTATE(3 + 2 + 14 + 11, 0x80); /* flags */
#undef MUTATE
	/* The same name twice. */
	empty(&set, RB_PROV_RXE);
	put(&set, "sent_pkts", 1, RB_CTR_SRC_HW);
	put(&set, "sent_pkts", 2, RB_CTR_SRC_HW);
	len = rb_counters_pack(&set, buf, sizeof(buf));
	assert_true(len > 0);
	expect_bad(buf, (size_t)len);
	expect_bad(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_rxe),
		cmocka_unit_test(test_read_mlx5),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_driver),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_spec_parse),
		cmocka_unit_test(test_spec_check_apply),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_derive_wire_known),
		cmocka_unit_test(test_driver_facts),
		cmocka_unit_test(test_provider_counters),
		cmocka_unit_test(test_payload_rx),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_wire_roundtrip),
		cmocka_unit_test(test_wire_full),
		cmocka_unit_test(test_wire_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
