// SPDX-License-Identifier: MIT
/*
 * --dry-run's formatting: the plan as text and JSON, and what it needs.
 * Pure: everything comes in a struct rb_dryrun (dryrun_live.c fills the
 * live part), so that the unit tests format known plans.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "session/dryrun.h"
#include "report/output.h"
#include "wire/plan.h"
#include "core/cqmod.h"
#include "core/opts_row.h"
#include "core/provider.h"
#include "core/sweep.h"
#include "session/threads.h"

static const char *const units_names[] = { "MiB/s", "Gb/s", "MB/s", "GB/s" };
#define NUNITS (sizeof(units_names) / sizeof(units_names[0]))
/* enum rb_format's order; "value" is --output's one figure a line */
static const char *const format_names[] = { "table",	"csv",	 "json",
					    "perftest", "value", "json-stream" };
#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

void rb_dry_mem(const struct rb_bench *b, const struct rb_params *p, struct rb_dry_mem *m)
{
	uint64_t huge = 2ULL << 20;

	memset(m, 0, sizeof(*m));
	m->nqp = (uint32_t)rb_axis_max(&p->qps);
	m->nmr = p->mr_per_qp ? m->nqp : 1;
	m->region = rb_plan_region(p);
	m->buffers = (uint64_t)m->nmr * 2 * m->region;
	if (p->hugepages)
		m->buffers = (m->buffers + huge - 1) / huge * huge;
	m->send_wr = (uint32_t)rb_axis_max(&p->tx_depth);
	m->recv_wr = b && rb_bench_receives(b, p) ? p->rx_depth : 0;
	/* As the session sizes a CQ: every send WR and every receive of its
	 * QPs (all, or with --cq-per-qp its one; the SRQ's receives all). */
	m->ncq = p->cq_per_qp ? m->nqp : 1;
	m->cqe = (uint64_t)(m->nqp / m->ncq) * m->send_wr +
		 (p->srq ? m->recv_wr : (uint64_t)(m->nqp / m->ncq) * m->recv_wr);
	m->total = rb_plan_mem(p);
	m->threads = p->threads ? p->threads : 1;
}

/* @v bytes for people: "512 B", "64 KiB", "1.5 MiB". */
static const char *bytes_str(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double x = (double)v;
	int i = 0;

	while (x >= 1024 && i < 4) {
		x /= 1024;
		i++;
	}
	if (i == 0 || x == (double)(uint64_t)x)
		snprintf(buf, len, "%.0f %s", x, unit[i]);
	else
		snprintf(buf, len, "%.1f %s", x, unit[i]);
	return buf;
}

/* ---- checks ---------------------------------------------------------- */

struct plist {
	char (*out)[RB_DRY_NOTE];
	size_t n, max;
};

__attribute__((format(printf, 2, 3))) static void padd(struct plist *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= l->max)
		return;
	va_start(ap, fmt);
	vsnprintf(l->out[l->n++], RB_DRY_NOTE, fmt, ap);
	va_end(ap);
}

/* The device's limits against the plan, as the session checks them. */
static void check_limits(const struct rb_dryrun *d, const struct rb_dry_mem *m, struct plist *l)
{
	const struct rb_dry_dev *v = &d->dev;
	const struct rb_provider *pv = rb_prov_get(v->prov);
	uint64_t size = rb_axis_max(&d->p->size);
	struct rb_params p = *d->p;
	char why[RB_DRY_NOTE];

	/* What the device's provider makes (without -c, what the client would take). */
	if (d->l && d->l->transport_auto && d->role == RB_ROLE_CLIENT)
		p.transport = (uint8_t)rb_plan_transport_for(d->b, pv, p.transport);
	if (rb_plan_provider_check(&p, d->b, pv, v->name, why, sizeof(why)))
		padd(l, "%s", why);
	if (v->max_msg_sz && size > v->max_msg_sz)
		padd(l, "-s/--size %llu exceeds %s port %d's max message size %llu",
		     (unsigned long long)size, v->name, v->port, (unsigned long long)v->max_msg_sz);
	if (v->max_qp_wr &&
	    (m->send_wr > (uint32_t)v->max_qp_wr || d->p->rx_depth > (uint32_t)v->max_qp_wr))
		padd(l, "-t/--tx-depth or -r/--rx-depth exceeds %s's max_qp_wr %d", v->name,
		     v->max_qp_wr);
	if (v->max_cqe && m->cqe > (uint64_t)v->max_cqe)
		padd(l, "%s needs %llu entries, %s allows %d (max_cqe)",
		     m->ncq > 1 ? "each QP's CQ" : "the CQ", (unsigned long long)m->cqe, v->name,
		     v->max_cqe);
	if (d->b->atomic && !v->atomics)
		padd(l, "%s does not support atomic operations (atomic_cap NONE)", v->name);
	/* The path MTU is at most this port's (or -m's): the peer may lower it. */
	if (d->p->transport == RB_TR_UD && v->active_mtu &&
	    size > (d->p->mtu && d->p->mtu < v->active_mtu ? d->p->mtu : v->active_mtu))
		padd(l,
		     "-s/--size %llu exceeds the path MTU of at most %u bytes: a -c UD message "
		     "is one packet",
		     (unsigned long long)size,
		     d->p->mtu && d->p->mtu < v->active_mtu ? d->p->mtu : v->active_mtu);
}

size_t rb_dry_check(const struct rb_dryrun *d, char (*out)[RB_DRY_NOTE], size_t max)
{
	struct plist l = { out, 0, max };
	struct rb_dry_mem m;
	char why[RB_DRY_NOTE];

	if (d->route_note[0])
		padd(&l, "%s", d->route_note);
	if (!d->dev.found && d->dev.note[0] && (d->p || d->dev.want_name))
		padd(&l, "%s", d->dev.note);
	if (d->place.note[0] && !d->place.known)
		padd(&l, "%s", d->place.note);
	if (!d->p)
		return l.n;
	rb_dry_mem(d->b, d->p, &m);
	if (d->mem_budget && m.total * m.threads > d->mem_budget)
		padd(&l, "the plan needs about %llu MiB, this host can give %llu MiB",
		     (unsigned long long)((m.total * m.threads) >> 20),
		     (unsigned long long)(d->mem_budget >> 20));
	if (d->p->threads > 1 &&
	    rb_threads_cpus_check(d->p->threads, d->ncpus, rb_threads_sleep(d->p, d->l->cpu), why,
				  sizeof(why)))
		padd(&l, "%s", why);
	if (d->dev.found && d->b)
		check_limits(d, &m, &l);
	return l.n;
}

/* ---- text ------------------------------------------------------------ */

#define LABEL "%-11s "

static void text_role(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_local *l = d->l;

	if (d->role == RB_ROLE_CLIENT) {
		fprintf(f, LABEL "client of %s, TCP port %u, from %s\n", "role", l->host,
			l->tcp_port, d->local_addr[0] ? d->local_addr : "(no route)");
		return;
	}
	fprintf(f, LABEL "server on TCP port %u of %s, %s\n", "role", l->tcp_port,
		l->bind[0] ? l->bind : "every address",
		strcmp(d->cmd, "server") ? "for one client"
					 : "for clients of any test, measuring one at a time");
	if (!strcmp(d->cmd, "server"))
		fprintf(f,
			LABEL "up to %u connections at once (--max-conns), one per thread of a "
			      "run\n",
			"", l->max_conns ? l->max_conns : RB_CONNS_DEFAULT);
	fprintf(f, LABEL "the client's: it sends its plan, which this side adopts\n", "plan");
	if (d->ignored[0])
		fprintf(f, LABEL "%s (given here, the client's plan wins)\n", "ignored",
			d->ignored);
}

static void text_perftest(const struct rb_dryrun *d, FILE *f)
{
	if (d->pt_ignored && d->pt_ignored[0])
		fprintf(f, LABEL "%s: perftest's, taken with no effect here\n", "no effect",
			d->pt_ignored);
}

static void text_test(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_params *p = d->p;
	char outs[16] = "max_qp_rd_atom", mtu[32] = "the port's", inl[16];
	uint32_t i;

	fprintf(f, LABEL "%s: %s, %s", "test", d->b->name, d->b->wr_name,
		d->b->mode == RB_MODE_LAT ? "latency" : "bandwidth");
	if (rb_bench_scope(d->b) & RB_S_ATOMIC) /* --op applies (not to lock) */
		fprintf(f, " (%s)", rb_op_name(p->atomic_op));
	fprintf(f, ", over %s, connected %s%s%s\n", rb_transport_name(p->transport),
		p->use_cm ? "by librdmacm" : "by the out-of-band exchange",
		p->bidir ? ", both directions at once" : "",
		p->reversed ? ", reversed (the server sends and measures)" : "");
	if (p->outstanding)
		snprintf(outs, sizeof(outs), "%u", p->outstanding);
	if (p->mtu)
		snprintf(mtu, sizeof(mtu), "%u", p->mtu);
	else if (d->dev.found && d->dev.active_mtu)
		snprintf(mtu, sizeof(mtu), "the port's (%u)", d->dev.active_mtu);
	if (p->inline_size == RB_INLINE_AUTO)
		snprintf(inl, sizeof(inl), "auto");
	else
		snprintf(inl, sizeof(inl), "%u", p->inline_size);
	fprintf(f,
		LABEL "inline %s, rx depth %u, outstanding %s, MTU %s, SL %u, tclass %u, flow "
		      "label ",
		"options", inl, p->rx_depth, outs, mtu, p->sl, p->tclass);
	for (i = 0; i < (p->nflow ? p->nflow : 1) && i < RB_FLOW_MAX; i++)
		fprintf(f, "%s%u", i ? "," : "", p->nflow ? p->flow_label[i] : 0);
	fputc('\n', f);
	fprintf(f,
		LABEL "verify %s, hugepages %s, odp %s, mr-per-qp %s, srq %s, threads %u, "
		      "latency gap %u us%s\n",
		"", p->verify ? "yes" : "no", p->hugepages ? "yes" : "no", p->odp ? "yes" : "no",
		p->mr_per_qp ? "yes" : "no", p->srq ? "yes" : "no", p->threads ? p->threads : 1,
		p->latency_gap_us, p->imm ? ", with immediates" : "");
}

static void text_dev(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_dry_dev *v = &d->dev;

	if (!v->found) {
		fprintf(f, LABEL "%s\n", "device", v->note[0] ? v->note : "none");
		return;
	}
	fprintf(f, LABEL "%s port %d (%s, active MTU %u)", "device", v->name, v->port,
		v->link_layer, v->active_mtu);
	if (v->gid_index >= 0)
		fprintf(f, ", GID %d %s (%s)\n", v->gid_index, v->gid, v->gid_type);
	else
		fprintf(f, ", no GID (LID addressing)\n");
	if (v->why_dev[0])
		fprintf(f, LABEL "%s\n", "", v->why_dev);
	if (v->why_gid[0])
		fprintf(f, LABEL "%s\n", "", v->why_gid);
	if (v->note[0])
		fprintf(f, LABEL "%s\n", "", v->note);
}

static const char *local_str(int local)
{
	return local < 0 ? "locality unknown" : local ? "local" : "remote";
}

static const char *const cuda_regs[] = { "auto", "dmabuf", "peermem" };

/* --use-cuda's GPU as given; "auto": the one nearest the HCA. */
static const char *cuda_want(const struct rb_local *l)
{
	return l->cuda[0] ? l->cuda : "auto";
}

static void text_place(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_dry_place *pl = &d->place;
	const struct rb_placement *p = pl->place;
	uint32_t i;

	fprintf(f, LABEL "--cpu %s, --numa %s: ", "placement", d->l->cpu, d->l->numa);
	if (!pl->known) {
		fprintf(f, "not decided\n");
	} else {
		if (p->device_numa_node >= 0)
			fprintf(f, "device on NUMA node %d, ", p->device_numa_node);
		else
			fprintf(f, "device's NUMA node unknown, ");
		for (i = 0; i < pl->n; i++)
			fprintf(f, "%sthread %u on CPUs %s", i ? ", " : "", i,
				p[i].cpus[0] ? p[i].cpus : "(any)");
		if (p->mem_node >= 0)
			fprintf(f, "; buffers on node %d (%s)\n", p->mem_node, local_str(p->local));
		else
			fprintf(f, "; buffers where first touched (%s)\n", local_str(p->local));
	}
	if (pl->note[0])
		fprintf(f, LABEL "%s\n", "", pl->note);
	if (d->l->use_cuda)
		fprintf(f,
			LABEL "this side's buffers in GPU memory: --use-cuda %s, --cuda-mem %s, "
			      "--cuda-reg %s (the driver is not loaded by --dry-run)\n",
			"", cuda_want(d->l), rb_cuda_mem_name(d->l->cuda_mem),
			cuda_regs[d->l->cuda_reg % 3]);
}

static void text_mem(const struct rb_dryrun *d, FILE *f)
{
	char a[24], b[24], c[24];
	struct rb_dry_mem m;

	rb_dry_mem(d->b, d->p, &m);
	fprintf(f, LABEL "%u QP%s, %u MR%s of 2 x %s (buffers %s%s)\n", "memory", m.nqp,
		m.nqp == 1 ? "" : "s", m.nmr, m.nmr == 1 ? "" : "s",
		bytes_str(m.region, a, sizeof(a)), bytes_str(m.buffers, b, sizeof(b)),
		d->p->hugepages ? ", in 2 MiB huge pages" : "");
	fprintf(f, LABEL "per QP %u send WRs and %u receives%s; %s of %llu entries\n", "",
		m.send_wr, d->p->srq ? 0 : m.recv_wr, d->p->srq ? " (the SRQ holds them)" : "",
		m.ncq > 1 ? "a CQ per QP, each" : "one CQ", (unsigned long long)m.cqe);
	fprintf(f, LABEL "about %s per side%s%s%s\n", "",
		bytes_str(m.total * m.threads, c, sizeof(c)), m.threads > 1 ? " (all threads)" : "",
		d->mem_budget ? ", this host can give " : "",
		d->mem_budget ? bytes_str(d->mem_budget, a, sizeof(a)) : "");
}

static void text_output(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_local *l = d->l;

	fprintf(f, LABEL "stdout %s, units %s\n", "output", format_names[l->format % NFORMATS],
		units_names[l->units % NUNITS]);
	if (l->json_path[0])
		fprintf(f, LABEL "JSON: this plan to %s\n", "", l->json_path);
	if (l->csv_path[0])
		fprintf(f, LABEL "CSV: %s, written by the run (not by --dry-run)\n", "",
			l->csv_path);
}

/* A point's length: "5000", "10 s", "until SIGINT". */
static const char *length_str(const struct rb_params *p, char *buf, size_t len)
{
	if (p->forever)
		snprintf(buf, len, "until SIGINT");
	else if (p->duration_s)
		snprintf(buf, len, "%u s", p->duration_s);
	else
		snprintf(buf, len, "%llu", (unsigned long long)p->iters);
	return buf;
}

/*
 * issue 42/40: the columns of --lock, --hold and --cq-moderation where the
 * plan has them: @pt's cells, or (@pt NULL) their header, which ends the
 * header's line.
 */
static void dry_axes42(const struct rb_params *p, const struct rb_point *pt, FILE *f)
{
	bool lk = p->lock_algo.n || p->hold_us.n;
	const char *c = RB_LOCK_CHOICES;
	char m[24];
	uint8_t i;

	if (!pt) {
		fprintf(f, "%s%s\n", lk ? "  lock    hold_us" : "", p->cq_mod.n ? "  cq_mod" : "");
		return;
	}
	for (i = 0; lk && i < pt->lock && strchr(c, '|'); i++)
		c = strchr(c, '|') + 1;
	if (lk)
		fprintf(f, "  %-7.*s %7u", (int)strcspn(c, "|"), c, pt->hold_us);
	if (p->cq_mod.n)
		fprintf(f, "  %s", rb_cqmod_str(pt->cq_mod, m, sizeof(m)));
}

static void text_points(const struct rb_dryrun *d, FILE *f)
{
	const struct rb_params *p = d->p;
	size_t i, n = rb_plan_count(p);
	struct rb_point pt;
	/* How points wait, when a sweep or a choice says more than the default. */
	bool wait = p->poll.n > 1 || p->poll.v[0] != RB_POLL_BUSY || p->cqe_poll.n > 1 ||
		    p->cqe_poll.v[0] != RB_CQE_POLL_DEFAULT;
	char sz[24], lenb[24];

	if (p->forever)
		fprintf(f, LABEL "%zu, measured until SIGINT/SIGTERM\n", "points", n);
	else if (p->duration_s)
		fprintf(f, LABEL "%zu, each measured for %u s\n", "points", n, p->duration_s);
	else
		fprintf(f, LABEL "%zu, each of %llu iterations\n", "points", n,
			(unsigned long long)p->iters);
	fprintf(f, "%7s %10s %6s %6s %4s %8s %7s %12s%s", "point", "size", "batch", "signal", "qps",
		"tx_depth", "warmup", p->iters ? "iterations" : "duration",
		wait ? "  poll  cqe_poll" : "");
	/* issue 42/40: --lock, --hold, --cq-moderation given: each point's (header first) */
	dry_axes42(p, NULL, f);
	for (i = 0; i < n; i++) {
		rb_plan_point(p, i, &pt);
		fprintf(f, "%7zu %10s %6u %6u %4u %8u %7llu %12s", i + 1,
			rb_size_str(pt.size, sz, sizeof(sz)), pt.batch, pt.signal, pt.qps,
			pt.tx_depth, (unsigned long long)pt.warmup,
			length_str(p, lenb, sizeof(lenb)));
		if (wait)
			fprintf(f, "  %-5s %8u", pt.poll == RB_POLL_EVENT ? "event" : "busy",
				pt.cqe_poll);
		dry_axes42(p, &pt, f);
		fputc('\n', f);
	}
}

static void text_problems(const struct rb_dryrun *d, FILE *f)
{
	char pr[RB_DRY_PROBLEMS][RB_DRY_NOTE];
	size_t i, n = rb_dry_check(d, pr, RB_DRY_PROBLEMS);

	if (!n)
		fprintf(f, LABEL "none found before connecting\n", "problems");
	for (i = 0; i < n; i++)
		fprintf(f, LABEL "%s\n", i ? "" : "problems", pr[i]);
}

/*
 * "sent": every plan option the server gets that is set, from the option
 * rows (.wire), as on a command line: the lines above say what they mean,
 * this one leaves none out (the axes are the points' line).
 */
static void text_sent(const struct rb_params *p, FILE *f)
{
	const struct rb_opt *r;
	const char *v, *c;
	uint64_t x;
	size_t i, n = 0;

	fprintf(f, LABEL, "sent");
	for (i = 0; i < rb_nopts; i++) {
		r = &rb_opts[i];
		if (!r->wire || r->type == RB_OPT_AXIS)
			continue;
		v = (const char *)p + (r->off - RB_OPT_PLAN_BEGIN);
		x = r->type == RB_OPT_U64   ? *(const uint64_t *)(const void *)v
		    : r->type == RB_OPT_U32 ? *(const uint32_t *)(const void *)v
					    : *(const uint8_t *)v;
		if (!x)
			continue;
		fprintf(f, "%s--%s", n++ ? " " : "", r->lname);
		if (r->type == RB_OPT_CHOICE && r->choices) {
			for (c = r->choices; x && (c = strchr(c, '|')); x--)
				c++;
			if (c)
				fprintf(f, " %.*s", (int)strcspn(c, "|"), c);
		} else if (r->autov && x == r->autov) {
			fprintf(f, " auto");
		} else if (r->type != RB_OPT_FLAG) {
			fprintf(f, " %llu", (unsigned long long)x);
		}
	}
	fprintf(f, "%s\n", n ? "" : "(defaults only)");
}

int rb_dry_text(const struct rb_dryrun *d, FILE *f)
{
	fprintf(f, "rdmabench %s --dry-run: the plan; nothing is connected or measured\n", d->cmd);
	text_role(d, f);
	text_perftest(d, f);
	if (d->p) {
		text_test(d, f);
		text_sent(d->p, f);
	}
	text_dev(d, f);
	text_place(d, f);
	if (d->p)
		text_mem(d, f);
	text_output(d, f);
	if (d->p)
		text_points(d, f);
	text_problems(d, f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* ---- JSON ------------------------------------------------------------ */

static json_t *jdone(json_t *o, int bad)
{
	if (!bad)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *jstr_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *jint_or_null(int v, int none)
{
	return v == none ? json_null() : json_integer(v);
}

static json_t *jrequested(const struct rb_dry_dev *v)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "name", jstr_or_null(v->want_name));
	bad |= json_object_set_new(o, "port", jint_or_null(v->want_port, 0));
	bad |= json_object_set_new(o, "gid_index", jint_or_null(v->want_gid, -1));
	return jdone(o, bad);
}

static json_t *jdev(const struct rb_dry_dev *v)
{
	json_t *o = json_object();
	int bad = !o, f = v->found;

	bad |= json_object_set_new(o, "requested", jrequested(v));
	bad |= json_object_set_new(o, "found", json_boolean(f));
	bad |= json_object_set_new(o, "name", f ? json_string(v->name) : json_null());
	bad |= json_object_set_new(o, "port", f ? json_integer(v->port) : json_null());
	bad |= json_object_set_new(o, "link_layer", f ? jstr_or_null(v->link_layer) : json_null());
	bad |= json_object_set_new(o, "active_mtu", f ? json_integer(v->active_mtu) : json_null());
	bad |= json_object_set_new(o, "gid_index",
				   f ? jint_or_null(v->gid_index, -1) : json_null());
	bad |= json_object_set_new(o, "gid_type", f ? jstr_or_null(v->gid_type) : json_null());
	bad |= json_object_set_new(o, "gid", f ? jstr_or_null(v->gid) : json_null());
	bad |= json_object_set_new(o, "why_device", f ? jstr_or_null(v->why_dev) : json_null());
	bad |= json_object_set_new(o, "why_gid", f ? jstr_or_null(v->why_gid) : json_null());
	bad |= json_object_set_new(o, "note", jstr_or_null(v->note));
	return jdone(o, bad);
}

static json_t *jplace(const struct rb_dryrun *d)
{
	const struct rb_dry_place *pl = &d->place;
	json_t *o = json_object(), *a = json_array();
	int bad = !o || !a;
	uint32_t i;

	for (i = 0; pl->known && i < pl->n && a; i++)
		bad |= json_array_append_new(a, rb_json_placement(&pl->place[i]));
	bad |= json_object_set_new(o, "cpu", json_string(d->l->cpu));
	bad |= json_object_set_new(o, "numa", json_string(d->l->numa));
	bad |= json_object_set_new(o, "decided", json_boolean(pl->known));
	bad |= json_object_set_new(o, "threads", a);
	bad |= json_object_set_new(o, "note", jstr_or_null(pl->note));
	bad |= json_object_set_new(o, "gpu",
				   !d->l->use_cuda
					   ? json_null()
					   : json_pack("{ss ss ss}", "want", cuda_want(d->l),
						       "memory", rb_cuda_mem_name(d->l->cuda_mem),
						       "reg", cuda_regs[d->l->cuda_reg % 3]));
	return jdone(o, bad);
}

static json_t *jmem(const struct rb_dryrun *d)
{
	json_t *o = json_object();
	struct rb_dry_mem m;
	int bad = !o;

	rb_dry_mem(d->b, d->p, &m);
	bad |= json_object_set_new(o, "qps", json_integer(m.nqp));
	bad |= json_object_set_new(o, "mrs", json_integer(m.nmr));
	bad |= json_object_set_new(o, "region_bytes", json_integer((json_int_t)m.region));
	bad |= json_object_set_new(o, "mr_bytes", json_integer((json_int_t)(2 * m.region)));
	bad |= json_object_set_new(o, "buffer_bytes", json_integer((json_int_t)m.buffers));
	bad |= json_object_set_new(o, "send_wr_per_qp", json_integer(m.send_wr));
	bad |= json_object_set_new(o, "recv_wr_per_qp", json_integer(d->p->srq ? 0 : m.recv_wr));
	bad |= json_object_set_new(o, "srq_wr", json_integer(d->p->srq ? m.recv_wr : 0));
	bad |= json_object_set_new(o, "cq_entries", json_integer((json_int_t)m.cqe));
	bad |= json_object_set_new(o, "total_bytes",
				   json_integer((json_int_t)(m.total * m.threads)));
	bad |= json_object_set_new(o, "budget_bytes",
				   d->mem_budget ? json_integer((json_int_t)d->mem_budget)
						 : json_null());
	return jdone(o, bad);
}

static json_t *jpoint(const struct rb_params *p, const struct rb_point *pt)
{
	json_t *o = json_object();
	const char *lk = RB_LOCK_CHOICES;
	int bad = !o;
	char m[24];
	uint8_t i;

	for (i = 0; i < pt->lock && strchr(lk, '|'); i++)
		lk = strchr(lk, '|') + 1;

	bad |= json_object_set_new(o, "size", json_integer((json_int_t)pt->size));
	bad |= json_object_set_new(o, "batch", json_integer(pt->batch));
	bad |= json_object_set_new(o, "signal", json_integer(pt->signal));
	bad |= json_object_set_new(o, "qps", json_integer(pt->qps));
	bad |= json_object_set_new(o, "tx_depth", json_integer(pt->tx_depth));
	bad |= json_object_set_new(o, "poll",
				   json_string(pt->poll == RB_POLL_EVENT ? "event" : "busy"));
	bad |= json_object_set_new(o, "cqe_poll", json_integer(pt->cqe_poll));
	if (p->lock_algo.n || p->hold_us.n) { /* issue 42: as the results' points */
		bad |= json_object_set_new(o, "lock", json_stringn(lk, strcspn(lk, "|")));
		bad |= json_object_set_new(o, "hold_us", json_integer(pt->hold_us));
	}
	if (p->cq_mod.n) /* issue 40 */
		bad |= json_object_set_new(o, "cq_moderation",
					   json_string(rb_cqmod_str(pt->cq_mod, m, sizeof(m))));
	bad |= json_object_set_new(o, "warmup", json_integer((json_int_t)pt->warmup));
	bad |= json_object_set_new(o, "iterations",
				   p->iters ? json_integer((json_int_t)p->iters) : json_null());
	bad |= json_object_set_new(o, "duration_s",
				   p->duration_s || p->forever ? json_integer(p->duration_s)
							       : json_null());
	return jdone(o, bad);
}

static json_t *jpoints(const struct rb_params *p)
{
	json_t *a = json_array();
	size_t i, n = rb_plan_count(p);
	struct rb_point pt;
	int bad = !a;

	for (i = 0; i < n && a; i++) {
		rb_plan_point(p, i, &pt);
		bad |= json_array_append_new(a, jpoint(p, &pt));
	}
	return jdone(a, bad);
}

static json_t *joutput(const struct rb_local *l)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= json_object_set_new(o, "format", json_string(format_names[l->format % NFORMATS]));
	bad |= json_object_set_new(o, "units", json_string(units_names[l->units % NUNITS]));
	bad |= json_object_set_new(o, "json", jstr_or_null(l->json_path));
	bad |= json_object_set_new(o, "csv", jstr_or_null(l->csv_path));
	return jdone(o, bad);
}

static json_t *jproblems(const struct rb_dryrun *d)
{
	char pr[RB_DRY_PROBLEMS][RB_DRY_NOTE];
	size_t i, n = rb_dry_check(d, pr, RB_DRY_PROBLEMS);
	json_t *a = json_array();
	int bad = !a;

	for (i = 0; i < n && a; i++)
		bad |= json_array_append_new(a, json_string(pr[i]));
	return jdone(a, bad);
}

/* What the role is: the test and the peer. */
static int jrole(json_t *o, const struct rb_dryrun *d)
{
	const struct rb_bench *b = d->b;
	bool client = d->role == RB_ROLE_CLIENT;
	int bad = 0;

	bad |= json_object_set_new(o, "command", json_string(d->cmd));
	bad |= json_object_set_new(o, "role", json_string(client ? "client" : "server"));
	bad |= json_object_set_new(o, "test", b ? json_string(b->name) : json_null());
	bad |= json_object_set_new(
		o, "mode", !b ? json_null() : json_string(b->mode == RB_MODE_LAT ? "lat" : "bw"));
	if (b && rb_bench_scope(b) & RB_S_ATOMIC)
		bad |= json_object_set_new(o, "op", json_string(rb_op_name(d->p->atomic_op)));
	bad |= json_object_set_new(o, "server", client ? json_string(d->l->host) : json_null());
	bad |= json_object_set_new(o, "tcp_port", json_integer(d->l->tcp_port));
	bad |= json_object_set_new(o, "bind", jstr_or_null(d->l->bind));
	bad |= json_object_set_new(o, "local_address", jstr_or_null(d->local_addr));
	if (!client)
		bad |= json_object_set_new(o, "ignored", jstr_or_null(d->ignored));
	bad |= json_object_set_new(o, "perftest_no_effect", jstr_or_null(d->pt_ignored));
	return bad;
}

json_t *rb_dry_json(const struct rb_dryrun *d)
{
	json_t *o = json_object();
	int bad = !o;

	if (!o)
		return NULL;
	bad |= json_object_set_new(o, "schema_version", json_integer(RB_SCHEMA_VERSION));
	bad |= json_object_set_new(o, "tool", json_string(RB_TOOL));
	bad |= json_object_set_new(o, "version", json_string(d->version ? d->version : ""));
	bad |= json_object_set_new(o, "dry_run", json_true());
	bad |= jrole(o, d);
	bad |= json_object_set_new(o, "params", d->p ? rb_json_params(d->p) : json_null());
	bad |= json_object_set_new(o, "device", jdev(&d->dev));
	bad |= json_object_set_new(o, "placement", jplace(d));
	bad |= json_object_set_new(o, "memory", d->p ? jmem(d) : json_null());
	bad |= json_object_set_new(o, "output", joutput(d->l));
	bad |= json_object_set_new(o, "points", d->p ? jpoints(d->p) : json_array());
	bad |= json_object_set_new(o, "problems", jproblems(d));
	return jdone(o, bad);
}
