#!/bin/sh
# How points wait, as sweep axes, across the lab's wire (two hosts: the
# server on host 1, rxe0, 192.0.2.1; the client on host 2, rxe1), with
# --verify: a send_bw stream paced by --rate with --poll busy,event (one
# run, both modes: each point says its own in the JSON and CSV, both sides
# switch with the point, and the event point's client uses less CPU); a
# send_lat with --poll busy,event -t 64,128 and --recommend p99<=BOUND (per
# size the point cheapest in CPU within the bound, its line naming each
# swept axis: the line's options, run again, measure that point and no
# other, issue 37 item 9); and write_bw with --cqe-poll 1,16 (both points,
# on both sides).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

lab_run '
S="--bind 192.0.2.1 --cpu none --quiet"
C="--bind 192.0.2.2 --cpu none"
pair rate "send_bw $S --json $OUT/rate.srv.json" \
	"send_bw -s 4096 -n 1500 --rate 20Mbps --poll busy,event --verify $C 192.0.2.1 --json $OUT/rate.cli.json --csv $OUT/rate.csv"
pair lat "send_lat $S --json $OUT/lat.srv.json" \
	"send_lat -n 300 --poll busy,event -t 64,128 --verify --recommend p99<=1s $C 192.0.2.1 --json $OUT/lat.cli.json"
A=$(sed -n "s/^# size 2: \(.*\) -> .*/\1/p" "$OUT/lat.cli.out")
echo "$A" >"$OUT/relat.args"
pair relat "send_lat $S --json $OUT/relat.srv.json" \
	"send_lat -n 300 $A --verify $C 192.0.2.1 --json $OUT/relat.cli.json"
pair cqe "write_bw $S --json $OUT/cqe.srv.json" \
	"write_bw -n 2000 -l 16 -Q 1 --cqe-poll 1,16 --verify $C 192.0.2.1 --json $OUT/cqe.cli.json"
'

for t in rate lat relat cqe; do
	expect_rc "$t.cli" 0
	expect_rc "$t.srv" 0
done

# One run, both modes, each point its own; the server switched with it.
jcheck rate.cli.json 'd["params"]["poll"] == ["busy", "event"]' 'd["params"]["verify"]' \
	'[r["poll"] for r in d["results"]] == ["busy", "event"]' \
	'"wakeups" not in d["results"][0]' 'd["results"][1]["wakeups"] >= 0' \
	'all(r["iterations"] == 1500 for r in d["results"])'
jcheck rate.srv.json '[r["poll"] for r in d["results"]] == ["busy", "event"]' \
	'"wakeups" not in d["results"][0]' 'd["results"][1]["wakeups"] > 0'
expect_grep rate.csv ',peer_bw_avg_gbps,wakeups_per_msg,'
expect_grep rate.csv ',poll,cqe_poll\(,\|$\)'
expect_grep rate.csv ',busy,32\(,\|$\)'
expect_grep rate.csv ',event,32\(,\|$\)'
python3 - "$OUT" <<'EOF' || fail "--poll busy,event: the event point did not save CPU on a paced stream"
import json, sys
busy, ev = json.load(open(sys.argv[1] + "/rate.cli.json"))["results"]
print("rate 20Mbps, 4 KiB, one run: client CPU busy %.1f%% (%.0f ns/msg), event %.1f%% "
      "(%.0f ns/msg); wake-ups per message %.3f"
      % (busy["cpu_util_pct"], busy["cpu_ns_per_msg"], ev["cpu_util_pct"],
         ev["cpu_ns_per_msg"], ev["wakeups_per_msg"]))
# Emulation: a generous margin, busy polling is near 100% of a CPU.
assert ev["cpu_util_pct"] < 0.75 * busy["cpu_util_pct"], (busy["cpu_util_pct"], ev["cpu_util_pct"])
EOF

# A latency test over both modes and two depths, and what --recommend chose:
# the cheapest point, every axis of it (the depth too) in the JSON and the line.
jcheck lat.cli.json 'd["params"]["poll"] == ["busy", "event"]' \
	'[(r["tx_depth"], r["poll"]) for r in d["results"]] == [(64, "busy"), (64, "event"), (128, "busy"), (128, "event")]' \
	'all(r["lat_us"]["p99"] > 0 and r["iterations"] == 300 for r in d["results"])' \
	'd["results"][1]["wakeups_per_msg"] > 0' \
	'len(d["recommendation"]) == 1 and d["recommendation"][0]["found"]' \
	'd["recommendation"][0]["within"] == 4' \
	'd["recommendation"][0]["cpu_ns_per_msg"] == min(r["cpu_ns_per_msg"] for r in d["results"])' \
	'(lambda c, b: (c["poll"], c["tx_depth"]) == (b["poll"], b["tx_depth"]))(d["recommendation"][0], min(d["results"], key=lambda r: r["cpu_ns_per_msg"]))' \
	'd["recommendation"][0]["args"] == "--poll %s -t %d" % (d["recommendation"][0]["poll"], d["recommendation"][0]["tx_depth"])'
jcheck lat.srv.json '[r["poll"] for r in d["results"]] == ["busy", "event", "busy", "event"]'
expect_grep lat.cli.out '^# recommendation: per size, the point cheapest in CPU (cpu_ns_per_msg) with p99<=1s'
expect_grep lat.cli.out '^# size 2: --poll [a-z]* -t [0-9]* -> '
# The printed options, run again: exactly the recommended point.
grep -q '^--poll [a-z]* -t [0-9]*$' "$OUT/relat.args" || fail "no options in the line: $(cat "$OUT/relat.args")"
python3 - "$OUT" <<'EOF' || fail "the recommendation's line measured another point"
import json, sys
c = json.load(open(sys.argv[1] + "/lat.cli.json"))["recommendation"][0]
r = json.load(open(sys.argv[1] + "/relat.cli.json"))["results"]
print("re-run of the recommended line (%s): %s" % (c["args"], [(p["poll"], p["tx_depth"]) for p in r]))
assert [(p["poll"], p["cqe_poll"], p["tx_depth"]) for p in r] == [(c["poll"], c["cqe_poll"], c["tx_depth"])]
EOF
python3 - "$OUT" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1] + "/lat.cli.json"))
for r in d["results"]:
    print("send_lat %s: p50 %.1f us, p99 %.1f us, client CPU %.1f%% (%.0f ns/msg)%s"
          % (r["poll"], r["lat_us"]["p50"], r["lat_us"]["p99"], r["cpu_util_pct"],
             r["cpu_ns_per_msg"],
             ", wake-ups per message %.3f" % r["wakeups_per_msg"] if "wakeups" in r else ""))
print("recommended:", d["recommendation"][0])
EOF

# --cqe-poll as an axis, on both sides.
jcheck cqe.cli.json 'd["params"]["cqe_poll"] == [1, 16]' 'd["params"]["poll"] == "busy"' \
	'[r["cqe_poll"] for r in d["results"]] == [1, 16]' \
	'all(r["iterations"] == 2000 and r["msg_rate_mpps"] > 0 for r in d["results"])'
jcheck cqe.srv.json '[r["cqe_poll"] for r in d["results"]] == [1, 16]'
python3 - "$OUT" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1] + "/cqe.cli.json"))["results"]:
    print("write_bw -l 16 -Q 1 --cqe-poll %d: %.4g Mpps, client %.0f ns/msg"
          % (r["cqe_poll"], r["msg_rate_mpps"], r["cpu_ns_per_msg"]))
EOF
pass
