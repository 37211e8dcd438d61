// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>

#include "core/csv.h"
#include "report/output.h"
#include "report/samples_file.h"

static const char header[] = "test,op,size,batch,signal,qps,tx_depth,iteration,lat_us";

const char *rb_samples_header(bool ticks)
{
	return ticks ? "test,op,size,batch,signal,qps,tx_depth,iteration,lat_us,lat_ticks" : header;
}

int rb_samples_write(FILE *f, bool ticks, const char *test, const char *op,
		     const struct rb_point *pt, const uint64_t *v, size_t n, double us_per_tick,
		     double ticks_per_tick)
{
	char id[160];
	size_t i;

	/* Names from our own tables: no comma to guard against. */
	snprintf(id, sizeof(id), "%s,%s,%llu,%u,%u,%u,%u", test, op ? op : "",
		 (unsigned long long)pt->size, pt->batch, pt->signal, pt->qps, pt->tx_depth);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s,%zu,", id, i + 1);
		rb_csv_num(f, (double)v[i] * us_per_tick);
		/* A count of whole or half ticks, not a figure: exact in 15 digits. */
		if (ticks)
			fprintf(f, ",%.15g", (double)v[i] * ticks_per_tick);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

int rb_samples_file_open(struct rb_samples_file *sf, const char *path, bool ticks)
{
	int ret;

	memset(sf, 0, sizeof(*sf));
	sf->ticks = ticks;
	ret = rb_afile_open(&sf->af, path, &sf->f);
	if (!ret && fprintf(sf->f, "%s\n", rb_samples_header(ticks)) < 0) {
		ret = rb_afile_close(&sf->af, sf->f, -EIO);
		sf->f = NULL;
	}
	if (ret)
		rb_err("--samples %s: %s", path, strerror(-ret));
	return ret;
}

int rb_samples_file_point(struct rb_samples_file *sf, const char *test, const char *op,
			  const struct rb_point *pt, const struct rb_samples *s, double us_per_tick,
			  double ticks_per_tick)
{
	int ret;

	if (!sf->f)
		return 0;
	if (s->h) {
		rb_warn("--samples: point of size %llu had more than %zu samples, kept only as "
			"buckets: it has no rows in %s",
			(unsigned long long)pt->size, RB_SAMPLES_EXACT_MAX, sf->af.path);
		return 0;
	}
	ret = rb_samples_write(sf->f, sf->ticks, test, op, pt, s->v, s->n, us_per_tick,
			       ticks_per_tick);
	if (!ret && fflush(sf->f))
		ret = -errno;
	if (ret)
		rb_err("--samples %s: %s", sf->af.path, strerror(-ret));
	return ret;
}

int rb_samples_file_close(struct rb_samples_file *sf)
{
	int ret = rb_afile_close(&sf->af, sf->f, 0);

	if (ret)
		rb_err("--samples %s: %s", sf->af.path, strerror(-ret));
	sf->f = NULL;
	return ret;
}
