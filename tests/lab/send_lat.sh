#!/bin/sh
# send_lat end to end in the Soft-RoCE lab: two sizes with every output,
# a one-shot server that refuses a client asking for another test, and
# --dry-run resolving rxe0 and the GID of 192.0.2.1 without a server there.
# shellcheck source=tests/lab/lib.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib.sh"

lab_run '
pair ok "send_lat --cpu none --quiet --json $OUT/srv.json" \
	"send_lat -s 2,4096 -n 300 --cpu none 192.0.2.1 --json $OUT/cli.json --csv $OUT/cli.csv"
pair refuse "write_lat --cpu none --quiet" "send_lat -n 10 --cpu none 192.0.2.1"
solo dry send_lat --dry-run -s 2,64 -n 100 192.0.2.1 --json "$OUT/dry.json"
solo drysrv server --dry-run -d rxe0 --json "$OUT/drysrv.json"
'

expect_rc ok.cli 0
expect_rc ok.srv 0
jcheck cli.json 'd["schema_version"] == 1' 'd["tool"] == "rdmabench"' 'd["test"] == "send_lat"' \
	'd["role"] == "client"' 'd["device"]["name"] == "rxe0"' 'd["device"]["port"] == 1' \
	'd["device"]["link_layer"] == "Ethernet"' 'd["device"]["active_mtu"] >= 256' \
	'd["peer"].startswith("192.0.2.1:")' 'len(d["timestamp"]) == 20' \
	'[r["size"] for r in d["results"]] == [2, 4096]' \
	'all(r["iterations"] == 300 and r["batch"] == 1 and r["qps"] == 1 for r in d["results"])' \
	'all(0 < r["lat_us"]["min"] <= r["lat_us"]["p50"] <= r["lat_us"]["p99"] <= r["lat_us"]["max"] for r in d["results"])' \
	'all(r["lat_us"]["p50"] <= r["lat_us"]["p90"] <= r["lat_us"]["p99"] <= r["lat_us"]["p999"] <= r["lat_us"]["max"] for r in d["results"])' \
	'all(r["lat_us"]["min"] <= r["lat_us"]["avg"] <= r["lat_us"]["max"] for r in d["results"])' \
	'all(r["percentiles"] == "exact" for r in d["results"])' \
	'd["params"]["size"] == [2, 4096]'
jcheck srv.json 'd["role"] == "server"' 'len(d["results"]) == 2' 'd["params"]["size"] == [2, 4096]'
jcheck cli.csv 'len(d) == 2' '[r["size"] for r in d] == ["2", "4096"]' \
	'all(r["test"] == "send_lat" and float(r["lat_p50_us"]) > 0 and r["bw_avg_gbps"] == "" for r in d)'
expect_grep ok.cli.out 'size.*t_p50\[us\]'

expect_rc refuse.cli 1
expect_rc refuse.srv 1
expect_grep refuse.cli.err 'this server runs write_lat; client .* asked for send_lat'
expect_grep refuse.srv.err 'this server runs write_lat; client .* asked for send_lat'
expect_rc dry 0
jcheck dry.json 'd["dry_run"] is True' 'd["role"] == "client"' 'd["test"] == "send_lat"' \
	'd["local_address"] == "192.0.2.1"' 'd["device"]["found"] is True' \
	'd["device"]["name"] == "rxe0"' 'd["device"]["port"] == 1' \
	'd["device"]["gid_type"] == "RoCE v2"' 'd["device"]["gid"] == "::ffff:192.0.2.1"' \
	'd["device"]["active_mtu"] >= 256' '[p["size"] for p in d["points"]] == [2, 64]' \
	'all(p["iterations"] == 100 for p in d["points"])' 'd["placement"]["decided"] is True' \
	'd["memory"]["qps"] == 1' 'd["problems"] == []'
expect_grep dry.out 'rxe0 port 1 (Ethernet, active MTU [0-9]*), GID [0-9]* ::ffff:192.0.2.1 (RoCE v2)'
expect_rc drysrv 0
jcheck drysrv.json 'd["role"] == "server"' 'd["device"]["found"] is True' \
	'd["device"]["name"] == "rxe0"' 'd["points"] == []' 'd["device"]["note"].startswith("the GID shown")'
pass
