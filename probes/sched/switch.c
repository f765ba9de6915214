// SPDX-License-Identifier: GPL-2.0
/*
 * Context switches and wakeups: switches by kind, run-queue latency (a
 * wakeup, or a preemption, to the next switch-in), on-CPU time per slice
 * and off-CPU time (blocked until woken). A task's start is kept under its
 * pid in a pairing map, since it often ends on another CPU; the idle task
 * (pid 0, one per CPU) is left out, as BCC's tools do.
 */
#include <linux/ktime.h>

#include "sched.h"

/* The task this CPU switched in last, and when: its slice so far. */
struct tpstat_sched_cpu {
	u64 since;
	pid_t pid;
};

struct tpstat_scratch tpstat_sched_oncpu = TPSTAT_SCRATCH(struct tpstat_sched_cpu);
struct tpstat_counter tpstat_sched_switches = TPSTAT_COUNTERS(SCHED_SWITCH_KINDS);
struct tpstat_keyed tpstat_sched_comm_cpu =
	TPSTAT_KEYED(256, "nsecs", SCHED_COMM_COUNTERS);
struct tpstat_keyed tpstat_sched_comm_runq = TPSTAT_KEYED(256, "nsecs", 0);
struct tpstat_keyed tpstat_sched_comm_off = TPSTAT_KEYED(256, "nsecs", 0);
struct tpstat_hist tpstat_sched_runqlat = TPSTAT_HIST("nsecs");
/* One per CPU, by the CPU that ran the task: nr_cpu_ids, set at load. */
struct tpstat_shared_hist tpstat_sched_runqlat_cpu = TPSTAT_SHARED_HISTS("nsecs", 0);
struct tpstat_hist tpstat_sched_cpudist = TPSTAT_HIST("nsecs");
struct tpstat_hist tpstat_sched_offcpu = TPSTAT_HIST("nsecs");
struct tpstat_worst tpstat_sched_runq_worst = TPSTAT_WORST();
/* A task runnable for 10 s, or blocked for 60 s, may make room for others. */
struct tpstat_pairs tpstat_sched_queued = TPSTAT_PAIRS(8192, 10 * NSEC_PER_SEC);
struct tpstat_pairs tpstat_sched_blocked = TPSTAT_PAIRS(8192, 60 * NSEC_PER_SEC);

/* One clock for starts and ends on different CPUs, safe in any context. */
static u64 sched_now(void)
{
	return ktime_get_mono_fast_ns();
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

static void sched_queue(struct task_struct *p, u64 now)
{
	struct tpstat_pair start = { .ts = now };

	tpstat_pairs_start(&tpstat_sched_queued, p->pid, &start);
}

/* A woken task was blocked since it switched out: that is off-CPU time. */
void tpstat_sched_wakeup(void *data, struct task_struct *p)
{
	struct tpstat_pair start;
	u64 now = sched_now();

	tpstat_probe_hit(data);
	if (!p->pid)
		return;
	sched_queue(p, now);
	if (tpstat_pairs_end(&tpstat_sched_blocked, p->pid, &start)) {
		tpstat_hist_add(&tpstat_sched_offcpu, now - start.ts);
		tpstat_sched_comm_add(&tpstat_sched_comm_off, p, now - start.ts);
	}
}

void tpstat_sched_wakeup_new(void *data, struct task_struct *p)
{
	tpstat_probe_hit(data);
	if (p->pid)
		sched_queue(p, sched_now());
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
	struct tpstat_pair start = { .ts = now };
	struct tpstat_key_ref ref;

	tpstat_counter_inc_at(&tpstat_sched_switches,
			      voluntary ? SCHED_VOLUNTARY : SCHED_INVOLUNTARY);
	/* A slice that began before the probes were attached is unknown. */
	if (cpu->pid == prev->pid && cpu->since) {
		tpstat_hist_add(&tpstat_sched_cpudist, now - cpu->since);
		ref = tpstat_sched_comm_add(&tpstat_sched_comm_cpu, prev,
					    now - cpu->since);
		tpstat_keyed_count(ref, voluntary ? SCHED_COMM_VOLUNTARY :
					SCHED_COMM_INVOLUNTARY);
	}
	/*
	 * A preempted task stays on the run queue whatever state it had set
	 * (a full-preemption kernel preempts tasks about to sleep), as does
	 * one a wakeup or a signal already put back to running.
	 */
	if (preempt || READ_ONCE(prev->__state) == TASK_RUNNING)
		tpstat_pairs_start(&tpstat_sched_queued, prev->pid, &start);
	else if (!(prev_state & TASK_DEAD))
		tpstat_pairs_start(&tpstat_sched_blocked, prev->pid, &start);
}

static void sched_switch_in(struct task_struct *next, u64 now)
{
	struct tpstat_pair start;
	u64 ns;

	if (!tpstat_pairs_end(&tpstat_sched_queued, next->pid, &start))
		return;
	ns = now - start.ts;
	tpstat_hist_add(&tpstat_sched_runqlat, ns);
	tpstat_shared_hist_add_at(&tpstat_sched_runqlat_cpu, smp_processor_id(),
				  ns);
	tpstat_sched_comm_add(&tpstat_sched_comm_runq, next, ns);
	tpstat_worst_add_named_at(&tpstat_sched_runq_worst, 0, ns, next->pid,
				  next->comm);
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
	if (next->pid)
		sched_switch_in(next, now);
	cpu->pid = next->pid;
	cpu->since = now;
}
