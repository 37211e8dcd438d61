/* SPDX-License-Identifier: MIT */
/*
 * What reg's files share and no one else needs: reg.c's JSON helpers,
 * and the --regions columns, rows and members its writers add
 * (reg_rgn.c).
 */
#ifndef RB_REG_INT_H
#define RB_REG_INT_H

#include <jansson.h>
#include <stdio.h>

#include "reg/reg.h"

struct rb_dev;

/* ibv_reg_mr() and ibv_dereg_mr() timed into *@ns; 0 or -errno, not logged (reg_run.c). */
int rb_reg_timed(struct ibv_pd *pd, void *buf, size_t len, int access, struct ibv_mr **mr,
		 uint64_t *ns);
int rb_reg_dereg_timed(struct ibv_mr *mr, uint64_t *ns);
/* Whether a size that began at @t0 spent its RB_REG_BUDGET_NS (after @i calls, at least one). */
bool rb_reg_over_budget(uint64_t t0, uint64_t i);

/*
 * rb_reg_points() - each size of @r's sweep measured by @fn(@arg) into its
 * point (0, or -errno with the point's reason: the run ends), the files
 * rewritten after each; @r's npt, complete and reason set.  Returns the
 * failing point's error (reg_run.c).
 */
typedef int rb_reg_point_fn(void *arg, uint64_t size, struct rb_reg_point *pt);
int rb_reg_points(struct rb_reg_run *r, rb_reg_point_fn *fn, void *arg);

/*
 * rb_reg_rgn_rounds() - a size's timed rounds alone (what --regions does
 * before its stream), pt->size, pt->asked and pt->rgn.n set, @buf holding
 * n x size bytes, into pt->rgn; a registration refused undoes the round's
 * others and fails the point (its reason, the memlock hint).  For
 * test_reg_rgn: rb_reg_rgn_measure() runs the same rounds.
 */
int rb_reg_rgn_rounds(struct rb_dev *d, const struct rb_reg_cfg *c, char *buf,
		      struct rb_reg_point *pt);

/* rb_reg_rgn_measure() - --regions on open device @d, through rb_reg_points() (reg_rgn_run.c). */
int rb_reg_rgn_measure(struct rb_dev *d, struct rb_reg_run *r);

/* A finite number, else null; a latency summary's members. */
json_t *rb_reg_jnum(double v);
json_t *rb_reg_jlat(const struct rb_lat_summary *s);

/* --regions in the table: its header, a size's row, a note on the stream. */
void rb_reg_rgn_head(FILE *f);
void rb_reg_rgn_row(FILE *f, const struct rb_reg_point *p);
void rb_reg_rgn_notes(FILE *f, const struct rb_reg_point *p);
/* The CSV's --regions columns (after reason), and a row's cells (empty without). */
extern const char *const rb_reg_rgn_csv_cols;
void rb_reg_rgn_csv(FILE *f, const struct rb_reg_point *p);
/* A point's "regions" member; NULL when out of memory. */
json_t *rb_reg_rgn_json(const struct rb_reg_point *p);

#endif
