#!/bin/sh
# Transports (-c RC|UC|UD; SRD refused on rxe) and the address vector (--sl, --tclass,
# --flow-label) across a real wire: two hosts (rxe-lab --hosts 2), the
# server on host 1 (rxe0, 192.0.2.1), the client on host 2 (rxe1).  Every
# run verifies its payloads; the JSON says the transport and the path
# fields; the combinations a transport cannot do exit 2 naming both.
# --tclass is also looked for on the wire: a packet socket on host 1's NIC
# reads the IP TOS byte of the RoCE v2 packets (UDP port 4791) that arrive,
# and --flow-label in their UDP source port.
# -u, --retry_count and -L (perftest's spellings, each side's own) come back
# in the JSON; -L is not looked for on the wire: rxe sends TTL 64 whatever
# the GRH's hop limit (seen with this sniffer).
# All of it in one VM boot.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=50

lab_run "
N=$N"'
C="--bind 192.0.2.2 --cpu none --verify -n $N --warmup 10 --timeout 120"
S=192.0.2.1
nic1=$(awk -F"\t" "\$1 == 1 { print \$3 }" /run/rxe-lab/hosts)

# The sniffer: on host 1'"'"'s NIC, a packet socket whose BPF filter passes
# only RoCE v2 packets (UDP port 4791) with a TOS other than 0, so that it
# sleeps through the other cases (a sniffer that woke for every packet
# would compete with the two busy-polling sides for the 2 vCPUs).  It
# counts them by TOS until $OUT/sniff.stop, into $OUT/sniff.tos, and by
# TOS and UDP source port into $OUT/sniff.ports ("TOS:PORT"; the CM
# messages of -R, to QP 1, as "TOS:gsi"): rxe derives
# the source port of a QP from its flow label (rdma_flow_label_to_udp_sport(),
# 0xC000 | label for a label under 16384), so the label of each QP is seen on
# the wire.  The cases with --tclass use distinct values.
python3 -c "
import ctypes, json, os, socket, struct, sys
prog = [(0x28, 0, 0, 12), (0x15, 0, 10, 0x800), (0x30, 0, 0, 23), (0x15, 0, 8, 17),
        (0x28, 0, 0, 20), (0x45, 6, 0, 0x1fff), (0xb1, 0, 0, 14), (0x48, 0, 0, 16),
        (0x15, 0, 3, 4791), (0x30, 0, 0, 15), (0x15, 1, 0, 0), (0x06, 0, 0, 65535),
        (0x06, 0, 0, 0)]
code = ctypes.create_string_buffer(b\"\".join(struct.pack(\"HBBI\", *i) for i in prog))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0800))
s.setsockopt(socket.SOL_SOCKET, 26, struct.pack(\"HL\", len(prog), ctypes.addressof(code)))
s.bind((sys.argv[1], 0))
s.settimeout(1)
seen = {}
ports = {}
open(sys.argv[2] + \".ready\", \"w\").close()
while not os.path.exists(sys.argv[2] + \".stop\"):
    try:
        f = s.recv(64)
    except socket.timeout:
        continue
    seen[f[15]] = seen.get(f[15], 0) + 1
    k = \"%d:%s\" % (f[15], \"gsi\" if f[47:50] == bytes([0, 0, 1]) else f[34] << 8 | f[35])
    ports[k] = ports.get(k, 0) + 1
json.dump({str(k): v for k, v in seen.items()}, open(sys.argv[2] + \".tos\", \"w\"))
json.dump(ports, open(sys.argv[2] + \".ports\", \"w\"))
" "$nic1" "$OUT/sniff" 2>"$OUT/sniff.err" &
sn=$!
i=0
while [ ! -e "$OUT/sniff.ready" ] && [ $i -lt 1200 ] && kill -0 $sn 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done

"$RB" server --bind $S --cpu none --timeout 120 >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

# UD: up to the path MTU (1024 here); send_bw over two QPs too.  Each
# case is short: under TCG on a loaded machine a round trip takes ms.
wire ud_lat solo ud_lat send_lat -c UD $C -s 2,1024 $S --json "$OUT/ud_lat.json"
wire ud_bw solo ud_bw send_bw -c UD $C -s 1024 -q 1,2 $S --json "$OUT/ud_bw.json"
# UC: SEND and RDMA WRITE, messages of several packets.
wire uc_bw solo uc_bw send_bw --connection UC $C -s 8K $S --json "$OUT/uc_bw.json"
wire uc_write solo uc_write write_bw -c UC $C -s 8K $S --json "$OUT/uc_write.json"
# The address vector: RC at RTR, UD in the address handle.
wire rc_av solo rc_av send_lat --sl 1 --tclass 184 --flow-label 12345 $C -s 64 $S \
	--json "$OUT/rc_av.json"
wire ud_av solo ud_av send_bw -c UD -S 2 --tclass 96 --flow_label 777 $C -s 512 $S \
	--json "$OUT/ud_av.json"
# perftest'"'"'s list of flow labels, one per QP in turn.
wire rc_fl solo rc_fl send_bw -q 3 --flow_label 11,12 --tclass 44 $C -s 4K $S --json "$OUT/rc_fl.json"
# This side'"'"'s QP timers and hop limit, in perftest'"'"'s spelling.
wire rc_qp solo rc_qp send_lat -u 18 --retry_count 6 -L 32 --tclass 72 $C -s 64 $S \
	--json "$OUT/rc_qp.json"

# What a transport cannot do: refused before anything is measured.
solo ud_write write_bw -c UD $C $S
solo ud_wlat write_lat -c UD $C $S
solo uc_read read_bw -c UC $C $S
solo uc_atomic atomic --mode lat -c UC $C $S
solo ud_cm send_lat -c UD -R $C $S
# SRD is EFA'"'"'s: rxe makes no SRD QP (the provider table), nor does -R.
solo srd_rxe send_lat -c SRD $C $S
solo srd_cm send_lat -c SRD -R $C $S
solo bad_sl send_lat --sl 16 $C $S
solo bad_flow send_lat --flow-label 1048576 $C $S
# Larger than the path MTU: known once the ports are compared.
solo ud_big send_bw -c UD -s 2048 $C $S
# The server went on serving after that.
wire after solo after send_lat -c UD -s 8 $C $S --json "$OUT/after.json"
stop_server $srv

# UC through the CM (-R), with the traffic class as the CM'"'"'s TOS.
wire uc_cm pair uc_cm "write_bw -d rxe0 --cpu none --quiet --timeout 120" \
	"write_bw -c UC -R --tclass 32 $C -s 8K $S --json $OUT/uc_cm.json"
# The same through the CM: ours replace what it computed.
wire rc_qp_cm pair rc_qp_cm "send_lat -d rxe0 --cpu none --quiet --timeout 120" \
	"send_lat -R -u 16 --retry_count 5 --hop_limit 40 --tclass 40 $C -s 64 $S --json $OUT/rc_qp_cm.json"
# The list through the CM: each QP'"'"'s label set over the CM'"'"'s path.
wire fl_cm pair fl_cm "send_bw -d rxe0 --cpu none --quiet --timeout 120" \
	"send_bw -R -q 2 --flow_label 21,22 --tclass 52 $C -s 64 $S --json $OUT/fl_cm.json"
: >"$OUT/sniff.stop"
wait $sn
'

# --- helpers ---------------------------------------------------------------

# crossed NAME MIN [oneway]: both NICs and both rxe devices moved MIN
# packets or more each way; oneway, from host 2 to host 1 only (a stream
# over UC or UD: nothing is acknowledged).
crossed() {
	_cf=$1.wire.json _min=$2 _dirs="2:nic_tx 2:sent 1:nic_rx 1:rcvd"
	[ "${3:-}" = oneway ] || _dirs="$_dirs 1:nic_tx 1:sent 2:nic_rx 2:rcvd"
	set --
	for _d in $_dirs; do
		set -- "$@" "$(delta "${_d%%:*}" "${_d#*:}") >= $_min"
	done
	jcheck "$_cf" "$@"
}

# ran NAME TRANSPORT SIZES [oneway]: a client document from rxe1, verified,
# over TRANSPORT, with every point's iterations and figures.
ran() {
	expect_rc "$1" 0
	jcheck "$1.json" "d[\"params\"][\"transport\"] == \"$2\"" 'd["params"]["verify"] is True' \
		'd["device"]["name"] == "rxe1"' 'd["peer"].startswith("192.0.2.1:")' \
		"[r[\"size\"] for r in d[\"results\"]] == $3" \
		"all(r[\"iterations\"] == $N for r in d[\"results\"])" \
		'all((r.get("lat_us") or {}).get("p50", 0) > 0 or (r.get("bw_avg_gbps") or 0) > 0 for r in d["results"])'
	crossed "$1" "$N" "${4:-}"
}

# refused NAME REGEX: exit 2, and the message says why.
refused() {
	expect_rc "$1" 2
	expect_grep "$1.err" "$2"
}

# --- transports ----------------------------------------------------------------

ran ud_lat UD '[2, 1024]'
ran ud_bw UD '[1024, 1024]' oneway
jcheck ud_bw.json '[r["qps"] for r in d["results"]] == [1, 2]' \
	'all(r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
jcheck ud_lat.json 'd["device"]["path_mtu"] == 1024' 'd["params"]["rdma_cm"] is False' \
	'd["setup"]["cm_events"] == 0'
ran uc_bw UC '[8192]' oneway
ran uc_write UC '[8192]' oneway
ran after UD '[8]'

# --- the address vector -----------------------------------------------------------

ran rc_av RC '[64]'
jcheck rc_av.json 'd["params"]["sl"] == 1' 'd["params"]["tclass"] == 184' \
	'd["params"]["flow_label"] == 12345'
ran ud_av UD '[512]' oneway
jcheck ud_av.json 'd["params"]["sl"] == 2' 'd["params"]["tclass"] == 96' \
	'd["params"]["flow_label"] == 777'
jcheck uc_bw.json 'd["params"]["sl"] == 0 and d["params"]["tclass"] == 0' \
	'd["params"]["flow_label"] == 0'
# On the wire: the IP TOS byte is the traffic class (rxe copies it), in
# every packet of each case (RC: the client's requests and ACKs; UD: the
# SENDs, warmup included) and in no other.
cat "$OUT/sniff.err" >&2
jcheck sniff.tos "d.get(\"184\", 0) >= 2 * $N" "d.get(\"96\", 0) >= $N" \
	'set(d) <= {"184", "96", "32", "72", "40", "44", "52"}'

# --- refusals ------------------------------------------------------------------------

refused ud_write '-c UD does not apply to write_bw: it runs over RC, UC'
refused ud_wlat '-c UD does not apply to write_lat'
refused uc_read '-c UC does not apply to read_bw: it runs over RC'
refused uc_atomic '-c UC does not apply to atomic_lat'
refused ud_cm '-R/--rdma-cm does not apply to -c UD'
refused srd_rxe "rxe1 is rxe (Soft-RoCE (software)), which makes RC, UC, UD QPs; SRD QPs are efa's; give -c RC"
refused srd_cm '-R/--rdma-cm does not apply to -c SRD'
refused bad_sl '-S/--sl 16 is out of range (0..15)'
refused bad_flow '--flow-label 1048576 is out of range'
refused ud_big '-s/--size 2048 exceeds the path MTU of 1024 bytes'

[ ! -e "$OUT/server.hung" ] || fail "the generic server did not exit within 10 s of SIGINT"
expect_rc server 0

# --- UC through the CM -------------------------------------------------------------------

expect_rc uc_cm.cli 0
expect_rc uc_cm.srv 0
jcheck uc_cm.json 'd["params"]["transport"] == "UC"' "$viacm" \
	'd["params"]["verify"] is True' 'd["params"]["tclass"] == 32'
crossed uc_cm "$N" oneway
jcheck sniff.tos "d.get(\"32\", 0) >= $N"

# --- this side's QP attributes ---------------------------------------------------------

ran rc_fl RC '[4096]' oneway
jcheck rc_fl.json 'd["params"]["flow_label"] == [11, 12]' 'd["results"][0]["qps"] == 3'
# Each QP's label on the wire: QPs 0 and 2 send from port 0xC000 | 11, QP 1
# from 0xC000 | 12, and no packet of these runs from another port (the
# server's QPs take the same labels); through the CM the same, 21 and 22
# (the CM's own messages, to QP 1, aside).
jcheck sniff.ports 'd.get("44:49163", 0) > 0' 'd.get("44:49164", 0) > 0' \
	'sorted(k for k in d if k.startswith("44:")) == ["44:49163", "44:49164"]' \
	'd.get("52:49173", 0) > 0' 'd.get("52:49174", 0) > 0' \
	'sorted(k for k in d if k.startswith("52:") and k != "52:gsi") == ["52:49173", "52:49174"]' \
	'sorted(k for k in d if k.startswith("184:")) == ["184:61497"]'
expect_rc fl_cm.cli 0
expect_rc fl_cm.srv 0
jcheck fl_cm.json "$viacm" 'd["params"]["flow_label"] == [21, 22]' \
	'd["results"][0]["qps"] == 2' 'd["results"][0]["iterations"] == '"$N"
ran rc_qp RC '[64]'
jcheck rc_qp.json 'd["device"]["qp_timeout"] == 18' 'd["device"]["retry_count"] == 6' \
	'd["device"]["hop_limit"] == 32' 'd["device"]["pkey_index"] == 0'
jcheck rc_av.json 'd["device"]["qp_timeout"] == 14 and d["device"]["hop_limit"] == 64'
expect_rc rc_qp_cm.cli 0
expect_rc rc_qp_cm.srv 0
jcheck rc_qp_cm.json "$viacm" 'd["device"]["qp_timeout"] == 16' \
	'd["device"]["retry_count"] == 5' 'd["device"]["hop_limit"] == 40'
crossed rc_qp_cm "$N"
jcheck sniff.tos "d.get(\"72\", 0) >= 2 * $N" "d.get(\"40\", 0) >= 2 * $N"
pass
