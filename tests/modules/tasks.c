// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_tasks.ko: a probe set on tpstat_test_fire that counts each
 * firing task's events in a task table, and by the task's comm through a
 * hint it keeps there, even values and odd ones apart, so tests check
 * task tables and hints against numbers they drove.
 *
 *   cat /sys/kernel/debug/tpstat/test_tasks/task
 *
 * prints the reader's own events ("events N"), or "none".
 */
#include <linux/module.h>
#include <linux/sched.h>

#include <tpstat/tpstat.h>
#include "tpstat_test_trace.h"

static unsigned int task_slots = 64;
module_param(task_slots, uint, 0400);
MODULE_PARM_DESC(task_slots, "tasks the task table holds (default 64)");

static struct tpstat_tasks test_tasks = TPSTAT_TASKS(64);
/* By comm: even values in the first histogram, odd ones in the second. */
static struct tpstat_keyed test_comms = TPSTAT_KEYED_HISTS(8, "value", 2, 0);

/* A task's words: its events, and a hint to its comm's row. */
enum { TEST_TASK_EVENTS, TEST_TASK_COMM };

/*
 * One task's events come one after another here: the tests never fire
 * from a task and from an interrupt of that task at once.
 */
static void tpstat_test_tasks_fire(void *data, u64 value)
{
	struct tpstat_key comm = tpstat_key_comm(current->comm);
	struct tpstat_task *t;

	tpstat_probe_hit(data);
	t = tpstat_task(&test_tasks, current);
	if (!t)
		return;
	WRITE_ONCE(t->w[TEST_TASK_EVENTS], READ_ONCE(t->w[TEST_TASK_EVENTS]) + 1);
	tpstat_keyed_add_hinted(&test_comms, &comm, &t->w[TEST_TASK_COMM],
				value & 1, value, "%s", current->comm);
}

/* The reader's own events, as its words hold them. */
static int tpstat_test_task_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_task *t;
	u64 events = 0;

	preempt_disable();
	t = tpstat_task_find(&test_tasks, current);
	if (t)
		events = READ_ONCE(t->w[TEST_TASK_EVENTS]);
	preempt_enable();
	if (t)
		seq_printf(m, "events %llu\n", events);
	else
		seq_puts(m, "none\n");
	return 0;
}

/* "comms.<comm>.even N" and ".odd N", then the table's counts. */
static int tpstat_test_tasks_stats(struct seq_file *m, struct tpstat_set *set)
{
	static const char *const parity[] = { "even", "odd" };
	char word[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int i, h, nr;

	for (h = 0; h < ARRAY_SIZE(parity); h++) {
		rows = tpstat_keyed_rows_at(&test_comms, h, NULL, &nr);
		if (!rows)
			return -ENOMEM;
		for (i = 0; i < nr; i++) {
			tpstat_stats_word(word, sizeof(word), rows[i].label);
			seq_printf(m, "comms.%s.%s %llu\n", word, parity[h],
				   rows[i].hist.count);
		}
		kvfree(rows);
	}
	tpstat_tasks_print_stats(m, &test_tasks, "tasks");
	return 0;
}

static const struct tpstat_metric tpstat_test_tasks_metrics[] = {
	TPSTAT_COUNTER_METRIC("comms.{comm+}.even", "comms_even",
			      TPSTAT_METRIC_NONE,
			      "Even values fired, by command"),
	TPSTAT_COUNTER_METRIC("comms.{comm+}.odd", "comms_odd",
			      TPSTAT_METRIC_NONE,
			      "Odd values fired, by command"),
	TPSTAT_TASKS_METRICS("tasks"),
};

static struct tpstat_set tpstat_test_tasks_set = {
	.name = "test_tasks",
	TPSTAT_PROBES(TPSTAT_MODULE_PROBE(tpstat_test_fire, tpstat_test_tasks_fire)),
	TPSTAT_FILES({ .name = "task", .show = tpstat_test_task_show,
		     .no_header = true }),
	TPSTAT_DATA(&test_tasks.data, &test_comms.data),
	.stats = tpstat_test_tasks_stats,
	.metrics = tpstat_test_tasks_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_test_tasks_metrics),
};

static int __init tpstat_test_tasks_init(void)
{
	test_tasks.capacity = task_slots;
	return tpstat_set_register(&tpstat_test_tasks_set);
}

static void __exit tpstat_test_tasks_exit(void)
{
	tpstat_set_unregister(&tpstat_test_tasks_set);
}

module_init(tpstat_test_tasks_init);
module_exit(tpstat_test_tasks_exit);

MODULE_DESCRIPTION("tpstat tests: a task table and hints on tpstat_test_fire");
MODULE_LICENSE("GPL");
