// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the plan validator, as a server meets a plan from the wire:
 * rb_unpack_params() then rb_plan_validate() (src/plan.h).
 *
 * Input: one byte that picks the memory budget (0: none; otherwise
 * 2^(10 + b % 40) bytes, 1 KiB to 512 TiB), then a PARAMS body.
 *
 * Properties of a plan the validator accepts -- what the rest of the
 * server relies on before it allocates anything: a known test; 1 to
 * RB_MAX_POINTS points, each within the option table's bounds (size,
 * QPs, depths) with batch and signal at most the send queue depth; one of
 * iterations, duration and -D 0; a run id only in a run of threads, the
 * thread one of them; the memory estimate within the budget; and
 * the plan survives the wire again unchanged and still valid.  A refused
 * plan gets -EINVAL and a message.
 */
#include <errno.h>

#include "fuzz.h"
#include "wire/plan.h"
#include "core/sweep.h"
#include "core/bench.h"
#include "wire/wire.h"

static uint8_t out[RB_WIRE_MAX_BODY];

static void check_points(const struct rb_params *p)
{
	size_t n = rb_plan_count(p), i;
	const struct rb_bench *t = rb_bench_find(p->test);
	struct rb_point pt;

	FUZZ_CHECK(t);
	FUZZ_CHECK(n >= 1 && n <= RB_MAX_POINTS);
	for (i = 0; i < n; i++) {
		rb_plan_point(p, i, &pt);
		FUZZ_CHECK(pt.size >= 1 && pt.size <= RB_MAX_SIZE);
		FUZZ_CHECK(!t->fixed_size || pt.size == t->fixed_size);
		FUZZ_CHECK(pt.qps >= 1 && pt.qps <= RB_MAX_QPS);
		FUZZ_CHECK(pt.tx_depth >= 1 && pt.tx_depth <= 32768);
		FUZZ_CHECK(pt.batch >= 1 && pt.batch <= pt.tx_depth);
		FUZZ_CHECK(pt.signal >= 1 && pt.signal <= pt.tx_depth);
		FUZZ_CHECK(pt.cqe_poll >= 1 && pt.cqe_poll <= RB_CQE_POLL_MAX);
		FUZZ_CHECK(pt.poll <= RB_POLL_EVENT);
		FUZZ_CHECK(pt.poll != RB_POLL_EVENT || !t->polls_buffer || p->imm);
	}
}

static void check_accepted(const struct rb_params *p, uint64_t budget)
{
	struct rb_params again;
	char err[256];
	int n;

	check_points(p);
	/* -n N, -D SEC, or -D 0 (forever): one of them */
	FUZZ_CHECK((p->iters != 0) + (p->duration_s != 0) + (p->forever != 0) == 1);
	FUZZ_CHECK(p->rx_depth >= 1 && p->rx_depth <= 32768);
	FUZZ_CHECK(p->atomic_op <= RB_OP_CSWAP);
	/* A run id only in a run of threads, and this thread one of them. */
	FUZZ_CHECK(!p->run_id || p->threads >= 2);
	FUZZ_CHECK(p->thread < (p->threads ? p->threads : 1));
	FUZZ_CHECK(!budget || rb_plan_mem(p) <= budget);
	/* What was accepted goes over the wire again unchanged. */
	n = rb_pack_params(p, out, sizeof(out));
	FUZZ_CHECK(n > 0 && n <= RB_WIRE_MAX_BODY);
	FUZZ_CHECK(!rb_unpack_params(out, (size_t)n, &again));
	FUZZ_CHECK(!memcmp(&again, p, sizeof(again)));
	FUZZ_CHECK(!rb_plan_validate(&again, budget, err, sizeof(err)));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_params p;
	uint64_t budget;
	char err[256];
	int ret;

	if (size < 1 || size - 1 > RB_WIRE_MAX_BODY)
		return 0;
	budget = data[0] ? 1ULL << (10 + data[0] % 40) : 0;
	if (rb_unpack_params(data + 1, size - 1, &p))
		return 0;
	memset(err, 0xa5, sizeof(err));
	ret = rb_plan_validate(&p, budget, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		return 0;
	}
	check_accepted(&p, budget);
	return 0;
}
