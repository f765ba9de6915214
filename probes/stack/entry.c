// SPDX-License-Identifier: GPL-2.0
/*
 * Entries: "TRACEPOINT by KEY[,KEY...]" (or "offcpu by ...") parsed, made
 * into a set of their own under the stack set's directory, and removed
 * again.
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "stack.h"

static const char *const stack_keys[] = {
	"stack", "comm", "pid", "tgid", "cpu",
};

/* Guards the entries; taken before any lock of the core's. */
static DEFINE_MUTEX(stack_entries_lock);
/*
 * And their list's links, for control's show, which runs under the core's
 * locks (a set's and CPU hotplug's) and so may not take the mutex above.
 */
static DEFINE_SPINLOCK(stack_list_lock);
static LIST_HEAD(stack_entries);
static unsigned int stack_nr_entries;
/*
 * Set as the module goes, before the stack set's directory is removed:
 * a write to control making an entry in it then would wait on that
 * removal, which waits for the write.
 */
static bool stack_closed;

static struct stack_entry *stack_find(const char *name)
{
	struct stack_entry *e;

	list_for_each_entry(e, &stack_entries, node)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* "stack,comm" to its bits, or 0 if a key is unknown or given twice. */
static unsigned int stack_parse_by(char *keys)
{
	unsigned int by = 0, bit, i;
	char *key;

	while ((key = strsep(&keys, ","))) {
		key = strim(key);
		for (i = 0; i < ARRAY_SIZE(stack_keys); i++)
			if (!strcmp(key, stack_keys[i]))
				break;
		bit = 1U << i;
		if (i == ARRAY_SIZE(stack_keys) || by & bit)
			return 0;
		by |= bit;
	}
	return by;
}

/* "NAME by KEYS": its name and what it counts by, or -EINVAL. */
static int stack_parse(char *line, char **name, unsigned int *by)
{
	char *word;

	line = skip_spaces(line);
	*name = strsep(&line, " \t");
	line = skip_spaces(line ?: "");
	word = strsep(&line, " \t");
	if (!tpstat_name_valid(*name) || strcmp(word, "by") || !line)
		return -EINVAL;
	*by = stack_parse_by(line);
	return *by ? 0 : -EINVAL;
}

static const struct tpstat_metric tpstat_stack_entry_metrics[] = {
	TPSTAT_COUNTER_METRIC("events", "events", TPSTAT_METRIC_NONE,
			      "Events the entry counted, its rows' and other's"),
	TPSTAT_GAUGE_METRIC("rows", "rows", TPSTAT_METRIC_NONE,
			    "Rows the entry holds: its stacks, or keys, since the reset"),
	TPSTAT_GAUGE_METRIC("capacity", "capacity", TPSTAT_METRIC_NONE,
			    "Rows the entry can hold (max_stacks)"),
	TPSTAT_COUNTER_METRIC("other", "other", TPSTAT_METRIC_NONE,
			      "Events whose stack or keys found no row"),
	/* A row of an entry by stack: its rank moves as the rows count. */
	TPSTAT_GAUGE_METRIC("row.stack{rank}[.comm.{comm+}][.pid.{pid}][.tgid.{tgid}][.cpu.{cpu}]",
			    "ranked_row_events",
			    TPSTAT_METRIC_NONE,
			    "Events of the row of this rank in the stacks file: a rank, not one stack"
	),
	TPSTAT_COUNTER_METRIC("row[.comm.{comm+}][.pid.{pid}][.tgid.{tgid}][.cpu.{cpu}]",
			      "row_events",
			      TPSTAT_METRIC_NONE,
			      "Events of a command, pid, tgid or CPU, as the entry counts by them"),
};

static struct stack_entry *stack_entry_new(const char *name, unsigned int by)
{
	struct stack_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	strscpy(e->name, name, sizeof(e->name));
	e->by = by;
	e->probe = (struct tpstat_probe){
		.name = e->name,
		.func = tpstat_stack_probe,
		.in_module = true,
		.priv = e,
	};
	e->stacks = (struct tpstat_stacks)TPSTAT_STACKS(tpstat_stack_max_stacks,
							tpstat_stack_depth);
	e->stacks.collide = tpstat_stack_collide;
	e->data[0] = &e->stacks.data;
	e->set = (struct tpstat_set){
		.name = e->name,
		.parent = &tpstat_stack_set,
		.probes = &e->probe,
		.nr_probes = 1,
		.files = tpstat_stack_entry_files,
		.nr_files = ARRAY_SIZE(tpstat_stack_entry_files),
		.data = e->data,
		.nr_data = 1,
		.stats = tpstat_stack_entry_stats,
		.metrics = tpstat_stack_entry_metrics,
		.nr_metrics = ARRAY_SIZE(tpstat_stack_entry_metrics),
	};
	if (!strcmp(name, STACK_OFFCPU))
		tpstat_stack_offcpu_init(e);
	return e;
}

int tpstat_stack_add(char *line)
{
	struct stack_entry *e;
	unsigned int by;
	char *name;
	int err;

	err = stack_parse(line, &name, &by);
	if (err) {
		pr_err("tpstat_stack: not 'TRACEPOINT|offcpu by KEY[,KEY...]', keys stack, comm, pid, tgid and cpu\n");
		return err;
	}
	mutex_lock(&stack_entries_lock);
	err = -ENODEV;
	if (stack_closed)
		goto unlock;
	err = -EEXIST;
	if (stack_find(name))
		goto unlock;
	err = -ENOSPC;
	if (stack_nr_entries >= tpstat_stack_max_entries) {
		pr_warn("tpstat_stack: already counting max_tracepoints=%u tracepoints\n",
			tpstat_stack_max_entries);
		goto unlock;
	}
	err = -ENOMEM;
	e = stack_entry_new(name, by);
	if (!e)
		goto unlock;
	err = tpstat_set_register(&e->set);
	if (err) {
		kfree(e);
		goto unlock;
	}
	spin_lock(&stack_list_lock);
	list_add_tail(&e->node, &stack_entries);
	spin_unlock(&stack_list_lock);
	stack_nr_entries++;
unlock:
	mutex_unlock(&stack_entries_lock);
	return err;
}

/* Its probe detached and its files gone before it is freed. */
static void stack_entry_remove(struct stack_entry *e)
{
	spin_lock(&stack_list_lock);
	list_del(&e->node);
	spin_unlock(&stack_list_lock);
	stack_nr_entries--;
	tpstat_set_unregister(&e->set);
	kfree(e);
}

int tpstat_stack_remove(const char *name)
{
	struct stack_entry *e;
	int err = -ENOENT;

	if (!tpstat_name_valid(name))
		return -EINVAL;
	mutex_lock(&stack_entries_lock);
	e = stack_find(name);
	if (e) {
		stack_entry_remove(e);
		err = 0;
	}
	mutex_unlock(&stack_entries_lock);
	return err;
}

void tpstat_stack_close(void)
{
	struct stack_entry *e, *next;

	mutex_lock(&stack_entries_lock);
	stack_closed = true;
	list_for_each_entry_safe(e, next, &stack_entries, node)
		stack_entry_remove(e);
	mutex_unlock(&stack_entries_lock);
}

void tpstat_stack_print_by(struct seq_file *m, unsigned int by)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stack_keys); i++) {
		if (by & (1U << i)) {
			seq_printf(m, "%s%s", sep, stack_keys[i]);
			sep = ",";
		}
	}
}

int tpstat_stack_control_show(struct seq_file *m, struct tpstat_set *set)
{
	struct stack_entry *e;

	spin_lock(&stack_list_lock);
	list_for_each_entry(e, &stack_entries, node) {
		seq_printf(m, "%s by ", e->name);
		tpstat_stack_print_by(m, e->by);
		seq_putc(m, '\n');
	}
	spin_unlock(&stack_list_lock);
	return 0;
}
