// SPDX-License-Identifier: MIT
/*
 * rdmabench doctor: the command line, the run over the devices, the table
 * and the JSON.  The checks are doctor_checks.c's (a device) and
 * doctor_host.c's (the host), their verdicts doctor_verdict.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/doctor_int.h"
#include "core/rdmabench.h"

/* ---- reading under the root ------------------------------------------------ */

int rb_dr_file(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

int rb_dr_path(const struct rb_dr_run *x, char *buf, size_t len, const char *rel)
{
	return snprintf(buf, len, "%s%s", x->root, rel) >= (int)len ? -ENAMETOOLONG : 0;
}

static int vread(const struct rb_dr_run *x, char *src, char *buf, size_t len, const char *fmt,
		 va_list ap)
{
	char rel[PATH_MAX], path[PATH_MAX], *slash;

	if (vsnprintf(rel, sizeof(rel), fmt, ap) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	if (src)
		snprintf(src, sizeof(((struct rb_dr_check *)0)->source), "%.191s", rel);
	if (rb_dr_path(x, path, sizeof(path), rel))
		return -ENAMETOOLONG;
	slash = strrchr(path, '/');
	*slash = '\0';
	return rb_dr_file(path, slash + 1, buf, len);
}

int rb_dr_read(const struct rb_dr_run *x, char *src, char *buf, size_t len, const char *rel, ...)
{
	va_list ap;
	int ret;

	va_start(ap, rel);
	ret = vread(x, src, buf, len, rel, ap);
	va_end(ap);
	return ret;
}

int rb_dr_read_int(const struct rb_dr_run *x, char *src, long *v, const char *rel, ...)
{
	char buf[64], *end;
	va_list ap;
	int ret;

	va_start(ap, rel);
	ret = vread(x, src, buf, sizeof(buf), rel, ap);
	va_end(ap);
	if (ret)
		return ret;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return end == buf || *end || errno ? -EINVAL : 0;
}

int rb_dr_count(const struct rb_dr_run *x, const char *rel, const char *prefix)
{
	char dir[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *dp;

	if (rb_dr_path(x, dir, sizeof(dir), rel))
		return -ENAMETOOLONG;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((de = readdir(dp)))
		n += de->d_name[0] != '.' && !strncmp(de->d_name, prefix, strlen(prefix)) &&
		     (!prefix[0] || isdigit((unsigned char)de->d_name[strlen(prefix)]));
	closedir(dp);
	return n;
}

int rb_dr_cpus(const struct rb_dr_run *x, char *src, hwloc_bitmap_t set, const char *rel)
{
	char buf[1024];
	int ret = rb_dr_read(x, src, buf, sizeof(buf), "%s", rel);

	hwloc_bitmap_zero(set);
	if (!ret && buf[0])
		ret = rb_cpus_parse(buf, set);
	return ret ? ret : hwloc_bitmap_weight(set);
}

/* ---- the report ------------------------------------------------------------ */

struct rb_dr_check *rb_dr_add(struct rb_dr_report *r, const char *name, const char *subject)
{
	struct rb_dr_check *c;

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 32;

		c = realloc(r->c, cap * sizeof(*c));
		if (!c)
			return NULL;
		r->c = c;
		r->cap = cap;
	}
	c = &r->c[r->n++];
	*c = (struct rb_dr_check){ .name = name, .v = RB_DR_NA, .why = "" };
	snprintf(c->subject, sizeof(c->subject), "%s", subject ? subject : "");
	return c;
}

void rb_dr_report_free(struct rb_dr_report *r)
{
	free(r->c);
	*r = (struct rb_dr_report){ 0 };
}

enum rb_dr_verdict rb_dr_worst(const struct rb_dr_report *r)
{
	enum rb_dr_verdict w = RB_DR_OK;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->c[i].v == RB_DR_FAIL || (r->c[i].v == RB_DR_WARN && w == RB_DR_OK))
			w = r->c[i].v;
	return w;
}

const char *rb_dr_verdict_name(enum rb_dr_verdict v)
{
	static const char *const names[] = { "ok", "warn", "fail", "n/a" };

	return v <= RB_DR_NA ? names[v] : "?";
}

/* ---- the run ---------------------------------------------------------------- */

/* The node's CPUs and huge pages, once per node (-1: the host's), as bits of @done. */
static int run_node(struct rb_dr_run *x, int node, uint64_t *done)
{
	uint64_t bit = 1ull << ((unsigned int)(node + 1) % 64);
	char subj[32] = "";

	if (*done & bit)
		return 0;
	*done |= bit;
	if (node >= 0)
		snprintf(subj, sizeof(subj), "node%d", node);
	return rb_dr_host_node(x, subj, node);
}

static int run_one(struct rb_dr_run *x, const char *name, uint64_t *nodes_done)
{
	struct rb_dev_info d;
	int ret = rb_dev_read(x->sys, name, &d);

	if (ret)
		return ret;
	if (!x->bdf[0])
		snprintf(x->bdf, sizeof(x->bdf), "%s", d.pci);
	ret = rb_dr_device(x, &d);
	if (!ret)
		ret = run_node(x, d.numa_node, nodes_done);
	rb_dev_info_free(&d);
	return ret;
}

static int run_devices(struct rb_dr_run *x, const char *dev)
{
	char **names = NULL, *one[1] = { (char *)dev };
	uint64_t nodes_done = 0;
	int n = 0, i, ret = rb_dev_list(x->sys, &names, &n);

	if (ret)
		n = 0;
	ret = rb_dr_host_prereq(x, n);
	for (i = 0; !ret && i < (dev ? 1 : n); i++)
		ret = run_one(x, dev ? one[0] : names[i], &nodes_done);
	if (!ret && !nodes_done)
		ret = rb_dr_host_node(x, "", -1);
	rb_dev_list_free(names, n);
	return ret;
}

int rb_dr_run(const struct rb_dr_env *env, const char *dev, struct rb_dr_report *r)
{
	struct rb_dr_run *x = calloc(1, sizeof(*x));
	size_t len;
	int ret;

	if (!x)
		return -ENOMEM;
	*x = (struct rb_dr_run){ .e = env, .r = r };
	snprintf(x->root, sizeof(x->root), "%s", env->root ? env->root : "/");
	len = strlen(x->root);
	while (len && x->root[len - 1] == '/')
		x->root[--len] = '\0';
	snprintf(x->sys, sizeof(x->sys), "%s/sys", x->root);
	ret = run_devices(x, dev);
	if (!ret)
		ret = rb_dr_host(x);
	free(x);
	return ret;
}
