#!/bin/sh
# rdmabench doctor HOST across the lab's wire (two hosts): the client on
# host 2 (--bind 192.0.2.2, rxe1) asks the generic server on host 1
# (192.0.2.1, rxe0) for its checks, compares the two ends of the path and
# runs send_lat, write_bw at 64 KiB and read_lat across it.  Then host 2's
# NIC (rxe1's netdev) at MTU 600 gives rxe1 an active MTU of 512 against rxe0's 1024:
# path_mtu warns, with its fix.  A server that is not there: exit 1.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

lab_run '
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
wire peer solo peer doctor --bind 192.0.2.2 192.0.2.1 --json "$OUT/peer.json"
# rxe1 (host 2) sits on the NIC the lab'"'"'s hosts file names for it.
nic=$(awk '"'"'$2 == "rxe1" { print $3 }'"'"' /run/rxe-lab/hosts)
mtu=$(cat "/sys/class/net/$nic/mtu")
ip link set dev "$nic" mtu 600
solo mtu doctor --bind 192.0.2.2 --no-runs 192.0.2.1 --json "$OUT/mtu.json"
ip link set dev "$nic" mtu "$mtu"
stop_server $srv
solo gone doctor --bind 192.0.2.2 --no-runs 192.0.2.1
'

show() {
	cat "$OUT/$1.out" >&2
	cat "$OUT/$1.err" >&2
}

rc=$(cat "$OUT/peer.rc")
[ "$rc" = 0 ] || { show peer; fail "doctor HOST exited $rc"; }
expect_grep peer.out '^# this host'
expect_grep peer.out '^# 192.0.2.1 (its rdmabench server.s checks)'
expect_grep peer.out '^# between them'
expect_grep peer.out '^ok    path_link_layer rxe1/1 - rxe0/1 *Ethernet here, Ethernet on the peer'
expect_grep peer.out '^ok    path_gid_type rxe1/1 - rxe0/1 *RoCE v2 here, RoCE v2 on the peer'
expect_grep peer.out '^ok    path_mtu rxe1/1 - rxe0/1 *1024 here, 1024 on the peer'
jcheck peer.json 'd["command"] == "doctor"' 'd["peer"]["command"] == "doctor"' \
	'd["peer"]["path"]["device"] == "rxe0"' \
	'any(c["check"] == "port" and c["subject"] == "rxe0/1" and c["verdict"] == "ok" for c in d["peer"]["checks"])' \
	'[c["subject"] for c in d["between"] if c["check"] == "run"] == ["send_lat", "write_bw", "read_lat"]' \
	'all(c["verdict"] in ("ok", "warn") for c in d["between"] if c["check"] == "run")' \
	'all("--bind 192.0.2.2" in c["source"] for c in d["between"] if c["check"] == "run")' \
	'all(" us over " in c["value"] for c in d["between"] if c["subject"] in ("send_lat", "read_lat"))' \
	'"Gb/s" in [c for c in d["between"] if c["subject"] == "write_bw"][0]["value"]'
# The runs crossed the wire: both NICs and both rxe devices moved at least
# send_lat's 2000 round trips' packets, the NICs at least their devices'.
for h in 1 2; do
	jcheck peer.wire.json \
		"d['after']['$h']['nic_tx'] - d['before']['$h']['nic_tx'] >= 2000" \
		"d['after']['$h']['sent'] - d['before']['$h']['sent'] >= 2000" \
		"d['after']['$h']['nic_tx'] - d['before']['$h']['nic_tx'] >= d['after']['$h']['sent'] - d['before']['$h']['sent']"
done

rc=$(cat "$OUT/mtu.rc")
[ "$rc" = 0 ] || { show mtu; fail "doctor HOST at MTU 600 exited $rc"; }
expect_grep mtu.out '^warn  path_mtu rxe1/1 - rxe0/1 *512 here, 1024 on the peer'
expect_grep mtu.out '^  fix: ip link set dev NETDEV mtu N'
jcheck mtu.json '[c["verdict"] for c in d["between"] if c["check"] == "path_mtu"] == ["warn"]' \
	'not any(c["check"] == "run" for c in d["between"])'

expect_rc gone 1
expect_grep gone.err 'cannot connect to 192.0.2.1'
expect_grep gone.out '^# [0-9]* check(s): '
# For the test's log: what doctor HOST says across the lab's wire.
cat "$OUT/peer.out"
pass
