#!/bin/sh
# --reversed across the lab's wire (two hosts, one boot), --verify on: the
# one-shot server on host 1 (rxe0, 192.0.2.1) accepts the connection and
# sends, the client on host 2 (rxe1) connects and receives.
# - every test (send_lat, send_bw, write_lat, write_bw, read_lat, read_bw,
#   atomic lat and bw) ends with exit 0 on both sides, -n N at each point;
# - the client's JSON says params.reversed and holds the server's figures:
#   each point's iterations, duration, bandwidth, message rate, CPU and
#   latency equal those of the server's own JSON, and are nonzero;
# - the device counters show the direction at 4 KiB (path MTU 1024): for
#   send_bw and write_bw the server sent at least 4N packets and the client
#   only ACKs; read_bw reads the client's memory, so the client sent them;
# - the table says so in a line of its own;
# - under perftest's name (ib_write_bw --reversed on both sides, as perftest
#   is run) the same, with perftest's report on the client;
# - a generic server serves reversed clients (-D 2 over two QPs, -R, UC,
#   --rate, which the server paces) and a one-way one between them; a
#   reversed client ^C'd during its point exits 130 with no row (the
#   receiver's figures are not the point's) and the server serves on;
# - a verify mismatch on the server (it reads, in read_bw) fails the client;
# - --reversed with -b is refused with exit 2, naming both.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=200

lab_run "
N=$N"'
S="--bind 192.0.2.1 --cpu none --quiet"
C="--reversed --bind 192.0.2.2 --cpu none --verify --mtu 1024 --timeout 30 -n $N"
# rev NAME TEST [CLIENT ARGS]: a one-shot server and a reversed client, each with its JSON.
rev() {
	_n=$1
	_t=$2
	shift 2
	pair "$_n" "$_t $S --json $OUT/$_n.srv.json" "$_t $C $* 192.0.2.1 --json $OUT/$_n.json"
}
rev send_lat send_lat -s 64,4K
rev send_bw send_bw -s 64,4K
rev write_lat write_lat -s 64,4K
rev write_bw write_bw -s 64,4K -l 1,4
rev read_lat read_lat -s 64,4K
rev read_bw read_bw -s 64,4K
rev atomic_lat atomic --mode lat
rev atomic_bw atomic --mode bw --op cswap
rev send_ud send_bw -c UD -s 1K
PT=$OUT/pt
mkdir -p "$PT"
ln -sf "$RB" "$PT/ib_write_bw"
"$PT/ib_write_bw" -d rxe0 --bind_source_ip 192.0.2.1 --disable_numa --reversed \
	>"$OUT/pt.srv.out" 2>"$OUT/pt.srv.err" &
_s=$!
"$PT/ib_write_bw" -d rxe1 --bind_source_ip 192.0.2.2 --disable_numa --reversed -s 4096 \
	-n $N 192.0.2.1 >"$OUT/pt.cli.out" 2>"$OUT/pt.cli.err"
echo $? >"$OUT/pt.cli.rc"
wait $_s
echo $? >"$OUT/pt.srv.rc"
solo bidir send_bw $C -b 192.0.2.1
# A verify mismatch where the server reads (read_bw reversed) reaches the client.
RDMABENCH_HOOK_BAD_VERIFY=1 "$RB" read_bw $S >/dev/null 2>"$OUT/badverify.srv.err" &
_s=$!
solo badverify read_bw $C -s 4K 192.0.2.1
wait $_s
echo $? >"$OUT/badverify.srv.rc"
# A generic server: reversed clients and a one-way one, one after another.
G="--reversed --bind 192.0.2.2 --cpu none --verify --timeout 30"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo dur send_bw $G -D 2 -s 4K -q 2 192.0.2.1 --json "$OUT/dur.json"
# ^C during a reversed point: no row of the receiver'"'"'s figures; the server lives on.
"$RB" send_lat $G -D 60 192.0.2.1 --json "$OUT/cut.json" >"$OUT/cut.out" 2>"$OUT/cut.err" &
cut=$!
sleep 6
kill -INT $cut
wait $cut
echo $? >"$OUT/cut.rc"
solo fwd send_lat --bind 192.0.2.2 --cpu none -n $N 192.0.2.1 --json "$OUT/fwd.json"
solo cm write_lat $G -R -n $N 192.0.2.1 --json "$OUT/cm.json"
solo uc write_bw $G -c UC -n $N -s 4K 192.0.2.1 --json "$OUT/uc.json"
solo rate write_bw $G -s 1024 -t 8 -D 4 --rate 64Kbps 192.0.2.1 --json "$OUT/rate.json"
stop_server $srv
'

for c in send_lat send_bw write_lat write_bw read_lat read_bw atomic_lat atomic_bw send_ud pt; do
	expect_rc "$c.cli" 0
	expect_rc "$c.srv" 0
done
for c in dur fwd cm uc rate; do
	expect_rc $c 0
done
[ ! -f "$OUT/server.hung" ] || fail "the generic server did not end on ^C"
expect_rc server 0

# same NAME: the client's points hold the server's own figures.
same() {
	python3 - "$OUT/$1.json" "$OUT/$1.srv.json" <<'EOF' || fail "$1: the client's figures are not the server's"
import json, math, sys
c, s = (json.load(open(p)) for p in sys.argv[1:])
keys = ("iterations", "duration_s", "bw_avg_gbps", "bw_peak_gbps", "msg_rate_mpps",
        "cpu_util_pct", "cpu_ns_per_msg")
bad = []
assert len(c["results"]) == len(s["results"]) > 0
for rc, rs in zip(c["results"], s["results"]):
    # A figure that cannot be true (a CPU over 100 % of a short point in
    # the VM) is left out by the client, and says so.
    rej = set(rc.get("peer_result_rejected") or [])
    if "cpu_util_pct" in rej:
        rej.add("cpu_ns_per_msg")
    for k in keys:
        if k in rej and rc.get(k) is None:
            continue
        a, b = rc.get(k), rs.get(k)
        if (a is None) != (b is None) or (a is not None and not math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-6)):
            bad.append(f"size {rc['size']}: {k} client {a}, server {b}")
    if rc.get("lat_us") != rs.get("lat_us"):
        bad.append(f"size {rc['size']}: lat_us client {rc.get('lat_us')}, server {rs.get('lat_us')}")
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

rev='d["params"]["reversed"] is True'
iters="all(r['iterations'] == $N for r in d['results'])"
bw='all(r["bw_avg_gbps"] > 0 and r["msg_rate_mpps"] > 0 and (r.get("cpu_ns_per_msg") or 0) >= 0 for r in d["results"])'
cpu='sum(1 for r in d["results"] if (r.get("cpu_ns_per_msg") or 0) > 0) >= len(d["results"]) / 2'
lat='all(r["lat_us"]["p50"] > 0 and r["lat_us"]["max"] >= r["lat_us"]["p50"] for r in d["results"])'
peercpu='all(r["peer_cpu_util_pct"] is not None for r in d["results"])'
for c in send_lat write_lat read_lat; do
	jcheck $c.json "$rev" 'len(d["results"]) == 2' "$iters" "$lat" "$peercpu"
	same $c
done
jcheck atomic_lat.json "$rev" 'len(d["results"]) == 1' "$iters" "$lat"
same atomic_lat
for c in send_bw write_bw read_bw; do
	jcheck $c.json "$rev" "$iters" "$bw" "$peercpu"
	same $c
done
jcheck write_bw.json 'len(d["results"]) == 4' "$cpu"
jcheck atomic_bw.json "$rev" 'len(d["results"]) == 1' "$iters" "$bw"
same atomic_bw
# send_bw: the client counted what arrived, as the peer's bandwidth.
jcheck send_bw.json 'all(r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
# The server's own file says it sent and timed.
jcheck write_bw.srv.json "$rev" "$iters" "$bw"
# The direction on the wire, at 4 KiB.
out4k="all(r['peer_counters']['sent_pkts'] >= 4 * $N and r['counters']['sent_pkts'] < 4 * $N for r in d['results'] if r['size'] == 4096)"
in4k="all(r['counters']['sent_pkts'] >= 4 * $N and r['peer_counters']['sent_pkts'] < 4 * $N for r in d['results'] if r['size'] == 4096)"
jcheck send_bw.json "$out4k"
jcheck write_bw.json "$out4k"
jcheck read_bw.json "$in4k"
# UD: what was lost is not counted; what was measured is the server's.
jcheck send_ud.json "$rev" 'all(0 < r["iterations"] <= '"$N"' for r in d["results"])' "$bw"
same send_ud
expect_grep write_bw.cli.out '^# reversed: the server sent and timed each point'
# -D by the server's clock, over two QPs; -R; UC; and a one-way client between them.
jcheck dur.json "$rev" 'len(d["results"]) == 1' "$bw" \
	'all(1.5 < r["duration_s"] < 10 and r["iterations"] > 0 for r in d["results"])'
jcheck fwd.json '"reversed" not in d["params"]' "$iters" "$lat"
# --rate: the server paced (unpaced, 1 KiB writes go 1000 times faster
# here), within the bound shape.sh holds a client to both ways (measured
# here: -0.2%); the deviation is printed.
python3 -c 'import json, sys; print("reversed --rate deviation %.1f%% (bound -20..5)" % json.load(open(sys.argv[1]))["results"][0]["rate_deviation_pct"])' \
	"$OUT/rate.json" || fail "rate.json: no rate_deviation_pct"
jcheck rate.json "$rev" 'd["params"]["rate"] == "64Kbps"' \
	'd["results"][0]["rate_target_gbps"] == 0.000064' \
	'-20 <= d["results"][0]["rate_deviation_pct"] <= 5' \
	'abs(d["results"][0]["rate_achieved_gbps"] - d["results"][0]["bw_avg_gbps"]) < 1e-12'
expect_rc cut 130
jcheck cut.json "$rev" 'd["results"] == []' 'd["complete"] is False'
jcheck cm.json "$rev" "$viacm" "$iters" "$lat"
jcheck uc.json "$rev" 'd["params"]["transport"] == "UC"' "$iters" "$bw" \
	"all(r['peer_counters']['sent_pkts'] >= 4 * $N for r in d['results'])"
# perftest's name: the repository's perftest parser reads the client's report.
python3 - "$OUT/pt.cli.out" "$TOP_SRCDIR/scripts/lib" <<'PY' || fail "pt.cli: perftest_report cannot read it"
import sys
sys.path.insert(0, sys.argv[2])
import perftest_report
text = open(sys.argv[1]).read()
m = perftest_report.parse_perftest_text(text, "write_bw", 4096)
assert all(v > 0 for v in m.values()), m
assert "both sides must be rdmabench" in text.splitlines()[1], text.splitlines()[:2]
PY
expect_rc badverify 1
expect_grep badverify.err 'server 192.0.2.1:18515: --verify found a mismatch'
expect_grep badverify.srv.err 'verify: read_bw size 4096'
expect_rc bidir 2
expect_grep bidir.err -- '--reversed and -b: both sides stream already'
pass
