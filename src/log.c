// SPDX-License-Identifier: MIT
/* Diagnostics to stderr, one line each, prefixed with the tool name. */
#include <stdarg.h>
#include <stdio.h>

#include "rdmabench.h"

int rb_verbose;
int rb_quiet;
char rb_last_error[256];

static void vlog(const char *tag, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", RB_TOOL, tag);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Errors are also kept, so a server can tell its client why it gave up. */
void rb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rb_last_error, sizeof(rb_last_error), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void rb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

/* Informational notes are silenced by --quiet. */
void rb_info(const char *fmt, ...)
{
	va_list ap;

	if (rb_quiet)
		return;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

const char *rb_verb_name(enum rb_verb v)
{
	static const char *const names[] = { "send", "write", "read", "atomic" };

	return v <= RB_VERB_ATOMIC ? names[v] : "?";
}

const char *rb_op_name(enum rb_atomic_op op)
{
	return op == RB_OP_CSWAP ? "cswap" : "fadd";
}
