#!/bin/sh
# rdmabench under perftest's names, across a real wire (two hosts: the
# server on host 1, rxe0, 192.0.2.1; the client on host 2, rxe1): links
# named ib_send_lat, ib_write_bw, ib_read_lat and ib_atomic_bw, as
# `make install` puts in $(libexecdir)/rdmabench/perftest, run perftest
# command lines as they are on both sides, print perftest's report, and
# the repository's perftest parser (scripts/lib/perftest_report.py) reads
# every one of them unchanged, --send_with_imm and --write_with_imm on
# both sides too.  rdmabench's own options are refused there.
# Issue 37 (items 12 to 15): ib_write_bw -q 4 -n 5000 posts and prints
# 20000; ib_send_lat --latency_gap prints perftest's statistics of its
# samples with the gap inside (recomputed here from -U's samples), while
# the JSON keeps it out; --run_infinitely -D 1 prints a line a second.
# Then a sample of the corpus of real perftest lines (the lab: records of
# tests/data/perftest-lines/lines), each run as it is on both sides (the lab's
# devices and host in place of the line's, -n/-D bounded), and parsed alike.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

# A sample of the corpus (tests/data/perftest-lines/lines, its lab: records),
# each as its users run it, server and client, with the lab's devices and host.
python3 "$TOP_SRCDIR/tests/perftest_lines.py" "$RDMABENCH" \
	"$TOP_SRCDIR/tests/data/perftest-lines/lines" --lab "$OUT" || fail "perftest_lines.py --lab"
mkdir -p "$OUT/srv"

lab_run '
PT=$OUT/pt
mkdir -p "$PT"
for n in ib_send_lat ib_send_bw ib_write_bw ib_read_lat ib_atomic_bw; do
	ln -sf "$RB" "$PT/$n"
done
# pt NAME PROG "SERVER FLAGS" "CLIENT FLAGS": as pair, under PROG'"'"'s name.
pt() {
	"$PT/$2" -d rxe0 --bind_source_ip 192.0.2.1 --disable_numa $3 \
		>"$OUT/$1.srv.out" 2>"$OUT/$1.srv.err" &
	_s=$!
	"$PT/$2" -d rxe1 --bind_source_ip 192.0.2.2 --disable_numa $4 192.0.2.1 \
		>"$OUT/$1.cli.out" 2>"$OUT/$1.cli.err"
	echo $? >"$OUT/$1.cli.rc"
	wait $_s
	echo $? >"$OUT/$1.srv.rc"
}
pt send_lat ib_send_lat "-F" "-F -s 64 -n 200 --data_validation"
pt write_bw ib_write_bw "--report_gbits" \
	"-s 65536 -n 400 -q 2 -l 4 -Q 4 --report_gbits --out_json --out_json_file $OUT/write_bw.json"
pt read_lat ib_read_lat "" "-s 8 -n 100 -u 16"
pt atomic_bw ib_atomic_bw "" "-A CMP_AND_SWAP -n 200 -F"
pt send_bw ib_send_bw "" \
	"-s 4096 -n 300 -r 64 --recv_post_list 8 --out_json --out_json_file $OUT/send_bw.json"
# --output: the one figure, nothing else on stdout
pt output ib_write_bw "" "-s 4096 -n 200 --output=message_rate"
# immediates, given to both sides as perftest wants them
pt send_imm ib_send_lat "--send_with_imm" "--send_with_imm -s 64 -n 200 --data_validation"
pt write_imm ib_write_bw "--write_with_imm" \
	"--write_with_imm -s 4096 -n 300 --out_json --out_json_file $OUT/write_imm.json"
# issue 37, item 12: -n counts each QP, as perftest'"'"'s (20000 posted and printed)
pt qp4 ib_write_bw "" "-s 64 -q 4 -n 5000 --out_json --out_json_file $OUT/qp4.json"
# item 13 and 14: the gap inside perftest'"'"'s samples; -U keeps ours (no gap)
cd "$OUT"
pt gap ib_send_lat "" "-s 64 -n 200 --latency_gap 2000 -U --out_json --out_json_file $OUT/gap.json"
cd - >/dev/null
# item 15: --run_infinitely -D 1, a line a second until ^C (after 3 lines, 60 s at most)
"$PT/ib_write_bw" -d rxe0 --bind_source_ip 192.0.2.1 --disable_numa --run_infinitely -D 1 \
	>"$OUT/inf.srv.out" 2>"$OUT/inf.srv.err" &
_s=$!
"$PT/ib_write_bw" -d rxe1 --bind_source_ip 192.0.2.2 --disable_numa --run_infinitely -D 1 \
	-s 4096 192.0.2.1 >"$OUT/inf.cli.out" 2>"$OUT/inf.cli.err" &
_c=$!
_i=0
while [ "$(grep -c "^ 4096 " "$OUT/inf.cli.out")" -lt 3 ] && [ $_i -lt 600 ] && kill -0 $_c 2>/dev/null; do
	sleep 0.1
	_i=$((_i + 1))
done
kill -INT $_c
wait $_c
echo $? >"$OUT/inf.cli.rc"
_i=0
while kill -0 $_s 2>/dev/null && [ $_i -lt 200 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
kill -0 $_s 2>/dev/null && { echo hung >"$OUT/inf.srv.hung"; kill -KILL $_s; }
wait $_s
while IFS="	" read -r name prog test size sargs cargs; do
	ln -sf "$RB" "$PT/$prog"
	pt "corpus_$name" "$prog" "$sargs" "$cargs"
done <"$OUT/lab-lines"
# rdmabench'"'"'s own option, under a perftest name: refused before anything runs
"$PT/ib_write_bw" --expect "bw>=1Gbps" 192.0.2.1 >"$OUT/own.out" 2>"$OUT/own.err"
echo $? >"$OUT/own.rc"
'

# parsed NAME TEST SIZE SIDE: perftest_report reads SIDE's report (cli or srv).
parsed() {
	python3 - "$OUT/$1.$4.out" "$2" "$3" "$TOP_SRCDIR/scripts/lib" <<'PY' || fail "$1.$4: perftest_report cannot read it"
import sys
sys.path.insert(0, sys.argv[4])
import perftest_report
text = open(sys.argv[1]).read()
m = perftest_report.parse_perftest_text(text, sys.argv[2], int(sys.argv[3]))
assert all(v > 0 for v in m.values()), m
assert "both sides must be rdmabench" in text.splitlines()[1], text.splitlines()[:2]
print(sys.argv[1].rsplit("/", 1)[-1], m)
PY
}

for n in send_lat send_bw write_bw read_lat atomic_bw output send_imm write_imm qp4 gap; do
	expect_rc "$n.cli" 0
	expect_rc "$n.srv" 0
done
parsed send_lat send_lat 64 cli
parsed send_lat send_lat 64 srv
parsed write_bw write_bw 65536 cli
parsed send_bw send_bw 4096 cli
jcheck send_bw.json 'd["params"]["recv_post_list"] == 8' 'd["params"]["rx_depth"] == 64' \
	'd["results"][0]["iterations"] == 300'
parsed read_lat read_lat 8 cli
parsed atomic_bw atomic_bw 8 cli
parsed send_imm send_lat 64 cli
parsed write_imm write_bw 4096 cli
jcheck write_imm.json 'd["params"]["with_imm"] is True' 'd["results"][0]["peer_bw_avg_gbps"] > 0'
expect_grep write_bw.cli.out 'BW average\[Gb/sec\]'
expect_grep atomic_bw.cli.out 'Atomic cswap BW Test'
jcheck write_bw.json 'd["params"]["qps"] == [2]' 'd["params"]["batch"] == [4]' \
	'd["params"]["signal"] == [4]' 'd["results"][0]["iterations"] == 800'
python3 -c 'import sys; v = open(sys.argv[1]).read().split("\n"); assert len(v) == 2 and v[1] == "" and float(v[0]) > 0, v' \
	"$OUT/output.cli.out" || fail "--output=message_rate printed more than its figure: $(cat "$OUT/output.cli.out")"
# Issue 37, item 12: ib_write_bw -q 4 -n 5000 posts and prints 20000, as perftest
# (tot_iters = iters * num_of_qps); write_bw above: -q 2 -n 400 is 800.
parsed qp4 write_bw 64 cli
python3 - "$OUT/qp4.cli.out" <<'PY' || fail "qp4: #iterations is not 20000"
import sys
lines = open(sys.argv[1]).read().splitlines()
hdr = next(i for i, l in enumerate(lines) if l.strip().startswith("#bytes"))
f = next(l.split() for l in lines[hdr + 1:] if l.split()[:1] == ["64"])
assert f[1] == "20000", f
PY
jcheck qp4.json 'd["params"]["qps"] == [4]' 'd["params"]["iterations"] == 20000' \
	'd["results"][0]["iterations"] == 20000'
# Items 13 and 14: the client's line is perftest's print_report_lat() on
# its samples (-U: ours, without the gap) each plus the one-way gap, 1000
# us: the top two dropped, t_max the second largest, t_stdev of truncated
# deviations, 99%/99.9% at ceil(q*m); rdmabench's own JSON keeps the gap out.
parsed gap send_lat 64 cli
python3 - "$OUT/gap.cli.out" "$OUT/rdmabench_samples.csv" "$OUT/gap.json" <<'PY' || fail "gap: not perftest's statistics"
import csv, json, math, sys
lines = open(sys.argv[1]).read().splitlines()
hdr = next(i for i, l in enumerate(lines) if l.strip().startswith("#bytes"))
f = next(l.split() for l in lines[hdr + 1:] if l.split()[:1] == ["64"])
got = [float(x) for x in f[2:9]]
ours = [float(r["lat_us"]) for r in csv.DictReader(open(sys.argv[2])) if r["size"] == "64"]
assert len(ours) == 200 and f[1] == "200", (len(ours), f)
v = sorted(x + 1000.0 for x in ours)
m = len(v) - 2
avg = sum(v[:m]) / m
want = [v[0], v[m], (v[m // 2] + v[m // 2 - 1]) / 2 if (m - 1) % 2 else v[m // 2], avg,
        math.sqrt(sum(int(avg - x) ** 2 for x in v[:m]) / m),
        v[math.ceil(m * 0.99)], v[math.ceil(m * 0.999)]]
names = ["t_min", "t_max", "t_typical", "t_avg", "t_stdev", "99%", "99.9%"]
bad = [(n, g, w) for n, g, w in zip(names, got, want) if abs(g - w) > 0.011]
assert not bad, bad
lat = json.load(open(sys.argv[3]))["results"][0]["lat_us"]
# ours: the same samples without the gap (the emulator's round trips may be longer)
assert math.isclose(lat["max"], max(ours), rel_tol=1e-6), (lat, max(ours))
assert math.isclose(lat["min"], min(ours), rel_tol=1e-6), (lat, min(ours))
assert abs(got[0] - 1000 - lat["min"]) < 0.006, (got[0], lat["min"])
print("gap: perftest's", dict(zip(names, got)), "ours: min", lat["min"], "max", lat["max"])
PY
# Item 15: --run_infinitely -D 1 prints perftest's line every second (BW peak 0,
# as perftest's), each read by the perftest parser, until ^C.
expect_rc inf.cli 130
[ ! -f "$OUT/inf.srv.hung" ] || fail "inf: the server did not end after the client's ^C"
python3 - "$OUT/inf.cli.out" "$TOP_SRCDIR/scripts/lib" <<'PY' || fail "inf: fewer than 2 periodic lines, or not perftest's"
import sys
sys.path.insert(0, sys.argv[2])
import perftest_report
lines = open(sys.argv[1]).read().splitlines()
hdr = next(i for i, l in enumerate(lines) if l.strip().startswith("#bytes"))
data = [l for l in lines[hdr + 1:] if l.split()[:1] == ["4096"]]
rows, last = data[:-1], data[-1]
assert len(rows) >= 2 and all(float(l.split()[2]) == 0 for l in rows), lines
total = 0
for l in rows:
    m = perftest_report.parse_perftest_text(lines[hdr] + "\n" + l, "write_bw", 4096)
    n = int(l.split()[1])
    total += n
    assert n > 0 and m["bw_peak_MiBps"] == 0 and m["bw_avg_MiBps"] > 0, (l, m)
    # one slice's MiB/s and Mpps over the same second
    assert abs(m["msg_rate_Mpps"] * 1e6 * 4096 / 2**20 / m["bw_avg_MiBps"] - 1) < 0.01, l
# the point's row after ^C: every slice's messages, and the cut one's
assert int(last.split()[1]) >= total, (last, total)
print("inf:", len(rows), "periodic lines,", total, "messages; the point's row:", last.split())
PY
# Every corpus line ran on both sides, and the parser reads the client's report.
while IFS="	" read -r name _ test size _; do
	expect_rc "corpus_$name.cli" 0
	expect_rc "corpus_$name.srv" 0
	parsed "corpus_$name" "$test" "$size" cli
done <"$OUT/lab-lines"
[ "$(wc -l <"$OUT/lab-lines")" -ge 7 ] || fail "fewer corpus lines than the 7 lab: records"
jcheck perftest_mlx5_3.json 'd["params"]["bidirectional"] is True' 'd["params"]["qps"] == [2]' \
	'd["params"]["duration_s"] == 2' 'd["results"][0]["bw_avg_gbps"] > 0'
expect_rc own 2
expect_grep own.err "only perftest's flags are taken"
pass
