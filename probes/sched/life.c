// SPDX-License-Identifier: GPL-2.0
/*
 * Process lifecycle: forks by the command of the task that made them,
 * execs by the command after the exec, exits with the lifetime of what
 * exits, and migrations from CPU to CPU. Threads count as the kernel
 * counts them: each new task is a fork (/proc/stat "processes") and each
 * thread's end an exit.
 */
#include <linux/binfmts.h>
#include <linux/ktime.h>

#include "sched.h"

struct tpstat_counter tpstat_sched_life = TPSTAT_COUNTERS(SCHED_LIFE_EVENTS);
/*
 * Per command: lifetimes of what exits in the histogram; forks, by the
 * command of the task that made them, and execs, by the command after
 * the exec, counted.
 */
struct tpstat_keyed tpstat_sched_life_comms =
	TPSTAT_KEYED(128, "nsecs", SCHED_LIFE_COUNTERS);
struct tpstat_hist tpstat_sched_lifetime = TPSTAT_HIST("nsecs");
/*
 * Migrations, in one of two forms chosen at load. When every pair of
 * CPUs fits in max_migration_pairs, a matrix of nr_cpu_ids^2 counters, 8
 * bytes a pair. Else a table with a row for each of the first
 * max_migration_pairs pairs seen since the reset, about 650 bytes each,
 * and "other" for the moves of the rest: memory bounded by the parameter
 * whatever nr_cpu_ids is. A row's histogram stays empty: a move is one
 * atomic add either way.
 */
bool tpstat_sched_migration_matrix __read_mostly;
struct tpstat_shared_counter tpstat_sched_migrations = TPSTAT_SHARED_COUNTERS(0);
struct tpstat_keyed tpstat_sched_migration_pairs = TPSTAT_KEYED(0, NULL, 1);

/* Counts @c of @p's command. */
static void tpstat_sched_comm_count(struct task_struct *p, unsigned int c)
{
	struct tpstat_key key = tpstat_key_comm(p->comm);
	struct tpstat_key_ref ref;

	ref = tpstat_keyed_ref(&tpstat_sched_life_comms, &key, "%.*s",
			       TASK_COMM_LEN, p->comm);
	tpstat_keyed_count(ref, c);
}

/*
 * copy_process() fires task_newtask for every task it makes, right after
 * counting it in /proc/stat "processes" and past its last failure:
 * fork(), clone() and kernel threads, which also pass sched_process_fork,
 * and io_uring's and vhost's workers (create_io_thread() and, from 6.4,
 * vhost_task_create()), which do not. The task that made it is current.
 */
void tpstat_sched_newtask(void *data, struct task_struct *task,
			  unsigned long clone_flags)
{
	tpstat_probe_hit(data);
	tpstat_counter_inc_at(&tpstat_sched_life, SCHED_FORKS);
	tpstat_sched_comm_count(current, SCHED_LIFE_FORKS);
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

/* A pair with a row in the table is found inline. */
void tpstat_sched_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	unsigned int from = task_cpu(p);
	struct tpstat_key_ref ref;
	struct tpstat_key key;

	tpstat_probe_hit(data);
	if (tpstat_sched_migration_matrix) {
		if (from < nr_cpu_ids && (unsigned int)dest_cpu < nr_cpu_ids)
			tpstat_shared_counter_inc_at(&tpstat_sched_migrations,
						     from * nr_cpu_ids + dest_cpu);
		return;
	}
	key = tpstat_key_pair(from, dest_cpu);
	ref = tpstat_keyed_ref(&tpstat_sched_migration_pairs, &key, "cpu%u.cpu%d",
			       from, dest_cpu);
	tpstat_keyed_count(ref, 0);
}
