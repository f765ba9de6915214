// SPDX-License-Identifier: GPL-2.0
/*
 * A counting instance: tracepoints counted by name per CPU, with no
 * prototype, a filter on the task and CPU of each event and, but for the
 * count set itself, a scope of tasks.
 */
#include <linux/atomic.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <trace/events/sched.h>

#include "count.h"

/* Tracepoints counted by all instances together. */
static atomic_t count_nr_tracepoints = ATOMIC_INIT(0);

static const struct tpstat_field count_fields[] = {
	TPSTAT_FIELD_NUMBER("cpu", COUNT_CPU),
	TPSTAT_FIELD_NUMBER("pid", COUNT_PID),
	TPSTAT_FIELD_NUMBER("tgid", COUNT_TGID),
	TPSTAT_FIELD_NAME("comm", COUNT_COMM),
};

bool count_filter_pass(struct count_instance *in,
		       const struct tpstat_filter_prog *prog)
{
	u64 v[COUNT_SLOTS];

	v[COUNT_CPU] = raw_smp_processor_id();
	v[COUNT_PID] = current->pid;
	v[COUNT_TGID] = current->tgid;
	tpstat_filter_name(&v[COUNT_COMM], current->comm);
	return tpstat_filter_pass(&in->filter, prog, v);
}

/*
 * Called with the tracepoint's own arguments after @data, which it ignores:
 * fine on x86-64, refused at load on kCFI kernels.
 */
static void count_probe(void *data)
{
	count_event(data, to_instance(tpstat_probe_set(data)));
}

/* Which of an instance's scope probes is on tracepoint @name, or -1. */
static int count_scope_probe(struct count_instance *in, const char *name)
{
	int i;

	for (i = 0; in->set.parent && i < COUNT_SCOPE_PROBES; i++)
		if (!strcmp(in->probes[i].name, name))
			return i;
	return -1;
}

/* Whether @probe counts its tracepoint: a scope's only while asked to. */
static bool count_counting(struct count_instance *in,
			   const struct tpstat_probe *probe)
{
	int i = count_scope_probe(in, probe->name);

	return i < 0 ? probe->func == count_probe : in->counting[i];
}

/*
 * One more tracepoint for @in, if all instances together count fewer than
 * max_tracepoints; each instance keeps how many it took, to give them all
 * back when it goes.
 */
static int count_charge(struct count_instance *in)
{
	if (atomic_inc_return(&count_nr_tracepoints) > tpstat_count_max_tracepoints) {
		atomic_dec(&count_nr_tracepoints);
		pr_warn("tpstat_count: already counting max_tracepoints=%u tracepoints\n",
			tpstat_count_max_tracepoints);
		return -ENOSPC;
	}
	atomic_inc(&in->nr_tracepoints);
	return 0;
}

static void count_refund(struct count_instance *in, int nr)
{
	atomic_sub(nr, &in->nr_tracepoints);
	atomic_sub(nr, &count_nr_tracepoints);
}

/*
 * A tracepoint the scope probes already, counted by them from now on, or
 * a probe of its own: the instances' tracepoints are counted together,
 * and bounded.
 */
static int count_add(struct count_instance *in, const char *name)
{
	int i = count_scope_probe(in, name), err = -EEXIST;

	if (count_charge(in))
		return -ENOSPC;
	if (i < 0)
		err = tpstat_set_add_probe(&in->set, name, count_probe);
	else if (!in->counting[i])
		err = 0;
	if (!err && i >= 0)
		WRITE_ONCE(in->counting[i], true);
	if (err)
		count_refund(in, 1);
	return err;
}

static int count_remove(struct count_instance *in, const char *name)
{
	int i = count_scope_probe(in, name), err = -ENOENT;

	if (i < 0)
		err = tpstat_set_remove_probe(&in->set, name);
	else if (in->counting[i])
		err = 0;
	if (!err && i >= 0)
		WRITE_ONCE(in->counting[i], false);
	if (!err)
		count_refund(in, 1);
	return err;
}

/*
 * Once @in is unregistered, so that no control write can add or remove a
 * tracepoint any more: what it counted is free for other instances.
 */
void count_instance_release(struct count_instance *in)
{
	count_refund(in, atomic_read(&in->nr_tracepoints));
}

static int count_counts_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;
	int cpu;

	seq_printf(m, "%-32s %-9s %14s", "tracepoint", "state", "total");
	tpstat_print_cpu_columns(m, 12);

	tpstat_for_each_probe(probe, set) {
		if (!count_counting(to_instance(set), probe))
			continue;
		seq_printf(m, "%-32s %-9s %14llu", probe->name,
			   tpstat_probe_state(probe),
			   tpstat_counter_sum(&probe->hits));
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, " %12llu", tpstat_counter_cpu(&probe->hits, cpu));
		seq_putc(m, '\n');
	}
	return 0;
}

static int count_control_show(struct seq_file *m, struct tpstat_set *set)
{
	struct tpstat_probe *probe;

	tpstat_for_each_probe(probe, set)
		if (count_counting(to_instance(set), probe))
			seq_printf(m, "%s\n", probe->name);
	return 0;
}

/* "name" starts counting a tracepoint, "!name" stops, as in ftrace's set_event. */
static int count_control_write(struct tpstat_set *set,
			       const struct tpstat_file *file, char *line)
{
	if (line[0] == '!')
		return count_remove(to_instance(set), line + 1);
	return count_add(to_instance(set), line);
}

static int count_stats(struct seq_file *m, struct tpstat_set *set)
{
	struct count_instance *in = to_instance(set);
	struct tpstat_probe *probe;
	int cpu;

	tpstat_for_each_probe(probe, set) {
		if (!count_counting(in, probe))
			continue;
		tpstat_for_each_shown_cpu(cpu)
			seq_printf(m, "%s.cpu%d %llu\n", probe->name, cpu,
				   tpstat_counter_cpu(&probe->hits, cpu));
	}
	tpstat_filter_print_stats(m, &in->filter, "filter");
	if (set->parent)
		seq_printf(m, "scope.tasks %d\n", count_scope_nr_tasks(in));
	return 0;
}

/* The count set's files; an instance's have its scope for the last. */
static const struct tpstat_file count_files[] = {
	{ .name = "counts", .show = count_counts_show },
	{ .name = "control", .show = count_control_show,
	  .write = count_control_write, .no_header = true },
	TPSTAT_FILTER_FILE("filter", NULL),
};

static const struct tpstat_file count_scope_file = {
	.name = "scope", .show = count_scope_show, .write = count_scope_write,
	.no_header = true, .takes_empty = true,
};

static const struct tpstat_metric count_metrics[] = {
	TPSTAT_COUNTER_METRIC("{tracepoint}.cpu{cpu}", "cpu_hits",
			      TPSTAT_METRIC_NONE,
			      "Events of a counted tracepoint, on one CPU"),
	/* An instance's alone. */
	TPSTAT_GAUGE_METRIC("scope.tasks", "scope_tasks", TPSTAT_METRIC_NONE,
			    "Tasks in the instance's scope now, exited ones not yet freed too"),
};

/*
 * @in as a set named @name, under @parent for an instance, whose probes
 * follow its scope's tasks. The caller adds files after the first three
 * (the count set its instances file, an instance its scope) and registers.
 */
void count_instance_init(struct count_instance *in, const char *name,
			 struct tpstat_set *parent)
{
	strscpy(in->name, name, sizeof(in->name));
	in->filter = (struct tpstat_filter)TPSTAT_FILTER(count_fields);
	in->data[0] = &in->filter.data;
	memcpy(in->files, count_files, sizeof(count_files));
	in->files[2].priv = &in->filter;
	in->files[3] = count_scope_file;
	in->probes[COUNT_SCOPE_FORK] = (struct tpstat_probe)
		TPSTAT_PROBE(sched_process_fork, count_scope_fork);
	in->probes[COUNT_SCOPE_FREE] = (struct tpstat_probe)
		TPSTAT_PROBE(sched_process_free, count_scope_task_free);
	in->set = (struct tpstat_set){
		.name = in->name,
		.parent = parent,
		.probes = parent ? in->probes : NULL,
		.nr_probes = parent ? ARRAY_SIZE(in->probes) : 0,
		.files = in->files,
		.nr_files = ARRAY_SIZE(in->files),
		.data = in->data,
		.nr_data = ARRAY_SIZE(in->data),
		.stats = count_stats,
		.metrics = count_metrics,
		.nr_metrics = ARRAY_SIZE(count_metrics),
	};
}

/*
 * @list is comma-separated; blanks around a name and empty entries (a
 * trailing comma) are allowed. A name listed twice is refused, naming it,
 * rather than counted twice or once by surprise.
 */
int count_instance_add_list(struct count_instance *in, const char *list)
{
	char *copy, *cursor, *name;
	int err = 0;

	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cursor = copy;
	while (!err && (name = strsep(&cursor, ","))) {
		name = strim(name);
		if (!*name)
			continue;
		err = count_add(in, name);
		if (err == -EEXIST) {
			pr_err("tpstat_count: tracepoints= lists %s twice\n", name);
			err = -EINVAL;
		}
	}
	kfree(copy);
	return err;
}
