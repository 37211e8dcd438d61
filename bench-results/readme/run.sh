#!/bin/sh
# The README's sample: host 2 (192.0.2.2, rxe1) serves, host 1 (rxe0)
# measures across the lab's wire.  Run as
#   scripts/rxe-lab --hosts 2 --timeout 400 -- bench-results/readme/run.sh
O=$(cd "$(dirname "$0")" && pwd)
RB=$O/../../build/src/rdmabench
$RB doctor -d rxe0 >"$O/doctor.out" 2>&1
$RB server -d rxe1 --bind 192.0.2.2 >"$O/server.out" 2>&1 &
s=$!
$RB write_bw -d rxe0 --bind 192.0.2.1 -s 64..1M:x4 -n 500 192.0.2.2 --json "$O/r.json" \
	>"$O/write_bw.out" 2>"$O/write_bw.err"
echo "rc=$?" >>"$O/write_bw.err"
kill -INT $s
wait $s
