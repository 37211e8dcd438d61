// SPDX-License-Identifier: MIT
/*
 * Unit tests for the usage text (--help, per test and command) and the man
 * page's OPTIONS section, and for parser bugs once found.
 */
#include "opts_fx.h"

/* ---- usage and man page ------------------------------------------------- */

/* rb_usage() of @cmd at @columns (--help-all with @all), into a string. */
static char *capture_help(const char *cmd, unsigned int bit, bool all, const char *columns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	setenv("COLUMNS", columns, 1);
	rb_usage(f, cmd, scope_of(bit), all);
	unsetenv("COLUMNS");
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* --help-all, every text on one line, without perftest's flags (a test's last section). */
static char *capture_usage(const char *cmd, unsigned int bit)
{
	char *u = capture_help(cmd, bit, true, "1000");
	char *pt = strstr(u, "\nperftest's flags");

	if (pt)
		*pt = '\0';
	return u;
}

/*
 * Whether usage text @u has a line for the row: "\n  -s, --size " or
 * "\n      --warmup" and then its argument or the end of the line.
 */
static bool lists(const char *u, const struct want *w)
{
	char line[64];
	const char *p = u;
	size_t n;

	if (w->sname)
		snprintf(line, sizeof(line), "\n  -%c, --%s", w->sname, w->lname);
	else
		snprintf(line, sizeof(line), "\n      --%s", w->lname);
	n = strlen(line);
	while ((p = strstr(p, line))) {
		if (p[n] == ' ' || p[n] == '\n')
			return true;
		p += n;
	}
	return false;
}

/* The widest line of @u and how many lines it has. */
static size_t widest(const char *u, size_t *lines)
{
	size_t w = 0, l;

	for (*lines = 0; *u; u += l + (u[l] == '\n')) {
		l = strcspn(u, "\n");
		w = l > w ? l : w;
		(*lines)++;
	}
	return w;
}

/*
 * --help fits a terminal: at most 60 lines of at most $COLUMNS (80, 200)
 * columns, only rows marked common, each with its brief, the pointer to
 * --help-all last; --help-all stays within the width too.
 */
static void test_help_fits(void **state)
{
	static const char *const cols[] = { "80", "200" };
	size_t b, i, k, lines, w;

	(void)state;
	for (b = 0; b < NBITS; b++)
		for (k = 0; k < 2; k++) {
			char *u = capture_help(bit_names[b], 1u << b, false, cols[k]);
			char *all = capture_help(bit_names[b], 1u << b, true, cols[k]);

			w = widest(u, &lines);
			if (w > (size_t)atoi(cols[k]) || lines > 60) {
				print_error("%s --help at %s columns: %zu lines, widest %zu\n%s",
					    bit_names[b], cols[k], lines, w, u);
				fail();
			}
			assert_non_null(strstr(u, "--help-all' lists every option"));
			for (i = 0; i < NWANTS; i++)
				if (lists(u, &wants[i]) &&
				    !rb_opts[rb_opt_index(wants[i].lname)].common) {
					print_error("%s --help lists --%s, not a common row\n",
						    bit_names[b], wants[i].lname);
					fail();
				}
			assert_true(widest(all, &lines) <= (size_t)atoi(cols[k]));
			free(u);
			free(all);
		}
	/* Every row has a brief that fits --help's column, and a section. */
	for (i = 0; i < rb_nopts; i++) {
		assert_non_null(rb_opts[i].brief);
		if (strlen(rb_opts[i].brief) > RB_BRIEF_MAX) {
			print_error("--%s: brief of %zu characters\n", rb_opts[i].lname,
				    strlen(rb_opts[i].brief));
			fail();
		}
		assert_true(rb_opts[i].section < RB_SEC_N);
	}
}

/* Usage for @bit lists exactly the rows that apply to it. */
static void check_usage_rows(const char *u, const char *cmd, unsigned int bit)
{
	size_t i;

	for (i = 0; i < NWANTS; i++) {
		if (lists(u, &wants[i]) != !!(wants[i].tests & bit)) {
			print_error("usage of %s %s --%s:\n%s\n", cmd,
				    lists(u, &wants[i]) ? "lists" : "omits", wants[i].lname, u);
			fail();
		}
	}
}

static void test_usage(void **state)
{
	char *u;
	size_t b;

	(void)state;
	u = capture_help("send_lat", T_SEND_LAT, true, "80");
	assert_non_null(strstr(u, "\nperftest's flags (taken under perftest's names and "
				  "rdmabench's):\n"
				  "      --cpu_util\n        accepted, no effect: "));
	free(u);
	u = capture_usage("send_lat", T_SEND_LAT);
	assert_non_null(strstr(u, "usage: rdmabench send_lat [options]"));
	assert_non_null(strstr(u, "rdmabench send_lat [options] HOST"));
	assert_non_null(strstr(u, "--size"));
	assert_non_null(strstr(u, "--inline"));
	assert_null(strstr(u, "--op"));
	assert_null(strstr(u, "--mode"));
	assert_null(strstr(u, "--batch"));
	assert_non_null(strstr(u, "--recommend [BOUND]"));
	/* defaults are shown with their row */
	assert_non_null(strstr(u, "[default: 128]"));
	assert_non_null(strstr(u, "[default: auto]"));
	check_usage_rows(u, "send_lat", T_SEND_LAT);
	/* A test's own help shows its row's defaults. */
	assert_non_null(strstr(u, "powers of 1024 [default: 2]\n"));
	assert_non_null(strstr(u, "0: never [default: auto]\n"));
	assert_non_null(strstr(u, "-n times -q) [default: 1000]\n"));
	free(u);
	u = capture_usage("read_bw", T_READ_BW);
	assert_non_null(strstr(u, "powers of 1024 [default: 65536]\n"));
	assert_non_null(strstr(u, "-n times -q) [default: 5000]\n"));
	free(u);

	u = capture_usage("atomic", T_ATOMIC);
	assert_non_null(strstr(u, "usage: rdmabench atomic [options]"));
	assert_non_null(strstr(u, "--op OP"));
	assert_non_null(strstr(u, "--mode MODE"));
	assert_non_null(strstr(u, "fadd"));
	assert_non_null(strstr(u, "--outstanding"));
	assert_null(strstr(u, "--inline"));
	assert_null(strstr(u, "--all"));
	check_usage_rows(u, "atomic", T_ATOMIC);
	free(u);

	u = capture_usage("server", T_SERVER);
	assert_non_null(strstr(u, "usage: rdmabench server [options]"));
	assert_null(strstr(u, "HOST"));
	assert_non_null(strstr(u, "--port"));
	assert_null(strstr(u, "--size"));
	free(u);

	for (b = 0; b < NBITS; b++) {
		u = capture_usage(bit_names[b], 1u << b);
		check_usage_rows(u, bit_names[b], 1u << b);
		free(u);
	}
}

/* "tx-depth" -> "\-\-tx\-depth" */
static void man_escape(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '-' || *s == '\\')
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* perftest's spellings reach the same rows, and clash with no name. */
/* -c, --sl, --tclass, --flow-label: parsing, ranges, and what each test runs over. */
static void test_transport(void **state)
{
	char err[256];
	struct rb_cli c;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, NULL), err);
	assert_int_equal(c.p.transport, RB_TR_RC);
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-s", "1024", "--sl", "15", "--tclass",
			"255", "--flow-label", "1048575"),
		 err);
	assert_int_equal(c.p.transport, RB_TR_UD);
	assert_int_equal(c.p.sl, 15);
	assert_int_equal(c.p.tclass, 255);
	assert_int_equal(c.p.nflow, 1);
	assert_int_equal(c.p.flow_label[0], 0xfffff);
	CHECK_OK(FINISH(&c, T_SEND_LAT, err, "--connection", "UD", "-S", "3", "--flow_label", "7"),
		 err);
	assert_int_equal(c.p.sl, 3);
	assert_int_equal(c.p.flow_label[0], 7);
	/* perftest's list: QP i takes label i modulo its length */
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-q", "4", "--flow_label", "1,0x2,3"), err);
	assert_int_equal(c.p.nflow, 3);
	assert_int_equal(c.p.flow_label[1], 2);
	assert_int_equal(c.p.flow_label[2], 3);
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1,2,"), err, "not a list of numbers");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1,,2"), err, "not a list of numbers");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label",
			"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"),
		  err, "more than 16 labels");
	CHECK_OK(FINISH(&c, T_WRITE_BW, err, "-c", "UC"), err);
	assert_int_equal(c.p.transport, RB_TR_UC);
	CHECK_OK(FINISH(&c, T_WRITE_LAT, err, "-c", "UC", "-R", "--tos", "32"), err);
	assert_int_equal(c.p.tclass, 32);
	CHECK_OK(FINISH(&c, T_READ_BW, err, "-c", "RC"), err);

	/* What a transport cannot do names both. */
	CHECK_ERR(FINISH(&c, T_WRITE_BW, err, "-c", "UD"), err, "-c UD does not apply to write_bw",
		  "RC, UC");
	CHECK_ERR(FINISH(&c, T_WRITE_LAT, err, "-c", "UD"), err, "-c UD", "write_lat");
	CHECK_ERR(FINISH(&c, T_READ_BW, err, "-c", "UC"), err, "-c UC does not apply to read_bw");
	CHECK_ERR(FINISH(&c, T_READ_LAT, err, "-c", "UD"), err, "-c UD", "read_lat");
	CHECK_ERR(FINISH(&c, T_ATOMIC, err, "-c", "UC", "--mode", "bw"), err,
		  "-c UC does not apply to atomic_bw");
	CHECK_ERR(FINISH(&c, T_ATOMIC_LAT, err, "-c", "UD"), err, "-c UD", "atomic_lat");
	CHECK_ERR(FINISH(&c, T_SEND_LAT, err, "-c", "UD", "-R"), err, "-R/--rdma-cm", "-c UD");
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-m", "1024", "-s", "64,2048"), err,
		  "-s/--size 2048", "-m/--mtu 1024", "-c UD");
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-c", "UD", "-m", "1024", "-s", "64,1024"), err);

	/* Ranges name the option. */
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "XRC"), err, "-c/--transport 'XRC'",
		  "RC|UC|UD|SRD");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "ud"), err, "-c/--transport");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--sl", "16"), err, "-S/--sl 16", "0..15");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--tclass", "256"), err, "--tclass 256", "0..255");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow-label", "1048576"), err,
		  "--flow-label 1048576", "0..1048575");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--flow_label", "-1"), err, "--flow-label");
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-c", "UD", "-c", "RC"), err,
		  "-c/--transport given twice");
	/* The plan's, not the server's. */
	CHECK_ERR(PARSE(&c, T_SERVER, err, "-c", "UD"), err, "does not apply to server");
}

static void test_perftest_aliases(void **state)
{
	char err[256], *buf = NULL;
	struct rb_cli c;
	size_t i, j, len = 0;
	FILE *f;

	(void)state;
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--post_list", "8", "--cq-mod", "4", "--ib-dev", "rxe0",
		       "--qp", "2", "--inline_size", "0"),
		 err);
	assert_int_equal(c.p.batch.n, 1);
	assert_int_equal(c.p.batch.v[0], 8);
	assert_int_equal(c.p.signal.v[0], 4);
	assert_int_equal(c.p.qps.v[0], 2);
	assert_string_equal(c.l.device, "rxe0");
	assert_true(given_name(&c, "batch"));
	assert_true(given_name(&c, "post_list"));
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--post_list", "8", "-l", "4"), err,
		  "-l/--batch given twice");
	/* The memory flags, in perftest's spelling. */
	CHECK_OK(PARSE(&c, T_SEND_BW, err, "--use_hugepages", "--odp", "--mr_per_qp", "--use-srq"),
		 err);
	assert_true(c.p.hugepages && c.p.odp && c.p.mr_per_qp && c.p.srq);
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "--hugepages", "--mr-per-qp", "--srq"), err);
	assert_true(c.p.hugepages && !c.p.odp && c.p.mr_per_qp && c.p.srq);
	/* An alias follows its row's scope. */
	CHECK_ERR(PARSE(&c, T_SEND_BW, err, "--atomic_type", "fadd"), err,
		  "--op does not apply to send_bw");
	for (i = 0; i < rb_nopts; i++) {
		const char *a = rb_opts[i].alias;

		if (!a)
			continue;
		assert_true(strcmp(a, rb_opts[i].lname));
		for (j = 0; j < rb_nopts; j++)
			if (!strcmp(rb_opts[j].lname, a) ||
			    (j != i && rb_opts[j].alias && !strcmp(rb_opts[j].alias, a))) {
				print_error("alias --%s clashes with row --%s\n", a,
					    rb_opts[j].lname);
				fail();
			}
	}
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_man_perftest(f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "\\-l, \\-\\-post_list\nT}|T{\n\\-l/\\-\\-batch (also"));
	assert_non_null(strstr(buf, ".TE\n"));
	free(buf);
}

static void test_man_options(void **state)
{
	char *buf = NULL, *line, *save = NULL, need[128], esc[64];
	size_t len = 0, i, tp = 0;
	const char *p;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rb_man_options(f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		man_escape(o->lname, esc, sizeof(esc));
		snprintf(need, sizeof(need), "\\fB\\-\\-%s\\fR", esc);
		if (!strstr(buf, need)) {
			print_error("man options lack '%s':\n%s\n", need, buf);
			fail();
		}
		if (o->sname) {
			snprintf(need, sizeof(need), ".TP\n\\fB\\-%c\\fR, \\fB\\-\\-%s\\fR",
				 o->sname, esc);
			if (!strstr(buf, need)) {
				print_error("man options lack '%s'\n", need);
				fail();
			}
		}
	}
	assert_non_null(strstr(buf, "\\fB\\-\\-tx\\-depth\\fR \\fIDEPTHS\\fR"));
	assert_non_null(strstr(buf, "Default: 128."));
	/* options for some commands say which */
	assert_non_null(strstr(buf, "\\fB\\-\\-recommend\\fR \\fI[BOUND]\\fR\n"));
	assert_non_null(strstr(buf, "Applies to: send_bw, write_bw, read_bw, atomic_bw, atomic."));
	assert_non_null(strstr(buf, "Applies to: atomic_lat, atomic_bw, atomic."));
	assert_non_null(strstr(buf, "Applies to: atomic.\n"));

	/* every '-' is escaped */
	for (p = buf; (p = strchr(p, '-')); p++) {
		if (p == buf || p[-1] != '\\') {
			print_error("unescaped '-' at '%.30s'\n", p > buf + 10 ? p - 10 : buf);
			fail();
		}
	}
	/* one .TP per row, and no other line troff would take as a request */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, ".TP")) {
			tp++;
			continue;
		}
		if (line[0] == '.' || line[0] == '\'') {
			print_error("line taken as a request: '%s'\n", line);
			fail();
		}
	}
	assert_int_equal(tp, rb_opt_rows()); /* rb_opts[] and matrix's rows */
	free(buf);
}

/* ---- bugs ------------------------------------------------------------------ */

/*
 * rb_cli_parse() sets optind = 1, which does not reset glibc's getopt: an
 * error in the middle of a cluster ("-zv") leaves getopt's next-character
 * pointer inside it, and the next parse picks up "v" from the old argv.
 * Resetting with optind = 0 re-initializes glibc's getopt fully.
 */
static void test_parse_resets_getopt(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "-Yv"), err, "unknown option -Y");
	CHECK_OK(PARSE(&c, T_SEND_LAT, err, "-s", "64"), err);
	assert_int_equal(c.verbose, 0);
	assert_null(c.l.host);
	CHECK_AXIS(&c.p.size, 64);
	assert_int_equal(given_rows(&c), 1);
	assert_true(given_name(&c, "size"));

	CHECK_ERR(PARSE(&c, T_TOPO, err, "-av"), err, "-a/--all does not apply to topo");
	CHECK_OK(PARSE(&c, T_TOPO, err, "--quiet"), err);
	assert_int_equal(c.verbose, 0);
	assert_int_equal(given_rows(&c), 1);
	assert_true(given_name(&c, "quiet"));
}

/*
 * A known flag given an argument is not an unknown option: "--verify=1"
 * should say that --verify takes no argument.
 */
static void test_flag_with_argument(void **state)
{
	struct rb_cli c;
	char err[256];

	(void)state;
	CHECK_ERR(PARSE(&c, T_SEND_LAT, err, "--verify=1"), err, "--verify");
	if (strstr(err, "unknown")) {
		print_error("'%s' calls a known option unknown\n", err);
		fail();
	}
}

/*
 * -Q defaults to 64, but a user who only lowers -t (perftest clamps its
 * cq_mod to the depth) is refused with a message about -Q, which they did
 * not give.  The default should fit the smallest depth.
 */
static void test_default_signal_fits_depth(void **state)
{
	struct rb_cli c;
	char err[256];
	uint32_t i;

	(void)state;
	CHECK_OK(FINISH(&c, T_SEND_BW, err, "-t", "32"), err);
	assert_true(c.p.signal.n >= 1);
	for (i = 0; i < c.p.signal.n; i++)
		assert_true(c.p.signal.v[i] >= 1 && c.p.signal.v[i] <= 32);
	/* a -Q the user gave is still checked */
	CHECK_ERR(FINISH(&c, T_SEND_BW, err, "-t", "32", "-Q", "64"), err, "-Q/--signal 64",
		  "-t/--tx-depth 32");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_help_fits),
		cmocka_unit_test(test_man_options),
		cmocka_unit_test(test_perftest_aliases),
		cmocka_unit_test(test_transport),
		cmocka_unit_test(test_parse_resets_getopt),
		cmocka_unit_test(test_flag_with_argument),
		cmocka_unit_test(test_default_signal_fits_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
