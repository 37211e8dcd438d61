// SPDX-License-Identifier: MIT
/*
 * The syntax checks of option rows whose rule lives above the table
 * (core/opts_table.c): a GPU's name (rdma/cuda.h), an --expect expression
 * (report/expect.h), a --counters list (rdma/counters.h).  A row names
 * its check here by its id, as it names a check of core/ by .check.
 */
#include <errno.h>
#include <string.h>

#include "cli/opts_int.h"
#include "rdma/counters.h"
#include "rdma/cuda.h"
#include "report/expect.h"

/*
 * --use-cuda's GPU: "", auto, an index or a PCI address (rb_cuda_word()),
 * or for matrix a pattern of %r/%l (checked once expanded, per rank;
 * anywhere else the run refuses it).
 */
static int check_cuda(const char *arg, char *err, size_t len)
{
	if (!arg[0] || !strcmp(arg, "auto") || rb_cuda_word(arg) || strchr(arg, '%'))
		return 0;
	return fail(err, len,
		    "--use-cuda '%s' is not a GPU index or a PCI address (0000:3b:00.0, 3b:00.0)",
		    arg);
}

/* --use-cuda's GPU as the next word: a GPU, or matrix's %l (no host has a %). */
static bool cuda_next_word(const char *arg)
{
	return rb_cuda_word(arg) || strchr(arg, '%');
}

/* The syntax of --expect and --counters, checked as they are parsed. */
static int check_expect(const char *arg, char *err, size_t len)
{
	struct rb_expect e;

	return rb_expect_parse(arg, &e, err, len);
}

/* --recommend's bound, when given: --expect's syntax (what it names: rb_cli_finish()). */
static int check_recommend(const char *arg, char *err, size_t len)
{
	struct rb_expect e;
	char msg[256];

	if (!arg[0])
		return 0;
	if (!rb_expect_parse(arg, &e, msg, sizeof(msg)))
		return 0;
	/* "--expect 'X': at N: why" is --recommend's here. */
	return rb_set_err(err, len, -EINVAL, "--recommend%s",
			  strncmp(msg, "--expect", 8) ? msg : msg + 8);
}

static int check_counters(const char *arg, char *err, size_t len)
{
	struct rb_counter_spec spec;
	char why[256];

	if (!rb_counters_spec_parse(arg, &spec, why, sizeof(why)))
		return 0;
	return fail(err, len, "-W/--counters '%s': %s", arg, why);
}

static const struct {
	enum rb_opt_id id;
	int (*check)(const char *arg, char *err, size_t len);
	bool (*next_is_arg)(const char *word);
} checks[] = {
	{ RB_O_USE_CUDA, check_cuda, cuda_next_word },
	{ RB_O_COUNTERS, check_counters, NULL },
	{ RB_O_EXPECT, check_expect, NULL },
	{ RB_O_RECOMMEND, check_recommend, NULL },
};

#define NCHECKS (sizeof(checks) / sizeof(checks[0]))

int rb_cli_check(const struct rb_opt *o, const char *arg, char *err, size_t len)
{
	int ret = o->check ? o->check(arg, err, len) : 0;
	size_t i;

	for (i = 0; !ret && o->id != RB_O_NONE && i < NCHECKS; i++)
		if (checks[i].id == o->id && checks[i].check)
			ret = checks[i].check(arg, err, len);
	return ret;
}

bool rb_cli_next_is_arg(const struct rb_opt *o, const char *word)
{
	size_t i;

	if (o->next_is_arg)
		return o->next_is_arg(word);
	for (i = 0; o->id != RB_O_NONE && i < NCHECKS; i++)
		if (checks[i].id == o->id && checks[i].next_is_arg)
			return checks[i].next_is_arg(word);
	/* A host never holds one of < > = ("--recommend p99<=20us"). */
	return !!strpbrk(word, "<>=");
}
