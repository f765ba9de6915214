// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters: the probe side is inline in <tpstat/counter.h>.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include "internal.h"

TPSTAT_PERCPU_OPS(tpstat_counter, u64, TPSTAT_MEM_COUNTERS, NULL);

u64 tpstat_counter_sum_at(const struct tpstat_counter *c, unsigned int i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += tpstat_counter_cpu_at(c, cpu, i);
	return sum;
}
EXPORT_SYMBOL_GPL(tpstat_counter_sum_at);
