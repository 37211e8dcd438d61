/* SPDX-License-Identifier: MIT */
/*
 * The one CSV cell writer (RFC 4180) behind every CSV rdmabench writes:
 * the results (output.c), the matrix (matrix.c), the counters' columns
 * (counters.c) and the samples (samples_file.c).  A text cell is quoted
 * only when it must be (a comma, a double quote, CR or LF in it), a quote
 * inside doubled; a figure is written in one number format, RB_CSV_NUM.
 * The callers write the separators: a cell function writes the cell alone.
 */
#ifndef RB_CSV_H
#define RB_CSV_H

#include <stdio.h>

/*
 * Nine significant digits: every figure keeps at least the digits the
 * fixed formats it replaces kept (%.3f below 1e6, %.6f below 1e3, the
 * samples' %.4f below 1e5), and a small one (a slow --rate's Mpps) no
 * longer rounds to 0.  No padding zeros: 5.000 is written 5.
 */
#define RB_CSV_NUM "%.9g"

/* rb_csv_str() - text cell @s, quoted only when needed; NULL is an empty cell. */
void rb_csv_str(FILE *f, const char *s);

/* rb_csv_num() - figure @v in RB_CSV_NUM; NaN or infinity is an empty cell. */
void rb_csv_num(FILE *f, double v);

#endif
