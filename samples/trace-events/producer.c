// SPDX-License-Identifier: GPL-2.0
/*
 * The producer behind sample_produced: a kernel thread, tpstat_producer,
 * that fires the event ten times a second, and exists only while the event
 * has a listener.
 *
 * TRACE_EVENT_FN() gives sample_producer_start() and sample_producer_stop()
 * to the tracepoint, which calls the first when it gets its first probe and
 * the second when it loses its last, with the kernel's tracepoint mutex
 * held. Any probe counts: enabling the event in tracefs, perf, BPF, or a
 * tpstat probe attached by name. The latter can come as soon as the
 * tracepoint exists, which is before this module's init function runs, so
 * the callbacks may rely on nothing that init sets up.
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>

/* No CREATE_TRACE_POINTS here: this file only fires the event. */
#include "sample_trace.h"

#define SAMPLE_PRODUCER_PERIOD_MS	100

/* Orders the callbacks against module exit, which they may race. */
static DEFINE_MUTEX(producer_lock);
static struct task_struct *producer;
static bool producer_retired;

/*
 * Waits before the first event: the start callback runs before the probe
 * that caused it is on the tracepoint, and an event fired right away would
 * be missed by the very listener that asked for it.
 */
static int sample_producer_loop(void *unused)
{
	unsigned long nr = 0;

	while (!kthread_should_stop()) {
		schedule_timeout_interruptible(msecs_to_jiffies(SAMPLE_PRODUCER_PERIOD_MS));
		trace_sample_produced(nr++);
	}
	return 0;
}

int sample_producer_start(void)
{
	struct task_struct *task;
	int err = 0;

	mutex_lock(&producer_lock);
	if (producer_retired) {
		err = -ENODEV;
	} else {
		task = kthread_run(sample_producer_loop, NULL, "tpstat_producer");
		if (IS_ERR(task))
			err = PTR_ERR(task);
		else
			producer = task;
	}
	mutex_unlock(&producer_lock);
	return err;
}

void sample_producer_stop(void)
{
	mutex_lock(&producer_lock);
	if (producer) {
		kthread_stop(producer);
		producer = NULL;
	}
	mutex_unlock(&producer_lock);
}

/*
 * Nothing keeps the module loaded while the event has listeners: when it
 * goes, tracefs turns its enabled events off and tpstat detaches its
 * probes, which calls sample_producer_stop(), but only after module exit
 * has returned. Until then the thread would run on past exit, when a real
 * driver has torn down what the thread works on. So exit stops it here, and
 * refuses any start that could still come in between.
 */
void sample_producer_retire(void)
{
	mutex_lock(&producer_lock);
	producer_retired = true;
	mutex_unlock(&producer_lock);
	sample_producer_stop();
}
