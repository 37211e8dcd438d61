// SPDX-License-Identifier: MIT
/* The writers' tests' fixture (test_output_*.c); output_fx.h says what it holds. */
#include "output_fx.h"

char tmpdir[] = "/tmp/rb-test-output-XXXXXX";

json_t *json_doc(const struct rb_doc *r, const struct rb_result *res, size_t n)
{
	static unsigned int seq;
	const char *dir = getenv("RB_JSON_DUMP");
	json_t *doc = rb_json_doc(r, res, n);
	char path[512];

	assert_non_null(doc);
	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/doc%03u.json", dir, seq++);
		assert_int_equal(json_dump_file(doc, path, JSON_INDENT(2)), 0);
	}
	return doc;
}

struct rb_params lat_params;

struct rb_params bw_params;

void axis(struct rb_axis *a, size_t n, const uint64_t *v)
{
	size_t i;

	a->n = (uint32_t)n;
	for (i = 0; i < n; i++)
		a->v[i] = v[i];
}

void init_params(void)
{
	static const uint64_t lat_sizes[] = { 2, 64, 4096, 1048576 };
	static const uint64_t bw_sizes[] = { 64, 65536 };

	memset(&lat_params, 0, sizeof(lat_params));
	snprintf(lat_params.test, sizeof(lat_params.test), "send_lat");
	axis(&lat_params.size, 4, lat_sizes);
	rb_axis_set1(&lat_params.batch, 1);
	rb_axis_set1(&lat_params.signal, 1);
	rb_axis_set1(&lat_params.qps, 1);
	rb_axis_set1(&lat_params.tx_depth, 128);
	rb_axis_set1(&lat_params.poll, RB_POLL_BUSY);
	rb_axis_set1(&lat_params.cqe_poll, RB_CQE_POLL_DEFAULT);
	lat_params.iters = 10000;
	lat_params.warmup = 1000;
	lat_params.rx_depth = 512;
	lat_params.inline_size = 236;
	lat_params.verify = 1;

	memset(&bw_params, 0, sizeof(bw_params));
	snprintf(bw_params.test, sizeof(bw_params.test), "write_bw");
	axis(&bw_params.size, 2, bw_sizes);
	rb_axis_set1(&bw_params.batch, 4);
	rb_axis_set1(&bw_params.signal, 16);
	rb_axis_set1(&bw_params.qps, 2);
	rb_axis_set1(&bw_params.tx_depth, 256);
	rb_axis_set1(&bw_params.poll, RB_POLL_BUSY);
	rb_axis_set1(&bw_params.cqe_poll, RB_CQE_POLL_DEFAULT);
	bw_params.duration_s = 5;
	bw_params.outstanding = 16;
	bw_params.mtu = 4096;
	bw_params.use_cm = 1;
	bw_params.transport = RB_TR_UC;
	bw_params.sl = 7;
	bw_params.tclass = 184;
	bw_params.flow_label[0] = 0xfffff;
	bw_params.nflow = 1;
}

void lat_report(struct rb_doc *r)
{
	memset(r, 0, sizeof(*r));
	r->test = "send_lat";
	r->mode = RB_MODE_LAT;
	r->role = "client";
	r->host = "fixture-host";
	r->peer = "192.0.2.2:18515";
	snprintf(r->timestamp, sizeof(r->timestamp), "2026-01-02T03:04:05Z");
	r->device = "rxe0";
	r->port = 1;
	r->gid_index = 1;
	r->link_layer = "Ethernet";
	r->active_mtu = 1024;
	r->path_mtu = 1024;
	r->params = &lat_params;
	r->place = (struct rb_placement){
		.device_numa_node = 1, .cpus = "1", .mem_node = 1, .local = 1
	};
	r->units = RB_UNITS_MIBS;
}

void bw_report(struct rb_doc *r)
{
	memset(r, 0, sizeof(*r));
	r->test = "write_bw";
	r->mode = RB_MODE_BW;
	r->role = "client";
	r->host = "bw-host";
	r->peer = "192.0.2.7:18515";
	snprintf(r->timestamp, sizeof(r->timestamp), "2026-01-02T03:04:05Z");
	r->device = "mlx5_0";
	r->port = 1;
	r->gid_index = -1;
	r->link_layer = "InfiniBand";
	r->active_mtu = 4096;
	r->path_mtu = 4096;
	r->params = &bw_params;
	r->place = (struct rb_placement){
		.device_numa_node = 0, .cpus = "0-3 8", .mem_node = 1, .local = 0
	};
	r->has_peer_place = true;
	r->peer_place = (struct rb_placement){
		.device_numa_node = -1, .cpus = "", .mem_node = -1, .local = -1
	};
	r->units = RB_UNITS_MIBS;
}

const struct rb_result lat_res[] = {
	{
		.pt = LAT_PT(2),
		.iters = 10000,
		.duration_s = 0.0219,
		.has_lat = true,
		.lat = { 0.95, 1.05, 1.09, 1.17, 1.5, 2.95, 9.25, 0.08 },
		.has_cpu = true,
		.cpu_util_pct = 99.5,
		.cpu_ns_per_msg = 1090.2,
		.has_peer = true,
		.peer_cpu_util_pct = 99.1,
		.peer_bw_avg_gbps = 0,
	},
	{
		.pt = LAT_PT(64),
		.iters = 10000,
		.duration_s = 0.0234,
		.has_lat = true,
		.lat = { 1.001, 1.102, 1.1377, 1.2, 1.625, 3.1, 12.5, 0.0912 },
		.has_cpu = true,
		.cpu_util_pct = 99.25,
		.cpu_ns_per_msg = 1137.7,
		.has_peer = true,
		.peer_cpu_util_pct = 98.8,
	},
	{
		.pt = LAT_PT(4096),
		.iters = 10000,
		.duration_s = 0.0541,
		.has_lat = true,
		/* More samples than are kept exactly: percentiles from buckets. */
		.lat = { 2.514, 2.687, 2.7049, 2.811, 3.402, 6.75, 41.333, 0.2172,
			 .bucketed = true },
	},
	{
		/* A point that produced no latency samples. */
		.pt = LAT_PT(1048576),
	},
};

const struct rb_result bw_res[] = {
	{
		.pt = BW_PT(64),
		.iters = 12961000,
		.duration_s = 5.0003,
		.has_bw = true,
		.bw_avg_gbps = 1.327,
		.bw_peak_gbps = 1.354,
		.msg_rate_mpps = 2.5922,
		.has_cpu = true,
		.cpu_util_pct = 100.0,
		.cpu_ns_per_msg = 385.8,
		.has_peer = true,
		.peer_cpu_util_pct = 43.0,
		.peer_bw_avg_gbps = 1.326,
	},
	{
		.pt = BW_PT(65536),
		.iters = 1759600,
		.duration_s = 5.0001,
		.has_bw = true,
		.bw_avg_gbps = 92.345678,
		.bw_peak_gbps = 97.5,
		.msg_rate_mpps = 0.17613,
		.has_cpu = true,
		.cpu_util_pct = 12.5,
		.cpu_ns_per_msg = 70.9,
	},
};
const size_t n_lat_res = sizeof(lat_res) / sizeof(lat_res[0]);
const size_t n_bw_res = sizeof(bw_res) / sizeof(bw_res[0]);

char *tmp_path(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

char *subst_version(const char *s)
{
	static const char key[] = "@VERSION@";
	size_t vlen = strlen(PACKAGE_VERSION), klen = strlen(key);
	char *out = malloc(strlen(s) * (vlen + 1) + 1), *o = out;
	const char *p;

	assert_non_null(out);
	while ((p = strstr(s, key))) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, PACKAGE_VERSION, vlen);
		o += vlen;
		s = p + klen;
	}
	strcpy(o, s);
	return out;
}

void assert_no_temp(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp."))
			fail_msg("temporary file left behind: %s", e->d_name);
	closedir(d);
}

void update_golden(const char *path, const char *got)
{
	const char *v = PACKAGE_VERSION, *p;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	while ((p = strstr(got, v))) {
		fwrite(got, 1, (size_t)(p - got), f);
		fputs("@VERSION@", f);
		got = p + strlen(v);
	}
	fputs(got, f);
	assert_int_equal(fclose(f), 0);
	print_message("update-golden: rewrote %s from the writer's output\n", path);
}

void check_golden(const char *name, enum rb_format fmt, const struct rb_doc *r,
		  const struct rb_result *res, size_t n)
{
	const char *update = getenv("RB_UPDATE_GOLDEN");
	char golden[512];
	char *want, *want_raw, *got;

	assert_int_equal(rb_write_file(tmp_path(name), fmt, r, res, n), 0);
	assert_no_temp();
	got = slurp(tmp_path(name));
	snprintf(golden, sizeof(golden), "%s/%s", GOLDEN_DIR, name);
	if (update && !strcmp(update, "1"))
		update_golden(golden, got);
	want_raw = slurp(golden);
	want = subst_version(want_raw);
	assert_string_equal(got, want);
	free(want);
	free(want_raw);
	free(got);
}

void check_goldens(const char *stem, const struct rb_doc *r, const struct rb_result *res, size_t n)
{
	static const struct {
		const char *ext;
		enum rb_format fmt;
	} kinds[] = { { "csv", RB_FMT_CSV }, { "table", RB_FMT_TABLE }, { "json", RB_FMT_JSON } };
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		snprintf(name, sizeof(name), "%s.%s", stem, kinds[i].ext);
		check_golden(name, kinds[i].fmt, r, res, n);
	}
}

void memw_open(struct memw *m, enum rb_format fmt)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	rb_writer_init(&m->w, fmt, m->f);
}

char *memw_close(struct memw *m)
{
	fclose(m->f);
	return m->buf;
}

char *write_mem(enum rb_format fmt, const struct rb_doc *r, const struct rb_result *res, size_t n)
{
	struct memw m;
	size_t i;

	memw_open(&m, fmt);
	assert_int_equal(m.w.ops->begin(&m.w, r), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(m.w.ops->row(&m.w, r, &res[i]), 0);
	assert_int_equal(m.w.ops->end(&m.w, r), 0);
	assert_null(m.w.doc);
	return memw_close(&m);
}

json_t *load_json(const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);

	if (!doc)
		fail_msg("%s:%d: %s", path, err.line, err.text);
	return doc;
}

json_t *jget(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("missing key \"%s\"", key);
	return v;
}

void assert_jstr(json_t *o, const char *key, const char *want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), want);
}

void assert_jint(json_t *o, const char *key, long long want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_integer(v));
	assert_int_equal(json_integer_value(v), want);
}

void assert_jreal(json_t *o, const char *key, double want)
{
	json_t *v = jget(o, key);

	assert_true(json_is_real(v));
	if (fabs(json_real_value(v) - want) > 5e-9 * fabs(want)) {
		print_error("%s: %.17g, want %.17g to 9 digits\n", key, json_real_value(v), want);
		fail();
	}
}

void assert_jnull(json_t *o, const char *key)
{
	assert_true(json_is_null(jget(o, key)));
}

void assert_jabsent(json_t *o, const char *key)
{
	if (json_object_get(o, key))
		fail_msg("unexpected key \"%s\"", key);
}

int setup(void **state)
{
	(void)state;
	init_params();
	return mkdtemp(tmpdir) ? 0 : -1;
}

int teardown(void **state)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	(void)state;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && unlink(tmp_path(e->d_name)))
			rmdir(tmp_path(e->d_name));
	closedir(d);
	return rmdir(tmpdir);
}
