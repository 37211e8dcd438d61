#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Table of run.sh's output directory: per test and tool, the median over
the repetitions of each run's p50 (and the smallest min) of what rtt.so
timed on the client, and of the tool's own median latency report.

    python3 summarize.py DIR
"""
import glob
import os
import re
import statistics
import sys


def shim(path):
    out = {}
    for line in open(path):
        m = re.match(r"(\w+) n=(\d+) min=([\d.]+) p10=[\d.]+ p50=([\d.]+)", line)
        if m:
            out[m.group(1)] = (float(m.group(3)), float(m.group(4)))
    return out


def reported(path, tool):
    """The tool's median latency (us): perftest's t_typical, rdmabench's t_p50."""
    for line in open(path):
        f = line.split()
        if f and f[0] == "2":
            return float(f[4]) if tool == "perftest" else float(f[6])
    return None


def main(d):
    print("| test | tool | runs | round trip p50 (us) | in post_send p50 | turnaround p50 "
          "| round trip min | reported median |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for test in ("send_lat", "read_lat"):
        for tool in ("rdmabench", "perftest"):
            runs = sorted(glob.glob(os.path.join(d, "%s.%s.*.cli" % (test, tool))))
            s = [shim(p) for p in runs]
            s = [x for x in s if "post_to_comp" in x]
            if not s:
                continue
            rep = [reported(p[:-4] + ".out", tool) for p in runs]
            rep = [x for x in rep if x is not None]

            def med(k):
                return statistics.median(x[k][1] for x in s)
            print("| %s | %s | %d | %.1f | %.1f | %.2f | %.1f | %s |"
                  % (test, tool, len(s), med("post_to_comp"), med("in_post_send"),
                     med("comp_to_post"), min(x["post_to_comp"][0] for x in s),
                     "%.1f" % statistics.median(rep) if rep else "-"))


if __name__ == "__main__":
    main(sys.argv[1])
