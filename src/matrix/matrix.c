// SPDX-License-Identifier: MIT
/* rdmabench matrix, the pure part (matrix.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "matrix/matrix.h"
#include "core/metrics.h"

/* ---- patterns and schedules ------------------------------------------- */

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

int rb_mx_pattern_parse(const char *s, enum rb_mx_pattern *pat, uint32_t *k, char *err, size_t len)
{
	*k = 0;
	if (!*s || !strcmp(s, "pairs")) {
		*pat = RB_MX_PAIRS;
		return 0;
	}
	if (!strcmp(s, "ring")) {
		*pat = RB_MX_RING;
		return 0;
	}
	if (!strncmp(s, "incast:", 7) && !parse_u32(s + 7, k) && *k >= 1) {
		*pat = RB_MX_INCAST;
		return 0;
	}
	if (!strcmp(s, "suspects")) {
		*pat = RB_MX_SUSPECTS;
		*k = RB_MX_SUSPECTS_K;
		return 0;
	}
	if (!strncmp(s, "suspects:", 9) && !parse_u32(s + 9, k) && *k >= 1) {
		*pat = RB_MX_SUSPECTS;
		return 0;
	}
	return rb_set_err(err, len, -EINVAL,
			  "--pattern '%s' is not pairs, ring, incast:K (K senders, K >= 1) or "
			  "suspects[:K] (K rings, K >= 1)",
			  s);
}

static int sched_alloc(struct rb_mx_sched *s, size_t n)
{
	s->pairs = calloc(n ? n : 1, sizeof(*s->pairs));
	s->n = 0;
	s->nrounds = 0;
	return s->pairs ? 0 : -ENOMEM;
}

static void add_pair(struct rb_mx_sched *s, uint32_t src, uint32_t dst, uint32_t round)
{
	s->pairs[s->n++] = (struct rb_mx_pair){ .src = src, .dst = dst, .round = round };
	if (round + 1 > s->nrounds)
		s->nrounds = round + 1;
}

/*
 * The circle method: with m players (n, or n + 1 with a resting slot when
 * n is odd), player m-1 stays put and the others rotate; in round r,
 * slot i meets slot m-1-i.  Each unordered pair meets once in m-1 rounds.
 */
static uint32_t circle_at(uint32_t slot, uint32_t r, uint32_t m)
{
	return slot == m - 1 ? m - 1 : (slot + r) % (m - 1);
}

static void tournament(struct rb_mx_sched *s, uint32_t n)
{
	uint32_t m = n + (n & 1), r, i, a, b;

	for (r = 0; r < m - 1; r++)
		for (i = 0; i < m / 2; i++) {
			a = circle_at(i, r, m);
			b = circle_at(m - 1 - i, r, m);
			if (a >= n || b >= n)
				continue; /* the resting slot */
			add_pair(s, a, b, r);
			add_pair(s, b, a, r + m - 1);
		}
}

/* Pairs ordered by round, then by source: stable for equal rounds. */
static int by_round(const void *x, const void *y)
{
	const struct rb_mx_pair *a = x, *b = y;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->src < b->src ? -1 : a->src > b->src;
}

int rb_mx_schedule(enum rb_mx_pattern pat, uint32_t k, uint32_t n, struct rb_mx_sched *s, char *err,
		   size_t len)
{
	uint32_t i, j;

	if (n < 2 || n > RB_MX_MAX_RANKS)
		return rb_set_err(err, len, -EINVAL, "a matrix needs 2..%u ranks, not %u",
				  RB_MX_MAX_RANKS, n);
	if ((pat == RB_MX_INCAST || pat == RB_MX_SUSPECTS) && k >= n)
		return rb_set_err(err, len, -EINVAL,
				  "--pattern %s:%u needs more than %u ranks (there are %u)",
				  pat == RB_MX_INCAST ? "incast" : "suspects", k, k, n);
	if (sched_alloc(s, (size_t)n * (n - 1)))
		return rb_set_err(err, len, -ENOMEM, "no memory for %u ranks' pairs", n);
	if (pat == RB_MX_PAIRS)
		tournament(s, n);
	for (i = 0; pat == RB_MX_RING && i < n; i++)
		add_pair(s, i, (i + 1) % n, 0);
	for (i = 0; pat == RB_MX_INCAST && i < n; i++)
		for (j = 1; j <= k; j++)
			add_pair(s, (i + j) % n, i, i);
	/* Ring j: every rank to the one j after it, all at once, as ring. */
	for (j = 1; pat == RB_MX_SUSPECTS && j <= k; j++)
		for (i = 0; i < n; i++)
			add_pair(s, i, (i + j) % n, j - 1);
	rb_mx_sched_sort(s, 0);
	return 0;
}

void rb_mx_sched_sort(struct rb_mx_sched *s, size_t first)
{
	if (s->n > first)
		qsort(s->pairs + first, s->n - first, sizeof(*s->pairs), by_round);
}

void rb_mx_sched_free(struct rb_mx_sched *s)
{
	free(s->pairs);
	s->pairs = NULL;
	s->n = 0;
}

/* ---- pairs files ------------------------------------------------------ */

uint32_t rb_mx_first_fit(const struct rb_mx_sched *s, size_t first, uint32_t from, uint32_t src,
			 uint32_t dst)
{
	uint32_t r;
	size_t i;

	for (r = from;; r++) {
		for (i = first; i < s->n; i++) {
			const struct rb_mx_pair *q = &s->pairs[i];

			if (q->round == r &&
			    (q->src == src || q->src == dst || q->dst == src || q->dst == dst))
				break;
		}
		if (i == s->n)
			return r;
	}
}

bool rb_mx_has_pair(const struct rb_mx_sched *s, uint32_t src, uint32_t dst)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->pairs[i].src == src && s->pairs[i].dst == dst)
			return true;
	return false;
}

/* One line (NUL-terminated, comment stripped) of a pairs file. */
static int pairs_line(char *line, unsigned int ln, uint32_t n, struct rb_mx_sched *s, char *err,
		      size_t len)
{
	char *a, *b, *rest, *save = NULL;
	struct rb_mx_pair p = { 0 };

	a = strtok_r(line, " \t\r", &save);
	if (!a)
		return 0;
	b = strtok_r(NULL, " \t\r", &save);
	rest = strtok_r(NULL, " \t\r", &save);
	if (!b || rest || parse_u32(a, &p.src) || parse_u32(b, &p.dst))
		return rb_set_err(err, len, -EINVAL, "line %u: expected 'SRC DST' (two ranks)", ln);
	if (p.src >= n || p.dst >= n)
		return rb_set_err(err, len, -EINVAL, "line %u: rank %u is out of range (0..%u)", ln,
				  p.src >= n ? p.src : p.dst, n - 1);
	if (p.src == p.dst)
		return rb_set_err(err, len, -EINVAL, "line %u: rank %u paired with itself", ln,
				  p.src);
	if (rb_mx_has_pair(s, p.src, p.dst))
		return rb_set_err(err, len, -EINVAL, "line %u: pair %u %u given twice", ln, p.src,
				  p.dst);
	add_pair(s, p.src, p.dst, rb_mx_first_fit(s, 0, 0, p.src, p.dst));
	return 0;
}

int rb_mx_pairs_parse(const char *text, uint32_t n, struct rb_mx_sched *s, char *err, size_t len)
{
	char *copy = strdup(text), *line, *next;
	unsigned int ln = 0;
	int ret = 0;

	if (!copy || sched_alloc(s, (size_t)n * (n - 1))) {
		free(copy);
		return rb_set_err(err, len, -ENOMEM, "no memory for the pairs file");
	}
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line[strcspn(line, "#")] = '\0';
		ret = pairs_line(line, ++ln, n, s, err, len);
	}
	free(copy);
	if (!ret && !s->n)
		ret = rb_set_err(err, len, -EINVAL, "no pairs in the file");
	if (ret)
		rb_mx_sched_free(s);
	else
		qsort(s->pairs, s->n, sizeof(*s->pairs), by_round);
	return ret;
}

/* ---- the outlier rule ------------------------------------------------- */

/* ---- per-rank options --------------------------------------------------- */

int rb_mx_expand(const char *fmt, uint32_t rank, uint32_t local, char *out, size_t outlen,
		 char *err, size_t len)
{
	size_t used = 0;
	int n;

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			n = used + 1 < outlen ? (out[used] = *fmt, 1) : -1;
		} else {
			char c = *++fmt;
			uint32_t v = c == 'r' || c == 'R' ? rank : local;

			if (!c)
				return rb_set_err(err, len, -EINVAL, "'%%' at the end");
			if (c == '%')
				n = snprintf(out + used, outlen - used, "%%");
			else if (c == 'r' || c == 'l')
				n = snprintf(out + used, outlen - used, "%u", v);
			else if (c == 'R' || c == 'L')
				n = snprintf(out + used, outlen - used, "%u", v + 1);
			else
				return rb_set_err(err, len, -EINVAL,
						  "'%%%.1s' is not %%r, %%R, %%l, %%L or %%%%",
						  fmt);
		}
		if (n < 0 || used + (size_t)n >= outlen)
			return rb_set_err(err, len, -ENAMETOOLONG,
					  "expanded, it is longer than %zu characters", outlen - 1);
		used += (size_t)n;
	}
	out[used] = '\0';
	return 0;
}

/* ---- the launcher's environment ----------------------------------------- */

const char *rb_mx_env_get(char *const *env, const char *name)
{
	size_t l = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, l) && (*env)[l] == '=')
			return *env + l + 1;
	return NULL;
}

struct launcher {
	const char *name, *rank, *size, *local;
};

/* Checked in this order: the first whose rank variable is set wins. */
static const struct launcher launchers[] = {
	{ "Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
	  "OMPI_COMM_WORLD_LOCAL_RANK" },
	{ "PMIx", "PMIX_RANK", "SLURM_NTASKS", "SLURM_LOCALID" },
	{ "PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID" },
	{ "Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID" },
};

static int env_u32(char *const *env, const char *name, uint32_t *v, char *err, size_t len)
{
	const char *s = rb_mx_env_get(env, name);

	if (!s)
		return -ENOENT;
	if (parse_u32(s, v))
		return rb_set_err(err, len, -EINVAL, "%s='%s' is not a number", name, s);
	return 0;
}

int rb_mx_env_id(char *const *env, struct rb_mx_id *id, char *err, size_t len)
{
	const struct launcher *l;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(launchers) / sizeof(launchers[0]); i++) {
		l = &launchers[i];
		if (!rb_mx_env_get(env, l->rank))
			continue;
		ret = env_u32(env, l->rank, &id->rank, err, len);
		if (!ret)
			ret = env_u32(env, l->size, &id->nranks, err, len);
		if (ret == -ENOENT)
			return rb_set_err(err, len, -EINVAL, "%s is set but %s is not", l->rank,
					  l->size);
		if (ret)
			return ret;
		if (id->rank >= id->nranks)
			return rb_set_err(err, len, -EINVAL, "%s=%u is not below %s=%u", l->rank,
					  id->rank, l->size, id->nranks);
		ret = env_u32(env, l->local, &id->local, err, len);
		if (ret == -ENOENT)
			id->local = 0;
		else if (ret)
			return ret;
		id->launcher = l->name;
		return 0;
	}
	return rb_set_err(err, len, -ENOENT,
			  "no launcher's rank in the environment (mpirun, srun): give --rank and "
			  "--nranks");
}

/* ---- Slurm node lists --------------------------------------------------- */

/* A bracket's body "01-04,07": how many values; the first into @first. */
static int bracket(const char *s, size_t n, char *first, size_t flen)
{
	unsigned long a, b;
	int count = 0;
	char *end;
	size_t i = 0, w;

	while (i < n) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		a = strtoul(s + i, &end, 10);
		w = (size_t)(end - (s + i));
		if (!count && w < flen)
			snprintf(first, flen, "%.*s", (int)w, s + i);
		i += w;
		b = a;
		if (i < n && s[i] == '-') {
			if (++i >= n || !isdigit((unsigned char)s[i]))
				return -EINVAL;
			b = strtoul(s + i, &end, 10);
			i += (size_t)(end - (s + i));
		}
		if (b < a || b - a > 100000)
			return -EINVAL;
		count += (int)(b - a + 1);
		if (i < n && s[i++] != ',')
			return -EINVAL;
		if (i == n && s[n - 1] == ',')
			return -EINVAL;
	}
	return count ? count : -EINVAL;
}

/*
 * One host expression (up to a top-level ',' or the end) starting at @s:
 * its length into *@used, how many hosts it names, its first into @out.
 */
static int host_expr(const char *s, size_t *used, char *out, size_t len)
{
	size_t i = 0, o = 0;
	char first[32];
	int count = 1, c;

	while (s[i] && s[i] != ',') {
		if (s[i] == '[') {
			const char *close = strchr(s + i, ']');

			if (!close)
				return -EINVAL;
			c = bracket(s + i + 1, (size_t)(close - s - i - 1), first, sizeof(first));
			if (c < 0)
				return c;
			count *= c;
			o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s", first);
			i = (size_t)(close - s) + 1;
		} else if (s[i] == ']') {
			return -EINVAL;
		} else {
			if (o + 1 < len)
				out[o] = s[i];
			o++;
			i++;
		}
	}
	if (!i || o >= len)
		return -EINVAL;
	out[o] = '\0';
	*used = i;
	return count;
}

int rb_mx_nodelist_first(const char *list, char *out, size_t len)
{
	size_t used;
	int ret = host_expr(list, &used, out, len);

	if (ret < 0)
		return ret;
	return rb_mx_nodelist_count(list) < 0 ? -EINVAL : 0;
}

int rb_mx_nodelist_count(const char *list)
{
	char host[256];
	size_t used;
	int total = 0, c;

	for (;;) {
		c = host_expr(list, &used, host, sizeof(host));
		if (c < 0)
			return c;
		total += c;
		list += used;
		if (!*list)
			return total;
		list++; /* the ',' */
	}
}

/* ---- CSV ---------------------------------------------------------------- */

/*
 * The pairs file: who, then these figures of the metric table (a pair's
 * summary, not every metric: a new row adds no column here), then how.
 */
static const char *const csv_metrics[] = { "bw_avg_gbps", "msg_rate_mpps", "lat_p50_us",
					   "lat_p99_us" };

void rb_mx_csv_header(FILE *f)
{
	size_t i;

	fputs("src_rank,src_host,src_device,dst_rank,dst_host,dst_device,test,size,", f);
	for (i = 0; i < sizeof(csv_metrics) / sizeof(csv_metrics[0]); i++)
		fprintf(f, "%s,", csv_metrics[i]);
	fputs("status,retested,reason\n", f);
}

/* A figure and its separator; an empty cell when the row has none. */
static void csv_num(FILE *f, bool has, double v)
{
	if (has)
		rb_csv_num(f, v);
	fputc(',', f);
}

void rb_mx_csv_row(FILE *f, const struct rb_mx_row *r)
{
	const struct rb_result *res = r->res;
	const struct rb_metric *m;
	size_t i;

	fprintf(f, "%u,", r->src);
	rb_csv_str(f, r->src_host);
	fputc(',', f);
	rb_csv_str(f, r->src_dev);
	fprintf(f, ",%u,", r->dst);
	rb_csv_str(f, r->dst_host);
	fputc(',', f);
	rb_csv_str(f, r->dst_dev);
	fputc(',', f);
	rb_csv_str(f, r->test);
	fprintf(f, ",%llu,", (unsigned long long)r->size);
	for (i = 0; i < sizeof(csv_metrics) / sizeof(csv_metrics[0]); i++) {
		m = rb_metric_find(csv_metrics[i], strlen(csv_metrics[i]), false);
		csv_num(f, res && m && rb_metric_has(m, res),
			res && m ? rb_metric_value(m, res) : 0);
	}
	rb_csv_str(f, r->status);
	fprintf(f, ",%d,", r->retested ? 1 : 0);
	rb_csv_str(f, r->reason);
	fputc('\n', f);
}
