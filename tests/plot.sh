#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# scripts/plot against the fixtures in tests/data/plot: the exact PNG names
# it must write (and print), that each is a real, non-trivial PNG, and that
# unplottable input and bad arguments fail with the documented exit codes.
# The PNGs are one per chart of the metric table (rdmabench --list-metrics,
# of $RDMABENCH as make check sets it) that the data has figures of.
# Automake protocol: 0 pass, 1 fail, 77 skip (no gnuplot).

set -euo pipefail

# TOP_SRCDIR comes from the Makefile's TESTS_ENVIRONMENT; running the file by
# hand from a checkout falls back to its own location.
here=$(cd -- "$(dirname -- "$0")" && pwd)
top=${TOP_SRCDIR:-$here/..}
PLOT=$top/scripts/plot
DATA=$top/tests/data/plot

failures=0

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	failures=$((failures + 1))
}

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "SKIP: gnuplot not installed" >&2
	exit 77
fi
for f in "$PLOT" "$DATA/sample_lat.csv" "$DATA/sample_bw.csv"; do
	[[ -e $f ]] || { echo "FAIL: missing $f" >&2; exit 1; }
done
[[ -x $PLOT ]] || { echo "FAIL: $PLOT is not executable" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plot-test.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

# A PNG starts with these 8 bytes; anything smaller than 2000 bytes is an
# empty canvas or an error page rather than a chart.
check_png() {
	local f=$1 magic size
	if [[ ! -f $f ]]; then
		fail "$f was not written"
		return
	fi
	magic=$(od -An -tx1 -N8 -- "$f" | tr -d ' \n')
	[[ $magic == 89504e470d0a1a0a ]] || fail "$f: not a PNG (starts with $magic)"
	size=$(wc -c <"$f")
	((size > 2000)) || fail "$f: only $size bytes"
}

# Runs plot on CSV into DIR and checks that stdout lists exactly the expected
# files (in order), that each is a valid PNG, and that nothing else appeared.
expect_pngs() {
	local csv=$1 dir=$2 rc=0 want got f
	shift 2
	mkdir -p "$dir"
	"$PLOT" "$csv" -o "$dir" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if ((rc != 0)); then
		fail "plot $csv exited $rc: $(head -n 3 "$tmp/err")"
		return
	fi
	want=$(for f in "$@"; do printf '%s/%s\n' "$dir" "$f"; done)
	got=$(cat "$tmp/out")
	[[ $got == "$want" ]] || fail "plot $csv printed:
$got
expected:
$want"
	for f in "$@"; do
		check_png "$dir/$f"
	done
	got=$(cd "$dir" && ls)
	want=$(printf '%s\n' "$@" | LC_ALL=C sort)
	[[ $(printf '%s\n' "$got" | LC_ALL=C sort) == "$want" ]] ||
		fail "$dir holds unexpected files: $(echo "$got" | tr '\n' ' ')"
}

# Unplottable input: exit 1, one line on stderr naming the file and giving
# the reason (matched by a keyword), no PNGs.
expect_reject() {
	local csv=$1 what=$2 reason=$3 rc=0 lines
	rm -rf "$tmp/rej"
	mkdir "$tmp/rej"
	"$PLOT" "$csv" -o "$tmp/rej" >"$tmp/out" 2>"$tmp/err" || rc=$?
	((rc == 1)) || fail "$what: exit $rc, want 1"
	grep -qF -- "$csv" "$tmp/err" || fail "$what: stderr does not name $csv: $(cat "$tmp/err")"
	grep -qF -- "$reason" "$tmp/err" || fail "$what: stderr does not say '$reason': $(cat "$tmp/err")"
	lines=$(wc -l <"$tmp/err")
	((lines == 1)) || fail "$what: $lines lines on stderr, want 1"
	[[ ! -s $tmp/out ]] || fail "$what: printed on stdout: $(cat "$tmp/out")"
	[[ -z $(ls -A "$tmp/rej") ]] || fail "$what: wrote files anyway"
}

expect_exit() {
	local want=$1 rc=0
	shift
	"$PLOT" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	((rc == want)) || fail "plot $*: exit $rc, want $want"
}

# --- fixtures -----------------------------------------------------------
expect_pngs "$DATA/sample_lat.csv" "$tmp/lat" sample_lat-latency.png sample_lat-cpu.png
expect_pngs "$DATA/sample_bw.csv" "$tmp/bw" \
	sample_bw-bandwidth.png sample_bw-msgrate.png \
	sample_bw-heatmap-64.png sample_bw-heatmap-512.png \
	sample_bw-heatmap-4096.png sample_bw-heatmap-65536.png sample_bw-cpu.png
# A matrix CSV (rdmabench matrix --csv) is one heatmap of the pairs.
expect_pngs "$DATA/sample_matrix.csv" "$tmp/matrix" sample_matrix-matrix.png
# A JSON file (--json): its results' charts, and a histogram per point of -H.
expect_pngs "$DATA/sample_hist.json" "$tmp/hist" sample_hist-latency.png sample_hist-cpu.png \
	sample_hist-histogram-2.png sample_hist-histogram-64.png

# Without -o the PNGs land next to the CSV.
mkdir "$tmp/beside"
cp "$DATA/sample_lat.csv" "$tmp/beside/run1.csv"
if out=$("$PLOT" "$tmp/beside/run1.csv" 2>"$tmp/err"); then
	[[ $out == "$tmp/beside/run1-latency.png
$tmp/beside/run1-cpu.png" ]] || fail "default dir: printed '$out'"
	check_png "$tmp/beside/run1-latency.png"
else
	fail "default dir: plot failed: $(cat "$tmp/err")"
fi

# Two tests in one file: each gets its own charts, named with the test.
{
	cat "$DATA/sample_lat.csv"
	sed 1d "$DATA/sample_bw.csv" | grep ',64,1,1,\|,4096,1,1,' | sed 's/^send_bw,/write_bw,/'
} >"$tmp/mixed.csv"
expect_pngs "$tmp/mixed.csv" "$tmp/mixed" \
	mixed-send_lat-latency.png mixed-send_lat-cpu.png \
	mixed-write_bw-bandwidth.png mixed-write_bw-msgrate.png mixed-write_bw-cpu.png

# --- unplottable input ------------------------------------------------------
head -n 1 "$DATA/sample_bw.csv" >"$tmp/header-only.csv"
expect_reject "$tmp/header-only.csv" "header-only CSV" "no data rows"
printf 'lorem ipsum\n\001\002\003 %s\n' "$(seq 1 50 | tr '\n' ';')" >"$tmp/garbage.csv"
expect_reject "$tmp/garbage.csv" "garbage file" "not an rdmabench header"
printf 'test,size,batch\nsend_bw,64,1\n' >"$tmp/no-metric.csv"
expect_reject "$tmp/no-metric.csv" "CSV without a metric column" "no metric column"
expect_reject "$tmp/does-not-exist.csv" "missing file" "no such file"
printf '{"test": "send_lat"}\n' >"$tmp/no-results.json"
expect_reject "$tmp/no-results.json" "JSON without results" "no results array"
printf '{"results": [1,\n' >"$tmp/broken.json"
expect_reject "$tmp/broken.json" "broken JSON" "not JSON"

# --- arguments --------------------------------------------------------------
expect_exit 0 --help
grep -q '^Usage: ' "$tmp/out" || fail "--help printed no usage on stdout"
expect_exit 2
expect_exit 2 --bogus "$DATA/sample_bw.csv"
expect_exit 2 "$DATA/sample_bw.csv" -o
expect_exit 2 "$DATA/sample_bw.csv" "$DATA/sample_lat.csv"

if ((failures)); then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "PASS: scripts/plot"
