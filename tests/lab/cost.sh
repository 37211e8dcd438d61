#!/bin/sh
# Instructions per message of rdmabench's hot path (scripts/cost's method,
# rdmabench only, each case once): the lab runs send_lat, read_lat, write_bw
# and send_bw at 64 B (-l 16 -Q 16 for the bandwidth tests) with the client
# under callgrind and the shim tests/cost/costshim.so, and the test fails
# when a figure (loop, tool, post or reap) is more than COST_TOLERANCE
# percent (5) and half an instruction a message above the committed table,
# bench-results/cost/cost.csv (COST_BASE overrides it).  Instruction counts do not move with the
# machine's load the way timings do: a change that slows the hot path is
# caught here.  Four cases run at once (valgrind's start-up under TCG and
# the settling polls are most of the time); what each counts does not
# depend on that.  They
# post with ibv_post_send (--post-api post: perftest's way on rxe, and the
# committed table's); then send_lat and write_bw once more through ibv_wr_*
# (--post-api wr), which must give figures (no committed table: printed),
# at the same time as send_lat and write_bw with --poll event, both sides, checked against
# the same committed table: the shim's settle wait makes every poll find
# its completions, so the loop never sleeps, and what is counted is event
# mode's path per message with the wake-ups left out (they are waiting),
# which must cost what busy polling does.  That second wave (about half
# of the test's time) runs only with RDMABENCH_LONG=1 (scripts/check
# --long): the first wave alone holds the committed limit; the unit tests
# hold --post-api wr to the WRs of post (test_xfer_post's
# post_api_same_wrs) and --poll event to the busy loop's counts
# (test_xfer_events).
# COST_WR_OUT, when set, names a file that gets those figures' cost.csv
# (with RDMABENCH_LONG=1).
# With RDMABENCH_LONG=1 and RDMABENCH_RDMA_CORE naming a build of
# scripts/lab-rdma-core (rdma-core 61 or later; doc/lab.md), the second
# wave also runs send_lat and write_bw with --cq-api classic and ex
# against that library, where rxe's extended CQ polls in batches
# (device.cq_poll "batch"): the extended CQ's loop must count fewer
# instructions a message than the classic one in send_lat; in write_bw
# -l 16 -Q 16 its provider's part must be below the classic one's a
# completion, and the loop within one instruction a message of it (on
# rxe a classic poll copies each completion whole, a memcpy, and the
# extended one calls the provider for each: +0.7 measured, emulation,
# doc/performance.md).  Without the build that part is skipped, said so;
# scripts/check keeps Debian's library.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

LAB_TIMEOUT=${LAB_TIMEOUT:-900}
SHIM=$TOP_BUILDDIR/tests/cost/costshim.so
BASE=${COST_BASE:-$TOP_SRCDIR/bench-results/cost/cost.csv}
TOL=${COST_TOLERANCE:-5}
# Each poll first waits this long, as in scripts/cost (20 ms): with four
# clients and their servers at once, it keeps every poll settled (a poll
# that finds only the send's completion, the echo still on its way, costs
# a poll more).
SETTLE_US=${COST_SETTLE_US:-20000}

if ! command -v valgrind >/dev/null; then
	echo "SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 77
fi
if [ ! -f "$SHIM" ]; then
	echo "SKIP: no $SHIM (configure builds it where valgrind/callgrind.h is installed)"
	exit 77
fi
[ -f "$BASE" ] || fail "no committed table $BASE"

LONG=${RDMABENCH_LONG:-0}
RC=
if [ "$LONG" = 1 ] && [ -n "${RDMABENCH_RDMA_CORE:-}" ]; then
	if [ -f "$RDMABENCH_RDMA_CORE/lib/libibverbs.so.1" ]; then
		RC=$RDMABENCH_RDMA_CORE
	else
		echo "RDMABENCH_RDMA_CORE=$RDMABENCH_RDMA_CORE: no lib/libibverbs.so.1 (scripts/lab-rdma-core)"
	fi
fi
lab_run "SHIM='$SHIM'
SETTLE_US=$SETTLE_US
LONG=$LONG
RC='$RC'
N=2048"'
# one CASE PORT [API [DIR [POLL]]]: a one-shot server, the client under
# callgrind, posting with --post-api API (post), waiting by --poll POLL
# (busy), its files in DIR (raw).
one() {
	api=${3:-post}
	raw=$OUT/${4:-raw}
	poll=${5:-busy}
	case $1 in
	send_lat) o="-s 64 -n $N -I 0" ;;
	read_lat) o="-s 64 -n $N" ;; # a read has no inline data
	*) o="-s 64 -n $N -I 0 -l 16 -Q 16" ;;
	esac
	s=$((N + 100)) # rdmabench first runs 100 warmup messages (64 B), counted
	r=0
	[ "$1" != send_lat ] || r=$s
	"$RB" "$1" -p "$2" --cpu none --quiet --timeout 900 >"$OUT/$1.srv.out" 2>&1 &
	# shellcheck disable=SC2086 # $o is a word list
	timeout 900 env LD_PRELOAD="$SHIM" LD_BIND_NOW=1 COST_SETTLE_US=$SETTLE_US \
		COST_SENDS=$s COST_RECVS=$r \
		COST_OUT="$raw/rdmabench-$1-r1.cost" valgrind --tool=callgrind \
		--collect-atstart=no --callgrind-out-file="$raw/rdmabench-$1-r1.cg" \
		"$RB" "$1" -p "$2" $o --post-api "$api" --poll "$poll" --cpu none --timeout 900 \
		192.0.2.1 >"$OUT/$1.$api.$poll.out" 2>"$OUT/$1.$api.$poll.err"
	echo $? >"$OUT/$1.$api.$poll.rc"
	wait
}
mkdir -p "$OUT/raw" "$OUT/wr/raw" "$OUT/ev/raw"
one send_lat 18811 &
one write_bw 18812 &
one send_bw 18813 &
one read_lat 18814 &
wait
# cqx TOOL API CASE PORT: CASE with --cq-api API on both sides (posting
# with ibv_post_send, as the committed table), against
# the rdma-core in $RC, its files cqx/raw/TOOL-CASE-r1.* (cost_report).
cqx() {
	case $3 in
	send_lat) o="-s 64 -n $N -I 0" r=$((N + 100)) ;;
	*) o="-s 64 -n $N -I 0 -l 16 -Q 16" r=0 ;;
	esac
	f=$OUT/cqx/raw/$1-$3-r1
	LD_LIBRARY_PATH=$RC/lib "$RB" "$3" -p "$4" --cq-api "$2" --cpu none --quiet \
		--timeout 900 >"$OUT/cqx.$2.$3.srv.out" 2>&1 &
	# shellcheck disable=SC2086 # $o is a word list
	LD_LIBRARY_PATH=$RC/lib timeout 900 env LD_PRELOAD="$SHIM" LD_BIND_NOW=1 \
		COST_SETTLE_US=$SETTLE_US COST_SENDS=$((N + 100)) COST_RECVS=$r COST_OUT="$f.cost" \
		valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$f.cg" \
		"$RB" "$3" -p "$4" $o --post-api post --cq-api "$2" --cpu none --timeout 900 \
		--json "$OUT/cqx.$2.$3.json" 192.0.2.1 >"$OUT/cqx.$2.$3.out" 2>"$OUT/cqx.$2.$3.err"
	echo $? >"$OUT/cqx.$2.$3.rc"
	wait
}
if [ "$LONG" = 1 ]; then
	one send_lat 18815 wr wr/raw &
	one write_bw 18816 wr wr/raw &
	one send_lat 18817 post ev/raw event &
	one write_bw 18818 post ev/raw event &
	wait
	if [ -n "$RC" ]; then
		mkdir -p "$OUT/cqx/raw"
		cqx rdmabench classic send_lat 18819 &
		cqx rdmabench+ex ex send_lat 18820 &
		cqx rdmabench classic write_bw 18821 &
		cqx rdmabench+ex ex write_bw 18822 &
		wait
	fi
fi
'

for c in send_lat read_lat write_bw send_bw; do
	expect_rc "$c.post.busy" 0
done
python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" check "$BASE" "$OUT/raw" --tolerance "$TOL" ||
	fail "rdmabench executes more instructions per message than bench-results/cost says (+$TOL%)"
if [ "$LONG" = 1 ]; then
	for c in send_lat write_bw; do
		expect_rc "$c.wr.busy" 0
		expect_rc "$c.post.event" 0
	done
	python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" report "$OUT/wr" >/dev/null ||
		fail "--post-api wr: no figures (the shim saw no ibv_wr_* chain?)"
	echo "--poll event (both sides; against the committed busy figures):"
	python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" check "$BASE" "$OUT/ev/raw" --tolerance "$TOL" ||
		fail "--poll event executes more instructions per message than busy polling (+$TOL%)"
	echo "--post-api wr (ibv_wr_*):"
	cat "$OUT/wr/cost.csv"
	[ -z "${COST_WR_OUT:-}" ] || cp "$OUT/wr/cost.csv" "$COST_WR_OUT"
	if [ -n "$RC" ]; then
		for c in classic.send_lat ex.send_lat classic.write_bw ex.write_bw; do
			expect_rc "cqx.$c" 0
		done
		jcheck cqx.ex.send_lat.json 'd["device"]["cq_api"] == "ex"' \
			'd["device"]["cq_poll"] == "batch"' 'int(d["system"]["rdma_core"].split(".")[0]) >= 61'
		jcheck cqx.classic.write_bw.json 'd["device"]["cq_api"] == "classic"'
		python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" report "$OUT/cqx" >/dev/null ||
			fail "--cq-api classic/ex on $RC: no figures"
		echo "--cq-api classic and ex, rdma-core in $RC:"
		cat "$OUT/cqx/cost.csv"
		python3 - "$OUT/cqx/cost.csv" <<'EOF' || fail "the extended CQ, batched, is not below the classic one"
import csv, sys
fig = {(r['tool'], r['case']): r for r in csv.DictReader(open(sys.argv[1]))}
def f(tool, case, k):
    return float(fig[(tool, case)][k])
for case in ('send_lat', 'write_bw'):
    for k in ('loop_per_msg', 'reap_per_cqe'):
        print('%s %s: ex %.2f, classic %.2f' % (case, k, f('rdmabench+ex', case, k),
                                                f('rdmabench', case, k)))
assert f('rdmabench+ex', 'send_lat', 'loop_per_msg') < f('rdmabench', 'send_lat', 'loop_per_msg')
assert f('rdmabench+ex', 'write_bw', 'reap_per_cqe') < f('rdmabench', 'write_bw', 'reap_per_cqe')
assert f('rdmabench+ex', 'write_bw', 'loop_per_msg') < f('rdmabench', 'write_bw', 'loop_per_msg') + 1
EOF
	elif [ -n "${RDMABENCH_RDMA_CORE:-}" ]; then
		echo "--cq-api ex batched: skipped (no rdma-core build in $RDMABENCH_RDMA_CORE)"
	else
		echo "--cq-api ex batched: with RDMABENCH_RDMA_CORE (scripts/lab-rdma-core)"
	fi
else
	echo "--post-api wr and --poll event: with RDMABENCH_LONG=1 (scripts/check --long)"
fi
pass
