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

# solo NAME ARGS: one rdmabench command, same recording as pair().
solo() {
	_n=$1
	shift
	"$RB" "$@" >"$OUT/$_n.out" 2>"$OUT/$_n.err"
	echo $? >"$OUT/$_n.rc"
}
