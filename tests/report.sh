#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# rdmabench report (issue 43) on every kind of JSON: the golden files, a
# comparison (bw_better against bw_worse: the 4 regressions rdmabench
# compare names there), a hand-made file with both sides' PCIe links,
# lab runs (tests/data/report: a batch x signal sweep with --recommend,
# --interval, --probe, -H, --threads; Soft-RoCE under emulation), matrices of 4 ranks (tests/data) and of 256 and 1024
# simulated ranks (made here by matrix --simulate).  Each page must be
# valid HTML that fetches nothing, with the figures and tables counted by
# hand below (tests/report_check.py); bad input must fail with its exit
# code and a message naming the cause.  Then in a real browser
# (chromium headless, as scripts/check installs it): no console message,
# every SVG of non-empty size, the 1024-rank page under 2 MB and laid out
# in under 5 s; screenshots kept in build/tests/report-out/.
# Automake protocol: 0 pass, 1 fail, 77 skip (no gnuplot).

set -uo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
top=${TOP_SRCDIR:-$here/..}
bld=${TOP_BUILDDIR:-$top/build}
bin=${RDMABENCH:-$bld/src/rdmabench}
check=$top/tests/report_check.py
data=$top/tests/data
out=$bld/tests/report-out
fails=0

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	fails=$((fails + 1))
}

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "SKIP: gnuplot not installed (apt-get install gnuplot-nox)" >&2
	exit 77
fi
rm -rf "$out"
mkdir -p "$out"

# page NAME CHECKS... -- FILES...: a report of FILES, checked.
page() {
	local name=$1 checks=()
	shift
	while [ "$1" != "--" ]; do
		checks+=("$1")
		shift
	done
	shift
	if ! "$bin" report "$@" -o "$out/$name.html" >"$out/$name.out" 2>"$out/$name.err"; then
		fail "$name: rdmabench report failed: $(cat "$out/$name.err")"
		return 1
	fi
	[ "$(cat "$out/$name.out")" = "$out/$name.html" ] ||
		fail "$name: stdout is not the page's path: $(cat "$out/$name.out")"
	python3 "$check" "$out/$name.html" "${checks[@]}" || fail "$name: the page (above)"
}

# A run: a chart for each chart of the metric table the points have
# (latency: p50..max; bandwidth; message rate; CPU per message).
page lat --figures 2 --tables 2 -- "$data/golden/lat.json"
page bw --figures 3 --tables 3 --contains "none: sysfs names no PCI function" \
	-- "$data/golden/bw.json"
# Both sides' PCIe links (device.pcie, peer_fingerprint.pcie; a hand-made
# file): in the header, and their ceilings drawn with the line rate.
page pcie --figures 3 --tables 3 --contains "line rate 100 Gb/s" \
	--contains "PCIe ceiling 252.1 Gb/s" --contains "peer's PCIe ceiling 126 Gb/s" \
	--contains "8 GT/s x16 (max 16 GT/s x16), ceiling 126 Gb/s, 0000:41:00.0" \
	--contains "Linux 6.1.0-18-amd64" -- "$data/report/hand-pcie.json"
# Two runs of write_bw: overlaid (3 charts) and compared, the 4 regressions
# of `rdmabench compare bw_better.json bw_worse.json` marked.
page compare --figures 3 --tables 3 --regressions 4 --contains "4 regression(s)" \
	-- "$data/compare/bw_better.json" "$data/compare/bw_worse.json"
# 3 sizes x batch {1,8} x signal {1,8}: 3 charts and a heat map per size.
page sweep --figures 6 --tables 6 --contains "recommended" --contains "line rate 2.5 Gb/s" \
	-- "$data/report/lab-sweep.json"
page interval --figures 4 --tables 4 --contains "Bandwidth over time" \
	-- "$data/report/lab-interval.json"
page probe --figures 4 --tables 4 --contains "idle_p50_us" -- "$data/report/lab-probe.json"
page hist --figures 3 --tables 3 --contains "Latency histogram" -- "$data/report/lab-lat.json"
page threads --figures 4 --tables 4 --contains "thread 1" -- "$data/report/lab-threads.json"
page matrix4 --figures 1 --tables 2 --contains "suspect ranks" \
	-- "$data/matrix-sim-pairs4.json"

# perftest's --out_json (tests/data/report/perftest-*.json, lab runs of
# perftest 6.06, which writes bare keys and trailing commas): one size a
# file.  A copy of the 64 KiB file at 4 KiB (made here) has the same
# settings and folds into its run (2 points, 40.93 MB/sec drawn as 0.3433
# Gb/s, 20 as 0.1678); the 8 MiB file ran with another tx depth (36.28
# MB/sec: 0.3043 Gb/s) and stays a run of its own; send_lat's beside them.
sed 's/^MsgSize: .*/MsgSize: 4096,/; s/^BW_average: .*/BW_average: 20,/' \
	"$data/report/perftest-write_bw-64k.json" >"$out/pt-4k.json"
page perftest --figures 3 --tables 3 --contains "a run of perftest" \
	--contains "read from 2 file(s)" --contains "0.3433" --contains "0.1678" \
	--contains "0.3043" --contains "1450" --contains "has no version" \
	-- "$data/report/perftest-write_bw-64k.json" "$data/report/perftest-write_bw-8m.json" \
	"$data/report/perftest-send_lat-2.json" "$out/pt-4k.json"
# Beside an rdmabench run: the same charts (bandwidth, rate), both named.
page perftest-vs --figures 3 --tables 3 --contains "write_bw-64k" --contains "0.3433" \
	-- "$data/golden/bw.json" "$data/report/perftest-write_bw-64k.json"
# Newer perftest quotes its keys (real JSON): read the same.
python3 - "$data/report/perftest-send_lat-2.json" "$out/pt-quoted.json" <<'PYEOF'
import json, sys
doc, obj = {}, None
for line in open(sys.argv[1]):
    line = line.strip().rstrip(",")
    if ":" not in line:
        continue
    k, v = (x.strip().strip('"') for x in line.split(":", 1))
    if v == "{":
        obj = doc[k] = {}
        continue
    try:
        obj[k] = float(v)
    except ValueError:
        obj[k] = v
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PYEOF
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out/pt-quoted.json" ||
	fail "the quoted perftest file is not JSON"
page perftest-quoted --figures 1 --tables 1 --contains "1450" --contains "Send_Latency_Test" \
	-- "$out/pt-quoted.json"

# Simulated matrices: 256 ranks in tiles of 4, 1024 in tiles of 16.
port=$((30000 + $$ % 5000))
sim() {
	local name=$1
	shift
	"$bin" matrix "$@" -p "$port" --timeout 60 --json "$out/$name.json" \
		>"$out/$name.mx.out" 2>&1
	port=$((port + 1))
	[ -s "$out/$name.json" ] || fail "$name: matrix --simulate wrote no JSON"
}
sim m256 write_bw --simulate outlier=17 --seed 3 --nranks 256 --pattern suspects
sim m1024 send_lat --simulate outlier=700 --nranks 1024 --pattern suspects
page m256 --figures 1 --tables 2 --contains "tiles of 4 x 4 ranks" --contains "17" \
	-- "$out/m256.json"
page m1024 --figures 1 --tables 2 --max-bytes 2000000 --contains "tiles of 16 x 16 ranks" \
	-- "$out/m1024.json"
rm -f "$out/m256.json" "$out/m1024.json"
# Everything at once: one page for the browser.
# 4 charts over the runs (latency, bandwidth, rate, CPU), the sweep's 3 heat
# maps, the time series, the histogram, the threads, the matrix: 11.
page all --figures 11 \
	-- "$data/compare/bw_better.json" "$data/report/lab-sweep.json" \
	"$data/report/lab-interval.json" "$data/report/lab-lat.json" \
	"$data/report/lab-threads.json" "$data/matrix-sim-pairs4.json"

# Files of the right kind with members of the wrong shape or out of range:
# a page without what cannot be drawn, never a crash or gnuplot's error.
python3 - "$data" "$out" <<'PYEOF'
import copy, json, sys
data, out = sys.argv[1], sys.argv[2]
run = json.load(open(data + "/report/lab-sweep.json"))
mx = json.load(open(data + "/matrix-sim-pairs4.json"))
d = copy.deepcopy(run)
d["results"][0]["intervals"] = [None, {"start_s": "a"}]
d["results"][0]["histogram"] = {"edges_us": [1], "counts": [5, 6, 7]}
d["results"][1]["threads"] = [None, 5, {"thread": "x", "rail": 7, "out_of_line": True}]
d["results"].append({"size": 0, "batch": 1, "signal": 1, "bw_avg_gbps": -5})
d["results"].extend([1, "x", None, {}])
d["recommendation"] = [{"size": "x"}, 5, None]
d["command_line"] = [1, None, {}]
json.dump(d, open(out + "/odd-run.json", "w"))
d = copy.deepcopy(mx)
d["pairs"] = [None, 5, {"src": 99, "dst": -1}, {"src": 0, "dst": 1, "run": {"results": [None]}}] + d["pairs"]
d["matrix"]["bad_ranks"] = [1000, -5, "x"]
json.dump(d, open(out + "/odd-matrix.json", "w"))
PYEOF
# A sweep of qps and tx_depth (no batch x signal): their heat map, at 64 B.
python3 - "$data" "$out" <<'PYEOF'
import copy, json, sys
data, out = sys.argv[1], sys.argv[2]
d = json.load(open(data + "/golden/bw.json"))
pt, d["results"] = d["results"][0], []
for q in (1, 2, 4):
    for t in (64, 256):
        r = dict(copy.deepcopy(pt), qps=q, tx_depth=t)
        r["msg_rate_mpps"] = q * t / 100.0
        d["results"].append(r)
json.dump(d, open(out + "/qps-depth.json", "w"))
PYEOF
page qps-depth --figures 4 --tables 4 --contains "msg_rate_mpps (Mpps) by qps and tx_depth at 64 bytes, -l 4, -Q 16" \
	-- "$out/qps-depth.json"
page odd-run --figures 6 --tables 6 -- "$out/odd-run.json"
page odd-matrix --figures 1 --tables 2 -- "$out/odd-matrix.json"

# The checker itself: a fetch or a duplicate id must fail it.
sed 's|</body>|<img src="http://example.com/x.png"></body>|' "$out/bw.html" >"$out/neg-fetch.html"
python3 "$check" "$out/neg-fetch.html" 2>/dev/null && fail "the checker passes a page with an http src"
sed 's|</body>|<p id="run0">x</p></body>|' "$out/bw.html" >"$out/neg-id.html"
python3 "$check" "$out/neg-id.html" 2>/dev/null && fail "the checker passes a page with an id twice"

# want RC TEXT ARGS...: rdmabench report ARGS exits RC and says TEXT.
want() {
	local rc=$1 text=$2 got=0
	shift 2
	"$bin" report "$@" >"$out/want.out" 2>"$out/want.err" || got=$?
	[ "$got" -eq "$rc" ] || fail "report $*: exit $got, not $rc"
	grep -qF -- "$text" "$out/want.err" || fail "report $*: no '$text' in: $(cat "$out/want.err")"
}
printf '{"tool": "iperf3"}\n' >"$out/other.json"
printf '{"tool": "rdmabench", "results": [\n' >"$out/cut.json"
want 2 "no file: give one or more JSON files" -o "$out/x.html"
want 2 "other.json: not rdmabench JSON" "$out/other.json" -o "$out/x.html"
want 2 "cut.json, line 2: not valid JSON" "$out/cut.json" -o "$out/x.html"
sed 's/^MsgSize: .*/MsgSize 2/' "$data/report/perftest-send_lat-2.json" >"$out/pt-bad.json"
want 2 "pt-bad.json: line 21: not perftest's --out_json" "$out/pt-bad.json" -o "$out/x.html"
sed '/^t_avg/d; /^MsgSize/d' "$data/report/perftest-send_lat-2.json" >"$out/pt-none.json"
want 2 "pt-none.json: perftest's --out_json without a test name, a message size" \
	"$out/pt-none.json" -o "$out/x.html"
want 1 "nosuch.json: cannot read it: No such file or directory" "$out/nosuch.json"
want 2 "--tolerance '0.05': a bare number is a percentage" "$data/golden/bw.json" -t 0.05 \
	-o "$out/x.html"
want 2 "unknown option --bogus for report" --bogus "$data/golden/bw.json"
RDMABENCH_GNUPLOT=/nonexistent/gnuplot want 1 "gnuplot draws the report's figures" \
	"$data/golden/bw.json" -o "$out/x.html"
[ -e "$out/x.html" ] && fail "a failed report left $out/x.html"
want 1 "cannot write it" "$data/golden/bw.json" -o "$out"

# ---- the browser ------------------------------------------------------
chromium=${RDMABENCH_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
	fail "no chromium: scripts/check installs it (apt-get install chromium)"
	exit 1
fi
# A test-only copy of a page with a script at its end that lays it out
# (getBoundingClientRect) and writes each SVG's size and the time since
# navigation (parsing and layout of the whole page) into the DOM.
probe_copy() {
	sed 's|</body>|<script>(function () { var s = []; document.querySelectorAll("svg").forEach(function (e) { var r = e.getBoundingClientRect(); s.push(Math.round(r.width) + "x" + Math.round(r.height)); }); var d = document.createElement("pre"); d.id = "rb-probe"; d.textContent = "\\nsvgs " + s.join(" ") + "\\nms " + Math.round(performance.now()); document.body.appendChild(d); })();</script></body>|' \
		"$1" >"$2"
}
browse() { # NAME WANT_SVGS MAX_MS ("": no limit)
	local name=$1 nsvg=$2 maxms=$3 sizes ms
	probe_copy "$out/$name.html" "$out/$name.probe.html"
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--virtual-time-budget=10000 --dump-dom "file://$out/$name.probe.html" \
		>"$out/$name.dom" 2>"$out/$name.chromium.err" || fail "$name: chromium --dump-dom failed"
	grep ':CONSOLE' "$out/$name.chromium.err" && fail "$name: console messages (above)"
	sizes=$(sed -n 's/^svgs //p' "$out/$name.dom")
	ms=$(sed -n 's/^ms \([0-9]*\).*/\1/p' "$out/$name.dom")
	[ "$(echo "$sizes" | tr ' ' '\n' | grep -c '^[1-9][0-9]*x[1-9][0-9]*$')" -eq "$nsvg" ] ||
		fail "$name: want $nsvg SVGs of non-empty size, the browser laid out: $sizes"
	if [ -z "$ms" ] || { [ -n "$maxms" ] && [ "$ms" -gt "$maxms" ]; }; then
		fail "$name: laid out in ${ms:-?} ms, over $maxms"
	fi
	echo "$name: $nsvg SVGs laid out in $ms ms ($(wc -c <"$out/$name.html") bytes)"
	timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1200,3000 --screenshot="$out/$name.png" "file://$out/$name.html" \
		>/dev/null 2>&1 || fail "$name: chromium --screenshot failed"
	[ -s "$out/$name.png" ] || fail "$name: no screenshot"
}
# Negative control: a console error must be seen.
printf '<!DOCTYPE html><html><body><script>nosuch();</script></body></html>\n' >"$out/neg-console.html"
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
	--dump-dom "file://$out/neg-console.html" >/dev/null 2>"$out/neg-console.err"
grep -q ':CONSOLE' "$out/neg-console.err" || fail "chromium's console errors are not seen"
browse all 11 ""
browse m1024 1 5000

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s); pages and screenshots in $out" >&2
	exit 1
fi
echo "ok: pages and screenshots in $out"
