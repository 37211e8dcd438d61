// SPDX-License-Identifier: MIT
/*
 * Every perftest flag (tests/data/perftest-flags.txt, taken from perftest's
 * getopt table) is either one of rdmabench's rows under the same spelling
 * and arity, or an entry of opts_perftest.c's table, never both and never
 * neither; each entry does what its kind says when parsed; the
 * translations give the options they name; and the man page's table has a
 * row for every flag.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rdma/cuda.h"

#include "core/cmd.h"
#include "cli/opts_perftest.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data"
#endif

static char err[512];

struct flag {
	char name[64]; /* long name, or "-X" */
	int arg;
};

static size_t read_flags(struct flag *f, size_t max)
{
	FILE *in = fopen(TEST_DATA_DIR "/perftest-flags.txt", "r");
	char line[256];
	size_t n = 0;

	assert_non_null(in);
	while (fgets(line, sizeof(line), in)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_true(n < max);
		assert_int_equal(sscanf(line, "%63s %d", f[n].name, &f[n].arg), 2);
		n++;
	}
	fclose(in);
	return n;
}

/* The row that takes perftest's @f under its own spelling, or NULL. */
static const struct rb_opt *our_row(const struct flag *f)
{
	size_t i;

	for (i = 0; i < rb_nopts; i++) {
		const struct rb_opt *o = &rb_opts[i];

		if (f->name[0] == '-' ? o->sname == f->name[1]
				      : !strcmp(o->lname, f->name) ||
						(o->alias && !strcmp(o->alias, f->name)))
			return o;
	}
	return NULL;
}

static const struct rb_pt_flag *pt_entry(const struct flag *f)
{
	return f->name[0] == '-' ? rb_pt_find(NULL, f->name[1]) : rb_pt_find(f->name, 0);
}

static void test_every_flag_known(void **state)
{
	static struct flag f[400];
	size_t n = read_flags(f, 400), i, longs = 0;

	(void)state;
	assert_true(n >= 200); /* 156 long names and 50 letters in perftest 25.x */
	for (i = 0; i < n; i++) {
		const struct rb_opt *o = our_row(&f[i]);
		const struct rb_pt_flag *p = pt_entry(&f[i]);

		longs += f[i].name[0] != '-';
		if (!o && !p)
			fail_msg("perftest's %s is neither a row nor in opts_perftest.c",
				 f[i].name);
		if (o && p && f[i].name[0] != '-')
			fail_msg("perftest's %s is a row and an opts_perftest.c entry", f[i].name);
		if (o && (o->type != RB_OPT_FLAG) != f[i].arg)
			fail_msg("%s: perftest's takes %s value, our --%s does not agree",
				 f[i].name, f[i].arg ? "a" : "no", o->lname);
		if (!o && p->arg != f[i].arg)
			fail_msg("%s: the entry's arity is not perftest's", f[i].name);
	}
	assert_true(longs >= 150);
}

/* No entry for a flag perftest does not have: each is in the data file. */
static void test_no_invented_flags(void **state)
{
	static struct flag f[400];
	size_t n = read_flags(f, 400), i, k;

	(void)state;
	for (i = 0; i < rb_npt_flags; i++) {
		bool found = false;

		for (k = 0; k < n && !found; k++)
			found = !strcmp(f[k].name, rb_pt_flags[i].lname);
		if (!found)
			fail_msg("--%s is not one of perftest's flags", rb_pt_flags[i].lname);
		assert_non_null(rb_pt_flags[i].says);
		assert_true(strlen(rb_pt_flags[i].says) > 10);
	}
}

static struct rb_cli cli;
static bool pt_only; /* parse under perftest's name */

/* @line (space-separated words) to @cmd_name into cli; rb_cli_parse()'s result. */
static int parse(const char *cmd_name, const char *line)
{
	struct rb_cmd cmd;
	char buf[512], *argv[32], *t;
	int argc = 0;

	assert_true(rb_cmd_find(cmd_name, &cmd));
	snprintf(buf, sizeof(buf), "%s %s", cmd_name, line);
	for (t = strtok(buf, " "); t; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	rb_cli_init(&cli);
	cli.perftest_only = pt_only;
	err[0] = '\0';
	return rb_cli_parse(&cli, cmd_name, cmd.scope, argc, argv, err, sizeof(err));
}

/* Each entry does what its kind says: refused by name, accepted, or translated. */
static void test_kinds(void **state)
{
	char line[128], name[48];
	size_t i;

	(void)state;
	for (i = 0; i < rb_npt_flags; i++) {
		const struct rb_pt_flag *f = &rb_pt_flags[i];
		int ret;

		if (f->late || f->to)
			continue; /* below, one by one */
		snprintf(line, sizeof(line), "--%s%s host", f->lname, f->arg ? "=SW" : "");
		ret = parse("write_bw", line);
		snprintf(name, sizeof(name), "--%s", f->lname);
		if (f->kind == RB_PT_REFUSED) {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(err, "perftest's"));
			assert_non_null(strstr(err, name));
			assert_non_null(strstr(err, f->says));
		} else {
			if (ret)
				fail_msg("%s: %s", line, err);
		}
		if (f->sname) { /* the letter is the same flag */
			snprintf(line, sizeof(line), "-%c%s host", f->sname, f->arg ? " SW" : "");
			assert_int_equal(parse("write_bw", line), ret);
		}
	}
}

static struct rb_cli *parsed(const char *cmd, const char *line)
{
	if (parse(cmd, line))
		fail_msg("%s %s: %s", cmd, line, err);
	return &cli;
}

static void test_translations(void **state)
{
	struct rb_cli *c;

	(void)state;
	c = parsed("write_bw", "--run_infinitely -D 3 h");
	assert_int_equal(c->p.duration_s, 0);
	assert_string_equal(c->interval_arg, "3");
	c = parsed("write_bw", "--run_infinitely h");
	assert_string_equal(c->interval_arg, "5");
	c = parsed("write_bw", "--rate_limit 5 --rate_units p h");
	assert_string_equal(c->rate_arg, "5pps");
	c = parsed("write_bw", "--rate_limit=2 --rate_units=g --rate_limit_type=SW h");
	assert_string_equal(c->rate_arg, "2Gbps");
	c = parsed("write_bw", "-w 100 h");
	assert_string_equal(c->l.expect.v[0], "bw>=100MiB/s");
	c = parsed("write_bw", "--report_gbits -w 9.5 -y 1 h");
	assert_string_equal(c->l.expect.v[0], "bw>=9.5Gbps");
	assert_string_equal(c->l.expect.v[1], "rate>=1Mpps");
	c = parsed("atomic", "-A CMP_AND_SWAP h");
	assert_int_equal(c->op, 1);
	c = parsed("atomic", "--atomic_type=FETCH_AND_ADD h");
	assert_int_equal(c->op, 0);
	c = parsed("send_lat", "--disable_numa h");
	assert_string_equal(c->l.cpu, "none");
	assert_string_equal(c->l.numa, "none");
	c = parsed("write_bw", "--pin_cores=0-3,8 --numa_node=1 h");
	assert_string_equal(c->l.cpu, "0-3,8");
	assert_string_equal(c->l.numa, "1");
	c = parsed("send_lat", "-T 3 --data_validation --bind_source_ip 10.0.0.1 h");
	assert_int_equal(c->p.tclass, 3);
	assert_int_equal(c->p.verify, 1);
	assert_string_equal(c->l.bind, "10.0.0.1");
	c = parsed("write_bw", "-W counters/port_xmit_data h");
	assert_string_equal(c->l.counters, "counters/port_xmit_data");
	c = parsed("send_lat", "-F --cpu_util -Z");
	assert_null(c->l.host);
	c = parsed("send_lat", "-P h");
	assert_string_equal(c->l.host, "h");
	c = parsed("write_bw", "--output=message_rate --report_gbits h");
	assert_int_equal(c->l.format, RB_FMT_VALUE);
	assert_int_equal(c->l.output, RB_OUTPUT_MSG_RATE);
	c = parsed("send_lat", "--output latency h");
	assert_int_equal(c->l.output, RB_OUTPUT_LATENCY);
	{
		struct rb_cmd k;

		assert_true(rb_cmd_find("write_bw", &k));
		assert_int_equal(parse("write_bw", "--output latency h"), 0);
		assert_int_equal(rb_cli_finish(&cli, k.bench, k.scope, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "--output latency is for latency tests, and write_bw is a "
					 "bandwidth test");
	}
	/* perftest's debug prints more of a validation, and alone checks nothing */
	c = parsed("send_lat", "--data_validation_debug h");
	assert_int_equal(c->p.verify, 0);
	c = parsed("write_bw", "--data_validation --data_validation_debug h");
	assert_int_equal(c->p.verify, 1);
	c = parsed("write_bw", "--data_validation_debug --data_validation h");
	assert_int_equal(c->p.verify, 1);
	/* -z: rdma_cm for the QPs, with or without -R, in either order */
	c = parsed("write_bw", "-z h");
	assert_int_equal(c->p.use_cm, 1);
	c = parsed("write_bw", "-z -R h");
	assert_int_equal(c->p.use_cm, 1);
	c = parsed("write_bw", "-R --comm_rdma_cm h");
	assert_int_equal(c->p.use_cm, 1);
	/* rdmabench never adapts its poll batch: what perftest's flag asks */
	c = parsed("write_bw", "--disable_dynamic_polling h");
	assert_non_null(strstr(c->pt.ignored, "--disable_dynamic_polling"));
	/* A row of ours now, no longer refused as not built. */
	c = parsed("read_bw", "--reversed h");
	assert_int_equal(c->p.reversed, 1);
}

static void test_translation_errors(void **state)
{
	(void)state;
	assert_int_equal(parse("send_lat", "-Z h"), -EINVAL);
	assert_non_null(strstr(err, "-Z/--server"));
	assert_int_equal(parse("send_lat", "-P"), -EINVAL);
	assert_non_null(strstr(err, "-P/--client"));
	assert_int_equal(parse("write_bw", "--rate_units p h"), -EINVAL);
	assert_non_null(strstr(err, "--rate_limit"));
	assert_int_equal(parse("write_bw", "--rate_limit 5 --rate_units M h"), -EINVAL);
	assert_non_null(strstr(err, "MB/s"));
	assert_int_equal(parse("write_bw", "--rate_limit 5Gbps --rate_units p h"), -EINVAL);
	assert_int_equal(parse("write_bw", "--rate_limit_type PP h"), -EINVAL);
	assert_non_null(strstr(err, "SW only"));
	assert_int_equal(parse("write_bw", "-w fast h"), -EINVAL);
	assert_int_equal(parse("send_lat", "--run_infinitely h"), -EINVAL);
	assert_non_null(strstr(err, "bandwidth tests"));
	assert_int_equal(parse("write_bw", "--run_infinitely --interval 1 h"), -EINVAL);
	assert_int_equal(parse("write_bw", "--cpu_util=1 h"), -EINVAL);
	assert_non_null(strstr(err, "takes no argument"));
	assert_int_equal(parse("write_bw", "--disable_numa --cpu 1 h"), -EINVAL);
	assert_non_null(strstr(err, "twice"));
	{
		struct rb_cmd k;

		assert_true(rb_cmd_find("send_lat", &k));
		assert_int_equal(parse("send_lat", "--ipv6 -R h"), 0);
		assert_int_equal(rb_cli_finish(&cli, k.bench, k.scope, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--ipv6 with -R"));
	}
	{
		struct rb_cmd k;

		/* The samples stay on the server, which timed them. */
		assert_true(rb_cmd_find("send_lat", &k));
		assert_int_equal(parse("send_lat", "--reversed -H h"), 0);
		assert_int_equal(rb_cli_finish(&cli, k.bench, k.scope, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "-H/--report-histogram and --reversed"));
	}
	assert_int_equal(parse("send_lat", "--output=latency --format json h"), -EINVAL);
	assert_non_null(strstr(err, "exclude each other"));
	/* perftest's reason: its connectionless server is for UD multicast */
	assert_int_equal(parse("send_bw", "--connectionless h"), -EINVAL);
	assert_non_null(strstr(err, "UD multicast"));
	/* a value twice is still refused; a switch twice is the same ask */
	assert_int_equal(parse("write_bw", "-s 64 -s 128 h"), -EINVAL);
	assert_non_null(strstr(err, "given twice"));
}

/*
 * Prefixes as getopt_long takes them, except that a prefix of exactly one
 * of our options is it, however many of perftest's names start so.
 */
static void test_prefixes(void **state)
{
	struct rb_cli *c;

	(void)state;
	c = parsed("write_bw", "--report_gbit h");
	assert_int_equal(c->l.units, RB_UNITS_GBITS);
	c = parsed("write_bw", "--sig=4 h"); /* perftest has --sig_offload, --sig_before */
	assert_int_equal(c->p.signal.v[0], 4);
	c = parsed("write_bw", "--run_inf h"); /* perftest's only */
	assert_int_equal(c->p.duration_s, 0);
	assert_int_equal(parse("write_bw", "--rep h"), -EINVAL);
	assert_non_null(strstr(err, "ambiguous"));
	assert_non_null(strstr(err, "--report-cycles"));
	c = parsed("write_bw", "--use_cu=0 h"); /* ours: --use_cuda, perftest's --use-cuda */
	assert_true(c->l.use_cuda);
	assert_string_equal(c->l.cuda, "0");
	c = parsed("write_bw", "--use_cuda_d h"); /* perftest's prefix: --use_cuda_dmabuf */
	assert_true(c->l.use_cuda);
	assert_int_equal(c->l.cuda_reg, RB_CUDA_REG_DMABUF);
	/* a value that looks like an option is not spelled out */
	c = parsed("write_bw", "--json --sig h");
	assert_string_equal(c->l.json_path, "--sig");
}

/* --use-cuda and perftest's three spellings, in any order; each side its own. */
static void test_cuda_flags(void **state)
{
	struct rb_cli *c;

	(void)state;
	c = parsed("write_bw", "--use_cuda_dmabuf --use_cuda=1 h");
	assert_true(c->l.use_cuda);
	assert_string_equal(c->l.cuda, "1");
	assert_int_equal(c->l.cuda_reg, RB_CUDA_REG_DMABUF);
	c = parsed("send_bw", "--use_cuda_bus_id=0000:3b:00.0 --use_cuda_dmabuf h");
	assert_string_equal(c->l.cuda, "0000:3b:00.0");
	assert_int_equal(c->l.cuda_reg, RB_CUDA_REG_DMABUF);
	c = parsed("write_bw", "--use-cuda h");
	assert_true(c->l.use_cuda);
	assert_string_equal(c->l.cuda, "");
	assert_string_equal(c->l.host, "h");
	assert_int_equal(c->l.cuda_reg, RB_CUDA_REG_AUTO);
	assert_int_equal(c->l.cuda_mem, RB_CUDA_DEVICE);
	c = parsed("write_bw", "--use-cuda 3b:00.0 --cuda-mem host-pinned h");
	assert_string_equal(c->l.cuda, "3b:00.0");
	assert_string_equal(c->l.host, "h");
	assert_int_equal(c->l.cuda_mem, RB_CUDA_HOST_PINNED);
	c = parsed("send_lat", "--use-cuda 2 --cuda-reg peermem h");
	assert_string_equal(c->l.cuda, "2");
	assert_int_equal(c->l.cuda_reg, RB_CUDA_REG_PEERMEM);
	c = parsed("server", "--use-cuda=0000:86:00.0 --cuda-mem managed");
	assert_true(c->l.use_cuda);
	assert_int_equal(c->l.cuda_mem, RB_CUDA_MANAGED);
	/* Not in the plan: the peer's choice is its own. */
	c = parsed("write_bw", "h");
	assert_false(c->l.use_cuda);
	c = parsed("write_bw", "--cuda-mem managed h"); /* GPU memory, the GPU chosen */
	assert_true(c->l.use_cuda);
	assert_string_equal(c->l.cuda, "");
	assert_int_equal(parse("write_bw", "--use-cuda=gpu0 h"), -EINVAL);
	assert_non_null(strstr(err, "'gpu0' is not a GPU index or a PCI address"));
	assert_int_equal(parse("write_bw", "--use_cuda=0 --use_cuda_bus_id=3b:00.0 h"), -EINVAL);
	assert_non_null(strstr(err, "--use-cuda given twice"));
	assert_int_equal(parse("tcp_bw", "--use-cuda h"), -EINVAL);
	assert_non_null(strstr(err, "RDMA tests only"));
	assert_int_equal(parse("write_bw", "--use_cuda_pcie_mapping h"), -EINVAL);
	assert_non_null(strstr(err, "--cuda-reg"));
	assert_true(rb_cuda_word("0000:3B:00.0"));
	assert_false(rb_cuda_word("3b:00.8"));
	assert_false(rb_cuda_word("192.0.2.1"));
	assert_false(rb_cuda_word("123456"));
}

/* Under perftest's name (ib_write_bw): perftest's flags, and theirs only. */
static void test_perftest_only(void **state)
{
	struct rb_cli *c;

	(void)state;
	pt_only = true;
	c = parsed("write_bw", "-d rxe0 -F --report_gbits -s 65536 -q 2 --run_infinitely -D 2 h");
	assert_int_equal(c->p.duration_s, 0);
	assert_string_equal(c->interval_arg, "2");
	c = parsed("write_bw", "--out_json --out_json_file=x.json -x 3 --disable_numa h");
	assert_int_equal(c->l.units, RB_UNITS_MIBS); /* perftest's MB/sec */
	assert_string_equal(c->l.json_path, "x.json");
	assert_int_equal(parse("write_bw", "--expect bw>=1Gbps h"), -EINVAL);
	assert_string_equal(err, "--expect is rdmabench's own: under perftest's name only "
				 "perftest's flags are taken (run 'rdmabench write_bw' for it)");
	assert_int_equal(parse("write_bw", "--threads 2 h"), -EINVAL);
	assert_non_null(strstr(err, "--threads is rdmabench's own"));
	pt_only = false;
	assert_int_equal(parse("write_bw", "--threads 2 h"), 0);
}

/* @line to @cmd, finished (defaults in): rb_cli_finish()'s result. */
static int finished(const char *cmd, const char *line)
{
	struct rb_cmd k;
	int ret = parse(cmd, line);

	assert_true(rb_cmd_find(cmd, &k));
	return ret ? ret : rb_cli_finish(&cli, k.bench, k.scope, err, sizeof(err));
}

/*
 * Issue 37, item 12: under perftest's name -n counts each QP, as
 * perftest's tot_iters = iters * num_of_qps (run_iter_bw(),
 * print_report_bw()): ib_write_bw -q 4 -n 5000 posts 20000, its default
 * 5000 a QP too; rdmabench's own -n is the point's, all QPs together.
 */
static void test_perftest_iters(void **state)
{
	(void)state;
	pt_only = true;
	assert_int_equal(finished("write_bw", "-q 4 -n 5000 h"), 0);
	assert_int_equal(cli.p.iters, 20000);
	assert_int_equal(finished("write_bw", "-q 4 h"), 0);
	assert_int_equal(cli.p.iters, 20000);
	assert_int_equal(finished("read_bw", "--qp=3 --iters=7 h"), 0);
	assert_int_equal(cli.p.iters, 21);
	assert_int_equal(finished("write_bw", "-n 5000 h"), 0);
	assert_int_equal(cli.p.iters, 5000);
	assert_int_equal(finished("send_lat", "-n 300 h"), 0);
	assert_int_equal(cli.p.iters, 300);
	/* -D: a time, no count */
	assert_int_equal(finished("write_bw", "-q 4 -D 2 h"), 0);
	assert_int_equal(cli.p.iters, 0);
	assert_int_equal(finished("write_bw", "-q 4 --run_infinitely -D 1 h"), 0);
	assert_int_equal(cli.p.iters, 0);
	assert_int_equal(finished("write_bw", "-q 1,4 -n 10 h"), -EINVAL);
	assert_non_null(strstr(err, "under perftest's name -n counts each QP"));
	assert_int_equal(finished("write_bw", "-q 2 -n 1099511627776 h"), -EINVAL);
	if (!strstr(err, "-n 1099511627776 a QP times -q 2 is over 1099511627776"))
		fail_msg("%s", err);
	/* -a wins over -s, as perftest's (its size becomes MAX_SIZE): 2..8M */
	assert_int_equal(finished("write_bw", "-a -s 1M h"), 0);
	assert_int_equal(cli.p.size.n, 23);
	assert_int_equal(cli.p.size.v[0], 2);
	assert_int_equal(cli.p.size.v[22], 8 << 20);
	assert_int_equal(finished("write_bw", "-s 1M -a h"), 0);
	assert_int_equal(cli.p.size.n, 23);
	pt_only = false;
	assert_int_equal(finished("write_bw", "-a -s 1M h"), -EINVAL);
	assert_non_null(strstr(err, "-a/--all and -s/--size exclude each other"));
	assert_int_equal(finished("write_bw", "-q 4 -n 5000 h"), 0);
	assert_int_equal(cli.p.iters, 5000);
	assert_int_equal(finished("write_bw", "-q 1,4 -n 10 h"), 0);
	assert_int_equal(cli.p.iters, 10);
}

/* The man page's table names every flag of the table. */
static void test_man_table(void **state)
{
	char *buf = NULL, name[64];
	size_t len = 0, i, k;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	rb_man_perftest(f);
	fclose(f);
	for (i = 0; i < rb_npt_flags; i++) {
		char *p = name;
		const char *s = rb_pt_flags[i].lname;

		p += sprintf(p, "\\-\\-");
		for (k = 0; s[k]; k++) {
			if (s[k] == '-')
				*p++ = '\\';
			*p++ = s[k];
		}
		*p = '\0';
		if (!strstr(buf, name))
			fail_msg("man table lacks %s", name);
	}
	free(buf);
}

/*
 * Issue 37 (docs): -N/--noPeak's note says where bw_peak comes from: the
 * best window of completion marks (engine/interval.c), which every bandwidth
 * point computes, not --interval's rows.
 */
static void test_nopeak_note(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < rb_npt_flags && strcmp(rb_pt_flags[i].lname, "noPeak"); i++)
		;
	assert_true(i < rb_npt_flags);
	assert_int_equal(rb_pt_flags[i].sname, 'N');
	assert_non_null(strstr(rb_pt_flags[i].says, "the best window of 64 completion marks"));
	assert_null(strstr(rb_pt_flags[i].says, "--interval"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_flag_known),
		cmocka_unit_test(test_no_invented_flags),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_translations),
		cmocka_unit_test(test_translation_errors),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_cuda_flags),
		cmocka_unit_test(test_perftest_only),
		cmocka_unit_test(test_perftest_iters),
		cmocka_unit_test(test_man_table),
		cmocka_unit_test(test_nopeak_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
