// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_count.ko: count any tracepoint by name, per CPU, with no prototype:
 * the cheap equivalent of perf stat -e. The count set counts every task;
 * instances made under it count their own tracepoints, each for a scope of
 * tasks of its own, apart from each other.
 *
 *   insmod tpstat_count.ko tracepoints=sched_switch,kmalloc
 *   echo irq_handler_entry > /sys/kernel/debug/tpstat/count/control
 *   echo '!kmalloc' > /sys/kernel/debug/tpstat/count/control
 *   echo 'comm == sh && cpu == 1' > /sys/kernel/debug/tpstat/count/filter
 *   cat /sys/kernel/debug/tpstat/count/counts
 *
 *   echo mine > /sys/kernel/debug/tpstat/count/instances
 *   echo sched_process_fork > /sys/kernel/debug/tpstat/count/mine/control
 *   echo $PID > /sys/kernel/debug/tpstat/count/mine/scope
 *   echo '!mine' > /sys/kernel/debug/tpstat/count/instances
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "count.h"

static char *tracepoints;
module_param(tracepoints, charp, 0400);
MODULE_PARM_DESC(tracepoints, "comma-separated tracepoints to count from load");

unsigned int tpstat_count_max_tracepoints = 256;
module_param_named(max_tracepoints, tpstat_count_max_tracepoints, uint, 0400);
MODULE_PARM_DESC(max_tracepoints, "most tracepoints counted at once, all instances together (1-4096, default 256)");

static unsigned int max_instances = 16;
module_param(max_instances, uint, 0400);
MODULE_PARM_DESC(max_instances, "most instances at once (0-1024, default 16)");

#define TPSTAT_COUNT_MAX_TRACEPOINTS	4096
#define TPSTAT_COUNT_MAX_INSTANCES	1024

static struct count_instance count_set;

/* Guards the instances; taken before any lock of the core's. */
static DEFINE_MUTEX(count_instances_lock);
/*
 * And their list's links, for instances' show, which runs under the core's
 * locks (a set's and CPU hotplug's) and so may not take the mutex above.
 */
static DEFINE_SPINLOCK(count_list_lock);
static LIST_HEAD(count_instances);
static unsigned int count_nr_instances;
/*
 * Set as the module goes, before the count set's directory is removed: a
 * write to instances making one in it then would wait on that removal,
 * which waits for the write.
 */
static bool count_instances_closed;

static struct count_instance *count_instance_find(const char *name)
{
	struct count_instance *in;

	list_for_each_entry(in, &count_instances, node)
		if (!strcmp(in->name, name))
			return in;
	return NULL;
}

static int count_instance_new(const char *name)
{
	struct count_instance *in;
	int err;

	if (!tpstat_name_valid(name))
		return -EINVAL;
	mutex_lock(&count_instances_lock);
	err = -ENODEV;
	if (count_instances_closed)
		goto unlock;
	err = -EEXIST;
	if (count_instance_find(name))
		goto unlock;
	err = -ENOSPC;
	if (count_nr_instances >= max_instances) {
		pr_warn("tpstat_count: already %u instances, max_instances\n",
			max_instances);
		goto unlock;
	}
	err = -ENOMEM;
	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in)
		goto unlock;
	count_instance_init(in, name, &count_set.set);
	err = tpstat_set_register(&in->set);
	if (err) {
		kfree(in);
		goto unlock;
	}
	spin_lock(&count_list_lock);
	list_add_tail(&in->node, &count_instances);
	spin_unlock(&count_list_lock);
	count_nr_instances++;
unlock:
	mutex_unlock(&count_instances_lock);
	return err;
}

/*
 * Its probes detached and its files gone, then all it held freed and its
 * tracepoints given back to max_tracepoints.
 */
static void count_instance_free(struct count_instance *in)
{
	spin_lock(&count_list_lock);
	list_del(&in->node);
	spin_unlock(&count_list_lock);
	count_nr_instances--;
	tpstat_set_unregister(&in->set);
	count_instance_release(in);
	count_scope_free(in);
	kfree(in);
}

static int count_instance_remove(const char *name)
{
	struct count_instance *in;
	int err = -ENOENT;

	if (!tpstat_name_valid(name))
		return -EINVAL;
	mutex_lock(&count_instances_lock);
	in = count_instance_find(name);
	if (in) {
		count_instance_free(in);
		err = 0;
	}
	mutex_unlock(&count_instances_lock);
	return err;
}

/* Removes every instance, and makes no more: the module is going. */
static void count_instances_close(void)
{
	struct count_instance *in, *next;

	mutex_lock(&count_instances_lock);
	count_instances_closed = true;
	list_for_each_entry_safe(in, next, &count_instances, node)
		count_instance_free(in);
	mutex_unlock(&count_instances_lock);
}

static int count_instances_show(struct seq_file *m, struct tpstat_set *set)
{
	struct count_instance *in;

	spin_lock(&count_list_lock);
	list_for_each_entry(in, &count_instances, node)
		seq_printf(m, "%s\n", in->name);
	spin_unlock(&count_list_lock);
	return 0;
}

/* "name" makes an instance, "!name" removes it and all it counted. */
static int count_instances_write(struct tpstat_set *set,
				 const struct tpstat_file *file, char *line)
{
	if (line[0] == '!')
		return count_instance_remove(line + 1);
	return count_instance_new(line);
}

static const struct tpstat_file count_instances_file = {
	.name = "instances", .show = count_instances_show,
	.write = count_instances_write, .no_header = true,
};

static int __init tpstat_count_init(void)
{
	int err;

	if (TPSTAT_UNTYPED_PROBES_TRAP) {
		pr_err("tpstat_count: this kernel has kCFI, which traps untyped probes\n");
		return -EOPNOTSUPP;
	}
	if (!tpstat_count_max_tracepoints ||
	    tpstat_count_max_tracepoints > TPSTAT_COUNT_MAX_TRACEPOINTS ||
	    max_instances > TPSTAT_COUNT_MAX_INSTANCES) {
		pr_err("tpstat_count: max_tracepoints must be 1 to %d, max_instances 0 to %d\n",
		       TPSTAT_COUNT_MAX_TRACEPOINTS, TPSTAT_COUNT_MAX_INSTANCES);
		return -EINVAL;
	}
	count_instance_init(&count_set, "count", NULL);
	count_set.files[3] = count_instances_file;
	err = tpstat_set_register(&count_set.set);
	if (err)
		return err;
	err = tracepoints ? count_instance_add_list(&count_set, tracepoints) : 0;
	if (err)
		tpstat_set_unregister(&count_set.set);
	return err;
}

static void __exit tpstat_count_exit(void)
{
	count_instances_close();
	tpstat_set_unregister(&count_set.set);
}

module_init(tpstat_count_init);
module_exit(tpstat_count_exit);

MODULE_DESCRIPTION("tpstat: count any tracepoint by name, for every task or for a process tree");
MODULE_LICENSE("GPL");
