#!/bin/sh
# send_lat end to end in the Soft-RoCE lab: two sizes with every output,
# and a one-shot server that refuses a client asking for another test;
# perftest's -H, -U (--samples) and -C: every sample in measurement order,
# a histogram that counts them all, and the figures in ticks.
# --post-api: send_lat, write_bw and read_lat with --verify through
# ibv_wr_* on one side and ibv_post_send on the other; relaxed ordering
# asked for by default (rxe ignores it: honoured false), not for write_lat
# and with --disable-pcie-relaxed; and
# --dry-run resolving rxe0 and the GID of 192.0.2.1 without a server there.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

lab_run '
pair ok "send_lat --cpu none --quiet --json $OUT/srv.json" \
	"send_lat -s 2,4096 -n 300 --cpu none 192.0.2.1 --json $OUT/cli.json --csv $OUT/cli.csv"
pair refuse "write_lat --cpu none --quiet" "send_lat -n 10 --cpu none 192.0.2.1"
pair hist "send_lat --cpu none --quiet" \
	"send_lat -s 2,64 -n 200 --cpu none -H -U --samples $OUT/s.csv --interval 0.1 --json $OUT/h.json 192.0.2.1"
pair ticks "send_lat --cpu none --quiet" \
	"send_lat -s 2 -n 100 --cpu none -H -C --samples $OUT/t.csv --json $OUT/t.json 192.0.2.1"
pair wrsend "send_lat --cpu none --quiet --post-api post --json $OUT/wrsend.srv.json" \
	"send_lat -s 2,300 -n 200 --verify --post-api wr --cpu none 192.0.2.1 --json $OUT/wrsend.cli.json"
pair wrwrite "write_bw --cpu none --quiet --use_old_post_send --json $OUT/wrwrite.srv.json" \
	"write_bw -s 4096 -n 400 -l 4 -Q 2 --verify --post-api wr --cpu none 192.0.2.1 --json $OUT/wrwrite.cli.json"
pair wrread "read_lat --cpu none --quiet --post-api wr --json $OUT/wrread.srv.json" \
	"read_lat -n 200 --verify --post-api=wr --disable_pcie_relaxed --cpu none 192.0.2.1 --json $OUT/wrread.cli.json"
pair post "write_lat --cpu none --quiet --json $OUT/post.srv.json" \
	"write_lat -n 200 --verify --post-api post --cpu none 192.0.2.1 --json $OUT/post.cli.json"
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

# -H -U --samples --interval: the rows are the samples in the order measured
# (the interval's summary sorts a copy), the histogram counts each of them.
expect_rc hist.cli 0
expect_rc hist.srv 0
jcheck h.json 'd["samples_file"].endswith("/s.csv")' 'len(d["results"]) == 2' \
	'all(sum(r["histogram"]["counts"]) == r["iterations"] == 200 for r in d["results"])' \
	'all(len(r["histogram"]["edges_us"]) == len(r["histogram"]["counts"]) + 1 <= 22 for r in d["results"])' \
	'all(abs(r["histogram"]["edges_us"][0] - r["lat_us"]["min"]) < 1e-9 for r in d["results"])' \
	'all(r["histogram"]["edges_us"][-1] > r["lat_us"]["max"] for r in d["results"])' \
	'all("lat_ticks" not in r for r in d["results"])'
jcheck s.csv 'len(d) == 400' \
	'list(d[0]) == ["test", "op", "size", "batch", "signal", "qps", "tx_depth", "iteration", "lat_us"]' \
	'[r["iteration"] for r in d] == [str(i) for i in range(1, 201)] * 2' \
	'[r["size"] for r in d] == ["2"] * 200 + ["64"] * 200'
python3 - "$OUT" <<'EOF' || fail "the samples do not match the JSON's figures"
import csv, json, sys
out = sys.argv[1]
doc = json.load(open(out + "/h.json"))
rows = list(csv.DictReader(open(out + "/s.csv")))
for r in doc["results"]:
    v = [float(x["lat_us"]) for x in rows if x["size"] == str(r["size"])]
    lat = r["lat_us"]
    assert abs(min(v) - lat["min"]) < 1e-4 and abs(max(v) - lat["max"]) < 1e-4, (min(v), max(v), lat)
    assert abs(sum(v) / len(v) - lat["avg"]) < 1e-3, (sum(v) / len(v), lat)
    assert v != sorted(v), "the samples are the sorted copy"
    e, c = r["histogram"]["edges_us"], r["histogram"]["counts"]
    got = [sum(1 for x in v if e[i] - 1e-4 <= x < e[i + 1] - 1e-4) for i in range(len(c))]
    assert sum(abs(a - b) for a, b in zip(got, c)) <= 4, (got, c)
EOF
expect_grep hist.cli.out '# samples: every latency sample, in measurement order, in .*/s.csv'
expect_grep hist.cli.out '# histogram \[us\]: [0-9]* buckets from the minimum to p99.9'
expect_grep hist.cli.out '  # *[0-9.]* - *[0-9.]* *[0-9]* #'

# -C: the table in ticks, the JSON both, the samples with their ticks.
expect_rc ticks.cli 0
jcheck t.json 'd["tick_clock"] in ("tsc", "cntvct", "ns")' \
	'all(r["ticks_per_us"] > 0 for r in d["results"])' \
	'all(abs(r["lat_ticks"]["p50"] / r["ticks_per_us"] - r["lat_us"]["p50"]) <= 1e-6 * r["lat_us"]["p50"] + 1e-9 for r in d["results"])' \
	'all(len(r["histogram"]["edges_ticks"]) == len(r["histogram"]["edges_us"]) for r in d["results"])'
jcheck t.csv 'len(d) == 100' 'all(float(r["lat_ticks"]) > 0 and float(r["lat_us"]) > 0 for r in d)'
expect_grep ticks.cli.out 't_p50\[ticks\]'
expect_grep ticks.cli.out '# histogram \[ticks\]'

expect_rc refuse.cli 1
expect_rc refuse.srv 1
expect_grep refuse.cli.err 'this server runs write_lat; client .* asked for send_lat'
expect_grep refuse.srv.err 'this server runs write_lat; client .* asked for send_lat'

for c in wrsend wrwrite wrread post; do
	expect_rc $c.cli 0
	expect_rc $c.srv 0
done
jcheck wrsend.cli.json 'd["device"]["post_api"] == "wr"' 'd["params"]["verify"]' \
	'd["device"]["relaxed_ordering"] is True' 'len(d["results"]) == 2' \
	'd["device"]["relaxed_ordering_honoured"] is False' \
	'"ignored: a software device" in d["device"]["why_relaxed_ordering"]'
jcheck wrsend.srv.json 'd["device"]["post_api"] == "post"' 'len(d["results"]) == 2'
jcheck wrwrite.cli.json 'd["device"]["post_api"] == "wr"' 'd["results"][0]["iterations"] == 400' \
	'd["results"][0]["bw_avg_gbps"] > 0'
jcheck wrwrite.srv.json 'd["device"]["post_api"] == "post"' 'd["device"]["relaxed_ordering"] is True'
jcheck wrread.cli.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is False' \
	'"--disable-pcie-relaxed" in d["device"]["why_relaxed_ordering"]' \
	'd["device"]["relaxed_ordering_honoured"] is False'
jcheck wrread.srv.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is True'
jcheck post.cli.json 'd["device"]["post_api"] == "post"' 'd["device"]["relaxed_ordering"] is False' \
	'"polls its buffer" in d["device"]["why_relaxed_ordering"]'
jcheck post.srv.json 'd["device"]["post_api"] == "wr"' 'd["device"]["relaxed_ordering"] is False'
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
