#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The unit tests of the Python scripts, tests/scripts/test_*.py (unittest):
# scripts/plot and scripts/lib/perftest_report.py (bench-perftest's report).
# Automake protocol: 0 pass, 1 fail, 77 skip (no python3).

set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
TOP_SRCDIR=${TOP_SRCDIR:-$here/..}
export TOP_SRCDIR

if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not installed" >&2
	exit 77
fi

# -B: no __pycache__ in the source tree.  A run that finds no test fails.
exec python3 -B -c '
import sys, unittest
suite = unittest.defaultTestLoader.discover(sys.argv[1], top_level_dir=sys.argv[1])
result = unittest.TextTestRunner(verbosity=2).run(suite)
if result.testsRun == 0:
    print("FAIL: no tests found in %s" % sys.argv[1])
sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)' "$TOP_SRCDIR/tests/scripts"
