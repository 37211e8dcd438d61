// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the wire decoder (src/wire.h).
 *
 * Input: one selector byte, then the bytes to decode.  Selector % 11:
 * 0 the 12-byte header (rb_hdr_unpack), 1..6 the body unpacker of that
 * message type: HELLO (v18: with --auth-key's flag and nonce), PARAMS,
 * CONN, SYNC, RESULT, ERROR (a text); 7 a DATA; 8 a DOCTOR's blob; 9 a
 * CONN_MORE (v13) of a CONN of 2049 QPs and MRs, as any of its four
 * chunks; 10 an AUTH (v18, auth.h).
 *
 * Properties, beyond "no sanitizer report": an unpacker never reads past
 * the body (the body ends where libFuzzer's buffer does, or in an exact
 * heap copy); a refused header says why; and whatever decodes encodes back
 * to the very same bytes, so a peer's message is never silently truncated,
 * padded or reinterpreted.
 *
 * A CONN or RESULT that decodes then meets the peer checks (plan.h): a
 * CONN that rb_conn_validate() accepts has an MTU of 256..4096 (a power
 * of two), 24-bit QPNs and PSNs, and a placement in range whose cpus are
 * a CPU list; one it refuses gets -EPROTO and a message.  A RESULT figure
 * rb_result_check() passes is finite, non-negative and within its bound.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "wire/auth.h"
#include "wire/plan.h"
#include "wire/wire.h"

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

static void check_conn(const struct rb_msg_conn *c)
{
	/* The plan this side has: the peer's counts, 64 KiB per MR. */
	const struct rb_conn_want want = { c->nqp, c->nmr, 65536, c->has_probe, 0 };
	const struct rb_placement *p = &c->place;
	char err[512];
	uint32_t i;
	int ret;

	memset(err, 0xa5, sizeof(err));
	ret = rb_conn_validate(c, &want, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EPROTO);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		return;
	}
	FUZZ_CHECK(c->mtu >= 256 && c->mtu <= 4096 && !(c->mtu & (c->mtu - 1)));
	FUZZ_CHECK(c->len >= 65536);
	for (i = 0; i < c->nqp; i++)
		FUZZ_CHECK(c->qp[i].qpn >= 2 && c->qp[i].qpn <= 0xffffff &&
			   c->qp[i].psn <= 0xffffff);
	for (i = 0; i < c->nmr; i++)
		FUZZ_CHECK(c->mr[i].addr <= UINT64_MAX - c->len);
	FUZZ_CHECK(p->device_numa_node >= -1 && p->device_numa_node <= 1023);
	FUZZ_CHECK(p->mem_node >= -1 && p->mem_node <= 1023);
	FUZZ_CHECK(p->local >= -1 && p->local <= 1);
	FUZZ_CHECK(strspn(p->cpus, "0123456789 ,-.") == strlen(p->cpus));
}

static bool within(double v, double max)
{
	return isfinite(v) && v >= 0 && v <= max;
}

static void check_result(const struct rb_msg_result *m)
{
	uint32_t bad = rb_result_check(m, 1000);

	FUZZ_CHECK(!(bad & ~((1u << RB_PEER_NFIELDS) - 1)));
	FUZZ_CHECK((bad & RB_PEER_ITERS) || m->iters <= 1000);
	FUZZ_CHECK((bad & RB_PEER_BW_AVG) || within(m->bw_avg_gbps, RB_PEER_BW_MAX_GBPS));
	FUZZ_CHECK((bad & RB_PEER_BW_PEAK) || within(m->bw_peak_gbps, RB_PEER_BW_MAX_GBPS));
	/* A peer of 0 iterations (it measured nothing) sends NaN for these. */
	FUZZ_CHECK((bad & RB_PEER_CPU) || within(m->cpu_util_pct, RB_PEER_CPU_MAX_PCT) ||
		   (!m->iters && isnan(m->cpu_util_pct)));
	FUZZ_CHECK((bad & RB_PEER_MSG_RATE) || within(m->msg_rate_mpps, RB_PEER_RATE_MAX_MPPS));
	FUZZ_CHECK((bad & RB_PEER_DURATION) || within(m->duration_s, HUGE_VAL) ||
		   (!m->iters && isnan(m->duration_s)));
	/* v14: setup figures the client keeps are its plan's QPs, sane times. */
	FUZZ_CHECK(!rb_setup_check(m, m->setup_qps) ||
		   (within(m->setup_create_ms, RB_PEER_SETUP_MAX_MS) &&
		    within(m->setup_connect_ms, RB_PEER_SETUP_MAX_MS)));
	FUZZ_CHECK(!rb_setup_check(m, m->setup_qps + 1));
}

/*
 * A CONN_MORE: taken as at most one of the four chunks that follow a CONN
 * of 2049 QPs and 2049 MRs (its list, first index and count say which),
 * and packed back to the same bytes.
 */
static int check_more(const uint8_t *body, size_t len)
{
	struct rb_msg_conn conn = { 0 };
	int ret = -EBADMSG, n, accepted = 0;
	uint32_t k;

	if (rb_conn_alloc(&conn, 2049, 2049))
		return -EBADMSG;
	FUZZ_CHECK(rb_conn_chunks(&conn) == 4);
	for (k = 0; k < 5; k++) {
		if (rb_unpack_conn_more(body, len, &conn, k))
			continue;
		accepted++;
		n = rb_pack_conn_more(&conn, k, out, sizeof(out));
		FUZZ_CHECK(n >= 0 && (size_t)n == len && !memcmp(out, body, len));
		ret = 0;
	}
	FUZZ_CHECK(accepted <= 1);
	rb_conn_free(&conn);
	return ret;
}

/* v19: a CONN read packs to a body that reads the same (keyed: not byte for byte). */
static void check_conn_again(const struct rb_msg_conn *c)
{
	struct rb_msg_conn again;
	int m = rb_pack_conn(c, out, sizeof(out));

	FUZZ_CHECK(m > 0 && !rb_unpack_conn(out, (size_t)m, &again));
	FUZZ_CHECK(again.nqp == c->nqp && again.nmr == c->nmr);
	FUZZ_CHECK(!memcmp(again.qp, c->qp, c->nqp * sizeof(*c->qp)));
	FUZZ_CHECK(!memcmp(again.mr, c->mr, c->nmr * sizeof(*c->mr)));
	rb_conn_free(&again);
	again.qp = c->qp;
	again.mr = c->mr;
	FUZZ_CHECK(!memcmp(&again, c, sizeof(again)));
}

static void check_body(unsigned int type, const uint8_t *body, size_t len)
{
	struct rb_msg_hello hello;
	struct rb_params params;
	struct rb_msg_conn conn;
	struct rb_msg_sync sync;
	struct rb_msg_result result;
	struct rb_msg_text text;
	static uint8_t back[RB_WIRE_MAX_BODY];
	const char *blob;
	size_t n;
	struct rb_msg_data data;
	char err[RB_TEXT_MAX];
	uint8_t nonce[RB_AUTH_NONCE_LEN], tag[RB_AUTH_TAG_LEN];
	int ret = 0;

	switch (type) {
	case RB_MSG_HELLO: {
		/* v19: keyed as PARAMS is (below): what was read packs to a
		 * body that reads the same. */
		struct rb_msg_hello again;
		int m;

		ret = rb_unpack_hello(body, len, &hello);
		if (ret == -ENOTSUP)
			ret = 0;
		else if (!ret) {
			FUZZ_CHECK(hello.auth <= 1);
			m = rb_pack_hello(&hello, back, sizeof(back));
			FUZZ_CHECK(m > 0 && !rb_unpack_hello(back, (size_t)m, &again));
			FUZZ_CHECK(!memcmp(&again, &hello, sizeof(again)));
		}
		break;
	}
	case RB_MSG_AUTH:
		ret = rb_auth_unpack(body, len, nonce, tag);
		if (!ret)
			FUZZ_CHECK(rb_auth_pack(nonce, tag, back, sizeof(back)) == (int)len &&
				   !memcmp(back, body, len));
		break;
	case RB_MSG_PARAMS: {
		/* v18: keyed fields in any order, unknown optional ones skipped:
		 * not a byte-for-byte round trip, but what was read packs to a
		 * body that reads the same; a must-understand tag it does not
		 * know is -ENOTSUP. */
		struct rb_params again;
		int m;

		ret = rb_unpack_params(body, len, &params);
		if (ret == -ENOTSUP)
			ret = 0;
		else if (!ret) {
			m = rb_pack_params(&params, back, sizeof(back));
			FUZZ_CHECK(m > 0 && !rb_unpack_params(back, (size_t)m, &again));
			FUZZ_CHECK(!memcmp(&again, &params, sizeof(again)));
		}
		break;
	}
	case RB_MSG_CONN:
		ret = rb_unpack_conn(body, len, &conn);
		if (ret == -ENOTSUP)
			ret = 0;
		else if (!ret) {
			FUZZ_CHECK(conn.nqp <= RB_MAX_QPS);
			check_conn_again(&conn);
			check_conn(&conn);
			rb_conn_free(&conn);
		}
		break;
	case RB_MSG_CONN_MORE:
		ret = check_more(body, len);
		break;
	case RB_MSG_SYNC:
		ret = rb_unpack_sync(body, len, &sync);
		if (!ret)
			ROUND_TRIP(sync, sync, body, len);
		break;
	case RB_MSG_RESULT:
		ret = rb_unpack_result(body, len, &result);
		if (!ret) {
			ROUND_TRIP(result, result, body, len);
			check_result(&result);
		}
		break;
	case RB_MSG_DATA:
		ret = rb_unpack_data(body, len, &data);
		if (!ret) {
			FUZZ_CHECK(memchr(data.ifname, '\0', sizeof(data.ifname)));
			ROUND_TRIP(data, data, body, len);
			/* Refused or not, a reason for each side's view of it. */
			if (rb_data_validate(&data, true, err, sizeof(err)))
				FUZZ_CHECK(err[0]);
		}
		break;
	case RB_MSG_DOCTOR:
		ret = rb_unpack_blob(body, len, &blob, &n);
		if (!ret) {
			FUZZ_CHECK(blob == (const char *)body + 4 && n + 4 == len);
			FUZZ_CHECK(!memchr(blob, '\0', n));
			FUZZ_CHECK(rb_pack_blob(blob, n, back, sizeof(back)) == (int)len &&
				   !memcmp(back, body, len));
		}
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
	/* 0 the header, 1..6 HELLO..ERROR, 7 DATA, 8 DOCTOR, 9 CONN_MORE, 10 AUTH. */
	sel = data[0] % 11;
	if (sel == 0)
		check_header(data + 1, size - 1);
	else
		check_body(sel == 10  ? RB_MSG_AUTH
			   : sel == 9 ? RB_MSG_CONN_MORE
			   : sel == 8 ? RB_MSG_DOCTOR
			   : sel == 7 ? RB_MSG_DATA
				      : sel,
			   data + 1, size - 1);
	return 0;
}
