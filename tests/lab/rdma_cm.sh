#!/bin/sh
# -R: the QPs are connected through librdmacm instead of the out-of-band
# QPN/GID exchange; the server adopts -R from the client's parameters.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

lab_run '
pair lat "send_lat --cpu none --quiet" "send_lat -R -s 2,4K -n 200 --verify --cpu none 192.0.2.1 --json $OUT/lat.json"
pair bw "write_bw --cpu none --quiet --json $OUT/bw.srv.json" "write_bw -R -q 4 -n 400 --verify --cpu none 192.0.2.1 --json $OUT/bw.json"
pair atomic "atomic --cpu none --quiet" "atomic -R --mode bw --op cswap -n 200 --verify --cpu none 192.0.2.1 --json $OUT/atomic.json"
'

for t in lat bw atomic; do
	expect_rc $t.cli 0
	expect_rc $t.srv 0
	jcheck $t.json "$viacm" 'd["device"]["path_mtu"] >= 256'
done
jcheck lat.json 'len(d["results"]) == 2' 'all(0 < r["lat_us"]["p50"] <= r["lat_us"]["max"] for r in d["results"])'
jcheck bw.json 'd["results"][0]["qps"] == 4' 'd["results"][0]["bw_avg_gbps"] > 0'
# The server's side: a request and an established event per QP.
jcheck bw.srv.json 'd["role"] == "server"' 'd["setup"]["qps"] == 4' 'd["setup"]["cm_events"] == 8'
jcheck atomic.json 'd["test"] == "atomic_bw"' 'd["op"] == "cswap"' 'd["results"][0]["msg_rate_mpps"] > 0'
pass
