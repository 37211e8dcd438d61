#!/bin/sh
# The same ruler for both tools: send_lat and read_lat 2 B, rdmabench and
# perftest alternating, both sides under rtt.so; same placement as
# scripts/bench-perftest.  Run in the lab from the top of the tree:
#   gcc -O2 -fPIC -shared -o /tmp/rtt.so bench-results/perftest/rtt/rtt.c -ldl
#   cp build/src/rdmabench /tmp/rdmabench
#   scripts/rxe-lab -- bench-results/perftest/rtt/run.sh /tmp/rtt.so /tmp/rdmabench OUTDIR
SO=$1 RB=$2 D=$3 REPS=${4:-5}
mkdir -p "$D"
port=24100
rep=1
while [ $rep -le "$REPS" ]; do
	for t in send_lat read_lat; do
		for tool in rdmabench perftest; do
			port=$((port + 1))
			s=$D/$t.$tool.$rep
			inl="-I 0" # as bench-perftest: reads take no inline size
			[ $t != read_lat ] || inl=
			if [ $tool = rdmabench ]; then
				srv="$RB $t -d rxe0 -x 1 -p $port --cpu auto --quiet"
				cli="$RB $t -d rxe0 -x 1 -p $port -s 2 -n 4096 $inl --cpu auto 192.0.2.1"
			else
				srv="ib_$t -d rxe0 -x 1 -p $port -s 2 -n 4096 $inl -F"
				cli="$srv 192.0.2.1"
			fi
			# shellcheck disable=SC2086 # the command lines split into words
			RTT_OUT=$s.srv LD_PRELOAD=$SO taskset -c 0 timeout 120 $srv >/dev/null 2>&1 &
			sleep 1
			# shellcheck disable=SC2086
			RTT_OUT=$s.cli LD_PRELOAD=$SO taskset -c 1 timeout 120 $cli >"$s.out" 2>&1
			wait
		done
	done
	rep=$((rep + 1))
done
