/* SPDX-License-Identifier: MIT */
/* The matrix tests' fixture (test_matrix, test_mxscale): what they check of every schedule. */
#ifndef MX_FX_H
#define MX_FX_H

/* Every pair of @s in one round at most per rank; every ordered pair once. */
static inline void check_disjoint(const struct rb_mx_sched *s, uint32_t n)
{
	uint32_t *busy = calloc((size_t)n * s->nrounds, sizeof(*busy));
	size_t i;

	assert_non_null(busy);
	for (i = 0; i < s->n; i++) {
		const struct rb_mx_pair *p = &s->pairs[i];

		assert_true(p->src < n && p->dst < n && p->src != p->dst);
		assert_true(p->round < s->nrounds);
		assert_int_equal(busy[p->round * n + p->src]++, 0);
		assert_int_equal(busy[p->round * n + p->dst]++, 0);
		if (i)
			assert_true(s->pairs[i - 1].round <= p->round);
	}
	free(busy);
}

#endif
