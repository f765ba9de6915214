// SPDX-License-Identifier: GPL-2.0
/*
 * The net set's files and its stats lines, folded when read.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "net.h"

static const char *const net_events[NET_EVENTS] = {
	[NET_QUEUED] = "queued",
	[NET_SENT] = "sent",
	[NET_NOT_SENT] = "not_sent",
	[NET_RECEIVED] = "received",
	[NET_DROPPED] = "dropped",
	[NET_CONSUMED] = "consumed",
};

/* The receive paths, then every packet the protocols got. */
static const char *const net_rx_paths[NET_RX_PATHS] = {
	[NET_RX_BACKLOG] = "backlog",
	[NET_RX_DIRECT] = "direct",
	[NET_RX_GRO] = "gro",
	[NET_RX_LIST] = "list",
};

static const char *const net_dirs[NET_DIRS] = {
	[NET_DIR_RX] = "rx",
	[NET_DIR_TX] = "tx",
};

static u64 net_row_ifindex(const struct tpstat_keyed_row *row)
{
	return row->key.w[0];
}

static u64 net_row_netns(const struct tpstat_keyed_row *row)
{
	return row->key.w[1];
}

/*
 * Devices by namespace, then ifindex, as ip link lists them: the initial
 * namespace first, whose cookie is the first given.
 */
static int net_row_cmp(const void *a, const void *b)
{
	const struct tpstat_keyed_row *x = a, *y = b;

	if (net_row_netns(x) != net_row_netns(y))
		return net_row_netns(x) < net_row_netns(y) ? -1 : 1;
	if (net_row_ifindex(x) != net_row_ifindex(y))
		return net_row_ifindex(x) < net_row_ifindex(y) ? -1 : 1;
	return 0;
}

static bool net_row_other(const struct tpstat_keyed *k,
			  const struct tpstat_keyed_row *row)
{
	return row->id == k->capacity;
}

/*
 * A device's stats key: "<name>.<ifindex>", with "@<netns>" when it is
 * not the initial namespace's, so that two namespaces' lo never meet.
 */
static void net_row_word(char *buf, size_t size, const struct tpstat_keyed *k,
			 const struct tpstat_keyed_row *row)
{
	char name[TPSTAT_KEYED_LABEL_MAX];

	tpstat_stats_word(name, sizeof(name), row->label);
	if (net_row_other(k, row))
		snprintf(buf, size, "%s", name);
	else if (net_row_netns(row) == init_net.net_cookie)
		snprintf(buf, size, "%s.%llu", name, net_row_ifindex(row));
	else
		snprintf(buf, size, "%s.%llu@%llu", name, net_row_ifindex(row),
			 net_row_netns(row));
}

/*
 * The devices' rows, by namespace and ifindex, with their rx histograms,
 * and room for a row's tx histogram: 560 bytes, too many for the stack of
 * a show.
 */
static struct tpstat_keyed_row *net_device_rows(struct tpstat_hist_summary **tx,
						unsigned int *nr)
{
	struct tpstat_keyed_row *rows;

	*tx = kmalloc(sizeof(**tx), GFP_KERNEL);
	if (!*tx)
		return NULL;
	rows = tpstat_keyed_rows_at(&tpstat_net_devices, NET_DIR_RX, net_row_cmp, nr);
	if (!rows)
		kfree(*tx);
	return rows;
}

static void net_device_rows_free(struct tpstat_keyed_row *rows,
				 struct tpstat_hist_summary *tx)
{
	kvfree(rows);
	kfree(tx);
}

int tpstat_net_devices_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_keyed *k = &tpstat_net_devices;
	struct tpstat_hist_summary *tx;
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = net_device_rows(&tx, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%-16s %7s %10s %12s %14s %12s %14s %9s", "device",
		   "ifindex", "netns", "rx_packets", "rx_bytes", "tx_packets",
		   "tx_bytes", "not_sent");
	tpstat_print_cpu_columns(m, 12);
	for (i = 0; i <= nr; i++) {
		tpstat_keyed_row_hist(k, &rows[i], NET_DIR_TX, tx);
		if (net_row_other(k, &rows[i]))
			seq_printf(m, "%-16s %7s %10s", rows[i].label, "-", "-");
		else
			seq_printf(m, "%-16s %7llu %10llu", rows[i].label,
				   net_row_ifindex(&rows[i]), net_row_netns(&rows[i]));
		seq_printf(m, " %12llu %14llu %12llu %14llu %9llu",
			   rows[i].hist.count, rows[i].hist.sum, tx->count, tx->sum,
			   rows[i].counters[NET_DEV_NOT_SENT]);
		tpstat_keyed_print_cpu_counts(m, k, &rows[i], 12);
	}
	net_device_rows_free(rows, tx);
	return 0;
}

static void net_counter_row(struct seq_file *m, const char *name,
			    const struct tpstat_counter *c, unsigned int i)
{
	int cpu;

	seq_printf(m, "%-10s %14llu", name, tpstat_counter_sum_at(c, i));
	tpstat_for_each_shown_cpu(cpu)
		seq_printf(m, " %12llu", tpstat_counter_cpu_at(c, cpu, i));
	seq_putc(m, '\n');
}

int tpstat_net_rx_path_show(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int i;

	seq_printf(m, "%-10s %14s", "path", "total");
	tpstat_print_cpu_columns(m, 12);
	for (i = 0; i < NET_RX_PATHS; i++)
		net_counter_row(m, net_rx_paths[i], &tpstat_net_rx_paths, i);
	net_counter_row(m, "received", &tpstat_net_events, NET_RECEIVED);
	return 0;
}

int tpstat_net_sizes_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_keyed *k = &tpstat_net_devices;
	struct tpstat_hist_summary *tx;
	struct tpstat_keyed_row *rows;
	unsigned int i, nr, dir;
	int err;

	for (dir = 0; dir < NET_DIRS; dir++) {
		seq_printf(m, "%sall devices, %s:\n", dir ? "\n" : "", net_dirs[dir]);
		err = tpstat_hist_print_at(m, &tpstat_net_sizes, dir);
		if (err)
			return err;
	}
	rows = net_device_rows(&tx, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		tpstat_keyed_row_hist(k, &rows[i], NET_DIR_TX, tx);
		if (rows[i].hist.count) {
			seq_printf(m, "\n%s, rx:\n", rows[i].label);
			tpstat_keyed_print_hist(m, k, &rows[i]);
		}
		if (tx->count) {
			seq_printf(m, "\n%s, tx:\n", rows[i].label);
			tpstat_hist_summary_print(m, tx, k->unit);
		}
	}
	net_device_rows_free(rows, tx);
	return 0;
}

int tpstat_net_queue_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_keyed *k = &tpstat_net_queue_devices;
	const struct tpstat_pairs *p = &tpstat_net_queued;
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int err;

	seq_printf(m, "timed %llu, not timed: %llu unpaired, %llu dropped, %llu expired\n",
		   tpstat_pairs_stat(p, TPSTAT_PAIRS_PAIRED),
		   tpstat_pairs_stat(p, TPSTAT_PAIRS_UNPAIRED),
		   tpstat_pairs_stat(p, TPSTAT_PAIRS_DROPPED),
		   tpstat_pairs_stat(p, TPSTAT_PAIRS_EXPIRED));
	seq_puts(m, "\nall devices:\n");
	err = tpstat_hist_print(m, &tpstat_net_queue);
	if (err)
		return err;
	rows = tpstat_keyed_rows(k, net_row_cmp, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		if (!rows[i].hist.count)
			continue;
		seq_printf(m, "\n%s:\n", rows[i].label);
		tpstat_keyed_print_hist(m, k, &rows[i]);
	}
	kvfree(rows);
	return 0;
}

/* A table of @k's rows, busiest first, then "other". */
static int net_drop_table(struct seq_file *m, const struct tpstat_keyed *k,
			  const char *title)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(k, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%-48s %12s %14s\n", title, "drops", "bytes");
	for (i = 0; i <= nr; i++)
		seq_printf(m, "%-48s %12llu %14llu\n", rows[i].label,
			   rows[i].hist.count, rows[i].hist.sum);
	kvfree(rows);
	return 0;
}

int tpstat_net_drops_show(struct seq_file *m, struct tpstat_set *set)
{
	int err;

	err = net_drop_table(m, &tpstat_net_reasons, "reason");
	if (!err) {
		seq_putc(m, '\n');
		err = net_drop_table(m, &tpstat_net_drop_sites, "function");
	}
	if (!err)
		seq_printf(m, "\nconsumed, not drops: %llu\n",
			   tpstat_counter_sum_at(&tpstat_net_events, NET_CONSUMED));
	return err;
}

static int net_device_stats(struct seq_file *m)
{
	const struct tpstat_keyed *k = &tpstat_net_devices;
	char word[TPSTAT_KEYED_LABEL_MAX + 48];
	struct tpstat_hist_summary *tx;
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = net_device_rows(&tx, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		tpstat_keyed_row_hist(k, &rows[i], NET_DIR_TX, tx);
		net_row_word(word, sizeof(word), k, &rows[i]);
		seq_printf(m, "dev.%s.rx_packets %llu\ndev.%s.rx_bytes %llu\n"
			   "dev.%s.tx_packets %llu\ndev.%s.tx_bytes %llu\n"
			   "dev.%s.not_sent %llu\n",
			   word, rows[i].hist.count, word, rows[i].hist.sum,
			   word, tx->count, word, tx->sum,
			   word, rows[i].counters[NET_DEV_NOT_SENT]);
	}
	net_device_rows_free(rows, tx);
	return 0;
}

/* "<prefix>.<label> N" for every row of @k, "other" included. */
static int net_keyed_counts(struct seq_file *m, const struct tpstat_keyed *k,
			    const char *prefix)
{
	char word[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(k, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		tpstat_stats_word(word, sizeof(word), rows[i].label);
		seq_printf(m, "%s.%s %llu\n", prefix, word, rows[i].hist.count);
	}
	kvfree(rows);
	return 0;
}

int tpstat_net_stats(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int i;
	int err;

	for (i = 0; i < NET_EVENTS; i++)
		seq_printf(m, "%s %llu\n", net_events[i],
			   tpstat_counter_sum_at(&tpstat_net_events, i));
	for (i = 0; i < NET_RX_PATHS; i++)
		seq_printf(m, "rx_path.%s %llu\n", net_rx_paths[i],
			   tpstat_counter_sum_at(&tpstat_net_rx_paths, i));
	tpstat_pairs_print_stats(m, &tpstat_net_queued, "queue");
	tpstat_filter_print_stats(m, &tpstat_net_filter, "filter");
	err = net_device_stats(m);
	for (i = 0; !err && i < NET_DIRS; i++) {
		char prefix[16];

		snprintf(prefix, sizeof(prefix), "sizes.%s", net_dirs[i]);
		err = tpstat_hist_print_stats_at(m, &tpstat_net_sizes, i, prefix);
	}
	if (!err)
		err = tpstat_hist_print_stats(m, &tpstat_net_queue, "queue.ns");
	if (!err)
		err = net_keyed_counts(m, &tpstat_net_reasons, "drop");
	return err ?: net_keyed_counts(m, &tpstat_net_drop_sites, "drop_site");
}
