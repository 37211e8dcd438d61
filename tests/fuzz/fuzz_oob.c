// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the frame reader (rb_oob_recv, rb_oob_expect in src/oob.h).
 *
 * Input: one mode byte, then the byte stream a peer sends.  The stream is
 * written into one end of a socketpair whose write side is then shut
 * down, and the other end is read as an rb_oob connection until a call
 * returns an error (at the latest the end of the stream).  Mode % 9: 0
 * reads with rb_oob_recv, whatever the types; 1..8 with rb_oob_expect of
 * that message type (HELLO .. OK), as each step of a session does.
 *
 * Properties: every message returned is exactly the next frame of the
 * stream (header fields and body bytes), within the cap; each call
 * consumes a frame, so the loop ends; the stream's end or a bad frame ends
 * it with one of the documented errors, never a timeout (all the bytes are
 * there); each accepted body is handed to its unpacker, as a session would.
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "wire/oob.h"
#include "wire/wire.h"

/* Larger inputs could fill the socket buffer before the reader starts. */
#define MAX_STREAM (96 * 1024)

static uint8_t *body;

/* What a session does next with a body: decode it (errors are fine). */
static void unpack(uint16_t type, const uint8_t *b, uint32_t len)
{
	union {
		struct rb_msg_hello hello;
		struct rb_params params;
		struct rb_msg_conn conn;
		struct rb_msg_sync sync;
		struct rb_msg_result result;
		struct rb_msg_text text;
	} m;

	switch (type) {
	case RB_MSG_HELLO:
		rb_unpack_hello(b, len, &m.hello);
		break;
	case RB_MSG_PARAMS:
		rb_unpack_params(b, len, &m.params);
		break;
	case RB_MSG_CONN:
		if (!rb_unpack_conn(b, len, &m.conn))
			rb_conn_free(&m.conn);
		break;
	case RB_MSG_SYNC:
		rb_unpack_sync(b, len, &m.sync);
		break;
	case RB_MSG_RESULT:
		rb_unpack_result(b, len, &m.result);
		break;
	case RB_MSG_ERROR:
		rb_unpack_text(b, len, &m.text);
		break;
	}
}

/* The frame at @off of @s (@n bytes) is the message @type/@len in body. */
static void check_frame(const uint8_t *s, size_t n, size_t off, uint16_t type, uint32_t len)
{
	uint8_t hdr[RB_WIRE_HDR_LEN];

	FUZZ_CHECK(len <= RB_WIRE_MAX_BODY);
	FUZZ_CHECK(off + RB_WIRE_HDR_LEN + len <= n);
	rb_hdr_pack(hdr, type, len);
	FUZZ_CHECK(!memcmp(hdr, s + off, RB_WIRE_HDR_LEN));
	FUZZ_CHECK(!len || !memcmp(body, s + off + RB_WIRE_HDR_LEN, len));
}

/* The stream ended in the @n bytes at @s: a cut header, or a cut body. */
static void check_cut(const uint8_t *s, size_t n)
{
	struct rb_hdr h;
	char err[160];

	if (n < RB_WIRE_HDR_LEN)
		return;
	FUZZ_CHECK(!rb_hdr_unpack(s, &h, err, sizeof(err)));
	FUZZ_CHECK(h.len > n - RB_WIRE_HDR_LEN);
}

/* Write all of @s (or what fits) into @fd and shut the sending side. */
static void feed(int fd, const uint8_t *s, size_t n)
{
	ssize_t w;

	while (n) {
		w = send(fd, s, n, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (w <= 0)
			break;
		s += w;
		n -= (size_t)w;
	}
	FUZZ_CHECK(n == 0); /* MAX_STREAM fits in a socket buffer */
	shutdown(fd, SHUT_WR);
}

static void read_all(struct rb_oob *o, unsigned int mode, const uint8_t *s, size_t n)
{
	size_t off = 0, calls = 0;
	uint16_t type;
	uint32_t len;
	int ret;

	for (;;) {
		FUZZ_CHECK(++calls <= n / RB_WIRE_HDR_LEN + 1);
		if (mode == 0) {
			ret = rb_oob_recv(o, &type, body, RB_WIRE_MAX_BODY, &len);
		} else {
			type = (uint16_t)mode;
			ret = rb_oob_expect(o, type, body, RB_WIRE_MAX_BODY, &len);
		}
		if (ret)
			break;
		check_frame(s, n, off, type, len);
		unpack(type, body, len);
		off += RB_WIRE_HDR_LEN + len;
	}
	/* The end of the stream, a bad header, an ERROR, another type. */
	FUZZ_CHECK(ret == -ECONNRESET || ret == -EBADMSG || ret == -EPROTO || ret == -EMSGSIZE ||
		   ret == -ECONNABORTED);
	if (ret == -ECONNRESET)
		check_cut(s + off, n - off);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	body = malloc(RB_WIRE_MAX_BODY);
	FUZZ_CHECK(body);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_oob o = { .fd = -1, .timeout_ms = 2000, .peer = "fuzz:0" };
	int sv[2];

	if (size < 1 || size - 1 > MAX_STREAM)
		return 0;
	FUZZ_CHECK(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv));
	feed(sv[1], data + 1, size - 1);
	o.fd = sv[0];
	read_all(&o, data[0] % 9, data + 1, size - 1);
	rb_oob_close(&o);
	FUZZ_CHECK(o.fd == -1);
	close(sv[1]);
	return 0;
}
