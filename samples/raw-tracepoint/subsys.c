// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sample_tp.ko: the subsystem's side of a raw tracepoint. It defines
 * the tracepoints subsys_tp.h declares, exports them to probe modules, and
 * fires them whenever /proc/tpstat-sample is opened:
 *
 *   # cat /proc/tpstat-sample
 *   cat: can't open '/proc/tpstat-sample': Operation not permitted
 *
 * Each open fires subsys_event_tp once and subsys_eventb_tp ten times, then
 * fails with -EPERM on purpose: the file exists only to fire the
 * tracepoints, and a failed open leaves nothing behind to release.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>

#include "subsys_tp.h"

#define SUBSYS_PROC_NAME	"tpstat-sample"

/*
 * DEFINE_TRACE() makes the tracepoint itself: the struct tracepoint holding
 * its name and its list of probes, and the function that walks the list.
 * Like any global it is defined in one object file only. The prototype is
 * repeated here; should it differ from the header's, the build fails.
 */
DEFINE_TRACE(subsys_event_tp,
	     TP_PROTO(struct inode *inode, struct file *file),
	     TP_ARGS(inode, file));
DEFINE_TRACE(subsys_eventb_tp,
	     TP_PROTO(unsigned int nth),
	     TP_ARGS(nth));

/*
 * register_trace_subsys_event_tp() is an inline function the probe module
 * compiles into itself; it takes the address of __tracepoint_subsys_event_tp,
 * which lives here. The module loader resolves that address only if we
 * export it, and then makes every probe module depend on us: modprobe loads
 * this module first, and rmmod refuses to remove it while they are loaded.
 * GPL only, as tracepoints are kernel internals.
 */
EXPORT_TRACEPOINT_SYMBOL_GPL(subsys_event_tp);
EXPORT_TRACEPOINT_SYMBOL_GPL(subsys_eventb_tp);

static int subsys_proc_open(struct inode *inode, struct file *file)
{
	unsigned int nth;

	trace_subsys_event_tp(inode, file);
	for (nth = 0; nth < SUBSYS_EVENTB_PER_OPEN; nth++)
		trace_subsys_eventb_tp(nth);
	return -EPERM;
}

static const struct proc_ops subsys_proc_ops = {
	.proc_open = subsys_proc_open,
};

static int __init subsys_init(void)
{
	if (!proc_create(SUBSYS_PROC_NAME, 0400, NULL, &subsys_proc_ops))
		return -ENOMEM;
	return 0;
}

/*
 * remove_proc_entry() waits for opens in progress to return, so no
 * tracepoint of ours fires once it is done. Probes still registered on our
 * tracepoints need no care: a module that used register_trace_*() holds a
 * reference on us, so we cannot be unloaded under it, and tpstat detaches
 * its probes when it is told that we are going.
 */
static void __exit subsys_exit(void)
{
	remove_proc_entry(SUBSYS_PROC_NAME, NULL);
}

module_init(subsys_init);
module_exit(subsys_exit);

MODULE_DESCRIPTION("tpstat sample: defining raw tracepoints and firing them from /proc");
MODULE_LICENSE("GPL");
