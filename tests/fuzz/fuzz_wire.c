// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the wire decoder (src/wire.h).
 *
 * Input: one selector byte, then the bytes to decode.  Selector % 7:
 * 0 the 12-byte header (rb_hdr_unpack), 1..6 the body unpacker of that
 * message type: HELLO, PARAMS, CONN, SYNC, RESULT, ERROR (a text).
 *
 * Properties, beyond "no sanitizer report": an unpacker never reads past
 * the body (the body ends where libFuzzer's buffer does, or in an exact
 * heap copy); a refused header says why; and whatever decodes encodes back
 * to the very same bytes, so a peer's message is never silently truncated,
 * padded or reinterpreted.
 */
#include <errno.h>

#include "fuzz.h"
#include "wire.h"

static uint8_t out[RB_WIRE_MAX_BODY];

static void check_header(const uint8_t *data, size_t size)
{
	uint8_t *buf, again[RB_WIRE_HDR_LEN];
	struct rb_hdr h;
	char err[160];
	int ret;

	if (size < RB_WIRE_HDR_LEN)
		return;
	buf = fuzz_dup(data, RB_WIRE_HDR_LEN);
	memset(err, 0xa5, sizeof(err));
	ret = rb_hdr_unpack(buf, &h, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EBADMSG || ret == -EPROTO || ret == -EMSGSIZE);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
	} else {
		FUZZ_CHECK(h.len <= RB_WIRE_MAX_BODY);
		rb_hdr_pack(again, h.type, h.len);
		FUZZ_CHECK(!memcmp(again, buf, RB_WIRE_HDR_LEN));
		FUZZ_CHECK(rb_msg_name(h.type) != NULL);
	}
	free(buf);
}

/* Decoded @len bytes into @m: packing @m gives them back. */
#define ROUND_TRIP(kind, m, body, len)                             \
	do {                                                       \
		int n_ = rb_pack_##kind(&(m), out, sizeof(out));   \
		FUZZ_CHECK(n_ >= 0 && (size_t)n_ == (len));        \
		FUZZ_CHECK(!(len) || !memcmp(out, (body), (len))); \
	} while (0)

static void check_body(unsigned int type, const uint8_t *body, size_t len)
{
	struct rb_msg_hello hello;
	struct rb_params params;
	struct rb_msg_conn conn;
	struct rb_msg_sync sync;
	struct rb_msg_result result;
	struct rb_msg_text text;
	int ret = 0;

	switch (type) {
	case RB_MSG_HELLO:
		ret = rb_unpack_hello(body, len, &hello);
		if (!ret)
			ROUND_TRIP(hello, hello, body, len);
		break;
	case RB_MSG_PARAMS:
		ret = rb_unpack_params(body, len, &params);
		if (!ret)
			ROUND_TRIP(params, params, body, len);
		break;
	case RB_MSG_CONN:
		ret = rb_unpack_conn(body, len, &conn);
		if (!ret) {
			FUZZ_CHECK(conn.nqp <= RB_MAX_QPS);
			ROUND_TRIP(conn, conn, body, len);
		}
		break;
	case RB_MSG_SYNC:
		ret = rb_unpack_sync(body, len, &sync);
		if (!ret)
			ROUND_TRIP(sync, sync, body, len);
		break;
	case RB_MSG_RESULT:
		ret = rb_unpack_result(body, len, &result);
		if (!ret)
			ROUND_TRIP(result, result, body, len);
		break;
	case RB_MSG_ERROR:
		ret = rb_unpack_text(body, len, &text);
		if (!ret) {
			FUZZ_CHECK(memchr(text.text, '\0', sizeof(text.text)));
			ROUND_TRIP(text, text, body, len);
		}
		break;
	}
	FUZZ_CHECK(ret == 0 || ret == -EBADMSG);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int sel;

	if (size < 1 || size - 1 > RB_WIRE_MAX_BODY)
		return 0;
	sel = data[0] % 7;
	if (sel == 0)
		check_header(data + 1, size - 1);
	else
		check_body(sel, data + 1, size - 1);
	return 0;
}
