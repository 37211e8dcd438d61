#!/bin/sh
# Counters, --expect and compare, across the lab's wire (two hosts):
# - honesty: the counters a point reports agree with what the test did
#   (send_bw of N messages raises the sender's sent_pkts by at least N and
#   the receiver's rcvd_pkts by as many; write_bw of N x 4 KiB at MTU 1024
#   raises sent_pkts by at least 4N);
# - a wire that drops 2% of host 1's packets (netem) shows retries in the
#   client's error counters, flagged in the table;
# - --expect passing (exit 0), failing (exit 3, the point marked) and
#   malformed (exit 2, the position named);
# - compare of two real runs, of a run with itself, and of a copy with one
#   value 20% worse (exit 1, naming that point).
# Every JSON is also checked against doc/rdmabench.schema.json (jcheck).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=1000

lab_run "
N=$N"'
C="--bind 192.0.2.2 --cpu none"
nic2=$(while IFS="	" read -r h dev nic rest; do [ "$h" = 2 ] && echo "$nic"; done </run/rxe-lab/hosts)
echo "$nic2" >"$OUT/nic2"

"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

solo send_bw send_bw $C -s 64 -n $N --warmup 0 192.0.2.1 --json "$OUT/send_bw.json" \
	--csv "$OUT/send_bw.csv" --csv-counters
solo write_bw write_bw $C -s 4096 -n $N --warmup 0 --mtu 1024 192.0.2.1 \
	--json "$OUT/write_bw.json"
solo write_bw2 write_bw $C -s 4096 -n $N --warmup 0 --mtu 1024 192.0.2.1 \
	--json "$OUT/write_bw2.json"
solo none send_lat $C -n 100 --counters none 192.0.2.1 --json "$OUT/none.json"
solo list send_lat $C -n 100 --counters sent_pkts,rcvd_pkts 192.0.2.1 --json "$OUT/list.json"
solo badname send_lat $C -n 100 --counters no_such_counter 192.0.2.1

solo pass write_bw $C -s 4096 -n 200 192.0.2.1 --expect "bw>=1Mbps" --expect "rate>=0.0001Mpps" \
	--json "$OUT/pass.json"
solo fail send_lat $C -s 2,64 -n 100 192.0.2.1 --expect "p50<=1ns" --expect "max<=10s" \
	--json "$OUT/fail.json"
solo malformed send_lat $C 192.0.2.1 --expect "bw>=9x0Gbps"
solo wrongkind send_lat $C 192.0.2.1 --expect "bw>=1Gbps"

# Host 2 (the client) drops 2% of what it sends: the server sees gaps and
# NAKs them, or the client times out; either way it resends (go-back-N).
# Lost ACKs alone would not do: a later ACK covers them.
tc qdisc add dev "$nic2" root netem loss 2% 2>"$OUT/tc.err"
echo $? >"$OUT/tc.rc"
solo lossy write_bw $C -s 4096 -n 300 --mtu 1024 --timeout 120 192.0.2.1 --json "$OUT/lossy.json" \
	--expect "retrans==0"
tc qdisc del dev "$nic2" root 2>/dev/null

stop_server $srv

solo cmp_real compare "$OUT/write_bw.json" "$OUT/write_bw2.json" --tolerance 95%
solo cmp_self compare "$OUT/write_bw.json" "$OUT/write_bw.json"
'

# --- honesty -----------------------------------------------------------------
for n in send_bw write_bw write_bw2 none list pass; do
	[ "$(cat "$OUT/$n.rc")" = 0 ] || fail "$n: exit $(cat "$OUT/$n.rc"): $(cat "$OUT/$n.err")"
done
jcheck send_bw.json 'd["driver"] == "rxe" and d["peer_driver"] == "rxe"' \
	'd["counters_spec"] == "default"' \
	"d['results'][0]['counters']['sent_pkts'] >= $N" \
	"d['results'][0]['peer_counters']['rcvd_pkts'] >= $N" \
	"d['results'][0]['counters']['rdma_sends'] >= $N" \
	'd["results"][0]["counter_errors"] == []' \
	'd["results"][0]["counters_derived"]["wire_bytes_per_payload_byte"] > 1'
jcheck write_bw.json "d['results'][0]['counters']['sent_pkts'] >= 4 * $N" \
	"d['results'][0]['peer_counters']['rcvd_pkts'] >= 4 * $N"
# With --csv-counters the CSV carries the default set, both sides.
jcheck send_bw.csv "int(d[0]['ctr_sent_pkts']) >= $N" "int(d[0]['peer_ctr_rcvd_pkts']) >= $N"
jcheck none.json '"counters" not in d["results"][0]' '"driver" not in d' \
	'd["counters_spec"] == "none"'
jcheck list.json 'set(d["results"][0]["counters"]) == {"sent_pkts", "rcvd_pkts"}' \
	'set(d["results"][0]["peer_counters"]) == {"sent_pkts", "rcvd_pkts"}'
[ "$(cat "$OUT/badname.rc")" = 2 ] || fail "--counters no_such_counter: exit $(cat "$OUT/badname.rc")"
grep -q 'no_such_counter' "$OUT/badname.err" || fail "badname: $(cat "$OUT/badname.err")"

# --- --expect ----------------------------------------------------------------
jcheck pass.json 'd["expectations"] == ["bw>=1Mbps", "rate>=0.0001Mpps"]' \
	'all(e["result"] == "pass" for e in d["results"][0]["expect"])'
[ "$(cat "$OUT/fail.rc")" = 3 ] || fail "p50<=1ns: exit $(cat "$OUT/fail.rc"), want 3"
jcheck fail.json 'len(d["results"]) == 2' \
	'all(p["expect"][0]["result"] == "fail" for p in d["results"])' \
	'all(p["expect"][1]["result"] == "pass" for p in d["results"])'
grep -q '^  ! .*expect failed: p50<=1ns' "$OUT/fail.out" || fail "fail.out: no marked point: $(cat "$OUT/fail.out")"
[ "$(cat "$OUT/malformed.rc")" = 2 ] || fail "malformed --expect: exit $(cat "$OUT/malformed.rc")"
grep -q "bw>=9x0Gbps.*at 6" "$OUT/malformed.err" || fail "malformed: $(cat "$OUT/malformed.err")"
[ "$(cat "$OUT/wrongkind.rc")" = 2 ] || fail "bw on send_lat: exit $(cat "$OUT/wrongkind.rc")"

# --- loss --------------------------------------------------------------------
[ "$(cat "$OUT/tc.rc")" = 0 ] || fail "tc netem: $(cat "$OUT/tc.err")"
# Retries happen under load alone (rxe's 67 ms retry timer against a slow
# emulation): with loss they must.
[ "$(cat "$OUT/lossy.rc")" = 3 ] || fail "lossy with retrans==0: exit $(cat "$OUT/lossy.rc"), want 3: $(cat "$OUT/lossy.err")"
jcheck lossy.json '"completer_retry_err" in d["results"][0]["counter_errors"]' \
	'd["results"][0]["counters_derived"]["retrans_per_mpkt"] > 0' \
	'd["results"][0]["expect"][0]["result"] == "fail"'
grep -q '^  ! .*completer_retry_err' "$OUT/lossy.out" || fail "lossy.out: no flag: $(cat "$OUT/lossy.out")"
# The flags' verdict after the table: retransmissions counted, the gate's failure, a summary.
grep -q '^! 1 of 1 point retransmitted ([1-9][0-9]* retransmission events' "$OUT/lossy.out" ||
	fail "lossy.out: no retransmission verdict: $(cat "$OUT/lossy.out")"
grep -q '^! 1 of 1 point failed --expect: the run exits 3$' "$OUT/lossy.out" ||
	fail "lossy.out: no --expect verdict"
grep -q '^verdict: 1 of 1 point flagged, 0 clean$' "$OUT/lossy.out" || fail "lossy.out: no summary"

# --- compare -----------------------------------------------------------------
[ "$(cat "$OUT/cmp_real.rc")" = 0 ] || fail "compare of two runs: exit $(cat "$OUT/cmp_real.rc"): $(cat "$OUT/cmp_real.out" "$OUT/cmp_real.err")"
[ "$(cat "$OUT/cmp_self.rc")" = 0 ] || fail "compare with itself: exit $(cat "$OUT/cmp_self.rc")"
# One value 20% worse: a regression named by its point.
python3 - "$OUT/write_bw.json" "$OUT/worse.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["bw_avg_gbps"] *= 0.8
json.dump(d, open(sys.argv[2], "w"))
EOF
rc=0
"$RDMABENCH" compare "$OUT/write_bw.json" "$OUT/worse.json" >"$OUT/cmp_worse.out" 2>&1 || rc=$?
[ $rc = 1 ] || fail "compare of a 20% worse copy: exit $rc, want 1: $(cat "$OUT/cmp_worse.out")"
grep -q '^# regression: size 4K .*bw_avg_gbps' "$OUT/cmp_worse.out" ||
	fail "compare does not name the point: $(cat "$OUT/cmp_worse.out")"
rc=0
"$RDMABENCH" compare "$OUT/write_bw.json" "$OUT/send_bw.json" >"$OUT/cmp_diff.out" 2>&1 || rc=$?
[ $rc = 2 ] || fail "compare of two tests: exit $rc, want 2"
for t in write_bw send_bw; do
	grep -q "$t" "$OUT/cmp_diff.out" || fail "compare of two tests does not name $t: $(cat "$OUT/cmp_diff.out")"
done
san_reports || fail "sanitizer reports"
echo "PASS: counters agree with the traffic, loss is flagged, --expect exits 0/3/2, compare 0/1/2"
