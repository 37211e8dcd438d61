// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the --cpu list (rb_cpus_parse, and rb_cpus_format that
 * prints such a set into results, in src/topo.h).
 *
 * Input: one byte that sets the size of the buffer the set is printed
 * into (1 + b bytes), then the --cpu argument (up to its first NUL, in an
 * exact heap copy).
 *
 * Properties: a refusal is -EINVAL (the caller names the option); an
 * accepted list is a non-empty set that prints, in a buffer large enough,
 * to a list that parses back to the same set; in any buffer the printed
 * text is NUL-terminated within it, and a cut list ends in " ...".
 */
#include <errno.h>
#include <hwloc.h>

#include "fuzz.h"
#include "topo/topo.h"

static void check_print(hwloc_const_bitmap_t set, size_t len)
{
	char *buf = malloc(len), big[1 << 16];
	hwloc_bitmap_t again = hwloc_bitmap_alloc();
	size_t n;

	FUZZ_CHECK(buf && again);
	rb_cpus_format(set, buf, len);
	n = strnlen(buf, len);
	FUZZ_CHECK(n < len);
	rb_cpus_format(set, big, sizeof(big));
	/* Never cut: 4096 bytes of input name at most 2048 ranges. */
	FUZZ_CHECK(strlen(big) < sizeof(big) - 1);
	FUZZ_CHECK(!rb_cpus_parse(big, again));
	FUZZ_CHECK(hwloc_bitmap_isequal(set, again));
	/* A shorter buffer holds the whole list or a cut one. */
	if (strcmp(buf, big) && len > 5)
		FUZZ_CHECK(n >= 4 && !strcmp(buf + n - 4, " ..."));
	hwloc_bitmap_free(again);
	free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hwloc_bitmap_t set;
	const uint8_t *nul;
	size_t n;
	char *s;
	int ret;

	if (size < 1 || size > 4096)
		return 0;
	nul = memchr(data + 1, '\0', size - 1);
	n = nul ? (size_t)(nul - data - 1) : size - 1;
	s = malloc(n + 1);
	set = hwloc_bitmap_alloc();
	FUZZ_CHECK(s && set);
	memcpy(s, data + 1, n);
	s[n] = '\0';
	ret = rb_cpus_parse(s, set);
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
	} else {
		FUZZ_CHECK(!hwloc_bitmap_iszero(set));
		check_print(set, (size_t)data[0] + 1);
	}
	hwloc_bitmap_free(set);
	free(s);
	return 0;
}
