#!/bin/sh
# read_bw -o 16 -t 128 with the read queue capped at -o (before issue 40)
# and with -t queued (after), alternated in one boot of the Soft-RoCE lab:
#   flock /tmp/rdmabench-lab.lock scripts/rxe-lab -- \
#     bench-results/rd-inflight/run.sh BEFORE AFTER OUTDIR [REPS]
# BEFORE and AFTER are rdmabench binaries (the server is AFTER's: it only
# lends its memory); each run's JSON goes to OUTDIR/{before,after}-N.json.
# summary.py OUTDIR prints the medians.  Emulation figures (QEMU TCG).
set -u
before=$1 after=$2 out=$3 reps=${4:-5}
mkdir -p "$out"
taskset -c 0 "$after" server --cpu none --quiet >"$out/server.out" 2>&1 &
srv=$!
sleep 2
i=1
while [ "$i" -le "$reps" ]; do
	for t in before after; do
		bin=$before
		[ "$t" = after ] && bin=$after
		taskset -c 1 "$bin" read_bw -o 16 -t 128 -s 64 -n 20000 --cpu none 192.0.2.1 \
			--json "$out/$t-$i.json" >"$out/$t-$i.out" 2>&1
		echo "$t $i rc $?"
	done
	i=$((i + 1))
done
kill "$srv"
wait "$srv" 2>/dev/null
exit 0
