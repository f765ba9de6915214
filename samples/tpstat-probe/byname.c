// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sample_set.ko: the probes of ../raw-tracepoint/classic_probe.c,
 * attached the tpstat way: by name, through the core.
 *
 * The module uses no symbol of tpstat_sample_tp.ko, so it loads before or
 * after it, and that module may come and go underneath: until it loads, the
 * probes are "waiting" in /sys/kernel/debug/tpstat/probes; the core attaches
 * them when it arrives and detaches them when it leaves. The probes keep
 * their compile-time type check, since TPSTAT_MODULE_PROBE() checks them
 * against the header's prototype.
 *
 *   # cat /sys/kernel/debug/tpstat/sample/stats
 *   ...
 *   subsys_event_tp.hits 3
 *   subsys_eventb_tp.hits 30
 */
#include <linux/module.h>

#include <tpstat/tpstat.h>
#include "subsys_tp.h"

/*
 * The core passes the probe's own struct tpstat_probe as @data, which
 * tpstat_probe_hit() counts in per CPU.
 */
static void probe_subsys_event(void *data, struct inode *inode,
			       struct file *file)
{
	tpstat_probe_hit(data);
	pr_info_ratelimited("tpstat_sample_set: open of %pD\n", file);
}

static void probe_subsys_eventb(void *data, unsigned int nth)
{
	tpstat_probe_hit(data);
}

static struct tpstat_set byname_set = {
	.name = "sample",
	/*
	 * MODULE_PROBE: a module provides these tracepoints, so the probes
	 * wait for it rather than being reported missing from the kernel.
	 */
	TPSTAT_PROBES(TPSTAT_MODULE_PROBE(subsys_event_tp, probe_subsys_event),
		      TPSTAT_MODULE_PROBE(subsys_eventb_tp, probe_subsys_eventb)),
};

static int __init byname_init(void)
{
	return tpstat_set_register(&byname_set);
}

/* Detaches and waits for running probes, as classic_exit() does by hand. */
static void __exit byname_exit(void)
{
	tpstat_set_unregister(&byname_set);
}

module_init(byname_init);
module_exit(byname_exit);

MODULE_DESCRIPTION("tpstat sample: probing raw tracepoints by name through tpstat");
MODULE_LICENSE("GPL");
