// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_test_probe.ko: a typed probe set on tpstat_test_fire that feeds a
 * histogram (the values) and a keyed table (value % 8), so tests can check
 * every primitive against numbers they drove. It also probes a tracepoint
 * nothing defines, which must show as missing without harming the rest.
 */
#include <linux/module.h>

#include <tpstat/tpstat.h>
#include "tpstat_test_trace.h"

/* Declared, never defined: stands for a core tracepoint this kernel lacks. */
DECLARE_TRACE(tpstat_test_absent, TP_PROTO(int unused), TP_ARGS(unused));

#define TPSTAT_TEST_KEYS	8

static unsigned int table_keys = 64;
module_param(table_keys, uint, 0400);
MODULE_PARM_DESC(table_keys, "keys per CPU in the table (1-65536, default 64)");

static struct tpstat_hist test_hist;
static struct tpstat_table test_table;

static void tpstat_test_probe_fire(void *data, u64 value)
{
	tpstat_probe_hit(data);
	tpstat_hist_add(&test_hist, value);
	if (!tpstat_table_add(&test_table, value % TPSTAT_TEST_KEYS, value))
		tpstat_probe_drop(data);
}

static void tpstat_test_probe_absent(void *data, int unused)
{
	tpstat_probe_hit(data);
}

static struct tpstat_probe tpstat_test_probes[] = {
	TPSTAT_MODULE_PROBE(tpstat_test_fire, tpstat_test_probe_fire),
	TPSTAT_PROBE(TPSTAT_TP(tpstat_test_absent), tpstat_test_probe_absent),
};

static int tpstat_test_hist_show(struct seq_file *m, struct tpstat_set *set)
{
	return tpstat_hist_print(m, &test_hist);
}

static int tpstat_test_table_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_table_row *rows;
	unsigned int i, nr;
	int cpu;

	rows = tpstat_table_rows(&test_table, &nr);
	seq_printf(m, "%-6s %12s %16s %12s", "key", "count", "sum", "max");
	tpstat_print_cpu_columns(m, 12);
	for (i = 0; i < nr; i++) {
		seq_printf(m, "%-6llu %12llu %16llu %12llu", rows[i].key,
			   rows[i].count, rows[i].sum, rows[i].max);
		for_each_possible_cpu(cpu)
			seq_printf(m, " %12llu",
				   tpstat_table_cpu_count(&test_table, cpu,
							  rows[i].key));
		seq_putc(m, '\n');
	}
	seq_printf(m, "dropped %llu\n", tpstat_counter_sum(&test_table.dropped));
	kvfree(rows);
	return 0;
}

static int tpstat_test_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_table_row *rows;
	unsigned int i, nr;
	int err;

	err = tpstat_hist_print_stats(m, &test_hist, "hist");
	if (err)
		return err;
	rows = tpstat_table_rows(&test_table, &nr);
	for (i = 0; i < nr; i++)
		seq_printf(m, "table.%llu.count %llu\ntable.%llu.sum %llu\n",
			   rows[i].key, rows[i].count, rows[i].key, rows[i].sum);
	seq_printf(m, "table.dropped %llu\n",
		   tpstat_counter_sum(&test_table.dropped));
	kvfree(rows);
	return 0;
}

static void tpstat_test_reset(struct tpstat_set *set)
{
	tpstat_hist_reset(&test_hist);
	tpstat_table_reset(&test_table);
}

static const struct tpstat_file tpstat_test_files[] = {
	{ .name = "hist", .show = tpstat_test_hist_show },
	{ .name = "table", .show = tpstat_test_table_show },
};

static struct tpstat_set tpstat_test_set = {
	.name = "test",
	.probes = tpstat_test_probes,
	.nr_probes = ARRAY_SIZE(tpstat_test_probes),
	.files = tpstat_test_files,
	.nr_files = ARRAY_SIZE(tpstat_test_files),
	.stats = tpstat_test_stats,
	.reset = tpstat_test_reset,
};

static int __init tpstat_test_probe_init(void)
{
	int err;

	err = tpstat_hist_init(&test_hist, "value");
	if (err)
		return err;
	err = tpstat_table_init(&test_table, table_keys);
	if (err) {
		pr_err("tpstat_test_probe: table_keys must be 1 to %d\n",
		       TPSTAT_TABLE_MAX_KEYS);
		goto destroy_hist;
	}
	err = tpstat_set_register(&tpstat_test_set);
	if (err)
		goto destroy_table;
	return 0;

destroy_table:
	tpstat_table_destroy(&test_table);
destroy_hist:
	tpstat_hist_destroy(&test_hist);
	return err;
}

static void __exit tpstat_test_probe_exit(void)
{
	tpstat_set_unregister(&tpstat_test_set);
	tpstat_table_destroy(&test_table);
	tpstat_hist_destroy(&test_hist);
}

module_init(tpstat_test_probe_init);
module_exit(tpstat_test_probe_exit);

MODULE_DESCRIPTION("tpstat tests: a typed probe set on tpstat_test_fire");
MODULE_LICENSE("GPL");
