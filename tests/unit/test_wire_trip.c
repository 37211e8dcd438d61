// SPDX-License-Identifier: MIT
/*
 * Unit tests for the out-of-band messages (src/wire/wire.c) and the string
 * codec every message shares (src/core/cursor.h): round trips of every
 * message, and their exact encodings.
 */
#include "wire_fx.h"

/* ---- round trips ------------------------------------------------------- */

static void test_hello_roundtrip(void **state)
{
	struct rb_msg_hello in, out;
	uint8_t buf[BUFSZ];
	/* v19: keyed fields, the hints (tool version, host, boot id, CPUs)
	 * optional, the test and --auth-key's flag and nonce must-understand. */
	static const uint8_t want[] = {
		0x00, 0x07, 0x00, 0x01, 0x00, 0x05, '0',  '.',	'3',  '.',  '1',  0x80, 0x02, 0x00,
		0x08, 'w',  'r',  'i',	't',  'e',  '_',  'b',	'w',  0x00, 0x03, 0x00, 0x01, 'h',
		0x00, 0x04, 0x00, 0x02, 'i',  'd',  0x00, 0x05, 0x00, 0x01, '1',  0x80, 0x06, 0x00,
		0x01, 0x01, 0x80, 0x07, 0x00, 0x20, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
		0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5,
		0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf
	};
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
	assert_int_equal(len, hello_len(&in));
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
	buf[len - 37] = 2;
	assert_int_equal(rb_unpack_hello(buf, len, &out), -EBADMSG);

	/* The longest strings that fit, and empty ones. */
	memset(&in, 0, sizeof(in));
	memset(in.tool_version, 'v', 31);
	in.tool_version[31] = '\0';
	len = rb_pack_hello(&in, buf, sizeof(buf));
	assert_int_equal(len, 2 + 4 + 31);
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

/* Field @tag (as sent) of CONN @b holds exactly the @n bytes @want. */
static void conn_has(const uint8_t *b, int len, uint16_t tag, const char *want, size_t n)
{
	size_t got;
	const uint8_t *v = kfield(b, (size_t)len, tag, &got);

	if (!v)
		fail_msg("CONN has no field 0x%04x", tag);
	assert_int_equal(got, n);
	assert_memory_equal(v, want, n);
}

static void test_conn_roundtrip(void **state)
{
	struct rb_msg_conn in, out;
	uint8_t buf[BUFSZ];
	size_t n;
	int len;

	(void)state;
	sample_conn(&in, 3);
	/* The three GIDs really differ. */
	assert_memory_not_equal(in.qp[0].gid, in.qp[1].gid, 16);
	assert_memory_not_equal(in.qp[1].gid, in.qp[2].gid, 16);
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	/* v19: keyed: 18 fields, the MTU first (tag 1, must understand). */
	assert_memory_equal(buf, "\x00\x12\x80\x01\x00\x04\x00\x00\x10\x00", 10);
	conn_has(buf, len, 0x8002, "\x00\x00\x00\x10", 4);
	conn_has(buf, len, 0x8003, "\xde\xad\xbe\xef", 4);
	conn_has(buf, len, 0x8004, "\x00\x00\x7f\x12\x34\x56\x70\x00", 8);
	/* The QP list: its count, then each QP's qpn, psn, lid and GID. */
	assert_non_null(kfield(buf, (size_t)len, 0x8006, &n));
	assert_int_equal(n, 4 + 3 * 26);
	assert_memory_equal(kfield(buf, (size_t)len, 0x8006, &n),
			    "\x00\x00\x00\x03\x00\x00\x01\x00\x00\xab\xcd\xef\x10\x00", 14);
	/* The MRs: three, the first the one rkey and addr name. */
	conn_has(buf, len, 0x8007,
		 "\x00\x00\x00\x03"
		 "\x00\x00\x7f\x12\x34\x56\x70\x00\xde\xad\xbe\xef"
		 "\x00\x00\x7f\x12\x34\x57\x70\x00\xde\xad\xbe\xf0"
		 "\x00\x00\x7f\x12\x34\x58\x70\x00\xde\xad\xbe\xf1",
		 4 + 3 * 12);
	/* The placement, optional: node -1, "0-3 8", node 1, remote (0: left
	 * out), the clock of cpu 2: powersave, 2400 MHz. */
	conn_has(buf, len, 0x0010, "\xff\xff\xff\xff", 4);
	conn_has(buf, len, 0x0011, "0-3 8", 5);
	conn_has(buf, len, 0x0012, "\x00\x00\x00\x01", 4);
	assert_null(kfield(buf, (size_t)len, 0x0013, &n));
	conn_has(buf, len, 0x0014, "\x00\x00\x00\x02", 4);
	conn_has(buf, len, 0x0015, "powersave", 9);
	conn_has(buf, len, 0x0016, "\x00\x00\x09\x60", 4);
	/* The device (optional), its link layer, no probe QP, iWARP, DC. */
	conn_has(buf, len, 0x0008, "mlx5_0", 6);
	conn_has(buf, len, 0x8009, "\x01", 1);
	assert_null(kfield(buf, (size_t)len, 0x800a, &n));
	conn_has(buf, len, 0x800b, "\x01", 1);
	conn_has(buf, len, 0x800c, "\x02", 1);
	conn_has(buf, len, 0x800d, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	assert_int_equal(out.place.device_numa_node, -1);
	rb_conn_free(&out);

	/* --probe's QP: qpn, psn, lid, GID. */
	in.has_probe = 1;
	in.probe_qp = in.qp[1];
	in.probe_qp.qpn = 0xabcdef;
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	assert_memory_equal(kfield(buf, (size_t)len, 0x800a, &n), "\x00\xab\xcd\xef", 4);
	assert_int_equal(n, 26);
	assert_int_equal(unpack_exact(up_conn, buf, len), 0);
	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	assert_int_equal(rb_unpack_conn(buf, (size_t)len - 1, &out), -EBADMSG);
	/* A DC role past the targets', or a key from initiators, is refused. */
	*(uint8_t *)kfield(buf, (size_t)len, 0x800c, &n) = 3;
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	*(uint8_t *)kfield(buf, (size_t)len, 0x800c, &n) = RB_DC_INITIATOR;
	assert_int_equal(rb_unpack_conn(buf, len, &out), -EBADMSG);
	in.dc_role = RB_DC_INITIATOR;
	assert_int_equal(rb_pack_conn(&in, buf, sizeof(buf)), -EMSGSIZE);
	in.dc_key = 0;
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	in.has_probe = 2; /* a flag is 0 or 1 */
	assert_int_equal(rb_pack_conn(&in, buf, sizeof(buf)), -EMSGSIZE);
	in.has_probe = 0;

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
	/* The sender's fingerprint, optional fields. */
	snprintf(in.fp.kernel, sizeof(in.fp.kernel), "Linux 6.1.0-18-amd64 #1 SMP");
	snprintf(in.fp.rdma_core, sizeof(in.fp.rdma_core), "44.0");
	snprintf(in.fp.fw_ver, sizeof(in.fp.fw_ver), "22.39.1002");
	snprintf(in.fp.board_id, sizeof(in.fp.board_id), "MT_0000000359");
	in.fp.vendor_id = 0x02c9;
	in.fp.vendor_part_id = 4125;
	in.fp.hw_ver = 0;
	/* Its PCIe link: 2.5 GT/s of 8.0 GT/s (doubles), x4 of x16. */
	snprintf(in.fp.pci, sizeof(in.fp.pci), "0000:81:00.0");
	in.fp.pcie = (struct rb_pcie_link){ 2.5, 8.0, 4, 16 };
	len = rb_pack_conn(&in, buf, sizeof(buf));
	assert_int_equal(len, conn_len(&in));
	conn_has(buf, len, 0x001b, "MT_0000000359", 13);
	conn_has(buf, len, 0x001c, "\x00\x00\x02\xc9", 4);
	conn_has(buf, len, 0x001d, "\x00\x00\x10\x1d", 4);
	assert_null(kfield(buf, (size_t)len, 0x001e, &n)); /* hw_ver 0: left out */
	conn_has(buf, len, 0x001f, "0000:81:00.0", 12);
	conn_has(buf, len, 0x0020, "\x40\x04\x00\x00\x00\x00\x00\x00", 8);
	conn_has(buf, len, 0x0021, "\x40\x20\x00\x00\x00\x00\x00\x00", 8);
	conn_has(buf, len, 0x0022, "\x00\x00\x00\x04", 4);
	conn_has(buf, len, 0x0023, "\x00\x00\x00\x10", 4);
	assert_int_equal(unpack_exact(up_conn, buf, len), 0);
	assert_int_equal(rb_unpack_conn(buf, len, &out), 0);
	assert_conn_equal(&in, &out);
	rb_conn_free(&out);
	assert_int_equal(rb_unpack_conn(buf, (size_t)len - 1, &out), -EBADMSG);
	/* nqp 1 -> 0: the list's length no longer fits its count. */
	((uint8_t *)kfield(buf, (size_t)len, 0x8006, &n))[3] = 0;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_roundtrip),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_conn_roundtrip),
		cmocka_unit_test(test_sync_roundtrip),
		cmocka_unit_test(test_result_roundtrip),
		cmocka_unit_test(test_text_roundtrip),
		cmocka_unit_test(test_blob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
