#!/bin/sh
# Hostile, dead and frozen peers in the Soft-RoCE lab, in one boot: a
# generic server refuses bad plans and bad frames with one line each and
# stays up; a --threads run or a tcp_lat client cannot hold its slot past
# --timeout; --auth-key refuses clients without the key; connections claiming to be threads of a run it does not serve
# are refused, and a run's thread joins it once; slow and silent connections do not hold other clients; a frozen
# client or a killed server is given up on within --timeout + 5 s; results
# that could not finish are kept, marked incomplete; output files are never
# replaced when they are not regular files.  Assertions run on the host.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"
# This tree's wire version, as hostile.py speaks it.
wire=$(sed -n 's/^#define RB_WIRE_VERSION[[:space:]]*//p' "$TOP_SRCDIR/src/wire/wire.h")

LAB_TIMEOUT=${LAB_TIMEOUT:-600}

lab_run '
H="python3 $LAB/hostile.py 192.0.2.1 18515"
ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_for FILE FROM REGEX SEC: until FILE, from line FROM on, matches
# REGEX; prints the ms waited.
wait_for() {
	_t0=$(ms)
	while ! tail -n "+$2" "$1" 2>/dev/null | grep -q -- "$3" && [ $(($(ms) - _t0)) -lt $(($4 * 1000)) ]; do
		sleep 0.1
	done
	echo $(($(ms) - _t0))
}

"$RB" server --cpu none --timeout 5 >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!

echo "$(date +%T) Bad plans and bad frames" >>"$OUT/phases"
# Bad plans and bad frames, one connection each, then 20 at once.
$H batch0 qps0 size0 bigsize qps100000 signal0 oom bidirlat bidir2 reversedbidir ratenounit foreversweep \
	interval99 badtest truncated version hugelen http srq_write odp2 mrq_oom cqpq2 >"$OUT/hostile.txt" 2>&1
$H flood >"$OUT/flood.txt" 2>&1
# Threads of runs the server does not serve: 28 connections at once, each
# "thread 1 of 2" with 32 MiB pinned and no thread 0 (they were all served,
# and the OOM killer fired); then a run whose thread 0 is served: one
# thread 1 joins it, a second and one needing more memory are refused.
$H threadflood >"$OUT/threadflood.txt" 2>&1
$H threadjoin >"$OUT/threadjoin.txt" 2>&1
solo after_hostile write_bw --cpu none --verify -n 200 192.0.2.1 --json "$OUT/after_hostile.json"

echo "$(date +%T) A trickling and a silent pee" >>"$OUT/phases"
# A trickling and a silent peer (and one silent after HELLO) while a real
# client arrives, on a second server whose timeout (10 s) would show: the
# real client takes no longer than alone.  (Each slow peer holds this
# test for the timeout: 20 s cost 10 s more for the same finding.)
"$RB" server --cpu none --timeout 10 -p 18516 >"$OUT/server2.out" 2>"$OUT/server2.err" &
srv2=$!
H2="python3 $LAB/hostile.py 192.0.2.1 18516"
t0=$(ms)
solo alone send_lat --cpu none -n 200 -p 18516 192.0.2.1
echo $(($(ms) - t0)) >"$OUT/alone.ms"
$H2 trickle >"$OUT/trickle.txt" 2>&1 &
slow1=$!
$H2 silent >"$OUT/silent.txt" 2>&1 &
slow2=$!
$H2 hello_silent >"$OUT/hello_silent.txt" 2>&1 &
slow3=$!
i=0
while [ "$(grep -c connected "$OUT/server2.err")" -lt 4 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
t0=$(ms)
solo normal send_lat --cpu none -n 200 -p 18516 192.0.2.1
echo $(($(ms) - t0)) >"$OUT/normal.ms"
# The slow peers are given up on (10 s) while the phases below run: waited
# for at the end.

echo "$(date +%T) A client frozen mid-measurem" >>"$OUT/phases"
# A client frozen mid-measurement: the generic server gives up on it.
for t in write_bw send_bw; do
	"$RB" $t --cpu none -D 60 --timeout 5 192.0.2.1 >/dev/null 2>"$OUT/frozen_$t.err" &
	cli=$!
	from=$(($(wc -l <"$OUT/server.err") + 1))
	wait_for "$OUT/server.err" "$from" "client .* connected" 30 >/dev/null
	sleep 2
	kill -STOP $cli
	wait_for "$OUT/server.err" "$from" "is it alive" 30 >"$OUT/frozen_$t.ms"
	tail -n "+$from" "$OUT/server.err" >"$OUT/server_after_$t.err"
	kill -KILL $cli
	wait $cli 2>/dev/null
done
solo after_frozen write_bw --cpu none -n 200 192.0.2.1

echo "$(date +%T) The generic server is still " >>"$OUT/phases"
# The generic server is still up; SIGTERM ends it.
kill -0 $srv 2>/dev/null && echo alive >"$OUT/server.alive"
kill -TERM $srv
wait $srv
echo $? >"$OUT/server.rc"

echo "$(date +%T) One-shot server, frozen clie" >>"$OUT/phases"
# One-shot server, frozen client: the server exits 1 within the bound.
# On a port of its own, beside the phases below (it is mostly waiting):
# waited for at the end.
(
	"$RB" write_bw --cpu none --timeout 5 -p 18521 >/dev/null 2>"$OUT/oneshot.err" &
	srv=$!
	"$RB" write_bw --cpu none -D 60 --timeout 5 -p 18521 192.0.2.1 >/dev/null 2>&1 &
	cli=$!
	sleep 3
	kill -STOP $cli
	t0=$(ms)
	wait $srv
	echo $? >"$OUT/oneshot.rc"
	echo $(($(ms) - t0)) >"$OUT/oneshot.ms"
	kill -KILL $cli
	wait $cli 2>/dev/null
) &
oneshot=$!

echo "$(date +%T) The server killed mid-run" >>"$OUT/phases"
# The server killed mid-run: the client exits 1, its files kept, incomplete.
"$RB" write_bw --cpu none --timeout 5 >/dev/null 2>&1 &
srv=$!
"$RB" write_bw --cpu none -s 64,128,256 -D 2 --timeout 5 192.0.2.1 \
	--json "$OUT/killed.json" --csv "$OUT/killed.csv" >/dev/null 2>"$OUT/killed.err" &
cli=$!
i=0
while [ ! -s "$OUT/killed.json" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -KILL $srv
t0=$(ms)
wait $cli
echo $? >"$OUT/killed.rc"
echo $(($(ms) - t0)) >"$OUT/killed.ms"
wait $srv 2>/dev/null

echo "$(date +%T) A verify mismatch on the ser" >>"$OUT/phases"
# A verify mismatch on the server reaches the client as a mismatch.
RDMABENCH_HOOK_BAD_VERIFY=1 "$RB" send_bw --cpu none --quiet >/dev/null 2>"$OUT/badverify.srv.err" &
srv=$!
solo badverify send_bw --cpu none --verify -n 200 192.0.2.1
wait $srv

echo "$(date +%T) SIGTERM mid-sweep" >>"$OUT/phases"
# SIGTERM mid-sweep: exit 143, finished points kept, marked incomplete.
# (300 iterations a point: the kill comes at the second of 12 points.)
"$RB" send_lat --cpu none --quiet >/dev/null 2>&1 &
srv=$!
"$RB" send_lat --cpu none -s 2..4K:x2 -n 300 192.0.2.1 --json "$OUT/term.json" \
	>/dev/null 2>"$OUT/term.err" &
cli=$!
wait_grep "\"size\": 4," "$OUT/term.json" 30
kill -TERM $cli
wait $cli
echo $? >"$OUT/term.rc"
wait $srv

echo "$(date +%T) Output files: a device" >>"$OUT/phases"
# Output files: a device is written in place, a symlink is followed, a
# directory or the same file twice is refused before anything runs.
"$RB" server --cpu none --quiet >/dev/null 2>&1 &
srv=$!
ln -s "$OUT/target.csv" "$OUT/link.csv"
solo devfull write_bw --cpu none -n 100 192.0.2.1 --json /dev/full
[ -c /dev/full ] && echo chardev >"$OUT/devfull.kind"
solo link write_bw --cpu none -n 100 192.0.2.1 --csv "$OUT/link.csv"
[ -L "$OUT/link.csv" ] && echo symlink >"$OUT/link.kind"
solo dir write_bw --cpu none -n 100 192.0.2.1 --csv "$OUT"
solo same write_bw --cpu none -n 100 192.0.2.1 --csv "$OUT/x" --json "$OUT/x"
# The guest has no udev, so no /dev/stdout: the same through /proc.
solo stdout write_bw --cpu none -n 100 -s 64,128 192.0.2.1 --json /proc/self/fd/1
solo nodev write_bw --cpu none -n 100 192.0.2.1 --json /dev/no-such-thing
kill -INT $srv
wait $srv
solo badcpu server --cpu 9999 --timeout 1

echo "$(date +%T) Slot holds, --auth-key" >>"$OUT/phases"
# Issue 41: a --threads run whose thread 1 never comes, saying it is alive
# every second, and a tcp_lat client that hangs up after DATA, each in
# front of a real client on a server of --timeout 6 (a slot wait of 4 s):
# the real client, started 3.5 s into the hold, is served within
# --timeout + 2 s of its start.
"$RB" server --cpu none --timeout 6 -p 18519 >"$OUT/server4.out" 2>"$OUT/server4.err" &
srv4=$!
wait_for "$OUT/server4.err" 1 "waiting for a client" 30 >/dev/null
H4="python3 $LAB/hostile.py 192.0.2.1 18519"
$H4 alivehold >"$OUT/alivehold.txt" 2>&1 &
p1=$!
sleep 3.5
t0=$(ms)
solo afterhold write_bw --cpu none -n 200 -p 18519 --timeout 6 192.0.2.1
echo $(($(ms) - t0)) >"$OUT/afterhold.ms"
wait $p1
$H4 tcphangup >"$OUT/tcphangup.txt" 2>&1
t0=$(ms)
solo afterhangup tcp_lat --cpu none -n 200 -p 18519 --timeout 6 192.0.2.1
echo $(($(ms) - t0)) >"$OUT/afterhangup.ms"
# A keyed client against this unkeyed server.
head -c 32 /dev/urandom >"$OUT/rb.key"
chmod 600 "$OUT/rb.key"
solo keyedvsplain write_bw --cpu none -n 100 -p 18519 --auth-key "$OUT/rb.key" 192.0.2.1
kill -INT $srv4
wait $srv4
# A keyed server: a keyed run, a client without the key, a wrong key, a
# raw HELLO without a key, a wrong proof, a key file open to others.
"$RB" server --cpu none --timeout 6 -p 18520 --auth-key "$OUT/rb.key" >"$OUT/server5.out" \
	2>"$OUT/server5.err" &
srv5=$!
wait_for "$OUT/server5.err" 1 "waiting for a client" 30 >/dev/null
export RDMABENCH_AUTH_KEY="$OUT/rb.key"
solo keyed write_bw --cpu none -n 200 -p 18520 192.0.2.1 --json "$OUT/keyed.json"
unset RDMABENCH_AUTH_KEY
solo plainvskeyed write_bw --cpu none -n 100 -p 18520 192.0.2.1
head -c 32 /dev/urandom >"$OUT/other.key"
chmod 600 "$OUT/other.key"
solo wrongkey write_bw --cpu none -n 100 -p 18520 --auth-key "$OUT/other.key" 192.0.2.1
python3 "$LAB/hostile.py" 192.0.2.1 18520 noauth badauth >"$OUT/auth.txt" 2>&1
cp "$OUT/rb.key" "$OUT/open.key"
chmod 644 "$OUT/open.key"
solo openkey write_bw --cpu none -n 100 -p 18520 --auth-key "$OUT/open.key" 192.0.2.1
kill -INT $srv5
wait $srv5

echo "$(date +%T) A lying CONN" >>"$OUT/phases"
# A lying CONN (issue 28): an MTU of 0, 100 or 5000, or an escape sequence
# as the cpus of its placement, is refused at once naming the field,
# by a server (from hostile clients) and by a client (from a hostile
# server, "serve"); an MTU of 0 that reached rxe held the process ~57 s.
"$RB" server --cpu none --timeout 5 -p 18517 >"$OUT/server3.out" 2>"$OUT/server3.err" &
srv3=$!
wait_for "$OUT/server3.err" 1 "waiting for a client" 30 >/dev/null
python3 "$LAB/hostile.py" 192.0.2.1 18517 conn_mtu0 conn_mtu100 conn_mtu5000 conn_esc \
	>"$OUT/lying.txt" 2>&1
solo after_lying write_bw --cpu none -n 200 -p 18517 192.0.2.1
kill -INT $srv3
wait $srv3
python3 "$LAB/hostile.py" 192.0.2.1 18518 serve conn_mtu0 conn_mtu5000 conn_esc >"$OUT/liar.txt" 2>&1 &
liar=$!
wait_for "$OUT/liar.txt" 1 listening 120 >"$OUT/liar.ms"
for c in mtu0 mtu5000 esc; do
	t0=$(ms)
	"$RB" read_bw -b --cpu none --timeout 5 -p 18518 192.0.2.1 >"$OUT/lied_$c.out" 2>"$OUT/lied_$c.err"
	echo $? >"$OUT/lied_$c.rc"
	echo $(($(ms) - t0)) >"$OUT/lied_$c.ms"
done
wait $liar || echo "the lying server failed" >>"$OUT/liar.txt"

# The one-shot server phase, and the slow and silent peers of the
# second server, long since given up on.
wait $oneshot
wait $slow1 $slow2 $slow3
kill -INT $srv2
wait $srv2
'

# --- bad plans and frames: one ERROR line each, fast --------------------------
f=$OUT/hostile.txt
want() { # CASE REGEX [MAX_S, default 3]
	line=$(grep "^$1	" "$f") || fail "no answer recorded for $1: $(cat "$f")"
	echo "$line" | grep -q -- "$2" || fail "$1: got '$line', want /$2/"
	secs=$(echo "$line" | cut -f2)
	awk "BEGIN { exit !($secs < ${3:-3}) }" || fail "$1 took $secs s"
}
want batch0 "ERROR server: .*-l/--batch 0 is out of range (1..4096)"
want qps0 "ERROR server: .*-q/--qps 0 is out of range (1..16384)"
want size0 "ERROR server: .*-s/--size 0 is out of range"
want bigsize "ERROR server: .*the plan needs about 2048 MiB"
want qps100000 "ERROR server: .*-q/--qps 100000 is out of range (1..16384)"
want signal0 "ERROR server: .*-Q/--signal 0 is out of range"
want oom "ERROR server: .*the plan needs about .* MiB.*this host can give"
want bidirlat "ERROR server: .*-b/--bidirectional does not apply to write_lat"
want bidir2 "ERROR server: .*-b/--bidirectional 2 is out of range"
want reversedbidir "ERROR server: .*--reversed and -b: both sides stream already"
want badtest "ERROR server: .*does not know"
want truncated "	\(ERROR server: .*closed the connection.*\|closed\)$"
want ratenounit "ERROR server: .*--rate 1000 has no unit"
want foreversweep "ERROR server: .*-D 0 measures one point until it is stopped; this sweep has 2"
want interval99 "ERROR server: .*--interval 99 ms is out of range"
want version "ERROR server: .*wire protocol v99, this rdmabench speaks v$wire"
want hugelen "ERROR server: .*exceeds the 65536-byte cap"
want http "	\(ERROR server: .*not rdmabench.*\|closed\)$"
want srq_write "ERROR server: .*--srq does not apply to write_bw"
want odp2 "ERROR server: .*--odp 2 is out of range (0..1)"
want mrq_oom "ERROR server: .*the plan needs about .* MiB.*this host can give"
want cqpq2 "ERROR server: .*--cq-per-qp 2 is out of range (0..1)"
[ "$(grep -c "ERROR server: .*-l/--batch 0" "$OUT/flood.txt")" = 20 ] ||
	fail "20 connections at once: not all refused: $(cat "$OUT/flood.txt")"
# Fake threads: each refused, naming the field, once it waited out what its
# thread 0 could have waited for the slot (--timeout 5: 3 s, and 1 s more).
[ "$(grep -c "ERROR server: .*PARAMS run_id 0x[0-9a-f]* (thread 1 of 2, from 192.0.2.1): no thread 0 of that run is being served (waited 4 s)" \
	"$OUT/threadflood.txt")" = 28 ] ||
	fail "28 fake threads at once: not all refused: $(cat "$OUT/threadflood.txt")"
# (Forking 28 processes at once in the emulated guest took up to 4 s more.)
awk -F'\t' '$2 >= 15 { bad = 1 } END { exit bad }' "$OUT/threadflood.txt" ||
	fail "a fake thread was refused only after 15 s or more: $(cat "$OUT/threadflood.txt")"
f=$OUT/threadjoin.txt
want thread0 "^thread0	.*	OK$"
want bigger1 "ERROR server: .*PARAMS thread 1 of run_id 0x[0-9a-f]* needs about [0-9]* KiB, more than the [0-9]* KiB per thread"
want thread1 "^thread1	.*	OK$"
want again1 "ERROR server: .*PARAMS thread 1 of run_id 0x[0-9a-f]*: that thread is connected already"
# The peer's text reaches the log escaped: no forged line, no escape.
grep -q "FAKE LOG LINE" "$OUT/server.err" || fail "the bad test name was not logged"
if grep -q "^FAKE LOG LINE\|$(printf '\033')" "$OUT/server.err"; then
	fail "a peer's text reached the log raw"
fi
grep -q 'rm -rf /\\x0a\\x1b\[31mFAKE' "$OUT/server.err" || fail "peer text not escaped as \\xNN"
expect_rc after_hostile 0

# --- slow and silent peers do not hold a real client ---------------------------
expect_rc alone 0
expect_rc normal 0
alone=$(cat "$OUT/alone.ms")
normal=$(cat "$OUT/normal.ms")
echo "a real client alone: $alone ms; behind three slow peers: $normal ms"
# Held by one of them, it would wait about 10 s more (the peers connect
# just before it); the margin is for a loaded machine, where one run of
# the same client can take seconds longer.
[ "$normal" -lt $((alone + 6000)) ] || fail "a real client behind slow peers took $normal ms (alone: $alone ms)"
grep -q "^trickle	[0-9.]*	\(ERROR .*no complete HELLO received within 10 s.*\|closed\)$" "$OUT/trickle.txt" ||
	fail "trickle: $(cat "$OUT/trickle.txt")"
grep -q "silent.*no complete HELLO received within 10 s" "$OUT/silent.txt" || fail "silent: $(cat "$OUT/silent.txt")"
grep -q "no complete PARAMS received within 10 s" "$OUT/hello_silent.txt" ||
	fail "hello_silent: $(cat "$OUT/hello_silent.txt")"

# --- frozen clients: bounded by timeout (5) + 5 s ------------------------------
for t in write_bw send_bw; do
	ms=$(cat "$OUT/frozen_$t.ms")
	[ "$ms" -lt 12000 ] || fail "frozen $t client: the server waited $ms ms (bound: 10 s + poll)"
done
grep -q "client .* sent nothing for 5 s during point 0.*is it alive" "$OUT/server_after_write_bw.err" ||
	fail "frozen write_bw: $(cat "$OUT/server_after_write_bw.err")"
grep -q "no progress for 5 s while waiting for messages at point 0" "$OUT/server_after_send_bw.err" ||
	fail "frozen send_bw: $(cat "$OUT/server_after_send_bw.err")"
expect_rc after_frozen 0
[ -e "$OUT/server.alive" ] || fail "the generic server died"
expect_rc server 0

expect_rc oneshot 1
[ "$(cat "$OUT/oneshot.ms")" -lt 12000 ] || fail "one-shot server waited $(cat "$OUT/oneshot.ms") ms"

# --- server killed: client exits 1 in bound, files parse, incomplete -----------
expect_rc killed 1
[ "$(cat "$OUT/killed.ms")" -lt 12000 ] || fail "client of a killed server took $(cat "$OUT/killed.ms") ms"
jcheck killed.json 'd["complete"] is False' 'len(d["reason"]) > 0' 'len(d["results"]) >= 1'
jcheck killed.csv 'len(d) >= 1'

# --- verify mismatch named on the client ---------------------------------------
expect_rc badverify 1
expect_grep badverify.err "verify: send_bw size 65536: byte at offset 0"

# --- SIGTERM ------------------------------------------------------------------------
expect_rc term 143
jcheck term.json 'd["complete"] is False' 'd["reason"] == "interrupted"' 'len(d["results"]) >= 1'

# --- output files ---------------------------------------------------------------
expect_rc devfull 1
expect_grep devfull.err "cannot write /dev/full"
[ "$(cat "$OUT/devfull.kind" 2>/dev/null)" = chardev ] || fail "/dev/full was replaced"
expect_rc link 0
[ "$(cat "$OUT/link.kind" 2>/dev/null)" = symlink ] || fail "the --csv symlink was replaced"
jcheck target.csv 'len(d) == 1'
expect_rc dir 2
expect_grep dir.err "is a directory"
expect_rc same 2
expect_grep same.err "name the same file"
expect_rc stdout 0
[ "$(grep -c '"schema_version"' "$OUT/stdout.out")" = 1 ] ||
	fail "--json /proc/self/fd/1: want one document, written once"
expect_rc nodev 2
expect_grep nodev.err "/dev/no-such-thing: No such file or directory"
expect_rc badcpu 2
expect_grep badcpu.err "--cpu 9999"

# --- issue 41: the two slot holds, --auth-key --------------------------------
f=$OUT/alivehold.txt
want alivehold "ERROR server: .*a --threads run that kept point 0 waiting for its other threads over 6 s (--timeout), saying it was alive: its slot is freed" 9
expect_rc afterhold 0
ms=$(cat "$OUT/afterhold.ms")
echo "a real client behind a --threads run holding the slot with ALIVEs: done $ms ms after it started (3.5 s into the hold)"
[ "$ms" -lt 8000 ] || fail "the client behind the ALIVE hold took $ms ms (--timeout 6 + 2 s)"
f=$OUT/tcphangup.txt
want tcphangup "hung up after DATA"
expect_rc afterhangup 0
ms=$(cat "$OUT/afterhangup.ms")
echo "a tcp_lat client behind one that hung up after DATA: served in $ms ms"
[ "$ms" -lt 8000 ] || fail "the client behind the TCP hang-up took $ms ms"
grep -q "closed the control connection before it opened the data connection" "$OUT/server4.err" ||
	fail "the server did not see the TCP client go"
expect_rc keyedvsplain 1
expect_grep keyedvsplain.err "gave up: server: client .* has --auth-key; this server has none: run the client without --auth-key, or start the server with --auth-key FILE"
grep -q "no --auth-key: any client that reaches this port may use this server" "$OUT/server4.err" ||
	fail "the unkeyed server did not say who may use it"
grep -q "has --auth-key; this server has none" "$OUT/server4.err" ||
	fail "the unkeyed server did not log the keyed client"
expect_rc keyed 0
jcheck keyed.json 'len(d["results"]) == 1' 'd["results"][0]["iterations"] == 200'
expect_rc plainvskeyed 1
expect_grep plainvskeyed.err "gave up: server: client .* has no key; this server takes only clients with its key: run the client with --auth-key FILE"
expect_rc wrongkey 1
expect_grep wrongkey.err "authentication with server 192.0.2.1:18520 failed: it does not hold this --auth-key's key"
f=$OUT/auth.txt
want noauth "ERROR server: client .* has no key; this server takes only clients with its key"
want badauth "ERROR server: client .*: authentication failed (--auth-key)"
[ "$(grep -c ": authentication failed (--auth-key)" "$OUT/server5.err")" = 2 ] ||
	fail "the keyed server did not log both failed proofs (the wrong key, the wrong proof): $(cat "$OUT/server5.err")"
expect_rc openkey 2
expect_grep openkey.err "the key file has mode 0644, open to group or others: run 'chmod 600"

# --- a lying peer's CONN: refused at once, naming the field, nothing raw -------
# The server opens its device before it answers PARAMS (seconds on a loaded
# lab), so these get the server's --timeout (5 s) as their bound.
f=$OUT/lying.txt
want conn_mtu0 "ERROR server: .*sent a CONN message this side refuses: CONN mtu 0 is not an MTU" 5
want conn_mtu100 "ERROR server: .*CONN mtu 100 is not an MTU (256, 512, 1024, 2048 or 4096 bytes)" 5
want conn_mtu5000 "ERROR server: .*CONN mtu 5000 is not an MTU" 5
want conn_esc "ERROR server: .*placement cpus '.x1b\[2J0' is not a CPU list" 5
if grep -q "$(printf '\033')" "$OUT/server3.err" "$OUT/server3.out"; then
	fail "a lying client's cpus reached the server's output raw"
fi
expect_rc after_lying 0
# The client side: the lying server's line per case is from its accept to
# the client's hang-up after the lie (the refusal itself); the client's
# whole run includes its own setup, seconds on a loaded lab, but never
# the ~57 s an MTU of 0 cost in rxe.
echo "the lying server listened after $(cat "$OUT/liar.ms") ms: $(cat "$OUT/liar.txt")"
f=$OUT/liar.txt
for c in mtu0 mtu5000 esc; do
	case $c in
	mtu0) why="CONN mtu 0 is not an MTU" ;;
	mtu5000) why="CONN mtu 5000 is not an MTU" ;;
	*) why="placement cpus '.x1b\[2J0' is not a CPU list" ;;
	esac
	# After the lie: the client's ERROR naming it, or its hang-up.
	want "conn_$c" "	\(ERROR .*$why.*\|closed\)$"
	expect_rc "lied_$c" 1
	ms=$(cat "$OUT/lied_$c.ms")
	echo "read_bw -b against a server lying in CONN ($c): exit 1 after $ms ms"
	[ "$ms" -lt 20000 ] || fail "read_bw against a server lying in CONN ($c) took $ms ms"
	if grep -q "$(printf '\033')" "$OUT/lied_$c.out" "$OUT/lied_$c.err"; then
		fail "the lying server's cpus reached the client's output raw"
	fi
done
expect_grep lied_mtu0.err "sent a CONN message this side refuses: CONN mtu 0 is not an MTU (256, 512, 1024, 2048 or 4096 bytes)"
expect_grep lied_mtu5000.err "CONN mtu 5000 is not an MTU"
expect_grep lied_esc.err "placement cpus '.x1b\[2J0' is not a CPU list"
pass
