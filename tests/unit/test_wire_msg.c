// SPDX-License-Identifier: MIT
/*
 * Unit tests for the out-of-band message header (src/wire/wire.c): exact
 * encodings, round trips of every type, bad magic, other versions, lengths
 * past the cap; and every unpacker fed random bodies (the fuzz part).
 */
#include "wire_fx.h"

/* ---- header ------------------------------------------------------------ */

static void test_hdr_pack_bytes(void **state)
{
	static const uint8_t want[RB_WIRE_HDR_LEN] = { 'R',  'D',  'M',	 'B',  0x00, 0x13,
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
	case 0: {
		/* v19: keyed fields in any order, unknown ones skipped: what
		 * was read packs to a body that reads the same. */
		struct rb_msg_hello again;

		n = rb_pack_hello(&m->hello, out, sizeof(out));
		assert_true(n > 0);
		assert_int_equal(rb_unpack_hello(out, (size_t)n, &again), 0);
		assert_memory_equal(&again, &m->hello, sizeof(again));
		return;
	}
	case 1: {
		struct rb_params again;

		n = rb_pack_params(&m->params, out, sizeof(out));
		assert_true(n > 0);
		assert_int_equal(rb_unpack_params(out, (size_t)n, &again), 0);
		assert_memory_equal(&again, &m->params, sizeof(again));
		return;
	}
	case 2: {
		struct rb_msg_conn again;

		n = rb_pack_conn(&m->conn, out, sizeof(out));
		assert_true(n > 0);
		assert_int_equal(rb_unpack_conn(out, (size_t)n, &again), 0);
		assert_conn_equal(&again, &m->conn);
		rb_conn_free(&again);
		return;
	}
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
		/* PARAMS, HELLO and CONN (keyed) also refuse a field they must
		 * understand and do not know. */
		if (ret != 0 && ret != -EBADMSG && !(which <= 2 && ret == -ENOTSUP)) {
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
			assert_true(ret == 0 || ret == -EBADMSG || (k <= 2 && ret == -ENOTSUP));
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
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
