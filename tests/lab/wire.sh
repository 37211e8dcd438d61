#!/bin/sh
# Two hosts across a real wire: the lab guest boots as two hosts (rxe-lab
# --hosts 2), the server on host 1's device rxe0 (192.0.2.1), the client on
# host 2's device rxe1.  Their RDMA traffic leaves through one virtio NIC
# and arrives at the other, where loopback on one device never touches a
# NIC.  Every case records both hosts' NIC packet counters and rxe packet
# counters before and after it, and the host checks that they moved.
# Both sides share the guest's 2 vCPUs: --cpu none, small -n (a round trip
# across the wire costs ~100+ us under TCG).  No side names its device:
# --bind gives each its address, and the device holding it is chosen.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=200

lab_run "
N=$N"'
C="--bind 192.0.2.2 --cpu none --verify -n $N"
cp /run/rxe-lab/hosts "$OUT/hosts"
echo "${RXE_LAB_HOSTS:-unset}" >"$OUT/nhosts"

"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

# The family at a small size and one of 8 packets (the path MTU is 1024).
for t in send_lat write_lat read_lat send_bw write_bw read_bw; do
	wire $t solo $t $t $C -s 2,8K 192.0.2.1 --json "$OUT/$t.json"
done
for m in lat bw; do
	for op in fadd cswap; do
		wire ${m}_$op solo ${m}_$op atomic --mode $m --op $op $C 192.0.2.1 \
			--json "$OUT/${m}_$op.json"
	done
done

# Size x batch x signal over one connection.
wire sweep solo sweep write_bw $C -s 64,4K -l 1,16 -Q 16,64 192.0.2.1 --json "$OUT/sweep.json"

stop_server $srv

# --cpu auto: each side on the NUMA node of its own device.
wire place pair place "send_lat -d rxe0 --quiet --json $OUT/place.srv.json" \
	"send_lat -d rxe1 -s 2 -n $N 192.0.2.1 --json $OUT/place.json"

# -R: the CM resolves the route from the client'"'"'s address, so with
# --bind 192.0.2.2 it leaves through host 2'"'"'s NIC.  Without --bind,
# 192.0.2.1 is an address of this very guest: loopback on rxe0.
wire cm pair cm "send_lat -d rxe0 --cpu none --quiet" \
	"send_lat -R --bind 192.0.2.2 --cpu none --verify -n $N 192.0.2.1 --json $OUT/cm.json"
wire cm_bw pair cm_bw "write_bw -d rxe0 --cpu none --quiet" \
	"write_bw -R --bind 192.0.2.2 --cpu none --verify -n $N -s 8K 192.0.2.1 --json $OUT/cm_bw.json"
wire cm_loop pair cm_loop "send_lat -d rxe0 --cpu none --quiet" \
	"send_lat -R --cpu none --verify -n $N 192.0.2.1 --json $OUT/cm_loop.json"
'

# --- helpers ---------------------------------------------------------------

# show_wire NAME: one line per host with what moved, for the test's log.
show_wire() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for h in sorted(d["after"]):
    a, b = d["after"][h], d["before"][h]
    print(sys.argv[2] + ": host " + h + " " + a["nic"] + " tx +%d rx +%d, " % (a["nic_tx"] - b["nic_tx"], a["nic_rx"] - b["nic_rx"]) + a["device"] + " sent +%d rcvd +%d" % (a["sent"] - b["sent"], a["rcvd"] - b["rcvd"]))
print("%s: %.1f s" % (sys.argv[2], d["ms"] / 1000))' \
		"$OUT/$1.wire.json" "$1" || fail "$1.wire.json: cannot read"
}

# crossed NAME MIN: the traffic of case NAME went over the wire: on both hosts
# the NIC sent and received, and the rxe device sent and received, at
# least MIN packets, and each NIC carried at least the packets its device
# sent and took in (loopback moves the device counters only).
crossed() {
	show_wire "$1"
	_cf=$1.wire.json _min=$2
	shift 2
	for h in 1 2; do
		for c in nic_tx nic_rx sent rcvd; do
			set -- "$@" "$(delta $h $c) >= $_min"
		done
		set -- "$@" "$(delta $h nic_tx) >= $(delta $h sent)" "$(delta $h nic_rx) >= $(delta $h rcvd)"
	done
	jcheck "$_cf" "$@"
}

# result_json FILE TEST OP SIZES KIND: a client document from rxe1 to rxe0
# (the device of the peer is on node 1, with the NIC of rxe0), verified, with
# lat or bw figures in every point.
result_json() {
	if [ "$5" = lat ]; then
		fig='all(0 < r["lat_us"]["min"] <= r["lat_us"]["p50"] <= r["lat_us"]["max"] for r in d["results"])'
	else
		fig='all(r["bw_avg_gbps"] > 0 and r["msg_rate_mpps"] > 0 for r in d["results"])'
	fi
	jcheck "$1" "d[\"test\"] == \"$2\"" "d.get(\"op\") == $3" 'd["role"] == "client"' \
		'd["device"]["name"] == "rxe1"' 'd["peer"].startswith("192.0.2.1:")' \
		'd["placement"]["device_numa_node"] == 0' 'd["peer_placement"]["device_numa_node"] == 1' \
		'd["params"]["verify"] is True' "[r[\"size\"] for r in d[\"results\"]] == $4" \
		"all(r[\"iterations\"] == $N for r in d[\"results\"])" "$fig"
}

# --- the two hosts -----------------------------------------------------------

[ "$(cat "$OUT/nhosts")" = 2 ] || fail "RXE_LAB_HOSTS in the guest: $(cat "$OUT/nhosts")"
cat "$OUT/hosts"
[ "$(wc -l <"$OUT/hosts")" = 3 ] || fail "want a header and 2 hosts in /run/rxe-lab/hosts"
expect_grep hosts '^host	device	nic	pci	numa_node	address$'
expect_grep hosts '^1	rxe0	eth[0-9]	0000:81:00\.0	1	192\.0\.2\.1$'
expect_grep hosts '^2	rxe1	eth[0-9]	0000:[0-9a-f]*:00\.0	0	192\.0\.2\.2$'

# --- the family --------------------------------------------------------------

for t in send_lat write_lat read_lat; do
	expect_rc $t 0
	result_json $t.json $t None '[2, 8192]' lat
	crossed $t $N
done
for t in send_bw write_bw read_bw; do
	expect_rc $t 0
	result_json $t.json $t None '[2, 8192]' bw
	crossed $t $N
done
for m in lat bw; do
	for op in fadd cswap; do
		expect_rc ${m}_$op 0
		result_json ${m}_$op.json atomic_$m "\"$op\"" '[8]' $m
		crossed ${m}_$op $N
	done
done

# The device was chosen by the bound address, and says so.
jcheck send_lat.json '"192.0.2.2" in d["device"]["why_device"]' \
	'd["device"]["gid"] == "::ffff:192.0.2.2"'

expect_rc sweep 0
result_json sweep.json write_bw None '[64, 4096] * 4' bw
jcheck sweep.json '[(r["batch"], r["signal"]) for r in d["results"]] == [(1, 16), (1, 16), (1, 64), (1, 64), (16, 16), (16, 16), (16, 64), (16, 64)]'
crossed sweep $N

[ ! -e "$OUT/server.hung" ] || fail "the generic server did not exit within 10 s of SIGINT"
expect_rc server 0
if grep -v '^rdmabench: warning:' "$OUT/server.err" | grep -q .; then
	fail "the generic server reported errors: $(cat "$OUT/server.err")"
fi

# --- placement: each side pinned to a CPU of its own device's node ----------

expect_rc place.cli 0
expect_rc place.srv 0
jcheck place.json 'd["device"]["name"] == "rxe1"' \
	'd["placement"] == {"device_numa_node": 0, "cpus": "0", "mem_node": 0, "local": True, "freq_cpu": 0, "cpu_governor": None, "cpu_mhz": None}' \
	'd["peer_placement"] == {"device_numa_node": 1, "cpus": "1", "mem_node": 1, "local": True, "freq_cpu": 1, "cpu_governor": None, "cpu_mhz": None}'
jcheck place.srv.json 'd["device"]["name"] == "rxe0"' 'd["role"] == "server"'
# Without -R no CM event: the negative control of "$viacm".
jcheck place.json 'd["params"]["rdma_cm"] is False' 'd["setup"]["cm_events"] == 0'
crossed place $N

# --- -R ------------------------------------------------------------------------

# Across the wire from the bound address.
for n in cm cm_bw; do
	expect_rc $n.cli 0
	expect_rc $n.srv 0
	jcheck $n.json 'd["device"]["name"] == "rxe1"' "$viacm" \
		'd["params"]["verify"] is True'
	crossed $n $N
done

# Without -d it runs, on rxe0 alone: the device counters move, the NICs do
# not carry it (which also shows that crossed() tells the wire from loopback).
expect_rc cm_loop.cli 0
expect_rc cm_loop.srv 0
jcheck cm_loop.json 'd["device"]["name"] == "rxe0"' "$viacm"
show_wire cm_loop
jcheck cm_loop.wire.json "$(delta 1 sent) >= $N" "$(delta 1 rcvd) >= $N" \
	"$(delta 1 nic_tx) < $N" "$(delta 2 nic_rx) < $N" "$(delta 2 sent) == 0"
pass
