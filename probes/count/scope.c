// SPDX-License-Identifier: GPL-2.0
/*
 * An instance's scope: every task, or a process and the tasks it forks
 * from then on, each followed from its fork (sched_process_fork) until it
 * is freed (sched_process_free), as ftrace's event-fork option follows
 * them. Not until its exit: when a thread other than the leader execs,
 * de_thread() waits for the leader to exit, then swaps their pids, so the
 * process goes on under its pid as the thread that exec'd, and the leader
 * is freed under the thread's old pid. Each pid's bit leaves with the
 * task that holds the pid last.
 *
 * The tasks are a bit per pid, for every pid the kernel can hand out
 * (PID_MAX_LIMIT: 512 KiB on 64-bit), so that a probe tests the task it
 * runs for with two loads and a bit test, and never looks anything up.
 */
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/overflow.h>
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
	struct count_scope_tasks *tasks = READ_ONCE(in->scope.tasks);

	if (READ_ONCE(in->counting[COUNT_SCOPE_FORK]))
		count_event(data, in);
	if (tasks && test_bit(parent->pid, tasks->pids) &&
	    !test_and_set_bit(child->pid, tasks->pids))
		atomic_inc(&tasks->nr);
}

/*
 * A task freed (an RCU callback, a grace period after its reaping, current
 * any task) counts, then leaves the scope with the pid it holds last.
 */
void count_scope_task_free(void *data, struct task_struct *p)
{
	struct count_instance *in = to_instance(tpstat_probe_set(data));
	struct count_scope_tasks *tasks = READ_ONCE(in->scope.tasks);

	if (READ_ONCE(in->counting[COUNT_SCOPE_FREE]))
		count_event(data, in);
	if (tasks && test_and_clear_bit(p->pid, tasks->pids))
		atomic_dec(&tasks->nr);
}

/* Tasks in scope now, 0 for every task; the set's lock is held. */
int count_scope_nr_tasks(struct count_instance *in)
{
	return in->scope.tasks ? atomic_read(&in->scope.tasks->nr) : 0;
}

/* The pids written that @scope lists: the first COUNT_SCOPE_ROOTS. */
static unsigned int count_scope_kept(const struct count_scope *scope)
{
	return min_t(unsigned int, scope->nr_roots, COUNT_SCOPE_ROOTS);
}

/* "PID PID..., N tasks": the pids written, then the tasks in scope now. */
int count_scope_show(struct seq_file *m, struct tpstat_set *set)
{
	struct count_instance *in = to_instance(set);
	struct count_scope *scope = &in->scope;
	unsigned int i, kept = count_scope_kept(scope);

	if (!scope->tasks) {
		seq_puts(m, "all\n");
		return 0;
	}
	for (i = 0; i < kept; i++)
		seq_printf(m, "%s%d", i ? " " : "", scope->roots[i]);
	if (scope->nr_roots > kept)
		seq_printf(m, " and %u more", scope->nr_roots - kept);
	seq_printf(m, ", %d tasks\n", count_scope_nr_tasks(in));
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

/*
 * Puts @tasks in force, @root's, and frees the old ones when unused: a
 * probe still in them meanwhile counts in them alone.
 */
static void count_scope_set(struct count_instance *in,
			    struct count_scope_tasks *tasks, pid_t root)
{
	struct count_scope_tasks *old;

	mutex_lock(&in->set.lock);
	old = in->scope.tasks;
	in->scope.roots[0] = root;
	in->scope.nr_roots = !!root;
	tpstat_data_publish(in->scope.tasks, tasks);
	if (old)
		tracepoint_synchronize_unregister();
	mutex_unlock(&in->set.lock);
	vfree(old);
}

/*
 * A task found alive before its bit was set is followed until it is freed;
 * one already released (its free may have run before the bit was set)
 * leaves at once, so that no pid stays in the scope for a later task.
 */
static void count_scope_add_task(struct count_scope_tasks *tasks,
				 struct task_struct *task)
{
	if (!test_and_set_bit(task->pid, tasks->pids))
		atomic_inc(&tasks->nr);
	if (!pid_alive(task) && test_and_clear_bit(task->pid, tasks->pids))
		atomic_dec(&tasks->nr);
}

/* A pid written again is listed once; past the kept ones, only counted. */
static void count_scope_add_root(struct count_scope *scope, pid_t nr)
{
	unsigned int i;

	for (i = 0; i < count_scope_kept(scope); i++)
		if (scope->roots[i] == nr)
			return;
	if (scope->nr_roots < COUNT_SCOPE_ROOTS)
		scope->roots[scope->nr_roots] = nr;
	scope->nr_roots++;
}

/*
 * "+PID" adds a task, and the tasks it forks from then on, to a scope of
 * pids: several processes in one scope, as set_event_pid's appends. With
 * every task in scope it starts a scope of its own, as a pid alone does.
 * False if there was no scope to add to.
 */
static bool count_scope_add(struct count_instance *in, struct task_struct *task,
			    pid_t nr)
{
	struct count_scope *scope = &in->scope;
	bool added = false;

	mutex_lock(&in->set.lock);
	if (scope->tasks) {
		count_scope_add_task(scope->tasks, task);
		count_scope_add_root(scope, nr);
		added = true;
	}
	mutex_unlock(&in->set.lock);
	return added;
}

/*
 * A pid (in the writer's namespace) puts its task and the tasks it forks
 * from then on in scope, and only them; "+PID" adds them to the scope;
 * "0" or an empty line puts every task in scope.
 */
int count_scope_write(struct tpstat_set *set, const struct tpstat_file *file,
		      char *line)
{
	struct count_instance *in = to_instance(set);
	struct count_scope_tasks *tasks;
	struct task_struct *task;
	bool add = *line == '+';
	int nr;

	if (!*line || !strcmp(line, "0")) {
		count_scope_set(in, NULL, 0);
		return 0;
	}
	if (add)
		line++;
	/* kstrtoint() takes a sign, which would be read as a second '+'. */
	if (!isdigit(*line) || kstrtoint(line, 10, &nr) || nr <= 0)
		return -EINVAL;
	task = count_scope_task(nr);
	if (!task)
		return -ESRCH;
	if (add && count_scope_add(in, task, nr)) {
		put_task_struct(task);
		return 0;
	}
	tasks = vzalloc(struct_size(tasks, pids, BITS_TO_LONGS(PID_MAX_LIMIT)));
	if (tasks) {
		set_bit(task->pid, tasks->pids);
		atomic_set(&tasks->nr, 1);
		count_scope_set(in, tasks, nr);
		/* Published: a free of the task from now on sees its bit. */
		mutex_lock(&in->set.lock);
		if (in->scope.tasks == tasks)
			count_scope_add_task(tasks, task);
		mutex_unlock(&in->set.lock);
	}
	put_task_struct(task);
	return tasks ? 0 : -ENOMEM;
}

/* Once the instance's probes are gone. */
void count_scope_free(struct count_instance *in)
{
	vfree(in->scope.tasks);
	in->scope.tasks = NULL;
}
