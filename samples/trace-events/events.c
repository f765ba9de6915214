// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_sample_events.ko: trace events of every common shape, fired on
 * request so that what they record can be checked.
 *
 *   echo N > /sys/kernel/debug/tpstat_sample_events/fire
 *
 * runs seq = 0 .. N-1 through sample_fields (a field of every kind),
 * sample_even or sample_odd (two events of one class) and sample_tenth (only
 * when seq is a multiple of ten). sample_produced comes from a thread that
 * runs only while the event is in use (producer.c). To look at them:
 *
 *   cd /sys/kernel/tracing/events/tpstat_sample
 *   cat sample_fields/format
 *   echo 'word == "bravo"' > sample_fields/filter
 *   echo 1 > sample_fields/enable
 *   echo 5 > /sys/kernel/debug/tpstat_sample_events/fire
 *   cat /sys/kernel/tracing/trace
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>

/*
 * One .c file defines CREATE_TRACE_POINTS before including the trace
 * header: that include, through define_trace.h, generates the events' code
 * and data. Any other file fires the events by including the header without
 * it, as producer.c does.
 */
#define CREATE_TRACE_POINTS
#include "sample_trace.h"

/* Keeps one write from holding the CPU for minutes. */
#define SAMPLE_FIRE_MAX		1000000U

static const char *const sample_words[] = { "alpha", "bravo", "charlie", "delta" };

static struct dentry *sample_dir;

static void sample_fire_one(unsigned int seq)
{
	/*
	 * The arguments of trace_<event>() are computed even while the event
	 * is off. When preparing them costs something, ask first:
	 * trace_<event>_enabled() is the same patched-out branch.
	 */
	if (trace_sample_fields_enabled()) {
		u32 squares[SAMPLE_MAX_SQUARES];
		unsigned int i, nr = seq % (SAMPLE_MAX_SQUARES + 1);

		for (i = 0; i < nr; i++)
			squares[i] = i * i;
		trace_sample_fields(seq, sample_words[seq % ARRAY_SIZE(sample_words)],
				    squares, nr, current->cpus_ptr);
	}
	if (seq % 2)
		trace_sample_odd(seq);
	else
		trace_sample_even(seq);
	trace_sample_tenth(seq);
}

static ssize_t sample_fire_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned int n, seq;
	int err;

	err = kstrtouint_from_user(ubuf, count, 10, &n);
	if (err)
		return err;
	if (n > SAMPLE_FIRE_MAX)
		return -EINVAL;
	for (seq = 0; seq < n; seq++) {
		sample_fire_one(seq);
		cond_resched();
	}
	return count;
}

static const struct file_operations sample_fire_fops = {
	.owner = THIS_MODULE,
	.write = sample_fire_write,
};

static int __init sample_events_init(void)
{
	sample_dir = debugfs_create_dir("tpstat_sample_events", NULL);
	debugfs_create_file("fire", 0200, sample_dir, NULL, &sample_fire_fops);
	return 0;
}

/*
 * Removing the file waits for writes in progress, so nothing fires our
 * events after it; then the producer goes (see sample_producer_retire()).
 */
static void __exit sample_events_exit(void)
{
	debugfs_remove(sample_dir);
	sample_producer_retire();
}

module_init(sample_events_init);
module_exit(sample_events_exit);

MODULE_DESCRIPTION("tpstat sample: trace events with every kind of field, a class, a condition and callbacks");
MODULE_LICENSE("GPL");
