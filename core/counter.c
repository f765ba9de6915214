// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters: the probe side is inline in <tpstat/counter.h>.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include <tpstat/counter.h>

int tpstat_counter_init(struct tpstat_counter *c)
{
	c->pcpu = alloc_percpu(u64);
	return c->pcpu ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_GPL(tpstat_counter_init);

void tpstat_counter_destroy(struct tpstat_counter *c)
{
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
