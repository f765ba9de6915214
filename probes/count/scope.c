// SPDX-License-Identifier: GPL-2.0
/*
 * An instance's scope: every task, or a process and the tasks it forks
 * from then on, each followed from its fork (sched_process_fork) to its
 * exit (sched_process_exit), as ftrace's event-fork option follows them.
 *
 * The tasks are a bit per pid, for every pid the kernel can hand out
 * (PID_MAX_LIMIT: 512 KiB on 64-bit), so that a probe tests the task it
 * runs for with two loads and a bit test, and never looks anything up.
 */
#include <linux/bitops.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "count.h"

/* A fork (the parent is current) is in scope if its parent is. */
void count_scope_fork(void *data, struct task_struct *parent,
		      struct task_struct *child)
{
	struct count_instance *in = to_instance(tpstat_probe_set(data));
	unsigned long *pids = READ_ONCE(in->scope.pids);

	if (READ_ONCE(in->counting[COUNT_SCOPE_FORK]))
		count_event(data, in);
	if (pids && test_bit(parent->pid, pids) &&
	    !test_and_set_bit(child->pid, pids))
		atomic_inc(&in->scope.tasks);
}

/* An exit counts, then the task leaves the scope. */
void count_scope_exit(void *data, struct task_struct *p)
{
	struct count_instance *in = to_instance(tpstat_probe_set(data));
	unsigned long *pids = READ_ONCE(in->scope.pids);

	if (READ_ONCE(in->counting[COUNT_SCOPE_EXIT]))
		count_event(data, in);
	if (pids && test_and_clear_bit(p->pid, pids))
		atomic_dec(&in->scope.tasks);
}

int count_scope_show(struct seq_file *m, struct tpstat_set *set)
{
	struct count_instance *in = to_instance(set);

	if (in->scope.pids)
		seq_printf(m, "%d, %d tasks\n", in->scope.root,
			   atomic_read(&in->scope.tasks));
	else
		seq_puts(m, "all\n");
	return 0;
}

/* The task of pid @nr in the writer's namespace, or NULL. */
static struct task_struct *count_scope_task(int nr)
{
	struct pid *pid = find_get_pid(nr);
	struct task_struct *task = get_pid_task(pid, PIDTYPE_PID);

	put_pid(pid);
	return task;
}

/* Puts @pids in force, @root's, and frees the old ones when unused. */
static void count_scope_set(struct count_instance *in, unsigned long *pids,
			    pid_t root)
{
	unsigned long *old;

	mutex_lock(&in->set.lock);
	old = in->scope.pids;
	in->scope.root = root;
	atomic_set(&in->scope.tasks, pids ? 1 : 0);
	tpstat_data_publish(in->scope.pids, pids);
	if (old)
		tracepoint_synchronize_unregister();
	mutex_unlock(&in->set.lock);
	vfree(old);
}

/*
 * A pid (in the writer's namespace) puts its task and the tasks it forks
 * from then on in scope, and only them; "0" or an empty line every task.
 */
int count_scope_write(struct tpstat_set *set, const struct tpstat_file *file,
		      char *line)
{
	struct count_instance *in = to_instance(set);
	struct task_struct *task;
	unsigned long *pids;
	int nr;

	if (!*line || !strcmp(line, "0")) {
		count_scope_set(in, NULL, 0);
		return 0;
	}
	if (kstrtoint(line, 10, &nr) || nr <= 0)
		return -EINVAL;
	task = count_scope_task(nr);
	if (!task)
		return -ESRCH;
	pids = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	if (pids) {
		set_bit(task->pid, pids);
		count_scope_set(in, pids, nr);
	}
	put_task_struct(task);
	return pids ? 0 : -ENOMEM;
}

/* Once the instance's probes are gone. */
void count_scope_free(struct count_instance *in)
{
	vfree(in->scope.pids);
	in->scope.pids = NULL;
}
