#!/bin/sh
# RDMA against TCP on the same path (issue 26): tcp_lat and tcp_bw across
# the lab's wire (two hosts, one boot), through the generic server:
# - tcp_lat over -s 2,4K,64K and tcp_bw over -s 64,4K,64K (-n), and tcp_bw
#   -D 2: positive latency, bandwidth, rate and CPU figures on both sides,
#   the socket's buffers in the JSON, no device;
# - placement by the NIC: each side on the node of the rxe device over
#   the interface of its address (host 2: node 0; host 1: node 1);
# - each case's bytes crossed the wire: host 2's NIC sent and host 1's NIC
#   received at least the payload, and neither rxe device moved a packet;
# - tcp_bw -b: both directions, each timed by its sender, both crossed;
# - the one-shot server (tcp_lat with no host) serves one client too;
# - RDMA options are usage errors naming the option (-d, -Q, -c);
# - the side-by-side: write_bw and tcp_bw at 64 KiB in this one boot,
#   printed, and send_lat against tcp_lat (emulation figures: QEMU TCG,
#   Soft-RoCE).
# - lock (issue 42), in the same boot against the same server, one run
#   sweeping --lock spin,ticket and --hold 0,50 over 1, 2 and 4
#   contenders (-q 1,2,4) with --verify (the client reads back the lock
#   words and counters, the server checks its own memory by each point's
#   algorithm: exit 0 only when both hold): every point's lock and hold
#   in the JSON in the sweep's order, the lock's figures present and
#   sane, its WRs across the wire, ticket's FIFO fairness; the table
#   printed for the README (emulation figures); --recommend p99<=1s
#   chose per workload (-q and --hold: six lines, each naming its
#   workload), each the cheaper in CPU of its spin and ticket points
#   within the bound, never across -q or --hold.
# - tcp_lock (issue 42), in the same boot: the same workload as lock spin
#   (-q 1,2,4 --cs-bytes 32 --verify) through the FIFO lock server over
#   TCP: exit 0 with --verify on both sides, one attempt per acquisition,
#   FIFO fairness, its messages across the NICs and none through rxe;
#   --lock refused (exit 2); compare --vs-tcp lock.json tlk.json pairs
#   each lock point at --hold 0 (spin and ticket) with tcp_lock's of its
#   -q, each figure from its own file.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=200
NB=2000
NL=80 # a lock point's acquisitions: 12 points, as many in all as 6 of 150 were

lab_run "
N=$N
NB=$NB
NL=$NL"'
C="--bind 192.0.2.2 --cpu none --timeout 30"
cp /run/rxe-lab/hosts "$OUT/hosts"

# bytes NAME WHEN: per host its NIC'"'"'s tx and rx bytes, its rxe'"'"'s sent packets.
bytes() {
	_b=""
	while IFS="	" read -r _h _dev _nic _rest; do
		[ "$_h" != host ] || continue
		read -r _tx </sys/class/net/$_nic/statistics/tx_bytes
		read -r _rx </sys/class/net/$_nic/statistics/rx_bytes
		read -r _s </sys/class/infiniband/$_dev/ports/1/hw_counters/sent_pkts
		_b="$_b$_h $_tx $_rx $_s
"
	done </run/rxe-lab/hosts
	printf "%s" "$_b" >"$OUT/$1.$2"
}
across() {
	_n=$1
	shift
	bytes "$_n" before
	"$@"
	bytes "$_n" after
}

"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
across lat solo lat tcp_lat $C -s 2,4K,64K -n $N 192.0.2.1 --json "$OUT/lat.json" -v
across bw solo bw tcp_bw $C -s 64,4K,64K -n $NB 192.0.2.1 --json "$OUT/bw.json"
solo dbw tcp_bw $C -s 64K -D 2 192.0.2.1 --json "$OUT/dbw.json"
across bi solo bi tcp_bw -b $C -s 4K -n $NB 192.0.2.1 --json "$OUT/bi.json"
solo rlat send_lat $C -s 2,4K,64K -n $N 192.0.2.1 --json "$OUT/rlat.json"
solo rdma write_bw $C -s 64K -n $NB 192.0.2.1 --json "$OUT/rdma.json"
solo tcp64 tcp_bw $C -s 64K -n $NB 192.0.2.1 --json "$OUT/tcp64.json"
solo badd tcp_lat $C -d rxe1 192.0.2.1
solo badq tcp_bw $C -Q 4 192.0.2.1
solo badc tcp_bw $C -c UC 192.0.2.1
wire lock solo lock lock $C -q 1,2,4 --lock spin,ticket --hold 0,50 --cs-bytes 32 \
	--backoff exp:2000..20000 --verify -n $NL --recommend "p99<=1s" 192.0.2.1 \
	--json "$OUT/lock.json"
wire tlk across tlk solo tlk tcp_lock $C -q 1,2,4 --cs-bytes 32 --verify -n $NL 192.0.2.1 \
	--json "$OUT/tlk.json"
solo tlkbad tcp_lock $C --lock ticket 192.0.2.1
stop_server $srv
pair one "tcp_lat --bind 192.0.2.1 --cpu none --quiet --json $OUT/one.srv.json" \
	"tcp_lat $C -n $N 192.0.2.1 --json $OUT/one.json"
'

# moved NAME HOST FIELD: how much a counter moved (1 tx, 2 rx, 3 rxe sent).
moved() {
	_a=$(awk -v h="$2" -v f="$3" '$1 == h { print $(f + 1) }' "$OUT/$1.after")
	_b=$(awk -v h="$2" -v f="$3" '$1 == h { print $(f + 1) }' "$OUT/$1.before")
	echo $((_a - _b))
}

# crossed NAME BYTES: host 2 (the client) sent and host 1 received at least
# BYTES on their NICs, and no rxe device sent a packet: TCP, over the wire.
crossed() {
	_tx=$(moved "$1" 2 1) _rx=$(moved "$1" 1 2)
	echo "$1: host 2 NIC tx +$_tx, host 1 NIC rx +$_rx bytes (payload $2)," \
		"rxe sent +$(moved "$1" 1 3)/+$(moved "$1" 2 3) packets"
	[ "$_tx" -ge "$2" ] || fail "$1: host 2's NIC sent $_tx bytes, under the payload $2"
	[ "$_rx" -ge "$2" ] || fail "$1: host 1's NIC received $_rx bytes, under the payload $2"
	if [ "$(moved "$1" 1 3)" -ge 20 ] || [ "$(moved "$1" 2 3)" -ge 20 ]; then
		fail "$1: the rxe devices moved packets: not TCP alone"
	fi
}

for c in lat bw dbw bi rlat rdma tcp64 one.cli one.srv lock tlk; do
	expect_rc $c 0
done
expect_rc server 0
[ ! -f "$OUT/server.hung" ] || fail "the server did not end on ^C"

sock='set(d["socket"]) == {"local", "peer", "nodelay", "sndbuf", "rcvbuf", "mss", "peer_sndbuf", "peer_rcvbuf"}'
bufs='all(d["socket"][k] > 0 for k in ("sndbuf", "rcvbuf", "mss", "peer_sndbuf", "peer_rcvbuf"))'
path='d["socket"]["local"].startswith("192.0.2.2:") and d["socket"]["peer"].startswith("192.0.2.1:")'
cpu='all(r["cpu_util_pct"] > 0 and r["peer_cpu_util_pct"] > 0 and r["cpu_ns_per_msg"] > 0 for r in d["results"])'
jcheck lat.json 'd["test"] == "tcp_lat"' "$sock" "$bufs" "$path" 'd["socket"]["nodelay"] is True' \
	'[r["size"] for r in d["results"]] == [2, 4096, 65536]' \
	"all(r['iterations'] == $N for r in d['results'])" \
	'all(0 < r["lat_us"]["min"] <= r["lat_us"]["p50"] <= r["lat_us"]["p99"] <= r["lat_us"]["max"] for r in d["results"])' \
	"$cpu" 'd["device"]["name"].startswith("eth") and d["device"]["gid"] is None' \
	'd["placement"]["device_numa_node"] == 0 and d["peer_placement"]["device_numa_node"] == 1'
jcheck bw.json 'd["test"] == "tcp_bw"' "$sock" "$bufs" "$path" 'd["socket"]["nodelay"] is False' \
	'[r["size"] for r in d["results"]] == [64, 4096, 65536]' \
	"all(r['iterations'] == $NB for r in d['results'])" \
	'all(r["bw_avg_gbps"] > 0 and r["msg_rate_mpps"] > 0 and r["peer_bw_avg_gbps"] > 0 for r in d["results"])' \
	"$cpu"
jcheck dbw.json 'len(d["results"]) == 1' \
	'all(1.5 < r["duration_s"] < 10 and r["bw_avg_gbps"] > 0 and r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
# -b: each direction N messages, timed by the side that sent them; the totals their sums.
jcheck bi.json 'd["params"]["bidirectional"] is True' \
	"all(r['bidir'][k]['iterations'] == $NB and r['bidir'][k]['bw_avg_gbps'] > 0 for r in d['results'] for k in ('client_to_server', 'server_to_client'))" \
	'all(abs(r["bw_avg_gbps"] - r["bidir"]["client_to_server"]["bw_avg_gbps"] - r["bidir"]["server_to_client"]["bw_avg_gbps"]) <= 1e-6 * r["bw_avg_gbps"] for r in d["results"])'
jcheck one.json 'd["results"][0]["lat_us"]["p50"] > 0'
jcheck one.srv.json 'd["role"] == "server"' 'd["test"] == "tcp_lat"'

crossed lat $((N * (2 + 4096 + 65536)))
crossed bw $((NB * (64 + 4096 + 65536)))
crossed bi $((NB * 4096))
# ... and the other way: host 1 sent, host 2 received.
if [ "$(moved bi 1 1)" -lt $((NB * 4096)) ] || [ "$(moved bi 2 2)" -lt $((NB * 4096)) ]; then
	fail "bi: the server's stream did not cross the wire"
fi

for c in badd badq badc tlkbad; do
	expect_rc $c 2
done
expect_grep badd.err 'tcp_lat: -d/--device does not apply to tcp_lat (RDMA tests only)'
expect_grep badq.err 'tcp_bw: -Q/--signal does not apply to tcp_bw'
expect_grep badc.err 'tcp_bw: -c/--transport does not apply to tcp_bw'
expect_grep tlkbad.err 'tcp_lock: --lock does not apply to tcp_lock (it applies to: lock)'

# lock (issue 42): --verify passed on both sides (exit 0), every point's
# lock and hold in the sweep's order (lock, then hold, then -q), its
# figures, its WRs over the wire (rxe on host 2 sent a packet per WR at
# least: acquire, READ, WRITE, READ back, release per acquisition).
lk_pts='[(r["lock"], r["hold_us"], r["qps"]) for r in d["results"]] == [(l, h, q) for l in ("spin", "ticket") for h in (0, 50) for q in (1, 2, 4)]'
lk_fig="all(r['iterations'] == $NL and r['lat_us']['p50'] > 0 and r['lock_acq_per_s'] > 0 and r['lock_release_us'] > 0 and r['lock_attempts'] >= 1 and 0 < r['lock_jain'] <= 1 + 1e-9 and r['cpu_ns_per_msg'] > 0 for r in d['results'])"
lk_one='all(r["lock_jain"] == 1 and r["lock_share_min"] == 1 for r in d["results"] if r["qps"] == 1)'
jcheck lock.json 'd["test"] == "lock"' "$lk_pts" "$lk_fig" "$lk_one" \
	'd["params"]["verify"] is True and d["params"]["cs_bytes"] == 32 and "op" not in d' \
	'd["params"]["lock"] == ["spin", "ticket"] and d["params"]["hold_us"] == [0, 50]' \
	'd["params"]["backoff"] == "exp:2000..20000"' \
	'all(r["lock_attempts"] == 1 for r in d["results"] if r["lock"] == "spin" and r["qps"] == 1)' \
	'all(r["lock_attempts"] > 1 for r in d["results"] if r["lock"] == "spin" and r["qps"] == 4)' \
	'all(r["lock_attempts"] >= 2 for r in d["results"] if r["lock"] == "ticket")' \
	'all(r["lock_jain"] > 0.9 for r in d["results"] if r["lock"] == "ticket")'
# --recommend: one entry per -q and --hold, each the cheapest of its own
# two points (spin, ticket) within p99<=1s, traced from the points.
lk_in='[p for p in d["results"] if (p["qps"], p["hold_us"]) == (r["qps"], r["hold_us"]) and p["lat_us"]["p99"] <= 1e6]'
jcheck lock.json '[(r["qps"], r["hold_us"]) for r in d["recommendation"]] == [(q, h) for h in (0, 50) for q in (1, 2, 4)]' \
	'all(r["workload"] == "-s 8 -q %d --hold %d" % (r["qps"], r["hold_us"]) and r["points"] == 2 for r in d["recommendation"])' \
	"all(r['found'] == bool($lk_in) and r['within'] == len($lk_in) for r in d['recommendation'])" \
	"all(r['cpu_ns_per_msg'] == min(p['cpu_ns_per_msg'] for p in $lk_in) and r['lock'] == min($lk_in, key=lambda p: p['cpu_ns_per_msg'])['lock'] for r in d['recommendation'] if r['found'])"
expect_grep lock.out '^# recommendation: per size, -q and --hold, the point cheapest in CPU'
[ "$(grep -c '^# size 8 -q [124] --hold [05]0*: ' "$OUT/lock.out")" = 6 ] ||
	fail "want 6 '# size 8 -q Q --hold H' recommendation lines: $(cat "$OUT/lock.out")"
grep '^# ' "$OUT/lock.out"
jcheck lock.wire.json "d['after']['2']['sent'] - d['before']['2']['sent'] >= 5 * 12 * $NL"
echo "lock: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ms"])' \
	"$OUT/lock.wire.json") ms in the guest"
echo "lock, -n $NL per point, --verify (QEMU TCG, Soft-RoCE: emulation figures):"
sed -n '/^ *size/,$p' "$OUT/lock.out"

# tcp_lock (issue 42): lock's figures, one attempt each (the server
# queues), FIFO fair; per acquisition the client sent at least ACQUIRE,
# READ, WRITE (16 + 8 + 32 bytes), the read-back and RELEASE: 120 bytes.
jcheck tlk.json 'd["test"] == "tcp_lock" and [r["qps"] for r in d["results"]] == [1, 2, 4]' \
	"$lk_fig" "$lk_one" 'all(r["lock_attempts"] == 1 for r in d["results"])' \
	'all(r["lock_jain"] > 0.9 for r in d["results"])' 'd["params"]["verify"] is True' \
	'd["params"]["cs_bytes"] == 32 and "lock" not in d["params"]' "$sock" "$path" \
	'd["socket"]["nodelay"] is True'
crossed tlk $((3 * NL * 120))
echo "tcp_lock: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ms"])' \
	"$OUT/tlk.wire.json") ms in the guest"
sed -n '/^ *size/,$p' "$OUT/tlk.out"
# compare --vs-tcp: each point of lock spin against tcp_lock's, each
# figure the one its own file holds.
"$RDMABENCH" compare --vs-tcp "$OUT/lock.json" "$OUT/tlk.json" >"$OUT/vs_lock.out" 2>&1 ||
	{ cat "$OUT/vs_lock.out" >&2; fail "compare --vs-tcp lock tcp_lock failed"; }
cat "$OUT/vs_lock.out"
python3 - "$OUT/lock.json" "$OUT/tlk.json" "$OUT/vs_lock.out" <<'PY' || fail "compare --vs-tcp lock tcp_lock: figures not from their files"
import json, sys
res = [json.load(open(f))["results"] for f in sys.argv[1:3]]
docs = [{(r["qps"], r["hold_us"], r["lock"]): r for r in res[0]},
        {(r["qps"], r["hold_us"]): r for r in res[1]}]
get = {"acquire_p50_us": lambda r: r["lat_us"]["p50"], "acquire_p99_us": lambda r: r["lat_us"]["p99"],
       "acq_per_s": lambda r: r["lock_acq_per_s"], "handoff_us": lambda r: r["lock_handoff_us"]}
seen = set()
for line in open(sys.argv[3]):
    f = line.split()
    if len(f) != 8 or not f[0].isdigit():
        continue
    q, h, lk = int(f[0]), int(f[1]), f[2]
    for side, cell, key in ((0, f[4], (q, h, lk)), (1, f[5], (q, h))):
        want = get[f[3]](docs[side][key])
        ok = cell == "-" if want is None else abs(float(cell) - want) <= 1e-3 * abs(want)
        if not ok:
            sys.exit("qps %d hold %d %s %s: %s, its file says %s" % (q, h, lk, f[3], cell, want))
    seen.add((q, h, lk, f[3]))
if seen != {(q, 0, lk, k) for q in (1, 2, 4) for lk in ("spin", "ticket") for k in get}:
    sys.exit("points or figures missing: %s" % sorted(seen))
PY

# The side-by-side, for the README (emulation figures).
echo "side by side at 64 KiB, -n $NB, one boot (QEMU TCG, Soft-RoCE: emulation figures):"
for c in rdma tcp64; do
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print("%-9s %8.1f MiB/s  %.4f Mpps  client cpu %5.1f%%  %8.0f ns/msg  server cpu %5.1f%%" % (d["test"], r["bw_avg_gbps"] * 1e9 / 8 / 2**20, r["msg_rate_mpps"], r["cpu_util_pct"], r["cpu_ns_per_msg"], r["peer_cpu_util_pct"]))' \
		"$OUT/$c.json" || fail "$c.json: cannot read"
	sed -n '/^ *size/,$p' "$OUT/$c.out"
done
echo "send_lat and tcp_lat (one-way, us), -n $N:"
sed -n '/^ *size/,$p' "$OUT/rlat.out"
sed -n '/^ *size/,$p' "$OUT/lat.out"
# compare --vs-tcp: the same files side by side, with the ratios.
for v in "rdma tcp64 write_bw tcp_bw 65536" "rlat lat send_lat tcp_lat 4096"; do
	# shellcheck disable=SC2086 # $v is a word list
	set -- $v
	"$RDMABENCH" compare --vs-tcp "$OUT/$1.json" "$OUT/$2.json" >"$OUT/vs_$1.out" 2>&1 ||
		{ cat "$OUT/vs_$1.out" >&2; fail "compare --vs-tcp $3 $4 failed"; }
	expect_grep "vs_$1.out" "^# $3 (RDMA) against $4 (TCP), size by size"
	expect_grep "vs_$1.out" "^ *$5 "
	cat "$OUT/vs_$1.out"
done
pass
