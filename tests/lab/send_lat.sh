#!/bin/sh
# send_lat end to end in the Soft-RoCE lab: two sizes with every output,
# and a one-shot server that refuses a client asking for another test.
# --post-api: send_lat, write_bw and read_lat with --verify through
# ibv_wr_* on one side and ibv_post_send on the other; relaxed ordering
# on by default, off for write_lat and with --disable-pcie-relaxed.
# shellcheck source=tests/lab/lib.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib.sh"

lab_run '
pair ok "send_lat --cpu none --quiet --json $OUT/srv.json" \
	"send_lat -s 2,4096 -n 300 --cpu none 192.0.2.1 --json $OUT/cli.json --csv $OUT/cli.csv"
pair refuse "write_lat --cpu none --quiet" "send_lat -n 10 --cpu none 192.0.2.1"
pair wrsend "send_lat --cpu none --quiet --post-api post --json $OUT/wrsend.srv.json" \
	"send_lat -s 2,300 -n 200 --verify --post-api wr --cpu none 192.0.2.1 --json $OUT/wrsend.cli.json"
pair wrwrite "write_bw --cpu none --quiet --use_old_post_send --json $OUT/wrwrite.srv.json" \
	"write_bw -s 4096 -n 400 -l 4 -Q 2 --verify --post-api wr --cpu none 192.0.2.1 --json $OUT/wrwrite.cli.json"
pair wrread "read_lat --cpu none --quiet --post-api wr --json $OUT/wrread.srv.json" \
	"read_lat -n 200 --verify --post-api=wr --disable_pcie_relaxed --cpu none 192.0.2.1 --json $OUT/wrread.cli.json"
pair post "write_lat --cpu none --quiet --json $OUT/post.srv.json" \
	"write_lat -n 200 --verify --post-api post --cpu none 192.0.2.1 --json $OUT/post.cli.json"
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

for c in wrsend wrwrite wrread post; do
	expect_rc $c.cli 0
	expect_rc $c.srv 0
done
jcheck wrsend.cli.json 'd["device"]["post_api"] == "wr"' 'd["params"]["verify"]' \
	'd["device"]["relaxed_ordering"] is True' 'len(d["results"]) == 2'
jcheck wrsend.srv.json 'd["device"]["post_api"] == "post"' 'len(d["results"]) == 2'
jcheck wrwrite.cli.json 'd["device"]["post_api"] == "wr"' 'd["results"][0]["iterations"] == 400' \
	'd["results"][0]["bw_avg_gbps"] > 0'
jcheck wrwrite.srv.json 'd["device"]["post_api"] == "post"' 'd["device"]["relaxed_ordering"] is True'
jcheck wrread.cli.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is False' \
	'"--disable-pcie-relaxed" in d["device"]["why_relaxed_ordering"]'
jcheck wrread.srv.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is True'
jcheck post.cli.json 'd["device"]["post_api"] == "post"' 'd["device"]["relaxed_ordering"] is False' \
	'"polls its buffer" in d["device"]["why_relaxed_ordering"]'
jcheck post.srv.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is False'
pass
