#!/bin/sh
# rdmabench under perftest's names, across a real wire (two hosts: the
# server on host 1, rxe0, 192.0.2.1; the client on host 2, rxe1): links
# named ib_send_lat, ib_write_bw, ib_read_lat and ib_atomic_bw, as
# `make install` puts in $(libexecdir)/rdmabench/perftest, run perftest
# command lines as they are on both sides, print perftest's report, and
# the repository's perftest parser (scripts/lib/perftest_report.py) reads
# every one of them unchanged, --send_with_imm and --write_with_imm on
# both sides too.  rdmabench's own options are refused there.
# Then a sample of the corpus of real perftest lines (the lab: records of
# tests/data/perftest-lines/lines), each run as it is on both sides (the lab's
# devices and host in place of the line's, -n/-D bounded), and parsed alike.
# shellcheck source=tests/lab/lib.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib.sh"

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

for n in send_lat send_bw write_bw read_lat atomic_bw output send_imm write_imm; do
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
	'd["params"]["signal"] == [4]' 'd["results"][0]["iterations"] == 400'
python3 -c 'import sys; v = open(sys.argv[1]).read().split("\n"); assert len(v) == 2 and v[1] == "" and float(v[0]) > 0, v' \
	"$OUT/output.cli.out" || fail "--output=message_rate printed more than its figure: $(cat "$OUT/output.cli.out")"
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
