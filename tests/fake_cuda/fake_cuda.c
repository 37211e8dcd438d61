// SPDX-License-Identifier: MIT
/*
 * A fake CUDA driver, libcuda.so.1, for the tests of src/rdma/cuda.c:
 * the entry points rdmabench resolves, over host memory (so that
 * ibv_reg_mr() takes a "device pointer" in the Soft-RoCE lab).  It is
 * told by the environment:
 *   FAKE_CUDA_DEVICES  the GPUs' PCI addresses, comma-separated
 *                      (default one, 0000:65:00.0; "none": no GPU)
 *   FAKE_CUDA_FAIL     API names (cuMemAlloc,cuInit,...) that fail
 *   FAKE_CUDA_CORRUPT  copies (cuMemcpyHtoD, cuMemcpyDtoH) whose first
 *                      byte arrives flipped: what goes through the driver
 *                      is seen, what the CPU reads directly is not
 * A dma-buf is a memfd of the buffer's size: a real fd that
 * ibv_reg_dmabuf_mr() may accept or refuse.  fake_cuda_live() says how
 * many allocations and context references are outstanding.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

#define MAX_DEV 16
#define BUSID	32

static char buses[MAX_DEV][BUSID];
static int ndev = -1;  /* -1: cuInit not called */
static int live, refs; /* allocations, primary context references */
static struct CUctx_st {
	int dev;
} ctxs[MAX_DEV];
static __thread CUcontext cur;

#define E_INVALID_VALUE 1
#define E_OUT_OF_MEMORY 2
#define E_NOT_INIT	3
#define E_NO_DEVICE	100
#define E_INVALID_DEV	101
#define E_INVALID_CTX	201
#define E_NOT_SUPPORTED 801
#define E_UNKNOWN	999

/* Whether FAKE_CUDA_FAIL names @api. */
static int told_to_fail(const char *api)
{
	const char *f = getenv("FAKE_CUDA_FAIL"), *p;
	size_t l = strlen(api);

	for (p = f; p && (p = strstr(p, api)); p += l)
		if ((p == f || p[-1] == ',') && (!p[l] || p[l] == ','))
			return 1;
	return 0;
}

static CUresult fail_code(const char *api)
{
	if (!strcmp(api, "cuMemAlloc") || !strcmp(api, "cuMemAllocManaged") ||
	    !strcmp(api, "cuMemHostAlloc"))
		return E_OUT_OF_MEMORY;
	if (!strcmp(api, "cuMemGetHandleForAddressRange"))
		return E_NOT_SUPPORTED;
	return E_UNKNOWN;
}

/* Every entry point but cuInit and cuGetErrorName starts here. */
#define ENTER(api)                             \
	do {                                   \
		if (told_to_fail(api))         \
			return fail_code(api); \
		if (ndev < 0)                  \
			return E_NOT_INIT;     \
	} while (0)

CUresult cuInit(unsigned int flags)
{
	const char *d = getenv("FAKE_CUDA_DEVICES");
	char *list, *tok, *save;

	if (told_to_fail("cuInit"))
		return E_UNKNOWN;
	if (flags)
		return E_INVALID_VALUE;
	ndev = 0;
	if (!d)
		d = "0000:65:00.0";
	if (!strcmp(d, "none"))
		return E_NO_DEVICE;
	list = strdup(d);
	for (tok = strtok_r(list, ",", &save); tok && ndev < MAX_DEV;
	     tok = strtok_r(NULL, ",", &save)) {
		snprintf(buses[ndev], BUSID, "%s", tok);
		ctxs[ndev].dev = ndev;
		ndev++;
	}
	free(list);
	return ndev ? 0 : E_NO_DEVICE;
}

CUresult cuDeviceGetCount(int *n)
{
	ENTER("cuDeviceGetCount");
	*n = ndev;
	return 0;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	ENTER("cuDeviceGet");
	if (ordinal < 0 || ordinal >= ndev)
		return E_INVALID_DEV;
	*dev = ordinal;
	return 0;
}

/* As the driver does: upper-case hex. */
CUresult cuDeviceGetPCIBusId(char *buf, int len, CUdevice dev)
{
	int i;

	ENTER("cuDeviceGetPCIBusId");
	if (dev < 0 || dev >= ndev)
		return E_INVALID_DEV;
	snprintf(buf, (size_t)len, "%s", buses[dev]);
	for (i = 0; buf[i]; i++)
		if (buf[i] >= 'a' && buf[i] <= 'f')
			buf[i] = (char)(buf[i] - 'a' + 'A');
	return 0;
}

/* "0000:65:00.0" or "65:00.0", any case. */
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
	int i;

	ENTER("cuDeviceGetByPCIBusId");
	for (i = 0; i < ndev; i++)
		if (!strcasecmp(buses[i], id) ||
		    (strlen(buses[i]) > 5 && !strcasecmp(buses[i] + 5, id))) {
			*dev = i;
			return 0;
		}
	return E_INVALID_VALUE;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	ENTER("cuDevicePrimaryCtxRetain");
	if (dev < 0 || dev >= ndev)
		return E_INVALID_DEV;
	*ctx = &ctxs[dev];
	refs++;
	return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	ENTER("cuDevicePrimaryCtxRelease");
	if (dev < 0 || dev >= ndev || !refs)
		return E_INVALID_DEV;
	refs--;
	return 0;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	ENTER("cuCtxSetCurrent");
	cur = ctx;
	return 0;
}

/* Allocations: host memory, page-aligned, zeroed as nothing promises. */
static CUresult alloc(const char *api, void **p, size_t len)
{
	ENTER(api);
	if (!cur)
		return E_INVALID_CTX;
	if (!len)
		return E_INVALID_VALUE;
	*p = aligned_alloc(4096, (len + 4095) / 4096 * 4096);
	if (!*p)
		return E_OUT_OF_MEMORY;
	memset(*p, 0xa5, len);
	live++;
	return 0;
}

CUresult cuMemAlloc_v2(CUdeviceptr *d, size_t len)
{
	void *p = NULL;
	CUresult r = alloc("cuMemAlloc", &p, len);

	*d = (CUdeviceptr)(uintptr_t)p;
	return r;
}

CUresult cuMemAllocManaged(CUdeviceptr *d, size_t len, unsigned int flags)
{
	void *p = NULL;
	CUresult r = flags == 1 ? alloc("cuMemAllocManaged", &p, len) : E_INVALID_VALUE;

	*d = (CUdeviceptr)(uintptr_t)p;
	return r;
}

CUresult cuMemHostAlloc(void **p, size_t len, unsigned int flags)
{
	return alloc("cuMemHostAlloc", p, len);
}

static CUresult release(const char *api, void *p)
{
	ENTER(api);
	if (!p || !live)
		return E_INVALID_VALUE;
	free(p);
	live--;
	return 0;
}

CUresult cuMemFree_v2(CUdeviceptr d)
{
	return release("cuMemFree", (void *)(uintptr_t)d);
}

CUresult cuMemFreeHost(void *p)
{
	return release("cuMemFreeHost", p);
}

/* Copies need a current context, as the driver's do. */
#define COPY(api)                             \
	do {                                  \
		ENTER(api);                   \
		if (!cur)                     \
			return E_INVALID_CTX; \
	} while (0)

/* FAKE_CUDA_CORRUPT: the copy @api's first byte flipped. */
static void corrupt(const char *api, void *dst, size_t n)
{
	const char *c = getenv("FAKE_CUDA_CORRUPT");

	if (n && c && strstr(c, api))
		*(unsigned char *)dst ^= 0xff;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	COPY("cuMemcpyHtoD");
	memcpy((void *)(uintptr_t)dst, src, n);
	corrupt("cuMemcpyHtoD", (void *)(uintptr_t)dst, n);
	return 0;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	COPY("cuMemcpyDtoH");
	memcpy(dst, (const void *)(uintptr_t)src, n);
	corrupt("cuMemcpyDtoH", dst, n);
	return 0;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n)
{
	COPY("cuMemsetD8");
	memset((void *)(uintptr_t)dst, v, n);
	return 0;
}

/* A dma-buf: a memfd of the range's size (the bytes are not shared). */
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr d, size_t len, int type,
				       unsigned long long flags)
{
	int fd;

	ENTER("cuMemGetHandleForAddressRange");
	if (type != 1 || flags || !d || len % 4096)
		return E_INVALID_VALUE;
	fd = memfd_create("fake_cuda_dmabuf", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)len)) {
		if (fd >= 0)
			close(fd);
		return E_OUT_OF_MEMORY;
	}
	*(int *)handle = fd;
	return 0;
}

CUresult cuPointerSetAttribute(const void *value, int attr, CUdeviceptr d)
{
	ENTER("cuPointerSetAttribute");
	return attr == 6 && d ? 0 : E_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult r, const char **name)
{
	static const struct {
		CUresult r;
		const char *n;
	} names[] = {
		{ 0, "CUDA_SUCCESS" },
		{ E_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE" },
		{ E_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY" },
		{ E_NOT_INIT, "CUDA_ERROR_NOT_INITIALIZED" },
		{ E_NO_DEVICE, "CUDA_ERROR_NO_DEVICE" },
		{ E_INVALID_DEV, "CUDA_ERROR_INVALID_DEVICE" },
		{ E_INVALID_CTX, "CUDA_ERROR_INVALID_CONTEXT" },
		{ E_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED" },
		{ E_UNKNOWN, "CUDA_ERROR_UNKNOWN" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].r == r) {
			*name = names[i].n;
			return 0;
		}
	return E_INVALID_VALUE;
}

/* For the tests: allocations and context references outstanding. */
int fake_cuda_live(void);
int fake_cuda_live(void)
{
	return live + refs;
}
