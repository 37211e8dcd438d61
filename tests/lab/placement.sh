#!/bin/sh
# Placement in the lab's 2-node guest, whose NIC (and so rxe0) sits on NUMA
# node 1 with CPU 1: rdmabench topo finds it, --cpu auto pins there on both
# sides, and --cpu 0 is recorded as remote with a warning naming both nodes.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# The client auto-pins to CPU 1 (the only CPU of node 1); the server learns
# from the HELLO that the client shares its host and takes the other core,
# CPU 0 on node 0, with a warning.  Then the default against a placement
# pinned by hand (taskset): the p50 of the default must stay within 1.5x.
lab_run '
solo topo topo
solo topojson topo --json "$OUT/topo.json"
solo nodev topo -d nosuch
pair auto "send_lat --quiet" "send_lat -n 20 --warmup 5 192.0.2.1 --json $OUT/auto.json --csv $OUT/auto.csv"
pair remote "send_lat --quiet --cpu none" "send_lat -n 20 --warmup 5 --cpu 0 192.0.2.1 --json $OUT/remote.json"
solo badcpu send_lat --cpu 7 -n 5 --timeout 2 192.0.2.1
for k in 1 2; do
	pair default$k "send_lat --quiet" "send_lat -n 2000 192.0.2.1 --json $OUT/default$k.json"
	taskset -c 0 "$RB" send_lat --quiet >"$OUT/pinned$k.srv.out" 2>"$OUT/pinned$k.srv.err" &
	srv=$!
	taskset -c 1 "$RB" send_lat -n 2000 192.0.2.1 --json "$OUT/pinned$k.json" \
		>"$OUT/pinned$k.cli.out" 2>"$OUT/pinned$k.cli.err"
	echo $? >"$OUT/pinned$k.cli.rc"
	wait $srv
	echo $? >"$OUT/pinned$k.srv.rc"
done
'

expect_rc topo 0
expect_grep topo.out '^rxe0: '
expect_grep topo.out 'netdev eth0, PCI 0000:81:00.0, NUMA node 1, local CPUs 1$'
expect_grep topo.out 'ACTIVE'
expect_grep topo.out 'RoCE v2 *::ffff:192.0.2.1'
jcheck topo.json 'd["schema_version"] == 1' 'len(d["devices"]) == 1' \
	'd["devices"][0]["name"] == "rxe0"' 'd["devices"][0]["netdev"] == "eth0"' \
	'd["devices"][0]["pci"] == "0000:81:00.0"' 'd["devices"][0]["numa_node"] == 1' \
	'd["devices"][0]["local_cpus"] == "1"' \
	'd["devices"][0]["ports"][0]["state"] == "ACTIVE"' \
	'any(g["type"] == "RoCE v2" and g["address"] == "::ffff:192.0.2.1" for g in d["devices"][0]["ports"][0]["gids"])' \
	'd["devices"][0]["pcie"]["max_link_width"] >= 1' \
	'len(d["devices"][0]["irqs"]) >= 1' 'all(q["irq"] > 0 for q in d["devices"][0]["irqs"])' \
	'd["devices"][0]["governors"] is None'
expect_grep topo.out '^  IRQs: [0-9]* MSI (IRQ -> CPUs: '
expect_grep topo.out '^  CPU governor of the local CPUs: none (no cpufreq, or a VM)'
expect_rc nodev 1
expect_grep nodev.err 'nosuch'

expect_rc auto.cli 0
expect_rc auto.srv 0
jcheck auto.json 'd["placement"] == {"device_numa_node": 1, "cpus": "1", "mem_node": 1, "local": True, "freq_cpu": 1, "cpu_governor": None, "cpu_mhz": None}' \
	'd["peer_placement"] == {"device_numa_node": 1, "cpus": "0", "mem_node": 1, "local": False, "freq_cpu": 0, "cpu_governor": None, "cpu_mhz": None}'
jcheck auto.csv 'all(r["device_numa_node"] == "1" and r["cpus"] == "1" and r["mem_node"] == "1" and r["local"] == "true" for r in d)'
expect_grep auto.cli.out '^# placement: .*node 1.*local'

expect_rc remote.cli 0
jcheck remote.json 'd["placement"]["cpus"] == "0"' 'd["placement"]["local"] is False' \
	'd["placement"]["device_numa_node"] == 1'
expect_grep remote.cli.err 'warning: remote placement: rxe0 is on NUMA node 1, but CPU 0 is on node 0'

expect_grep auto.srv.err 'warning: remote placement: rxe0 is on NUMA node 1, but CPU 0 is on node 0 (its cores are taken by the peer on this host)'

expect_rc badcpu 2
expect_grep badcpu.err 'cpu 7'

# One host, default placement: no longer both busy-pollers on one core.
for k in 1 2; do
	for m in default pinned; do
		expect_rc $m$k.cli 0
		expect_rc $m$k.srv 0
	done
	jcheck default$k.json 'd["placement"]["cpus"] != d["peer_placement"]["cpus"]'
	jcheck pinned$k.json 'd["placement"]["cpus"] == "1"' 'd["peer_placement"]["cpus"] == "0"'
done
python3 - "$OUT" <<'PY' || fail "default placement is slower than pinned by hand"
import json, statistics, sys
p50 = lambda f: json.load(open(f"{sys.argv[1]}/{f}.json"))["results"][0]["lat_us"]["p50"]
d = statistics.median([p50("default1"), p50("default2")])
p = statistics.median([p50("pinned1"), p50("pinned2")])
print(f"one host: default p50 {d:.2f} us, pinned by hand {p:.2f} us, ratio {d / p:.2f}")
sys.exit(0 if d <= 1.5 * p else 1)
PY
pass
