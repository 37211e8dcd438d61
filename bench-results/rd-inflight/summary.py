#!/usr/bin/env python3
"""Medians of run.sh's JSON files: message rate and bandwidth, before and after."""
import glob
import json
import statistics
import sys


def figures(d, tag):
    out = []
    for f in sorted(glob.glob(f"{d}/{tag}-*.json")):
        r = json.load(open(f))["results"][0]
        out.append((r["msg_rate_mpps"], r["bw_avg_gbps"]))
    return out


def main():
    d = sys.argv[1]
    med = {}
    for tag in ("before", "after"):
        v = figures(d, tag)
        rates = [x[0] for x in v]
        med[tag] = statistics.median(rates)
        print(f"{tag}: n={len(v)} msg_rate_mpps median {med[tag]:.4f} "
              f"(min {min(rates):.4f} max {max(rates):.4f}) "
              f"bw_avg_gbps median {statistics.median(x[1] for x in v):.4f}")
    print(f"after/before message rate: {med['after'] / med['before']:.2f}")


if __name__ == "__main__":
    main()
