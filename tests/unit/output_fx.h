// SPDX-License-Identifier: MIT
/*
 * The writers' tests' fixture (test_output_*.c): the points and reports
 * they write, the scratch folder, golden files and JSON look-ups.
 */
#ifndef OUTPUT_FX_H
#define OUTPUT_FX_H

#ifdef HAVE_CONFIG_H
#include "core/ident.h"
#include "config.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/opts_row.h"
#include "core/provider.h"
#include "report/output.h"
#include "report/out_perftest.h"
#include "report/samples_file.h"
#include "wire/plan.h"
#include "core/stats.h"
#include "core/sweep.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define GOLDEN_DIR TEST_DATA_DIR "/golden"

#define NLAT n_lat_res

#define NBW n_bw_res

/* The CSV's columns after the shape's, the same for every test (doc/output.md);
 * lock, hold_us, cq_moderation: issue 42/40, empty where the run has none. */
#define CSV_FIXED_TAIL                                                                 \
	"poll,cqe_poll,thread,rail,c2s_bw_avg_gbps,c2s_msg_rate_mpps,s2c_bw_avg_gbps," \
	"s2c_msg_rate_mpps,lock,hold_us,cq_moderation"

extern char tmpdir[];
/*
 * The documents the tests below read are the writer's own: with
 * RB_JSON_DUMP=DIR each is also written there (docNNN.json), and
 * tests/schema.sh validates every one against the schema.
 */
json_t *json_doc(const struct rb_doc *r, const struct rb_result *res, size_t n);
/* ---- fixtures ---------------------------------------------------------- */

extern struct rb_params lat_params;
extern struct rb_params bw_params;
void axis(struct rb_axis *a, size_t n, const uint64_t *v);
void init_params(void);
void lat_report(struct rb_doc *r);
void bw_report(struct rb_doc *r);
/* A point of lat_params' shape (and of bw_params'), at @sz. */
#define LAT_PT(sz)                                                                \
	{                                                                         \
		.size = (sz), .batch = 1, .signal = 1, .qps = 1, .tx_depth = 128, \
		.cqe_poll = RB_CQE_POLL_DEFAULT                                   \
	}
#define BW_PT(sz)                                                                  \
	{                                                                          \
		.size = (sz), .batch = 4, .signal = 16, .qps = 2, .tx_depth = 256, \
		.cqe_poll = RB_CQE_POLL_DEFAULT                                    \
	}
extern const struct rb_result lat_res[];
extern const struct rb_result bw_res[];
/* ---- helpers ----------------------------------------------------------- */

char *tmp_path(const char *name);
char *slurp(const char *path);
/* @s with every "@VERSION@" replaced by PACKAGE_VERSION. */
char *subst_version(const char *s);
/* No "*.tmp.*" file is left in the scratch directory. */
void assert_no_temp(void);
/*
 * RB_UPDATE_GOLDEN=1 (make update-golden): the golden file becomes what
 * the writer wrote, its version spelled "@VERSION@" again, and the test
 * says so; the files are never edited by hand.
 */
void update_golden(const char *path, const char *got);
void check_golden(const char *name, enum rb_format fmt, const struct rb_doc *r,
		  const struct rb_result *res, size_t n);
/* @stem.csv, @stem.table and @stem.json against their golden files. */
void check_goldens(const char *stem, const struct rb_doc *r, const struct rb_result *res, size_t n);
/* Writes @fmt of @r to memory, for checks that need no golden file. */
char *write_mem(enum rb_format fmt, const struct rb_doc *r, const struct rb_result *res, size_t n);
/* A writer of @fmt into memory, for a test that calls its ops one by one. */
struct memw {
	struct rb_writer w;
	FILE *f;
	char *buf;
	size_t len;
};

void memw_open(struct memw *m, enum rb_format fmt);
/* Closes the stream: what the writer wrote, for the caller to free. */
char *memw_close(struct memw *m);
json_t *load_json(const char *path);
json_t *jget(json_t *o, const char *key);
void assert_jstr(json_t *o, const char *key, const char *want);
void assert_jint(json_t *o, const char *key, long long want);
/* Reals are printed to 9 significant digits (RB_JSON_DUMP): within half a unit of the 9th. */
void assert_jreal(json_t *o, const char *key, double want);
void assert_jnull(json_t *o, const char *key);
void assert_jabsent(json_t *o, const char *key);
/* ---- setup ------------------------------------------------------------- */

int setup(void **state);
int teardown(void **state);

extern const size_t n_lat_res, n_bw_res;

#endif
