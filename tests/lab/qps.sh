#!/bin/sh
# Thousands of QPs across the lab's wire (two hosts, one boot: a server on
# host 1, the clients on host 2), --verify on:
# - write_bw -q 1024 and -q 4096: the CONN's QP list past one frame
#   (wire v13: CONN, then CONN_MORE chunks), every QP connected and used;
# - write_bw -q 2048 --mr-per-qp: the MR list chunked too;
# - -q 16384 -t 2: more completions than rxe's max_cqe, refused before
#   anything is made (exit 2), naming the limit and the device.
# shellcheck source=tests/lab/lib.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-900}

lab_run '
(ibv_devinfo -v 2>/dev/null | grep -E "max_qp:|max_cqe:|max_mr:") >"$OUT/devinfo.txt"
C="--bind 192.0.2.2 --cpu none --verify --timeout 120"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo q1024 write_bw $C -q 1024 -s 64 -n 2048 -t 4 192.0.2.1 --json "$OUT/q1024.json"
solo q4096 write_bw $C -q 4096 -s 64 -n 4096 -t 2 192.0.2.1 --json "$OUT/q4096.json"
solo mr2048 write_bw $C -q 2048 --mr-per-qp -s 64 -n 2048 -t 2 192.0.2.1 --json "$OUT/mr2048.json"
solo big write_bw $C -q 16384 -t 2 -s 64 -n 16384 192.0.2.1
stop_server $srv
'

for c in q1024 q4096 mr2048; do
	expect_rc $c 0
	jcheck $c.json 'd["params"]["verify"] is True' \
		'all(r["iterations"] == d["params"]["iterations"] for r in d["results"])' \
		'd["results"][0]["bw_avg_gbps"] > 0'
done
jcheck q1024.json 'd["results"][0]["qps"] == 1024'
jcheck q4096.json 'd["results"][0]["qps"] == 4096'
jcheck mr2048.json 'd["results"][0]["qps"] == 2048'
expect_rc big 2
expect_grep big.err "max_cqe"
expect_rc server 0
pass
