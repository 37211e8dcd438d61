#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rdmabench matrix at scale, simulated (--simulate): one process starts
# every rank on this machine (--nranks N without --rank), the ranks
# measure nothing and return seeded figures, one rank's pairs slower.
# The coordinator schedules, retests and judges as for real; its JSON must
# name the seeded rank, and only it, as the bad rank.
#
#  1. 256 ranks, --pattern suspects (3 rings, then pairs around the
#     suspects): the seeded rank is the one suspect and the one bad rank,
#     in 3n + 6 pairs (the pairs pattern would run n(n-1) = 65280).
#  2. 256 ranks, --simulate none: no bad pair, exit 0.
#  3. A usage error: an outlier outside the job, exit 2.
#  4. 4 ranks, --pattern pairs: the CSV and the JSON (less timestamps,
#     the coordinator's costs and the host's name) byte for byte as in
#     tests/data/matrix-sim-pairs4.*, written before the coordinator kept
#     its pairs compactly (matrix_keep.c): the same figures, sides and
#     placements must come out (reals to 9 digits since the JSON is
#     printed so: the file was rewritten then, each real checked against
#     the earlier file's to 9 digits).
#  5. PMIX_NAMESPACE set and no PMIx server: exit 1 (built with PMIx).
#  6. Rank 1 (--rank 1 --coordinator localhost) before rank 0 listens,
#     its first connection reset before the WELCOME: it joins again.
#  With RDMABENCH_LONG=1 (scripts/check --long):
#  7. 1024 ranks, --pattern suspects, latency: the same verdict.
#  8. 256 ranks, --pattern pairs: every ordered pair, the same verdict.
# Automake protocol: 0 pass, 1 fail, 77 skip (no python3).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
port=$((10000 + $$ % 10000)) # matrix_hostile.sh takes 20000 and up
fails=0

# run NAME WANT_RC ARGS...: one simulated job; its output in $tmp/NAME.*.
run() {
	name=$1 want=$2
	shift 2
	rc=0
	"$bin" matrix "$@" -p "$port" --timeout 60 --json "$tmp/$name.json" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	port=$((port + 1))
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: $name: exit $rc, not $want"
		tail -n 20 "$tmp/$name.out" "$tmp/$name.err"
		fails=$((fails + 1))
		return 1
	fi
	grep '^# coordinator:' "$tmp/$name.out" | sed "s/^/$name: /"
}

# verdict NAME NRANKS BAD MAXPAIRS: the JSON names rank BAD (or none: -1)
# as the one bad rank, every rank joined, at most MAXPAIRS pairs ran.
verdict() {
	python3 - "$tmp/$1.json" "$2" "$3" "$4" <<'EOF' || fails=$((fails + 1))
import json, sys
doc = json.load(open(sys.argv[1]))
n, bad, maxpairs = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
m = doc["matrix"]
want = [bad] if bad >= 0 else []
errs = []
if m["nranks"] != n:
    errs.append("nranks %d, not %d" % (m["nranks"], n))
if m["bad_ranks"] != want:
    errs.append("bad ranks %s, not %s" % (m["bad_ranks"], want))
if "suspects" in m and m["suspects"] != want:
    errs.append("suspects %s, not %s" % (m["suspects"], want))
if m["failed"]:
    errs.append("%d pairs failed" % m["failed"])
if m["pairs_run"] > maxpairs or len(doc["pairs"]) != m["pairs_run"]:
    errs.append("%d pairs ran (%d listed), at most %d wanted"
                % (m["pairs_run"], len(doc["pairs"]), maxpairs))
if any(r["dead"] for r in doc["ranks"]):
    errs.append("dead ranks: %s" % [r["rank"] for r in doc["ranks"] if r["dead"]])
# Bad pairs: exactly those of the bad rank, each retested.
for p in doc["pairs"]:
    if (p["status"] == "bad") != (bad in (p["src"], p["dst"])) or \
            (p["status"] == "bad" and not p["retested"]):
        errs.append("pair %d->%d is %s" % (p["src"], p["dst"], p["status"]))
if m.get("simulated", {}).get("seed") is None:
    errs.append("no 'simulated' member")
for e in errs:
    print("FAIL: %s: %s" % (sys.argv[1].split("/")[-1], e))
sys.exit(1 if errs else 0)
EOF
}

if run s256 1 write_bw --simulate outlier=17 --seed 3 --nranks 256 --pattern suspects; then
	verdict s256 256 17 $((3 * 256 + 6))
fi
if run clean 0 write_bw --simulate none --nranks 256 --pattern suspects; then
	verdict clean 256 -1 $((3 * 256))
fi
if run badrank 2 send_lat --simulate outlier=256 --nranks 256; then
	grep -q 'outlier=256: the job.s ranks are 0..255' "$tmp/badrank.err" ||
		{ echo "FAIL: badrank: no reason"; cat "$tmp/badrank.err"; fails=$((fails + 1)); }
fi

# golden NAME: NAME's CSV and normalised JSON against tests/data's.
golden() {
	awk -F, -v OFS=, 'NR > 1 { $2 = "HOST"; $5 = "HOST" } 1' "$tmp/$1.csv" >"$tmp/$1.n.csv"
	python3 - "$tmp/$1.json" >"$tmp/$1.n.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
host = doc["ranks"][0]["host"]
def walk(v):
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items()
                if k not in ("timestamp", "coordinator", "run_id", "command_line", "system")}
    if isinstance(v, list):
        return [walk(x) for x in v]
    return "HOST" if v == host else v
json.dump(walk(doc), sys.stdout, indent=1, sort_keys=True)
print()
EOF
	for ext in csv json; do
		if ! cmp -s "$top/tests/data/matrix-sim-$1.$ext" "$tmp/$1.n.$ext"; then
			echo "FAIL: $1: the $ext differs from tests/data/matrix-sim-$1.$ext"
			diff "$top/tests/data/matrix-sim-$1.$ext" "$tmp/$1.n.$ext" | head -n 20
			fails=$((fails + 1))
		fi
	done
}

if run pairs4 1 send_lat --simulate outlier=1 --seed 1 --nranks 4 --pattern pairs \
	--csv "$tmp/pairs4.csv"; then
	golden pairs4
fi

# A launcher whose PMIx server does not answer (PMIX_NAMESPACE set, no
# server): the environment's failure, exit 1; a usage error stays exit 2.
if grep -q '^#define HAVE_PMIX 1' "${TOP_BUILDDIR:-$top}/config.h" 2>/dev/null; then
	rc=0
	env -u OMPI_COMM_WORLD_RANK -u SLURM_NTASKS PMIX_NAMESPACE=rb-none PMIX_RANK=0 \
		"$bin" matrix send_lat --timeout 5 >"$tmp/pmix.out" 2>"$tmp/pmix.err" || rc=$?
	if [ "$rc" -ne 1 ] || ! grep -q 'PMIx_Init' "$tmp/pmix.err"; then
		echo "FAIL: pmix: exit $rc, not 1"
		cat "$tmp/pmix.err"
		fails=$((fails + 1))
	fi
else
	echo "no PMIx in this build: its exit status is not checked"
fi

# Rank 1 started before its coordinator listens, and turned away once
# with a reset before its WELCOME: it joins again, within --timeout.  A
# Python stand-in takes the port, resets rank 1's first connection, then
# lets rank 0 have the port.
late() {
	python3 - "$port" "$bin" "$tmp" <<'EOF'
import socket, struct, subprocess, sys, time
port, rb, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3]
common = ["matrix", "send_lat", "--simulate", "none", "--nranks", "2", "-p", str(port),
          "--timeout", "20"]
r1 = subprocess.Popen([rb] + common + ["--rank", "1", "--coordinator", "localhost"],
                      stdout=open(tmp + "/late1.out", "w"), stderr=open(tmp + "/late1.err", "w"))
time.sleep(0.5)  # rank 1 meets a refusal first, and tries again
ls = socket.socket(socket.AF_INET)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port))
ls.listen(4)
ls.settimeout(10)
c, _ = ls.accept()
c.recv(64)
c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
c.close()  # a reset before any WELCOME
ls.close()
r0 = subprocess.run([rb] + common + ["--rank", "0"], stdout=open(tmp + "/late0.out", "w"),
                    stderr=open(tmp + "/late0.err", "w"), timeout=60)
rc1 = r1.wait(timeout=60)
sys.exit(0 if r0.returncode == 0 and rc1 == 0 else 1)
EOF
}
if ! late || ! grep -q 'joining again' "$tmp/late1.err"; then
	echo "FAIL: late: rank 1 did not join a coordinator that started after it"
	tail -n 5 "$tmp/late0.err" "$tmp/late1.err"
	fails=$((fails + 1))
fi
port=$((port + 1))

if [ "${RDMABENCH_LONG:-0}" = 1 ]; then
	if run s1024 1 send_lat --simulate outlier=700 --nranks 1024 --pattern suspects; then
		verdict s1024 1024 700 $((3 * 1024 + 6))
	fi
	if run p256 1 send_lat --simulate outlier=100,slow=20 --nranks 256 --pattern pairs; then
		verdict p256 256 100 $((256 * 255))
	fi
else
	echo "1024 ranks and the pairs pattern: RDMABENCH_LONG=1 (scripts/check --long)"
fi
[ "$fails" -eq 0 ] || exit 1
echo "PASS"
