// SPDX-License-Identifier: MIT
/*
 * rdmabench reg's command line: its own option table (core/opts_row.h's
 * struct rb_opt_table over struct rb_reg_opts), parsed by core's
 * rb_opt_parse() as compare's and doctor's are; --help, --help-all, the
 * man page's "Options of reg" and completion come from these rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/opts.h"
#include "core/opts_parser.h"
#include "core/opts_row.h"
#include "rdma/access.h"
#include "reg/reg.h"

#define RO(f)	offsetof(struct rb_reg_opts, f)
#define RSTR(f) .type = RB_OPT_STR, .off = RO(f), .size = sizeof(((struct rb_reg_opts *)0)->f)

/* In the order of enum rb_reg_row (reg.h). */
static const struct rb_opt reg_rows[RB_REG_NROWS] = {
	[RB_REG_R_SIZE] = { .lname = "size",
			    .section = RB_SEC_MEASURE,
			    .brief = "buffer sizes: 4K, 4K,1M or 4K..256M:x4",
			    .common = true,
			    .sname = 's',
			    .type = RB_OPT_AXIS,
			    .off = RO(size),
			    .min = 1,
			    .max = RB_MAX_SIZE,
			    .suffix = true,
			    .argname = "SIZES",
			    .def = RB_REG_DEF_SIZES " (" RB_REG_RGN_DEF_SIZE " with --regions)",
			    .help = "the sizes of the buffers registered: a value, a list or a "
				    "range (4K,1M or 4K..256M:x4); K/M/G are powers of 1024" },
	[RB_REG_R_ITERS] = { .lname = "iters",
			     .section = RB_SEC_MEASURE,
			     .brief = "registrations per size",
			     .common = true,
			     .sname = 'n',
			     .type = RB_OPT_U64,
			     .off = RO(iters),
			     .min = 1,
			     .max = 1ULL << 40,
			     .suffix = true,
			     .argname = "N",
			     .def = "100",
			     .help = "registrations (each deregistered at once) per size; a size "
				     "stops after 5 s of calls, which the output says; with "
				     "--regions, "
				     "the rounds per size and the stream's WRs per region" },
	[RB_REG_R_HUGEPAGES] = { .lname = "hugepages",
				 .alias = "use_hugepages",
				 .section = RB_SEC_MEM,
				 .brief = "buffers in 2 MiB huge pages",
				 .type = RB_OPT_FLAG,
				 .off = RO(hugepages),
				 .max = 1,
				 .help = "buffers in 2 MiB huge pages (reserve them: "
					 "/proc/sys/vm/nr_hugepages)" },
	[RB_REG_R_ODP] = { .lname = "odp",
			   .section = RB_SEC_MEM,
			   .brief = "on-demand paging registration",
			   .type = RB_OPT_FLAG,
			   .off = RO(odp),
			   .max = 1,
			   .help = "register with on-demand paging (IBV_ACCESS_ON_DEMAND); n/a "
				   "points, with the reason, where the device has none" },
	[RB_REG_R_ODP_MODE] = { .lname = "odp-mode",
				.section = RB_SEC_MEM,
				.brief = "explicit or implicit ODP",
				.type = RB_OPT_CHOICE,
				.off = RO(odp_mode),
				.max = 1,
				.choices = "explicit|implicit",
				.argname = "MODE",
				.def = "explicit",
				.help = "implies --odp: explicit registers each buffer with "
					"IBV_ACCESS_ON_DEMAND; implicit registers the whole "
					"address "
					"space once (ibv_reg_mr(pd, NULL, SIZE_MAX)) and times the "
					"prefetch of each buffer through it" },
	[RB_REG_R_PREFETCH] = { .lname = "prefetch",
				.section = RB_SEC_MEM,
				.brief = "time an ibv_advise_mr prefetch",
				.type = RB_OPT_FLAG,
				.off = RO(prefetch),
				.max = 1,
				.help = "with --odp, time a synchronous ibv_advise_mr prefetch of "
					"the "
					"buffer after each registration" },
	[RB_REG_R_ACCESS] = { .lname = "access",
			      .section = RB_SEC_MEM,
			      .brief = "the MR access rights",
			      RSTR(access),
			      .argname = "LIST",
			      .choices = "local-write|remote-read|remote-write|remote-atomic|"
					 "relaxed-ordering",
			      .def = "local-write",
			      .check = rb_reg_access_check,
			      .help = "the MR's rights, comma-separated: local-write, remote-read, "
				      "remote-write, remote-atomic, relaxed-ordering" },
	[RB_REG_R_UNALIGNED] = { .lname = "unaligned",
				 .section = RB_SEC_MEM,
				 .brief = "buffers 64 bytes into a page",
				 .type = RB_OPT_FLAG,
				 .off = RO(unaligned),
				 .max = 1,
				 .help = "buffers start 64 bytes into a page instead of on its "
					 "boundary" },
	/* issue 42: --regions */
	[RB_REG_R_REGIONS] = { .lname = "regions",
			       .section = RB_SEC_MEASURE,
			       .brief = "N regions of -s against one of N x -s",
			       .common = true,
			       .type = RB_OPT_U32,
			       .off = RO(regions),
			       .min = 2,
			       .max = RB_REG_RGN_MAX,
			       .suffix = true,
			       .argname = "N",
			       .help = "for each size, N regions of -s bytes (64K when -s is not "
				       "given) against one region of N x -s over the same memory: "
				       "the time to register and deregister all N and the one, -n "
				       "rounds (5 s a size at most), then the message rate of a "
				       "stream of 64-byte RDMA WRITEs (fewer in a smaller region) "
				       "from a QP connected to itself, -n per region, each from "
				       "the "
				       "next region and page in turn, through the N regions' keys, "
				       "then through the one region's, at -t in flight; refused "
				       "naming the limit where RLIMIT_MEMLOCK, the device's max_mr "
				       "or max_mr_size is too small; not with --odp" },
	[RB_REG_R_DEPTH] = { .lname = "tx-depth",
			     .section = RB_SEC_MEASURE,
			     .brief = "--regions: the stream's WRs in flight",
			     .sname = 't',
			     .type = RB_OPT_U32,
			     .off = RO(depth),
			     .min = 1,
			     .max = 32768,
			     .suffix = true,
			     .argname = "N",
			     .def = "128",
			     .help = "--regions: the stream's WRs in flight, each signaled" },
	[RB_REG_R_DEVICE] = { .lname = "device",
			      .alias = "ib-dev",
			      .section = RB_SEC_CONN,
			      .brief = "RDMA device",
			      .common = true,
			      .sname = 'd',
			      RSTR(device),
			      .argname = "DEV",
			      .def = "the first with an active port",
			      .help = "RDMA device, as ibv_devices names it" },
	[RB_REG_R_JSON] = { .lname = "json",
			    .section = RB_SEC_OUTPUT,
			    .brief = "write the run as JSON to FILE (- : stdout)",
			    .common = true,
			    RSTR(json),
			    .argname = "FILE",
			    .help = "also write the run as JSON to FILE, rewritten whole after "
				    "every size; --json - writes the document to stdout instead "
				    "of the table" },
	[RB_REG_R_CSV] = { .lname = "csv",
			   .section = RB_SEC_OUTPUT,
			   .brief = "write every size as CSV to FILE",
			   .common = true,
			   RSTR(csv),
			   .argname = "FILE",
			   .help = "also write the run as CSV to FILE, a row per size, rewritten "
				   "whole after every size" },
	[RB_REG_R_QUIET] = { .lname = "quiet",
			     .section = RB_SEC_GENERAL,
			     .brief = "no informational notes",
			     .type = RB_OPT_FLAG,
			     .off = RO(quiet),
			     .max = 1,
			     .help = "no progress or informational notes on stderr" },
	[RB_REG_R_VERBOSE] = { .lname = "verbose",
			       .section = RB_SEC_GENERAL,
			       .brief = "say what is set up",
			       .sname = 'v',
			       .type = RB_OPT_FLAG,
			       .off = RO(verbose),
			       .max = 1,
			       .help = "say what is set up (the device) on stderr" },
	[RB_REG_R_HELP] = { .lname = "help",
			    .section = RB_SEC_GENERAL,
			    .brief = "the common options (--help-all: every one)",
			    .common = true,
			    .sname = 'h',
			    .type = RB_OPT_FLAG,
			    .off = RO(help),
			    .max = 1,
			    .help = "the options most runs need, a line each, grouped" },
	[RB_REG_R_HELP_ALL] = { .lname = "help-all",
				.section = RB_SEC_GENERAL,
				.brief = "every option, with its whole text",
				.common = true,
				.type = RB_OPT_FLAG,
				.off = RO(help_all),
				.max = 1,
				.help = "every option, grouped as --help groups them, each with "
					"its "
					"whole text" },
	[RB_REG_R_VERSION] = { .lname = "version",
			       .section = RB_SEC_GENERAL,
			       .brief = "print the version",
			       .common = true,
			       .sname = 'V',
			       .type = RB_OPT_FLAG,
			       .off = RO(version),
			       .max = 1,
			       .help = "print the version" },
};

const struct rb_opt_table rb_reg_table_opts = { "reg", reg_rows, RB_REG_NROWS };

/* The tests' row @word names ("--qps", "--qps=2", "-q"), or NULL. */
static const struct rb_opt *tests_row(const char *word)
{
	size_t i, l;

	if (word[0] != '-')
		return NULL;
	if (word[1] != '-') {
		for (i = 0; i < rb_nopts; i++)
			if (word[1] && rb_opts[i].sname == word[1])
				return &rb_opts[i];
		return NULL;
	}
	l = strcspn(word + 2, "=");
	for (i = 0; i < rb_nopts; i++)
		if (strlen(rb_opts[i].lname) == l && !strncmp(rb_opts[i].lname, word + 2, l))
			return &rb_opts[i];
	return NULL;
}

/* A word reg does not know but the tests' table does: say so, rather than "unknown option". */
static int not_reg(const struct rb_opt_parser *p, const char *word, char *err, size_t len)
{
	const struct rb_opt *o = tests_row(word);
	char n[40];

	(void)p;
	if (!o)
		return 0;
	return rb_set_err(err, len, -EINVAL,
			  "%s does not apply to reg: a test's option (rdmabench reg --help "
			  "lists reg's)",
			  rb_opt_name(o, n, sizeof(n)));
}

int rb_reg_parse(int argc, char **argv, struct rb_reg_opts *o, char *err, size_t len)
{
	const struct rb_opt_parser p = { .cmd = "reg",
					 .table = &rb_reg_table_opts,
					 .base = o,
					 .given = o->given,
					 .unknown = not_reg };
	int first;

	memset(o, 0, sizeof(*o));
	first = rb_opt_getopt(&p, argc, argv, err, len);
	if (first < 0)
		return first;
	if (first < argc)
		return rb_set_err(err, len, -EINVAL, "reg takes no host argument ('%s')",
				  argv[first]);
	return 0;
}

void rb_reg_usage(FILE *f, bool all)
{
	rb_opt_usage(f, "usage: rdmabench reg [options]\n", &rb_reg_table_opts, all);
}

void rb_reg_list_options(FILE *f)
{
	rb_opt_list(f, &rb_reg_table_opts);
}

void rb_reg_man_options(FILE *f)
{
	rb_man_rows(f, &rb_reg_table_opts);
}
