// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/rdmabench.h"

/* The directory part of @path, "." when it has none. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", path);
	slash = strrchr(buf, '/');
	if (!slash)
		return ".";
	*(slash == buf ? slash + 1 : slash) = '\0';
	return buf;
}

/* How a path is written. */
enum out_how {
	OUT_REPLACE,  /* temp file + rename(): a regular file, or a new one */
	OUT_TRUNCATE, /* in place: a regular file in a directory we cannot write */
	OUT_APPEND,   /* in place, once: a device, a pipe, /dev/stdout */
};

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N: the caller's own stream. */
static bool is_special(const char *path)
{
	return !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6);
}

/* A dangling symlink: the file it names, to be created. */
static int link_target(const char *path, char *real, size_t len)
{
	char target[PATH_MAX], dir[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (target[0] == '/')
		n = snprintf(real, len, "%s", target);
	else
		n = snprintf(real, len, "%s/%s", dir_of(path, dir, sizeof(dir)), target);
	return n >= (ssize_t)len ? -ENAMETOOLONG : 0;
}

/*
 * Where @path leads, and how to write it: a symlink is followed, so the
 * link itself is never replaced; a device or the caller's own stream is
 * never replaced either, and written after what is already there.
 */
static int out_kind(const char *path, char *real, size_t len, enum out_how *how)
{
	char dir[PATH_MAX];
	struct stat st;

	*how = OUT_APPEND;
	/* Never a new file under /dev or /proc. */
	if (is_special(path) && stat(path, &st))
		return -errno;
	if (is_special(path))
		return snprintf(real, len, "%s", path) >= (int)len ? -ENAMETOOLONG : 0;
	*how = OUT_REPLACE;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return -errno;
		return snprintf(real, len, "%s", path) >= (int)len ? -ENAMETOOLONG : 0;
	}
	if (!realpath(path, real))
		return errno == ENOENT && S_ISLNK(st.st_mode) ? link_target(path, real, len)
							      : -errno;
	if (stat(real, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISBLK(st.st_mode))
		return -ENOTSUP;
	if (!S_ISREG(st.st_mode))
		*how = OUT_APPEND;
	else if (access(dir_of(real, dir, sizeof(dir)), W_OK))
		*how = OUT_TRUNCATE;
	return 0;
}

int rb_afile_open(struct rb_afile *af, const char *path, FILE **f)
{
	static const char *const mode[] = {
		[OUT_REPLACE] = "wxe", [OUT_TRUNCATE] = "we", [OUT_APPEND] = "ae"
	};
	enum out_how how;
	int ret;

	memset(af, 0, sizeof(*af));
	*f = NULL;
	ret = out_kind(path, af->path, sizeof(af->path), &how);
	if (ret)
		return ret;
	af->replace = how == OUT_REPLACE;
	if (af->replace && snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%ld", af->path,
				    (long)getpid()) >= (int)sizeof(af->tmp))
		return -ENAMETOOLONG;
	*f = fopen(af->replace ? af->tmp : af->path, mode[how]);
	return *f ? 0 : -errno;
}

int rb_afile_close(struct rb_afile *af, FILE *f, int ret)
{
	if (!f)
		return ret;
	if (!ret && fflush(f))
		ret = -errno;
	if (!ret && af->replace && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && af->replace && rename(af->tmp, af->path))
		ret = -errno;
	if (ret && af->replace)
		unlink(af->tmp);
	return ret;
}

bool rb_output_rewritable(const char *path)
{
	struct stat st;

	if (is_special(path))
		return false;
	return stat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode);
}

int rb_output_check(const char *path, char *err, size_t len)
{
	char buf[PATH_MAX];
	const char *dir;
	struct stat st;

	if (stat(path, &st)) {
		if (errno != ENOENT || is_special(path))
			return rb_set_err(err, len, -errno, "%s: %s", path, strerror(errno));
		dir = dir_of(path, buf, sizeof(buf));
		if (access(dir, W_OK))
			return rb_set_err(err, len, -EACCES, "%s: cannot create a file in %s: %s",
					  path, dir, strerror(errno));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return rb_set_err(err, len, -EISDIR, "%s is a directory", path);
	if (S_ISBLK(st.st_mode))
		return rb_set_err(err, len, -ENOTSUP, "%s is a block device", path);
	if (access(path, W_OK))
		return rb_set_err(err, len, -EACCES, "%s: %s", path, strerror(errno));
	return 0;
}

bool rb_output_same(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
