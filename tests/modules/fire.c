// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_tp.ko: defines the tpstat_test_fire and tpstat_test_pair
 * events and fires them on request, so tests check counts exactly.
 *
 *   echo 'N [FIRST [irq]]' > /sys/kernel/debug/tpstat_test/fire
 *
 * fires tpstat_test_fire N times with the values FIRST (0 if not given) to
 * FIRST+N-1, on the writer's CPU; with "irq", in hard IRQ context, from an
 * irq_work on that CPU.
 *
 *   echo N > /sys/module/tpstat_test_tp/parameters/fire
 *
 * fires it N times with the values 0 to N-1, as the file does, where
 * kernel lockdown lets a writer in: it opens no debugfs file with a write
 * bit.
 *
 *   echo 'start FIRST N' > /sys/kernel/debug/tpstat_test/pair
 *   echo 'end FIRST N' > /sys/kernel/debug/tpstat_test/pair
 *
 * fire tpstat_test_pair for the keys FIRST to FIRST+N-1, as starts or
 * ends, on the writer's CPU; "hstart" and "hend" do the same in hard IRQ
 * context.
 *
 *   echo 'a N' > /sys/kernel/debug/tpstat_test/paths
 *   echo 'b N' > /sys/kernel/debug/tpstat_test/paths
 *
 * fire tpstat_test_fire N times from tpstat_test_path_a(), or from
 * tpstat_test_path_b(): two call paths, for counts by stack.
 *
 *   echo 1 > /sys/kernel/debug/tpstat_test/bug
 *
 * calls BUG(): a fault make check plants to prove its guests catch it.
 *
 *   echo 1 > /sys/kernel/debug/tpstat_test/leak
 *   echo 0 > /sys/kernel/debug/tpstat_test/leak
 *
 * leaks four allocations, which kmemleak must report, then frees them.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "tpstat_test_trace.h"

#define TPSTAT_TEST_FIRE_MAX	100000000ULL
#define TPSTAT_TEST_IRQ_MAX	1000000ULL

static struct dentry *tpstat_test_dir;

/* One request at a time: the irq_work reads it. */
static DEFINE_MUTEX(request_lock);
static DECLARE_COMPLETION(request_done);
static u64 request_first, request_n;
static int request_end;
static void (*request_fire)(void);

/* Runs in hard IRQ context, from the CPU's irq_work interrupt. */
static void tpstat_test_irq(struct irq_work *work)
{
	request_fire();
	complete(&request_done);
}

static DEFINE_IRQ_WORK(request_work, tpstat_test_irq);

/* Runs @fire in hard IRQ context on this CPU and waits for it. */
static void tpstat_test_fire_in_irq(void (*fire)(void))
{
	request_fire = fire;
	reinit_completion(&request_done);
	/* Pinned, so the irq_work runs on the writer's CPU. */
	preempt_disable();
	irq_work_queue(&request_work);
	preempt_enable();
	wait_for_completion(&request_done);
}

static void tpstat_test_fire_values(void)
{
	u64 i;

	for (i = 0; i < request_n; i++) {
		trace_tpstat_test_fire(request_first + i);
		if (!(i & 0xffff) && !in_hardirq())
			cond_resched();
	}
}

static void tpstat_test_pair_fire(void)
{
	u64 i;

	for (i = 0; i < request_n; i++)
		trace_tpstat_test_pair(request_first + i, request_end);
}

/* Copies a short request from user space, NUL-terminated. */
static int tpstat_test_read_request(char *buf, size_t size,
				    const char __user *ubuf, size_t count)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

static ssize_t tpstat_test_fire_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	u64 n, first = 0;
	char buf[64], ctx[8] = "";
	int err;

	err = tpstat_test_read_request(buf, sizeof(buf), ubuf, count);
	if (err)
		return err;
	if (sscanf(buf, "%llu %llu %7s", &n, &first, ctx) < 1 ||
	    n > TPSTAT_TEST_FIRE_MAX || (ctx[0] && strcmp(ctx, "irq")) ||
	    (ctx[0] && n > TPSTAT_TEST_IRQ_MAX))
		return -EINVAL;

	mutex_lock(&request_lock);
	request_first = first;
	request_n = n;
	if (ctx[0])
		tpstat_test_fire_in_irq(tpstat_test_fire_values);
	else
		tpstat_test_fire_values();
	mutex_unlock(&request_lock);
	return count;
}

static const struct file_operations tpstat_test_fire_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_fire_write,
};

/* The fire file's "N", for kernel lockdown: no FIRST, no "irq". */
static int tpstat_test_fire_param_set(const char *val,
				      const struct kernel_param *kp)
{
	u64 n;
	int err;

	err = kstrtou64(val, 10, &n);
	if (err)
		return err;
	if (n > TPSTAT_TEST_FIRE_MAX)
		return -EINVAL;
	mutex_lock(&request_lock);
	request_first = 0;
	request_n = n;
	tpstat_test_fire_values();
	mutex_unlock(&request_lock);
	return 0;
}

static const struct kernel_param_ops tpstat_test_fire_param_ops = {
	.set = tpstat_test_fire_param_set,
};

module_param_cb(fire, &tpstat_test_fire_param_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fires tpstat_test_fire N times, as the fire file does");

static ssize_t tpstat_test_pair_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char buf[64], op[8];
	u64 first, n;
	int err;

	err = tpstat_test_read_request(buf, sizeof(buf), ubuf, count);
	if (err)
		return err;
	if (sscanf(buf, "%7s %llu %llu", op, &first, &n) != 3 ||
	    n > TPSTAT_TEST_IRQ_MAX)
		return -EINVAL;

	mutex_lock(&request_lock);
	request_first = first;
	request_n = n;
	if (!strcmp(op, "start") || !strcmp(op, "end")) {
		request_end = op[0] == 'e';
		tpstat_test_pair_fire();
	} else if (!strcmp(op, "hstart") || !strcmp(op, "hend")) {
		request_end = op[1] == 'e';
		tpstat_test_fire_in_irq(tpstat_test_pair_fire);
	} else {
		count = -EINVAL;
	}
	mutex_unlock(&request_lock);
	return count;
}

static const struct file_operations tpstat_test_pair_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_pair_write,
};

/* Each its own caller of the tracepoint, never inlined into another. */
static noinline void tpstat_test_path_a(u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		trace_tpstat_test_fire(i);
}

static noinline void tpstat_test_path_b(u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		trace_tpstat_test_fire(n - i);
}

static ssize_t tpstat_test_paths_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	char buf[64], path;
	u64 n;
	int err;

	err = tpstat_test_read_request(buf, sizeof(buf), ubuf, count);
	if (err)
		return err;
	if (sscanf(buf, "%c %llu", &path, &n) != 2 || n > TPSTAT_TEST_IRQ_MAX ||
	    (path != 'a' && path != 'b'))
		return -EINVAL;
	mutex_lock(&request_lock);
	if (path == 'a')
		tpstat_test_path_a(n);
	else
		tpstat_test_path_b(n);
	mutex_unlock(&request_lock);
	return count;
}

static const struct file_operations tpstat_test_paths_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_paths_write,
};

static ssize_t tpstat_test_bug_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	BUG();
	return count;
}

static const struct file_operations tpstat_test_bug_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_bug_write,
};

/*
 * The leaked pointers, hidden from kmemleak's scan of this module's data.
 * Four, so that a stale copy of one left on some stack kmemleak scans
 * cannot hide them all; zeroed, since one a stale copy hides is scanned,
 * and SLUB's link to the next free object, left in it, would hide that
 * one too (the debug guest saw 2 of 4 before).
 */
#define TPSTAT_TEST_LEAKS	4
#define TPSTAT_TEST_LEAK_MASK	0x5a5a5a5a5a5a5a5aUL
static unsigned long leak_hidden[TPSTAT_TEST_LEAKS];

static void tpstat_test_leak_free(void)
{
	int i;

	for (i = 0; i < TPSTAT_TEST_LEAKS; i++) {
		if (leak_hidden[i])
			kfree((void *)(leak_hidden[i] ^ TPSTAT_TEST_LEAK_MASK));
		leak_hidden[i] = 0;
	}
}

static ssize_t tpstat_test_leak_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	bool leak;
	int err, i;

	err = kstrtobool_from_user(ubuf, count, &leak);
	if (err)
		return err;
	mutex_lock(&request_lock);
	tpstat_test_leak_free();
	for (i = 0; leak && i < TPSTAT_TEST_LEAKS; i++) {
		void *p = kzalloc(64, GFP_KERNEL);

		if (!p) {
			tpstat_test_leak_free();
			count = -ENOMEM;
			break;
		}
		leak_hidden[i] = (unsigned long)p ^ TPSTAT_TEST_LEAK_MASK;
	}
	mutex_unlock(&request_lock);
	return count;
}

static const struct file_operations tpstat_test_leak_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_leak_write,
};

static int __init tpstat_test_tp_init(void)
{
	tpstat_test_dir = debugfs_create_dir("tpstat_test", NULL);
	debugfs_create_file("fire", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_fire_fops);
	debugfs_create_file("pair", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_pair_fops);
	debugfs_create_file("paths", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_paths_fops);
	debugfs_create_file("bug", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_bug_fops);
	debugfs_create_file("leak", 0200, tpstat_test_dir, NULL,
			    &tpstat_test_leak_fops);
	return 0;
}

static void __exit tpstat_test_tp_exit(void)
{
	debugfs_remove(tpstat_test_dir);
	irq_work_sync(&request_work);
	tpstat_test_leak_free();
}

module_init(tpstat_test_tp_init);
module_exit(tpstat_test_tp_exit);

MODULE_DESCRIPTION("tpstat tests: trace events fired on request");
MODULE_LICENSE("GPL");
