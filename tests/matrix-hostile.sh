#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rdmabench matrix's coordinator against hostile and dead ranks, over TCP
# on this machine (no RDMA device needed: no pair gets to measure).  Rank 0
# of a 3-rank job runs for real; a Python peer plays the others: a
# connection that sends bytes that are not rdmabench, a JOIN of another
# protocol version, a JOIN for a rank outside the job, then rank 1 joining
# properly and going silent, and rank 2 never joining.  The coordinator
# must refuse each bad one with a reason, declare rank 1 dead after
# --timeout naming it, name rank 2 as never joined, fail every pair, write
# its CSV, and exit 1 within bounded time.
# Automake protocol: 0 pass, 1 fail, 77 skip (no python3).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
port=$((20000 + $$ % 20000))

"$bin" matrix send_lat --rank 0 --nranks 3 -p "$port" --timeout 3 --cpu none \
	--csv "$tmp/m.csv" >"$tmp/out" 2>"$tmp/err" &
pid=$!

python3 - "$port" >"$tmp/py" 2>&1 <<'EOF'
import socket, struct, sys, time

port = int(sys.argv[1])

def frame(t, body):
    return struct.pack(">IHHI", 0x52444D42, 4, t, len(body)) + body

def s(x):
    b = x.encode()
    return struct.pack(">H", len(b)) + b

def join(proto, rank, nranks, host="evil"):
    return frame(32, struct.pack(">HIII", proto, rank, nranks, 0) + s("0.1.0") + s("send_lat")
                 + s(host) + s("") + s("127.0.0.1"))

def conn():
    for _ in range(100):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            time.sleep(0.1)
    raise SystemExit("no coordinator")

def reply(c, whole=True):
    """What the coordinator sends: until it closes (whole), or one frame."""
    got = b""
    try:
        while True:
            b = c.recv(4096)
            if not b:
                return got
            got += b
            if not whole and len(got) >= 12:
                return got
    except OSError:
        return got

c = conn(); c.sendall(b"GET / HTTP/1.0\r\n\r\n"); print("garbage", len(reply(c))); c.close()
c = conn(); c.sendall(join(9, 1, 3)); print("proto", reply(c)[14:].decode(errors="replace")); c.close()
c = conn(); c.sendall(join(1, 7, 3)); print("rank", reply(c)[14:].decode(errors="replace")); c.close()
c = conn(); c.sendall(join(1, 1, 3, "silent-host")); print("welcome", struct.unpack(">IHHI", reply(c, False)[:12])[2])
time.sleep(12)   # silent: never READY
c.close()
EOF

i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
	echo "FAIL: rank 0 still running 30 s after the hostile peer started"
	exit 1
fi
rc=0
wait "$pid" || rc=$?

fail() {
	echo "FAIL: $*"
	echo "--- stdout"; cat "$tmp/out"
	echo "--- stderr"; cat "$tmp/err"
	echo "--- peer"; cat "$tmp/py"
	exit 1
}
[ $rc = 1 ] || fail "rank 0 exited $rc, expected 1"
grep -q 'is not rdmabench' "$tmp/err" || fail "the garbage connection was not refused by name"
grep -q 'it speaks matrix protocol v9, the coordinator v1' "$tmp/err" || fail "no protocol refusal"
grep -q 'proto coordinator: it speaks matrix protocol v9' "$tmp/py" || fail "the peer was not told why"
grep -q 'rank coordinator: it is rank 7 of 3' "$tmp/py" || fail "rank 7 of 3 not refused"
grep -q 'welcome 33' "$tmp/py" || fail "rank 1 was not welcomed"
grep -q 'rank 1 (silent-host) was silent for 3 s (--timeout) in round [0-9]' "$tmp/err" ||
	fail "the silent rank 1 was not named"
grep -q 'rank 2 never joined within 3 s' "$tmp/err" || fail "rank 2 was not named"
[ "$(sed 1d "$tmp/m.csv" | wc -l)" = 6 ] || fail "the CSV does not have 6 pairs"
[ "$(sed 1d "$tmp/m.csv" | grep -c ',failed,')" = 6 ] || fail "not every pair failed"
grep -q '^# median lat_p50_us none, tolerance 10%: 0 bad, 6 failed$' "$tmp/out" ||
	fail "the summary line is wrong"
# Rank 0's own worker ends cleanly at END, whatever round it was in.
if grep -q 'rank 0: ' "$tmp/err"; then fail "rank 0's worker complained"; fi
echo "PASS: the coordinator refused 3 bad peers, named the silent and the missing rank, exit 1"
