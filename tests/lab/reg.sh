#!/bin/sh
# rdmabench reg in the Soft-RoCE lab (one host, rxe0): three sizes with and
# without --hugepages (and --unaligned), --odp explicit and implicit (rxe on
# the lab's kernel may have no on-demand paging: n/a points with the
# reason, exit 0, or figures), then RLIMIT_MEMLOCK at 64 KiB: reg of 16 MiB
# exits 1 with the memlock message, and so does a send_lat client (the
# message comes from rb_mr_reg(), which every test registers through).
# The guest runs as root, whose CAP_IPC_LOCK ignores RLIMIT_MEMLOCK: the
# low-limit runs drop that capability (setpriv).  Then write_bw at 64 B
# with --reg-mode pool and per-msg, alternated twice against one server:
# registering each message is slower and costs more CPU per message; per-msg
# with -Q 4 --cqe-poll 2 (write_bw) and -o 4 (read_bw: -Q clamped to 4).
# --reg-mode cache (issue 42) against the same server: 256 buffers, zipf:0.99
# reuse, caches of 8, 32 and 128 entries: the hit rate rises with the size,
# the figures agree with each other, and at 128 entries the message rate
# lies between per-msg's and pool's.  reg --regions (issue 42): 64
# regions of 64 KiB against one of 4 MiB, registration and the loopback
# stream, and its refusal under RLIMIT_MEMLOCK.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

lab_run '
S=4K,1M,16M
echo 64 >/proc/sys/vm/nr_hugepages
solo plain reg -d rxe0 -s $S -n 20 --json "$OUT/plain.json" --csv "$OUT/plain.csv"
solo huge reg -d rxe0 -s $S -n 20 --hugepages --unaligned --json "$OUT/huge.json"
solo odp reg -d rxe0 -s 4K,1M -n 10 --odp --prefetch --json "$OUT/odp.json"
solo implicit reg -d rxe0 -s 4K,1M -n 10 --odp-mode implicit --json "$OUT/implicit.json"
echo 0 >/proc/sys/vm/nr_hugepages

# lowcap NAME ARGS: solo under a 64 KiB RLIMIT_MEMLOCK, without CAP_IPC_LOCK.
lowcap() {
	_n=$1
	shift
	(ulimit -l 64 && exec setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock \
		"$RB" "$@") >"$OUT/$_n.out" 2>"$OUT/$_n.err"
	echo $? >"$OUT/$_n.rc"
}
lowcap lowreg reg -d rxe0 -s 16M -n 2 --json "$OUT/lowreg.json"
# --regions (issue 42): 64 regions of 64 KiB against one of 4 MiB, then
# the loopback stream through each; refused under a 64 KiB limit.
date +%s.%N >"$OUT/rgn.t0"
solo regions reg -d rxe0 --regions 64 -s 64K -n 5 -t 32 --json "$OUT/regions.json" \
	--csv "$OUT/regions.csv"
date +%s.%N >"$OUT/rgn.t1"
lowcap lowrgn reg -d rxe0 --regions 64 -s 64K -n 1 --json "$OUT/lowrgn.json"
"$RB" server --bind 192.0.2.1 --cpu none --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
lowcap lowlat send_lat -s 1M -n 10 --cpu none 192.0.2.1
for i in 1 2; do
	for m in pool per-msg; do
		solo $m$i write_bw -s 64 -n 2000 --cpu none --verify --reg-mode $m 192.0.2.1 \
			--json "$OUT/$m$i.json"
	done
done
# per-msg honours -Q and --cqe-poll (issue 37 item 7); read_bw -o 4 keeps
# -t queued there too and runs -Q 64 as asked (issue 40; issue 37 item 6
# clamped it to the 4 reads in flight).
solo pmq write_bw -s 64 -n 500 -t 16 -Q 4 --cqe-poll 2 --cpu none --verify --reg-mode per-msg \
	192.0.2.1 --json "$OUT/pmq.json"
solo pmr read_bw -s 64 -n 500 -o 4 --cpu none --verify --reg-mode per-msg 192.0.2.1 \
	--json "$OUT/pmr.json"
date +%s.%N >"$OUT/cache.t0"
for n in 8 32 128; do
	solo cache$n write_bw -s 64 -n 2000 --cpu none --reg-mode cache --reg-cache $n \
		--buffers 256 --reuse zipf:0.99 192.0.2.1 --json "$OUT/cache$n.json"
done
date +%s.%N >"$OUT/cache.t1"
stop_server $srv
'

expect_rc plain 0
expect_rc huge 0
for j in plain huge; do
	jcheck $j.json 'd["test"] == "reg"' 'd["schema_version"] == 1' 'd["complete"] is True' \
		'd["device"] == "rxe0"' '[r["size"] for r in d["results"]] == [4096, 1048576, 16777216]' \
		'all(r["status"] == "ok" and r["iterations"] == 20 for r in d["results"])' \
		'all(0 < r["reg_us"]["p50"] <= r["reg_us"]["p99"] for r in d["results"])' \
		'all(0 < r["dereg_us"]["p50"] <= r["dereg_us"]["p99"] for r in d["results"])' \
		'all(r["reg_ms_per_gib"] > 0 and r["reg_pages_per_s"] > 0 for r in d["results"])'
	echo "$j: $(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print("; ".join("%d B: reg p50 %.1f us p99 %.1f us, dereg p50 %.1f us, %.4g ms/GiB, %.4g pages/s" % (
    r["size"], r["reg_us"]["p50"], r["reg_us"]["p99"], r["dereg_us"]["p50"],
    r["reg_ms_per_gib"], r["reg_pages_per_s"]) for r in d["results"]))' "$OUT/$j.json")"
done
jcheck plain.json 'd["params"]["page_size"] == 4096' '[r["pages"] for r in d["results"]] == [1, 256, 4096]'
jcheck huge.json 'd["params"]["page_size"] == 2097152' 'd["params"]["unaligned"] is True' \
	'[r["pages"] for r in d["results"]] == [1, 1, 9]' 'all(r["offset"] == 64 for r in d["results"])'
jcheck plain.csv 'len(d) == 3' 'all(float(r["reg_p50_us"]) > 0 and r["status"] == "ok" for r in d)'
expect_grep plain.out 'reg_p50\[us\]'
expect_grep plain.out 'RLIMIT_MEMLOCK'

# On-demand paging: figures, or every point n/a with the reason; exit 0 either way.
expect_rc odp 0
expect_rc implicit 0
for j in odp implicit; do
	echo "$j: $(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(d.get("odp_na") or ", ".join("%s %s" % (r["size"], r["status"]) for r in d["results"]))' "$OUT/$j.json")"
	jcheck $j.json 'len(d["results"]) == 2' \
		'all(r["status"] == "n/a" and r["reason"] == d["odp_na"] for r in d["results"]) if "odp_na" in d else all(r["status"] == "ok" for r in d["results"])'
done

# RLIMIT_MEMLOCK at 64 KiB: the limit, the bytes asked and the fix.
expect_rc lowreg 1
expect_grep lowreg.err 'ibv_reg_mr(16777216 bytes): Cannot allocate memory'
expect_grep lowreg.err 'RLIMIT_MEMLOCK allows this process 65536 bytes (64 KiB)'
expect_grep lowreg.err '16777216 bytes asked'
expect_grep lowreg.err 'ulimit -l unlimited'
expect_grep lowreg.err 'LimitMEMLOCK=infinity'
jcheck lowreg.json 'd["complete"] is False' 'd["memlock_limit_bytes"] == 65536' \
	'd["results"][0]["status"] == "failed"' '"RLIMIT_MEMLOCK" in d["reason"]'
# --regions: both registrations timed each round, both streams measured
# over their WRs, the figures consistent (WRs over the interval = the
# rate) to the JSON's 9 significant digits; under a 64 KiB limit refused
# before registering, naming it.
expect_rc regions 0
jcheck regions.json 'd["complete"] is True' 'd["params"]["regions"] == 64' \
	'd["params"]["tx_depth"] == 32' 'd["params"]["size"] == [65536]' \
	'd["results"][0]["status"] == "ok"' 'd["results"][0]["pages"] == 1024' \
	'd["results"][0]["regions"]["n"] == 64' 'd["results"][0]["regions"]["rounds"] == 5' \
	'd["results"][0]["regions"]["msg_bytes"] == 64' \
	'all(0 < d["results"][0]["regions"][k]["p50"] for k in ("reg_us", "dereg_us", "one_reg_us", "one_dereg_us"))' \
	'abs(d["results"][0]["regions"]["reg_per_region_us"] * 64 - d["results"][0]["regions"]["reg_us"]["p50"]) <= 1e-7 * d["results"][0]["regions"]["reg_us"]["p50"]' \
	'all(d["results"][0]["regions"][k]["wrs"] == 320 for k in ("stream_regions", "stream_one"))' \
	'all(abs(s["wrs"] / s["duration_s"] / 1e6 - s["msg_rate_mpps"]) < 1e-6 * s["msg_rate_mpps"] for s in (d["results"][0]["regions"]["stream_regions"], d["results"][0]["regions"]["stream_one"]))' \
	'"reg_us" not in d["results"][0]'
jcheck regions.csv 'len(d) == 1' 'd[0]["regions"] == "64"' 'float(d[0]["rgn_n_mpps"]) > 0' \
	'float(d[0]["rgn_one_mpps"]) > 0' 'd[0]["rgn_wrs"] == "320"'
expect_grep regions.out 'N\[Mpps\]'
python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["results"][0]["regions"]
print("reg --regions 64 x 64 KiB (emulation): register all 64 p50 %.1f us (%.2f us a region), one 4 MiB region %.1f us; deregister %.1f us vs %.1f us; stream %.4g Mpps through 64 regions, %.4g Mpps through one" % (
    g["reg_us"]["p50"], g["reg_per_region_us"], g["one_reg_us"]["p50"], g["dereg_us"]["p50"],
    g["one_dereg_us"]["p50"], g["stream_regions"]["msg_rate_mpps"], g["stream_one"]["msg_rate_mpps"]))
t = [float(open(f).read()) for f in sys.argv[2:]]
print("reg --regions took %.1f s in the guest" % (t[1] - t[0]))' "$OUT/regions.json" "$OUT/rgn.t0" "$OUT/rgn.t1"
expect_rc lowrgn 1
expect_grep lowrgn.err '--regions 64 x -s 65536: 4194304 bytes pinned at once, over RLIMIT_MEMLOCK 65536 bytes (64 KiB)'
expect_grep lowrgn.err 'ulimit -l unlimited'
jcheck lowrgn.json 'd["complete"] is False' 'd["results"] == []' '"RLIMIT_MEMLOCK" in d["reason"]'
# A test's buffers over the limit: refused before anything is made, with
# the same explanation (exit 1: the host's limit, not the plan's).
expect_rc lowlat 1
expect_grep lowlat.err 'would pin .* bytes on rxe0, over RLIMIT_MEMLOCK 65536 bytes (64 KiB); registering pins the memory'
expect_grep lowlat.err 'ulimit -l unlimited'
expect_grep lowlat.err 'LimitMEMLOCK=infinity'
expect_rc pmq 0
expect_rc pmr 0
jcheck pmq.json 'd["params"]["reg_mode"] == "per-msg"' 'd["results"][0]["iterations"] == 500' \
	'd["results"][0]["signal"] == 4' 'd["results"][0]["cqe_poll"] == 2' \
	'd["results"][0]["bw_avg_gbps"] > 0'
jcheck pmr.json 'd["params"]["reg_mode"] == "per-msg"' 'd["results"][0]["iterations"] == 500' \
	'd["results"][0]["signal"] == 64' '"signal_ran" not in d["results"][0]'
# --reg-mode per-msg against pool, alternated: slower, dearer in CPU.
for i in 1 2; do
	expect_rc pool$i 0
	expect_rc per-msg$i 0
	jcheck per-msg$i.json 'd["params"]["reg_mode"] == "per-msg"' 'd["results"][0]["iterations"] == 2000'
	jcheck pool$i.json 'd["params"]["reg_mode"] == "pool"'
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["results"][0]
m = json.load(open(sys.argv[2]))["results"][0]
print("reg-mode pool: %.4g Mpps, %.0f ns CPU/msg; per-msg: %.4g Mpps, %.0f ns CPU/msg" % (
    p["msg_rate_mpps"], p["cpu_ns_per_msg"], m["msg_rate_mpps"], m["cpu_ns_per_msg"]))
sys.exit(0 if m["msg_rate_mpps"] < p["msg_rate_mpps"] and m["cpu_ns_per_msg"] > p["cpu_ns_per_msg"] else 1)' \
		"$OUT/pool$i.json" "$OUT/per-msg$i.json" || fail "--reg-mode per-msg was not slower than pool (round $i)"
done
# --reg-mode cache: each point's own figures agree (registrations per
# second x duration = the misses the hit rate leaves, deregistrations at
# most the registrations, less by at least the entries the cache filled
# with no eviction up to its size); the hit rate rises with the size.
for n in 8 32 128; do
	expect_rc cache$n 0
	jcheck cache$n.json 'd["params"]["reg_mode"] == "cache"' "d[\"params\"][\"reg_cache\"] == $n" \
		'd["params"]["buffers"] == 256' 'd["params"]["reuse"] == "zipf:0.99"' \
		'd["results"][0]["iterations"] == 2000' \
		'0 < d["results"][0]["rcache_hit_pct"] < 100' \
		'abs(d["results"][0]["regs_per_s"] * d["results"][0]["duration_s"] - 2000 * (100 - d["results"][0]["rcache_hit_pct"]) / 100) < 0.01' \
		'0 <= d["results"][0]["deregs_per_s"] <= d["results"][0]["regs_per_s"]'
done
python3 -c 'import json, sys
r = [json.load(open(f))["results"][0] for f in sys.argv[1:]]
for n, x in zip((8, 32, 128), r[:3]):
    print("reg-mode cache %3d of 256, zipf:0.99: hit %.1f%%, %.4g regs/s, %.4g deregs/s, %.4g Mpps, %.0f ns CPU/msg" % (
        n, x["rcache_hit_pct"], x["regs_per_s"], x["deregs_per_s"], x["msg_rate_mpps"], x["cpu_ns_per_msg"]))
h = [x["rcache_hit_pct"] for x in r[:3]]
sys.exit(0 if h[0] < h[1] < h[2] else 1)' "$OUT/cache8.json" "$OUT/cache32.json" "$OUT/cache128.json" ||
	fail "--reg-mode cache: the hit rate did not rise with the cache size (8, 32, 128)"
python3 -c 'import json, sys
r = [json.load(open(f))["results"][0]["msg_rate_mpps"] for f in sys.argv[1:]]
print("msg rate: per-msg %.4g (the faster of two), cache 128 %.4g, pool %.4g Mpps (the slower of two)" % (
    max(r[0], r[1]), r[4], min(r[2], r[3])))
sys.exit(0 if max(r[0], r[1]) < r[4] < min(r[2], r[3]) else 1)' "$OUT/per-msg1.json" \
	"$OUT/per-msg2.json" "$OUT/pool1.json" "$OUT/pool2.json" "$OUT/cache128.json" ||
	fail "--reg-mode cache at 128 entries: its message rate is not between per-msg's and pool's"
echo "reg-mode cache: the three runs took $(python3 -c 'import sys
print("%.1f s" % (float(open(sys.argv[2]).read()) - float(open(sys.argv[1]).read())))' "$OUT/cache.t0" "$OUT/cache.t1") in the guest"
pass
