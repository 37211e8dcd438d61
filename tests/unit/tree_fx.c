// SPDX-License-Identifier: MIT
/* A scratch file tree for the tests; tree_fx.h says what it holds. */
#include "tree_fx.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

static void mkdir_one(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

void mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	pathf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir_one(buf);
		*p = '/';
	}
	mkdir_one(buf);
}

void make_links(const char *dir, const char *root)
{
	char path[PATH_MAX], line[PATH_MAX], at[PATH_MAX], *arrow, *slash;
	FILE *in;

	pathf(path, sizeof(path), "%s/links", dir);
	in = fopen(path, "r");
	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		arrow = strstr(line, " -> ");
		if (line[0] == '#' || !arrow)
			continue;
		*arrow = '\0';
		pathf(at, sizeof(at), "%s/%s", root, line);
		slash = strrchr(at, '/');
		*slash = '\0';
		mkdirs(at);
		*slash = '/';
		assert_int_equal(symlink(arrow + 4, at), 0);
	}
	fclose(in);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int rm_tree(const char *root)
{
	return nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
