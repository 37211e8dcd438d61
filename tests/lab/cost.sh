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
# which must cost what busy polling does.
# COST_WR_OUT, when set, names a file that gets those figures' cost.csv.
# shellcheck source=tests/lab/lib.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib.sh"

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

lab_run "SHIM='$SHIM'
SETTLE_US=$SETTLE_US
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
one send_lat 18815 wr wr/raw &
one write_bw 18816 wr wr/raw &
one send_lat 18817 post ev/raw event &
one write_bw 18818 post ev/raw event &
wait
'

for c in send_lat read_lat write_bw send_bw; do
	expect_rc "$c.post.busy" 0
done
for c in send_lat write_bw; do
	expect_rc "$c.wr.busy" 0
	expect_rc "$c.post.event" 0
done
python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" check "$BASE" "$OUT/raw" --tolerance "$TOL" ||
	fail "rdmabench executes more instructions per message than bench-results/cost says (+$TOL%)"
python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" report "$OUT/wr" >/dev/null ||
	fail "--post-api wr: no figures (the shim saw no ibv_wr_* chain?)"
echo "--poll event (both sides; against the committed busy figures):"
python3 "$TOP_SRCDIR/scripts/lib/cost_report.py" check "$BASE" "$OUT/ev/raw" --tolerance "$TOL" ||
	fail "--poll event executes more instructions per message than busy polling (+$TOL%)"
echo "--post-api wr (ibv_wr_*):"
cat "$OUT/wr/cost.csv"
[ -z "${COST_WR_OUT:-}" ] || cp "$OUT/wr/cost.csv" "$COST_WR_OUT"
pass
