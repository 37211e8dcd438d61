// SPDX-License-Identifier: MIT
/*
 * Which GPU a side's buffers go on when --use-cuda names none: the one
 * nearest the HCA by PCIe, from sysfs alone (cuda.h).  The choice itself,
 * rb_cuda_nearest(), is pure.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/cuda.h"

/* PCI components @a and @b share below /sys/devices: pci0000:00, a root port, a switch... */
static int common(const char *a, const char *b)
{
	const char *base = "/sys/devices/";
	size_t l = strlen(base);
	int n = 0;

	if (strncmp(a, base, l) || strncmp(b, base, l))
		return 0;
	a += l;
	b += l;
	for (;;) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");

		if (!la || la != lb || strncmp(a, b, la))
			return n;
		n++;
		if (!a[la] || !b[lb])
			return n;
		a += la + 1;
		b += lb + 1;
	}
}

/* What @k shared components (and the nodes) make of a GPU and the HCA. */
static const char *relation(int k, int gnode, int hnode)
{
	if (k >= 3)
		return "same PCIe switch";
	if (k == 2)
		return "same PCIe root port";
	if (k == 1)
		return "same host bridge";
	if (gnode >= 0 && gnode == hnode)
		return "same NUMA node, other host bridge";
	if (gnode >= 0 && hnode >= 0)
		return "across NUMA nodes";
	return "";
}

int rb_cuda_nearest(const char *hca, int hnode, const char *const *gpu, const int *gnode, int n,
		    char *rel, size_t rlen, char *why, size_t wlen)
{
	int best = 0, best_k = -1, best_same = -1, i;

	for (i = 0; i < n; i++) {
		int k = hca && gpu[i] ? common(hca, gpu[i]) : 0;
		int same = hnode >= 0 && gnode[i] == hnode;

		if (k > best_k || (k == best_k && same > best_same)) {
			best = i;
			best_k = k;
			best_same = same;
		}
	}
	snprintf(rel, rlen, "%s", n ? relation(best_k, gnode[best], hnode) : "");
	if (!n)
		snprintf(why, wlen, "no GPU");
	else if (best_k > 0)
		snprintf(why, wlen, "nearest the HCA by PCIe (%s)", rel);
	else if (best_same > 0)
		snprintf(why, wlen, "on the HCA's NUMA node %d", hnode);
	else if (!hca)
		snprintf(why, wlen, "GPU 0: the HCA has no PCI address (a software device?)");
	else
		snprintf(why, wlen, "GPU 0: none shares the HCA's PCIe tree or NUMA node");
	return best;
}

/* sysfs's numa_node in directory @dir; -1 when unknown. */
static int numa_of(const char *dir)
{
	char path[PATH_MAX];
	FILE *f;
	int node = -1;

	snprintf(path, sizeof(path), "%s/numa_node", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}

/* Each GPU's resolved sysfs path (NULL: not found) and node. */
static int gpus_read(int n, char **path, int *node, struct rb_cuda_gpu *g)
{
	char dir[PATH_MAX], bus[RB_CUDA_BUSID];
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = rb_cuda_bus_id(i, bus, sizeof(bus));
		if (ret)
			return ret;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", bus);
		path[i] = realpath(dir, NULL);
		node[i] = numa_of(dir);
	}
	return 0;
}

/* With no GPU named: the nearest @ibdev; @g->why says why. */
static int choose_near(const char *ibdev, struct rb_cuda_gpu *g)
{
	char dir[PATH_MAX], *hca = NULL, *path[RB_CUDA_MAX] = { NULL };
	int node[RB_CUDA_MAX], n = g->count < RB_CUDA_MAX ? g->count : RB_CUDA_MAX, i, ret;

	ret = gpus_read(n, path, node, g);
	if (!ret) {
		snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/device", ibdev ? ibdev : "");
		hca = ibdev ? realpath(dir, NULL) : NULL;
		g->hca_node = hca ? numa_of(dir) : -1;
		g->index = rb_cuda_nearest(hca, g->hca_node, (const char *const *)path, node, n,
					   g->relation, sizeof(g->relation), g->why,
					   sizeof(g->why));
	}
	free(hca);
	for (i = 0; i < n; i++)
		free(path[i]);
	return ret;
}

/* A GPU named by --use-cuda: its relation to @ibdev, for the record. */
static void relate(const char *ibdev, struct rb_cuda_gpu *g)
{
	char dir[PATH_MAX], gdir[PATH_MAX], *hca, *gpu;

	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/device", ibdev ? ibdev : "");
	snprintf(gdir, sizeof(gdir), "/sys/bus/pci/devices/%s", g->bus_id);
	hca = ibdev ? realpath(dir, NULL) : NULL;
	gpu = realpath(gdir, NULL);
	g->hca_node = hca ? numa_of(dir) : -1;
	g->numa_node = numa_of(gdir);
	rb_cuda_nearest(hca, g->hca_node, (const char *const *)&gpu, &g->numa_node, 1, g->relation,
			sizeof(g->relation), dir, sizeof(dir));
	free(hca);
	free(gpu);
}

int rb_cuda_choose(const char *want, const char *ibdev, struct rb_cuda_gpu *g)
{
	char gdir[PATH_MAX];
	int ret;

	memset(g, 0, sizeof(*g));
	ret = rb_cuda_open();
	if (!ret)
		ret = rb_cuda_count(&g->count);
	if (ret)
		return ret;
	if (want && want[0] && strcmp(want, "auto")) {
		ret = rb_cuda_index(want, &g->index);
		snprintf(g->why, sizeof(g->why), "--use-cuda %s", want);
	} else {
		ret = choose_near(ibdev, g);
	}
	if (!ret)
		ret = rb_cuda_bus_id(g->index, g->bus_id, sizeof(g->bus_id));
	if (ret)
		return ret;
	relate(ibdev, g);
	snprintf(gdir, sizeof(gdir), "/sys/bus/pci/devices/%s", g->bus_id);
	g->numa_node = numa_of(gdir);
	return 0;
}

/* @n hex digits at @s, then @end. */
static bool hex_then(const char *s, int n, char end)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return s[n] == end;
}

bool rb_cuda_word(const char *w)
{
	size_t l = strlen(w);

	if (l && l < 6 && strspn(w, "0123456789") == l)
		return true;
	if (l == 12 && hex_then(w, 4, ':'))
		w += 5;
	else if (l != 7)
		return false;
	return hex_then(w, 2, ':') && hex_then(w + 3, 2, '.') && w[6] >= '0' && w[6] <= '7' &&
	       !w[7];
}
