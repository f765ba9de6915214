// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches and wakeups: switches by kind, run-queue latency (a
 * wakeup, or a preemption, to the next switch-in), on-CPU time per slice
 * and off-CPU time (blocked until woken). Each task's state (queued or
 * blocked, and since when) is kept in the core's task table, since its
 * end often comes on another CPU; the idle task (pid 0, one per CPU) is
 * left out, as BCC's tools do.
 */
#include <linux/sched/clock.h>

#include "sched.h"

/*
 * The task this CPU switched in last, when, and its words: its slice so
 * far, and no second lookup when it switches out. Its words cannot go
 * while it runs: a task's are released when it is freed.
 */
struct tpstat_sched_cpu {
	u64 since;
	struct task_struct *curr;
	struct tpstat_task *task;
};

/* A task's words: its state, and a hint to its command's row. */
enum { SCHED_TASK_STATE, SCHED_TASK_COMM };

/* A state is a time and what the task has been doing since. */
enum { SCHED_RUNNING, SCHED_QUEUED, SCHED_BLOCKED };
#define SCHED_STATE(since, what)	((since) << 2 | (what))
#define SCHED_STATE_WHAT(state)		((state) & 3)
#define SCHED_STATE_SINCE(state)	((state) >> 2)

struct tpstat_scratch tpstat_sched_oncpu = TPSTAT_SCRATCH(struct tpstat_sched_cpu);
struct tpstat_counter tpstat_sched_switches = TPSTAT_COUNTERS(SCHED_SWITCH_KINDS);
/* The runqlat per CPU is its per-CPU parts: the CPU that ran the task. */
struct tpstat_keyed tpstat_sched_comms =
	TPSTAT_KEYED_HISTS(128, "nsecs", SCHED_COMM_HISTS, SCHED_COMM_COUNTERS);
struct tpstat_hist tpstat_sched_runqlat = TPSTAT_HIST("nsecs");
struct tpstat_hist tpstat_sched_cpudist = TPSTAT_HIST("nsecs");
struct tpstat_hist tpstat_sched_offcpu = TPSTAT_HIST("nsecs");
struct tpstat_worst tpstat_sched_runq_worst = TPSTAT_WORST();
struct tpstat_tasks tpstat_sched_tasks = TPSTAT_TASKS(8192);

/*
 * The scheduler's own clock, as its run_delay accounting uses it: a start
 * taken on one CPU is ended on another, whose clock may be a little
 * behind (sched_delta()).
 */
static u64 sched_now(void)
{
	return local_clock();
}

/* The time since @since, and 0 if the clock it came from ran ahead. */
static u64 sched_delta(u64 now, u64 since)
{
	return now > since ? now - since : 0;
}

/*
 * @p's command names its row. The comm is read without the task lock,
 * as every tracer reads it: a rename racing with the probe may cut it.
 */
static_assert(sizeof_field(struct task_struct, comm) == 16);

struct tpstat_key_ref tpstat_sched_comm_add(struct tpstat_keyed *k,
					    struct task_struct *p, u64 value)
{
	struct tpstat_key key = tpstat_key_comm(p->comm);

	return tpstat_keyed_add_key(k, &key, value, "%.*s", TASK_COMM_LEN,
				    p->comm);
}

/*
 * Histogram @hist of @p's command, found through the hint its words keep
 * (@t, NULL if @p has none).
 */
static __always_inline struct tpstat_key_ref
sched_comm_time(struct tpstat_task *t, struct task_struct *p, unsigned int hist,
		u64 ns)
{
	struct tpstat_key key = tpstat_key_comm(p->comm);

	return tpstat_keyed_add_hinted(&tpstat_sched_comms, &key,
				       t ? &t->w[SCHED_TASK_COMM] : NULL, hist,
				       ns, "%.*s", TASK_COMM_LEN, p->comm);
}

/*
 * A woken task was blocked since it switched out: that is off-CPU time.
 * One already queued (woken twice, or preempted) keeps its older start.
 */
void tpstat_sched_wakeup(void *data, struct task_struct *p)
{
	struct tpstat_task *t;
	u64 now, state;

	tpstat_probe_hit(data);
	if (!p->pid)
		return;
	t = tpstat_task(&tpstat_sched_tasks, p);
	if (!t)
		return;
	now = sched_now();
	state = READ_ONCE(t->w[SCHED_TASK_STATE]);
	if (SCHED_STATE_WHAT(state) == SCHED_QUEUED)
		return;
	if (SCHED_STATE_WHAT(state) == SCHED_BLOCKED) {
		u64 ns = sched_delta(now, SCHED_STATE_SINCE(state));

		tpstat_hist_add(&tpstat_sched_offcpu, ns);
		sched_comm_time(t, p, SCHED_COMM_OFF, ns);
	}
	WRITE_ONCE(t->w[SCHED_TASK_STATE], SCHED_STATE(now, SCHED_QUEUED));
}

void tpstat_sched_wakeup_new(void *data, struct task_struct *p)
{
	struct tpstat_task *t;

	tpstat_probe_hit(data);
	if (!p->pid)
		return;
	t = tpstat_task(&tpstat_sched_tasks, p);
	if (t)
		WRITE_ONCE(t->w[SCHED_TASK_STATE],
			   SCHED_STATE(sched_now(), SCHED_QUEUED));
}

/*
 * prev_state is what the task had set before calling schedule(): a switch
 * is voluntary when it was not preempted and had set a sleeping state, as
 * the kernel counts nvcsw.
 */
static void sched_switch_out(struct task_struct *prev, bool preempt,
			     unsigned int prev_state, u64 now,
			     struct tpstat_sched_cpu *cpu)
{
	bool voluntary = !preempt && prev_state != TASK_RUNNING;
	struct tpstat_task *t;
	struct tpstat_key_ref ref;
	u64 state = 0;

	tpstat_counter_inc_at(&tpstat_sched_switches,
			      voluntary ? SCHED_VOLUNTARY : SCHED_INVOLUNTARY);
	if (cpu->curr == prev && cpu->task)
		t = cpu->task;
	else
		t = tpstat_task(&tpstat_sched_tasks, prev);
	/* A slice that began before the probes were attached is unknown. */
	if (cpu->curr == prev && cpu->since) {
		tpstat_hist_add(&tpstat_sched_cpudist, now - cpu->since);
		ref = sched_comm_time(t, prev, SCHED_COMM_SLICE, now - cpu->since);
		if (!voluntary)
			tpstat_keyed_count(ref, SCHED_COMM_INVOLUNTARY);
	}
	if (!t)
		return;
	/*
	 * A preempted task stays on the run queue whatever state it had set
	 * (a full-preemption kernel preempts tasks about to sleep), as does
	 * one a wakeup or a signal already put back to running.
	 */
	if (preempt || READ_ONCE(prev->__state) == TASK_RUNNING)
		state = SCHED_STATE(now, SCHED_QUEUED);
	else if (!(prev_state & TASK_DEAD))
		state = SCHED_STATE(now, SCHED_BLOCKED);
	WRITE_ONCE(t->w[SCHED_TASK_STATE], state);
}

/* The words of @next, now running, for its switch-out. */
static struct tpstat_task *sched_switch_in(struct task_struct *next, u64 now)
{
	struct tpstat_task *t = tpstat_task(&tpstat_sched_tasks, next);
	u64 state, ns;

	if (!t)
		return NULL;
	state = READ_ONCE(t->w[SCHED_TASK_STATE]);
	WRITE_ONCE(t->w[SCHED_TASK_STATE], SCHED_STATE(now, SCHED_RUNNING));
	if (SCHED_STATE_WHAT(state) != SCHED_QUEUED)
		return t;
	ns = sched_delta(now, SCHED_STATE_SINCE(state));
	tpstat_hist_add(&tpstat_sched_runqlat, ns);
	sched_comm_time(t, next, SCHED_COMM_RUNQ, ns);
	tpstat_worst_add_named_at(&tpstat_sched_runq_worst, 0, ns, next->pid,
				  next->comm);
	return t;
}

void tpstat_sched_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct tpstat_sched_cpu *cpu = tpstat_scratch_this_cpu(&tpstat_sched_oncpu);
	u64 now = sched_now();

	tpstat_probe_hit(data);
	if (prev->pid)
		sched_switch_out(prev, preempt, prev_state, now, cpu);
	else
		tpstat_counter_inc_at(&tpstat_sched_switches, SCHED_FROM_IDLE);
	cpu->task = next->pid ? sched_switch_in(next, now) : NULL;
	cpu->curr = next;
	cpu->since = now;
}
