#!/bin/sh
# Scale past this machine's cores (issue 25), in a 40-vCPU guest of four
# hosts on one wire (rxe-lab --smp 40 --hosts 4):
# - write_bw --threads 40 (past the old limit of 32) from host 2 to a
#   plain "rdmabench server" on host 1, which serves each thread in a
#   process of its own: every thread measures, every point;
# - write_bw -d all: a rail on each of the guest's four devices (rxe0 to
#   rxe3, one per host), each its own thread and connection, to the same
#   server: every rail measures, named by its device.
# The server waits for a CONN up to 300 s: 40 threads set up at once
# under emulation take more than the default 30 s.
# Both wait for completions with --poll event and run with --cpu none: 80
# busy pollers on the two cores under the guest's 40 vCPUs would take the
# run's time, not its measure.  The figures are emulation's and are not
# checked, only that each thread and rail moved data.  A long test: run
# when RDMABENCH_LONG=1 (scripts/check --long).
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

if [ "${RDMABENCH_LONG:-0}" != 1 ]; then
	echo "SKIP: a long test (RDMABENCH_LONG=1 or scripts/check --long runs it)"
	exit 77
fi

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=4
# shellcheck disable=SC2034
LAB_SMP=40
# shellcheck disable=SC2034
LAB_MEM=2048
LAB_TIMEOUT=${LAB_TIMEOUT:-1500}

lab_run '
nproc >"$OUT/nproc"
ibv_devices | sed -n "s/^ *\(rxe[0-9]*\) .*/\1/p" | sort >"$OUT/devices"
"$RB" server --bind 192.0.2.1 --cpu none --timeout 300 --quiet >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
C="--cpu none --poll event --timeout 300"
solo t40 write_bw $C --threads 40 --bind 192.0.2.2 -s 64 -n 200 192.0.2.1 --json "$OUT/t40.json"
solo all write_bw $C -d all -s 4K -n 200 192.0.2.1 --json "$OUT/all.json"
stop_server $srv
'

[ "$(cat "$OUT/nproc")" = 40 ] || fail "the guest has $(cat "$OUT/nproc") CPUs, not 40"
expect_rc t40 0
jcheck t40.json 'd["params"]["threads"] == 40' \
	'all(len(r["threads"]) == 40 for r in d["results"])' \
	'all(t["bw_avg_gbps"] > 0 and t["iterations"] == 200 for r in d["results"] for t in r["threads"])'
expect_rc all 0
devs=$(tr '\n' ' ' <"$OUT/devices")
[ "$devs" = "rxe0 rxe1 rxe2 rxe3 " ] || fail "the guest's devices: $devs"
jcheck all.json 'd["params"]["threads"] == 4' \
	'all(sorted(t["rail"] for t in r["threads"]) == ["rxe0", "rxe1", "rxe2", "rxe3"] for r in d["results"])' \
	'all(t["bw_avg_gbps"] > 0 for r in d["results"] for t in r["threads"])'
expect_rc server 0
grep -h "^ *[0-9]" "$OUT/t40.out" "$OUT/all.out" >&2
pass
