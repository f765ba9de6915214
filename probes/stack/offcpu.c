// SPDX-License-Identifier: GPL-2.0
/*
 * The offcpu entry: the time tasks spent blocked, summed by the kernel
 * stack they blocked in and the entry's keys, as offcputime -K shows it.
 * A task's voluntary switch out holds its stack's row and notes when; its
 * next switch in adds the time since to that row. Both ends are the one
 * tracepoint, sched_switch, so one typed probe does it all.
 */
#include <linux/sched.h>
#include <linux/mm_types.h>
#include <linux/sched/clock.h>
#include <trace/events/sched.h>

#include "stack.h"

/* A blocked task's words: when it switched out, and its row's handle. */
enum { OFFCPU_SINCE, OFFCPU_ROW };

/*
 * Voluntary as the kernel counts nvcsw: not preempted, and a sleeping
 * state set before schedule(). A dead task never comes back.
 */
static bool offcpu_blocks(bool preempt, unsigned int prev_state)
{
	return !preempt && prev_state != TASK_RUNNING &&
	       !(prev_state & TASK_DEAD);
}

/*
 * notrace, as tpstat_stack_probe(): the stack is walked from this
 * function's return, in __schedule(), on the task that blocks.
 */
static notrace void offcpu_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct stack_entry *e = tpstat_probe_priv(data);
	u64 now = local_clock(), since;
	struct tpstat_key key;
	struct tpstat_task *t;

	tpstat_probe_hit(data);
	/* prev is current: the keys and the stack are its own. */
	if (prev->pid && offcpu_blocks(preempt, prev_state)) {
		/* No words for it (the table full): counted as dropped. */
		t = tpstat_task(&e->tasks, prev);
		if (t) {
			tpstat_stack_key(e, &key);
			WRITE_ONCE(t->w[OFFCPU_ROW],
				   tpstat_stacks_hold(&e->stacks, data, &key,
						      e->by & STACK_BY_STACK));
			WRITE_ONCE(t->w[OFFCPU_SINCE], now);
		}
	}
	if (!next->pid)
		return;
	/*
	 * A task with no start was preempted, or blocked before the probe
	 * was attached, or found the table full (counted then).
	 */
	t = tpstat_task_find(&e->tasks, next);
	if (!t)
		return;
	since = READ_ONCE(t->w[OFFCPU_SINCE]);
	if (!since)
		return;
	WRITE_ONCE(t->w[OFFCPU_SINCE], 0);
	/* The clock of another CPU may be a little behind this one's. */
	tpstat_stacks_add_value(&e->stacks, READ_ONCE(t->w[OFFCPU_ROW]),
				now > since ? now - since : 0);
}

/* A row's keys in its stats lines, as the entry counts by them. */
#define OFFCPU_KEYS	"[.comm.{comm+}][.pid.{pid}][.tgid.{tgid}][.cpu.{cpu}]"

static const struct tpstat_metric offcpu_metrics[] = {
	TPSTAT_COUNTER_METRIC("events", "events", TPSTAT_METRIC_NONE,
			      "Waits the entry summed, its rows' and other's"),
	TPSTAT_COUNTER_METRIC("waited", "waited_seconds", TPSTAT_METRIC_NS,
			      "Time tasks waited blocked, its rows' and other's"),
	TPSTAT_GAUGE_METRIC("rows", "rows", TPSTAT_METRIC_NONE,
			    "Rows the entry holds: its stacks, or keys, since the reset"),
	TPSTAT_GAUGE_METRIC("capacity", "capacity", TPSTAT_METRIC_NONE,
			    "Rows the entry can hold (max_stacks)"),
	TPSTAT_COUNTER_METRIC("other", "other", TPSTAT_METRIC_NONE,
			      "Waits whose stack found no row, or whose row a reset dropped"),
	TPSTAT_COUNTER_METRIC("other.waited", "other_waited_seconds",
			      TPSTAT_METRIC_NS, "Time of the waits other counts"),
	TPSTAT_TASKS_METRICS("tasks"),
	/* Ranked as in the stacks file: a rank, not one stack. */
	TPSTAT_GAUGE_METRIC("row.stack{rank}" OFFCPU_KEYS,
			    "ranked_row_events", TPSTAT_METRIC_NONE,
			    "Waits of the row of this rank in the stacks file"),
	TPSTAT_GAUGE_METRIC("waited.stack{rank}" OFFCPU_KEYS,
			    "ranked_row_waited_seconds", TPSTAT_METRIC_NS,
			    "Time waited of the row of this rank in the stacks file"),
	TPSTAT_COUNTER_METRIC("row" OFFCPU_KEYS,
			      "row_events", TPSTAT_METRIC_NONE,
			      "Waits of a command, pid, tgid or CPU"),
	TPSTAT_COUNTER_METRIC("waited" OFFCPU_KEYS,
			      "row_waited_seconds", TPSTAT_METRIC_NS,
			      "Time waited of a command, pid, tgid or CPU"),
};

void tpstat_stack_offcpu_init(struct stack_entry *e)
{
	e->offcpu = true;
	e->probe = (struct tpstat_probe)TPSTAT_MODULE_PROBE(sched_switch,
							    offcpu_switch);
	e->probe.priv = e;
	e->tasks = (struct tpstat_tasks)TPSTAT_TASKS(STACK_OFFCPU_TASKS);
	e->data[1] = &e->tasks.data;
	e->set.nr_data = 2;
	e->set.metrics = offcpu_metrics;
	e->set.nr_metrics = ARRAY_SIZE(offcpu_metrics);
}
