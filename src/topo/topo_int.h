/* SPDX-License-Identifier: MIT */
/*
 * Between topo.c, topo_sysfs.c and topo_report.c only: what one reads of
 * sysfs for the others.
 */
#ifndef RB_TOPO_INT_H
#define RB_TOPO_INT_H

#include <stddef.h>

#include "topo/topo.h"

/*
 * rb_topo_read_attr() - the first line of sysfs file @dir/@name into @buf,
 * without its newline: 0, or -errno (the file is missing or unreadable).
 */
int rb_topo_read_attr(const char *dir, const char *name, char *buf, size_t len);

#endif
