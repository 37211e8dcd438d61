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
# OUT (results, shared) and LAB (tests/lab/lib in the source tree: guest.sh,
# hostile.py) set.
# LAB_HOSTS=N boots the guest as N hosts on one wire (rxe-lab --hosts N),
# LAB_SMP=N with N vCPUs (rxe-lab --smp N, default 2), LAB_MEM=MIB with
# that much memory (rxe-lab --mem, default 1024); LAB_SIW=1 adds a
# Software iWARP device beside each host's rxe (rxe-lab --siw).
lab_run() {
	# shellcheck disable=SC2016 # $LAB is expanded in the guest
	printf 'set -u\n. "$LAB/guest.sh"\n%s\n' "$1" >"$OUT/guest.sh"
	set -- --hosts "${LAB_HOSTS:-1}" --smp "${LAB_SMP:-2}" --mem "${LAB_MEM:-1024}" --env RB="$RDMABENCH" --env OUT="$OUT" \
		--env LAB="$TOP_SRCDIR/tests/lab/lib"
	[ "${LAB_SIW:-0}" != 1 ] || set -- --siw "$@"
	for _v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
		eval "_o=\${$_v:-}"
		[ -z "$_o" ] || set -- "$@" --env "$_v=$_o:log_path=$OUT/san"
	done
	if [ "${LAB_SESSIONS:-0}" = 1 ]; then
		session_run "$@" || fail "the lab run failed (exit $?)"
	else
		"$RXE_LAB" --timeout "${LAB_TIMEOUT:-900}" "$@" -- sh "$OUT/guest.sh" ||
			fail "the lab run failed (exit $?)"
	fi
	schema_all
}

# ---- lab sessions --------------------------------------------------------
# With LAB_SESSIONS=1 (scripts/check sets it), lab_run does not boot a lab
# of its own: it hands its guest script to a session, one boot of the lab
# running tests/lab/lib/serve.sh, kept in $SESSIONS/hNsM for the next test
# that needs the same lab (N hosts, M vCPUs).  $SESSIONS is in the build
# tree, which the guest sees at the same path.  A boot is 9 to 10 s under TCG;
# the tests are listed so that those needing the same lab come together
# (Makefile.am).  One session runs at a time: starting one stops the
# others; so the tests must run one at a time too (make check without
# -j, as scripts/check runs it).  A session puts back what the lab tests
# change (serve.sh), not every state a guest has: a test that changes
# more puts it back itself.  The session's end: DIR/*/stop (scripts/check,
# after the tests or on its way out), or 300 s without a job.
SESSIONS=$TOP_BUILDDIR/tests/lab/sessions
# shellcheck source=tests/lab/lib/sessions.sh
. "$TOP_SRCDIR/tests/lab/lib/sessions.sh"

# sq WORD: WORD quoted for sh.
sq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

session_alive() {
	[ -e "$1/ready" ] && [ ! -e "$1/stop" ] && session_pid "$1" >/dev/null
}

# session_up DIR ARGS: the session in DIR running, booted with rxe-lab ARGS.
session_up() {
	_sd=$1
	shift
	session_alive "$_sd" && return 0
	sessions_stop "$SESSIONS" "$_sd"
	rm -rf "$_sd"
	mkdir -p "$_sd"
	"$RXE_LAB" --timeout 0 "$@" -- sh "$TOP_SRCDIR/tests/lab/lib/serve.sh" "$_sd" 300 \
		</dev/null >"$_sd/lab.log" 2>&1 &
	echo $! >"$_sd/pid"
	_si=0
	# A --siw lab's first boot may build siw.ko first (a minute on a
	# loaded 2-core machine): it gets 300 s to start, the others 120 s.
	_slim=1200
	[ "${LAB_SIW:-0}" != 1 ] || _slim=3000
	while [ ! -e "$_sd/ready" ] && kill -0 "$!" 2>/dev/null && [ $_si -lt $_slim ]; do
		sleep 0.1
		_si=$((_si + 1))
	done
	[ -e "$_sd/ready" ] && return 0
	echo "lab session $_sd did not start:" >&2
	tail -n 40 "$_sd/lab.log" >&2
	kill -TERM "$(cat "$_sd/pid")" 2>/dev/null
	rm -f "$_sd/pid"
	return 125
}

# session_run ARGS: lab_run's guest script as a job of the session for
# rxe-lab ARGS (--hosts N --smp M --env VAR=VALUE...); its output on ours,
# its exit status ours.
session_run() {
	_sd=$SESSIONS/h${LAB_HOSTS:-1}s${LAB_SMP:-2}m${LAB_MEM:-1024}
	[ "${LAB_SIW:-0}" != 1 ] || _sd=${_sd}w
	_lab_jobs=$((${_lab_jobs:-0} + 1))
	_job=${OUT##*/}.$_lab_jobs
	{
		env | sed -n 's/^\(RDMABENCH_[A-Za-z0-9_]*\)=.*/\1/p' | while read -r _v; do
			eval "printf 'export %s=%s\\n' \"\$_v\" \"\$(sq \"\$$_v\")\""
		done
		while [ $# -gt 0 ]; do
			[ "$1" != --env ] || printf 'export %s=%s\n' "${2%%=*}" "$(sq "${2#*=}")"
			shift
		done
		printf 'cd -- %s\n' "$(sq "$PWD")"
	} >"$OUT/guest.env"
	_tries=0
	while :; do
		# shellcheck disable=SC2046 # --siw or nothing
		session_up "$_sd" --hosts "${LAB_HOSTS:-1}" --smp "${LAB_SMP:-2}" --mem "${LAB_MEM:-1024}" \
			$([ "${LAB_SIW:-0}" != 1 ] || echo --siw) || return $?
		_jd=$_sd/new.$_job
		rm -rf "$_jd"
		mkdir -p "$_jd"
		cp "$OUT/guest.env" "$_jd/env"
		printf 'exec /bin/sh %s\n' "$(sq "$OUT/guest.sh")" >"$_jd/cmd"
		echo "${LAB_TIMEOUT:-900}" >"$_jd/timeout"
		mv "$_jd" "$_sd/queue/$_job"
		_si=0
		while [ ! -e "$_sd/done/$_job/status" ] && session_pid "$_sd" >/dev/null &&
			[ $_si -lt $(((${LAB_TIMEOUT:-900} + 60) * 10)) ]; do
			sleep 0.1
			_si=$((_si + 1))
		done
		[ -e "$_sd/done/$_job/status" ] && break
		# A session that ended on its own (idle) just as this job came:
		# the job is still queued, so start another (in a new directory),
		# once.
		if ! session_pid "$_sd" >/dev/null && [ -d "$_sd/queue/$_job" ] && [ $_tries -eq 0 ]; then
			_tries=1
			continue
		fi
		echo "lab session $_sd: the job did not finish; the session's log:" >&2
		tail -n 40 "$_sd/lab.log" >&2
		# Whatever holds it would hold the next test's job too.
		session_stop "$_sd"
		return 124
	done
	cat "$_sd/done/$_job/stdout"
	cat "$_sd/done/$_job/stderr" >&2
	_st=$(cat "$_sd/done/$_job/status")
	rm -rf "$_sd/done/$_job"
	return "$_st"
}

# schema_all: every result JSON the guest wrote against doc/rdmabench.schema.json
# (jcheck.py with no expression checks just that).
schema_all() {
	for _j in "$OUT"/*.json; do
		[ -f "$_j" ] || continue
		python3 "$TOP_SRCDIR/tests/lab/lib/jcheck.py" "$_j" || fail "${_j##*/}: not what the schema says"
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
	python3 "$TOP_SRCDIR/tests/lab/lib/jcheck.py" "$OUT/$_f" "$@" || fail "$_f: assertion failed"
}

# jcheck expressions that more than one test uses.
# -R shown by what only the CM path produces: the client took an address,
# a route and a reply event per QP (the flag alone is the command line's).
# shellcheck disable=SC2034 # used by the tests that source this file
viacm='d["params"]["rdma_cm"] is True and d["setup"]["cm_events"] == 3 * d["setup"]["qps"]'

# delta HOST COUNTER: over a wire NAME ... record (guest.sh's wire(), in
# NAME.wire.json), a Python expression: how much the counter moved.
delta() {
	echo "(d[\"after\"][\"$1\"][\"$2\"] - d[\"before\"][\"$1\"][\"$2\"])"
}

# Called by a test at its end: clean up after a pass.
pass() {
	if ! san_reports 2>/dev/null; then
		fail "a sanitizer reported an error in the guest"
	fi
	rm -rf "$OUT"
	echo "PASS"
}
