// SPDX-License-Identifier: MIT
/*
 * What a result records about the verbs stack it ran on: the rdma-core
 * release of the libibverbs loaded, a device's board id, and how many
 * devices the host has.
 */
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/verbs.h"

/* dl_iterate_phdr()'s callback: the version in libibverbs's real file name. */
static int verbs_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	char real[PATH_MAX], *buf = data;
	const char *v;
	unsigned int abi, major, minor;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libibverbs.so") ||
	    !realpath(info->dlpi_name, real))
		return 0;
	v = strstr(real, "libibverbs.so.");
	if (!v || sscanf(v, "libibverbs.so.1.%u.%u.%u", &abi, &major, &minor) != 3)
		return 0;
	snprintf(buf, 32, "%u.%u", major, minor);
	return 1;
}

int rb_rdma_core_version(char *buf, size_t len)
{
	char v[32] = "";

	if (len)
		buf[0] = '\0';
	if (!dl_iterate_phdr(verbs_lib, v))
		return -ENOENT;
	snprintf(buf, len, "%s", v);
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
	if (list)
		ibv_free_device_list(list);
	return list ? n : 0;
}
