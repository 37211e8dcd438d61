#!/bin/sh
# Run each libFuzzer target given for FUZZ_SECONDS from its seed corpus;
# called by `make fuzz` in a build configured with --enable-fuzz.
#
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_TOTAL    if set and not empty: seconds for all the targets, shared
#   FUZZ_SRCDIR   tests/fuzz in the source tree: corpus/TARGET, *.dict
#   FUZZ_BUILDDIR tests/fuzz in the build tree: work/TARGET (inputs found
#                 so far, kept between runs), artifacts/ (crashes), logs
#   FUZZ_JOBS     targets run at once (default 1)
#   FUZZ_ARGS     more libFuzzer options
#
# Prints one line per target -- executions, corpus size, crashes -- and a
# total.  Exit status 1 when a target crashed (a sanitizer report, a
# failed property, a leak, a timeout or running out of memory): the log
# and the input that did it are named.
set -eu
: "${FUZZ_SECONDS:=60}" "${FUZZ_SRCDIR:?}" "${FUZZ_BUILDDIR:?}" "${FUZZ_ARGS:=}"

bad_time() {
	echo "fuzz: FUZZ_SECONDS and FUZZ_TOTAL are whole seconds, at least 1 per target" >&2
	exit 2
}
if [ -n "${FUZZ_TOTAL:-}" ]; then
	case $FUZZ_TOTAL in *[!0-9]*) bad_time ;; esac
	FUZZ_SECONDS=$((FUZZ_TOTAL / $#))
fi
case $FUZZ_SECONDS in '' | *[!0-9]*) bad_time ;; esac
# libFuzzer takes -max_total_time=0 as "no limit".
[ "$FUZZ_SECONDS" -ge 1 ] || bad_time
art=$FUZZ_BUILDDIR/artifacts
mkdir -p "$art"

# run_one TARGET: fuzz it, leave TARGET.log and TARGET.rc in $art.
run_one() {
	t=$1
	name=${t##*/}
	work=$FUZZ_BUILDDIR/work/$name
	mkdir -p "$work"
	set -- -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$art/$name-"
	case $name in
	fuzz_cli) set -- "$@" -dict="$FUZZ_SRCDIR/cli.dict" ;;
	fuzz_axis) set -- "$@" -dict="$FUZZ_SRCDIR/axis.dict" ;;
	esac
	rc=0
	# shellcheck disable=SC2086 # FUZZ_ARGS is a word list
	"$t" "$@" $FUZZ_ARGS "$work" "$FUZZ_SRCDIR/corpus/$name" >"$art/$name.log" 2>&1 || rc=$?
	echo "$rc" >"$art/$name.rc"
}

# Crash inputs from an earlier run would be confused with this run's.
for t in "$@"; do
	rm -f "$art/${t##*/}"-*
done

jobs=${FUZZ_JOBS:-1}
running=0
for t in "$@"; do
	run_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

total=0
crashed=0
for t in "$@"; do
	name=${t##*/}
	log=$art/$name.log
	rc=$(cat "$art/$name.rc")
	# libFuzzer's final stats, or its last status line after a crash.
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
	execs=${execs:-0}
	corpus=$(find "$FUZZ_BUILDDIR/work/$name" "$FUZZ_SRCDIR/corpus/$name" -type f | wc -l)
	found=$(find "$art" -name "$name-*" -type f | wc -l)
	total=$((total + execs))
	if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
		crashed=$((crashed + 1))
		echo "$name: CRASH after $execs executions (exit $rc); log: $log"
		grep -m 3 -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: property failed|.*runtime error:)' \
			"$log" | sed 's/^/  /' || true
		find "$art" -name "$name-*" -type f | sed "s|^|  input: |; s|\$| (replay: $t FILE)|"
	else
		echo "$name: $execs executions in ${FUZZ_SECONDS} s, 0 crashes (corpus: $corpus inputs)"
	fi
done
echo "fuzz: $# targets, $total executions, $crashed crashed"
[ "$crashed" -eq 0 ]
