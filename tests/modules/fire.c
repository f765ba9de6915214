// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_tp.ko: defines the tpstat_test_fire and tpstat_test_pair
 * events and fires them on request, so tests check counts exactly.
 *
 *   echo N > /sys/kernel/debug/tpstat_test/fire
 *
 * fires tpstat_test_fire N times with the values 0 to N-1, on the writer's
 * CPU.
 *
 *   echo 'start FIRST N' > /sys/kernel/debug/tpstat_test/pair
 *   echo 'end FIRST N' > /sys/kernel/debug/tpstat_test/pair
 *
 * fire tpstat_test_pair for the keys FIRST to FIRST+N-1, as starts or
 * ends, on the writer's CPU; "hstart" and "hend" do the same in hard IRQ
 * context, from an irq_work on that CPU.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "tpstat_test_trace.h"

#define TPSTAT_TEST_FIRE_MAX	100000000ULL
#define TPSTAT_TEST_PAIR_MAX	1000000ULL

static struct dentry *tpstat_test_dir;

static ssize_t tpstat_test_fire_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	u64 n, i;
	int err;

	err = kstrtou64_from_user(ubuf, count, 10, &n);
	if (err)
		return err;
	if (n > TPSTAT_TEST_FIRE_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		trace_tpstat_test_fire(i);
		if (!(i & 0xffff))
			cond_resched();
	}
	return count;
}

static const struct file_operations tpstat_test_fire_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_fire_write,
};

/* One request at a time: the irq_work reads it. */
static DEFINE_MUTEX(pair_lock);
static DECLARE_COMPLETION(pair_done);
static u64 pair_first, pair_n;
static int pair_end;

static void tpstat_test_pair_fire(void)
{
	u64 i;

	for (i = 0; i < pair_n; i++)
		trace_tpstat_test_pair(pair_first + i, pair_end);
}

/* Runs in hard IRQ context, from the CPU's irq_work interrupt. */
static void tpstat_test_pair_irq(struct irq_work *work)
{
	tpstat_test_pair_fire();
	complete(&pair_done);
}

static DEFINE_IRQ_WORK(pair_work, tpstat_test_pair_irq);

static ssize_t tpstat_test_pair_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char buf[64], op[8];
	u64 first, n;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%7s %llu %llu", op, &first, &n) != 3 ||
	    n > TPSTAT_TEST_PAIR_MAX)
		return -EINVAL;

	mutex_lock(&pair_lock);
	pair_first = first;
	pair_n = n;
	if (!strcmp(op, "start") || !strcmp(op, "end")) {
		pair_end = op[0] == 'e';
		tpstat_test_pair_fire();
	} else if (!strcmp(op, "hstart") || !strcmp(op, "hend")) {
		pair_end = op[1] == 'e';
		reinit_completion(&pair_done);
		/* Pinned, so the irq_work runs on the writer's CPU. */
		preempt_disable();
		irq_work_queue(&pair_work);
		preempt_enable();
		wait_for_completion(&pair_done);
	} else {
		count = -EINVAL;
	}
	mutex_unlock(&pair_lock);
	return count;
}

static const struct file_operations tpstat_test_pair_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_pair_write,
};

static int __init tpstat_test_tp_init(void)
{
	tpstat_test_dir = debugfs_create_dir("tpstat_test", NULL);
	debugfs_create_file("fire", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_fire_fops);
	debugfs_create_file("pair", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_pair_fops);
	return 0;
}

static void __exit tpstat_test_tp_exit(void)
{
	debugfs_remove(tpstat_test_dir);
	irq_work_sync(&pair_work);
}

module_init(tpstat_test_tp_init);
module_exit(tpstat_test_tp_exit);

MODULE_DESCRIPTION("tpstat tests: trace events fired on request");
MODULE_LICENSE("GPL");
