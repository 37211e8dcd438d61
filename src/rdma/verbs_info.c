// SPDX-License-Identifier: MIT
/*
 * What a result records about the verbs stack it ran on: the rdma-core
 * release of the libibverbs loaded, a device's board id, and how many
 * devices the host has.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/verbs.h"

const char *rb_verbs_lib_version(char *buf, size_t len)
{
	char path[PATH_MAX];
	const char *v;
	Dl_info info;

	if (!dladdr((void *)ibv_get_device_list, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, path))
		return NULL;
	v = strstr(path, ".so.");
	if (!v || !v[4])
		return NULL;
	snprintf(buf, len, "%s", v + 4);
	return buf;
}

int rb_rdma_core_version(char *buf, size_t len)
{
	unsigned int abi, major, minor;
	char v[64];

	if (len)
		buf[0] = '\0';
	if (!rb_verbs_lib_version(v, sizeof(v)) ||
	    sscanf(v, "1.%u.%u.%u", &abi, &major, &minor) != 3)
		return -ENOENT;
	snprintf(buf, len, "%u.%u", major, minor);
	return 0;
}

void rb_dev_board_id(const struct rb_dev *d, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (!d->ctx)
		return;
	snprintf(path, sizeof(path), "%s/board_id", d->ctx->device->ibdev_path);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int rb_dev_count(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return -errno;
	ibv_free_device_list(list);
	return n;
}
