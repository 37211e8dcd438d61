/* SPDX-License-Identifier: MIT */
/*
 * --threads N: N client sessions at once, one per thread, each with its own
 * connection, QPs, CQ and CPU; the generic server gives each connection a
 * process.  The threads start every point together; this module keeps
 * their results and writes each thread's figures and the run's.
 */
#ifndef RB_THREADS_H
#define RB_THREADS_H

#include <jansson.h>
#include "core/bench.h"

/*
 * rb_threads_run() - run test @t with plan @p (p->threads > 1) against
 * l->host: main.c picks it over rb_client(), which each thread runs with
 * its hooks (session.h).  Returns an exit code as rb_client(): a thread's
 * failure is the run's, named with the thread; ^C ends every thread and
 * keeps the points all of them finished.
 */
int rb_threads_run(const struct rb_bench *t, const struct rb_params *p, const struct rb_local *l);

/*
 * rb_threads_aggregate() - the run's figures for one point from its @n
 * threads' @per: iterations, bandwidth, message rate and CPU use add up
 * (CPU in percent of one CPU), the duration is the longest, cpu_ns_per_msg
 * is weighted by operations (iterations: latency tests have no message
 * rate), wake-ups add up (wakeups_per_msg over all the operations).
 * Latency does not add and percentiles do not
 * merge without the samples: the aggregate has none (has_lat false); each
 * thread's are its own.  bw_peak_gbps is the sum of the threads' peaks, an
 * upper bound since they need not coincide.
 */
void rb_threads_aggregate(const struct rb_result *per, uint32_t n, struct rb_result *agg);

/*
 * rb_threads_setup() - the run's connection setup (JSON "setup") from its
 * @n threads' @per: the QPs add up (each side's), and each time (create,
 * connect, destroy; the servers' create and connect) is the longest of
 * the threads', which set up at once: the run's wall time.  A time some
 * thread has not measured (< 0) is the run's unknown (-1); "on" only
 * when every thread made its QPs, "peer_on" when every server said.
 */
struct rb_setup;
void rb_threads_setup(const struct rb_setup *per, uint32_t n, struct rb_setup *out);

/*
 * rb_threads_place_merge() - one placement for @n threads' @per: their
 * CPUs together; local only when every one is, unknown when any is and
 * none is remote.  @out may be one of @per.
 */
void rb_threads_place_merge(const struct rb_placement *per, uint32_t n, struct rb_placement *out);

/*
 * rb_threads_json() - the "threads" array of a point: per thread its
 * index, placement, peer placement and figures (new reference, or NULL).
 */
json_t *rb_threads_json(const struct rb_result *per, const struct rb_placement *place,
			const struct rb_placement *peer, uint32_t n);

/*
 * rb_threads_cpu() - thread @k's CPU of an explicit --cpu @list: its k-th
 * CPU, as text into @out.  Returns 0, or -EINVAL when the list has fewer
 * CPUs than @threads (the message in @err).
 */
int rb_threads_cpu(const char *list, uint32_t k, uint32_t threads, char *out, size_t len, char *err,
		   size_t elen);

/* rb_threads_ncpus() - the CPUs this process may run on; 0: unknown. */
uint32_t rb_threads_ncpus(void);

/*
 * rb_threads_sleep() - whether every point of @p's threads sleeps on its
 * completion channel, unpinned (--poll event, --cpu none @cpu): such
 * threads may share CPUs.  Pure.
 */
bool rb_threads_sleep(const struct rb_params *p, const char *cpu);

/*
 * rb_threads_cpus_check() - whether @n threads fit in @ncpus CPUs (0:
 * unknown, not checked), a CPU each, unless they @sleep (rb_threads_sleep():
 * then they may share them).  Returns 0, or -EINVAL with the message in
 * @err.
 */
int rb_threads_cpus_check(uint32_t n, uint32_t ncpus, bool sleep, char *err, size_t len);

#endif
