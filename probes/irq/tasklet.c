// SPDX-License-Identifier: GPL-2.0
/*
 * Tasklets: the time from tasklet_entry to tasklet_exit, per function.
 */
#include <linux/percpu.h>
#include <linux/sched/clock.h>

#include "irq.h"

/* Tasklets run one at a time in a softirq: only their probes touch this. */
struct tpstat_tasklet_cpu {
	unsigned int epoch;
	const struct tasklet_struct *t;	/* compared, never dereferenced */
	u64 start;			/* 0: the entry was not seen */
};

static struct tpstat_tasklet_cpu __percpu *tasklet_cpu;

struct tpstat_irq_named tpstat_tasklets;

static struct tpstat_tasklet_cpu *tasklet_this_cpu(void *data)
{
	struct tpstat_tasklet_cpu *c = this_cpu_ptr(tasklet_cpu);
	unsigned int epoch = tpstat_probe_epoch(data);

	if (unlikely(c->epoch != epoch)) {
		c->start = 0;
		c->epoch = epoch;
	}
	return c;
}

void tpstat_irq_tasklet_entry(void *data, struct tasklet_struct *t, void *func)
{
	struct tpstat_tasklet_cpu *c;

	tpstat_probe_hit(data);
	c = tasklet_this_cpu(data);
	c->t = t;
	c->start = local_clock();
}

/*
 * The key is the function's address; its name is resolved once, when the
 * key is first seen, while its module is surely loaded since the function
 * just ran. Resolving it when the file is read could meet an unloaded
 * module and print a bare address instead. A function of a module loaded
 * later at the very same address would inherit the name until a reset.
 */
void tpstat_irq_tasklet_exit(void *data, struct tasklet_struct *t, void *func)
{
	u64 now = local_clock();
	struct tpstat_tasklet_cpu *c;
	int id;

	tpstat_probe_hit(data);
	c = tasklet_this_cpu(data);
	if (!c->start || c->t != t) {
		tpstat_counter_inc(&tpstat_tasklets.unpaired);
		return;
	}
	id = tpstat_keys_id(&tpstat_tasklets.keys, (unsigned long)func, "%ps",
			    func);
	tpstat_irq_named_add(&tpstat_tasklets, data, id, now - c->start);
	c->start = 0;
}

void tpstat_tasklet_destroy(void)
{
	tpstat_irq_named_destroy(&tpstat_tasklets);
	free_percpu(tasklet_cpu);
	tasklet_cpu = NULL;
}

int tpstat_tasklet_init(unsigned int capacity)
{
	int err = tpstat_irq_named_init(&tpstat_tasklets, capacity);

	if (err)
		return err;
	tasklet_cpu = alloc_percpu(struct tpstat_tasklet_cpu);
	if (!tasklet_cpu) {
		tpstat_tasklet_destroy();
		return -ENOMEM;
	}
	return 0;
}

/* Probes are detached: the core calls the set's reset only then. */
void tpstat_tasklet_reset(void)
{
	int cpu;

	tpstat_irq_named_reset(&tpstat_tasklets);
	for_each_possible_cpu(cpu)
		per_cpu_ptr(tasklet_cpu, cpu)->start = 0;
}
