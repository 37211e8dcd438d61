# shellcheck shell=sh
# Lab sessions' bookkeeping on the host, shared by tests/lab/lib/lab.sh (which
# starts and uses them) and scripts/check (which ends them): no side
# effects when sourced.  A session in DIR is one rxe-lab running
# tests/lab/lib/serve.sh; DIR/pid is that rxe-lab's pid.

# session_pid DIR: the pid of the session's rxe-lab, if it still runs (a
# pid file may outlive its process, and the pid be reused).
session_pid() {
	[ -f "$1/pid" ] || return 1
	_pp=$(cat "$1/pid")
	grep -q rxe-lab "/proc/$_pp/cmdline" 2>/dev/null && echo "$_pp"
}

# session_stop DIR: ask the session to end; after 30 s, stop its lab.
session_stop() {
	if _sp=$(session_pid "$1"); then
		: >"$1/stop"
		_si=0
		while session_pid "$1" >/dev/null && [ $_si -lt 300 ]; do
			sleep 0.1
			_si=$((_si + 1))
		done
		kill -TERM "$_sp" 2>/dev/null || true
	fi
	rm -f "$1/pid"
}

# sessions_stop ROOT [KEEP]: session_stop for every session under ROOT
# but KEEP.
sessions_stop() {
	for _o in "$1"/*/pid; do
		if [ -f "$_o" ] && [ "${_o%/pid}" != "${2:-}" ]; then
			session_stop "${_o%/pid}"
		fi
	done
}
