#!/bin/sh
# -b/--bidirectional across the lab's wire (two hosts, one boot), --verify on:
# - send_bw, write_bw and read_bw -b, -n N over a 2-size sweep (send_bw also
#   over -q 1,2, write_bw over -l/-Q): the JSON has both directions, each
#   with N iterations and nonzero bandwidth, and the totals are their sums;
#   each side's device counters show its peer's traffic as well as its own
#   (at 4 KiB and path MTU 1024 both sides send at least 4N packets, where a
#   one-way run has one side send only ACKs or read requests);
# - the CSV and the table carry the per-direction columns;
# - -D 2 -b (send_bw, write_bw) ends on both sides, neither hangs;
# - a generic server keeps serving one-way clients after -b ones;
# - write_lat -b and atomic --mode bw -b are refused with exit 2, naming the test.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=200

lab_run "
N=$N"'
C="--bind 192.0.2.2 --cpu none --verify --mtu 1024 --timeout 30"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

solo send send_bw -b $C -n $N -s 64,4K -q 1,2 192.0.2.1 --json "$OUT/send.json" \
	--csv "$OUT/send.csv"
solo write write_bw --bidirectional $C -n $N -s 64,4K -l 1,4 -Q 4,16 192.0.2.1 \
	--json "$OUT/write.json"
solo read read_bw -b $C -n $N -s 64,4K 192.0.2.1 --json "$OUT/read.json"
solo dsend send_bw -b $C -D 2 -s 1K 192.0.2.1 --json "$OUT/dsend.json"
solo dwrite write_bw -b $C -D 2 -s 4K 192.0.2.1 --json "$OUT/dwrite.json"
solo oneway write_bw $C -n $N -s 4K 192.0.2.1 --json "$OUT/oneway.json"
solo lat write_lat -b $C -n 10 192.0.2.1
solo atomic atomic --mode bw -b $C -n 10 192.0.2.1
stop_server $srv
'

for c in send write read dsend dwrite oneway; do
	expect_rc $c 0
done
[ ! -f "$OUT/server.hung" ] || fail "the server did not end on ^C"
expect_rc server 0

# Each direction: N iterations (-n), nonzero bandwidth and rate; the totals
# are the sums (to the JSON's rounding); the initiator of each direction
# (a read moves data toward the side that reads).
both='all(r["bidir"][k]["bw_avg_gbps"] > 0 and r["bidir"][k]["msg_rate_mpps"] > 0 and r["bidir"][k]["duration_s"] > 0 for r in d["results"] for k in ("client_to_server", "server_to_client"))'
sums='all(abs(r["bw_avg_gbps"] - r["bidir"]["client_to_server"]["bw_avg_gbps"] - r["bidir"]["server_to_client"]["bw_avg_gbps"]) <= 1e-6 * r["bw_avg_gbps"] and abs(r["msg_rate_mpps"] - r["bidir"]["client_to_server"]["msg_rate_mpps"] - r["bidir"]["server_to_client"]["msg_rate_mpps"]) <= 1e-6 * r["msg_rate_mpps"] for r in d["results"])'
iters="all(r['bidir'][k]['iterations'] == $N for r in d['results'] for k in ('client_to_server', 'server_to_client'))"
# At 4 KiB both sides sent at least 4N packets in the point: traffic both ways.
wire4k="all(r['counters']['sent_pkts'] >= 4 * $N and r['peer_counters']['sent_pkts'] >= 4 * $N and r['counters']['rcvd_pkts'] >= 4 * $N for r in d['results'] if r['size'] == 4096)"
fwd='all(r["bidir"]["client_to_server"]["initiator"] == "client" and r["bidir"]["server_to_client"]["initiator"] == "server" for r in d["results"])'
rev='all(r["bidir"]["client_to_server"]["initiator"] == "server" and r["bidir"]["server_to_client"]["initiator"] == "client" for r in d["results"])'

jcheck send.json 'd["params"]["bidirectional"] is True' 'len(d["results"]) == 4' \
	'[(r["qps"], r["size"]) for r in d["results"]] == [(1, 64), (1, 4096), (2, 64), (2, 4096)]' \
	"$both" "$sums" "$iters" "$wire4k" "$fwd" \
	'all(r["peer_bw_avg_gbps"] is None for r in d["results"])'
jcheck write.json 'd["params"]["bidirectional"] is True' 'len(d["results"]) == 8' \
	"$both" "$sums" "$iters" "$wire4k" "$fwd"
jcheck read.json 'd["params"]["bidirectional"] is True' 'len(d["results"]) == 2' \
	"$both" "$sums" "$iters" "$wire4k" "$rev"
for c in dsend dwrite; do
	jcheck $c.json 'd["params"]["duration_s"] == 2' 'len(d["results"]) == 1' "$both" "$sums" \
		'all(1.5 < r["bidir"][k]["duration_s"] < 10 for r in d["results"] for k in ("client_to_server", "server_to_client"))'
done
# The one-way control: no bidir member, and the server sent only ACKs.
jcheck oneway.json 'd["params"]["bidirectional"] is False' \
	'all("bidir" not in r for r in d["results"])' \
	"all(r['peer_counters']['sent_pkts'] < 4 * $N for r in d['results'])"

# CSV: each direction's columns, the total their sum.
jcheck send.csv 'len(d) == 4' \
	'all(float(r["c2s_bw_avg_gbps"]) > 0 and float(r["s2c_bw_avg_gbps"]) > 0 for r in d)' \
	'all(abs(float(r["bw_avg_gbps"]) - float(r["c2s_bw_avg_gbps"]) - float(r["s2c_bw_avg_gbps"])) < 1e-5 for r in d)'
expect_grep dsend.out '^# bidirectional: '
expect_grep dsend.out 'c2s\[Gb/s\] *s2c\[Gb/s\] *c2s\[Mpps\] *s2c\[Mpps\]'

expect_rc lat 2
expect_grep lat.err 'write_lat: -b/--bidirectional does not apply to write_lat'
expect_rc atomic 2
expect_grep atomic.err 'atomic: -b/--bidirectional does not apply to atomic'
pass
