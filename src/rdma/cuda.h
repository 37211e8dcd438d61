/* SPDX-License-Identifier: MIT */
/*
 * GPU memory through the CUDA driver API, loaded at run time: one binary
 * serves hosts with and without GPUs, and nothing of the CUDA toolkit is
 * needed to build it.  cuda.c dlopen()s libcuda.so.1 (RDMABENCH_LIBCUDA
 * names another file, for the tests' fake driver) and resolves only the
 * entry points used.  Every failure is logged here, naming the call and
 * the driver's error name, and returned as -errno.
 *
 * The CPU never touches a buffer's bytes: rb_cuda_put() and
 * rb_cuda_get() copy through the driver.  rb_cuda_reg_mr() registers a
 * buffer for RDMA: dmabuf first, then the peer-memory path.
 */
#ifndef RB_CUDA_H
#define RB_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rdma/verbs.h"

/* --cuda-mem: the option's choices' order, "device|managed|host-pinned". */
enum rb_cuda_mem { RB_CUDA_DEVICE, RB_CUDA_MANAGED, RB_CUDA_HOST_PINNED };

/* --cuda-reg: the option's choices' order, "auto|dmabuf|peermem". */
enum rb_cuda_reg { RB_CUDA_REG_AUTO, RB_CUDA_REG_DMABUF, RB_CUDA_REG_PEERMEM };

#define RB_CUDA_PAGE  (64u << 10) /* allocations are rounded up to it */
#define RB_CUDA_BUSID 32
#define RB_CUDA_MAX   64 /* GPUs weighed when choosing the nearest */ /* "0000:3b:00.0" and room */

/* The GPU a side's buffers live on, and why that one. */
struct rb_cuda_gpu {
	int index;		    /* the driver's device ordinal */
	char bus_id[RB_CUDA_BUSID]; /* PCI address, lower case: "0000:3b:00.0" */
	int numa_node;		    /* sysfs's, -1: unknown */
	int hca_node;		    /* the HCA's, -1: unknown */
	char relation[64];	    /* to the HCA: "same PCIe switch", ...; "" unknown */
	char why[192];		    /* why this GPU */
	int count;		    /* GPUs the driver sees */
};

/* One allocation. */
struct rb_cuda_buf {
	void *ptr; /* the device pointer, as an address (never dereferenced) */
	size_t len;
	enum rb_cuda_mem mem;
	void *ctx; /* the GPU's primary context, made current for each copy */
	int dev;
};

/*
 * rb_cuda_open() - load the driver (once a process) and cuInit() it;
 * -ENOENT when there is no libcuda.so.1 (or a symbol is missing), -ENODEV
 * when the driver sees no GPU, each logged saying what is missing.
 */
int rb_cuda_open(void);

/* rb_cuda_count() - the GPUs the driver sees, after rb_cuda_open(). */
int rb_cuda_count(int *n);

/* rb_cuda_bus_id() - GPU @index's PCI address, lower case, into @buf. */
int rb_cuda_bus_id(int index, char *buf, size_t len);

/*
 * rb_cuda_index() - which GPU @want names: an index ("0"), or a PCI
 * address ("0000:3b:00.0", "3b:00.0"); -EINVAL (logged) when none.
 */
int rb_cuda_index(const char *want, int *index);

/*
 * rb_cuda_alloc() - @len bytes of @mem on GPU @index (its primary context
 * made current on this thread); *@b filled.  Memory the GPU writes while
 * the CPU copies is kept coherent (CU_POINTER_ATTRIBUTE_SYNC_MEMOPS).
 */
int rb_cuda_alloc(int index, enum rb_cuda_mem mem, size_t len, struct rb_cuda_buf *b);

/* rb_cuda_free() - undo rb_cuda_alloc() (NULL ptr: nothing); a failure is a warning. */
void rb_cuda_free(struct rb_cuda_buf *b);

/* rb_cuda_put(), rb_cuda_get() - copy @n bytes to / from @b at @off. */
int rb_cuda_put(const struct rb_cuda_buf *b, size_t off, const void *src, size_t n);
int rb_cuda_get(const struct rb_cuda_buf *b, size_t off, void *dst, size_t n);

/* rb_cuda_set() - @n bytes at @off of @b to @byte. */
int rb_cuda_set(const struct rb_cuda_buf *b, size_t off, uint8_t byte, size_t n);

/*
 * rb_cuda_dmabuf() - a dma-buf fd for the whole of @b
 * (cuMemGetHandleForAddressRange); the caller closes it.
 */
int rb_cuda_dmabuf(const struct rb_cuda_buf *b, int *fd);

/*
 * rb_cuda_reg_mr() - register @len bytes at @addr, inside @b, with
 * @access: as @how asks, auto being dmabuf (ibv_reg_dmabuf_mr) and, when
 * that fails, the peer-memory path (ibv_reg_mr on the device pointer,
 * which needs nvidia-peermem).  @path gets "dmabuf" or "peermem", @why
 * what each path did ("dmabuf: ibv_reg_dmabuf_mr: Operation not
 * supported; peermem: ok").  Host-pinned memory is host memory to the
 * NIC: ibv_reg_mr(), path "host".  Returns 0 or -errno, logged with @why.
 */
int rb_cuda_reg_mr(struct rb_dev *d, const struct rb_cuda_buf *b, void *addr, size_t len,
		   int access, enum rb_cuda_reg how, struct ibv_mr **mr, const char **path,
		   char *why, size_t wlen);

/*
 * rb_cuda_nearest() - of @n GPUs whose sysfs device paths are @gpu
 * (resolved: "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0") and
 * NUMA nodes @gnode, the one nearest the HCA at @hca (NULL: unknown) on
 * node @hnode: the longest common PCI path, then the same NUMA node, then
 * the lowest index.  Its index is returned, its relation and the reason
 * in @rel and @why.  Pure.
 */
int rb_cuda_nearest(const char *hca, int hnode, const char *const *gpu, const int *gnode, int n,
		    char *rel, size_t rlen, char *why, size_t wlen);

/*
 * rb_cuda_choose() - open the driver and pick the GPU: @want's (an index
 * or a PCI address), or with @want NULL, "" or "auto" the one nearest the
 * HCA @ibdev (rb_cuda_nearest() over sysfs).  *@g says which, where it
 * sits and why.  0 or -errno, logged.
 */
int rb_cuda_choose(const char *want, const char *ibdev, struct rb_cuda_gpu *g);

/*
 * rb_cuda_word() - whether @w names a GPU: an index ("0") or a PCI
 * address ("0000:3b:00.0", "3b:00.0").  Pure.
 */
bool rb_cuda_word(const char *w);

/* rb_cuda_mem_name() - "device", "managed" or "host-pinned". */
const char *rb_cuda_mem_name(enum rb_cuda_mem mem);

#endif
