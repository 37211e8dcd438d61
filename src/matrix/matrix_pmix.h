/* SPDX-License-Identifier: MIT */
/*
 * Rank 0's address through the job's PMIx server (matrix_pmix.c): what a
 * matrix rank uses when no --coordinator is given and its launcher
 * (mpirun, prterun, srun --mpi=pmix) runs one.
 */
#ifndef RB_MATRIX_PMIX_H
#define RB_MATRIX_PMIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "matrix/matrix.h"

/* rb_mx_pmix_job() - whether @env (as environ) is a PMIx client's. */
bool rb_mx_pmix_job(char *const *env);

/* rb_mx_pmix_built() - whether this build links libpmix. */
bool rb_mx_pmix_built(void);

/*
 * rb_mx_pmix_format() - the value rank 0 publishes, "PORT HOST", into
 * @out.  Returns 0, -EINVAL (an empty host or one with blanks) or
 * -ENAMETOOLONG.
 */
int rb_mx_pmix_format(const char *host, uint16_t port, char *out, size_t len);

/* rb_mx_pmix_parse() - "PORT HOST" back into @host and @port; 0 or -EINVAL. */
int rb_mx_pmix_parse(const char *s, char *host, size_t hlen, uint16_t *port);

/*
 * rb_mx_pmix_init() - PMIx_Init, once; rb_mx_pmix_fini() - PMIx_Finalize,
 * when it was.  Returns 0, or -errno with why in @err (-ENOSYS: built
 * without PMIx).
 */
int rb_mx_pmix_init(char *err, size_t len);
void rb_mx_pmix_fini(void);

/*
 * rb_mx_pmix_id() - rank, job size and local rank from the job's PMIx
 * server (PMIX_JOB_SIZE, PMIX_LOCAL_RANK), for a launcher whose
 * environment has the rank only (prterun).  Returns 0 or -errno with @err.
 */
int rb_mx_pmix_id(struct rb_mx_id *id, char *err, size_t len);

/*
 * rb_mx_pmix_exchange() - every rank of the job calls it once: rank 0 puts
 * @mine (rb_mx_pmix_format()'s), all fence (within @timeout_s), the
 * others get rank 0's value; the value into @out.  Returns 0, or -errno
 * with the PMIx call and its error in @err; -ENOSYS when built without
 * PMIx.
 */
int rb_mx_pmix_exchange(uint32_t rank, const char *mine, int timeout_s, char *out, size_t olen,
			char *err, size_t len);

#endif
