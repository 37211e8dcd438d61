# SPDX-License-Identifier: MIT
"""Unit tests of scripts/lib/perftest_report.py, the report of
scripts/bench-perftest: the parsers of perftest's text and rdmabench's JSON,
the device counters, the arithmetic and the flags, and the whole summary
against one written by the report before it left bench-perftest's heredoc.

The fixtures in tests/data/perftest/raw are real lab runs (a subset of
bench-results/perftest/raw), edited to fail in the ways a run fails: a
client timeout (026), perftest printing inf (034), a missing JSON (037),
and a lab that stopped before rep 3 was through.
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

TOP = os.environ.get("TOP_SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts", "lib"))
import perftest_report as pr  # noqa: E402

DATA = os.path.join(TOP, "tests", "data", "perftest")
RAW = os.path.join(DATA, "raw")

LAT_HDR = (" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
           "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ")
BW_HDR = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"


def read(name):
    with open(os.path.join(RAW, name)) as f:
        return f.read()


class PerftestText(unittest.TestCase):
    def test_latency_fields_by_position(self):
        m = pr.parse_perftest(os.path.join(RAW, "002-perftest-send_lat-2-r1.out"), "send_lat", 2)
        # 2 5000 12.81 1226.91 20.35 22.05 27.06 102.49 447.82: t_typical is the median
        self.assertEqual(m, {"min_us": 12.81, "p50_us": 20.35, "avg_us": 22.05,
                             "p99_us": 102.49, "p999_us": 447.82})

    def test_bandwidth_fields_by_position(self):
        m = pr.parse_perftest(os.path.join(RAW, "014-perftest-write_bw-64-r1.out"), "write_bw", 64)
        self.assertEqual(m, {"bw_peak_MiBps": 3.05, "bw_avg_MiBps": 2.85,
                             "msg_rate_Mpps": 0.046627})

    def test_warnings_between_header_and_data(self):
        text = "\n".join([BW_HDR, " Completion with error at client", " 64 5000",
                          " 65536  5000  12.5  11.0  0.000176", " 64  5000  3.0  2.5  0.04"])
        m = pr.parse_perftest_text(text, "send_bw", 64)
        self.assertEqual(m["bw_avg_MiBps"], 2.5)

    def test_only_lines_after_the_header(self):
        text = " 64 5000 9 9 9\n" + BW_HDR + "\n"
        with self.assertRaisesRegex(ValueError, "no data line for size 64"):
            pr.parse_perftest_text(text, "send_bw", 64)

    def test_no_header(self):
        with self.assertRaisesRegex(ValueError, "no '#bytes' header"):
            pr.parse_perftest_text("Couldn't connect to 192.0.2.1:18602\n", "send_lat", 2)

    def test_other_size_is_not_the_data_line(self):
        text = read("002-perftest-send_lat-2-r1.out")
        with self.assertRaisesRegex(ValueError, "no data line for size 4096"):
            pr.parse_perftest_text(text, "send_lat", 4096)

    def test_latency_needs_nine_numbers(self):
        # a bandwidth-shaped line does not pass for a latency one
        with self.assertRaises(ValueError):
            pr.parse_perftest_text(LAT_HDR + "\n 2 5000 1.0 2.0 3.0\n", "send_lat", 2)

    def test_inf_is_refused(self):
        with self.assertRaisesRegex(ValueError, "non-finite"):
            pr.parse_perftest(os.path.join(RAW, "034-perftest-read_lat-2-r2.out"), "read_lat", 2)
        with self.assertRaisesRegex(ValueError, "non-finite"):
            pr.parse_perftest_text(BW_HDR + "\n 64 5000 nan 1 1\n", "write_bw", 64)


class RdmabenchJson(unittest.TestCase):
    def test_latency(self):
        m, place = pr.parse_rdmabench(os.path.join(RAW, "001-rdmabench-send_lat-2-r1.json"),
                                      "send_lat")
        self.assertAlmostEqual(m["p50_us"], 18.06903867075952)
        self.assertAlmostEqual(m["p99_us"], 121.27490034676069)
        self.assertAlmostEqual(m["min_us"], 15.620102997255804)
        self.assertEqual(sorted(m), sorted(pr.LAT))
        self.assertEqual(place, ("1", "0"))

    def test_bandwidth_peak_from_gbps_to_mibps(self):
        m, _ = pr.parse_rdmabench(os.path.join(RAW, "013-rdmabench-write_bw-64-r1.json"),
                                  "write_bw")
        self.assertAlmostEqual(m["bw_avg_MiBps"], 2.575738861893907)
        self.assertAlmostEqual(m["msg_rate_Mpps"], 0.04220090551326978)
        self.assertAlmostEqual(m["bw_peak_MiBps"], 0.02173007161479138 * 1e9 / 8 / (1 << 20))

    def test_missing_parts(self):
        with self.assertRaises(IndexError):
            pr.parse_rdmabench_doc({"results": []}, "send_lat")
        with self.assertRaises(KeyError):
            pr.parse_rdmabench_doc({"results": [{"size": 2}]}, "send_lat")
        m, place = pr.parse_rdmabench_doc(
            {"results": [{"bw_avg_mibps": 1, "msg_rate_mpps": 2, "bw_peak_gbps": 0}]}, "read_bw")
        self.assertEqual(place, (None, None))


class Counters(unittest.TestCase):
    def test_rxe_names(self):
        c = pr.parse_counters(os.path.join(RAW, "001-rdmabench-send_lat-2-r1.cnt"))
        self.assertEqual(c, {"retries": 2.0, "rnr_naks": 0.0})

    def test_mlx5_names_and_precedence(self):
        self.assertEqual(pr.parse_counters_text("local_ack_timeout_err 4\nrnr_nak_retry_err 1\n"),
                         {"retries": 4.0, "rnr_naks": 1.0})
        self.assertEqual(pr.parse_counters_text("local_ack_timeout_err 4\ncompleter_retry_err 7\n"),
                         {"retries": 7.0})

    def test_none(self):
        self.assertEqual(pr.parse_counters_text(""), {})
        self.assertEqual(pr.parse_counters_text("sent_pkts 10\nodd line here\n"), {})
        self.assertEqual(pr.parse_counters(os.path.join(RAW, "no-such.cnt")), {})


class Arithmetic(unittest.TestCase):
    def test_fmt(self):
        self.assertEqual(pr.fmt(None), "failed")
        self.assertEqual(pr.fmt(121.27), "121.3")
        self.assertEqual(pr.fmt(18.069), "18.07")
        self.assertEqual(pr.fmt(0.0422009), "0.0422")
        self.assertEqual(pr.fmt(2.0, "retries"), "2")

    def test_ratio(self):
        self.assertEqual(pr.ratio(3.0, 2.0), 1.5)
        self.assertIsNone(pr.ratio(None, 2.0))
        self.assertIsNone(pr.ratio(1.0, None))
        self.assertIsNone(pr.ratio(1.0, 0))

    def test_flags(self):
        self.assertEqual(pr.flag("p50_us", 1.16), "**rdmabench slower**")
        self.assertEqual(pr.flag("p50_us", 1.15), "")
        self.assertEqual(pr.flag("p50_us", 0.86), "rdmabench faster")
        self.assertEqual(pr.flag("msg_rate_Mpps", 0.84), "**rdmabench slower**")
        self.assertEqual(pr.flag("bw_avg_MiBps", 1.16), "rdmabench faster")
        self.assertEqual(pr.flag("min_us", 1.09), "higher")
        self.assertEqual(pr.flag("min_us", 0.92), "lower")
        self.assertEqual(pr.flag("p99_us", 1.2), "higher tail")
        self.assertEqual(pr.flag("p99_us", None), "")

    def test_overlap(self):
        self.assertEqual(pr.overlap((1, 2), (2, 3)), "yes")
        self.assertEqual(pr.overlap((1, 2), (2.5, 3)), "no")
        self.assertEqual(pr.overlap(None, (2.5, 3)), "-")

    def test_median_span_total(self):
        r = pr.Results()
        r.vals[("perftest", "send_lat", 2)] = {"p50_us": [3.0, 1.0, 2.0, 10.0], "retries": [1, 2]}
        self.assertEqual(r.med("perftest", "send_lat", 2, "p50_us"), 2.5)
        self.assertEqual(r.span("perftest", "send_lat", 2, "p50_us"), (1.0, 10.0))
        self.assertEqual(r.total("perftest", "send_lat", 2, "retries"), "3")
        self.assertIsNone(r.med("rdmabench", "send_lat", 2, "p50_us"))
        self.assertEqual(r.total("rdmabench", "send_lat", 2, "retries"), "-")

    def test_metrics_of(self):
        self.assertEqual(pr.metrics_of("read_lat", False), pr.LAT)
        self.assertEqual(pr.metrics_of("send_bw", True), pr.BW + ["retries", "rnr_naks"])
        self.assertEqual(pr.metrics_of("write_bw", False, "a"), ["wall_s"])
        self.assertEqual(pr.case_name("write_bw", "a"), "write_bw -a (sizes 2 B to 8 MiB)")
        self.assertEqual(pr.case_name("send_lat", 2, ", "), "send_lat, 2 B")


class Sweep(unittest.TestCase):
    """A TEST:a case: every size reported, then the client's wall time."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="perftest-sweep.")
        self.stem = os.path.join(self.dir, "001")
        with open(self.stem + ".wall", "w") as f:
            f.write("91167\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def perftest_out(self, sizes, last="1.00"):
        lines = ["warning first", BW_HDR]
        lines += [" %d 64 2.0 1.5 %s" % (1 << i, last) for i in range(1, sizes + 1)]
        with open(self.stem + ".out", "w") as f:
            f.write("\n".join(lines + ["-" * 20]) + "\n")

    def test_perftest_all_sizes(self):
        self.perftest_out(23)
        self.assertEqual(pr.parse_sweep(self.stem, "perftest"), {"wall_s": 91.167})

    def test_perftest_sizes_missing_or_bad(self):
        self.perftest_out(22)
        with self.assertRaisesRegex(ValueError, "22 of 23 sizes"):
            pr.parse_sweep(self.stem, "perftest")
        self.perftest_out(23, last="inf")
        with self.assertRaisesRegex(ValueError, "0 of 23 sizes"):
            pr.parse_sweep(self.stem, "perftest")

    def test_rdmabench_complete_only(self):
        doc = {"complete": True, "results": [{"size": 1 << i} for i in range(1, 24)]}
        with open(self.stem + ".json", "w") as f:
            json.dump(doc, f)
        self.assertEqual(pr.parse_sweep(self.stem, "rdmabench"), {"wall_s": 91.167})
        doc["complete"] = False
        with open(self.stem + ".json", "w") as f:
            json.dump(doc, f)
        with self.assertRaisesRegex(ValueError, "incomplete"):
            pr.parse_sweep(self.stem, "rdmabench")

    def test_case_from_host_txt(self):
        self.assertEqual(pr.cases_of({"cases": "send_lat:2,write_bw:a"}, []),
                         [("send_lat", 2), ("write_bw", "a")])


class Setup(unittest.TestCase):
    def test_cases_from_host_txt_else_from_runs(self):
        runs = [{"test": "send_bw", "size": "64"}, {"test": "send_lat", "size": "2"},
                {"test": "send_bw", "size": "64"}]
        self.assertEqual(pr.cases_of({"cases": "read_lat:2,write_bw:65536"}, runs),
                         [("read_lat", 2), ("write_bw", 65536)])
        self.assertEqual(pr.cases_of({}, runs), [("send_bw", 64), ("send_lat", 2)])

    def test_shorten(self):
        env = {"top": "/work/main"}
        cmd = "/r/out/.bin/rdmabench send_lat --json /work/main/bench-results/x.json 192.0.2.1"
        self.assertEqual(pr.shorten(cmd, "/r/out", env),
                         "build/src/rdmabench send_lat --json bench-results/x.json 192.0.2.1")
        self.assertEqual(pr.shorten("ib_send_lat -s 2", "/r/out", {}), "ib_send_lat -s 2")

    def test_read_env_host_txt_wins(self):
        env = pr.read_env(RAW)
        self.assertEqual(env["mode"], "lab")
        self.assertEqual(env["device"], "rxe0 port=1 gid_index=1 lat_inline=0")
        self.assertEqual(env["cases"], "send_lat:2,read_lat:2,write_bw:64")


class WholeReport(unittest.TestCase):
    """The summary and CSV of the fixture, byte for byte as the report wrote
    them before it moved out of bench-perftest."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="perftest-report.")
        shutil.copytree(RAW, os.path.join(self.dir, "raw"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def assertSameFile(self, got, want):
        # The one path in the output, of the missing JSON, is the fixture's.
        self.maxDiff = None
        with open(got) as g, open(want) as w:
            self.assertEqual(g.read().replace(self.dir, "DIR").splitlines(),
                             w.read().splitlines())

    def test_golden(self):
        self.assertEqual(pr.main(["perftest_report.py", self.dir]), 3)
        for name in ("summary.md", "results.csv"):
            self.assertSameFile(os.path.join(self.dir, name), os.path.join(DATA, "expected", name))

    def test_failures_named(self):
        res = pr.collect(self.dir)
        failed = {(t, te, s, r): why for t, te, s, r, why, _ in res.failed}
        self.assertEqual(failed[("perftest", "send_lat", 2, 2)], "client-timeout")
        self.assertTrue(failed[("perftest", "read_lat", 2, 2)].startswith("unparsable: non-finite"))
        self.assertTrue(failed[("rdmabench", "write_bw", 64, 2)].startswith("unparsable: [Errno 2]"))
        self.assertEqual(failed[("rdmabench", "write_bw", 64, 3)], "not run")
        self.assertEqual(len(failed), 3 + 2 * 2)
        # a failed run still has its rows in results.csv, with empty values
        rows = [r for r in res.rows if r[:4] == ("perftest", "send_lat", 2, 2)]
        self.assertEqual([r[5] for r in rows], [""] * 7)

    def test_all_ok_local(self):
        # keep rep 1 only: nothing fails, and the summary says so
        raw = os.path.join(self.dir, "raw")
        with open(os.path.join(raw, "runs.tsv")) as f:
            lines = f.read().splitlines()
        with open(os.path.join(raw, "runs.tsv"), "w") as f:
            f.write("\n".join(l for l in lines if l.split("\t")[1] in ("rep", "1")) + "\n")
        with open(os.path.join(raw, "host.txt"), "a") as f:
            f.write("reps=1\nmode=local\n")
        self.assertEqual(pr.main(["perftest_report.py", self.dir]), 0)
        with open(os.path.join(self.dir, "summary.md")) as f:
            text = f.read()
        self.assertIn("## Failed runs\n\nNone.\n", text)
        self.assertIn("> Measured on this machine's RDMA device over loopback", text)
        self.assertIn("| read_lat 2 B | median latency (us) | 38.13 | 31.02 | 1.23 | "
                      "**rdmabench slower** | no | 0 / 0 |", text)

    def test_usage(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(pr.main(["perftest_report.py"]), 2)
        self.assertTrue(err.getvalue().startswith("usage: perftest_report.py DIR"))

    def test_committed_results_reproduced(self):
        # The full run kept in bench-results/ (not in a release tarball).
        full = os.path.join(TOP, "bench-results", "perftest")
        if not os.path.isdir(os.path.join(full, "raw")):
            self.skipTest("no bench-results/perftest/raw")
        shutil.rmtree(os.path.join(self.dir, "raw"))
        shutil.copytree(os.path.join(full, "raw"), os.path.join(self.dir, "raw"))
        # A run that failed (perftest printing "inf") stays in the record:
        # the report then lists it and returns 3; with none it says "None.".
        with open(os.path.join(full, "summary.md")) as f:
            failed = "## Failed runs\n\nNone." not in f.read()
        self.assertEqual(pr.main(["perftest_report.py", self.dir]), 3 if failed else 0)
        self.assertSameFile(os.path.join(self.dir, "results.csv"),
                            os.path.join(full, "results.csv"))


if __name__ == "__main__":
    unittest.main()
