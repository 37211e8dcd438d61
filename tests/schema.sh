#!/bin/sh
# doc/rdmabench.schema.json against the JSON the writer produced
# (tests/data/golden), hand-edited copies of it (tests/data/compare) and an
# example with the fields of issue 12 (tests/data/schema); broken copies
# must be refused.  Needs python3-jsonschema: skipped (77) without it.
set -eu
top=${TOP_SRCDIR:-$(dirname "$0")/..}
if ! python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	echo "SKIP: python3 has no jsonschema module with draft 2020-12 (Debian: python3-jsonschema)"
	exit 77
fi
exec python3 "$top/tests/schema_check.py" "$top/doc/rdmabench.schema.json" \
	"$top/tests/data/golden/bw.json" "$top/tests/data/golden/lat.json" \
	"$top"/tests/data/compare/*.json "$top"/tests/data/schema/*.json
