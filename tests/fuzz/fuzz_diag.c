// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the parsers of issue 12 -- a peer's counter set
 * (rb_counters_unpack), --expect (rb_expect_parse), --counters
 * (rb_counters_spec_parse) and two JSON documents for rb_compare().
 *
 * Input: one selector byte, then the bytes.  Selector % 4:
 * 0 a counter set body (exact heap copy); 1 an --expect argument and
 * 2 a --counters argument (up to the first NUL); 3 two JSON texts split
 * at the first NUL.
 *
 * Properties, beyond "no sanitizer report": a decoded counter set packs
 * back to the very same bytes, and a refused one is left empty; a refused
 * argument says why, naming a position within it for --expect; an
 * accepted --expect parses again from its own text to the same
 * expression and evaluates to pass, fail or n/a; an accepted --counters
 * list holds valid names; rb_compare() returns 0, 1 or 2, and 2 with a
 * reason.
 *
 * Seeds (corpus/fuzz_diag): counter sets packed by rb_counters_pack()
 * from tests/data/sysfs, arguments from the unit tests, the golden JSON
 * files paired with their edited copies.  fuzz_seeds.c does not write
 * them yet: rewrite them by hand after a change of the counters' wire form.
 */
#include <errno.h>
#include <math.h>

#include "report/compare.h"
#include "rdma/counters.h"
#include "report/expect.h"
#include "fuzz.h"

static FILE *devnull;
static uint8_t out[RB_CTR_WIRE_MAX];
static struct rb_counter_set set, other;
static struct rb_counter_set fixture; /* what expressions and lists meet: never changes */

static void check_counters(const uint8_t *data, size_t size)
{
	uint8_t *buf = fuzz_dup(data, size);
	int ret = rb_counters_unpack(buf, size, &set), n;

	if (ret) {
		FUZZ_CHECK(ret == -EBADMSG && set.n == 0);
	} else {
		FUZZ_CHECK(set.n <= RB_CTR_MAX);
		n = rb_counters_pack(&set, out, sizeof(out));
		FUZZ_CHECK(n >= 0 && (size_t)n == size && !memcmp(out, buf, size));
		rb_counters_delta(&set, &set, &other);
		FUZZ_CHECK(other.n == set.n);
	}
	free(buf);
}

/* @data up to its first NUL, as a C string of its own. */
static char *text_of(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t n = nul ? (size_t)(nul - data) : size;
	char *s = malloc(n + 1);

	FUZZ_CHECK(s);
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

static void check_expect(const uint8_t *data, size_t size)
{
	static const struct rb_result res = { .has_bw = true, .bw_avg_gbps = 10, .has_lat = true };
	struct rb_expect e, again;
	struct rb_expect_ctx x = { .res = &res, .link_gbps = 100, .delta = &fixture };
	char *s = text_of(data, size), err[512], head[RB_EXPECT_TEXT + 32];
	unsigned long at;
	int ret;

	memset(err, 0xa5, sizeof(err));
	ret = rb_expect_parse(s, &e, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
		/* "--expect 'TEXT': at N: ...": N within TEXT, or just past it. */
		snprintf(head, sizeof(head), "--expect '%s': at ", s);
		if (strlen(s) < RB_EXPECT_TEXT && !strncmp(err, head, strlen(head))) {
			at = strtoul(err + strlen(head), NULL, 10);
			FUZZ_CHECK(at >= 1 && at <= strlen(s) + 1);
		}
	} else {
		FUZZ_CHECK(!strcmp(e.text, s) && isfinite(e.value) && e.value >= 0);
		FUZZ_CHECK(!rb_expect_parse(e.text, &again, err, sizeof(err)));
		FUZZ_CHECK(again.metric == e.metric && again.row == e.row && again.op == e.op &&
			   again.value == e.value);
		FUZZ_CHECK(rb_expect_eval(&e, &x, NULL, NULL) <= RB_VERDICT_FAIL);
	}
	free(s);
}

static void check_spec(const uint8_t *data, size_t size)
{
	struct rb_counter_spec spec;
	char *s = text_of(data, size), err[512];
	uint32_t i;
	int ret;

	memset(err, 0xa5, sizeof(err));
	ret = rb_counters_spec_parse(s, &spec, err, sizeof(err));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK_MESSAGE(err, sizeof(err));
	} else {
		FUZZ_CHECK(spec.n <= RB_CTR_LIST_MAX);
		for (i = 0; i < spec.n; i++)
			FUZZ_CHECK(spec.names[i][0] && strlen(spec.names[i]) < RB_CTR_NAME_MAX);
		rb_counters_apply(&spec, &fixture, &other);
		FUZZ_CHECK(other.n <= fixture.n);
	}
	free(s);
}

static void check_compare(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	struct rb_compare_opts o;
	json_t *a, *b;
	char err[1024];
	int ret;

	if (!nul)
		return;
	a = json_loadb((const char *)data, (size_t)(nul - data), 0, NULL);
	b = json_loadb((const char *)nul + 1, size - (size_t)(nul - data) - 1, 0, NULL);
	if (a && b) {
		rb_compare_opts_init(&o);
		err[0] = '\0';
		ret = rb_compare(a, b, &o, devnull, err, sizeof(err));
		FUZZ_CHECK(ret == RB_CMP_SAME || ret == RB_CMP_REGRESSION ||
			   ret == RB_CMP_INCOMPARABLE);
		FUZZ_CHECK(ret != RB_CMP_INCOMPARABLE || err[0]);
	}
	json_decref(a);
	json_decref(b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull);
	fixture.driver = RB_PROV_RXE;
	fixture.n = 2;
	snprintf(fixture.c[0].name, RB_CTR_NAME_MAX, "sent_pkts");
	fixture.c[0].value = 1000;
	snprintf(fixture.c[1].name, RB_CTR_NAME_MAX, "completer_retry_err");
	fixture.c[1].value = 1;
	fixture.c[1].kind = RB_CTR_ERROR;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	switch (data[0] % 4) {
	case 0:
		check_counters(data + 1, size - 1);
		break;
	case 1:
		check_expect(data + 1, size - 1);
		break;
	case 2:
		check_spec(data + 1, size - 1);
		break;
	default:
		check_compare(data + 1, size - 1);
	}
	return 0;
}
