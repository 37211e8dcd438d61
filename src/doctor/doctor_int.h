/* SPDX-License-Identifier: MIT */
/*
 * Between doctor.c, doctor_checks.c and doctor_host.c only: one run of
 * the checks, and reading files under its root.
 */
#ifndef RB_DOCTOR_INT_H
#define RB_DOCTOR_INT_H

#include <limits.h>

#include "doctor/doctor.h"
#include "topo/topo.h"

struct rb_dr_run {
	const struct rb_dr_env *e;
	struct rb_dr_report *r;
	char root[PATH_MAX]; /* without a trailing '/': "" for "/" */
	char sys[PATH_MAX];  /* root + "/sys", as topo.c reads it */
	char bdf[16];	     /* the first device's PCI function, for the IOMMU */
};

/*
 * rb_dr_read() - the file ROOT/@rel (printf-style), at most @len - 1
 * bytes, its trailing white space cut; @rel as formatted into @src when
 * @src is not NULL.  0 or -errno.
 */
int rb_dr_read(const struct rb_dr_run *x, char *src, char *buf, size_t len, const char *rel, ...)
	__attribute__((format(printf, 5, 6)));
/* rb_dr_read_int() - a file holding one integer; -errno when absent or not a number. */
int rb_dr_read_int(const struct rb_dr_run *x, char *src, long *v, const char *rel, ...)
	__attribute__((format(printf, 4, 5)));
/* rb_dr_file() - the file @dir/@name, as rb_dr_read() reads it, without the root. */
int rb_dr_file(const char *dir, const char *name, char *buf, size_t len);
/* rb_dr_path() - ROOT/@rel into @buf; -ENAMETOOLONG. */
int rb_dr_path(const struct rb_dr_run *x, char *buf, size_t len, const char *rel);
/* rb_dr_count() - entries of directory ROOT/@rel whose names start with @prefix; -errno. */
int rb_dr_count(const struct rb_dr_run *x, const char *rel, const char *prefix);
/* rb_dr_cpus() - a CPU list file into @set; its CPU count, or -errno. */
int rb_dr_cpus(const struct rb_dr_run *x, char *src, hwloc_bitmap_t set, const char *rel);

/* Each adds its checks to x->r: 0, or -ENOMEM. */
int rb_dr_device(struct rb_dr_run *x, const struct rb_dev_info *d);
int rb_dr_host_prereq(struct rb_dr_run *x, int n_sysfs);
int rb_dr_host_node(struct rb_dr_run *x, const char *subject, int node);
int rb_dr_host(struct rb_dr_run *x);

#endif
