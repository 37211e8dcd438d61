#!/bin/sh
# Thousands of QPs across the lab's wire (two hosts, one boot: a server on
# host 1, the clients on host 2), --verify on:
# - write_bw -q 1024 and -q 4096: the CONN's QP list past one frame
#   (wire v13: CONN, then CONN_MORE chunks), every QP connected and used
#   (the client's WRs completed per QP, JSON qp_wrs: every QP some);
# - write_bw -q 2048 --mr-per-qp: the MR list chunked too;
# - the setup figures (JSON "setup": create, connect, destroy, per QP) and
#   the table's setup line;
# - write_bw and send_bw -q 256 --cq-per-qp: a CQ per QP, polled round
#   robin, every message verified; with --poll event (write_bw -q 64, and
#   send_bw -q 16, whose server sleeps on its 16 CQs too): the CQs on one
#   channel, wake-ups counted, at most one per signaled WR; a send_bw
#   -q 1,16 sweep of it, each point on its own QPs' CQs; send_bw -q 16
#   --wr-lat: a sample per signaled WR, whichever CQ reaped it; write_bw -q
#   16 --probe: the probe's own CQ beside the 16 (64-byte messages: over
#   this wire -q 16 -s 4K fails with or without either flag, the peer's
#   "remote invalid request" on a WRITE); --reg-mode per-msg (-q 1);
# - -q 4096 -t 8: more completions than rxe's max_cqe (32767), refused
#   before anything is made (exit 2), naming the limit and the device;
#   -q 16384 -t 2 --mr-per-qp -s 256K: over the guest's memory budget,
#   refused the same way;
#   and buffers over a 64 KiB `ulimit -l` in a process without
#   CAP_IPC_LOCK (setpriv to nobody: root's capability lifts the limit),
#   refused as early with the fix named, but exit 1 (the host's limit);
# - the server's setup figures in the client's JSON (setup.peer, RESULT
#   v14) and table ("server setup:");
# - with RDMABENCH_LONG=1 (scripts/check --long), in a 6 GiB guest:
#   write_bw -q 16384 -t 1 --verify end to end (each side's 16384 QPs,
#   a message on each), and a -q 1..4096:x4 -t 4 message-rate sweep
#   (-t 4: 4096 QPs' sends fill 16384 of rxe's 32767 CQ entries;
#   README's figures, minutes under TCG).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-900}
# The sweep runs only in the long check; ":" leaves its line a no-op.
SWEEP=:
if [ "${RDMABENCH_LONG:-0}" = 1 ]; then
	SWEEP=solo
	# 16384 QPs a side, both sides in one guest: past 1 GiB's budget.
	# shellcheck disable=SC2034 # read by lab_run
	LAB_MEM=6144
fi

lab_run '
(ibv_devinfo -v 2>/dev/null | grep -E "max_qp:|max_cqe:|max_mr:") >"$OUT/devinfo.txt"
C="--bind 192.0.2.2 --cpu none --verify --timeout 120"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo q1024 write_bw $C -q 1024 -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/q1024.json"
solo q4096 write_bw $C -q 4096 -s 64 -n 4096 -t 2 192.0.2.1 --json "$OUT/q4096.json"
solo mr2048 write_bw $C -q 2048 --mr-per-qp -s 64 -n 2048 -t 2 192.0.2.1 --json "$OUT/mr2048.json"
solo cqw write_bw $C -q 256 --cq-per-qp -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/cqw.json"
solo cqs send_bw $C -q 256 --cq-per-qp -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/cqs.json"
solo cqev write_bw $C -q 64 --cq-per-qp --poll event -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/cqev.json"
solo cqse send_bw $C -q 16 --cq-per-qp --poll event -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/cqse.json"
solo cqsw send_bw $C -q 1,16 --cq-per-qp --poll event -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/cqsw.json"
solo cqwl send_bw $C -q 16 --cq-per-qp --wr-lat -s 64 -l 4 -Q 4 -n 2048 -t 8 192.0.2.1 --json "$OUT/cqwl.json"
solo cqpr write_bw $C -q 16 --cq-per-qp --probe -s 64 -n 20000 -t 8 192.0.2.1 --json "$OUT/cqpr.json"
solo cqrm write_bw $C --cq-per-qp --reg-mode per-msg -s 4K -n 500 192.0.2.1 --json "$OUT/cqrm.json"
solo cqe write_bw $C -q 4096 -t 8 -s 64 -n 4096 192.0.2.1
solo big write_bw $C -q 16384 -t 2 --mr-per-qp -s 256K -n 16384 192.0.2.1
if command -v setpriv >/dev/null; then
	(ulimit -l 64 && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RB" write_bw $C -q 4 --mr-per-qp -s 1M -n 8 192.0.2.1) \
		>"$OUT/memlock.out" 2>"$OUT/memlock.err"
	echo $? >"$OUT/memlock.rc"
else
	echo none >"$OUT/memlock.rc"
fi
'"$SWEEP"' q16384 write_bw $C -q 16384 -t 1 -s 64 -n 16384 192.0.2.1 --json "$OUT/q16384.json"
'"$SWEEP"' sweep write_bw --bind 192.0.2.2 --cpu none --timeout 120 -q 1..4096:x4 -t 4 -s 64 \
	-n 20000 192.0.2.1 --json "$OUT/sweep.json"
stop_server $srv
'

for c in q1024 q4096 mr2048 cqw cqs cqev cqse cqsw cqwl cqpr cqrm; do
	expect_rc $c 0
	jcheck $c.json 'd["params"]["verify"] is True' \
		'all(r["iterations"] == d["params"]["iterations"] for r in d["results"])' \
		'd["results"][0]["bw_avg_gbps"] > 0'
done
jcheck q1024.json 'd["results"][0]["qps"] == 1024'
jcheck q4096.json 'd["results"][0]["qps"] == 4096'
jcheck mr2048.json 'd["results"][0]["qps"] == 2048'
# Every QP used: the client's own count of the WRs each QP completed
# (qp_wrs), every QP some, none more than a round's share above another
# (the stream goes round the QPs a chain at a time).
for c in q1024 q4096 mr2048 cqw cqs cqev cqse cqwl cqpr; do
	jcheck $c.json 'all(r["qp_wrs"]["used"] == r["qps"] for r in d["results"])' \
		'all(r["qp_wrs"]["min"] >= 1 for r in d["results"])' \
		'all(r["qp_wrs"]["max"] - r["qp_wrs"]["min"] <= 2 * r["batch"] for r in d["results"])'
done
for c in q1024 q4096; do
	jcheck $c.json 'd["setup"]["qps"] == d["results"][0]["qps"]' 'd["setup"]["create_ms"] > 0' \
		'd["setup"]["connect_ms"] > 0' 'd["setup"]["destroy_ms"] > 0' \
		'abs(d["setup"]["qp_setup_us"] * d["setup"]["qps"] / 1e3 - d["setup"]["create_ms"] - d["setup"]["connect_ms"]) < 0.01'
	expect_grep $c.out "^setup: [0-9]* QPs: create .* ms, connect .* ms (.* us a QP), destroy .* ms"
	# The server's, from its RESULT: the same QPs, its own times.
	jcheck $c.json 'd["setup"]["peer"]["qps"] == d["setup"]["qps"]' \
		'd["setup"]["peer"]["create_ms"] > 0' 'd["setup"]["peer"]["connect_ms"] > 0' \
		'"destroy_ms" not in d["setup"]["peer"]'
	expect_grep $c.out "^server setup: [0-9]* QPs: create .* ms, connect .* ms (.* us a QP)$"
done
jcheck cqw.json 'd["params"]["cq_per_qp"] is True' 'd["results"][0]["qps"] == 256'
jcheck cqs.json 'd["params"]["cq_per_qp"] is True' 'd["results"][0]["peer_bw_avg_gbps"] > 0'
jcheck q1024.json '"cq_per_qp" not in d["params"]'
for c in cqev cqse cqsw cqwl cqpr cqrm; do
	jcheck $c.json 'd["params"]["cq_per_qp"] is True'
done
# Events: each needs a completion on an armed CQ, so no more than signaled WRs.
wake='all(0 < r["wakeups"] <= (r["iterations"] + r["warmup"]) / r["signal"] and abs(r["wakeups_per_msg"] - r["wakeups"] / r["iterations"]) <= 1e-8 * r["wakeups_per_msg"] for r in d["results"])'
jcheck cqev.json 'd["params"]["poll"] == "event"' 'd["results"][0]["qps"] == 64' "$wake"
jcheck cqse.json 'd["params"]["poll"] == "event"' 'd["results"][0]["qps"] == 16' "$wake" \
	'd["results"][0]["peer_bw_avg_gbps"] > 0'
# A -q 1,16 sweep: each point polls and arms its own QPs' CQs only, both sides.
jcheck cqsw.json 'd["params"]["poll"] == "event"' '[r["qps"] for r in d["results"]] == [1, 16]' \
	"$wake" 'all(r["peer_bw_avg_gbps"] > 0 for r in d["results"])'
jcheck cqwl.json 'd["params"]["wr_lat"] is True' 'd["results"][0]["wr_lat_us"]["samples"] == 2048 // 4' \
	'0 < d["results"][0]["wr_lat_us"]["min"] <= d["results"][0]["wr_lat_us"]["max"]'
jcheck cqpr.json 'd["params"]["probe"] is True' 'd["results"][0]["qps"] == 16' \
	'all(d["results"][0][k]["samples"] > 0 for k in ("idle_lat_us", "loaded_lat_us"))'
jcheck cqrm.json 'd["params"]["reg_mode"] == "per-msg"'
expect_rc cqe 2
expect_grep cqe.err "needs 32768 CQ entries, rxe[0-9]* allows 32767 (max_cqe)"
expect_rc big 2
expect_grep big.err "16384 QPs of depth 2"
if [ "$(cat "$OUT/memlock.rc")" = none ]; then
	echo "memlock: no setpriv in the guest, not run" >&2
else
	expect_rc memlock 1
	expect_grep memlock.err "would pin [0-9]* bytes on rxe[0-9]*, over RLIMIT_MEMLOCK 65536 bytes"
	expect_grep memlock.err "LimitMEMLOCK=infinity"
fi
expect_rc server 0
# The figures README quotes, into the log.
grep -h "^setup:" "$OUT/q1024.out" "$OUT/q4096.out" >&2
if [ "$SWEEP" = solo ]; then
	expect_rc q16384 0
	jcheck q16384.json 'd["results"][0]["qps"] == 16384' 'd["params"]["verify"] is True' \
		'd["results"][0]["iterations"] == 16384' 'd["setup"]["peer"]["qps"] == 16384'
	grep -h "setup:" "$OUT/q16384.out" >&2
	expect_rc sweep 0
	jcheck sweep.json '[r["qps"] for r in d["results"]] == [1, 4, 16, 64, 256, 1024, 4096]' \
		'all(r["msg_rate_mpps"] > 0 for r in d["results"])' 'd["setup"]["qps"] == 4096'
	cat "$OUT/sweep.out" >&2
fi
pass
