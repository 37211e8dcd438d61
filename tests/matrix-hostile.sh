#!/bin/sh
# SPDX-License-Identifier: MIT
#
# rdmabench matrix's coordinator against hostile and dead ranks, over TCP
# on this machine (no RDMA device needed: no pair gets to measure).
#
# Job 1: rank 0 of a 3-rank job runs for real; a Python peer plays the
# others: a connection that sends bytes that are not rdmabench, a JOIN of
# another protocol version, a JOIN for a rank outside the job, then rank 1
# joining properly and going silent, and rank 2 never joining.  The
# coordinator must refuse each bad one with a reason, declare rank 1 dead
# after --timeout naming it, name rank 2 as never joined, fail every pair,
# write its CSV, and exit 1 within bounded time.
#
# Job 2 (issue 21): a port scanner or a health check on the coordinator's
# port must not end a job.  Before any rank but rank 0's own worker joins:
# a connection that stays silent, one that connects and closes, one that
# sends half a header.  Rank 1, a real one, joins after the 2 s JOIN
# deadline has dropped them, within --timeout.  Both ranks must join and
# run their pairs (which fail here for want of a device, or measure).
#
# The Python peer starts rank 0 itself: on a busy host its own start can
# take longer than rank 0's --timeout.
# Automake protocol: 0 pass, 1 fail, 77 skip (no python3).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
port=$((20000 + $$ % 20000))
for f in out err out2 err2 err_r1; do : >"$tmp/$f"; done

# The peer speaks this tree's wire version (src/wire/wire.h), whatever it is.
ver=$(sed -n 's/^#define RB_WIRE_VERSION[[:space:]]*//p' "$top/src/wire/wire.h")
[ -n "$ver" ] || { echo "FAIL: no RB_WIRE_VERSION in $top/src/wire/wire.h"; exit 1; }
# And this tree's matrix protocol (src/wire/matrix_wire.h) in its JOINs.
mxver=$(sed -n 's/^#define RB_MX_PROTO[[:space:]]*//p' "$top/src/wire/matrix_wire.h")
[ -n "$mxver" ] || { echo "FAIL: no RB_MX_PROTO in $top/src/wire/matrix_wire.h"; exit 1; }
python3 - "$port" "$bin" "$tmp" "$ver" "$mxver" >"$tmp/py" 2>&1 <<'EOF' || true
import socket, struct, subprocess, sys, time

port, rdmabench, tmp, ver = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
mxver = int(sys.argv[5])

def frame(t, body):
    return struct.pack(">IHHI", 0x52444D42, ver, t, len(body)) + body

def s(x):
    b = x.encode()
    return struct.pack(">H", len(b)) + b

def join(proto, rank, nranks, host="evil"):
    return frame(32, struct.pack(">HIII", proto, rank, nranks, 0) + s("0.1.0") + s("send_lat")
                 + s(host) + s("") + s("127.0.0.1"))

def rank(port, r, nranks, timeout, csv, out, err):
    return subprocess.Popen([rdmabench, "matrix", "send_lat", "--rank", str(r),
                             "--nranks", str(nranks), "-p", str(port), "--coordinator",
                             "127.0.0.1", "--timeout", str(timeout), "--cpu", "none",
                             "--csv", tmp + csv],
                            stdout=open(tmp + out, "w"), stderr=open(tmp + err, "w"))

def conn(port):
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

def ended(name, p, timeout):
    try:
        print(name, p.wait(timeout=timeout))
    except subprocess.TimeoutExpired:
        p.kill()
        print(name, "still running")

def job1():
    r0 = rank(port, 0, 3, 3, "/m.csv", "/out", "/err")
    c = conn(port); c.sendall(b"GET / HTTP/1.0\r\n\r\n"); print("garbage", len(reply(c))); c.close()
    c = conn(port); c.sendall(join(9, 1, 3)); print("proto", reply(c)[14:].decode(errors="replace")); c.close()
    c = conn(port); c.sendall(join(mxver, 7, 3)); print("rank", reply(c)[14:].decode(errors="replace")); c.close()
    c = conn(port); c.sendall(join(mxver, 1, 3, "silent-host"))
    print("welcome", struct.unpack(">IHHI", reply(c, False)[:12])[2])
    time.sleep(12)   # silent: never READY
    c.close()
    ended("rank0", r0, 18)

def job2():
    p = port + 1
    r0 = rank(p, 0, 2, 6, "/m2.csv", "/out2", "/err2")
    silent = conn(p)
    health = conn(p); health.close()
    half = conn(p); half.sendall(b"RD")
    time.sleep(2.5)
    r1 = rank(p, 1, 2, 6, "/m2.csv", "/out_r1", "/err_r1")
    ended("job2 rank1", r1, 90)
    ended("job2 rank0", r0, 30)
    silent.close(); half.close()

job1()
job2()
EOF

# What a failure shows: the peer's lines and the files of the job checked.
files="out err"
fail() {
	echo "FAIL: $*"
	for f in py $files; do
		echo "--- $f"
		cat "$tmp/$f"
	done
	exit 1
}

if grep -q '^rank0 still running$' "$tmp/py"; then fail "rank 0 still running 30 s after the hostile peer started"; fi
grep -q '^rank0 1$' "$tmp/py" || fail "rank 0 did not exit 1"
grep -q 'is not rdmabench' "$tmp/err" || fail "the garbage connection was not refused by name"
grep -q "it speaks matrix protocol v9, the coordinator v$mxver" "$tmp/err" || fail "no protocol refusal"
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

files="out2 err2 err_r1"
grep -q '^job2 rank0 [01]$' "$tmp/py" || fail "rank 0 did not exit 0 or 1"
grep -q '^job2 rank1 0$' "$tmp/py" || fail "rank 1 did not end with the job"
[ "$(grep -c 'dropped the connection from 127.0.0.1:[0-9]*: no whole JOIN within 2000 ms of connecting$' "$tmp/err2")" = 2 ] ||
	fail "the silent and the half-header connection were not dropped, once each"
grep -q 'dropped the connection from 127.0.0.1:[0-9]*: it closed the connection before its JOIN$' "$tmp/err2" ||
	fail "the connection that closed at once was not named"
if grep -q 'never joined\|was silent\|rank 0: ' "$tmp/err2"; then fail "a rank was lost"; fi
if grep -q 'coordinator' "$tmp/err_r1"; then fail "rank 1 complained of the coordinator"; fi
grep -q '^# rdmabench .* matrix send_lat: 2 ranks, 2 pairs' "$tmp/out2" || fail "no matrix summary"
[ "$(sed 1d "$tmp/m2.csv" | wc -l)" = 2 ] || fail "the CSV does not have 2 pairs"
if grep -q 'never joined\|no result from' "$tmp/m2.csv"; then fail "a pair failed for a lost rank"; fi
echo "PASS: a silent, a closed and a half-header connection were dropped; both ranks joined and ran"
