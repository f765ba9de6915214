// SPDX-License-Identifier: GPL-2.0
/*
 * Process lifecycle: forks by the parent's command, execs by the command
 * after the exec, exits with the lifetime of what exits, and migrations
 * from CPU to CPU. Threads count as the kernel counts them: each clone is
 * a fork (/proc/stat "processes") and each thread's end an exit.
 */
#include <linux/binfmts.h>
#include <linux/ktime.h>

#include "sched.h"

struct tpstat_counter tpstat_sched_life = TPSTAT_COUNTERS(SCHED_LIFE_EVENTS);
/*
 * Per command: lifetimes of what exits in the histogram; forks, by the
 * parent's command, and execs, by the command after the exec, counted.
 */
struct tpstat_keyed tpstat_sched_life_comms =
	TPSTAT_KEYED(128, "nsecs", SCHED_LIFE_COUNTERS);
struct tpstat_hist tpstat_sched_lifetime = TPSTAT_HIST("nsecs");
/* nr_cpu_ids * nr_cpu_ids, set at load. */
struct tpstat_shared_counter tpstat_sched_migrations = TPSTAT_SHARED_COUNTERS(0);

/* Counts @c of @p's command. */
static void tpstat_sched_comm_count(struct task_struct *p, unsigned int c)
{
	struct tpstat_key key = tpstat_key_comm(p->comm);
	struct tpstat_key_ref ref;

	ref = tpstat_keyed_ref(&tpstat_sched_life_comms, &key, "%.*s",
			       TASK_COMM_LEN, p->comm);
	tpstat_keyed_count(ref, c);
}

void tpstat_sched_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_sched_life, SCHED_FORKS);
	tpstat_sched_comm_count(parent, SCHED_LIFE_FORKS);
}

void tpstat_sched_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_sched_life, SCHED_EXECS);
	tpstat_sched_comm_count(p, SCHED_LIFE_EXECS);
}

/* start_time is ktime_get_ns() at fork. */
void tpstat_sched_exit(void *data, struct task_struct *p)
{
	u64 lifetime = ktime_get_ns() - p->start_time;

	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_sched_life, SCHED_EXITS);
	tpstat_hist_add(&tpstat_sched_lifetime, lifetime);
	tpstat_sched_comm_add(&tpstat_sched_life_comms, p, lifetime);
}

void tpstat_sched_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	unsigned int from = task_cpu(p);

	tpstat_probe_hit(data);
	if (from < nr_cpu_ids && (unsigned int)dest_cpu < nr_cpu_ids)
		tpstat_shared_counter_inc_at(&tpstat_sched_migrations,
					     from * nr_cpu_ids + dest_cpu);
}
