// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat_bench.ko: one probe on tpstat_bench_fire, attached the way every
 * tpstat probe is, doing the work that mode= names:
 *
 *   empty     nothing: the floor any attached probe pays
 *   counter   tpstat_probe_hit(), a per-CPU counter
 *   hist      the counter, then the value into a log2 histogram
 *   table     the counter, then the value into a keyed table (value % 64)
 *   atomic    one shared atomic counter, to set per-CPU counters against
 *
 * Every mode but empty counts its events, so a test can check that the
 * benchmark measured what it claims: bench/stats has them.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/string.h>

#include <tpstat/tpstat.h>
#include "tpstat_bench_trace.h"

#define TPSTAT_BENCH_KEYS	64

enum tpstat_bench_mode {
	TPSTAT_BENCH_EMPTY,
	TPSTAT_BENCH_COUNTER,
	TPSTAT_BENCH_HIST,
	TPSTAT_BENCH_TABLE,
	TPSTAT_BENCH_ATOMIC,
};

static const char * const tpstat_bench_modes[] = {
	[TPSTAT_BENCH_EMPTY] = "empty",
	[TPSTAT_BENCH_COUNTER] = "counter",
	[TPSTAT_BENCH_HIST] = "hist",
	[TPSTAT_BENCH_TABLE] = "table",
	[TPSTAT_BENCH_ATOMIC] = "atomic",
};

static char *mode = "counter";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode, "the probe's work: empty, counter, hist, table or atomic");

static struct tpstat_hist bench_hist = TPSTAT_HIST("value");
/* Room for every key, so no event goes to "other" and all are counted. */
static struct tpstat_table bench_table = TPSTAT_TABLE(TPSTAT_BENCH_KEYS);
/* Not tpstat data: a baseline, counted from load, never reset. */
static atomic64_t bench_shared = ATOMIC64_INIT(0);

static void tpstat_bench_empty(void *data, u64 value)
{
}

static void tpstat_bench_counter(void *data, u64 value)
{
	tpstat_probe_hit(data);
}

static void tpstat_bench_hist(void *data, u64 value)
{
	tpstat_probe_hit(data);
	tpstat_hist_add(&bench_hist, value);
}

static void tpstat_bench_table(void *data, u64 value)
{
	tpstat_probe_hit(data);
	if (!tpstat_table_add(&bench_table, value % TPSTAT_BENCH_KEYS, value))
		tpstat_probe_drop(data);
}

static void tpstat_bench_atomic(void *data, u64 value)
{
	atomic64_inc(&bench_shared);
}

/* One per mode; the set registers only the one mode= picks. */
static struct tpstat_probe tpstat_bench_probes[] = {
	[TPSTAT_BENCH_EMPTY] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_empty),
	[TPSTAT_BENCH_COUNTER] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_counter),
	[TPSTAT_BENCH_HIST] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_hist),
	[TPSTAT_BENCH_TABLE] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_table),
	[TPSTAT_BENCH_ATOMIC] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_atomic),
};

static int tpstat_bench_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_table_row *rows, other;
	unsigned int i, nr;
	u64 events = 0;
	int err;

	err = tpstat_hist_print_stats(m, &bench_hist, "hist");
	if (err)
		return err;
	rows = tpstat_table_rows(&bench_table, &nr, &other);
	for (i = 0; i < nr; i++)
		events += rows[i].count;
	kvfree(rows);
	seq_printf(m, "table.keys %u\ntable.count %llu\n", nr, events);
	seq_printf(m, "atomic %lld\n", atomic64_read(&bench_shared));
	return 0;
}

static struct tpstat_data *const tpstat_bench_data[] = {
	&bench_hist.data,
	&bench_table.data,
};

static struct tpstat_set tpstat_bench_set = {
	.name = "bench",
	.nr_probes = 1,
	.data = tpstat_bench_data,
	.nr_data = ARRAY_SIZE(tpstat_bench_data),
	.stats = tpstat_bench_stats,
};

static int __init tpstat_bench_init(void)
{
	int which = match_string(tpstat_bench_modes,
				 ARRAY_SIZE(tpstat_bench_modes), mode);

	if (which < 0) {
		pr_err("tpstat_bench: mode must be empty, counter, hist, table or atomic\n");
		return -EINVAL;
	}
	tpstat_bench_set.probes = &tpstat_bench_probes[which];
	return tpstat_set_register(&tpstat_bench_set);
}

static void __exit tpstat_bench_exit(void)
{
	tpstat_set_unregister(&tpstat_bench_set);
}

module_init(tpstat_bench_init);
module_exit(tpstat_bench_exit);

MODULE_DESCRIPTION("tpstat benchmark: the probe whose cost is measured");
MODULE_LICENSE("GPL");
