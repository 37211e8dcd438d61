#!/bin/sh
# The commands behind this example, run inside the Soft-RoCE lab:
#   scripts/rxe-lab -- sh bench-results/lab-example/run.sh
# The server takes CPU 0 (node 0) because the NIC's node 1 has one CPU,
# which the client takes (--cpu auto).
set -e
rb=src/rdmabench
out=bench-results/lab-example
sweep() {
	$rb server --cpu 0 --quiet >/dev/null 2>"$out/server.log" &
	srv=$!
	$rb "$@" 192.0.2.1
	kill -INT $srv
	wait $srv
}
sweep send_lat -s 2..64K:x4 -n 3000 --csv $out/send_lat.csv --json $out/send_lat.json
sweep write_bw -s 64,1K,16K,64K -l 1,4,16 -Q 1,16,64 -n 2000 --recommend \
	--csv $out/write_bw.csv --json $out/write_bw.json
rm -f "$out/server.log"
