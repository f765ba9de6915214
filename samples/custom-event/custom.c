// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sample_custom.ko: a trimmed sched_switch event of our own, on the
 * kernel's tracepoint (see custom_sched_trace.h).
 *
 *   cat /sys/kernel/tracing/events/custom/sched_switch/format
 *   echo 1 > /sys/kernel/tracing/events/custom/sched_switch/enable
 *   cat /sys/kernel/tracing/trace
 *     sh-74  [001] d..2.  12.345678: sched_switch: prev_pid=74 next_pid=0 preempt=0
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/*
 * The kernel's header first, without CREATE_TRACE_POINTS: it declares the
 * tracepoint our event attaches to, and its prototype, which the build
 * checks ours against.
 */
#include <trace/events/sched.h>

/* Then ours, with the define that generates the event from it. */
#define CREATE_CUSTOM_TRACE_EVENTS
#include "custom_sched_trace.h"

/*
 * The kernel's tracepoints are not exported, so the event cannot refer to
 * sched_switch by symbol: it is found by name at load.
 * trace_custom_event_sched_switch_update(), made by TRACE_CUSTOM_EVENT(),
 * ties the event to the tracepoint it is handed if the names match.
 */
static void custom_find_tracepoint(struct tracepoint *tp, void *found)
{
	if (trace_custom_event_sched_switch_update(tp))
		*(bool *)found = true;
}

/*
 * tracefs registers the event when the module arrives, before this runs,
 * but no one can enable it until init returns and the module is live. If
 * the module goes while the event is enabled, tracefs turns the event off
 * and removes it: exit has nothing to undo.
 */
static int __init custom_init(void)
{
	bool found = false;

	for_each_kernel_tracepoint(custom_find_tracepoint, &found);
	if (!found) {
		pr_err("tpstat_sample_custom: this kernel has no sched_switch tracepoint\n");
		return -ENOENT;
	}
	return 0;
}

/* Empty, but without an exit function a module cannot be unloaded. */
static void __exit custom_exit(void)
{
}

module_init(custom_init);
module_exit(custom_exit);

MODULE_DESCRIPTION("tpstat sample: a custom event on the kernel's sched_switch tracepoint");
MODULE_LICENSE("GPL");
