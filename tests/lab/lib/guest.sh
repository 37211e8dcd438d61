# shellcheck shell=sh
# Sourced in the guest by each lab test's script.

# pair NAME "SERVER ARGS" "CLIENT ARGS": run an rdmabench server and a
# client against it (192.0.2.1 on rxe0); keep each side's stdout, stderr
# and exit status as $OUT/NAME.{srv,cli}.{out,err,rc}.  The client retries
# its connection while the server starts, so no sleep is needed.
pair() {
	# shellcheck disable=SC2086 # argument strings are word lists
	"$RB" $2 >"$OUT/$1.srv.out" 2>"$OUT/$1.srv.err" &
	_srv=$!
	# shellcheck disable=SC2086
	"$RB" $3 >"$OUT/$1.cli.out" 2>"$OUT/$1.cli.err"
	echo $? >"$OUT/$1.cli.rc"
	wait "$_srv"
	echo $? >"$OUT/$1.srv.rc"
}

# stop_server PID: ^C the generic server PID and give it 10 s to end;
# $OUT/server.rc gets its status, $OUT/server.hung marks one that did not.
stop_server() {
	kill -INT "$1"
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		echo hung >"$OUT/server.hung"
		kill -KILL "$1"
	fi
	wait "$1"
	echo $? >"$OUT/server.rc"
}

# wait_grep REGEX FILE SEC: until FILE (which may not exist yet) matches
# REGEX, or SEC seconds passed; the caller's checks then say which.
wait_grep() {
	_wg=0
	while ! grep -q -- "$1" "$2" 2>/dev/null && [ $_wg -lt $(($3 * 10)) ]; do
		sleep 0.1
		_wg=$((_wg + 1))
	done
}

# solo NAME ARGS: one rdmabench command, same recording as pair().
solo() {
	_n=$1
	shift
	"$RB" "$@" >"$OUT/$_n.out" 2>"$OUT/$_n.err"
	echo $? >"$OUT/$_n.rc"
}

# wire_snap: for each host of the lab (rxe-lab --hosts N), its NIC's packet
# counters and its rxe device's sent/rcvd packets, as one JSON object keyed
# by host number, in $_ws_json.  Hosts, devices and NICs come from the
# harness's table.  Only shell builtins, no cat or date: under TCG on a
# loaded machine a single exec has taken most of a second.
wire_snap() {
	_ws_json='{'
	while IFS='	' read -r _ws_h _ws_dev _ws_nic _ws_rest; do
		[ "$_ws_h" != host ] || continue
		_ws_n=/sys/class/net/$_ws_nic/statistics
		_ws_c=/sys/class/infiniband/$_ws_dev/ports/1/hw_counters
		read -r _ws_tx <"$_ws_n/tx_packets"
		read -r _ws_rx <"$_ws_n/rx_packets"
		read -r _ws_sent <"$_ws_c/sent_pkts"
		read -r _ws_rcvd <"$_ws_c/rcvd_pkts"
		[ "$_ws_json" = '{' ] || _ws_json="$_ws_json, "
		_ws_json="$_ws_json\"$_ws_h\": {\"device\": \"$_ws_dev\", \"nic\": \"$_ws_nic\", \"nic_tx\": $_ws_tx, \"nic_rx\": $_ws_rx, \"sent\": $_ws_sent, \"rcvd\": $_ws_rcvd}"
	done </run/rxe-lab/hosts
	_ws_json="$_ws_json}"
}

# wire NAME CMD [ARGS...]: run CMD (e.g. pair or solo and their arguments)
# and keep every host's counters from before and after it, and how long it
# took (from /proc/uptime, in 10 ms steps), in $OUT/NAME.wire.json as
# {"before": ..., "after": ..., "ms": ...}.
wire() {
	_w_name=$1
	shift
	wire_snap
	_w_before=$_ws_json
	read -r _w_t0 _w_rest </proc/uptime
	"$@"
	read -r _w_t1 _w_rest </proc/uptime
	wire_snap
	printf '{"before": %s, "after": %s, "ms": %d}\n' "$_w_before" "$_ws_json" \
		$(((${_w_t1%.*}${_w_t1#*.} - ${_w_t0%.*}${_w_t0#*.}) * 10)) >"$OUT/$_w_name.wire.json"
}
