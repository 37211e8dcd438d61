/* SPDX-License-Identifier: MIT */
/* What compare's tests share (test_compare, test_vs_lock). */
#ifndef RB_COMPARE_FX_H
#define RB_COMPARE_FX_H

#include <stddef.h>
#include <jansson.h>

/*
 * vs_tcp_text() - rb_compare_vs_tcp() of @rdma and @tcp: its return, what
 * it printed in *@text (malloc'd; the one there before is freed), the
 * reason in @err ("" when none).
 */
int vs_tcp_text(json_t *rdma, json_t *tcp, char **text, size_t *len, char *err, size_t errlen);

#endif
