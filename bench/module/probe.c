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
 *   pairs     the counter, then a pairing map: an even value saves a start
 *             under value / 2, the odd one after it takes it (with the
 *             bench's sequential values, every end finds its start)
 *   keyed     the counter, then the value into the histogram of its key
 *             (value % 64) in keyed data shared by all CPUs
 *   wide      the counter, then the value into a table keyed by 16 bytes
 *             (value % 64 and a second word)
 *
 * Every mode but empty counts its events, so a test can check that the
 * benchmark measured what it claims: bench/stats has them.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <tpstat/tpstat.h>
#include "tpstat_bench_trace.h"

#define TPSTAT_BENCH_KEYS	64

/* The second word of a wide key: any constant, so long as it is not 0. */
#define TPSTAT_BENCH_WIDE_WORD	0x5450535441540000ULL

enum tpstat_bench_mode {
	TPSTAT_BENCH_EMPTY,
	TPSTAT_BENCH_COUNTER,
	TPSTAT_BENCH_HIST,
	TPSTAT_BENCH_TABLE,
	TPSTAT_BENCH_ATOMIC,
	TPSTAT_BENCH_PAIRS,
	TPSTAT_BENCH_KEYED,
	TPSTAT_BENCH_WIDE,
};

static const char * const tpstat_bench_modes[] = {
	[TPSTAT_BENCH_EMPTY] = "empty",
	[TPSTAT_BENCH_COUNTER] = "counter",
	[TPSTAT_BENCH_HIST] = "hist",
	[TPSTAT_BENCH_TABLE] = "table",
	[TPSTAT_BENCH_ATOMIC] = "atomic",
	[TPSTAT_BENCH_PAIRS] = "pairs",
	[TPSTAT_BENCH_KEYED] = "keyed",
	[TPSTAT_BENCH_WIDE] = "wide",
};

static char *mode = "counter";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode, "the probe's work: empty, counter, hist, table, atomic, pairs, keyed or wide");

static struct tpstat_hist bench_hist = TPSTAT_HIST("value");
/* Room for every key, so no event goes to "other" and all are counted. */
static struct tpstat_table bench_table = TPSTAT_TABLE(TPSTAT_BENCH_KEYS);
static struct tpstat_pairs bench_pairs = TPSTAT_PAIRS(1024, 0);
static struct tpstat_keyed bench_keyed =
	TPSTAT_KEYED(TPSTAT_BENCH_KEYS, "value", 0);
static struct tpstat_table bench_wide =
	TPSTAT_WIDE_TABLE(TPSTAT_BENCH_KEYS, 2 * sizeof(u64));
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

static void tpstat_bench_pairs(void *data, u64 value)
{
	struct tpstat_pair start = { .ts = value };

	tpstat_probe_hit(data);
	if (!(value & 1))
		tpstat_pairs_start(&bench_pairs, value >> 1, &start);
	else
		tpstat_pairs_end(&bench_pairs, value >> 1, &start);
}

static void tpstat_bench_keyed(void *data, u64 value)
{
	tpstat_probe_hit(data);
	tpstat_keyed_add(&bench_keyed, value % TPSTAT_BENCH_KEYS, value,
			 "key%llu", value % TPSTAT_BENCH_KEYS);
}

static void tpstat_bench_wide(void *data, u64 value)
{
	struct tpstat_key key = tpstat_key_pair(value % TPSTAT_BENCH_KEYS,
						TPSTAT_BENCH_WIDE_WORD);

	tpstat_probe_hit(data);
	if (!tpstat_table_add_key(&bench_wide, &key, value))
		tpstat_probe_drop(data);
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
	[TPSTAT_BENCH_PAIRS] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_pairs),
	[TPSTAT_BENCH_KEYED] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_keyed),
	[TPSTAT_BENCH_WIDE] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_wide),
};

static u64 tpstat_bench_table_events(const struct tpstat_table *t,
				     unsigned int *keys)
{
	struct tpstat_table_row *rows, other;
	unsigned int i, nr;
	u64 events;

	rows = tpstat_table_rows(t, &nr, &other);
	events = other.count;
	for (i = 0; i < nr; i++)
		events += rows[i].count;
	kvfree(rows);
	*keys = nr;
	return events;
}

static u64 tpstat_bench_keyed_events(void)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	u64 events = 0;

	rows = tpstat_keyed_rows(&bench_keyed, NULL, &nr);
	/* The keys' rows, then the other row. */
	for (i = 0; rows && i <= nr; i++)
		events += rows[i].hist.count;
	kvfree(rows);
	return events;
}

/* Every start saved or dropped, and every end, paired or not. */
static u64 tpstat_bench_pairs_events(void)
{
	return tpstat_pairs_stat(&bench_pairs, TPSTAT_PAIRS_STARTED) +
	       tpstat_pairs_stat(&bench_pairs, TPSTAT_PAIRS_DROPPED) +
	       tpstat_pairs_stat(&bench_pairs, TPSTAT_PAIRS_PAIRED) +
	       tpstat_pairs_stat(&bench_pairs, TPSTAT_PAIRS_UNPAIRED);
}

static int tpstat_bench_stats(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int keys, wide_keys;
	u64 events, wide_events;
	int err;

	err = tpstat_hist_print_stats(m, &bench_hist, "hist");
	if (err)
		return err;
	events = tpstat_bench_table_events(&bench_table, &keys);
	seq_printf(m, "table.keys %u\ntable.count %llu\n", keys, events);
	wide_events = tpstat_bench_table_events(&bench_wide, &wide_keys);
	seq_printf(m, "wide.keys %u\nwide.count %llu\n", wide_keys, wide_events);
	seq_printf(m, "keyed.count %llu\n", tpstat_bench_keyed_events());
	seq_printf(m, "pairs.events %llu\n", tpstat_bench_pairs_events());
	tpstat_pairs_print_stats(m, &bench_pairs, "pairs");
	seq_printf(m, "atomic %lld\n", atomic64_read(&bench_shared));
	return 0;
}

static struct tpstat_data *const tpstat_bench_data[] = {
	&bench_hist.data,
	&bench_table.data,
	&bench_pairs.data,
	&bench_keyed.data,
	&bench_wide.data,
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
		pr_err("tpstat_bench: mode must be empty, counter, hist, table, atomic, pairs, keyed or wide\n");
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
