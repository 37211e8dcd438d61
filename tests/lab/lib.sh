# shellcheck shell=sh
# Sourced by each lab test on the host.  A lab test writes a guest script,
# runs it in one Soft-RoCE VM boot (scripts/rxe-lab), then checks on the
# host what the guest left in $OUT.
set -eu
: "${RDMABENCH:?run lab tests through make check}" "${RXE_LAB:?}" "${TOP_SRCDIR:?}" "${TOP_BUILDDIR:?}"

if [ "${RDMABENCH_SKIP_LAB:-0}" = 1 ]; then
	echo "SKIP: lab tests disabled by RDMABENCH_SKIP_LAB=1"
	exit 77
fi

mkdir -p "$TOP_BUILDDIR/tests/lab"
OUT=$(mktemp -d "$TOP_BUILDDIR/tests/lab/out.XXXXXX")

# A sanitizer build (configure --enable-sanitizers) sets ASAN_OPTIONS and
# UBSAN_OPTIONS (Makefile.am).  In the guest every rdmabench then writes
# its report, if any, to a file $OUT/san.PID (log_path), whatever the test
# does with its exit status.  GCC's libubsan ignores log_path: its reports
# are found in the stderr files the guest scripts keep.  Any report fails
# the test.
SAN_REPORT='runtime error: \|==[0-9]*==ERROR: [A-Za-z]*Sanitizer\|^SUMMARY: [A-Za-z]*Sanitizer'

# san_reports: show the reports the guest left; false if there are any.
san_reports() {
	_found=
	for _r in "$OUT"/san.*; do
		[ -f "$_r" ] || continue
		echo "==== sanitizer report $_r" >&2
		cat "$_r" >&2
		_found=1
	done
	_hits=$(grep -l -e "$SAN_REPORT" "$OUT"/*.err "$OUT"/*.out 2>/dev/null || true)
	if [ -n "$_hits" ]; then
		printf '%s\n' "$_hits" | while IFS= read -r _r; do
			echo "==== sanitizer report in $_r" >&2
			grep -A 12 -e "$SAN_REPORT" "$_r" >&2
		done
		_found=1
	fi
	[ -z "$_found" ]
}

fail() {
	echo "FAIL: $*" >&2
	san_reports || true
	echo "guest outputs kept in $OUT" >&2
	exit 1
}

# lab_run SCRIPT: run SCRIPT (sh text) in the guest with RB (the binary),
# OUT (results, shared) and LAB (tests/lab in the source tree) set.
# LAB_HOSTS=N boots the guest as N hosts on one wire (rxe-lab --hosts N),
# LAB_SMP=N with N vCPUs (rxe-lab --smp N, default 2).
lab_run() {
	# shellcheck disable=SC2016 # $LAB is expanded in the guest
	printf 'set -u\n. "$LAB/guest.sh"\n%s\n' "$1" >"$OUT/guest.sh"
	set -- --hosts "${LAB_HOSTS:-1}" --smp "${LAB_SMP:-2}" --env RB="$RDMABENCH" --env OUT="$OUT" \
		--env LAB="$TOP_SRCDIR/tests/lab"
	for _v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
		eval "_o=\${$_v:-}"
		[ -z "$_o" ] || set -- "$@" --env "$_v=$_o:log_path=$OUT/san"
	done
	"$RXE_LAB" --timeout "${LAB_TIMEOUT:-900}" "$@" -- sh "$OUT/guest.sh" ||
		fail "the lab run failed (exit $?)"
	schema_all
}

# schema_all: every result JSON the guest wrote against doc/rdmabench.schema.json
# (jcheck.py with no expression checks just that).
schema_all() {
	for _j in "$OUT"/*.json; do
		[ -f "$_j" ] || continue
		python3 "$TOP_SRCDIR/tests/lab/jcheck.py" "$_j" || fail "${_j##*/}: not what the schema says"
	done
}

# expect_rc NAME CODE: the exit status the guest recorded for NAME.
expect_rc() {
	got=$(cat "$OUT/$1.rc" 2>/dev/null || echo missing)
	[ "$got" = "$2" ] || {
		cat "$OUT/$1.err" >&2 2>/dev/null || true
		fail "$1 exited $got, expected $2"
	}
}

# expect_grep NAME.EXT REGEX: a guest output file matches REGEX.
expect_grep() {
	grep -q -- "$2" "$OUT/$1" || {
		cat "$OUT/$1" >&2
		fail "$1 does not match '$2'"
	}
}

# jcheck FILE EXPR...: Python expressions over the JSON document d.
jcheck() {
	_f=$1
	shift
	python3 "$TOP_SRCDIR/tests/lab/jcheck.py" "$OUT/$_f" "$@" || fail "$_f: assertion failed"
}

# Called by a test at its end: clean up after a pass.
pass() {
	if ! san_reports 2>/dev/null; then
		fail "a sanitizer reported an error in the guest"
	fi
	rm -rf "$OUT"
	echo "PASS"
}
