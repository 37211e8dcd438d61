#!/bin/sh
# IPv6 end to end in the Soft-RoCE lab: the out-of-band exchange over an
# IPv6 address, and RoCE v2 over the IPv6 GID that carries it, chosen
# because it holds the connection's local address; with and without -R.
# Also --bind: a server bound to the IPv6 address listens only there; and
# --ipv6 (perftest's): an IPv6 GID on both sides though the peer is
# reached over IPv4.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

lab_run '
ip -6 addr add 2001:db8::1/64 dev eth0 nodad
# The GID table follows the netdev: wait for the new GID to appear.
i=0
while ! grep -q "2001:0db8" /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$RB" server --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo lat6 send_lat --cpu none --verify -n 200 -v 2001:db8::1 --json "$OUT/lat6.json"
solo bw6 write_bw --cpu none --verify -n 200 2001:db8::1 --json "$OUT/bw6.json"
solo lat6cm send_lat --cpu none --verify -n 200 -R 2001:db8::1 --json "$OUT/lat6cm.json"
solo bw6cm write_bw --cpu none --verify -n 200 -R 2001:db8::1 --json "$OUT/bw6cm.json"
solo lat4 send_lat --cpu none -n 50 192.0.2.1 --json "$OUT/lat4.json"
# GID 0 is the link-local IPv6 one: not for a peer reached over IPv4.
solo badgid send_lat --cpu none -x 0 -n 50 192.0.2.1
solo badport send_lat --cpu none -i 2 -n 50 192.0.2.1
kill -INT $srv
wait $srv
echo $? >"$OUT/server.rc"

# --ipv6 on both sides over an IPv4 out-of-band connection; not with -R.
pair flag6 "send_lat --cpu none --ipv6 --quiet --json $OUT/flag6.srv.json" \
	"send_lat --cpu none --ipv6 --verify -n 100 192.0.2.1 --json $OUT/flag6.json"
solo flag6cm send_lat --cpu none --ipv6 -R -n 10 --timeout 5 192.0.2.1

# Bound to the IPv6 address: it says so and is not reached over IPv4.
"$RB" server --cpu none --bind 2001:db8::1 >"$OUT/bound.out" 2>"$OUT/bound.err" &
srv=$!
solo bound6 write_bw --cpu none --verify -n 100 --bind 2001:db8::1 2001:db8::1 --json "$OUT/bound6.json"
solo bound4 write_bw --cpu none -n 100 --timeout 2 192.0.2.1
kill -INT $srv
wait $srv
'

for n in lat6 bw6 lat6cm bw6cm lat4 bound6; do
	expect_rc $n 0
done
for f in lat6.json bw6.json bound6.json; do
	jcheck $f 'd["peer"].startswith("2001:db8::1")' 'd["device"]["name"] == "rxe0"' \
		'd["device"]["gid_type"] == "RoCE v2"' 'd["device"]["gid"] == "2001:db8::1"' \
		'"2001:db8::1" in d["device"]["why_gid"]' 'd["params"]["verify"] is True'
done
jcheck lat6cm.json "$viacm" 'len(d["results"]) == 1'
jcheck bw6cm.json "$viacm" 'd["results"][0]["bw_avg_gbps"] > 0'
# Over IPv4 the same server takes the IPv4 GID.
jcheck lat4.json 'd["device"]["gid"] == "::ffff:192.0.2.1"' '"192.0.2.1" in d["device"]["why_gid"]'
expect_grep lat6.err 'RoCE v2 GID [0-9]* holds 2001:db8::1'
# A -x of the other family, or a port the device lacks: usage errors.
expect_rc badgid 2
expect_grep badgid.err "GID 0 .* holds an IPv6 address, the peer is reached over IPv4; valid: .*::ffff:192.0.2.1"
expect_rc badport 2
expect_rc flag6.cli 0
expect_rc flag6.srv 0
for f in flag6.json flag6.srv.json; do
	jcheck $f 'd["device"]["gid_type"] == "RoCE v2"' '":" in d["device"]["gid"]' \
		'not d["device"]["gid"].startswith("::ffff:")' '"(--ipv6)" in d["device"]["why_gid"]'
done
jcheck flag6.json 'd["peer"].startswith("192.0.2.1:")' 'd["params"]["verify"] is True' \
	'd["results"][0]["iterations"] == 100'
expect_rc flag6cm 2
expect_grep flag6cm.err "--ipv6 with -R: the CM takes the GID of the address given"
expect_rc server 0
expect_grep bound.err 'TCP port 18515 of 2001:db8::1'
expect_rc bound4 1
expect_grep bound4.err 'cannot connect to 192.0.2.1 port 18515'
pass
