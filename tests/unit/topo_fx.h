// SPDX-License-Identifier: MIT
/*
 * The topology tests' fixture (test_topo_*.c): one machine of
 * tests/data/topo (FX(test, name)) with its topology and a scratch sysfs
 * root, and the look-ups the tests share.
 */
#ifndef TOPO_FX_H
#define TOPO_FX_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <numa.h>
#include <numaif.h>

#include "topo/topo.h"
#include "tree_fx.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

/* One fixture machine: its topology and a scratch sysfs root. */
struct fx {
	const char *name;
	char tmp[PATH_MAX];
	char sysroot[PATH_MAX];
	hwloc_topology_t topo;
};

#define FX(f, name) \
	cmocka_unit_test_prestate_setup_teardown(f, fx_setup, fx_teardown, (void *)(name))

int fx_setup(void **state);
int fx_teardown(void **state);
hwloc_bitmap_t set_of(const char *list);
void read_dev(struct fx *f, const char *name, struct rb_dev_info *d);
int dev_node(struct fx *f, const char *name);
/* Runs the report; returns its code, the table in *@table, JSON in *@j. */
int report(struct fx *f, const char *dev, char **table, json_t **j);

#endif
