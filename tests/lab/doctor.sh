#!/bin/sh
# rdmabench doctor on one lab host: rxe0's port ACTIVE, its checks in the
# table and in JSON; the memlock limit below what a default run locks
# (ulimit -l 64) fails for a user without CAP_IPC_LOCK, with the fix, and
# exits 1 (root only gets a warning: the kernel lifts the limit for it);
# and eth0's MTU changed to 1110 leaves rxe0's active MTU (1024, rxe's
# rule) above what the kernel's RoCE rule lets that netdev carry (512):
# the MTU check warns.  HOST with no server there: this host's checks,
# the reason, exit 1 (tests/lab/doctor_peer.sh has HOST across the wire).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

lab_run '
solo doc doctor
solo docjson doctor -d rxe0 --json "$OUT/doctor.json"
solo docstdout doctor --json -
solo host doctor -p 9 192.0.2.1
solo nodev doctor -d rxe9
(ulimit -l 64 && exec "$RB" doctor) >"$OUT/lockroot.out" 2>"$OUT/lockroot.err"
echo $? >"$OUT/lockroot.rc"
# nobody cannot write in $OUT: the shell (root) writes what it prints.
nobody() {
	(ulimit -l 64 && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$RB" "$@")
}
nobody doctor >"$OUT/lock.out" 2>"$OUT/lock.err"
echo $? >"$OUT/lock.rc"
nobody doctor --json - >"$OUT/lock.json" 2>"$OUT/lockjson.err"
echo $? >"$OUT/lockjson.rc"
mtu=$(cat /sys/class/net/eth0/mtu)
ip link set dev eth0 mtu 1110
solo mtu doctor -d rxe0 --json "$OUT/mtu.json"
ip link set dev eth0 mtu "$mtu"
'

show() {
	cat "$OUT/$1.out" >&2
	cat "$OUT/$1.err" >&2
}

[ "$(cat "$OUT/doc.rc")" = 0 ] || { show doc; fail "doctor exited $(cat "$OUT/doc.rc")"; }
expect_grep doc.out '^ok    device rxe0 *driver rdma_rxe, provider rxe (InfiniBand/RoCE)'
expect_grep doc.out '^ok    port rxe0/1 *ACTIVE, LinkUp, .*Ethernet (/sys/class/infiniband/rxe0/ports/1/state)'
expect_grep doc.out "^ok    roce_gid rxe0/1 .*, as [0-9]* ::ffff:192.0.2.1"
expect_grep doc.out '^ok    mtu rxe0/1 *netdev eth0 mtu 1500 carries RDMA MTU 1024; the port.s active MTU is 1024'
expect_grep doc.out '^ok    verbs .*1 from libibverbs'
expect_grep doc.out '^ok    rdma_cm '
expect_grep doc.out '^# [0-9]* check(s): '
jcheck doctor.json 'd["tool"] == "rdmabench"' 'd["schema_version"] == 1' \
	'd["command"] == "doctor"' 'd["verdict"] in ("ok", "warn")' \
	'any(c["check"] == "port" and c["subject"] == "rxe0/1" and c["verdict"] == "ok" for c in d["checks"])' \
	'all(set(c) == {"check", "subject", "verdict", "value", "source", "why", "fix"} for c in d["checks"])' \
	'all(c["verdict"] in ("ok", "warn", "fail", "n/a") for c in d["checks"])' \
	'all(c["fix"] is None for c in d["checks"] if c["verdict"] in ("ok", "n/a"))' \
	'all(c["fix"] for c in d["checks"] if c["verdict"] in ("warn", "fail"))' \
	'sum(d["summary"].values()) == len(d["checks"])'
# --json -: the JSON alone on stdout
expect_rc docstdout 0
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["command"] == "doctor"' \
	"$OUT/docstdout.out" || { show docstdout; fail "doctor --json - is not JSON alone"; }

expect_rc host 1
expect_grep host.err 'cannot connect to 192.0.2.1 port 9'
expect_grep host.out '^ok    device rxe0 '
expect_rc nodev 1
expect_grep nodev.err 'rxe9: no such RDMA device'

# Root keeps CAP_IPC_LOCK: a warning; nobody: a failure with its fix.
[ "$(cat "$OUT/lockroot.rc")" = 0 ] || { show lockroot; fail "root with ulimit -l 64 exited $(cat "$OUT/lockroot.rc")"; }
expect_grep lockroot.out '^warn  memlock *limit 64 KiB, a default write_bw locks [0-9]* KiB; CAP_IPC_LOCK'
[ "$(cat "$OUT/lock.rc")" = 1 ] || { show lock; fail "nobody with ulimit -l 64 exited $(cat "$OUT/lock.rc")"; }
expect_grep lock.out '^fail  memlock *limit 64 KiB, a default write_bw locks [0-9]* KiB (getrlimit(RLIMIT_MEMLOCK))'
expect_grep lock.out '^fail memlock: ibv_reg_mr pins the buffers'
expect_grep lock.out '^  fix: ulimit -l unlimited'
expect_rc lockjson 1
jcheck lock.json 'd["verdict"] == "fail"' \
	'[c["verdict"] for c in d["checks"] if c["check"] == "memlock"] == ["fail"]' \
	'[c["check"] for c in d["checks"] if c["verdict"] == "fail"] == ["memlock"]'

# eth0 at 1110: rxe0 keeps 1024 (1110 - 80), the RoCE rule gives 512 (1110 - 96).
[ "$(cat "$OUT/mtu.rc")" = 0 ] || { show mtu; fail "doctor at mtu 1110 exited $(cat "$OUT/mtu.rc")"; }
expect_grep mtu.out '^warn  mtu rxe0/1 *netdev eth0 mtu 1110 carries RDMA MTU 512; the port.s active MTU is 1024'
expect_grep mtu.out '^  fix: ip link set dev eth0 mtu 1120'
jcheck mtu.json '[c["verdict"] for c in d["checks"] if c["check"] == "mtu"] == ["warn"]'
# For the test's log: what doctor says of a lab host.
cat "$OUT/doc.out"
pass
