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

struct tpstat_keyed tpstat_tasklets = TPSTAT_KEYED(64, "nsecs", 0);
struct tpstat_counter tpstat_tasklet_unpaired = TPSTAT_COUNTER();

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
 * The key is the function's address, named when first seen, while its
 * module is surely loaded since the function just ran (naming it when the
 * file is read could meet an unloaded module). A function of a module
 * loaded later at the very same address would inherit the name until a
 * reset.
 */
void tpstat_irq_tasklet_exit(void *data, struct tasklet_struct *t, void *func)
{
	u64 now = local_clock();
	struct tpstat_tasklet_cpu *c;

	tpstat_probe_hit(data);
	c = tasklet_this_cpu(data);
	if (!c->start || c->t != t) {
		tpstat_counter_inc(&tpstat_tasklet_unpaired);
		return;
	}
	tpstat_keyed_add_symbol(&tpstat_tasklets, func, now - c->start);
	c->start = 0;
}

void tpstat_tasklet_destroy(void)
{
	free_percpu(tasklet_cpu);
	tasklet_cpu = NULL;
}

int tpstat_tasklet_init(void)
{
	tasklet_cpu = alloc_percpu(struct tpstat_tasklet_cpu);
	return tasklet_cpu ? 0 : -ENOMEM;
}
