#!/bin/sh
# --threads: two hosts on one wire (rxe-lab --hosts 2) in a 4-vCPU guest
# (--smp 4: node 0 has CPUs 0-1 and host 2's rxe1, node 1 has CPUs 2-3 and
# host 1's rxe0).  A plain "rdmabench server" on host 1 serves each thread
# in a process of its own; the client on host 2 runs 2 threads.  Each
# thread must measure (nonzero bandwidth, every point), the point's figures
# must be the threads' sum, and every thread of both sides must sit on a
# CPU of its own: the client's on node 0 (0 and 1), the server's processes
# on node 1 (2 and 3), keeping off the client's CPUs as they share the guest.
# Latency tests report per thread; threads that end a point more than
# --timeout apart complete the run; a one-shot test server refuses a run of
# threads; ^C ends every thread, and so does one thread's failure;
# --threads 0, more threads than CPUs and a --cpu list too short exit 2,
# unless the threads sleep (--poll event --cpu none: 5 threads on 4 CPUs
# run, with a warning);
# a server's --max-conns below the threads refuses the run, naming it.
# The run's setup (JSON "setup") is every thread's: 2 QPs a side, the
# longest create, connect and destroy; --probe with both threads on node
# 0 puts the probe's thread on node 1, said.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
# shellcheck disable=SC2034
LAB_SMP=4
LAB_TIMEOUT=${LAB_TIMEOUT:-600}

# Messages of one packet (the path MTU is 1024): messages of many packets
# from two QPs at once end in "remote invalid request" or "remote operation
# error" completions on rxe here now and then, as plain processes do (see
# README, "Testing a cluster").
lab_run '
C="--threads 2 --bind 192.0.2.2 --verify"
"$RB" server --bind 192.0.2.1 --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo wbw write_bw $C -s 256,1K -n 100 192.0.2.1 --json "$OUT/wbw.json" --csv "$OUT/wbw.csv"
solo sbw send_bw $C -s 256,1K -n 100 192.0.2.1 --json "$OUT/sbw.json"
solo thp write_bw $C --probe -s 256 -n 20000 192.0.2.1 --json "$OUT/thp.json"
solo slat send_lat $C -s 2,64 -n 50 192.0.2.1 --json "$OUT/slat.json" --csv "$OUT/slat.csv"
solo zero write_bw --threads 0 192.0.2.1
solo many write_bw --threads 5 192.0.2.1
solo sleepy write_bw --threads 5 --poll event --cpu none --bind 192.0.2.2 -s 256 -n 50 192.0.2.1 \
	--json "$OUT/sleepy.json"
solo shortcpu write_bw --threads 2 --cpu 0 192.0.2.1
# ^C in the middle of a sweep: every thread ends, finished points are kept.
# ^C once the first point is in the file: 7 points of -D 3 are still to come.
"$RB" write_bw --threads 2 --bind 192.0.2.2 -s 16,32,64,128,256,512,1K,2K -D 3 192.0.2.1 \
	--json "$OUT/intr.json" >"$OUT/intr.out" 2>"$OUT/intr.err" &
cli=$!
wait_grep "\"size\": 16," "$OUT/intr.json" 60
read -r t0 _ </proc/uptime
kill -INT $cli
wait $cli
echo $? >"$OUT/intr.rc"
read -r t1 _ </proc/uptime
echo "$t0 $t1" >"$OUT/intr.time"
# The server process of one thread killed in the middle of a -D 30 point: that
# thread fails, and the other ends its point at once, not 30 s later.
"$RB" write_bw --threads 2 --bind 192.0.2.2 -s 1K -D 30 --timeout 10 192.0.2.1 \
	>"$OUT/kill.out" 2>"$OUT/kill.err" &
cli=$!
_i=0
while [ "$(pgrep -c -P $srv)" -lt 2 ] && [ $_i -lt 300 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
sleep 3
read -r t0 _ </proc/uptime
kill -KILL "$(pgrep -P $srv | head -n 1)"
wait $cli
echo $? >"$OUT/kill.rc"
read -r t1 _ </proc/uptime
echo "$t0 $t1" >"$OUT/kill.time"
stop_server $srv
# A server of --max-conns 1 refuses a run of 2 threads: the client prints
# its message, which names the limit and the option.  More than 32 threads
# need more CPUs than this guest has: the plan of 40 (--dry-run) instead.
"$RB" server --bind 192.0.2.1 -p 18518 --max-conns 1 --quiet >"$OUT/maxc.srv.out" \
	2>"$OUT/maxc.srv.err" &
srv=$!
solo maxc write_bw --threads 2 --bind 192.0.2.2 -p 18518 -n 50 --timeout 10 192.0.2.1
stop_server $srv
solo dry40 write_bw --threads 40 --dry-run --format json --bind 192.0.2.2 192.0.2.1
# Threads that end each point far apart: the test hook paces thread 1 to 20
# messages a second (-n 160: 8 s a point, twice --timeout), thread 0 ends
# in a moment and waits for it; its server (--timeout 4 too) hears it alive.
"$RB" server --bind 192.0.2.1 -p 18517 --timeout 4 --quiet >"$OUT/apart.srv.out" \
	2>"$OUT/apart.srv.err" &
srv=$!
export RDMABENCH_HOOK_THREAD_PPS=1:20
solo apart write_bw --threads 2 --bind 192.0.2.2 -p 18517 -s 256,1K -n 160 --timeout 4 \
	192.0.2.1 --json "$OUT/apart.json"
unset RDMABENCH_HOOK_THREAD_PPS
kill -INT $srv
wait $srv
pair once "write_bw --bind 192.0.2.1 --quiet" "write_bw --threads 2 --bind 192.0.2.2 -n 50 --timeout 10 192.0.2.1"
'

# Two points, two threads each, every thread measured; the point is their sum.
for t in wbw sbw; do
	expect_rc $t 0
	jcheck $t.json 'd["params"]["threads"] == 2' 'd["complete"] is True' \
		'[r["size"] for r in d["results"]] == [256, 1024]' \
		'all(len(r["threads"]) == 2 for r in d["results"])' \
		'all([t["thread"] for t in r["threads"]] == [0, 1] for r in d["results"])' \
		'all(t["bw_avg_gbps"] > 0 and t["iterations"] == 100 for r in d["results"] for t in r["threads"])' \
		'all(abs(r["bw_avg_gbps"] - sum(t["bw_avg_gbps"] for t in r["threads"])) <= 2e-8 * r["bw_avg_gbps"] for r in d["results"])' \
		'all(abs(r["msg_rate_mpps"] - sum(t["msg_rate_mpps"] for t in r["threads"])) <= 2e-8 * r["msg_rate_mpps"] for r in d["results"])' \
		'all(r["iterations"] == 200 for r in d["results"])' \
		'all(sorted(t["placement"]["cpus"] for t in r["threads"]) == ["0", "1"] for r in d["results"])' \
		'all(sorted(t["peer_placement"]["cpus"] for t in r["threads"]) == ["2", "3"] for r in d["results"])' \
		'all(t["placement"]["local"] is True and t["peer_placement"]["local"] is True for r in d["results"] for t in r["threads"])' \
		'd["placement"]["cpus"] == "0-1"' 'd["peer_placement"]["cpus"] == "2-3"' \
		'd["placement"]["local"] is True' \
		'd["setup"]["qps"] == 2 and d["setup"]["peer"]["qps"] == 2' \
		'd["setup"]["create_ms"] > 0 and d["setup"]["connect_ms"] > 0' \
		'd["setup"]["destroy_ms"] is not None and d["setup"]["destroy_ms"] > 0'
done
# --probe beside two threads on node 0 (CPUs 0-1): node 1's CPU, said.
expect_rc thp 0
jcheck thp.json 'd["probe_placement"]["cpu"] in (2, 3)' 'd["probe_placement"]["other_node"] is True' \
	'd["probe_placement"]["shared_with_stream"] is False' \
	'all(r["idle_lat_us"]["samples"] > 0 and r["loaded_lat_us"]["samples"] > 0 for r in d["results"])'
expect_grep thp.err 'NUMA node 0 has no CPU besides the measuring threads'"'"' (0-1)'
expect_grep wbw.out 'thread$'
expect_grep wbw.out ' all$'
jcheck wbw.csv 'len(d) == 6' '[r["thread"] for r in d] == ["all", "0", "1"] * 2' \
	'[r["cpus"] for r in d] == ["0-1", "0", "1"] * 2' \
	'all(float(r["bw_avg_gbps"]) > 0 for r in d)'

# Latency: each thread its own percentiles; the point has none (they do not add).
expect_rc slat 0
jcheck slat.json 'd["params"]["threads"] == 2' '[r["size"] for r in d["results"]] == [2, 64]' \
	'all("lat_us" not in r and len(r["threads"]) == 2 for r in d["results"])' \
	'all(r["cpu_ns_per_msg"] > 0 for r in d["results"])' \
	'all(t["lat_us"]["p50"] > 0 and t["iterations"] == 50 for r in d["results"] for t in r["threads"])' \
	'all(sorted(t["placement"]["cpus"] for t in r["threads"]) == ["0", "1"] for r in d["results"])'
jcheck slat.csv '[r["thread"] for r in d] == ["all", "0", "1"] * 2' \
	'all(r["lat_p50_us"] == "" for r in d if r["thread"] == "all")' \
	'all(float(r["lat_p50_us"]) > 0 for r in d if r["thread"] != "all")'

expect_rc zero 2
expect_grep zero.err '\-\-threads 0 is out of range (1..1024)'
expect_rc many 2
expect_grep many.err '\-\-threads 5: this process may run on 4 CPU(s)'
expect_rc sleepy 0
expect_grep sleepy.err '\-\-threads 5 on 4 CPU(s): the threads sleep on completion events'
jcheck sleepy.json 'all(len(r["threads"]) == 5 for r in d["results"])' \
	'all(t["bw_avg_gbps"] > 0 for r in d["results"] for t in r["threads"])'
expect_rc shortcpu 2
expect_grep shortcpu.err '\-\-cpu 0: --threads 2 needs a CPU per thread'

expect_rc maxc 1
expect_grep maxc.err 'thread [01] of 2 failed: .*(rdmabench server --max-conns 1)'
expect_rc dry40 0
jcheck dry40.out 'len(d["placement"]["threads"]) == 40' \
	'"--threads 40: this process may run on 4 CPU(s); each thread busy-polls a CPU of its own (threads that sleep, --poll event --cpu none, may share them)" in d["problems"]'

# ^C: 130, and what every thread finished is kept; every thread ends well
# before a session would have waited out its --timeout (30 s) and torn down
# (in this emulated guest ^C-to-exit measured 4.8 to 19.4 s).
expect_rc intr 130
python3 - "$OUT" <<'PY' || fail "^C did not end the threads promptly"
import sys
t0, t1 = map(float, open(f"{sys.argv[1]}/intr.time").read().split())
print(f"^C to exit: {t1 - t0:.1f} s")
sys.exit(0 if t1 - t0 < 30 else 1)
PY
jcheck intr.json 'd["complete"] is False' 'd["reason"] == "interrupted"' \
	'1 <= len(d["results"]) < 8' 'all(len(r["threads"]) == 2 for r in d["results"])'

# A thread that fails ends the others mid-point (-D 30): the other thread
# notices at its next look at the clock, and the run exits 1 naming the
# failed one.
expect_rc kill 1
expect_grep kill.err 'thread [01] of 2 failed: '
python3 - "$OUT" <<'PY' || fail "the other thread ran its point out after one failed"
import sys
t0, t1 = map(float, open(f"{sys.argv[1]}/kill.time").read().split())
print(f"one thread's server killed to exit: {t1 - t0:.1f} s (the point was -D 30)")
sys.exit(0 if t1 - t0 < 20 else 1)
PY

# Threads more than --timeout apart at the end of each point: the run
# completes (it used to end, the early thread or its server giving up).
expect_rc apart 0
jcheck apart.json 'd["complete"] is True' '[r["size"] for r in d["results"]] == [256, 1024]' \
	'all(t["iterations"] == 160 for r in d["results"] for t in r["threads"])' \
	'all(r["threads"][1]["duration_s"] - r["threads"][0]["duration_s"] > 4 for r in d["results"])'
if grep -q "is it alive\|within\|did not reach" "$OUT/apart.srv.err"; then
	fail "apart: the server gave up on a thread: $(cat "$OUT/apart.srv.err")"
fi

# A one-shot test server serves one connection: the run fails, naming it.
expect_grep once.cli.err 'thread [01] of 2 failed: .*serves one connection.*rdmabench server'
[ "$(cat "$OUT/once.cli.rc")" != 0 ] || fail "a run of threads against a one-shot server passed"
pass
