/* SPDX-License-Identifier: MIT */
/*
 * Why a memory registration failed when RLIMIT_MEMLOCK is the cause, and
 * how to raise the limit: one message, for rb_mr_reg() (every test) and
 * rdmabench reg alike.  Registering pins every page, and the kernel counts
 * pinned pages against RLIMIT_MEMLOCK (without CAP_IPC_LOCK): ENOMEM (or
 * EPERM) is then the limit, not a lack of memory.
 */
#ifndef RB_MEMLOCK_H
#define RB_MEMLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A limit of RB_MEMLOCK_INF: none (RLIM_INFINITY). */
#define RB_MEMLOCK_INF UINT64_MAX

/*
 * rb_memlock_pinned() - of @bytes about to be registered, what the kernel
 * counts against RLIMIT_MEMLOCK: all of host memory (--cuda-mem
 * host-pinned too: ibv_reg_mr pins it as host memory); none with @odp
 * (pages pinned as touched) or in GPU memory (@gpu: device or managed
 * memory, registered by dma-buf or peermem, pins no host page).  Pure.
 */
uint64_t rb_memlock_pinned(uint64_t bytes, bool odp, bool gpu, bool gpu_host);

/* rb_memlock_limit() - this process's soft RLIMIT_MEMLOCK in bytes, or RB_MEMLOCK_INF. */
uint64_t rb_memlock_limit(void);

/*
 * rb_memlock_binds() - whether RLIMIT_MEMLOCK binds this process: a finite
 * limit and no CAP_IPC_LOCK (bit 14 of CapEff in /proc/self/status; root
 * has it).  Unknown capabilities: it binds.
 */
bool rb_memlock_binds(void);

/*
 * rb_memlock_fmt() - @limit as text: "unlimited", "65536 bytes (64 KiB)";
 * returns @buf.  Pure.
 */
const char *rb_memlock_fmt(uint64_t limit, char *buf, size_t len);

/*
 * rb_memlock_explain() - when a registration of @bytes that failed with
 * @err (a positive errno) may be RLIMIT_MEMLOCK's doing under @limit
 * (ENOMEM or EPERM, a finite limit), the reason and the fix, starting
 * with "; ", into @buf; else "".  Returns @buf.  Pure.
 */
const char *rb_memlock_explain(int err, size_t bytes, uint64_t limit, char *buf, size_t len);

/* rb_memlock_why() - rb_memlock_explain() under this process's limit. */
const char *rb_memlock_why(int err, size_t bytes, char *buf, size_t len);

#endif
