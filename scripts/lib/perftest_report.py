#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The report of scripts/bench-perftest: turn DIR/raw (what the runs left)
into DIR/results.csv and DIR/summary.md.

    python3 scripts/lib/perftest_report.py DIR

Exit status: 0 written and every run succeeded; 3 written, but some runs
failed or never ran; 2 usage error.

DIR/raw holds env.txt (written in the guest) and host.txt (on the host),
key=value lines; runs.tsv, one line per run (idx rep test size tool port
status stem); and per run STEM.srv.cmd and STEM.cli.cmd (the command lines),
STEM.out (perftest's text report) or STEM.json (rdmabench --json), and
STEM.cnt ("name delta" lines: the device counters' change over the run),
STEM.wall (the client's wall time, ms).

A case is TEST:SIZE, or TEST:a for a whole size sweep (both tools' -a),
whose metric is the client's wall time.

The parsers and the summary are plain functions over text and dicts, so the
unit tests (tests/scripts/) call them without a lab.
"""

import csv
import json
import math
import os
import statistics
import sys

LAT = ["p50_us", "p99_us", "min_us", "avg_us", "p999_us"]
BW = ["bw_avg_MiBps", "msg_rate_Mpps", "bw_peak_MiBps"]
SWEEP = ["wall_s"]
SWEEP_SIZES = 23  # -a: 2 B to 8 MiB, powers of two, in both tools
MIB = 1 << 20
# The device's counters of trouble during a run, where it has them:
# transport retries (go-back-N retransmissions) and RNR NAKs received
# (rxe's names first, then mlx5's).
COUNTERS = {"retries": ("completer_retry_err", "local_ack_timeout_err"),
            "rnr_naks": ("rcvd_rnr_err", "rnr_nak_retry_err")}
TOOLS = ["rdmabench", "perftest"]

# Which metric is better when higher, and when a ratio flags rdmabench slower.
HIGHER = {"bw_avg_MiBps", "msg_rate_Mpps", "bw_peak_MiBps"}
LABEL = {"p50_us": "median latency (us)", "p99_us": "p99 latency (us)",
         "min_us": "min latency (us)", "avg_us": "average latency (us)",
         "p999_us": "p99.9 latency (us)", "bw_avg_MiBps": "BW average (MiB/s)",
         "msg_rate_Mpps": "message rate (Mpps)", "bw_peak_MiBps": "BW peak (MiB/s)",
         "retries": "transport retries (device counter)",
         "rnr_naks": "RNR NAKs received (device counter)",
         "wall_s": "wall time of the client (s)"}
# The overview's rows: median and p99 as asked, and the minimum, which the
# emulator disturbs least (a whole run shifted by host load moves it too).
MAIN = {"lat": ["p50_us", "p99_us", "min_us"], "bw": ["bw_avg_MiBps", "msg_rate_Mpps"],
        "sweep": ["wall_s"]}


def is_lat(test):
    return test.endswith("_lat")


def kind(test, size):
    return "sweep" if size == "a" else "lat" if is_lat(test) else "bw"


def size_of(s):
    """A case's size field: bytes, or "a" for the sweep."""
    return "a" if s == "a" else int(s)


def case_name(test, size, sep=" "):
    if size == "a":
        return "%s%s-a (sizes 2 B to 8 MiB)" % (test, sep)
    return "%s%s%d B" % (test, sep, size)


def metrics_of(test, have_counters, size=None):
    """The metrics of a case's rows, in order: latency, bandwidth or the
    sweep's wall time, then the device counters when the run had them."""
    own = {"lat": LAT, "bw": BW, "sweep": SWEEP}[kind(test, size)]
    return own + (list(COUNTERS) if have_counters else [])


def sweep_sizes_perftest(text):
    """The sizes of perftest's -a report: data lines after '#bytes' whose
    first field is a power of two and whose next four fields are finite."""
    lines = text.splitlines()
    hdr = next((i for i, l in enumerate(lines) if l.strip().startswith("#bytes")), None)
    if hdr is None:
        raise ValueError("no '#bytes' header")
    n = 0
    for l in lines[hdr + 1:]:
        f = l.split()
        if (len(f) >= 5 and f[0].isdigit() and all(num(x) is not None for x in f[:5])
                and all(math.isfinite(float(x)) for x in f[:5])):
            n += 1
    return n


def parse_sweep(stem, tool):
    """A sweep run: {"wall_s": s} from STEM.wall, once the client's report
    holds every size; ValueError otherwise."""
    if tool == "perftest":
        n = sweep_sizes_perftest(_read(stem + ".out"))
    else:
        j = json.loads(_read(stem + ".json"))
        if not j.get("complete", True):
            raise ValueError("rdmabench's JSON says the sweep is incomplete")
        n = len(j["results"])
    if n != SWEEP_SIZES:
        raise ValueError("the sweep reported %d of %d sizes" % (n, SWEEP_SIZES))
    return {"wall_s": float(_read(stem + ".wall").strip()) / 1000}


def read_env(raw):
    """env.txt then host.txt of raw/, key=value lines, as one dict."""
    env = {}
    for name in ("env.txt", "host.txt"):
        p = os.path.join(raw, name)
        if os.path.exists(p):
            with open(p) as f:
                for line in f:
                    k, _, v = line.rstrip("\n").partition("=")
                    if k:
                        env[k] = v
    return env


def parse_counters_text(text):
    """'name delta' lines (STEM.cnt) to {"retries": n, "rnr_naks": n},
    each from the first of its counter names present."""
    delta = dict((l.split()[0], float(l.split()[1]))
                 for l in text.splitlines() if len(l.split()) == 2)
    out = {}
    for k, names in COUNTERS.items():
        for n in names:
            if n in delta:
                out[k] = delta[n]
                break
    return out


def parse_counters(path):
    """STEM.cnt: the change of each device counter over the client's run;
    {} when the file is missing or the device has none."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return {}
    return parse_counters_text(text)


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def parse_perftest_text(text, test, size):
    """perftest's human report: a header line starting with '#bytes', then
    the data line, fields by position:
      latency:   #bytes #iterations t_min t_max t_typical t_avg t_stdev
                 99%-percentile 99.9%-percentile          (usec)
      bandwidth: #bytes #iterations BW-peak BW-average MsgRate
                 (MB/sec, which perftest documents as MiB = 2^20 B; Mpps)
    t_typical is the median.  The data line is the first line after the
    header whose first field is the message size and whose fields are all
    numbers (warnings may be printed in between).  ValueError when there is
    no such line, or when it holds inf or nan."""
    lines = text.splitlines()
    hdr = next((i for i, l in enumerate(lines) if l.strip().startswith("#bytes")), None)
    if hdr is None:
        raise ValueError("no '#bytes' header")
    want = 9 if is_lat(test) else 5
    for l in lines[hdr + 1:]:
        f = l.split()
        if len(f) >= want and f[0] == str(size) and all(num(x) is not None for x in f[:want]):
            if not all(math.isfinite(float(x)) for x in f[:want]):
                # perftest prints inf when its cycle count is zero
                raise ValueError("non-finite values in the data line: %s" % l.strip())
            v = [float(x) for x in f[:want]]
            if want == 9:
                return {"min_us": v[2], "p50_us": v[4], "avg_us": v[5],
                        "p99_us": v[7], "p999_us": v[8]}
            return {"bw_peak_MiBps": v[2], "bw_avg_MiBps": v[3], "msg_rate_Mpps": v[4]}
    raise ValueError("no data line for size %s after the header" % size)


def parse_perftest(path, test, size):
    with open(path, errors="replace") as f:
        return parse_perftest_text(f.read(), test, size)


def parse_rdmabench_doc(j, test):
    """rdmabench --json, decoded: results[0] is the one point of the run.
    Returns (metrics, (client cpus, server cpus)); KeyError, IndexError or
    TypeError when the document lacks what is needed."""
    r = j["results"][0]
    place = (j.get("placement", {}).get("cpus"), j.get("peer_placement", {}).get("cpus"))
    if is_lat(test):
        l = r["lat_us"]
        return {"min_us": l["min"], "p50_us": l["p50"], "avg_us": l["avg"],
                "p99_us": l["p99"], "p999_us": l["p999"]}, place
    return {"bw_avg_MiBps": r["bw_avg_mibps"], "msg_rate_Mpps": r["msg_rate_mpps"],
            "bw_peak_MiBps": r["bw_peak_gbps"] * 1e9 / 8 / MIB}, place


def parse_rdmabench(path, test):
    with open(path) as f:
        return parse_rdmabench_doc(json.load(f), test)


def shorten(cmd, d, env):
    """Commands as one would type them from the top of the tree: the run
    used a copy of build/src/rdmabench in DIR/.bin (see bench-perftest)."""
    cmd = cmd.replace(os.path.join(d, ".bin", "rdmabench"), "build/src/rdmabench")
    top = env.get("top")
    return cmd.replace(top + "/", "") if top else cmd


def cases_of(env, runs):
    """The cases, in run order: host.txt's list, else (an older raw/) the
    cases that ran, in the order they first ran."""
    cases = [(c.split(":")[0], size_of(c.split(":")[1]))
             for c in env.get("cases", "").split(",") if c]
    if not cases:
        for r in runs:
            c = (r["test"], size_of(r["size"]))
            if c not in cases:
                cases.append(c)
    return cases


class Results:
    """What the runs of raw/ measured, and what failed."""

    def __init__(self):
        self.env = {}
        self.cases = []
        self.reps = 3
        self.have_counters = False
        self.vals = {}        # (tool, test, size) -> {metric: [values of ok reps]}
        self.per_rep = {}     # (tool, test, size, rep) -> {metric: value}
        self.failed = []      # (tool, test, size, rep, why, stem)
        self.placements = []  # (client cpus, server cpus) of rdmabench runs
        self.unit_checks = []  # perftest BW*2^20/size / (MsgRate*1e6)
        self.cmds = {}        # (tool, test, size) -> (server, client) of the first rep
        self.rows = []        # results.csv: (tool, test, size, rep, metric, value)

    def med(self, tool, test, size, k):
        v = self.vals.get((tool, test, size), {}).get(k)
        return statistics.median(v) if v else None

    def span(self, tool, test, size, k):
        v = self.vals.get((tool, test, size), {}).get(k)
        return (min(v), max(v)) if v else None

    def total(self, tool, test, size, k):
        v = self.vals.get((tool, test, size), {}).get(k)
        return "%d" % sum(v) if v else "-"


def collect(d):
    """Read DIR/raw into a Results."""
    raw = os.path.join(d, "raw")
    res = Results()
    env = res.env = read_env(raw)
    runs = []
    p = os.path.join(raw, "runs.tsv")
    if os.path.exists(p):
        with open(p) as f:
            runs = list(csv.DictReader(f, delimiter="\t"))
    res.cases = cases_of(env, runs)
    res.have_counters = any(parse_counters(os.path.join(raw, r["stem"] + ".cnt")) for r in runs)
    res.reps = int(env.get("reps", "3"))

    seen = set()
    for r in runs:
        tool, test, size, rep = r["tool"], r["test"], size_of(r["size"]), int(r["rep"])
        stem = os.path.join(raw, r["stem"])
        seen.add((tool, test, size, rep))
        key = (tool, test, size)
        if key not in res.cmds:
            try:
                res.cmds[key] = tuple(shorten(_read(stem + s).strip(), d, env)
                                      for s in (".srv.cmd", ".cli.cmd"))
            except OSError:
                pass
        m, why = None, r["status"]
        if why == "ok":
            try:
                if size == "a":
                    m = parse_sweep(stem, tool)
                elif tool == "perftest":
                    m = parse_perftest(stem + ".out", test, size)
                    if "msg_rate_Mpps" in m and m["msg_rate_Mpps"] > 0:
                        res.unit_checks.append(
                            m["bw_avg_MiBps"] * MIB / size / (m["msg_rate_Mpps"] * 1e6))
                else:
                    m, place = parse_rdmabench(stem + ".json", test)
                    res.placements.append(place)
            except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
                m, why = None, "unparsable: %s" % e
        if m is not None:
            m.update(parse_counters(stem + ".cnt"))
        if m is None:
            res.failed.append((tool, test, size, rep, why, r["stem"]))
        for k in metrics_of(test, res.have_counters, size):
            v = None if m is None else m.get(k)
            res.rows.append((tool, test, size, rep, k, "" if v is None else "%.6g" % v))
            if v is not None:
                res.vals.setdefault(key, {}).setdefault(k, []).append(v)
                res.per_rep.setdefault(key + (rep,), {})[k] = v
    # Runs that never happened (the lab stopped early) are failures too.
    for rep in range(1, res.reps + 1):
        for test, size in res.cases:
            for tool in TOOLS:
                if (tool, test, size, rep) not in seen:
                    res.failed.append((tool, test, size, rep, "not run", ""))
                    for k in metrics_of(test, res.have_counters, size):
                        res.rows.append((tool, test, size, rep, k, ""))
    return res


def _read(path):
    with open(path) as f:
        return f.read()


def fmt(v, k=None):
    """A value for the tables: 'failed' for none, counters as integers,
    else 1 decimal from 100 up, 2 from 1 up, 3 significant digits below."""
    if v is None:
        return "failed"
    if k in COUNTERS:
        return "%d" % v
    if v >= 100:
        return "%.1f" % v
    if v >= 1:
        return "%.2f" % v
    return "%.3g" % v


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def flag(k, rt):
    """The overview's verdict on ratio rt (rdmabench / perftest) of metric k."""
    if rt is None:
        return ""
    if k in HIGHER:
        return "**rdmabench slower**" if rt < 0.85 else ("rdmabench faster" if rt > 1.15 else "")
    if k in ("p50_us", "wall_s"):
        return "**rdmabench slower**" if rt > 1.15 else ("rdmabench faster" if rt < 0.87 else "")
    if k == "min_us":
        return "higher" if rt > 1.08 else ("lower" if rt < 0.93 else "")
    return "higher tail" if rt > 1.15 else ("lower tail" if rt < 0.87 else "")


def overlap(sa, sb):
    """Whether two (min, max) ranges overlap: 'yes', 'no', '-' when one is
    missing."""
    if not sa or not sb:
        return "-"
    return "yes" if sa[0] <= sb[1] and sb[0] <= sa[1] else "no"


def summary_lines(res):
    """summary.md, as a list of lines."""
    env, reps, have_counters = res.env, res.reps, res.have_counters
    lab = env.get("mode") == "lab"
    out = []
    o = out.append
    o("# rdmabench vs perftest, side by side")
    o("")
    if lab:
        o("> **These are Soft-RoCE emulation figures under QEMU TCG, not hardware numbers.** "
          "Both tools ran in one boot of the lab guest (rxe0 on a virtio NIC, 2 vCPUs); "
          "only the ratio between the two tools, measured in the same run, means anything.")
    else:
        o("> Measured on this machine's RDMA device over loopback (server and client on one host).")
    o("")
    o("- date: %s to %s (UTC)" % (env.get("start", "?"), env.get("end", "?")))
    o("- mode: %s; repetitions per case: %s (interleaved rdmabench, perftest, rdmabench, ...); "
      "iterations per run: %s%s" % (env.get("mode", "?"), reps, env.get("iters", "?"),
                                    "; in a size sweep (-a): %s per size"
                                    % env.get("sweep_iters", "?")
                                    if any(s == "a" for _, s in res.cases) else ""))
    o("- bandwidth cases: tx depth 128, post list (-l) %s, signaling interval (-Q) %s, both tools"
      % (env.get("bw_batch", "1 (before --batch)"), env.get("bw_signal", "64")))
    if lab:
        o("- host kernel: %s; guest kernel: %s; %s (TCG, multi-threaded)"
          % (env.get("host_kernel", "?"), env.get("guest_kernel", "?"), env.get("qemu", "?")))
    else:
        o("- kernel: %s" % env.get("guest_kernel", "?"))
    o("- host CPU: %s; 1-minute load before/after: %s / %s"
      % (env.get("host_cpu", "?"), env.get("load_before", "?"), env.get("load_after", "?")))
    o("- %s (%s, binary sha256 %s...); %s (package %s)"
      % (env.get("rdmabench", "?"), env.get("rdmabench_git", "?"),
         env.get("rdmabench_sha256", "?"), env.get("perftest", "?"),
         env.get("perftest_pkg", "?")))
    o("- device: %s" % env.get("device", "?"))
    ok_place = [p for p in res.placements if p == ("1", "0")]
    o("- placement: server `taskset -c 0`, client `taskset -c 1` for both tools; rdmabench's "
      "JSON shows client cpus=1 and server cpus=0 in %d of %d runs"
      % (len(ok_place), len(res.placements)))
    if res.unit_checks:
        o("- perftest's `MB/sec` is MiB/s (2^20 B/s), as its --help says: BW average x 2^20 / "
          "size / MsgRate = %.3f to %.3f over its bandwidth runs; rdmabench's `bw_avg_mibps` is "
          "compared with it" % (min(res.unit_checks), max(res.unit_checks)))
    o("- ratio = rdmabench / perftest of the medians over the reps. Latency: above 1 means "
      "rdmabench measured more (slower). Bandwidth and message rate: below 1 means rdmabench "
      "is slower. Flagged: median latency ratio > 1.15, bandwidth or rate ratio < 0.85.")
    o("")
    o("## Overview")
    o("")
    o("Medians over the reps. *reps overlap*: whether the range (min to max over the reps) of "
      "rdmabench and that of perftest overlap; when they do, the difference is within the "
      "run-to-run noise." + (" *retries*: transport retries (go-back-N retransmissions) the "
                              "device counted during the client's runs, summed over the reps, "
                              "rdmabench / perftest; RNR NAKs, which would mean a receiver that "
                              "did not keep its receive queue full, are in the per-case tables."
                              if have_counters else ""))
    o("")
    o("| case | metric | rdmabench | perftest | ratio | | reps overlap |%s"
      % (" retries |" if have_counters else ""))
    o("|---|---|---:|---:|---:|---|---|%s" % ("---:|" if have_counters else ""))
    for test, size in res.cases:
        for k in MAIN[kind(test, size)]:
            a, b = res.med("rdmabench", test, size, k), res.med("perftest", test, size, k)
            rt = ratio(a, b)
            ov = overlap(res.span("rdmabench", test, size, k), res.span("perftest", test, size, k))
            extra = ""
            if have_counters:
                extra = " %s / %s |" % (res.total("rdmabench", test, size, "retries"),
                                        res.total("perftest", test, size, "retries"))
            o("| %s | %s | %s | %s | %s | %s | %s |%s"
              % (case_name(test, size), LABEL[k], fmt(a), fmt(b), "-" if rt is None else "%.2f" % rt,
                 flag(k, rt), ov, extra))
    o("")
    for test, size in res.cases:
        o("## %s" % case_name(test, size, ", "))
        o("")
        o("| metric | rdmabench median | perftest median | ratio | rdmabench reps | perftest reps |")
        o("|---|---:|---:|---:|---|---|")
        for k in metrics_of(test, have_counters, size):
            a, b = res.med("rdmabench", test, size, k), res.med("perftest", test, size, k)
            rt = ratio(a, b)

            def reps_of(tool):
                return ", ".join(fmt(res.per_rep.get((tool, test, size, rp), {}).get(k), k)
                                 for rp in range(1, reps + 1))
            o("| %s | %s | %s | %s | %s | %s |" % (LABEL[k], fmt(a, k), fmt(b, k),
                                                "-" if rt is None else "%.2f" % rt,
                                                reps_of("rdmabench"), reps_of("perftest")))
        o("")
        o("Commands (first repetition; each run uses its own `-p` port):")
        o("")
        o("```")
        for tool in TOOLS:
            c = res.cmds.get((tool, test, size))
            if c:
                t = 900 if size == "a" else 120
                o("taskset -c 0 timeout %d %s &" % (t, c[0]))
                o("taskset -c 1 timeout %d %s" % (t, c[1]))
        o("```")
        o("")
    o("## Failed runs")
    o("")
    if res.failed:
        for tool, test, size, rep, why, stem in res.failed:
            o("- %s %s rep %d: %s%s" % (tool, case_name(test, size), rep, why,
                                             " (logs/%s.*)" % stem
                                             if stem and why != "not run" else ""))
    else:
        o("None.")
    o("")
    return out


def write_report(d):
    """Write DIR/results.csv and DIR/summary.md; returns the Results."""
    res = collect(d)
    with open(os.path.join(d, "results.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["tool", "test", "size", "rep", "metric", "value"])
        w.writerows(res.rows)
    with open(os.path.join(d, "summary.md"), "w") as f:
        f.write("\n".join(summary_lines(res)))
    return res


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: %s DIR    (DIR/raw: the runs of scripts/bench-perftest)\n"
                         % os.path.basename(argv[0]))
        return 2
    res = write_report(argv[1])
    return 3 if res.failed else 0  # 3: written, but some runs failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
