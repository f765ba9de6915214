// SPDX-License-Identifier: GPL-2.0
/*
 * An entry's files: its stacks, busiest first, the same rows folded for
 * flame graphs, and its stats lines.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "stack.h"

static struct stack_entry *to_entry(struct tpstat_set *set)
{
	return container_of(set, struct stack_entry, set);
}

/* A row's command, NUL-terminated: the key keeps its 16 bytes. */
static void stack_row_comm(const struct tpstat_stack_row *row, char *comm)
{
	memcpy(comm, &row->key.w[STACK_WORD_COMM], TASK_COMM_LEN);
	comm[TASK_COMM_LEN] = '\0';
}

/*
 * The keys the entry counts by: in the stacks file "comm sh, pid 12,
 * tgid 12, cpu 1"; @folded, the outermost frames "sh;pid 12;tgid 12;cpu 1",
 * the command alone as flame graph tools expect it, a blank or a ';' in it
 * made '_' so that it splits neither the line's frames nor its count.
 * Returns whether it printed any.
 */
static bool stack_print_keys(struct seq_file *m, const struct stack_entry *e,
			     const struct tpstat_stack_row *row, bool folded)
{
	char comm[TASK_COMM_LEN + 1], word[TASK_COMM_LEN + 1];
	const char *sep = folded ? ";" : ", ", *next = "";

	if (e->by & STACK_BY_COMM) {
		stack_row_comm(row, comm);
		if (folded) {
			tpstat_stats_word(word, sizeof(word), comm);
			strreplace(word, ';', '_');
			seq_puts(m, word);
		} else {
			seq_printf(m, "comm %s", comm);
		}
		next = sep;
	}
	if (e->by & STACK_BY_PID) {
		seq_printf(m, "%spid %u", next, (u32)row->key.w[STACK_WORD_IDS]);
		next = sep;
	}
	if (e->by & STACK_BY_TGID) {
		seq_printf(m, "%stgid %u", next, (u32)(row->key.w[STACK_WORD_IDS] >> 32));
		next = sep;
	}
	if (e->by & STACK_BY_CPU) {
		seq_printf(m, "%scpu %llu", next, row->key.w[STACK_WORD_CPU]);
		next = sep;
	}
	return *next;
}

/* The events of rows [from, to), and the time they waited in ns (offcpu's). */
static void stack_rows_total(const struct tpstat_stack_row *rows,
			     unsigned int from, unsigned int to,
			     u64 *count, u64 *waited)
{
	*count = 0;
	*waited = 0;
	for (; from < to; from++) {
		*count += rows[from].count;
		*waited += rows[from].sum;
	}
}

/*
 * A row's value as the stacks file ends it: its count, or for the offcpu
 * entry the microseconds it waited, as offcputime prints them, and in how
 * many waits.
 */
static void stack_print_value(struct seq_file *m, const struct stack_entry *e,
			      u64 count, u64 waited, const char *unit)
{
	if (e->offcpu)
		seq_printf(m, "%llu us in %llu %s", div_u64(waited, NSEC_PER_USEC),
			   count, unit);
	else
		seq_printf(m, "%llu %s", count, unit);
}

/* What rows [from, to) add up to, as stack_print_value() prints a row. */
static void stack_print_total(struct seq_file *m, const struct stack_entry *e,
			      const struct tpstat_stack_row *rows,
			      unsigned int from, unsigned int to)
{
	u64 count, waited;

	stack_rows_total(rows, from, to, &count, &waited);
	stack_print_value(m, e, count, waited, "events\n");
}

/*
 * As stackcount prints them: each row's frames, innermost first, then its
 * keys, then its count; the top rows, what the rest add up to, and the
 * events of the stacks that did not fit.
 */
static int stack_stacks_show(struct seq_file *m, struct tpstat_set *set)
{
	struct stack_entry *e = to_entry(set);
	struct tpstat_stack_row *rows;
	unsigned int i, nr, shown;

	rows = tpstat_stacks_rows(&e->stacks, &nr);
	if (!rows)
		return -ENOMEM;
	shown = min(nr, tpstat_stack_top);
	seq_printf(m, "%s by ", e->name);
	tpstat_stack_print_by(m, e->by);
	seq_printf(m, ": %u rows, ", nr);
	stack_print_total(m, e, rows, 0, nr + 1);
	for (i = 0; i < shown; i++) {
		seq_putc(m, '\n');
		tpstat_stacks_print_frames(m, &rows[i], "    ");
		if (e->by & ~STACK_BY_STACK) {
			seq_puts(m, "    ");
			stack_print_keys(m, e, &rows[i], false);
			seq_putc(m, '\n');
		}
		seq_puts(m, "        ");
		if (e->offcpu)
			stack_print_value(m, e, rows[i].count, rows[i].sum, "waits\n");
		else
			seq_printf(m, "%llu\n", rows[i].count);
	}
	if (shown < nr) {
		seq_printf(m, "\n%u more rows (top=%u): ", nr - shown, tpstat_stack_top);
		stack_print_total(m, e, rows, shown, nr);
	}
	seq_puts(m, "\nother: ");
	stack_print_value(m, e, rows[nr].count, rows[nr].sum, "events");
	seq_printf(m, ", whose stacks did not fit (max_stacks=%u)%s\n",
		   e->stacks.capacity, e->offcpu ? " or were held before the reset" : "");
	kvfree(rows);
	return 0;
}

static u64 stack_folded_value(const struct stack_entry *e,
			      const struct tpstat_stack_row *row)
{
	return e->offcpu ? div_u64(row->sum, NSEC_PER_USEC) : row->count;
}

/*
 * Every row as flamegraph.pl, speedscope and Grafana read folded stacks:
 * "key;...;outermost;...;leaf COUNT", frames named "function [module]"
 * without their offsets, which would make one function many frames; then
 * the events of the stacks that did not fit as "[other] COUNT", so that
 * the lines add up to the entry's events. The offcpu entry's value is the
 * time waited, in microseconds, as offcputime -f gives it: frames as wide
 * as the time spent under them.
 */
static int stack_folded_show(struct seq_file *m, struct tpstat_set *set)
{
	struct stack_entry *e = to_entry(set);
	struct tpstat_stack_row *rows;
	unsigned int i, nr;

	rows = tpstat_stacks_rows(&e->stacks, &nr);
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		tpstat_stacks_print_folded(m, &rows[i],
					   stack_print_keys(m, e, &rows[i], true));
		seq_printf(m, " %llu\n", stack_folded_value(e, &rows[i]));
	}
	seq_printf(m, "[other] %llu\n", stack_folded_value(e, &rows[nr]));
	kvfree(rows);
	return 0;
}

const struct tpstat_file tpstat_stack_entry_files[2] = {
	{ .name = "stacks", .show = stack_stacks_show },
	/* No header: folded stacks have no comments. */
	{ .name = "folded", .show = stack_folded_show, .no_header = true },
};

/* A row's stats key: "stack<rank>" for a stack, then its keys as words. */
static void stack_row_word(char *buf, size_t size, const struct stack_entry *e,
			   const struct tpstat_stack_row *row, unsigned int rank)
{
	char comm[TASK_COMM_LEN + 1], word[TASK_COMM_LEN + 1];
	size_t n = 0;

	buf[0] = '\0';
	if (e->by & STACK_BY_STACK)
		n += scnprintf(buf + n, size - n, ".stack%u", rank);
	if (e->by & STACK_BY_COMM) {
		stack_row_comm(row, comm);
		tpstat_stats_word(word, sizeof(word), comm);
		n += scnprintf(buf + n, size - n, ".comm.%s", word);
	}
	if (e->by & STACK_BY_PID)
		n += scnprintf(buf + n, size - n, ".pid.%u",
			       (u32)row->key.w[STACK_WORD_IDS]);
	if (e->by & STACK_BY_TGID)
		n += scnprintf(buf + n, size - n, ".tgid.%u",
			       (u32)(row->key.w[STACK_WORD_IDS] >> 32));
	if (e->by & STACK_BY_CPU)
		scnprintf(buf + n, size - n, ".cpu.%llu", row->key.w[STACK_WORD_CPU]);
}

/*
 * "events N", "rows N", "other N", then each row's count: by its keys, and
 * a stack by its rank in the stacks file, from 1. The offcpu entry's have
 * their time waited beside, "waited N" in ns, and its task table's lines.
 */
int tpstat_stack_entry_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct stack_entry *e = to_entry(set);
	struct tpstat_stack_row *rows;
	char word[96];
	unsigned int i, nr;
	u64 count, waited;

	rows = tpstat_stacks_rows(&e->stacks, &nr);
	if (!rows)
		return -ENOMEM;
	stack_rows_total(rows, 0, nr + 1, &count, &waited);
	seq_printf(m, "events %llu\nrows %u\ncapacity %u\nother %llu\n",
		   count, nr, e->stacks.capacity, rows[nr].count);
	if (e->offcpu) {
		seq_printf(m, "waited %llu\nother.waited %llu\n",
			   waited, rows[nr].sum);
		tpstat_tasks_print_stats(m, &e->tasks, "tasks");
	}
	for (i = 0; i < nr; i++) {
		stack_row_word(word, sizeof(word), e, &rows[i], i + 1);
		seq_printf(m, "row%s %llu\n", word, rows[i].count);
		if (e->offcpu)
			seq_printf(m, "waited%s %llu\n", word, rows[i].sum);
	}
	kvfree(rows);
	return 0;
}
