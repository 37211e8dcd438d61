#!/bin/sh
# Sweeps in the Soft-RoCE lab, in one boot: a 12-point batch x signal x size
# sweep with --recommend (order of the points, CSV, JSON, recommendation),
# 4 MiB messages for longer than a 3 s --timeout (heartbeats by bytes),
# a sweep interrupted by ^C (exit 130, finished points kept, server not
# left hanging), oversized plans, and scripts/plot on the sweep's CSV.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

LAB_TIMEOUT=${LAB_TIMEOUT:-300}

lab_run '
pair sweep "write_bw --cpu none --quiet" \
	"write_bw --cpu none -s 64,1K,16K -l 1,8 -Q 1,8 -n 300 --recommend 192.0.2.1 --csv $OUT/sweep.csv --json $OUT/sweep.json"
# A latency sweep longer than the send queue: every point must start with
# all of its room (a point that leaked unsignaled WRs would starve a later one).
pair latsweep "send_lat --cpu none --quiet" \
	"send_lat --cpu none -s 2..256:x2 -t 16 -n 150 --warmup 7 192.0.2.1 --csv $OUT/latsweep.csv"

# --progress always: a line per point on a pipe too; never: none.
pair progress "send_lat --cpu none --quiet" \
	"send_lat --cpu none -s 2,4,8 -n 50 --progress always 192.0.2.1"
pair noprogress "send_lat --cpu none --quiet" \
	"send_lat --cpu none -s 2,4,8 -n 50 --progress never 192.0.2.1"
# The table head is out before anything is measured: looked at 1 s into a
# -D 6 point, stdout has the head and no row yet.  stderr is a terminal
# (script(1) on a pseudo-terminal): the status line is redrawn about once
# a second during the point (--progress auto), into head.tty.
[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; }
"$RB" write_bw --cpu none --quiet >"$OUT/head.srv.out" 2>"$OUT/head.srv.err" &
srv=$!
script -qefc "\"$RB\" write_bw --cpu none -s 64 -D 6 192.0.2.1 >\"$OUT/head.cli.out\"" \
	"$OUT/head.tty" </dev/null >/dev/null 2>"$OUT/head.cli.err" &
cli=$!
wait_grep "^ *size " "$OUT/head.cli.out" 10
sleep 1
cp "$OUT/head.cli.out" "$OUT/head.early"
wait $cli
echo $? >"$OUT/head.cli.rc"
wait $srv

# Messages so large that 256 chains take far longer than --timeout (3 s):
# the client must still beat often enough for the server (write_bw -a was
# given up on at 4M when it looked at the clock every 256 chains only).
# -Q 1: a completion per 4 MiB message, so that the client itself does not
# wait 3 s for one (-Q 64 of them take 13 s here).  The client also beats
# while it waits for completions, so this case passed with the old cadence
# too; the -a run that failed at 4M (default -Q 64, 100 messages) now ends.
pair big "write_bw --cpu none --quiet --timeout 3" \
	"write_bw --cpu none -s 4M -n 60 -Q 1 --warmup 1 --timeout 3 192.0.2.1 --json $OUT/big.json"

# ^C in the middle of an 8-point sweep, once at least 2 points are done.
"$RB" write_bw --cpu none --quiet >"$OUT/int.srv.out" 2>"$OUT/int.srv.err" &
srv=$!
"$RB" write_bw --cpu none -s 64,128,256,512,1K,2K,4K,8K -n 20000 192.0.2.1 \
	--csv "$OUT/int.csv" --json "$OUT/int.json" >"$OUT/int.cli.out" 2>"$OUT/int.cli.err" &
cli=$!
i=0
while [ $i -lt 600 ]; do
	[ -f "$OUT/int.csv" ] && [ "$(wc -l <"$OUT/int.csv")" -ge 3 ] && break
	kill -0 $cli 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
wc -l <"$OUT/int.csv" >"$OUT/int.rows_at_sigint" 2>/dev/null
t0=$(date +%s%N)
kill -INT $cli
wait $cli
echo $? >"$OUT/int.cli.rc"
echo $((($(date +%s%N) - t0) / 1000000)) >"$OUT/int.cli.ms"
# The server must notice by itself; give it 15 s.
i=0
while kill -0 $srv 2>/dev/null && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $srv 2>/dev/null; then echo hung >"$OUT/int.srv.hung"; kill -KILL $srv; fi
wait $srv
echo $? >"$OUT/int.srv.rc"

# What sysfs says of the PCIe link of each RDMA device (rxe: the PCI
# function of its parent netdev, one level above virtioN), for device.pcie.
for ib in /sys/class/infiniband/*; do
	p=$(readlink -f "/sys/class/net/$(cat "$ib/parent" 2>/dev/null)/device" 2>/dev/null)
	case ${p##*/} in virtio*) p=${p%/*} ;; esac
	[ -e "$p/vendor" ] || p=/nonexistent
	echo "${ib##*/} ${p##*/} $(cut -d" " -f1 "$p/current_link_speed" 2>/dev/null)" \
		"$(cat "$p/current_link_width" 2>/dev/null)" \
		"$(cut -d" " -f1 "$p/max_link_speed" 2>/dev/null) $(cat "$p/max_link_width" 2>/dev/null)"
done >"$OUT/pcie.sysfs"

# Plans that are too large or empty: usage errors before any connection.
solo toolarge write_bw -s 1..64:+1 -l 1..64:+1 -Q 1,2,3 192.0.2.1
solo emptys write_bw -s "" 192.0.2.1
solo emptyl write_bw -l 8..4:+1 192.0.2.1
'

# --- large messages, a short timeout ------------------------------------------
expect_rc big.cli 0
expect_rc big.srv 0
# Only a point longer than the timeout shows that the heartbeats came.
jcheck big.json 'd["results"][0]["duration_s"] > 3' 'd["results"][0]["size"] == 4194304'

# --- the 12-point sweep ------------------------------------------------------
expect_rc sweep.cli 0
expect_rc sweep.srv 0
# qps, tx_depth, batch, signal, size: size varies fastest.
order='[(1, 1, 64), (1, 1, 1024), (1, 1, 16384), (1, 8, 64), (1, 8, 1024), (1, 8, 16384), (8, 1, 64), (8, 1, 1024), (8, 1, 16384), (8, 8, 64), (8, 8, 1024), (8, 8, 16384)]'
jcheck sweep.csv 'len(d) == 12' \
	"[(int(r[\"batch\"]), int(r[\"signal\"]), int(r[\"size\"])) for r in d] == $order" \
	'all(r["test"] == "write_bw" and r["qps"] == "1" and r["tx_depth"] == "128" and r["iterations"] == "300" for r in d)' \
	'all(float(r["bw_avg_gbps"]) > 0 and float(r["msg_rate_mpps"]) > 0 for r in d)'
jcheck sweep.json 'd["test"] == "write_bw"' 'len(d["results"]) == 12' \
	"[(r[\"batch\"], r[\"signal\"], r[\"size\"]) for r in d[\"results\"]] == $order" \
	'all(r["qps"] == 1 and r["tx_depth"] == 128 and r["iterations"] == 300 for r in d["results"])' \
	'd["params"]["size"] == [64, 1024, 16384]' 'd["params"]["batch"] == [1, 8]' \
	'd["params"]["signal"] == [1, 8]' \
	'all(r["bw_avg_gbps"] > 0 and r["msg_rate_mpps"] > 0 for r in d["results"])'
# Both sides' fingerprints: this side's system and device, the server's as its
# CONN said (wire v18); the lab's two hosts run the same kernel, rdma-core and rxe.
jcheck sweep.json 'd["system"]["kernel"] and d["system"]["rdma_core"]' \
	'd["peer_fingerprint"]["kernel"] == d["system"]["kernel"][:127]' \
	'd["peer_fingerprint"]["rdma_core"] == d["system"]["rdma_core"]' \
	'd["peer_fingerprint"]["fw_ver"] == d["device"]["fw_ver"]' \
	'd["peer_fingerprint"]["vendor_id"] == d["device"]["vendor_id"]' \
	'd["peer_fingerprint"]["hw_ver"] == d["device"]["hw_ver"]' \
	'd["peer_fingerprint"]["pcie"] == d["device"]["pcie"]' \
	'd["peer_fingerprint"]["why_pcie"] == d["device"]["why_pcie"]'
# device.pcie is what the guest's sysfs said (pcie.sysfs): the link, or
# null with a reason where there is none.
python3 - "$OUT/sweep.json" "$OUT/pcie.sysfs" <<'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))["device"]
row = {l.split()[0]: (l.split() + [""] * 6)[1:6] for l in open(sys.argv[2]) if l.split()}
pci, cg, cw, mg, mw = row[d["name"]]
pci = "" if pci == "nonexistent" else pci
num = lambda s, f: f(s) if s.replace(".", "", 1).isdigit() and f(s) > 0 else None
want = None if not pci or not any(num(x, float) for x in (cg, cw, mg, mw)) else {
    "pci": pci, "cur_gts": num(cg, float), "max_gts": num(mg, float),
    "cur_width": num(cw, int), "max_width": num(mw, int)}
got = d["pcie"]
print("pcie.sysfs:", row[d["name"]], "JSON:", got, d["why_pcie"])
if want is None:
    sys.exit(0 if got is None and d["why_pcie"] else 1)
eff = 0.8 if want["cur_gts"] and want["cur_gts"] <= 5 else 128 / 130
ceil = want["cur_gts"] * want["cur_width"] * eff if want["cur_gts"] and want["cur_width"] else None
ok = got is not None and d["why_pcie"] is None and all(got[k] == v for k, v in want.items())
ok = ok and (got["ceiling_gbps"] is None if ceil is None else abs(got["ceiling_gbps"] - ceil) < 1e-6 * ceil)
sys.exit(0 if ok else 1)
EOF
	fail "sweep.json: device.pcie is not what the guest's sysfs said (pcie.sysfs)"
# The recommendation: one per size, each the smallest batch, then the largest
# signal, whose message rate is within 5% of that size's best.
jcheck sweep.json 'len(d["recommendation"]) == 3' \
	'[r["size"] for r in d["recommendation"]] == [64, 1024, 16384]' \
	'all(r["batch"] in (1, 8) and r["signal"] in (1, 8) for r in d["recommendation"])' \
	'all(r["best_msg_rate_mpps"] == max(p["msg_rate_mpps"] for p in d["results"] if p["size"] == r["size"]) for r in d["recommendation"])' \
	'all((r["batch"], -r["signal"]) == min((p["batch"], -p["signal"]) for p in d["results"] if p["size"] == r["size"] and p["msg_rate_mpps"] >= 0.95 * r["best_msg_rate_mpps"]) for r in d["recommendation"])' \
	'all(r["msg_rate_mpps"] == [p["msg_rate_mpps"] for p in d["results"] if (p["size"], p["batch"], p["signal"]) == (r["size"], r["batch"], r["signal"])][0] for r in d["recommendation"])'
expect_grep sweep.cli.out '^# recommendation: per size'
[ "$(grep -c '^# size ' "$OUT/sweep.cli.out")" = 3 ] || fail "want 3 '# size' recommendation lines: $(cat "$OUT/sweep.cli.out")"
for s in 64 1K 16K; do
	expect_grep sweep.cli.out "^# size $s: batch [18] signal [18] -> "
done
# Not a terminal: no progress line, nothing on stderr but warnings.
if grep -q 'point 1/' "$OUT/sweep.cli.err"; then
	fail "progress line on a non-terminal stderr: $(cat "$OUT/sweep.cli.err")"
fi
if grep -v '^rdmabench: warning:' "$OUT/sweep.cli.err" | grep -q .; then
	fail "sweep client stderr has more than warnings: $(cat "$OUT/sweep.cli.err")"
fi

# --- progress and the early head ------------------------------------------------
expect_rc progress.cli 0
expect_rc noprogress.cli 0
for k in 1 2 3; do
	expect_grep progress.cli.err "^point $k/3  size [248] batch [0-9]* signal [0-9]* qps 1  [0-9]*s elapsed"
done
if grep -q '^point ' "$OUT/noprogress.cli.err"; then
	fail "--progress never printed a progress line: $(cat "$OUT/noprogress.cli.err")"
fi
expect_rc head.cli 0
expect_grep head.early '^# rdmabench [0-9.]* write_bw client'
expect_grep head.early '^ *size *batch *signal'
if grep -q '^ *64 ' "$OUT/head.early"; then
	fail "the point's row was out 1 s into a -D 6 point: $(cat "$OUT/head.early")"
fi
expect_grep head.cli.out '^ *64 '
# At least 3 redraws of the status line in the 6 s point, each in place,
# with the bandwidth so far; none on a pipe (sweep.cli.err above).
python3 - "$OUT/head.tty" <<'EOF' || fail "no status redraws on the terminal: $(od -c "$OUT/head.tty" | head -20)"
import re, sys
t = open(sys.argv[1], "rb").read().decode(errors="replace")
d = re.findall(r"\r\x1b\[Kstatus: point 1/1 size 64: (\d+) s of 6 s, ~\d+ s left, [0-9.e+-]+ Gb/s so far", t)
print("status redraws:", len(d), d)
assert len(d) >= 3, t
EOF
[ "$(grep -c '^ *size ' "$OUT/head.cli.out")" = 1 ] || fail "the head twice: $(cat "$OUT/head.cli.out")"

# --- plans too large or empty ---------------------------------------------------
# An axis cannot come out of the parser empty: '' and a descending range are
# refused there, naming the option (no "0 points" count is ever reached).
expect_rc toolarge 2
expect_grep toolarge.err '^rdmabench write_bw: the sweep has 12288 points, more than the 10000 allowed$'
expect_rc emptys 2
expect_grep emptys.err "^rdmabench write_bw: -s/--size: '' is not a number"
expect_rc emptyl 2
expect_grep emptyl.err "^rdmabench write_bw: -l/--batch: range 8..4:+1 does not step upwards"
for n in toolarge emptys emptyl; do
	[ "$(wc -l <"$OUT/$n.err")" = 1 ] || fail "$n.err: want exactly one line: $(cat "$OUT/$n.err")"
done

# --- scripts/plot on the sweep ----------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	png=$OUT/png
	"$TOP_SRCDIR/scripts/plot" "$OUT/sweep.csv" -o "$png" >"$OUT/plot.out" 2>"$OUT/plot.err" ||
		fail "scripts/plot exited $?: $(cat "$OUT/plot.err")"
	# One PNG per chart of the metric table (rdmabench --list-metrics) the
	# CSV has figures of, the heat maps after the message rate's.
	want=$(for f in bandwidth msgrate heatmap-64 heatmap-1024 heatmap-16384 cpu; do
		echo "$png/sweep-$f.png"
	done)
	[ "$(cat "$OUT/plot.out")" = "$want" ] || fail "scripts/plot listed:
$(cat "$OUT/plot.out")
expected:
$want"
	for f in $want; do
		[ -f "$f" ] || fail "$f was not written"
		magic=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
		[ "$magic" = 89504e470d0a1a0a ] || fail "$f is not a PNG (starts with $magic)"
		size=$(wc -c <"$f")
		[ "$size" -gt 2000 ] || fail "$f: only $size bytes"
	done
	[ "$(find "$png" -type f | wc -l)" = 6 ] || fail "$png holds other files: $(ls "$png")"
	# rdmabench report on the sweep's JSON: bandwidth, message rate and CPU
	# against size, and a batch x signal heat map for each of the 3 sizes
	# with --recommend's choice; a valid page that fetches nothing.
	"$RDMABENCH" report "$OUT/sweep.json" -o "$OUT/report.html" >"$OUT/report.out" \
		2>"$OUT/report.err" || fail "rdmabench report exited $?: $(cat "$OUT/report.err")"
	python3 "$TOP_SRCDIR/tests/report_check.py" "$OUT/report.html" --figures 6 --tables 6 \
		--contains recommended || fail "rdmabench report's page of the sweep (above)"
else
	echo "note: gnuplot not installed, scripts/plot and rdmabench report not checked"
fi

# --- the interrupted sweep ----------------------------------------------------
rows=$(cat "$OUT/int.rows_at_sigint" 2>/dev/null)
rows=${rows:-0}
[ "$rows" -ge 3 ] || fail "the sweep did not finish 2 points within 60 s (CSV had $rows lines)"
[ "$rows" -lt 9 ] || fail "the sweep was already finished when ^C was sent: make it longer"
expect_rc int.cli 130
[ ! -e "$OUT/int.srv.hung" ] || fail "the server did not exit within 15 s of the client's ^C"
srv_rc=$(cat "$OUT/int.srv.rc")
case $srv_rc in
0 | 1) ;;
*) fail "the server of the interrupted client exited $srv_rc, want 1 or 0: $(cat "$OUT/int.srv.err")" ;;
esac
expect_grep int.cli.err '^rdmabench: interrupted: [0-9]* of 8 points finished\(, one cut short\)\?; kept in the output files'
# The finished points, then the one ^C cut short (kept, marked), if any.
done_pts=$(sed -n 's/^rdmabench: interrupted: \([0-9]*\) of 8 points.*/\1/p' "$OUT/int.cli.err")
cut=0
! grep -q 'one cut short' "$OUT/int.cli.err" || cut=1
jcheck int.csv "len(d) == $done_pts + $cut" '2 <= len(d) <= 8' \
	'[int(r["size"]) for r in d] == [64, 128, 256, 512, 1024, 2048, 4096, 8192][:len(d)]' \
	"all(r[\"iterations\"] == \"20000\" for r in d[:$done_pts])" \
	'all(float(r["bw_avg_gbps"]) > 0 for r in d)'
jcheck int.json "len(d[\"results\"]) == $done_pts + $cut" '2 <= len(d["results"]) <= 8' \
	'[r["size"] for r in d["results"]] == [64, 128, 256, 512, 1024, 2048, 4096, 8192][:len(d["results"])]' \
	"all(not r.get(\"interrupted\") for r in d[\"results\"][:$done_pts])" \
	"all(r.get(\"interrupted\") is True for r in d[\"results\"][$done_pts:])"
ms=$(cat "$OUT/int.cli.ms")
[ "$ms" -lt 15000 ] || fail "the client took $ms ms to stop after ^C"
expect_rc latsweep.cli 0
expect_rc latsweep.srv 0
jcheck latsweep.csv 'len(d) == 8' '[int(r["size"]) for r in d] == [2, 4, 8, 16, 32, 64, 128, 256]' \
	'all(r["signal"] == "1" and r["iterations"] == "150" for r in d)'
pass
