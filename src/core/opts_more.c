// SPDX-License-Identifier: MIT
/*
 * The rows the tests' command line knows beyond rb_opts[]: tables that
 * commands above register before main() (matrix's), opts_row.h's
 * rb_opts_more_add().  Row i of the whole is rb_opts[i], then the
 * registered tables' rows in the order they came.
 */
#include <stddef.h>

#include "core/opts_row.h"
#include "core/rdmabench.h"

static const struct rb_opt_table *more[RB_MORE_MAX];
static size_t nmore;

void rb_opts_more_add(const struct rb_opt_table *t)
{
	size_t i;

	for (i = 0; i < nmore; i++)
		if (more[i] == t)
			return;
	if (nmore == RB_MORE_MAX) {
		rb_err("%s's option table: more than %d registered (a bug)", t->cmd, RB_MORE_MAX);
		return;
	}
	more[nmore++] = t;
}

size_t rb_opt_rows(void)
{
	size_t i, n = rb_nopts;

	for (i = 0; i < nmore; i++)
		n += more[i]->n;
	return n;
}

/* Row @i of the whole, and the registered table it is of (NULL: rb_opts[]). */
static const struct rb_opt *row_at(size_t i, const struct rb_opt_table **t)
{
	size_t k;

	*t = NULL;
	if (i < rb_nopts)
		return &rb_opts[i];
	i -= rb_nopts;
	for (k = 0; k < nmore; k++) {
		if (i < more[k]->n) {
			*t = more[k];
			return &more[k]->rows[i];
		}
		i -= more[k]->n;
	}
	return NULL;
}

const struct rb_opt *rb_opt_row(size_t i)
{
	const struct rb_opt_table *t;

	return row_at(i, &t);
}

const struct rb_opt_table *rb_opt_row_table(size_t i)
{
	const struct rb_opt_table *t;

	row_at(i, &t);
	return t;
}
