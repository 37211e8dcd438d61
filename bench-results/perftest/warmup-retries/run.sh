#!/bin/sh
# rdmabench's write_bw size sweep with the default warm-up and with none,
# alternating, twice each, in one lab boot: its transport retries (the
# device's completer_retry_err, in each point's counters in the JSON).
# From the top of the tree:
#   scripts/rxe-lab --timeout 1200 -- sh bench-results/perftest/warmup-retries/run.sh
RB=$PWD/build/src/rdmabench
O=$PWD/bench-results/perftest/warmup-retries
p=18900
for rep in 1 2; do
	for wu in auto 0; do
		p=$((p + 1))
		taskset -c 0 "$RB" write_bw -d rxe0 -i 1 -x 1 -p $p --cpu auto --quiet >/dev/null 2>&1 &
		sleep 1
		taskset -c 1 timeout 900 "$RB" write_bw -d rxe0 -i 1 -x 1 -p $p -a -n 64 -t 128 -Q 16 -l 16 \
			-I 0 --warmup $wu --cpu auto --quiet --json "$O/wu-$wu-r$rep.json" 192.0.2.1 \
			>/dev/null 2>"$O/wu-$wu-r$rep.err"
		wait
	done
done
