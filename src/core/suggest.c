// SPDX-License-Identifier: MIT
/*
 * "Did you mean": an edit distance (optimal string alignment, as git's
 * help.c and most spelling checkers use for command names) and a pick of
 * the closest name.
 */
#include <stdint.h>
#include <string.h>

#include "core/suggest.h"

#define WORD_MAX 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t rb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[WORD_MAX][WORD_MAX];

	if (la >= WORD_MAX || lb >= WORD_MAX)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, sub);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

static size_t allowed(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *rb_suggest(const char *word, const char *const *names, size_t n)
{
	size_t i, best = SIZE_MAX, lw = strlen(word);
	const char *pick = NULL;

	if (!lw)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t dist;

		if (!names[i] || !strcmp(names[i], word))
			continue;
		dist = rb_edit_distance(word, names[i]);
		if (lw >= 3 && !strncmp(names[i], word, lw))
			dist = 1; /* a prefix: as good as one edit */
		if (dist <= allowed(lw) && dist < best) {
			best = dist;
			pick = names[i];
		}
	}
	return pick;
}
