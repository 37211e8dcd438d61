#!/bin/sh
# The family on Software iWARP (siw, built by rxe-lab --siw), across the
# wire of two lab hosts (siw0 at 192.0.2.1, siw1 at 192.0.2.2), in one boot:
#  1. every test iWARP allows (RC send, write, read; lat and bw) with
#     --verify, without -R (rdmabench connects through rdma_cm and says so)
#     and with -R; the JSON says transport "iWARP" and rdma_cm true, and
#     the NICs' packet counters moved (it crossed the wire);
#  2. what iWARP does not offer refused up front, exit 2, naming iWARP and
#     the device: atomics, -c UD, -c UC;
#  3. rxe on one side and siw on the other: refused, naming both transports;
#  4. doctor and topo on siw0 say iWARP;
#  5. ports that are down (issue 45): host 2's NIC down takes siw1 and rxe1
#     down; write_bw -d all runs a rail on each ACTIVE port (siw0, rxe0:
#     each its own transport, served on the server's -d all, the same two)
#     and names the ports it left out; -d rxe0,rxe1 is refused before any
#     thread starts, naming rxe1 and its state.  Last: the NIC's routes
#     and neighbours go with it.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2 LAB_SIW=1
lab_run '
S="--cpu none --quiet -d siw0 --bind 192.0.2.1"
C="--cpu none -d siw1 --bind 192.0.2.2 --verify"
for t in send_lat write_lat read_lat; do
	pair $t "$t $S" "$t $C -n 100 -s 2,4K 192.0.2.1 --json $OUT/$t.json"
	pair ${t}_R "$t $S" "$t $C -R -n 100 192.0.2.1 --json $OUT/${t}_R.json"
done
wire write_bw pair write_bw "write_bw $S" "write_bw $C -n 400 -s 64K 192.0.2.1 --json $OUT/write_bw.json"
for t in send_bw read_bw; do
	pair $t "$t $S" "$t $C -n 400 -s 64K 192.0.2.1 --json $OUT/$t.json"
done
for t in send_bw write_bw read_bw; do
	pair ${t}_R "$t $S" "$t $C -R -n 200 -s 4K 192.0.2.1 --json $OUT/${t}_R.json"
done
# Send credits (no RNR retry on iWARP): small SENDs outrun the receiver
# without them; a sweep on two QPs; -b refused.
pair credits2 "send_bw $S" "send_bw $C -s 2 -n 20000 192.0.2.1 --json $OUT/credits2.json"
pair credits_q2 "send_bw $S" "send_bw $C -s 2,1K,64K -q 2 -n 1000 192.0.2.1 --json $OUT/credits_q2.json"
solo credits_b send_bw -b $C -n 10 192.0.2.1
# Refused before the client connects: no server.
solo atomic atomic --mode lat $C -n 10 192.0.2.1
solo ud send_lat -c UD $C -n 10 192.0.2.1
solo uc write_bw -c UC $C -n 10 192.0.2.1
pair mixed "write_bw $S" "write_bw --cpu none -d rxe1 --bind 192.0.2.2 -n 10 192.0.2.1"
solo doctor doctor -d siw0 --json "$OUT/doctor.json"
solo topo topo -d siw0 --json "$OUT/topo.json"
nic2=$(awk -F"\t" "\$1 == 2 { print \$3 }" /run/rxe-lab/hosts)
ip link set "$nic2" down
i=0
while grep -q ACTIVE /sys/class/infiniband/rxe1/ports/1/state && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
cat /sys/class/infiniband/*/ports/1/state >"$OUT/states"
"$RB" server -d all --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo all write_bw -d all --cpu none --poll event -n 200 -s 4K 192.0.2.1 --json "$OUT/all.json"
solo listed write_bw -d rxe0,rxe1 --cpu none -n 200 192.0.2.1
stop_server $srv
ip link set "$nic2" up
'

for t in send_lat write_lat read_lat send_bw write_bw read_bw; do
	for v in "$t" "${t}_R"; do
		expect_rc $v.cli 0
		expect_rc $v.srv 0
		jcheck $v.json 'd["device"]["transport"] == "iWARP"' 'd["device"]["name"] == "siw1"' \
			'd["params"]["rdma_cm"] is True' 'd["params"]["verify"] is True' \
			'all(r["iterations"] > 0 for r in d["results"])'
	done
	# Said once, only when -R was not given.
	[ "$(grep -c 'connect only through rdma_cm' "$OUT/$t.cli.err")" = 1 ] ||
		fail "$t: the client did not say once that it connects through rdma_cm"
	! grep -q 'connect only through rdma_cm' "$OUT/${t}_R.cli.err" ||
		fail "${t}_R: -R given, yet the client says it switched to rdma_cm"
done
jcheck send_lat.json 'len(d["results"]) == 2' 'all(0 < r["lat_us"]["p50"] for r in d["results"])'
jcheck write_bw.json 'd["results"][0]["bw_avg_gbps"] > 0'
# 400 x 64 KiB went from host 2's NIC to host 1's: thousands of frames.
jcheck write_bw.wire.json \
	'd["after"]["2"]["nic_tx"] - d["before"]["2"]["nic_tx"] > 5000' \
	'd["after"]["1"]["nic_rx"] - d["before"]["1"]["nic_rx"] > 5000'

for v in credits2 credits_q2; do
	expect_rc $v.cli 0
	expect_rc $v.srv 0
	expect_grep $v.cli.err "siw1 is iWARP, which has no RNR retry: send_bw's SENDs are held to the server's posted receives by send credits"
	jcheck $v.json 'd["device"]["transport"] == "iWARP"' 'd["params"]["verify"] is True'
done
# The server ends a point only once it received every message the STOP
# counted (exit 0 above), and reports its own bandwidth from them.
jcheck credits2.json 'd["results"][0]["iterations"] == 20000' \
	'd["results"][0]["peer_bw_avg_gbps"] > 0'
jcheck credits_q2.json 'len(d["results"]) == 3' \
	'all(r["iterations"] == 1000 and r["qps"] == 2 and r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
expect_rc credits_b 2
expect_grep credits_b.err "siw1 is iWARP, which has no RNR retry: send_bw's SENDs are held to the receiver's posted receives by send credits, which do not run with -b/--bidirectional"
expect_rc atomic 2
expect_grep atomic.err 'atomic_lat: siw1 is iWARP, which has no atomic operations'
expect_rc ud 2
expect_grep ud.err '\-c UD: siw1 is iWARP, which has no UD QPs: use -c RC'
expect_rc uc 2
expect_grep uc.err '\-c UC: siw1 is iWARP, which has no UC QPs: use -c RC'
# The server judges the client's CONN first and refuses (exit 2); the
# client, whose peer gave up, shows why (exit 1).
expect_rc mixed.srv 2
expect_grep mixed.srv.err "rxe1 is RoCE, but siw0 port 1 here is iWARP: they cannot connect"
expect_rc mixed.cli 1
expect_grep mixed.cli.err "gave up: .*rxe1 is RoCE, but siw0 port 1 here is iWARP"

expect_rc doctor 0
expect_grep doctor.out '^ok    device siw0 *driver .*, transport iWARP, '
! grep -q 'roce_gid siw0' "$OUT/doctor.out" || fail "doctor checks a RoCE GID on iWARP"
expect_rc topo 0
expect_grep topo.out '^siw0: driver .*, transport iWARP, '
! grep -q 'no RoCE v2 GID' "$OUT/topo.out" "$OUT/topo.err" || fail "topo asks iWARP for a RoCE GID"
jcheck topo.json 'd["devices"][0]["transport"] == "iWARP"'

expect_rc all 0
expect_grep all.err '\-d all: left out, not ACTIVE: siw1 port 1 (down), rxe1 port 1 (down)'
jcheck all.json 'd["params"]["threads"] == 2' \
	'all([t["rail"] for t in r["threads"]] == ["siw0", "rxe0"] for r in d["results"])' \
	'all(t["bw_avg_gbps"] > 0 for r in d["results"] for t in r["threads"])'
expect_rc listed 1
expect_grep listed.err 'rxe1 port 1 is down, not ACTIVE'
expect_grep listed.err '\-d: rail rxe1 cannot run (2 rails): nothing was started'
! grep -q 'thread' "$OUT/listed.err" || fail "-d rxe0,rxe1 started a thread before refusing"
expect_rc server 0
# The figures (emulation's, not checked) in the log.
for t in send_lat write_bw read_lat read_bw; do
	echo "siw $t:" >&2
	grep -h "^ *[0-9]" "$OUT/$t.cli.out" >&2 || true
done
pass
