/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean": the closest of a set of names to a mistyped one.  Pure.
 */
#ifndef RB_SUGGEST_H
#define RB_SUGGEST_H

#include <stddef.h>

/*
 * rb_edit_distance() - the optimal string alignment distance between @a
 * and @b (insertions, deletions, substitutions and swaps of two adjacent
 * characters each cost 1), case-sensitive; words longer than 63
 * characters count as far from everything (SIZE_MAX).
 */
size_t rb_edit_distance(const char *a, const char *b);

/*
 * rb_suggest() - of the @n names in @names (NULLs skipped), the one
 * closest to @word, when it is close enough to be a typo: at most 1 edit
 * for words of up to 4 characters, 2 up to 8, 3 beyond; a name @word is a
 * prefix of (3 characters or more) is also close.  Ties go to the first.
 * Returns NULL when none is.
 */
const char *rb_suggest(const char *word, const char *const *names, size_t n);

#endif
