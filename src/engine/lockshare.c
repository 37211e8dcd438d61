// SPDX-License-Identifier: MIT
/*
 * rdmabench lock from several client hosts (lockshare.h): the points of
 * a run aligned across the server's processes, through its segment.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rdmabench.h"
#include "engine/lock.h"
#include "engine/lockshare.h"

uint64_t rb_lockshare_hdr(uint64_t page)
{
	return (sizeof(struct rb_lock_share) + page - 1) / page * page;
}

uint64_t rb_lockshare_bytes(const struct rb_params *p, uint64_t page)
{
	struct rb_lock_layout l;

	rb_lock_layout(p, 1, &l);
	return (l.server_bytes + page - 1) / page * page;
}

/*
 * An axis's list as one word, for the hosts of a run to compare: each
 * point's value, in order (--lock and --hold are axes), folded.
 */
static uint32_t fold(const struct rb_axis *a)
{
	uint32_t h = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		h = h * 31 + (uint32_t)a->v[i] + 1;
	return h;
}

void rb_lockshare_init(struct rb_lock_share *sh, const struct rb_params *p, uint32_t points,
		       uint64_t page)
{
	memset(sh, 0, sizeof(*sh));
	sh->run_id = p->lock_run_id;
	sh->bytes = rb_lockshare_bytes(p, page);
	sh->hosts = p->lock_hosts;
	sh->algo = fold(&p->lock_algo);
	sh->hold = fold(&p->hold_us);
	sh->iters = p->iters;
	sh->duration_s = p->duration_s;
	sh->warmup = p->warmup;
	sh->locks = p->locks;
	sh->cs_bytes = p->cs_bytes;
	sh->points = points;
	sh->verify = p->verify;
	__atomic_store_n(&sh->magic, RB_LOCKSHARE_MAGIC, __ATOMIC_RELEASE);
}

bool rb_lockshare_differs(const struct rb_lock_share *sh, const struct rb_params *p,
			  uint32_t points, char *why, size_t len)
{
	const struct {
		const char *what;
		uint64_t run, mine;
		bool folded; /* a list folded into one word: no value to print */
	} f[] = {
		{ "--run-hosts", sh->hosts, p->lock_hosts, false },
		{ "--lock", sh->algo, fold(&p->lock_algo), true },
		{ "--hold", sh->hold, fold(&p->hold_us), true },
		{ "-n", sh->iters, p->iters, false },
		{ "-D", sh->duration_s, p->duration_s, false },
		{ "--warmup", sh->warmup, p->warmup, false },
		{ "--locks", sh->locks, p->locks, false },
		{ "--cs-bytes", sh->cs_bytes, p->cs_bytes, false },
		{ "points", sh->points, points, false },
		{ "--verify", sh->verify, p->verify, false },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		char val[64] = "";

		if (f[i].run == f[i].mine)
			continue;
		/* A folded list has no value worth printing. */
		if (!f[i].folded)
			snprintf(val, sizeof(val), " %llu, where the run's first host has %llu",
				 (unsigned long long)f[i].mine, (unsigned long long)f[i].run);
		snprintf(why, len,
			 "%s%s: every host of a run gives the same --run-hosts, --lock, --hold, "
			 "--locks, --cs-bytes, --verify, -n, -D, --warmup and number of points",
			 f[i].what, f[i].folded ? " differs from the run's first host's" : val);
		return true;
	}
	if (sh->joined < sh->hosts)
		return false;
	snprintf(why, len, "its %u hosts have joined already (--run-hosts %u)", sh->hosts,
		 sh->hosts);
	return true;
}

/* started's value while the memory is being zeroed for a point. */
#define RB_LOCKSHARE_ZEROING UINT32_MAX

static uint32_t load(const uint32_t *v)
{
	return __atomic_load_n(v, __ATOMIC_ACQUIRE);
}

uint32_t rb_lockshare_add(struct rb_lock_share *sh, pid_t pid, const char *who)
{
	uint32_t me = sh->joined;
	struct rb_lock_host *h = &sh->host[me];

	memset(h, 0, sizeof(*h));
	h->pid = (int32_t)pid;
	snprintf(h->who, sizeof(h->who), "%s", who ? who : "?");
	h->state = RB_LKH_HERE;
	__atomic_add_fetch(&sh->attached, 1, __ATOMIC_ACQ_REL);
	/* Its place whole before the waiters count it. */
	__atomic_store_n(&sh->joined, me + 1, __ATOMIC_RELEASE);
	return me;
}

/* Host @i's place goes from here to @to: whoever moves it counts it gone. */
static bool depart(struct rb_lock_share *sh, uint32_t i, uint32_t to)
{
	uint32_t here = RB_LKH_HERE;

	if (!__atomic_compare_exchange_n(&sh->host[i].state, &here, to, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return false;
	__atomic_sub_fetch(&sh->attached, 1, __ATOMIC_ACQ_REL);
	return true;
}

uint32_t rb_lockshare_leave(struct rb_lock_share *sh, uint32_t me)
{
	if (me < RB_LOCKSHARE_HOSTS)
		depart(sh, me, RB_LKH_LEFT);
	rb_lockshare_prune(sh);
	return load(&sh->attached);
}

uint32_t rb_lockshare_reaped(struct rb_lock_share *sh, pid_t pid)
{
	uint32_t i, n = 0, joined = load(&sh->joined);

	for (i = 0; i < joined && i < RB_LOCKSHARE_HOSTS; i++)
		if (sh->host[i].pid == (int32_t)pid)
			n += depart(sh, i, RB_LKH_DEAD);
	return n;
}

/*
 * A process that is no more (a zombie not yet reaped still counts: the
 * listener reaps it, and marks its place, rb_lockshare_reaped()): the
 * fallback, which a pid used again since fools.
 */
static bool pid_gone(pid_t pid)
{
	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

uint32_t rb_lockshare_prune(struct rb_lock_share *sh)
{
	uint32_t i, n = 0, joined = load(&sh->joined);

	for (i = 0; i < joined && i < RB_LOCKSHARE_HOSTS; i++)
		if (load(&sh->host[i].state) == RB_LKH_HERE && pid_gone(sh->host[i].pid))
			n += depart(sh, i, RB_LKH_DEAD);
	return n;
}

/* Host @h's progress: the points it ended (@ended), else those it reached. */
static uint32_t progress(const struct rb_lock_host *h, bool ended)
{
	return load(ended ? &h->ended : &h->reached);
}

/*
 * A host that holds up point @k: one gone (it left, or died) before its
 * progress passed @k.  Its index, or RB_LOCKSHARE_HOSTS.  A host not
 * come yet is the timeout's to name.
 */
static uint32_t missing(struct rb_lock_share *sh, uint32_t k, bool ended)
{
	uint32_t i, joined = load(&sh->joined);

	rb_lockshare_prune(sh);
	for (i = 0; i < joined && i < RB_LOCKSHARE_HOSTS; i++)
		if (load(&sh->host[i].state) >= RB_LKH_LEFT && progress(&sh->host[i], ended) <= k)
			return i;
	return RB_LOCKSHARE_HOSTS;
}

/* How many hosts' progress is past @k. */
static uint32_t came(const struct rb_lock_share *sh, uint32_t k, bool ended)
{
	uint32_t i, n = 0, joined = load(&sh->joined);

	for (i = 0; i < joined && i < RB_LOCKSHARE_HOSTS; i++)
		n += progress(&sh->host[i], ended) > k;
	return n;
}

/*
 * Wait until every host's progress (@ended: points ended, else reached)
 * is past @k: 0, -EINTR, -ENOTCONN (a host gone before it got there:
 * logged, naming it) or -ETIMEDOUT (logged: how many came).
 */
static int wait_for(struct rb_lock_share *sh, uint32_t k, bool ended, uint64_t timeout_ns)
{
	const char *what = ended ? "ended" : "reached";
	uint64_t t0 = rb_now_ns();
	uint32_t gone;

	while (came(sh, k, ended) < sh->hosts) {
		if (rb_interrupted)
			return -EINTR;
		gone = missing(sh, k, ended);
		if (gone < RB_LOCKSHARE_HOSTS) {
			const struct rb_lock_host *h = &sh->host[gone];

			rb_err("lock --run-id %llu: host %s (server process %d) %s before it %s "
			       "point %u: the run's figures are its %u hosts contending, so this "
			       "host stops too; start every host's client again",
			       (unsigned long long)sh->run_id, h->who, h->pid,
			       load(&h->state) == RB_LKH_DEAD ? "died" : "left the run", what, k,
			       sh->hosts);
			return -ENOTCONN;
		}
		if (rb_now_ns() - t0 >= timeout_ns) {
			rb_err("lock --run-id %llu: %u of the %u hosts %s point %u within %.1f s "
			       "(--timeout): start every host's client at once, with the same "
			       "plan",
			       (unsigned long long)sh->run_id, came(sh, k, ended), sh->hosts, what,
			       k, (double)timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		usleep(200);
	}
	return 0;
}

static int wait_zeroed(const struct rb_lock_share *sh, uint32_t k, uint64_t timeout_ns)
{
	uint64_t t0 = rb_now_ns();

	while (load(&sh->started) != k + 1) {
		if (rb_interrupted)
			return -EINTR;
		if (rb_now_ns() - t0 >= timeout_ns) {
			rb_err("lock --run-id %llu: point %u's words were not zeroed within %.1f s "
			       "(--timeout): the host's process that zeroes them died",
			       (unsigned long long)sh->run_id, k, (double)timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		usleep(50);
	}
	return 0;
}

int rb_lockshare_begin(struct rb_lock_share *sh, uint32_t me, uint32_t k, uint8_t *mem,
		       uint64_t timeout_ns)
{
	uint32_t before = k;
	int ret;

	if (me >= RB_LOCKSHARE_HOSTS)
		return -EINVAL;
	__atomic_store_n(&sh->host[me].reached, k + 1, __ATOMIC_RELEASE);
	ret = wait_for(sh, k, false, timeout_ns);
	if (ret)
		return ret;
	/* Every host is at point k: one of them, the first to get here, zeroes. */
	if (__atomic_compare_exchange_n(&sh->started, &before, RB_LOCKSHARE_ZEROING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		memset(mem, 0, sh->bytes);
		__atomic_store_n(&sh->started, k + 1, __ATOMIC_RELEASE);
		return 0;
	}
	/* Another zeroes: a memset, bounded all the same (its process may die in it). */
	return wait_zeroed(sh, k, timeout_ns);
}

int rb_lockshare_end(struct rb_lock_share *sh, uint32_t me, uint32_t k, uint64_t count, bool wait,
		     uint64_t timeout_ns, uint64_t *total)
{
	uint32_t i;
	int ret;

	if (me >= RB_LOCKSHARE_HOSTS)
		return -EINVAL;
	__atomic_store_n(&sh->host[me].acq, count, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->host[me].ended, k + 1, __ATOMIC_RELEASE);
	if (!wait)
		return 0;
	ret = wait_for(sh, k, true, timeout_ns);
	if (ret)
		return ret;
	*total = 0;
	for (i = 0; i < sh->hosts; i++)
		*total += __atomic_load_n(&sh->host[i].acq, __ATOMIC_ACQUIRE);
	return 0;
}
