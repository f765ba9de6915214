// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_irq.ko: hard IRQs, softirqs and tasklets on request, so tests
 * of IRQ probes know exactly what ran, where and inside what. It makes a
 * software interrupt line shared by two handlers, as by two devices:
 * tpstat_test_irq_a claims every interrupt, tpstat_test_irq_b none. In
 * /sys/kernel/debug/tpstat_test_irq/:
 *
 *   echo N > fire             N interrupts, each its own hard IRQ
 *   echo N > fire_in_tasklet  N tasklet runs, each interrupted by one
 *   echo N > tasklet_hi       N runs of a HI_SOFTIRQ tasklet
 *   echo C > hold             a tasklet on CPU C that runs until
 *   echo 1 > release          (or for 15 s at most); held reads Y meanwhile
 *   echo 'N D' > fire_nested  N times, D nested hard IRQs: the handler of
 *                             line tpstat_test_nest0 raises line 1 and so on,
 *                             as a demultiplexing handler does, D at most 8
 *
 * All but hold run on the writer's CPU, one run after the other: each
 * write returns once the last has finished.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#define TPSTAT_TEST_IRQ_MAX	1000000U
/* Long enough for a slow guest, short of the soft lockup detector's 20 s. */
#define TPSTAT_TEST_HOLD_NS	(15 * NSEC_PER_SEC)
/* Lines of the nested chain: deeper than an IRQ probe keeps frames for. */
#define TPSTAT_TEST_NEST_MAX	8

static unsigned int test_irq;
/* Each handler's dev_id: a shared line needs a distinct one per handler. */
static int test_dev_a, test_dev_b;
static struct dentry *test_dir;
/* Serializes writers: one completion for every kind of run. */
static DEFINE_MUTEX(test_lock);
static DECLARE_COMPLETION(test_done);
static bool test_held;
static bool test_release;
/* The chain's first line, and how deep the next fire_nested goes. */
static unsigned int test_nest_irq;
static unsigned int test_nest_depth;
static const char *const test_nest_names[TPSTAT_TEST_NEST_MAX] = {
	"tpstat_test_nest0", "tpstat_test_nest1", "tpstat_test_nest2",
	"tpstat_test_nest3", "tpstat_test_nest4", "tpstat_test_nest5",
	"tpstat_test_nest6", "tpstat_test_nest7",
};

static irqreturn_t tpstat_test_irq_a(int irq, void *dev_id)
{
	return IRQ_HANDLED;
}

static irqreturn_t tpstat_test_irq_b(int irq, void *dev_id)
{
	return IRQ_NONE;
}

/* Runs in hard IRQ context, from the CPU's irq_work interrupt. */
static void tpstat_test_irq_raise(struct irq_work *work)
{
	generic_handle_irq(test_irq);
}

static struct irq_work test_raise_work = IRQ_WORK_INIT_HARD(tpstat_test_irq_raise);

/* Line i of the chain: raises line i + 1 from inside its handler. */
static irqreturn_t tpstat_test_nest(int irq, void *dev_id)
{
	unsigned int i = irq - test_nest_irq;

	if (i + 1 < READ_ONCE(test_nest_depth))
		generic_handle_irq(irq + 1);
	return IRQ_HANDLED;
}

static void tpstat_test_nest_raise(struct irq_work *work)
{
	generic_handle_irq(test_nest_irq);
}

static struct irq_work test_nest_work = IRQ_WORK_INIT_HARD(tpstat_test_nest_raise);

/* Softirqs run with interrupts on: the interrupt comes inside this run. */
static void tpstat_test_irq_in_tasklet(struct tasklet_struct *t)
{
	irq_work_queue(&test_raise_work);
	while (irq_work_is_busy(&test_raise_work))
		cpu_relax();
	complete(&test_done);
}

static void tpstat_test_irq_hi(struct tasklet_struct *t)
{
	complete(&test_done);
}

static void tpstat_test_irq_hold(struct tasklet_struct *t)
{
	u64 end = ktime_get_ns() + TPSTAT_TEST_HOLD_NS;

	WRITE_ONCE(test_held, true);
	while (!READ_ONCE(test_release) && ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(test_held, false);
}

static DECLARE_TASKLET(test_in_tasklet, tpstat_test_irq_in_tasklet);
static DECLARE_TASKLET(test_hi_tasklet, tpstat_test_irq_hi);
static DECLARE_TASKLET(test_hold_tasklet, tpstat_test_irq_hold);

static void tpstat_test_fire(void)
{
	irq_work_queue(&test_raise_work);
	irq_work_sync(&test_raise_work);
}

static void tpstat_test_fire_in_tasklet(void)
{
	reinit_completion(&test_done);
	tasklet_schedule(&test_in_tasklet);
	wait_for_completion(&test_done);
}

static void tpstat_test_tasklet_hi(void)
{
	reinit_completion(&test_done);
	tasklet_hi_schedule(&test_hi_tasklet);
	wait_for_completion(&test_done);
}

/* @file's private data is the run to repeat: one of the three above. */
static ssize_t tpstat_test_repeat_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	void (*run)(void) = file->private_data;
	unsigned int n, i;
	int err;

	err = kstrtouint_from_user(ubuf, count, 10, &n);
	if (err)
		return err;
	if (n > TPSTAT_TEST_IRQ_MAX)
		return -EINVAL;
	mutex_lock(&test_lock);
	for (i = 0; i < n; i++) {
		run();
		cond_resched();
	}
	mutex_unlock(&test_lock);
	return count;
}

static const struct file_operations tpstat_test_repeat_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = tpstat_test_repeat_write,
};

static ssize_t tpstat_test_nested_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	unsigned int n, depth, i;
	char buf[32];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%u %u", &n, &depth) != 2 || n > TPSTAT_TEST_IRQ_MAX ||
	    !depth || depth > TPSTAT_TEST_NEST_MAX)
		return -EINVAL;
	mutex_lock(&test_lock);
	WRITE_ONCE(test_nest_depth, depth);
	for (i = 0; i < n; i++) {
		irq_work_queue(&test_nest_work);
		irq_work_sync(&test_nest_work);
		cond_resched();
	}
	mutex_unlock(&test_lock);
	return count;
}

static const struct file_operations tpstat_test_nested_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_nested_write,
};

static void tpstat_test_schedule_hold(void *unused)
{
	tasklet_schedule(&test_hold_tasklet);
}

static ssize_t tpstat_test_hold_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	unsigned int cpu;
	int err;

	err = kstrtouint_from_user(ubuf, count, 10, &cpu);
	if (err)
		return err;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	WRITE_ONCE(test_release, false);
	/* A tasklet runs where it was scheduled: schedule it from @cpu. */
	err = smp_call_function_single(cpu, tpstat_test_schedule_hold, NULL, 1);
	return err ? err : count;
}

static const struct file_operations tpstat_test_hold_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_hold_write,
};

static ssize_t tpstat_test_release_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	WRITE_ONCE(test_release, true);
	return count;
}

static const struct file_operations tpstat_test_release_fops = {
	.owner = THIS_MODULE,
	.write = tpstat_test_release_write,
};

static void tpstat_test_nest_free(unsigned int nr)
{
	while (nr--)
		free_irq(test_nest_irq + nr, &test_dev_a);
	irq_free_descs(test_nest_irq, TPSTAT_TEST_NEST_MAX);
}

static void tpstat_test_line_free(void)
{
	free_irq(test_irq, &test_dev_b);
	free_irq(test_irq, &test_dev_a);
	irq_free_descs(test_irq, 1);
}

/*
 * The descriptor's owner would be pinned by each request_irq() on it: with
 * this module as owner it could never be unloaded, so it has none.
 */
static int tpstat_test_irq_line(void)
{
	int irq, err;

	irq = __irq_alloc_descs(-1, 0, 1, NUMA_NO_NODE, NULL, NULL);
	if (irq < 0)
		return irq;
	test_irq = irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	err = request_irq(irq, tpstat_test_irq_a, IRQF_SHARED,
			  "tpstat_test_irq_a", &test_dev_a);
	if (err)
		goto free_descs;
	err = request_irq(irq, tpstat_test_irq_b, IRQF_SHARED,
			  "tpstat_test_irq_b", &test_dev_b);
	if (err)
		goto free_a;
	return 0;

free_a:
	free_irq(irq, &test_dev_a);
free_descs:
	irq_free_descs(irq, 1);
	return err;
}

/* The nested chain: consecutive lines, each with one handler. */
static int tpstat_test_nest_lines(void)
{
	unsigned int i;
	int irq, err;

	irq = __irq_alloc_descs(-1, 0, TPSTAT_TEST_NEST_MAX, NUMA_NO_NODE,
				NULL, NULL);
	if (irq < 0)
		return irq;
	test_nest_irq = irq;
	for (i = 0; i < TPSTAT_TEST_NEST_MAX; i++) {
		irq_set_chip_and_handler(irq + i, &dummy_irq_chip,
					 handle_simple_irq);
		err = request_irq(irq + i, tpstat_test_nest, 0,
				  test_nest_names[i], &test_dev_a);
		if (err) {
			tpstat_test_nest_free(i);
			return err;
		}
	}
	return 0;
}

static int __init tpstat_test_irq_init(void)
{
	int err = tpstat_test_irq_line();

	if (err)
		return err;
	err = tpstat_test_nest_lines();
	if (err) {
		tpstat_test_line_free();
		return err;
	}
	test_dir = debugfs_create_dir("tpstat_test_irq", NULL);
	debugfs_create_file("fire", 0200, test_dir, tpstat_test_fire,
			    &tpstat_test_repeat_fops);
	debugfs_create_file("fire_in_tasklet", 0200, test_dir,
			    tpstat_test_fire_in_tasklet, &tpstat_test_repeat_fops);
	debugfs_create_file("tasklet_hi", 0200, test_dir,
			    tpstat_test_tasklet_hi, &tpstat_test_repeat_fops);
	debugfs_create_file("hold", 0200, test_dir, NULL,
			    &tpstat_test_hold_fops);
	debugfs_create_file("release", 0200, test_dir, NULL,
			    &tpstat_test_release_fops);
	debugfs_create_bool("held", 0400, test_dir, &test_held);
	debugfs_create_file("fire_nested", 0200, test_dir, NULL,
			    &tpstat_test_nested_fops);
	return 0;
}

/* No write is in progress once the files are gone. */
static void __exit tpstat_test_irq_exit(void)
{
	debugfs_remove(test_dir);
	WRITE_ONCE(test_release, true);
	tasklet_kill(&test_hold_tasklet);
	tasklet_kill(&test_in_tasklet);
	tasklet_kill(&test_hi_tasklet);
	irq_work_sync(&test_raise_work);
	irq_work_sync(&test_nest_work);
	tpstat_test_nest_free(TPSTAT_TEST_NEST_MAX);
	tpstat_test_line_free();
}

module_init(tpstat_test_irq_init);
module_exit(tpstat_test_irq_exit);

MODULE_DESCRIPTION("tpstat tests: hard IRQs, softirqs and tasklets on request");
MODULE_LICENSE("GPL");
