/* SPDX-License-Identifier: MIT */
/*
 * What a result file needs to be found and reproduced later: a run id,
 * the command line, and the system that ran it (kernel).  Set once by
 * main(), read by the writers.
 */
#ifndef RB_IDENT_H
#define RB_IDENT_H

#include <stddef.h>

#define RB_IDENT_ARGS 128

struct rb_ident {
	char run_id[40];		 /* a random UUID, new each process start */
	const char *argv[RB_IDENT_ARGS]; /* the command line as given (argv[0] too) */
	size_t argc;			 /* at most RB_IDENT_ARGS, the rest counted in more */
	size_t more;
	char kernel[200]; /* uname -srv */
};

/* rb_ident_init() - fill the process's identity from @argc, @argv (which must outlive it). */
void rb_ident_init(int argc, char **argv);

/* rb_ident_reset() - forget it (run_id empty, no command line): for tests' fixed documents. */
void rb_ident_reset(void);

/* rb_ident() - the process's identity; argc 0 when rb_ident_init() was not called. */
const struct rb_ident *rb_ident(void);

/*
 * rb_uuid_text() - 16 random bytes @b as a version 4 UUID into @buf (at
 * least 37 bytes): "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".  Pure.
 */
void rb_uuid_text(const unsigned char b[16], char *buf, size_t len);

#endif
