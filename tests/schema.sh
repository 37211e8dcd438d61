#!/bin/sh
# doc/rdmabench.schema.json against the JSON the writer produces: the
# golden files (tests/data/golden, which test_output_* hold equal to the
# writer's output; make update-golden rewrites them) and every document
# the test_output_* tests make (RB_JSON_DUMP), then hand-edited copies
# (tests/data/compare) and an example with the fields of issue 12
# (tests/data/schema); broken copies must be refused.  Runs in the build
# directory, after tests/unit/test_output_* are built.  Needs
# python3-jsonschema: skipped (77) without it.
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
# RB_TEST_OUTPUT: the writers' test programs, separated by spaces.
writers=${RB_TEST_OUTPUT:-tests/unit/test_output_csv tests/unit/test_output_json tests/unit/test_output_perftest}
if ! python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	echo "SKIP: python3 has no jsonschema module with draft 2020-12 (Debian: python3-jsonschema)"
	exit 77
fi
dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
for writer in $writers; do
	if [ ! -x "$writer" ]; then
		echo "FAIL: no $writer to write the documents (run from the build directory, or set RB_TEST_OUTPUT)"
		exit 1
	fi
	mkdir "$dump/${writer##*/}"
	RB_JSON_DUMP=$dump/${writer##*/} "$writer" >"$dump/log" 2>&1 || {
		cat "$dump/log"
		echo "FAIL: $writer failed"
		exit 1
	}
done
n=$(find "$dump" -name 'doc*.json' | wc -l)
if [ "$n" -lt 10 ]; then
	echo "FAIL: $writers wrote $n documents into RB_JSON_DUMP, want 10 or more"
	exit 1
fi
echo "$n documents of the writer from $writers"
python3 "$top/tests/schema_check.py" "$top/doc/rdmabench.schema.json" \
	"$top/tests/data/golden/bw.json" "$top/tests/data/golden/lat.json" \
	"$dump"/*/doc*.json \
	"$top"/tests/data/compare/*.json "$top"/tests/data/schema/*.json \
	"$top"/tests/data/report/hand-pcie.json
