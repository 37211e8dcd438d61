// SPDX-License-Identifier: MIT
/*
 * Unit tests for the out-of-band message format (src/wire.c) and the
 * string codec every message shares (src/cursor.h): exact encodings, round trips of every message, header checks, and unpackers fed
 * truncated, padded, inconsistent and random bodies.  Bodies are copied into
 * buffers of exactly their length so ASan catches any read past @len.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/cursor.h"
#include "wire/plan.h"
#include "wire/wire.h"

#define BUFSZ 8192

/* ---- helpers ----------------------------------------------------------- */

/* A hand-rolled big-endian writer, independent of the code under test. */
struct wb {
	uint8_t b[RB_WIRE_MAX_BODY];
	size_t n;
};

static void wb_be(struct wb *w, uint64_t v, size_t n)
{
	size_t i;

	assert_true(w->n + n <= sizeof(w->b));
	for (i = 0; i < n; i++)
		w->b[w->n + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	w->n += n;
}

static void wb_bytes(struct wb *w, const void *p, size_t n)
{
	assert_true(w->n + n <= sizeof(w->b));
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void wb_str(struct wb *w, const char *s)
{
	wb_be(w, strlen(s), 2);
	wb_bytes(w, s, strlen(s));
}

/* A heap copy of exactly @len bytes, so ASan flags reads past the end. */
static uint8_t *dup_exact(const uint8_t *p, size_t len)
{
	uint8_t *q = malloc(len ? len : 1);

	assert_non_null(q);
	if (len)
		memcpy(q, p, len);
	return q;
}

typedef int (*unpack_fn)(const uint8_t *buf, size_t len, void *m);

static int up_hello(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_hello(b, l, m);
}

static int up_params(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_params(b, l, m);
}

static int up_conn(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_conn(b, l, m);
}

static int up_sync(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_sync(b, l, m);
}

static int up_result(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_result(b, l, m);
}

static int up_text(const uint8_t *b, size_t l, void *m)
{
	return rb_unpack_text(b, l, m);
}

/* Big enough for any message struct. */
union any_msg {
	struct rb_msg_hello hello;
	struct rb_params params;
	struct rb_msg_conn conn;
	struct rb_msg_sync sync;
	struct rb_msg_result result;
	struct rb_msg_text text;
};

/* Unpack @len bytes of @p through an exact-size heap copy. */
static int unpack_exact(unpack_fn fn, const uint8_t *p, size_t len)
{
	union any_msg m;
	uint8_t *q = dup_exact(p, len);
	int ret;

	memset(&m, 0xa5, sizeof(m));
	ret = fn(q, len, &m);
	if (!ret && fn == up_conn)
		rb_conn_free(&m.conn);
	free(q);
	return ret;
}

/* Every proper prefix of a valid body must be refused with -EBADMSG. */
static void check_truncations(unpack_fn fn, const uint8_t *body, size_t len, const char *what)
{
	size_t k;

	assert_int_equal(unpack_exact(fn, body, len), 0);
	for (k = 0; k < len; k++) {
		int ret = unpack_exact(fn, body, k);

		if (ret != -EBADMSG)
			print_error("%s truncated to %zu of %zu bytes returned %d\n", what, k, len,
				    ret);
		assert_int_equal(ret, -EBADMSG);
	}
}

/* A valid body followed by any extra byte must be refused. */
static void check_trailing(unpack_fn fn, const uint8_t *body, size_t len)
{
	uint8_t buf[BUFSZ];

	assert_true(len + 4 <= sizeof(buf));
	memcpy(buf, body, len);
	buf[len] = 0;
	assert_int_equal(unpack_exact(fn, buf, len + 1), -EBADMSG);
	memcpy(buf + len, "\x01\x02\x03\x04", 4);
	assert_int_equal(unpack_exact(fn, buf, len + 4), -EBADMSG);
}

/* Packing into every capacity below the body length must fail cleanly. */
#define CHECK_SMALL_CAP(packfn, msg, len)                           \
	do {                                                        \
		size_t cap_;                                        \
		for (cap_ = 0; cap_ <= (size_t)(len); cap_++) {     \
			uint8_t *q_ = malloc(cap_ ? cap_ : 1);      \
			int ret_;                                   \
			assert_non_null(q_);                        \
			ret_ = packfn((msg), q_, cap_);             \
			free(q_);                                   \
			if (cap_ < (size_t)(len))                   \
				assert_int_equal(ret_, -EMSGSIZE);  \
			else                                        \
				assert_int_equal(ret_, (int)(len)); \
		}                                                   \
	} while (0)

static void fill_axis(struct rb_axis *a, uint32_t n, uint64_t first, uint64_t step)
{
	uint32_t i;

	a->n = n;
	for (i = 0; i < n; i++)
		a->v[i] = first + step * i;
}

static void sample_params(struct rb_params *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->test, "write_bw");
	fill_axis(&p->size, 3, 0, 0);
	p->size.v[0] = 64;
	p->size.v[1] = 4096;
	p->size.v[2] = (1ULL << 40) + 3; /* needs all 64 bits of the field */
	fill_axis(&p->batch, 2, 1, 7);
	fill_axis(&p->signal, 4, 1, 16);
	fill_axis(&p->qps, 1, 8, 0);
	fill_axis(&p->tx_depth, 5, 128, 128);
	p->iters = 0x0123456789abcdefULL;
	p->duration_s = 3600;
	p->warmup = 5000000000ULL;
	p->rx_depth = 512;
	p->inline_size = 220;
	p->outstanding = 16;
	p->mtu = 4096;
	p->atomic_op = RB_OP_CSWAP;
	p->verify = 1;
	p->use_cm = 1;
	p->transport = RB_TR_UD;
	p->sl = 15;
	p->tclass = 0xb8;
	p->flow_label[0] = 0xfffff;
	p->nflow = 1;
	p->hugepages = 1;
	p->odp = 1;
	p->mr_per_qp = 1;
	p->srq = 1;
	p->threads = 4;
	p->thread = 3;
	p->bidir = 1;
	p->interval_ms = 86400000;
	p->forever = 1;
	p->rate_unit = RB_RATE_PPS;
	p->rate = 0xfedcba9876543210ULL; /* all 64 bits */
	p->run_id = 0x0123456789abcdefULL;
	p->recv_post_list = 64;
	p->reversed = 1;
	p->imm = 1;
	fill_axis(&p->poll, 2, RB_POLL_BUSY, 1);
	fill_axis(&p->cqe_poll, 3, 1, 15);
	p->probe = 1;
	p->probe_rate = 100000;
	p->wr_lat = 1;
	p->cq_per_qp = 1;
}

/*
 * v18: a count, then a (tag, length) head and the value of each field not
 * at zero: the seven axes (8 bytes a value), the test's name, the flow
 * labels (4 bytes each), and the scalars at their width, counted here
 * from the struct by hand (the packer walks the option rows).
 */
static size_t params_len(const struct rb_params *p)
{
	const struct rb_axis *ax[] = { &p->size,     &p->batch, &p->signal,  &p->qps,
				       &p->tx_depth, &p->poll,	&p->cqe_poll };
	const uint64_t u64[] = { p->iters, p->warmup, p->rate, p->run_id };
	const uint32_t u32[] = { p->duration_s, p->rx_depth,	p->inline_size,	   p->outstanding,
				 p->mtu,	p->sl,		p->tclass,	   p->threads,
				 p->thread,	p->interval_ms, p->recv_post_list, p->probe_rate };
	const uint8_t u8[] = { p->atomic_op, p->verify,	 p->use_cm,    p->transport,
			       p->hugepages, p->odp,	 p->mr_per_qp, p->srq,
			       p->bidir,     p->forever, p->rate_unit, p->reversed,
			       p->imm,	     p->probe,	 p->wr_lat,    p->cq_per_qp };
	size_t n = 2, i;

	for (i = 0; i < 7; i++)
		n += ax[i]->n ? 4 + 8 * (size_t)ax[i]->n : 0;
	n += p->test[0] ? 4 + strlen(p->test) : 0;
	n += p->nflow ? 4 + 4 * (size_t)p->nflow : 0;
	for (i = 0; i < sizeof(u64) / sizeof(u64[0]); i++)
		n += u64[i] ? 4 + 8 : 0;
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++)
		n += u32[i] ? 4 + 4 : 0;
	for (i = 0; i < sizeof(u8); i++)
		n += u8[i] ? 4 + 1 : 0;
	return n;
}

static void assert_axis_equal(const struct rb_axis *a, const struct rb_axis *b)
{
	uint32_t i;

	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++)
		assert_int_equal(a->v[i], b->v[i]);
}

static void assert_params_equal(const struct rb_params *a, const struct rb_params *b)
{
	assert_string_equal(a->test, b->test);
	assert_axis_equal(&a->size, &b->size);
	assert_axis_equal(&a->batch, &b->batch);
	assert_axis_equal(&a->signal, &b->signal);
	assert_axis_equal(&a->qps, &b->qps);
	assert_axis_equal(&a->tx_depth, &b->tx_depth);
	assert_int_equal(a->iters, b->iters);
	assert_int_equal(a->duration_s, b->duration_s);
	assert_int_equal(a->warmup, b->warmup);
	assert_int_equal(a->rx_depth, b->rx_depth);
	assert_int_equal(a->inline_size, b->inline_size);
	assert_int_equal(a->outstanding, b->outstanding);
	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->atomic_op, b->atomic_op);
	assert_int_equal(a->verify, b->verify);
	assert_int_equal(a->use_cm, b->use_cm);
	assert_int_equal(a->transport, b->transport);
	assert_int_equal(a->sl, b->sl);
	assert_int_equal(a->tclass, b->tclass);
	assert_int_equal(a->nflow, b->nflow);
	assert_memory_equal(a->flow_label, b->flow_label, a->nflow * sizeof(a->flow_label[0]));
	assert_int_equal(a->hugepages, b->hugepages);
	assert_int_equal(a->odp, b->odp);
	assert_int_equal(a->mr_per_qp, b->mr_per_qp);
	assert_int_equal(a->srq, b->srq);
	assert_int_equal(a->threads, b->threads);
	assert_int_equal(a->thread, b->thread);
	assert_int_equal(a->bidir, b->bidir);
	assert_int_equal(a->interval_ms, b->interval_ms);
	assert_int_equal(a->forever, b->forever);
	assert_int_equal(a->rate_unit, b->rate_unit);
	assert_int_equal(a->rate, b->rate);
	assert_int_equal(a->run_id, b->run_id);
	assert_int_equal(a->recv_post_list, b->recv_post_list);
	assert_int_equal(a->reversed, b->reversed);
	assert_int_equal(a->imm, b->imm);
	assert_axis_equal(&a->poll, &b->poll);
	assert_axis_equal(&a->cqe_poll, &b->cqe_poll);
	assert_int_equal(a->probe, b->probe);
	assert_int_equal(a->probe_rate, b->probe_rate);
	assert_int_equal(a->wr_lat, b->wr_lat);
	assert_int_equal(a->cq_per_qp, b->cq_per_qp);
}

static void sample_conn(struct rb_msg_conn *c, uint32_t nqp)
{
	uint32_t i, j;

	memset(c, 0, sizeof(*c));
	assert_int_equal(rb_conn_alloc(c, nqp, nqp), 0);
	c->mtu = 4096;
	c->max_rd_atom = 16;
	c->rkey = 0xdeadbeef;
	c->addr = 0x00007f1234567000ULL;
	c->len = 3ULL << 30;
	c->nqp = nqp;
	for (i = 0; i < nqp; i++) {
		c->qp[i].qpn = 0x000100 + i * 0x11;
		c->qp[i].psn = 0xabcdef - i * 3;
		c->qp[i].lid = (uint16_t)(0x1000 + i);
		/* A RoCE v2 IPv4-mapped GID, distinct per QP in every byte run. */
		for (j = 0; j < 16; j++)
			c->qp[i].gid[j] = (uint8_t)(j * 17 + i * 31 + 1);
		c->qp[i].gid[10] = 0xff;
		c->qp[i].gid[11] = 0xff;
	}
	c->place.device_numa_node = -1;
	strcpy(c->place.cpus, "0-3 8");
	strcpy(c->device, "mlx5_0");
	c->link_layer = 1;
	c->transport = 1;	   /* v15: iWARP */
	c->dc_role = RB_DC_TARGET; /* v18: DCTs, and their key */
	c->dc_key = 0x1122334455667788ULL;
	c->place.mem_node = 1;
	c->place.local = 0;
	c->place.freq_cpu = 2;
	strcpy(c->place.governor, "powersave");
	c->place.cpu_mhz = 2400;
	/* One MR per QP (--mr-per-qp), the first the one rkey and addr name. */
	for (i = 0; i < c->nmr; i++)
		c->mr[i] = (struct rb_mr_info){ c->addr + i * 0x10000ULL, c->rkey + i };
}

/* v18: the fingerprint block, CONN's last: four strings, three u32, then
 * the PCI function (a string) and its link (two u32 MT/s, two u16 lanes). */
static size_t fp_len(const struct rb_fingerprint *f)
{
	return 2 + strlen(f->kernel) + 2 + strlen(f->rdma_core) + 2 + strlen(f->fw_ver) + 2 +
	       strlen(f->board_id) + 3 * 4 + 2 + strlen(f->pci) + 4 + 4 + 2 + 2;
}

static size_t conn_len(const struct rb_msg_conn *c)
{
	/* The first RB_CONN_CHUNK of each list; CONN_MORE carries the rest. */
	size_t nqp = c->nqp < RB_CONN_CHUNK ? c->nqp : RB_CONN_CHUNK;
	size_t nmr = c->nmr < RB_CONN_CHUNK ? c->nmr : RB_CONN_CHUNK;

	return 4 + 4 + 4 + 8 + 8 + 4 + 26 * nqp + 4 + 2 + strlen(c->place.cpus) + 4 + 4 + 4 + 2 +
	       strlen(c->place.governor) + 4 + 2 + strlen(c->device) + 1 + 4 + 12 * nmr + 1 +
	       (c->has_probe ? 26 : 0) + 1 + 1 + 8 + fp_len(&c->fp);
}

static void assert_conn_equal(const struct rb_msg_conn *a, const struct rb_msg_conn *b)
{
	uint32_t i;

	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->max_rd_atom, b->max_rd_atom);
	assert_int_equal(a->rkey, b->rkey);
	assert_int_equal(a->addr, b->addr);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->nqp, b->nqp);
	for (i = 0; i < a->nqp; i++) {
		assert_int_equal(a->qp[i].qpn, b->qp[i].qpn);
		assert_int_equal(a->qp[i].psn, b->qp[i].psn);
		assert_int_equal(a->qp[i].lid, b->qp[i].lid);
		assert_memory_equal(a->qp[i].gid, b->qp[i].gid, 16);
	}
	assert_int_equal(a->place.device_numa_node, b->place.device_numa_node);
	assert_string_equal(a->place.cpus, b->place.cpus);
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->link_layer, b->link_layer);
	assert_int_equal(a->place.mem_node, b->place.mem_node);
	assert_int_equal(a->place.local, b->place.local);
	assert_int_equal(a->place.freq_cpu, b->place.freq_cpu);
	assert_string_equal(a->place.governor, b->place.governor);
	assert_int_equal(a->place.cpu_mhz, b->place.cpu_mhz);
	assert_int_equal(a->nmr, b->nmr);
	for (i = 0; i < a->nmr; i++) {
		assert_int_equal(a->mr[i].addr, b->mr[i].addr);
		assert_int_equal(a->mr[i].rkey, b->mr[i].rkey);
	}
	assert_int_equal(a->has_probe, b->has_probe);
	assert_int_equal(a->probe_qp.qpn, b->probe_qp.qpn);
	assert_int_equal(a->transport, b->transport);
	assert_int_equal(a->dc_role, b->dc_role);
	assert_int_equal(a->dc_key, b->dc_key);
	assert_int_equal(a->probe_qp.psn, b->probe_qp.psn);
	assert_int_equal(a->probe_qp.lid, b->probe_qp.lid);
	assert_memory_equal(a->probe_qp.gid, b->probe_qp.gid, 16);
	assert_string_equal(a->fp.kernel, b->fp.kernel);
	assert_string_equal(a->fp.rdma_core, b->fp.rdma_core);
	assert_string_equal(a->fp.fw_ver, b->fp.fw_ver);
	assert_string_equal(a->fp.board_id, b->fp.board_id);
	assert_int_equal(a->fp.vendor_id, b->fp.vendor_id);
	assert_int_equal(a->fp.vendor_part_id, b->fp.vendor_part_id);
	assert_int_equal(a->fp.hw_ver, b->fp.hw_ver);
	assert_string_equal(a->fp.pci, b->fp.pci);
	assert_true(a->fp.pcie.cur_gts == b->fp.pcie.cur_gts);
	assert_true(a->fp.pcie.max_gts == b->fp.pcie.max_gts);
	assert_int_equal(a->fp.pcie.cur_width, b->fp.pcie.cur_width);
	assert_int_equal(a->fp.pcie.max_width, b->fp.pcie.max_width);
}

/* Exact doubles: the wire carries the bit pattern. */
static void assert_double_bits(double got, double want)
{
	if (memcmp(&got, &want, sizeof(got))) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}

/* ---- header ------------------------------------------------------------ */

static void test_hdr_pack_bytes(void **state)
{
	static const uint8_t want[RB_WIRE_HDR_LEN] = { 'R',  'D',  'M',	 'B',  0x00, 0x12,
						       0x00, 0x03, 0x00, 0x01, 0x02, 0x03 };
	uint8_t buf[RB_WIRE_HDR_LEN + 4];

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	rb_hdr_pack(buf, RB_MSG_CONN, 0x00010203);
	assert_memory_equal(buf, want, RB_WIRE_HDR_LEN);
	/* The header is 12 bytes, not a byte more. */
	assert_int_equal(buf[RB_WIRE_HDR_LEN], 0xee);
}

static void test_hdr_roundtrip_all_types(void **state)
{
	static const char *const names[] = { NULL,     "HELLO",	 "PARAMS",    "CONN", "SYNC",
					     "RESULT", "ERROR",	 "BYE",	      "OK",   "COUNTERS",
					     "DATA",   "DOCTOR", "CONN_MORE", "AUTH" };
	uint8_t buf[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[256];
	uint16_t t;

	(void)state;
	for (t = RB_MSG_HELLO; t <= RB_MSG_AUTH; t++) {
		uint32_t len = t == RB_MSG_PARAMS ? RB_WIRE_MAX_BODY : t * 1000u + 7;

		rb_hdr_pack(buf, t, len);
		memset(&h, 0, sizeof(h));
		err[0] = '\0';
		assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), 0);
		assert_int_equal(h.magic, RB_WIRE_MAGIC);
		assert_int_equal(h.version, RB_WIRE_VERSION);
		assert_int_equal(h.type, t);
		assert_int_equal(h.len, len);
		assert_string_equal(rb_msg_name(t), names[t]);
	}
	/* Empty bodies (BYE, OK) are fine. */
	rb_hdr_pack(buf, RB_MSG_BYE, 0);
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), 0);
	assert_int_equal(h.len, 0);
	assert_string_equal(rb_msg_name(0), "?");
	assert_string_equal(rb_msg_name(RB_MSG_DATA), "DATA");
	assert_string_equal(rb_msg_name(RB_MSG_DOCTOR), "DOCTOR");
	assert_string_equal(rb_msg_name(RB_MSG_AUTH), "AUTH");
	assert_string_equal(rb_msg_name(14), "unknown");
	assert_string_equal(rb_msg_name(0xffff), "unknown");
}

/* DATA (a socket test's CONN): every field back; cut anywhere, refused. */
static void test_data_roundtrip(void **state)
{
	struct rb_msg_data m = { .port = 40123,
				 .sndbuf = 16384,
				 .rcvbuf = 131072,
				 .mss = 1448,
				 .nodelay = 1,
				 .ifname = "eth1",
				 .place = { .device_numa_node = 1,
					    .cpus = "1",
					    .mem_node = 1,
					    .local = 1,
					    .freq_cpu = 1 } },
			   back;
	uint8_t buf[512];
	int n, i;

	(void)state;
	n = rb_pack_data(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(rb_unpack_data(buf, (size_t)n, &back), 0);
	assert_int_equal(back.port, 40123);
	assert_int_equal(back.sndbuf, 16384);
	assert_int_equal(back.rcvbuf, 131072);
	assert_int_equal(back.mss, 1448);
	assert_int_equal(back.nodelay, 1);
	assert_string_equal(back.ifname, "eth1");
	assert_string_equal(back.place.cpus, "1");
	assert_int_equal(back.place.device_numa_node, 1);
	for (i = 0; i < n; i++)
		assert_int_equal(rb_unpack_data(buf, (size_t)i, &back), -EBADMSG);
	buf[n] = 0;
	assert_int_equal(rb_unpack_data(buf, (size_t)n + 1, &back), -EBADMSG);
	/* The flag is a flag. */
	m.nodelay = 2;
	n = rb_pack_data(&m, buf, sizeof(buf));
	assert_int_equal(rb_unpack_data(buf, (size_t)n, &back), -EBADMSG);
	/* Too small a buffer: the packer says so. */
	assert_int_equal(rb_pack_data(&m, buf, 8), -EMSGSIZE);
}

static void test_hdr_bad_magic(void **state)
{
	uint8_t buf[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[256] = "";

	(void)state;
	rb_hdr_pack(buf, RB_MSG_HELLO, 10);
	buf[3] = 'X';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "magic"));

	/* Someone pointed a web client at the port. */
	memcpy(buf, "GET / HTTP/1", RB_WIRE_HDR_LEN);
	err[0] = '\0';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "magic"));

	/* A bad magic wins over a bad version and an oversized body. */
	memset(buf, 0xff, sizeof(buf));
	err[0] = '\0';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "magic"));
}

static void test_hdr_other_version(void **state)
{
	uint8_t buf[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[256] = "";

	(void)state;
	rb_hdr_pack(buf, RB_MSG_HELLO, 10);
	buf[4] = 0x00;
	buf[5] = 0x02;
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EPROTO);
	assert_int_equal(h.version, 2);
	assert_non_null(strstr(err, "v2"));
	{
		char ours[16];

		snprintf(ours, sizeof(ours), "v%u", RB_WIRE_VERSION);
		assert_non_null(strstr(err, ours));
	}

	/* Version 0 and a two-byte version are named as such. */
	buf[5] = 0x00;
	err[0] = '\0';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "v0"));
	buf[4] = 0x01;
	buf[5] = 0x01;
	err[0] = '\0';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "v257"));
	assert_non_null(strstr(err, "v2"));

	/* A version mismatch is reported before the length cap. */
	rb_hdr_pack(buf, RB_MSG_PARAMS, 0xffffffffu);
	buf[5] = 0x01;
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EPROTO);
}

static void test_hdr_too_long(void **state)
{
	uint8_t buf[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[256] = "";

	(void)state;
	rb_hdr_pack(buf, RB_MSG_PARAMS, RB_WIRE_MAX_BODY);
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), 0);

	rb_hdr_pack(buf, RB_MSG_PARAMS, RB_WIRE_MAX_BODY + 1);
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EMSGSIZE);
	assert_non_null(strstr(err, "PARAMS"));
	assert_non_null(strstr(err, "65537"));
	assert_non_null(strstr(err, "65536"));

	rb_hdr_pack(buf, 42, 0xffffffffu);
	err[0] = '\0';
	assert_int_equal(rb_hdr_unpack(buf, &h, err, sizeof(err)), -EMSGSIZE);
	assert_int_equal(h.len, 0xffffffffu);
	assert_true(err[0] != '\0');

	/* A tiny error buffer is truncated, not overrun. */
	{
		char small[8];

		memset(small, 'z', sizeof(small));
		assert_int_equal(rb_hdr_unpack(buf, &h, small, 4), -EMSGSIZE);
		assert_int_equal(strlen(small), 3);
		assert_int_equal(small[4], 'z');
	}
}

/* ---- round trips ------------------------------------------------------- */

static void test_hello_roundtrip(void **state)
{
	struct rb_msg_hello in, out;
	uint8_t buf[BUFSZ];
	static const uint8_t want[] = { 0x00, 0x05, '0', '.', '3', '.', '1', 0x00, 0x08, 'w', 'r',
					'i', 't', 'e', '_', 'b', 'w', 0x00, 0x01, 'h', 0x00, 0x02,
					'i', 'd', 0x00, 0x01, '1',
					/* v18: --auth-key's flag, then the nonce */
					0x01, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
					0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2,
					0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc,
					0xbd, 0xbe, 0xbf };
	int len;

	(void)state;
	memset(&in, 0, sizeof(in));
	strcpy(in.tool_version, "0.3.1");
	strcpy(in.test, "write_bw");
	strcpy(in.host, "h");
	strcpy(in.boot_id, "id");
	strcpy(in.cpus, "1");
	in.auth = 1;
	for (len = 0; len < 32; len++)
		in.nonce[len] = (uint8_t)(0xa0 + len);
	len = rb_pack_hello(&in, buf, sizeof(buf));
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(unpack_exact(up_hello, buf, len), 0);
	assert_int_equal(rb_unpack_hello(buf, len, &out), 0);
	assert_string_equal(out.tool_version, "0.3.1");
	assert_string_equal(out.test, "write_bw");
	assert_string_equal(out.host, "h");
	assert_string_equal(out.boot_id, "id");
	assert_string_equal(out.cpus, "1");
	assert_int_equal(out.auth, 1);
	assert_memory_equal(out.nonce, in.nonce, sizeof(in.nonce));
	/* The flag is 0 or 1: anything else is no HELLO. */
	buf[len - 33] = 2;
	assert_int_equal(rb_unpack_hello(buf, len, &out), -EBADMSG);

	/* The longest strings that fit, and empty ones. */
	memset(&in, 0, sizeof(in));
	memset(in.tool_version, 'v', 31);
	in.tool_version[31] = '\0';
	len = rb_pack_hello(&in, buf, sizeof(buf));
	assert_int_equal(len, 2 + 31 + 2 + 2 + 2 + 2 + 1 + 32);
	assert_int_equal(rb_unpack_hello(buf, len, &out), 0);
	assert_string_equal(out.tool_version, in.tool_version);
	assert_string_equal(out.test, "");
}

static void test_params_roundtrip(void **state)
{
	struct rb_params in, out;
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	sample_params(&in);
	len = rb_pack_params(&in, buf, sizeof(buf));
	assert_int_equal(len, params_len(&in));
	/* Spot-check the encoding: 41 fields; the first row's, -s's axis
	 * (tag 2, must understand: 0x8002, 24 bytes), big-endian; the test's
	 * name (tag 1) among the fields no option sets, after the rows'. */
	assert_memory_equal(buf, "\x00\x29\x80\x02\x00\x18", 6);
	assert_memory_equal(buf + 6, "\x00\x00\x00\x00\x00\x00\x00\x40", 8);
	assert_memory_equal(buf + 22, "\x00\x00\x01\x00\x00\x00\x00\x03", 8);
	assert_non_null(memmem(buf, (size_t)len, "\x80\x01\x00\x08write_bw", 12));
	/* --cq-per-qp (tag 41) one byte; the run id (tag 32) all 64 bits. */
	assert_non_null(memmem(buf, (size_t)len, "\x80\x29\x00\x01\x01", 5));
	assert_non_null(
		memmem(buf, (size_t)len, "\x80\x20\x00\x08\x01\x23\x45\x67\x89\xab\xcd\xef", 12));
	/* A body cut at a field's end is refused: the count says more. */
	assert_int_equal(rb_unpack_params(buf, (size_t)len - 5, &out), -EBADMSG);
	assert_int_equal(rb_unpack_params(buf, (size_t)len - 1, &out), -EBADMSG);

	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_params(buf, len, &out), 0);
	assert_params_equal(&in, &out);

	/* Every axis full, the longest test name. */
	fill_axis(&in.size, RB_MAX_AXIS, 1ULL << 33, 4096);
	fill_axis(&in.batch, RB_MAX_AXIS, 1, 1);
	fill_axis(&in.signal, RB_MAX_AXIS, 2, 3);
	fill_axis(&in.qps, RB_MAX_AXIS, 1, 2);
	fill_axis(&in.tx_depth, RB_MAX_AXIS, 16, 16);
	fill_axis(&in.poll, RB_MAX_AXIS, 0, 0);
	fill_axis(&in.cqe_poll, RB_MAX_AXIS, 1, 1);
	memset(in.test, 't', sizeof(in.test) - 1);
	in.atomic_op = RB_OP_FADD;
	in.verify = 0;
	len = rb_pack_params(&in, buf, sizeof(buf));
	assert_int_equal(len, params_len(&in));
	assert_true(len <= RB_WIRE_MAX_BODY);
	assert_int_equal(unpack_exact(up_params, buf, len), 0);
	assert_int_equal(rb_unpack_params(buf, len, &out), 0);
	assert_params_equal(&in, &out);

	/* Empty axes travel as empty. */
	memset(&in, 0, sizeof(in));
	len = rb_pack_params(&in, buf, sizeof(buf));
	assert_int_equal(len, params_len(&in));
	assert_int_equal(rb_unpack_params(buf, len, &out), 0);
	assert_params_equal(&in, &out);
}

static void test_conn_roundtrip(void **state)
{
	struct rb_msg_conn in, out;
	uint8_t buf[BUFSZ];
	int len, t;
	const int fp = 34; /* (v18) an empty fingerprint closes the body */

	(void)state;
	sample_conn(&in, 3);
	/* The three GIDs really differ. */
	assert_memory_not_equal(in.qp[0].gid, in.qp[1].gid, 16);
	assert_memory_not_equal(in.qp[1].gid, in.qp[2].gid, 16);
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	/* (v18) the DC block: targets, and their key; then the fingerprint. */
	t = len - fp - 9;
	assert_memory_equal(buf + t, "\x02\x11\x22\x33\x44\x55\x66\x77\x88", 9);
	assert_memory_equal(buf, "\x00\x00\x10\x00\x00\x00\x00\x10\xde\xad\xbe\xef", 12);
	/* nqp, then the first QP's qpn. */
	assert_memory_equal(buf + 28, "\x00\x00\x00\x03\x00\x00\x01\x00", 8);
	/* Then the placement: node -1, "0-3 8", node 1, remote, (v6) the
	 * clock of cpu 2: powersave, 2400 MHz; the device and its link layer;
	 * then (v4) the MRs; (v9) no probe QP; (v15) the transport, iWARP,
	 * then DC and the fingerprint. */
	assert_memory_equal(buf + t - 2 - 4 - 3 * 12 - 47,
			    "\xff\xff\xff\xff\x00\x05"
			    "0-3 8\x00\x00\x00\x01\x00\x00\x00\x00"
			    "\x00\x00\x00\x02\x00\x09powersave\x00\x00\x09\x60"
			    "\x00\x06mlx5_0\x01",
			    47);
	assert_int_equal(buf[t - 2], 0);
	assert_int_equal(buf[t - 1], 1);
	assert_memory_equal(buf + t - 2 - 4 - 3 * 12,
			    "\x00\x00\x00\x03"
			    "\x00\x00\x7f\x12\x34\x56\x70\x00\xde\xad\xbe\xef"
			    "\x00\x00\x7f\x12\x34\x57\x70\x00\xde\xad\xbe\xf0",
			    4 + 2 * 12);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	assert_int_equal(out.place.device_numa_node, -1);
	rb_conn_free(&out);

	/* v9: --probe's QP: a flag, qpn, psn, lid, GID; then (v15) the transport. */
	in.has_probe = 1;
	in.probe_qp = in.qp[1];
	in.probe_qp.qpn = 0xabcdef;
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	t = len - fp - 9;
	assert_memory_equal(buf + t - 28, "\x01\x00\xab\xcd\xef", 5);
	assert_int_equal(unpack_exact(up_conn, buf, len), 0);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	assert_int_equal(rb_unpack_conn(buf, (size_t)len - 1, &out), -EBADMSG);
	buf[t - 28] = 2; /* a flag is 0 or 1 */
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	buf[t - 28] = 1;
	/* v18: a DC role past the targets', or a key from initiators, is refused. */
	buf[t] = 3;
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	buf[t] = RB_DC_INITIATOR;
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	in.dc_role = RB_DC_INITIATOR;
	assert_int_equal(rb_pack_conn(&in, buf, sizeof(buf)), -EMSGSIZE);
	in.dc_key = 0;
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);

	/* 64 QPs (v12's most), other placement values. */
	rb_conn_free(&in);
	sample_conn(&in, 64);
	in.place.device_numa_node = 3;
	in.place.mem_node = -1;
	in.place.local = -1;
	strcpy(in.place.cpus, "0-15,32-47 64 65 66 67 68 69 70 71");
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	assert_int_equal(unpack_exact(up_conn, buf, len), 0);
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	assert_int_equal(out.place.mem_node, -1);
	assert_int_equal(out.place.local, -1);

	/* One QP, empty CPU list; no QP at all is refused both ways (v13). */
	rb_conn_free(&in);
	rb_conn_free(&out);
	sample_conn(&in, 1);
	in.place.cpus[0] = '\0';
	in.place.local = 1;
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	/* v18: the sender's fingerprint, at the end; cut, the CONN is refused. */
	snprintf(in.fp.kernel, sizeof(in.fp.kernel), "Linux 6.1.0-18-amd64 #1 SMP");
	snprintf(in.fp.rdma_core, sizeof(in.fp.rdma_core), "44.0");
	snprintf(in.fp.fw_ver, sizeof(in.fp.fw_ver), "22.39.1002");
	snprintf(in.fp.board_id, sizeof(in.fp.board_id), "MT_0000000359");
	in.fp.vendor_id = 0x02c9;
	in.fp.vendor_part_id = 4125;
	in.fp.hw_ver = 0;
	/* Its PCIe link: 2.5 GT/s of 8.0 GT/s (as MT/s), x4 of x16. */
	snprintf(in.fp.pci, sizeof(in.fp.pci), "0000:81:00.0");
	in.fp.pcie = (struct rb_pcie_link){ 2.5, 8.0, 4, 16 };
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	assert_memory_equal(buf + len - 12 - 14 - 12 - 15, "\x00\x0dMT_0000000359", 15);
	assert_memory_equal(buf + len - 12 - 14 - 12,
			    "\x00\x00\x02\xc9\x00\x00\x10\x1d\x00\x00\x00\x00", 12);
	assert_memory_equal(buf + len - 12 - 14,
			    "\x00\x0c"
			    "0000:81:00.0",
			    14);
	assert_memory_equal(buf + len - 12, "\x00\x00\x09\xc4\x00\x00\x1f\x40\x00\x04\x00\x10", 12);
	assert_int_equal(unpack_exact(up_conn, buf, len), 0);
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	assert_int_equal(rb_unpack_conn(buf, (size_t)len - 1, &out), -EBADMSG);
	buf[31] = 0; /* nqp 1 -> 0 */
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	in.nqp = 0;
	assert_int_equal(rb_pack_conn(&in, buf, sizeof(buf)), -EMSGSIZE);
	rb_conn_free(&in);
}

static void test_sync_roundtrip(void **state)
{
	struct rb_msg_sync in, out;
	uint8_t buf[64];
	int len;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.point = 0x01020304;
	in.what = RB_SYNC_STOP;
	in.count = 0x0000000500000007ULL;
	len = rb_pack_sync(&in, buf, sizeof(buf));
	assert_int_equal(len, 16);
	assert_memory_equal(buf,
			    "\x01\x02\x03\x04\x00\x00\x00\x02"
			    "\x00\x00\x00\x05\x00\x00\x00\x07",
			    16);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_sync(buf, len, &out), 0);
	assert_int_equal(out.point, 0x01020304);
	assert_int_equal(out.what, RB_SYNC_STOP);
	assert_int_equal(out.count, 0x0000000500000007ULL);

	/* START carries no count; zero travels as zero. */
	in.what = RB_SYNC_START;
	in.count = 0;
	len = rb_pack_sync(&in, buf, sizeof(buf));
	assert_int_equal(len, 16);
	assert_int_equal(rb_unpack_sync(buf, len, &out), 0);
	assert_int_equal(out.what, RB_SYNC_START);
	assert_int_equal(out.count, 0);
}

static void test_result_roundtrip(void **state)
{
	struct rb_msg_result in, out;
	uint8_t buf[256];
	int len;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.point = 9999;
	in.status = -ETIMEDOUT;
	in.iters = (1ULL << 33) + 5;
	in.bw_avg_gbps = 12.5;
	in.cpu_util_pct = 0.1; /* not exact in binary: the bits must survive */
	in.bw_peak_gbps = 13.25;
	in.msg_rate_mpps = 0.3;
	in.duration_s = 2.5;
	in.has_lat = true;
	in.lat = (struct rb_lat_summary){ .min = 1.5,
					  .p50 = 2,
					  .avg = 2.25,
					  .p90 = 3,
					  .p99 = 4,
					  .p999 = 5,
					  .max = 6.5,
					  .stdev = 0.1,
					  .bucketed = true };
	len = rb_pack_result(&in, buf, sizeof(buf));
	/* v4 appends the peak, the message rate and the duration; v7 the
	 * latency flags (has_lat 1, bucketed 2) and its eight figures. */
	assert_int_equal(len, 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 1 + 8 * 8);
	assert_int_equal(buf[56], 3);
	/* -ETIMEDOUT in two's complement, 12.5 as an IEEE 754 double. */
	assert_memory_equal(buf + 4, "\xff\xff\xff\x92", 4);
	assert_memory_equal(buf + 16, "\x40\x29\x00\x00\x00\x00\x00\x00", 8);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_int_equal(out.point, 9999);
	assert_int_equal(out.status, -ETIMEDOUT);
	assert_true(out.status < 0);
	assert_int_equal(out.iters, (1ULL << 33) + 5);
	assert_double_bits(out.bw_avg_gbps, 12.5);
	assert_double_bits(out.cpu_util_pct, 0.1);
	assert_double_bits(out.bw_peak_gbps, 13.25);
	assert_double_bits(out.msg_rate_mpps, 0.3);
	assert_double_bits(out.duration_s, 2.5);
	assert_true(out.has_lat);
	assert_true(out.lat.bucketed);
	assert_double_bits(out.lat.min, 1.5);
	assert_double_bits(out.lat.p50, 2);
	assert_double_bits(out.lat.avg, 2.25);
	assert_double_bits(out.lat.p90, 3);
	assert_double_bits(out.lat.p99, 4);
	assert_double_bits(out.lat.p999, 5);
	assert_double_bits(out.lat.max, 6.5);
	assert_double_bits(out.lat.stdev, 0.1);
	/* A v3 body (without them) is truncated, not silently zero; so is v6's. */
	assert_int_equal(rb_unpack_result(buf, 32, &out), -EBADMSG);
	assert_int_equal(rb_unpack_result(buf, 56, &out), -EBADMSG);
	/* A flag bit this version does not know is refused; --wr-lat's bit
	 * promises a summary that is not there: truncated (and so do the
	 * setup's and the wake-ups' bits). */
	buf[56] = 64;
	assert_int_equal(rb_unpack_result(buf, len, &out), -EBADMSG);
	buf[56] = 32;
	assert_int_equal(rb_unpack_result(buf, len, &out), -EBADMSG);
	buf[56] = 16;
	assert_int_equal(rb_unpack_result(buf, len, &out), -EBADMSG);
	buf[56] = 4;
	assert_int_equal(rb_unpack_result(buf, len, &out), -EBADMSG);
	buf[56] = 8;
	assert_int_equal(rb_unpack_result(buf, len, &out), -EBADMSG);

	/* v12: the server's --wr-lat summary, its count first. */
	in.has_wr_lat = true;
	in.wr_lat_n = (1ULL << 40) + 3;
	in.wr_lat = (struct rb_lat_summary){ .min = 7, .p50 = 8, .max = 9.5, .bucketed = true };
	len = rb_pack_result(&in, buf, sizeof(buf));
	assert_int_equal(len, 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 1 + 8 * 8 + 8 + 8 * 8);
	assert_int_equal(buf[56], 15);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_true(out.has_wr_lat && out.wr_lat.bucketed && out.has_lat);
	assert_int_equal(out.wr_lat_n, (1ULL << 40) + 3);
	assert_double_bits(out.wr_lat.p50, 8);
	assert_double_bits(out.wr_lat.max, 9.5);
	assert_int_equal(rb_unpack_result(buf, len - 1, &out), -EBADMSG);

	/* v14: the server's setup figures after the --wr-lat summary. */
	in.has_setup = true;
	in.setup_qps = 16384;
	in.setup_create_ms = 341.5;
	in.setup_connect_ms = 0.25;
	len = rb_pack_result(&in, buf, sizeof(buf));
	assert_int_equal(len, 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 1 + 8 * 8 + 8 + 8 * 8 + 4 + 8 + 8);
	assert_int_equal(buf[56], 31);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_true(out.has_setup && out.has_wr_lat);
	assert_int_equal(out.setup_qps, 16384);
	assert_double_bits(out.setup_create_ms, 341.5);
	assert_double_bits(out.setup_connect_ms, 0.25);
	assert_int_equal(out.wr_lat_n, (1ULL << 40) + 3);
	assert_int_equal(rb_unpack_result(buf, len - 1, &out), -EBADMSG);
	in.has_wr_lat = false;
	len = rb_pack_result(&in, buf, sizeof(buf));
	assert_int_equal(buf[56], 19);
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_true(out.has_setup && !out.has_wr_lat);
	assert_int_equal(out.setup_qps, 16384);
	/* v15: the server's wake-ups (--poll event), last. */
	in.has_wakeups = true;
	in.wakeups = (1ULL << 35) + 7;
	len = rb_pack_result(&in, buf, sizeof(buf));
	assert_int_equal(len, 4 + 4 + 8 + 8 + 8 + 8 + 8 + 8 + 1 + 8 * 8 + 4 + 8 + 8 + 8);
	assert_int_equal(buf[56], 51);
	assert_memory_equal(buf + len - 8, "\x00\x00\x00\x08\x00\x00\x00\x07", 8);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_true(out.has_wakeups && out.has_setup);
	assert_int_equal(out.wakeups, (1ULL << 35) + 7);
	assert_int_equal(out.setup_qps, 16384);
	assert_int_equal(rb_unpack_result(buf, len - 1, &out), -EBADMSG);
	in.has_wakeups = false;
	len = rb_pack_result(&in, buf, sizeof(buf));
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_false(out.has_wakeups);
	assert_int_equal(out.wakeups, 0);
	in.has_setup = false;
	in.has_lat = false;
	in.lat.bucketed = false;

	/* The most negative status and awkward doubles. */
	in.status = INT32_MIN;
	in.bw_avg_gbps = -0.0;
	in.cpu_util_pct = 1e-300;
	len = rb_pack_result(&in, buf, sizeof(buf));
	assert_int_equal(rb_unpack_result(buf, len, &out), 0);
	assert_int_equal(out.status, INT32_MIN);
	assert_double_bits(out.bw_avg_gbps, -0.0);
	assert_double_bits(out.cpu_util_pct, 1e-300);
}

/* A DOCTOR's blob: whole, without NUL, its length first; nothing else takes. */
static void test_blob(void **state)
{
	static uint8_t buf[RB_WIRE_MAX_BODY + 8];
	static char big[RB_WIRE_MAX_BODY];
	const char *p;
	size_t n;
	int len;

	(void)state;
	len = rb_pack_blob("{\"a\":1}", 7, buf, sizeof(buf));
	assert_int_equal(len, 11);
	assert_int_equal(rb_unpack_blob(buf, (size_t)len, &p, &n), 0);
	assert_int_equal(n, 7);
	assert_memory_equal(p, "{\"a\":1}", 7);
	/* Short, long, or holding a NUL: refused. */
	assert_int_equal(rb_unpack_blob(buf, (size_t)len - 1, &p, &n), -EBADMSG);
	assert_null(p);
	assert_int_equal(rb_unpack_blob(buf, 3, &p, &n), -EBADMSG);
	buf[len] = 'x';
	assert_int_equal(rb_unpack_blob(buf, (size_t)len + 1, &p, &n), -EBADMSG);
	buf[6] = '\0';
	assert_int_equal(rb_unpack_blob(buf, (size_t)len, &p, &n), -EBADMSG);
	assert_int_equal(rb_pack_blob("a\0b", 3, buf, sizeof(buf)), -EMSGSIZE);
	/* A body holds at most RB_WIRE_MAX_BODY bytes, the length's 4 with them. */
	memset(big, 'x', sizeof(big));
	assert_int_equal(rb_pack_blob(big, sizeof(big) - 4, buf, sizeof(buf)), RB_WIRE_MAX_BODY);
	assert_int_equal(rb_pack_blob(big, sizeof(big) - 3, buf, sizeof(buf)), -EMSGSIZE);
	assert_int_equal(rb_pack_blob(big, 100, buf, 50), -EMSGSIZE);
	assert_string_equal(rb_msg_name(RB_MSG_DOCTOR), "DOCTOR");
}

static void test_text_roundtrip(void **state)
{
	struct rb_msg_text in, out;
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	memset(&in, 0, sizeof(in));
	strcpy(in.text, "server: ibv_reg_mr of 1G failed: Cannot allocate memory");
	len = rb_pack_text(&in, buf, sizeof(buf));
	assert_int_equal(len, 2 + strlen(in.text));
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], strlen(in.text));
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_text(buf, len, &out), 0);
	assert_string_equal(out.text, in.text);

	/* 255 characters: the longest that fits with its NUL. */
	memset(in.text, 'e', 255);
	in.text[255] = '\0';
	len = rb_pack_text(&in, buf, sizeof(buf));
	assert_int_equal(len, 257);
	assert_int_equal(unpack_exact(up_text, buf, len), 0);
	assert_int_equal(rb_unpack_text(buf, len, &out), 0);
	assert_int_equal(strlen(out.text), 255);
	assert_string_equal(out.text, in.text);
}

/* ---- malformed bodies -------------------------------------------------- */

static void test_truncations(void **state)
{
	union any_msg in;
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	sample_params(&in.params);
	len = rb_pack_params(&in.params, buf, sizeof(buf));
	assert_true(len > 0);
	check_truncations(up_params, buf, len, "PARAMS");

	sample_conn(&in.conn, 3);
	len = rb_pack_conn(&in.conn, buf, sizeof(buf));
	assert_true(len > 0);
	check_truncations(up_conn, buf, len, "CONN");
	rb_conn_free(&in.conn);

	memset(&in, 0, sizeof(in));
	strcpy(in.hello.tool_version, "0.3.1");
	strcpy(in.hello.test, "read_lat");
	len = rb_pack_hello(&in.hello, buf, sizeof(buf));
	check_truncations(up_hello, buf, len, "HELLO");

	in.sync.point = 1;
	in.sync.what = RB_SYNC_STOP;
	in.sync.count = 123456789;
	len = rb_pack_sync(&in.sync, buf, sizeof(buf));
	check_truncations(up_sync, buf, len, "SYNC");

	memset(&in, 0, sizeof(in));
	in.result.bw_avg_gbps = 12.5;
	len = rb_pack_result(&in.result, buf, sizeof(buf));
	check_truncations(up_result, buf, len, "RESULT");

	strcpy(in.text.text, "no");
	len = rb_pack_text(&in.text, buf, sizeof(buf));
	check_truncations(up_text, buf, len, "TEXT");
}

static void test_trailing_garbage(void **state)
{
	union any_msg in;
	uint8_t buf[BUFSZ];
	int len;

	(void)state;
	sample_params(&in.params);
	len = rb_pack_params(&in.params, buf, sizeof(buf));
	check_trailing(up_params, buf, len);

	sample_conn(&in.conn, 2);
	len = rb_pack_conn(&in.conn, buf, sizeof(buf));
	check_trailing(up_conn, buf, len);
	rb_conn_free(&in.conn);

	memset(&in, 0, sizeof(in));
	strcpy(in.hello.test, "send_lat");
	len = rb_pack_hello(&in.hello, buf, sizeof(buf));
	check_trailing(up_hello, buf, len);

	len = rb_pack_sync(&in.sync, buf, sizeof(buf));
	check_trailing(up_sync, buf, len);

	len = rb_pack_result(&in.result, buf, sizeof(buf));
	check_trailing(up_result, buf, len);

	memset(&in, 0, sizeof(in));
	strcpy(in.text.text, "bye");
	len = rb_pack_text(&in.text, buf, sizeof(buf));
	check_trailing(up_text, buf, len);
}

/*
 * A PARAMS body built by hand (v18's keyed fields): the test's name first,
 * then -s's axis claiming @count values (its length) with @present there.
 */
static void build_params(struct wb *w, uint32_t count, uint32_t present)
{
	uint32_t i;

	w->n = 0;
	wb_be(w, 8, 2);
	wb_be(w, 0x8001, 2);
	wb_str(w, "send_bw");
	wb_be(w, 0x8002, 2);
	wb_be(w, count * 8, 2);
	for (i = 0; i < present; i++)
		wb_be(w, 64ULL << (i % 20), 8);
	wb_be(w, 0x8005, 2); /* -q 1 */
	wb_be(w, 8, 2);
	wb_be(w, 1, 8);
	wb_be(w, 0x800c, 2); /* -o 16 */
	wb_be(w, 4, 2);
	wb_be(w, 16, 4);
	wb_be(w, 0x8011, 2); /* -c UD */
	wb_be(w, 1, 2);
	wb_be(w, 2, 1);
	wb_be(w, 0x8012, 2); /* --sl 3 */
	wb_be(w, 4, 2);
	wb_be(w, 3, 4);
	wb_be(w, 0x8013, 2); /* --tclass 46 */
	wb_be(w, 4, 2);
	wb_be(w, 46, 4);
	wb_be(w, 0x8014, 2); /* one flow label */
	wb_be(w, 4, 2);
	wb_be(w, 0x12345, 4);
}

static void test_params_axis_count(void **state)
{
	struct rb_params out;
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	/* The builder agrees with the packer: RB_MAX_AXIS values are fine. */
	build_params(w, RB_MAX_AXIS, RB_MAX_AXIS);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), 0);
	assert_int_equal(rb_unpack_params(w->b, w->n, &out), 0);
	assert_string_equal(out.test, "send_bw");
	assert_int_equal(out.size.n, RB_MAX_AXIS);
	assert_int_equal(out.size.v[RB_MAX_AXIS - 1], 64ULL << ((RB_MAX_AXIS - 1) % 20));
	assert_int_equal(out.use_cm, 0);
	assert_int_equal(out.outstanding, 16);
	assert_int_equal(out.transport, RB_TR_UD);
	assert_int_equal(out.sl, 3);
	assert_int_equal(out.tclass, 46);
	assert_int_equal(out.nflow, 1);
	assert_int_equal(out.flow_label[0], 0x12345);

	/* One value more, consistently encoded: still refused. */
	build_params(w, RB_MAX_AXIS + 1, RB_MAX_AXIS + 1);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	/* A huge length with nothing behind it. */
	build_params(w, 0x1fff, 0);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	/* A length that disagrees with the values present. */
	build_params(w, 3, 2);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	build_params(w, 2, 3);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	free(w);
}

/*
 * v18: a field this build does not know is skipped unless marked must
 * understand, and then the plan is refused naming its tag; a known field
 * twice or at a wrong length is refused; a field left out reads as zero.
 */
static void test_params_keyed(void **state)
{
	struct rb_params out;
	struct wb *w = calloc(1, sizeof(*w));
	char err[256];

	(void)state;
	assert_non_null(w);
	/* A newer build's field 0x7abc, optional: skipped. */
	build_params(w, 1, 1);
	w->b[1]++;
	wb_be(w, 0x7abc, 2);
	wb_be(w, 3, 2);
	wb_bytes(w, "new", 3);
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), 0);
	assert_int_equal(out.size.n, 1);
	assert_int_equal(out.outstanding, 16);
	assert_int_equal(out.iters, 0);	   /* left out: zero */
	assert_int_equal(out.rx_depth, 0); /* left out: zero */
	/* The same field marked must understand: refused, named. */
	w->b[w->n - 7] |= 0x80;
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "plan field 31420"));
	assert_non_null(strstr(err, "must"));
	/* A known field twice. */
	build_params(w, 1, 1);
	w->b[1]++;
	wb_be(w, 0x800c, 2);
	wb_be(w, 4, 2);
	wb_be(w, 8, 4);
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "plan field 12 given twice"));
	/* A known field at a wrong length: -o as 2 bytes. */
	build_params(w, 1, 1);
	w->b[1]++;
	wb_be(w, 0x8007, 2);
	wb_be(w, 2, 2);
	wb_be(w, 8, 2);
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "plan field 7 has a bad length (2)"));
	/* Fields in any order: the flow label first. */
	w->n = 0;
	wb_be(w, 2, 2);
	wb_be(w, 0x0014, 2); /* not marked: a known field reads the same */
	wb_be(w, 4, 2);
	wb_be(w, 7, 4);
	wb_be(w, 0x8001, 2);
	wb_str(w, "send_bw");
	assert_int_equal(rb_unpack_params(w->b, w->n, &out), 0);
	assert_string_equal(out.test, "send_bw");
	assert_int_equal(out.nflow, 1);
	assert_int_equal(out.flow_label[0], 7);
	free(w);
}

/* A CONN body built by hand, claiming @nqp QPs and carrying @present. */
/* v18: an empty fingerprint: four empty strings, three zero u32, no PCIe. */
static void wb_fp0(struct wb *w)
{
	int i;

	for (i = 0; i < 4; i++)
		wb_str(w, "");
	for (i = 0; i < 3; i++)
		wb_be(w, 0, 4);
	wb_str(w, ""); /* no PCI function, no link */
	wb_be(w, 0, 4);
	wb_be(w, 0, 4);
	wb_be(w, 0, 2);
	wb_be(w, 0, 2);
}

static void build_conn(struct wb *w, uint32_t nqp, uint32_t present, const char *cpus,
		       size_t cpus_len)
{
	uint32_t i;

	w->n = 0;
	wb_be(w, 1024, 4);
	wb_be(w, 16, 4);
	wb_be(w, 0x1234, 4);
	wb_be(w, 0x1000, 8);
	wb_be(w, 4096, 8);
	wb_be(w, nqp, 4);
	for (i = 0; i < present; i++) {
		uint8_t gid[16];

		memset(gid, (int)i, sizeof(gid));
		wb_be(w, 100 + i, 4);
		wb_be(w, 200 + i, 4);
		wb_be(w, i, 2);
		wb_bytes(w, gid, 16);
	}
	wb_be(w, 0, 4);
	wb_be(w, cpus_len, 2);
	wb_bytes(w, cpus, cpus_len);
	wb_be(w, 0, 4);
	wb_be(w, 1, 4);
	wb_be(w, 0, 4); /* v6: the measuring CPU's clock */
	wb_str(w, "performance");
	wb_be(w, 3000, 4);
	wb_str(w, "rxe0");
	wb_be(w, 1, 1);
	wb_be(w, 1, 4); /* v4: one MR, the one above */
	wb_be(w, 0x1000, 8);
	wb_be(w, 0x1234, 4);
	wb_be(w, 0, 1); /* v9: no probe QP */
	wb_be(w, 1, 1); /* v15: iWARP */
	wb_be(w, 0, 1); /* v18: no DC role, no key */
	wb_be(w, 0, 8);
	wb_fp0(w); /* v18: the fingerprint, empty */
}

/* A CONN body of @nqp QPs whose MR list claims @nmr and carries @present. */
static void build_conn_mrs(struct wb *w, uint32_t nqp, uint32_t nmr, uint32_t present,
			   uint32_t rkey0)
{
	uint32_t i;

	build_conn(w, nqp, nqp < RB_CONN_CHUNK ? nqp : RB_CONN_CHUNK, "1", 1);
	w->n -= 4 + 12 + 1 + 1 + 9 + 34;
	wb_be(w, nmr, 4);
	for (i = 0; i < present; i++) {
		wb_be(w, 0x1000 + 0x100000ULL * i, 8);
		wb_be(w, i ? 0x5000 + i : rkey0, 4);
	}
	wb_be(w, 0, 1); /* v9: no probe QP */
	wb_be(w, 0, 1); /* v15: InfiniBand/RoCE */
	wb_be(w, 0, 1); /* v18: no DC */
	wb_be(w, 0, 8);
	wb_fp0(w); /* v18: the fingerprint, empty */
}

/* v4's MR list: 1..nqp entries, the first the one rkey and addr name. */
static void test_conn_mrs(void **state)
{
	struct rb_msg_conn *out = malloc(sizeof(*out));
	struct wb *w = calloc(1, sizeof(*w));
	uint8_t buf[BUFSZ];

	(void)state;
	assert_non_null(out);
	assert_non_null(w);
	build_conn_mrs(w, 4, 4, 4, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), 0);
	assert_int_equal(rb_unpack_conn(w->b, w->n, out), 0);
	assert_int_equal(out->nmr, 4);
	assert_int_equal(out->mr[3].addr, 0x1000 + 0x300000);
	assert_int_equal(out->mr[3].rkey, 0x5003);
	rb_conn_free(out);
	/* The most MRs: the first chunk of them in CONN. */
	build_conn_mrs(w, RB_MAX_QPS, RB_MAX_QPS, RB_CONN_CHUNK, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), 0);
	build_conn_mrs(w, RB_MAX_QPS, RB_MAX_QPS, RB_CONN_CHUNK + 1, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);

	/* No MR, more MRs than QPs, a huge count, counts that disagree with
	 * what is present, a first MR that is not the one named above. */
	build_conn_mrs(w, 4, 0, 0, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn_mrs(w, 4, 5, 5, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn_mrs(w, 4, 0xffffffffu, 0, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn_mrs(w, 4, 4, 3, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn_mrs(w, 4, 2, 3, 0x1234);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn_mrs(w, 4, 4, 4, 0x9999);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);

	/* The packer refuses what the unpacker would. */
	sample_conn(out, 4);
	out->nmr = 0;
	assert_int_equal(rb_pack_conn(out, buf, sizeof(buf)), -EMSGSIZE);
	out->nmr = 5;
	assert_int_equal(rb_pack_conn(out, buf, sizeof(buf)), -EMSGSIZE);
	rb_conn_free(out);
	free(w);
	free(out);
}

static void test_conn_nqp(void **state)
{
	struct rb_msg_conn *out = malloc(sizeof(*out));
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(out);
	assert_non_null(w);
	/* The most QPs: CONN carries the first chunk, the rest come after. */
	build_conn(w, RB_MAX_QPS, RB_CONN_CHUNK, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), 0);
	assert_int_equal(rb_unpack_conn(w->b, w->n, out), 0);
	assert_int_equal(out->nqp, RB_MAX_QPS);
	assert_int_equal(out->qp[RB_CONN_CHUNK - 1].qpn, 100 + RB_CONN_CHUNK - 1);
	assert_int_equal(out->qp[RB_CONN_CHUNK - 1].gid[15], (RB_CONN_CHUNK - 1) & 0xff);
	assert_int_equal(out->qp[RB_CONN_CHUNK].qpn, 0);
	assert_int_equal(rb_conn_chunks(out), (RB_MAX_QPS - 1) / RB_CONN_CHUNK);
	assert_string_equal(out->place.cpus, "1");
	assert_int_equal(out->place.local, 1);
	rb_conn_free(out);
	/* The whole list in CONN is too long now: the MR count lands in QPs. */
	build_conn(w, RB_CONN_CHUNK + 1, RB_CONN_CHUNK + 1, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);

	build_conn(w, RB_MAX_QPS + 1, RB_CONN_CHUNK, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn(w, 0xffffffffu, 0, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn(w, 2, 1, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn(w, 1, 2, "1", 1);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);

	/* And the packer refuses to write what the unpacker would refuse. */
	{
		uint8_t buf[BUFSZ];

		sample_conn(out, 64);
		out->nqp = RB_MAX_QPS + 1;
		assert_int_equal(rb_pack_conn(out, buf, sizeof(buf)), -EMSGSIZE);
		rb_conn_free(out);
		assert_int_equal(rb_conn_alloc(out, RB_MAX_QPS + 1, 1), -EINVAL);
	}
	free(w);
	free(out);
}

/*
 * v13: a CONN of @n QPs and @n MRs, then its CONN_MORE messages, each
 * under the frame cap, decoded into @out in order; and the result passes
 * the plan validator.
 */
static void conn_lists_roundtrip(uint32_t n, struct rb_msg_conn *out)
{
	const struct rb_conn_want want = { n, n, 3ULL << 30, false, 0 };
	uint8_t *buf = malloc(RB_WIRE_MAX_BODY);
	struct rb_msg_conn in;
	char err[256];
	uint32_t k;
	int len;

	assert_non_null(buf);
	sample_conn(&in, n);
	assert_int_equal(rb_conn_chunks(&in), 2 * ((n - 1) / RB_CONN_CHUNK));
	len = rb_pack_conn(&in, buf, RB_WIRE_MAX_BODY);
	assert_int_equal(len, conn_len(&in));
	assert_int_equal(rb_unpack_conn(buf, len, out), 0);
	assert_int_equal(rb_conn_counts(out, &want, err, sizeof(err)), 0);
	for (k = 0; k < rb_conn_chunks(&in); k++) {
		len = rb_pack_conn_more(&in, k, buf, RB_WIRE_MAX_BODY);
		assert_true(len > 0 && len <= RB_WIRE_MAX_BODY);
		assert_int_equal(rb_unpack_conn_more(buf, len, out, k), 0);
	}
	assert_int_equal(rb_pack_conn_more(&in, k, buf, RB_WIRE_MAX_BODY), -EMSGSIZE);
	assert_conn_equal(&in, out);
	if (rb_conn_validate(out, &want, err, sizeof(err)))
		fail_msg("%u QPs: %s", n, err);
	rb_conn_free(&in);
	free(buf);
}

static void test_conn_lists(void **state)
{
	static const uint32_t ns[] = { 1,    64,   RB_CONN_CHUNK, RB_CONN_CHUNK + 1,
				       2048, 2049, RB_MAX_QPS };
	struct rb_msg_conn out;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		conn_lists_roundtrip(ns[i], &out);
		rb_conn_free(&out);
	}
	/* 16385: neither made, packed nor (test_conn_nqp) unpacked. */
	assert_int_equal(rb_conn_alloc(&out, RB_MAX_QPS + 1, 1), -EINVAL);
	conn_lists_roundtrip(2, &out);
	out.nqp = RB_MAX_QPS + 1;
	assert_int_equal(rb_conn_chunks(&out) > 0, true);
	out.nqp = 2;
	rb_conn_free(&out);
}

/* A peer's CONN_MORE out of order, short, long, truncated or mislabelled. */
static void test_conn_more_hostile(void **state)
{
	const struct rb_conn_want want = { 2048, 2048, 3ULL << 30, false, 0 };
	uint8_t *qp1 = malloc(RB_WIRE_MAX_BODY), *mr1 = malloc(RB_WIRE_MAX_BODY);
	struct rb_msg_conn in, out;
	char err[256];
	int nq, nm;
	size_t k;

	(void)state;
	assert_non_null(qp1);
	assert_non_null(mr1);
	conn_lists_roundtrip(2048, &out);
	sample_conn(&in, 2048);
	nq = rb_pack_conn_more(&in, 0, qp1, RB_WIRE_MAX_BODY);
	nm = rb_pack_conn_more(&in, 1, mr1, RB_WIRE_MAX_BODY);
	assert_int_equal(nq, 9 + 26 * 1024);
	assert_int_equal(nm, 9 + 12 * 1024);
	/* Out of order: the MR chunk first, or the QP chunk twice. */
	assert_int_equal(rb_unpack_conn_more(mr1, nm, &out, 0), -EBADMSG);
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 1), -EBADMSG);
	/* Past the last chunk. */
	assert_int_equal(rb_unpack_conn_more(mr1, nm, &out, 2), -EBADMSG);
	/* Truncated anywhere, or one byte long. */
	for (k = 0; k < (size_t)nm; k += 7)
		assert_int_equal(rb_unpack_conn_more(mr1, k, &out, 1), -EBADMSG);
	mr1[nm] = 0;
	assert_int_equal(rb_unpack_conn_more(mr1, nm + 1, &out, 1), -EBADMSG);
	/* Another first index, a short or long count (with its entries). */
	qp1[4] ^= 1;
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 0), -EBADMSG);
	qp1[4] ^= 1;
	qp1[8] -= 1; /* 1023 entries */
	assert_int_equal(rb_unpack_conn_more(qp1, nq - 26, &out, 0), -EBADMSG);
	qp1[8] += 2; /* 1025 */
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 0), -EBADMSG);
	qp1[8] -= 1;
	qp1[0] = 3; /* no such list */
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 0), -EBADMSG);
	/* A QP in a chunk that the validator refuses, named by its index. */
	qp1[0] = 1;
	qp1[9] = 0xff; /* qp[1024].qpn's top byte */
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 0), 0);
	assert_int_equal(rb_conn_validate(&out, &want, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "qp[1024].qpn"));
	/* Into a CONN that has no lists. */
	rb_conn_free(&out);
	assert_int_equal(rb_unpack_conn_more(qp1, nq, &out, 0), -EBADMSG);
	rb_conn_free(&in);
	free(qp1);
	free(mr1);
}

static void test_string_prefix_too_long(void **state)
{
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	/* TEXT: claims 10 bytes, carries 3. */
	wb_be(w, 10, 2);
	wb_bytes(w, "abc", 3);
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	/* TEXT: claims 65535 bytes. */
	w->n = 0;
	wb_be(w, 0xffff, 2);
	wb_bytes(w, "abcdef", 6);
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	/* TEXT: RB_TEXT_MAX bytes present, but they cannot fit with a NUL. */
	w->n = 0;
	wb_be(w, RB_TEXT_MAX, 2);
	memset(w->b + w->n, 'a', RB_TEXT_MAX);
	w->n += RB_TEXT_MAX;
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	/* HELLO: 32-byte tool version, all present, one too long for [32]. */
	w->n = 0;
	wb_be(w, 32, 2);
	memset(w->b + w->n, 'v', 32);
	w->n += 32;
	wb_str(w, "send_lat");
	assert_int_equal(unpack_exact(up_hello, w->b, w->n), -EBADMSG);
	/* HELLO: the second string's prefix runs past the body. */
	w->n = 0;
	wb_str(w, "0.3.1");
	wb_be(w, 9, 2);
	wb_bytes(w, "send_lat", 8);
	assert_int_equal(unpack_exact(up_hello, w->b, w->n), -EBADMSG);
	/* PARAMS: the test name's prefix runs past the whole body. */
	w->n = 0;
	wb_be(w, 0x7fff, 2);
	wb_bytes(w, "x", 1);
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	/* CONN: a CPU list longer than cpus[128]. */
	{
		char cpus[128];

		memset(cpus, '1', sizeof(cpus));
		build_conn(w, 1, 1, cpus, sizeof(cpus));
		assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
		build_conn(w, 1, 1, cpus, sizeof(cpus) - 1);
		assert_int_equal(unpack_exact(up_conn, w->b, w->n), 0);
	}
	free(w);
}

static void test_string_embedded_nul(void **state)
{
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	wb_be(w, 5, 2);
	wb_bytes(w, "ab\0cd", 5);
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	/* A NUL as the last byte is still embedded: lengths exclude the NUL. */
	w->n = 0;
	wb_be(w, 3, 2);
	wb_bytes(w, "ab\0", 3);
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	w->n = 0;
	wb_be(w, 1, 2);
	wb_bytes(w, "\0", 1);
	assert_int_equal(unpack_exact(up_text, w->b, w->n), -EBADMSG);
	/* In HELLO's second string. */
	w->n = 0;
	wb_str(w, "0.3.1");
	wb_be(w, 8, 2);
	wb_bytes(w, "send\0lat", 8);
	assert_int_equal(unpack_exact(up_hello, w->b, w->n), -EBADMSG);
	/* In PARAMS' test name (after the count, the tag and the length). */
	build_params(w, 1, 1);
	w->b[2 + 4 + 3] = '\0';
	assert_int_equal(unpack_exact(up_params, w->b, w->n), -EBADMSG);
	/* In CONN's CPU list. */
	build_conn(w, 1, 1, "0-3\0008", 5);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), -EBADMSG);
	build_conn(w, 1, 1, "0-3 8", 5);
	assert_int_equal(unpack_exact(up_conn, w->b, w->n), 0);
	free(w);
}

static void test_pack_small_buffer(void **state)
{
	union any_msg msg, *in = &msg;
	uint8_t buf[BUFSZ];
	size_t len;

	(void)state;
	sample_params(&in->params);
	len = params_len(&in->params);
	CHECK_SMALL_CAP(rb_pack_params, &in->params, len);

	sample_conn(&in->conn, 3);
	len = conn_len(&in->conn);
	CHECK_SMALL_CAP(rb_pack_conn, &in->conn, len);
	rb_conn_free(&in->conn);

	memset(in, 0, sizeof(*in));
	strcpy(in->hello.tool_version, "0.3.1");
	strcpy(in->hello.test, "atomic_lat");
	CHECK_SMALL_CAP(rb_pack_hello, &in->hello, 2 + 5 + 2 + 10 + 2 + 2 + 2 + 1 + 32);

	in->sync.count = 1;
	CHECK_SMALL_CAP(rb_pack_sync, &in->sync, 16);
	CHECK_SMALL_CAP(rb_pack_result, &in->result, 121);

	memset(in, 0, sizeof(*in));
	strcpy(in->text.text, "too small");
	CHECK_SMALL_CAP(rb_pack_text, &in->text, 2 + 9);

	/* A failed pack writes nothing past the capacity. */
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(rb_pack_text(&in->text, buf, 5), -EMSGSIZE);
	assert_int_equal(buf[5], 0xee);
}

/* cursor.h's GET_STR() of the @len bytes at @b into @out: rdone()'s verdict. */
static int unpack_str(const uint8_t *b, size_t len, char (*out)[8])
{
	struct cur c = rcur(b, len);

	strcpy(*out, "old");
	GET_STR(&c, *out);
	return rdone(&c);
}

/*
 * cursor.h's strings, one rule both ways: a string that exactly fits its
 * field travels; one too long is refused by the packer, and by the
 * unpacker; one unterminated or cut short on the wire is refused, and
 * leaves its field empty.
 */
static void test_str_codec(void **state)
{
	char field[8], out[8], big[9] = "12345678";
	uint8_t b[32];
	struct cur c;

	(void)state;
	/* Seven bytes and the NUL: exactly fits. */
	strcpy(field, "1234567");
	c = wcur(b, sizeof(b));
	PUT_STR(&c, field);
	assert_int_equal(wdone(&c), 2 + 7);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[1], 7);
	assert_int_equal(unpack_str(b, 9, &out), 0);
	assert_string_equal(out, "1234567");

	/* Eight bytes: too long for the field, on either side. */
	c = wcur(b, sizeof(b));
	put_str(&c, big, sizeof(field));
	assert_int_equal(wdone(&c), -EMSGSIZE);
	memset(field, 'x', sizeof(field)); /* unterminated in its field */
	c = wcur(b, sizeof(b));
	PUT_STR(&c, field);
	assert_int_equal(wdone(&c), -EMSGSIZE);
	c = wcur(b, sizeof(b));
	PUT_STR(&c, big);
	assert_int_equal(wdone(&c), 2 + 8);
	assert_int_equal(unpack_str(b, 10, &out), -EBADMSG);
	assert_string_equal(out, "");

	/* Unterminated on the wire: a length that fits, more than the body holds. */
	b[1] = 5;
	assert_int_equal(unpack_str(b, 6, &out), -EBADMSG);
	assert_string_equal(out, "");
	/* A length cut in half, and a NUL inside. */
	assert_int_equal(unpack_str(b, 1, &out), -EBADMSG);
	b[1] = 3;
	memcpy(b + 2, "a\0b", 3);
	assert_int_equal(unpack_str(b, 5, &out), -EBADMSG);
	assert_string_equal(out, "");
	/* The empty string. */
	b[1] = 0;
	assert_int_equal(unpack_str(b, 2, &out), 0);
	assert_string_equal(out, "");
}

/*
 * The packer must not emit (nor read past v[] for) an axis the unpacker
 * will refuse, as rb_pack_conn() already does for nqp.
 */
static void test_pack_params_axis_overflow(void **state)
{
	struct rb_params p, *in = &p;
	uint8_t buf[BUFSZ];

	(void)state;
	sample_params(in);
	in->size.n = RB_MAX_AXIS + 1;
	assert_int_equal(rb_pack_params(in, buf, sizeof(buf)), -EMSGSIZE);
	sample_params(in);
	in->batch.n = RB_MAX_AXIS + 1;
	assert_int_equal(rb_pack_params(in, buf, sizeof(buf)), -EMSGSIZE);
}

/* ---- fuzz -------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: fixed seed, reproducible on every platform. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* An accepted body is canonical: packing what was unpacked gives it back. */
static bool lat_nan(const struct rb_lat_summary *l)
{
	return isnan(l->min) || isnan(l->p50) || isnan(l->avg) || isnan(l->p90) || isnan(l->p99) ||
	       isnan(l->p999) || isnan(l->max) || isnan(l->stdev);
}

static void check_canonical(int which, const union any_msg *m, const uint8_t *in, size_t len)
{
	uint8_t out[BUFSZ];
	int n = -1;

	switch (which) {
	case 0:
		n = rb_pack_hello(&m->hello, out, sizeof(out));
		break;
	case 1: {
		/* v18: keyed fields in any order, unknown ones skipped: what
		 * was read packs to a body that reads the same. */
		struct rb_params again;

		n = rb_pack_params(&m->params, out, sizeof(out));
		assert_true(n > 0);
		assert_int_equal(rb_unpack_params(out, (size_t)n, &again), 0);
		assert_memory_equal(&again, &m->params, sizeof(again));
		return;
	}
	case 2:
		n = rb_pack_conn(&m->conn, out, sizeof(out));
		break;
	case 3:
		n = rb_pack_sync(&m->sync, out, sizeof(out));
		break;
	case 4:
		/* NaN payloads may be quietened on some ABIs; skip those. */
		if (isnan(m->result.bw_avg_gbps) || isnan(m->result.cpu_util_pct) ||
		    isnan(m->result.bw_peak_gbps) || isnan(m->result.msg_rate_mpps) ||
		    isnan(m->result.duration_s) || lat_nan(&m->result.lat) ||
		    (m->result.has_wr_lat && lat_nan(&m->result.wr_lat)) ||
		    (m->result.has_setup &&
		     (isnan(m->result.setup_create_ms) || isnan(m->result.setup_connect_ms))))
			return;
		n = rb_pack_result(&m->result, out, sizeof(out));
		break;
	case 5:
		n = rb_pack_text(&m->text, out, sizeof(out));
		break;
	}
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
}

static void test_fuzz(void **state)
{
	static const unpack_fn fns[] = { up_hello, up_params, up_conn, up_sync, up_result, up_text };
	uint8_t seeds[6][BUFSZ];
	size_t seed_len[6];
	union any_msg *m = malloc(sizeof(*m));
	uint8_t buf[BUFSZ];
	unsigned long accepted = 0;
	int it, k;

	(void)state;
	assert_non_null(m);
	/* Valid bodies to mutate, so the fuzz gets past the first field. */
	memset(m, 0, sizeof(*m));
	strcpy(m->hello.tool_version, "0.3.1");
	strcpy(m->hello.test, "send_lat");
	seed_len[0] = rb_pack_hello(&m->hello, seeds[0], BUFSZ);
	sample_params(&m->params);
	seed_len[1] = rb_pack_params(&m->params, seeds[1], BUFSZ);
	sample_conn(&m->conn, 4);
	seed_len[2] = rb_pack_conn(&m->conn, seeds[2], BUFSZ);
	rb_conn_free(&m->conn);
	memset(m, 0, sizeof(*m));
	m->sync.point = 5;
	seed_len[3] = rb_pack_sync(&m->sync, seeds[3], BUFSZ);
	m->result.bw_avg_gbps = 12.5;
	seed_len[4] = rb_pack_result(&m->result, seeds[4], BUFSZ);
	memset(m, 0, sizeof(*m));
	strcpy(m->text.text, "peer gave up");
	seed_len[5] = rb_pack_text(&m->text, seeds[5], BUFSZ);

	rng_state = 0x9e3779b97f4a7c15ULL;
	for (it = 0; it < 20000; it++) {
		int which = (int)(rng() % 6);
		size_t len, i;
		uint8_t *q;
		int ret;

		if (rng() % 2) {
			/* Pure garbage, biased towards small lengths. */
			len = (size_t)(rng() % (rng() % 2 ? 64 : 2048));
			for (i = 0; i < len; i++)
				buf[i] = (uint8_t)rng();
			/* Small length prefixes and counts reach further. */
			if (len >= 2 && rng() % 2)
				buf[0] = 0;
		} else {
			/* A valid body, mutated, truncated or extended. */
			len = seed_len[which];
			memcpy(buf, seeds[which], len);
			for (k = (int)(rng() % 4); k >= 0; k--) {
				switch (rng() % 4) {
				case 0:
					if (len)
						buf[rng() % len] = (uint8_t)rng();
					break;
				case 1:
					if (len)
						buf[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
					break;
				case 2:
					if (len)
						len = (size_t)(rng() % len);
					break;
				default:
					if (len + 8 <= BUFSZ) {
						buf[len] = (uint8_t)rng();
						len++;
					}
					break;
				}
			}
		}
		q = dup_exact(buf, len);
		memset(m, 0xa5, sizeof(*m));
		ret = fns[which](q, len, m);
		/* PARAMS (v18) also refuses a field it must understand and does not know. */
		if (ret != 0 && ret != -EBADMSG && !(fns[which] == up_params && ret == -ENOTSUP)) {
			print_error("iteration %d, unpacker %d returned %d\n", it, which, ret);
			fail();
		}
		if (!ret) {
			accepted++;
			check_canonical(which, m, q, len);
			if (which == 2)
				rb_conn_free(&m->conn);
		}
		/* The other unpackers must cope with the same bytes. */
		for (k = 0; k < 6; k++) {
			memset(m, 0xa5, sizeof(*m));
			ret = fns[k](q, len, m);
			assert_true(ret == 0 || ret == -EBADMSG || (k == 1 && ret == -ENOTSUP));
			if (!ret && k == 2)
				rb_conn_free(&m->conn);
		}
		/* And the header parser with the first 12 of them. */
		if (len >= RB_WIRE_HDR_LEN) {
			struct rb_hdr h;
			char err[128] = "";

			ret = rb_hdr_unpack(q, &h, err, sizeof(err));
			assert_true(ret == 0 || ret == -EBADMSG || ret == -EPROTO ||
				    ret == -EMSGSIZE);
			assert_true(ret == 0 || err[0] != '\0');
		}
		free(q);
	}
	/* The mutations must not be so wild that nothing is ever accepted. */
	assert_true(accepted > 100);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_pack_bytes),
		cmocka_unit_test(test_hdr_roundtrip_all_types),
		cmocka_unit_test(test_data_roundtrip),
		cmocka_unit_test(test_hdr_bad_magic),
		cmocka_unit_test(test_hdr_other_version),
		cmocka_unit_test(test_hdr_too_long),
		cmocka_unit_test(test_hello_roundtrip),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_conn_roundtrip),
		cmocka_unit_test(test_sync_roundtrip),
		cmocka_unit_test(test_result_roundtrip),
		cmocka_unit_test(test_text_roundtrip),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_trailing_garbage),
		cmocka_unit_test(test_params_axis_count),
		cmocka_unit_test(test_params_keyed),
		cmocka_unit_test(test_conn_nqp),
		cmocka_unit_test(test_conn_lists),
		cmocka_unit_test(test_conn_more_hostile),
		cmocka_unit_test(test_conn_mrs),
		cmocka_unit_test(test_string_prefix_too_long),
		cmocka_unit_test(test_string_embedded_nul),
		cmocka_unit_test(test_pack_small_buffer),
		cmocka_unit_test(test_str_codec),
		cmocka_unit_test(test_pack_params_axis_overflow),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_blob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
