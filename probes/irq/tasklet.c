// SPDX-License-Identifier: GPL-2.0
/*
 * Tasklets: the time from tasklet_entry to tasklet_exit, per function.
 */
#include <linux/sched/clock.h>

#include "irq.h"

/* Tasklets run one at a time in a softirq: only their probes touch this. */
struct tpstat_tasklet_cpu {
	const struct tasklet_struct *t;	/* compared, never dereferenced */
	u64 start;			/* 0: the entry was not seen */
};

struct tpstat_scratch tpstat_tasklet_scratch =
	TPSTAT_SCRATCH(struct tpstat_tasklet_cpu);
struct tpstat_keyed tpstat_tasklets = TPSTAT_KEYED_PER_CPU(64, "nsecs", 0);
struct tpstat_counter tpstat_tasklet_unpaired = TPSTAT_COUNTER();

void tpstat_irq_tasklet_entry(void *data, struct tasklet_struct *t, void *func)
{
	struct tpstat_tasklet_cpu *c;

	tpstat_probe_hit(data);
	c = tpstat_scratch_this_cpu(&tpstat_tasklet_scratch);
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
	c = tpstat_scratch_this_cpu(&tpstat_tasklet_scratch);
	if (!c->start || c->t != t) {
		tpstat_counter_inc(&tpstat_tasklet_unpaired);
		return;
	}
	tpstat_keyed_add_symbol(&tpstat_tasklets, func, now - c->start);
	c->start = 0;
}
