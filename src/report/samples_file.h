/* SPDX-License-Identifier: MIT */
/*
 * --samples FILE (-U): every latency sample of every point, in the order
 * measured, as CSV: one header, then a row per sample with the point's
 * axes (as the results CSV names them), the 1-based iteration and the
 * one-way (or round-trip, as lat_us) latency in microseconds; with -C a
 * lat_ticks column follows, in the clock's ticks (clock.h).
 *
 * The file is written as the points finish into FILE.tmp.PID and renamed
 * over FILE when the run ends (also when it fails or is interrupted, with
 * the points that finished), so that FILE is never half a file; a device
 * or a pipe (/dev/stdout) is written in place (atomic_file.h).
 */
#ifndef RB_SAMPLES_FILE_H
#define RB_SAMPLES_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include "core/atomic_file.h"
#include "core/rdmabench.h"
#include "core/stats.h"

struct rb_samples_file {
	FILE *f;	    /* NULL: not open */
	bool ticks;	    /* -C: the lat_ticks column */
	struct rb_afile af; /* where it ends up, and how */
};

/* rb_samples_header() - the CSV header, no newline. */
const char *rb_samples_header(bool ticks);

/* rb_samples_file_open() - start @path's file with its header; 0 or -errno, logged. */
int rb_samples_file_open(struct rb_samples_file *sf, const char *path, bool ticks);

/*
 * rb_samples_write() - the rows of @n samples @v (ticks, as measured) of
 * point @pt of @test (@op: the atomic's, or NULL), times @us_per_tick for
 * lat_us and @ticks_per_tick for lat_ticks (0.5 for one-way from round
 * trips).  Pure but for @f; returns 0 or -EIO.
 */
int rb_samples_write(FILE *f, bool ticks, const char *test, const char *op,
		     const struct rb_point *pt, const uint64_t *v, size_t n, double us_per_tick,
		     double ticks_per_tick);

/*
 * rb_samples_file_point() - one point's samples @s into the file: in
 * measurement order, so before rb_lat_summarize() sorts them.  A point
 * past RB_SAMPLES_EXACT_MAX samples kept only buckets: it has no rows, and
 * a warning says so.  0 or -errno, logged.
 */
int rb_samples_file_point(struct rb_samples_file *sf, const char *test, const char *op,
			  const struct rb_point *pt, const struct rb_samples *s, double us_per_tick,
			  double ticks_per_tick);

/* rb_samples_file_close() - flush, close and rename into place; 0 or -errno, logged. */
int rb_samples_file_close(struct rb_samples_file *sf);

#endif
