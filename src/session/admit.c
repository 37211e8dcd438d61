// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include "session/admit.h"
#include "core/rdmabench.h"

#define MIB(b) ((unsigned long long)((b) >> 20))

/* ---- the pure part ------------------------------------------------------ */

uint64_t rb_admit_held(const struct rb_admit *a)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < a->max; i++)
		if (a->e[i].pid)
			sum += a->e[i].held;
	return sum;
}

static struct rb_admit_entry *free_entry(struct rb_admit *a)
{
	uint32_t i;

	for (i = 0; i < a->max; i++)
		if (!a->e[i].pid)
			return &a->e[i];
	return NULL;
}

/* Entries neither taken nor reserved by a thread 0 for its threads to come. */
static uint32_t unclaimed(const struct rb_admit *a)
{
	uint32_t i, claimed = 0;

	for (i = 0; i < a->max; i++)
		if (a->e[i].pid)
			claimed += 1 + a->e[i].to_join;
	return claimed < a->max ? a->max - claimed : 0;
}

/*
 * The entry serving thread @thread of @w's run, or NULL.  By run id and
 * thread count, not by the client's address: the threads of a run of
 * rails (-d LIST) come from the client host's address on each rail.
 */
static struct rb_admit_entry *find(struct rb_admit *a, const struct rb_admit_entry *w,
				   uint32_t thread)
{
	uint32_t i;

	for (i = 0; i < a->max; i++) {
		struct rb_admit_entry *e = &a->e[i];

		if (e->pid && e->run_id == w->run_id && e->thread == thread &&
		    e->threads == w->threads)
			return e;
	}
	return NULL;
}

/* What the entries of client @client hold. */
static uint64_t client_held(const struct rb_admit *a, const char *client)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < a->max; i++)
		if (a->e[i].pid && !strcmp(a->e[i].client, client))
			sum += a->e[i].held;
	return sum;
}

/* A thread 0, or a run of one: its threads' memory beside what is held. */
static int admit_first(struct rb_admit *a, struct rb_admit_entry *slot,
		       const struct rb_admit_entry *w, uint64_t budget, char *err, size_t len)
{
	uint64_t held = rb_admit_held(a), mem = w->share * w->threads;

	if (w->run_id && find(a, w, 0))
		return rb_set_err(err, len, -EEXIST,
				  "PARAMS run_id 0x%016llx: a run with that id is in progress",
				  (unsigned long long)w->run_id);
	if (unclaimed(a) < w->threads)
		return rb_set_err(err, len, -ENOSPC,
				  "--threads %u: %u connection(s) needed, %u of this server's %u "
				  "free (the rest served, or kept for a run's threads to come; "
				  "rdmabench server --max-conns %u): try again later",
				  w->threads, w->threads, unclaimed(a), a->max, a->max);
	if (a->client_mem &&
	    (mem > a->client_mem || client_held(a, w->client) > a->client_mem - mem))
		return rb_set_err(err, len, -EDQUOT,
				  "the plan needs about %llu MiB (%u thread(s)), and client %s "
				  "holds %llu MiB already; one client may hold %llu MiB "
				  "(rdmabench server --max-client-mem)",
				  MIB(mem), w->threads, w->client, MIB(client_held(a, w->client)),
				  MIB(a->client_mem));
	if (budget && (mem > budget || held > budget - mem))
		return rb_set_err(err, len, -ENOMEM,
				  "the plan needs about %llu MiB (%u thread(s)); this host can "
				  "give "
				  "%llu MiB, of which connections in progress hold %llu MiB: try "
				  "again later",
				  MIB(mem), w->threads, MIB(budget), MIB(held));
	*slot = *w;
	slot->held = mem;
	slot->to_join = w->threads - 1;
	return 0;
}

/* A thread k > 0: one share of its thread 0's memory. */
static int admit_join(struct rb_admit *a, struct rb_admit_entry *slot,
		      const struct rb_admit_entry *w, char *err, size_t len)
{
	struct rb_admit_entry *first = find(a, w, 0);
	unsigned long long id = (unsigned long long)w->run_id;

	if (!first)
		return rb_set_err(err, len, -EAGAIN,
				  "PARAMS run_id 0x%016llx (thread %u of %u, from %s): no thread 0 "
				  "of that run is being served",
				  id, w->thread, w->threads, w->client);
	if (find(a, w, w->thread))
		return rb_set_err(err, len, -EEXIST,
				  "PARAMS thread %u of run_id 0x%016llx: that thread is connected "
				  "already",
				  w->thread, id);
	/*
	 * A thread that ended and connects again under the same run id would
	 * take a second share: thread 0 holds one share per thread not yet
	 * joined, its own included, and gives out no more than that.
	 */
	if (!first->to_join)
		return rb_set_err(err, len, -EEXIST,
				  "PARAMS thread %u of run_id 0x%016llx: every thread of that run "
				  "has joined once already",
				  w->thread, id);
	if (w->share > first->share)
		return rb_set_err(err, len, -ENOMEM,
				  "PARAMS thread %u of run_id 0x%016llx needs about %llu KiB, more "
				  "than the %llu KiB per thread its thread 0 was admitted for",
				  w->thread, id, (unsigned long long)(w->share >> 10),
				  (unsigned long long)(first->share >> 10));
	first->held -= first->share;
	first->to_join--;
	*slot = *w;
	slot->share = first->share;
	slot->held = first->share;
	return 0;
}

int rb_admit_try(struct rb_admit *a, const struct rb_admit_entry *want, uint64_t budget, char *err,
		 size_t len)
{
	struct rb_admit_entry *slot = free_entry(a), w = *want;
	int32_t pid = w.pid;
	int ret;

	if (w.threads < 1)
		w.threads = 1;
	if (w.thread >= w.threads)
		return rb_set_err(err, len, -EINVAL, "PARAMS thread %u of a run of %u thread(s)",
				  w.thread, w.threads);
	if (w.threads > 1 && !w.run_id)
		return rb_set_err(err, len, -EINVAL,
				  "PARAMS run_id 0: thread %u of a run of %u threads names no run",
				  w.thread, w.threads);
	if (w.threads > a->max)
		return rb_set_err(err, len, -ENOSPC,
				  "--threads %u needs %u connections at once; this server serves "
				  "at "
				  "most %u (rdmabench server --max-conns %u): start it with "
				  "--max-conns %u or more",
				  w.threads, w.threads, a->max, a->max, w.threads);
	if (!slot)
		return rb_set_err(err, len, -ENOSPC,
				  "%u connections are being served already, the most this server "
				  "serves at once (rdmabench server --max-conns %u): try again "
				  "later",
				  a->max, a->max);
	/* The pid goes in last: a process that dies half-way leaves a free entry. */
	w.pid = 0;
	ret = w.thread ? admit_join(a, slot, &w, err, len)
		       : admit_first(a, slot, &w, budget, err, len);
	if (!ret)
		slot->pid = pid;
	return ret;
}

void rb_admit_release(struct rb_admit *a, int32_t pid)
{
	uint32_t i;

	for (i = 0; pid && i < a->max; i++)
		if (a->e[i].pid == pid)
			memset(&a->e[i], 0, sizeof(a->e[i]));
}

/* ---- shared between the server's processes ------------------------------ */

static size_t table_size(uint32_t max)
{
	return sizeof(struct rb_admit) + max * sizeof(struct rb_admit_entry);
}

struct rb_admit *rb_admit_map(uint32_t max)
{
	struct rb_admit *a;
	void *m = MAP_FAILED;

	if (max >= 1 && max <= RB_MAX_CONNS)
		m = mmap(NULL, table_size(max), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	else
		errno = EINVAL;
	if (m == MAP_FAILED) {
		rb_warn("no shared table of connections (%s): a run of threads is not checked, "
			"nor what connections at once hold",
			strerror(errno));
		return NULL;
	}
	a = m; /* zeroed by the kernel */
	a->max = max;
	return a;
}

void rb_admit_unmap(struct rb_admit *a)
{
	if (a)
		munmap(a, table_size(a->max));
}

int rb_admit_lock(int fd, bool on)
{
	struct flock fl = {
		.l_type = on ? F_WRLCK : F_UNLCK, .l_whence = SEEK_SET, .l_start = 1, .l_len = 1
	};

	while (fcntl(fd, F_SETLKW, &fl))
		if (errno != EINTR)
			return -errno;
	return 0;
}
