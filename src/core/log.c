// SPDX-License-Identifier: MIT
/*
 * Diagnostics to stderr, one line each, prefixed with the tool name; with
 * --timestamps each with the time first, and with --logfile each also into
 * the log file, with stdout's lines (the table) too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/rdmabench.h"

int rb_verbose;
int rb_quiet;
__thread char rb_last_error[RB_TEXT_MAX];

static int log_fd = -1; /* --logfile, opened for appending */
static bool log_stamps; /* --timestamps */

size_t rb_log_stamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	if (!len)
		return 0;
	buf[0] = '\0';
	clock_gettime(CLOCK_REALTIME, &ts);
	if (!gmtime_r(&ts.tv_sec, &tm))
		return 0;
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n && n + 6 < len)
		n += (size_t)snprintf(buf + n, len - n, ".%03ldZ ", ts.tv_nsec / 1000000);
	return n;
}

/* A write that has nowhere left to say it failed. */
static void put(int fd, const char *buf, size_t len)
{
	if (write(fd, buf, len) < 0)
		return;
}

/*
 * One write() per line: the generic server's processes share stderr, and
 * their lines must not interleave.
 */
static void vlog(const char *tag, const char *fmt, va_list ap)
{
	char line[RB_TEXT_MAX + 160];
	int n = 0, m;

	if (log_stamps)
		n = (int)rb_log_stamp(line, 32);
	n += snprintf(line + n, sizeof(line) - (size_t)n, "%s: %s", RB_TOOL, tag);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	n = m < 0 ? n : n + m;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	fflush(stderr);
	if (log_fd >= 0)
		put(log_fd, line, (size_t)n); /* the terminal still gets it if this fails */
	put(STDERR_FILENO, line, (size_t)n);
}

/* stdout's lines, also into the log file (stamped when asked), a line at a time. */
struct tee {
	FILE *out;
	bool midline;
};

static ssize_t tee_write(void *cookie, const char *buf, size_t len)
{
	struct tee *t = cookie;
	char stamp[40];
	size_t i = 0, l;

	if (fwrite(buf, 1, len, t->out) != len || fflush(t->out))
		return -1;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);

		l = nl ? (size_t)(nl - (buf + i)) + 1 : len - i;
		if (!t->midline && log_stamps) {
			size_t sl = rb_log_stamp(stamp, sizeof(stamp));

			if (write(log_fd, stamp, sl) < 0)
				break;
		}
		if (write(log_fd, buf + i, l) < 0)
			break;
		t->midline = !nl;
		i += l;
	}
	return (ssize_t)len;
}

int rb_log_setup(const char *path, bool stamps)
{
	static struct tee t;
	cookie_io_functions_t io = { .write = tee_write };
	FILE *f;

	log_stamps = stamps;
	if (!path || !path[0])
		return 0;
	log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		int e = errno;

		rb_err("--logfile %s: %s", path, strerror(e));
		return -e;
	}
	fflush(stdout);
	t.out = stdout;
	f = fopencookie(&t, "w", io);
	if (!f)
		return 0; /* the diagnostics still go to the file */
	setvbuf(f, NULL, _IOLBF, 0);
	stdout = f;
	return 0;
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
