// SPDX-License-Identifier: GPL-2.0
/*
 * The irq set's files and its stats lines, all folded from the per-CPU and
 * keyed data when read.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "irq.h"

/* Longest stats key prefix: "hardirq.<irq>.<label>" or "tasklet.<label>". */
#define TPSTAT_IRQ_PREFIX_MAX	(TPSTAT_KEYED_LABEL_MAX + 32)

/* As /proc/softirqs names them. */
static const char *const tpstat_softirq_names[NR_SOFTIRQS] = {
	[HI_SOFTIRQ] = "HI",
	[TIMER_SOFTIRQ] = "TIMER",
	[NET_TX_SOFTIRQ] = "NET_TX",
	[NET_RX_SOFTIRQ] = "NET_RX",
	[BLOCK_SOFTIRQ] = "BLOCK",
	[IRQ_POLL_SOFTIRQ] = "IRQ_POLL",
	[TASKLET_SOFTIRQ] = "TASKLET",
	[SCHED_SOFTIRQ] = "SCHED",
	[HRTIMER_SOFTIRQ] = "HRTIMER",
	[RCU_SOFTIRQ] = "RCU",
};

/* A vector a later kernel adds is named by its number. */
static const char *softirq_name(unsigned int vec, char *buf, size_t size)
{
	if (tpstat_softirq_names[vec])
		return tpstat_softirq_names[vec];
	snprintf(buf, size, "vec%u", vec);
	return buf;
}

static u32 row_irq(const struct tpstat_keyed_row *row)
{
	return row->key.w[0] >> 32;
}

/* Handlers in IRQ order, as in /proc/interrupts. */
static int hardirq_row_cmp(const void *a, const void *b)
{
	const struct tpstat_keyed_row *x = a, *y = b;

	if (row_irq(x) != row_irq(y))
		return row_irq(x) < row_irq(y) ? -1 : 1;
	return strcmp(x->label, y->label);
}

/*
 * The body of a per-key table: a row per key in use, sorted by @cmp, then
 * the "other" row. The caller printed the header; @print_row prints a
 * row's leading columns, the per-CPU counts follow.
 */
static int keyed_table(struct seq_file *m, const struct tpstat_keyed *k,
		       cmp_func_t cmp,
		       void (*print_row)(struct seq_file *m,
					 const struct tpstat_keyed_row *row))
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(k, cmp, &nr);
	if (!rows)
		return -ENOMEM;
	/* The keys' rows, then the other row. */
	for (i = 0; i <= nr; i++) {
		print_row(m, &rows[i]);
		tpstat_keyed_print_cpu_counts(m, k, &rows[i], 12);
	}
	kvfree(rows);
	return 0;
}

static void hardirq_row(struct seq_file *m, const struct tpstat_keyed_row *row)
{
	const struct tpstat_hist_summary *s = &row->hist;

	if (row->id == tpstat_hardirq_handlers.capacity)
		seq_printf(m, "%-5s %-24s", "-", row->label);
	else
		seq_printf(m, "%-5u %-24s", row_irq(row), row->label);
	seq_printf(m, " %12llu %12llu %14llu %10llu %10llu", s->count,
		   row->counters[TPSTAT_HARDIRQ_HANDLED], s->sum, tpstat_hist_avg(s),
		   s->max);
}

int tpstat_irq_hardirq_show(struct seq_file *m, struct tpstat_set *set)
{
	seq_printf(m, "%-5s %-24s %12s %12s %14s %10s %10s", "irq", "handler",
		   "count", "handled", "total_ns", "avg_ns", "max_ns");
	tpstat_print_cpu_columns(m, 12);
	return keyed_table(m, &tpstat_hardirq_handlers, hardirq_row_cmp,
			   hardirq_row);
}

int tpstat_irq_hardirq_hist_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_keyed *k = &tpstat_hardirq_handlers;
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int err;

	seq_puts(m, "all handlers:\n");
	err = tpstat_hist_print(m, &tpstat_hardirq_all);
	if (err)
		return err;
	rows = tpstat_keyed_rows(k, hardirq_row_cmp, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		seq_printf(m, "\nirq %u %s:\n", row_irq(&rows[i]), rows[i].label);
		tpstat_keyed_print_hist(m, k, &rows[i]);
	}
	if (rows[nr].hist.count) {
		seq_puts(m, "\nother handlers:\n");
		tpstat_keyed_print_hist(m, k, &rows[nr]);
	}
	kvfree(rows);
	return 0;
}

int tpstat_irq_softirq_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_hist_summary *s;
	unsigned int vec;
	char buf[16];
	int cpu;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	seq_printf(m, "%-10s %12s %12s %14s %14s %14s %10s %10s\n", "vector",
		   "raised", "run", "total_ns", "irq_ns", "excl_ns", "avg_ns",
		   "max_ns");
	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		u64 irq_ns;

		tpstat_hist_fold_at(&tpstat_softirq_ns, vec, s);
		irq_ns = min(tpstat_counter_sum_at(&tpstat_softirq_irq_ns, vec),
			     s->sum);
		seq_printf(m, "%-10s %12llu %12llu %14llu %14llu %14llu %10llu %10llu\n",
			   softirq_name(vec, buf, sizeof(buf)),
			   tpstat_counter_sum_at(&tpstat_softirq_raised, vec),
			   tpstat_counter_sum_at(&tpstat_softirq_runs, vec),
			   s->sum, irq_ns, s->sum - irq_ns, tpstat_hist_avg(s), s->max);
	}
	kfree(s);

	/* Runs per CPU, laid out as in /proc/softirqs. */
	seq_printf(m, "\n%-13s", "run");
	tpstat_print_cpu_columns(m, 10);
	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		seq_printf(m, "%12s:", softirq_name(vec, buf, sizeof(buf)));
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, " %10llu",
				   tpstat_counter_cpu_at(&tpstat_softirq_runs,
							 cpu, vec));
		seq_putc(m, '\n');
	}
	return 0;
}

int tpstat_irq_softirq_hist_show(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int vec;
	char buf[16];
	int err = 0;

	for (vec = 0; !err && vec < NR_SOFTIRQS; vec++) {
		seq_printf(m, "%s%s:\n", vec ? "\n" : "",
			   softirq_name(vec, buf, sizeof(buf)));
		err = tpstat_hist_print_at(m, &tpstat_softirq_ns, vec);
	}
	return err;
}

int tpstat_irq_softirq_latency_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_worst_case wc;
	unsigned int vec;
	char buf[16];
	int err = 0;

	for (vec = 0; !err && vec < NR_SOFTIRQS; vec++) {
		seq_printf(m, "%s%s:", vec ? "\n" : "",
			   softirq_name(vec, buf, sizeof(buf)));
		tpstat_worst_read_at(&tpstat_softirq_worst, vec, &wc);
		tpstat_worst_print(m, &wc, "ns");
		seq_putc(m, '\n');
		err = tpstat_hist_print_at(m, &tpstat_softirq_latency, vec);
	}
	return err;
}

static void tasklet_row(struct seq_file *m, const struct tpstat_keyed_row *row)
{
	const struct tpstat_hist_summary *s = &row->hist;

	seq_printf(m, "%-48s %12llu %14llu %10llu %10llu", row->label,
		   s->count, s->sum, tpstat_hist_avg(s), s->max);
}

int tpstat_irq_tasklet_show(struct seq_file *m, struct tpstat_set *set)
{
	seq_printf(m, "%-48s %12s %14s %10s %10s", "function", "count",
		   "total_ns", "avg_ns", "max_ns");
	tpstat_print_cpu_columns(m, 12);
	return keyed_table(m, &tpstat_tasklets, NULL, tasklet_row);
}

/* "<prefix>.count", ".cpuN" and the time histogram of one key. */
static void keyed_stats(struct seq_file *m, const struct tpstat_keyed *k,
			const struct tpstat_keyed_row *row, const char *prefix)
{
	char key[TPSTAT_IRQ_PREFIX_MAX + 8];
	int cpu;

	seq_printf(m, "%s.count %llu\n", prefix, row->hist.count);
	tpstat_for_each_shown_cpu(cpu)
		seq_printf(m, "%s.cpu%d %llu\n", prefix, cpu,
			   tpstat_keyed_cpu_count(k, cpu, row->id));
	snprintf(key, sizeof(key), "%s.ns", prefix);
	tpstat_hist_summary_stats(m, &row->hist, key);
}

/*
 * The stats of every key of @k under "<what>.", "<what>.other" for the
 * keys that did not fit; @prefix names a row's key.
 */
static int keyed_all_stats(struct seq_file *m, const struct tpstat_keyed *k,
			   const char *what, cmp_func_t cmp,
			   void (*prefix)(char *buf, size_t size,
					  const struct tpstat_keyed_row *row),
			   const struct tpstat_counter *unpaired)
{
	char name[TPSTAT_IRQ_PREFIX_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(k, cmp, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "%s.keys %u\n%s.capacity %u\n", what, nr, what,
		   k->capacity);
	seq_printf(m, "%s.other %llu\n%s.unpaired %llu\n", what,
		   rows[nr].hist.count, what, tpstat_counter_sum(unpaired));
	for (i = 0; i < nr; i++) {
		prefix(name, sizeof(name), &rows[i]);
		if (k->nr_counters)
			seq_printf(m, "%s.handled %llu\n", name,
				   rows[i].counters[TPSTAT_HARDIRQ_HANDLED]);
		keyed_stats(m, k, &rows[i], name);
	}
	kvfree(rows);
	return 0;
}

static void hardirq_prefix(char *buf, size_t size,
			   const struct tpstat_keyed_row *row)
{
	char word[TPSTAT_KEYED_LABEL_MAX];

	tpstat_stats_word(word, sizeof(word), row->label);
	snprintf(buf, size, "hardirq.%u.%s", row_irq(row), word);
}

static void tasklet_prefix(char *buf, size_t size,
			   const struct tpstat_keyed_row *row)
{
	char word[TPSTAT_KEYED_LABEL_MAX];

	tpstat_stats_word(word, sizeof(word), row->label);
	snprintf(buf, size, "tasklet.%s", word);
}

static int softirq_stats(struct seq_file *m, struct tpstat_set *set)
{
	char prefix[TPSTAT_IRQ_PREFIX_MAX], key[TPSTAT_IRQ_PREFIX_MAX + 16];
	struct tpstat_worst_case wc;
	unsigned int vec;
	char buf[16];
	int err = 0;
	int cpu;

	seq_printf(m, "softirq.unpaired %llu\n",
		   tpstat_counter_sum(&tpstat_softirq_unpaired));
	for (vec = 0; !err && vec < NR_SOFTIRQS; vec++) {
		snprintf(prefix, sizeof(prefix), "softirq.%s",
			 softirq_name(vec, buf, sizeof(buf)));
		seq_printf(m, "%s.raised %llu\n%s.run %llu\n", prefix,
			   tpstat_counter_sum_at(&tpstat_softirq_raised, vec),
			   prefix, tpstat_counter_sum_at(&tpstat_softirq_runs, vec));
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, "%s.cpu%d %llu\n", prefix, cpu,
				   tpstat_counter_cpu_at(&tpstat_softirq_runs,
							 cpu, vec));
		seq_printf(m, "%s.irq_ns %llu\n", prefix,
			   tpstat_counter_sum_at(&tpstat_softirq_irq_ns, vec));
		snprintf(key, sizeof(key), "%s.ns", prefix);
		err = tpstat_hist_print_stats_at(m, &tpstat_softirq_ns, vec, key);
		if (err)
			break;
		snprintf(key, sizeof(key), "%s.latency", prefix);
		err = tpstat_hist_print_stats_at(m, &tpstat_softirq_latency, vec,
						 key);
		tpstat_worst_read_at(&tpstat_softirq_worst, vec, &wc);
		if (wc.cpu >= 0)
			seq_printf(m, "%s.worst_cpu %d\n%s.worst_after_reset_ns %llu\n",
				   key, wc.cpu, key, wc.after_reset);
	}
	return err;
}

int tpstat_irq_stats(struct seq_file *m, struct tpstat_set *set)
{
	int err;

	err = keyed_all_stats(m, &tpstat_hardirq_handlers, "hardirq",
			      hardirq_row_cmp, hardirq_prefix,
			      &tpstat_hardirq_unpaired);
	if (!err)
		err = tpstat_hist_print_stats(m, &tpstat_hardirq_all,
					      "hardirq.all.ns");
	if (!err)
		err = softirq_stats(m, set);
	if (!err)
		err = keyed_all_stats(m, &tpstat_tasklets, "tasklet", NULL,
				      tasklet_prefix, &tpstat_tasklet_unpaired);
	return err;
}
