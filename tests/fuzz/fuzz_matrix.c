// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the matrix coordinator's messages (src/matrix_wire.h),
 * which rank 0 reads from every rank over the network and every rank
 * reads from rank 0.
 *
 * Input: one selector byte, then the body.  Selector % 4: 0 JOIN, 1 ROUND,
 * 2 READY/GO/OVER/DONE (a tick), 3 RESULT.
 *
 * Properties, beyond "no sanitizer report": an unpacker never reads past
 * the body (an exact heap copy); what it accepts is within its bounds
 * (task count, roles, flags); and it encodes back to the very same bytes.
 */
#include "fuzz.h"
#include "wire/matrix_wire.h"
#include "wire/wire.h"

static uint8_t out[RB_WIRE_MAX_BODY];
static struct rb_mx_round round_msg;

#define ROUND_TRIP(kind, m, body, len)                              \
	do {                                                        \
		int n_ = rb_mx_pack_##kind(&(m), out, sizeof(out)); \
		FUZZ_CHECK(n_ >= 0 && (size_t)n_ == (len));         \
		FUZZ_CHECK(!(len) || !memcmp(out, (body), (len)));  \
	} while (0)

static void check_body(unsigned int sel, const uint8_t *body, size_t len)
{
	struct rb_mx_report rep;
	struct rb_mx_join join;
	struct rb_mx_tick tick;
	uint32_t i;

	switch (sel) {
	case 0:
		/* A JOIN of another version is read only as far as every
		 * version's start, to be refused by its version: no round trip. */
		if (!rb_mx_unpack_join(body, len, &join) && join.proto == RB_MX_PROTO)
			ROUND_TRIP(join, join, body, len);
		break;
	case 1:
		if (rb_mx_unpack_round(body, len, &round_msg))
			break;
		FUZZ_CHECK(round_msg.ntasks <= RB_MX_WIRE_TASKS);
		for (i = 0; i < round_msg.ntasks; i++)
			FUZZ_CHECK(round_msg.task[i].role <= RB_MX_RUN &&
				   memchr(round_msg.task[i].addr, '\0', RB_MX_STR));
		ROUND_TRIP(round, round_msg, body, len);
		break;
	case 2:
		if (!rb_mx_unpack_tick(body, len, &tick))
			ROUND_TRIP(tick, tick, body, len);
		break;
	default:
		if (rb_mx_unpack_report(body, len, &rep))
			break;
		FUZZ_CHECK(rep.role <= RB_MX_RUN && rep.has_res <= 1);
		ROUND_TRIP(report, rep, body, len);
		break;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *body;

	if (size < 1 || size - 1 > RB_WIRE_MAX_BODY)
		return 0;
	body = fuzz_dup(data + 1, size - 1);
	check_body(data[0] % 4, body, size - 1);
	free(body);
	return 0;
}
