#!/bin/sh
# A new user's first commands (issue "The first hour"), each a case that
# failed before its fix: --version under every spelling prints the
# version and exits at once (it used to start a server), perftest's own
# -h/--help under perftest's name, "did you mean" for a mistyped command or
# option, --json - on stdout (it used to write a file named "-"), sizes
# written 4KiB/4KB and durations 10s/2m, and --tolerance written with or
# without '%' in compare and matrix alike.  Needs no device.
set -eu
top=$(cd "${TOP_SRCDIR:-$(dirname "$0")/..}" && pwd)
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
n=0
fail() { echo "FAIL: $*"; exit 1; }
ok() { n=$((n + 1)); }

# run WANT-STATUS CMD...: run it with a bound (a server would wait), its
# stdout in out, stderr in err; the status must be WANT-STATUS.
run() {
	want=$1
	shift
	st=0
	timeout 5 "$@" >out 2>err || st=$?
	[ "$st" -eq "$want" ] || fail "$* exited $st, want $want: $(cat err)"
	ok
}
has() { grep -q -e "$2" "$1" || fail "$1 lacks '$2': $(cat "$1")"; }

ln -s "$bin" ib_write_bw
ver='^rdmabench [0-9][0-9.]* (wire protocol [0-9][0-9]*, commit [0-9a-f]*\|unknown)$'
for args in "--version" "-V" "write_bw --version" "write_bw -V" "server --version"; do
	# shellcheck disable=SC2086 # word lists
	run 0 "$bin" $args
	has out "$ver"
	[ "$(wc -l <out)" -eq 1 ] || fail "$args printed more than its version line"
done
for args in "-V" "--version"; do
	run 0 ./ib_write_bw "$args"
	has out "$ver"
done
for args in "-h" "--help"; do
	run 0 ./ib_write_bw "$args"
	has out "^usage: rdmabench write_bw"
done
# perftest's own lines are taken under its name (-a wins over -s, the
# debug switch with --data_validation, -z as rdma_cm): past the command
# line, on a host without a device they stop there, not at usage (2).
if ! ls /sys/class/infiniband/* >/dev/null 2>&1; then
	for args in "-a -s 1M" "--data_validation --data_validation_debug" "-z" "-z -R" \
		"--disable_dynamic_polling"; do
		# shellcheck disable=SC2086 # word lists
		run 1 ./ib_write_bw $args -p 1 127.0.0.1
		has err "no RDMA device found"
	done
fi
run 2 ./ib_write_bw --connectionless 127.0.0.1
has err "connectionless server serves perftest's UD multicast"

# The README is a user's front door: at most 12,000 characters, and every
# page it links to exists.
size=$(wc -c <"$top/README.md")
[ "$size" -le 12000 ] || fail "README.md is $size characters (at most 12000)"
grep -o '](doc/[^)]*)' "$top/README.md" | sed 's/^](//; s/)$//' >links
while read -r link; do
	[ -f "$top/$link" ] || fail "README.md links to $link, which is not there"
done <links
for doc in "$top"/doc/*.md; do
	grep -o '](\([a-z-]*\.md\)[^)]*)' "$doc" | sed 's/^](//; s/[#)].*$//' >links || true
	while read -r link; do
		[ -f "$top/doc/$link" ] || fail "${doc##*/} links to $link, which is not in doc/"
	done <links
done
ok

# --help fits a terminal: at most 60 lines within $COLUMNS (80, 200);
# --help-all within the width too, perftest's flags last.
for t in send_lat write_bw read_bw atomic tcp_bw server "matrix write_bw"; do
	for w in 80 200; do
		# shellcheck disable=SC2086 # "matrix write_bw": two words
		COLUMNS=$w "$bin" $t --help >help || fail "$t --help"
		awk -v w="$w" 'length > w { bad = 1 } END { exit bad || NR > 60 }' help ||
			fail "$t --help at COLUMNS=$w: $(wc -l <help) lines, some over $w columns"
		# shellcheck disable=SC2086
		COLUMNS=$w "$bin" $t --help-all >all || fail "$t --help-all"
		awk -v w="$w" 'length > w { bad = 1 } END { exit bad }' all ||
			fail "$t --help-all at COLUMNS=$w: lines over $w columns"
		ok
	done
done
COLUMNS=80 "$bin" write_bw --help-all | tail -n +2 | grep -q "^perftest's flags" ||
	fail "write_bw --help-all lacks perftest's flags"
COLUMNS=80 "$bin" write_bw --help-all | sed -n "/^perftest's flags/,\$p" | grep -q '^Output:' &&
	fail "perftest's flags are not last in --help-all"
ok

# The man page renders without a groff warning, and its SYNOPSIS names
# every command that is not a test.
groff -t -man -Tutf8 -ww -z "$top/man/rdmabench.1" 2>groff.err || fail "groff failed"
[ ! -s groff.err ] || fail "groff warnings in man/rdmabench.1: $(head -3 groff.err)"
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$top/man/rdmabench.1" >synopsis
for c in server topo matrix compare doctor reg; do
	grep -q "^\.B .*rdmabench $c\b" synopsis || grep -q "^\.B rdmabench $c\$" synopsis ||
		fail "the man page's SYNOPSIS lacks $c"
done
ok

# Did you mean: the closest command or option, or none when nothing is close.
run 2 "$bin" wrte_bw
has err "unknown command 'wrte_bw': did you mean 'write_bw'?"
run 2 "$bin" serve
has err "did you mean 'server'?"
run 2 "$bin" qwertyuiop
has err "unknown command 'qwertyuiop'"
grep -q "did you mean" err && fail "a suggestion for a word far from every command"
run 2 "$bin" write_bw --szie 64 192.0.2.1
has err "unknown option --szie for write_bw: did you mean --size?"
run 2 "$bin" read_lat --itres 5 192.0.2.1
has err "did you mean --iters?"
run 2 "$bin" write_bw --zzzzzzzz 192.0.2.1
grep -q "did you mean" err && fail "a suggestion for --zzzzzzzz"

# --json -: the document on stdout, no file named "-".
run 0 "$bin" write_bw --json - --dry-run -s 4KiB,4KB,2MiB -D 2m 192.0.2.1
[ ! -e ./- ] || fail "--json - wrote a file named '-'"
python3 - out <<'PY' || fail "--json - did not give the plan as JSON on stdout"
import json, sys
d = json.load(open(sys.argv[1]))
sizes = sorted({p["size"] for p in d["points"]})
assert sizes == [4096, 2097152], sizes
assert all(p["duration_s"] == 120 for p in d["points"]), d["points"][0]
PY
ok
run 2 "$bin" write_bw --json - --format table 192.0.2.1
has err "--json - writes the JSON document to stdout"
run 2 "$bin" write_bw -s 4Kb 192.0.2.1
has err "unexpected 'b'"
run 2 "$bin" write_bw -D 1.5 192.0.2.1
has err "not a number of seconds (90, 90s, 2m, 1h)"

# --tolerance: 5 and 5% alike, in compare and matrix.
golden=$top/tests/data/golden/bw.json
for t in 5 5%; do
	run 0 "$bin" compare --tolerance "$t" "$golden" "$golden"
	has out "tolerance 5%"
done
run 2 "$bin" compare --tolerance 0.05 "$golden" "$golden"
has err "a bare number is a percentage"
for t in 50 50%; do
	run 0 "$bin" matrix write_bw --tolerance "$t" --help
done
run 2 "$bin" matrix write_bw --tolerance 50x --help
has err "tolerance"
run 2 "$bin" compare "$tmp/none.json" "$golden"
has err "none.json: cannot read it: No such file or directory"
# A refusal names where the option does apply, from the command table.
run 2 "$bin" send_lat --rate 1Gbps 192.0.2.1
has err "rate does not apply to send_lat (RDMA bandwidth tests only)"
run 2 "$bin" tcp_lat --srq 192.0.2.1
has err "srq does not apply to tcp_lat (it applies to: send_lat, send_bw)"
run 2 "$bin" tcp_lat -d rxe0 192.0.2.1
has err "device does not apply to tcp_lat (RDMA tests only)"

# HOST:PORT and [V6]:PORT give the port, as -p does.
run 0 "$bin" write_bw --dry-run --json - 192.0.2.1:7000
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["server"], d["tcp_port"]) == ("192.0.2.1", 7000), d' out || fail "HOST:PORT"
ok
run 0 "$bin" write_bw --dry-run --json - '[fd00::1]:7001'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["server"], d["tcp_port"]) == ("fd00::1", 7001), d' out || fail "[V6]:PORT"
ok
run 0 "$bin" write_bw --dry-run --json - fd00::1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["server"], d["tcp_port"]) == ("fd00::1", 18515), d' out || fail "a bare IPv6 address"
ok
run 2 "$bin" write_bw -p 7000 192.0.2.1:7000
has err "both give the port"
run 2 "$bin" write_bw 192.0.2.1:0
has err "the port after ':' must be a number from 1 to 65535"

# A refused connection is said within 2 s (with what to check), while the
# client goes on trying until --timeout (a server may still be starting).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
run 124 timeout 2 "$bin" tcp_lat "127.0.0.1:$port"
has err "127.0.0.1 port $port refuses the connection: is a server running there"
has err "rdmabench doctor 127.0.0.1"
run 1 "$bin" tcp_lat --timeout 1 "127.0.0.1:$port"
has err "Connection refused (no server listening there: start 'rdmabench server'"
# A host without RDMA devices (this one, outside the lab): a test's own
# server exits at once; the generic server says what it serves.
if ! ls /sys/class/infiniband/* >/dev/null 2>&1; then
	run 1 "$bin" write_bw -p "$port"
	has err "write_bw: no RDMA device on this host"
	run 124 timeout 1 "$bin" server -p "$port"
	has err "server: no RDMA device on this host: serving tcp_lat, tcp_bw, tcp_lock and doctor only"
fi
# --logfile, --timestamps and --json-stream, over a socket test that needs
# no device: the log has stdout's table and the diagnostics, each line
# stamped; the stream is one JSON object a line: start, a point each, end.
sport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" server -p "$sport" --quiet >server.out 2>server.err &
spid=$!
stamp='^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9][0-9][0-9]Z '
run 0 "$bin" tcp_lat -n 100 -s 64,128 --timeout 4 --logfile log --timestamps \
	--json-stream s.jsonl "127.0.0.1:$sport"
grep -q "$stamp   *128 " log || fail "--logfile lacks the table's stamped rows: $(cat log)"
grep -q "$stamp# rdmabench .* tcp_lat client" log || fail "--logfile lacks the head: $(cat log)"
grep -v "$stamp" log | grep -q . && fail "a line of --logfile without its time: $(cat log)"
python3 - s.jsonl <<'PY' || fail "--json-stream: not start, 2 points, end"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert [e["event"] for e in ev] == ["start", "point", "point", "end"], ev
assert ev[0]["data"]["test"] == "tcp_lat" and "results" not in ev[0]["data"]
assert [e["data"]["size"] for e in ev[1:3]] == [64, 128]
assert ev[3]["data"] == {"complete": True, "points": 2}, ev[3]
PY
ok
run 0 "$bin" tcp_bw -n 100 --timeout 4 --json-stream - "127.0.0.1:$sport"
python3 -c 'import json,sys; ev=[json.loads(l)["event"] for l in open(sys.argv[1])]; assert ev == ["start", "point", "end"], ev' out || fail "--json-stream - on stdout: $(cat out)"
ok
kill "$spid"
wait "$spid" 2>/dev/null || true
run 2 "$bin" tcp_lat --json-stream - --json - 127.0.0.1
has err "give --json-stream a file name"
run 2 "$bin" write_bw --json-stream s.jsonl --threads 2 192.0.2.1
has err "stdout only (--json-stream -)"
run 1 "$bin" tcp_lat --logfile /nonexistent-dir/log 127.0.0.1
has err "--logfile /nonexistent-dir/log: No such file or directory"
echo "ok: $n cases"
