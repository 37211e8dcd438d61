/* SPDX-License-Identifier: MIT */
/*
 * perftest's report format (--format perftest, and the default under a
 * perftest name such as ib_write_bw): a banner that says which rdmabench
 * wrote it, the run's settings, then perftest's result header and one data
 * line per point, in its columns and units (MB/sec is MiB/s; Gb/sec with
 * --report_gbits), so that wrappers that read perftest's text read ours.
 * Pure: it writes to the writer's stream.
 */
#ifndef RB_OUT_PERFTEST_H
#define RB_OUT_PERFTEST_H

#include "report/output.h"

extern const struct rb_writer_ops rb_perftest_writer;
/* --output: a point's one figure a line, "%lf" as perftest's (bandwidth in
 * the table's unit, Mpps, perftest's average us) */
extern const struct rb_writer_ops rb_value_writer;

/*
 * rb_perftest_cmd() - the test that perftest's program @prog (a basename:
 * "ib_write_bw") runs here ("write_bw"), or NULL when @prog is none of
 * perftest's.
 */
const char *rb_perftest_cmd(const char *prog);

#endif
