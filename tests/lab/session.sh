#!/bin/sh
# Lab sessions (tests/lab/lib/lab.sh, tests/lab/lib/serve.sh): two guest scripts
# run in one boot, and the second finds the lab as a fresh boot would,
# whatever the first left behind: a process, a netem qdisc, huge pages,
# an IPv6 address.  Only with LAB_SESSIONS=1 (scripts/check).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

if [ "${LAB_SESSIONS:-0}" != 1 ]; then
	echo "SKIP: lab sessions are used only with LAB_SESSIONS=1 (scripts/check)"
	exit 77
fi
LAB_TIMEOUT=${LAB_TIMEOUT:-120}

lab_run '
cat /proc/sys/kernel/random/boot_id >"$OUT/boot1"
sleep 1000 &
echo $! >"$OUT/sleeper"
tc qdisc add dev eth0 root netem delay 1ms 2>"$OUT/tc.err"
echo $? >"$OUT/tc.rc"
echo 2 >/proc/sys/vm/nr_hugepages
ip -6 addr add 2001:db8::9/64 dev eth0 nodad
ip -6 addr show dev eth0 scope global >"$OUT/v6.before"
'
lab_run '
cat /proc/sys/kernel/random/boot_id >"$OUT/boot2"
kill -0 "$(cat "$OUT/sleeper")" 2>/dev/null && echo alive >"$OUT/sleeper.alive"
tc qdisc show dev eth0 >"$OUT/qdisc"
cat /proc/sys/vm/nr_hugepages >"$OUT/hp"
ip -6 addr show dev eth0 scope global >"$OUT/v6.after"
'

cmp -s "$OUT/boot1" "$OUT/boot2" || fail "the two scripts ran in different boots"
[ "$(cat "$OUT/tc.rc")" = 0 ] || fail "tc netem in the first script: $(cat "$OUT/tc.err")"
grep -q 2001:db8::9 "$OUT/v6.before" || fail "the first script's IPv6 address was not set"
[ ! -e "$OUT/sleeper.alive" ] || fail "the first script's background process outlived it"
! grep -q netem "$OUT/qdisc" || fail "the netem qdisc is still there: $(cat "$OUT/qdisc")"
[ "$(cat "$OUT/hp")" = 0 ] || fail "huge pages still reserved: $(cat "$OUT/hp")"
! grep -q 2001:db8::9 "$OUT/v6.after" || fail "the IPv6 address is still there"
pass
