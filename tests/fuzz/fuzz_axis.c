// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the sweep grammar (rb_axis_parse, rb_parse_u64 in
 * src/sweep.h), as -s, -t, -q, -l and -Q arguments.
 *
 * Input: one byte whose low bit says whether K/M/G suffixes are allowed,
 * then the argument (up to its first NUL, in an exact heap copy).
 *
 * Properties: an accepted axis has 1 to RB_MAX_AXIS values, and prints
 * back -- as plain numbers, and each value in rb_size_str()'s short form
 * -- to text that parses to the same values; rb_parse_u64() agrees with
 * strtoull() on every digit string; a refusal is -EINVAL or -ERANGE with a
 * message.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "core/sweep.h"

/* The multiplier of suffix @c: K, M, G (either case) are powers of 1024. */
static uint64_t multiplier(char c)
{
	const char *k = c ? strchr("kKmMgG", c) : NULL;

	return k ? 1ULL << (10 * ((k - "kKmMgG") / 2 + 1)) : 1;
}

/* rb_parse_u64() against strtoull() at the start of @s. */
static void check_number(const char *s, bool suffix)
{
	unsigned long long want;
	const char *end = NULL;
	uint64_t v, mult;
	char *cend;
	int ret;

	ret = rb_parse_u64(s, suffix, &v, &end);
	if (*s < '0' || *s > '9') {
		FUZZ_CHECK(ret == -EINVAL);
		return;
	}
	errno = 0;
	want = strtoull(s, &cend, 10);
	mult = suffix ? multiplier(*cend) : 1;
	if (ret == -ERANGE) {
		FUZZ_CHECK(errno == ERANGE || want > UINT64_MAX / mult);
		return;
	}
	FUZZ_CHECK(ret == 0 && errno == 0);
	/* After a suffix, "iB" or "B" is part of it (4KiB, 4KB). */
	if (mult > 1) {
		cend++;
		if (!strncmp(cend, "iB", 2))
			cend += 2;
		else if (*cend == 'B')
			cend++;
	}
	FUZZ_CHECK(end == cend);
	FUZZ_CHECK(v == want * mult);
}

static void check_reparse(const struct rb_axis *a)
{
	char text[RB_MAX_AXIS * 22], one[32], err[160];
	struct rb_axis b;
	const char *end;
	size_t used = 0;
	uint64_t v;
	uint32_t i;

	FUZZ_CHECK(a->n >= 1 && a->n <= RB_MAX_AXIS);
	for (i = 0; i < a->n; i++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%llu", i ? "," : "",
					 (unsigned long long)a->v[i]);
		FUZZ_CHECK(used < sizeof(text));
		FUZZ_CHECK(rb_axis_max(a) >= a->v[i]);
		rb_size_str(a->v[i], one, sizeof(one));
		FUZZ_CHECK(!rb_parse_u64(one, true, &v, &end) && !*end && v == a->v[i]);
	}
	FUZZ_CHECK(!rb_axis_parse(text, false, &b, err, sizeof(err)));
	FUZZ_CHECK(b.n == a->n && !memcmp(b.v, a->v, a->n * sizeof(a->v[0])));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_axis a;
	char *s, err[160];
	const uint8_t *nul;
	bool suffix;
	size_t n;
	int ret;

	if (size < 1 || size > 4096)
		return 0;
	suffix = data[0] & 1;
	nul = memchr(data + 1, '\0', size - 1);
	n = nul ? (size_t)(nul - data - 1) : size - 1;
	s = malloc(n + 1);
	FUZZ_CHECK(s);
	memcpy(s, data + 1, n);
	s[n] = '\0';
	check_number(s, suffix);
	memset(err, 0xa5, sizeof(err));
	ret = rb_axis_parse(s, suffix, &a, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL || ret == -ERANGE);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
	} else {
		check_reparse(&a);
	}
	free(s);
	return 0;
}
