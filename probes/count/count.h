/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tpstat_count.ko: what its parts share. instance.c holds a counting
 * instance (its tracepoints, files and filter), scope.c the tasks an
 * instance counts, main.c the module: the count set, which is the default
 * instance, and the instances made under it.
 */
#ifndef _TPSTAT_COUNT_H
#define _TPSTAT_COUNT_H

#include <linux/list.h>
#include <linux/sched.h>
#include <tpstat/tpstat.h>

/* What a filter may test: the task and the CPU an event comes from. */
enum { COUNT_CPU, COUNT_PID, COUNT_TGID, COUNT_COMM, COUNT_COMM_HI, COUNT_SLOTS };

/* An instance's probes of its own, which follow its scope's tasks. */
enum { COUNT_SCOPE_FORK, COUNT_SCOPE_FREE, COUNT_SCOPE_PROBES };

/* The pids a scope file lists; beyond them it says how many more. */
#define COUNT_SCOPE_ROOTS	8

/**
 * struct count_scope_tasks - the tasks in a scope, and how many they are
 * @nr: bits set in @pids; a probe counts the bit it sets or clears here,
 *      in the same allocation, so that a probe still holding a scope
 *      being replaced changes that scope's count, never the new one's
 * @pids: a bit per pid in scope
 */
struct count_scope_tasks {
	atomic_t nr;
	unsigned long pids[];
};

/**
 * struct count_scope - the tasks an instance counts
 * @tasks: its tasks, NULL for every task; published as a filter's program
 *         is, freed once no probe can be reading it
 * @roots: the pids written to it, as written: the first that started it,
 *         then those added ("+PID"), the first %COUNT_SCOPE_ROOTS of them
 * @nr_roots: how many were written, kept or not
 */
struct count_scope {
	struct count_scope_tasks *tasks;
	pid_t roots[COUNT_SCOPE_ROOTS];
	unsigned int nr_roots;
};

/**
 * struct count_instance - a set counting tracepoints of its own
 * @set: its set: the count set, or one of the instances under it
 * @filter: its filter
 * @scope: its tasks; the count set's is every task
 * @probes: its scope's probes, none for the count set; each counts its
 *          tracepoint too while @counting says so, since a set has one
 *          probe per tracepoint
 * @counting: whether each of @probes is counting, by control
 * @nr_tracepoints: tracepoints it counts, of the max_tracepoints all
 *                  instances share
 * @data: its data, for @set
 * @files: its files, for @set: counts, control, filter, then the count
 *         set's instances or an instance's scope
 * @node: in the module's list of instances
 * @name: its name, for @set
 */
struct count_instance {
	struct tpstat_set set;
	struct tpstat_filter filter;
	struct count_scope scope;
	struct tpstat_probe probes[COUNT_SCOPE_PROBES];
	bool counting[COUNT_SCOPE_PROBES];
	atomic_t nr_tracepoints;
	struct tpstat_data *data[1];
	struct tpstat_file files[4];
	struct list_head node;
	char name[TPSTAT_NAME_MAX + 1];
};

extern unsigned int tpstat_count_max_tracepoints;

static inline struct count_instance *to_instance(struct tpstat_set *set)
{
	return container_of(set, struct count_instance, set);
}

/* instance.c */
bool count_filter_pass(struct count_instance *in,
		       const struct tpstat_filter_prog *prog);
void count_instance_init(struct count_instance *in, const char *name,
			 struct tpstat_set *parent);
int count_instance_add_list(struct count_instance *in, const char *list);
void count_instance_release(struct count_instance *in);

/*
 * Whether the task an event comes from is in @in's scope: one load of the
 * bitmap's pointer, one test of the task's bit.
 */
static __always_inline bool count_in_scope(const struct count_instance *in)
{
	const struct count_scope_tasks *tasks = READ_ONCE(in->scope.tasks);

	return !tasks || test_bit(current->pid, tasks->pids);
}

/*
 * One event of the probe @data: counted unless out of @in's scope or
 * rejected by its filter, whose fields are filled out of line, only when
 * there is one.
 */
static __always_inline void count_event(void *data, struct count_instance *in)
{
	const struct tpstat_filter_prog *prog;

	if (!count_in_scope(in))
		return;
	prog = tpstat_filter_prog(&in->filter);
	if (prog && !count_filter_pass(in, prog))
		return;
	tpstat_probe_hit(data);
}

/* scope.c */

void count_scope_fork(void *data, struct task_struct *parent,
		      struct task_struct *child);
void count_scope_task_free(void *data, struct task_struct *p);
int count_scope_nr_tasks(struct count_instance *in);
int count_scope_show(struct seq_file *m, struct tpstat_set *set);
int count_scope_write(struct tpstat_set *set, const struct tpstat_file *file,
		      char *line);
void count_scope_free(struct count_instance *in);

#endif /* _TPSTAT_COUNT_H */
