#!/bin/sh
# The corpus of real perftest command lines (tests/data/perftest-lines/lines):
# each line that rdmabench takes runs as "rdmabench SUBCMD ARGS --dry-run"
# and its plan must mean what the line meant (tests/perftest_lines.py);
# lines with flags not taken yet are counted as pending, and those with a
# flag refused by design must exit 2 naming it.  Each plan is also
# checked against the JSON schema when python3-jsonschema is there.  Needs
# no device.
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
bin=${RDMABENCH:-${TOP_BUILDDIR:-$top}/src/rdmabench}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
exec python3 "$top/tests/perftest_lines.py" "$bin" "$top/tests/data/perftest-lines/lines" \
	"$top/doc/rdmabench.schema.json"
