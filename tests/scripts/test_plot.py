# SPDX-License-Identifier: MIT
"""Unit tests of scripts/plot (Python, installed as rdmabench-plot): the CSV
parsing, its error messages, the grouping into series, and the charts it
chooses, without running gnuplot (tests/plot.sh draws the PNGs).

tests/data/plot/expected/*.gp are the gnuplot scripts that scripts/plot
writes for the CSVs next to them, with -o OUT (first written by its awk
version).  What is drawn comes from `rdmabench --list-metrics` ($RDMABENCH,
as make check sets it), so a change of the metric table's charts changes
them: rewrite them with `make -C build update-plot-expected` and read the diff.
"""

import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import tempfile
import unittest

TOP = os.environ.get("TOP_SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..")
DATA = os.path.join(TOP, "tests", "data", "plot")
PLOT = os.path.join(TOP, "scripts", "plot")

_loader = importlib.machinery.SourceFileLoader("rdmabench_plot", PLOT)
_spec = importlib.util.spec_from_loader("rdmabench_plot", _loader)
plot = importlib.util.module_from_spec(_spec)
_loader.exec_module(plot)

TERM = "set terminal pngcairo size 1000,650 noenhanced font 'Sans,11'"
HDR = "test,op,device,host,size,batch,signal,qps,tx_depth,lat_p50_us,lat_p99_us,lat_p999_us," \
      "bw_avg_gbps,msg_rate_mpps"


def K(col):
    """The index plot gives metric column COL (the metric table's order)."""
    return plot.table().columns.index(col)


def M(**cols):
    """A row's metric values {k: value} from column=value."""
    return {K(c): v for c, v in cols.items()}


def parse(text, name="x.csv"):
    return plot.parse_csv(io.StringIO(text, newline=""), name)


def script(text, base="x", out="OUT"):
    """The gnuplot script and PNG list for CSV text."""
    return plot.build_script(parse(text), TERM, out, base, base + ".csv")


def row(test="send_bw", size=64, batch=1, signal=1, qps=1, txd=128, p50="", p99="", p999="",
        bw="", rate="", op="", device="dev0", host="h"):
    return ",".join(str(v) for v in (test, op, device, host, size, batch, signal, qps, txd,
                                     p50, p99, p999, bw, rate))


def csv_of(*rows):
    return HDR + "\n" + "\n".join(rows) + "\n"


class Parsing(unittest.TestCase):
    def test_columns_by_name_trimmed_crlf_blank_lines(self):
        text = "msg_rate_mpps , size,\ttest\r\n0.5, 64 ,send_bw\r\n\r\n  \t\r\n0.25,128,send_bw\r\n"
        d = parse(text)
        self.assertEqual([(r.test, r.size, r.m) for r in d.rows],
                         [("send_bw", 64.0, M(msg_rate_mpps=0.5)),
                          ("send_bw", 128.0, M(msg_rate_mpps=0.25))])
        self.assertEqual(d.skipped, [])

    def test_rows_without_test_or_usable_size_are_skipped_by_line(self):
        d = parse(csv_of(row(rate=1), row(test="", rate=1), row(size=0, rate=1),
                         row(size="-4", rate=1), row(size="4K", rate=1), row(size="1e999", rate=1),
                         row(size=128, rate=2)))
        self.assertEqual(len(d.rows), 2)
        self.assertEqual(d.skipped, [3, 4, 5, 6, 7])

    def test_metric_values_kept(self):
        d = parse(csv_of(row(p50="0", p99="-1", p999="nan", bw="0", rate="inf"),
                         row(p50="1.5e1", p99=" 2 ", p999="1e999", bw="3.", rate=".5")))
        # log axes drop zero and negatives; bandwidth is linear and keeps 0
        self.assertEqual(d.rows[0].m, M(bw_avg_gbps=0.0))
        self.assertEqual(d.rows[1].m, M(lat_p50_us=15.0, lat_p99_us=2.0, bw_avg_gbps=3.0,
                                        msg_rate_mpps=0.5))

    def test_interval_rows_are_not_points(self):
        # rdmabench --interval: slices (interval 1, 2) before their point's row
        text = ("test,size,lat_p50_us,interval\n"
                "send_lat,64,9,1\nsend_lat,64,7,2\nsend_lat,64,8,\n")
        d = parse(text)
        self.assertEqual([(r.size, r.m) for r in d.rows], [(64.0, M(lat_p50_us=8.0))])
        self.assertEqual(d.skipped, [])

    def test_quoted_fields(self):
        d = parse('test,size,cpus,lat_p50_us\nsend_lat,64,"0,2",1.5\n')
        self.assertEqual(d.rows[0].m, M(lat_p50_us=1.5))

    def test_title_words_per_test(self):
        d = parse(csv_of(row(device="a", host="h1", op="fadd", rate=1),
                         row(device="b", host="h1", rate=1), row(device="a", rate=1)))
        self.assertEqual(d.words[("send_bw", "dev")], ["a", "b"])
        self.assertEqual(d.words[("send_bw", "host")], ["h1", "h"])
        self.assertEqual(d.words[("send_bw", "op")], ["fadd"])


class BadInput(unittest.TestCase):
    def reject(self, text, message):
        with self.assertRaises(plot.Unplottable) as cm:
            parse(text, "bad.csv")
        self.assertEqual(str(cm.exception), message)

    def test_not_a_header(self):
        self.reject("lorem ipsum\n\x01\x02 1;2;3\n",
                    "bad.csv:1: first line is not an rdmabench header (missing columns test,size)")
        self.reject("test,bw_avg_gbps\nsend_bw,1\n",
                    "bad.csv:1: first line is not an rdmabench header (missing column size)")

    def test_no_metric_column(self):
        self.reject("test,size,batch\nsend_bw,64,1\n",
                    "bad.csv:1: header has no metric column (lat_p50_us, lat_p99_us, lat_p999_us,"
                    " lat_max_us, bw_avg_gbps, msg_rate_mpps, cpu_ns_per_msg, loaded_p50_us,"
                    " loaded_p99_us, idle_p50_us, idle_p99_us, wr_p50_us or wr_p99_us)")

    def test_no_data_rows(self):
        self.reject(HDR + "\n", "bad.csv: no data rows")
        self.reject(csv_of(row(test=""), row(size="x")),
                    "bad.csv: no data rows (2 malformed row(s) skipped: lines 2, 3)")
        self.reject(csv_of(*[row(size=0)] * 7),
                    "bad.csv: no data rows (7 malformed row(s) skipped: lines 2, 3, 4, 5, 6 "
                    "and 2 more)")

    def test_empty(self):
        self.reject("", "bad.csv: empty file, no header row")

    def test_broken_quoting_names_the_line_it_starts_on(self):
        self.reject(csv_of(row(rate=1), '"send_bw,64', row(rate=2)),
                    "bad.csv:3: not CSV: unexpected end of data")
        self.reject(csv_of(row(rate=1), '"send"bw,64'),
                    "bad.csv:3: not CSV: ',' expected after '\"'")

    def test_nothing_to_plot(self):
        with self.assertRaises(plot.Unplottable) as cm:
            script(csv_of(row(), row(size=128)), base="none")
        self.assertEqual(str(cm.exception), "none.csv: no numeric metric values to plot")

    def test_missing_file(self):
        with self.assertRaises(plot.Unplottable) as cm:
            plot.read_csv(os.path.join(DATA, "no-such.csv"))
        self.assertTrue(str(cm.exception).endswith("no-such.csv: no such file"))


class Grouping(unittest.TestCase):
    def test_series_sizes_means(self):
        d = parse(csv_of(row(size=4096, batch=2, rate=1), row(size=64, batch=1, rate=2),
                         row(size=64, batch=2, rate=3), row(size=64, batch=2, rate=5)))
        g = plot.Group(d, "send_bw")
        self.assertEqual(g.sizes, [64.0, 4096.0])
        self.assertEqual(g.series, [("2", "1", "1", "128"), ("1", "1", "1", "128")])
        self.assertEqual(g.mean(1, 64.0, K("msg_rate_mpps")), 4.0)  # repeated points averaged
        self.assertIsNone(g.mean(2, 4096.0, K("msg_rate_mpps")))

    def test_labels_name_what_varies(self):
        d = parse(csv_of(row(batch=1, qps=1, p50=1, rate=1), row(batch=4, qps=2, p50=1, rate=1)))
        g = plot.Group(d, "send_bw")
        self.assertEqual(g.label(1, False), "batch 1 qps 1")      # latency: what varies
        self.assertEqual(g.label(2, True), "batch 4 signal 1 qps 2")  # rates: always b, s
        d = parse("test,size,msg_rate_mpps\nx,64,1\n")
        self.assertEqual(plot.Group(d, "x").label(1, True), "batch - signal -")

    def test_axis_values_numeric_then_text(self):
        d = parse(csv_of(*[row(batch=b, rate=1) for b in ("16", "2", "1", "x", "128")]))
        self.assertEqual(plot.Group(d, "send_bw").axis_values("b"), ["1", "2", "16", "128", "x"])


class Numbers(unittest.TestCase):
    def test_formats(self):
        self.assertEqual(plot.g(80.0), "80")
        self.assertEqual(plot.g(51.2), "51.2")
        self.assertEqual(plot.g(858993459.2), "8.58993e+08")
        self.assertEqual(plot.g(2.0 ** 32), "4.29497e+09")
        self.assertEqual(plot.num(2.0 ** 32), "4294967296")
        self.assertEqual([plot.human(n) for n in (64, 4096, 1 << 20, 3 << 30, 1500, 2.5)],
                         ["64", "4K", "1M", "3G", "1500", "2"])
        self.assertEqual([plot.size_text(n) for n in (4096, 1 << 20, 1500)],
                         ["4 KiB", "1 MiB", "1500 B"])
        self.assertEqual(plot.gq("it's"), "'it''s'")


class Charts(unittest.TestCase):
    def outputs(self, text, base="x"):
        return [os.path.basename(p) for p in script(text, base)[1]]

    def test_which_charts(self):
        lat = csv_of(row(test="send_lat", p50=1, p99=2, p999=3), row(test="send_lat", size=128, p50=1))
        self.assertEqual(self.outputs(lat), ["x-latency.png"])
        bw = csv_of(row(bw=1, rate=1), row(size=128, bw=2, rate=2))
        self.assertEqual(self.outputs(bw), ["x-bandwidth.png", "x-msgrate.png"])
        # heatmaps need both batch and signal to vary
        only_batch = csv_of(row(batch=1, rate=1), row(batch=2, rate=1))
        self.assertEqual(self.outputs(only_batch), ["x-msgrate.png"])
        both = csv_of(row(batch=1, signal=1, rate=1), row(batch=2, signal=4, rate=1),
                      row(size=256, batch=2, signal=4, rate=1))
        self.assertEqual(self.outputs(both), ["x-msgrate.png", "x-heatmap-64.png",
                                              "x-heatmap-256.png"])

    def test_heatmap_per_qps_and_depth_when_they_vary(self):
        rows = [row(batch=b, signal=s, qps=q, txd=t, rate=1)
                for q in (1, 4) for t in (64,) for b in (1, 2) for s in (1, 8)]
        self.assertEqual(self.outputs(csv_of(*rows))[1:],
                         ["x-heatmap-64-qps1.png", "x-heatmap-64-qps4.png"])

    def test_several_tests_name_each_and_unsafe_names(self):
        text = csv_of(row(test="send_lat", p50=1), row(test="my test/1", rate=1))
        self.assertEqual(self.outputs(text, "run"),
                         ["run-send_lat-latency.png", "run-my_test_1-msgrate.png"])

    def test_units_and_axes(self):
        text, _ = script(csv_of(row(p50=10, bw=1, rate=1), row(size=1 << 20, p50=20, bw=2, rate=2)))
        self.assertIn("set ylabel 'latency (us, log scale)'", text)
        self.assertIn("set ylabel 'bandwidth (Gb/s)'", text)
        self.assertIn("set ylabel 'msgrate (Mpps, log scale)'", text)
        self.assertIn("set xlabel 'message size (bytes, log2 scale)'", text)
        self.assertIn('set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, '
                      '"64K" 65536, "256K" 262144, "1M" 1048576)', text)
        self.assertIn("set title 'send_bw: Bandwidth against message size -- device dev0, host h'",
                      text)

    def test_one_value_gets_a_range(self):
        text, _ = script(csv_of(row(test="atomic", op="fadd", size=8, p50=4, bw=2)))
        self.assertIn("set yrange [2:8]", text)        # log: half to twice
        self.assertIn("set yrange [0:2.5]", text)      # linear: 0 to 1.25 times
        self.assertIn("set title 'atomic (fadd): Latency against message size", text)

    def test_legend_by_line_count(self):
        def key_of(nbatch):
            rows = [row(batch=b, rate=1) for b in range(1, nbatch + 1)]
            text, _ = script(csv_of(*rows))
            return [l for l in text.splitlines() if "key" in l and "opaque" not in l]
        self.assertEqual(key_of(8), ["set key bottom left"])
        self.assertEqual(key_of(9), ["set key outside right top font ',9'"])
        self.assertEqual(key_of(24), ["set key outside right top font ',9'"])
        self.assertEqual(key_of(25), ["unset key"])
        text, _ = script(csv_of(*[row(batch=b, rate=1) for b in range(1, 26)]))
        self.assertIn("(25 lines, legend omitted)'", text)
        self.assertNotIn(" pt ", text.split("$D25 << EOD")[1])  # lines, no markers

    def test_heatmap_cells(self):
        text, _ = script(csv_of(row(batch=1, signal=1, rate=1), row(batch=2, signal=1, rate=4),
                                row(batch=1, signal=8, rate=2)))
        self.assertIn('1 1 "n/a" 6316128', text)      # batch 2, signal 8: no point
        self.assertIn('1 0 "4" 16777215', text)       # dark cell, white text
        self.assertIn('0 0 "1" 0', text)
        self.assertIn("set cbrange [0:4]", text)
        self.assertIn("set title 'send_bw: msg_rate_mpps at 64 B -- device dev0, host h'", text)


class SameAsTheAwkVersion(unittest.TestCase):
    def test_fixtures(self):
        for base in ("sample_lat", "sample_bw", "sweep_qps"):
            with self.subTest(base=base):
                data = plot.read_csv(os.path.join(DATA, base + ".csv"))
                text, pngs = plot.build_script(data, TERM, "OUT", base, base)
                with open(os.path.join(DATA, "expected", base + ".gp")) as f:
                    want = f.read()
                self.maxDiff = None
                self.assertEqual(text, want)
                self.assertEqual(pngs, [l[len("set output '"):-1] for l in want.splitlines()
                                        if l.startswith("set output ")])


class FromTheMetricTable(unittest.TestCase):
    """What plot draws is the rows of `rdmabench --list-metrics`: a row more
    (test_metrics_extra's pattern) is a chart more, with no change here."""

    def test_a_new_row_is_drawn(self):
        import subprocess
        tsv = subprocess.run([plot.rdmabench_binary(), "--list-metrics"], check=True,
                             capture_output=True, text=True).stdout
        extra = "extra_pct\textra_pct\t%\tlower\textra\tExtra against message size\tno\n"
        saved = plot._TABLE
        try:
            plot._TABLE = plot.Table(tsv + extra)
            d = parse("test,size,extra_pct,lat_p50_us\nsend_bw,64,3,\nsend_bw,128,0,2\n")
            self.assertEqual(d.rows[0].m, {K("extra_pct"): 3.0})
            self.assertEqual(d.rows[1].m, {K("extra_pct"): 0.0, K("lat_p50_us"): 2.0})
            text, pngs = plot.build_script(d, TERM, "OUT", "x", "x")
            self.assertEqual(pngs, ["OUT/x-latency.png", "OUT/x-extra.png"])
            self.assertIn("set title 'send_bw: Extra against message size", text)
            self.assertIn("set ylabel 'extra (%)'", text)
            self.assertIn("set key top left", text)  # lower is better: above the line
        finally:
            plot._TABLE = saved

    def test_bad_listing(self):
        for tsv in ("", "name\tunit\n", "column\tjson\tunit\tbetter\tchart\tx\ty\na\tb\n"):
            with self.assertRaises(plot.Unplottable):
                plot.Table(tsv)


class CommandLine(unittest.TestCase):
    def test_parse_args(self):
        self.assertEqual(plot.parse_args(["r.csv"]), ("r.csv", "."))
        self.assertEqual(plot.parse_args(["d/r.csv", "-o", "o"]), ("d/r.csv", "o"))
        self.assertEqual(plot.parse_args(["--output", "o", "--", "-r.csv"]), ("-r.csv", "o"))
        self.assertIsNone(plot.parse_args(["r.csv", "--help"]))
        for bad, msg in ((["r.csv", "-o"], "option -o needs a directory"),
                         (["-o", "", "r.csv"], "option -o needs a non-empty directory"),
                         (["--bogus", "r.csv"], "unknown option: --bogus"),
                         (["a.csv", "b.csv"], "expected one CSV file, got more: b.csv"),
                         ([], "missing RESULTS.csv")):
            with self.assertRaises(plot.Usage) as cm:
                plot.parse_args(bad)
            self.assertEqual(str(cm.exception), msg)

    def test_base_of(self):
        self.assertEqual(plot.base_of("/a/run1.CSV"), "run1")
        self.assertEqual(plot.base_of("results"), "results")

    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = plot.main(["rdmabench-plot"] + list(args))
        return rc, out.getvalue(), err.getvalue()

    def test_exit_status(self):
        rc, out, err = self.run_main("--help")
        self.assertEqual((rc, err), (0, ""))
        self.assertTrue(out.startswith("Usage: rdmabench-plot RESULTS.csv|RESULTS.json [-o DIR]\n"))
        rc, out, err = self.run_main("--bogus")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "rdmabench-plot: unknown option: --bogus\n"
                              "Try 'rdmabench-plot --help'.\n")
        with tempfile.TemporaryDirectory() as tmp:
            missing = os.path.join(tmp, "gone.csv")
            rc, out, err = self.run_main(missing, "-o", tmp)
            self.assertEqual((rc, out, err), (1, "", "rdmabench-plot: %s: no such file\n" % missing))
            empty = os.path.join(tmp, "empty.csv")
            open(empty, "w").close()
            rc, out, err = self.run_main(empty)
            self.assertEqual((rc, err), (1, "rdmabench-plot: %s: empty file, no header row\n"
                                         % empty))


MHDR = "src_rank,src_host,src_device,dst_rank,dst_host,dst_device,test,size,bw_avg_gbps," \
       "msg_rate_mpps,lat_p50_us,lat_p99_us,status,retested,reason"


def mrow(src, dst, p50="", bw="", status="ok", test="send_lat", reason=""):
    return "%d,h%d,rxe%d,%d,h%d,rxe%d,%s,2,%s,,%s,,%s,0,%s" % (
        src, src, src, dst, dst, dst, test, bw, p50, status, reason)


def matrix(*rows):
    return plot.parse_matrix(io.StringIO(MHDR + "\n" + "\n".join(rows) + "\n", newline=""),
                             "m.csv")


class MatrixCsv(unittest.TestCase):
    def test_header_detection(self):
        self.assertTrue(plot.is_matrix_header(MHDR.split(",")))
        self.assertTrue(plot.is_matrix_header([" dst_rank", "src_rank "]))
        self.assertFalse(plot.is_matrix_header(HDR.split(",")))

    def test_cells_hosts_metric(self):
        m = matrix(mrow(0, 1, p50="150.5"), mrow(1, 0, p50="152"),
                   mrow(0, 2, p50="25000", status="bad", reason='"slow, very"'),
                   mrow(2, 0, status="failed", reason="rank 2 died"))
        self.assertEqual(m.metric, "lat_p50_us")
        self.assertEqual(m.cells[(0, 1)], ({"lat_p50_us": 150.5}, "ok"))
        self.assertEqual(m.cells[(0, 2)], ({"lat_p50_us": 25000.0}, "bad"))
        self.assertEqual(m.cells[(2, 0)], ({}, "failed"))
        self.assertEqual(m.hosts, {0: "h0", 1: "h1", 2: "h2"})
        self.assertEqual(m.tests, ["send_lat"])
        self.assertEqual(m.skipped, [])

    def test_bandwidth_wins_when_present(self):
        m = matrix(mrow(0, 1, bw="12.5", test="write_bw"), mrow(1, 0, bw="3", status="bad",
                                                              test="write_bw"))
        self.assertEqual(m.metric, "bw_avg_gbps")

    def test_bad_rows_skipped_by_line(self):
        m = matrix(mrow(0, 1, p50="1"), "x,h,d,1,h,d,t,2,,,1,,ok,0,", mrow(1, 1, p50="1"),
                   mrow(1, 0, p50="1", status="great"))
        self.assertEqual(sorted(m.cells), [(0, 1)])
        self.assertEqual(m.skipped, [3, 4, 5])

    def test_errors(self):
        with self.assertRaisesRegex(plot.Unplottable, r"^m.csv: no pairs$"):
            matrix("junk")
        with self.assertRaisesRegex(plot.Unplottable, r"^m.csv:1: not a matrix header"):
            plot.parse_matrix(io.StringIO("src_rank,dst_rank\n0,1\n"), "m.csv")
        with self.assertRaisesRegex(plot.Unplottable, r"^m.csv:3: not CSV"):
            matrix(mrow(0, 1, p50="1"), '0,h,"open')

    def test_script(self):
        m = matrix(mrow(0, 1, p50="150.5"), mrow(1, 0, p50="152"),
                   mrow(0, 2, p50="25000", status="bad"), mrow(2, 0, status="failed"))
        text, pngs = plot.matrix_script(m, TERM, "OUT", "m")
        self.assertEqual(pngs, ["OUT/m-matrix.png"])
        self.assertIn("set output 'OUT/m-matrix.png'", text)
        self.assertIn("lat_p50_us by pair, 3 ranks, 1 bad, 1 failed", text)
        blocks = {}
        for name in ("$V", "$X", "$B", "$T"):
            body = text.split(name + " << EOD\n", 1)[1].split("EOD\n", 1)[0]
            blocks[name] = body.splitlines()
        # x is the destination, y the source.
        self.assertEqual(blocks["$V"], ["1 0 150.5", "2 0 25000", "0 1 152"])
        self.assertEqual(blocks["$B"], ["2 0"])
        self.assertEqual(blocks["$X"], ["0 2", "0 0", "1 1", "2 2"])
        self.assertIn('0 2 "x" 6316128', blocks["$T"])
        self.assertIn('2 0 "25000" 16777215', blocks["$T"])
        self.assertIn("set cbrange [0:25000]", text)



class Json(unittest.TestCase):
    """A --json file: its results as the CSV's rows, and -H's histograms."""

    def load(self, doc):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(doc, f)
        try:
            self.assertTrue(plot.is_json(f.name))
            return plot.read_json(f.name)
        finally:
            os.unlink(f.name)

    def test_rows_and_histograms(self):
        h = {"edges_us": [1.0, 2.0, 3.0, 9.0], "counts": [5, 3, 1], "tail": True}
        d = self.load({"test": "send_lat", "host": "h", "device": {"name": "rxe0"},
                       "results": [
                           {"size": 2, "batch": 1, "signal": 1, "qps": 1, "tx_depth": 128,
                            "lat_us": {"p50": 1.5, "p99": 2.5, "p999": None},
                            "histogram": h},
                           {"size": 64, "batch": 1, "signal": 1, "qps": 1, "tx_depth": 128,
                            "lat_us": {"p50": 1.7, "p99": 2.7, "p999": 3.0},
                            "histogram": {"edges_us": [2.0, 1.0], "counts": [1]}},
                           {"batch": 1}]})
        self.assertEqual([(r.test, r.size, r.m) for r in d.rows],
                         [("send_lat", 2.0, M(lat_p50_us=1.5, lat_p99_us=2.5)),
                          ("send_lat", 64.0, M(lat_p50_us=1.7, lat_p99_us=2.7, lat_p999_us=3.0))])
        self.assertEqual(d.skipped, [3])
        self.assertEqual(d.bad_hists, [2])
        self.assertEqual([(x.size, x.counts, x.tail) for x in d.hists], [(2.0, [5, 3, 1], True)])
        text, pngs = plot.build_script(d, TERM, "OUT", "x", "x.json")
        self.assertEqual(pngs, ["OUT/x-latency.png", "OUT/x-histogram-2.png"])
        # The body's buckets at their midpoints, the tail one bucket past the body.
        self.assertIn("1.5 1 5\n2.5 1 3\nEOD", text)
        self.assertIn("4 1 1\nEOD", text)
        self.assertIn("tail: 1 up to 9 us", text)

    def test_names_say_what_varies(self):
        def hist(batch, size=64):
            return plot.Hist("send_lat", {"size": size, "batch": batch, "signal": 1, "qps": 1,
                                          "tx_depth": 128},
                             {"edges_us": [1, 2], "counts": [1]})
        names, vary = plot.hist_names([hist(1), hist(4), hist(4)])
        self.assertEqual(names, ["histogram-64-b1", "histogram-64-b4", "histogram-64-b4-2"])
        self.assertEqual(vary, ["batch"])
        self.assertEqual(plot.hist_names([hist(1, 2), hist(1)])[0],
                         ["histogram-2", "histogram-64"])

    def test_not_rdmabench_json(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write("[1, 2]")
        try:
            with self.assertRaises(plot.Unplottable) as e:
                plot.read_json(f.name)
            self.assertIn("no results array", str(e.exception))
        finally:
            os.unlink(f.name)
        self.assertEqual(plot.base_of("/a/run.JSON"), "run")

def update_expected():
    """Rewrite tests/data/plot/expected/*.gp (make update-plot-expected)."""
    for base in ("sample_lat", "sample_bw", "sweep_qps"):
        data = plot.read_csv(os.path.join(DATA, base + ".csv"))
        text, _ = plot.build_script(data, TERM, "OUT", base, base)
        with open(os.path.join(DATA, "expected", base + ".gp"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--update-expected"]:
        update_expected()
    else:
        unittest.main()
