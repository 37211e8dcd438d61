#!/bin/sh
# doc/rdmabench.schema.json against the JSON the writer produces: the
# golden files (tests/data/golden, which test_output holds equal to the
# writer's output; make update-golden rewrites them) and every document
# test_output makes (RB_JSON_DUMP), then hand-edited copies
# (tests/data/compare) and an example with the fields of issue 12
# (tests/data/schema); broken copies must be refused.  Runs in the build
# directory, after tests/unit/test_output is built.  Needs
# python3-jsonschema: skipped (77) without it.
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
writer=${RB_TEST_OUTPUT:-tests/unit/test_output}
if ! python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	echo "SKIP: python3 has no jsonschema module with draft 2020-12 (Debian: python3-jsonschema)"
	exit 77
fi
if [ ! -x "$writer" ]; then
	echo "FAIL: no $writer to write the documents (run from the build directory, or set RB_TEST_OUTPUT)"
	exit 1
fi
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
RB_JSON_DUMP=$dump "$writer" >"$dump/log" 2>&1 || {
	cat "$dump/log"
	echo "FAIL: $writer failed"
	exit 1
}
n=$(find "$dump" -name 'doc*.json' | wc -l)
if [ "$n" -lt 10 ]; then
	echo "FAIL: $writer wrote $n documents into RB_JSON_DUMP, want 10 or more"
	exit 1
fi
echo "$n documents of the writer from $writer"
python3 "$top/tests/schema_check.py" "$top/doc/rdmabench.schema.json" \
	"$top/tests/data/golden/bw.json" "$top/tests/data/golden/lat.json" \
	"$dump"/doc*.json \
	"$top"/tests/data/compare/*.json "$top"/tests/data/schema/*.json \
	"$top"/tests/data/report/hand-pcie.json
