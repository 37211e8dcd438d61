// SPDX-License-Identifier: MIT
/* Diagnostics to stderr, one line each, prefixed with the tool name. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "core/rdmabench.h"

int rb_verbose;
int rb_quiet;
__thread char rb_last_error[RB_TEXT_MAX];

/*
 * One write() per line: the generic server's processes share stderr, and
 * their lines must not interleave.
 */
static void vlog(const char *tag, const char *fmt, va_list ap)
{
	char line[RB_TEXT_MAX + 128];
	int n, m;

	n = snprintf(line, sizeof(line), "%s: %s", RB_TOOL, tag);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	n = m < 0 ? n : n + m;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	fflush(stderr);
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		return; /* nowhere left to say it */
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

int rb_set_err(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

const char *rb_escape(const char *in, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	for (; *in && n + 5 < len; in++) {
		unsigned char ch = (unsigned char)*in;

		if (ch < 0x20 || ch >= 0x7f || ch == '\\')
			n += (size_t)snprintf(out + n, len - n, "\\x%02x", ch);
		else
			out[n++] = (char)ch;
	}
	out[n] = '\0';
	return out;
}

const char *rb_op_name(enum rb_atomic_op op)
{
	return op == RB_OP_CSWAP ? "cswap" : "fadd";
}

const char *rb_transport_name(unsigned int t)
{
	static const char *const names[RB_TR_COUNT] = { "RC", "UC", "UD", "SRD", "DC" };

	return t < RB_TR_COUNT ? names[t] : "?";
}
