// SPDX-License-Identifier: MIT
/*
 * Where rank 0 is, from the job's PMIx server (Open MPI's mpirun and
 * prterun, Slurm's srun --mpi=pmix): rank 0 puts "PORT HOST" under
 * RB_MX_PMIX_KEY and commits it, every rank joins one fence that collects
 * the job's data, and the others get rank 0's value.  Built when
 * configure finds pkg-config's pmix (HAVE_PMIX); without it, a job whose
 * environment has a PMIx server is told so when nothing else names rank 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "matrix/matrix_pmix.h"

#ifdef HAVE_PMIX
#include <pmix.h>
#endif

#define RB_MX_PMIX_KEY "rdmabench.matrix.coordinator"

bool rb_mx_pmix_job(char *const *env)
{
	return rb_mx_env_get(env, "PMIX_NAMESPACE") && rb_mx_env_get(env, "PMIX_RANK");
}

bool rb_mx_pmix_built(void)
{
#ifdef HAVE_PMIX
	return true;
#else
	return false;
#endif
}

int rb_mx_pmix_format(const char *host, uint16_t port, char *out, size_t len)
{
	int n;

	if (!host[0] || strpbrk(host, " \t\n"))
		return -EINVAL;
	n = snprintf(out, len, "%u %s", port, host);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int rb_mx_pmix_parse(const char *s, char *host, size_t hlen, uint16_t *port)
{
	unsigned long p;
	char *end;
	size_t n;

	p = strtoul(s, &end, 10);
	if (end == s || *end != ' ' || p < 1 || p > 65535)
		return -EINVAL;
	n = strlen(end + 1);
	if (!n || n >= hlen || strpbrk(end + 1, " \t\n"))
		return -EINVAL;
	memcpy(host, end + 1, n + 1);
	*port = (uint16_t)p;
	return 0;
}

#ifdef HAVE_PMIX

/* Rank 0's part: its address into the job's store. */
static int put(const char *value, char *err, size_t len)
{
	pmix_value_t v = { .type = PMIX_STRING };
	pmix_status_t rc;

	v.data.string = (char *)value;
	rc = PMIx_Put(PMIX_GLOBAL, RB_MX_PMIX_KEY, &v);
	if (rc == PMIX_SUCCESS)
		rc = PMIx_Commit();
	if (rc != PMIX_SUCCESS)
		return rb_set_err(err, len, -EIO, "PMIx_Put of rank 0's address: %s",
				  PMIx_Error_string(rc));
	return 0;
}

/* Every rank: the fence that makes rank 0's value everyone's. */
static int fence(int timeout_s, char *err, size_t len)
{
	pmix_info_t info[2];
	bool collect = true;
	pmix_status_t rc;

	PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
	PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
	rc = PMIx_Fence(NULL, 0, info, 2);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS)
		return rb_set_err(err, len, -ETIMEDOUT,
				  "PMIx_Fence (every rank, --timeout %d s): %s", timeout_s,
				  PMIx_Error_string(rc));
	return 0;
}

static int get(const pmix_proc_t *self, char *out, size_t olen, char *err, size_t len)
{
	pmix_value_t *v = NULL;
	pmix_proc_t p0;
	pmix_status_t rc;
	int ret = 0;

	PMIX_PROC_LOAD(&p0, self->nspace, 0);
	rc = PMIx_Get(&p0, RB_MX_PMIX_KEY, NULL, 0, &v);
	if (rc != PMIX_SUCCESS || !v || v->type != PMIX_STRING || !v->data.string)
		ret = rb_set_err(err, len, -ENOENT, "PMIx_Get of rank 0's address: %s",
				 rc != PMIX_SUCCESS ? PMIx_Error_string(rc) : "not a string");
	else
		snprintf(out, olen, "%s", v->data.string);
	if (v)
		PMIX_VALUE_RELEASE(v);
	return ret;
}

/* This process in the job, from PMIx_Init to PMIx_Finalize. */
static pmix_proc_t me;
static bool up;

int rb_mx_pmix_init(char *err, size_t len)
{
	pmix_status_t rc;

	if (up)
		return 0;
	rc = PMIx_Init(&me, NULL, 0);
	if (rc != PMIX_SUCCESS)
		return rb_set_err(err, len, -ENOTCONN,
				  "PMIx_Init: %s (PMIX_NAMESPACE is set, but no PMIx server "
				  "answers)",
				  PMIx_Error_string(rc));
	up = true;
	return 0;
}

void rb_mx_pmix_fini(void)
{
	if (up)
		PMIx_Finalize(NULL, 0);
	up = false;
}

/* A number the job's PMIx server keeps: @key of the job (@p's rank wildcard) or of @p. */
static int get_u32(const pmix_proc_t *p, const char *key, uint32_t *v, char *err, size_t len)
{
	pmix_value_t *val = NULL;
	pmix_status_t rc = PMIx_Get(p, key, NULL, 0, &val);
	int ret = 0;

	if (rc != PMIX_SUCCESS || !val)
		ret = rb_set_err(err, len, -ENOENT, "PMIx_Get(%s): %s", key, PMIx_Error_string(rc));
	else if (val->type == PMIX_UINT32)
		*v = val->data.uint32;
	else if (val->type == PMIX_UINT16)
		*v = val->data.uint16;
	else
		ret = rb_set_err(err, len, -EINVAL, "PMIx_Get(%s): not a number (type %d)", key,
				 (int)val->type);
	if (val)
		PMIX_VALUE_RELEASE(val);
	return ret;
}

int rb_mx_pmix_id(struct rb_mx_id *id, char *err, size_t len)
{
	pmix_proc_t job;
	int ret = rb_mx_pmix_init(err, len);

	if (ret)
		return ret;
	PMIX_PROC_LOAD(&job, me.nspace, PMIX_RANK_WILDCARD);
	ret = get_u32(&job, PMIX_JOB_SIZE, &id->nranks, err, len);
	if (!ret && get_u32(&me, PMIX_LOCAL_RANK, &id->local, err, len))
		id->local = 0; /* not every server says: one rank per host */
	if (ret)
		return ret;
	id->rank = me.rank;
	id->launcher = "PMIx";
	if (id->rank >= id->nranks)
		return rb_set_err(err, len, -EINVAL, "PMIx says rank %u of a job of %u", id->rank,
				  id->nranks);
	return 0;
}

int rb_mx_pmix_exchange(uint32_t rank, const char *mine, int timeout_s, char *out, size_t olen,
			char *err, size_t len)
{
	int ret = rb_mx_pmix_init(err, len);

	if (ret)
		return ret;
	if (me.rank != rank)
		return rb_set_err(err, len, -EINVAL, "PMIx says rank %u, the launcher rank %u",
				  me.rank, rank);
	ret = rank == 0 ? put(mine, err, len) : 0;
	if (!ret)
		ret = fence(timeout_s, err, len);
	if (!ret && rank == 0)
		snprintf(out, olen, "%s", mine);
	else if (!ret)
		ret = get(&me, out, olen, err, len);
	return ret;
}

#else

int rb_mx_pmix_init(char *err, size_t len)
{
	return rb_set_err(err, len, -ENOSYS, "this rdmabench was built without PMIx");
}

void rb_mx_pmix_fini(void)
{
}

int rb_mx_pmix_id(struct rb_mx_id *id, char *err, size_t len)
{
	(void)id;
	return rb_mx_pmix_init(err, len);
}

int rb_mx_pmix_exchange(uint32_t rank, const char *mine, int timeout_s, char *out, size_t olen,
			char *err, size_t len)
{
	(void)rank;
	(void)mine;
	(void)timeout_s;
	(void)out;
	(void)olen;
	return rb_set_err(err, len, -ENOSYS,
			  "this rdmabench was built without PMIx (configure found no pkg-config "
			  "pmix: apt-get install libpmix-dev, then rebuild)");
}

#endif
