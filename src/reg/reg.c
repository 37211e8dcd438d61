// SPDX-License-Identifier: MIT
/*
 * rdmabench reg, the pure parts: option checks, a point's figures and the
 * writers (table, CSV, JSON).  reg_run.c measures.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "core/atomic_file.h"
#include "core/csv.h"
#include "rdma/memlock.h"
#include "rdma/access.h"
#include "reg/reg.h"
#include "reg/reg_int.h"
#include "core/stats.h"
#include "core/sweep.h"
#include "topo/topo.h"

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#define fail(err, len, ...) rb_set_err(err, len, -EINVAL, __VA_ARGS__)

static int reg_odp(const struct rb_reg_opts *o, struct rb_reg_cfg *cfg, char *err, size_t len)
{
	bool mode = o->given[RB_REG_R_ODP_MODE];

	cfg->odp = RB_REG_ODP_NONE;
	if (o->odp || mode)
		cfg->odp = o->odp_mode ? RB_REG_ODP_IMPLICIT : RB_REG_ODP_EXPLICIT;
	cfg->prefetch = o->prefetch || cfg->odp == RB_REG_ODP_IMPLICIT;
	if (o->prefetch && cfg->odp == RB_REG_ODP_NONE)
		return fail(err, len,
			    "--prefetch needs --odp: it prefetches an on-demand paging MR "
			    "(ibv_advise_mr)");
	return 0;
}

/* --regions and -t: what goes with them. */
static int reg_regions(const struct rb_reg_opts *o, struct rb_reg_cfg *cfg, char *err, size_t len)
{
	cfg->regions = o->regions;
	cfg->depth = o->given[RB_REG_R_DEPTH] ? o->depth : RB_REG_RGN_DEF_DEPTH;
	if (o->given[RB_REG_R_DEPTH] && !o->regions)
		return fail(err, len, "-t/--tx-depth is the --regions stream's: give --regions N");
	if (o->regions && (o->odp || o->given[RB_REG_R_ODP_MODE] || o->prefetch))
		return fail(err, len,
			    "--regions times pinned registrations and streams through them: not "
			    "with --odp, --odp-mode or --prefetch");
	return 0;
}

int rb_reg_config(const struct rb_reg_opts *o, uint64_t page_size, struct rb_reg_cfg *cfg,
		  char *err, size_t len)
{
	const char *acc = o->access[0] ? o->access : "local-write";
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->size = o->size;
	if (!o->given[RB_REG_R_SIZE] &&
	    rb_axis_parse(o->regions ? RB_REG_RGN_DEF_SIZE : RB_REG_DEF_SIZES, true, &cfg->size,
			  err, len))
		return -EINVAL;
	cfg->count = o->given[RB_REG_R_ITERS] ? o->iters : RB_REG_DEF_COUNT;
	ret = reg_regions(o, cfg, err, len);
	if (ret)
		return ret;
	cfg->hugepages = o->hugepages;
	cfg->unaligned = o->unaligned;
	cfg->page_size = cfg->hugepages ? RB_HUGE_PAGE : page_size;
	ret = reg_odp(o, cfg, err, len);
	if (!ret)
		ret = rb_reg_access_parse(acc, &cfg->access, err, len);
	if (ret)
		return ret;
	snprintf(cfg->access_text, sizeof(cfg->access_text), "%s", acc);
	cfg->device = o->device[0] ? o->device : NULL;
	cfg->json_path = o->json[0] ? o->json : NULL;
	cfg->csv_path = o->csv[0] ? o->csv : NULL;
	return 0;
}

uint64_t rb_reg_pages(uint64_t size, uint64_t offset, uint64_t page)
{
	if (!size || !page)
		return 0;
	return (offset % page + size + page - 1) / page;
}

static bool has(const struct rb_samples *s)
{
	return s && s->n;
}

int rb_reg_figures(struct rb_samples *reg, struct rb_samples *dereg, struct rb_samples *pre,
		   struct rb_reg_point *pt)
{
	double gib = (double)(1ULL << 30);

	pt->has_reg = has(reg) && has(dereg) && !rb_lat_summarize(reg, 1.0, &pt->reg) &&
		      !rb_lat_summarize(dereg, 1.0, &pt->dereg);
	pt->has_prefetch = has(pre) && !rb_lat_summarize(pre, 1.0, &pt->prefetch);
	if (!pt->has_reg && !pt->has_prefetch)
		return -EINVAL;
	pt->done = pt->has_reg ? reg->n : pre->n;
	pt->ok = true;
	if (!pt->has_reg)
		return 0;
	pt->reg_ms_per_gib = pt->reg.p50 / 1e3 * gib / (double)pt->size;
	pt->dereg_ms_per_gib = pt->dereg.p50 / 1e3 * gib / (double)pt->size;
	pt->reg_pages_per_s = pt->reg.p50 > 0 ? (double)pt->pages / (pt->reg.p50 / 1e6) : NAN;
	return 0;
}

/* ---- the table ------------------------------------------------------------ */

static const char *odp_name(enum rb_reg_odp o)
{
	return o == RB_REG_ODP_IMPLICIT	  ? "implicit"
	       : o == RB_REG_ODP_EXPLICIT ? "explicit"
					  : "none";
}

static void table_head(FILE *f, const struct rb_reg_run *r)
{
	const struct rb_reg_cfg *c = r->cfg;
	char l[64];

	fprintf(f, "reg on %s: %" PRIu64 " %s per size, access %s, ",
		r->device[0] ? r->device : "-", c->count, c->regions ? "rounds" : "registrations",
		c->access_text);
	fprintf(f, "%" PRIu64 " KiB pages%s, odp %s%s\n", c->page_size >> 10,
		c->unaligned ? ", buffers 64 bytes into a page" : "", odp_name(c->odp),
		c->prefetch ? " with prefetch" : "");
	fprintf(f, "RLIMIT_MEMLOCK %s\n", rb_memlock_fmt(c->memlock, l, sizeof(l)));
	if (r->implicit_reg_us >= 0)
		fprintf(f, "implicit ODP MR (whole address space): registered in %.2f us\n",
			r->implicit_reg_us);
	if (c->regions) {
		fprintf(f,
			"--regions %u: %u regions of each size against one region of %u x it, "
			"registered and deregistered each round\n",
			c->regions, c->regions, c->regions);
		rb_reg_rgn_head(f);
		return;
	}
	fprintf(f, "%12s %8s %6s %12s %12s %12s %12s %12s %12s %12s\n", "size", "pages", "regs",
		"reg_p50[us]", "reg_p99[us]", "dreg_p50[us]", "dreg_p99[us]", "reg[ms/GiB]",
		"pages/s", "pf_p50[us]");
}

static void table_row(FILE *f, const struct rb_reg_point *p)
{
	/* A failure's hint (after "; ") is on stderr and in the JSON already. */
	if (!p->ok) {
		fprintf(f, "%12" PRIu64 " %8" PRIu64 " %s: %.*s\n", p->size, p->pages,
			p->failed ? "failed" : "n/a", (int)strcspn(p->reason, ";"), p->reason);
		return;
	}
	if (p->has_rgn) {
		rb_reg_rgn_row(f, p);
		return;
	}
	fprintf(f, "%12" PRIu64 " %8" PRIu64 " %6" PRIu64, p->size, p->pages, p->done);
	if (p->has_reg)
		fprintf(f, " %12.2f %12.2f %12.2f %12.2f %12.4g %12.4g", p->reg.p50, p->reg.p99,
			p->dereg.p50, p->dereg.p99, p->reg_ms_per_gib, p->reg_pages_per_s);
	else
		fprintf(f, " %12s %12s %12s %12s %12s %12s", "-", "-", "-", "-", "-", "-");
	if (p->has_prefetch)
		fprintf(f, " %12.2f\n", p->prefetch.p50);
	else
		fprintf(f, " %12s\n", "-");
}

void rb_reg_table(FILE *f, const struct rb_reg_run *r)
{
	size_t i;

	table_head(f, r);
	for (i = 0; i < r->npt; i++)
		table_row(f, &r->pt[i]);
	for (i = 0; i < r->npt; i++) {
		const struct rb_reg_point *p = &r->pt[i];

		if (p->ok && p->done < p->asked)
			fprintf(f,
				"note: size %" PRIu64 ": %" PRIu64 " of %" PRIu64 " %s, "
				"the time bound "
				"(%llu s a size) "
				"reached\n",
				p->size, p->done, p->asked, p->has_rgn ? "rounds" : "registrations",
				RB_REG_BUDGET_NS / 1000000000ULL);
		if (p->ok && p->has_rgn)
			rb_reg_rgn_notes(f, p);
		if (p->ok && p->prefetch_na[0])
			fprintf(f, "note: size %" PRIu64 ": no prefetch figure: %s\n", p->size,
				p->prefetch_na);
	}
	if (r->odp_na[0])
		fprintf(f, "note: on-demand paging n/a: %s\n", r->odp_na);
	if (r->implicit_reg_us >= 0)
		fprintf(f, "note: the points are prefetches of each buffer through the implicit "
			   "MR\n");
}

/* ---- CSV ------------------------------------------------------------------ */

static const char *const csv_cols = "size,offset,page_size,pages,asked,iterations,status,reg_p50_"
				    "us,reg_p99_us,"
				    "dereg_p50_us,dereg_p99_us,reg_ms_per_gib,dereg_ms_per_gib,reg_"
				    "pages_per_s,"
				    "prefetch_p50_us,prefetch_p99_us,reason";

static void csv_nums(FILE *f, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputc(',', f);
		rb_csv_num(f, v[i]);
	}
}

static void csv_row(FILE *f, const struct rb_reg_cfg *c, const struct rb_reg_point *p)
{
	double fig[] = { p->reg.p50,	     p->reg.p99,	p->dereg.p50,
			 p->dereg.p99,	     p->reg_ms_per_gib, p->dereg_ms_per_gib,
			 p->reg_pages_per_s, p->prefetch.p50,	p->prefetch.p99 };
	size_t n = sizeof(fig) / sizeof(fig[0]), i;

	if (!p->has_prefetch)
		fig[n - 1] = fig[n - 2] = NAN;
	if (!p->has_reg)
		for (i = 0; i < n - 2; i++)
			fig[i] = NAN;
	if (!p->ok)
		for (i = 0; i < n; i++)
			fig[i] = NAN;
	fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s",
		p->size, p->offset, c->page_size, p->pages, p->asked, p->done,
		p->ok	    ? "ok"
		: p->failed ? "failed"
			    : "n/a");
	csv_nums(f, fig, n);
	fputc(',', f);
	rb_csv_str(f, p->ok ? p->prefetch_na : p->reason);
	rb_reg_rgn_csv(f, p);
	fputc('\n', f);
}

int rb_reg_csv(FILE *f, const struct rb_reg_run *r)
{
	size_t i;

	fprintf(f, "%s,%s\n", csv_cols, rb_reg_rgn_csv_cols);
	for (i = 0; i < r->npt; i++)
		csv_row(f, r->cfg, &r->pt[i]);
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON ----------------------------------------------------------------- */

json_t *rb_reg_jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rb_reg_jlat(const struct rb_lat_summary *s)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "min", rb_reg_jnum(s->min), "p50",
			 rb_reg_jnum(s->p50), "avg", rb_reg_jnum(s->avg), "p99",
			 rb_reg_jnum(s->p99), "max", rb_reg_jnum(s->max), "stdev",
			 rb_reg_jnum(s->stdev));
}

static int jfigures(json_t *o, const struct rb_reg_point *p)
{
	int bad = 0;

	if (p->has_reg) {
		bad |= json_object_set_new(o, "reg_us", rb_reg_jlat(&p->reg));
		bad |= json_object_set_new(o, "dereg_us", rb_reg_jlat(&p->dereg));
		bad |= json_object_set_new(o, "reg_ms_per_gib", rb_reg_jnum(p->reg_ms_per_gib));
		bad |= json_object_set_new(o, "dereg_ms_per_gib", rb_reg_jnum(p->dereg_ms_per_gib));
		bad |= json_object_set_new(o, "reg_pages_per_s", rb_reg_jnum(p->reg_pages_per_s));
	}
	if (p->has_prefetch)
		bad |= json_object_set_new(o, "prefetch_us", rb_reg_jlat(&p->prefetch));
	if (p->prefetch_na[0])
		bad |= json_object_set_new(o, "prefetch_na", json_string(p->prefetch_na));
	if (p->has_rgn)
		bad |= json_object_set_new(o, "regions", rb_reg_rgn_json(p));
	return bad;
}

static json_t *jpoint(const struct rb_reg_point *p)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:s}", "size", (json_int_t)p->size,
			      "offset", (json_int_t)p->offset, "pages", (json_int_t)p->pages,
			      "asked", (json_int_t)p->asked, "iterations", (json_int_t)p->done,
			      "status",
			      p->ok	  ? "ok"
			      : p->failed ? "failed"
					  : "n/a");
	int bad = !o;

	if (o && !p->ok)
		bad |= json_object_set_new(o, "reason", json_string(p->reason));
	if (o && p->ok)
		bad |= jfigures(o, p);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *jparams(const struct rb_reg_cfg *c)
{
	json_t *sizes = json_array();
	uint32_t i;

	for (i = 0; sizes && i < c->size.n; i++)
		if (json_array_append_new(sizes, json_integer((json_int_t)c->size.v[i])))
			break;
	json_t *o = json_pack("{s:o, s:I, s:b, s:s, s:b, s:s, s:b, s:I}", "size", sizes, "count",
			      (json_int_t)c->count, "hugepages", c->hugepages, "odp",
			      odp_name(c->odp), "prefetch", c->prefetch, "access", c->access_text,
			      "unaligned", c->unaligned, "page_size", (json_int_t)c->page_size);

	if (o && c->regions &&
	    (json_object_set_new(o, "regions", json_integer(c->regions)) ||
	     json_object_set_new(o, "tx_depth", json_integer(c->depth)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *jhead(const struct rb_reg_run *r)
{
	const struct rb_reg_cfg *c = r->cfg;

	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:s?, s:o, s:o, s:I}", "schema_version",
			 RB_SCHEMA_VERSION, "tool", RB_TOOL, "version", PACKAGE_VERSION, "test",
			 "reg", "timestamp", r->timestamp, "host", r->host, "device",
			 r->device[0] ? r->device : NULL, "memlock_limit_bytes",
			 c->memlock == RB_MEMLOCK_INF ? json_null()
						      : json_integer((json_int_t)c->memlock),
			 "params", jparams(c), "budget_s_per_size",
			 (json_int_t)(RB_REG_BUDGET_NS / 1000000000ULL));
}

void *rb_reg_json(const struct rb_reg_run *r)
{
	json_t *doc = jhead(r), *res = json_array();
	int bad = !doc || !res;
	size_t i;

	for (i = 0; !bad && i < r->npt; i++)
		bad |= json_array_append_new(res, jpoint(&r->pt[i]));
	if (!bad && r->implicit_reg_us >= 0)
		bad |= json_object_set_new(doc, "implicit_reg_us", rb_reg_jnum(r->implicit_reg_us));
	if (!bad && r->odp_na[0])
		bad |= json_object_set_new(doc, "odp_na", json_string(r->odp_na));
	if (!bad)
		bad |= json_object_set_new(doc, "results", json_incref(res));
	if (!bad)
		bad |= json_object_set_new(doc, "complete", json_boolean(r->complete));
	if (!bad && !r->complete)
		bad |= json_object_set_new(doc, "reason", json_string(r->reason));
	json_decref(res);
	if (bad) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* ---- files ---------------------------------------------------------------- */

static int write_one(const struct rb_reg_run *r, const char *path, bool json)
{
	struct rb_afile af;
	json_t *doc = NULL;
	FILE *f = NULL;
	int ret = rb_afile_open(&af, path, &f);

	if (!ret && json) {
		doc = rb_reg_json(r);
		ret = !doc ? -ENOMEM : json_dumpf(doc, f, RB_JSON_DUMP) ? -EIO : 0;
		if (!ret && fputc('\n', f) == EOF)
			ret = -EIO;
	} else if (!ret) {
		ret = rb_reg_csv(f, r);
	}
	json_decref(doc);
	ret = f ? rb_afile_close(&af, f, ret) : ret;
	if (ret)
		rb_err("%s: cannot write %s: %s", path, json ? "JSON" : "CSV", strerror(-ret));
	return ret;
}

int rb_reg_write(const struct rb_reg_run *r)
{
	int ret = 0;

	if (r->cfg->json_path && strcmp(r->cfg->json_path, "-"))
		ret = write_one(r, r->cfg->json_path, true);
	if (r->cfg->csv_path && !ret)
		ret = write_one(r, r->cfg->csv_path, false);
	return ret;
}
