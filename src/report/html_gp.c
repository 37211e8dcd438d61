// SPDX-License-Identifier: MIT
/*
 * `rdmabench report`'s helpers (html_int.h): HTML text, tables, and the
 * figures, drawn by gnuplot's SVG terminal in a child process whose SVG
 * is put inline into the page.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/html_int.h"

void h_esc(FILE *f, const char *s)
{
	if (!s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void h_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.4g", v);
	else
		fputc('-', f);
}

void h_table_begin(struct h_page *p, const char *caption, const char *const *cols, size_t n)
{
	size_t i;

	p->ntable++;
	fprintf(p->f, "<table class=\"data\"><caption>Table %d: ", p->ntable);
	h_esc(p->f, caption);
	fputs("</caption>\n<thead><tr>", p->f);
	for (i = 0; i < n; i++) {
		fputs("<th>", p->f);
		h_esc(p->f, cols[i]);
		fputs("</th>", p->f);
	}
	fputs("</tr></thead>\n<tbody>\n", p->f);
}

void h_table_end(struct h_page *p)
{
	fputs("</tbody></table>\n", p->f);
}

const char *h_color(size_t i)
{
	/* Okabe-Ito, as rdmabench-plot's */
	static const char *const c[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
					 "#E69F00", "#56B4E9", "#000000", "#8C564B" };

	return c[i % (sizeof(c) / sizeof(c[0]))];
}

void h_gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

void h_gp_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.9g", v);
	else
		fputs(" ?", f);
}

int h_gp_begin(struct h_gp *g, const char *title, int w, int h)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->title, sizeof(g->title), "%s", title);
	g->f = open_memstream(&g->buf, &g->len);
	if (!g->f)
		return -errno;
	/* noenhanced: names such as lat_p99_us are text, not subscripts */
	fprintf(g->f,
		"set terminal svg size %d,%d dynamic noenhanced font \"sans,11\" "
		"background \"white\"\nset datafile missing \"?\"\nset encoding utf8\n"
		"set title ",
		w, h);
	h_gp_str(g->f, title);
	fputs("\nset grid\nset key outside right top\n", g->f);
	return 0;
}

void h_gp_abort(struct h_gp *g)
{
	if (g->f)
		fclose(g->f);
	free(g->buf);
	memset(g, 0, sizeof(*g));
}

static int fail(struct h_page *p, int err, const char *fmt, const char *a, const char *b)
{
	if (!p->ret) {
		p->ret = err;
		snprintf(p->err, sizeof(p->err), fmt, a, b);
	}
	return err;
}

/* A temporary file of our own, unlinked by the caller; its fd or -errno. */
static int tmpfile_at(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, len, "%s/rdmabench-report.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	return fd < 0 ? -errno : fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The child: gnuplot SCRIPT, its SVG on the pipe, its messages into @efd. */
static void child(const char *prog, const char *script, int out, int efd)
{
	dup2(out, STDOUT_FILENO);
	dup2(efd, STDERR_FILENO);
	execlp(prog, prog, script, (char *)NULL);
	dprintf(efd, "cannot run %s: %s\n", prog, strerror(errno));
	_exit(127);
}

/* Read @fd to its end into a string of *@len bytes; NULL on failure. */
static char *slurp(int fd, size_t *len)
{
	char *buf = NULL, chunk[65536];
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	ssize_t r;

	if (!m)
		return NULL;
	while ((r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		fwrite(chunk, 1, (size_t)r, m);
	}
	fclose(m);
	*len = n;
	if (r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* gnuplot's first message, from its stderr file @fd. */
static void first_line(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	char *nl;

	buf[n > 0 ? n : 0] = '\0';
	while ((nl = strchr(buf, '\n')) && nl == buf)
		memmove(buf, buf + 1, strlen(buf));
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
}

/* Run gnuplot on @script; its output in *@svg (malloc'd). */
static int run_gp(struct h_page *p, const char *script, size_t slen, char **svg, size_t *len)
{
	const char *prog = getenv("RDMABENCH_GNUPLOT");
	char spath[4096], epath[4096], msg[256] = "";
	int sfd, efd, pfd[2], st = 0, ret = 0;
	pid_t pid;

	prog = prog && *prog ? prog : "gnuplot";
	sfd = tmpfile_at(spath, sizeof(spath));
	if (sfd < 0)
		return fail(p, sfd, "a temporary file for gnuplot's script: %s%s", strerror(-sfd),
			    "");
	efd = tmpfile_at(epath, sizeof(epath));
	ret = efd < 0 ? efd : write_all(sfd, script, slen);
	if (!ret && pipe(pfd))
		ret = -errno;
	if (ret)
		goto out_files;
	pid = fork();
	if (pid == 0)
		child(prog, spath, pfd[1], efd);
	close(pfd[1]);
	*svg = pid > 0 ? slurp(pfd[0], len) : NULL;
	close(pfd[0]);
	if (pid < 0 || !*svg)
		ret = -errno ? -errno : -EIO;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!ret && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		first_line(efd, msg, sizeof(msg));
		ret = WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -ENOENT : -EIO;
		free(*svg);
		*svg = NULL;
	}
out_files:
	close(sfd);
	unlink(spath);
	if (efd >= 0) {
		close(efd);
		unlink(epath);
	}
	if (ret == -ENOENT)
		return fail(p, ret,
			    "%s (gnuplot draws the report's figures: apt-get install gnuplot-nox, "
			    "or name it in RDMABENCH_GNUPLOT)%s",
			    msg, "");
	if (ret)
		return fail(p, ret, "gnuplot failed: %s%s", *msg ? msg : strerror(-ret), "");
	return 0;
}

/* gnuplot's SVG ids, made the figure's own: every figure has the same. */
static const char *const svg_ids[] = { "gpPt",	 "gpDot", "textbox", "greybox",
				       "gpclip", "gpPat", "gpimage", "gnuplot_" };

/*
 * gnuplot's hover text (labels hypertext) calls its mouse script, which
 * the page does not have: made SVG's own tooltip, a <title>.  The title
 * it gives each plot ("gnuplot_plot_1") is dropped.  Returns the bytes
 * of @s taken, 0 when it starts neither.
 */
static size_t hover(FILE *f, const char *s, const char *end)
{
	static const char on[] = "<g onmousemove=\"gnuplot_svg.showHypertext(evt,'";
	static const char off[] = "')\" onmouseout=\"gnuplot_svg.hideHypertext()\"><title> "
				  "</title>";
	static const char plot[] = "<title>gnuplot_plot_";
	const char *t, *e;

	if ((size_t)(end - s) > sizeof(plot) && !memcmp(s, plot, sizeof(plot) - 1)) {
		e = strstr(s, "</title>");
		return e && e < end ? (size_t)(e + 8 - s) : 0;
	}
	if ((size_t)(end - s) <= sizeof(on) || memcmp(s, on, sizeof(on) - 1))
		return 0;
	t = s + sizeof(on) - 1;
	e = strstr(t, off);
	if (!e || e >= end)
		return 0;
	fputs("<g><title>", f);
	fwrite(t, 1, (size_t)(e - t), f);
	fputs("</title>", f);
	return (size_t)(e + sizeof(off) - 1 - s);
}

/* Put @svg[0..len) into the page from its <svg>, its ids prefixed by @id. */
static void put_svg(struct h_page *p, const char *svg, size_t len, const char *id)
{
	const char *s = strstr(svg, "<svg"), *end = svg + len;
	size_t i, n;

	for (; s && s < end; s++) {
		n = hover(p->f, s, end);
		if (n) {
			s += n - 1;
			continue;
		}
		for (i = 0; i < sizeof(svg_ids) / sizeof(svg_ids[0]); i++) {
			n = strlen(svg_ids[i]);
			if ((size_t)(end - s) >= n && !memcmp(s, svg_ids[i], n)) {
				fprintf(p->f, "%s-", id);
				break;
			}
		}
		fputc(*s, p->f);
	}
}

int h_gp_emit(struct h_page *p, struct h_gp *g, const char *id)
{
	char *svg = NULL;
	size_t len = 0;
	int ret;

	if (fclose(g->f)) {
		g->f = NULL;
		h_gp_abort(g);
		return fail(p, -ENOMEM, "gnuplot's script: %s%s", strerror(ENOMEM), "");
	}
	g->f = NULL;
	ret = run_gp(p, g->buf, g->len, &svg, &len);
	if (!ret && !strstr(svg, "<svg"))
		ret = fail(p, -EIO, "gnuplot wrote no SVG for %s%s", g->title, "");
	if (!ret) {
		p->nplot++;
		fprintf(p->f, "<figure class=\"plot\" id=\"%s\">\n", id);
		put_svg(p, svg, len, id);
		fprintf(p->f, "<figcaption>Figure %d: ", p->nplot);
		h_esc(p->f, g->title);
		fputs("</figcaption></figure>\n", p->f);
	}
	free(svg);
	h_gp_abort(g);
	return ret;
}
