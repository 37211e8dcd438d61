// SPDX-License-Identifier: MIT
/*
 * lock --run-id, the generic server's side (lockshare.h): the run's
 * shared memory object, made, joined, mapped and unlinked.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sweep.h"
#include "engine/lockshare.h"
#include "session/admit.h"
#include "session/lockshare.h"

#define PREFIX "rdmabench.lock."

static pid_t server_pid;

void sess_lockshare_server(pid_t pid)
{
	server_pid = pid;
}

static uint64_t page_size(void)
{
	long v = sysconf(_SC_PAGESIZE);

	return v > 0 ? (uint64_t)v : 4096;
}

static size_t hdr_size(void)
{
	return rb_lockshare_hdr(page_size());
}

/* The segment's header mapped; NULL (logged). */
static struct rb_lock_share *map_header(int fd, const char *name)
{
	void *m = mmap(NULL, hdr_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (m != MAP_FAILED)
		return m;
	rb_err("lock --run-id: cannot map %s: %s", name, strerror(errno));
	return NULL;
}

/* A new segment for plan @p: its header written, the magic last. */
static int make(struct sess_lockshare *ls, const struct rb_params *p)
{
	uint64_t page = page_size();

	if (ftruncate(ls->fd, (off_t)(hdr_size() + rb_lockshare_bytes(p, page)))) {
		int e = errno;

		rb_err("lock --run-id: cannot size %s: %s", ls->name, strerror(e));
		return -e;
	}
	ls->sh = map_header(ls->fd, ls->name);
	if (!ls->sh)
		return -ENOMEM;
	rb_lockshare_init(ls->sh, p, (uint32_t)rb_plan_count(p), page);
	ls->first = true;
	return 0;
}

/*
 * Join the run's segment: its plan must be ours, and a host's place free.
 * -ESTALE: every host that joined it is gone (their server processes were
 * killed before they could leave): the caller makes the run anew.
 */
static int join(struct sess_lockshare *ls, const struct rb_params *p)
{
	char why[256];

	ls->sh = map_header(ls->fd, ls->name);
	if (!ls->sh)
		return -ENOMEM;
	if (__atomic_load_n(&ls->sh->magic, __ATOMIC_ACQUIRE) != RB_LOCKSHARE_MAGIC) {
		rb_err("lock --run-id %llu: %s is not a run's segment",
		       (unsigned long long)p->lock_run_id, ls->name);
		return -EINVAL;
	}
	rb_lockshare_prune(ls->sh);
	if (!__atomic_load_n(&ls->sh->attached, __ATOMIC_ACQUIRE)) {
		rb_warn("lock --run-id %llu: the hosts of the run's segment %s are all gone "
			"(their server processes died): a new run starts in it",
			(unsigned long long)p->lock_run_id, ls->name);
		return -ESTALE;
	}
	if (rb_lockshare_differs(ls->sh, p, (uint32_t)rb_plan_count(p), why, sizeof(why))) {
		rb_err("lock --run-id %llu: this host cannot join the run: %s",
		       (unsigned long long)p->lock_run_id, why);
		return -EINVAL;
	}
	return 0;
}

static void unmap(struct sess_lockshare *ls)
{
	if (ls->sh)
		munmap(ls->sh, hdr_size());
	if (ls->fd >= 0)
		close(ls->fd);
	ls->sh = NULL;
	ls->fd = -1;
}

/* Make the run's segment, or join it (made anew when its hosts are all gone). */
static int open_run(struct sess_lockshare *ls, const struct rb_params *p)
{
	int ret;

	ls->fd = shm_open(ls->name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (ls->fd >= 0) {
		ret = make(ls, p);
		if (ret)
			shm_unlink(ls->name);
		return ret;
	}
	if (errno != EEXIST)
		return -errno;
	ls->fd = shm_open(ls->name, O_RDWR | O_CLOEXEC, 0600);
	ret = ls->fd < 0 ? -errno : join(ls, p);
	if (ret != -ESTALE)
		return ret;
	unmap(ls);
	shm_unlink(ls->name);
	return open_run(ls, p);
}

static int attach_locked(struct sess_lockshare *ls, const struct rb_params *p, const char *who)
{
	int ret = open_run(ls, p);

	if (ls->fd < 0)
		rb_err("lock --run-id: cannot open %s: %s", ls->name, strerror(-ret));
	if (ret)
		return ret;
	ls->host = rb_lockshare_add(ls->sh, getpid(), who);
	return 0;
}

static void release(struct sess_lockshare *ls)
{
	unmap(ls);
	free(ls);
}

int sess_lockshare_attach(const struct rb_params *p, int lock_fd, const char *who,
			  struct sess_lockshare **out)
{
	struct sess_lockshare *ls;
	int ret;

	*out = NULL;
	if (!p->lock_run_id)
		return 0;
	if (lock_fd < 0 || !server_pid) {
		rb_err("lock --run-id: this server serves one connection; several hosts join a "
		       "run through 'rdmabench server'");
		return -ENOTSUP;
	}
	ls = calloc(1, sizeof(*ls));
	if (!ls)
		return -ENOMEM;
	ls->fd = -1;
	snprintf(ls->name, sizeof(ls->name), "/" PREFIX "%ld.%016llx", (long)server_pid,
		 (unsigned long long)p->lock_run_id);
	ret = rb_admit_lock(lock_fd, true);
	if (ret) {
		free(ls);
		return ret;
	}
	ret = attach_locked(ls, p, who);
	rb_admit_lock(lock_fd, false);
	if (ret) {
		release(ls);
		return ret;
	}
	*out = ls;
	return 0;
}

int sess_lockshare_map(struct sess_lockshare *ls, void *buf, size_t len)
{
	uint64_t page = page_size();
	void *m;

	if (ls->sh->bytes > (len + page - 1) / page * page) {
		rb_err("lock --run-id: a buffer of %zu bytes holds no %llu shared bytes", len,
		       (unsigned long long)ls->sh->bytes);
		return -EINVAL;
	}
	m = mmap(buf, ls->sh->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, ls->fd,
		 (off_t)hdr_size());
	if (m == MAP_FAILED) {
		int e = errno;

		rb_err("lock --run-id: cannot map %s over the buffer: %s", ls->name, strerror(e));
		return -e;
	}
	return 0;
}

void sess_lockshare_detach(struct sess_lockshare *ls, int lock_fd)
{
	if (!ls)
		return;
	if (!rb_admit_lock(lock_fd, true)) {
		if (!rb_lockshare_leave(ls->sh, ls->host))
			shm_unlink(ls->name);
		rb_admit_lock(lock_fd, false);
	}
	release(ls);
}

/* @fn on each segment this server made that is left ("/rdmabench.lock.PID.ID"). */
static void each_segment(void (*fn)(const char *name, pid_t pid), pid_t pid)
{
	char mine[48], name[320];
	struct dirent *e;
	DIR *d;

	if (!server_pid)
		return;
	snprintf(mine, sizeof(mine), PREFIX "%ld.", (long)server_pid);
	d = opendir("/dev/shm");
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, mine, strlen(mine))) {
			snprintf(name, sizeof(name), "/%s", e->d_name);
			fn(name, pid);
		}
	if (d)
		closedir(d);
}

static void unlink_segment(const char *name, pid_t pid)
{
	(void)pid;
	shm_unlink(name);
}

void sess_lockshare_sweep(void)
{
	each_segment(unlink_segment, 0);
}

/* Segment @name: the place of server process @pid, if it has one, is dead. */
static void reap_in(const char *name, pid_t pid)
{
	struct rb_lock_share *sh;
	int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return;
	sh = mmap(NULL, hdr_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (sh == MAP_FAILED)
		return;
	if (__atomic_load_n(&sh->magic, __ATOMIC_ACQUIRE) == RB_LOCKSHARE_MAGIC)
		rb_lockshare_reaped(sh, pid);
	munmap(sh, hdr_size());
}

void sess_lockshare_reaped(pid_t pid)
{
	each_segment(reap_in, pid);
}
