#!/bin/sh
# Soak: one generic server serves 200 clients in a row (five tests in
# turn; SOAK_CLIENTS=N for another count, scripts/check uses 60) in the
# Soft-RoCE lab.  Every client succeeds, and the listener does not grow:
# each connection is a child of its own, so after the first 10 clients
# (every path taken once) its open files stay the same and its resident
# memory within 64 KiB (a few pages that a late path may touch; a leak of
# 8 KiB a client is more past 10 more clients, where 5% of RSS was not).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

LAB_TIMEOUT=${LAB_TIMEOUT:-600}
N=${SOAK_CLIENTS:-200}

lab_run "
N=$N"'
# rss_fds PID: "RSS_KB FDS" of a process.
rss_fds() {
	echo "$(sed -n "s/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p" /proc/$1/status) $(ls /proc/$1/fd | wc -l)"
}
"$RB" server --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
fails=0
i=0
t0=$(date +%s)
while [ $i -lt $N ]; do
	case $((i % 5)) in
	0) t="send_lat" ;;
	1) t="write_bw" ;;
	2) t="read_lat" ;;
	3) t="atomic --op fadd" ;;
	*) t="send_bw -q 2" ;;
	esac
	# shellcheck disable=SC2086 # $t holds the test and its options
	"$RB" $t --cpu none --numa none -n 20 --warmup 2 192.0.2.1 >/dev/null 2>>"$OUT/clients.err" ||
		fails=$((fails + 1))
	i=$((i + 1))
	[ $i -eq 10 ] && rss_fds $srv >"$OUT/after10"
done
echo $(($(date +%s) - t0)) >"$OUT/seconds"
rss_fds $srv >"$OUT/after$N"
echo $fails >"$OUT/fails"
kill -INT $srv
wait $srv
echo $? >"$OUT/server.rc"
'

[ "$(cat "$OUT/fails")" = 0 ] || fail "$(cat "$OUT/fails") of $N clients failed: $(tail -5 "$OUT/clients.err")"
expect_rc server 0
read -r rss10 fds10 <"$OUT/after10"
read -r rssN fdsN <"$OUT/after$N"
echo "server after 10 clients: RSS $rss10 kB, $fds10 fds; after $N: RSS $rssN kB, $fdsN fds ($(cat "$OUT/seconds") s)"
[ "$N" -ge 20 ] || fail "SOAK_CLIENTS=$N: at least 20 (10 to settle, 10 to compare)"
[ "$fdsN" -eq "$fds10" ] || fail "open files went from $fds10 to $fdsN"
[ "$rssN" -le $((rss10 + 64)) ] || fail "RSS grew from $rss10 kB to $rssN kB (more than 64 KiB)"
pass
