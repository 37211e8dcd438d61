// SPDX-License-Identifier: MIT
/*
 * A scratch file tree for the tests that read a host's files under a root
 * (test_topo_*.c through topo_fx.c, test_doctor, test_counters): paths,
 * folders, the links a fixture's "links" file lists, and removal.
 */
#ifndef TREE_FX_H
#define TREE_FX_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>

/* snprintf() that fails the test rather than truncate a path. */
__attribute__((format(printf, 3, 4))) void pathf(char *buf, size_t len, const char *fmt, ...);
/* mkdir -p @path: every folder of it that is not there yet, or the test fails. */
void mkdirs(const char *path);
/* Each "LINK -> TARGET" line of @dir/links (# a comment): LINK under @root, its folders made. */
void make_links(const char *dir, const char *root);
/* @root and everything under it, links and never what they point to: 0, or nftw()'s -1. */
int rm_tree(const char *root);

#endif
