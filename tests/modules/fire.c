// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_tp.ko: defines the tpstat_test_fire event and fires it on
 * request, so tests check counts exactly.
 *
 *   echo N > /sys/kernel/debug/tpstat_test/fire
 *
 * fires it N times with the values 0 to N-1, on the writer's CPU.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>

#define CREATE_TRACE_POINTS
#include "tpstat_test_trace.h"

#define TPSTAT_TEST_FIRE_MAX	100000000ULL

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

static int __init tpstat_test_tp_init(void)
{
	tpstat_test_dir = debugfs_create_dir("tpstat_test", NULL);
	debugfs_create_file("fire", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_fire_fops);
	return 0;
}

static void __exit tpstat_test_tp_exit(void)
{
	debugfs_remove(tpstat_test_dir);
}

module_init(tpstat_test_tp_init);
module_exit(tpstat_test_tp_exit);

MODULE_DESCRIPTION("tpstat tests: a trace event fired on request");
MODULE_LICENSE("GPL");
