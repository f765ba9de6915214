// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters: the probe side is inline in <tpstat/counter.h>.
 */
#include <linux/module.h>
#include <linux/percpu.h>

#include "internal.h"

static struct tpstat_counter *to_counter(struct tpstat_data *d)
{
	return container_of(d, struct tpstat_counter, data);
}

static unsigned int tpstat_counter_nr(const struct tpstat_counter *c)
{
	return c->nr ?: 1;
}

static int tpstat_counter_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_counter *c = to_counter(d);

	c->gen[gen] = __alloc_percpu(tpstat_counter_nr(c) * sizeof(u64),
				     sizeof(u64));
	return c->gen[gen] ? 0 : -ENOMEM;
}

static void tpstat_counter_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_counter *c = to_counter(d);

	free_percpu(c->gen[gen]);
	c->gen[gen] = NULL;
}

static void tpstat_counter_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_counter *c = to_counter(d);
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(c->gen[gen], cpu), 0,
		       tpstat_counter_nr(c) * sizeof(u64));
}

static void tpstat_counter_publish(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_counter *c = to_counter(d);

	tpstat_data_publish(c->pcpu, c->gen[gen]);
}

static size_t tpstat_counter_bytes(const struct tpstat_data *d)
{
	const struct tpstat_counter *c = container_of(d, struct tpstat_counter,
						      data);

	return (size_t)tpstat_counter_nr(c) * sizeof(u64) * num_possible_cpus();
}

const struct tpstat_data_ops tpstat_counter_ops = {
	.kind = TPSTAT_MEM_COUNTERS,
	.alloc = tpstat_counter_alloc,
	.free = tpstat_counter_free,
	.clear = tpstat_counter_clear,
	.publish = tpstat_counter_publish,
	.bytes = tpstat_counter_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_counter_ops);

u64 tpstat_counter_sum_at(const struct tpstat_counter *c, unsigned int i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += tpstat_counter_cpu_at(c, cpu, i);
	return sum;
}
EXPORT_SYMBOL_GPL(tpstat_counter_sum_at);
