// SPDX-License-Identifier: MIT
/*
 * rdmabench reg --regions (issue 42), the pure parts: what fits, where
 * each stream WR reads, a size's figures, and their table, CSV and JSON.
 * reg_rgn_run.c registers and streams; reg_stream.c is the stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "core/csv.h"
#include "core/stats.h"
#include "rdma/memlock.h"
#include "reg/reg.h"
#include "reg/reg_int.h"

int rb_reg_rgn_fit(uint32_t n, uint64_t size, uint64_t memlock, bool binds, uint64_t max_mr,
		   uint64_t max_mr_size, const char *dev, char *err, size_t len)
{
	uint64_t total = (uint64_t)n * size;
	char l[64];

	/* A device that says 0 for a limit does not say it: not checked. */
	if (max_mr && (uint64_t)n + 1 > max_mr)
		return rb_set_err(err, len, -E2BIG,
				  "--regions %u: %s registers at most %" PRIu64 " memory regions "
				  "(max_mr), and the "
				  "stream needs one "
				  "more; "
				  "ask --regions %" PRIu64 " or fewer",
				  n, dev, max_mr, max_mr > 2 ? max_mr - 1 : 1);
	if (max_mr_size && total > max_mr_size)
		return rb_set_err(err, len, -E2BIG,
				  "--regions %u x -s %" PRIu64 ": the one region of %" PRIu64
				  " bytes is over %s's max_mr_size %" PRIu64 "; ask fewer or "
				  "smaller regions",
				  n, size, total, dev, max_mr_size);
	if (binds && memlock != RB_MEMLOCK_INF && total > memlock)
		return rb_set_err(err, len, -ENOMEM,
				  "--regions %u x -s %" PRIu64 ": %" PRIu64 " bytes pinned at "
				  "once, over "
				  "RLIMIT_MEMLOCK %s; "
				  "raise it "
				  "(ulimit -l unlimited; /etc/security/limits.conf, "
				  "LimitMEMLOCK=infinity for a service) or ask fewer or smaller "
				  "regions",
				  n, size, total, rb_memlock_fmt(memlock, l, sizeof(l)));
	return 0;
}

uint64_t rb_reg_rgn_src(uint64_t j, uint32_t n, uint64_t size, uint64_t page, uint32_t *region)
{
	uint64_t pages = size > page ? size / page : 1;

	*region = (uint32_t)(j % n);
	return *region * size + (j / n) % pages * page;
}

uint32_t rb_reg_rgn_msg(uint64_t size)
{
	return size < RB_REG_RGN_MSG ? (uint32_t)size : RB_REG_RGN_MSG;
}

int rb_reg_rgn_figures(struct rb_samples *reg_n, struct rb_samples *dereg_n,
		       struct rb_samples *reg_one, struct rb_samples *dereg_one,
		       struct rb_reg_rgn *g)
{
	if (!reg_n->n || reg_n->n != dereg_n->n || reg_n->n != reg_one->n ||
	    reg_n->n != dereg_one->n || !g->n)
		return -EINVAL;
	g->rounds = reg_n->n;
	if (rb_lat_summarize(reg_n, 1.0, &g->reg_n) ||
	    rb_lat_summarize(dereg_n, 1.0, &g->dereg_n) ||
	    rb_lat_summarize(reg_one, 1.0, &g->reg_one) ||
	    rb_lat_summarize(dereg_one, 1.0, &g->dereg_one))
		return -EINVAL;
	g->reg_per_region_us = g->reg_n.p50 / g->n;
	g->dereg_per_region_us = g->dereg_n.p50 / g->n;
	return 0;
}

/* ---- writers -------------------------------------------------------------- */

void rb_reg_rgn_head(FILE *f)
{
	fprintf(f, "%12s %8s %6s %14s %12s %14s %14s %12s %10s %10s\n", "size", "regions", "rounds",
		"regN_p50[us]", "per_rgn[us]", "dregN_p50[us]", "reg1_p50[us]", "dreg1_p50[us]",
		"N[Mpps]", "1[Mpps]");
}

void rb_reg_rgn_row(FILE *f, const struct rb_reg_point *p)
{
	const struct rb_reg_rgn *g = &p->rgn;

	fprintf(f,
		"%12" PRIu64 " %8u %6" PRIu64 " %14.2f %12.3f %14.2f %14.2f %12.2f %10.4g %10.4g\n",
		p->size, g->n, g->rounds, g->reg_n.p50, g->reg_per_region_us, g->dereg_n.p50,
		g->reg_one.p50, g->dereg_one.p50, g->pass_n.mpps, g->pass_one.mpps);
}

void rb_reg_rgn_notes(FILE *f, const struct rb_reg_point *p)
{
	const struct rb_reg_rgn *g = &p->rgn;

	fprintf(f,
		"note: size %" PRIu64 ": the stream: %" PRIu64 " RDMA WRITEs of %u bytes a pass, "
		"%u in flight, through %u regions' keys, then through one region's\n",
		p->size, g->pass_n.wrs, g->msg, g->depth, g->n);
}

const char *const rb_reg_rgn_csv_cols = "regions,rgn_rounds,rgn_reg_p50_us,rgn_reg_per_region_us,"
					"rgn_dereg_p50_us,"
					"rgn_dereg_per_region_us,one_reg_p50_us,one_dereg_p50_us,"
					"rgn_msg_bytes,rgn_depth,"
					"rgn_wrs,rgn_n_mpps,rgn_one_mpps";

void rb_reg_rgn_csv(FILE *f, const struct rb_reg_point *p)
{
	const struct rb_reg_rgn *g = &p->rgn;
	double v[] = { g->reg_n.p50,	       g->reg_per_region_us, g->dereg_n.p50,
		       g->dereg_per_region_us, g->reg_one.p50,	     g->dereg_one.p50 };
	size_t i;

	if (!p->has_rgn) {
		fputs(",,,,,,,,,,,,,", f);
		return;
	}
	fprintf(f, ",%u,%" PRIu64, g->n, g->rounds);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fputc(',', f);
		rb_csv_num(f, v[i]);
	}
	fprintf(f, ",%u,%u,%" PRIu64 ",", g->msg, g->depth, g->pass_n.wrs);
	rb_csv_num(f, g->pass_n.mpps);
	fputc(',', f);
	rb_csv_num(f, g->pass_one.mpps);
}

static json_t *jpass(const struct rb_reg_pass *p)
{
	return json_pack("{s:I, s:o, s:o}", "wrs", (json_int_t)p->wrs, "duration_s",
			 rb_reg_jnum((double)(p->t1 - p->t0) / 1e9), "msg_rate_mpps",
			 rb_reg_jnum(p->mpps));
}

json_t *rb_reg_rgn_json(const struct rb_reg_point *p)
{
	const struct rb_reg_rgn *g = &p->rgn;

	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o}", "n",
			 (json_int_t)g->n, "rounds", (json_int_t)g->rounds, "reg_us",
			 rb_reg_jlat(&g->reg_n), "dereg_us", rb_reg_jlat(&g->dereg_n),
			 "reg_per_region_us", rb_reg_jnum(g->reg_per_region_us),
			 "dereg_per_region_us", rb_reg_jnum(g->dereg_per_region_us), "one_reg_us",
			 rb_reg_jlat(&g->reg_one), "one_dereg_us", rb_reg_jlat(&g->dereg_one),
			 "msg_bytes", (json_int_t)g->msg, "depth", (json_int_t)g->depth,
			 "stream_regions", jpass(&g->pass_n), "stream_one", jpass(&g->pass_one));
}
