// SPDX-License-Identifier: MIT
/*
 * Unit tests for the out-of-band messages' unpackers fed truncated,
 * padded and inconsistent bodies.  Bodies are copied into buffers of
 * exactly their length so ASan catches any read past @len.
 */
#include "wire_fx.h"

/* @w's body, copied to a buffer of its length, is refused as malformed (or accepted) by @up. */
#define assert_refused(up, w)  assert_int_equal(unpack_exact(up, (w)->b, (w)->n), -EBADMSG)
#define assert_accepted(up, w) assert_int_equal(unpack_exact(up, (w)->b, (w)->n), 0)

/* @w emptied, then a body's first two bytes: a count of fields, or a TEXT's length. */
static void wb_start(struct wb *w, uint64_t count)
{
	w->n = 0;
	wb_be(w, count, 2);
}

/* A TEXT body: the length prefix @claim, then the @n bytes at @s. */
static void wb_text(struct wb *w, uint64_t claim, const void *s, size_t n)
{
	wb_start(w, claim);
	wb_bytes(w, s, n);
}

/* A keyed field whose length is that of the @n bytes at @s that follow. */
static void wb_kbytes(struct wb *w, uint16_t tag, bool optional, const void *s, size_t n)
{
	wb_key(w, tag, optional, n);
	wb_bytes(w, s, n);
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

	wb_start(w, 8);
	wb_be(w, 0x8001, 2);
	wb_str(w, "send_bw");
	wb_be(w, 0x8002, 2);
	wb_be(w, count * 8, 2);
	for (i = 0; i < present; i++)
		wb_be(w, 64ULL << (i % 20), 8);
	wb_key(w, 5, false, 8); /* -q 1 */
	wb_be(w, 1, 8);
	wb_key(w, 12, false, 4); /* -o 16 */
	wb_be(w, 16, 4);
	wb_key(w, 17, false, 1); /* -c UD */
	wb_be(w, 2, 1);
	wb_key(w, 18, false, 4); /* --sl 3 */
	wb_be(w, 3, 4);
	wb_key(w, 19, false, 4); /* --tclass 46 */
	wb_be(w, 46, 4);
	wb_key(w, 20, false, 4); /* one flow label */
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
	assert_accepted(up_params, w);
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
	assert_refused(up_params, w);
	/* A huge length with nothing behind it. */
	build_params(w, 0x1fff, 0);
	assert_refused(up_params, w);
	/* A length that disagrees with the values present. */
	build_params(w, 3, 2);
	assert_refused(up_params, w);
	build_params(w, 2, 3);
	assert_refused(up_params, w);
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
	wb_key(w, 12, false, 4);
	wb_be(w, 8, 4);
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "plan field 12 given twice"));
	/* A known field at a wrong length: -o as 2 bytes. */
	build_params(w, 1, 1);
	w->b[1]++;
	wb_key(w, 7, false, 2);
	wb_be(w, 8, 2);
	assert_int_equal(rb_unpack_params_why(w->b, w->n, &out, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "plan field 7 has a bad length (2)"));
	/* Fields in any order: the flow label first. */
	wb_start(w, 2);
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

/*
 * A CONN body built by hand (v19: keyed), its QP list claiming @nqp QPs
 * and carrying @present, its MR list claiming @nmr and carrying @mrs
 * (the first with @rkey0); the rest one RoCE port's.
 */
static void build_conn_all(struct wb *w, uint32_t nqp, uint32_t present, const char *cpus,
			   size_t cpus_len, uint32_t nmr, uint32_t mrs, uint32_t rkey0)
{
	uint32_t i;

	wb_start(w, 13); /* the fields below */
	wb_key(w, 1, false, 4);
	wb_be(w, 1024, 4);
	wb_key(w, 2, false, 4);
	wb_be(w, 16, 4);
	wb_key(w, 3, false, 4);
	wb_be(w, 0x1234, 4);
	wb_key(w, 4, false, 8);
	wb_be(w, 0x1000, 8);
	wb_key(w, 5, false, 8);
	wb_be(w, 4096, 8);
	wb_key(w, 6, false, 4 + 26 * (size_t)present);
	wb_be(w, nqp, 4);
	for (i = 0; i < present; i++) {
		uint8_t gid[16];

		memset(gid, (int)i, sizeof(gid));
		wb_be(w, 100 + i, 4);
		wb_be(w, 200 + i, 4);
		wb_be(w, i, 2);
		wb_bytes(w, gid, 16);
	}
	wb_key(w, 17, true, cpus_len);
	wb_bytes(w, cpus, cpus_len);
	wb_key(w, 19, true, 4); /* local */
	wb_be(w, 1, 4);
	wb_key(w, 21, true, 11);
	wb_bytes(w, "performance", 11);
	wb_key(w, 22, true, 4);
	wb_be(w, 3000, 4);
	wb_key(w, 8, true, 4);
	wb_bytes(w, "rxe0", 4);
	wb_key(w, 9, false, 1);
	wb_be(w, 1, 1);
	wb_key(w, 7, false, 4 + 12 * (size_t)mrs);
	wb_be(w, nmr, 4);
	for (i = 0; i < mrs; i++) {
		wb_be(w, 0x1000 + 0x100000ULL * i, 8);
		wb_be(w, i ? 0x5000 + i : rkey0, 4);
	}
}

static void build_conn(struct wb *w, uint32_t nqp, uint32_t present, const char *cpus,
		       size_t cpus_len)
{
	build_conn_all(w, nqp, present, cpus, cpus_len, 1, 1, 0x1234);
}

/* A CONN body of @nqp QPs whose MR list claims @nmr and carries @present. */
static void build_conn_mrs(struct wb *w, uint32_t nqp, uint32_t nmr, uint32_t present,
			   uint32_t rkey0)
{
	build_conn_all(w, nqp, nqp < RB_CONN_CHUNK ? nqp : RB_CONN_CHUNK, "1", 1, nmr, present,
		       rkey0);
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
	assert_accepted(up_conn, w);
	assert_int_equal(rb_unpack_conn(w->b, w->n, out), 0);
	assert_int_equal(out->nmr, 4);
	assert_int_equal(out->mr[3].addr, 0x1000 + 0x300000);
	assert_int_equal(out->mr[3].rkey, 0x5003);
	rb_conn_free(out);
	/* The most MRs: the first chunk of them in CONN. */
	build_conn_mrs(w, RB_MAX_QPS, RB_MAX_QPS, RB_CONN_CHUNK, 0x1234);
	assert_accepted(up_conn, w);
	build_conn_mrs(w, RB_MAX_QPS, RB_MAX_QPS, RB_CONN_CHUNK + 1, 0x1234);
	assert_refused(up_conn, w);

	/* No MR, more MRs than QPs, a huge count, counts that disagree with
	 * what is present, a first MR that is not the one named above. */
	build_conn_mrs(w, 4, 0, 0, 0x1234);
	assert_refused(up_conn, w);
	build_conn_mrs(w, 4, 5, 5, 0x1234);
	assert_refused(up_conn, w);
	build_conn_mrs(w, 4, 0xffffffffu, 0, 0x1234);
	assert_refused(up_conn, w);
	build_conn_mrs(w, 4, 4, 3, 0x1234);
	assert_refused(up_conn, w);
	build_conn_mrs(w, 4, 2, 3, 0x1234);
	assert_refused(up_conn, w);
	build_conn_mrs(w, 4, 4, 4, 0x9999);
	assert_refused(up_conn, w);

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
	assert_accepted(up_conn, w);
	assert_int_equal(rb_unpack_conn(w->b, w->n, out), 0);
	assert_int_equal(out->nqp, RB_MAX_QPS);
	assert_int_equal(out->qp[RB_CONN_CHUNK - 1].qpn, 100 + RB_CONN_CHUNK - 1);
	assert_int_equal(out->qp[RB_CONN_CHUNK - 1].gid[15], (RB_CONN_CHUNK - 1) & 0xff);
	assert_int_equal(out->qp[RB_CONN_CHUNK].qpn, 0);
	assert_int_equal(rb_conn_chunks(out), (RB_MAX_QPS - 1) / RB_CONN_CHUNK);
	assert_string_equal(out->place.cpus, "1");
	assert_int_equal(out->place.local, 1);
	rb_conn_free(out);
	/* A list longer than its first chunk, or shorter, than its count says. */
	build_conn(w, RB_CONN_CHUNK + 1, RB_CONN_CHUNK + 1, "1", 1);
	assert_refused(up_conn, w);

	build_conn(w, RB_MAX_QPS + 1, RB_CONN_CHUNK, "1", 1);
	assert_refused(up_conn, w);
	build_conn(w, 0xffffffffu, 0, "1", 1);
	assert_refused(up_conn, w);
	build_conn(w, 2, 1, "1", 1);
	assert_refused(up_conn, w);
	build_conn(w, 1, 2, "1", 1);
	assert_refused(up_conn, w);

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
	wb_text(w, 10, "abc", 3);
	assert_refused(up_text, w);
	/* TEXT: claims 65535 bytes. */
	wb_text(w, 0xffff, "abcdef", 6);
	assert_refused(up_text, w);
	/* TEXT: RB_TEXT_MAX bytes present, but they cannot fit with a NUL. */
	wb_start(w, RB_TEXT_MAX);
	memset(w->b + w->n, 'a', RB_TEXT_MAX);
	w->n += RB_TEXT_MAX;
	assert_refused(up_text, w);
	/* HELLO: 32-byte tool version, all present, one too long for [32]. */
	wb_start(w, 2);
	wb_key(w, 1, true, 32);
	memset(w->b + w->n, 'v', 32);
	w->n += 32;
	wb_kbytes(w, 2, false, "send_lat", 8);
	assert_refused(up_hello, w);
	/* HELLO: the second field's length runs past the body. */
	wb_start(w, 2);
	wb_kbytes(w, 1, true, "0.3.1", 5);
	wb_key(w, 2, false, 9);
	wb_bytes(w, "send_lat", 8);
	assert_refused(up_hello, w);
	/* PARAMS: the test name's prefix runs past the whole body. */
	wb_start(w, 0x7fff);
	wb_bytes(w, "x", 1);
	assert_refused(up_params, w);
	/* CONN: a CPU list longer than cpus[128]. */
	{
		char cpus[128];

		memset(cpus, '1', sizeof(cpus));
		build_conn(w, 1, 1, cpus, sizeof(cpus));
		assert_refused(up_conn, w);
		build_conn(w, 1, 1, cpus, sizeof(cpus) - 1);
		assert_accepted(up_conn, w);
	}
	free(w);
}

static void test_string_embedded_nul(void **state)
{
	struct wb *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	wb_text(w, 5, "ab\0cd", 5);
	assert_refused(up_text, w);
	/* A NUL as the last byte is still embedded: lengths exclude the NUL. */
	wb_text(w, 3, "ab\0", 3);
	assert_refused(up_text, w);
	wb_text(w, 1, "\0", 1);
	assert_refused(up_text, w);
	/* In HELLO's test. */
	wb_start(w, 1);
	wb_kbytes(w, 2, false, "send\0lat", 8);
	assert_refused(up_hello, w);
	/* In PARAMS' test name (after the count, the tag and the length). */
	build_params(w, 1, 1);
	w->b[2 + 4 + 3] = '\0';
	assert_refused(up_params, w);
	/* In CONN's CPU list. */
	build_conn(w, 1, 1, "0-3\0008", 5);
	assert_refused(up_conn, w);
	build_conn(w, 1, 1, "0-3 8", 5);
	assert_accepted(up_conn, w);
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
	CHECK_SMALL_CAP(rb_pack_hello, &in->hello, 2 + 4 + 5 + 4 + 10);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
