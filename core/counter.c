// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters: the probe side is inline in <tpstat/counter.h>.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include "internal.h"

static s64 tpstat_counter_bytes(void)
{
	return sizeof(u64) * num_possible_cpus();
}

int tpstat_counter_init(struct tpstat_counter *c)
{
	c->pcpu = alloc_percpu(u64);
	if (!c->pcpu)
		return -ENOMEM;
	tpstat_memory_account(TPSTAT_MEM_COUNTERS, tpstat_counter_bytes());
	return 0;
}
EXPORT_SYMBOL_GPL(tpstat_counter_init);

void tpstat_counter_destroy(struct tpstat_counter *c)
{
	if (c->pcpu)
		tpstat_memory_account(TPSTAT_MEM_COUNTERS, -tpstat_counter_bytes());
	free_percpu(c->pcpu);
	c->pcpu = NULL;
}
EXPORT_SYMBOL_GPL(tpstat_counter_destroy);

void tpstat_counter_reset(struct tpstat_counter *c)
{
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(*per_cpu_ptr(c->pcpu, cpu), 0);
}
EXPORT_SYMBOL_GPL(tpstat_counter_reset);

u64 tpstat_counter_sum(const struct tpstat_counter *c)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += tpstat_counter_cpu(c, cpu);
	return sum;
}
EXPORT_SYMBOL_GPL(tpstat_counter_sum);
