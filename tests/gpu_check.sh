#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/gpu_check (scripts/gpu-check's program) against the fake CUDA
# driver: each kind of memory copied through and back, the dma-buf of the
# buffer's size, a GPU named by PCI address; a failing call and a missing
# driver fail it (exit 1), naming what failed.  On a real GPU it has not
# been run here: no machine with one was at hand.
set -eu
: "${TOP_BUILDDIR:?run through make check}"
GC=$TOP_BUILDDIR/tests/gpu_check
export RDMABENCH_LIBCUDA="$TOP_BUILDDIR/tests/fake_cuda/libcuda.so.1"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

fail() {
	echo "FAIL: $*" >&2
	cat "$out" >&2
	exit 1
}

FAKE_CUDA_DEVICES=0000:3b:00.0,0000:86:00.0 "$GC" 86:00.0 >"$out" 2>&1 || fail "gpu_check exited $?"
for want in '2 GPU(s)' 'GPU 1: 0000:86:00.0 (checked)' \
	'device       4194304 bytes at .*: copy host -> GPU -> host ok' \
	'dma-buf: fd [0-9]*, 4194304 bytes$' 'managed .* ok' 'host-pinned .* ok' 'gpu_check: all ok'; do
	grep -q -- "$want" "$out" || fail "no '$want'"
done
if FAKE_CUDA_FAIL=cuMemcpyDtoH "$GC" >"$out" 2>&1; then
	fail "a failing cuMemcpyDtoH passed"
fi
grep -q 'cuMemcpyDtoH: CUDA_ERROR_UNKNOWN' "$out" || fail "cuMemcpyDtoH not named"
grep -q 'gpu_check: FAILED' "$out" || fail "no FAILED"
if RDMABENCH_LIBCUDA=/nonexistent/libcuda.so.1 "$GC" >"$out" 2>&1; then
	fail "no driver passed"
fi
grep -q 'cannot load the CUDA driver' "$out" || fail "the missing driver not named"
echo PASS
