// SPDX-License-Identifier: MIT
/*
 * rdmabench matrix TEST [options]: the command line, who this rank is,
 * where the coordinator is; then rank 0 coordinates and every rank works.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cmd.h"
#include "matrix/matrix_coord.h"
#include "matrix/matrix_pmix.h"
#include "matrix/matrix_run.h"
#include "matrix/matrix_worker.h"
#include "core/sweep.h"

extern char **environ;

static int usage_error(const char *err)
{
	fprintf(stderr, "rdmabench matrix: %s\n", err);
	return RB_EXIT_USAGE;
}

/*
 * A setup that failed: -EINVAL is the command line's fault (exit 2);
 * anything else the environment's, such as a launcher's PMIx server that
 * does not answer or a fence that times out (exit 1).
 */
static int setup_error(int ret, const char *err)
{
	if (ret == -EINVAL)
		return usage_error(err);
	fprintf(stderr, "rdmabench matrix: %s\n", err);
	return RB_EXIT_FAIL;
}

/* Rank, job size and local rank: --rank/--nranks, else the launcher's. */
static int identity(struct rb_mx_job *j, char *err, size_t len)
{
	const struct rb_cli *c = j->c;
	const struct rb_matrix_opts *m = &j->m;
	bool r = rb_cli_given_row(c, &rb_mx_rows[MX_O_RANK]);
	bool n = rb_cli_given_row(c, &rb_mx_rows[MX_O_NRANKS]);

	if (n && !r && m->simulate[0]) {
		/* One process starts every rank of a simulated job (matrix_coord.c). */
		j->id = (struct rb_mx_id){ .rank = 0, .nranks = m->nranks };
		j->spawn_all = true;
		return 0;
	}
	if (r != n)
		return rb_set_err(err, len, -EINVAL,
				  "--rank and --nranks go together (--nranks alone: with "
				  "--simulate)");
	if (r) {
		if (m->rank >= m->nranks)
			return rb_set_err(err, len, -EINVAL, "--rank %u is not below --nranks %u",
					  m->rank, m->nranks);
		j->id = (struct rb_mx_id){ .rank = m->rank, .nranks = m->nranks };
		return 0;
	}
	/* prterun's environment has the rank only: its PMIx server has the rest. */
	if (rb_mx_pmix_job(environ) && rb_mx_pmix_built() &&
	    !rb_mx_env_get(environ, "OMPI_COMM_WORLD_RANK") &&
	    !rb_mx_env_get(environ, "SLURM_NTASKS")) {
		int ret = rb_mx_pmix_id(&j->id, err, len);

		if (ret)
			return ret == -EINVAL ? -EPROTO : ret; /* the server's fault */
	} else if (rb_mx_env_id(environ, &j->id, err, len)) {
		return -EINVAL;
	}
	if (j->id.nranks < 2 || j->id.nranks > RB_MX_MAX_RANKS)
		return rb_set_err(err, len, -EINVAL, "%s started %u ranks: a matrix needs 2..%u",
				  j->id.launcher, j->id.nranks, RB_MX_MAX_RANKS);
	return 0;
}

/* "host", "host:port", "[v6]:port" into the job. */
static int split_host_port(struct rb_mx_job *j, const char *s, char *err, size_t len)
{
	const char *colon = strrchr(s, ':');
	unsigned long port = j->c->l.tcp_port;
	size_t hl = strlen(s);
	char *end;

	if (colon && (s[0] == '[' || !memchr(s, ':', (size_t)(colon - s)))) {
		port = strtoul(colon + 1, &end, 10);
		if (*end || !colon[1] || port < 1 || port > 65535)
			return rb_set_err(err, len, -EINVAL, "--coordinator '%s': bad port", s);
		hl = (size_t)(colon - s);
	}
	if (s[0] == '[' && hl > 1 && s[hl - 1] == ']') {
		s++;
		hl -= 2;
	}
	if (!hl || hl >= sizeof(j->coord_host))
		return rb_set_err(err, len, -EINVAL, "--coordinator '%s': bad host", s);
	snprintf(j->coord_host, sizeof(j->coord_host), "%.*s", (int)hl, s);
	j->coord_port = (uint16_t)port;
	return 0;
}

/*
 * Rank 0's address through the job's PMIx server: its --bind (expanded),
 * else its host name, with -p.  Every rank takes this path or none does:
 * the choice depends on the command line and the environment alone.
 */
static int pmix_coordinator(struct rb_mx_job *j, char *err, size_t len)
{
	char mine[160] = "", got[160], why[256];
	int ret;

	if (j->id.rank == 0 &&
	    rb_mx_pmix_format(j->bind[0] ? j->bind : j->host, j->coord_port, mine, sizeof(mine)))
		return rb_set_err(err, len, -EINVAL, "rank 0's address '%s' cannot be published",
				  j->bind[0] ? j->bind : j->host);
	ret = rb_mx_pmix_exchange(j->id.rank, mine, (int)j->c->l.timeout_s, got, sizeof(got), why,
				  sizeof(why));
	if (!ret && rb_mx_pmix_parse(got, j->coord_host, sizeof(j->coord_host), &j->coord_port))
		ret = rb_set_err(why, sizeof(why), -EPROTO, "rank 0 published '%s'", got);
	if (ret == -EINVAL)
		ret = -EPROTO; /* PMIx and the launcher disagree: not the command line */
	if (ret)
		return rb_set_err(err, len, ret, "where is rank 0? %s; or give --coordinator", why);
	j->found = "pmix";
	return 0;
}

static const char no_pmix[] = "; it runs a PMIx server, but this rdmabench was built without "
			      "PMIx: apt-get install libpmix-dev and rebuild";

/* --coordinator, else what the launcher's environment tells. */
static int coordinator(struct rb_mx_job *j, char *err, size_t len)
{
	const char *list = rb_mx_env_get(environ, "SLURM_JOB_NODELIST");
	const char *lsize = rb_mx_env_get(environ, "OMPI_COMM_WORLD_LOCAL_SIZE");
	char host[128];

	if (!j->m.coordinator[0] && !j->spawn_all &&
	    !rb_cli_given_row(j->c, &rb_mx_rows[MX_O_RANK]) && rb_mx_pmix_job(environ) &&
	    rb_mx_pmix_built()) {
		j->coord_port = (uint16_t)j->c->l.tcp_port;
		return pmix_coordinator(j, err, len);
	}
	if (j->spawn_all && j->m.coordinator[0])
		return rb_set_err(err, len, -EINVAL,
				  "--coordinator: --simulate with --nranks alone runs every rank "
				  "on this host (give --rank too for ranks of your own)");
	j->found = "--coordinator";
	if (j->m.coordinator[0])
		return split_host_port(j, j->m.coordinator, err, len);
	j->coord_port = (uint16_t)j->c->l.tcp_port;
	j->found = "simulate";
	if (j->spawn_all) {
		snprintf(j->coord_host, sizeof(j->coord_host), "localhost");
		return 0;
	}
	j->found = "slurm";
	if (!list)
		list = rb_mx_env_get(environ, "SLURM_NODELIST");
	if (list && !rb_mx_nodelist_first(list, host, sizeof(host))) {
		snprintf(j->coord_host, sizeof(j->coord_host), "%s", host);
		return 0;
	}
	/* Every rank on this host, as mpirun says: rank 0 is here too. */
	j->found = "local";
	if (j->id.rank == 0 || (lsize && strtoul(lsize, NULL, 10) == j->id.nranks)) {
		snprintf(j->coord_host, sizeof(j->coord_host), "localhost");
		return 0;
	}
	return rb_set_err(err, len, -EINVAL,
			  "where is rank 0? give --coordinator HOST[:PORT] (the launcher's "
			  "environment does not say%s)",
			  rb_mx_pmix_job(environ) && !rb_mx_pmix_built() ? no_pmix : "");
}

/* -d, --bind and --use-cuda with %r/%R/%l/%L for this rank. */
static int expand(struct rb_mx_job *j, char *err, size_t len)
{
	const struct rb_local *l = &j->c->l;
	char why[160];

	if (rb_mx_expand(l->device, j->id.rank, j->id.local, j->device, sizeof(j->device), why,
			 sizeof(why)))
		return rb_set_err(err, len, -EINVAL, "-d/--device '%s': %s", l->device, why);
	if (rb_mx_expand(l->bind, j->id.rank, j->id.local, j->bind, sizeof(j->bind), why,
			 sizeof(why)))
		return rb_set_err(err, len, -EINVAL, "--bind '%s': %s", l->bind, why);
	if (rb_mx_expand(l->cuda, j->id.rank, j->id.local, j->cuda, sizeof(j->cuda), why,
			 sizeof(why)))
		return rb_set_err(err, len, -EINVAL, "--use-cuda '%s': %s", l->cuda, why);
	return 0;
}

/* The TEST argument: a test or a family; NULL when it is neither. */
static const struct rb_bench *pick_test(const char *name, struct rb_cmd *cmd)
{
	if (!rb_cmd_find(name, cmd))
		return NULL;
	if (cmd->kind == RB_CMD_TEST)
		return cmd->bench;
	/* A family's row is chosen by --mode once the options are parsed. */
	return cmd->kind == RB_CMD_FAMILY ? rb_family_pick(cmd->name, RB_MODE_LAT) : NULL;
}

static int not_a_test(const char *name, char *err, size_t len)
{
	return rb_set_err(err, len, -EINVAL, "'%s' is not a test (rdmabench --help lists them)",
			  name);
}

/* What matrix adds to the test's own checks. */
static int matrix_checks(struct rb_mx_job *j, char *err, size_t len)
{
	struct rb_cli *c = j->c;
	enum rb_mx_pattern pat;
	uint32_t k;

	if (c->l.host)
		return rb_set_err(err, len, -EINVAL,
				  "takes no host ('%s'): the ranks of the job are the hosts",
				  c->l.host);
	if (rb_plan_count(&c->p) != 1)
		return rb_set_err(err, len, -EINVAL,
				  "one point per pair: -s, -l, -Q, -q and -t take one value each "
				  "(the plan has %zu points)",
				  rb_plan_count(&c->p));
	if (j->m.pattern[0] && j->m.pairs_file[0])
		return rb_set_err(err, len, -EINVAL,
				  "--pattern and --pairs-file exclude each other");
	if (rb_mx_pattern_parse(j->m.pattern, &pat, &k, err, len))
		return -EINVAL;
	if (c->l.format != 0)
		return rb_set_err(err, len, -EINVAL,
				  "--format, --output: matrix prints its table; use --csv and "
				  "--json for files");
	return 0;
}

static int parse(int argc, char **argv, struct rb_mx_job *j, char *err, size_t len)
{
	struct rb_cli *c = j->c;
	struct rb_cmd cmd;

	j->test = argv[1];
	j->b = pick_test(j->test, &cmd);
	if (!j->b)
		return not_a_test(j->test, err, len);
	j->scope = cmd.scope | RB_S_MATRIX;
	/* Help asked for before anything wrong on the line (taken in order) wins. */
	if (rb_cli_parse(c, "matrix", j->scope, argc - 1, argv + 1, err, len))
		return c->help || c->help_all ? 0 : -EINVAL;
	if (c->help || c->help_all)
		return 0;
	/* A job's plan is its pattern's, across ranks: not one side's to print. */
	if (c->dry_run)
		return rb_set_err(err, len, -EINVAL, "--dry-run does not apply to matrix");
	if (cmd.kind == RB_CMD_FAMILY)
		j->b = rb_family_pick(cmd.name, c->mode ? RB_MODE_BW : RB_MODE_LAT);
	if (!j->b)
		return rb_set_err(err, len, -EINVAL, "no test of this family in that mode");
	if (rb_cli_finish(c, j->b, j->scope, err, len))
		return -EINVAL;
	return matrix_checks(j, err, len);
}

/*
 * Every rank checks the pattern against the job's size, so that a usage
 * error ends every rank at once.  A pairs file is rank 0's to read.
 */
static int check_pattern(const struct rb_mx_job *j, char *err, size_t len)
{
	struct rb_mx_sched s;
	enum rb_mx_pattern pat;
	uint32_t k;
	int ret;

	if (j->m.pairs_file[0])
		return 0;
	ret = rb_mx_pattern_parse(j->m.pattern, &pat, &k, err, len);
	if (!ret)
		ret = rb_mx_schedule(pat, k, j->id.nranks, &s, err, len);
	if (!ret)
		rb_mx_sched_free(&s);
	return ret;
}

/* --simulate and --seed into the job; the slow rank must be one of it. */
static int simulate(struct rb_mx_job *j, char *err, size_t len)
{
	const struct rb_matrix_opts *m = &j->m;

	if (!m->simulate[0]) {
		if (rb_cli_given_row(j->c, &rb_mx_rows[MX_O_SEED]))
			return rb_set_err(err, len, -EINVAL, "--seed goes with --simulate");
		return 0;
	}
	if (rb_mx_sim_parse(m->simulate, m->seed, &j->sim, err, len))
		return -EINVAL;
	if (j->sim.outlier != RB_MX_SIM_NONE && j->sim.outlier >= j->id.nranks)
		return rb_set_err(err, len, -EINVAL,
				  "--simulate outlier=%u: the job's ranks are 0..%u",
				  j->sim.outlier, j->id.nranks - 1);
	return 0;
}

static int setup(struct rb_mx_job *j, char *err, size_t len)
{
	int ret = identity(j, err, len);

	if (!ret)
		ret = simulate(j, err, len);
	if (!ret)
		ret = check_pattern(j, err, len);
	if (!ret)
		ret = expand(j, err, len);
	gethostname(j->host, sizeof(j->host) - 1);
	if (!ret)
		ret = coordinator(j, err, len);
	if (ret)
		return ret;
	j->timeout_ms = (int)j->c->l.timeout_s * 1000;
	return 0;
}

/*
 * No test first ("matrix -h", "matrix --help write_bw", "matrix -h --bogus"):
 * as after a test, help asked for before anything wrong on the line wins;
 * the line's operand (the tests' parser holds it as the host) is the test
 * whose help it is, if there is one.  -1: no help asked for.
 */
static int help_first(struct rb_mx_job *j, int argc, char **argv)
{
	struct rb_cli *c = j->c;
	char err[RB_TEXT_MAX];
	struct rb_cmd cmd;

	if (argc < 2)
		return -1;
	rb_cli_parse(c, "matrix", RB_S_MATRIX | RB_S_TEST, argc, argv, err, sizeof(err));
	if (!c->help && !c->help_all)
		return -1;
	if (!c->l.host) {
		rb_usage(stdout, "matrix", RB_S_MATRIX, c->help_all);
		return RB_EXIT_OK;
	}
	if (!pick_test(c->l.host, &cmd)) {
		not_a_test(c->l.host, err, sizeof(err));
		return usage_error(err);
	}
	rb_usage(stdout, c->l.host, cmd.scope | RB_S_MATRIX, c->help_all);
	return RB_EXIT_OK;
}

int rb_matrix_main(int argc, char **argv)
{
	static struct rb_cli c;
	struct rb_mx_job j = { .c = &c };
	char err[RB_TEXT_MAX];
	int ret;

	rb_cli_init(&c);
	rb_mx_opts_init(&j.m, &c);
	if (argc < 2 || argv[1][0] == '-') {
		ret = help_first(&j, argc, argv);
		if (ret < 0)
			ret = usage_error("name the test first: rdmabench matrix TEST [options]");
		return ret;
	}
	if (parse(argc, argv, &j, err, sizeof(err)))
		return usage_error(err);
	if (c.help || c.help_all) {
		rb_usage(stdout, j.test, j.scope, c.help_all);
		return RB_EXIT_OK;
	}
	rb_quiet = c.quiet;
	rb_verbose = c.verbose;
	/* --auth-key (or RDMABENCH_AUTH_KEY): the coordinator's connections
	 * (matrix_auth.h) and every pair's session are keyed with it. */
	if (rb_auth_local(&c.l, err, sizeof(err)))
		return usage_error(err);
	ret = setup(&j, err, sizeof(err));
	rb_mx_pmix_fini(); /* rank 0's address is known: PMIx is done */
	if (ret)
		return setup_error(ret, err);
	if (j.id.rank == 0)
		return rb_mx_coordinate(&j);
	return rb_mx_worker(&j);
}
