// SPDX-License-Identifier: MIT
/*
 * A device's interrupts and its CPUs' clocks, as topo shows them and
 * doctor judges them: the PCI function's MSI IRQs with the CPUs each may
 * run on, and the cpufreq governors of a set of CPUs.  Read from sysfs
 * and procfs under roots that tests replace.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"
#include "topo/topo_int.h"

static int cmp_irq(const void *a, const void *b)
{
	const struct rb_irq *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

int rb_dev_irqs(const char *sysroot, const char *procroot, const char *pci, struct rb_irqs *q)
{
	char dir[512], irqdir[512];
	struct dirent *de;
	DIR *dp;

	memset(q, 0, sizeof(*q));
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s/msi_irqs", sysroot, pci);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((de = readdir(dp)) && q->n < RB_MAX_IRQS) {
		struct rb_irq *e = &q->irq[q->n];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		e->num = atoi(de->d_name);
		snprintf(irqdir, sizeof(irqdir), "%s/irq/%.32s", procroot, de->d_name);
		if (rb_topo_read_attr(irqdir, "smp_affinity_list", e->cpus, sizeof(e->cpus)))
			e->cpus[0] = '\0';
		q->n++;
	}
	closedir(dp);
	qsort(q->irq, (size_t)q->n, sizeof(q->irq[0]), cmp_irq);
	return 0;
}

/* Count governor @gov once more in @g (the first RB_MAX_GOVS names). */
static void tally(struct rb_govs *g, const char *gov)
{
	int i;

	g->n++;
	for (i = 0; i < g->kinds; i++) {
		if (!strcmp(g->name[i], gov)) {
			g->count[i]++;
			return;
		}
	}
	if (g->kinds == RB_MAX_GOVS)
		return;
	snprintf(g->name[g->kinds], sizeof(g->name[0]), "%s", gov);
	g->count[g->kinds++] = 1;
}

void rb_cpus_governors(const char *sysroot, hwloc_const_bitmap_t cpus, struct rb_govs *g)
{
	char dir[512], gov[32];
	int cpu;

	memset(g, 0, sizeof(*g));
	hwloc_bitmap_foreach_begin(cpu, cpus)
	{
		snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d/cpufreq", sysroot, cpu);
		if (!rb_topo_read_attr(dir, "scaling_governor", gov, sizeof(gov)) && gov[0])
			tally(g, gov);
	}
	hwloc_bitmap_foreach_end();
}

void rb_govs_str(const struct rb_govs *g, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < g->kinds && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s x%d", i ? ", " : "", g->name[i],
					g->count[i]);
}
