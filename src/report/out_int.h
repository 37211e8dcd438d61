/* SPDX-License-Identifier: MIT */
/*
 * What the writers of output.h (out_table.c, out_csv.c, out_json.c and
 * output.c) share; nothing outside src/report/ includes it.
 */
#ifndef RB_OUT_INT_H
#define RB_OUT_INT_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include "report/output.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

extern const struct rb_writer_ops rb_table_ops, rb_csv_ops, rb_json_ops, rb_jsonl_ops;

static inline int file_status(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

static inline const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* A --threads run's rows: a column says whose (a thread's, or "all"). */
bool rb_out_by_thread(const struct rb_doc *r);
const char *rb_out_thread_cell(const struct rb_result *res, char *buf, size_t len);
/* -b: each direction's columns. */
bool rb_out_bidir_cols(const struct rb_doc *r);
/*
 * A run that swept how points wait (--poll busy,event, --cqe-poll) or
 * chose other than the default --cqe-poll: columns of each, which the
 * point's row says (the table adds CPU and wake-ups per message).
 */
bool rb_out_wait_cols(const struct rb_doc *r);
/*
 * issue 42/40: a lock test's rows say each point's lock and hold (the CSV
 * always, the table where the axis varies); a plan with --cq-moderation
 * each point's moderation.  rb_out_lock_word(): --lock's word for @v.
 */
bool rb_out_lock(const struct rb_doc *r);
bool rb_out_lock_algo(const struct rb_doc *r);
const char *rb_out_lock_word(uint64_t v, char *buf, size_t len);
/* out_json.c: a point's lock, hold_us and cq_moderation members, where the run has them. */
int rb_json_point_axes(json_t *o, const struct rb_doc *r, const struct rb_result *res);
/* A --interval slice as a result of its own. */
struct rb_result rb_out_iv_result(const struct rb_point *pt, const struct rb_interval *iv);
/* out_json.c: the document's closing members (complete, reason, diag). */
int rb_json_finish(json_t *doc, const struct rb_doc *r);
/* out_csv.c: the CSV header line onto @f. */
void rb_csv_header_put(FILE *f);

#endif
