#!/bin/sh
# send_bw's server interval (issue 21 item 1): the server's own bandwidth
# (the client's peer_bw_avg_gbps) against the client's, on the cases of
# bench-results/perftest (-n 4096, 64 B and 64 KiB), run in the lab from
# the top of the tree after a build in build/:
#   scripts/rxe-lab -- sh bench-results/server-interval/run.sh
# Writes one JSON per run here and prints size, rep, both figures and
# their ratio.
set -e
rb=build/src/rdmabench
out=bench-results/server-interval
$rb server --cpu 0 --quiet >/dev/null 2>"$out/server.log" &
srv=$!
sleep 1
for rep in 1 2 3; do
	for s in 64 65536; do
		$rb send_bw -s $s -n 4096 --cpu 1 --quiet 192.0.2.1 \
			--json "$out/send_bw-$s-r$rep.json" >/dev/null
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c, p = r["bw_avg_gbps"], r["peer_bw_avg_gbps"]
print(sys.argv[2], sys.argv[3], "client %.4f server %.4f Gb/s ratio %.3f" % (c, p, p / c))' \
			"$out/send_bw-$s-r$rep.json" $s $rep
	done
done
kill -INT $srv
wait $srv || true
rm -f "$out/server.log"
