#!/bin/sh
# Traffic shape across the lab's wire (two hosts), in one boot:
# - --interval: write_bw -D 3 --interval 1 gives 3 (+-1) slices in the JSON
#   and the CSV, printed live in the table; send_lat's slices carry their
#   own percentiles; a sweep (-s a,b) gets slices per point;
# - --rate: write_bw paced well below what the lab does (measured unpaced
#   first) lands within a tolerance of the target, never above it, and the
#   pps form too; a rate far above what the lab does is reported as a
#   large negative deviation, not a hang;
# - -D 0 --interval 1 ended by SIGINT after ~3 s keeps its point and
#   slices and exits 130; SIGTERM in the middle of -D 60 keeps what was
#   measured (the point marked interrupted) and exits 143;
# - usage errors (exit 2): --rate on a latency test, -D 0 with a sweep,
#   an interval longer than -D, a rate in bytes.
# Every JSON is checked against doc/rdmabench.schema.json (lab_run).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-900}

lab_run '
C="--bind 192.0.2.2 --cpu none --verify"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

# up NAME: wait (up to 120 s) until the client NAME printed its first slice.
up() {
	wait_grep "interval 1:" "$OUT/$1.out" 120
}

solo iv write_bw $C -s 4096 -t 8 -D 3 --interval 1 192.0.2.1 --json "$OUT/iv.json" --csv "$OUT/iv.csv"
solo lat send_lat $C -D 2 --interval 0.5 192.0.2.1 --json "$OUT/lat.json"
solo sweep write_bw $C -s 1024,4096 -t 8 -D 2 --interval 1 --rate 1Mbps 192.0.2.1 \
	--json "$OUT/sweep.json" --csv "$OUT/sweep.csv"
# What the lab does unpaced, in the shape of the paced runs (it varies with the load).
solo free write_bw $C -s 1024 -t 8 -D 2 192.0.2.1 --json "$OUT/free.json"
solo rate write_bw $C -s 1024 -t 8 -D 4 --rate 64Kbps 192.0.2.1 --json "$OUT/rate.json"
solo pps write_bw $C -s 1024 -t 8 -D 4 --rate_limit 8pps 192.0.2.1 --json "$OUT/pps.json"
solo high write_bw $C -s 4096 -D 2 --rate 100Gbps 192.0.2.1 --json "$OUT/high.json"

# -D 0: runs until the signal, which ends the point as -D would.
"$RB" write_bw $C -s 4096 -t 8 -D 0 --interval 1 192.0.2.1 --json "$OUT/inf.json" \
	--csv "$OUT/inf.csv" >"$OUT/inf.out" 2>"$OUT/inf.err" &
cli=$!
up inf
sleep 2.5
kill -INT $cli
wait $cli
echo $? >"$OUT/inf.rc"

# SIGTERM in the middle of a -D point: what it measured is kept.
"$RB" send_lat $C -D 60 --interval 1 192.0.2.1 --json "$OUT/term.json" \
	>"$OUT/term.out" 2>"$OUT/term.err" &
cli=$!
up term
sleep 1.5
kill -TERM $cli
wait $cli
echo $? >"$OUT/term.rc"

stop_server $srv

solo lat_rate send_lat -n 10 --rate 1Gbps 192.0.2.1
solo inf_sweep write_bw -D 0 -s 64,128 192.0.2.1
solo long_iv write_bw -D 2 --interval 3 192.0.2.1
solo bytes write_bw --rate 10GBps 192.0.2.1
'

# Slices partition the point: their iterations add up to its own.
PART='all(sum(i["iterations"] for i in r["intervals"]) == r["iterations"] for r in d["results"])'
ORDER='all(0 < i["lat_us"]["min"] <= i["lat_us"]["p50"] <= i["lat_us"]["p99"] <= i["lat_us"]["max"] for r in d["results"] for i in r["intervals"])'

# -D 3 --interval 1: 3 slices, give or take one.  The point lasts until its
# last completions are back, which a retransmission in the lab can delay by
# seconds: the slices cover that time too (one a second).
expect_rc iv 0
jcheck iv.json 'len(d["results"]) == 1' 'd["params"]["interval_s"] == 1' "$PART" \
	'd["results"][0]["duration_s"] >= 3' \
	'len(d["results"][0]["intervals"]) >= 2' \
	'abs(len(d["results"][0]["intervals"]) - round(d["results"][0]["duration_s"])) <= 1' \
	'all(i["bw_avg_gbps"] >= 0 and i["duration_s"] > 0 for i in d["results"][0]["intervals"])' \
	'd["results"][0]["bw_min_interval_gbps"] == min(i["bw_avg_gbps"] for i in d["results"][0]["intervals"] if i["duration_s"] >= 0.5)'
jcheck iv.csv '2 <= len([r for r in d if r["interval"]])' \
	'[r["interval"] for r in d if r["interval"]] == [str(k + 1) for k in range(len([r for r in d if r["interval"]]))]' \
	'd[-1]["interval"] == "" and float(d[-1]["bw_min_interval_gbps"]) > 0' \
	'sum(int(r["iterations"]) for r in d if r["interval"]) == int(d[-1]["iterations"])'
expect_grep iv.out '\[interval 2: '
expect_grep iv.out 'lowest interval bandwidth'

expect_rc lat 0
jcheck lat.json 'len(d["results"][0]["intervals"]) >= 2' "$PART" "$ORDER"

expect_rc sweep 0
jcheck sweep.json '[r["size"] for r in d["results"]] == [1024, 4096]' \
	'all(len(r["intervals"]) >= 1 and r["rate_target_gbps"] == 0.001 for r in d["results"])' \
	"$PART"
jcheck sweep.csv 'sorted(set(r["size"] for r in d if r["interval"])) == ["1024", "4096"]' \
	'[float(r["rate_target_gbps"]) for r in d if not r["interval"]] == [0.001, 0.001]'

# Both ways, always: never above the target, and not below it by more
# than 20% (measured: -0.1% and -0.0% with the lab at 4300 messages/s
# unpaced; the point's end waits for the last completions, and a guest
# stalled for more than a send queue's tokens loses them).  The bound needs a
# lab that does at least four times the target unpaced just before (it does
# a hundred times that and more): one that cannot is a failure, never a
# check left out.  The deviations measured are printed, the lab's bound.
expect_rc free 0
free=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["msg_rate_mpps"] * 1e6)' "$OUT/free.json")
echo "the lab did $free 1 KiB messages/s unpaced"
awk "BEGIN { exit !($free >= 4 * 64000 / 8192) }" ||
	fail "the lab did $free 1 KiB messages/s unpaced, under 4 times --rate 64Kbps (7.8/s): too loaded to bound --rate"
for f in rate pps; do
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%s: --rate deviation %.1f%% (bound -20..5)" % (sys.argv[2], r["rate_deviation_pct"]))' \
		"$OUT/$f.json" "$f" || fail "$f.json: no rate_deviation_pct"
done
expect_rc rate 0
jcheck rate.json 'd["params"]["rate"] == "64Kbps"' 'd["results"][0]["rate_target_gbps"] == 0.000064' \
	'-20 <= d["results"][0]["rate_deviation_pct"] <= 5' \
	'abs(d["results"][0]["rate_achieved_gbps"] - d["results"][0]["bw_avg_gbps"]) < 1e-12'
expect_rc pps 0
jcheck pps.json 'd["params"]["rate"] == "8pps"' 'd["results"][0]["rate_target_mpps"] == 8e-06' \
	'-20 <= d["results"][0]["rate_deviation_pct"] <= 5'
expect_rc high 0
jcheck high.json 'd["results"][0]["rate_deviation_pct"] < -50'
expect_grep high.out 'rate: target 100 Gb/s, achieved .* (-'

expect_rc inf 130
jcheck inf.json 'd["complete"] is True' 'len(d["results"]) == 1' 'd["params"]["duration_s"] == 0' \
	'"interrupted" not in d["results"][0]' 'len(d["results"][0]["intervals"]) >= 2' "$PART"
jcheck inf.csv 'len([r for r in d if r["interval"]]) >= 2' 'd[-1]["interval"] == ""'

expect_rc term 143
jcheck term.json 'd["complete"] is False' 'd["reason"] == "interrupted"' \
	'd["results"][0]["interrupted"] is True' 'len(d["results"][0]["intervals"]) >= 1' "$PART" \
	"$ORDER"

expect_rc lat_rate 2
expect_grep lat_rate.err '--rate does not apply to send_lat'
expect_rc inf_sweep 2
expect_grep inf_sweep.err '-D 0 measures one point'
expect_rc long_iv 2
expect_grep long_iv.err 'longer than -D/--duration'
expect_rc bytes 2
expect_grep bytes.err 'bytes per second are not taken'
pass
