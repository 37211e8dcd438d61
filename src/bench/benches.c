// SPDX-License-Identifier: MIT
/*
 * The test rows' list, in help order: a new test kind is one more row
 * here, and its bench_*.c file.  It registers itself with core/ (bench.h's
 * rb_benches) before main() runs, as fio's engines do: core/ lists tests
 * without naming a row of this layer.  Every program links this file:
 * AM_LDFLAGS asks the linker for rb_bench_list (Makefile.am).
 */
#include <stddef.h>

#include "core/bench.h"

const struct rb_bench *const rb_bench_list[] = {
	&rb_bench_send_lat,
	&rb_bench_send_bw,
	&rb_bench_write_lat,
	&rb_bench_write_bw,
	&rb_bench_read_lat,
	&rb_bench_read_bw,
	&rb_bench_atomic_lat,
	&rb_bench_atomic_bw,
	&rb_bench_tcp_lat,
	&rb_bench_tcp_bw,
	&rb_bench_lock,
	&rb_bench_tcp_lock,
#ifdef RB_BENCH_TEST_ROW
	RB_BENCH_TEST_ROW, /* test_bench_extra's throw-away row */
#endif
	NULL,
};

__attribute__((constructor)) static void register_rows(void)
{
	rb_benches_set(rb_bench_list);
}
