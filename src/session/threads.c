// SPDX-License-Identifier: MIT
/*
 * --threads N.  Each thread runs a whole client session (session.c) on a
 * connection of its own, so the generic server gives each a process of its
 * own; the sessions call back here (rb_thread_hooks) once placed and before
 * every point, and wait there until every thread has come, so that the
 * points overlap.  The last thread to come writes the point the threads
 * just finished: the run's row (the sum) and each thread's.  Nothing a
 * session touches is shared but what is here under the lock; output files
 * are this module's alone.
 *
 * The threads block SIGINT and SIGTERM: the main thread takes them, and
 * wakes threads blocked in a socket wait with SIGUSR1, so that ^C, --timeout
 * and a failed thread end every thread promptly.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/metrics.h"
#include "report/output.h"
#include "session/session.h"
#include "core/sweep.h"
#include "session/rails.h"
#include "session/threads.h"
#include "topo/topo.h"
#include "engine/xfer.h"

#define PLACED	UINT32_MAX    /* the barrier before connecting */
#define BEAT_NS 1000000000ULL /* a waiting thread's heartbeats to its server */
/* Descriptors a thread may hold (its TCP connection, its device's and
 * completion channel's, hwloc's reads), with room to spare. */
#define FDS_PER_THREAD 8

struct group;

struct tslot {
	struct group *g;
	uint32_t k;
	pthread_t tid;
	bool started, done;
	int rc;
	char err[RB_TEXT_MAX]; /* its last error, when it failed */
	bool failed;	       /* on its own, not ended by another's failure */
	bool canceled;	       /* ended at a barrier by another's failure */
	struct rb_params p;
	struct rb_local l;
	struct rb_thread_hooks hooks;
	struct rb_session_hooks sh; /* its session's: on_point, hooks */
	/* The point it finished last (index cur_point), not yet written. */
	struct rb_result cur;
	int64_t cur_point;
	struct rb_placement place, peer_place;
	struct rb_setup setup; /* its connection's, destroy_ms once it ended */
	/* While it waits at a point: how it tells its server it is alive. */
	int (*beat)(void *arg, uint32_t point);
	void *beat_arg;
};

struct group {
	const struct rb_bench *bench;
	const struct rb_local *l;
	struct rb_params p; /* thread 0's: what the report shows */
	uint32_t n;
	uint64_t run_id;	 /* in every thread's plan: the server knows them one run */
	struct rb_rails rails;	 /* -d LIST: thread k on rail k; n 0 otherwise */
	struct tslot *th;	 /* n of them */
	struct rb_result *per;	 /* n: a point's rows, as write_point() gathers them */
	struct rb_setup *setups; /* n: the threads' setups, as setup_merge() gathers them */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t arrived;
	uint64_t gen;
	/* When a thread last finished a point, waited or (its heartbeats)
	 * measured: read and written atomically, the loops do so unlocked. */
	uint64_t progress_ns;
	bool abort;
	int failed; /* the first thread that failed, or -1 */
	char cpus_all[128];
	/* Output: the run's rows (JSON) and every row (table, CSV). */
	struct rb_doc rep;
	char strs[10][512];
	struct rb_result *agg, *rows;
	size_t nagg, nrows;
	struct rb_placement *places; /* per written point: each thread's, both sides */
	struct rb_writer out;
	bool out_begun;
	char reason[RB_TEXT_MAX];
};

/* ---- the pure part ------------------------------------------------------ */

void rb_threads_aggregate(const struct rb_result *per, uint32_t n, struct rb_result *agg)
{
	uint32_t k, measured = 0;

	memset(agg, 0, sizeof(*agg));
	if (!n)
		return;
	agg->pt = per[0].pt;
	agg->signal_ran = per[0].signal_ran;
	/* The figures by the metric table's .agg: sums, and cpu_ns_per_msg
	 * weighed by operations, which every test counts (a latency test has
	 * no message rate to weigh by). */
	rb_metrics_aggregate(per, n, agg);
	for (k = 0; k < n; k++) {
		const struct rb_result *r = &per[k];

		agg->iters += r->iters;
		if (r->duration_s > agg->duration_s)
			agg->duration_s = r->duration_s;
		agg->peer_rejected |= r->peer_rejected;
		/* A peer thread that measured nothing sent NaN figures: the
		 * peer's total is then unknown (null), and says why. */
		agg->peer_nothing_measured |= r->peer_nothing_measured;
		measured += !r->nothing_measured;
		agg->wakeups += r->wakeups;
		/* --probe: one per run, thread 0's (sess_probing()). */
		if (r->has_probe && !agg->has_probe) {
			agg->has_probe = true;
			agg->probe_idle = r->probe_idle;
			agg->probe_loaded = r->probe_loaded;
			agg->probe_idle_n = r->probe_idle_n;
			agg->probe_loaded_n = r->probe_loaded_n;
		}
	}
	if (!measured) {
		agg->nothing_measured = true;
		agg->duration_s = NAN;
	}
}

/* The longest of two times, unknown (-1) when either is. */
static double longest(double a, double b)
{
	return a < 0 || b < 0 ? -1 : a > b ? a : b;
}

void rb_threads_setup(const struct rb_setup *per, uint32_t n, struct rb_setup *out)
{
	uint32_t k;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->on = out->peer_on = true;
	for (k = 0; k < n; k++) {
		const struct rb_setup *t = &per[k];

		out->on &= t->on;
		out->qps += t->qps;
		out->create_ms = longest(out->create_ms, t->create_ms);
		out->connect_ms = longest(out->connect_ms, t->connect_ms);
		out->destroy_ms = longest(out->destroy_ms, t->destroy_ms);
		out->peer_on &= t->peer_on;
		out->peer_qps += t->peer_qps;
		out->peer_create_ms = longest(out->peer_create_ms, t->peer_create_ms);
		out->peer_connect_ms = longest(out->peer_connect_ms, t->peer_connect_ms);
	}
}

/* "1" or "0-3 8": CPU lists in hwloc's syntax, joined. */
static void cpus_join(hwloc_bitmap_t all, const char *cpus)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (set && cpus[0] && !rb_cpus_parse(cpus, set))
		hwloc_bitmap_or(all, all, set);
	hwloc_bitmap_free(set);
}

void rb_threads_place_merge(const struct rb_placement *per, uint32_t n, struct rb_placement *out)
{
	hwloc_bitmap_t all = hwloc_bitmap_alloc();
	/* @out may be one of @per (hook_placed()): read them all first. */
	struct rb_placement m = per[0];
	uint32_t k;

	m.cpus[0] = '\0';
	for (k = 0; k < n; k++) {
		if (all)
			cpus_join(all, per[k].cpus);
		if (per[k].local == 0)
			m.local = 0;
		else if (per[k].local < 0 && m.local)
			m.local = -1;
	}
	if (all && !hwloc_bitmap_iszero(all))
		rb_cpus_format(all, m.cpus, sizeof(m.cpus));
	hwloc_bitmap_free(all);
	*out = m;
}

json_t *rb_threads_json(const struct rb_result *per, const struct rb_placement *place,
			const struct rb_placement *peer, uint32_t n)
{
	json_t *arr = json_array(), *o;
	int bad = !arr;
	uint32_t k;

	for (k = 0; !bad && k < n; k++) {
		o = rb_json_result(&per[k]);
		bad |= !o;
		bad |= json_object_set_new(o, "thread", json_integer(k));
		bad |= json_object_set_new(o, "placement", rb_json_placement(&place[k]));
		bad |= json_object_set_new(o, "peer_placement", rb_json_placement(&peer[k]));
		if (place[k].has_comp_vector) /* issue 40: each thread's (and rail's) CQ vector */
			bad |= json_object_set_new(o, "comp_vector",
						   json_integer(place[k].comp_vector));
		bad |= json_array_append_new(arr, o);
	}
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

int rb_threads_cpu(const char *list, uint32_t k, uint32_t threads, char *out, size_t len, char *err,
		   size_t elen)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ret = -EINVAL, cpu, i;

	if (set && !rb_cpus_parse(list, set) && hwloc_bitmap_weight(set) >= (int)threads) {
		for (cpu = hwloc_bitmap_first(set), i = 0; i < (int)k; i++)
			cpu = hwloc_bitmap_next(set, cpu);
		snprintf(out, len, "%d", cpu);
		ret = 0;
	} else {
		rb_set_err(err, elen, -EINVAL,
			   "--cpu %s: --threads %u needs a CPU per thread (a list of %u)", list,
			   threads, threads);
	}
	hwloc_bitmap_free(set);
	return ret;
}

bool rb_threads_sleep(const struct rb_params *p, const char *cpu)
{
	uint32_t i;

	if (strcmp(cpu, "none") || !p->poll.n)
		return false;
	for (i = 0; i < p->poll.n; i++)
		if (p->poll.v[i] != RB_POLL_EVENT)
			return false;
	return true;
}

int rb_threads_cpus_check(uint32_t n, uint32_t ncpus, bool sleep, char *err, size_t len)
{
	if (ncpus && n > ncpus && !sleep)
		return rb_set_err(err, len, -EINVAL,
				  "--threads %u: this process may run on %u CPU(s); each thread "
				  "busy-polls a CPU of its own (threads that sleep, --poll event "
				  "--cpu none, may share them)",
				  n, ncpus);
	return 0;
}

uint32_t rb_threads_ncpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 0 : (uint32_t)CPU_COUNT(&set);
}

/* ---- output ------------------------------------------------------------- */

/* A copy of @s that outlives the session it came from. */
static const char *keep(struct group *g, int i, const char *s)
{
	if (!s)
		return NULL;
	snprintf(g->strs[i], sizeof(g->strs[i]), "%s", s);
	return g->strs[i];
}

/* The run's report: thread 0's, taken while its session runs. */
static void report_from(struct group *g, const struct rb_doc *r)
{
	g->rep = *r;
	g->rep.host = keep(g, 0, r->host);
	g->rep.peer = keep(g, 1, r->peer);
	g->rep.device = keep(g, 2, r->device);
	g->rep.gid_type = keep(g, 3, r->gid_type);
	g->rep.gid = keep(g, 4, r->gid);
	g->rep.why_device = keep(g, 5, r->why_device);
	g->rep.why_gid = keep(g, 6, r->why_gid);
	g->rep.link_layer = keep(g, 7, r->link_layer);
	g->rep.transport = keep(g, 8, r->transport);
	g->rep.why_relaxed = keep(g, 9, r->why_relaxed); /* the session's words */
	g->rep.counters_spec = NULL;
	g->rep.has_counters = g->rep.has_peer_counters = false;
	g->rep.expectations = NULL;
	g->rep.recommendation = NULL;
	g->rep.params = &g->p;
	/* Thread 0's points into its session, gone before the run's last file. */
	g->rep.tags = g->l->tags.n ? &g->l->tags : NULL;
	g->rep.rail_width = rb_rails_width(&g->rails);
}

/* The run's setup figures: every thread's QPs and times (rb_threads_setup()). */
static void setup_merge(struct group *g)
{
	uint32_t k;

	for (k = 0; k < g->n; k++)
		g->setups[k] = g->th[k].setup;
	rb_threads_setup(g->setups, g->n, &g->rep.setup);
}

/* The run's placement: every thread's CPUs, on each side. */
static void report_places(struct group *g, const struct rb_placement *pl)
{
	rb_threads_place_merge(pl, g->n, &g->rep.place);
	rb_threads_place_merge(pl + g->n, g->n, &g->rep.peer_place);
}

static int write_files(struct group *g, bool last)
{
	const char *json = g->l->json_path, *csv = g->l->csv_path;
	int ret = 0;

	if (json[0] && (last || rb_output_rewritable(json)))
		ret = rb_write_file(json, RB_FMT_JSON, &g->rep, g->agg, g->nagg);
	if (!ret && csv[0] && (last || rb_output_rewritable(csv)))
		ret = rb_write_file(csv, RB_FMT_CSV, &g->rep, g->rows, g->nrows);
	return ret;
}

/* On stdout: the run's row, then each thread's (not in JSON: its array). */
static void print_rows(struct group *g, const struct rb_result *rows)
{
	/* JSON, perftest's report and --output: the run's figures only */
	uint32_t k, last = g->l->format == RB_FMT_TABLE || g->l->format == RB_FMT_CSV ? g->n : 0;

	if (!g->out_begun) {
		rb_writer_init(&g->out, (enum rb_format)g->l->format, stdout);
		g->out.ops->begin(&g->out, &g->rep);
		g->out_begun = true;
	}
	for (k = 0; k <= last; k++)
		g->out.ops->row(&g->out, &g->rep, &rows[k]);
}

static int grow(struct group *g)
{
	size_t n = g->nagg + 1;
	struct rb_result *a = realloc(g->agg, n * sizeof(*a));
	struct rb_result *r = a ? realloc(g->rows, n * (g->n + 1) * sizeof(*r)) : NULL;
	struct rb_placement *pl = r ? realloc(g->places, n * 2 * g->n * sizeof(*pl)) : NULL;

	if (a)
		g->agg = a;
	if (r)
		g->rows = r;
	if (pl)
		g->places = pl;
	return a && r && pl ? 0 : -ENOMEM;
}

/*
 * Every thread finished the point it holds: the run's row and each
 * thread's.  Rows point into g->places, so its addresses are fixed up
 * after a realloc() moved it.
 */
static int write_point(struct group *g)
{
	struct rb_result *per = g->per, *rows;
	struct rb_placement *pl;
	json_t *arr;
	size_t i;
	uint32_t k;

	if (grow(g))
		return -ENOMEM;
	for (i = 0; i < g->nrows; i++)
		if (g->rows[i].thread_row)
			g->rows[i].thread_place =
				&g->places[(i / (g->n + 1)) * 2 * g->n + g->rows[i].thread_row - 1];
	pl = &g->places[g->nagg * 2 * g->n];
	for (k = 0; k < g->n; k++) {
		per[k] = g->th[k].cur;
		pl[k] = g->th[k].place;
		pl[g->n + k] = g->th[k].peer_place;
	}
	if (!g->nagg)
		report_places(g, pl);
	setup_merge(g);
	rows = &g->rows[g->nrows];
	rb_threads_aggregate(per, g->n, &rows[0]);
	arr = rb_threads_json(per, pl, pl + g->n, g->n);
	if (arr && g->rails.n &&
	    rb_rails_note(&g->rails, per, g->bench->mode, (uint32_t)g->nagg, arr)) {
		json_decref(arr);
		return -ENOMEM;
	}
	rows[0].diag = json_pack("{so*}", "threads", arr);
	for (k = 0; k < g->n; k++) {
		rows[k + 1] = per[k];
		rows[k + 1].diag = NULL;
		rows[k + 1].thread_row = k + 1;
		rows[k + 1].thread_place = &pl[k];
		rows[k + 1].rail = g->rails.n ? g->rails.name[k % g->rails.n] : NULL;
		json_decref(per[k].diag);
		g->th[k].cur_point = -1;
	}
	g->agg[g->nagg++] = rows[0];
	g->nrows += g->n + 1;
	print_rows(g, rows);
	return write_files(g, false);
}

/* Whether every thread holds a finished point not yet written. */
static bool point_ready(const struct group *g)
{
	uint32_t k;

	for (k = 0; k < g->n; k++)
		if (g->th[k].cur_point != (int64_t)g->nagg)
			return false;
	return true;
}

/* ---- the hooks ---------------------------------------------------------- */

static void on_point(void *ctx, const struct rb_result *res, const struct rb_doc *rep)
{
	struct tslot *s = ctx;

	pthread_mutex_lock(&s->g->mu);
	s->cur = *res;
	json_incref(res->diag);
	s->cur_point = (int64_t)s->g->nagg;
	if (!s->k && !s->g->nagg)
		report_from(s->g, rep);
	__atomic_store_n(&s->g->progress_ns, rb_now_ns(), __ATOMIC_RELAXED);
	s->place = rep->place;
	s->peer_place = rep->peer_place;
	s->setup = rep->setup;
	pthread_mutex_unlock(&s->g->mu);
}

/* Its session ended: its QPs' destroy time is known now. */
static void hook_ended(void *ctx, const struct rb_setup *su)
{
	struct tslot *s = ctx;

	pthread_mutex_lock(&s->g->mu);
	s->setup = *su;
	pthread_mutex_unlock(&s->g->mu);
}

/* Why a thread stops waiting: logged by the thread that saw it first. */
static int wait_why(struct tslot *s, uint32_t point, uint64_t t0)
{
	struct group *g = s->g;

	if (rb_interrupted)
		return -EINTR;
	if (g->abort) {
		s->canceled = true;
		return -ECANCELED;
	}
	/* Every thread still away is in a session whose waits are bounded
	 * by --timeout; this bound only catches what that misses.  A thread
	 * that measures refreshes progress_ns with its heartbeats. */
	if (t0 < __atomic_load_n(&g->progress_ns, __ATOMIC_RELAXED))
		t0 = __atomic_load_n(&g->progress_ns, __ATOMIC_RELAXED);
	if (rb_now_ns() - t0 < ((uint64_t)g->l->timeout_s + g->p.duration_s) * 1000000000ULL)
		return 0;
	rb_err("thread %u: the other threads did not reach %s %u within %u s (--timeout)", s->k,
	       point == PLACED ? "the connection" : "point", point == PLACED ? 0 : point,
	       g->l->timeout_s);
	return -ETIMEDOUT;
}

/*
 * The server of a thread that waits hears from it about once a second: it
 * waits for START or BYE no longer than --timeout either.  Sent without
 * the lock: a slow socket must not hold the other threads.
 */
static int beat_now(struct tslot *s, uint32_t point, uint64_t *beat_at)
{
	int ret;

	if (!s->beat || rb_now_ns() < *beat_at)
		return 0;
	pthread_mutex_unlock(&s->g->mu);
	ret = s->beat(s->beat_arg, point);
	pthread_mutex_lock(&s->g->mu);
	*beat_at = rb_now_ns() + BEAT_NS;
	return ret;
}

/*
 * Wait for every thread at @point; the last to come writes the point the
 * threads finished.  Called with the lock held.
 */
static int barrier(struct tslot *s, uint32_t point)
{
	struct group *g = s->g;
	uint64_t gen = g->gen, t0 = rb_now_ns(), beat_at = t0 + BEAT_NS;
	struct timespec ts;
	int ret = 0;

	__atomic_store_n(&g->progress_ns, t0, __ATOMIC_RELAXED);
	if (++g->arrived == g->n) {
		if (point != PLACED && point_ready(g))
			ret = write_point(g);
		g->arrived = 0;
		g->gen++;
		pthread_cond_broadcast(&g->cv);
		return ret;
	}
	while (g->gen == gen && !ret) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		ts.tv_sec += ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		pthread_cond_timedwait(&g->cv, &g->mu, &ts);
		if (g->gen == gen)
			ret = wait_why(s, point, t0);
		if (g->gen == gen && !ret)
			ret = beat_now(s, point, &beat_at);
	}
	if (ret)
		g->arrived--;
	return ret;
}

static int hook_point(void *ctx, uint32_t i, int (*beat)(void *arg, uint32_t i), void *arg)
{
	struct tslot *s = ctx;
	int ret;

	pthread_mutex_lock(&s->g->mu);
	s->beat = beat;
	s->beat_arg = arg;
	ret = barrier(s, i);
	s->beat = NULL;
	pthread_mutex_unlock(&s->g->mu);
	return ret;
}

/* Every thread's CPUs go to the server in each HELLO (see same_host()). */
static int hook_placed(void *ctx, const char *cpus, char *all, size_t len)
{
	struct tslot *s = ctx;
	struct group *g = s->g;
	struct rb_placement pl[2] = { { .local = 1 }, { .local = 1 } };
	int ret;

	pthread_mutex_lock(&g->mu);
	snprintf(pl[0].cpus, sizeof(pl[0].cpus), "%s", g->cpus_all);
	snprintf(pl[1].cpus, sizeof(pl[1].cpus), "%s", cpus);
	rb_threads_place_merge(pl, 2, &pl[0]);
	snprintf(g->cpus_all, sizeof(g->cpus_all), "%s", pl[0].cpus);
	ret = barrier(s, PLACED);
	if (!ret)
		snprintf(all, len, "%s", g->cpus_all);
	pthread_mutex_unlock(&g->mu);
	return ret;
}

/* ---- the threads -------------------------------------------------------- */

static void *thread_main(void *arg)
{
	struct tslot *s = arg;
	struct group *g = s->g;
	int rc = rb_client(g->bench, &s->p, &s->l, &s->sh);

	pthread_mutex_lock(&g->mu);
	s->rc = rc;
	s->done = true;
	snprintf(s->err, sizeof(s->err), "%s", rb_last_error);
	/*
	 * A thread that fails ends the others, and its rc is the run's.  One
	 * that fails afterwards is named too (it may have failed on its own:
	 * two peers of one server that exited), unless it was only woken
	 * (EINTR: 130) or let go at a barrier.
	 */
	s->failed = rc && rc != RB_EXIT_EXPECT && !rb_interrupted && !s->canceled &&
		    !(g->abort && rc == RB_EXIT_INTR);
	if (s->failed && !g->abort)
		g->failed = (int)s->k;
	if (s->failed)
		__atomic_store_n(&g->abort, true, __ATOMIC_RELAXED); /* read by the loops */
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/*
 * RDMABENCH_HOOK_THREAD_PPS=K:PPS, for the lab's tests: thread K paces its
 * posts to PPS messages a second (--rate PPS/s), so that it ends each
 * point long after the others.
 */
static void hook_pace(struct tslot *s)
{
	const char *v = getenv("RDMABENCH_HOOK_THREAD_PPS");
	unsigned long long pps;
	unsigned int k;

	if (v && sscanf(v, "%u:%llu", &k, &pps) == 2 && k == s->k && pps) {
		s->p.rate = pps;
		s->p.rate_unit = RB_RATE_PPS;
	}
}

/* What each thread runs: the user's plan and choices, minus the outputs. */
static int slot_init(struct group *g, uint32_t k, char *err, size_t len)
{
	struct tslot *s = &g->th[k];
	bool list = strcmp(g->l->cpu, "auto") && strcmp(g->l->cpu, "none");

	s->g = g;
	s->k = k;
	s->cur_point = -1;
	s->p = g->p;
	s->p.thread = k;
	s->p.run_id = g->run_id;
	s->l = *g->l;
	if (g->rails.n)
		rb_rails_apply(&g->rails, k, &s->l);
	s->l.json_path[0] = s->l.csv_path[0] = '\0';
	s->l.recommend = 0;
	snprintf(s->l.counters, sizeof(s->l.counters), "none");
	s->hooks = (struct rb_thread_hooks){ .ctx = s,
					     .placed = hook_placed,
					     .point = hook_point,
					     .ended = hook_ended,
					     .cancel = &g->abort,
					     .progress_ns = &g->progress_ns };
	s->sh = (struct rb_session_hooks){ on_point, s, &s->hooks };
	hook_pace(s);
	if (list)
		return rb_threads_cpu(g->l->cpu, k, g->n, s->l.cpu, sizeof(s->l.cpu), err, len);
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig; /* only to make a thread's blocking wait return EINTR */
}

static int start(struct group *g)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t block, old;
	uint32_t k;
	int ret = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (k = 0; k < g->n && !ret; k++) {
		ret = -pthread_create(&g->th[k].tid, NULL, thread_main, &g->th[k]);
		g->th[k].started = !ret;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		rb_err("cannot start thread %u of %u: %s", k - 1, g->n, strerror(-ret));
		pthread_mutex_lock(&g->mu);
		__atomic_store_n(&g->abort, true, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&g->mu);
	}
	return ret;
}

/* Until every thread ended: on ^C or a failure, wake those still waiting. */
static void wait_all(struct group *g)
{
	struct timespec ts = { 0, 50000000 };
	bool all, stop;
	uint32_t k;

	for (;;) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&g->mu);
		all = true;
		for (k = 0; k < g->n; k++)
			all &= !g->th[k].started || g->th[k].done;
		stop = g->abort || rb_interrupted;
		for (k = 0; stop && k < g->n; k++)
			if (g->th[k].started && !g->th[k].done)
				pthread_kill(g->th[k].tid, SIGUSR1);
		pthread_mutex_unlock(&g->mu);
		if (all)
			break;
	}
	for (k = 0; k < g->n; k++)
		if (g->th[k].started)
			pthread_join(g->th[k].tid, NULL);
}

/* The run's exit code, and the files' last version. */
static int finish(struct group *g, int ret)
{
	int rc = ret ? RB_EXIT_FAIL : RB_EXIT_OK, wret = 0;
	uint32_t k;

	if (!ret && point_ready(g) && g->nagg < rb_plan_count(&g->p))
		ret = write_point(g); /* finished by all, then ^C before the next */
	for (k = 0; !ret && k < g->n; k++)
		if (g->th[k].rc == RB_EXIT_EXPECT)
			rc = RB_EXIT_EXPECT;
	for (k = 0; k < g->n; k++)
		if (g->th[k].failed)
			rb_err("thread %u of %u failed: %s", k, g->n, g->th[k].err);
	if (g->failed >= 0) {
		rc = g->th[g->failed].rc;
		snprintf(g->reason, sizeof(g->reason), "thread %d: %.900s", g->failed,
			 g->th[g->failed].err);
	} else if (rb_interrupted) {
		rc = 128 + rb_interrupted;
		snprintf(g->reason, sizeof(g->reason), "interrupted");
	}
	if (g->nagg)
		setup_merge(g); /* with every thread's destroy time */
	if (g->out_begun)
		g->out.ops->end(&g->out, &g->rep);
	fflush(stdout);
	if (g->nagg) {
		g->rep.incomplete = g->reason[0] != '\0';
		g->rep.reason = g->reason;
		wret = write_files(g, true);
	}
	return !rc && wret ? RB_EXIT_FAIL : rc;
}

static void group_free(struct group *g)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < g->nagg; i++)
		json_decref(g->agg[i].diag);
	for (k = 0; k < g->n; k++)
		if (g->th[k].cur_point >= 0)
			json_decref(g->th[k].cur.diag);
	free(g->agg);
	free(g->rows);
	free(g->places);
	free(g->th);
	free(g->per);
	free(g->setups);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

/* A run id no other run of this host is likely to have: never 0. */
static uint64_t new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != (ssize_t)sizeof(id))
		id = rb_now_ns() ^ ((uint64_t)getpid() << 40);
	return id ? id : 1;
}

/* More threads than CPUs: refused when they busy-poll, said when they sleep. */
static int cpus_check(const struct rb_params *p, const struct rb_local *l, uint32_t n, char *err,
		      size_t len)
{
	uint32_t ncpus = rb_threads_ncpus();
	bool sleep = rb_threads_sleep(p, l->cpu);

	if (sleep && ncpus && n > ncpus)
		rb_warn("--threads %u on %u CPU(s): the threads sleep on completion events "
			"(--poll event --cpu none) and share the CPUs; a wake-up may wait for "
			"another thread's, and the latency includes it",
			n, ncpus);
	return rb_threads_cpus_check(n, ncpus, sleep, err, len);
}

/* What cannot go with --threads, and more threads than CPUs. */
static int check(const struct rb_params *p, const struct rb_local *l, uint32_t n, char *err,
		 size_t len)
{
	char why[RB_TEXT_MAX - 64];

	if (l->recommend)
		return rb_set_err(err, len, -EINVAL, "--recommend does not go with --threads");
	/* The sum over threads knows nothing of directions yet. */
	if (p->bidir)
		return rb_set_err(err, len, -EINVAL,
				  "-b/--bidirectional does not go with --threads");
	if (l->expect.n)
		return rb_set_err(err, len, -EINVAL, "--expect does not go with --threads");
	if (l->counters[0] && strcmp(l->counters, "none"))
		return rb_set_err(err, len, -EINVAL,
				  "--counters does not go with --threads (the device's counters "
				  "count every thread's traffic)");
	if (l->json_path[0] && rb_output_check(l->json_path, why, sizeof(why)))
		return rb_set_err(err, len, -EINVAL, "--json %s", why);
	if (l->csv_path[0] && rb_output_check(l->csv_path, why, sizeof(why)))
		return rb_set_err(err, len, -EINVAL, "--csv %s", why);
	if (l->json_path[0] && l->csv_path[0] && rb_output_same(l->json_path, l->csv_path))
		return rb_set_err(err, len, -EINVAL, "--csv and --json name the same file (%s)",
				  l->csv_path);
	return cpus_check(p, l, n, err, len);
}

/*
 * A run of hundreds of threads can pass a soft RLIMIT_NOFILE of 1024: the
 * soft limit is raised as far as the hard one allows, and a run that may
 * still lack descriptors is told so before it starts.
 */
static void nofile_raise(uint32_t n)
{
	rlim_t want = (rlim_t)n * FDS_PER_THREAD + 64;
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= want)
		return;
	r.rlim_cur = r.rlim_max != RLIM_INFINITY && r.rlim_max < want ? r.rlim_max : want;
	if (setrlimit(RLIMIT_NOFILE, &r) || getrlimit(RLIMIT_NOFILE, &r))
		return;
	if (r.rlim_cur < want)
		rb_warn("--threads %u may need about %llu file descriptors; this process may "
			"open %llu (ulimit -Hn): threads may fail with 'Too many open files'",
			n, (unsigned long long)want, (unsigned long long)r.rlim_cur);
}

int rb_threads_run(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *l)
{
	struct group *g = calloc(1, sizeof(*g));
	char err[RB_TEXT_MAX] = "";
	uint32_t k;
	int ret, rc;

	if (!g)
		return RB_EXIT_FAIL;
	g->bench = t;
	g->l = l;
	g->p = *p;
	g->n = p->threads;
	g->run_id = new_run_id();
	g->failed = -1;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	/* Up to RB_MAX_THREADS slots of a whole session's plan each: never
	 * on a stack. */
	g->th = calloc(g->n, sizeof(*g->th));
	g->per = calloc(g->n, sizeof(*g->per));
	g->setups = calloc(g->n, sizeof(*g->setups));
	if (!g->th || !g->per || !g->setups) {
		rb_err("--threads %u: out of memory for the threads' state", g->n);
		g->n = 0;
		group_free(g);
		free(g);
		return RB_EXIT_FAIL;
	}
	ret = check(p, l, g->n, err, sizeof(err));
	if (!ret)
		ret = rb_rails_parse(l, &g->rails, err, sizeof(err));
	/* A listed device whose port is down: refused before any thread starts. */
	if (!ret && g->rails.n) {
		ret = rb_rails_ready(&g->rails, l->ib_port);
		if (ret) { /* logged; -O on a device of one port: usage */
			group_free(g);
			free(g);
			return ret == -EINVAL ? RB_EXIT_USAGE : RB_EXIT_FAIL;
		}
	}
	for (k = 0; !ret && k < g->n; k++)
		ret = slot_init(g, k, err, sizeof(err));
	if (ret) {
		rb_err("%s", err);
		group_free(g);
		free(g);
		return RB_EXIT_USAGE;
	}
	nofile_raise(g->n);
	rb_ticks_per_ms(); /* calibrated once, here, not by every thread */
	ret = start(g);
	wait_all(g);
	rc = finish(g, ret);
	group_free(g);
	free(g);
	return rc;
}
