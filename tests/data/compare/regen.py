#!/usr/bin/env python3
"""regen.py DATA_DIR: rewrite the inputs of tests/unit/test_compare.c
(DATA_DIR/compare/*.json) from the writer's golden files
(DATA_DIR/golden/{bw,lat}.json, which test_output_* hold equal to the
writer's output), each with the one change README names.  Run by
`make update-golden` after the golden files: never edit them by hand."""
import copy
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def num(v):
    return round(v, 10)


def worse_bw(d):
    d["timestamp"] = "2026-01-03T03:04:05Z"
    d["results"][0]["bw_avg_gbps"] = num(d["results"][0]["bw_avg_gbps"] * 0.8)


def better_bw(d):
    for r in d["results"]:
        r["bw_avg_gbps"] = num(r["bw_avg_gbps"] * 1.2)
        r["msg_rate_mpps"] = num(r["msg_rate_mpps"] * 1.2)
        r["cpu_ns_per_msg"] = num(r["cpu_ns_per_msg"] * 0.7)


def other_points(d):
    d["params"]["size"] = [2 * s for s in d["params"]["size"]]
    for r in d["results"]:
        r["size"] *= 2


def ud_threads(d):
    better_bw(d)
    d["params"]["transport"] = "UD"
    d["params"]["threads"] = 4


def subset(d):
    worse_bw(d)
    d["params"]["size"] = [64]
    d["results"] = [r for r in d["results"] if r["size"] == 64]


def point(d, size):
    return next(r for r in d["results"] if r["size"] == size)


def worse_lat(d):
    r = point(d, 64)
    r["lat_us"]["p99"] = num(r["lat_us"]["p99"] * 1.2)


def better_lat(d):
    for r in (r for r in d["results"] if "lat_us" in r):
        r["lat_us"] = {k: num(v * 0.7) for k, v in r["lat_us"].items()}


# (file, golden, change): README's list.
FILES = [
    ("bw_worse.json", "bw.json", worse_bw),
    ("bw_better.json", "bw.json", better_bw),
    ("bw_other_points.json", "bw.json", other_points),
    ("bw_ud_threads.json", "bw.json", ud_threads),
    ("bw_subset.json", "bw.json", subset),
    ("lat_worse.json", "lat.json", worse_lat),
    ("lat_better.json", "lat.json", better_lat),
]


def main():
    data = sys.argv[1]
    for name, golden, change in FILES:
        d = copy.deepcopy(load(f"{data}/golden/{golden}"))
        change(d)
        with open(f"{data}/compare/{name}", "w", encoding="utf-8") as f:
            json.dump(d, f, indent=2)
            f.write("\n")
    print(f"regen.py: rewrote {len(FILES)} files in {data}/compare from {data}/golden")
    return 0


if __name__ == "__main__":
    sys.exit(main())
