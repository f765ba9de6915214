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

static const struct tpstat_metric tpstat_irq_metrics[] = {
	TPSTAT_GAUGE_METRIC("hardirq.keys", "hardirq_keys", TPSTAT_METRIC_NONE,
			    "Handlers with a row"),
	TPSTAT_GAUGE_METRIC("hardirq.capacity", "hardirq_capacity",
			    TPSTAT_METRIC_NONE,
			    "Handler rows the set has (max_handlers)"),
	TPSTAT_COUNTER_METRIC("hardirq.other", "hardirq_other",
			      TPSTAT_METRIC_NONE,
			      "Handler calls of handlers beyond max_handlers"),
	TPSTAT_COUNTER_METRIC("hardirq.unpaired", "hardirq_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Handler exits whose entry was not seen"),
	TPSTAT_HIST_METRIC("hardirq.all.ns", "hardirq_all_seconds",
			   TPSTAT_METRIC_NS,
			   "Time in hard IRQ handlers, all handlers"),
	TPSTAT_COUNTER_METRIC("hardirq.{irq}.{handler+}.handled",
			      "hardirq_handled",
			      TPSTAT_METRIC_NONE,
			      "Handler calls that did not return IRQ_NONE"),
	TPSTAT_COUNTER_METRIC("hardirq.{irq}.{handler+}.count", "hardirq_count",
			      TPSTAT_METRIC_NONE,
			      "Handler calls"),
	TPSTAT_COUNTER_METRIC("hardirq.{irq}.{handler+}.cpu{cpu}",
			      "hardirq_cpu",
			      TPSTAT_METRIC_NONE,
			      "Handler calls on one CPU"),
	TPSTAT_HIST_METRIC("hardirq.{irq}.{handler+}.ns", "hardirq_seconds",
			   TPSTAT_METRIC_NS,
			   "Time in one handler"),
	TPSTAT_COUNTER_METRIC("softirq.unpaired", "softirq_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Softirq exits whose entry was not seen"),
	TPSTAT_COUNTER_METRIC("softirq.{vector}.raised", "softirq_raised",
			      TPSTAT_METRIC_NONE,
			      "Raises of a softirq vector"),
	TPSTAT_COUNTER_METRIC("softirq.{vector}.run", "softirq_run",
			      TPSTAT_METRIC_NONE,
			      "Runs of a softirq vector, as /proc/softirqs counts them"),
	TPSTAT_COUNTER_METRIC("softirq.{vector}.cpu{cpu}", "softirq_cpu",
			      TPSTAT_METRIC_NONE,
			      "Runs of a softirq vector on one CPU"),
	TPSTAT_COUNTER_METRIC("softirq.{vector}.irq_ns", "softirq_irq_seconds",
			      TPSTAT_METRIC_NS,
			      "Time of hard IRQ handlers that interrupted the vector's runs"),
	TPSTAT_HIST_METRIC("softirq.{vector}.ns", "softirq_seconds",
			   TPSTAT_METRIC_NS,
			   "Run time of a softirq vector"),
	TPSTAT_HIST_METRIC("softirq.{vector}.latency",
			   "softirq_latency_seconds",
			   TPSTAT_METRIC_NS,
			   "Time from a raise to the run that served it"),
	TPSTAT_GAUGE_METRIC("softirq.{vector}.latency.worst_cpu",
			    "softirq_latency_worst_cpu",
			    TPSTAT_METRIC_NONE,
			    "The CPU of the longest raise-to-run latency"),
	TPSTAT_GAUGE_METRIC("softirq.{vector}.latency.worst_after_reset_ns",
			    "softirq_latency_worst_after_reset_seconds",
			    TPSTAT_METRIC_NS,
			    "When the longest raise-to-run latency was seen, after the reset"),
	TPSTAT_GAUGE_METRIC("tasklet.keys", "tasklet_keys", TPSTAT_METRIC_NONE,
			    "Tasklet functions with a row"),
	TPSTAT_GAUGE_METRIC("tasklet.capacity", "tasklet_capacity",
			    TPSTAT_METRIC_NONE,
			    "Tasklet rows the set has (max_tasklets)"),
	TPSTAT_COUNTER_METRIC("tasklet.other", "tasklet_other",
			      TPSTAT_METRIC_NONE,
			      "Runs of tasklet functions beyond max_tasklets"),
	TPSTAT_COUNTER_METRIC("tasklet.unpaired", "tasklet_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Tasklet exits whose entry was not seen"),
	TPSTAT_COUNTER_METRIC("tasklet.{function+}.count", "tasklet_count",
			      TPSTAT_METRIC_NONE,
			      "Runs of a tasklet function"),
	TPSTAT_COUNTER_METRIC("tasklet.{function+}.cpu{cpu}", "tasklet_cpu",
			      TPSTAT_METRIC_NONE,
			      "Runs of a tasklet function on one CPU"),
	TPSTAT_HIST_METRIC("tasklet.{function+}.ns", "tasklet_seconds",
			   TPSTAT_METRIC_NS,
			   "Run time of a tasklet function"),
};

static struct tpstat_set tpstat_irq_set = {
	.name = "irq",
	TPSTAT_PROBES(TPSTAT_PROBE(irq_handler_entry, tpstat_irq_handler_entry),
		      TPSTAT_PROBE(irq_handler_exit, tpstat_irq_handler_exit),
		      TPSTAT_PROBE(softirq_raise, tpstat_irq_softirq_raise),
		      TPSTAT_PROBE(softirq_entry, tpstat_irq_softirq_entry),
		      TPSTAT_PROBE(softirq_exit, tpstat_irq_softirq_exit),
		      TPSTAT_PROBE(tasklet_entry, tpstat_irq_tasklet_entry),
		      TPSTAT_PROBE(tasklet_exit, tpstat_irq_tasklet_exit)),
	TPSTAT_FILES({ .name = "hardirq", .show = tpstat_irq_hardirq_show },
		     { .name = "hardirq_hist", .show = tpstat_irq_hardirq_hist_show },
		     { .name = "softirq", .show = tpstat_irq_softirq_show },
		     { .name = "softirq_hist", .show = tpstat_irq_softirq_hist_show },
		     { .name = "softirq_latency", .show = tpstat_irq_softirq_latency_show },
		     { .name = "tasklet", .show = tpstat_irq_tasklet_show }),
	TPSTAT_DATA(&tpstat_hardirq_scratch.data,
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
		    &tpstat_tasklet_unpaired.data),
	.stats = tpstat_irq_stats,
	.metrics = tpstat_irq_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_irq_metrics),
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
