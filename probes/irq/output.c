// SPDX-License-Identifier: GPL-2.0
/*
 * The irq set's files and its stats lines. Everything is folded from the
 * per-CPU data here, at read time, under the core's mutex.
 */
#include <linux/ctype.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "irq.h"

/* Longest stats key prefix: "hardirq.<irq>.<label>" or "tasklet.<label>". */
#define TPSTAT_IRQ_PREFIX_MAX	(TPSTAT_KEYS_LABEL_MAX + 32)

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

static u64 hist_avg(const struct tpstat_hist_summary *s)
{
	return s->count ? div64_u64(s->sum, s->count) : 0;
}

static u64 hist_count(const struct tpstat_hist *h)
{
	u64 count = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		count += tpstat_hist_cpu_count(h, cpu);
	return count;
}

static void print_hist_cpus(struct seq_file *m, const struct tpstat_hist *h)
{
	int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, " %12llu", tpstat_hist_cpu_count(h, cpu));
	seq_putc(m, '\n');
}

/* One key in use of a named set. */
struct named_row {
	unsigned int id;
	u64 key;
	const char *label;
	u64 count;
};

static u32 row_irq(const struct named_row *row)
{
	return row->key >> 32;
}

/* Handlers in IRQ order, as in /proc/interrupts. */
static int hardirq_row_cmp(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;

	if (row_irq(x) != row_irq(y))
		return row_irq(x) < row_irq(y) ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* Tasklets busiest first. */
static int tasklet_row_cmp(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* The keys of @n in use, sorted by @cmp, into *@rows to kvfree(). */
static int named_rows(const struct tpstat_irq_named *n, cmp_func_t cmp,
		      struct named_row **rows, unsigned int *nr)
{
	unsigned int id, ids = tpstat_keys_nr(&n->keys);
	struct named_row *row;

	*nr = 0;
	*rows = NULL;
	if (!ids)
		return 0;
	*rows = kvcalloc(ids, sizeof(**rows), GFP_KERNEL);
	if (!*rows)
		return -ENOMEM;
	for (id = 0; id < ids; id++) {
		row = &(*rows)[*nr];
		row->label = tpstat_keys_label(&n->keys, id, &row->key);
		if (!row->label)
			continue;
		row->id = id;
		row->count = hist_count(&n->ns[id]);
		(*nr)++;
	}
	sort(*rows, *nr, sizeof(**rows), cmp, NULL);
	return 0;
}

/* A label as one word, for a stats key. */
static void stat_word(char *buf, size_t size, const char *label)
{
	size_t i;

	for (i = 0; i + 1 < size && label[i]; i++)
		buf[i] = isgraph(label[i]) ? label[i] : '_';
	buf[i] = '\0';
}

/*
 * The body of a per-key table: one row per key of @n in use, sorted by
 * @cmp, then the dropped count. The caller has printed the header;
 * @print_row prints a row's leading columns, the per-CPU counts follow.
 */
static int named_table(struct seq_file *m, const struct tpstat_irq_named *n,
		       cmp_func_t cmp,
		       void (*print_row)(struct seq_file *m,
					 const struct named_row *row,
					 const struct tpstat_hist_summary *s))
{
	struct tpstat_hist_summary *s;
	struct named_row *rows;
	unsigned int i, nr;
	int err;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	err = named_rows(n, cmp, &rows, &nr);
	if (err)
		goto out;
	for (i = 0; i < nr; i++) {
		const struct tpstat_hist *h = &n->ns[rows[i].id];

		tpstat_hist_fold(h, s);
		print_row(m, &rows[i], s);
		print_hist_cpus(m, h);
	}
	seq_printf(m, "dropped %llu\n", tpstat_counter_sum(&n->dropped));
	kvfree(rows);
out:
	kfree(s);
	return err;
}

static void hardirq_row(struct seq_file *m, const struct named_row *row,
			const struct tpstat_hist_summary *s)
{
	seq_printf(m, "%-5u %-24s %12llu %12llu %14llu %10llu %10llu",
		   row_irq(row), row->label, s->count,
		   tpstat_counter_sum(&tpstat_hardirq_handled[row->id]),
		   s->sum, hist_avg(s), s->max);
}

int tpstat_irq_hardirq_show(struct seq_file *m, struct tpstat_set *set)
{
	seq_printf(m, "%-5s %-24s %12s %12s %14s %10s %10s", "irq", "handler",
		   "count", "handled", "total_ns", "avg_ns", "max_ns");
	tpstat_print_cpu_columns(m, 12);
	return named_table(m, &tpstat_hardirq_handlers, hardirq_row_cmp,
			   hardirq_row);
}

int tpstat_irq_hardirq_hist_show(struct seq_file *m, struct tpstat_set *set)
{
	const struct tpstat_irq_named *n = &tpstat_hardirq_handlers;
	struct named_row *rows;
	unsigned int i, nr;
	int err;

	seq_puts(m, "all handlers:\n");
	err = tpstat_hist_print(m, &tpstat_hardirq_all);
	if (err)
		return err;
	err = named_rows(n, hardirq_row_cmp, &rows, &nr);
	for (i = 0; !err && i < nr; i++) {
		seq_printf(m, "\nirq %u %s:\n", row_irq(&rows[i]), rows[i].label);
		err = tpstat_hist_print(m, &n->ns[rows[i].id]);
	}
	kvfree(rows);
	return err;
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
		const struct tpstat_softirq_vec *v = &tpstat_softirqs[vec];
		u64 irq_ns;

		tpstat_hist_fold(&v->ns, s);
		irq_ns = min(tpstat_counter_sum(&v->irq_ns), s->sum);
		seq_printf(m, "%-10s %12llu %12llu %14llu %14llu %14llu %10llu %10llu\n",
			   softirq_name(vec, buf, sizeof(buf)),
			   tpstat_counter_sum(&v->raised),
			   tpstat_counter_sum(&v->runs), s->sum, irq_ns,
			   s->sum - irq_ns, hist_avg(s), s->max);
	}
	kfree(s);

	/* Runs per CPU, laid out as in /proc/softirqs. */
	seq_printf(m, "\n%-13s", "run");
	tpstat_print_cpu_columns(m, 10);
	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		seq_printf(m, "%12s:", softirq_name(vec, buf, sizeof(buf)));
		for_each_possible_cpu(cpu)
			seq_printf(m, " %10llu",
				   tpstat_counter_cpu(&tpstat_softirqs[vec].runs, cpu));
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
		err = tpstat_hist_print(m, &tpstat_softirqs[vec].ns);
	}
	return err;
}

int tpstat_irq_softirq_latency_show(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int vec;
	char buf[16];
	int err = 0;

	for (vec = 0; !err && vec < NR_SOFTIRQS; vec++) {
		u64 ns, at, secs;
		u32 rem;
		int cpu;

		seq_printf(m, "%s%s:", vec ? "\n" : "",
			   softirq_name(vec, buf, sizeof(buf)));
		tpstat_softirq_worst(vec, &cpu, &ns, &at);
		if (cpu >= 0) {
			secs = div_u64_rem(at - min(at, set->reset_ns),
					   NSEC_PER_SEC, &rem);
			seq_printf(m, " worst %llu ns on cpu%d, %llu.%03u s after reset",
				   ns, cpu, secs, rem / (u32)NSEC_PER_MSEC);
		}
		seq_putc(m, '\n');
		err = tpstat_hist_print(m, &tpstat_softirqs[vec].latency);
	}
	return err;
}

static void tasklet_row(struct seq_file *m, const struct named_row *row,
			const struct tpstat_hist_summary *s)
{
	seq_printf(m, "%-48s %12llu %14llu %10llu %10llu", row->label,
		   s->count, s->sum, hist_avg(s), s->max);
}

int tpstat_irq_tasklet_show(struct seq_file *m, struct tpstat_set *set)
{
	seq_printf(m, "%-48s %12s %14s %10s %10s", "function", "count",
		   "total_ns", "avg_ns", "max_ns");
	tpstat_print_cpu_columns(m, 12);
	return named_table(m, &tpstat_tasklets, tasklet_row_cmp, tasklet_row);
}

/* "<prefix>.count", ".cpuN" and the time histogram of one key. */
static int named_stats(struct seq_file *m, const struct tpstat_hist *h,
		       const char *prefix)
{
	char key[TPSTAT_IRQ_PREFIX_MAX + 8];
	int cpu;

	seq_printf(m, "%s.count %llu\n", prefix, hist_count(h));
	for_each_possible_cpu(cpu)
		seq_printf(m, "%s.cpu%d %llu\n", prefix, cpu,
			   tpstat_hist_cpu_count(h, cpu));
	snprintf(key, sizeof(key), "%s.ns", prefix);
	return tpstat_hist_print_stats(m, h, key);
}

static void named_totals(struct seq_file *m, const struct tpstat_irq_named *n,
			 const char *what, unsigned int nr)
{
	seq_printf(m, "%s.keys %u\n%s.capacity %u\n", what, nr, what,
		   n->keys.capacity);
	seq_printf(m, "%s.dropped %llu\n%s.unpaired %llu\n", what,
		   tpstat_counter_sum(&n->dropped), what,
		   tpstat_counter_sum(&n->unpaired));
}

static int hardirq_stats(struct seq_file *m)
{
	const struct tpstat_irq_named *n = &tpstat_hardirq_handlers;
	char prefix[TPSTAT_IRQ_PREFIX_MAX], word[TPSTAT_KEYS_LABEL_MAX];
	struct named_row *rows;
	unsigned int i, nr;
	int err;

	err = named_rows(n, hardirq_row_cmp, &rows, &nr);
	if (err)
		return err;
	named_totals(m, n, "hardirq", nr);
	err = tpstat_hist_print_stats(m, &tpstat_hardirq_all, "hardirq.all.ns");
	for (i = 0; !err && i < nr; i++) {
		stat_word(word, sizeof(word), rows[i].label);
		snprintf(prefix, sizeof(prefix), "hardirq.%u.%s",
			 row_irq(&rows[i]), word);
		seq_printf(m, "%s.handled %llu\n", prefix,
			   tpstat_counter_sum(&tpstat_hardirq_handled[rows[i].id]));
		err = named_stats(m, &n->ns[rows[i].id], prefix);
	}
	kvfree(rows);
	return err;
}

static int softirq_stats(struct seq_file *m, struct tpstat_set *set)
{
	char prefix[TPSTAT_IRQ_PREFIX_MAX], key[TPSTAT_IRQ_PREFIX_MAX + 16];
	unsigned int vec;
	char buf[16];
	int err = 0;

	seq_printf(m, "softirq.unpaired %llu\n",
		   tpstat_counter_sum(&tpstat_softirq_unpaired));
	for (vec = 0; !err && vec < NR_SOFTIRQS; vec++) {
		const struct tpstat_softirq_vec *v = &tpstat_softirqs[vec];
		u64 ns, at;
		int cpu;

		snprintf(prefix, sizeof(prefix), "softirq.%s",
			 softirq_name(vec, buf, sizeof(buf)));
		seq_printf(m, "%s.raised %llu\n%s.run %llu\n", prefix,
			   tpstat_counter_sum(&v->raised), prefix,
			   tpstat_counter_sum(&v->runs));
		for_each_possible_cpu(cpu)
			seq_printf(m, "%s.cpu%d %llu\n", prefix, cpu,
				   tpstat_counter_cpu(&v->runs, cpu));
		seq_printf(m, "%s.irq_ns %llu\n", prefix,
			   tpstat_counter_sum(&v->irq_ns));
		snprintf(key, sizeof(key), "%s.ns", prefix);
		err = tpstat_hist_print_stats(m, &v->ns, key);
		if (err)
			break;
		snprintf(key, sizeof(key), "%s.latency", prefix);
		err = tpstat_hist_print_stats(m, &v->latency, key);
		tpstat_softirq_worst(vec, &cpu, &ns, &at);
		if (cpu >= 0)
			seq_printf(m, "%s.worst_cpu %d\n%s.worst_after_reset_ns %llu\n",
				   key, cpu, key, at - min(at, set->reset_ns));
	}
	return err;
}

static int tasklet_stats(struct seq_file *m)
{
	const struct tpstat_irq_named *n = &tpstat_tasklets;
	char prefix[TPSTAT_IRQ_PREFIX_MAX], word[TPSTAT_KEYS_LABEL_MAX];
	struct named_row *rows;
	unsigned int i, nr;
	int err;

	err = named_rows(n, tasklet_row_cmp, &rows, &nr);
	if (err)
		return err;
	named_totals(m, n, "tasklet", nr);
	for (i = 0; !err && i < nr; i++) {
		stat_word(word, sizeof(word), rows[i].label);
		snprintf(prefix, sizeof(prefix), "tasklet.%s", word);
		err = named_stats(m, &n->ns[rows[i].id], prefix);
	}
	kvfree(rows);
	return err;
}

int tpstat_irq_stats(struct seq_file *m, struct tpstat_set *set)
{
	int err = hardirq_stats(m);

	if (!err)
		err = softirq_stats(m, set);
	if (!err)
		err = tasklet_stats(m);
	return err;
}
