// SPDX-License-Identifier: MIT
/*
 * gpu_check [GPU]: what scripts/gpu-check runs on a machine with an
 * NVIDIA GPU (no RDMA device needed), through rdmabench's own loader
 * (src/rdma/cuda.c): load the driver, list the GPUs, and on GPU (default:
 * 0) allocate each kind of memory, copy a pattern host to GPU and back
 * and compare, and export device memory as a dma-buf.  Prints what it
 * found; exits 0 when all of it worked, 1 otherwise.  The tests run it
 * against the fake driver (tests/gpu_check.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma/cuda.h"

#define LEN (4u << 20)

/* Host to GPU and back, at an offset; 0 when the bytes came back. */
static int round_trip(const struct rb_cuda_buf *b, uint8_t *in, uint8_t *out)
{
	size_t i, off = 4096, n = LEN - 2 * 4096;
	int ret;

	for (i = 0; i < n; i++)
		in[i] = (uint8_t)(i * 31 + 7);
	memset(out, 0, n);
	ret = rb_cuda_put(b, off, in, n);
	if (!ret)
		ret = rb_cuda_get(b, off, out, n);
	if (!ret && memcmp(in, out, n)) {
		fprintf(stderr, "gpu_check: the bytes copied back differ\n");
		ret = -EILSEQ;
	}
	return ret;
}

/* The dma-buf of @b: its fd and the size it says. */
static int dmabuf(const struct rb_cuda_buf *b)
{
	off_t size;
	int fd, ret = rb_cuda_dmabuf(b, &fd);

	if (ret)
		return ret;
	size = lseek(fd, 0, SEEK_END);
	printf("  dma-buf: fd %d, %lld bytes%s\n", fd, (long long)size,
	       size == (off_t)b->len ? "" : " (not the buffer's size)");
	close(fd);
	return size == (off_t)b->len ? 0 : -EIO;
}

static int check_mem(int index, enum rb_cuda_mem mem, uint8_t *in, uint8_t *out)
{
	struct rb_cuda_buf b;
	int ret = rb_cuda_alloc(index, mem, LEN, &b);

	if (ret) {
		printf("%-12s allocation FAILED\n", rb_cuda_mem_name(mem));
		return ret;
	}
	ret = round_trip(&b, in, out);
	printf("%-12s %zu bytes at %p: copy host -> GPU -> host %s\n", rb_cuda_mem_name(mem), b.len,
	       b.ptr, ret ? "FAILED" : "ok");
	if (!ret && mem == RB_CUDA_DEVICE)
		ret = dmabuf(&b);
	rb_cuda_free(&b);
	return ret;
}

int main(int argc, char **argv)
{
	static const enum rb_cuda_mem mems[] = { RB_CUDA_DEVICE, RB_CUDA_MANAGED,
						 RB_CUDA_HOST_PINNED };
	uint8_t *in = malloc(LEN), *out = malloc(LEN);
	struct rb_cuda_gpu g;
	int i, bad = 0;

	if (!in || !out || rb_cuda_choose(argc > 1 ? argv[1] : "0", NULL, &g))
		return 1;
	printf("CUDA driver: %s, %d GPU(s)\n",
	       getenv("RDMABENCH_LIBCUDA") ? getenv("RDMABENCH_LIBCUDA") : "libcuda.so.1", g.count);
	for (i = 0; i < g.count; i++) {
		char bus[RB_CUDA_BUSID];

		if (!rb_cuda_bus_id(i, bus, sizeof(bus)))
			printf("  GPU %d: %s%s\n", i, bus, i == g.index ? " (checked)" : "");
	}
	printf("GPU %d at %s, NUMA node %d\n", g.index, g.bus_id, g.numa_node);
	for (i = 0; i < 3; i++)
		bad |= check_mem(g.index, mems[i], in, out) != 0;
	free(in);
	free(out);
	printf("%s\n", bad ? "gpu_check: FAILED" : "gpu_check: all ok");
	return bad;
}
