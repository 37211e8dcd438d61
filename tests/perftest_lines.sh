#!/bin/sh
# The corpus of real perftest command lines (tests/data/perftest-lines/lines):
# each line that rdmabench takes runs as "rdmabench SUBCMD ARGS --dry-run"
# and its plan must mean what the line meant (tests/perftest_lines.py);
# lines with flags not taken yet are counted as pending, and those with a
# flag refused by design must exit 2 naming it.  Each plan is also
# checked against the JSON schema when python3-jsonschema is there.  Needs
# no device.  It also checks the pairs --lab derives for the lab.
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
python3 "$top/tests/perftest_lines.py" "$bin" "$top/tests/data/perftest-lines/lines" \
	"$top/doc/rdmabench.schema.json"
# The lab's sample (tests/lab/perftest_names.sh): each lab: record gives a
# pair of argument lists, without the line's device and host.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$top/tests/perftest_lines.py" "$bin" "$top/tests/data/perftest-lines/lines" --lab "$tmp"
want=$(grep -c '^lab:' "$top/tests/data/perftest-lines/lines")
got=$(wc -l <"$tmp/lab-lines")
[ "$got" -eq "$want" ] || { echo "FAIL: --lab wrote $got lines for $want lab: records"; exit 1; }
if grep -E '	.*( -d |--ib-dev|<server_ip>|192\.168\.|1\.1\.1\.2|localhost|clx-host-108 )' \
	"$tmp/lab-lines"; then
	echo "FAIL: a lab line keeps the corpus line's device or host"
	exit 1
fi
echo "ok: $got lab lines"
