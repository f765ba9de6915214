// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sample_tasklet.ko: names every tasklet that runs, with how long it
 * took, at most ten lines in five seconds:
 *
 *   tpstat_sample_tasklet: tasklet some_driver_tasklet [some_driver] ran 1834 ns on cpu1
 *   tpstat_sample_tasklet: saw 42 tasklet runs
 *
 * It probes irq:tasklet_entry and irq:tasklet_exit, two events of the
 * kernel itself. Such tracepoints are exported to modules only where some
 * in-tree module needs them, and these are not, so register_trace_*() would
 * fail to link. Instead we find them by name among the kernel's tracepoints
 * and register with tracepoint_probe_register(), which takes an untyped
 * function: the check_trace_callback_type_*() calls below restore the
 * compile-time check of the probes' prototypes.
 */
#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/*
 * Without CREATE_TRACE_POINTS the kernel's header only declares its
 * tracepoints, which gives us their prototypes. It names struct
 * tasklet_struct without defining it: <linux/interrupt.h> does.
 */
#include <trace/events/irq.h>

/*
 * When the tasklet running on this CPU started, or 0 if we did not see it
 * start (it began before we attached). Tasklets do not nest on a CPU.
 */
static DEFINE_PER_CPU(u64, tasklet_started_ns);
static atomic_long_t tasklet_runs = ATOMIC_LONG_INIT(0);

static struct tracepoint *tp_entry;
static struct tracepoint *tp_exit;

/* Tasklets run in softirq context: no sleeping, no locks a probe can wait on. */
static void probe_tasklet_entry(void *data, struct tasklet_struct *t, void *func)
{
	atomic_long_inc(&tasklet_runs);
	this_cpu_write(tasklet_started_ns, local_clock());
}

/*
 * @func is passed by value, so it is safe to print; @t is not dereferenced,
 * since a tasklet may have freed itself by the time it returns.
 * %ps prints a function's name, never its address.
 */
static void probe_tasklet_exit(void *data, struct tasklet_struct *t, void *func)
{
	u64 started = this_cpu_read(tasklet_started_ns);

	if (!started)
		return;
	this_cpu_write(tasklet_started_ns, 0);
	pr_info_ratelimited("tpstat_sample_tasklet: tasklet %ps ran %llu ns on cpu%d\n",
			    func, local_clock() - started, smp_processor_id());
}

static void find_tasklet_tracepoints(struct tracepoint *tp, void *unused)
{
	if (!strcmp(tp->name, "tasklet_entry"))
		tp_entry = tp;
	else if (!strcmp(tp->name, "tasklet_exit"))
		tp_exit = tp;
}

static int __init tasklet_probe_init(void)
{
	int err;

	/* Compiled, never run: fails the build if a prototype is wrong. */
	check_trace_callback_type_tasklet_entry(probe_tasklet_entry);
	check_trace_callback_type_tasklet_exit(probe_tasklet_exit);

	for_each_kernel_tracepoint(find_tasklet_tracepoints, NULL);
	if (!tp_entry || !tp_exit) {
		pr_err("tpstat_sample_tasklet: this kernel has no tasklet_entry/tasklet_exit\n");
		return -ENOENT;
	}

	err = tracepoint_probe_register(tp_entry, (void *)probe_tasklet_entry, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(tp_exit, (void *)probe_tasklet_exit, NULL);
	if (err) {
		tracepoint_probe_unregister(tp_entry, (void *)probe_tasklet_entry, NULL);
		/* The module is freed once we return: wait as in exit. */
		tracepoint_synchronize_unregister();
	}
	return err;
}

/* As in ../raw-tracepoint/classic_probe.c: detach, wait, then leave. */
static void __exit tasklet_probe_exit(void)
{
	tracepoint_probe_unregister(tp_exit, (void *)probe_tasklet_exit, NULL);
	tracepoint_probe_unregister(tp_entry, (void *)probe_tasklet_entry, NULL);
	tracepoint_synchronize_unregister();

	pr_info("tpstat_sample_tasklet: saw %ld tasklet runs\n",
		atomic_long_read(&tasklet_runs));
}

module_init(tasklet_probe_init);
module_exit(tasklet_probe_exit);

MODULE_DESCRIPTION("tpstat sample: naming every tasklet that runs, from irq:tasklet_entry/exit");
MODULE_LICENSE("GPL");
