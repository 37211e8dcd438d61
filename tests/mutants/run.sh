#!/usr/bin/env bash
# Mutants: break the code on purpose, one small change at a time, and see
# a test turn red.  For each row of tests/mutants/mutants.tsv (or only the
# NAMEs given): apply its edit to a scratch copy of the tree, rebuild, run
# its tests with make check, and restore the file.  The last lines are a
# table: each mutant, CAUGHT and the tests that failed, or MISSED (its
# tests stayed green), STALE (the edit changed nothing), BROKEN (it did
# not build) or SKIPPED.  Exit status 0 only when every mutant run was caught.
#
#   tests/mutants/run.sh [NAME...]     (or: make mutants [MUTANTS='NAME...'])
#   MUTANTS_DIR   the scratch copy (default: /tmp/rdmabench-mutants-$USER);
#                 kept between runs, so a second run rebuilds only what changed
#   MUTANTS_LAB=0 leave the mutants whose tests boot the lab out (SKIPPED)
#   MUTANTS_TESTS=REV  run them against tests/ as of git REV instead (a
#                 scratch copy of its own): which mutants the old tests
#                 missed, to show that a new check is what catches one
#
# Slow (a rebuild and the tests per mutant, minutes for a lab test): not
# part of make check.  Lab tests run one at a time under the shared lock,
# /tmp/rdmabench-lab.lock.
set -euo pipefail
src=$(cd -- "$(dirname -- "$0")/../.." && pwd)
table=$src/tests/mutants/mutants.tsv
scratch=${MUTANTS_DIR:-/tmp/rdmabench-mutants-${USER:-$(id -un)}${MUTANTS_TESTS:+-$MUTANTS_TESTS}}
lock=/tmp/rdmabench-lab.lock
# The soak as scripts/check runs it: 20 clients, 10 of them compared.
export SOAK_CLIENTS=${SOAK_CLIENTS:-20}

say() { printf 'mutants: %s\n' "$*" >&2; }

# The rows asked for: every one, or those named.
rows() {
	local name rest n
	grep -v '^#' "$table" | grep -v '^$' | while IFS= read -r line; do
		name=${line%%$'\t'*}
		if [ "$#" -eq 0 ]; then
			printf '%s\n' "$line"
			continue
		fi
		for n in "$@"; do
			[ "$n" != "$name" ] || printf '%s\n' "$line"
		done
	done
	for n in "$@"; do
		rest=$(grep -v '^#' "$table" | cut -f1 | grep -cxF -- "$n" || true)
		[ "$rest" -ne 0 ] || say "no mutant named $n in $table"
	done
}

# The scratch tree: this tree's files (tracked, and untracked but not
# ignored), copied over the last run's so that make rebuilds what changed.
prepare() {
	mkdir -p "$scratch"
	(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
		(cd "$scratch" && tar -xf -)
	if [ -n "${MUTANTS_TESTS:-}" ]; then
		(cd "$src" && git archive "$MUTANTS_TESTS" tests) | (cd "$scratch" && tar -xf -)
	fi
	(
		cd "$scratch"
		# shellcheck source=../../scripts/lib/common.sh
		. scripts/lib/common.sh
		rb_build build
	) >"$scratch/build.log" 2>&1 || {
		say "the scratch tree does not build unmutated: $scratch/build.log"
		tail -n 20 "$scratch/build.log" >&2
		exit 1
	}
}

# run_tests NAME TESTS...: make check of TESTS in the scratch build; prints
# the tests that failed (FAIL or ERROR), nothing when all passed; their
# logs are kept in $scratch/logs/NAME/.
run_tests() {
	local name=$1 t trs lab=0
	shift
	for t in "$@"; do
		case $t in tests/lab/*) lab=1 ;; esac
		rm -f "$scratch/build/$t.log" "$scratch/build/$t.trs"
	done
	if [ "$lab" = 1 ]; then
		flock "$lock" nice make -C "$scratch/build" check TESTS="$*" >>"$scratch/mutant.log" 2>&1 || true
	else
		nice make -C "$scratch/build" check TESTS="$*" >>"$scratch/mutant.log" 2>&1 || true
	fi
	mkdir -p "$scratch/logs/$name"
	for t in "$@"; do
		trs=$scratch/build/$t.trs
		cp -- "$scratch/build/$t.log" "$scratch/logs/$name/" 2>/dev/null || true
		if [ ! -f "$trs" ]; then
			echo "$t(did-not-run)"
		elif grep -qE '^:test-result: (FAIL|ERROR)' "$trs"; then
			echo "$t"
		elif grep -q '^:test-result: SKIP' "$trs"; then
			echo "$t(skipped)"
		fi
	done
}

# mutate NAME FILE EDIT TESTS: one row; prints its result line.
mutate() {
	local name=$1 file=$2 edit=$3 tests=$4 keep red result
	local path=$scratch/$file
	keep=$(mktemp)
	cp -- "$path" "$keep"
	case $edit in
	patch:*) (cd "$scratch" && patch -s -p1 <"$src/tests/mutants/${edit#patch:}") >/dev/null 2>&1 || true ;;
	*) sed -i -e "$edit" -- "$path" ;;
	esac
	if cmp -s -- "$path" "$keep"; then
		result="STALE	the edit changes nothing in $file"
	elif ! nice make -C "$scratch/build" -s -j"$(nproc)" >>"$scratch/mutant.log" 2>&1; then
		result="BROKEN	does not build (see $scratch/mutant.log)"
	else
		# shellcheck disable=SC2086 # TESTS is a word list
		red=$(run_tests "$name" $tests | tr '\n' ' ')
		red=${red% }
		# Red: a test that ran and failed; one that skipped or did
		# not run proves nothing.
		if [[ " $red " =~ \ [^\ \(]+\  ]]; then
			result="CAUGHT	red: $red (logs: $scratch/logs/$name/)"
		else
			result="MISSED	${red:-green}: $tests"
		fi
	fi
	# Restored with a new time stamp: make rebuilds what the mutant built.
	cat -- "$keep" >"$path"
	rm -f -- "$keep"
	printf '%s\t%s\n' "$name" "$result"
}

main() {
	local name file edit tests line results='' r bad=0
	[ -f "$table" ] || {
		say "no $table"
		exit 2
	}
	mapfile -t todo < <(rows "$@")
	[ "${#todo[@]}" -gt 0 ] || exit 2
	say "scratch tree: $scratch"
	prepare
	: >"$scratch/mutant.log"
	for line in "${todo[@]}"; do
		IFS=$'\t' read -r name file edit tests <<<"$line"
		if [ "${MUTANTS_LAB:-1}" = 0 ] && [[ " $tests" == *" tests/lab/"* ]]; then
			r=$(printf '%s\tSKIPPED\tMUTANTS_LAB=0: %s' "$name" "$tests")
		else
			say "$name: $file, then $tests"
			r=$(mutate "$name" "$file" "$edit" "$tests")
		fi
		say "$r"
		results+="$r"$'\n'
	done
	# The scratch build is left unmutated: rebuild what the last one built.
	nice make -C "$scratch/build" -s -j"$(nproc)" >>"$scratch/mutant.log" 2>&1 || true
	echo "mutant	result	tests"
	printf '%s' "$results"
	bad=$(printf '%s' "$results" | cut -f2 | grep -cvE '^(CAUGHT|SKIPPED)$' || true)
	echo "mutants: $(printf '%s' "$results" | grep -c . || true) run, $bad not caught (log: $scratch/mutant.log)"
	[ "$bad" -eq 0 ]
}

main "$@"
