# shellcheck shell=sh
# serve.sh DIR IDLE: the guest side of a lab session (tests/lab/lib/lab.sh).
# Run by rxe-lab as its command, it runs the lab tests' guest scripts one
# after another in this one boot: a boot costs 9 to 10 s under TCG, and
# most lab tests need the same lab.  A job is a directory that lab_run
# moves into DIR/queue: its file env (sh: exports and a cd) and its file
# cmd (what to run).  The job runs with this boot's environment and its
# own, and leaves stdout, stderr and status (the exit status) in its
# directory, which moves to DIR/done.  After each job everything it
# started is killed and what a lab test may change in the guest is put
# back, so that the next job finds the lab as a fresh boot would.  Ends
# when DIR/stop appears, or after IDLE seconds without a job.
S=$1
IDLE=$2
BASE_PATH=$PATH
# tc and ip for reset_lab, whatever PATH the session was started with.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

uptime_s() {
	read -r _up _ </proc/uptime
	echo "${_up%.*}"
}

# Kill every process but this loop and init (kernel threads have ppid 2
# or are kthreadd itself), until none is left.
kill_rest() {
	_round=0
	while :; do
		_left=0
		for _d in /proc/[0-9]*; do
			_p=${_d#/proc/}
			case $_p in 1 | 2 | "$$") continue ;; esac
			read -r _ _ _ _pp _ <"$_d/stat" 2>/dev/null || continue
			[ "$_pp" != 2 ] || continue
			kill -9 "$_p" 2>/dev/null && _left=$((_left + 1))
		done
		if [ $_left -eq 0 ] || [ $_round -ge 50 ]; then
			break
		fi
		_round=$((_round + 1))
		sleep 0.1
	done
}

# What lab tests change in the guest: qdiscs (netem), huge pages, IPv6
# addresses.  The rxe devices and the IPv4 addresses stay as booted.
reset_lab() {
	for _n in /sys/class/net/*; do
		_n=${_n##*/}
		[ "$_n" != lo ] || continue
		tc qdisc del dev "$_n" root 2>/dev/null
		ip -6 addr flush dev "$_n" scope global 2>/dev/null
	done
	echo 0 >/proc/sys/vm/nr_hugepages 2>/dev/null
}

run_job() {
	_j=$1
	(
		cd / || exit 125
		# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
		exec env -i PATH="$BASE_PATH" HOME="${HOME:-/root}" RXE_LAB=1 \
			RXE_LAB_HOSTS="$RXE_LAB_HOSTS" RXE_LAB_SESSION=1 \
			/bin/sh -c '. "$1/env" && exec timeout -s KILL "$2" /bin/sh "$1/cmd"' \
			job "$_j" "$(cat "$_j/timeout")"
	) </dev/null >"$_j/stdout" 2>"$_j/stderr"
	echo $? >"$_j/status.tmp"
	kill_rest
	reset_lab
	mv "$_j" "$S/done/" && mv "$S/done/${_j##*/}/status.tmp" "$S/done/${_j##*/}/status"
}

mkdir -p "$S/queue" "$S/run" "$S/done" || exit 1
echo $$ >"$S/ready"
last=$(uptime_s)
while [ ! -e "$S/stop" ]; do
	job=
	for j in "$S"/queue/*; do
		[ -d "$j" ] || continue
		job=$j
		break
	done
	if [ -z "$job" ]; then
		[ $(($(uptime_s) - last)) -lt "$IDLE" ] || break
		sleep 0.2
		continue
	fi
	mv "$job" "$S/run/" || exit 1
	run_job "$S/run/${job##*/}"
	last=$(uptime_s)
done
rm -f "$S/ready"
echo "lab session $S: ended ($([ -e "$S/stop" ] && echo stopped || echo "idle for $IDLE s"))"
