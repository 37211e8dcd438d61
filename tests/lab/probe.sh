#!/bin/sh
# --probe (latency under load) across the lab's wire (two hosts: a generic
# server on host 1, rxe0, 192.0.2.1; the client on host 2, rxe1):
# - write_bw --probe at 64 KiB, a full stream for 3 s (one retry at most,
#   counted and printed, and only after "remote invalid request": two QPs
#   of one rxe device, one of them sending messages of many packets, end
#   in it now and then here, as threads.sh and memory.sh found without
#   --probe (README, "Testing a cluster"); a wrong rkey, address or length
#   gives it every time, and fails both tries; the other runs send
#   one-packet messages, path MTU 1024): each point has
#   idle_lat_us (200 round trips alone before the stream) and loaded_lat_us
#   (beside it), and the loaded p50 is above the idle one (rxe under TCG:
#   the stream's packets queue ahead of the probe's on the same path);
# - send_bw --probe --verify over two sizes: both summaries per point, the
#   CSV's columns and the table's;
# - --probe-rate 100: fewer loaded round trips (at most ~100 a second);
# - send_lat --probe and --probe-rate without --probe exit 2, naming them;
# - write_bw --probe --reversed: the server streams, the client pings;
# - write_bw --probe -R: the data QPs by the CM, the probe's out of band;
# - write_bw --probe --threads 2: one probe, thread 0's, the run's row;
#   its idle pings run before any thread streams: at -D 2 their p50 is
#   within 3 times a one-thread run's (measured just before, same boot;
#   TCG's noise under a shared host), and below its loaded p50;
# - write_bw --probe --cpu 0: the stream on CPU 0, the probe on CPU 1
#   (JSON probe_placement; the server, --cpu none, leaves it unbound);
# - --wr-lat (in this boot, beside --probe's runs): write_bw --verify with
#   -l 16 -Q 4 -n 4000 times exactly its 1000 signaled WRs; send_bw
#   --reversed gives the server's figures; send_lat --wr-lat exits 2.
# Emulation figures (Soft-RoCE under QEMU TCG): printed, not compared to
# anything but each other.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

lab_run '
C="--bind 192.0.2.2 --cpu none --timeout 30"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
for a in 1 2; do
	echo $a >"$OUT/wbw.tries"
	solo wbw write_bw --probe -s 64K -D 3 $C 192.0.2.1 --json "$OUT/wbw.json"
	[ "$(cat "$OUT/wbw.rc")" != 0 ] && grep -q "remote invalid request" "$OUT/wbw.err" || break
done
solo sbw send_bw --probe --verify -s 64,1K -n 3000 $C 192.0.2.1 --json "$OUT/sbw.json" \
	--csv "$OUT/sbw.csv"
solo rate write_bw --probe --probe-rate 100 -s 1K -D 2 $C 192.0.2.1 --json "$OUT/rate.json"
solo lat send_lat --probe -n 10 $C 192.0.2.1
solo norate write_bw --probe-rate 100 -n 10 $C 192.0.2.1
solo prev write_bw --probe --reversed -s 64K -D 2 $C 192.0.2.1 --json "$OUT/prev.json"
solo pcm write_bw --probe -R -s 4K -n 3000 $C 192.0.2.1 --json "$OUT/pcm.json"
solo pthr write_bw --probe --threads 2 -s 4K -n 3000 $C 192.0.2.1 --json "$OUT/pthr.json"
# Issue 37: the idle pings of --threads 2 with nothing streaming, as with
# one thread (item 1, -D 2: thread 1 streamed all through them before);
# the probe off the stream CPU (item 4: --cpu 0, the probe on CPU 1).
solo p1 write_bw --probe -s 4K -D 2 $C 192.0.2.1 --json "$OUT/p1.json"
solo p2 write_bw --probe --threads 2 -s 4K -D 2 $C 192.0.2.1 --json "$OUT/p2.json"
solo pcpu write_bw --probe -s 4K -n 3000 --bind 192.0.2.2 --cpu 0 --timeout 30 192.0.2.1 \
	--json "$OUT/pcpu.json"
solo wrl write_bw --wr-lat --verify -s 4K -l 16 -Q 4 -n 4000 $C 192.0.2.1 --json "$OUT/wrl.json"
solo wrlr send_bw --wr-lat --reversed -s 1K -n 2000 $C 192.0.2.1 --json "$OUT/wrlr.json"
solo wrll send_lat --wr-lat -n 10 $C 192.0.2.1
stop_server $srv
'

for c in wbw sbw rate; do
	expect_rc $c 0
done
# expect_rc wbw above reads the last try: a second failure fails the test.
echo "write_bw 64 KiB --probe: $(cat "$OUT/wbw.tries") of at most 2 tries (retries: $(($(cat "$OUT/wbw.tries") - 1)))"
[ ! -f "$OUT/server.hung" ] || fail "the server did not end on ^C"
expect_rc server 0

both='all(r[k]["samples"] > 0 and 0 < r[k]["min"] <= r[k]["p50"] <= r[k]["p99"] <= r[k]["max"] for r in d["results"] for k in ("idle_lat_us", "loaded_lat_us"))'
flat='all(r["loaded_p50_us"] == r["loaded_lat_us"]["p50"] and r["idle_p99_us"] == r["idle_lat_us"]["p99"] for r in d["results"])'
jcheck wbw.json 'd["params"]["probe"] is True' 'd["params"]["probe_rate"] == 1000' \
	"$both" "$flat" 'all(r["idle_lat_us"]["samples"] == 200 for r in d["results"])' \
	'all(r["loaded_lat_us"]["samples"] >= 20 for r in d["results"])' \
	'all(r["bw_avg_gbps"] > 0 for r in d["results"])'
jcheck sbw.json 'd["params"]["verify"] is True' 'len(d["results"]) == 2' "$both" "$flat"
jcheck sbw.csv 'len(d) == 2' \
	'all(float(r["loaded_p50_us"]) > 0 and float(r["idle_p99_us"]) > 0 for r in d)'
expect_grep sbw.out 'load_p50\[us\] *load_p99\[us\] *idle_p50\[us\] *idle_p99\[us\]'
jcheck rate.json 'd["params"]["probe_rate"] == 100' "$both" \
	'all(r["idle_lat_us"]["samples"] == 20 for r in d["results"])' \
	'all(r["loaded_lat_us"]["samples"] <= 100 * (r["duration_s"] + 1) for r in d["results"])'

python3 - "$OUT" <<'EOF' || fail "write_bw 64 KiB: the loaded probe was not slower than the idle one"
import json, sys
out = sys.argv[1]
for name in ("wbw", "sbw", "rate", "prev"):
    for r in json.load(open(out + "/%s.json" % name))["results"]:
        i, l = r["idle_lat_us"], r["loaded_lat_us"]
        print("%s %6d B %8.1f MiB/s: idle p50 %8.1f p99 %8.1f us (%d), loaded p50 %8.1f p99 %8.1f us (%d)"
              % (name, r["size"], r["bw_avg_mibps"], i["p50"], i["p99"], i["samples"],
                 l["p50"], l["p99"], l["samples"]))
r = json.load(open(out + "/wbw.json"))["results"][0]
assert r["loaded_lat_us"]["p50"] > r["idle_lat_us"]["p50"], r
EOF

expect_rc prev 0
jcheck prev.json 'd["params"]["reversed"] is True' "$both" "$flat" \
	'all(r["bw_avg_gbps"] > 0 for r in d["results"])'
expect_rc pcm 0
jcheck pcm.json "$viacm" "$both" "$flat"
expect_rc pthr 0
jcheck pthr.json 'd["params"]["threads"] == 2' "$both" "$flat" \
	'all("loaded_lat_us" in r["threads"][0] and "loaded_lat_us" not in r["threads"][1] for r in d["results"])' \
	'all(r["loaded_lat_us"] == r["threads"][0]["loaded_lat_us"] for r in d["results"])'
for c in p1 p2 pcpu; do
	expect_rc $c 0
done
jcheck p2.json 'd["params"]["threads"] == 2' "$both"
python3 - "$OUT" <<'EOF' || fail "--threads 2 --probe: the idle pings were not alone on the path"
import json, sys
out = sys.argv[1]
one = json.load(open(out + "/p1.json"))["results"][0]
two = json.load(open(out + "/p2.json"))["results"][0]
print("write_bw 4 KiB -D 2 --probe: 1 thread idle p50 %.1f us loaded p50 %.1f us; "
      "2 threads idle p50 %.1f us loaded p50 %.1f us"
      % (one["idle_p50_us"], one["loaded_p50_us"], two["idle_p50_us"], two["loaded_p50_us"]))
assert two["idle_p50_us"] <= 3 * one["idle_p50_us"], "idle p50 not within noise of one thread's"
assert two["idle_p50_us"] < two["loaded_p50_us"], "idle p50 not below loaded"
EOF
jcheck pcpu.json 'd["placement"]["cpus"] == "0"' 'd["probe_placement"]["cpu"] == 1' \
	'd["probe_placement"]["shared_with_stream"] is False' "$both"
wr='all(0 < r["wr_lat_us"]["min"] <= r["wr_lat_us"]["p50"] <= r["wr_lat_us"]["p99"] <= r["wr_lat_us"]["max"] and r["wr_p50_us"] == r["wr_lat_us"]["p50"] for r in d["results"])'
expect_rc wrl 0
jcheck wrl.json 'd["params"]["wr_lat"] is True' "$wr" \
	'all(r["wr_lat_us"]["samples"] == 1000 for r in d["results"])'
expect_grep wrl.out 'wr_p50\[us\] *wr_p99\[us\]'
expect_rc wrlr 0
jcheck wrlr.json 'd["params"]["reversed"] is True' "$wr" \
	'all(r["wr_lat_us"]["samples"] > 0 for r in d["results"])'
expect_rc wrll 2
expect_grep wrll.err '--wr-lat does not apply to send_lat'
python3 - "$OUT" <<'EOF'
import json, sys
for name in ("wrl", "wrlr"):
    for r in json.load(open(sys.argv[1] + "/%s.json" % name))["results"]:
        w = r["wr_lat_us"]
        print("%s %6d B: signaled WRs post to completion p50 %8.1f p99 %8.1f us (%d)"
              % (name, r["size"], w["p50"], w["p99"], w["samples"]))
EOF

expect_rc lat 2
expect_grep lat.err '--probe does not apply to send_lat'
expect_rc norate 2
expect_grep norate.err '--probe-rate needs --probe'
pass
