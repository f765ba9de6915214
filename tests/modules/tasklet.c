// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_tasklet.ko: runs a tasklet on request, so tests of tasklet
 * probes know how many runs of which function to expect.
 *
 *   echo N > /sys/kernel/debug/tpstat_test_tasklet/run
 *
 * schedules tpstat_test_tasklet_run() N times, one after the other, and
 * returns once the last run has finished.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>

#define TPSTAT_TEST_TASKLET_MAX	100000U

static struct dentry *tpstat_test_tasklet_dir;
static DECLARE_COMPLETION(tpstat_test_tasklet_done);
/* Serializes writers: one tasklet, one completion. */
static DEFINE_MUTEX(tpstat_test_tasklet_lock);

static void tpstat_test_tasklet_run(struct tasklet_struct *t)
{
	complete(&tpstat_test_tasklet_done);
}

static DECLARE_TASKLET(tpstat_test_tasklet, tpstat_test_tasklet_run);

static ssize_t tpstat_test_tasklet_write(struct file *file,
					 const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	unsigned int n, i;
	int err;

	err = kstrtouint_from_user(ubuf, count, 10, &n);
	if (err)
		return err;
	if (n > TPSTAT_TEST_TASKLET_MAX)
		return -EINVAL;
	mutex_lock(&tpstat_test_tasklet_lock);
	for (i = 0; i < n; i++) {
		reinit_completion(&tpstat_test_tasklet_done);
		tasklet_schedule(&tpstat_test_tasklet);
		wait_for_completion(&tpstat_test_tasklet_done);
	}
	mutex_unlock(&tpstat_test_tasklet_lock);
	return count;
}

static const struct file_operations tpstat_test_tasklet_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_tasklet_write,
};

static int __init tpstat_test_tasklet_init(void)
{
	tpstat_test_tasklet_dir = debugfs_create_dir("tpstat_test_tasklet", NULL);
	debugfs_create_file("run", 0200, tpstat_test_tasklet_dir, NULL,
			    &tpstat_test_tasklet_fops);
	return 0;
}

/* No write is in progress once the file is gone; then no run is pending. */
static void __exit tpstat_test_tasklet_exit(void)
{
	debugfs_remove(tpstat_test_tasklet_dir);
	tasklet_kill(&tpstat_test_tasklet);
}

module_init(tpstat_test_tasklet_init);
module_exit(tpstat_test_tasklet_exit);

MODULE_DESCRIPTION("tpstat tests: a tasklet run on request");
MODULE_LICENSE("GPL");
