// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU and shared counters: the probe side is inline in
 * <tpstat/counter.h>.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

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

void tpstat_counter_print_named(struct seq_file *m,
				const struct tpstat_counter *c,
				const char *const *names, const char *prefix)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		seq_printf(m, "%s.%s %llu\n", prefix, names[i],
			   tpstat_counter_sum_at(c, i));
}

static struct tpstat_shared_counter *to_shared(const struct tpstat_data *d)
{
	return container_of(d, struct tpstat_shared_counter, data);
}

static int tpstat_shared_counter_check(const struct tpstat_data *d,
				       const char *set)
{
	unsigned int nr = to_shared(d)->nr;

	if (nr && nr <= TPSTAT_SHARED_COUNTERS_MAX)
		return 0;
	pr_err("tpstat: %s: shared counters number 1 to %u, not %u\n", set,
	       TPSTAT_SHARED_COUNTERS_MAX, nr);
	return -EINVAL;
}

static int tpstat_shared_counter_alloc(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_shared_counter *c = to_shared(d);

	c->gen[gen] = tpstat_kvmalloc(c->nr, sizeof(atomic64_t), GFP_KERNEL);
	return c->gen[gen] ? 0 : -ENOMEM;
}

static void tpstat_shared_counter_free(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_shared_counter *c = to_shared(d);

	kvfree(c->gen[gen]);
	c->gen[gen] = NULL;
}

static void tpstat_shared_counter_clear(struct tpstat_data *d, unsigned int gen)
{
	struct tpstat_shared_counter *c = to_shared(d);
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		atomic64_set(&c->gen[gen][i], 0);
}

static void tpstat_shared_counter_publish(struct tpstat_data *d,
					  unsigned int gen)
{
	struct tpstat_shared_counter *c = to_shared(d);

	tpstat_data_publish(c->live, c->gen[gen]);
}

static size_t tpstat_shared_counter_bytes(const struct tpstat_data *d)
{
	const struct tpstat_shared_counter *c = to_shared(d);

	return tpstat_kv_bytes(c->live, c->nr * sizeof(atomic64_t));
}

const struct tpstat_data_ops tpstat_shared_counter_ops = {
	.kind = TPSTAT_MEM_COUNTERS,
	.check = tpstat_shared_counter_check,
	.alloc = tpstat_shared_counter_alloc,
	.free = tpstat_shared_counter_free,
	.clear = tpstat_shared_counter_clear,
	.publish = tpstat_shared_counter_publish,
	.bytes = tpstat_shared_counter_bytes,
};
EXPORT_SYMBOL_GPL(tpstat_shared_counter_ops);
