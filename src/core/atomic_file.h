/* SPDX-License-Identifier: MIT */
/*
 * Output files written whole: the one temp-file-and-rename() writer behind
 * --json, --csv, --samples and matrix's outputs.  A regular file (or a new
 * one) is written to "PATH.tmp.PID", synced and renamed over PATH, so that
 * a crash or ^C never leaves half a file; a symlink is followed, never
 * replaced (a dangling one's target is created); a device, a pipe or the
 * caller's own stream (/dev/stdout) is written in place, after what is
 * there; a regular file in a directory we cannot write is truncated in
 * place.  Also the checks made on output paths before anything runs.
 * Nothing here logs: the caller names the path and the option.
 */
#ifndef RB_ATOMIC_FILE_H
#define RB_ATOMIC_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rb_afile {
	bool replace;		 /* tmp is renamed over path on close */
	char path[PATH_MAX];	 /* where the file ends up (a symlink followed) */
	char tmp[PATH_MAX + 32]; /* path.tmp.PID */
};

/* rb_afile_open() - open @path's file for writing into *@f; 0 or -errno. */
int rb_afile_open(struct rb_afile *af, const char *path, FILE **f);

/*
 * rb_afile_close() - finish @f, opened by rb_afile_open(): when @ret (the
 * writing's status) is 0, flush, sync and rename into place; else, or when
 * a step fails, remove the temp file and leave the old file as it was.
 * Returns @ret, or the first step's -errno.  A NULL @f returns @ret.
 */
int rb_afile_close(struct rb_afile *af, FILE *f, int ret);

/*
 * rb_output_check() - whether @path can take our output, before anything
 * is measured: not a directory or a block device, writable, or creatable
 * in its directory.  Returns 0 or -errno with the reason in @err.
 */
int rb_output_check(const char *path, char *err, size_t len);

/*
 * rb_output_rewritable() - whether @path is a regular file (or new), which
 * is rewritten after every point; anything else (a device, a pipe such as
 * /dev/stdout) is written once, when the run ends.
 */
bool rb_output_rewritable(const char *path);

/* rb_output_same() - whether two paths name the same file. */
bool rb_output_same(const char *a, const char *b);

#endif
