// SPDX-License-Identifier: MIT
/*
 * Unit tests for rdmabench reg's pure parts (src/reg/reg.c, src/rdma/memlock.c, src/rdma/access.c):
 * the RLIMIT_MEMLOCK message for a limit, a size and an errno; the pages a
 * buffer spans; a point's figures from known samples; --access; the CSV
 * and JSON of a run (the options' checks and defaults: test_reg_opts).
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "rdma/memlock.h"
#include "rdma/access.h"
#include "cli/opts.h"
#include "reg/reg.h"
#include "core/stats.h"
#include "core/sweep.h"

/*
 * In a child: under a limit of @lim (64 KiB, or a lower hard limit the
 * test runs under), without CAP_IPC_LOCK, the limit binds.
 */
static int binds_unprivileged(rlim_t lim)
{
	struct rlimit low = { lim, lim };

	if (setrlimit(RLIMIT_MEMLOCK, &low))
		return 2;
	/* Root drops every capability as it becomes nobody. */
	if (!geteuid() && (setgid(65534) || setuid(65534)))
		return 3;
	return rb_memlock_limit() == (uint64_t)lim && rb_memlock_binds() ? 0 : 1;
}

/* Whether the limit binds: never when unlimited; a finite one without CAP_IPC_LOCK. */
static void test_memlock_binds(void **state)
{
	struct rlimit saved;
	int status;
	rlim_t lim;
	pid_t pid;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &saved), 0);
	if (saved.rlim_cur == RLIM_INFINITY)
		assert_false(rb_memlock_binds());
	/* Under a lower hard limit, that one: never a skip, which counts as a pass. */
	lim = saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 65536 ? saved.rlim_max : 65536;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(binds_unprivileged(lim));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_memlock_message(void **state)
{
	char buf[512];

	(void)state;
	rb_memlock_explain(ENOMEM, 1 << 20, 65536, buf, sizeof(buf));
	assert_non_null(strstr(buf, "RLIMIT_MEMLOCK allows this process 65536 bytes (64 KiB)"));
	assert_non_null(strstr(buf, "1048576 bytes asked, more than the limit"));
	assert_non_null(strstr(buf, "ulimit -l unlimited"));
	assert_non_null(strstr(buf, "/etc/security/limits.conf"));
	assert_non_null(strstr(buf, "LimitMEMLOCK=infinity"));
	assert_true(!strncmp(buf, "; ", 2));
	rb_memlock_explain(EPERM, 4096, 65536, buf, sizeof(buf));
	assert_non_null(strstr(buf, "4096 bytes asked, with what is already pinned"));
	/* Not the limit's doing: no message. */
	rb_memlock_explain(EINVAL, 1 << 20, 65536, buf, sizeof(buf));
	assert_string_equal(buf, "");
	rb_memlock_explain(ENOMEM, 1 << 20, RB_MEMLOCK_INF, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_string_equal(rb_memlock_fmt(RB_MEMLOCK_INF, buf, sizeof(buf)), "unlimited");
}

static void test_pages(void **state)
{
	(void)state;
	assert_int_equal(rb_reg_pages(4096, 0, 4096), 1);
	assert_int_equal(rb_reg_pages(4097, 0, 4096), 2);
	assert_int_equal(rb_reg_pages(4096, 64, 4096), 2);
	assert_int_equal(rb_reg_pages(1, 0, 4096), 1);
	assert_int_equal(rb_reg_pages(2 << 20, 64, 2 << 20), 2);
	assert_int_equal(rb_reg_pages(1 << 30, 0, 2 << 20), 512);
	assert_int_equal(rb_reg_pages(0, 0, 4096), 0);
}

static void push(struct rb_samples *s, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(rb_samples_push(s, v[i]), 0);
}

static void test_figures(void **state)
{
	const uint64_t reg[] = { 4000, 1000, 3000, 2000, 100000 }; /* ns */
	const uint64_t dereg[] = { 500, 500, 500, 500, 500 };
	struct rb_samples r = { 0 }, d = { 0 }, p = { 0 };
	struct rb_reg_point pt = { .size = 1 << 20, .pages = 256, .asked = 5 };

	(void)state;
	push(&r, reg, 5);
	push(&d, dereg, 5);
	assert_int_equal(rb_reg_figures(&r, &d, &p, &pt), 0);
	assert_true(pt.ok && pt.has_reg && !pt.has_prefetch);
	assert_int_equal(pt.done, 5);
	assert_float_equal(pt.reg.p50, 3.0, 1e-9);   /* nearest rank: the 3rd of 5 */
	assert_float_equal(pt.reg.p99, 100.0, 1e-9); /* the 5th */
	assert_float_equal(pt.dereg.p50, 0.5, 1e-9);
	/* 3 us for 1 MiB: 3.072 ms a GiB; 256 pages in 3 us. */
	assert_float_equal(pt.reg_ms_per_gib, 3.072, 1e-9);
	assert_float_equal(pt.dereg_ms_per_gib, 0.512, 1e-9);
	assert_float_equal(pt.reg_pages_per_s, 256 / 3e-6, 1e-3);

	/* Implicit ODP: prefetches alone. */
	memset(&pt, 0, sizeof(pt));
	pt.size = 4096;
	rb_samples_reset(&r);
	rb_samples_reset(&d);
	push(&p, reg, 3);
	assert_int_equal(rb_reg_figures(&r, &d, &p, &pt), 0);
	assert_true(pt.ok && !pt.has_reg && pt.has_prefetch);
	assert_int_equal(pt.done, 3);
	assert_float_equal(pt.prefetch.p50, 3.0, 1e-9);

	/* Nothing: not a point. */
	memset(&pt, 0, sizeof(pt));
	rb_samples_reset(&p);
	assert_int_equal(rb_reg_figures(&r, &d, &p, &pt), -EINVAL);
	assert_false(pt.ok);
	rb_samples_free(&r);
	rb_samples_free(&d);
	rb_samples_free(&p);
}

static void test_access(void **state)
{
	char err[256];
	int a;

	(void)state;
	assert_int_equal(rb_reg_access_parse("local-write,remote-write,remote-read", &a, err,
					     sizeof(err)),
			 0);
	assert_int_equal(a,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	assert_int_equal(rb_reg_access_parse("remote-read", &a, err, sizeof(err)), 0);
	assert_int_equal(a, IBV_ACCESS_REMOTE_READ);
	assert_int_equal(rb_reg_access_parse("remote-atomic", &a, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "need local-write"));
	assert_int_equal(rb_reg_access_parse("local-write,", &a, err, sizeof(err)), -EINVAL);
	assert_int_equal(rb_reg_access_parse("write", &a, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'write' is not one of"));
}

/* A run of two points: one measured, one n/a. */
static void sample_run(struct rb_reg_run *r, struct rb_reg_cfg *cfg, struct rb_reg_point *pt)
{
	memset(cfg, 0, sizeof(*cfg));
	memset(pt, 0, 2 * sizeof(*pt));
	rb_axis_parse("4K,1M", true, &cfg->size, NULL, 0);
	cfg->count = 100;
	cfg->page_size = 4096;
	cfg->memlock = 65536;
	strcpy(cfg->access_text, "local-write");
	pt[0] = (struct rb_reg_point){
		.size = 4096, .pages = 1, .asked = 100, .done = 100, .ok = true, .has_reg = true
	};
	pt[0].reg.p50 = 10;
	pt[0].reg.p99 = 20;
	pt[0].reg_ms_per_gib = 2621.44;
	pt[1] = (struct rb_reg_point){ .size = 1 << 20, .pages = 256, .asked = 100 };
	strcpy(pt[1].reason, "rxe0 has no on-demand paging");
	*r = (struct rb_reg_run){
		.cfg = cfg, .pt = pt, .npt = 2, .complete = true, .implicit_reg_us = -1
	};
	strcpy(r->device, "rxe0");
}

static void test_csv(void **state)
{
	struct rb_reg_point pt[2];
	struct rb_reg_cfg cfg;
	struct rb_reg_run r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	sample_run(&r, &cfg, pt);
	assert_int_equal(rb_reg_csv(f, &r), 0);
	fclose(f);
	assert_true(!strncmp(buf, "size,offset,page_size,pages,asked,iterations,status,", 52));
	assert_non_null(strstr(buf, "\n4096,0,4096,1,100,100,ok,10,20,"));
	assert_non_null(strstr(buf, "\n1048576,0,4096,256,100,0,n/a,,,,,,,,,,rxe0 has no "));
	free(buf);
}

static void test_table(void **state)
{
	struct rb_reg_point pt[2];
	struct rb_reg_cfg cfg;
	struct rb_reg_run r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	sample_run(&r, &cfg, pt);
	pt[0].done = 7; /* the time bound ended it */
	rb_reg_table(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "reg on rxe0: 100 registrations per size, access local-write, "
				    "4 KiB pages, odp none\n"));
	assert_non_null(strstr(buf, "RLIMIT_MEMLOCK 65536 bytes (64 KiB)\n"));
	assert_non_null(strstr(buf, "reg_p50[us]"));
	assert_non_null(strstr(buf, "        4096        1      7        10.00        20.00"));
	assert_non_null(strstr(buf, "     1048576      256 n/a: rxe0 has no on-demand paging\n"));
	assert_non_null(strstr(buf, "note: size 4096: 7 of 100 registrations, the time bound (5 s "
				    "a size) reached\n"));
	free(buf);
}

static void test_json(void **state)
{
	struct rb_reg_point pt[2];
	struct rb_reg_cfg cfg;
	struct rb_reg_run r;
	json_t *d, *p;

	(void)state;
	sample_run(&r, &cfg, pt);
	d = rb_reg_json(&r);
	assert_non_null(d);
	assert_int_equal(json_integer_value(json_object_get(d, "schema_version")), 1);
	assert_string_equal(json_string_value(json_object_get(d, "test")), "reg");
	assert_string_equal(json_string_value(json_object_get(d, "device")), "rxe0");
	assert_int_equal(json_integer_value(json_object_get(d, "memlock_limit_bytes")), 65536);
	assert_true(json_is_true(json_object_get(d, "complete")));
	p = json_array_get(json_object_get(d, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(p, "status")), "ok");
	assert_float_equal(json_real_value(json_object_get(json_object_get(p, "reg_us"), "p50")),
			   10, 1e-9);
	assert_null(json_object_get(p, "prefetch_us"));
	p = json_array_get(json_object_get(d, "results"), 1);
	assert_string_equal(json_string_value(json_object_get(p, "status")), "n/a");
	assert_null(json_object_get(p, "reg_us"));
	assert_non_null(json_object_get(p, "reason"));
	json_decref(d);
	cfg.memlock = RB_MEMLOCK_INF;
	d = rb_reg_json(&r);
	assert_true(json_is_null(json_object_get(d, "memlock_limit_bytes")));
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memlock_message),
		cmocka_unit_test(test_memlock_binds),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_access),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
