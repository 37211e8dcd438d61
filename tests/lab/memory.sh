#!/bin/sh
# Memory choices across a wire (rxe-lab --hosts 2: server on rxe0 at
# 192.0.2.1, client on rxe1 at 192.0.2.2), in one boot:
#  - --hugepages with none reserved: exit 2 naming /proc/sys/vm/nr_hugepages;
#    with pages reserved, write_bw and send_bw --verify run in them (the
#    free count drops while they run and comes back after);
#  - --odp: rxe on the lab's kernel has no on-demand paging (refused, exit
#    2, naming the device and the capability), or it runs verified;
#  - --srq: send_bw and send_lat on one shared receive queue, -q 4, verified,
#    the SRQ seen in the kernel's resource tracking (rdma resource show srq:
#    one a side, none without --srq); write_bw --srq refused
#    (exit 2);
#  - --mr-per-qp: write_bw -q 4 and read_bw -q 2, verified, an MR per QP on
#    each side in the kernel's tracking (rdma resource show mr; one
#    without), and everything at once: send_bw --hugepages --mr-per-qp
#    --srq -q 3.
# Both sides share the guest's 2 vCPUs: --cpu none, small -n.  Several QPs
# streaming messages of more than one packet (path MTU 1024) across the
# wire fail on the lab's rxe (Linux 6.1) without any of these options
# (send_bw -q 4 -s 64K: REM_INV_REQ or REM_OP_ERR, 3 runs of 3; write_bw
# 1 of 3): the multi-QP cases send 1K messages, the huge page cases one QP
# with larger ones.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=200

lab_run "
N=$N"'
HP=/sys/kernel/mm/hugepages/hugepages-2048kB
C="--bind 192.0.2.2 --cpu none"
uname -r >"$OUT/kernel"

# res NAME ARGS...: recorded as solo does, and the most MRs and SRQs the
# kernel tracked at once on each device while it ran (rdma resource show,
# polled): NAME.res holds "mr0 srq0 mr1 srq1", rxe0 for the server, rxe1
# for the client.  The runs take -D 2, for several samples under TCG.
res() {
	_r=$1
	shift
	_m0=0 _s0=0 _m1=0 _s1=0
	"$RB" "$@" >"$OUT/$_r.out" 2>"$OUT/$_r.err" &
	_p=$!
	while kill -0 "$_p" 2>/dev/null; do
		rdma resource show mr >"$OUT/$_r.mr" 2>/dev/null
		rdma resource show srq >"$OUT/$_r.srq" 2>/dev/null
		_v=$(grep -c "^dev rxe0 mrn .* pid " "$OUT/$_r.mr"); [ "$_v" -gt "$_m0" ] && _m0=$_v
		_v=$(grep -c "^dev rxe1 mrn .* pid " "$OUT/$_r.mr"); [ "$_v" -gt "$_m1" ] && _m1=$_v
		_v=$(grep -c "^dev rxe0 srqn .* pid " "$OUT/$_r.srq"); [ "$_v" -gt "$_s0" ] && _s0=$_v
		_v=$(grep -c "^dev rxe1 srqn .* pid " "$OUT/$_r.srq"); [ "$_v" -gt "$_s1" ] && _s1=$_v
		sleep 0.2
	done
	wait "$_p"
	echo $? >"$OUT/$_r.rc"
	echo "$_m0 $_s0 $_m1 $_s1" >"$OUT/$_r.res"
}

# huge NAME ARGS...: recorded as solo does, and the fewest free huge pages
# seen while it ran in NAME.minfree (polled, builtins but sleep), the free
# count once the server let go of its pages in NAME.after.  The runs take
# -D 1 a point: with -n the moment both sides held their pages could fall
# between two 0.2 s samples (CI saw 15 of 16 free at the least).
huge() {
	_h=$1
	shift
	_min=999999
	"$RB" "$@" >"$OUT/$_h.out" 2>"$OUT/$_h.err" &
	_p=$!
	while kill -0 "$_p" 2>/dev/null; do
		read -r _v <"$HP/free_hugepages"
		[ "$_v" -lt "$_min" ] && _min=$_v
		sleep 0.2
	done
	wait "$_p"
	echo $? >"$OUT/$_h.rc"
	echo "$_min" >"$OUT/$_h.minfree"
	_i=0
	while read -r _v <"$HP/free_hugepages" && [ "$_v" != "$RESERVED" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_v" >"$OUT/$_h.after"
}

# None reserved: the client refuses before it reaches for a server.
echo 0 >/proc/sys/vm/nr_hugepages
solo nohuge write_bw --hugepages -n $N $C 192.0.2.1

echo 16 >/proc/sys/vm/nr_hugepages
read -r RESERVED <"$HP/nr_hugepages"
echo "$RESERVED" >"$OUT/reserved"

"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

huge huge_write write_bw --hugepages --verify -s 64K,512K -D 1 $C 192.0.2.1 --json "$OUT/huge_write.json"
huge huge_send send_bw --hugepages --verify -s 4K -D 1 $C 192.0.2.1 --json "$OUT/huge_send.json"

solo odp write_bw --odp --verify -n $N $C 192.0.2.1 --json "$OUT/odp.json"
for d in /sys/class/infiniband/*; do
	echo "${d##*/}: $(ibv_devinfo -v -d "${d##*/}" 2>/dev/null | grep -i -A3 odp | tr -s "\t\n " " ")"
done >"$OUT/odp_caps"

res srq_bw send_bw --srq -q 4 -s 1K --verify -D 2 $C 192.0.2.1 --json "$OUT/srq_bw.json"
res srq_lat send_lat --srq --verify -D 2 $C 192.0.2.1 --json "$OUT/srq_lat.json"
res nosrq_bw send_bw -q 4 -s 1K --verify -D 2 $C 192.0.2.1 --json "$OUT/nosrq_bw.json"
solo srq_write write_bw --srq -n $N $C 192.0.2.1

res mrq_write write_bw --mr-per-qp -q 4 -s 1K --verify -D 2 $C 192.0.2.1 --json "$OUT/mrq_write.json"
res mrq_read read_bw --mr-per-qp -q 2 -s 1K --verify -D 2 $C 192.0.2.1 --json "$OUT/mrq_read.json"
res nomrq_write write_bw -q 4 -s 1K --verify -D 2 $C 192.0.2.1 --json "$OUT/nomrq_write.json"
huge all send_bw --hugepages --mr-per-qp --srq -q 3 -s 1K --verify -D 1 $C 192.0.2.1 --json "$OUT/all.json"

stop_server $srv
'

echo "lab kernel: $(cat "$OUT/kernel")"

# --- huge pages ----------------------------------------------------------------
expect_rc nohuge 2
expect_grep nohuge.err '--hugepages: cannot map .* in 2 MiB huge pages'
expect_grep nohuge.err '1 needed, 0 of 0 reserved are free'
expect_grep nohuge.err 'echo 1 > /proc/sys/vm/nr_hugepages'

reserved=$(cat "$OUT/reserved")
[ "$reserved" -ge 8 ] || fail "the guest reserved only $reserved huge pages"
for c in huge_write huge_send all; do
	expect_rc $c 0
	minfree=$(cat "$OUT/$c.minfree")
	after=$(cat "$OUT/$c.after")
	echo "$c: $reserved huge pages reserved, $minfree free at the least during the run, $after after"
	# Client and server each hold at least one page while they run.
	[ "$minfree" -le $((reserved - 2)) ] || fail "$c: the free huge pages never dropped ($minfree of $reserved)"
	[ "$after" = "$reserved" ] || fail "$c: $after of $reserved huge pages free after the run"
	jcheck $c.json 'd["params"]["hugepages"] is True' 'd["params"]["verify"] is True' \
		'all(r["bw_avg_gbps"] > 0 for r in d["results"])'
done
jcheck huge_write.json '[r["size"] for r in d["results"]] == [65536, 524288]'
jcheck huge_send.json 'd["results"][0]["peer_bw_avg_gbps"] > 0'

# --- on-demand paging ----------------------------------------------------------
echo "odp: exit $(cat "$OUT/odp.rc"); $(head -n 1 "$OUT/odp.err")"
echo "odp caps as ibv_devinfo -v reports them: $(cat "$OUT/odp_caps")"
if [ "$(cat "$OUT/odp.rc")" = 0 ]; then
	jcheck odp.json 'd["params"]["odp"] is True' 'd["results"][0]["bw_avg_gbps"] > 0'
else
	expect_rc odp 2
	expect_grep odp.err '--odp: rxe1 cannot register on-demand paging memory for RC: '
	expect_grep odp.err 'IBV_ODP_SUPPORT'
fi

# res_is NAME MR0 SRQ0 MR1 SRQ1: the most MRs and SRQs rxe0 (the server)
# and rxe1 (the client) held during NAME, as the kernel tracked them.
res_is() {
	_got=$(cat "$OUT/$1.res")
	echo "$1: MRs and SRQs held (server, client): $_got"
	[ "$_got" = "$2 $3 $4 $5" ] || fail "$1: rdma resource show counted $_got (mr srq on rxe0, mr srq on rxe1), want $2 $3 $4 $5"
}

# --- shared receive queue ------------------------------------------------------
# Shown by the kernel's own count: one SRQ a side (each side makes its
# receive queues, the SRQ with --srq), none without --srq.  The SRQs are
# counted by their owner (a pid): iproute2 6.1 prints an SRQ's QP range
# where its comm goes.
res_is srq_bw 1 1 1 1
res_is srq_lat 1 1 1 1
res_is nosrq_bw 1 0 1 0
expect_rc nosrq_bw 0
expect_rc srq_bw 0
jcheck srq_bw.json 'd["params"]["srq"] is True' 'd["results"][0]["qps"] == 4' \
	'd["results"][0]["bw_avg_gbps"] > 0' 'd["results"][0]["peer_bw_avg_gbps"] > 0'
expect_rc srq_lat 0
jcheck srq_lat.json 'd["params"]["srq"] is True' 'd["results"][0]["lat_us"]["p50"] > 0'
expect_rc srq_write 2
expect_grep srq_write.err '--srq does not apply to write_bw'

# --- one MR per QP -------------------------------------------------------------
# Shown by the kernel's count: an MR per QP on each side, one without.
res_is mrq_write 4 0 4 0
res_is mrq_read 2 0 2 0
res_is nomrq_write 1 0 1 0
expect_rc nomrq_write 0
for c in mrq_write mrq_read all; do
	expect_rc $c 0
	jcheck $c.json 'd["params"]["mr_per_qp"] is True' 'd["params"]["verify"] is True' \
		'd["results"][0]["bw_avg_gbps"] > 0'
done
jcheck mrq_write.json 'd["results"][0]["qps"] == 4'
jcheck mrq_read.json 'd["results"][0]["qps"] == 2'
jcheck all.json 'd["params"]["srq"] is True' 'd["results"][0]["qps"] == 3'

expect_rc server 0
pass
