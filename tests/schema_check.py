#!/usr/bin/env python3
"""schema_check SCHEMA FILE...: validate each JSON FILE against SCHEMA (JSON
Schema draft 2020-12, with python3-jsonschema), then check that the schema
refuses broken copies of the first FILE, so that this test can fail.
Prints every problem; exits 1 if there is one."""
import copy
import json
import sys

from jsonschema import Draft202012Validator


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def point(d):
    return d["results"][0]


def no_counters(d):
    point(d).pop("counters", None)
    point(d)["counter_errors"] = ["sent_pkts"]


def lat_as_text(d):
    point(d)["lat_us"] = {k: 1.0 for k in ("min", "p50", "avg", "p90", "p99", "p999", "max",
                                            "stdev")}
    point(d)["lat_us"]["p50"] = "fast"


def percentiles_approx(d):
    lat_as_text(d)
    point(d)["lat_us"]["p50"] = 1.0
    point(d)["percentiles"] = "approx"


# (what is broken, how): each must make the document invalid.
BROKEN = [
    ("no results", lambda d: d.pop("results")),
    ("schema_version 2", lambda d: d.update(schema_version=2)),
    ("a field the schema does not know", lambda d: d.update(surprise=1)),
    ("a test name of no row's form", lambda d: d.update(test="Ping pong!")),
    ("a device without a name", lambda d: d["device"].pop("name")),
    ("a placement with local 'yes'", lambda d: d["placement"].update(local="yes")),
    ("an axis of 65 values", lambda d: d["params"].update(size=list(range(65)))),
    ("a point without its size", lambda d: point(d).pop("size")),
    ("a negative size", lambda d: point(d).update(size=-1)),
    ("bandwidth without a message rate", lambda d: point(d).pop("msg_rate_mpps")),
    ("a latency as text", lat_as_text),
    ("percentiles 'approx'", percentiles_approx),
    ("percentiles without lat_us", lambda d: point(d).update(percentiles="exact")),
    ("a negative counter", lambda d: point(d).update(counters={"sent_pkts": -1})),
    ("a counter name with a slash", lambda d: point(d).update(counters={"a/b": 1})),
    ("counter errors without counters", no_counters),
    ("a verdict 'maybe'",
     lambda d: point(d).update(expect=[{"expr": "p99<=1us", "result": "maybe", "value": None,
                                        "limit": None, "unit": "us"}])),
    ("an unknown driver", lambda d: d.update(driver="mlx9")),
    ("a rejected peer figure the RESULT has not",
     lambda d: point(d).update(peer_result_rejected=["lat_us"])),
    ("an empty list of rejected peer figures", lambda d: point(d).update(peer_result_rejected=[])),
    ("a histogram without counts",
     lambda d: point(d).update(histogram={"edges_us": [1.0, 2.0], "tail": False})),
    ("an unknown tick clock", lambda d: d.update(tick_clock="hpet")),
]

# The same for the first --dry-run plan among the files (its own branch).
DRY_BROKEN = [
    ("dry_run false", lambda d: d.update(dry_run=False)),
    ("a plan field the schema does not know", lambda d: d.update(surprise=1)),
    ("a plan point without its size", lambda d: d["points"][0].pop("size")),
    ("a plan without its problems", lambda d: d.pop("problems")),
    ("a plan device without 'found'", lambda d: d["device"].pop("found")),
    ("a plan placement of 1025 threads",
     lambda d: d["placement"].update(threads=[d["placement"]["threads"][0]] * 1025)),
]


def refused(v, schema_path, path, doc, cases):
    bad = 0
    for what, brk in cases:
        d = copy.deepcopy(doc)
        brk(d)
        if v.is_valid(d):
            print(f"{schema_path} accepts {path} with {what}")
            bad += 1
    return bad


def main():
    schema_path, paths = sys.argv[1], sys.argv[2:]
    schema = load(schema_path)
    Draft202012Validator.check_schema(schema)
    v = Draft202012Validator(schema)
    bad = 0
    for path in paths:
        for e in sorted(v.iter_errors(load(path)), key=str):
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message}")
            bad += 1
    bad += refused(v, schema_path, paths[0], load(paths[0]), BROKEN)
    cases = len(BROKEN)
    plans = [p for p in paths if load(p).get("dry_run") is True]
    if plans and plans[0] != paths[0]:
        bad += refused(v, schema_path, plans[0], load(plans[0]), DRY_BROKEN)
        cases += len(DRY_BROKEN)
    if not bad:
        print(f"{len(paths)} file(s) valid; {cases} broken copies refused")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
