// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_irq.ko: hard IRQ handlers, softirqs and tasklets, from cat:
 *
 *   insmod tpstat_irq.ko [max_handlers=256] [max_tasklets=64]
 *   cat /sys/kernel/debug/tpstat/irq/{hardirq,softirq,tasklet}
 *   cat /sys/kernel/debug/tpstat/irq/{hardirq_hist,softirq_hist,softirq_latency}
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <trace/events/irq.h>

#include "irq.h"

/* More handlers or tasklet functions than any machine has. */
#define TPSTAT_IRQ_MAX_KEYS	4096

static unsigned int max_handlers = 256;
module_param(max_handlers, uint, 0400);
MODULE_PARM_DESC(max_handlers, "IRQ handlers tracked (1-4096, default 256)");

static unsigned int max_tasklets = 64;
module_param(max_tasklets, uint, 0400);
MODULE_PARM_DESC(max_tasklets, "tasklet functions tracked (1-4096, default 64)");

static struct tpstat_probe tpstat_irq_probes[] = {
	TPSTAT_PROBE(irq_handler_entry, tpstat_irq_handler_entry),
	TPSTAT_PROBE(irq_handler_exit, tpstat_irq_handler_exit),
	TPSTAT_PROBE(softirq_raise, tpstat_irq_softirq_raise),
	TPSTAT_PROBE(softirq_entry, tpstat_irq_softirq_entry),
	TPSTAT_PROBE(softirq_exit, tpstat_irq_softirq_exit),
	TPSTAT_PROBE(tasklet_entry, tpstat_irq_tasklet_entry),
	TPSTAT_PROBE(tasklet_exit, tpstat_irq_tasklet_exit),
};

static const struct tpstat_file tpstat_irq_files[] = {
	{ .name = "hardirq", .show = tpstat_irq_hardirq_show },
	{ .name = "hardirq_hist", .show = tpstat_irq_hardirq_hist_show },
	{ .name = "softirq", .show = tpstat_irq_softirq_show },
	{ .name = "softirq_hist", .show = tpstat_irq_softirq_hist_show },
	{ .name = "softirq_latency", .show = tpstat_irq_softirq_latency_show },
	{ .name = "tasklet", .show = tpstat_irq_tasklet_show },
};

static struct tpstat_data *const tpstat_irq_data[] = {
	&tpstat_hardirq_scratch.data,
	&tpstat_hardirq_handlers.data,
	&tpstat_hardirq_all.data,
	&tpstat_hardirq_unpaired.data,
	&tpstat_softirq_frames.data,
	&tpstat_softirq_raises.data,
	&tpstat_softirq_raised.data,
	&tpstat_softirq_runs.data,
	&tpstat_softirq_irq_ns.data,
	&tpstat_softirq_ns.data,
	&tpstat_softirq_latency.data,
	&tpstat_softirq_worst.data,
	&tpstat_softirq_unpaired.data,
	&tpstat_tasklet_scratch.data,
	&tpstat_tasklets.data,
	&tpstat_tasklet_unpaired.data,
};

static struct tpstat_set tpstat_irq_set = {
	.name = "irq",
	.probes = tpstat_irq_probes,
	.nr_probes = ARRAY_SIZE(tpstat_irq_probes),
	.files = tpstat_irq_files,
	.nr_files = ARRAY_SIZE(tpstat_irq_files),
	.data = tpstat_irq_data,
	.nr_data = ARRAY_SIZE(tpstat_irq_data),
	.stats = tpstat_irq_stats,
};

static bool tpstat_irq_keys_valid(unsigned int n)
{
	return n && n <= TPSTAT_IRQ_MAX_KEYS;
}

static int __init tpstat_irq_init(void)
{
	if (!tpstat_irq_keys_valid(max_handlers) ||
	    !tpstat_irq_keys_valid(max_tasklets)) {
		pr_err("tpstat_irq: max_handlers and max_tasklets must be 1 to %d\n",
		       TPSTAT_IRQ_MAX_KEYS);
		return -EINVAL;
	}
	tpstat_hardirq_handlers.capacity = max_handlers;
	tpstat_tasklets.capacity = max_tasklets;
	return tpstat_set_register(&tpstat_irq_set);
}

static void __exit tpstat_irq_exit(void)
{
	tpstat_set_unregister(&tpstat_irq_set);
}

module_init(tpstat_irq_init);
module_exit(tpstat_irq_exit);

MODULE_DESCRIPTION("tpstat: hard IRQ handlers, softirqs and tasklets");
MODULE_LICENSE("GPL");
