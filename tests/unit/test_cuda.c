// SPDX-License-Identifier: MIT
/*
 * Unit tests of the CUDA driver loader (src/rdma/cuda.c) against the fake
 * driver (tests/fake_cuda/): a missing library, no GPU, every entry
 * point failing in turn (each error names its call and the driver's
 * error name), GPUs by index and by PCI address, the three kinds of
 * memory copied through and back, and the choice of the GPU nearest the
 * HCA.  The loader opens the driver once a process: each case runs in a
 * child of its own, with its environment.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "rdma/cuda.h"
#include "rdma/memlock.h"

struct outcome {
	int ret;
	int index;
	char bus[RB_CUDA_BUSID];
	char msg[RB_TEXT_MAX];
};

/* Outstanding allocations and context references in the fake. */
static int fake_live(void)
{
	void *lib = dlopen(FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
	int (*live)(void) = lib ? (int (*)(void))dlsym(lib, "fake_cuda_live") : NULL;

	return live ? live() : -1;
}

/* Choose @want, allocate @mem, copy a pattern through and back, export a dma-buf. */
static int scenario(const char *want, enum rb_cuda_mem mem, struct outcome *o)
{
	uint8_t in[3000], out[3000];
	struct rb_cuda_gpu g;
	struct rb_cuda_buf b;
	size_t i;
	int fd, ret;

	ret = rb_cuda_choose(want, NULL, &g);
	if (ret)
		return ret;
	o->index = g.index;
	snprintf(o->bus, sizeof(o->bus), "%s", g.bus_id);
	ret = rb_cuda_alloc(g.index, mem, 100000, &b);
	if (ret)
		return ret;
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	ret = rb_cuda_put(&b, 4096, in, sizeof(in));
	if (!ret)
		ret = rb_cuda_set(&b, 4096 + 100, 0xee, 10);
	if (!ret)
		ret = rb_cuda_get(&b, 4096, out, sizeof(out));
	memset(in + 100, 0xee, 10);
	if (!ret && memcmp(in, out, sizeof(in)))
		ret = -EILSEQ;
	if (!ret && mem != RB_CUDA_HOST_PINNED && !(ret = rb_cuda_dmabuf(&b, &fd)))
		close(fd);
	rb_cuda_free(&b);
	if (!ret && b.len != 2 * RB_CUDA_PAGE)
		ret = -EFBIG;
	if (!ret && fake_live() != 0)
		ret = -EBADF; /* a leak */
	return ret;
}

/* Run scenario() in a child with @devices and @fail set (NULL: unset). */
static struct outcome run(const char *devices, const char *fail, const char *want,
			  enum rb_cuda_mem mem)
{
	struct outcome o = { 0 };
	int fds[2], st;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		setenv("RDMABENCH_LIBCUDA", FAKE_CUDA, 1);
		if (devices)
			setenv("FAKE_CUDA_DEVICES", devices, 1);
		if (fail)
			setenv("FAKE_CUDA_FAIL", fail, 1);
		else
			unsetenv("FAKE_CUDA_FAIL");
		o.ret = scenario(want, mem, &o);
		snprintf(o.msg, sizeof(o.msg), "%s", o.ret ? rb_last_error : "");
		_exit(write(fds[1], &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &o, sizeof(o)), (ssize_t)sizeof(o));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && !WEXITSTATUS(st));
	return o;
}

static void test_each_memory(void **state)
{
	static const enum rb_cuda_mem mems[] = { RB_CUDA_DEVICE, RB_CUDA_MANAGED,
						 RB_CUDA_HOST_PINNED };
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		o = run(NULL, NULL, "auto", mems[i]);
		assert_int_equal(o.ret, 0);
		assert_int_equal(o.index, 0);
		assert_string_equal(o.bus, "0000:65:00.0");
	}
	assert_string_equal(rb_cuda_mem_name(RB_CUDA_HOST_PINNED), "host-pinned");
}

/*
 * The memlock pre-check counts host pages only (issue 37 item 20): GPU
 * device or managed buffers pin none, host-pinned CUDA memory is host
 * memory to ibv_reg_mr, ODP pins on demand.
 */
static void test_memlock_gpu_pins_no_host(void **state)
{
	const uint64_t gib = 1ULL << 30;

	(void)state;
	assert_int_equal(rb_memlock_pinned(gib, false, false, false), gib);
	assert_int_equal(rb_memlock_pinned(gib, false, true, false), 0);
	assert_int_equal(rb_memlock_pinned(gib, false, true, true), gib);
	assert_int_equal(rb_memlock_pinned(gib, true, false, false), 0);
}

static void test_missing_library(void **state)
{
	struct outcome o;
	int fds[2], st;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		setenv("RDMABENCH_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
		o.ret = rb_cuda_open();
		snprintf(o.msg, sizeof(o.msg), "%s", rb_last_error);
		_exit(write(fds[1], &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 1);
	}
	assert_int_equal(read(fds[0], &o, sizeof(o)), (ssize_t)sizeof(o));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(o.ret, -ENOENT);
	assert_non_null(strstr(o.msg, "cannot load the CUDA driver (/nonexistent/libcuda.so.1)"));
	assert_non_null(strstr(o.msg, "NVIDIA's driver"));
}

static void test_no_gpu(void **state)
{
	struct outcome o;

	(void)state;
	o = run("none", NULL, "auto", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, -ENODEV);
	assert_non_null(strstr(o.msg, "sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE)"));
	o = run("", NULL, "auto", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, -ENODEV);
}

/* Every entry point, failing: the error names it and the driver's error. */
static void test_each_call_fails(void **state)
{
	static const struct {
		const char *api;
		enum rb_cuda_mem mem;
		const char *name;
		int ret;
	} cases[] = {
		{ "cuInit", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuDeviceGetCount", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuDeviceGet", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuDeviceGetPCIBusId", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuDevicePrimaryCtxRetain", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuCtxSetCurrent", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuMemAlloc", RB_CUDA_DEVICE, "CUDA_ERROR_OUT_OF_MEMORY", -ENOMEM },
		{ "cuMemAllocManaged", RB_CUDA_MANAGED, "CUDA_ERROR_OUT_OF_MEMORY", -ENOMEM },
		{ "cuMemHostAlloc", RB_CUDA_HOST_PINNED, "CUDA_ERROR_OUT_OF_MEMORY", -ENOMEM },
		{ "cuPointerSetAttribute", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuMemcpyHtoD", RB_CUDA_DEVICE, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuMemsetD8", RB_CUDA_MANAGED, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuMemcpyDtoH", RB_CUDA_HOST_PINNED, "CUDA_ERROR_UNKNOWN", -EIO },
		{ "cuMemGetHandleForAddressRange", RB_CUDA_DEVICE, "CUDA_ERROR_NOT_SUPPORTED",
		  -EOPNOTSUPP },
	};
	char want[128];
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		o = run(NULL, cases[i].api, "0", cases[i].mem);
		snprintf(want, sizeof(want), "%s", cases[i].api);
		print_message("%s: %d %s\n", cases[i].api, o.ret, o.msg);
		assert_int_equal(o.ret, cases[i].ret);
		assert_true(!strncmp(o.msg, want, strlen(want)));
		assert_non_null(strstr(o.msg, cases[i].name));
	}
}

static void test_gpu_by_name(void **state)
{
	const char *two = "0000:3b:00.0,0000:86:00.0";
	struct outcome o;

	(void)state;
	o = run(two, NULL, "1", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, 0);
	assert_int_equal(o.index, 1);
	assert_string_equal(o.bus, "0000:86:00.0");
	o = run(two, NULL, "0000:86:00.0", RB_CUDA_DEVICE);
	assert_int_equal(o.index, 1);
	o = run(two, NULL, "86:00.0", RB_CUDA_DEVICE);
	assert_int_equal(o.index, 1);
	o = run(two, NULL, "0000:3B:00.0", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, 0);
	assert_int_equal(o.index, 0);
	assert_string_equal(o.bus, "0000:3b:00.0");
	o = run(two, NULL, "2", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, -EINVAL);
	assert_string_equal(o.msg, "--use-cuda 2: the CUDA driver sees 2 GPU(s), 0..1");
	o = run(two, NULL, "0000:99:00.0", RB_CUDA_DEVICE);
	assert_int_equal(o.ret, -EINVAL);
	assert_string_equal(o.msg, "cuDeviceGetByPCIBusId '0000:99:00.0': "
				   "CUDA_ERROR_INVALID_VALUE");
}

static void test_nearest(void **state)
{
	const char *gpu[] = {
		"/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0",
		"/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:00.0/0000:83:00.0",
		"/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:04.0/0000:84:00.0",
	};
	const char *hca = "/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:08.0/"
			  "0000:85:00.0";
	int node[] = { 0, 1, 1 };
	char rel[64], why[192];

	(void)state;
	/* Two behind the HCA's switch: the first of them. */
	assert_int_equal(rb_cuda_nearest(hca, 1, gpu, node, 3, rel, sizeof(rel), why, sizeof(why)),
			 1);
	assert_string_equal(rel, "same PCIe switch");
	assert_string_equal(why, "nearest the HCA by PCIe (same PCIe switch)");
	/* Under the other socket's root port only. */
	assert_int_equal(rb_cuda_nearest("/sys/devices/pci0000:00/0000:00:01.0/0000:05:00.0", 0,
					 gpu, node, 3, rel, sizeof(rel), why, sizeof(why)),
			 0);
	assert_string_equal(rel, "same PCIe root port");
	/* Another host bridge on the same node. */
	assert_int_equal(rb_cuda_nearest("/sys/devices/pci0000:40/0000:40:01.0/0000:41:00.0", 1,
					 gpu, node, 3, rel, sizeof(rel), why, sizeof(why)),
			 1);
	assert_string_equal(rel, "same NUMA node, other host bridge");
	assert_string_equal(why, "on the HCA's NUMA node 1");
	/* A software device (rxe): GPU 0. */
	assert_int_equal(
		rb_cuda_nearest(NULL, -1, gpu, node, 3, rel, sizeof(rel), why, sizeof(why)), 0);
	assert_string_equal(why, "GPU 0: the HCA has no PCI address (a software device?)");
	assert_string_equal(rel, "");
	/* Across sockets. */
	assert_int_equal(rb_cuda_nearest("/sys/devices/pci0000:40/0000:40:01.0/0000:41:00.0", 0,
					 gpu + 1, node + 1, 2, rel, sizeof(rel), why, sizeof(why)),
			 0);
	assert_string_equal(rel, "across NUMA nodes");
	assert_string_equal(why, "GPU 0: none shares the HCA's PCIe tree or NUMA node");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_memory),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_memlock_gpu_pins_no_host),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_each_call_fails),
		cmocka_unit_test(test_gpu_by_name),
		cmocka_unit_test(test_nearest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
