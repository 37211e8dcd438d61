// SPDX-License-Identifier: MIT
/*
 * rdmabench lock from several client hosts (lockshare.h): the points of
 * a run aligned across the server's processes, through its segment.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <stdio.h>

#include "core/clock.h"
#include "core/rdmabench.h"
#include "engine/lock.h"
#include "engine/lockshare.h"

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

static uint32_t load(const uint32_t *v)
{
	return __atomic_load_n(v, __ATOMIC_ACQUIRE);
}

/*
 * Wait until *@v reaches @want: 0, -EINTR or -ETIMEDOUT (logged: how many
 * hosts *@came says were there, @what).
 */
static int wait_for(const struct rb_lock_share *sh, const uint32_t *v, uint32_t want,
		    const uint32_t *came, uint32_t k, uint64_t timeout_ns, const char *what)
{
	uint64_t t0 = rb_now_ns();
	uint32_t n;

	while (load(v) < want) {
		if (rb_interrupted)
			return -EINTR;
		if (rb_now_ns() - t0 >= timeout_ns) {
			n = load(came) - sh->hosts * k;
			rb_err("lock --run-id %llu: %u of the %u hosts %s point %u within %.1f s "
			       "(--timeout): start every host's client at once, with the same "
			       "plan",
			       (unsigned long long)sh->run_id, n, sh->hosts, what, k,
			       (double)timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		usleep(200);
	}
	return 0;
}

int rb_lockshare_begin(struct rb_lock_share *sh, uint32_t k, uint8_t *mem, uint64_t timeout_ns)
{
	uint32_t all = sh->hosts * (k + 1);

	/* Every host is past point k - 1: the last to arrive starts point k. */
	if (__atomic_add_fetch(&sh->arrived, 1, __ATOMIC_ACQ_REL) == all) {
		memset(mem, 0, sh->bytes);
		__atomic_store_n(&sh->acq[k & 1], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->started, k + 1, __ATOMIC_RELEASE);
		return 0;
	}
	return wait_for(sh, &sh->started, k + 1, &sh->arrived, k, timeout_ns, "reached");
}

int rb_lockshare_end(struct rb_lock_share *sh, uint32_t k, uint64_t count, bool wait,
		     uint64_t timeout_ns, uint64_t *total)
{
	int ret;

	__atomic_add_fetch(&sh->acq[k & 1], count, __ATOMIC_ACQ_REL);
	__atomic_add_fetch(&sh->stopped, 1, __ATOMIC_ACQ_REL);
	if (!wait)
		return 0;
	ret = wait_for(sh, &sh->stopped, sh->hosts * (k + 1), &sh->stopped, k, timeout_ns, "ended");
	if (!ret)
		*total = __atomic_load_n(&sh->acq[k & 1], __ATOMIC_ACQUIRE);
	return ret;
}
