// SPDX-License-Identifier: MIT
/*
 * The CUDA driver API, loaded at run time (cuda.h).  The few types and
 * values used are written here from the driver API's documentation: no
 * CUDA header is needed to build.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "rdma/cuda.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

/* CUresult values given an errno of their own; the others are -EIO. */
#define CUDA_SUCCESS			    0
#define CUDA_ERROR_INVALID_VALUE	    1
#define CUDA_ERROR_OUT_OF_MEMORY	    2
#define CUDA_ERROR_NO_DEVICE		    100
#define CUDA_ERROR_NOT_SUPPORTED	    801
#define CU_MEMHOSTALLOC_PORTABLE	    0x01
#define CU_MEMHOSTALLOC_DEVICEMAP	    0x02
#define CU_MEM_ATTACH_GLOBAL		    0x1
#define CU_POINTER_ATTRIBUTE_SYNC_MEMOPS    6
#define CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 1

static struct {
	CUresult (*init)(unsigned int flags);
	CUresult (*count)(int *n);
	CUresult (*get)(CUdevice *dev, int ordinal);
	CUresult (*bus_id)(char *buf, int len, CUdevice dev);
	CUresult (*by_bus_id)(CUdevice *dev, const char *bus_id);
	CUresult (*retain)(CUcontext *ctx, CUdevice dev);
	CUresult (*release)(CUdevice dev);
	CUresult (*set_current)(CUcontext ctx);
	CUresult (*alloc)(CUdeviceptr *p, size_t len);
	CUresult (*free)(CUdeviceptr p);
	CUresult (*alloc_managed)(CUdeviceptr *p, size_t len, unsigned int flags);
	CUresult (*host_alloc)(void **p, size_t len, unsigned int flags);
	CUresult (*free_host)(void *p);
	CUresult (*htod)(CUdeviceptr dst, const void *src, size_t n);
	CUresult (*dtoh)(void *dst, CUdeviceptr src, size_t n);
	CUresult (*memset8)(CUdeviceptr dst, unsigned char v, size_t n);
	CUresult (*handle)(void *handle, CUdeviceptr p, size_t len, int type,
			   unsigned long long flags);
	CUresult (*set_attr)(const void *value, int attr, CUdeviceptr p);
	CUresult (*err_name)(CUresult r, const char **name);
} cu;

/* Each entry point: the API's name (in messages), the library's symbol. */
#define SYM(f, api, sym)                 \
	{                                \
		api, sym, (void **)&cu.f \
	}
static const struct {
	const char *api, *sym;
	void **slot;
} syms[] = {
	SYM(init, "cuInit", "cuInit"),
	SYM(count, "cuDeviceGetCount", "cuDeviceGetCount"),
	SYM(get, "cuDeviceGet", "cuDeviceGet"),
	SYM(bus_id, "cuDeviceGetPCIBusId", "cuDeviceGetPCIBusId"),
	SYM(by_bus_id, "cuDeviceGetByPCIBusId", "cuDeviceGetByPCIBusId"),
	SYM(retain, "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain"),
	SYM(release, "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2"),
	SYM(set_current, "cuCtxSetCurrent", "cuCtxSetCurrent"),
	SYM(alloc, "cuMemAlloc", "cuMemAlloc_v2"),
	SYM(free, "cuMemFree", "cuMemFree_v2"),
	SYM(alloc_managed, "cuMemAllocManaged", "cuMemAllocManaged"),
	SYM(host_alloc, "cuMemHostAlloc", "cuMemHostAlloc"),
	SYM(free_host, "cuMemFreeHost", "cuMemFreeHost"),
	SYM(htod, "cuMemcpyHtoD", "cuMemcpyHtoD_v2"),
	SYM(dtoh, "cuMemcpyDtoH", "cuMemcpyDtoH_v2"),
	SYM(memset8, "cuMemsetD8", "cuMemsetD8_v2"),
	SYM(handle, "cuMemGetHandleForAddressRange", "cuMemGetHandleForAddressRange"),
	SYM(set_attr, "cuPointerSetAttribute", "cuPointerSetAttribute"),
	SYM(err_name, "cuGetErrorName", "cuGetErrorName"),
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int open_ret = -ENOENT;

/* The driver's name for @r, "CUDA_ERROR_NO_DEVICE"; a number when it has none. */
static const char *err_name(CUresult r, char *buf, size_t len)
{
	const char *n = NULL;

	if (cu.err_name && cu.err_name(r, &n) == CUDA_SUCCESS && n)
		return n;
	snprintf(buf, len, "CUresult %d", r);
	return buf;
}

static int err_of(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_INVALID_VALUE:
		return -EINVAL;
	case CUDA_ERROR_OUT_OF_MEMORY:
		return -ENOMEM;
	case CUDA_ERROR_NO_DEVICE:
		return -ENODEV;
	case CUDA_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* A call's result: 0, or -errno with "CALL WHAT: CUDA_ERROR_..." in @msg. */
static int said(CUresult r, const char *call, const char *what, char *msg, size_t len)
{
	char n[32];

	if (r == CUDA_SUCCESS)
		return 0;
	snprintf(msg, len, "%s%s%s: %s", call, what[0] ? " " : "", what, err_name(r, n, sizeof(n)));
	return err_of(r);
}

/* The same, logged. */
static int check(CUresult r, const char *call, const char *what)
{
	char msg[RB_TEXT_MAX];
	int ret = said(r, call, what, msg, sizeof(msg));

	if (ret)
		rb_err("%s", msg);
	return ret;
}

static int load(void)
{
	const char *path = getenv("RDMABENCH_LIBCUDA");
	void *lib;
	size_t i;

	if (!path || !path[0])
		path = "libcuda.so.1";
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		rb_err("--use-cuda: cannot load the CUDA driver (%s): %s; GPU memory needs "
		       "NVIDIA's driver (no CUDA toolkit)",
		       path, dlerror());
		return -ENOENT;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].slot = dlsym(lib, syms[i].sym);
		if (*syms[i].slot)
			continue;
		rb_err("--use-cuda: the CUDA driver %s has no %s (%s): a driver older than "
		       "CUDA 11.7?",
		       path, syms[i].api, syms[i].sym);
		dlclose(lib);
		memset(&cu, 0, sizeof(cu));
		return -ENOENT;
	}
	return 0;
}

static void open_once(void)
{
	CUresult r;
	char n[32];
	int count = 0;

	open_ret = load();
	if (open_ret)
		return;
	r = cu.init(0);
	if (r == CUDA_ERROR_NO_DEVICE) {
		rb_err("--use-cuda: the CUDA driver sees no GPU (cuInit: %s)",
		       err_name(r, n, sizeof(n)));
		open_ret = -ENODEV;
		return;
	}
	open_ret = check(r, "cuInit", "");
	if (!open_ret)
		open_ret = check(cu.count(&count), "cuDeviceGetCount", "");
	if (!open_ret && !count) {
		rb_err("--use-cuda: the CUDA driver sees no GPU (cuDeviceGetCount: 0)");
		open_ret = -ENODEV;
	}
}

int rb_cuda_open(void)
{
	pthread_once(&once, open_once);
	return open_ret;
}

int rb_cuda_count(int *n)
{
	*n = 0;
	return check(cu.count(n), "cuDeviceGetCount", "");
}

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'F')
			*s = (char)(*s - 'A' + 'a');
}

int rb_cuda_bus_id(int index, char *buf, size_t len)
{
	char what[32];
	CUdevice dev;
	int ret;

	snprintf(what, sizeof(what), "of GPU %d", index);
	ret = check(cu.get(&dev, index), "cuDeviceGet", what);
	if (!ret)
		ret = check(cu.bus_id(buf, (int)len, dev), "cuDeviceGetPCIBusId", what);
	if (!ret)
		lower(buf);
	return ret;
}

/* @s is all digits: a GPU's index. */
static bool is_index(const char *s)
{
	return s[0] && strspn(s, "0123456789") == strlen(s) && strlen(s) < 6;
}

int rb_cuda_index(const char *want, int *index)
{
	char what[64];
	CUdevice dev;
	int n, i, ret;

	ret = rb_cuda_count(&n);
	if (ret)
		return ret;
	if (is_index(want)) {
		*index = atoi(want);
		if (*index < n)
			return 0;
		rb_err("--use-cuda %s: the CUDA driver sees %d GPU(s), 0..%d", want, n, n - 1);
		return -EINVAL;
	}
	snprintf(what, sizeof(what), "'%s'", want);
	ret = check(cu.by_bus_id(&dev, want), "cuDeviceGetByPCIBusId", what);
	if (ret)
		return ret == -EIO ? -EINVAL : ret;
	/* The ordinal behind the CUdevice: the one whose bus id it has. */
	for (i = 0; i < n; i++) {
		CUdevice d;

		if (!cu.get(&d, i) && d == dev) {
			*index = i;
			return 0;
		}
	}
	rb_err("--use-cuda %s: no GPU ordinal has it", want);
	return -EINVAL;
}

/* GPU @index's primary context, current on this thread, kept in @b. */
static int make_current(int index, struct rb_cuda_buf *b)
{
	char what[32];
	CUcontext ctx;
	CUdevice dev;
	int ret;

	snprintf(what, sizeof(what), "on GPU %d", index);
	ret = check(cu.get(&dev, index), "cuDeviceGet", what);
	if (!ret)
		ret = check(cu.retain(&ctx, dev), "cuDevicePrimaryCtxRetain", what);
	if (ret)
		return ret;
	b->ctx = ctx;
	b->dev = dev;
	return check(cu.set_current(ctx), "cuCtxSetCurrent", what);
}

/* A copy's context on whichever thread makes it. */
static int current(const struct rb_cuda_buf *b)
{
	return check(cu.set_current(b->ctx), "cuCtxSetCurrent", "");
}

static int alloc_mem(enum rb_cuda_mem mem, size_t len, void **p, const char *what)
{
	CUdeviceptr d = 0;
	int ret;

	switch (mem) {
	case RB_CUDA_MANAGED:
		ret = check(cu.alloc_managed(&d, len, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged",
			    what);
		break;
	case RB_CUDA_HOST_PINNED:
		return check(cu.host_alloc(p, len,
					   CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
			     "cuMemHostAlloc", what);
	default:
		ret = check(cu.alloc(&d, len), "cuMemAlloc", what);
		break;
	}
	*p = (void *)(uintptr_t)d;
	return ret;
}

int rb_cuda_alloc(int index, enum rb_cuda_mem mem, size_t len, struct rb_cuda_buf *b)
{
	int one = 1, ret;
	char what[64];

	memset(b, 0, sizeof(*b));
	/* Whole GPU pages, so that one dma-buf covers the buffer. */
	len = (len + RB_CUDA_PAGE - 1) / RB_CUDA_PAGE * RB_CUDA_PAGE;
	ret = make_current(index, b);
	if (ret) {
		rb_cuda_free(b);
		return ret;
	}
	snprintf(what, sizeof(what), "(%zu bytes) on GPU %d", len, index);
	ret = alloc_mem(mem, len, &b->ptr, what);
	if (ret) {
		b->ptr = NULL;
		rb_cuda_free(b);
		return ret;
	}
	b->len = len;
	b->mem = mem;
	/* Copies the CPU starts must see what the NIC wrote: synchronous memops. */
	if (mem == RB_CUDA_DEVICE)
		ret = check(cu.set_attr(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
					(CUdeviceptr)(uintptr_t)b->ptr),
			    "cuPointerSetAttribute", "(SYNC_MEMOPS)");
	if (ret)
		rb_cuda_free(b);
	return ret;
}

void rb_cuda_free(struct rb_cuda_buf *b)
{
	bool host = b->mem == RB_CUDA_HOST_PINNED;
	CUresult r;
	char n[32];

	if (b->ptr) {
		r = host ? cu.free_host(b->ptr) : cu.free((CUdeviceptr)(uintptr_t)b->ptr);
		if (r != CUDA_SUCCESS)
			rb_warn("%s of %zu bytes: %s", host ? "cuMemFreeHost" : "cuMemFree", b->len,
				err_name(r, n, sizeof(n)));
		b->ptr = NULL;
	}
	/* The primary context's reference, once its memory is gone. */
	if (b->ctx) {
		r = cu.release(b->dev);
		if (r != CUDA_SUCCESS)
			rb_warn("cuDevicePrimaryCtxRelease: %s", err_name(r, n, sizeof(n)));
		b->ctx = NULL;
	}
}

/* @n bytes at @off fit in @b. */
static int in_range(const struct rb_cuda_buf *b, size_t off, size_t n, const char *call)
{
	if (off <= b->len && n <= b->len - off)
		return 0;
	rb_err("%s: %zu bytes at offset %zu past the buffer's %zu", call, n, off, b->len);
	return -ERANGE;
}

static CUdeviceptr at(const struct rb_cuda_buf *b, size_t off)
{
	return (CUdeviceptr)(uintptr_t)b->ptr + off;
}

int rb_cuda_put(const struct rb_cuda_buf *b, size_t off, const void *src, size_t n)
{
	int ret = in_range(b, off, n, "cuMemcpyHtoD");

	if (!ret)
		ret = current(b);
	return ret ? ret : check(cu.htod(at(b, off), src, n), "cuMemcpyHtoD", "");
}

int rb_cuda_get(const struct rb_cuda_buf *b, size_t off, void *dst, size_t n)
{
	int ret = in_range(b, off, n, "cuMemcpyDtoH");

	if (!ret)
		ret = current(b);
	return ret ? ret : check(cu.dtoh(dst, at(b, off), n), "cuMemcpyDtoH", "");
}

int rb_cuda_set(const struct rb_cuda_buf *b, size_t off, uint8_t byte, size_t n)
{
	int ret = in_range(b, off, n, "cuMemsetD8");

	if (!ret)
		ret = current(b);
	return ret ? ret : check(cu.memset8(at(b, off), byte, n), "cuMemsetD8", "");
}

/* The dma-buf of @b; what failed in @msg. */
static int dmabuf_fd(const struct rb_cuda_buf *b, int *fd, char *msg, size_t len)
{
	char what[64];

	*fd = -1;
	snprintf(what, sizeof(what), "(DMA_BUF_FD, %zu bytes)", b->len);
	return said(cu.handle(fd, at(b, 0), b->len, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0),
		    "cuMemGetHandleForAddressRange", what, msg, len);
}

int rb_cuda_dmabuf(const struct rb_cuda_buf *b, int *fd)
{
	char msg[RB_TEXT_MAX];
	int ret = dmabuf_fd(b, fd, msg, sizeof(msg));

	if (ret)
		rb_err("%s", msg);
	return ret;
}

/* ibv_reg_dmabuf_mr() of @len bytes at @addr in @b; what failed in @msg. */
static int reg_dmabuf(struct rb_dev *d, const struct rb_cuda_buf *b, void *addr, size_t len,
		      int access, struct ibv_mr **mr, char *msg, size_t mlen)
{
#ifdef HAVE_IBV_REG_DMABUF_MR
	uint64_t off = (uint64_t)((uintptr_t)addr - (uintptr_t)b->ptr);
	int fd, ret = dmabuf_fd(b, &fd, msg, mlen);

	if (ret)
		return ret;
	errno = 0;
	*mr = ibv_reg_dmabuf_mr(d->pd, off, len, (uintptr_t)addr, fd, access);
	/* A provider that refuses relaxed ordering here may take the rest. */
	if (!*mr && (access & IBV_ACCESS_RELAXED_ORDERING))
		*mr = ibv_reg_dmabuf_mr(d->pd, off, len, (uintptr_t)addr, fd,
					access & ~IBV_ACCESS_RELAXED_ORDERING);
	ret = *mr ? 0 : -(errno ? errno : EIO);
	if (ret)
		snprintf(msg, mlen, "ibv_reg_dmabuf_mr: %s", strerror(-ret));
	close(fd); /* the MR holds the dma-buf */
	return ret;
#else
	snprintf(msg, mlen,
		 "not built: libibverbs older than rdma-core 34 has no "
		 "ibv_reg_dmabuf_mr");
	return -EOPNOTSUPP;
#endif
}

/* Append "PATH: WHAT" to @why (separated by "; "). */
static void tell(char *why, size_t len, const char *path, const char *what)
{
	size_t used = strlen(why);

	snprintf(why + used, len - used, "%s%s: %s", used ? "; " : "", path, what);
}

int rb_cuda_reg_mr(struct rb_dev *d, const struct rb_cuda_buf *b, void *addr, size_t len,
		   int access, enum rb_cuda_reg how, struct ibv_mr **mr, const char **path,
		   char *why, size_t wlen)
{
	char msg[RB_TEXT_MAX];
	int ret;

	why[0] = '\0';
	*path = "host";
	if (b->mem == RB_CUDA_HOST_PINNED) {
		tell(why, wlen, "host",
		     "host-pinned memory, registered by ibv_reg_mr as host memory");
		return rb_mr_reg(d, addr, len, access, mr);
	}
	if (how != RB_CUDA_REG_PEERMEM) {
		ret = reg_dmabuf(d, b, addr, len, access, mr, msg, sizeof(msg));
		tell(why, wlen, "dmabuf", ret ? msg : "ok");
		*path = "dmabuf";
		if (!ret || how == RB_CUDA_REG_DMABUF) {
			if (ret)
				rb_err("%s: --cuda-reg dmabuf: %s", d->name, why);
			return ret;
		}
	} else {
		tell(why, wlen, "dmabuf", "not tried (--cuda-reg peermem)");
	}
	*path = "peermem";
	ret = rb_mr_reg(d, addr, len, access, mr);
	tell(why, wlen, "peermem",
	     ret ? "ibv_reg_mr on the device pointer failed (is "
		   "nvidia-peermem loaded?)"
		 : "ok");
	if (ret)
		rb_err("%s: GPU memory could not be registered: %s", d->name, why);
	return ret;
}

const char *rb_cuda_mem_name(enum rb_cuda_mem mem)
{
	static const char *const names[] = { "device", "managed", "host-pinned" };

	return mem <= RB_CUDA_HOST_PINNED ? names[mem] : "?";
}
