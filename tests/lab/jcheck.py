#!/usr/bin/env python3
"""jcheck FILE EXPR...: evaluate each Python expression with d bound to the
JSON document in FILE (and csv to its rows when FILE ends in .csv); print
every expression that is false and exit 1 if any is."""
import csv
import json
import sys


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
