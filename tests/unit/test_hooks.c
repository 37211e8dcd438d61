// SPDX-License-Identifier: MIT
/*
 * The point hooks' table (session/point_hook.h): each row is named once,
 * runs on some side, does something, and sets only callbacks that a
 * stage of its sides calls (the server's stages call setup, run_begin,
 * run_end, after_stop and before_emit; a client-only callback on a
 * server row would be silently skipped there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "session/point_hook.h"

static size_t nhooks(void)
{
	size_t n = 0;

	while (sess_point_hooks[n])
		n++;
	return n;
}

static void hooks_named_and_sided(void **state)
{
	size_t i, j, n = nhooks();

	(void)state;
	assert_true(n >= 6);
	for (i = 0; i < n; i++) {
		const struct sess_point_hook *h = sess_point_hooks[i];

		assert_non_null(h->name);
		assert_true(h->sides & (SESS_CLIENT | SESS_SERVER));
		assert_true(h->setup || h->run_begin || h->run_end || h->after_stop || h->peer_in ||
			    h->after_result || h->merge_peer || h->before_emit || h->server_stops);
		for (j = 0; j < i; j++)
			assert_string_not_equal(h->name, sess_point_hooks[j]->name);
	}
}

static void server_rows_only_server_stages(void **state)
{
	size_t i, n = nhooks();

	(void)state;
	for (i = 0; i < n; i++) {
		const struct sess_point_hook *h = sess_point_hooks[i];

		if (h->sides & SESS_CLIENT)
			continue;
		/* A server-only row: the client's stages are the only callers of these. */
		assert_null(h->peer_in);
		assert_null(h->after_result);
		assert_null(h->merge_peer);
	}
}

/*
 * -b's merge sums the two directions and clears peer_bw_avg_gbps, which
 * the peer's merge sets: it must come after every other merge_peer.
 */
static void bidir_merges_last(void **state)
{
	size_t i, n = nhooks(), last = n;

	(void)state;
	for (i = 0; i < n; i++)
		if (sess_point_hooks[i]->merge_peer)
			last = i;
	assert_true(last < n);
	assert_string_equal(sess_point_hooks[last]->name, "bidir");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hooks_named_and_sided),
		cmocka_unit_test(server_rows_only_server_stages),
		cmocka_unit_test(bidir_merges_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
