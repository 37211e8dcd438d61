// SPDX-License-Identifier: MIT
/*
 * rdmabench --list-metrics (metrics_list.h): the metric table's rows as
 * TSV or JSON, so that rdmabench-plot draws what `rdmabench report` draws.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "core/metrics.h"
#include "core/opts_row.h"
#include "core/rdmabench.h"
#include "report/metrics_list.h"

static const char *better_name(enum rb_better b)
{
	return b == RB_BETTER_HIGHER ? "higher" : "lower";
}

/* The JSON member of @m in a results[] point: "lat_us.p50", "bw_avg_gbps". */
static void json_path(const struct rb_metric *m, char *buf, size_t len)
{
	if (m->group == RB_MG_LAT)
		snprintf(buf, len, "lat_us.%s", m->json_key);
	else
		snprintf(buf, len, "%s", m->name);
}

static int list_tsv(FILE *f)
{
	char path[96];
	size_t i;

	fputs("column\tjson\tunit\tbetter\tchart\tchart_title\tchart_logy\n", f);
	for (i = 0; i < rb_nmetrics; i++) {
		const struct rb_metric *m = &rb_metrics[i];
		const struct rb_chart_info *c = &rb_charts[m->chart];

		json_path(m, path, sizeof(path));
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m->name, path, m->unit,
			better_name(m->better), c->name, c->title,
			m->chart == RB_CHART_NONE ? ""
			: c->logy		  ? "yes"
						  : "no");
	}
	return ferror(f) ? -EIO : 0;
}

static int list_json(FILE *f)
{
	json_t *doc = json_object(), *ms = json_array(), *cs = json_array();
	char path[96];
	int bad = !doc || !ms || !cs;
	size_t i;

	for (i = 0; !bad && i < rb_nmetrics; i++) {
		const struct rb_metric *m = &rb_metrics[i];

		json_path(m, path, sizeof(path));
		bad |= json_array_append_new(ms, json_pack("{s:s, s:s, s:s, s:s, s:s}", "column",
							   m->name, "json", path, "unit", m->unit,
							   "better", better_name(m->better),
							   "chart", rb_charts[m->chart].name));
	}
	for (i = RB_CHART_NONE + 1; !bad && i < RB_CHART_COUNT; i++)
		bad |= json_array_append_new(
			cs, json_pack("{s:s, s:s, s:b}", "name", rb_charts[i].name, "title",
				      rb_charts[i].title, "logy", rb_charts[i].logy));
	if (!bad) {
		bad |= json_object_set(doc, "metrics", ms);
		bad |= json_object_set(doc, "charts", cs);
	}
	if (!bad)
		bad = json_dumpf(doc, f, JSON_INDENT(2)) || fputc('\n', f) == EOF;
	json_decref(ms);
	json_decref(cs);
	json_decref(doc);
	return bad || ferror(f) ? -EIO : 0;
}

int rb_metrics_list(FILE *f, bool json)
{
	return json ? list_json(f) : list_tsv(f);
}

/* --list-metrics' own rows, through core's parser as every command's. */
struct list_args {
	uint8_t format; /* tsv|json */
	uint8_t help;
};

static const struct rb_opt list_rows[] = {
	{ .lname = "format",
	  .type = RB_OPT_CHOICE,
	  .choices = "tsv|json",
	  .off = offsetof(struct list_args, format),
	  .argname = "tsv|json",
	  .def = "tsv",
	  .help = "the rows as TSV (a header row, then a row per metric) or as JSON" },
	RB_OPT_HELP_ROW(offsetof(struct list_args, help)),
};

static const struct rb_opt_table list_table = { "--list-metrics", list_rows,
						sizeof(list_rows) / sizeof(list_rows[0]) };

#define LIST_USAGE "usage: rdmabench --list-metrics [--format tsv|json]\n"

int rb_metrics_list_main(int argc, char **argv)
{
	uint8_t given[sizeof(list_rows) / sizeof(list_rows[0])];
	struct list_args a = { 0 };
	char err[256];
	int first = rb_opt_parse(&list_table, &a, given, argc, argv, err, sizeof(err));

	if (first >= 0 && first < argc)
		first = rb_set_err(err, sizeof(err), -EINVAL, "unexpected argument '%s'",
				   argv[first]);
	if (first < 0) {
		fprintf(stderr, "rdmabench --list-metrics: %s\n" LIST_USAGE, err);
		return RB_EXIT_USAGE;
	}
	if (a.help) {
		fputs(LIST_USAGE, stdout);
		rb_opt_help(stdout, &list_table, 24);
		return RB_EXIT_OK;
	}
	if (rb_metrics_list(stdout, a.format == 1) || fflush(stdout)) {
		fprintf(stderr, "rdmabench --list-metrics: cannot write the list to stdout\n");
		return RB_EXIT_FAIL;
	}
	return RB_EXIT_OK;
}
