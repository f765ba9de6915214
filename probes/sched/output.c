// SPDX-License-Identifier: GPL-2.0
/*
 * The sched set's files and its stats lines, folded when read.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "sched.h"

static const char *const sched_switch_kinds[SCHED_SWITCH_KINDS] = {
	[SCHED_VOLUNTARY] = "voluntary",
	[SCHED_INVOLUNTARY] = "involuntary",
	[SCHED_FROM_IDLE] = "from_idle",
};

static const char *const sched_life_events[SCHED_LIFE_EVENTS] = {
	[SCHED_FORKS] = "forks",
	[SCHED_EXECS] = "execs",
	[SCHED_EXITS] = "exits",
};

/*
 * One row per command with events in histogram @hist of @k, busiest first,
 * then "other": the count and, with @times, what the histogram says of
 * them.
 */
static int comm_table(struct seq_file *m, const struct tpstat_keyed *k,
		      unsigned int hist, const char *what, bool times)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows_at(k, hist, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "\n%-16s %12s", "comm", what);
	if (times)
		seq_printf(m, " %12s %12s %12s %12s %12s", "avg_ns", "p50_ns",
			   "p90_ns", "p99_ns", "max_ns");
	seq_putc(m, '\n');
	for (i = 0; i <= nr; i++) {
		const struct tpstat_hist_summary *s = &rows[i].hist;

		if (!s->count && i < nr)
			continue;
		seq_printf(m, "%-16s %12llu", rows[i].label, s->count);
		if (times)
			seq_printf(m, " %12llu %12llu %12llu %12llu %12llu",
				   tpstat_hist_avg(s), tpstat_hist_percentile(s, 50),
				   tpstat_hist_percentile(s, 90),
				   tpstat_hist_percentile(s, 99), s->max);
		seq_putc(m, '\n');
	}
	kvfree(rows);
	return 0;
}

/* Rows by their counter @c, highest first. */
static int life_cmp(const struct tpstat_keyed_row *x,
		    const struct tpstat_keyed_row *y, unsigned int c)
{
	if (x->counters[c] != y->counters[c])
		return x->counters[c] > y->counters[c] ? -1 : 1;
	return strcmp(x->label, y->label);
}

static int life_cmp_forks(const void *a, const void *b)
{
	return life_cmp(a, b, SCHED_LIFE_FORKS);
}

static int life_cmp_execs(const void *a, const void *b)
{
	return life_cmp(a, b, SCHED_LIFE_EXECS);
}

static const struct {
	const char *what;
	unsigned int counter;
	cmp_func_t cmp;
} life_counted[] = {
	{ "forks", SCHED_LIFE_FORKS, life_cmp_forks },
	{ "execs", SCHED_LIFE_EXECS, life_cmp_execs },
};

/*
 * The commands that forked and those that execed, busiest first: with
 * @stats as "<what>.<comm> N" lines, else as tables.
 */
static int life_counts(struct seq_file *m, bool stats)
{
	char word[TPSTAT_KEYED_LABEL_MAX];
	struct tpstat_keyed_row *rows;
	unsigned int t, i, nr, c;

	for (t = 0; t < ARRAY_SIZE(life_counted); t++) {
		c = life_counted[t].counter;
		rows = tpstat_keyed_rows(&tpstat_sched_life_comms,
					 life_counted[t].cmp, &nr);
		if (!rows)
			return -ENOMEM;
		if (!stats)
			seq_printf(m, "\n%-16s %12s\n", "comm", life_counted[t].what);
		for (i = 0; i <= nr; i++) {
			if (!rows[i].counters[c] && i < nr)
				continue;
			if (stats) {
				tpstat_stats_word(word, sizeof(word), rows[i].label);
				seq_printf(m, "%s.%s %llu\n", life_counted[t].what,
					   word, rows[i].counters[c]);
			} else {
				seq_printf(m, "%-16s %12llu\n", rows[i].label,
					   rows[i].counters[c]);
			}
		}
		kvfree(rows);
	}
	return 0;
}

int tpstat_sched_switches_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_keyed_row *rows;
	unsigned int kind, i, nr;
	int cpu;

	seq_printf(m, "%-12s %12s", "switches", "all");
	tpstat_for_each_shown_cpu(cpu)
		seq_printf(m, " %11s%d", "cpu", cpu);
	seq_putc(m, '\n');
	for (kind = 0; kind < SCHED_SWITCH_KINDS; kind++) {
		seq_printf(m, "%-12s %12llu", sched_switch_kinds[kind],
			   tpstat_counter_sum_at(&tpstat_sched_switches, kind));
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, " %12llu",
				   tpstat_counter_cpu_at(&tpstat_sched_switches,
							 cpu, kind));
		seq_putc(m, '\n');
	}

	rows = tpstat_keyed_rows_at(&tpstat_sched_comms, SCHED_COMM_SLICE, NULL,
				    &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "\n%-16s %12s %12s %12s %12s %12s\n", "comm", "switches",
		   "voluntary", "involuntary", "avg_slice_ns", "max_slice_ns");
	for (i = 0; i <= nr; i++) {
		u64 invol = rows[i].counters[SCHED_COMM_INVOLUNTARY];

		if (!rows[i].hist.count && i < nr)
			continue;
		seq_printf(m, "%-16s %12llu %12llu %12llu %12llu %12llu\n",
			   rows[i].label, rows[i].hist.count,
			   rows[i].hist.count - invol, invol,
			   tpstat_hist_avg(&rows[i].hist), rows[i].hist.max);
	}
	kvfree(rows);
	return 0;
}

int tpstat_sched_runqlat_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_worst_case wc;
	int err;

	tpstat_worst_read_at(&tpstat_sched_runq_worst, 0, &wc);
	seq_puts(m, "run-queue latency:");
	tpstat_worst_print(m, &wc, "ns");
	if (wc.cpu >= 0)
		seq_printf(m, ", pid %llu (%s)", wc.tag, wc.name);
	seq_putc(m, '\n');
	err = tpstat_hist_print(m, &tpstat_sched_runqlat);
	return err ?: comm_table(m, &tpstat_sched_comms, SCHED_COMM_RUNQ, "runs",
				 true);
}

/*
 * As BCC's runqlat -C: a distribution per CPU, by the CPU that ran it.
 * Latencies of 4.3 s and more are kept for all CPUs together.
 */
int tpstat_sched_runqlat_cpus_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_hist_summary *s = kmalloc(sizeof(*s), GFP_KERNEL);
	u64 per_cpu = 0, all;
	int cpu;

	if (!s)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tpstat_hist_fold_cpu_at(&tpstat_sched_runqlat, 0, cpu, s);
		per_cpu += s->count;
		if (!cpu_online(cpu))
			continue;
		seq_printf(m, "%scpu%d:\n", cpu ? "\n" : "", cpu);
		tpstat_hist_summary_print(m, s, tpstat_sched_runqlat.unit);
	}
	tpstat_hist_fold(&tpstat_sched_runqlat, s);
	all = s->count;
	kfree(s);
	seq_printf(m, "\nof 4.3 s or more, on any CPU: %llu\n",
		   all > per_cpu ? all - per_cpu : 0);
	return 0;
}

int tpstat_sched_cpudist_show(struct seq_file *m, struct tpstat_set *set)
{
	int err;

	seq_puts(m, "on-CPU time per slice:\n");
	err = tpstat_hist_print(m, &tpstat_sched_cpudist);
	return err ?: comm_table(m, &tpstat_sched_comms, SCHED_COMM_SLICE,
				 "slices", true);
}

int tpstat_sched_offcpu_show(struct seq_file *m, struct tpstat_set *set)
{
	int err;

	seq_puts(m, "off-CPU time, blocked until woken:\n");
	err = tpstat_hist_print(m, &tpstat_sched_offcpu);
	return err ?: comm_table(m, &tpstat_sched_comms, SCHED_COMM_OFF,
				 "wakeups", true);
}

int tpstat_sched_lifecycle_show(struct seq_file *m, struct tpstat_set *set)
{
	unsigned int ev;
	int err;

	for (ev = 0; ev < SCHED_LIFE_EVENTS; ev++)
		seq_printf(m, "%s %llu\n", sched_life_events[ev],
			   tpstat_counter_sum_at(&tpstat_sched_life, ev));
	seq_puts(m, "\nlifetime at exit:\n");
	err = tpstat_hist_print(m, &tpstat_sched_lifetime);
	if (!err)
		err = life_counts(m, false);
	return err ?: comm_table(m, &tpstat_sched_life_comms, 0, "exits", true);
}

static u64 sched_migrations(int from, int to)
{
	return tpstat_shared_counter_read_at(&tpstat_sched_migrations,
					     from * nr_cpu_ids + to);
}

/* Pairs by their moves, most first. */
static int migrations_cmp(const void *a, const void *b)
{
	return life_cmp(a, b, 0);
}

/*
 * The table: each pair with a row, most moves first, then "other", the
 * moves between pairs that found it full.
 */
static int migration_pairs_show(struct seq_file *m)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;

	rows = tpstat_keyed_rows(&tpstat_sched_migration_pairs, migrations_cmp,
				 &nr);
	if (!rows)
		return -ENOMEM;
	seq_printf(m, "pairs with a row: %u of %u\n\n%-8s %-8s %12s\n", nr,
		   tpstat_sched_migration_pairs.capacity, "from", "to",
		   "migrations");
	for (i = 0; i < nr; i++)
		seq_printf(m, "cpu%-5llu cpu%-5llu %12llu\n", rows[i].key.w[0],
			   rows[i].key.w[1], rows[i].counters[0]);
	seq_printf(m, "%-17s %12llu\n", "other", rows[nr].counters[0]);
	kvfree(rows);
	return 0;
}

/* The matrix: rows are where tasks came from, columns where they went. */
int tpstat_sched_migrations_show(struct seq_file *m, struct tpstat_set *set)
{
	int from, to;

	if (!tpstat_sched_migration_matrix)
		return migration_pairs_show(m);
	seq_printf(m, "%-8s", "from\\to");
	tpstat_for_each_shown_cpu(to)
		seq_printf(m, " %11s%d", "cpu", to);
	seq_putc(m, '\n');
	tpstat_for_each_shown_cpu(from) {
		seq_printf(m, "cpu%-5d", from);
		tpstat_for_each_shown_cpu(to)
			seq_printf(m, " %12llu", sched_migrations(from, to));
		seq_putc(m, '\n');
	}
	return 0;
}

/*
 * "migrations.cpuF.cpuT N": for every pair of shown CPUs from the matrix,
 * for each pair with a row from the table, and then "migrations.other N"
 * for the moves between pairs that found the table full.
 */
static int migration_stats(struct seq_file *m)
{
	struct tpstat_keyed_row *rows;
	unsigned int i, nr;
	int from, to;

	if (tpstat_sched_migration_matrix) {
		tpstat_for_each_shown_cpu(from)
			tpstat_for_each_shown_cpu(to)
				seq_printf(m, "migrations.cpu%d.cpu%d %llu\n", from,
					   to, sched_migrations(from, to));
		return 0;
	}
	rows = tpstat_keyed_rows(&tpstat_sched_migration_pairs, migrations_cmp,
				 &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		seq_printf(m, "migrations.cpu%llu.cpu%llu %llu\n", rows[i].key.w[0],
			   rows[i].key.w[1], rows[i].counters[0]);
	seq_printf(m, "migrations.other %llu\n", rows[nr].counters[0]);
	kvfree(rows);
	return 0;
}

/*
 * For every command with events in histogram @hist of @k: "<prefix>.<comm>
 * count", with @times its max, and with @kinds its switches by kind.
 */
static int comm_stats(struct seq_file *m, const struct tpstat_keyed *k,
		      unsigned int hist, const char *prefix, bool times,
		      bool kinds)
{
	struct tpstat_keyed_row *rows;
	char word[TPSTAT_KEYED_LABEL_MAX];
	unsigned int i, nr;

	rows = tpstat_keyed_rows_at(k, hist, NULL, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i <= nr; i++) {
		if (!rows[i].hist.count && i < nr)
			continue;
		tpstat_stats_word(word, sizeof(word), rows[i].label);
		seq_printf(m, "%s.%s %llu\n", prefix, word, rows[i].hist.count);
		if (times)
			seq_printf(m, "%s.%s.max %llu\n", prefix, word,
				   rows[i].hist.max);
		if (kinds) {
			u64 invol = rows[i].counters[SCHED_COMM_INVOLUNTARY];

			seq_printf(m, "%s.%s.voluntary %llu\n%s.%s.involuntary %llu\n",
				   prefix, word, rows[i].hist.count - invol,
				   prefix, word, invol);
		}
	}
	kvfree(rows);
	return 0;
}

static int runqlat_cpu_stats(struct seq_file *m)
{
	struct tpstat_hist_summary *s = kmalloc(sizeof(*s), GFP_KERNEL);
	char prefix[32];
	int cpu;

	if (!s)
		return -ENOMEM;
	tpstat_for_each_shown_cpu(cpu) {
		tpstat_hist_fold_cpu_at(&tpstat_sched_runqlat, 0, cpu, s);
		snprintf(prefix, sizeof(prefix), "runqlat.cpu%d", cpu);
		tpstat_hist_summary_stats(m, s, prefix);
	}
	kfree(s);
	return 0;
}

int tpstat_sched_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_worst_case wc;
	unsigned int i;
	u64 all = 0;
	int err;

	for (i = 0; i < SCHED_SWITCH_KINDS; i++) {
		u64 n = tpstat_counter_sum_at(&tpstat_sched_switches, i);

		seq_printf(m, "switches.%s %llu\n", sched_switch_kinds[i], n);
		all += n;
	}
	seq_printf(m, "switches.all %llu\n", all);
	for (i = 0; i < SCHED_LIFE_EVENTS; i++)
		seq_printf(m, "%s %llu\n", sched_life_events[i],
			   tpstat_counter_sum_at(&tpstat_sched_life, i));
	tpstat_worst_read_at(&tpstat_sched_runq_worst, 0, &wc);
	seq_printf(m, "runqlat.worst_pid %llu\n", wc.tag);
	err = migration_stats(m);
	if (err)
		return err;
	tpstat_tasks_print_stats(m, &tpstat_sched_tasks, "tasks");
	err = tpstat_hist_print_stats(m, &tpstat_sched_runqlat, "runqlat");
	if (!err)
		err = runqlat_cpu_stats(m);
	if (!err)
		err = tpstat_hist_print_stats(m, &tpstat_sched_cpudist, "cpudist");
	if (!err)
		err = tpstat_hist_print_stats(m, &tpstat_sched_offcpu, "offcpu");
	if (!err)
		err = tpstat_hist_print_stats(m, &tpstat_sched_lifetime, "lifetime");
	if (!err)
		err = comm_stats(m, &tpstat_sched_comms, SCHED_COMM_SLICE,
				 "slices", true, true);
	if (!err)
		err = comm_stats(m, &tpstat_sched_comms, SCHED_COMM_RUNQ, "runs",
				 true, false);
	if (!err)
		err = comm_stats(m, &tpstat_sched_comms, SCHED_COMM_OFF,
				 "wakeups", true, false);
	if (!err)
		err = life_counts(m, true);
	return err ?: comm_stats(m, &tpstat_sched_life_comms, 0, "exits", true,
				 false);
}
