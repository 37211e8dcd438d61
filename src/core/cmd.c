// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "core/cmd.h"

/* The commands that are not rows of the benchmark table. */
static const struct rb_cmd others[] = {
	{ .name = "server",
	  .desc = "serve any test, one client after another",
	  .kind = RB_CMD_SERVER,
	  .scope = RB_S_SERVER | RB_S_VERBS }, /* it serves verbs tests too */
	{ .name = "topo",
	  .desc = "where each RDMA device sits: PCIe, NUMA, IRQs, CPU governor, ports, GIDs; "
		  "each GPU's nearest one",
	  .kind = RB_CMD_TOPO,
	  .scope = RB_S_TOPO },
	/* Parses its own options (compare.c): it reads files, not a device. */
	{ .name = "compare",
	  .desc = "compare two JSON results point by point; name the regressions",
	  .kind = RB_CMD_COMPARE,
	  .scope = RB_S_OWN },
	{ .name = "matrix",
	  .desc = "one test between every pair of ranks of a job (mpirun, srun)",
	  .kind = RB_CMD_MATRIX,
	  .scope = RB_S_MATRIX },
	/* Parses its own options (doctor_cli.c): -d, --json FILE, --root DIR. */
	{ .name = "doctor",
	  .desc = "check this host for what would spoil a benchmark, with the fixes",
	  .kind = RB_CMD_DOCTOR,
	  .scope = RB_S_OWN },
	/* fuzz_cli's seeds pick a command by its index (modulo the count):
	 * a new command goes at the end, after the seeds' ones. */
	/* Parses its own options (reg_opts.c): no peer, no plan. */
	{ .name = "reg",
	  .desc = "what memory registration costs here: ibv_reg_mr, ibv_dereg_mr",
	  .kind = RB_CMD_REG,
	  .scope = RB_S_OWN },
	/* Parses its own options (html.c): it reads files, not a device. */
	{ .name = "report",
	  .desc = "one self-contained HTML page of plots and tables from JSON results",
	  .kind = RB_CMD_REPORT,
	  .scope = RB_S_OWN },
};

static size_t nbenches(void)
{
	size_t n = 0;

	while (rb_benches[n])
		n++;
	return n;
}

/* The @k-th family, in the order its first row appears; NULL past the last. */
static const struct rb_bench *family_at(size_t k)
{
	size_t i, j;

	for (i = 0; rb_benches[i]; i++) {
		const char *f = rb_benches[i]->family;

		if (!f)
			continue;
		for (j = 0; j < i; j++) /* not the family's first row */
			if (rb_benches[j]->family && !strcmp(rb_benches[j]->family, f))
				break;
		if (j == i && k-- == 0)
			return rb_benches[i];
	}
	return NULL;
}

static void family_cmd(const struct rb_bench *first, struct rb_cmd *out)
{
	const struct rb_bench *lat = rb_family_pick(first->family, RB_MODE_LAT);
	const struct rb_bench *bw = rb_family_pick(first->family, RB_MODE_BW);

	*out = (struct rb_cmd){ .name = first->family,
				.kind = RB_CMD_FAMILY,
				.scope = rb_family_scope(first->family) };
	snprintf(out->desc, sizeof(out->desc), "%s or %s, by --mode lat|bw", lat ? lat->name : "-",
		 bw ? bw->name : "-");
}

bool rb_cmd_at(size_t i, struct rb_cmd *out)
{
	size_t n = nbenches(), nf = 0;
	const struct rb_bench *f;

	if (i < n) {
		*out = (struct rb_cmd){ .name = rb_benches[i]->name,
					.kind = RB_CMD_TEST,
					.scope = rb_bench_scope(rb_benches[i]),
					.bench = rb_benches[i] };
		snprintf(out->desc, sizeof(out->desc), "%s", rb_benches[i]->desc);
		return true;
	}
	while (family_at(nf))
		nf++;
	f = i - n < nf ? family_at(i - n) : NULL;
	if (f) {
		family_cmd(f, out);
		return true;
	}
	i -= n + nf;
	if (i >= sizeof(others) / sizeof(others[0]))
		return false;
	*out = others[i];
	return true;
}

bool rb_cmd_find(const char *name, struct rb_cmd *out)
{
	size_t i;

	for (i = 0; rb_cmd_at(i, out); i++)
		if (!strcmp(out->name, name))
			return true;
	return false;
}
