#!/bin/sh
# The coordinator of rdmabench matrix at scale, simulated: one process
# forks every rank (--simulate with --nranks alone), rank 17 (256) or 700
# (1024) 50% slower.  Each job's output goes to NAME.out, /usr/bin/time's
# line (wall time; the largest RSS of the process or of any one of its
# ranks) to NAME.time.  pairs1024 (about 4 minutes, 2 GiB) only when asked.
# Usage: bench-results/matrix/scale/run.sh [BUILD] [pairs1024]
set -eu
dir=$(dirname "$0")
rb=${1:-build}/src/rdmabench
port=26000
job() {
	name=$1
	shift
	/usr/bin/time -f "%e s wall, %M KiB max RSS" -o "$dir/$name.time" \
		"$rb" matrix "$@" -p "$port" --timeout 120 >"$dir/$name.out" 2>"$dir/$name.err" || true
	port=$((port + 1))
	grep '^# ' "$dir/$name.out" | grep -v 'by pair' | sed "s/^/$name: /"
}
for n in 256 1024; do
	bad=$([ "$n" = 256 ] && echo 17 || echo 700)
	job "suspects$n" send_lat --simulate outlier="$bad" --nranks $n --pattern suspects
	job "ring$n" send_lat --simulate outlier="$bad" --nranks $n --pattern ring
	job "suspects${n}_bw" write_bw --simulate outlier="$bad",slow=20 --nranks $n --pattern suspects
done
job pairs256 send_lat --simulate outlier=17 --nranks 256 --pattern pairs
[ "${2:-}" != pairs1024 ] || job pairs1024 send_lat --simulate outlier=700 --nranks 1024 --pattern pairs
