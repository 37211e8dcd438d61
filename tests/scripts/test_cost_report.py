# SPDX-License-Identifier: MIT
"""Unit tests of scripts/lib/cost_report.py (scripts/cost's report and the
regression check of tests/lab/cost.sh): the callgrind parser (name
compression, self and inclusive costs), the figures from a run's counts,
and the check's verdict on both sides of the tolerance.

The callgrind file is written here by hand, in callgrind's own format,
with round numbers whose figures can be worked out on paper.
"""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

TOP = os.environ.get("TOP_SRCDIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..")
sys.path.insert(0, os.path.join(TOP, "scripts", "lib"))
import cost_report as cr  # noqa: E402

# 100 messages in 10 chains, 10 completions in 10 full polls, 5 empty polls,
# 64 probes of an empty poll on the shim's CQ.
#   tool: main 1000 + run_loop 2000 self                      = 3000
#   post thunk: self 40, provider below it 8000 (incl 8040)
#   poll thunk: self 60, provider 15 polls: 10 x 50 + 5 x 40 = 700 (incl 760)
#   probe thunk: self 256, provider 64 x 40 = 2560 (incl 2816)
#   shim wrappers' self: 500
# total = 3000 + 8040 + 760 + 2816 + 500 = 15116
CG = """# callgrind format
version: 1
positions: line
events: Ir
summary: 15116

ob=(1) /usr/bin/tool
fl=(1) ???
fn=(1) main
0 1000
cfn=(2) run_loop
calls=1 0
0 14116

fn=(2)
0 2000
cob=(2) /x/costshim.so
cfn=(3) cost_post_send
calls=10 0
0 8300
cob=(2)
cfn=(4) cost_poll_cq
calls=15 0
0 1000
cob=(2)
cfn=(7) probe_empty
calls=1 0
0 2816

ob=(2)
fn=(3)
0 260
cfn=(5) cost_prov_post_send
calls=10 0
0 8040

fn=(4)
0 240
cfn=(6) cost_prov_poll_cq
calls=15 0
0 760

fn=(7)
0 0
cfn=(8) cost_prov_poll_probe
calls=64 0
0 2816

fn=(5)
0 40
cob=(3) /usr/lib/librxe.so
cfn=(9) 0x3cc0
calls=10 0
0 8000

fn=(6)
0 60
cob=(3)
cfn=(10) 0x2ca0
calls=15 0
0 700

fn=(8)
0 256
cob=(3)
cfn=(10)
calls=64 0
0 2560

ob=(3)
fn=(9)
0 8000
fn=(10)
0 3260

totals: 15116
"""

COUNTS = """state=closed
bad=0
want_sends=100
want_recvs=0
sends=100
signaled=10
send_cqes=10
recv_cqes=0
errors=0
w_sends=100
w_chains=10
w_recv_wrs=0
w_recv_calls=0
w_polls_empty=5
w_polls_full=10
w_send_cqes=10
w_recv_cqes=0
w_max_per_poll=1
late_sends=0
probes=64
"""


class CostReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.raw = os.path.join(self.dir, "raw")
        os.mkdir(self.raw)
        self.write("rdmabench-send_bw-r1", CG, COUNTS)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, stem, cg, counts):
        with open(os.path.join(self.raw, stem + ".cg"), "w") as f:
            f.write(cg)
        with open(os.path.join(self.raw, stem + ".cost"), "w") as f:
            f.write(counts)

    def test_parser(self):
        cg = cr.Callgrind(os.path.join(self.raw, "rdmabench-send_bw-r1.cg"))
        self.assertEqual(cg.total, 15116)
        self.assertEqual(cg.fn_incl("cost_prov_post_send"), 8040)
        self.assertEqual(cg.fn_self("cost_prov_post_send", "costshim"), 40)
        self.assertEqual(cg.fn_calls("cost_prov_poll_probe"), 64)
        # A name given once by number is found again by it.
        self.assertEqual(cg.fn_self("0x2ca0"), 3260)
        self.assertEqual(cg.obj_self("costshim"), 260 + 240 + 40 + 60 + 256)

    def test_figures(self):
        stem = os.path.join(self.raw, "rdmabench-send_bw-r1")
        f = cr.figures(stem + ".cg", stem + ".cost")
        self.assertEqual(f["empty_poll"], 40.0)
        # provider post 8000 over 100 messages
        self.assertEqual(f["post_per_msg"], 80.0)
        # provider polls 700, less 5 empty x 40, over 10 completions
        self.assertEqual(f["reap_per_cqe"], 50.0)
        # total less the shim (856), the probe's provider part (2560) and
        # the empty polls (200): 11500
        self.assertEqual(f["loop_per_msg"], 115.0)
        # the loop less post (8000) and reap (500): the tool's 3000
        self.assertEqual(f["tool_per_msg"], 30.0)
        self.assertEqual(f["repost_per_msg"], 0.0)

    def test_figures_wr_api(self):
        # --post-api wr: the provider's posting is under the cost_prov_wr_*
        # thunks (here all of it under wr_complete): post_per_msg the same.
        wr = CG.replace("cfn=(5) cost_prov_post_send", "cfn=(5) cost_prov_wr_complete")
        self.write("rdmabench-write_bw-r1", wr, COUNTS)
        stem = os.path.join(self.raw, "rdmabench-write_bw-r1")
        f = cr.figures(stem + ".cg", stem + ".cost")
        self.assertEqual(f["post_per_msg"], 80.0)
        self.assertEqual(f["tool_per_msg"], 30.0)

    def test_window_not_closed(self):
        self.write("rdmabench-send_lat-r1", CG, COUNTS.replace("state=closed", "state=open"))
        rows = dict(((t, c), f) for t, c, r, f in cr.runs(self.raw))
        self.assertIsInstance(rows[("rdmabench", "send_lat")], str)
        self.assertIn("never closed", rows[("rdmabench", "send_lat")])

    def test_report_and_check(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            self.assertEqual(cr.cmd_report(self.dir), 0)
        base = os.path.join(self.dir, "cost.csv")
        with open(os.path.join(self.dir, "summary.md")) as f:
            self.assertIn("| send_bw | loop_per_msg | 115.0 |", f.read())
        with contextlib.redirect_stdout(out):
            self.assertEqual(cr.cmd_check(base, self.raw, 5.0), 0)
        # 6% more tool code than the table: a regression.
        slower = CG.replace("0 2000\n", "0 2180\n").replace("15116", "15296")
        self.write("rdmabench-send_bw-r1", slower, COUNTS)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(cr.cmd_check(base, self.raw, 5.0), 1)
        self.assertIn("REGRESSION", out.getvalue())
        # Within the tolerance it passes.
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(cr.cmd_check(base, self.raw, 7.0), 0)

    def test_cq_api_variant(self):
        # scripts/cost --cq-api classic,ex: rdmabench+ex is a tool of its
        # own, a column beside rdmabench, and ex / classic is reported.
        ex = CG.replace("0 2000\n", "0 1000\n").replace("15116", "14116")
        self.write("rdmabench+ex-send_bw-r1", ex, COUNTS)
        tools = sorted(t for t, c, r, f in cr.runs(self.raw))
        self.assertEqual(tools, ["rdmabench", "rdmabench+ex"])
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(cr.cmd_report(self.dir), 0)
        with open(os.path.join(self.dir, "summary.md")) as f:
            text = f.read()
        self.assertIn("| case | figure | rdmabench | rdmabench+ex | perftest |", text)
        self.assertIn(" rdmabench+ex / rdmabench |", text)
        # loop 115.0 against 105.0: ex / classic 0.91
        self.assertIn("| send_bw | loop_per_msg | 115.0 | 105.0 | - | - | - | 0.91 |", text)
        # The regression check holds rdmabench (classic) alone.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(cr.cmd_check(os.path.join(self.dir, "cost.csv"), self.raw, 5.0), 0)
        self.assertNotIn("rdmabench+ex", out.getvalue())

    def test_limit_floor(self):
        # 5% of a large figure; half an instruction a message for a small one.
        self.assertAlmostEqual(cr.limit_of(500.0, 5.0), 525.0)
        self.assertAlmostEqual(cr.limit_of(4.07, 5.0), 4.57)
        self.assertAlmostEqual(cr.limit_of(10.0, 5.0), 10.5)


if __name__ == "__main__":
    unittest.main()
