#!/bin/sh
# Wire compatibility (issue 39, step 4): two builds that differ only by
# added keyed fields talk, both ways.  The other build is the commit named
# in tests/data/wire-base (wire v19: HELLO and CONN keyed as the plan is),
# or WIRE_BASE=COMMIT; it is built once into $TOP_BUILDDIR/build-prev/COMMIT
# and kept.  Over loopback, with no device: tcp_bw, a new client against
# the old build's server and an old client against the new server, each
# run through HELLO, the plan (PARAMS), the DATA exchange, a point and its
# RESULT; and every keyed field of the old build is the new one's, at the
# same tag and kind (`--list-plan`, and `--list-wire` for HELLO and
# CONN).  A field one build does not know is skipped or refused by name:
# test_wire_bad's test_params_keyed, test_wire_keyed.
# Building the old commit costs about a minute on two cores: only with
# RDMABENCH_LONG=1 (scripts/check --long); without it, the same
# exchanges between this build and itself (a few seconds).
# Automake protocol: 0 pass, 1 fail, 77 skip (no git history).
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
builddir=${TOP_BUILDDIR:-$top/build}
new=${RDMABENCH:-$builddir/src/rdmabench}
out=$(mktemp -d)
trap 'kill $srv 2>/dev/null || :; rm -rf "$out"' EXIT
srv=

old=$new
if [ "${RDMABENCH_LONG:-0}" = 1 ]; then
	base=${WIRE_BASE:-$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' "$top/tests/data/wire-base")}
	if ! git -C "$top" cat-file -e "$base^{commit}" 2>/dev/null; then
		echo "SKIP: commit $base is not in this clone's history"
		exit 77
	fi
	prev=$builddir/build-prev/$base
	if [ ! -x "$prev/obj/src/rdmabench" ]; then
		rm -rf "$prev" && mkdir -p "$prev/src" "$prev/obj"
		git -C "$top" archive "$base" | tar -x -C "$prev/src"
		(cd "$prev/src" && autoreconf -fi >/dev/null 2>&1) || {
			echo "FAIL: autoreconf of $base"
			exit 1
		}
		(cd "$prev/obj" && ../src/configure -q >/dev/null && make -s -j2 src/rdmabench >/dev/null 2>&1) || {
			echo "FAIL: building $base in $prev"
			exit 1
		}
	fi
	old=$prev/obj/src/rdmabench
fi
echo "new: $("$new" --version | head -1)"
echo "old: $("$old" --version | head -1)"

port=$((20000 + $$ % 20000))
fail=0

# exchange NAME SERVER CLIENT: one tcp_bw point between them over loopback.
exchange() {
	port=$((port + 1))
	"$2" server --cpu none --timeout 10 -p "$port" >"$out/$1.srv" 2>&1 &
	srv=$!
	sleep 0.5
	if timeout 60 "$3" tcp_bw 127.0.0.1 -p "$port" -n 200 -s 4K --cpu none --json "$out/$1.json" \
		>"$out/$1.out" 2>&1 && grep -q '"iterations": 200' "$out/$1.json"; then
		echo "ok: $1"
	else
		echo "FAIL: $1"
		sed 's/^/    /' "$out/$1.out" "$out/$1.srv"
		fail=1
	fi
	kill "$srv" 2>/dev/null || :
	wait "$srv" 2>/dev/null || :
}

exchange new-client-old-server "$old" "$new"
exchange old-client-new-server "$new" "$old"

# Every field the old build knows, the new one knows at the same tag and
# kind (a field changed in meaning steps the version instead).
"$old" --list-plan >"$out/old.plan"
"$new" --list-plan >"$out/new.plan"
"$old" --list-wire >"$out/old.wire"
"$new" --list-wire >"$out/new.wire"
while IFS='	' read -r tag must kind name; do
	if ! grep -q "^$tag	$must	$kind	" "$out/new.plan"; then
		echo "FAIL: the old build's plan field $tag ($kind $name) is not the new one's"
		fail=1
	fi
done <"$out/old.plan"
while IFS='	' read -r msg tag must kind name; do
	if ! grep -q "^$msg	$tag	$must	$kind	" "$out/new.wire"; then
		echo "FAIL: the old build's $msg field $tag ($kind $name) is not the new one's"
		fail=1
	fi
done <"$out/old.wire"
for f in plan wire; do
	if [ ! -s "$out/old.$f" ]; then
		echo "FAIL: the old build lists no $f fields"
		fail=1
	fi
done
[ "$fail" = 0 ] && echo "ok: $(wc -l <"$out/old.plan") plan fields and $(wc -l <"$out/old.wire") HELLO and CONN fields of the old build kept"
exit "$fail"
