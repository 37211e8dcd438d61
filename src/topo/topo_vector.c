// SPDX-License-Identifier: MIT
/*
 * Which completion vector a thread's or rail's CQ takes when -X/--vector
 * is not given (issue 40): one whose interrupt may run on the thread's
 * CPU, so that a wake-up lands where the thread waits, and different
 * threads on different vectors; else round robin.  Pure but for the
 * interrupts, which rb_dev_irqs() reads under roots tests replace.
 */
#include <stdio.h>
#include <string.h>
#include <hwloc.h>

#include "topo/topo.h"

/* Whether IRQ affinity list @cpus ("0-3,8") holds CPU @cpu. */
static bool irq_on(const char *cpus, int cpu)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	bool on = false;

	if (set && cpus[0] && !rb_cpus_parse(cpus, set))
		on = hwloc_bitmap_isset(set, (unsigned int)cpu);
	hwloc_bitmap_free(set);
	return on;
}

uint32_t rb_vector_pick(const struct rb_irqs *q, int nvec, int cpu, uint32_t index, char *why,
			size_t len)
{
	uint32_t near[RB_MAX_IRQS], nnear = 0, v;
	int first;

	if (nvec <= 1) {
		snprintf(why, len, "the device's only completion vector");
		return 0;
	}
	/* The function's last nvec MSI IRQs are its completion vectors, in
	 * order (mlx5: its async event queue's IRQ comes first). */
	first = q ? q->n - nvec : -1;
	for (v = 0; first >= 0 && cpu >= 0 && v < (uint32_t)nvec && v < RB_MAX_IRQS; v++)
		if (irq_on(q->irq[first + (int)v].cpus, cpu))
			near[nnear++] = v;
	if (nnear) {
		v = near[index % nnear];
		snprintf(why, len, "IRQ %d of vector %u may run on CPU %d (%u such of %d vectors)",
			 q->irq[first + (int)v].num, v, cpu, nnear, nvec);
		return v;
	}
	v = index % (uint32_t)nvec;
	snprintf(why, len, "round robin: thread or rail %u of %d vectors (%s)", index, nvec,
		 first < 0 ? "the vectors' IRQs are not known"
		 : cpu < 0 ? "the thread's CPU is unknown"
			   : "no vector's IRQ on its CPU");
	return v;
}
