// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_probe.ko: a typed probe set on tpstat_test_fire that feeds a
 * histogram (the values), a keyed table (value % 8) and a second table
 * keyed by ~value, whose first key is U64_MAX, keyed data by the firing
 * task's comm (a wide key), and on tpstat_test_pair a pairing map whose
 * pairs feed a histogram of their times and keyed data by (key, start or
 * end), so tests can check every primitive against numbers they drove. It also probes a
 * tracepoint nothing defines, which must show as missing without harming
 * the rest.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sched/clock.h>

#include <tpstat/tpstat.h>
#include "tpstat_test_trace.h"

/* Declared, never defined: stands for a core tracepoint this kernel lacks. */
DECLARE_TRACE(tpstat_test_absent, TP_PROTO(int unused), TP_ARGS(unused));

#define TPSTAT_TEST_KEYS	8

static unsigned int table_keys = 64;
module_param(table_keys, uint, 0400);
MODULE_PARM_DESC(table_keys, "keys per CPU in the table (1-65536, default 64)");

static unsigned int pair_keys = 1024;
module_param(pair_keys, uint, 0400);
MODULE_PARM_DESC(pair_keys, "starts the pairing map holds (default 1024)");

static unsigned int pair_age_ms;
module_param(pair_age_ms, uint, 0400);
MODULE_PARM_DESC(pair_age_ms, "age at which a start may be evicted (0: never)");

static bool bad_metric;
module_param(bad_metric, bool, 0400);
MODULE_PARM_DESC(bad_metric, "declare a metric whose name has a blank, which register must refuse");

static bool stack_lists;
module_param(stack_lists, bool, 0400);
MODULE_PARM_DESC(stack_lists, "list the set's files and data inside init, on its stack, which register must refuse");

static struct tpstat_hist test_hist = TPSTAT_HIST("value");
static struct tpstat_pairs test_pairs = TPSTAT_PAIRS(1024, 0);
static struct tpstat_hist test_pair_ns = TPSTAT_HIST("nsecs");
static struct tpstat_keyed test_wide = TPSTAT_KEYED_PER_CPU(16, "value", 0);
static struct tpstat_table test_wtable = TPSTAT_WIDE_TABLE(8, TASK_COMM_LEN);
static struct tpstat_table test_table = TPSTAT_TABLE(64);
static struct tpstat_table test_high = TPSTAT_TABLE(16);

static void tpstat_test_probe_fire(void *data, u64 value)
{
	struct tpstat_key comm = tpstat_key_string(current->comm, TASK_COMM_LEN);

	tpstat_probe_hit(data);
	tpstat_hist_add(&test_hist, value);
	tpstat_keyed_add_key(&test_wide, &comm, value, "%s", current->comm);
	tpstat_table_add_key(&test_wtable, &comm, value);
	if (!tpstat_table_add(&test_table, value % TPSTAT_TEST_KEYS, value))
		tpstat_probe_drop(data);
	if (value < 16)
		tpstat_table_add(&test_high, ~value, value);
}

static void tpstat_test_probe_pair(void *data, u64 key, int end)
{
	struct tpstat_pair start = { .ts = local_clock() };
	struct tpstat_key op = tpstat_key_pair(key, end);
	u64 now = start.ts;

	tpstat_probe_hit(data);
	tpstat_keyed_add_key(&test_wide, &op, key, "pair-%llu-%d", key, end);
	if (!end)
		tpstat_pairs_start(&test_pairs, key, &start);
	else if (tpstat_pairs_end(&test_pairs, key, &start))
		tpstat_hist_add(&test_pair_ns, now - start.ts);
}

static void tpstat_test_probe_absent(void *data, int unused)
{
	tpstat_probe_hit(data);
}

static int tpstat_test_table_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_table_row *rows, other;
	unsigned int i, nr;
	int cpu;

	rows = tpstat_table_rows(&test_table, &nr, &other);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%-6s %12s %16s %12s", "key", "count", "sum", "max");
	tpstat_print_cpu_columns(m, 12);
	for (i = 0; i < nr; i++) {
		seq_printf(m, "%-6llu %12llu %16llu %12llu", rows[i].key.w[0],
			   rows[i].count, rows[i].sum, rows[i].max);
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, " %12llu",
				   tpstat_table_cpu_count(&test_table, cpu,
							  &rows[i].key));
		seq_putc(m, '\n');
	}
	seq_printf(m, "%-6s %12llu %16llu %12llu\n", "other", other.count,
		   other.sum, other.max);
	kvfree(rows);
	return 0;
}

static int tpstat_test_table_stats(struct seq_file *m,
				   const struct tpstat_table *t, const char *name)
{
	struct tpstat_table_row *rows, other;
	unsigned int i, nr;

	rows = tpstat_table_rows(t, &nr, &other);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		seq_printf(m, "%s.%llu.count %llu\n%s.%llu.sum %llu\n", name,
			   rows[i].key.w[0], rows[i].count, name, rows[i].key.w[0],
			   rows[i].sum);
	seq_printf(m, "%s.other %llu\n", name, other.count);
	kvfree(rows);
	return 0;
}

/* "wide.<label>.count N", ".cpuN" per online CPU, and "wide.other N". */
static int tpstat_test_wide_stats(struct seq_file *m)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int cpu;

	rows = tpstat_keyed_rows(&test_wide, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		seq_printf(m, "wide.%s.count %llu\n", rows[i].label,
			   rows[i].hist.count);
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, "wide.%s.cpu%d %llu\n", rows[i].label, cpu,
				   tpstat_keyed_cpu_count(&test_wide, cpu,
							  rows[i].id));
	}
	seq_printf(m, "wide.other %llu\n", rows[nr].hist.count);
	kvfree(rows);
	return 0;
}

/* "wtable.<comm>.count N", the comm being the key's bytes. */
static int tpstat_test_wtable_stats(struct seq_file *m)
{
	struct tpstat_table_row *rows, other;
	char comm[TASK_COMM_LEN];
	unsigned int i, nr;

	rows = tpstat_table_rows(&test_wtable, &nr, &other);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		strscpy(comm, (const char *)rows[i].key.w, sizeof(comm));
		seq_printf(m, "wtable.%s.count %llu\n", comm, rows[i].count);
	}
	seq_printf(m, "wtable.other %llu\n", other.count);
	kvfree(rows);
	return 0;
}

static int tpstat_test_stats(struct seq_file *m, struct tpstat_set *set)
{
	/* "hist", its file's histogram: the core prints its lines. */
	int err = tpstat_test_table_stats(m, &test_table, "table");

	if (!err)
		err = tpstat_test_table_stats(m, &test_high, "high");
	if (err)
		return err;
	tpstat_pairs_print_stats(m, &test_pairs, "pairs");
	err = tpstat_test_wide_stats(m);
	if (!err)
		err = tpstat_test_wtable_stats(m);
	return err ?: tpstat_hist_print_stats(m, &test_pair_ns, "pair_ns");
}

static const struct tpstat_metric tpstat_test_metrics[] = {
	TPSTAT_COUNTER_METRIC("table.{key}.count", "table_count",
			      TPSTAT_METRIC_NONE,
			      "Events of a table key"),
	TPSTAT_COUNTER_METRIC("table.{key}.sum", "table_sum",
			      TPSTAT_METRIC_NONE,
			      "Values of a table key"),
	TPSTAT_COUNTER_METRIC("table.other", "table_other", TPSTAT_METRIC_NONE,
			      "Events of keys the table had no room for"),
	TPSTAT_COUNTER_METRIC("high.{key}.count", "high_count",
			      TPSTAT_METRIC_NONE,
			      "Events of a table key"),
	TPSTAT_COUNTER_METRIC("high.{key}.sum", "high_sum", TPSTAT_METRIC_NONE,
			      "Values of a table key"),
	TPSTAT_COUNTER_METRIC("high.other", "high_other", TPSTAT_METRIC_NONE,
			      "Events of keys the table had no room for"),
	/* A pairing map's counters (core/pairs.c). */
	TPSTAT_COUNTER_METRIC("pairs.started", "pairs_started",
			      TPSTAT_METRIC_NONE,
			      "Starts recorded"),
	TPSTAT_COUNTER_METRIC("pairs.replaced", "pairs_replaced",
			      TPSTAT_METRIC_NONE,
			      "Starts that replaced an unended one of the same key"),
	TPSTAT_COUNTER_METRIC("pairs.paired", "pairs_paired",
			      TPSTAT_METRIC_NONE,
			      "Ends paired with their start"),
	TPSTAT_COUNTER_METRIC("pairs.unpaired", "pairs_unpaired",
			      TPSTAT_METRIC_NONE,
			      "Ends whose start was not seen"),
	TPSTAT_COUNTER_METRIC("pairs.dropped", "pairs_dropped",
			      TPSTAT_METRIC_NONE,
			      "Starts lost to a full map"),
	TPSTAT_COUNTER_METRIC("pairs.expired", "pairs_expired",
			      TPSTAT_METRIC_NONE,
			      "Starts evicted from a full map: the oldest, or one from before the attach"
	),
	TPSTAT_GAUGE_METRIC("pairs.held", "pairs_held", TPSTAT_METRIC_NONE,
			    "Starts waiting for their end now"),
	TPSTAT_GAUGE_METRIC("pairs.capacity", "pairs_capacity",
			    TPSTAT_METRIC_NONE,
			    "Starts the map can hold"),
	TPSTAT_COUNTER_METRIC("wide.{label+}.count", "wide_count",
			      TPSTAT_METRIC_NONE,
			      "Events of a key"),
	TPSTAT_COUNTER_METRIC("wide.{label+}.cpu{cpu}", "wide_cpu",
			      TPSTAT_METRIC_NONE,
			      "Events of a key on one CPU"),
	TPSTAT_COUNTER_METRIC("wide.other", "wide_other", TPSTAT_METRIC_NONE,
			      "Events of keys with no row"),
	TPSTAT_COUNTER_METRIC("wtable.{comm+}.count", "wtable_count",
			      TPSTAT_METRIC_NONE,
			      "Events by command"),
	TPSTAT_COUNTER_METRIC("wtable.other", "wtable_other",
			      TPSTAT_METRIC_NONE,
			      "Events of commands with no row"),
	TPSTAT_HIST_METRIC("pair_ns", "pair_seconds", TPSTAT_METRIC_NS,
			   "Time from a start to its end"),
};

/* A metrics file's fields are separated by blanks: this name would be two. */
static const struct tpstat_metric tpstat_test_bad_metrics[] = {
	TPSTAT_COUNTER_METRIC("hist", "two words", TPSTAT_METRIC_NONE,
			      "A name no metrics file can hold"),
};

static struct tpstat_set tpstat_test_set = {
	.name = "test",
	TPSTAT_PROBES(TPSTAT_MODULE_PROBE(tpstat_test_fire, tpstat_test_probe_fire),
		      TPSTAT_MODULE_PROBE(tpstat_test_pair, tpstat_test_probe_pair),
		      TPSTAT_PROBE(TPSTAT_TP(tpstat_test_absent), tpstat_test_probe_absent)),
	TPSTAT_FILES(TPSTAT_HIST_FILE("hist", &test_hist),
		     { .name = "table", .show = tpstat_test_table_show }),
	TPSTAT_DATA(&test_hist.data,
		    &test_table.data,
		    &test_high.data,
		    &test_pairs.data,
		    &test_pair_ns.data,
		    &test_wide.data,
		    &test_wtable.data),
	.stats = tpstat_test_stats,
	.metrics = tpstat_test_metrics,
	.nr_metrics = ARRAY_SIZE(tpstat_test_metrics),
};

/*
 * What TPSTAT_FILES() and TPSTAT_DATA() allow written in a function: their
 * arrays on its stack, gone when it returns. Were the set taken, it goes
 * again at once, and the load fails with EBUSY rather than EINVAL.
 */
static int tpstat_test_register_stack_lists(void)
{
	int err;

	tpstat_test_set = (struct tpstat_set){
		.name = "test",
		TPSTAT_FILES(TPSTAT_HIST_FILE("hist", &test_hist)),
		TPSTAT_DATA(&test_hist.data),
	};
	err = tpstat_set_register(&tpstat_test_set);
	if (!err) {
		tpstat_set_unregister(&tpstat_test_set);
		err = -EBUSY;
	}
	return err;
}

static int __init tpstat_test_probe_init(void)
{
	test_table.capacity = table_keys;
	test_pairs.capacity = pair_keys;
	test_pairs.max_age = (u64)pair_age_ms * NSEC_PER_MSEC;
	if (stack_lists)
		return tpstat_test_register_stack_lists();
	if (bad_metric) {
		tpstat_test_set.metrics = tpstat_test_bad_metrics;
		tpstat_test_set.nr_metrics = ARRAY_SIZE(tpstat_test_bad_metrics);
	}
	return tpstat_set_register(&tpstat_test_set);
}

static void __exit tpstat_test_probe_exit(void)
{
	tpstat_set_unregister(&tpstat_test_set);
}

module_init(tpstat_test_probe_init);
module_exit(tpstat_test_probe_exit);

MODULE_DESCRIPTION("tpstat tests: a typed probe set on tpstat_test_fire");
MODULE_LICENSE("GPL");
