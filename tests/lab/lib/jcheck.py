#!/usr/bin/env python3
"""jcheck FILE EXPR...: evaluate each Python expression with d bound to the
JSON document in FILE (and csv to its rows when FILE ends in .csv); print
every expression that is false and exit 1 if any is.  A result document
(rdmabench's JSON output) is also validated against doc/rdmabench.schema.json,
so every JSON a lab test checks is checked against the schema too; without
python3's jsonschema that is a failure, never a skipped check."""
import csv
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "doc",
                      "rdmabench.schema.json")


def schema_errors(path, d):
    """The schema's complaints about a result document, as printable lines."""
    if not isinstance(d, dict) or d.get("tool") != "rdmabench" or "results" not in d:
        return []
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        # Never a silent pass: the schema check is half of what jcheck says.
        return [f"{path}: cannot check against the schema: python3 has no jsonschema "
                "(Debian: python3-jsonschema; scripts/check installs it)"]
    with open(SCHEMA, encoding="utf-8") as f:
        v = Draft202012Validator(json.load(f))
    return [f"{path}: schema: {'/'.join(map(str, e.path))}: {e.message}"
            for e in v.iter_errors(d)]


def load(path):
    with open(path, encoding="utf-8") as f:
        if path.endswith(".csv"):
            return list(csv.DictReader(f))
        return json.load(f)


def main():
    path, exprs = sys.argv[1], sys.argv[2:]
    try:
        d = load(path)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot load: {e}", file=sys.stderr)
        return 1
    bad = 0
    for line in schema_errors(path, d):
        print(line, file=sys.stderr)
        bad += 1
    for e in exprs:
        try:
            ok = eval(e, {"d": d, "all": all, "any": any, "len": len, "set": set,
                          "float": float, "int": int, "sorted": sorted})
        except Exception as ex:  # a broken expression is a failure too
            ok, e = False, f"{e}  ({type(ex).__name__}: {ex})"
        if not ok:
            print(f"{path}: false: {e}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
