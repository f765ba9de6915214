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
 *   filter    the counter, behind the filter written to bench/filter: its
 *             fields are the event's value, the CPU and the task's command
 *   devices   no tpstat_bench_fire probe: tpstat_net's per-device work
 *             alone, on net_dev_start_xmit and netif_receive_skb
 *
 * Every mode but empty counts its events, so a test can check that the
 * benchmark measured what it claims: bench/stats has them.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <trace/events/net.h>

#include <tpstat/tpstat.h>
#include "tpstat_bench_trace.h"
/* tpstat_net's own code for a device's row, so that devices times it. */
#include "../../probes/net/net.h"

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
	TPSTAT_BENCH_FILTER,
	TPSTAT_BENCH_DEVICES,
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
	[TPSTAT_BENCH_FILTER] = "filter",
	[TPSTAT_BENCH_DEVICES] = "devices",
};

static char *mode = "counter";
module_param(mode, charp, 0400);
MODULE_PARM_DESC(mode, "the probe's work: empty, counter, hist, table, atomic, pairs, keyed, wide, filter or devices");

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

/*
 * What mode=filter's filter may test: fields as cheap to fetch as a net
 * probe's, and ones ftrace's filters know too (value, CPU, comm), so the
 * same expression can be timed on both.
 */
enum { BENCH_VALUE, BENCH_CPU, BENCH_COMM, BENCH_COMM_HI, BENCH_SLOTS };

static const struct tpstat_field tpstat_bench_fields[] = {
	TPSTAT_FIELD_NUMBER("value", BENCH_VALUE),
	TPSTAT_FIELD_NUMBER("cpu", BENCH_CPU),
	TPSTAT_FIELD_NAME("comm", BENCH_COMM),
};

static struct tpstat_filter bench_filter = TPSTAT_FILTER(tpstat_bench_fields);

/* As tpstat_net's devices, with its defaults. */
static struct tpstat_keyed bench_devices =
	TPSTAT_KEYED_HISTS_PER_CPU(TPSTAT_BENCH_KEYS, "bytes", NET_DIRS,
				   NET_DEV_COUNTERS);

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

/* The counter's probe behind a filter, filling the fields only for one. */
static void tpstat_bench_filter(void *data, u64 value)
{
	const struct tpstat_filter_prog *prog = tpstat_filter_prog(&bench_filter);

	if (prog) {
		u64 v[BENCH_SLOTS];

		v[BENCH_VALUE] = value;
		v[BENCH_CPU] = raw_smp_processor_id();
		tpstat_filter_name(&v[BENCH_COMM], current->comm);
		if (!tpstat_filter_pass(&bench_filter, prog, v))
			return;
	}
	tpstat_probe_hit(data);
}

/* tpstat_net's net_dev_start_xmit and netif_receive_skb, devices alone. */
static void tpstat_bench_device_tx(void *data, const struct sk_buff *skb,
				   const struct net_device *dev)
{
	tpstat_probe_hit(data);
	net_device_add(&bench_devices, dev, NET_DIR_TX, net_skb_len(skb));
}

static void tpstat_bench_device_rx(void *data, struct sk_buff *skb)
{
	tpstat_probe_hit(data);
	net_device_add(&bench_devices, skb->dev, NET_DIR_RX, net_skb_len(skb));
}

static struct tpstat_probe tpstat_bench_device_probes[] = {
	TPSTAT_PROBE(net_dev_start_xmit, tpstat_bench_device_tx),
	TPSTAT_PROBE(netif_receive_skb, tpstat_bench_device_rx),
};

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
	[TPSTAT_BENCH_FILTER] =
		TPSTAT_MODULE_PROBE(tpstat_bench_fire, tpstat_bench_filter),
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

/* Packets the devices' rows counted in direction @dir, other included. */
static u64 tpstat_bench_device_packets(unsigned int dir)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	u64 packets = 0;

	rows = tpstat_keyed_rows_at(&bench_devices, dir, NULL, &nr);
	for (i = 0; rows && i <= nr; i++)
		packets += rows[i].hist.count;
	kvfree(rows);
	return packets;
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
	tpstat_filter_print_stats(m, &bench_filter, "filter");
	seq_printf(m, "devices.rx_packets %llu\ndevices.tx_packets %llu\n",
		   tpstat_bench_device_packets(NET_DIR_RX),
		   tpstat_bench_device_packets(NET_DIR_TX));
	return 0;
}

static struct tpstat_set tpstat_bench_set = {
	.name = "bench",
	.nr_probes = 1,
	TPSTAT_DATA(&bench_hist.data,
		    &bench_table.data,
		    &bench_pairs.data,
		    &bench_keyed.data,
		    &bench_wide.data,
		    &bench_filter.data,
		    &bench_devices.data),
	TPSTAT_FILES(TPSTAT_FILTER_FILE("filter", &bench_filter)),
	.stats = tpstat_bench_stats,
};

static int __init tpstat_bench_init(void)
{
	int which = match_string(tpstat_bench_modes,
				 ARRAY_SIZE(tpstat_bench_modes), mode);

	if (which < 0) {
		pr_err("tpstat_bench: mode must be empty, counter, hist, table, atomic, pairs, keyed, wide, filter or devices\n");
		return -EINVAL;
	}
	if (which == TPSTAT_BENCH_DEVICES) {
		tpstat_bench_set.probes = tpstat_bench_device_probes;
		tpstat_bench_set.nr_probes = ARRAY_SIZE(tpstat_bench_device_probes);
	} else {
		tpstat_bench_set.probes = &tpstat_bench_probes[which];
	}
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
