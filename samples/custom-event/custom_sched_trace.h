/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace event of our own on the kernel's sched_switch tracepoint. It
 * keeps the two PIDs and whether the switch was a preemption: a third of
 * the room sched:sched_switch takes for each switch with its two command
 * names, priorities and state. TRACE_CUSTOM_EVENT() makes only the event
 * (record, assignment, output, tracefs files); the tracepoint is the
 * kernel's. Custom events all go under /sys/kernel/tracing/events/custom/,
 * named after their tracepoint.
 *
 * Like any trace header this one is read several times, by
 * define_custom_trace.h, each time with the macros redefined to produce
 * another piece of the event; TRACE_CUSTOM_MULTI_READ lets those reads
 * through the guard.
 */
#if !defined(_CUSTOM_SCHED_TRACE_H) || defined(TRACE_CUSTOM_MULTI_READ)
#define _CUSTOM_SCHED_TRACE_H

#include <linux/sched.h>
#include <linux/trace_events.h>

/*
 * The first argument names the tracepoint, and TP_PROTO and TP_ARGS must be
 * its own: the build checks the generated probe against the tracepoint's
 * prototype, which the .c file gets by including <trace/events/sched.h>
 * first. The rest is ours to choose, as in TRACE_EVENT().
 */
TRACE_CUSTOM_EVENT(sched_switch,

	TP_PROTO(bool preempt, struct task_struct *prev,
		 struct task_struct *next, unsigned int prev_state),

	TP_ARGS(preempt, prev, next, prev_state),

	TP_STRUCT__entry(
		__field(pid_t, prev_pid)
		__field(pid_t, next_pid)
		__field(bool, preempt)
	),

	TP_fast_assign(
		__entry->prev_pid = prev->pid;
		__entry->next_pid = next->pid;
		__entry->preempt = preempt;
	),

	TP_printk("prev_pid=%d next_pid=%d preempt=%d",
		  __entry->prev_pid, __entry->next_pid, __entry->preempt)
);

#endif /* _CUSTOM_SCHED_TRACE_H */

/*
 * Outside the guard, as in ../trace-events/sample_trace.h, and found the
 * same way: "." here, and this folder on the search path of the file that
 * defines CREATE_CUSTOM_TRACE_EVENTS (CFLAGS_custom.o := -I$(src)).
 */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE custom_sched_trace
#include <trace/define_custom_trace.h>
