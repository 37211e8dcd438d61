#!/bin/sh
# Immediates and the latency gap across the lab's wire (two hosts, one
# boot: a generic server on host 1, the clients on host 2), --verify on:
# - send_lat, send_bw --send-with-imm and write_lat, write_bw
#   --write-with-imm (perftest's --send_with_imm/--write_with_imm), with
#   both post APIs: each message carries the point's immediate, which the
#   receiver checks on every receive completion; the JSON says with_imm,
#   every point has its iterations, and write_bw's server, which counts
#   the WRITEs now (each consumed a receive), reports its own bandwidth
#   (peer_bw_avg_gbps), where a plain write_bw's server reports none;
# - write_bw -b --write-with-imm: both directions counted and checked;
# - --reversed with immediates (write_bw, send_lat): the server sends them,
#   the client receives and checks them, and reports the server's figures;
# - read_bw --write-with-imm and write_bw --send-with-imm exit 2, naming
#   the option and the test;
# - send_lat --latency_gap 2000: the point lasts its n round trips and n
#   gaps, and the gap is outside the samples: duration / n is at least a
#   round trip (twice the one-way average) plus most of a gap.  Timing
#   alone (p50 under the gap) is no test: a loaded lab's round trips
#   reach milliseconds.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

lab_run '
C="--bind 192.0.2.2 --cpu none --verify --timeout 30"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo slat send_lat --send-with-imm $C -s 2,4096 -n 200 --post-api post 192.0.2.1 \
	--json "$OUT/slat.json"
solo slatwr send_lat --send_with_imm $C -s 64 -n 200 --post-api wr 192.0.2.1 \
	--json "$OUT/slatwr.json"
solo sbw send_bw --send-with-imm $C -q 2 -s 64,4K -n 300 192.0.2.1 --json "$OUT/sbw.json"
solo wlat write_lat --write-with-imm $C -s 2,300 -n 200 --post-api post 192.0.2.1 \
	--json "$OUT/wlat.json"
solo wlatwr write_lat --write_with_imm $C -s 64 -n 200 --post-api wr 192.0.2.1 \
	--json "$OUT/wlatwr.json"
solo wbw write_bw --write-with-imm $C -q 2 -s 4K -n 400 -l 4 -Q 2 192.0.2.1 \
	--json "$OUT/wbw.json"
solo wbwwr write_bw --write-with-imm $C -s 64K -n 200 --post-api wr 192.0.2.1 \
	--json "$OUT/wbwwr.json"
solo wplain write_bw $C -s 4K -n 200 192.0.2.1 --json "$OUT/wplain.json"
solo wbwb write_bw -b --write-with-imm $C -s 4K -n 200 192.0.2.1 --json "$OUT/wbwb.json"
solo rwbw write_bw --reversed --write-with-imm $C -s 4K -n 200 192.0.2.1 --json "$OUT/rwbw.json"
solo rslat send_lat --reversed --send-with-imm $C -s 64 -n 200 192.0.2.1 --json "$OUT/rslat.json"
solo gap send_lat $C -s 2 -n 100 --latency_gap 2000 192.0.2.1 --json "$OUT/gap.json"
solo rbad read_bw --write-with-imm $C 192.0.2.1
solo wbad write_bw --send-with-imm $C 192.0.2.1
stop_server $srv
'

for c in slat slatwr sbw wlat wlatwr wbw wbwwr wplain wbwb rwbw rslat gap; do
	expect_rc $c 0
done
expect_rc server 0
for c in slat slatwr sbw wlat wlatwr wbw wbwwr wbwb rwbw rslat; do
	jcheck $c.json 'd["params"]["with_imm"] is True' 'd["params"]["verify"] is True' \
		'all(r["iterations"] == d["params"]["iterations"] for r in d["results"])'
done
jcheck slat.json '[r["size"] for r in d["results"]] == [2, 4096]' 'd["device"]["post_api"] == "post"' \
	'all(r["lat_us"]["p50"] > 0 for r in d["results"])'
jcheck slatwr.json 'd["device"]["post_api"] == "wr"' 'd["results"][0]["lat_us"]["p50"] > 0'
jcheck sbw.json 'len(d["results"]) == 2' \
	'all(r["bw_avg_gbps"] > 0 and r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
jcheck wlat.json '[r["size"] for r in d["results"]] == [2, 300]' 'd["device"]["post_api"] == "post"' \
	'all(r["lat_us"]["p50"] > 0 for r in d["results"])'
jcheck wlatwr.json 'd["device"]["post_api"] == "wr"' 'd["results"][0]["lat_us"]["p50"] > 0'
jcheck wbw.json 'd["results"][0]["bw_avg_gbps"] > 0' 'd["results"][0]["peer_bw_avg_gbps"] > 0' \
	'd["results"][0]["qps"] == 2'
jcheck wbwwr.json 'd["device"]["post_api"] == "wr"' 'd["results"][0]["peer_bw_avg_gbps"] > 0'
jcheck wplain.json '"with_imm" not in d["params"]' 'd["results"][0]["peer_bw_avg_gbps"] is None'
jcheck wbwb.json 'd["results"][0]["bidir"]["client_to_server"]["iterations"] == 200' \
	'd["results"][0]["bidir"]["server_to_client"]["iterations"] == 200'
jcheck rwbw.json 'd["params"]["reversed"] is True' 'd["results"][0]["bw_avg_gbps"] > 0' \
	'd["results"][0]["peer_bw_avg_gbps"] > 0'
jcheck rslat.json 'd["params"]["reversed"] is True' 'd["results"][0]["lat_us"]["p50"] > 0'
# The gap: 100 round trips and 100 gaps of 2 ms; none in a sample.
jcheck gap.json 'd["params"]["latency_gap_us"] == 2000' \
	'd["results"][0]["duration_s"] >= 100 * 0.002' \
	'd["results"][0]["duration_s"] * 1e6 / 100 >= 2 * d["results"][0]["lat_us"]["avg"] + 0.9 * 2000'
expect_rc rbad 2
expect_grep rbad.err 'write-with-imm does not apply to read_bw'
expect_rc wbad 2
expect_grep wbad.err 'send-with-imm does not apply to write_bw'
pass
